//! What scripts see of a battle: the global `game` object, entity handles, and the tables that
//! carry chain payloads. Documented for modders in `docs/modding/lua-api.md`.

use mlua::{
    AnyUserData, FromLua, Function, Lua, MetaMethod, Table, UserData, UserDataMethods, Value,
    Variadic,
};

use super::chains;
use super::scripting::{HostLink, Registration, RegistrationKind};
use super::{Battle, EntityId, Phase, Scope};
use crate::content::{DamageType, DamageTypes};
use crate::lua::{Fault, ScriptErrorKind};

/// A handle to an entity, as scripts hold it. Handles of dead entities stay valid values;
/// `alive()` tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EntityRef(pub EntityId);

impl UserData for EntityRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Eq, |_, this, other: AnyUserData| {
            Ok(other
                .borrow::<EntityRef>()
                .map(|o| *o == *this)
                .unwrap_or(false))
        });
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| {
            Ok(format!("entity#{}", this.0.to_bits()))
        });
        methods.add_meta_function(
            MetaMethod::Index,
            |lua, (this, key): (AnyUserData, String)| -> mlua::Result<Value> {
                if key == "id" {
                    let e = this.borrow::<EntityRef>()?;
                    return Ok(Value::Number(e.0.to_bits() as f64));
                }
                let api = tables(lua)?.entity_api.clone();
                api.raw_get(key)
            },
        );
    }
}

/// Tables the API needs on every call, kept in the VM's app data so that no lookup by name
/// (which allocates a string) is needed.
struct ApiTables {
    /// Functions shared by entity handles and instance tables.
    entity_api: Table,
    /// One handle per entity, weakly held.
    handles: Table,
}

fn tables(lua: &Lua) -> mlua::Result<mlua::AppDataRef<'_, ApiTables>> {
    lua.app_data_ref::<ApiTables>()
        .ok_or_else(|| mlua::Error::runtime("the battle API is not installed in this VM"))
}

/// An entity passed to a function: a handle, or an instance table (`self`) holding one.
struct EntityArg(EntityId);

impl FromLua for EntityArg {
    fn from_lua(value: Value, _: &Lua) -> mlua::Result<Self> {
        entity_id_of(&value).map(EntityArg)
    }
}

fn entity_id_of(value: &Value) -> mlua::Result<EntityId> {
    match value {
        Value::UserData(ud) => Ok(ud.borrow::<EntityRef>()?.0),
        Value::Table(t) => {
            let handle: AnyUserData = t
                .raw_get("entity")
                .map_err(|_| mlua::Error::runtime("expected an entity"))?;
            Ok(handle.borrow::<EntityRef>()?.0)
        }
        other => Err(mlua::Error::runtime(format!(
            "expected an entity, got {}",
            other.type_name()
        ))),
    }
}

/// The handle for `id`. Each VM keeps one handle per entity (in a weak table), so handles of
/// the same entity are the same value: scripts can compare them with `==` and use them as keys.
pub(crate) fn entity_to_lua(lua: &Lua, id: EntityId) -> mlua::Result<Value> {
    let handles = tables(lua)?.handles.clone();
    let key = id.to_bits() as f64;
    if let Value::UserData(ud) = handles.raw_get::<Value>(key)? {
        return Ok(Value::UserData(ud));
    }
    let ud = lua.create_userdata(EntityRef(id))?;
    handles.raw_set(key, &ud)?;
    Ok(Value::UserData(ud))
}

/// A handle for `id`, or `nil`.
pub(crate) fn opt_entity_to_lua(lua: &Lua, id: Option<EntityId>) -> mlua::Result<Value> {
    id.map_or(Ok(Value::Nil), |id| entity_to_lua(lua, id))
}

/// The entity a script passed; it must be alive.
pub(crate) fn entity_from_lua(value: &Value, battle: &Battle) -> mlua::Result<EntityId> {
    let id = entity_id_of(value)?;
    if battle.entity(id).is_none() {
        return Err(mlua::Error::runtime("that entity no longer exists"));
    }
    Ok(id)
}

/// Like [`entity_from_lua`], with `nil` meaning none.
pub(crate) fn opt_entity_from_lua(
    value: &Value,
    battle: &Battle,
) -> mlua::Result<Option<EntityId>> {
    match value {
        Value::Nil => Ok(None),
        v => entity_from_lua(v, battle).map(Some),
    }
}

