//! Mod folders: finding them, reading their manifests, deciding which load and in which order,
//! and watching their files.
//!
//! Mods are found in the game's own mods folder (next to the executable: see [`game`]), in the
//! user data directory's `mods/`, and in every extra folder given with `--mods-dir`. A mod is a folder with a `mod.ron`; installing one is copying its
//! folder into one of those places. See `docs/modding/mods.md`.

pub mod game;
pub mod list;
pub mod manifest;
pub mod order;
pub mod settings;
pub mod watch;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::diagnostics::{Diagnostic, Diagnostics, SourceFile};
use crate::ron_file;

pub use list::{ModEntry, ModList};
pub use manifest::{Dependency, Manifest};
pub use settings::{ModSettings, UserDirs};

/// Where a mods folder comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Origin {
    /// The game's own mods folder, shipped with it (see [`game::locate`]).
    Game,
    /// The user data directory's `mods/`.
    User,
    /// A folder given with `--mods-dir`.
    Extra,
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Game => "game",
            Origin::User => "user",
            Origin::Extra => "--mods-dir",
        })
    }
}

/// A folder that holds mod folders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModDir {
    /// The folder.
    pub path: PathBuf,
    /// How it was found.
    pub origin: Origin,
}

/// The folders searched for mods, in precedence order: the game's own (see [`game::locate`]),
/// the user's mods folder, then each `extra` folder. Missing default folders are skipped; extra
/// folders are kept so that a typo in `--mods-dir` is reported.
pub fn mod_dirs(extra: &[PathBuf], user: Option<&UserDirs>) -> Vec<ModDir> {
    let mut dirs = Vec::new();
    if let Some(path) = game::locate() {
        dirs.push(ModDir {
            path,
            origin: Origin::Game,
        });
    }
    if let Some(user) = user {
        let path = user.mods_dir();
        if path.is_dir() {
            dirs.push(ModDir {
                path,
                origin: Origin::User,
            });
        }
    }
    for path in extra {
        let duplicate = dirs.iter().any(|d| same_dir(&d.path, path));
        if !duplicate {
            dirs.push(ModDir {
                path: path.clone(),
                origin: Origin::Extra,
            });
        }
    }
    dirs
}

fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// One mod found on disk.
#[derive(Clone, Debug)]
pub struct ModInfo {
    /// Its manifest.
    pub manifest: Manifest,
    /// Its folder.
    pub root: PathBuf,
    /// Which mods folder it was found in.
    pub origin: Origin,
    /// The manifest's text, for diagnostics.
    pub manifest_file: SourceFile,
}

impl ModInfo {
    /// The mod's id.
    pub fn id(&self) -> &str {
        &self.manifest.id
    }
}

/// Whether a mod found on disk is loaded, and if not, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModState {
    /// Loaded, in load order.
    Loaded,
    /// Switched off by the player (`rampart mods --disable`, or the game's Mods screen).
    DisabledByPlayer,
    /// Off by its manifest's `enabled: false`, and the player has not switched it on.
    DisabledByDefault,
    /// Enabled, but it cannot load: the game's version, or a dependency.
    Failed(order::Failure),
    /// A folder in a mods folder that is not a mod that can load: it has no `mod.ron`, its
    /// `mod.ron` has errors, or another mod found first has its id. Only the mod list
    /// ([`ModSet::list`]) has such entries.
    Rejected,
}

impl ModState {
    /// The state in a word or two, as the mod lists show it.
    pub fn label(&self) -> &'static str {
        match self {
            ModState::Loaded => "loaded",
            ModState::DisabledByPlayer => "disabled",
            ModState::DisabledByDefault => "off by default",
            ModState::Failed(_) => "failed",
            ModState::Rejected => "not a mod",
        }
    }
}

/// A folder found in a mods folder that cannot be a mod (see [`ModState::Rejected`]); the
/// diagnostics say why.
#[derive(Clone, Debug)]
pub struct Rejected {
    /// The folder.
    pub root: PathBuf,
    /// Which mods folder it was found in.
    pub origin: Origin,
    /// The id its `mod.ron` gives, when it could be read (a second copy of a mod).
    pub id: Option<String>,
}

