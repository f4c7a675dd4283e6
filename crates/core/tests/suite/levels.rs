//! The level setter: the core `levels.ron`, what it makes of each level, and the errors and
//! overrides of mods' `levels.ron` files.

use crate::common::Mods;
use rampart_core::content::ContentDb;
use rampart_core::run::LevelSpec;

fn core() -> std::sync::Arc<ContentDb> {
    Mods::new().load_with_core()
}

/// Errors of loading `mods` after core, as `file:line:column: message` strings.
fn errors(mods: &Mods) -> Vec<String> {
    let (_, diagnostics) = mods.load_after_core();
    diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.to_string())
        .collect()
}

#[test]
fn core_levels_grow_harder_and_keep_their_promises() {
    let content = core();
    let setter = content.levels.as_ref().expect("core has a level setter");
    assert_eq!(setter.id, "core:levels");
    let hub_fuel = content
        .blueprint(content.blueprint_id(&setter.hub).unwrap())
        .fuel_production
        .unwrap();
    let mut last: Option<LevelSpec> = None;
    for level in 1..=14 {
        let spec = LevelSpec::new(&content, 7, level).unwrap();
        let (rule, _) = setter.rule(level);
        assert_eq!(spec.path_lengths.len(), rule.lengths.len(), "level {level}");
        assert!(spec.path_lengths.iter().all(|&l| l >= rule.min_length));
        assert!(content.terrain(&spec.terrain).is_some());
        assert_eq!(spec.wave_count, (spec.fuel_goal / hub_fuel).ceil() as u32);
        let max_value = rule.attackers.max_value.at(level - rule.from);
        assert!(!spec.pool.is_empty());
        for a in spec.pool.attackers() {
            assert!(a.value <= max_value, "level {level}: {} too strong", a.id);
        }
        if let Some(prev) = &last {
            assert!(spec.fuel_goal > prev.fuel_goal, "fuel goal grows");
            assert!(spec.params.capacity.first >= prev.params.capacity.first);
            assert!(spec.path_lengths.len() >= prev.path_lengths.len());
        }
        last = Some(spec);
    }
}

#[test]
fn levels_are_the_same_for_a_seed_and_vary_between_seeds() {
    let content = core();
    let a = LevelSpec::new(&content, 3, 4).unwrap();
    assert_eq!(a, LevelSpec::new(&content, 3, 4).unwrap());
    let terrains: std::collections::BTreeSet<String> = (0..30)
        .map(|seed| LevelSpec::new(&content, seed, 4).unwrap().terrain)
        .collect();
    assert!(terrains.len() > 1, "every loaded terrain type is in play");
    assert!(LevelSpec::new(&content, 3, 0).is_err());
}

#[test]
fn levels_draw_their_attacker_types_per_seed_and_keep_the_weakest() {
    let mods = Mods::new();
    mods.manifest("picky", &["core"]).file(
        "picky/levels.ron",
        "(overrides: \"core:levels\", levels: [(from: 1, lengths: [20], fuel_goal: (first: 10),\n\
         materials: (first: 5), difficulty: (first: 1), attackers: (max_value: (first: 100), types: 2))])",
    );
    let content = mods.load_with_core();
    let weakest = content
        .attackers
        .iter()
        .filter(|a| a.value <= 100.0)
        .min_by(|a, b| a.value.total_cmp(&b.value))
        .unwrap()
        .id
        .clone();
    let pools: std::collections::BTreeSet<Vec<String>> = (0..30)
        .map(|seed| {
            let spec = LevelSpec::new(&content, seed, 1).unwrap();
            let ids: Vec<String> = spec.pool.attackers().iter().map(|a| a.id.clone()).collect();
            assert_eq!(ids.len(), 2, "seed {seed}: {ids:?}");
            assert!(ids.contains(&weakest), "seed {seed}: {ids:?}");
            ids
        })
        .collect();
    assert!(
        pools.len() > 1,
        "the second type is drawn per seed: {pools:?}"
    );
}

#[test]
fn a_mod_overrides_fields_and_keeps_the_rest() {
    let mods = Mods::new();
    mods.manifest("harder", &["core"]).file(
        "harder/levels.ron",
        "(overrides: \"core:levels\", collection_limit: 5, hull: 7)",
    );
    let content = mods.load_with_core();
    let setter = content.levels.as_ref().unwrap();
    assert_eq!(setter.collection_limit, 5);
    assert_eq!(setter.hull, 7.0);
    assert_eq!(setter.offers, 3, "fields not given are kept");
    assert_eq!(setter.id, "core:levels");
}

