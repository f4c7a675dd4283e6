//! The battle's named chains and their payloads. Content (Rust behaviours and Lua scripts alike)
//! changes the game only through these.
//!
//! The [`chains!`] table below is the single list of chains: it declares the fields of
//! [`Chains`], the names scripts use, and the dispatch from a name to the typed chain.

use mlua::{Lua, Table, Value};
use serde::Serialize;

use super::entity::EntityId;
use super::lua_api::{
    damage_types_from_lua, damage_types_to_lua, entity_from_lua, entity_to_lua,
    opt_entity_from_lua, opt_entity_to_lua,
};
use super::scripting::{self, LuaRegistration};
use super::{Battle, Cmd, Evt, Qry};
use crate::chain::Subject;
use crate::content::{BlueprintId, Cost, DamageType, DamageTypes};

/// Converts chain payloads between Rust and the tables scripts see.
pub(crate) trait LuaPayload: Sized + 'static {
    /// The table (or value) a script receives.
    fn to_lua(&self, lua: &Lua, battle: &Battle) -> mlua::Result<Value>;
    /// Reads back what a command modifier may change. Payloads of queries and events never call it.
    fn update_from_lua(&mut self, _value: &Value, _battle: &Battle) -> mlua::Result<()> {
        Ok(())
    }
    /// Builds a payload from what a script passed to `game:command` or `game:query`.
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self>;
}

fn field<T: mlua::FromLua>(value: &Value, name: &str) -> mlua::Result<T> {
    match value {
        Value::Table(t) => t
            .get(name)
            .map_err(|e| mlua::Error::runtime(format!("field `{name}`: {e}"))),
        other => Err(mlua::Error::runtime(format!(
            "expected a table, got {}",
            other.type_name()
        ))),
    }
}

fn table(lua: &Lua, fields: impl FnOnce(&Table) -> mlua::Result<()>) -> mlua::Result<Value> {
    let t = lua.create_table()?;
    fields(&t)?;
    Ok(Value::Table(t))
}

/// `damage`: hit points taken from an entity. Modifiers may change `amount` and `types` or
/// cancel (a shield); the handler subtracts the HP and records in `dealt` how much was lost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Damage {
    /// Who is hit.
    pub target: EntityId,
    /// How much damage.
    pub amount: f64,
    /// Its types; `HpLoss` damage should not be modified.
    pub types: DamageTypes,
    /// Who dealt it, if anyone.
    pub source: Option<EntityId>,
    /// HP actually lost, set by the handler.
    pub dealt: f64,
}

impl Subject<EntityId> for Damage {
    fn subject(&self) -> Option<EntityId> {
        Some(self.target)
    }

    /// HP loss ignores every damage modifier (shields, resistances, vulnerabilities).
    fn bypasses_modifiers(&self) -> bool {
        self.types.contains(DamageType::HpLoss)
    }
}

impl LuaPayload for Damage {
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        table(lua, |t| {
            t.set("target", entity_to_lua(lua, self.target)?)?;
            t.set("amount", self.amount)?;
            t.set("types", damage_types_to_lua(lua, self.types)?)?;
            t.set("source", opt_entity_to_lua(lua, self.source)?)?;
            t.set("dealt", self.dealt)
        })
    }
    fn update_from_lua(&mut self, value: &Value, _: &Battle) -> mlua::Result<()> {
        self.amount = field(value, "amount")?;
        self.types = damage_types_from_lua(&field(value, "types")?)?;
        Ok(())
    }
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self> {
        Ok(Damage {
            target: entity_from_lua(&field(value, "target")?, battle)?,
            amount: field(value, "amount")?,
            types: damage_types_from_lua(&field(value, "types")?)?,
            source: opt_entity_from_lua(&field(value, "source")?, battle)?,
            dealt: 0.0,
        })
    }
}

/// `heal`: hit points given back to an entity, up to its maximum.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Heal {
    /// Who is healed.
    pub target: EntityId,
    /// How much.
    pub amount: f64,
    /// Who healed, if anyone.
    pub source: Option<EntityId>,
    /// HP actually restored, set by the handler.
    pub healed: f64,
}

