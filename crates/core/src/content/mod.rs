//! Typed, validated game content: attacker types, blueprints and the scripts behind them.
//!
//! The content database is built from the loaded mods in load order ([`ContentDb::load`]). Ids
//! are namespaced: `mods/core/blueprints/sniper.ron` defines `core:sniper`. A later mod changes
//! earlier content only explicitly, with a file that says `overrides: "core:sniper"` and gives
//! the fields to change. Everything the battle needs is read here, once, so a battle never
//! touches the file system.

pub mod acts;
pub mod adaptation;
pub mod attacker;
pub mod augments;
pub mod behaviour;
pub mod blueprint;
pub mod chains;
pub mod colour;
pub mod damage;
pub mod describe;
pub mod description;
pub mod designs;
pub mod effects;
pub mod events;
mod item;
pub mod levels;
mod load;
pub mod model;
pub mod money;
pub mod palette;
pub mod sounds;
pub mod soundscape;
pub mod tutorial;
mod validate;
pub mod wave_params;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::diagnostics::{Diagnostics, SourceFile};
use crate::modding::ModSet;
use crate::terrain::TerrainType;

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

pub use attacker::{AttackerType, Size, Spawn};
pub use augments::Augment;
pub use behaviour::{Aim, Behaviour, Priority, Projectile, Shape, Shooter, Targets};
pub use blueprint::{Affects, Blueprint, BlueprintKind, Cost, Deposit, Placement, Rarity};
pub use chains::ChainDecl;
pub use damage::{DamageType, DamageTypes};
pub use designs::LevelDesign;
pub use effects::EffectLook;
pub use events::Event;
pub use levels::{LevelSetter, MAX_PATH_LENGTH, MAX_WAVES_PER_LEVEL};
pub use sounds::{AttackerSounds, BlueprintSounds, Sound, SoundMiss, SoundSource};
pub use soundscape::{Music, Soundscape};
pub use tutorial::Tutorial;
pub use wave_params::{Growth, InvalidParam, KindWeights, Ramp, WaveParams};

/// Index of an attacker type in the [`ContentDb`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct AttackerId(pub u32);

/// Index of a blueprint in the [`ContentDb`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct BlueprintId(pub u32);

/// A script of a mod: the mod and the path inside its folder.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct ScriptRef {
    /// The mod the script belongs to.
    pub mod_id: String,
    /// Its path inside the mod folder, with `/` separators (`scripts/sniper.lua`).
    pub path: String,
}

/// A value in the `params` of an attacker type or blueprint: a number, or a text such as the id
/// of an attacker to spawn. Written plainly in RON: `params: {"every": 80, "spawns": "core:skeleton"}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Param {
    /// A number.
    Number(f64),
    /// A text.
    Text(String),
}

impl Scalar for Param {
    const EXPECTING: &'static str = "a number or a text in quotes";
    fn number(n: f64) -> Param {
        Param::Number(n)
    }
    fn text(t: String) -> Param {
        Param::Text(t)
    }
}

impl<'de> Deserialize<'de> for Param {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Param, D::Error> {
        deserializer.deserialize_any(ScalarVisitor(std::marker::PhantomData))
    }
}

/// A value written plainly in RON as a number, a text in quotes or, where it may be one, `true`
/// or `false`. Read by hand rather than as an `untagged` enum, so that a wrong value says what
/// was expected instead of "did not match any variant".
pub(crate) trait Scalar: Sized {
    /// What a value may be, in words, for the error of one that is none of those.
    const EXPECTING: &'static str;
    /// The value of a number.
    fn number(n: f64) -> Self;
    /// The value of a text.
    fn text(t: String) -> Self;
    /// The value of `true` or `false`, where a boolean may be one.
    fn boolean(_: bool) -> Option<Self> {
        None
    }
}

/// Reads a [`Scalar`] `T` (with `deserialize_any`).
pub(crate) struct ScalarVisitor<T>(pub std::marker::PhantomData<T>);