/// Damage types as an array of names: `{"physical", "explosive"}`.
pub(crate) fn damage_types_to_lua(lua: &Lua, types: DamageTypes) -> mlua::Result<Value> {
    Ok(Value::Table(lua.create_sequence_from(
        types.iter().map(DamageType::name),
    )?))
}

/// Damage types from an array of names (or a single name).
pub(crate) fn damage_types_from_lua(value: &Value) -> mlua::Result<DamageTypes> {
    let parse = |v: Value| -> mlua::Result<DamageType> {
        let name = match &v {
            Value::String(s) => s.to_str()?.to_string(),
            other => {
                return Err(mlua::Error::runtime(format!(
                    "expected a damage type name, got {}",
                    other.type_name()
                )));
            }
        };
        DamageType::from_name(&name).ok_or_else(|| {
            mlua::Error::runtime(format!(
                "unknown damage type `{name}` (use physical, explosive, energy or hp_loss)"
            ))
        })
    };
    match value {
        Value::Table(t) => t.sequence_values::<Value>().map(|v| parse(v?)).collect(),
        Value::Nil => Ok(DamageTypes::NONE),
        other => Ok([parse(other.clone())?].into_iter().collect()),
    }
}

/// Runs `f` on the battle the calling script belongs to, or fails if there is none (while
/// scripts load, or under `rampart check`).
fn with_battle<R>(
    lua: &Lua,
    what: &str,
    f: impl FnOnce(&mut Battle) -> mlua::Result<R>,
) -> mlua::Result<R> {
    let link = HostLink::get(lua)?;
    if link.shared.is_loading() {
        return Err(Fault::here(
            lua,
            ScriptErrorKind::Runtime,
            format!(
                "{what} needs a running battle: call it from a hook (on_spawn, on_placed, on_tick…) or a callback, not while the script loads"
            ),
        ));
    }
    link.shared.with_battle(|battle| match battle {
        Some(b) => f(b),
        None => Err(Fault::here(
            lua,
            ScriptErrorKind::Runtime,
            format!("{what} needs a running battle"),
        )),
    })
}

/// Builds the entity functions shared by handles and instance tables.
fn entity_api(lua: &Lua) -> mlua::Result<Table> {
    let api = lua.create_table()?;
    api.raw_set(
        "alive",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "alive()", |b| Ok(b.entity(e.0).is_some()))
        })?,
    )?;
    api.raw_set(
        "kind",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "kind()", |b| Ok(b.entity(e.0).map(|e| e.kind.name())))
        })?,
    )?;
    api.raw_set(
        "type",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "type()", |b| {
                Ok(b.entity(e.0).map(|ent| match ent.kind {
                    super::EntityKind::Attacker(a) => b.content().attacker(a).id.clone(),
                    super::EntityKind::Building(bp) | super::EntityKind::Ability(bp) => {
                        b.content().blueprint(bp).id.clone()
                    }
                }))
            })
        })?,
    )?;
    api.raw_set(
        "param",
        lua.create_function(|lua, (e, name): (EntityArg, String)| {
            with_battle(lua, "param()", |b| {
                let Some(kind) = b.entity(e.0).map(|e| e.kind) else {
                    return Ok(None);
                };
                let content = b.content();
                let params = match kind {
                    super::EntityKind::Attacker(a) => &content.attacker(a).params,
                    super::EntityKind::Building(bp) | super::EntityKind::Ability(bp) => {
                        &content.blueprint(bp).params
                    }
                };
                Ok(params.get(&name).copied())
            })
        })?,
    )?;
    api.raw_set(
        "hp",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "hp()", |b| Ok(b.entity(e.0).map(|e| e.hp)))
        })?,
    )?;
    api.raw_set(
        "max_hp",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "max_hp()", |b| Ok(b.entity(e.0).map(|e| e.max_hp)))
        })?,
    )?;
    api.raw_set(
        "position",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "position()", |b| {
                Ok(match b.entity(e.0) {
                    Some(e) => (Value::Number(e.position.x), Value::Number(e.position.y)),
                    None => (Value::Nil, Value::Nil),
                })
            })
        })?,
    )?;
    api.raw_set(
        "query",
        lua.create_function(|lua, (e, name): (EntityArg, String)| {
            let input = entity_to_lua(lua, e.0)?;
            query(lua, &name, input)
        })?,
    )?;
    Ok(api)
}

