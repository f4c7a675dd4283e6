//! Data alone cannot make the game run away: each case here passes `rampart check` and used to
//! take minutes, gigabytes or forever; now it is bounded, and the bound is stated in
//! `docs/modding/limits.md`.

use crate::common::Mods;
use rampart_core::level::WorldSetup;
use rampart_core::rng::Seed;
use rampart_core::run::LevelSpec;
use rampart_core::worldgen::WorldParams;
use rampart_core::worldgen::scatter::MAX_INSTANCES_PER_TILE;

#[test]
fn scatter_with_zero_radii_and_ten_thousand_tries_stops_at_its_cap() {
    // Both scatter models of core's plateaus with 10 000 tries per tile, no radii and no
    // threshold: 163 s and 1.7 GB for one world before the cap.
    let mods = Mods::new();
    mods.manifest("s", &["core"]).file(
        "s/terrain/bomb.terrain",
        include_str!("../../../../tests/fixtures/limits/scatter_bomb.terrain"),
    );
    let (content, diagnostics) = mods.load_after_core();
    assert!(!diagnostics.has_errors(), "{diagnostics:?}");
    let setup = WorldSetup::generate(&content, "s:bomb", &WorldParams::default(), Seed(7)).unwrap();
    let world = setup.build(&content).unwrap();
    let tiles = world.grid.len();
    let definitions = content.terrain("s:bomb").unwrap().scatter.len();
    let placed = world.models.len();
    assert!(
        placed <= definitions * MAX_INSTANCES_PER_TILE * tiles,
        "{placed}"
    );
    assert!(
        placed > 1000,
        "the models are placed up to the cap: {placed}"
    );
}

/// Core with its level setter overridden by `edit` of it (every field), in a mod `l`.
fn with_levels(
    edit: impl Fn(&str) -> String,
) -> (Mods, std::sync::Arc<rampart_core::content::ContentDb>) {
    let core = include_str!("../../../../mods/core/levels.ron");
    let overriding = core.replacen("\n(\n", "\n(\n    overrides: \"core:levels\",\n", 1);
    let mods = Mods::new();
    mods.manifest("l", &["core"])
        .file("l/levels.ron", &edit(&overriding));
    let (content, diagnostics) = mods.load_after_core();
    assert!(!diagnostics.has_errors(), "{diagnostics:?}");
    (mods, content)
}

#[test]
fn a_fuel_goal_beyond_the_wave_limit_is_refused_instead_of_generating_forever() {
    let (_mods, content) =
        with_levels(|core| core.replacen("fuel_goal: (first: 80", "fuel_goal: (first: 1e308", 1));
    let error = LevelSpec::new(&content, 7, 1).unwrap_err();
    assert!(
        error
            .to_string()
            .contains("more than the 200 a level may have"),
        "{error}"
    );
}

#[test]
fn paths_that_grow_past_the_limit_end_the_run_with_a_reason() {
    let (_mods, content) = with_levels(|core| core.to_string());
    let error = LevelSpec::new(&content, 7, 1_000_000).unwrap_err();
    assert!(error.to_string().contains("level 1000000"), "{error}");
    assert!(LevelSpec::new(&content, 7, 100).is_ok());
}

#[test]
fn numbers_beyond_any_balance_and_endless_spawns_are_refused_where_they_are_written() {
    let mods = Mods::new();
    mods.manifest("n", &["core"])
        .file(
            "n/attackers/hydra.ron",
            r#"(name: "Hydra", size: Small, max_health: 10, speed: 1, min_spacing: 0.5, value: 5,
    spawns_on_death: [(attacker: "core:skeleton", count: 4000000000)])"#,
        )
        .file(
            "n/blueprints/gold.ron",
            r#"(name: "Gold", kind: Economic, rarity: Common, cost: (materials: 1e308))"#,
        );
    let (_, diagnostics) = mods.load_after_core();
    let messages: Vec<String> = diagnostics.iter().map(|d| d.to_string()).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("hydra.ron:2:") && m.contains("from 1 to 100")),
        "{messages:#?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("gold.ron:1:") && m.contains("more than the largest number")),
        "{messages:#?}"
    );
}
