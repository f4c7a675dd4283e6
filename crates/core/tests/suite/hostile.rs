//! Scripts that misbehave at run time (the fixture mod `tests/fixtures/hostile`), one way per
//! attacker type: each battle keeps ticking without a panic, and what the script did wrong is
//! reported as a script error naming the mod and the script.

use std::sync::Arc;

use crate::common::arena::{Arena, STRAIGHT};
use crate::common::{hostile_mods, load_dirs, repo_mods};
use rampart_core::battle::{Battle, LogKind, MAX_ENTITIES, SpawnAt};
use rampart_core::content::ContentDb;
use rampart_lua::ScriptError;

const TICKS: u64 = 300;

fn content() -> Arc<ContentDb> {
    load_dirs(&[repo_mods(), hostile_mods()])
}

/// A battle of core content on the straight test world, a Sniper beside the path (so tower
/// statistics are asked for), in which four attackers of `hostile:<name>` walk the path, run
/// for [`TICKS`] ticks.
fn battle(name: &str) -> Battle {
    let content = content();
    let id = content
        .attacker_id(&format!("hostile:{name}"))
        .unwrap_or_else(|| panic!("no hostile:{name}"));
    let mut arena = Arena::with_content(content, STRAIGHT);
    arena.place("core:sniper", 7.0, 6.0);
    arena.wave();
    for i in 0..4 {
        arena.battle.schedule_spawn(2 + i * 5, id, SpawnAt::Path(0));
    }
    arena.battle.run_ticks(TICKS - arena.battle.tick());
    assert_eq!(arena.battle.tick(), TICKS, "the battle kept ticking");
    arena.battle
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
fn a_registration_flood_is_stopped_and_reported() {
    let b = battle("flood");
    // Without a limit the flood ends only when mlua runs out of stack for the functions'
    // references ("out of Lua stack"); the limit must come first and say what it is.
    let errors = errors_of(&b, "flood");
    assert!(errors[0].message.contains("limit"), "{}", errors[0]);
}

#[test]
fn query_results_out_of_their_domain_are_refused() {
    let b = battle("nan_query");
    errors_of(&b, "nan_query");
    for (_, e) in b.entities() {
        assert!(e.position.x.is_finite() && e.position.y.is_finite());
    }
}

#[test]
fn command_amounts_out_of_their_domain_are_refused() {
    let b = battle("nan_command");
    errors_of(&b, "nan_command");
    let p = &b.state().player;
    for value in [p.materials, p.energy, p.fuel, p.hull] {
        assert!(value.is_finite(), "{p:?}");
    }
}

#[test]
fn spawns_where_nothing_can_be_are_refused() {
    let b = battle("spawn_abuse");
    errors_of(&b, "spawn_abuse");
    for (_, e) in b.entities() {
        assert!(e.position.x.is_finite() && e.position.y.is_finite());
    }
}

#[test]
fn spawning_without_end_stops_at_the_entity_limit() {
    // A hundred spawns per attacker per tick: 120 000 attackers in 300 ticks without a cap.
    let b = battle("spawn_flood");
    assert!(b.entities().count() <= MAX_ENTITIES);
    let errors = errors_of(&b, "spawn_flood");
    assert!(
        errors[0].message.contains("the most it may"),
        "{}",
        errors[0]
    );
    assert_eq!(
        b.log()
            .iter()
            .filter(|l| matches!(l.kind, LogKind::EntityLimit { .. }))
            .count(),
        1,
        "the limit is logged once"
    );
}
