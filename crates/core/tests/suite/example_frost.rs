//! The example mod `mods/example-frost` (id `frost`): off unless switched on, and then loading
//! next to core with its tower, attacker and terrain type working as their descriptions say.

use crate::common::arena::{Arena, STRAIGHT};
use crate::common::{Mods, load_repo_with};
use rampart_core::battle::ScriptHost;
use rampart_core::content::DamageType;
use rampart_core::rng::Seed;
use rampart_core::worldgen::{WorldParams, generate_world};
use rampart_lua::Limits;

#[test]
fn the_example_is_off_until_switched_on_and_then_loads_next_to_core() {
    let default = Mods::new().load_with_core();
    assert!(default.blueprint_id("frost:icicle_spire").is_none());
    assert!(default.attacker_id("frost:frost_wraith").is_none());

    let content = load_repo_with(&["frost"]);
    assert!(content.blueprint_id("frost:icicle_spire").is_some());
    assert!(content.attacker_id("frost:frost_wraith").is_some());
    assert!(content.terrain("frost:tundra").is_some());
    assert_eq!(content.blueprints.len(), default.blueprints.len() + 1);
    assert_eq!(content.attackers.len(), default.attackers.len() + 1);
    assert!(content.blueprint_id("core:budget_sentry").is_some());
    // What `rampart check` does beyond loading: every script's top level in its sandbox.
    let errors = ScriptHost::check(&content, &Limits::default());
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn an_icicle_spire_hits_for_3_chills_by_30_percent_and_hits_chilled_attackers_for_5() {
    let mut arena = Arena::with_content(load_repo_with(&["frost"]), STRAIGHT);
    let spire = arena.place("frost:icicle_spire", 7.0, 6.0);
    arena.wave();
    let target = arena.standing("core:black_skeleton", 7.0, 4.0);
    arena.run(60);
    let hits = arena.hits_by(spire);
    let first = hits[0].0;
    assert_eq!(
        hits,
        vec![(first, 3.0), (first + 20, 5.0), (first + 40, 5.0)],
        "the first hit chills, the next ones shatter"
    );
    let chill = arena.battle.effect(target, "freezing").unwrap();
    assert_eq!(chill.magnitude, 0.3);
    assert!((arena.battle.query(|b| &b.chains.speed, &target) - 1.12).abs() < 1e-9);
    // Only the spire's own hits shatter.
    assert_eq!(arena.hit(target, 4.0, DamageType::Physical), 4.0);
    arena.no_script_errors();
}

#[test]
fn a_frost_wraith_coats_itself_and_attackers_within_1_5_tiles_in_5_points_of_ice_every_3_s() {
    let mut arena = Arena::with_content(load_repo_with(&["frost"]), STRAIGHT);
    arena.wave();
    let near = arena.standing("core:skeleton", 6.4, 5.0);
    let far = arena.standing("core:skeleton", 6.6, 5.0);
    let wraith = arena.standing("frost:frost_wraith", 5.0, 5.0);
    assert_eq!(arena.hit(near, 8.0, DamageType::Physical), 3.0);
    assert_eq!(arena.hit(far, 8.0, DamageType::Physical), 8.0);
    assert_eq!(arena.hit(wraith, 4.0, DamageType::Energy), 0.0);
    assert_eq!(arena.hit(wraith, 4.0, DamageType::Energy), 3.0);
    // HP loss goes through ice; the next coat comes on tick 60 after the first (the tick
    // running now is the spawn's, so that is 61 steps on).
    assert_eq!(arena.hit(wraith, 2.0, DamageType::HpLoss), 2.0);
    arena.run(60);
    assert_eq!(arena.hit(near, 1.0, DamageType::Physical), 1.0);
    arena.run(1);
    assert_eq!(arena.hit(near, 8.0, DamageType::Physical), 3.0);
    assert_eq!(arena.hp(wraith), 30.0 - 3.0 - 2.0);
    arena.no_script_errors();
}

#[test]
fn the_tundra_makes_worlds_of_snow_and_ice_with_deposits() {
    let content = load_repo_with(&["frost"]);
    let tundra = content.terrain("frost:tundra").unwrap();
    let params = WorldParams::with_lengths(vec![24, 28]);
    let mut surfaces = std::collections::BTreeSet::new();
    for seed in 0..4 {
        let world = generate_world(&params, tundra, Seed(seed))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        surfaces.extend(world.tiles.iter().map(|t| t.surface));
        let deposits = world
            .obstacle_types
            .iter()
            .filter(|o| o.name == "Crystals" || o.name == "GasVent")
            .count();
        assert_eq!(deposits, 2, "seed {seed}: both deposit kinds are declared");
        assert!(world.obstacles.iter().flatten().count() >= 3, "seed {seed}");
    }
    assert_eq!(surfaces.into_iter().collect::<String>(), "IN");
}
