//! Sounds as mod content: one RON file each in a mod's `sounds/` folder says what a sound is —
//! synthesised from parameters, a WAV or Ogg Vorbis file of the mod, or a tune of notes — how
//! loud it is and how many may play at once; blueprints, attacker types, `effects.ron` and the
//! soundscape name sounds by id, resolved here as other content ids are. The battle plays
//! nothing: the game's window does, from these and the battle's log. `docs/modding/sounds.md`
//! documents the files.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};

use rampart_sound::{SynthParams, Tune, parse_notes};
use serde::{Deserialize, Serialize};

use super::ModContent;
use super::item::content_item;
use super::load::{Item, Source, inside_mod};
use super::validate::Checker;
use crate::diagnostics::{Diagnostic, Diagnostics, SourceFile, did_you_mean};
use crate::ron_file;

/// The folder of a mod its sounds are read from: `sounds/boom.ron` is `<mod>:boom`.
pub const FOLDER: &str = "sounds";

/// The most copies of one sound that may play at once.
pub const MAX_VOICES: u32 = 32;

/// The largest sound file, in bytes: a few minutes of Ogg Vorbis music, a minute and a half of
/// CD-quality WAV.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The most voices a tune may play at once.
pub const MAX_TUNE_VOICES: usize = 8;

/// The slowest and fastest tune, in beats per minute.
pub const TEMPO: RangeInclusive<f64> = 20.0..=600.0;

/// The longest part of a synthesiser's envelope, and the longest of its other times, in seconds.
pub const MAX_SECONDS: f64 = 60.0;

fn full() -> f64 {
    1.0
}

fn four() -> u32 {
    4
}

content_item! {
    /// A sound as its file writes it: exactly one source (`synth`, `file` or `tune`), how loud,
    /// how many at once. Checked, it becomes a [`Sound`].
    ///
    /// A file that sets `overrides: "mod:name"` changes an existing sound instead: a source it
    /// names replaces the sound's source, whichever it was.
    pub struct SoundDef, overridden by SoundDefPatch, "sound" {
        /// Synthesised from these parameters.
        #[serde(default, skip_serializing)]
        #[patch(skip_wrap)]
        pub synth: Option<SynthParams>,
        /// A WAV or Ogg Vorbis file, its path inside the mod's folder.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub file: Option<String>,
        /// A tune of notes played by synthesisers.
        #[serde(default, skip_serializing)]
        #[patch(skip_wrap)]
        pub tune: Option<Tune>,
        /// How loud, 0 to 1.
        #[serde(default = "full")]
        pub volume: f64,
        /// The most copies of it that play at once, 1 to [`MAX_VOICES`]: another one past that
        /// cuts off the oldest.
        #[serde(default = "four")]
        pub voices: u32,
    }
}

/// A sound of the loaded mods, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Sound {
    /// Its id, `mod:name` from its file's name.
    pub id: String,
    /// The mod that defines it.
    pub mod_id: String,
    /// What makes it.
    pub source: SoundSource,
    /// How loud, 0 to 1.
    pub volume: f64,
    /// The most copies of it that play at once, 1 to [`MAX_VOICES`].
    pub voices: u32,
}

/// What makes a [`Sound`].
#[derive(Clone, Debug, PartialEq)]
pub enum SoundSource {
    /// An sfxr-style synthesiser.
    Synth(SynthParams),
    /// A WAV or Ogg Vorbis file: its absolute path, inside the folder of the mod that named it.
    File(PathBuf),
    /// A tune of notes (their notation already checked).
    Tune(Tune),
}

/// The sources a sound file may name, exactly one of.
const SOURCES: [&str; 3] = ["synth", "file", "tune"];

/// Checks a sound; returns it if it has no errors. `root_of` gives a mod's folder, where a
/// sound file it names must be.
pub(super) fn check(
    item: Item<SoundDef>,
    root_of: &dyn Fn(&str) -> Option<PathBuf>,
    diagnostics: &mut Diagnostics,
) -> Option<Sound> {
    let v = &item.value;
    let mut c = Checker::new(&item, diagnostics);
    if !(0.0..=1.0).contains(&v.volume) {
        c.path_error(
            "volume",
            format!("`volume` must be from 0 to 1, not {}", v.volume),
        );
    }
    if !(1..=MAX_VOICES).contains(&v.voices) {
        c.path_error(
            "voices",
            format!("`voices` must be from 1 to {MAX_VOICES}, not {}", v.voices),
        );
    }
    let source = source(&mut c, v, root_of);
    if c.errors > 0 {
        return None;
    }
    let (mod_id, _) = v.id.split_once(':').unwrap_or_default();
    Some(Sound {
        id: v.id.clone(),
        mod_id: mod_id.to_string(),
        source: source?,
        volume: v.volume,
        voices: v.voices,
    })
}