/// All mods found, which of them load, and in which order.
#[derive(Clone, Debug, Default)]
pub struct ModSet {
    /// The mods that load, in load order.
    pub mods: Vec<ModInfo>,
    /// Mods found that do not load (disabled or failed), by id.
    pub others: Vec<(ModInfo, ModState)>,
    /// Folders found that are not mods that can load, in the order found.
    pub rejected: Vec<Rejected>,
    /// What went wrong while finding and ordering mods.
    pub diagnostics: Diagnostics,
}

impl ModSet {
    /// Finds the mods in `dirs` and resolves their load order with the player's `settings`.
    pub fn discover(dirs: &[ModDir], settings: &ModSettings) -> ModSet {
        let (found, rejected, diagnostics) = ModSet::find(dirs);
        let enabled: Vec<bool> = found
            .iter()
            .map(|m| settings.is_enabled(&m.manifest))
            .collect();
        let by_player = |id: &str| settings.choice(id) == Some(false);
        ModSet::resolve(found, rejected, enabled, &by_player, diagnostics)
    }

    /// The mod in the folder `root` and the mods it depends on, found in `dirs` (and the mods
    /// those depend on), all of them on whatever the player's settings say: what a mod's own
    /// tests run with. A mod of the same id found in `dirs` gives way to the one in `root`;
    /// only what is wrong with the mods taken is reported. Returns the mod's id with the set.
    pub fn of_mod(root: &Path, dirs: &[ModDir]) -> Result<(String, ModSet), Diagnostic> {
        let (manifest, manifest_file) = Manifest::load(root)?;
        let id = manifest.id.clone();
        let (found, _, diagnostics) = ModSet::find(dirs);
        let mut others: Vec<ModInfo> = found
            .into_iter()
            .filter(|m| m.manifest.id != manifest.id)
            .collect();
        let mut taken = vec![ModInfo {
            manifest,
            root: root.to_path_buf(),
            origin: Origin::Extra,
            manifest_file,
        }];
        let mut next = 0;
        while next < taken.len() {
            let needs: Vec<String> = taken[next]
                .manifest
                .dependencies
                .iter()
                .map(|d| d.id.clone())
                .collect();
            for id in needs {
                if let Some(i) = others.iter().position(|m| m.manifest.id == id) {
                    taken.push(others.remove(i));
                }
            }
            next += 1;
        }
        let mut kept = Diagnostics::new();
        kept.extend(
            diagnostics
                .iter()
                .filter(|d| {
                    d.file
                        .as_ref()
                        .is_some_and(|f| taken.iter().any(|m| f.starts_with(&m.root)))
                })
                .cloned(),
        );
        let enabled = vec![true; taken.len()];
        Ok((
            id,
            ModSet::resolve(taken, Vec::new(), enabled, &|_| false, kept),
        ))
    }

