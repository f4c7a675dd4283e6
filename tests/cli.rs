//! The `rampart` binary: `check` and `mods` as a modder runs them.

use std::path::Path;
use std::process::{Command, Output};

fn rampart(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rampart"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("RAMPART_HOME", home)
        .env_remove("RUST_LOG")
        .output()
        .expect("the rampart binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn check_passes_on_the_core_mod() {
    let home = tempfile::tempdir().unwrap();
    let out = rampart(home.path(), &["check"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "stdout: {stdout}\nstderr: {stderr}");
    assert!(stdout.contains("checked 1 mod (core)"), "{stdout}");
    assert!(stdout.contains("0 errors"), "{stdout}");
}

/// Each broken fixture: the file, line and column of the diagnostic, and a phrase from it.
const BROKEN: &[(&str, &str, &str)] = &[
    (
        "unknown_field",
        "typo/blueprints/sentry.ron:6:5",
        "unknown field `rnage`",
    ),
    (
        "wrong_type",
        "types/blueprints/cannon.ron:5:13",
        "`damage` must be a number",
    ),
    (
        "missing_field",
        "missing/attackers/ghost.ron:7:1",
        "missing required field `speed`",
    ),
    (
        "dangling_script",
        "noscript/blueprints/beacon.ron:5:13",
        "has no script `scripts/beacon.lua`",
    ),
    (
        "dangling_spawn",
        "spawner/attackers/egg.ron:8:34",
        "no attacker type `core:purple_slime`",
    ),
    (
        "dangling_override",
        "patcher/blueprints/faster_sentry.ron:2:16",
        "no blueprint `core:budget_sentyr` to override",
    ),
    (
        "missing_dependency",
        "lonely/mod.ron:5:25",
        "needs mod `frostbite`, which is not installed",
    ),
    (
        "version_mismatch",
        "future/mod.ron:5:25",
        "needs `core` >=2.0, but version 0.1.0 is installed",
    ),
    (
        "cycle",
        "chicken/mod.ron:1:72",
        "cycle: chicken → egg → chicken",
    ),
    (
        "duplicate_id",
        "twins/blueprints/wall.ron",
        "`twins:wall` is defined twice",
    ),
    (
        "duplicate_mod",
        "duplicate_mod/core/mod.ron:1:6",
        "mod id `core` is used twice",
    ),
];

#[test]
fn check_reports_each_kind_of_mistake_with_its_position() {
    let home = tempfile::tempdir().unwrap();
    for (case, location, phrase) in BROKEN {
        let dir = format!("tests/fixtures/broken/{case}");
        let out = rampart(home.path(), &["check", "--mods-dir", &dir]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{case}: {stderr}");
        assert!(
            stderr.contains(location),
            "{case}: expected {location} in\n{stderr}"
        );
        assert!(
            stderr.contains(phrase),
            "{case}: expected `{phrase}` in\n{stderr}"
        );
        // The caret excerpt is there for every problem that has a position.
        if location.matches(':').count() == 2 {
            assert!(stderr.contains("╭─["), "{case}: no excerpt in\n{stderr}");
        }
        // The other mods still load.
        assert!(
            text(&out.stdout).contains("core"),
            "{case}: core did not load"
        );
    }
}

#[test]
fn check_stops_every_sandbox_escape_and_creates_no_file() {
    let home = tempfile::tempdir().unwrap();
    let out = rampart(
        home.path(),
        &["check", "--mods-dir", "tests/fixtures/sandbox"],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    for (script, line, phrase) in [
        ("write_file.lua", ":2:", "`io.open` is not available"),
        ("run_program.lua", ":2:", "`os.execute` is not available"),
        (
            "read_file.lua",
            ":2:",
            "only scripts in this mod's scripts/ folder",
        ),
        ("load_bytecode.lua", ":2:", "`loadstring` is not available"),
        (
            "other_mods_globals.lua",
            ":2:",
            "`secret_password` is not defined",
        ),
        (
            "debug_library.lua",
            ":2:",
            "`debug.getinfo` is not available",
        ),
        // The instruction budget stops it, or the wall-clock limit first on a busy machine.
        ("endless_loop.lua", ":3:", "and was stopped"),
        ("memory_bomb.lua", "", "ran out of memory"),
        ("stack_overflow.lua", ":3:", "stack overflow"),
    ] {
        let needle = format!("evil/scripts/{script}{line}");
        let block = stderr
            .split("  × ")
            .find(|block| block.contains(&needle))
            .unwrap_or_else(|| panic!("{script} not reported:\n{stderr}"));
        assert!(
            block.contains(phrase),
            "{script}: expected `{phrase}` in\n{block}"
        );
    }
    assert_eq!(stderr.matches("× [evil]").count(), 9, "{stderr}");
    assert!(
        stdout.contains("checked 3 mods (core, evil, keeper)"),
        "{stdout}"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for leftover in ["rampart-sandbox-escape.txt", "rampart-sandbox-escape-2.txt"] {
        assert!(!root.join(leftover).exists(), "{leftover} was created");
    }
}

#[test]
fn mods_lists_load_order_and_switches_mods_without_deleting_them() {
    let home = tempfile::tempdir().unwrap();
    let out = rampart(
        home.path(),
        &["mods", "--mods-dir", "tests/fixtures/broken/cycle"],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let core = stdout.lines().find(|l| l.contains(" core ")).unwrap();
    assert!(
        core.starts_with("1 ")
            && core.contains("0.1.0")
            && core.contains("loaded")
            && core.contains("game"),
        "{stdout}"
    );
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("chicken") && l.contains("failed")),
        "{stdout}"
    );

    let out = rampart(
        home.path(),
        &[
            "mods",
            "--mods-dir",
            "tests/fixtures/broken/cycle",
            "--disable",
            "egg",
            "--disable",
            "chicken",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("chicken") && l.contains("disabled")),
        "{stdout}"
    );
    assert!(home.path().join("mods.ron").exists());
    assert!(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/broken/cycle/egg/mod.ron")
            .exists()
    );
    // With both switched off the cycle no longer matters.
    let out = rampart(
        home.path(),
        &["check", "--mods-dir", "tests/fixtures/broken/cycle"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));

    let out = rampart(home.path(), &["mods", "--enable", "no-such-mod"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no mod `no-such-mod`"));
}

#[test]
fn every_command_explains_itself() {
    let home = tempfile::tempdir().unwrap();
    let out = rampart(home.path(), &["--help"]);
    let help = text(&out.stdout);
    assert!(out.status.success());
    for word in ["play", "check", "mods", "--mods-dir", "--log"] {
        assert!(help.contains(word), "{word} missing from\n{help}");
    }
    for (command, word) in [
        ("check", "validate"),
        ("mods", "--disable"),
        ("play", "Start the game"),
    ] {
        let out = rampart(home.path(), &[command, "--help"]);
        assert!(out.status.success());
        assert!(
            text(&out.stdout).contains(word),
            "{command} --help lacks {word}"
        );
    }
}