/// The sound's one source, checked. The last file that names a source decides it, so that an
/// override may replace a synthesised sound by a file.
fn source(
    c: &mut Checker<'_, SoundDef>,
    v: &SoundDef,
    root_of: &dyn Fn(&str) -> Option<PathBuf>,
) -> Option<SoundSource> {
    let named = |s: &Source| -> Vec<(&'static str, usize)> {
        SOURCES
            .into_iter()
            .filter_map(|key| ron_file::find_path(&s.file, key).map(|at| (key, at)))
            .collect()
    };
    let (item, errors_before) = (c.item, c.errors);
    let Some((source, names)) = item
        .sources
        .iter()
        .rev()
        .map(|s| (s, named(s)))
        .find(|(_, names)| !names.is_empty())
    else {
        let first = &item.sources[0];
        c.report(
            Diagnostic::error("a sound needs a source: `synth`, `file` or `tune`")
                .at(&first.file, 0, 1)
                .help("see docs/modding/sounds.md")
                .for_mod(first.mod_id.clone()),
        );
        return None;
    };
    let (file, mod_id) = (&source.file, &source.mod_id);
    let (key, at) = names[0];
    if let Some(&(second, second_at)) = names.get(1) {
        c.report(
            Diagnostic::error(format!(
                "a sound has exactly one source, and this file gives `{key}` and `{second}`"
            ))
            .at(file, second_at, second.len())
            .help("keep one of them")
            .for_mod(mod_id.clone()),
        );
        return None;
    }
    let found = match key {
        "synth" => v.synth.map(|synth| {
            check_synth(c, "synth", &synth);
            SoundSource::Synth(synth)
        }),
        "file" => v.file.as_deref().and_then(|rel| {
            let problem = match root_of(mod_id).map(|root| audio_file(&root, rel)) {
                Some(Ok(path)) => return Some(SoundSource::File(path)),
                Some(Err(problem)) => problem,
                None => (format!("mod `{mod_id}` is not loaded"), None),
            };
            let (message, help) = problem;
            let d = Diagnostic::error(message)
                .at(
                    file,
                    ron_file::locate(file, "file", Some(rel)),
                    rel.len() + 2,
                )
                .for_mod(mod_id.clone());
            c.report(match help {
                Some(help) => d.help(help),
                None => d,
            });
            None
        }),
        _ => v.tune.as_ref().map(|tune| {
            check_tune(c, file, mod_id, tune);
            SoundSource::Tune(tune.clone())
        }),
    };
    if found.is_none() && c.errors == errors_before {
        // Written as `None`: named, but not given.
        c.report(
            Diagnostic::error(format!("`{key}` names no source"))
                .at(file, at, key.len())
                .help("give the source, or leave the field out")
                .for_mod(mod_id.clone()),
        );
    }
    found
}

