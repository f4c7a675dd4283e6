//! Scenarios through the binary, as a modder runs them: `rampart try --scenario`, `--with`,
//! `--json`, and `rampart test-mod` on core's own tests and on a small mod of the test's.

use std::path::{Path, PathBuf};

use crate::bin::{rampart, text};
use crate::common::Mods;

/// Writes `text` as a scenario file in `dir` and returns its path as a string.
fn scenario(dir: &Path, name: &str, text: &str) -> String {
    let path: PathBuf = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Mod `probe`: a special building, `probe:prober`, whose script fails at every tick.
fn failing_probe(mods: &Mods) -> &Mods {
    mods.manifest("probe", &["core"])
        .file(
            "probe/blueprints/prober.ron",
            &crate::common::blueprint("Prober", "Special", "script: \"scripts/prober.lua\","),
        )
        .file(
            "probe/scripts/prober.lua",
            "return {\n    on_tick = function(self, game)\n        error(\"boom\")\n    end,\n}\n",
        )
}

/// A Budget Sentry north of the straight path, a wave of Skeletons, and `expect`.
fn sentry(expect: &str) -> String {
    format!(
        r#"(
    name: "a sentry",
    buildings: [(blueprint: "core:budget_sentry", tile: (7, 4))],
    waves: [(send: [(attacker: "core:skeleton", count: 4, every: 20)])],
    expect: [{expect}],
)"#
    )
}

#[test]
fn core_scenarios_pass_under_test_mod() {
    let home = tempfile::tempdir().unwrap();
    let out = rampart(home.path(), &["test-mod", "mods/core"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    for file in ["economy.ron", "frostbite_slows.ron", "radar_range.ron"] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("ok   mods/core/tests/") && l.contains(file)),
            "{file}: {stdout}"
        );
    }
    assert!(
        stdout.ends_with("mod `core`: 3 scenarios, 3 passed, 0 failed\n"),
        "{stdout}"
    );
}

#[test]
fn a_failing_expectation_exits_1_with_what_was_measured_and_a_passing_one_0() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let passing = scenario(
        dir.path(),
        "pass.ron",
        &sentry("AtLeast(Shots(Tile(7, 4)), 5), AtMost(Kills(Tile(7, 4)), 0), NothingRefused"),
    );
    let out = rampart(home.path(), &["try", "--scenario", &passing]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("ok: shots by what stood on (7, 4) at least 5 (measured "),
        "{stdout}"
    );

    let failing = scenario(
        dir.path(),
        "fail.ron",
        &sentry("AtLeast(Kills(Tile(7, 4)), 3), AtLeast(Damage(Tile(7, 5)), 1), AllAttackersDead"),
    );
    let out = rampart(home.path(), &["try", "--scenario", &failing]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains("FAILED: kills by what stood on (7, 4) at least 3 (measured 0)"),
        "{stdout}"
    );
    assert!(
        stdout
            .contains("FAILED: damage by what stood on (7, 5) at least 1: nothing stood on (7, 5)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("FAILED: every attacker killed: 4 of 4 were not killed"),
        "{stdout}"
    );
    assert!(stderr.contains("error: 3 expectations failed"), "{stderr}");
}

