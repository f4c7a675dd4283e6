//! The battle's named chains and their payloads. Content (Rust behaviours and Lua scripts alike)
//! changes the game only through these.
//!
//! The [`chains!`] table below is the single list of chains: it declares the fields of
//! [`Chains`], the names scripts use, the dispatch from a name to the typed chain, and what
//! each chain's payload looks like to scripts ([`Chains::ALL`]). Each payload's fields are
//! listed once, in its [`payload!`] declaration, which also makes its Lua table.

use mlua::{Lua, Value};
use serde::Serialize;

use super::mod_chains::{self, DeclaredChains};
use super::scripting::api::{Access, ENTITY_LIKE, LuaType, Record, TableField};
use super::scripting::api::{entity_from_lua, opt_entity_from_lua};
use super::scripting::payload::{Domain, LuaPayload, LuaShape, payload};
use super::scripting::register::{self, LuaRegistration};
use super::{Battle, Cmd, Evt, Qry};
use crate::chain::Subject;
use crate::content::{BlueprintId, ContentDb, Cost, DamageType, DamageTypes};

use super::entity::EntityId;

payload! {
    /// `damage`: hit points taken from an entity. Modifiers may change `amount` and `types` or
    /// cancel (a shield); the handler subtracts the HP and records in `dealt` how much was lost.
    pub struct Damage about target bypass hp_loss {
        /// Who is hit.
        read target: EntityId,
        /// How much damage.
        write amount: f64 where NonNegative,
        /// Its types; `hp_loss` damage skips every modifier.
        write types: DamageTypes,
        /// Who dealt it, if anyone.
        read source: Option<EntityId>,
        /// Whether it is the source's own hit — a tower's shot or an ability's blast — rather
        /// than damage a script dealt with `game:command` or an effect such as burning dealt.
        result own_hit: bool,
        /// HP actually lost.
        result dealt: f64,
    }
}

/// HP loss ignores every damage modifier (shields, resistances, vulnerabilities).
fn hp_loss(damage: &Damage) -> bool {
    damage.types.contains(DamageType::HpLoss)
}

payload! {
    /// `heal`: hit points given back to an entity, up to its maximum.
    pub struct Heal about target {
        /// Who is healed.
        read target: EntityId,
        /// How much.
        write amount: f64 where NonNegative,
        /// Who healed, if anyone.
        read source: Option<EntityId>,
        /// HP actually restored.
        result healed: f64,
    }
}

payload! {
    /// `add_materials`, `add_energy`, `add_fuel`: a resource gained, and from where.
    pub struct Gain about source {
        /// How much (negative for a loss).
        write amount: f64 where Finite,
        /// The entity producing it, if any (scoped registrations see their own production).
        read source: Option<EntityId>,
    }
}

payload! {
    /// `damage_hull`: hull lost, usually to an attacker reaching the Hub.
    pub struct HullDamage about attacker {
        /// How much hull (negative for a repair).
        write amount: f64 where Finite,
        /// The attacker responsible, if any.
        read attacker: Option<EntityId>,
    }
}

payload! {
    /// `start_wave`, `wave_started`, `wave_finished`: a wave by its number (from 1).
    pub struct Wave {
        /// The wave's number.
        read wave: u32,
    }
}

