//! Where the base game is installed: the mods folder that ships with the executable.
//!
//! A player starts the game from a shortcut, a file manager or a terminal anywhere, so the game's
//! own content is looked for next to the executable first, not in the working folder. The
//! working folder and the source checkout a build was made from come after, so that a developer
//! can run `cargo run` in the repository, or a built binary from any folder, as before.

use std::path::{Path, PathBuf};

use super::BASE_GAME;

/// Set while compiling a packaged build (`cargo xtask dist`): such a build must find its game
/// next to itself, never in the source checkout it was built from.
const PACKAGED: bool = option_env!("RAMPART_PACKAGED").is_some();

/// Names the one folder to take the base game's mods from, instead of looking for them: for
/// installs that keep the game's data elsewhere, and for trying a game folder out.
pub const GAME_ENV: &str = "RAMPART_GAME";

/// The folders that may hold the base game's mods, in the order they are tried: only
/// `$RAMPART_GAME` if it is set, else
/// - `mods` next to the executable (an unpacked archive);
/// - `share/rampart/mods` beside the executable's folder (a Unix install into a prefix, such
///   as `/usr/bin` and `/usr/share/rampart`);
/// - `mods` in the working folder (the repository, when started with `cargo run`);
/// - the source checkout's `mods` (any build but a packaged one, started from anywhere).
pub fn candidates() -> Vec<PathBuf> {
    if let Some(dir) = std::env::var_os(GAME_ENV) {
        return vec![PathBuf::from(dir)];
    }
    let mut dirs = Vec::new();
    let exe = std::env::current_exe().ok();
    if let Some(exe_dir) = exe.as_deref().and_then(Path::parent) {
        dirs.push(exe_dir.join("mods"));
        if let Some(prefix) = exe_dir.parent() {
            dirs.push(prefix.join("share").join("rampart").join("mods"));
        }
    }
    dirs.push(PathBuf::from("mods"));
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR")).ancestors().nth(2);
    if let Some(checkout) = checkout.filter(|_| !PACKAGED) {
        dirs.push(checkout.join("mods"));
    }
    dirs
}

/// The first of [`candidates`] that holds the base game (a `core` mod with its manifest).
pub fn locate() -> Option<PathBuf> {
    candidates().into_iter().find(|dir| holds_base_game(dir))
}

/// Whether `dir` is a mods folder with the base game in it.
pub fn holds_base_game(dir: &Path) -> bool {
    dir.join(BASE_GAME).join("mod.ron").is_file()
}

/// What to tell a player whose game has no base game: where it was looked for.
pub fn not_found_message() -> String {
    let places: Vec<String> = candidates()
        .iter()
        .map(|dir| format!("  {}", dir.display()))
        .collect();
    format!(
        "the base game was not found: none of these folders holds `{BASE_GAME}/mod.ron`\n{}\n\
         The game's `mods` folder belongs next to the rampart executable.",
        places.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_development_build_finds_the_repository_game_from_anywhere() {
        // Tests are never packaged builds: the checkout is the last place tried, and it holds
        // the base game.
        let checkout = candidates().pop().unwrap();
        assert!(holds_base_game(&checkout), "{}", checkout.display());
        assert!(locate().is_some());
        assert!(!holds_base_game(Path::new(env!("CARGO_MANIFEST_DIR"))));
    }
}
