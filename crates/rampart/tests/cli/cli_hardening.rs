//! The `rampart` binary given hostile input — mod files with overlong lines, thousands of errors
//! or bad bytes, arguments out of range, a closed pipe — ends with a clear message and the exit
//! code of its policy (0 / 1 found problems / 2 could not), never a panic.

use std::process::Output;

use crate::bin::{rampart, text};

/// Asserts `out` exited with `code` and did not panic.
fn exits(out: &Output, code: i32) -> (String, String) {
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(code),
        "stdout: {stdout}\nstderr: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    (stdout, stderr)
}

/// A folder holding one mod `hostile` with `files` (path inside the mod, contents).
fn mod_folder(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("hostile");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(
        root.join("mod.ron"),
        r#"(id: "hostile", name: "Hostile", version: "0.1.0", description: "bad files")"#,
    )
    .unwrap();
    for (path, contents) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    dir
}

fn path_str(dir: &tempfile::TempDir) -> &str {
    dir.path().to_str().unwrap()
}

#[test]
fn an_error_at_the_end_of_a_100_000_character_line_is_shown_with_its_true_column() {
    let line = format!("({}nme: 5)\n", " ".repeat(100_000));
    let mods = mod_folder(&[("blueprints/long.ron", line.as_bytes())]);
    let home = tempfile::tempdir().unwrap();
    let out = rampart(home.path(), &["check", "--mods-dir", path_str(&mods)]);
    let (_, stderr) = exits(&out, 1);
    assert!(stderr.contains("long.ron:1:100002"), "{stderr}");
    assert!(stderr.contains("unknown field `nme`"), "{stderr}");
    assert!(stderr.len() < 5_000, "{stderr}");
    // Every command that loads mods prints the same diagnostic.
    let out = rampart(
        home.path(),
        &["waves", "--seed", "1", "--mods-dir", path_str(&mods)],
    );
    let (_, stderr) = exits(&out, 1);
    assert!(stderr.contains("long.ron:1:100002"), "{stderr}");
}

/// A valid blueprint, to see that the rest of a mod loads beside a file left out.
const GRENADE: &[u8] = br#"(
    name: "Spare Grenade",
    kind: Ability,
    rarity: Starter,
    cost: (energy: 10),
    radius: 0.75,
    damage: 4,
    damage_type: [Explosive],
    behaviour: Blast,
)"#;

#[test]
fn a_mod_file_over_the_size_limit_is_left_out_and_the_rest_of_the_mod_loads() {
    let limit = rampart_core::diagnostics::MAX_FILE_BYTES as usize;
    let mut huge = b"// padding\n".repeat(limit / 11 + 1);
    huge.extend_from_slice(GRENADE);
    let mods = mod_folder(&[
        ("blueprints/huge.ron", &huge),
        ("blueprints/spare.ron", GRENADE),
    ]);
    let home = tempfile::tempdir().unwrap();
    let out = rampart(home.path(), &["check", "--mods-dir", path_str(&mods)]);
    let (stdout, stderr) = exits(&out, 1);
    assert!(stderr.contains("huge.ron"), "{stderr}");
    assert!(
        stderr.contains(&format!("{} bytes", huge.len())),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("limit of {limit} bytes")),
        "{stderr}"
    );
    // The core mod's blueprints and the spare one.
    let core = rampart(home.path(), &["check"]);
    let count = |s: &str| {
        let (_, after) = s.split_once(" attacker types, ").unwrap();
        after.split_once(' ').unwrap().0.parse::<usize>().unwrap()
    };
    assert_eq!(count(&stdout), count(&text(&core.stdout)) + 1, "{stdout}");
}

#[test]
fn invalid_utf8_is_reported_at_the_line_and_column_of_the_first_bad_byte() {
    let mods = mod_folder(&[("blueprints/latin1.ron", b"(\n    name: \"Caf\xe9\",\n)\n")]);
    let home = tempfile::tempdir().unwrap();
    let out = rampart(home.path(), &["check", "--mods-dir", path_str(&mods)]);
    let (_, stderr) = exits(&out, 1);
    assert!(stderr.contains("latin1.ron:2:15"), "{stderr}");
    assert!(stderr.contains("not valid UTF-8"), "{stderr}");
    assert!(stderr.contains("0xe9"), "{stderr}");
}

#[test]
fn escape_sequences_from_scripts_reach_neither_the_log_nor_the_diagnostics() {
    let script = br#"print("\27[31mred\27[0m")
error("\27]0;pwned\7 " .. "bell")
"#;
    let mods = mod_folder(&[("scripts/noisy.lua", script)]);
    let home = tempfile::tempdir().unwrap();
    let out = rampart(
        home.path(),
        &["--log", "info", "check", "--mods-dir", path_str(&mods)],
    );
    let (stdout, stderr) = exits(&out, 1);
    assert!(!stdout.contains(['\x1b', '\x07']), "{stdout:?}");
    assert!(!stderr.contains(['\x1b', '\x07']), "{stderr:?}");
    // The log escapes what scripts print (tracing's own escaping).
    assert!(stderr.contains("[31mred"), "{stderr}");
    assert!(stderr.contains("\\u{1b}]0;pwned\\u{7} bell"), "{stderr}");
}