fn query(lua: &Lua, name: &str, input: Value) -> mlua::Result<Value> {
    with_battle(lua, "game:query", |b| {
        if !b.can_nest() {
            return Err(too_deep(lua, name));
        }
        chains::lua_query(b, lua, name, &input).map_err(|e| locate(lua, e))
    })
}

fn too_deep(lua: &Lua, chain: &str) -> mlua::Error {
    Fault::here(
        lua,
        ScriptErrorKind::Runtime,
        format!(
            "`{chain}` was refused: chains are nested too deeply (does a callback trigger itself?)"
        ),
    )
}

/// Gives a plain runtime error from the API the location of the script line that called it.
fn locate(lua: &Lua, e: mlua::Error) -> mlua::Error {
    match e {
        mlua::Error::RuntimeError(message) => Fault::here(lua, ScriptErrorKind::Runtime, message),
        other => other,
    }
}

/// Registers a callback; `self_scope` makes it run only for the entity of `self`.
fn register(
    lua: &Lua,
    kind: RegistrationKind,
    owner_arg: Option<EntityId>,
    chain: String,
    priority: f64,
    f: Function,
) -> mlua::Result<Registration> {
    let link = HostLink::get(lua)?;
    if priority.fract() != 0.0 || priority < f64::from(i32::MIN) || priority > f64::from(i32::MAX) {
        return Err(Fault::here(
            lua,
            ScriptErrorKind::Runtime,
            format!("priority must be a whole number, not {priority}"),
        ));
    }
    let scope = owner_arg.map_or(Scope::Global, Scope::Subject);
    link.register(kind, &chain, priority as i32, scope, owner_arg, f)
        .map_err(|message| Fault::here(lua, ScriptErrorKind::Runtime, message))
}

/// Methods of instance tables (`self` in hooks), on top of the entity functions.
pub(crate) fn instance_meta(lua: &Lua) -> mlua::Result<Table> {
    let methods = lua.create_table()?;
    methods.raw_set(
        "modify",
        lua.create_function(
            |lua, (this, chain, priority, f): (EntityArg, String, f64, Function)| {
                register(
                    lua,
                    RegistrationKind::Modify,
                    Some(this.0),
                    chain,
                    priority,
                    f,
                )
            },
        )?,
    )?;
    methods.raw_set(
        "react",
        lua.create_function(
            |lua, (this, chain, priority, f): (EntityArg, String, f64, Function)| {
                register(
                    lua,
                    RegistrationKind::React,
                    Some(this.0),
                    chain,
                    priority,
                    f,
                )
            },
        )?,
    )?;
    let fallback = lua.create_table()?;
    fallback.raw_set("__index", tables(lua)?.entity_api.clone())?;
    methods.set_metatable(Some(fallback))?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", methods)?;
    Ok(meta)
}

