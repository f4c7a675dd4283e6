//! Where the binary finds the base game: next to itself, then the working folder, then the
//! checkout it was built from; never nowhere without saying so.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::bin::text;
use crate::common::repo;

/// `rampart check` run with `exe`, from the working folder `cwd`, with an empty user folder.
fn check(exe: &Path, cwd: &Path, game: Option<&Path>) -> Output {
    let home = tempfile::tempdir().unwrap();
    let mut command = Command::new(exe);
    command
        .arg("check")
        .current_dir(cwd)
        .env("RAMPART_HOME", home.path())
        .env_remove("RAMPART_GAME")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null());
    if let Some(game) = game {
        command.env("RAMPART_GAME", game);
    }
    command.output().expect("the rampart binary runs")
}

#[test]
fn check_in_an_empty_folder_finds_the_game_the_binary_was_built_from() {
    let empty = tempfile::tempdir().unwrap();
    let out = check(Path::new(env!("CARGO_BIN_EXE_rampart")), empty.path(), None);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("checked 1 mod (core)"), "{stdout}");
    let game = repo().join("mods");
    assert!(
        stdout.contains(&format!("base game: {}", game.display())),
        "{stdout}"
    );
}

#[test]
fn a_game_folder_next_to_the_binary_comes_first() {
    let install = tempfile::tempdir().unwrap();
    let exe = install.path().join(
        Path::new(env!("CARGO_BIN_EXE_rampart"))
            .file_name()
            .unwrap(),
    );
    std::fs::copy(env!("CARGO_BIN_EXE_rampart"), &exe).unwrap();
    let game = install.path().join("mods");
    copy_dir(&repo().join("mods").join("core"), &game.join("core"));
    let elsewhere = tempfile::tempdir().unwrap();
    let out = check(&exe, elsewhere.path(), None);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains(&format!("base game: {}", game.display())),
        "{stdout}"
    );
}

#[test]
fn without_a_base_game_check_says_where_it_looked_and_fails() {
    let empty = tempfile::tempdir().unwrap();
    let out = check(
        Path::new(env!("CARGO_BIN_EXE_rampart")),
        empty.path(),
        Some(empty.path()),
    );
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains("the base game was not found"), "{all}");
    assert!(all.contains(&empty.path().display().to_string()), "{all}");
    assert!(all.contains("checked 0 mods (none found)"), "{all}");
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
