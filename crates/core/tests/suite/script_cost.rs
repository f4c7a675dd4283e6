//! What scripts cost a battle: each call charged to the script its function was written in, a
//! nested call to its own script and not the one around it, the same calls and instructions in
//! every run and on every thread, wall time only when asked for, kept across hot reload
//! (`rampart simulate --profile` is tested with the other `simulate` tests, in `run_cli.rs`).

use std::sync::Arc;

use crate::common::arena::{Arena, STRAIGHT};
use crate::common::{Mods, load_repo_with};
use rampart_autopilot::play_run_with;
use rampart_core::battle::{Cost, ScriptCosts};
use rampart_core::content::ContentDb;
use rampart_core::run::RunConfig;

/// Loop iterations of `scripts/heavy.lua`'s reaction: each is one interrupt at least.
const LOOP: u64 = 2_000;

/// A mod `costly` (after core): `main.lua` registers a `speed` modifier written in `util.lua`,
/// a reaction to `add_fuel` written in `heavy.lua` that loops [`LOOP`] times, and a timer of its
/// own that gives fuel (so the heavy reaction runs inside main's timer).
fn costly() -> Mods {
    let mods = Mods::new();
    mods.manifest("costly", &["core"])
        .file(
            "costly/scripts/main.lua",
            r#"
local util = require("util")
local heavy = require("heavy")
game:modify("speed", -1, util.slower)
game:react("add_fuel", 1, heavy.work)
game:after(2, function() game:command("add_fuel", { amount = 1 }) end)
"#,
        )
        .file(
            "costly/scripts/util.lua",
            "return { slower = function(speed) return speed * 0.5 end }",
        )
        .file(
            "costly/scripts/heavy.lua",
            &format!(
                "return {{ work = function() local n = 0 for i = 1, {LOOP} do n = n + i end return n end }}"
            ),
        );
    mods
}

fn cost(costs: &ScriptCosts, script: &str) -> Cost {
    costs
        .get("costly", script)
        .unwrap_or_else(|| panic!("no cost for {script}: {costs:#?}"))
}

#[test]
fn calls_are_charged_to_the_script_whose_function_ran() {
    let mut arena = Arena::with_mods(costly(), STRAIGHT);
    arena.no_script_errors();
    let loaded = arena.battle.script_costs();
    // Loading runs each file's chunk once (util and heavy inside main's `require`).
    assert_eq!(cost(&loaded, "scripts/main.lua").calls, 1);
    assert_eq!(cost(&loaded, "scripts/heavy.lua").calls, 1);
    assert!(cost(&loaded, "scripts/main.lua").instructions > 0);

    let slime = arena.walking("core:red_slime", 0);
    for _ in 0..5 {
        arena.battle.query(|b| &b.chains.speed, &slime);
    }
    let asked = arena.battle.script_costs().since(&loaded);
    assert_eq!(
        cost(&asked, "scripts/util.lua").calls,
        5,
        "the modifier is util's, though main registered it: {asked:#?}"
    );
    assert!(asked.get("costly", "scripts/main.lua").is_none());

    let before = arena.battle.script_costs();
    arena.run(3);
    arena.no_script_errors();
    let ran = arena.battle.script_costs().since(&before);
    let heavy = cost(&ran, "scripts/heavy.lua");
    let main = cost(&ran, "scripts/main.lua");
    assert_eq!((heavy.calls, main.calls), (1, 1), "{ran:#?}");
    assert!(
        heavy.instructions >= LOOP,
        "the loop's back-edges are heavy's: {heavy:?}"
    );
    assert!(
        main.instructions < 100,
        "the reaction nested in main's timer is not main's: {main:?}"
    );
    let core = ran.per_mod();
    assert!(core.contains_key("costly"));
    assert_eq!(
        ran.total().instructions,
        core.values().map(|c| c.instructions).sum::<u64>()
    );
    assert_eq!(
        heavy.wall,
        std::time::Duration::ZERO,
        "no wall time unless asked for"
    );
}

#[test]
fn wall_time_is_measured_only_when_asked_for() {
    let mut arena = Arena::with_mods(costly(), STRAIGHT);
    arena.battle.time_scripts(true);
    arena.run(3);
    let timed = arena.battle.script_costs();
    assert!(cost(&timed, "scripts/heavy.lua").wall > std::time::Duration::ZERO);
    arena.battle.time_scripts(false);
    let before = arena.battle.script_costs();
    let slime = arena.walking("core:red_slime", 0);
    arena.battle.query(|b| &b.chains.speed, &slime);
    let untimed = arena.battle.script_costs().since(&before);
    let util = cost(&untimed, "scripts/util.lua");
    assert_eq!((util.calls, util.wall), (1, std::time::Duration::ZERO));
}

#[test]
fn hot_reload_keeps_what_the_scripts_cost_before() {
    let mut arena = Arena::with_mods(costly(), STRAIGHT);
    arena.run(3);
    let before = arena.battle.script_costs();
    let content = arena.content.clone();
    arena.battle.reload_content(content).unwrap();
    let after = arena.battle.script_costs();
    let (was, is) = (
        cost(&before, "scripts/main.lua"),
        cost(&after, "scripts/main.lua"),
    );
    assert_eq!(is.calls, was.calls + 1, "loaded again, on top of before");
    assert!(cost(&after, "scripts/heavy.lua").instructions >= LOOP);
}

/// The calls and instructions of every battle of a short autopilot run, per script.
fn counts_of_a_run(content: &Arc<ContentDb>, seed: u64) -> Vec<(String, String, u64, u64)> {
    let mut costs = ScriptCosts::default();
    play_run_with(
        content,
        RunConfig::new(seed),
        2,
        |battle| battle.time_scripts(true),
        |_, battle| costs.add(&battle.script_costs()),
    )
    .unwrap();
    costs
        .scripts()
        .map(|(m, s, c)| (m.to_string(), s.to_string(), c.calls, c.instructions))
        .collect()
}

#[test]
fn calls_and_instructions_are_the_same_in_every_run_and_thread() {
    let content = load_repo_with(&[]);
    let here = counts_of_a_run(&content, 3);
    assert!(
        here.iter()
            .any(|(m, _, calls, _)| m == "core" && *calls > 0),
        "core's scripts ran: {here:?}"
    );
    assert_eq!(here, counts_of_a_run(&content, 3), "a second run");
    // Two at once, on other threads (each battle stays on the thread that made it).
    let others: Vec<_> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..2)
            .map(|_| s.spawn(|| counts_of_a_run(&content, 3)))
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for other in others {
        assert_eq!(here, other, "on another thread");
    }
}