/// Installs `game`, the entity functions and the battle's `math.random` into a sandbox.
pub(crate) fn install(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let handles = lua.create_table()?;
    let weak = lua.create_table()?;
    weak.raw_set("__mode", "v")?;
    handles.set_metatable(Some(weak))?;
    lua.set_app_data(ApiTables {
        entity_api: entity_api(lua)?,
        handles,
    });
    let game = lua.create_table()?;
    game.raw_set(
        "modify",
        lua.create_function(
            |lua, (_, chain, priority, f): (Value, String, f64, Function)| {
                register(lua, RegistrationKind::Modify, None, chain, priority, f)
            },
        )?,
    )?;
    game.raw_set(
        "react",
        lua.create_function(
            |lua, (_, chain, priority, f): (Value, String, f64, Function)| {
                register(lua, RegistrationKind::React, None, chain, priority, f)
            },
        )?,
    )?;
    game.raw_set(
        "query",
        lua.create_function(|lua, (_, name, input): (Value, String, Value)| {
            query(lua, &name, input)
        })?,
    )?;
    game.raw_set(
        "command",
        lua.create_function(|lua, (_, name, payload): (Value, String, Value)| {
            with_battle(lua, "game:command", |b| {
                if !b.can_nest() {
                    return Err(too_deep(lua, &name));
                }
                chains::lua_command(b, lua, &name, &payload).map_err(|e| locate(lua, e))
            })
        })?,
    )?;
    game.raw_set(
        "tick",
        lua.create_function(|lua, _: Value| with_battle(lua, "game:tick", |b| Ok(b.tick())))?,
    )?;
    game.raw_set(
        "wave",
        lua.create_function(|lua, _: Value| with_battle(lua, "game:wave", |b| Ok(b.wave())))?,
    )?;
    game.raw_set(
        "phase",
        lua.create_function(|lua, _: Value| {
            with_battle(lua, "game:phase", |b| {
                Ok(match b.phase() {
                    Phase::Build => "build",
                    Phase::Wave => "wave",
                    Phase::Won => "won",
                    Phase::Lost => "lost",
                })
            })
        })?,
    )?;
    game.raw_set(
        "resources",
        lua.create_function(|lua, _: Value| {
            with_battle(lua, "game:resources", |b| {
                let p = b.player();
                let t = lua.create_table()?;
                t.set("materials", p.materials)?;
                t.set("energy", p.energy)?;
                t.set("fuel", p.fuel)?;
                t.set("fuel_goal", p.fuel_goal)?;
                t.set("hull", p.hull)?;
                Ok(t)
            })
        })?,
    )?;
    game.raw_set(
        "entities",
        lua.create_function(|lua, (_, kind): (Value, Option<String>)| {
            with_battle(lua, "game:entities", |b| {
                let ids: Vec<EntityId> = b
                    .entities()
                    .filter(|(_, e)| kind.as_deref().is_none_or(|k| e.kind.name() == k))
                    .map(|(id, _)| id)
                    .collect();
                let list = lua.create_table()?;
                for id in ids {
                    list.raw_push(entity_to_lua(lua, id)?)?;
                }
                Ok(list)
            })
        })?,
    )?;
    game.raw_set(
        "spawn",
        lua.create_function(|lua, (_, attacker, x, y): (Value, String, f64, f64)| {
            with_battle(lua, "game:spawn", |b| {
                let id = b.content().attacker_id(&attacker).ok_or_else(|| {
                    Fault::here(
                        lua,
                        ScriptErrorKind::Runtime,
                        format!("there is no attacker type `{attacker}`"),
                    )
                })?;
                if !b.can_nest() {
                    return Err(too_deep(lua, "attacker_spawned"));
                }
                let entity = b.spawn_attacker(id, super::Position { x, y });
                entity_to_lua(lua, entity)
            })
        })?,
    )?;
    game.raw_set(
        "entity",
        lua.create_function(|lua, (_, bits): (Value, f64)| {
            entity_to_lua(lua, EntityId::from_bits(bits as u64))
        })?,
    )?;
    globals.raw_set("game", game)?;

    let math: Table = globals.get("math")?;
    math.raw_set("random", lua.create_function(random)?)?;
    Ok(())
}

/// `math.random` drawing from the battle's generator for this mod, with Lua's usual forms:
/// `()` a float in [0, 1), `(m)` an integer in [1, m], `(m, n)` an integer in [m, n].
fn random(lua: &Lua, args: Variadic<f64>) -> mlua::Result<f64> {
    let mod_index = HostLink::get(lua)?.mod_index;
    let (low, high) = match args.as_slice() {
        [] => (None, None),
        [m] => (Some(1.0), Some(*m)),
        [m, n, ..] => (Some(*m), Some(*n)),
    };
    with_battle(lua, "math.random", |b| {
        let rng = b
            .script_rng(mod_index)
            .ok_or_else(|| mlua::Error::runtime("no random generator for this mod"))?;
        match (low, high) {
            (Some(l), Some(h)) => {
                let (l, h) = (l.floor() as i64, h.floor() as i64);
                if l > h {
                    return Err(Fault::here(
                        lua,
                        ScriptErrorKind::Runtime,
                        format!("math.random: empty interval [{l}, {h}]"),
                    ));
                }
                Ok(rng.range_i64(l, h) as f64)
            }
            _ => Ok(rng.unit()),
        }
    })
}
