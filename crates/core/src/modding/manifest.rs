//! `mod.ron`: who a mod is and what it needs.

use std::path::Path;

use semver::{Version, VersionReq};
use serde::Deserialize;

use crate::diagnostics::{Diagnostic, SourceFile};

use super::ron_file;

/// The file name of a mod's manifest.
pub const MANIFEST_FILE: &str = "mod.ron";

/// A mod's manifest, read from `mod.ron`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The mod's id: lowercase letters, digits, `_` and `-`. Content ids are `id:name`.
    pub id: String,
    /// The name shown to players.
    pub name: String,
    /// The mod's version (semantic versioning).
    #[serde(deserialize_with = "parse_version")]
    pub version: Version,
    /// What the mod adds, shown in the mod list.
    #[serde(default)]
    pub description: String,
    /// Which versions of the game the mod works with, e.g. `">=0.1"`. Any version if left out.
    #[serde(default = "any_version", deserialize_with = "parse_version_req")]
    pub game: VersionReq,
    /// Mods that must load before this one.
    #[serde(default)]
    pub dependencies: Vec<Dependency>,
    /// Whether the mod is on when the player has not chosen; the player's choice in the mod
    /// settings wins (`rampart mods --enable/--disable`).
    #[serde(default = "yes")]
    pub enabled: bool,
}

/// A dependency on another mod.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dependency {
    /// The id of the mod depended on.
    pub id: String,
    /// Which of its versions work, e.g. `">=0.1"` or `"^1.2"`. Any version if left out.
    #[serde(default = "any_version", deserialize_with = "parse_version_req")]
    pub version: VersionReq,
    /// An optional dependency only orders the load when that mod is present; its absence is fine.
    #[serde(default)]
    pub optional: bool,
}

fn yes() -> bool {
    true
}

fn any_version() -> VersionReq {
    VersionReq::STAR
}

fn parse_version<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Version, D::Error> {
    let text = String::deserialize(d)?;
    Version::parse(&text).map_err(|e| {
        serde::de::Error::custom(format!("`{text}` is not a version like \"1.2.0\": {e}"))
    })
}

fn parse_version_req<'de, D: serde::Deserializer<'de>>(d: D) -> Result<VersionReq, D::Error> {
    let text = String::deserialize(d)?;
    VersionReq::parse(&text).map_err(|e| {
        serde::de::Error::custom(format!(
            "`{text}` is not a version requirement like \">=0.1\": {e}"
        ))
    })
}

/// The running game's version (the crate's), which a mod's `game` requirement must accept.
pub fn game_version() -> Version {
    Version::parse(env!("CARGO_PKG_VERSION")).expect("Cargo.toml's version is a semantic version")
}

/// The rule [`is_valid_mod_id`] holds ids to, in words for error messages.
pub const MOD_ID_RULE: &str =
    "mod ids use lowercase letters, digits, `_` and `-`, starting with a letter or digit";

/// Whether `id` is a valid mod id.
pub fn is_valid_mod_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
}

impl Manifest {
    /// Reads and checks the manifest in `mod_root`.
    pub fn load(mod_root: &Path) -> Result<(Manifest, SourceFile), Diagnostic> {
        let file = SourceFile::read(&mod_root.join(MANIFEST_FILE))?;
        let manifest: Manifest = ron_file::parse(&file)?;
        let bad_id = |id: &str, what: &str| {
            Diagnostic::error(format!("`{id}` is not a valid {what}"))
                .at(
                    &file,
                    ron_file::find_string(&file, id).unwrap_or(0),
                    id.len() + 2,
                )
                .help(MOD_ID_RULE)
        };
        if !is_valid_mod_id(&manifest.id) {
            return Err(bad_id(&manifest.id, "mod id"));
        }
        if let Some(dep) = manifest
            .dependencies
            .iter()
            .find(|d| !is_valid_mod_id(&d.id))
        {
            return Err(bad_id(&dep.id, "dependency id"));
        }
        if let Some(dep) = manifest.dependencies.iter().find(|d| d.id == manifest.id) {
            return Err(
                Diagnostic::error(format!("mod `{}` depends on itself", dep.id)).at(
                    &file,
                    ron_file::find_field(&file, "dependencies").unwrap_or(0),
                    "dependencies".len(),
                ),
            );
        }
        Ok((manifest, file))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mod_ids() {
        assert!(is_valid_mod_id("core"));
        assert!(is_valid_mod_id("example-frost"));
        assert!(is_valid_mod_id("a_1"));
        assert!(!is_valid_mod_id(""));
        assert!(!is_valid_mod_id("Core"));
        assert!(!is_valid_mod_id("a:b"));
        assert!(!is_valid_mod_id("-a"));
    }

    #[test]
    fn parses_the_documented_shape() {
        let file = SourceFile::new(
            "mod.ron",
            r#"(id: "frost", name: "Frost Pack", version: "0.1.0", description: "Cold towers",
                dependencies: [(id: "core", version: ">=0.1")])"#,
        );
        let m: Manifest = ron_file::parse(&file).unwrap();
        assert_eq!(m.id, "frost");
        assert_eq!(m.dependencies[0].id, "core");
        assert!(m.dependencies[0].version.matches(&Version::new(0, 1, 0)));
        assert!(!m.dependencies[0].optional);
        assert!(m.enabled);
        assert_eq!(m.game, VersionReq::STAR, "any game version when left out");
    }

    #[test]
    fn a_bad_version_points_at_it() {
        let file = SourceFile::new("mod.ron", "(id: \"x\", name: \"X\",\n version: \"one\")");
        let err = ron_file::parse::<Manifest>(&file).unwrap_err();
        assert!(err.message.contains("not a version"), "{}", err.message);
        assert_eq!(err.position.unwrap().line, 2);
    }
}