#[test]
fn with_adds_a_neighbour_to_either_form_and_its_buff_shows_as_numbers() {
    let home = tempfile::tempdir().unwrap();
    // The Radar beside the Sentry: 30 % more range, as the range query gives it.
    let out = rampart(
        home.path(),
        &[
            "try",
            "core:budget_sentry",
            "--count",
            "2",
            "--with",
            "core:radar@8,5",
        ],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("core:budget_sentry on (7, 5), placed at tick 0\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("  range 3.77, hit_damage 2, interval 16\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("core:radar on (8, 5), placed at tick 0\n"),
        "{stdout}"
    );

    let dir = tempfile::tempdir().unwrap();
    let file = scenario(
        dir.path(),
        "radar.ron",
        &sentry("AtLeast(EndStat(Tile(7, 4), Range), 3.77), AtLeast(Came(Any), 4)"),
    );
    let out = rampart(
        home.path(),
        &["try", "--scenario", &file, "--with", "core:radar@8,4"],
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("core:radar on (8, 4)"), "{stdout}");

    for (with, phrase) in [
        ("core:radar", "is not BLUEPRINT@X,Y"),
        ("core:radar@8;5", "is not BLUEPRINT@X,Y"),
        ("core:radra@8,5", "did you mean `core:radar`?"),
    ] {
        let out = rampart(home.path(), &["try", "core:budget_sentry", "--with", with]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{with}: {stderr}");
        assert!(stderr.contains(phrase), "{with}: {stderr}");
    }
}

#[test]
fn json_has_the_documented_shape() {
    let home = tempfile::tempdir().unwrap();
    let out = rampart(
        home.path(),
        &[
            "try",
            "--scenario",
            "mods/core/tests/frostbite_slows.ron",
            "--json",
            "-",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("only JSON");
    let keys = |v: &serde_json::Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&report),
        [
            "attackers",
            "buildings",
            "end",
            "expectations",
            "hull",
            "not_done",
            "passed",
            "refused",
            "resources",
            "scenario",
            "script_cost",
            "script_errors",
            "scripts_switched_off",
            "storage",
            "ticks",
            "waves"
        ]
    );
    assert_eq!(
        report["storage"],
        serde_json::json!({}),
        "core stores nothing"
    );
    assert_eq!(report["end"], "waves_done");
    assert_eq!(report["passed"], true);
    assert_eq!(report["waves"]["ended"], 1);
    let frontier = &report["buildings"][0];
    assert_eq!(
        keys(frontier),
        [
            "blueprint",
            "damage",
            "damage_by_type",
            "effects",
            "from_tick",
            "healing",
            "hits",
            "kills",
            "kind",
            "position",
            "produced",
            "shots",
            "stats",
            "tile",
            "until_tick"
        ]
    );
    assert_eq!(frontier["blueprint"], "core:frostbite_frontier");
    assert_eq!(frontier["tile"], serde_json::json!([6, 4]));
    let freezing = &frontier["effects"]["freezing"];
    assert_eq!(keys(freezing), ["shots", "ticks", "times", "waves"]);
    assert!(freezing["times"].as_u64().unwrap() >= 250, "{freezing}");
    assert_eq!(frontier["stats"]["range"]["end"], 2.1);
    assert_eq!(
        keys(&frontier["stats"]),
        ["hit_damage", "interval", "radius", "range"]
    );
    let sparker = &report["buildings"][1];
    assert_eq!(sparker["damage_by_type"]["energy"], sparker["damage"]);
    let skeletons = &report["attackers"][0];
    assert_eq!(
        keys(skeletons),
        [
            "alive",
            "attacker",
            "came",
            "damage_taken",
            "effects",
            "hull_taken",
            "killed",
            "leaked",
            "speed",
            "taken_away"
        ]
    );
    assert_eq!(skeletons["came"], 5);
    assert_eq!(skeletons["speed"]["base"], 1.6);
    assert!(skeletons["speed"]["slowest"].as_f64().unwrap() < 1.21);
    assert_eq!(
        keys(&report["expectations"][0]),
        ["expectation", "measured", "passed", "problem"]
    );
}

#[test]
fn a_bad_scenario_file_is_pointed_at_with_line_column_and_suggestion() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let typo = scenario(
        dir.path(),
        "typo.ron",
        "(\n    buildings: [(blueprint: \"core:budget_sentry\", tiles: (7, 4))],\n)",
    );
    let out = rampart(home.path(), &["try", "--scenario", &typo]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("unknown field `buildings[0].tiles` in a building"),
        "{stderr}"
    );
    assert!(stderr.contains("typo.ron:2:51"), "{stderr}");
    assert!(stderr.contains("did you mean `tile`?"), "{stderr}");

    let unknown = scenario(
        dir.path(),
        "unknown.ron",
        r#"(
    waves: [(send: [(attacker: "core:skeleton"), (attacker: "core:skelton", path: 1)])],
    actions: [(before_wave: 2, do: Remove(tile: (1, 1)))],
)"#,
    );
    let out = rampart(home.path(), &["try", "--scenario", &unknown]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    for (phrase, at) in [
        (
            "there is no attacker type `core:skelton`",
            "unknown.ron:2:61",
        ),
        ("did you mean `core:skeleton`?", ""),
        (
            "there is no wave 2: the scenario has 1 wave",
            "unknown.ron:3:16",
        ),
    ] {
        assert!(stderr.contains(phrase), "{phrase}: {stderr}");
        assert!(stderr.contains(at), "{at}: {stderr}");
    }
}

#[test]
fn a_refused_placement_is_reported_with_the_battles_reason() {
    let home = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = scenario(
        dir.path(),
        "refused.ron",
        r#"(
    buildings: [(blueprint: "core:budget_sentry", tile: (7, 3))],
    waves: [(send: [(attacker: "core:skeleton")])],
    actions: [
        (wave: 1, tick: 5, do: Place(blueprint: "core:radar", tile: (8, 4))),
        (wave: 1, do: Remove(tile: (2, 2))),
    ],
    expect: [NothingRefused],
)"#,
    );
    let out = rampart(home.path(), &["try", "--scenario", &file]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    for line in [
        "refused at tick 0: place core:budget_sentry on (7, 3): attackers walk there; nothing can be built on a path",
        "refused at tick 0: remove the building on (2, 2): there is no building on (2, 2)",
        "refused at tick 5: place core:radar on (8, 4): buildings can only be placed between waves",
        "FAILED: nothing refused: 3 actions refused (listed above)",
    ] {
        assert!(stdout.contains(line), "{line}\n{stdout}");
    }
}

#[test]
fn the_same_scenario_gives_the_same_report_in_two_processes() {
    let home = tempfile::tempdir().unwrap();
    let args = [
        "try",
        "--scenario",
        "mods/core/tests/frostbite_slows.ron",
        "--with",
        "core:budget_sentry@5,2",
        "--json",
        "-",
    ];
    let first = rampart(home.path(), &args);
    let second = rampart(home.path(), &args);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert!(first.stdout.len() > 1000);
    assert_eq!(text(&first.stdout), text(&second.stdout));
}

#[test]
fn test_mod_lists_failures_and_script_errors_and_exits_1() {
    let home = tempfile::tempdir().unwrap();
    let mods = Mods::new();
    failing_probe(&mods)
        .file(
            "probe/tests/a_fine.ron",
            "(buildings: [(blueprint: \"core:budget_sentry\", tile: (7, 5))], expect: [AtMost(HullLost, 0)])",
        )
        .file(
            "probe/tests/b_errors.ron",
            r#"(
    buildings: [(blueprint: "probe:prober", tile: (7, 5))],
    waves: [(send: [(attacker: "core:skeleton")])],
    ticks: 5,
    expect: [NoScriptErrors],
)"#,
        )
        .file("probe/tests/c_broken.ron", "(wavs: [])");
    let dir = mods.path().join("probe");
    let out = rampart(
        home.path(),
        &[
            "test-mod",
            dir.to_str().unwrap(),
            "--mods-dir",
            mods.path().to_str().unwrap(),
        ],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("ok   ") && lines[0].contains("a_fine.ron"),
        "{stdout}"
    );
    // Its script's top level ran once, when the battle loaded it.
    assert!(
        lines[1].starts_with("  mod `probe`'s scripts: 1 call, "),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with("FAIL ") && lines[2].contains("b_errors.ron"),
        "{stdout}"
    );
    assert!(
        lines[3].starts_with("  FAILED: no script errors: 5 script errors"),
        "{stdout}"
    );
    assert_eq!(
        lines[4],
        "  script error: [probe] scripts/prober.lua:3: boom … repeated 4 times"
    );
    // Loaded once, then called at each of the 5 ticks; no wall time when untimed.
    assert!(
        lines[5].starts_with("  mod `probe`'s scripts: 6 calls, ")
            && lines[5].contains("; most: scripts/prober.lua ("),
        "{stdout}"
    );
    assert!(!lines[5].contains(" ms"), "{stdout}");
    assert!(
        lines[6].starts_with("FAIL ") && lines[6].contains("c_broken.ron"),
        "{stdout}"
    );
    assert_eq!(lines[7], "mod `probe`: 3 scenarios, 1 passed, 2 failed");
    assert!(
        stderr.contains("unknown field `wavs` in a scenario"),
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `waves`?"), "{stderr}");

    let empty = Mods::new();
    empty.manifest("empty", &["core"]);
    let out = rampart(
        home.path(),
        &["test-mod", empty.path().join("empty").to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("tests"), "{}", text(&out.stderr));
}

#[test]
fn try_exits_1_when_a_script_fails_unless_the_scenario_judges_script_errors() {
    let home = tempfile::tempdir().unwrap();
    let mods = Mods::new();
    failing_probe(&mods);
    let dir = mods.path().to_str().unwrap();
    // The one-blueprint form asks nothing of scripts: the failure alone makes it exit 1.
    let out = rampart(
        home.path(),
        &["try", "probe:prober", "--seconds", "1", "--mods-dir", dir],
    );
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("scripts/prober.lua:3: boom"), "{stdout}");
    assert!(stderr.contains("scripts failed "), "{stderr}");
    // A scenario that measures script errors is judged by its expectation alone.
    let measured = scenario(
        home.path(),
        "measured.ron",
        r#"(
    buildings: [(blueprint: "probe:prober", tile: (7, 5))],
    waves: [(send: [(attacker: "core:skeleton")])],
    ticks: 5,
    expect: [AtLeast(ScriptErrors, 5)],
)"#,
    );
    let out = rampart(
        home.path(),
        &["try", "--scenario", &measured, "--mods-dir", dir],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

/// The page's example is core's test file as it stands, and its output is what `try` prints.
#[test]
fn the_scenario_page_shows_cores_test_and_its_report() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
    let page = std::fs::read_to_string(root.join("docs/modding/scenarios.md")).unwrap();
    let file = "mods/core/tests/frostbite_slows.ron";
    let shown = page
        .split("```")
        .find_map(|b| b.strip_prefix(&format!("ron\n// {file}\n")))
        .expect("the page shows the file");
    let actual = std::fs::read_to_string(root.join(file)).unwrap();
    assert_eq!(shown, actual);
    let home = tempfile::tempdir().unwrap();
    let out = rampart(home.path(), &["try", "--scenario", file]);
    let stdout = text(&out.stdout);
    let report = page
        .split("```")
        .find_map(|b| b.strip_prefix("text\nFrostbite"))
        .expect("the page shows the report");
    assert_eq!(format!("Frostbite{report}"), stdout);
}