/// The bounds of each synthesiser parameter, each with the path of its field in a synthesiser
/// and its unit, in the order they are written in `SynthParams`.
fn bounds(p: &SynthParams) -> [(&'static str, f64, RangeInclusive<f64>, &'static str); 23] {
    [
        ("frequency", p.frequency, 1.0..=20_000.0, " Hz"),
        ("slide", p.slide, -100.0..=100.0, " octaves per second"),
        (
            "delta_slide",
            p.delta_slide,
            -1000.0..=1000.0,
            " octaves per second per second",
        ),
        ("min_frequency", p.min_frequency, 0.0..=20_000.0, " Hz"),
        ("duty", p.duty, 0.0..=1.0, ""),
        ("duty_slide", p.duty_slide, -10.0..=10.0, " per second"),
        ("vibrato.depth", p.vibrato.depth, 0.0..=1.0, ""),
        ("vibrato.speed", p.vibrato.speed, 0.0..=100.0, " per second"),
        ("arpeggio.ratio", p.arpeggio.ratio, 0.1..=10.0, ""),
        ("arpeggio.after", p.arpeggio.after, 0.0..=MAX_SECONDS, " s"),
        ("attack", p.attack, 0.0..=MAX_SECONDS, " s"),
        ("sustain", p.sustain, 0.0..=MAX_SECONDS, " s"),
        ("punch", p.punch, 0.0..=1.0, ""),
        ("decay", p.decay, 0.0..=MAX_SECONDS, " s"),
        ("low_pass.cutoff", p.low_pass.cutoff, 1.0..=24_000.0, " Hz"),
        (
            "low_pass.slide",
            p.low_pass.slide,
            -100.0..=100.0,
            " octaves per second",
        ),
        ("low_pass.resonance", p.low_pass.resonance, 0.0..=1.0, ""),
        (
            "high_pass.cutoff",
            p.high_pass.cutoff,
            0.0..=24_000.0,
            " Hz",
        ),
        (
            "high_pass.slide",
            p.high_pass.slide,
            -100.0..=100.0,
            " octaves per second",
        ),
        ("phaser.offset", p.phaser.offset, 0.0..=100.0, " ms"),
        (
            "phaser.slide",
            p.phaser.slide,
            -1000.0..=1000.0,
            " ms per second",
        ),
        ("repeat", p.repeat, 0.0..=MAX_SECONDS, " s"),
        ("volume", p.volume, 0.0..=1.0, ""),
    ]
}

/// Checks a synthesiser's parameters, written at `path` (`synth`,
/// `tune.voices[0].instrument`).
fn check_synth(c: &mut Checker<'_, SoundDef>, path: &str, p: &SynthParams) {
    for (field, value, range, unit) in bounds(p) {
        if !(value.is_finite() && range.contains(&value)) {
            c.path_error(
                &format!("{path}.{field}"),
                format!(
                    "`{path}.{field}` must be from {}{unit} to {}{unit}, not {value}",
                    range.start(),
                    range.end()
                ),
            );
        }
    }
    if [p.attack, p.sustain, p.decay] == [0.0; 3] {
        c.path_error(
            &format!("{path}.sustain"),
            format!("`{path}` is silent: its `attack`, `sustain` and `decay` are all 0"),
        );
    }
}

/// Checks a tune: its tempo, its voices and their notes, each mistake of the notes at its own
/// place in the notes' text (`file` is the one that names the tune).
fn check_tune(c: &mut Checker<'_, SoundDef>, file: &SourceFile, mod_id: &str, tune: &Tune) {
    if !(tune.tempo.is_finite() && TEMPO.contains(&tune.tempo)) {
        c.path_error(
            "tune.tempo",
            format!(
                "`tune.tempo` must be from {} to {} beats per minute, not {}",
                TEMPO.start(),
                TEMPO.end(),
                tune.tempo
            ),
        );
    }
    if tune.voices.is_empty() || tune.voices.len() > MAX_TUNE_VOICES {
        c.path_error(
            "tune.voices",
            format!(
                "a tune needs from 1 to {MAX_TUNE_VOICES} voices, not {}",
                tune.voices.len()
            ),
        );
    }
    for (i, voice) in tune.voices.iter().enumerate() {
        let path = format!("tune.voices[{i}]");
        check_synth(c, &format!("{path}.instrument"), &voice.instrument);
        if let Some(volume) = voice.volume
            && !(0.0..=1.0).contains(&volume)
        {
            c.path_error(
                &format!("{path}.volume"),
                format!("`{path}.volume` must be from 0 to 1, not {volume}"),
            );
        }
        let notes = &voice.notes;
        let key = ron_file::find_path(file, &format!("{path}.notes"));
        let problem = match parse_notes(notes) {
            Ok(parsed) if parsed.is_empty() => Some(("a voice needs notes".to_string(), 0, 0)),
            Ok(_) => None,
            Err(e) => {
                let token = notes[e.offset..].split_whitespace().next().unwrap_or("");
                Some((e.message, e.offset, token.len()))
            }
        };
        if let Some((message, offset, len)) = problem {
            // Inside the string when it is written plainly; at its field otherwise (escapes
            // would shift the offsets).
            let quote = key.and_then(|key| ron_file::find_string_from(file, notes, key));
            let (at, len) = match (quote, key) {
                (Some(quote), _) => (quote + 1 + offset, len.max(1)),
                (None, Some(key)) => (key, "notes".len()),
                (None, None) => (0, 1),
            };
            c.report(
                Diagnostic::error(format!("`{path}.notes`: {message}"))
                    .at(file, at, len)
                    .for_mod(mod_id),
            );
        }
    }
}