    /// Every mod folder in `dirs` with a manifest that reads, the first of each id, and the
    /// folders that are not mods that load.
    fn find(dirs: &[ModDir]) -> (Vec<ModInfo>, Vec<Rejected>, Diagnostics) {
        let mut diagnostics = Diagnostics::new();
        let mut found: Vec<ModInfo> = Vec::new();
        let mut rejected: Vec<Rejected> = Vec::new();
        for dir in dirs {
            let entries = match std::fs::read_dir(&dir.path) {
                Ok(entries) => entries,
                Err(e) => {
                    diagnostics.push(
                        Diagnostic::error(format!(
                            "cannot read mods folder {}: {e}",
                            dir.path.display()
                        ))
                        .in_file(&dir.path),
                    );
                    continue;
                }
            };
            let mut folders: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.is_dir()
                        && !p
                            .file_name()
                            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
                })
                .collect();
            folders.sort();
            for root in folders {
                let reject = |id: Option<String>| Rejected {
                    root: root.clone(),
                    origin: dir.origin,
                    id,
                };
                if !root.join(manifest::MANIFEST_FILE).is_file() {
                    diagnostics.push(
                        Diagnostic::warning(format!(
                            "{} has no {} and is not loaded as a mod",
                            root.display(),
                            manifest::MANIFEST_FILE
                        ))
                        .in_file(&root),
                    );
                    rejected.push(reject(None));
                    continue;
                }
                match Manifest::load(&root) {
                    Ok((manifest, manifest_file)) => {
                        if let Some(first) = found.iter().find(|m| m.manifest.id == manifest.id) {
                            diagnostics.push(
                                Diagnostic::error(format!(
                                    "mod id `{}` is used twice: by {} and by {}; only the first loads",
                                    manifest.id,
                                    first.root.display(),
                                    root.display()
                                ))
                                .at(&manifest_file, ron_file::find_string(&manifest_file, &manifest.id).unwrap_or(0), manifest.id.len() + 2)
                                .help("remove one of the copies, or give one a different id")
                                .for_mod(manifest.id.clone()),
                            );
                            rejected.push(reject(Some(manifest.id)));
                            continue;
                        }
                        found.push(ModInfo {
                            manifest,
                            root,
                            origin: dir.origin,
                            manifest_file,
                        });
                    }
                    Err(d) => {
                        diagnostics.push(d);
                        rejected.push(reject(None));
                    }
                }
            }
        }

        (found, rejected, diagnostics)
    }

    /// The load order of the `found` mods, each on or off as `enabled` says; `by_player` tells
    /// which of the mods left off the player switched off.
    fn resolve(
        found: Vec<ModInfo>,
        rejected: Vec<Rejected>,
        enabled: Vec<bool>,
        by_player: &dyn Fn(&str) -> bool,
        mut diagnostics: Diagnostics,
    ) -> ModSet {
        let pairs: Vec<(&Manifest, bool)> = found
            .iter()
            .map(|m| &m.manifest)
            .zip(enabled.iter().copied())
            .collect();
        let resolution = order::resolve(&pairs, &manifest::game_version());
        for (i, failure) in &resolution.failed {
            let info = &found[*i];
            let file = &info.manifest_file;
            // At the requirement the failure is about: the `game` value or the dependency.
            let (at, len) = match failure {
                order::Failure::Game { .. } => ron_file::find_field_string(file, "game"),
                _ => failure
                    .dependency()
                    .and_then(|d| ron_file::find_string(file, d).map(|at| (at, d.len() + 2))),
            }
            .or_else(|| ron_file::find_field(file, "dependencies").map(|at| (at, 1)))
            .unwrap_or((0, 1));
            diagnostics.push(
                Diagnostic::error(failure.describe(info.id()))
                    .at(file, at, len)
                    .for_mod(info.id()),
            );
        }

        let mut set = ModSet {
            mods: resolution.order.iter().map(|&i| found[i].clone()).collect(),
            others: Vec::new(),
            rejected,
            diagnostics,
        };
        for (i, info) in found.into_iter().enumerate() {
            if resolution.order.contains(&i) {
                continue;
            }
            let failure = resolution.failed.iter().find(|(j, _)| *j == i);
            let state = match failure {
                Some((_, failure)) => ModState::Failed(failure.clone()),
                None if by_player(info.id()) => ModState::DisabledByPlayer,
                None => ModState::DisabledByDefault,
            };
            set.others.push((info, state));
        }
        set.others.sort_by(|a, b| a.0.id().cmp(b.0.id()));
        set
    }

    /// The position of a loaded mod in the load order.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.mods.iter().position(|m| m.id() == id)
    }

    /// Whether a mod with id `id` was found (loaded or not).
    pub fn has(&self, id: &str) -> bool {
        self.mods
            .iter()
            .chain(self.others.iter().map(|(m, _)| m))
            .any(|m| m.id() == id)
    }
}

/// The id of the base game's mod, which the player is warned about switching off.
pub const BASE_GAME: &str = "core";

/// The player's folders and mod choices, and the mods found with them.
#[derive(Clone, Debug)]
pub struct Found {
    /// The player's folders, if this system has them.
    pub user: Option<UserDirs>,
    /// The player's choices (defaults when the settings file is missing or broken).
    pub settings: ModSettings,
    /// The mods found; their diagnostics include a broken settings file and a missing
    /// `--mods-dir`.
    pub mods: ModSet,
}

