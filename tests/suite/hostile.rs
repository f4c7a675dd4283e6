//! Scripts that misbehave at run time (the fixture mod `tests/fixtures/hostile`), one way per
//! attacker type: each battle keeps ticking without a panic, and what the script did wrong is
//! reported as a script error naming the mod and the script.

use std::sync::Arc;

use crate::common::{hostile_mods, load_dirs, repo_mods};
use rampart::battle::{Battle, BattleConfig, PlayerCommand, Position, SpawnAt};
use rampart::content::ContentDb;
use rampart::lua::ScriptError;
use rampart::rng::Seed;

const TICKS: u64 = 300;

fn content() -> Arc<ContentDb> {
    load_dirs(&[repo_mods(), hostile_mods()])
}

/// A battle of core content in which four attackers of `hostile:<name>` appear, run for
/// [`TICKS`] ticks.
fn battle(name: &str) -> Battle {
    let content = content();
    let id = content
        .attacker_id(&format!("hostile:{name}"))
        .unwrap_or_else(|| panic!("no hostile:{name}"));
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(13)));
    b.schedule(0, PlayerCommand::StartWave).unwrap();
    for i in 0..4u32 {
        let at = Position {
            x: f64::from(i),
            y: 0.0,
        };
        b.schedule_spawn(1 + u64::from(i), id, SpawnAt::Point(at));
    }
    b.run_ticks(TICKS);
    assert_eq!(b.tick(), TICKS, "the battle kept ticking");
    b
}

/// The script errors `hostile:<name>`'s script raised; fails if there are none.
fn errors_of(b: &Battle, name: &str) -> Vec<ScriptError> {
    let file = format!("scripts/{name}.lua");
    let errors: Vec<ScriptError> = b
        .script_errors()
        .filter(|e| e.mod_id == "hostile" && e.file.as_deref() == Some(file.as_str()))
        .cloned()
        .collect();
    assert!(
        !errors.is_empty(),
        "no error reported for {file}: {:?}",
        b.script_errors().collect::<Vec<_>>()
    );
    errors
}

#[test]
fn an_endless_loop_is_stopped_and_reported() {
    let b = battle("loop");
    let errors = errors_of(&b, "loop");
    assert!(errors[0].message.contains("too long"), "{}", errors[0]);
}

#[test]
fn a_memory_hoard_is_stopped_and_reported() {
    let b = battle("memory");
    let errors = errors_of(&b, "memory");
    assert!(
        errors.iter().any(|e| e.message.contains("memory")),
        "{errors:?}"
    );
}

#[test]
#[ignore = "needs the per-mod registration limit per tick (issue 13, deliverable 2)"]
fn a_registration_flood_is_stopped_and_reported() {
    let b = battle("flood");
    // Without a limit the flood ends only when mlua runs out of stack for the functions'
    // references ("out of Lua stack"); the limit must come first and say what it is.
    let errors = errors_of(&b, "flood");
    assert!(errors[0].message.contains("registrations"), "{}", errors[0]);
}

#[test]
#[ignore = "needs the domain checks at the chain boundary (issue 13, deliverable 3)"]
fn query_results_out_of_their_domain_are_refused() {
    let b = battle("nan_query");
    errors_of(&b, "nan_query");
    for (_, e) in b.entities() {
        assert!(e.position.x.is_finite() && e.position.y.is_finite());
    }
}

#[test]
#[ignore = "needs the domain checks at the chain boundary (issue 13, deliverable 3)"]
fn command_amounts_out_of_their_domain_are_refused() {
    let b = battle("nan_command");
    errors_of(&b, "nan_command");
    let p = &b.state().player;
    for value in [p.materials, p.energy, p.fuel, p.hull] {
        assert!(value.is_finite(), "{p:?}");
    }
}

#[test]
#[ignore = "needs spawn positions checked in game:spawn (issue 13, deliverable 1)"]
fn spawns_where_nothing_can_be_are_refused() {
    let b = battle("spawn_abuse");
    errors_of(&b, "spawn_abuse");
    for (_, e) in b.entities() {
        assert!(e.position.x.is_finite() && e.position.y.is_finite());
    }
}