/// Checks a sound file `rel` a mod names, against the mod's folder `root`: inside it, a WAV or
/// Ogg Vorbis file by its extension and its first bytes, within [`MAX_FILE_BYTES`], and one that
/// decodes (`rampart_sound::decode`, as the game's window will). Its path, absolute, or what is
/// wrong and a hint.
fn audio_file(root: &Path, rel: &str) -> Result<PathBuf, (String, Option<String>)> {
    if !inside_mod(rel) {
        return Err((
            format!("the sound file `{rel}` must be a path inside the mod's folder"),
            None,
        ));
    }
    let extension = Path::new(rel)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    // Each format by the first bytes of its files: RIFF….WAVE, OggS.
    let (format, fits): (_, fn(&[u8; 12]) -> bool) = match extension.as_deref() {
        Some("wav") => ("a WAV file", |h| {
            h.starts_with(b"RIFF") && h.ends_with(b"WAVE")
        }),
        Some("ogg") => ("an Ogg Vorbis file", |h| h.starts_with(b"OggS")),
        _ => {
            return Err((
                format!(
                    "the sound file `{rel}` must be a WAV (`.wav`) or Ogg Vorbis (`.ogg`) file"
                ),
                None,
            ));
        }
    };
    let path = root.join(rel);
    let meta = std::fs::metadata(&path).ok().filter(|m| m.is_file());
    let Some(meta) = meta else {
        return Err((
            format!("the sound file `{rel}` is not a file of the mod"),
            Some("give its path inside the mod's folder, like `sounds/boom.ogg`".into()),
        ));
    };
    if meta.len() > MAX_FILE_BYTES {
        return Err((
            format!(
                "the sound file `{rel}` is {} bytes, more than the {MAX_FILE_BYTES} a sound file may be",
                meta.len()
            ),
            Some("shorten it, or make it an Ogg Vorbis file, which is smaller".into()),
        ));
    }
    let bytes = std::fs::read(&path).unwrap_or_default();
    let header: Option<&[u8; 12]> = bytes.first_chunk();
    if !header.is_some_and(fits) {
        return Err((
            format!("the sound file `{rel}` is not {format}: its first bytes say otherwise"),
            Some("save it again as WAV or Ogg Vorbis, with the extension that says which".into()),
        ));
    }
    // Decoded as the game will play it, so that a file the game cannot play is found here and
    // not by a player.
    if let Err(why) = rampart_sound::decode(&bytes) {
        return Err((
            format!("the sound file `{rel}` cannot be played: {why}"),
            Some("save it again as 16-bit WAV or as Ogg Vorbis".into()),
        ));
    }
    Ok(std::path::absolute(&path).unwrap_or(path))
}

/// The sounds of a blueprint, each optional: a sound's id, `name` for one of the mod's own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlueprintSounds {
    /// Played when a building of it is placed (buildings only).
    #[serde(default)]
    pub place: Option<String>,
    /// Played when it fires (a `Shooter`) or its blast lands (a `Blast`).
    #[serde(default)]
    pub fire: Option<String>,
    /// Played when it is used (abilities only).
    #[serde(default)]
    pub ability: Option<String>,
    /// Played when a building of it is sold or destroyed (buildings only).
    #[serde(default)]
    pub removed: Option<String>,
}

impl BlueprintSounds {
    /// Each sound with its field's name.
    pub(super) fn slots_mut(&mut self) -> [(&'static str, &mut Option<String>); 4] {
        [
            ("place", &mut self.place),
            ("fire", &mut self.fire),
            ("ability", &mut self.ability),
            ("removed", &mut self.removed),
        ]
    }
}

/// The sounds of an attacker type, each optional: a sound's id, `name` for one of the mod's own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttackerSounds {
    /// Played when one appears.
    #[serde(default)]
    pub spawn: Option<String>,
    /// Played when one dies.
    #[serde(default)]
    pub death: Option<String>,
    /// Played when one is hit, instead of the soundscape's sound of the hit's damage type.
    #[serde(default)]
    pub hit: Option<String>,
    /// Played when one reaches the Hub.
    #[serde(default)]
    pub leak: Option<String>,
}