/// Finds the mods in the game's own folder, the player's mods folder and the `extra` folders,
/// with the player's choices; a missing base game (a warning), a broken settings file or an extra
/// folder that is not one is reported as a diagnostic.
pub fn find_mods(extra: &[PathBuf]) -> Found {
    let user = UserDirs::detect();
    let mut problems = Vec::new();
    let settings = match user.as_ref().map(|u| ModSettings::load(&u.settings_file())) {
        Some(Ok(s)) => s,
        Some(Err(d)) => {
            problems.push(d);
            ModSettings::default()
        }
        None => ModSettings::default(),
    };
    if game::locate().is_none() {
        // A warning: mods that bring everything they need still play (a mod's own tests, a
        // record with its mods). `rampart check` makes it an error.
        problems.push(Diagnostic::warning(game::not_found_message()));
    }
    for dir in extra.iter().filter(|d| !d.is_dir()) {
        problems.push(Diagnostic::error(format!(
            "--mods-dir {} is not a folder",
            dir.display()
        )));
    }
    let dirs = mod_dirs(extra, user.as_ref());
    let mut mods = ModSet::discover(&dirs, &settings);
    let found = std::mem::take(&mut mods.diagnostics);
    mods.diagnostics.extend(problems);
    mods.diagnostics.extend(found);
    Found {
        user,
        settings,
        mods,
    }
}

/// What switching mods on and off did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Switched {
    /// The settings file written.
    pub file: PathBuf,
    /// What the player should know about the choice: switching the base game off.
    pub warnings: Vec<String>,
}

