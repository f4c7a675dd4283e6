//! How a mod's own status effects look: one file per mod, `effects.ron` at its root, gives an
//! effect a script applies (`game:apply_effect`) a tint for the attackers under it and an icon
//! for its badge under their HP bars, and a sound played when it is applied. The battle does not
//! read it: an effect's rules are the scripts', its look and sound are the client's.
//! `docs/modding/content.md` (*Effects*) documents the file.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::colour::Rgb;
use super::load::{Loading, Source, inside_mod};
use super::sounds::Known;
use crate::diagnostics::Diagnostic;
use crate::modding::ModInfo;
use crate::ron_file;

/// The file of a mod that declares how its effects look.
pub const FILE: &str = "effects.ron";

/// The effects with engine rules (`battle::effects`). Any other name is a mod's own; a mod's
/// `effects.ron` may give only those a look, since the built-in ones have the game's.
pub const BUILT_IN_EFFECTS: [&str; 7] = [
    "burning",
    "freezing",
    "shield",
    "stealth",
    "overclocked",
    "paralyzed",
    "electrified",
];

/// The look of a mod's own status effect, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct EffectLook {
    /// The effect's name, as scripts apply it.
    pub name: String,
    /// The mod that declared it.
    pub mod_id: String,
    /// The colour an attacker under it is tinted toward.
    pub tint: Option<Rgb>,
    /// Its badge's picture: a PNG file, its path inside the declaring mod.
    pub icon: Option<String>,
}

/// One entry of `effects.ron` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EffectEntry {
    name: String,
    #[serde(default)]
    tint: Option<String>,
    #[serde(default)]
    icon: Option<String>,
    #[serde(default)]
    sound: Option<String>,
}

/// Reads the `effects.ron` of mod `info`, if it has one, and adds the looks without errors to
/// `into` and their sounds to `sounds` (by effect name); each error is reported where it is in
/// the file and leaves out only its entry.
pub(super) fn load(
    info: &ModInfo,
    into: &mut Vec<EffectLook>,
    sounds: &mut BTreeMap<String, String>,
    known: Known,
    loading: &mut Loading,
) {
    let Some((entries, source)) = loading.root_file::<Vec<EffectEntry>>(info, FILE) else {
        return;
    };
    let mut from = 0;
    for entry in entries {
        // Each entry's problems are looked for after its name, where it is written.
        let at = ron_file::find_string_from(&source.file, &entry.name, from).unwrap_or(from);
        from = at + 1;
        match check(entry, into, &source, info, known, at) {
            Ok((look, sound)) => {
                sounds.extend(sound.map(|id| (look.name.clone(), id)));
                into.push(look);
            }
            Err(problems) => loading.diagnostics.extend(problems),
        }
    }
}

/// The look of one entry and the id of its sound, or its problems; `at` is the offset of its
/// name in the file.
fn check(
    entry: EffectEntry,
    declared: &[EffectLook],
    source: &Source,
    info: &ModInfo,
    known: Known,
    at: usize,
) -> Result<(EffectLook, Option<String>), Vec<Diagnostic>> {
    let file = &source.file;
    let mut problems = Vec::new();
    let mut error = |message: String, offset: usize, text: &str, help: Option<String>| {
        let d = Diagnostic::error(message)
            .at(file, offset, text.len() + 2)
            .for_mod(source.mod_id.clone());
        problems.push(match help {
            Some(help) => d.help(help),
            None => d,
        });
    };
    let name = &entry.name;
    if name.is_empty() {
        error("an effect's name cannot be empty".into(), at, name, None);
    } else if BUILT_IN_EFFECTS.contains(&name.as_str()) {
        error(
            format!("`{name}` is a built-in effect, which looks as the game draws it"),
            at,
            name,
            Some("only a mod's own effects are given a look here".into()),
        );
    } else if let Some(earlier) = declared.iter().find(|d| d.name == *name) {
        error(
            format!(
                "the look of effect `{name}` is already declared by mod `{}`",
                earlier.mod_id
            ),
            at,
            name,
            None,
        );
    }
    let tint = entry.tint.as_deref().and_then(|tint| {
        let tint_at = ron_file::find_string_from(file, tint, at).unwrap_or(at);
        Rgb::parse(tint)
            .map_err(|why| error(why, tint_at, tint, None))
            .ok()
    });
    if let Some(icon) = &entry.icon {
        let icon_at = ron_file::find_string_from(file, icon, at).unwrap_or(at);
        if !inside_mod(icon) {
            error(
                format!("the icon `{icon}` must be a path inside the mod's folder"),
                icon_at,
                icon,
                None,
            );
        } else if !icon.ends_with(".png") {
            error(
                format!("the icon `{icon}` must be a PNG file (`.png`)"),
                icon_at,
                icon,
                None,
            );
        } else if !info.root.join(icon).is_file() {
            error(
                format!("the icon `{icon}` is not a file of the mod"),
                icon_at,
                icon,
                Some("give its path inside the mod's folder, like `icons/chilled.png`".into()),
            );
        }
    }
    let sound = entry.sound.as_deref().and_then(|sound| {
        let sound_at = ron_file::find_string_from(file, sound, at).unwrap_or(at);
        known
            .reference(sound, info.id(), file, sound_at)
            .map_err(|d| problems.push(d))
            .ok()
            .flatten()
    });
    if !problems.is_empty() {
        return Err(problems);
    }
    let look = EffectLook {
        name: entry.name,
        mod_id: source.mod_id.clone(),
        tint,
        icon: entry.icon,
    };
    Ok((look, sound))
}
