//! The mod list a player sees: every folder found in the mods folders, as a mod with its name,
//! version, origin and state, and the problems found in its files.

use std::path::PathBuf;

use semver::Version;

use crate::diagnostics::Diagnostic;

use super::{ModSet, ModState, Origin};

/// One mod (or folder that should have been one) of the list.
#[derive(Clone, Debug)]
pub struct ModEntry {
    /// The mod's id; the folder's name when its `mod.ron` could not be read.
    pub id: String,
    /// The name shown to players; the folder's name when its `mod.ron` could not be read.
    pub name: String,
    /// The mod's version, when its `mod.ron` could be read.
    pub version: Option<Version>,
    /// What the mod adds, from its `mod.ron`.
    pub description: String,
    /// Which mods folder it was found in.
    pub origin: Origin,
    /// Its folder.
    pub root: PathBuf,
    /// Its place in the load order, from 1, when it loads.
    pub position: Option<usize>,
    /// Whether it loads, and if not, why.
    pub state: ModState,
    /// The problems found in its files (its manifest, its content, its scripts' syntax), errors
    /// and warnings, in the order they were found.
    pub diagnostics: Vec<Diagnostic>,
}

impl ModEntry {
    /// Whether the player has the mod on (it may still fail to load) or off; `None` for a
    /// folder that is not a mod, which has nothing to switch.
    pub fn switched_on(&self) -> Option<bool> {
        match self.state {
            ModState::Loaded | ModState::Failed(_) => Some(true),
            ModState::DisabledByPlayer | ModState::DisabledByDefault => Some(false),
            ModState::Rejected => None,
        }
    }

    /// How many of its diagnostics are errors.
    pub fn error_count(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

/// Every mod found, and the problems that belong to none of them.
#[derive(Clone, Debug, Default)]
pub struct ModList {
    /// The mods that load in load order, then those that do not by id, then the folders that
    /// are not mods in the order found.
    pub entries: Vec<ModEntry>,
    /// Problems of no one mod: the player's settings file, a `--mods-dir` that is not a folder,
    /// a mods folder that cannot be read.
    pub general: Vec<Diagnostic>,
}

impl ModList {
    /// The entry of mod `id`: the one that loads or was switched, not a rejected copy.
    pub fn get(&self, id: &str) -> Option<&ModEntry> {
        self.entries
            .iter()
            .find(|e| e.id == id && e.state != ModState::Rejected)
    }

    /// Every diagnostic of the list: each entry's, then the general ones.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.entries
            .iter()
            .flat_map(|e| &e.diagnostics)
            .chain(&self.general)
    }
}

impl ModList {
    /// Gives `d` to the entry it belongs to, or to the general problems.
    fn take(&mut self, d: &Diagnostic) {
        match owner(&self.entries, d) {
            Some(i) => self.entries[i].diagnostics.push(d.clone()),
            None => self.general.push(d.clone()),
        }
    }
}

impl ModSet {
    /// The mod list: every mod and rejected folder found, with the diagnostics of finding them
    /// and the `content` diagnostics (those `ContentDb::load` gave for this set) each given to
    /// the mod whose folder holds its file, else to the mod it names.
    pub fn list<'a>(&self, content: impl IntoIterator<Item = &'a Diagnostic>) -> ModList {
        let mut entries: Vec<ModEntry> = Vec::new();
        for (i, info) in self.mods.iter().enumerate() {
            entries.push(entry_of(info, Some(i + 1), ModState::Loaded));
        }
        for (info, state) in &self.others {
            entries.push(entry_of(info, None, state.clone()));
        }
        for rejected in &self.rejected {
            let folder = rejected.root.file_name().map_or_else(
                || rejected.root.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            entries.push(ModEntry {
                id: rejected.id.clone().unwrap_or_else(|| folder.clone()),
                name: folder,
                version: None,
                description: String::new(),
                origin: rejected.origin,
                root: rejected.root.clone(),
                position: None,
                state: ModState::Rejected,
                diagnostics: Vec::new(),
            });
        }
        let mut list = ModList {
            entries,
            general: Vec::new(),
        };
        for d in self.diagnostics.iter() {
            list.take(d);
        }
        for d in content {
            list.take(d);
        }
        list
    }
}

fn entry_of(info: &super::ModInfo, position: Option<usize>, state: ModState) -> ModEntry {
    ModEntry {
        id: info.manifest.id.clone(),
        name: info.manifest.name.clone(),
        version: Some(info.manifest.version.clone()),
        description: info.manifest.description.clone(),
        origin: info.origin,
        root: info.root.clone(),
        position,
        state,
        diagnostics: Vec::new(),
    }
}

/// The entry a diagnostic belongs to: the one whose folder holds its file (the deepest, should
/// folders nest), else the first that is the mod it names.
fn owner(entries: &[ModEntry], d: &Diagnostic) -> Option<usize> {
    let by_folder = d.file.as_deref().and_then(|file| {
        entries
            .iter()
            .enumerate()
            .filter(|(_, e)| file.starts_with(&e.root))
            .max_by_key(|(_, e)| e.root.components().count())
            .map(|(i, _)| i)
    });
    by_folder.or_else(|| {
        let id = d.mod_id.as_deref()?;
        entries
            .iter()
            .position(|e| e.id == id && e.state != ModState::Rejected)
    })
}
