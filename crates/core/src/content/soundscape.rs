//! The game's own sounds — the menus' clicks, a wave starting, a hit of each damage type, the
//! built-in effects, the music — named by any mod in `soundscape.ron` at its root. Every field
//! is optional; mods later in the load order replace the sounds they name, field by field, so
//! a mod that names only `music: (wave: "theme")` changes the wave's music and nothing else.
//! `docs/modding/sounds.md` documents the file.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::damage::DamageType;
use super::effects::BUILT_IN_EFFECTS;
use super::load::Loading;
use super::sounds::Known;
use crate::diagnostics::{Diagnostic, did_you_mean};
use crate::modding::ModInfo;
use crate::ron_file;

/// The file of a mod that names the game's own sounds.
pub const FILE: &str = "soundscape.ron";

/// The game's own sounds, each a sound's id (`mod:name`) once loaded; `None` where no mod
/// names one.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Soundscape {
    /// A button pressed.
    pub ui_click: Option<String>,
    /// Back, or a window closed.
    pub ui_back: Option<String>,
    /// A wave starts.
    pub wave_start: Option<String>,
    /// A wave ends.
    pub wave_end: Option<String>,
    /// An attacker reaches the Hub (unless its type has its own `leak` sound).
    pub leak: Option<String>,
    /// The level is won.
    pub level_won: Option<String>,
    /// The level is lost.
    pub level_lost: Option<String>,
    /// A reward is offered.
    pub reward: Option<String>,
    /// The battle refused a command of the player's.
    pub refused: Option<String>,
    /// A building is placed (unless its blueprint has its own `place` sound).
    pub place: Option<String>,
    /// An attacker is hit, by the hit's damage type (unless its type has its own `hit` sound;
    /// a hit of several types plays the sound of the first in the order `Physical`,
    /// `Explosive`, `Energy`, `HpLoss`).
    pub hits: BTreeMap<DamageType, String>,
    /// An effect is applied, by the effect's name: the built-in ones from `soundscape.ron`,
    /// a mod's own from its `effects.ron` (`sound`).
    pub effects: BTreeMap<String, String>,
    /// The music.
    pub music: Music,
}

/// The music of a battle, each a sound that loops (a tune or a file).
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Music {
    /// Between waves, while the player builds.
    pub build: Option<String>,
    /// During a wave.
    pub wave: Option<String>,
    /// During a wave with a boss.
    pub boss: Option<String>,
}

impl Soundscape {
    /// Every single sound it names, with its field's name.
    fn slots_mut(&mut self) -> [(&'static str, &mut Option<String>); 13] {
        [
            ("ui_click", &mut self.ui_click),
            ("ui_back", &mut self.ui_back),
            ("wave_start", &mut self.wave_start),
            ("wave_end", &mut self.wave_end),
            ("leak", &mut self.leak),
            ("level_won", &mut self.level_won),
            ("level_lost", &mut self.level_lost),
            ("reward", &mut self.reward),
            ("refused", &mut self.refused),
            ("place", &mut self.place),
            ("build", &mut self.music.build),
            ("wave", &mut self.music.wave),
            ("boss", &mut self.music.boss),
        ]
    }
}

/// Reads the `soundscape.ron` of mod `info`, if it has one, into `into`: each sound it names
/// replaces the one there. A reference that does not resolve is reported and leaves the
/// earlier sound in place.
pub(super) fn load(info: &ModInfo, into: &mut Soundscape, known: Known, loading: &mut Loading) {
    let Some((mut named, source)) = loading.root_file::<Soundscape>(info, FILE) else {
        return;
    };
    let (file, user) = (&source.file, info.id());
    let problems = &mut loading.diagnostics;
    // The sound `reference`, written at `at`, into `slot`; a problem is reported instead.
    let resolve = |at: usize, reference: &str, slot: &mut Option<String>| -> Option<Diagnostic> {
        match known.reference(reference, user, file, at) {
            Ok(Some(id)) => *slot = Some(id),
            Ok(None) => {}
            Err(d) => return Some(d),
        }
        None
    };
    for ((field, theirs), (_, ours)) in named.slots_mut().into_iter().zip(into.slots_mut()) {
        if let Some(reference) = theirs {
            let at = ron_file::locate(file, field, Some(reference));
            problems.extend(resolve(at, reference, ours));
        }
    }
    for (damage_type, reference) in &named.hits {
        let mut slot = into.hits.get(damage_type).cloned();
        let at = ron_file::locate(file, "hits", Some(reference));
        problems.extend(resolve(at, reference, &mut slot));
        into.hits.extend(slot.map(|id| (*damage_type, id)));
    }
    for (effect, reference) in &named.effects {
        if !BUILT_IN_EFFECTS.contains(&effect.as_str()) {
            let at = ron_file::find_string(file, effect).unwrap_or(0);
            let d = Diagnostic::error(format!("`{effect}` is not a built-in effect"))
                .at(file, at, effect.len() + 2)
                .help(match did_you_mean(effect, BUILT_IN_EFFECTS) {
                    Some(hint) => hint,
                    None => "a mod's own effect gets its sound in the mod's effects.ron".into(),
                })
                .for_mod(user);
            problems.push(d);
            continue;
        }
        let mut slot = into.effects.get(effect).cloned();
        let at = ron_file::locate(file, "effects", Some(reference));
        problems.extend(resolve(at, reference, &mut slot));
        into.effects.extend(slot.map(|id| (effect.clone(), id)));
    }
}
