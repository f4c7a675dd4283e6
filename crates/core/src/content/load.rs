//! Reading a mod's content folders into the database, applying overrides in load order.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::de::DeserializeOwned;
use struct_patch::Patch;
use xxhash_rust::xxh3::Xxh3;

use super::item::Identified;
use super::sounds::Known;
use super::validate;
use super::{AttackerType, Blueprint, ContentDb, ModContent, OverrideRecord, Script, ScriptRef};
use crate::diagnostics::{Diagnostic, Diagnostics, SourceFile, did_you_mean};
use crate::modding::{ModInfo, ModSet};
use crate::ron_file;
use rampart_lua as lua;

/// A kind of content that lives in one RON file per item.
pub(super) trait Kind:
    Identified + DeserializeOwned + Clone + Patch<<Self as Identified>::Patch>
{
    /// The folder of a mod it is read from.
    const FOLDER: &'static str;
}

impl Kind for AttackerType {
    const FOLDER: &'static str = "attackers";
}

impl Kind for Blueprint {
    const FOLDER: &'static str = "blueprints";
}

impl Kind for super::Augment {
    const FOLDER: &'static str = "augments";
}

impl Kind for super::Event {
    const FOLDER: &'static str = "events";
}

impl Kind for super::sounds::SoundDef {
    const FOLDER: &'static str = super::sounds::FOLDER;
}

/// One item while loading: its value and every file that shaped it (the definition first, then
/// each override), for pointing diagnostics at the file that set a field.
#[derive(Clone, Debug)]
pub(super) struct Item<T> {
    pub value: T,
    pub sources: Vec<Source>,
}

/// A file that defined or changed an item, and the mod it belongs to.
#[derive(Clone, Debug)]
pub(super) struct Source {
    pub mod_id: String,
    pub file: SourceFile,
}

impl<T> Item<T> {
    /// The last file that mentions `field` (or the defining file), and the offset of the field.
    pub fn locate(&self, field: &str) -> (&Source, usize) {
        self.sources
            .iter()
            .rev()
            .find_map(|s| ron_file::find_field(&s.file, field).map(|at| (s, at)))
            .unwrap_or((&self.sources[0], 0))
    }

    /// The last file that has the field at `path` (as [`ron_file::find_path`] reads it), and
    /// the offset of its key; failing that, of the nearest field around it that a file has
    /// (or the start of the defining file).
    pub fn locate_path(&self, path: &str) -> (&Source, usize) {
        let mut path = path;
        loop {
            let found = self
                .sources
                .iter()
                .rev()
                .find_map(|s| ron_file::find_path(&s.file, path).map(|at| (s, at)));
            if let Some(found) = found {
                return found;
            }
            match path.rfind(['.', '[']) {
                Some(cut) => path = &path[..cut],
                None => return (&self.sources[0], 0),
            }
        }
    }

    /// The last file that mentions the string `value` after `field`, and its offset.
    pub fn locate_value(&self, field: &str, value: &str) -> (&Source, usize) {
        let quoted_exists = |s: &Source| ron_file::find_string(&s.file, value).is_some();
        match self.sources.iter().rev().find(|s| quoted_exists(s)) {
            Some(s) => (s, ron_file::locate(&s.file, field, Some(value))),
            None => self.locate(field),
        }
    }
}

/// Items of one kind, by id, in the order they were defined.
pub(super) struct Items<T> {
    pub items: Vec<Item<T>>,
    index: BTreeMap<String, usize>,
    /// The ids of items whose files could not be read as one, reported there: a reference
    /// to one of them points at those errors rather than saying it does not exist.
    pub broken: BTreeSet<String>,
}

impl<T> Default for Items<T> {
    fn default() -> Self {
        Items {
            items: Vec::new(),
            index: BTreeMap::new(),
            broken: BTreeSet::new(),
        }
    }
}

impl<T> Items<T> {
    pub fn get(&self, id: &str) -> Option<&Item<T>> {
        self.index.get(id).map(|&i| &self.items[i])
    }

    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.index.keys().map(String::as_str)
    }
}

/// What loading collects over every mod's files: the problems found and the content hash.
pub(super) struct Loading {
    /// Every problem found so far.
    pub diagnostics: Diagnostics,
    hasher: Xxh3,
}