impl<T: Scalar> serde::de::Visitor<'_> for ScalarVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(T::EXPECTING)
    }
    fn visit_f64<E>(self, v: f64) -> Result<T, E> {
        Ok(T::number(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<T, E> {
        Ok(T::number(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<T, E> {
        Ok(T::number(v as f64))
    }
    fn visit_str<E>(self, v: &str) -> Result<T, E> {
        Ok(T::text(v.to_string()))
    }
    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<T, E> {
        T::boolean(v).ok_or_else(|| E::invalid_type(serde::de::Unexpected::Bool(v), &self))
    }
}

/// A compiled script.
#[derive(Clone, Debug)]
pub struct Script {
    /// The source, for diagnostics.
    pub file: SourceFile,
    /// Luau bytecode.
    pub bytecode: Arc<[u8]>,
}

/// What one loaded mod contributes besides attackers and blueprints.
#[derive(Clone, Debug)]
pub struct ModContent {
    /// The mod's id.
    pub id: String,
    /// Its display name.
    pub name: String,
    /// Its version.
    pub version: semver::Version,
    /// Its folder.
    pub root: PathBuf,
    /// Its scripts that compiled, by path (`scripts/x.lua`).
    pub scripts: BTreeMap<String, Script>,
    /// The ids of the mods its manifest depends on, optional ones included.
    pub dependencies: Vec<String>,
}

impl ModContent {
    /// Its scripts' bytecode and declared dependencies, as `require` sees them.
    fn library(&self) -> rampart_lua::Library {
        rampart_lua::Library {
            scripts: self
                .scripts
                .iter()
                .map(|(p, s)| (p.clone(), s.bytecode.clone()))
                .collect(),
            dependencies: self.dependencies.clone(),
        }
    }
}

/// A field-level change one mod made to another's content.
#[derive(Clone, Debug)]
pub struct OverrideRecord {
    /// The content changed.
    pub target: String,
    /// The mod that changed it.
    pub by_mod: String,
    /// The file with the change.
    pub file: PathBuf,
}

/// All content of the loaded mods.
#[derive(Clone, Debug, Default)]
pub struct ContentDb {
    /// The loaded mods, in load order.
    pub mods: Vec<ModContent>,
    /// Attacker types, in load order.
    pub attackers: Vec<AttackerType>,
    /// Blueprints, in load order.
    pub blueprints: Vec<Blueprint>,
    /// Terrain types, in load order (`mods/<mod>/terrain/<name>.terrain` is `mod:name`).
    pub terrains: Vec<TerrainType>,
    /// Overrides applied, in the order applied.
    pub overrides: Vec<OverrideRecord>,
    /// Augments (`augments/`), in load order.
    pub augments: Vec<Augment>,
    /// Run events (`events/`), in load order.
    pub events: Vec<Event>,
    /// The level setter (`levels.ron`), if a mod defines one and it has no errors.
    pub levels: Option<LevelSetter>,
    /// The tutorial (`tutorial.ron`), if a mod defines one and it has no errors.
    pub tutorial: Option<Tutorial>,
    /// The events and queries mods declare (each mod's `chains.ron`), in load order, those
    /// with errors left out.
    pub chains: Vec<ChainDecl>,
    /// How mods' own status effects look (each mod's `effects.ron`), in load order, those with
    /// errors left out.
    pub effect_looks: Vec<EffectLook>,
    /// The colours models are painted with, by name (each mod's `palette.ron`, merged in load
    /// order), those with errors left out.
    pub palette: palette::Palette,
    /// Sounds (`sounds/`), by id; those with errors left out.
    pub sounds: BTreeMap<String, Sound>,
    /// The game's own sounds (each mod's `soundscape.ron`, merged in load order) and those of
    /// effects.
    pub soundscape: Soundscape,
    /// Sounds whose files had errors (reported where they are), left out.
    broken_sounds: BTreeSet<String>,
    attacker_index: BTreeMap<String, AttackerId>,
    blueprint_index: BTreeMap<String, BlueprintId>,
    /// Where each terrain type was read from, by id.
    terrain_files: BTreeMap<String, PathBuf>,
    /// Terrain types whose files had errors (reported where they are), left out.
    broken_terrains: BTreeSet<String>,
    hash: u64,
}

impl ContentDb {
    /// Loads the content of every mod of `mods`, in load order. Problems are returned as
    /// diagnostics; content with errors is left out, everything else is kept.
    pub fn load(mods: &ModSet) -> (ContentDb, Diagnostics) {
        load::load(mods)
    }

    /// An attacker type.
    pub fn attacker(&self, id: AttackerId) -> &AttackerType {
        &self.attackers[id.0 as usize]
    }

    /// A blueprint.
    pub fn blueprint(&self, id: BlueprintId) -> &Blueprint {
        &self.blueprints[id.0 as usize]
    }

    /// The attacker type with id `mod:name`.
    pub fn attacker_id(&self, id: &str) -> Option<AttackerId> {
        self.attacker_index.get(id).copied()
    }

    /// The augment with id `mod:name`.
    pub fn augment(&self, id: &str) -> Option<&Augment> {
        self.augments.iter().find(|a| a.id == id)
    }

    /// The blueprint with id `mod:name`.
    pub fn blueprint_id(&self, id: &str) -> Option<BlueprintId> {
        self.blueprint_index.get(id).copied()
    }

    /// The terrain type with id `mod:name`.
    pub fn terrain(&self, id: &str) -> Option<&TerrainType> {
        self.terrains.iter().find(|t| t.id == id)
    }

    /// Whether a terrain type's file exists but had errors, so that a reference to it can point
    /// at those errors instead of saying the type does not exist.
    pub fn terrain_broken(&self, id: &str) -> bool {
        self.broken_terrains.contains(id)
    }

    /// The file a terrain type was read from.
    pub fn terrain_file(&self, id: &str) -> Option<&Path> {
        self.terrain_files.get(id).map(PathBuf::as_path)
    }

    /// Re-reads the terrain type defined by `path`. A file with errors leaves the loaded version
    /// in place and returns the errors; the id of the type reloaded is returned otherwise.
    pub fn reload_terrain(
        &mut self,
        path: &Path,
    ) -> Result<String, Vec<crate::diagnostics::Diagnostic>> {
        let id = self
            .terrain_files
            .iter()
            .find(|(_, p)| same_file(p, path))
            .map(|(id, _)| id.clone())
            .ok_or_else(|| {
                vec![
                    crate::diagnostics::Diagnostic::error("not a terrain file of a loaded mod")
                        .in_file(path),
                ]
            })?;
        let file = SourceFile::read(path).map_err(|d| vec![d])?;
        let terrain = crate::terrain::parse_terrain(&id, &file)?;
        if let Some(slot) = self.terrains.iter_mut().find(|t| t.id == id) {
            *slot = terrain;
        }
        Ok(id)
    }

    /// The chain a mod declared with the name `<mod>:<name>`.
    pub fn declared_chain(&self, name: &str) -> Option<&ChainDecl> {
        self.chains.iter().find(|c| c.name == name)
    }

    /// How the mod's own effect `name` looks, if a mod's `effects.ron` says.
    pub fn effect_look(&self, name: &str) -> Option<&EffectLook> {
        self.effect_looks.iter().find(|l| l.name == name)
    }

    /// The sound with id `mod:name`.
    pub fn sound(&self, id: &str) -> Option<&Sound> {
        self.sounds.get(id)
    }

    /// The sound `reference` names when mod `user` writes it (a script's `game:sound`):
    /// `name` is the mod's own, `mod:name` one of a mod it depends on.
    pub fn resolve_sound(&self, reference: &str, user: &str) -> Result<&Sound, SoundMiss> {
        let known = sounds::Known {
            sounds: &self.sounds,
            broken: &self.broken_sounds,
            mods: &self.mods,
        };
        known.resolve(reference, user)
    }

    /// The position of a mod in the load order.
    pub fn mod_index(&self, id: &str) -> Option<usize> {
        self.mods.iter().position(|m| m.id == id)
    }

    /// What a sandbox of mod `m` may load: its own scripts, and those of every loaded mod it
    /// depends on, directly or through them (a library's own `require`s need its dependencies;
    /// which mod may require which is checked by `require` against each one's `dependencies`).
    pub fn scripts_for(&self, m: &ModContent) -> rampart_lua::ModScripts {
        let mut mods = BTreeMap::new();
        let mut next = vec![m];
        while let Some(m) = next.pop() {
            if mods.contains_key(&m.id) {
                continue;
            }
            mods.insert(m.id.clone(), m.library());
            next.extend(
                m.dependencies
                    .iter()
                    .filter_map(|d| self.mods.iter().find(|n| &n.id == d)),
            );
        }
        rampart_lua::ModScripts {
            mod_id: m.id.clone(),
            mods,
        }
    }

    /// A script's source, for showing where a script error is.
    pub fn script_file(&self, mod_id: &str, path: &str) -> Option<&SourceFile> {
        let m = self.mods.iter().find(|m| m.id == mod_id)?;
        m.scripts.get(path).map(|s| &s.file)
    }

    /// A hash of every file the content was built from, in load order; two databases with the
    /// same hash were built from the same mods.
    pub fn content_hash(&self) -> u64 {
        self.hash
    }
}

impl ContentDb {
    /// A script error as a diagnostic, with the script's source line under it when known.
    pub fn diagnose(&self, error: &rampart_lua::ScriptError) -> crate::diagnostics::Diagnostic {
        use crate::diagnostics::Diagnostic;
        let d = Diagnostic::error(error.message.clone()).for_mod(error.mod_id.clone());
        let file = error
            .file
            .as_deref()
            .and_then(|f| self.script_file(&error.mod_id, f));
        match (file, error.line) {
            (Some(file), Some(line)) => d.at_line(file, line),
            (Some(file), None) => d.in_file(&file.path),
            (None, _) => match &error.file {
                Some(f) => d.in_file(f),
                None => d,
            },
        }
    }
}