#[test]
fn broken_levels_files_are_reported_where_they_are_wrong() {
    let cases: [(&str, &str, &str); 6] = [
        (
            "(overrides: \"core:levels\",\n collection_limt: 5)",
            "levels.ron:2:2",
            "unknown field `collection_limt`",
        ),
        (
            "(hub: \"core:hub\", hull: 3, collection_limit: 2, offers: 1, rarity_odds: [], levels: [])",
            "levels.ron:1:1",
            "already defined by `core:levels`",
        ),
        (
            "(overrides: \"core:level\", hull: 3)",
            "levels.ron:1:13",
            "no level setter `core:level`",
        ),
        (
            "(overrides: \"core:levels\",\n levels: [(from: 1, lengths: [20], fuel_goal: (first: 10), materials: (first: 5),\n difficulty: (first: 1), attackers: (max_value: (first: 9), include: [\"core:red_slim\"]))])",
            "levels.ron:3:71",
            "there is no attacker type `core:red_slim`",
        ),
        (
            "(overrides: \"core:levels\",\n levels: [(from: 2, lengths: [20], fuel_goal: (first: 10), materials: (first: 5),\n difficulty: (first: 1), attackers: (max_value: (first: 9)))])",
            "levels.ron:2:12",
            "must start at level 1",
        ),
        (
            "(overrides: \"core:levels\",\n levels: [(from: 1, lengths: [20], fuel_goal: (first: 10), materials: (first: 5),\n difficulty: (first: 1), terrains: [\"core:hils\"], attackers: (max_value: (first: 9)))])",
            "levels.ron:3:37",
            "there is no terrain type `core:hils`",
        ),
    ];
    for (text, at, message) in cases {
        let mods = Mods::new();
        mods.manifest("broken", &["core"])
            .file("broken/levels.ron", text);
        let errors = errors(&mods);
        assert!(
            errors.iter().any(|e| e.contains(at) && e.contains(message)),
            "expected `{message}` at {at}, got {errors:#?}"
        );
    }
}

#[test]
fn a_level_on_a_terrain_type_with_errors_points_at_those_errors() {
    // The terrain file's own error is the mistake; the levels that name it say so instead of
    // claiming the type does not exist (and suggesting another).
    let mods = Mods::new();
    mods.manifest("broken", &["core"])
        .file("broken/terrain/maze.terrain", "display_name Maze\nbuild_near_paths maybe\n")
        .file(
            "broken/levels.ron",
            "(overrides: \"core:levels\",\n designs: [(level: 1, terrain: \"broken:maze\", path_lengths: [20],\n attackers: [\"core:red_slime\"], wave_count: 2, fuel_goal: 20, materials: 30)])",
        );
    let errors = errors(&mods);
    assert!(
        errors.iter().any(|e| e.contains("maze.terrain:2:18")),
        "{errors:#?}"
    );
    assert!(
        errors.iter().any(|e| e.contains("levels.ron:2:32")
            && e.contains("terrain type `broken:maze` has errors (reported at its file)")),
        "{errors:#?}"
    );
    assert!(
        !errors
            .iter()
            .any(|e| e.contains("there is no terrain type")),
        "{errors:#?}"
    );
}

#[test]
fn a_broken_override_leaves_no_level_setter_and_runs_say_why() {
    let mods = Mods::new();
    mods.manifest("broken", &["core"]).file(
        "broken/levels.ron",
        "(overrides: \"core:levels\", hub: \"core:nothing\")",
    );
    let (content, _) = mods.load_after_core();
    assert!(content.levels.is_none());
    let err = LevelSpec::new(&content, 1, 1).unwrap_err();
    assert!(err.to_string().contains("levels.ron"), "{err}");
}

/// Elite and boss battles: harder waves and more fuel to win, from `elite` and `boss` in
/// `levels.ron`; a boss level's boss comes first in its last wave.
#[test]
fn elite_and_boss_levels_are_harder_and_the_boss_leads_the_last_wave() {
    use rampart_core::run::LevelKind;
    let content = core();
    let setter = content.levels.as_ref().unwrap();
    let normal = LevelSpec::new(&content, 4, 6).unwrap();
    let elite = LevelSpec::of_kind(&content, 4, 6, LevelKind::Elite).unwrap();
    let boss = LevelKind::Boss("core:slime_queen".into());
    let boss = LevelSpec::of_kind(&content, 4, 6, boss).unwrap();
    assert!((elite.fuel_goal - normal.fuel_goal * setter.elite.fuel_goal).abs() < 1e-9);
    assert!((boss.fuel_goal - normal.fuel_goal * setter.boss.fuel_goal).abs() < 1e-9);
    assert!(
        elite.wave_count > normal.wave_count,
        "more fuel, more waves"
    );
    let ratio = elite.params.capacity.first / normal.params.capacity.first;
    assert!((ratio - setter.elite.difficulty).abs() < 1e-9, "{ratio}");
    assert_eq!(
        (&elite.terrain, &elite.path_lengths),
        (&normal.terrain, &normal.path_lengths),
        "the same level otherwise"
    );
    let waves = boss.waves(4).unwrap();
    let spawns = boss.spawns(&waves);
    assert_eq!(spawns.len(), boss.wave_count as usize);
    let first = &spawns.last().unwrap().spawns[0];
    assert_eq!(
        (first.attacker.as_str(), first.delay),
        ("core:slime_queen", 0)
    );
    let bosses = spawns
        .iter()
        .flat_map(|w| &w.spawns)
        .filter(|s| s.attacker == "core:slime_queen")
        .count();
    assert_eq!(bosses, 1);
    let err = LevelSpec::of_kind(&content, 4, 6, LevelKind::Boss("core:skeleton".into()))
        .unwrap_err()
        .to_string();
    assert!(err.contains("is not a boss"), "{err}");
}
