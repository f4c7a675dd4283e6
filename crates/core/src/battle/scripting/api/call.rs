//! What the API's functions share: reaching the battle the calling script belongs to (refused
//! while scripts load, and for changes while a query is computed), asking a query, registering
//! a callback, logging what only the player sees or hears, and errors located at the calling
//! script's line.

use mlua::{Function, Lua, Value};

use super::super::chains;
use super::super::lend::HostLink;
use super::super::limits::Shown;
use super::registration::{Registration, RegistrationKind};
use crate::battle::core::Battle;
use crate::battle::entity::EntityId;
use crate::battle::log::LogKind;
use crate::battle::state::Scope;
use rampart_lua::{Fault, ScriptErrorKind};

/// Runs `f` on the battle the calling script belongs to, or fails if there is none (while
/// scripts load, or under `rampart check`).
pub(super) fn with_battle<R>(
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
pub(super) fn changing_battle<R>(
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

/// Logs `entry`, which only the player sees or hears (`what`), from the function `function`;
/// not while the battle is only being looked at (looking leaves the battle and its log as they
/// were), nor past the mod's allowance of `what` this tick (then it warns, once per battle).
pub(super) fn log_for_player(
    lua: &Lua,
    function: &str,
    what: Shown,
    entry: LogKind,
) -> mlua::Result<()> {
    let link = HostLink::get(lua)?;
    with_battle(lua, function, |b| {
        if b.previewing() {
            return Ok(());
        }
        if link.shared.limits.show(what, link.mod_index) {
            b.push_log(entry);
        } else {
            let warning = link.warning(lua, format!("{function}: {}", what.over()));
            link.shared
                .warn_once(format!("{what:?} {}", link.mod_id()), warning);
        }
        Ok(())
    })
}

pub(super) fn query(lua: &Lua, name: &str, input: Value) -> mlua::Result<Value> {
    with_battle(lua, "game:query", |b| {
        if !b.can_nest() {
            return Err(too_deep(lua, name));
        }
        chains::lua_query(b, lua, name, &input).map_err(|e| locate(lua, e))
    })
}

pub(super) fn too_deep(lua: &Lua, chain: &str) -> mlua::Error {
    Fault::here(
        lua,
        ScriptErrorKind::Runtime,
        format!(
            "`{chain}` was refused: chains are nested too deeply (does a callback trigger itself?)"
        ),
    )
}

/// Gives a plain runtime error from the API the location of the script line that called it.
pub(super) fn locate(lua: &Lua, e: mlua::Error) -> mlua::Error {
    match e {
        mlua::Error::RuntimeError(message) => Fault::here(lua, ScriptErrorKind::Runtime, message),
        other => other,
    }
}

/// Registers a callback; `self_scope` makes it run only for the entity of `self`.
pub(super) fn register(
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
