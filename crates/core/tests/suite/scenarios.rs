//! Scenarios played in this process: what the report counts (heals, kills, effects of an
//! ability, a building removed) and when actions happen (between waves, into a wave, once an
//! attacker comes near).

use std::sync::Arc;

use rampart_core::content::ContentDb;
use rampart_core::diagnostics::SourceFile;
use rampart_core::scenario::{self, Report, Scenario};

use crate::common::{Mods, load_repo_with};

/// Plays the scenario written as `text` with `content`.
fn play(content: &Arc<ContentDb>, text: &str) -> Report {
    let scenario: Scenario =
        rampart_core::ron_file::parse(&SourceFile::new("test.ron", text)).expect("a scenario");
    let config = scenario
        .prepare(content)
        .expect("a scenario that can be played");
    scenario::play(content, &scenario, config, false)
}

#[test]
fn heals_and_scripted_damage_are_counted_for_their_building() {
    let mods = Mods::new();
    mods.manifest("med", &["core"])
        .file(
            "med/blueprints/medic.ron",
            &crate::common::blueprint(
                "Medic",
                "Special",
                "range: 3.0, script: \"scripts/medic.lua\",",
            ),
        )
        .file(
            "med/scripts/medic.lua",
            r#"-- Every tick: 1 energy damage to each attacker in range, then half of it healed.
return {
    on_tick = function(self, game)
        local x, y = self:position()
        for _, a in game:attackers_near(x, y, self:query("range")) do
            game:command("damage", { target = a, amount = 1, types = { "energy" }, source = self.entity })
            game:command("heal", { target = a, amount = 0.5, source = self.entity })
        end
    end,
}"#,
        );
    let content = mods.load_with_core();
    let report = play(
        &content,
        r#"(
    // Strong enough to walk past alive, so that every hit is followed by its heal.
    strength: {"core:skeleton": 10.0},
    buildings: [(blueprint: "med:medic", tile: (7, 4))],
    waves: [(send: [(attacker: "core:skeleton", count: 2, every: 40)])],
    expect: [AtLeast(Healing(Tile(7, 4)), 1), AtLeast(DamageOfType(Blueprint("med:medic"), Energy), 2), NoScriptErrors],
)"#,
    );
    let medic = &report.buildings[0];
    assert!(medic.hits > 10, "{medic:?}");
    assert_eq!(medic.damage, f64::from(medic.hits));
    assert_eq!(medic.healing * 2.0, medic.damage);
    assert_eq!(medic.damage_by_type["energy"], medic.damage);
    assert_eq!(report.attackers[0].damage_taken, medic.damage);
    assert!(report.passed, "{:?}", report.expectations);
    // Its script was called every tick it stood (and once to load), nothing was timed.
    let cost = &report.script_cost;
    let script = cost
        .scripts
        .iter()
        .find(|r| r.script.as_deref() == Some("scripts/medic.lua"))
        .expect("the medic's script was called");
    assert_eq!(script.mod_id, "med");
    assert!(script.calls > report.ticks, "{script:?}");
    assert!(script.instructions > script.calls, "{script:?}");
    assert_eq!(cost.wall_ms, 0.0);
}

#[test]
fn a_scenario_bounds_what_a_mods_scripts_cost() {
    let content = Mods::new().load_with_core();
    let text = |bound: &str| {
        format!(
            r#"(
    buildings: [(blueprint: "core:sniper", tile: (7, 4))],
    waves: [(send: [(attacker: "core:skeleton", count: 3, every: 20)])],
    expect: [{bound}],
)"#
        )
    };
    let report = play(
        &content,
        &text(r#"AtLeast(ScriptCalls("core"), 1), AtMost(ScriptInstructions("core"), 1)"#),
    );
    let core = report.script_cost.mods[0].clone();
    assert_eq!(core.mod_id, "core");
    let [calls, instructions] = &report.expectations[..] else {
        panic!("{:?}", report.expectations)
    };
    assert!(calls.passed, "{calls:?}");
    assert_eq!(calls.measured, Some(core.calls as f64));
    assert!(!instructions.passed, "{instructions:?}");
    assert_eq!(instructions.measured, Some(core.instructions as f64));
    assert_eq!(
        instructions.expectation,
        "instructions run by core's scripts at most 1"
    );
    // A script of a mod that was loaded but that nothing called costs nothing; a misspelt one
    // is a mistake in the file, with the name probably meant.
    let script = &report.script_cost.scripts[0];
    let one = format!("{}:{}", script.mod_id, script.script.as_deref().unwrap());
    let report = play(
        &content,
        &text(&format!("AtLeast(ScriptInstructions(\"{one}\"), 1)")),
    );
    assert!(report.passed, "{:?}", report.expectations);
    let typo = one.replacen(".lua", ".lu", 1);
    let scenario: Scenario = rampart_core::ron_file::parse(&SourceFile::new(
        "test.ron",
        text(&format!("AtMost(ScriptInstructions(\"{typo}\"), 1)")),
    ))
    .unwrap();
    let problems = scenario.prepare(&content).expect_err("an unknown script");
    let path = typo.split_once(':').unwrap().1;
    assert_eq!(
        problems[0].message,
        format!("mod `core` has no script `{path}`")
    );
    assert_eq!(
        problems[0].help.as_deref(),
        Some(format!("did you mean `{one}`?").as_str())
    );
}