impl Loading {
    /// Reads one file of mod `info` (`rel`, its path inside the mod, `/`-separated) and adds it
    /// to the content hash; a file that cannot be read is reported and gives `None`.
    pub fn read(&mut self, info: &ModInfo, rel: &str, path: &Path) -> Option<SourceFile> {
        match SourceFile::read(path) {
            Ok(file) => {
                self.hasher.update(rel.as_bytes());
                self.hasher.update(file.text.as_bytes());
                Some(file)
            }
            Err(d) => {
                self.diagnostics.push(d.for_mod(info.id()));
                None
            }
        }
    }

    /// Reads and parses the optional file `name` at the root of mod `info` (`chains.ron`,
    /// `effects.ron`): `None` when there is none, or when it cannot be read or parsed — its
    /// every mistake is then reported.
    pub fn root_file<T: DeserializeOwned>(
        &mut self,
        info: &ModInfo,
        name: &str,
    ) -> Option<(T, Source)> {
        let path = info.root.join(name);
        if !path.is_file() {
            return None;
        }
        let file = self.read(info, name, &path)?;
        match ron_file::parse_all::<T>(&file) {
            Ok(parsed) => Some((
                parsed,
                Source {
                    mod_id: info.id().to_string(),
                    file,
                },
            )),
            Err(found) => {
                let found = found.into_iter().map(|d| d.for_mod(info.id()));
                self.diagnostics.extend(found);
                None
            }
        }
    }

    /// Reads every file below the mod's folder `dir` with extension `ext`, sorted by their path
    /// inside the mod, which comes with each.
    fn read_all(&mut self, info: &ModInfo, dir: &str, ext: &str) -> Vec<(String, SourceFile)> {
        files_below(&info.root, dir, ext)
            .into_iter()
            .filter_map(|(rel, path)| Some((rel.clone(), self.read(info, &rel, &path)?)))
            .collect()
    }
}

