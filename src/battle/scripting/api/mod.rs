//! What scripts see of a battle: the global `game` object, entity handles, and the tables that
//! carry chain payloads. Documented for modders in `docs/modding/lua-api.md`.

mod deprecated;
mod entity;
mod game;
mod handles;

use mlua::{Function, Lua, Table, Value};

use super::HostLink;
use super::register::{Registration, RegistrationKind};
use crate::battle::{Battle, EntityId, Scope, chains};
use crate::lua::{Fault, ScriptErrorKind};

pub use deprecated::{DEPRECATED, Deprecated};
use handles::{ApiTables, EntityArg, tables};
pub(crate) use handles::{
    Arg, CallArgs, HandleCache, Returned, damage_types_from_lua, damage_types_to_lua,
    entity_from_lua, entity_to_lua, opt_entity_from_lua, opt_entity_to_lua,
};

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

/// Like [`with_battle`], for calls that change the battle: refused while a query is computed,
/// because queries only compute values and the client computes them at any time for display.
fn changing_battle<R>(
    lua: &Lua,
    what: &str,
    f: impl FnOnce(&mut Battle) -> mlua::Result<R>,
) -> mlua::Result<R> {
    with_battle(lua, what, |b| {
        if b.in_query() {
            return Err(Fault::here(
                lua,
                ScriptErrorKind::Runtime,
                format!(
                    "{what} changes the battle, which a query modifier must not do: it only computes a value; change things from a command modifier, a reaction or a hook"
                ),
            ));
        }
        f(b)
    })
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
        entity_api: entity::api(lua)?,
        handles,
    });
    game::install(lua, globals)?;

    Ok(())
}
