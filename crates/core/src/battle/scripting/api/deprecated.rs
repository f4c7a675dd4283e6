//! Old names of `game` functions, kept working for mods written against them: the one table of
//! deprecations (documented in `docs/modding/lua-api.md`, *Deprecated names*).

use mlua::{Function, Lua, MultiValue, Table};

use crate::battle::scripting::lend::HostLink;

/// A `game` function's old name and what replaced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deprecated {
    /// The old name, `game:<old>`.
    pub old: &'static str,
    /// The name to use instead, `game:<replacement>`.
    pub replacement: &'static str,
    /// The game version that deprecated the old name.
    pub since: &'static str,
}

/// Every deprecated name of the `game` object.
pub const DEPRECATED: &[Deprecated] = &[Deprecated {
    old: "barrier",
    replacement: "raise_barrier",
    since: "0.1.0",
}];

/// Puts each old name into `game` as its replacement that first warns, once per mod and name,
/// where the old name was called from.
pub(super) fn install(lua: &Lua, game: &Table) -> mlua::Result<()> {
    for &deprecated in DEPRECATED {
        let replacement: Function = game.raw_get(deprecated.replacement)?;
        let old = lua.create_function(move |lua, args: MultiValue| {
            warn(lua, deprecated)?;
            replacement.call::<MultiValue>(args)
        })?;
        game.raw_set(deprecated.old, old)?;
    }
    Ok(())
}

/// Logs that the calling script used an old name, the first time its mod does.
fn warn(lua: &Lua, deprecated: Deprecated) -> mlua::Result<()> {
    let link = HostLink::get(lua)?;
    let Deprecated {
        old,
        replacement,
        since,
    } = deprecated;
    let warning = link.warning(
        lua,
        format!(
            "`game:{old}` is deprecated since version {since}; use `game:{replacement}` (it works \
             the same)"
        ),
    );
    // Keyed without the place: a mod that calls it from many lines hears of it once.
    link.shared
        .warn_once(format!("deprecated {} {old}", link.mod_id()), warning);
    Ok(())
}