pub(super) fn load(mods: &ModSet) -> (ContentDb, Diagnostics) {
    let mut loading = Loading {
        diagnostics: Diagnostics::new(),
        hasher: Xxh3::new(),
    };
    let mut db = ContentDb::default();
    let mut attackers = Items::<AttackerType>::default();
    let mut blueprints = Items::<Blueprint>::default();
    let mut events = Items::<super::Event>::default();
    let mut augments = Items::<super::Augment>::default();
    let mut levels = None;
    let mut tutorial = None;
    // Sounds first, every mod's: everything else may name them, and they name nothing.
    let mut sounds = Items::<super::sounds::SoundDef>::default();
    for info in &mods.mods {
        load_kind(info, &mut sounds, &mut db.overrides, &mut loading);
    }
    let root_of = |id: &str| {
        let info = mods.mods.iter().find(|m| m.id() == id)?;
        Some(info.root.clone())
    };
    db.broken_sounds = sounds.broken;
    for item in sounds.items {
        let id = item.value.id.clone();
        match super::sounds::check(item, &root_of, &mut loading.diagnostics) {
            Some(sound) => {
                db.sounds.insert(id, sound);
            }
            None => {
                db.broken_sounds.insert(id);
            }
        }
    }
    for info in &mods.mods {
        loading.hasher.update(info.id().as_bytes());
        loading
            .hasher
            .update(info.manifest.version.to_string().as_bytes());
        let scripts = load_scripts(info, &mut loading);
        db.mods.push(ModContent {
            id: info.id().to_string(),
            name: info.manifest.name.clone(),
            version: info.manifest.version.clone(),
            root: info.root.clone(),
            scripts,
            dependencies: info
                .manifest
                .dependencies
                .iter()
                .map(|d| d.id.clone())
                .collect(),
        });
        load_kind(info, &mut attackers, &mut db.overrides, &mut loading);
        load_kind(info, &mut blueprints, &mut db.overrides, &mut loading);
        load_kind(info, &mut events, &mut db.overrides, &mut loading);
        load_kind(info, &mut augments, &mut db.overrides, &mut loading);
        load_terrains(info, &mut db, &mut loading);
        super::palette::load(info, &mut db.palette, &mut loading);
        load_single(info, &mut levels, &mut loading);
        load_single(info, &mut tutorial, &mut loading);
        super::chains::load(info, &mut db.chains, &mut loading);
        let known = Known {
            sounds: &db.sounds,
            broken: &db.broken_sounds,
            mods: &db.mods,
        };
        let effect_sounds = &mut db.soundscape.effects;
        super::effects::load(
            info,
            &mut db.effect_looks,
            effect_sounds,
            known,
            &mut loading,
        );
        super::soundscape::load(info, &mut db.soundscape, known, &mut loading);
    }
    let known = Known {
        sounds: &db.sounds,
        broken: &db.broken_sounds,
        mods: &db.mods,
    };
    let Loading {
        mut diagnostics,
        hasher,
    } = loading;

    let script_exists = |r: &ScriptRef| {
        mods.mods
            .iter()
            .find(|m| m.id() == r.mod_id)
            .is_some_and(|m| m.root.join(&r.path).is_file())
    };
    let looks = super::model::Looks {
        palette: &db.palette,
        root_of: &root_of,
    };
    let attacker_ids: Vec<String> = attackers.ids().map(str::to_string).collect();
    for item in attackers.items {
        let checked = validate::attacker(
            item,
            &attacker_ids,
            &script_exists,
            known,
            &looks,
            &mut diagnostics,
        );
        if let Some(value) = checked {
            db.attacker_index.insert(
                value.id.clone(),
                super::AttackerId(db.attackers.len() as u32),
            );
            db.attackers.push(value);
        }
    }
    for item in blueprints.items {
        let checked = validate::blueprint(item, &script_exists, known, &looks, &mut diagnostics);
        if let Some(value) = checked {
            db.blueprint_index.insert(
                value.id.clone(),
                super::BlueprintId(db.blueprints.len() as u32),
            );
            db.blueprints.push(value);
        }
    }
    let blueprint_of = |id: &str| {
        db.blueprint_id(id).map(|b| {
            let bp = db.blueprint(b);
            (bp.rarity, bp.placed_by_game())
        })
    };
    let blueprint_ids: Vec<&str> = db.blueprints.iter().map(|b| b.id.as_str()).collect();
    let checked: Vec<_> = events
        .items
        .into_iter()
        .filter_map(|item| {
            validate::event(
                item,
                &blueprint_of,
                &blueprint_ids,
                &script_exists,
                &mut diagnostics,
            )
        })
        .collect();
    db.events = checked;
    db.augments = augments
        .items
        .into_iter()
        .filter_map(|item| validate::augment(item, &script_exists, &mut diagnostics))
        .collect();
    db.levels = levels.and_then(|item| super::levels::finish(item, &db, &mut diagnostics));
    db.tutorial = tutorial.and_then(|item| super::tutorial::finish(item, &db, &mut diagnostics));
    db.hash = hasher.digest();
    (db, diagnostics)
}

/// The files below `dir` with extension `ext`, sorted, with their paths relative to `root` using
/// `/` separators.
fn files_below(root: &Path, dir: &str, ext: &str) -> Vec<(String, PathBuf)> {
    let base = root.join(dir);
    if !base.is_dir() {
        return Vec::new();
    }
    let mut files: Vec<(String, PathBuf)> = walkdir::WalkDir::new(&base)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == ext))
        .filter_map(|e| {
            let rel = e.path().strip_prefix(root).ok()?;
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            Some((rel, e.path().to_path_buf()))
        })
        .collect();
    files.sort();
    files
}

fn load_terrains(info: &ModInfo, db: &mut ContentDb, loading: &mut Loading) {
    for (_, file) in loading.read_all(info, "terrain", "terrain") {
        let diagnostics = &mut loading.diagnostics;
        let path = file.path.clone();
        let id = match id_of_file(info.id(), &path, "a terrain type name") {
            Ok(id) => id,
            Err(d) => {
                diagnostics.push(d);
                continue;
            }
        };
        if let Some(first) = db.terrain_files.get(&id) {
            diagnostics.push(
                Diagnostic::error(format!(
                    "terrain type `{id}` is defined twice: here and in {}",
                    first.display()
                ))
                .in_file(&path)
                .for_mod(info.id()),
            );
            continue;
        }
        match crate::terrain::parse_terrain(&id, &file) {
            Ok(terrain) => {
                db.terrain_files.insert(id, path);
                db.terrains.push(terrain);
            }
            Err(errors) => {
                diagnostics.extend(errors.into_iter().map(|d| d.for_mod(info.id())));
                db.broken_terrains.insert(id);
            }
        }
    }
}