impl AttackerSounds {
    /// Each sound with its field's name.
    pub(super) fn slots_mut(&mut self) -> [(&'static str, &mut Option<String>); 4] {
        [
            ("spawn", &mut self.spawn),
            ("death", &mut self.death),
            ("hit", &mut self.hit),
            ("leak", &mut self.leak),
        ]
    }
}

/// Why a reference to a sound does not resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SoundMiss {
    /// No loaded mod has a sound with this id.
    Unknown {
        /// The id, made full.
        id: String,
        /// "did you mean …?", from the sounds the referring mod may use.
        hint: Option<String>,
    },
    /// The sound is a mod's the referring mod does not depend on.
    NotADependency {
        /// The sound's id.
        id: String,
        /// Its mod.
        owner: String,
        /// The referring mod.
        user: String,
    },
    /// The sound's file has errors (reported at it), so it was left out.
    Broken {
        /// The sound's id.
        id: String,
    },
}

impl SoundMiss {
    /// How to set it right, if there is something to say.
    pub fn help(&self) -> Option<String> {
        match self {
            SoundMiss::Unknown { hint: Some(h), .. } => Some(h.clone()),
            SoundMiss::Unknown { hint: None, .. } => Some(
                "a sound is a file `sounds/<name>.ron`: write `name` for one of this mod's, \
                 `mod:name` for one of a mod it depends on"
                    .into(),
            ),
            SoundMiss::NotADependency { owner, .. } => Some(format!(
                "add (id: \"{owner}\") to `dependencies` in mod.ron"
            )),
            SoundMiss::Broken { .. } => None,
        }
    }
}

impl fmt::Display for SoundMiss {
    /// What is wrong, without the help.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SoundMiss::Unknown { id, .. } => write!(f, "there is no sound `{id}`"),
            SoundMiss::NotADependency { id, owner, user } => write!(
                f,
                "`{id}` is a sound of `{owner}`, which is not a dependency of `{user}`"
            ),
            SoundMiss::Broken { id } => {
                write!(f, "sound `{id}` was left out: its file has errors")
            }
        }
    }
}

/// What references to sounds are resolved against: the sounds loaded, those left out for
/// errors, and the mods, whose dependencies say which sounds each may name.
#[derive(Clone, Copy)]
pub(super) struct Known<'a> {
    pub sounds: &'a BTreeMap<String, Sound>,
    pub broken: &'a BTreeSet<String>,
    pub mods: &'a [ModContent],
}

impl<'a> Known<'a> {
    /// The sound `reference` names when mod `user` writes it: `name` is the mod's own,
    /// `mod:name` one of `mod`, which must be `user` or a mod it depends on.
    pub(super) fn resolve(self, reference: &str, user: &str) -> Result<&'a Sound, SoundMiss> {
        let id = match reference.contains(':') {
            true => reference.to_string(),
            false => format!("{user}:{reference}"),
        };
        let dependencies = self
            .mods
            .iter()
            .find(|m| m.id == user)
            .map_or(&[][..], |m| &m.dependencies[..]);
        let usable = |id: &str| {
            let owner = id.split(':').next().unwrap_or_default();
            owner == user || dependencies.iter().any(|d| d == owner)
        };
        let found = self.sounds.get(&id);
        if found.is_none() && !self.broken.contains(&id) {
            let hint = did_you_mean(
                &id,
                self.sounds.keys().map(String::as_str).filter(|k| usable(k)),
            );
            return Err(SoundMiss::Unknown { id, hint });
        }
        if !usable(&id) {
            let owner = id.split(':').next().unwrap_or_default().to_string();
            return Err(SoundMiss::NotADependency {
                id,
                owner,
                user: user.to_string(),
            });
        }
        found.ok_or(SoundMiss::Broken { id })
    }

    /// A reference while loading, written as the string at `at` of `file` by mod `user`: the
    /// sound's id, `None` for a sound left out for errors in its file (reported there), or the
    /// diagnostic for a reference that does not resolve.
    pub(super) fn reference(
        self,
        reference: &str,
        user: &str,
        file: &SourceFile,
        at: usize,
    ) -> Result<Option<String>, Diagnostic> {
        match self.resolve(reference, user) {
            Ok(sound) => Ok(Some(sound.id.clone())),
            Err(SoundMiss::Broken { .. }) => Ok(None),
            Err(miss) => {
                let d = Diagnostic::error(miss.to_string())
                    .at(file, at, reference.len() + 2)
                    .for_mod(user);
                Err(match miss.help() {
                    Some(help) => d.help(help),
                    None => d,
                })
            }
        }
    }
}