impl Subject<EntityId> for Heal {
    fn subject(&self) -> Option<EntityId> {
        Some(self.target)
    }
}

impl LuaPayload for Heal {
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        table(lua, |t| {
            t.set("target", entity_to_lua(lua, self.target)?)?;
            t.set("amount", self.amount)?;
            t.set("source", opt_entity_to_lua(lua, self.source)?)?;
            t.set("healed", self.healed)
        })
    }
    fn update_from_lua(&mut self, value: &Value, _: &Battle) -> mlua::Result<()> {
        self.amount = field(value, "amount")?;
        Ok(())
    }
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self> {
        Ok(Heal {
            target: entity_from_lua(&field(value, "target")?, battle)?,
            amount: field(value, "amount")?,
            source: opt_entity_from_lua(&field(value, "source")?, battle)?,
            healed: 0.0,
        })
    }
}

/// `add_materials`, `add_energy`, `add_fuel`: a resource gained, and from where.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Gain {
    /// How much.
    pub amount: f64,
    /// The entity producing it, if any (scoped registrations see their own production).
    pub source: Option<EntityId>,
}

impl Subject<EntityId> for Gain {
    fn subject(&self) -> Option<EntityId> {
        self.source
    }
}

impl LuaPayload for Gain {
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        table(lua, |t| {
            t.set("amount", self.amount)?;
            t.set("source", opt_entity_to_lua(lua, self.source)?)
        })
    }
    fn update_from_lua(&mut self, value: &Value, _: &Battle) -> mlua::Result<()> {
        self.amount = field(value, "amount")?;
        Ok(())
    }
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self> {
        Ok(Gain {
            amount: field(value, "amount")?,
            source: opt_entity_from_lua(&field(value, "source")?, battle)?,
        })
    }
}

/// `damage_hull`: hull lost, usually to an attacker reaching the Hub.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HullDamage {
    /// How much hull.
    pub amount: f64,
    /// The attacker responsible, if any.
    pub attacker: Option<EntityId>,
}

impl Subject<EntityId> for HullDamage {
    fn subject(&self) -> Option<EntityId> {
        self.attacker
    }
}

impl LuaPayload for HullDamage {
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        table(lua, |t| {
            t.set("amount", self.amount)?;
            t.set("attacker", opt_entity_to_lua(lua, self.attacker)?)
        })
    }
    fn update_from_lua(&mut self, value: &Value, _: &Battle) -> mlua::Result<()> {
        self.amount = field(value, "amount")?;
        Ok(())
    }
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self> {
        Ok(HullDamage {
            amount: field(value, "amount")?,
            attacker: opt_entity_from_lua(&field(value, "attacker")?, battle)?,
        })
    }
}

/// `start_wave`, `wave_started`, `wave_finished`: a wave by its number (from 1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Wave {
    /// The wave's number.
    pub wave: u32,
}

impl Subject<EntityId> for Wave {
    fn subject(&self) -> Option<EntityId> {
        None
    }
}

impl LuaPayload for Wave {
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        table(lua, |t| t.set("wave", self.wave))
    }
    fn from_lua(value: &Value, _: &Battle) -> mlua::Result<Self> {
        Ok(Wave {
            wave: field(value, "wave")?,
        })
    }
}

/// Events about an entity (`attacker_spawned`, `attacker_killed`, `attacker_reached_hub`,
/// `building_placed`, `building_removed`, `ability_used`), with another entity involved if any
/// (the killer of an attacker).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EntityEvent {
    /// The entity the event is about.
    pub entity: EntityId,
    /// Another entity involved: the killer of a killed attacker.
    pub other: Option<EntityId>,
}

impl Subject<EntityId> for EntityEvent {
    fn subject(&self) -> Option<EntityId> {
        Some(self.entity)
    }
}

impl LuaPayload for EntityEvent {
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        table(lua, |t| {
            t.set("entity", entity_to_lua(lua, self.entity)?)?;
            t.set("other", opt_entity_to_lua(lua, self.other)?)
        })
    }
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self> {
        Ok(EntityEvent {
            entity: entity_from_lua(&field(value, "entity")?, battle)?,
            other: opt_entity_from_lua(&field(value, "other")?, battle)?,
        })
    }
}