fn load_scripts(info: &ModInfo, loading: &mut Loading) -> BTreeMap<String, Script> {
    let mut scripts = BTreeMap::new();
    for (rel, file) in loading.read_all(info, "scripts", "lua") {
        match lua::compile(&file.text) {
            Ok(bytecode) => {
                scripts.insert(
                    rel,
                    Script {
                        file,
                        bytecode: Arc::from(bytecode),
                    },
                );
            }
            Err((line, message)) => {
                let d = Diagnostic::error(format!("syntax error: {message}")).for_mod(info.id());
                loading.diagnostics.push(match line {
                    Some(line) => d.at_line(&file, line),
                    None => d.in_file(&file.path),
                });
            }
        }
    }
    scripts
}

/// Whether `path`, a file a mod names (an icon, a sound), stays inside the mod's folder: relative,
/// without `..`.
pub(super) fn inside_mod(path: &str) -> bool {
    Path::new(path)
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)))
}

/// Checks a content name (the file stem) can be part of an id.
pub(super) fn valid_name(name: &str) -> bool {
    crate::modding::manifest::is_valid_mod_id(name)
}

/// The id a file's name gives what it defines in mod `mod_id` (`mod:stem`), or the error that
/// its name cannot be part of an id (`what` says what the name would have been).
fn id_of_file(mod_id: &str, path: &Path, what: &str) -> Result<String, Diagnostic> {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !valid_name(&stem) {
        return Err(
            Diagnostic::error(format!("`{stem}` cannot be used as {what}"))
                .in_file(path)
                .help("file names become ids: use lowercase letters, digits, `_` and `-`")
                .for_mod(mod_id),
        );
    }
    Ok(format!("{mod_id}:{stem}"))
}

#[derive(serde::Deserialize)]
struct Peek {
    overrides: Option<String>,
}

fn load_kind<T: Kind>(
    info: &ModInfo,
    items: &mut Items<T>,
    overrides: &mut Vec<OverrideRecord>,
    loading: &mut Loading,
) {
    let mod_id = info.id();
    for (_, file) in loading.read_all(info, T::FOLDER, "ron") {
        let diagnostics = &mut loading.diagnostics;
        let path = file.path.clone();
        let source = Source {
            mod_id: mod_id.to_string(),
            file: file.clone(),
        };
        let target = ron_file::options()
            .from_str::<Peek>(&file.text)
            .ok()
            .and_then(|p| p.overrides);
        if let Some(target) = target {
            apply_override(info, source, &target, items, overrides, diagnostics);
            continue;
        }
        let id = match id_of_file(mod_id, &path, "a content name") {
            Ok(id) => id,
            Err(d) => {
                diagnostics.push(d);
                continue;
            }
        };
        if let Some(first) = items.get(&id) {
            diagnostics.push(
                Diagnostic::error(format!(
                    "{} `{id}` is defined twice: here and in {}",
                    T::NOUN,
                    first.sources[0].file.path.display()
                ))
                .in_file(&path)
                .help("ids come from file names; rename one of the files")
                .for_mod(mod_id),
            );
            continue;
        }
        match ron_file::parse_all::<T>(&file) {
            Ok(mut value) => {
                value.set_id(id.clone());
                items.index.insert(id, items.items.len());
                items.items.push(Item {
                    value,
                    sources: vec![source],
                });
            }
            Err(found) => {
                diagnostics.extend(found.into_iter().map(|d| d.for_mod(mod_id)));
                items.broken.insert(id);
            }
        }
    }
}