payload! {
    /// Events about an entity (`attacker_spawned`, `attacker_killed`, `attacker_reached_hub`,
    /// `building_placed`, `building_removed`, `ability_used`, `tower_fired`), with another entity
    /// involved if any (the killer of an attacker, a tower's first target).
    pub struct EntityEvent about entity {
        /// The entity the event is about.
        read entity: EntityId,
        /// Another entity involved: the killer of a killed attacker, a tower's first target.
        read other: Option<EntityId>,
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
    const SHAPE: LuaShape = LuaShape::Table(&Record {
        name: "Signal",
        doc: "An event of the whole battle, with nothing to carry.",
        fields: &[],
    });
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        Ok(Value::Table(lua.create_table()?))
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
    const SHAPE: LuaShape = LuaShape::Table(&Record {
        name: "StatOf",
        doc: "The input of a blueprint statistic query.",
        fields: &[
            TableField {
                name: "blueprint",
                doc: "The blueprint's id, `\"mod:name\"`.",
                ty: LuaType::String,
                input: LuaType::String,
                access: Access::Read,
                domain: None,
            },
            TableField {
                name: "entity",
                doc: "The building or ability made from it, if placed.",
                ty: LuaType::Optional(&LuaType::Class(super::scripting::api::Class::Entity)),
                input: LuaType::Optional(&ENTITY_LIKE),
                access: Access::Read,
                domain: None,
            },
        ],
    });
    /// A blueprint id, a placed building or ability, or the table modifiers receive.
    const INPUT: LuaType = LuaType::Union(&[
        LuaType::String,
        ENTITY_LIKE,
        <StatOf as LuaPayload>::SHAPE.input_type(),
    ]);
    const ABOUT: Option<&'static str> = Some("entity");
    fn to_lua(&self, lua: &Lua, battle: &Battle) -> mlua::Result<Value> {
        let t = lua.create_table()?;
        t.set(
            "blueprint",
            battle.content().blueprint(self.blueprint).id.as_str(),
        )?;
        t.set(
            "entity",
            super::scripting::api::opt_entity_to_lua(lua, self.entity)?,
        )?;
        Ok(Value::Table(t))
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

impl Subject<EntityId> for () {
    fn subject(&self) -> Option<EntityId> {
        None
    }
}

/// A chain as scripts see it.
#[derive(Clone, Copy, Debug)]
pub struct ChainInfo {
    /// Its name.
    pub name: &'static str,
    /// What it is for, in words.
    pub doc: &'static str,
    /// Command, query or event.
    pub kind: ChainKind,
    /// The payload of a command or event; the input of a query.
    pub payload: LuaShape,
    /// What a script may pass for the payload to `game:command`, or for the input to
    /// `game:query`.
    pub accepts: LuaType,
    /// The value of a query.
    pub value: Option<LuaShape>,
    /// The values a script may give a query's number (the domains of payload numbers are on
    /// their fields).
    pub domain: Option<Domain>,
    /// The payload field naming the entity the chain is about (registrations scoped to an
    /// entity see only payloads about it).
    pub about: Option<&'static str>,
    /// The mod that declared the chain; `None` for the game's own.
    pub declared_by: Option<&'static str>,
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

impl ChainKind {
    /// The kind in words, with its article: `a command`, `a query`, `an event`.
    pub fn noun(self) -> &'static str {
        match self {
            ChainKind::Command => "a command",
            ChainKind::Query => "a query",
            ChainKind::Event => "an event",
        }
    }
}

macro_rules! chains {
    (
        commands { $( $(#[doc = $cdoc:literal])* $c:ident : $ct:ty ),* $(,)? }
        queries { $( $(#[doc = $qdoc:literal])* $q:ident : $qi:ty => $qo:ty $(where $qd:ident)? = $provider:expr ),* $(,)? }
        events { $( $(#[doc = $edoc:literal])* $e:ident : $et:ty ),* $(,)? }
    ) => {
        /// Every chain of a battle.
        pub struct Chains {
            $( $(#[doc = $cdoc])* pub $c: Cmd<$ct>, )*
            $( $(#[doc = $qdoc])* pub $q: Qry<$qi, $qo>, )*
            $( $(#[doc = $edoc])* pub $e: Evt<$et>, )*
            /// The events and queries mods declare.
            pub(crate) declared: DeclaredChains,
        }

        impl Chains {
            /// Every chain, in declaration order: its name, kind, and what scripts see of it.
            pub const ALL: &'static [ChainInfo] = &[
                $( ChainInfo {
                    name: stringify!($c),
                    doc: concat!($($cdoc, "\n"),*),
                    kind: ChainKind::Command,
                    payload: <$ct as LuaPayload>::SHAPE,
                    accepts: <$ct as LuaPayload>::INPUT,
                    value: None,
                    domain: None,
                    about: <$ct as LuaPayload>::ABOUT,
                    declared_by: None,
                }, )*
                $( ChainInfo {
                    name: stringify!($q),
                    doc: concat!($($qdoc, "\n"),*),
                    kind: ChainKind::Query,
                    payload: <$qi as LuaPayload>::SHAPE,
                    accepts: <$qi as LuaPayload>::INPUT,
                    value: Some(<$qo as LuaPayload>::SHAPE),
                    domain: payload!(@domain $($qd)?),
                    about: <$qi as LuaPayload>::ABOUT,
                    declared_by: None,
                }, )*
                $( ChainInfo {
                    name: stringify!($e),
                    doc: concat!($($edoc, "\n"),*),
                    kind: ChainKind::Event,
                    payload: <$et as LuaPayload>::SHAPE,
                    accepts: <$et as LuaPayload>::INPUT,
                    value: None,
                    domain: None,
                    about: <$et as LuaPayload>::ABOUT,
                    declared_by: None,
                }, )*
            ];

            pub(super) fn new(content: &ContentDb) -> Chains {
                Chains {
                    $( $c: Cmd::new(stringify!($c)), )*
                    $( $q: Qry::new(stringify!($q), $provider), )*
                    $( $e: Evt::new(stringify!($e)), )*
                    declared: DeclaredChains::new(content),
                }
            }

            /// Removes everything `owner` registered, on every chain.
            pub fn remove_owner(&mut self, owner: super::Owner) {
                $( self.$c.remove_owner(owner); )*
                $( self.$q.remove_owner(owner); )*
                $( self.$e.remove_owner(owner); )*
                self.declared.remove_owner(owner);
            }

            /// Removes every registration scoped to `subject`, on every chain.
            pub fn remove_subject(&mut self, subject: EntityId) {
                $( self.$c.remove_subject(subject); )*
                $( self.$q.remove_subject(subject); )*
                $( self.$e.remove_subject(subject); )*
                self.declared.remove_subject(subject);
            }

            /// Removes one registration of the chain `name`.
            pub fn remove(&mut self, name: &str, id: crate::chain::RegistrationId) -> bool {
                match name {
                    $( stringify!($c) => self.$c.remove(id), )*
                    $( stringify!($q) => self.$q.remove(id), )*
                    $( stringify!($e) => self.$e.remove(id), )*
                    _ => self.declared.remove(name, id),
                }
            }
        }

        /// Registers a script's modifier on the chain `name`.
        pub(crate) fn lua_modify(b: &mut Battle, name: &str, reg: LuaRegistration) -> Result<crate::chain::RegistrationId, String> {
            match name {
                $( stringify!($c) => register::command_modifier(&mut b.chains.$c, reg), )*
                $( stringify!($q) => Ok(register::query_modifier(
                    &mut b.chains.$q,
                    reg,
                    payload!(@domain $($qd)?),
                )), )*
                $( stringify!($e) => Err(format!("`{}` is an event: use react, not modify", stringify!($e))), )*
                _ => mod_chains::lua_modify(b, name, reg),
            }
        }

        /// Registers a script's reaction on the chain `name`.
        pub(crate) fn lua_react(b: &mut Battle, name: &str, reg: LuaRegistration) -> Result<crate::chain::RegistrationId, String> {
            match name {
                $( stringify!($c) => register::command_reaction(&mut b.chains.$c, reg), )*
                $( stringify!($q) => Err(format!("`{}` is a query: queries have no reactions, use modify", stringify!($q))), )*
                $( stringify!($e) => Ok(register::event_reaction(&mut b.chains.$e, reg, <$et as LuaPayload>::to_lua)), )*
                _ => mod_chains::lua_react(b, name, reg),
            }
        }

        /// Runs the command `name` with a payload built from a script's table.
        pub(crate) fn lua_command(b: &mut Battle, lua: &Lua, name: &str, payload: &Value) -> mlua::Result<Value> {
            match name {
                $( stringify!($c) => register::run_command(b, lua, |b: &Battle| &b.chains.$c, payload), )*
                _ => Err(mlua::Error::runtime(register::not_a(name, ChainKind::Command, &b.content))),
            }
        }

        /// Computes the query `name` for an input given by a script.
        pub(crate) fn lua_query(b: &mut Battle, lua: &Lua, name: &str, input: &Value) -> mlua::Result<Value> {
            match name {
                $( stringify!($q) => register::run_query(b, lua, |b: &Battle| &b.chains.$q, input), )*
                _ if b.content.declared_chain(name).is_some() => {
                    let user = super::scripting::HostLink::get(lua)?.mod_index;
                    mod_chains::lua_query(b, lua, user, name, input).map_err(mlua::Error::runtime)
                }
                _ => Err(mlua::Error::runtime(register::not_a(name, ChainKind::Query, &b.content))),
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
        speed: EntityId => f64 where NonNegative = super::rules::base_speed,
        /// A blueprint's range.
        range: StatOf => f64 where NonNegative = super::rules::base_range,
        /// A blueprint's effect radius.
        radius: StatOf => f64 where NonNegative = super::rules::base_radius,
        /// A blueprint's damage per hit.
        hit_damage: StatOf => f64 where NonNegative = super::rules::base_hit_damage,
        /// A blueprint's interval in ticks.
        interval: StatOf => f64 where Positive = super::rules::base_interval,
        /// A blueprint's delay in ticks.
        delay: StatOf => f64 where NonNegative = super::rules::base_delay,
        /// How long a blueprint's effect lasts, in ticks.
        duration_ticks: StatOf => f64 where NonNegative = super::rules::base_duration_ticks,
        /// How long a blueprint's effect lasts, in waves.
        duration_waves: StatOf => f64 where NonNegative = super::rules::base_duration_waves,
        /// Fuel a blueprint produces after every wave.
        fuel_production: StatOf => f64 where Finite = super::rules::base_fuel_production,
        /// Materials a blueprint produces after every wave.
        material_production: StatOf => f64 where Finite = super::rules::base_material_production,
        /// Energy a blueprint produces after every wave.
        energy_production: StatOf => f64 where Finite = super::rules::base_energy_production,
        /// Waves to wait after using a blueprint.
        cooldown: StatOf => f64 where NonNegative = super::rules::base_cooldown,
        /// Waves before a blueprint can first be used in a level.
        starting_cooldown: StatOf => f64 where NonNegative = super::rules::base_starting_cooldown,
        /// What a blueprint costs to use now.
        blueprint_cost: StatOf => Cost = super::rules::base_cost,
        /// A blueprint's description lines (an upgrade may add one).
        descriptions: StatOf => Vec<String> = super::rules::base_descriptions,
        /// The most energy the player can hold.
        energy_cap: () => f64 where NonNegative = super::rules::base_energy_cap,
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
    Chains::ALL.iter().find(|c| c.name == name).map(|c| c.kind)
}