/// Events of the whole battle with nothing to carry (`level_won`, `defeat`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Signal;

impl Subject<EntityId> for Signal {
    fn subject(&self) -> Option<EntityId> {
        None
    }
}

impl LuaPayload for Signal {
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        table(lua, |_| Ok(()))
    }
    fn from_lua(_: &Value, _: &Battle) -> mlua::Result<Self> {
        Ok(Signal)
    }
}

/// The input of a blueprint statistic query: the blueprint, and the placed instance if there is
/// one (so modifiers can depend on where it stands).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StatOf {
    /// The blueprint.
    pub blueprint: BlueprintId,
    /// The building or ability made from it, if placed.
    pub entity: Option<EntityId>,
}

impl Subject<EntityId> for StatOf {
    fn subject(&self) -> Option<EntityId> {
        self.entity
    }
}

impl LuaPayload for StatOf {
    /// `{ blueprint = "mod:name", entity = <handle or nil> }`.
    fn to_lua(&self, lua: &Lua, battle: &Battle) -> mlua::Result<Value> {
        table(lua, |t| {
            t.set(
                "blueprint",
                battle.content().blueprint(self.blueprint).id.as_str(),
            )?;
            t.set("entity", opt_entity_to_lua(lua, self.entity)?)
        })
    }
    /// A placed building or ability (its handle), a blueprint id (`"core:sniper"`), or a table
    /// as modifiers receive it.
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self> {
        let blueprint_of = |id: &str| {
            battle
                .content()
                .blueprint_id(id)
                .ok_or_else(|| mlua::Error::runtime(format!("there is no blueprint `{id}`")))
        };
        match value {
            Value::String(s) => Ok(StatOf {
                blueprint: blueprint_of(&s.to_str()?)?,
                entity: None,
            }),
            Value::Table(t) if t.contains_key("blueprint")? => {
                let entity = opt_entity_from_lua(&t.get("entity")?, battle)?;
                let id: String = t.get("blueprint")?;
                Ok(StatOf {
                    blueprint: blueprint_of(&id)?,
                    entity,
                })
            }
            other => {
                let entity = entity_from_lua(other, battle)?;
                let blueprint = battle
                    .entity(entity)
                    .and_then(|e| e.kind.blueprint())
                    .ok_or_else(|| {
                        mlua::Error::runtime("expected a building, an ability or a blueprint id")
                    })?;
                Ok(StatOf {
                    blueprint,
                    entity: Some(entity),
                })
            }
        }
    }
}

impl LuaPayload for EntityId {
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        entity_to_lua(lua, *self)
    }
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self> {
        entity_from_lua(value, battle)
    }
}

impl Subject<EntityId> for () {
    fn subject(&self) -> Option<EntityId> {
        None
    }
}

impl LuaPayload for () {
    fn to_lua(&self, _: &Lua, _: &Battle) -> mlua::Result<Value> {
        Ok(Value::Nil)
    }
    fn from_lua(_: &Value, _: &Battle) -> mlua::Result<Self> {
        Ok(())
    }
}

impl LuaPayload for f64 {
    fn to_lua(&self, _: &Lua, _: &Battle) -> mlua::Result<Value> {
        Ok(Value::Number(*self))
    }
    fn from_lua(value: &Value, _: &Battle) -> mlua::Result<Self> {
        match value {
            Value::Number(n) => Ok(*n),
            Value::Integer(i) => Ok(*i as f64),
            other => Err(mlua::Error::runtime(format!(
                "expected a number, got {}",
                other.type_name()
            ))),
        }
    }
}

impl LuaPayload for Cost {
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        table(lua, |t| {
            t.set("materials", self.materials)?;
            t.set("energy", self.energy)
        })
    }
    fn from_lua(value: &Value, _: &Battle) -> mlua::Result<Self> {
        Ok(Cost {
            materials: field(value, "materials")?,
            energy: field(value, "energy")?,
        })
    }
}