#[test]
fn kills_are_the_killers_and_every_attacker_is_accounted_for() {
    let content = load_repo_with(&[]);
    let report = play(
        &content,
        r#"(
    strength: {"core:skeleton": 0.5},
    buildings: [(blueprint: "core:sniper", tile: (3, 4)), (blueprint: "core:budget_sentry", tile: (5, 2))],
    waves: [(send: [(attacker: "core:skeleton", count: 6, every: 30)])],
    expect: [AllAttackersDead, AtLeast(Killed(Type("core:skeleton")), 6)],
)"#,
    );
    assert!(report.passed, "{}", report.text());
    let kills: u32 = report.buildings.iter().map(|b| b.kills).sum();
    let skeletons = &report.attackers[0];
    assert_eq!((skeletons.came, skeletons.killed, kills), (6, 6, 6));
    assert_eq!(skeletons.leaked + skeletons.alive + skeletons.taken_away, 0);
    assert_eq!(report.hull.end, report.hull.start);
}

#[test]
fn actions_come_between_waves_into_a_wave_and_when_an_attacker_is_near() {
    let content = load_repo_with(&[]);
    let report = play(
        &content,
        r#"(
    energy: 50,
    buildings: [(blueprint: "core:budget_sentry", tile: (7, 4)), (blueprint: "core:radar", tile: (8, 4))],
    waves: [
        (send: [(attacker: "core:skeleton", count: 3, every: 20)]),
        (send: [(attacker: "core:skeleton", count: 3, every: 20)], pause: 10),
    ],
    actions: [
        (wave: 1, near: (5.0, 3.0), do: Use(blueprint: "core:catalyst", at: (5.0, 3.0))),
        (wave: 1, tick: 5, do: Priority(tile: (7, 4), priority: Strongest)),
        (before_wave: 2, do: Remove(tile: (8, 4))),
    ],
    expect: [NothingRefused, AtLeast(EffectsApplied(Blueprint("core:catalyst"), "catalyzed"), 1)],
)"#,
    );
    assert!(report.passed, "{}", report.text());
    assert!(report.not_done.is_empty(), "{:?}", report.not_done);
    let catalyst = report
        .buildings
        .iter()
        .find(|b| b.blueprint == "core:catalyst")
        .unwrap();
    assert_eq!(catalyst.kind, "ability");
    assert_eq!(catalyst.tile, None);
    // The catalyzed effect lasts until the wave ends: counted in waves, not ticks.
    let catalyzed = catalyst.effects["catalyzed"];
    assert_eq!(catalyzed.waves, u64::from(catalyzed.times));
    assert_eq!(catalyzed.ticks, 0);
    // Used once an attacker was within reach of (5, 3): after the first one walked 5 tiles.
    assert!(catalyst.from_tick > 40, "{catalyst:?}");
    // The Radar went between the waves, and the Sentry's range fell back with it.
    let radar = &report.buildings[1];
    let gone = radar.until_tick.expect("removed");
    let sentry = &report.buildings[0];
    assert!(gone > catalyst.from_tick, "{radar:?}");
    let range = sentry.stats["range"];
    assert_eq!((range.start, range.end), (range.highest, range.lowest));
    assert!(range.start > range.end, "{range:?}");
}

#[test]
fn an_action_whose_time_never_came_is_listed_as_not_done() {
    let content = load_repo_with(&[]);
    let report = play(
        &content,
        r#"(
    waves: [(send: [(attacker: "core:skeleton")])],
    actions: [(wave: 1, near: (3.0, 6.0), do: Use(blueprint: "core:meteor", at: (3.0, 6.0)))],
    ticks: 4000,
)"#,
    );
    assert_eq!(
        report.not_done,
        [
            "use core:meteor at (3, 6) 0 ticks into wave 1, once an attacker is near (3, 6): no \
          attacker came within 0.2 tiles of (3, 6)"
        ]
    );
    assert_eq!(report.end, scenario::report::End::WavesDone);
}
