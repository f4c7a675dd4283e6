//! `rampart new-mod` through the binary: the mod it makes passes `rampart check` and its own
//! `rampart test-mod`; an existing folder and a bad id are refused.

use std::path::Path;

use crate::bin::{rampart, text};

/// `rampart new-mod ID --dir DIR` with `home` as the user folder; asserts it succeeded.
fn new_mod(home: &Path, id: &str, dir: &Path) -> String {
    let out = rampart(home, &["new-mod", id, "--dir", dir.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    stdout
}

#[test]
fn a_new_mod_checks_clean_and_its_test_passes_and_fails_without_the_slow() {
    let home = tempfile::tempdir().unwrap();
    let mods = tempfile::tempdir().unwrap();
    let stdout = new_mod(home.path(), "tar-pits", mods.path());
    let root = mods.path().join("tar-pits");
    let (mods_dir, root_text) = (mods.path().to_str().unwrap(), root.to_str().unwrap());
    assert!(
        stdout.starts_with(&format!("created mod `tar-pits` in {root_text}\n")),
        "{stdout}"
    );
    for next in [
        format!("rampart check --mods-dir {mods_dir}"),
        format!("rampart test-mod {root_text}"),
        format!("rampart try --scenario {root_text}/tests/tar_slows.ron --mods-dir {mods_dir}"),
        format!("editor: {root_text}/types/rampart.d.lua and .luau hold the script API"),
    ] {
        assert!(stdout.contains(&next), "{next}: {stdout}");
    }
    for file in [
        "mod.ron",
        "README.md",
        ".luarc.json",
        "blueprints/tar_slinger.ron",
        "scripts/tar_slinger.lua",
        "tests/tar_slows.ron",
    ] {
        let written = std::fs::read_to_string(root.join(file)).unwrap();
        assert!(!written.contains("{{"), "{file}: {written}");
    }
    let manifest = std::fs::read_to_string(root.join("mod.ron")).unwrap();
    assert!(manifest.contains(r#"id: "tar-pits""#), "{manifest}");
    assert!(manifest.contains(r#"name: "Tar Pits""#), "{manifest}");
    let luarc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join(".luarc.json")).unwrap()).unwrap();
    assert_eq!(luarc["workspace.library"][0], "types");
    // The editor's definitions are there from the start, the same as `rampart api` writes.
    for (file, option) in [
        ("types/rampart.d.lua", "--lua-ls"),
        ("types/rampart.d.luau", "--luau-defs"),
    ] {
        let written = std::fs::read_to_string(root.join(file)).unwrap();
        let api = rampart(home.path(), &["api", option, "-"]);
        assert_eq!(written.trim_end(), text(&api.stdout).trim_end(), "{file}");
        assert!(written.contains("apply_effect"), "{file}");
    }

    let out = rampart(home.path(), &["check", "--mods-dir", mods_dir]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("(core, tar-pits)"), "{stdout}");
    assert!(stdout.contains("0 errors, 0 warnings"), "{stdout}");

    let out = rampart(home.path(), &["test-mod", root_text]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.ends_with("mod `tar-pits`: 1 scenario, 1 passed, 0 failed\n"),
        "{stdout}"
    );

    // The test measures the slow: with no slow left, it fails.
    let blueprint = root.join("blueprints/tar_slinger.ron");
    let text_before = std::fs::read_to_string(&blueprint).unwrap();
    let unslowed = text_before.replace(r#""slow": 0.4"#, r#""slow": 0.0"#);
    assert_ne!(unslowed, text_before);
    std::fs::write(&blueprint, unslowed).unwrap();
    let out = rampart(home.path(), &["test-mod", root_text]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAILED: slowest speed"), "{stdout}");
}

#[test]
fn without_dir_the_mod_goes_to_the_user_mods_folder_and_loads_from_there() {
    let home = tempfile::tempdir().unwrap();
    let out = rampart(home.path(), &["new-mod", "bog"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let root = home.path().join("mods").join("bog");
    assert!(root.join("mod.ron").is_file(), "{stdout}");
    // No --mods-dir: the user mods folder is searched anyway.
    assert!(stdout.contains("\n  rampart check\n"), "{stdout}");
    let out = rampart(home.path(), &["mods"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.lines().any(|l| l.contains("bog")), "{stdout}");
}

#[test]
fn an_existing_folder_and_a_bad_id_are_refused_with_exit_2() {
    let home = tempfile::tempdir().unwrap();
    let mods = tempfile::tempdir().unwrap();
    let mine = mods.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("mod.ron"), "// my own work").unwrap();
    let dir = mods.path().to_str().unwrap();
    let out = rampart(home.path(), &["new-mod", "mine", "--dir", dir]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("exists already"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(mine.join("mod.ron")).unwrap(),
        "// my own work"
    );
    assert_eq!(std::fs::read_dir(&mine).unwrap().count(), 1);

    for bad in ["Tar", "tar pits", "_tar", "tar:pits"] {
        let out = rampart(home.path(), &["new-mod", bad, "--dir", dir]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{bad}: {stderr}");
        assert!(
            stderr.contains(&format!("`{bad}` is not a valid mod id")),
            "{stderr}"
        );
    }
    assert_eq!(std::fs::read_dir(mods.path()).unwrap().count(), 1);
}
