//! The `rampart` binary as a modder runs it: `check`, `mods`, and `try` on the tower the
//! walkthrough in `docs/modding/tutorial.md` builds.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use crate::bin::{rampart, text};

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
        "dangling_sound",
        "bells/blueprints/bell.ron:11:20",
        "there is no sound `bells:dnig`",
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
        "game_version",
        "newer/mod.ron:5:11",
        "mod `newer` needs the game in version >=99.0, but this is version",
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
        "foreign_chain",
        "thief/chains.ron:4:16",
        "`core:stolen` is in the namespace of `core`; a mod declares chains only in its own",
    ),
    (
        "misspelt_part",
        "sculptor/blueprints/statue.ron:7:17",
        "unknown variant `Cilinder` at `model[1].shape`",
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

/// One exit-code policy: 0 all went well; 1 what the command examined has errors (here a mod with
/// a typo, left out while the rest is used); 2 the command could not do what was asked.
#[test]
fn exit_codes_follow_one_policy() {
    let home = tempfile::tempdir().unwrap();
    let broken = ["--mods-dir", "tests/fixtures/broken/unknown_field"];
    let tried = rampart(
        home.path(),
        &[&broken[..], &["try", "core:sniper", "--count", "2"]].concat(),
    );
    let (stdout, stderr) = (text(&tried.stdout), text(&tried.stderr));
    assert_eq!(tried.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("tried core:sniper"), "{stdout}");
    assert!(stderr.contains("unknown field `rnage`"), "{stderr}");
    assert!(
        stderr.contains("error: the mods have 1 error (above)"),
        "{stderr}"
    );
    let simulated = rampart(
        home.path(),
        &[&broken[..], &["simulate", "--seed", "1", "--levels", "1"]].concat(),
    );
    assert_eq!(
        simulated.status.code(),
        Some(1),
        "{}",
        text(&simulated.stderr)
    );
    let unknown = rampart(home.path(), &["try", "core:nothing"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown.stderr).starts_with("error: "));
    let fine = rampart(home.path(), &["waves", "--seed", "1"]);
    assert_eq!(fine.status.code(), Some(0), "{}", text(&fine.stderr));
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
            "only scripts in a mod's scripts/ folder",
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
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
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
    // Mods that cannot load are problems found, as for `check`.
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(text(&out.stderr).contains("some mods cannot be loaded"));
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
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
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
    assert_eq!(out.status.code(), Some(2));
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

/// The files the page shows, by path: code blocks whose first line is a comment naming a file
/// under `my-mods/`. A file shown twice is the later version.
fn files(page: &str) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    for block in page.split("```").skip(1).step_by(2) {
        let code = block.split_once('\n').map_or("", |(_, code)| code);
        let first = code.lines().next().unwrap_or("");
        let path = first
            .trim_start_matches("//")
            .trim_start_matches("--")
            .trim();
        if path.starts_with("my-mods/") {
            files.insert(path.to_string(), code.to_string());
        }
    }
    files
}

#[test]
fn the_tutorial_tower_checks_and_fights() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let page = std::fs::read_to_string(root.join("docs/modding/tutorial.md")).unwrap();
    let files = files(&page);
    assert_eq!(
        files.keys().collect::<Vec<_>>(),
        [
            "my-mods/embers/blueprints/ember_turret.ron",
            "my-mods/embers/mod.ron",
            "my-mods/embers/scripts/ember_turret.lua",
        ]
    );
    let work = tempfile::tempdir().unwrap();
    for (path, text) in &files {
        let path = work.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let mods = work.path().join("my-mods");
    let mods = mods.to_str().unwrap();
    let home = work.path().join("home");

    let check = rampart(&home, &["check", "--mods-dir", mods]);
    let stdout = text(&check.stdout);
    assert!(check.status.success(), "{stdout}");
    assert!(
        stdout.contains("(core, embers)") && stdout.contains("0 errors"),
        "{stdout}"
    );

    let tried = rampart(
        &home,
        &[
            "--log",
            "info",
            "try",
            "embers:ember_turret",
            "--mods-dir",
            mods,
        ],
    );
    let (stdout, stderr) = (text(&tried.stdout), text(&tried.stderr));
    assert!(tried.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("no script errors"), "{stdout}");
    // The page shows what a modder will see.
    for line in stdout.lines() {
        assert!(page.contains(line), "the tutorial does not show `{line}`");
    }
    // The prints of the reaction: one per shot, with what it dealt.
    let shots: Vec<f64> = stderr
        .lines()
        .filter(|l| l.contains("ember shot"))
        .map(|l| l.rsplit('\t').next().unwrap().trim().parse().unwrap())
        .collect();
    assert!(shots.contains(&2.0), "a first shot deals 2: {shots:?}");
    assert!(
        shots.contains(&3.0),
        "a shot on a burning attacker 3: {shots:?}"
    );
    // "  9 shots, 27 hits, 0 kills, 39 damage (energy 18, physical 21)"
    let numbers: Vec<f64> = stdout
        .lines()
        .find(|l| l.contains(" shots, "))
        .expect("a line with the hits")
        .split(", ")
        .take(4)
        .map(|part| part.trim().split(' ').next().unwrap().parse().unwrap())
        .collect();
    let (count, damage) = (numbers[1] as usize, numbers[3]);
    let fire = damage - shots.iter().sum::<f64>();
    assert!(
        count > shots.len() && fire >= (count - shots.len()) as f64,
        "the fire hits too, 1 at a time: {count} hits for {damage}, shots {shots:?}"
    );
}

#[test]
fn try_uses_an_ability_on_the_path_and_names_what_it_cannot_find() {
    let home = tempfile::tempdir().unwrap();
    let out = rampart(
        home.path(),
        &[
            "try",
            "core:meteor",
            "--attacker",
            "core:black_skeleton",
            "--count",
            "3",
            "--every",
            "8",
        ],
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    // Three Black Skeletons 0.64 tiles apart: all within the Meteor's 1.4 tiles, 16 each.
    assert!(stdout.contains("tried core:meteor at (7, 3)"), "{stdout}");
    assert!(
        stdout.contains("core:meteor at (7, 3), used at tick")
            && stdout.contains("0 shots, 3 hits, 0 kills, 48 damage (explosive 48, physical 48)"),
        "{stdout}"
    );

    let out = rampart(home.path(), &["try", "core:icicle"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("no blueprint `core:icicle`"));
}

#[test]
fn bad_arguments_are_refused_with_what_is_allowed() {
    let home = tempfile::tempdir().unwrap();
    let refused = |args: &[&str], phrase: &str| {
        let out = rampart(home.path(), args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(phrase), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    };
    refused(
        &["waves", "--seed", "-1"],
        "seeds are whole numbers from 0 to 18446744073709551615",
    );
    refused(&["--log", "wran", "check"], "`wran` is not a log level");
    refused(
        &[
            "try",
            "core:sniper",
            "--count",
            "4294967295",
            "--every",
            "0",
        ],
        "not in 1..=1000",
    );
    refused(
        &["simulate", "--seed", "18446744073709551615", "--runs", "2"],
        "goes past the largest seed",
    );
    refused(
        &["generate", "--seed", "1", "--lengths", "4294967295"],
        "not in 2..=256",
    );
    let last = rampart(
        home.path(),
        &[
            "simulate",
            "--seed",
            "18446744073709551615",
            "--levels",
            "1",
        ],
    );
    assert_eq!(last.status.code(), Some(0), "{}", text(&last.stderr));
}

#[cfg(target_os = "linux")]
#[test]
fn a_reader_that_stops_early_is_a_normal_end() {
    use std::io::Read;
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::process::Stdio;
    let home = tempfile::tempdir().unwrap();
    // A pipe that holds only 4 KiB, so the 8 KB of waves as JSON cannot all be written before
    // the reader goes away (as `| head -c1` does).
    let mut fds = [0; 2];
    // SAFETY: `pipe2` fills both descriptors, which are then owned once each (closed on exec,
    // so the child holds only the end it is given).
    let (read, write) = unsafe {
        assert_eq!(libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC), 0);
        libc::fcntl(fds[0], libc::F_SETPIPE_SZ, 4096);
        (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
    };
    let child = Command::new(env!("CARGO_BIN_EXE_rampart"))
        .args(["waves", "--seed", "7", "--level", "3", "--json", "-"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .env("RAMPART_HOME", home.path())
        .stdout(Stdio::from(write))
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = std::fs::File::from(read);
    let mut first = [0u8; 1];
    reader.read_exact(&mut first).unwrap();
    drop(reader);
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn switching_the_base_game_off_warns() {
    let home = tempfile::tempdir().unwrap();
    let out = rampart(home.path(), &["mods", "--disable", "core"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("`core` is the base game"),
        "{}",
        text(&out.stderr)
    );
}

/// `rampart try` of a special building of mod `mod_id` whose script is `script`, once, next to core.
fn try_script(mod_id: &str, script: &str) -> Output {
    let home = tempfile::tempdir().unwrap();
    let mods = crate::common::Mods::new();
    mods.manifest(mod_id, &["core"])
        .file(
            &format!("{mod_id}/blueprints/prober.ron"),
            &crate::common::blueprint("Prober", "Special", "script: \"scripts/prober.lua\","),
        )
        .file(&format!("{mod_id}/scripts/prober.lua"), script);
    rampart(
        home.path(),
        &[
            "try",
            &format!("{mod_id}:prober"),
            "--count",
            "1",
            "--mods-dir",
            mods.path().to_str().unwrap(),
        ],
    )
}

#[test]
fn try_lists_script_errors_counted_and_warns_of_switched_off_scripts_and_misspelt_effects() {
    let out = try_script(
        "probe",
        r#"return {
    on_tick = function(self, game)
        game:apply_effect(self, "burnin", { ticks = 5 })
        game:apply_effect(self, "catalyzed", { ticks = 5 })
        error("boom")
    end,
}"#,
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    // The scripts' failures are mistakes in the mod tried: exit 1, pointing at the report.
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(
        stderr.contains("scripts failed 10 times (above)"),
        "{stderr}"
    );
    let off = "[probe] scripts/prober.lua is switched off for the rest of the battle after 10 \
               script errors; the last was: [probe] scripts/prober.lua:5: boom";
    assert!(
        stdout.contains(&format!(
            "10 script errors:\n  [probe] scripts/prober.lua:5: boom … repeated 9 times\n{off}\nscript cost: "
        )),
        "{stdout}"
    );
    // At the default level (warn): the error once, the switch-off, the likely typo once; a
    // mod's own effect far from the built-in names is no warning.
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("[probe]")).collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(
        lines[0].ends_with(
            "[probe] scripts/prober.lua:3: `burnin` is not a built-in effect; did you mean \
         `burning`? (an effect of the mod's own is fine: it does what the mod's scripts make of it)"
        ),
        "{stderr}"
    );
    assert!(lines[0].contains("WARN"), "{stderr}");
    assert!(
        lines[1].ends_with("[probe] scripts/prober.lua:5: boom"),
        "{stderr}"
    );
    assert!(
        lines[2].ends_with(off) && lines[2].contains("WARN"),
        "{stderr}"
    );
    assert!(!stderr.contains("catalyzed"), "{stderr}");
}

#[test]
fn a_deprecated_name_warns_once_per_mod_with_the_first_call_and_its_replacement() {
    let out = try_script(
        "oldie",
        r#"return {
    on_tick = function(self, game)
        local x, y = self:position()
        game:barrier(x, y, 1, 2)
        game:barrier(x, y, 2, 2)
    end,
}"#,
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("[oldie]")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains("WARN"), "{stderr}");
    assert!(
        lines[0].ends_with(
            "[oldie] scripts/prober.lua:4: `game:barrier` is deprecated since version 0.1.0; use \
             `game:raise_barrier` (it works the same)"
        ),
        "{stderr}"
    );
}

#[test]
fn drawing_past_the_allowance_warns_once_and_fails_nothing() {
    let out = try_script(
        "painter",
        r#"return {
    on_tick = function(self, game)
        for i = 1, 100 do
            game:flash(i, 1)
        end
    end,
}"#,
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("[painter]")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(lines[0].contains("WARN"), "{stderr}");
    assert!(
        lines[0].ends_with(
            "[painter] scripts/prober.lua:4: game:flash: the mod drew more than 64 visuals in one \
             tick (the limit); the rest of that tick's are not shown (said once per battle)"
        ),
        "{stderr}"
    );
    assert!(stdout.contains("no script errors"), "{stdout}");
}

#[test]
fn a_script_making_up_names_gets_a_hundred_warnings_and_then_one_more() {
    // 150 different names, each close to `burning`: warnings stop at 100, and say so.
    let out = try_script(
        "namer",
        r#"return {
    on_tick = function(self, game)
        for i = 0, 149 do
            local name = "burning" .. string.char(97 + i % 26) .. string.char(97 + i // 26)
            game:apply_effect(self, name, { ticks = 5 })
        end
    end,
}"#,
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let hints = stderr
        .lines()
        .filter(|l| l.contains("is not a built-in effect"))
        .count();
    assert_eq!(hints, 100, "{stderr}");
    let full: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("further ones are not shown"))
        .collect();
    assert_eq!(full.len(), 1, "{stderr}");
    assert!(full[0].contains("WARN"), "{stderr}");
}
