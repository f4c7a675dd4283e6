//! Where the player's mods and choices live: the user data directory and the mod settings file.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::diagnostics::{Diagnostic, SourceFile};
use crate::ron_file;

use super::manifest::Manifest;

/// The environment variable that moves all user files (mods, settings) to one folder, for
/// portable installs and tests.
pub const HOME_ENV: &str = "RAMPART_HOME";

/// The player's folders.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserDirs {
    /// Where installed mods go (`<data>/mods`).
    pub data: PathBuf,
    /// Where settings go.
    pub config: PathBuf,
}

impl UserDirs {
    /// `$RAMPART_HOME` if set, else the platform's data and config folders for Rampart.
    pub fn detect() -> Option<UserDirs> {
        if let Some(home) = std::env::var_os(HOME_ENV).filter(|h| !h.is_empty()) {
            let home = PathBuf::from(home);
            return Some(UserDirs {
                data: home.clone(),
                config: home,
            });
        }
        let dirs = directories::ProjectDirs::from("", "", "rampart")?;
        Some(UserDirs {
            data: dirs.data_dir().to_path_buf(),
            config: dirs.config_dir().to_path_buf(),
        })
    }

    /// The folder players install mods into.
    pub fn mods_dir(&self) -> PathBuf {
        self.data.join("mods")
    }

    /// The file holding the player's mod choices.
    pub fn settings_file(&self) -> PathBuf {
        self.config.join("mods.ron")
    }

    /// The file holding the run in progress (see `run::save`).
    pub fn save_file(&self) -> PathBuf {
        self.data.join("saves").join("run.ron")
    }

    /// The file holding what the game remembers of the player between runs (whether the
    /// tutorial was offered).
    pub fn profile_file(&self) -> PathBuf {
        self.config.join("profile.ron")
    }
}

/// Which mods the player switched on or off, overriding each manifest's `enabled`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModSettings {
    /// Mods switched on.
    #[serde(default)]
    pub enabled: BTreeSet<String>,
    /// Mods switched off (kept on disk, not loaded).
    #[serde(default)]
    pub disabled: BTreeSet<String>,
}

impl ModSettings {
    /// Reads the settings; a missing file means no choices were made.
    pub fn load(path: &Path) -> Result<ModSettings, Diagnostic> {
        if !path.exists() {
            return Ok(ModSettings::default());
        }
        ron_file::parse(&SourceFile::read(path)?)
    }

    /// Writes the settings atomically (the previous version stays as `mods.ron.bak`), creating
    /// the folder if needed.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let text = ron_file::to_string(self).map_err(std::io::Error::other)?;
        crate::files::write_atomically(path, (text + "\n").as_bytes())
    }

    /// Whether the mod should load: the player's choice, else the manifest's default.
    pub fn is_enabled(&self, manifest: &Manifest) -> bool {
        self.choice(&manifest.id).unwrap_or(manifest.enabled)
    }

    /// The player's choice for mod `id` (on or off), if they made one.
    pub fn choice(&self, id: &str) -> Option<bool> {
        if self.disabled.contains(id) {
            Some(false)
        } else if self.enabled.contains(id) {
            Some(true)
        } else {
            None
        }
    }

    /// Records the player's choice for one mod.
    pub fn set_enabled(&mut self, id: &str, enabled: bool) {
        let (add, remove) = if enabled {
            (&mut self.enabled, &mut self.disabled)
        } else {
            (&mut self.disabled, &mut self.enabled)
        };
        remove.remove(id);
        add.insert(id.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_round_trip_and_override_the_manifest() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cfg/mods.ron");
        assert_eq!(ModSettings::load(&path).unwrap(), ModSettings::default());
        let mut s = ModSettings::default();
        s.set_enabled("frost", true);
        s.set_enabled("core", false);
        s.set_enabled("frost", false);
        s.save(&path).unwrap();
        let back = ModSettings::load(&path).unwrap();
        assert_eq!(back, s);
        assert!(back.enabled.is_empty());
        let file = SourceFile::new(
            "mod.ron",
            r#"(id: "frost", name: "F", version: "1.0.0", enabled: true)"#,
        );
        let manifest: Manifest = ron_file::parse(&file).unwrap();
        assert!(!back.is_enabled(&manifest));
        assert!(ModSettings::default().is_enabled(&manifest));
    }
}
