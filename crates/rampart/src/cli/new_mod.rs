//! `rampart new-mod`: a new mod folder made from the template in `templates/new-mod/` — a
//! manifest, a tower with its script, a scenario that tests it, an editor configuration with the
//! script API's definitions (what `rampart api` writes) and a README — ready for `rampart check`
//! and `rampart test-mod`.

use std::path::{Path, PathBuf};

use clap::Args;

use rampart_core::battle::scripting::defs::{self, ModChains};
use rampart_core::files::write_atomically;
use rampart_core::modding::UserDirs;
use rampart_core::modding::manifest::{MOD_ID_RULE, game_version, is_valid_mod_id};

use super::Failure;

/// Options of `rampart new-mod`.
#[derive(Debug, Args)]
pub struct NewModArgs {
    /// The new mod's id: lowercase letters, digits, `_` and `-`, starting with a letter or
    /// digit. It is also the name of its folder.
    pub id: String,
    /// The folder to create the mod's folder in (default: the user mods folder, where the game
    /// finds mods without `--mods-dir`).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// The template's files: where each goes in the mod's folder, and its text with placeholders.
/// They are real files in the repository so that they are easy to read and edit.
const TEMPLATE: [(&str, &str); 6] = [
    ("mod.ron", include_str!("../../templates/new-mod/mod.ron")),
    (
        "README.md",
        include_str!("../../templates/new-mod/README.md"),
    ),
    (
        ".luarc.json",
        include_str!("../../templates/new-mod/.luarc.json"),
    ),
    (
        "blueprints/tar_slinger.ron",
        include_str!("../../templates/new-mod/blueprints/tar_slinger.ron"),
    ),
    (
        "scripts/tar_slinger.lua",
        include_str!("../../templates/new-mod/scripts/tar_slinger.lua"),
    ),
    (
        "tests/tar_slows.ron",
        include_str!("../../templates/new-mod/tests/tar_slows.ron"),
    ),
];

/// Where the Lua Language Server's annotations go (`.luarc.json` reads `types/`).
const LUA_LS_DEFINITIONS: &str = "types/rampart.d.lua";

/// Where luau-lsp's definitions go.
const LUAU_DEFINITIONS: &str = "types/rampart.d.luau";

/// Creates the mod's folder and writes the template and the API's definitions into it. An invalid id, a folder that
/// exists already or a file that cannot be written is an error (exit 2).
pub fn run(args: &NewModArgs) -> Result<(), Failure> {
    let id = &args.id;
    if !is_valid_mod_id(id) {
        return Err(Failure::error(format!(
            "`{id}` is not a valid mod id: {MOD_ID_RULE}"
        )));
    }
    let (parent, default) = match &args.dir {
        Some(dir) => (dir.clone(), false),
        None => match UserDirs::detect() {
            Some(user) => (user.mods_dir(), true),
            None => {
                return Err(Failure::error(
                    "no user data folder on this system: give the folder with --dir, or set \
                     RAMPART_HOME",
                ));
            }
        },
    };
    let root = parent.join(id);
    create_folder(&parent, &root)?;
    let values = [
        ("{{id}}", id.clone()),
        ("{{name}}", display_name(id)),
        ("{{game}}", game_requirement()),
    ];
    let filled = TEMPLATE.map(|(file, template)| (file, fill(template, &values)));
    // The API's definitions, made now from this game's registry: the editor completes and checks
    // from the first minute (`rampart api` makes them again after an update).
    // A new mod declares no events or queries of its own, and core declares none either.
    let none = ModChains::none();
    let definitions = [
        (LUA_LS_DEFINITIONS, defs::lua_ls(&none)),
        (LUAU_DEFINITIONS, defs::luau(&none)),
    ];
    for (file, text) in filled.into_iter().chain(definitions) {
        let path = root.join(file);
        write_atomically(&path, text.as_bytes())
            .map_err(|e| Failure::error(format!("cannot write {}: {e}", path.display())))?;
    }
    print_next_steps(id, &parent, &root, default);
    Ok(())
}

/// Creates `root` inside `parent` (and `parent` if needed). `create_dir` fails on anything
/// already there, so an existing mod is never written over, even by two commands at once.
fn create_folder(parent: &Path, root: &Path) -> Result<(), Failure> {
    std::fs::create_dir_all(parent)
        .map_err(|e| Failure::error(format!("cannot create {}: {e}", parent.display())))?;
    std::fs::create_dir(root).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => Failure::error(format!(
            "{} exists already: choose another id, or another folder with --dir",
            root.display()
        )),
        _ => Failure::error(format!("cannot create {}: {e}", root.display())),
    })
}

/// `template` with every placeholder replaced by its value.
fn fill(template: &str, values: &[(&str, String)]) -> String {
    values
        .iter()
        .fold(template.to_string(), |text, (key, value)| {
            text.replace(key, value)
        })
}

/// The name players see, made from the id: `tar-pits` → `Tar Pits`.
fn display_name(id: &str) -> String {
    id.split(['_', '-'])
        .filter(|word| !word.is_empty())
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The manifest's `game` requirement: this version and the later ones semantic versioning
/// calls compatible (`^0.1` accepts 0.1.x; `^1.2` accepts 1.x from 1.2 on).
fn game_requirement() -> String {
    let version = game_version();
    format!("^{}.{}", version.major, version.minor)
}

/// Says where the mod is and the commands to use next.
fn print_next_steps(id: &str, parent: &Path, root: &Path, default: bool) {
    // The user mods folder is searched anyway; any other folder has to be named.
    let mods_dir = match default {
        true => String::new(),
        false => format!(" --mods-dir {}", parent.display()),
    };
    let root = root.display();
    out!("created mod `{id}` in {root}");
    out!("next:");
    out!("  rampart check{mods_dir}");
    out!("  rampart test-mod {root}");
    out!("  rampart try --scenario {root}/tests/tar_slows.ron{mods_dir}");
    out!("editor: {root}/{LUA_LS_DEFINITIONS} and .luau hold the script API; see README.md");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_ids_and_placeholders_are_all_filled() {
        assert_eq!(display_name("tar-pits"), "Tar Pits");
        assert_eq!(display_name("my_mod_2"), "My Mod 2");
        assert_eq!(display_name("x"), "X");
        let values = [
            ("{{id}}", "tar".to_string()),
            ("{{name}}", "Tar".to_string()),
            ("{{game}}", game_requirement()),
        ];
        for (file, template) in TEMPLATE {
            let text = fill(template, &values);
            assert!(!text.contains("{{"), "{file} keeps a placeholder:\n{text}");
        }
        assert!(
            game_version()
                .to_string()
                .starts_with(&game_requirement()[1..])
        );
    }
}