impl Found {
    /// Switches the mods `enable` on and `disable` off in the player's settings and writes
    /// them; the mods' folders are left as they are. Every id must be of a mod found. The
    /// mods found are not looked for again: [`find_mods`] shows the effect.
    pub fn switch(&mut self, enable: &[String], disable: &[String]) -> Result<Switched, String> {
        if let Some(id) = enable.iter().chain(disable).find(|id| !self.mods.has(id)) {
            return Err(format!("there is no mod `{id}` in the mods folders"));
        }
        let Some(user) = self.user.as_ref() else {
            return Err("no user settings folder on this system; set RAMPART_HOME".into());
        };
        let mut settings = self.settings.clone();
        for id in enable {
            settings.set_enabled(id, true);
        }
        for id in disable {
            settings.set_enabled(id, false);
        }
        let file = user.settings_file();
        settings
            .save(&file)
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        self.settings = settings;
        let mut warnings = Vec::new();
        if disable.iter().any(|id| id == BASE_GAME) {
            warnings.push(format!(
                "`{BASE_GAME}` is the base game: with it off, only what other mods bring is \
                 there to play (no Hub, towers or attackers of the base game, no levels)"
            ));
        }
        Ok(Switched { file, warnings })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// A diagnostic as text with `/` between folders, as on Unix systems, so that the same
    /// expectations hold on Windows.
    fn slashed(d: &Diagnostic) -> String {
        d.to_string().replace('\\', "/")
    }

    fn write_mod(dir: &Path, folder: &str, manifest: &str) {
        fs::create_dir_all(dir.join(folder)).unwrap();
        fs::write(dir.join(folder).join("mod.ron"), manifest).unwrap();
    }

    #[test]
    fn discovers_orders_and_reports() {
        let tmp = tempfile::tempdir().unwrap();
        let a = tmp.path().join("a");
        let b = tmp.path().join("b");
        write_mod(
            &a,
            "core",
            r#"(id: "core", name: "Core", version: "0.1.0")"#,
        );
        write_mod(
            &a,
            "frost",
            r#"(id: "frost", name: "Frost", version: "0.1.0", dependencies: [(id: "core", version: ">=0.1")])"#,
        );
        write_mod(
            &a,
            "off",
            r#"(id: "off", name: "Off", version: "0.1.0", enabled: false)"#,
        );
        write_mod(
            &b,
            "core-copy",
            r#"(id: "core", name: "Core again", version: "0.2.0")"#,
        );
        write_mod(
            &b,
            "needy",
            r#"(id: "needy", name: "Needy", version: "1.0.0", dependencies: [(id: "off")])"#,
        );
        fs::create_dir_all(b.join("not-a-mod")).unwrap();
        let dirs = [
            ModDir {
                path: a,
                origin: Origin::Game,
            },
            ModDir {
                path: b,
                origin: Origin::Extra,
            },
        ];
        let set = ModSet::discover(&dirs, &ModSettings::default());
        let loaded: Vec<&str> = set.mods.iter().map(|m| m.id()).collect();
        assert_eq!(loaded, ["core", "frost"]);
        assert_eq!(set.mods[0].manifest.version.to_string(), "0.1.0");
        let messages: Vec<String> = set.diagnostics.iter().map(slashed).collect();
        assert!(
            messages
                .iter()
                .any(|m| m.contains("used twice") && m.contains("core-copy/mod.ron:1:")),
            "{messages:#?}"
        );
        assert!(
            messages
                .iter()
                .any(|m| m.contains("`needy` needs mod `off`, which is disabled")),
            "{messages:#?}"
        );
        assert!(
            messages.iter().any(|m| m.contains("not-a-mod")),
            "{messages:#?}"
        );
        let states: Vec<(&str, &ModState)> = set.others.iter().map(|(m, s)| (m.id(), s)).collect();
        let needs_off = ModState::Failed(order::Failure::Disabled {
            dependency: "off".into(),
        });
        assert_eq!(
            states,
            [("needy", &needs_off), ("off", &ModState::DisabledByDefault)]
        );
        let rejected: Vec<(bool, Option<&str>)> = set
            .rejected
            .iter()
            .map(|r| (r.root.ends_with("core-copy"), r.id.as_deref()))
            .collect();
        assert_eq!(rejected, [(true, Some("core")), (false, None)]);

        let mut settings = ModSettings::default();
        settings.set_enabled("off", true);
        settings.set_enabled("frost", false);
        let set = ModSet::discover(&dirs, &settings);
        let loaded: Vec<&str> = set.mods.iter().map(|m| m.id()).collect();
        assert_eq!(loaded, ["core", "off", "needy"]);
        assert_eq!(set.others[0].1, ModState::DisabledByPlayer);
    }

    #[test]
    fn one_mod_comes_with_its_dependencies_only_and_wins_over_its_copy() {
        let tmp = tempfile::tempdir().unwrap();
        let found = tmp.path().join("found");
        write_mod(
            &found,
            "core",
            r#"(id: "core", name: "Core", version: "0.1.0")"#,
        );
        write_mod(
            &found,
            "frost",
            r#"(id: "frost", name: "Frost", version: "0.1.0", enabled: false, dependencies: [(id: "core")])"#,
        );
        write_mod(
            &found,
            "other",
            r#"(id: "other", name: "Other", version: "0.1.0")"#,
        );
        write_mod(&found, "broken", "(id: \"broken\",");
        write_mod(
            &found,
            "mine-old",
            r#"(id: "mine", name: "Mine, an old copy", version: "0.0.1")"#,
        );
        let mine = tmp.path().join("work");
        write_mod(
            &mine,
            "mine",
            r#"(id: "mine", name: "Mine", version: "0.2.0", enabled: false, dependencies: [(id: "frost")])"#,
        );
        let dirs = [ModDir {
            path: found,
            origin: Origin::Game,
        }];
        let (id, set) = ModSet::of_mod(&mine.join("mine"), &dirs).unwrap();
        assert_eq!(id, "mine");
        let loaded: Vec<(&str, String)> = set
            .mods
            .iter()
            .map(|m| (m.id(), m.manifest.version.to_string()))
            .collect();
        assert_eq!(
            loaded,
            [
                ("core", "0.1.0".to_string()),
                ("frost", "0.1.0".to_string()),
                ("mine", "0.2.0".to_string())
            ]
        );
        assert!(set.diagnostics.is_empty(), "{:?}", set.diagnostics);
        assert!(ModSet::of_mod(&tmp.path().join("nowhere"), &dirs).is_err());
    }

    #[test]
    fn a_broken_manifest_is_reported_with_its_position() {
        let tmp = tempfile::tempdir().unwrap();
        write_mod(
            tmp.path(),
            "bad",
            "(id: \"bad\", name: \"Bad\",\n  verison: \"1.0.0\")",
        );
        let dirs = [ModDir {
            path: tmp.path().to_path_buf(),
            origin: Origin::Extra,
        }];
        let set = ModSet::discover(&dirs, &ModSettings::default());
        assert!(set.mods.is_empty());
        let d = set.diagnostics.iter().next().unwrap();
        assert!(d.is_error());
        assert!(slashed(d).contains("bad/mod.ron:2:"), "{d}");
    }
}