fn apply_override<T: Kind>(
    info: &ModInfo,
    source: Source,
    target: &str,
    items: &mut Items<T>,
    overrides: &mut Vec<OverrideRecord>,
    diagnostics: &mut Diagnostics,
) {
    let file = &source.file;
    let at = ron_file::locate(file, "overrides", Some(target));
    let Some(&index) = items.index.get(target) else {
        let mut d = Diagnostic::error(format!("there is no {} `{target}` to override", T::NOUN))
            .at(file, at, target.len() + 2)
            .label("unknown id")
            .for_mod(info.id());
        if let Some(hint) = did_you_mean(target, items.ids()) {
            d = d.help(hint);
        } else if !target.contains(':') {
            d = d.help("write the full id, `mod:name`");
        }
        diagnostics.push(d);
        return;
    };
    let patch = match ron_file::parse_all::<T::Patch>(file) {
        Ok(p) => p,
        Err(found) => {
            diagnostics.extend(found.into_iter().map(|d| d.for_mod(info.id())));
            return;
        }
    };
    let target_mod = target.split(':').next().unwrap_or_default();
    let declared = info
        .manifest
        .dependencies
        .iter()
        .any(|d| d.id == target_mod);
    if target_mod != info.id() && !declared {
        diagnostics.push(
            Diagnostic::warning(format!("this overrides content of `{target_mod}`, which is not among the mod's dependencies"))
                .at(file, at, target.len() + 2)
                .help(format!("add (id: \"{target_mod}\") to `dependencies` in mod.ron so it always loads first"))
                .for_mod(info.id()),
        );
    }
    let item = &mut items.items[index];
    item.value.apply(patch);
    item.value.clear_overrides();
    overrides.push(OverrideRecord {
        target: target.to_string(),
        by_mod: info.id().to_string(),
        file: file.path.clone(),
    });
    item.sources.push(source);
}

/// Content that one mod defines for the whole game, in one file at its root (the level setter's
/// `levels.ron`, the tutorial's `tutorial.ron`). A later mod changes it only explicitly: its
/// file says `overrides: "<mod>:<name>"` and gives the fields to change, which replace the
/// earlier values whole.
pub(super) trait Single:
    Identified + DeserializeOwned + Patch<<Self as Identified>::Patch>
{
    /// The file it is read from, which also names it: `levels.ron` is `<mod>:levels`.
    const FILE: &'static str;
}

/// Reads the [`Single`] file of one mod, if it has one: the first mod's defines it, later ones
/// must say that they override it.
pub(super) fn load_single<T: Single>(
    info: &ModInfo,
    slot: &mut Option<Item<T>>,
    loading: &mut Loading,
) {
    let path = info.root.join(T::FILE);
    if !path.is_file() {
        return;
    }
    let Some(file) = loading.read(info, T::FILE, &path) else {
        return;
    };
    let diagnostics = &mut loading.diagnostics;
    let source = Source {
        mod_id: info.id().to_string(),
        file: file.clone(),
    };
    let patch = match ron_file::parse_all::<T::Patch>(&file) {
        Ok(p) => p,
        Err(found) => {
            diagnostics.extend(found.into_iter().map(|d| d.for_mod(info.id())));
            return;
        }
    };
    let name = T::FILE.trim_end_matches(".ron");
    match (slot.as_mut(), T::overrides_of(&patch)) {
        (None, None) => match ron_file::parse_all::<T>(&file) {
            Ok(mut value) => {
                value.set_id(format!("{}:{name}", info.id()));
                *slot = Some(Item {
                    value,
                    sources: vec![source],
                });
            }
            Err(found) => diagnostics.extend(found.into_iter().map(|d| d.for_mod(info.id()))),
        },
        (Some(item), Some(target)) if target == item.value.id() => {
            item.value.apply(patch);
            item.value.clear_overrides();
            item.sources.push(source);
        }
        (Some(item), None) => diagnostics.push(
            Diagnostic::error(format!(
                "the {} is already defined by `{}`",
                T::NOUN,
                item.value.id()
            ))
            .at(&file, 0, 1)
            .help(format!(
                "to change it, write `overrides: \"{}\",` and the fields to change",
                item.value.id()
            ))
            .for_mod(info.id()),
        ),
        (existing, Some(target)) => {
            let at = ron_file::locate(&file, "overrides", Some(target));
            let d = Diagnostic::error(format!("there is no {} `{target}` to override", T::NOUN))
                .at(&file, at, target.len() + 2)
                .help(match existing {
                    Some(item) => format!("the loaded {} is `{}`", T::NOUN, item.value.id()),
                    None => format!("no mod loaded before this one has a {}", T::FILE),
                });
            diagnostics.push(d.for_mod(info.id()));
        }
    }
}
