//! The archive players download (`cargo xtask dist`): this test binary packed as the xtask packs
//! a release build, unpacked into an empty folder, and started from another one, where it must
//! find its game next to itself.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::bin::text;
use crate::common::repo;

/// The unpacked `rampart` run with `args` from the working folder `cwd`, with `home` as its user
/// data folder and no `RAMPART_GAME`.
fn run(exe: &Path, cwd: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(exe)
        .args(args)
        .current_dir(cwd)
        .env("RAMPART_HOME", home)
        .env_remove("RAMPART_GAME")
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("the unpacked rampart runs")
}

#[test]
fn the_unpacked_archive_plays_from_any_folder() {
    let target = xtask::host_target().unwrap();
    let out = tempfile::tempdir().unwrap();
    let archive = xtask::pack(&xtask::Pack {
        binary: Path::new(env!("CARGO_BIN_EXE_rampart")),
        target: &target,
        default_features: cfg!(feature = "client"),
        root: &repo(),
        out: out.path(),
        // The test binary is a development build with the client, a quarter of a gigabyte: the
        // fastest level packs it in a few seconds.
        compression: xtask::Compression::fast(),
    })
    .unwrap();
    let top = format!("rampart-{}-{target}", env!("CARGO_PKG_VERSION"));
    assert_eq!(
        archive.file_name().unwrap().to_string_lossy(),
        format!("{top}.tar.gz")
    );

    let unpacked = tempfile::tempdir().unwrap();
    let file = std::fs::File::open(&archive).unwrap();
    tar::Archive::new(flate2::read::GzDecoder::new(file))
        .unpack(unpacked.path())
        .unwrap();
    let folder = unpacked.path().join(&top);
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["LICENSES.txt", "README.txt", "mods", "rampart"]);
    for file in ["core/mod.ron", "core/levels.ron", "example-frost/mod.ron"] {
        assert!(folder.join("mods").join(file).is_file(), "mods/{file}");
    }
    let readme = std::fs::read_to_string(folder.join("README.txt")).unwrap();
    assert!(readme.contains("./rampart check"), "{readme}");

    let licences = std::fs::read_to_string(folder.join("LICENSES.txt")).unwrap();
    let mut known = vec!["mlua 0.12.2", "serde ", "luau0-src ", "rampart-core "];
    if cfg!(feature = "client") {
        known.push("bevy ");
    }
    for package in known {
        assert!(
            licences.contains(&format!("\n{package}")),
            "LICENSES.txt does not list {package}"
        );
    }
    // Luau's own licence, shipped by the crate whose sources are compiled in.
    assert!(licences.contains("Roblox Corporation"));
    // The fonts the game window embeds, with their licence.
    if cfg!(feature = "client") {
        assert!(licences.contains("fonts/DejaVu-LICENSE.txt"));
        assert!(licences.contains("Tavmjong Bah"));
    }
    // Rampart's own licence texts.
    assert!(licences.contains("[LICENSE-MIT]\n\nCopyright (c) 2026 The Rampart developers"));
    assert!(licences.contains("[LICENSE-APACHE]"));
    // Build tools are not in the program.
    assert!(!licences.contains("\ncc "), "cc is a build dependency");

    // Started from somewhere else with an empty user folder, it finds the game beside itself.
    let exe = folder.join("rampart");
    let elsewhere = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let checked = run(&exe, elsewhere.path(), home.path(), &["check"]);
    let stdout = text(&checked.stdout);
    assert!(
        checked.status.success(),
        "{stdout}{}",
        text(&checked.stderr)
    );
    let game = folder.join("mods");
    assert!(
        stdout.contains(&format!("base game: {}", game.display())),
        "{stdout}"
    );
    assert!(stdout.contains("checked 1 mod (core)"), "{stdout}");

    let tried = run(
        &exe,
        elsewhere.path(),
        home.path(),
        &["try", "core:sniper", "--count", "2"],
    );
    let stdout = text(&tried.stdout);
    assert!(tried.status.success(), "{stdout}{}", text(&tried.stderr));
    assert!(stdout.contains("tried core:sniper"), "{stdout}");

    let simulated = run(
        &exe,
        elsewhere.path(),
        home.path(),
        &["simulate", "--seed", "1", "--levels", "1"],
    );
    let stdout = text(&simulated.stdout);
    assert!(
        simulated.status.success(),
        "{stdout}{}",
        text(&simulated.stderr)
    );
    assert!(stdout.starts_with("run 1 (ascension 0)\n"), "{stdout}");
}