impl LuaPayload for Vec<String> {
    /// A list of strings.
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        Ok(Value::Table(
            lua.create_sequence_from(self.iter().map(String::as_str))?,
        ))
    }
    fn from_lua(value: &Value, _: &Battle) -> mlua::Result<Self> {
        match value {
            Value::Table(t) => t.sequence_values::<String>().collect(),
            other => Err(mlua::Error::runtime(format!(
                "expected a list of strings, got {}",
                other.type_name()
            ))),
        }
    }
}

/// What a chain is, for scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainKind {
    /// Modifiers, one handler, reactions.
    Command,
    /// A provider and modifiers.
    Query,
    /// Reactions only.
    Event,
}

macro_rules! chains {
    (
        commands { $( $(#[$cdoc:meta])* $c:ident : $ct:ty ),* $(,)? }
        queries { $( $(#[$qdoc:meta])* $q:ident : $qi:ty => $qo:ty = $provider:expr ),* $(,)? }
        events { $( $(#[$edoc:meta])* $e:ident : $et:ty ),* $(,)? }
    ) => {
        /// Every chain of a battle.
        pub struct Chains {
            $( $(#[$cdoc])* pub $c: Cmd<$ct>, )*
            $( $(#[$qdoc])* pub $q: Qry<$qi, $qo>, )*
            $( $(#[$edoc])* pub $e: Evt<$et>, )*
        }

        impl Chains {
            /// Every chain's name and kind, in declaration order.
            pub const ALL: &'static [(&'static str, ChainKind)] = &[
                $( (stringify!($c), ChainKind::Command), )*
                $( (stringify!($q), ChainKind::Query), )*
                $( (stringify!($e), ChainKind::Event), )*
            ];

            pub(super) fn new() -> Chains {
                Chains {
                    $( $c: Cmd::new(stringify!($c)), )*
                    $( $q: Qry::new(stringify!($q), $provider), )*
                    $( $e: Evt::new(stringify!($e)), )*
                }
            }

            /// Removes everything `owner` registered, on every chain.
            pub fn remove_owner(&mut self, owner: super::Owner) {
                $( self.$c.remove_owner(owner); )*
                $( self.$q.remove_owner(owner); )*
                $( self.$e.remove_owner(owner); )*
            }

            /// Removes every registration scoped to `subject`, on every chain.
            pub fn remove_subject(&mut self, subject: EntityId) {
                $( self.$c.remove_subject(subject); )*
                $( self.$q.remove_subject(subject); )*
                $( self.$e.remove_subject(subject); )*
            }

            /// Removes one registration of the chain `name`.
            pub fn remove(&mut self, name: &str, id: crate::chain::RegistrationId) -> bool {
                match name {
                    $( stringify!($c) => self.$c.remove(id), )*
                    $( stringify!($q) => self.$q.remove(id), )*
                    $( stringify!($e) => self.$e.remove(id), )*
                    _ => false,
                }
            }
        }

        /// Registers a script's modifier on the chain `name`.
        pub(crate) fn lua_modify(b: &mut Battle, name: &str, reg: LuaRegistration) -> Result<crate::chain::RegistrationId, String> {
            match name {
                $( stringify!($c) => scripting::command_modifier(&mut b.chains.$c, reg), )*
                $( stringify!($q) => Ok(scripting::query_modifier(&mut b.chains.$q, reg)), )*
                $( stringify!($e) => Err(format!("`{}` is an event: use react, not modify", stringify!($e))), )*
                _ => Err(scripting::unknown_chain(name)),
            }
        }

        /// Registers a script's reaction on the chain `name`.
        pub(crate) fn lua_react(b: &mut Battle, name: &str, reg: LuaRegistration) -> Result<crate::chain::RegistrationId, String> {
            match name {
                $( stringify!($c) => scripting::command_reaction(&mut b.chains.$c, reg), )*
                $( stringify!($q) => Err(format!("`{}` is a query: queries have no reactions, use modify", stringify!($q))), )*
                $( stringify!($e) => Ok(scripting::event_reaction(&mut b.chains.$e, reg)), )*
                _ => Err(scripting::unknown_chain(name)),
            }
        }

        /// Runs the command `name` with a payload built from a script's table.
        pub(crate) fn lua_command(b: &mut Battle, lua: &Lua, name: &str, payload: &Value) -> mlua::Result<Value> {
            match name {
                $( stringify!($c) => scripting::run_command(b, lua, |b: &Battle| &b.chains.$c, payload), )*
                _ => Err(mlua::Error::runtime(scripting::not_a(name, ChainKind::Command))),
            }
        }

        /// Computes the query `name` for an input given by a script.
        pub(crate) fn lua_query(b: &mut Battle, lua: &Lua, name: &str, input: &Value) -> mlua::Result<Value> {
            match name {
                $( stringify!($q) => scripting::run_query(b, lua, |b: &Battle| &b.chains.$q, input), )*
                _ => Err(mlua::Error::runtime(scripting::not_a(name, ChainKind::Query))),
            }
        }
    };
}

chains! {
    commands {
        /// Damage an entity.
        damage: Damage,
        /// Heal an entity.
        heal: Heal,
        /// Gain materials.
        add_materials: Gain,
        /// Gain energy (up to the cap).
        add_energy: Gain,
        /// Gain fuel toward the level's goal.
        add_fuel: Gain,
        /// Lose hull.
        damage_hull: HullDamage,
        /// Start the next wave; cancelled when the battle is over.
        start_wave: Wave,
    }
    queries {
        /// An attacker's speed in tiles per second.
        speed: EntityId => f64 = super::rules::base_speed,
        /// A blueprint's range.
        range: StatOf => f64 = super::rules::base_range,
        /// A blueprint's effect radius.
        radius: StatOf => f64 = super::rules::base_radius,
        /// A blueprint's damage per hit.
        hit_damage: StatOf => f64 = super::rules::base_hit_damage,
        /// A blueprint's interval in ticks.
        interval: StatOf => f64 = super::rules::base_interval,
        /// A blueprint's delay in ticks.
        delay: StatOf => f64 = super::rules::base_delay,
        /// How long a blueprint's effect lasts, in ticks.
        duration_ticks: StatOf => f64 = super::rules::base_duration_ticks,
        /// How long a blueprint's effect lasts, in waves.
        duration_waves: StatOf => f64 = super::rules::base_duration_waves,
        /// Fuel a blueprint produces after every wave.
        fuel_production: StatOf => f64 = super::rules::base_fuel_production,
        /// Materials a blueprint produces after every wave.
        material_production: StatOf => f64 = super::rules::base_material_production,
        /// Energy a blueprint produces after every wave.
        energy_production: StatOf => f64 = super::rules::base_energy_production,
        /// Waves to wait after using a blueprint.
        cooldown: StatOf => f64 = super::rules::base_cooldown,
        /// Waves before a blueprint can first be used in a level.
        starting_cooldown: StatOf => f64 = super::rules::base_starting_cooldown,
        /// What a blueprint costs to use now.
        blueprint_cost: StatOf => Cost = super::rules::base_cost,
        /// A blueprint's description lines (an upgrade may add one).
        descriptions: StatOf => Vec<String> = super::rules::base_descriptions,
        /// The most energy the player can hold.
        energy_cap: () => f64 = super::rules::base_energy_cap,
    }
    events {
        /// A wave began.
        wave_started: Wave,
        /// A wave ended: everything spawned and nothing left alive.
        wave_finished: Wave,
        /// An attacker appeared.
        attacker_spawned: EntityEvent,
        /// An attacker died; `other` is the killer if known.
        attacker_killed: EntityEvent,
        /// An attacker reached the Hub.
        attacker_reached_hub: EntityEvent,
        /// A building was placed.
        building_placed: EntityEvent,
        /// A building was removed.
        building_removed: EntityEvent,
        /// An ability was used.
        ability_used: EntityEvent,
        /// A tower fired; `other` is its first target.
        tower_fired: EntityEvent,
        /// The level's fuel goal was reached.
        level_won: Signal,
        /// The hull ran out.
        defeat: Signal,
    }
}

/// The kind of the chain called `name`, if there is one.
pub fn chain_kind(name: &str) -> Option<ChainKind> {
    Chains::ALL
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, k)| *k)
}
