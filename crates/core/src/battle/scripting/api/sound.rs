//! Playing sounds from scripts (`game:sound`): the sound resolved as content names sounds, the
//! place checked, and the sound logged within the mod's allowance per tick. Nothing here
//! changes the battle: the game's window plays what the log says.

use mlua::Lua;

use super::call::{log_for_player, with_battle};
use crate::battle::entity::Position;
use crate::battle::log::LogKind;
use crate::battle::scripting::lend::HostLink;
use crate::battle::scripting::limits::Shown;
use rampart_lua::{Fault, ScriptErrorKind};

/// `game:sound(id, x, y)`: the sound `id` (`name` for one of the calling mod's own, `mod:name`
/// for one of a mod it depends on) at (`x`, `y`), or heard alike everywhere without them.
pub(super) fn play(lua: &Lua, id: String, x: Option<f64>, y: Option<f64>) -> mlua::Result<()> {
    let refuse = |message: String| {
        Fault::here(
            lua,
            ScriptErrorKind::Runtime,
            format!("game:sound: {message}"),
        )
    };
    let at = match (x, y) {
        (None, None) => None,
        (Some(x), Some(y)) if x.is_finite() && y.is_finite() => Some(Position { x, y }),
        (Some(x), Some(y)) => {
            return Err(refuse(format!(
                "x and y must be finite numbers, not {x} and {y}"
            )));
        }
        _ => {
            return Err(refuse(
                "give both x and y, or neither for a sound heard everywhere".into(),
            ));
        }
    };
    let mod_index = HostLink::get(lua)?.mod_index;
    let (sound, by_mod) = with_battle(lua, "game:sound", |b| {
        let content = b.content();
        let user = &content.mods[mod_index].id;
        match content.resolve_sound(&id, user) {
            Ok(sound) => Ok((sound.id.clone(), user.clone())),
            Err(miss) => Err(refuse(match miss.help() {
                Some(help) => format!("{miss} ({help})"),
                None => miss.to_string(),
            })),
        }
    })?;
    let entry = LogKind::Sound { sound, at, by_mod };
    log_for_player(lua, "game:sound", Shown::Sound, entry)
}
