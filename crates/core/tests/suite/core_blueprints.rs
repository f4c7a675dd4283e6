//! Every blueprint of the core mod (thesis tables 6.4–6.8) doing what its description says,
//! measured in battles with the real mod files and scripts.

use crate::common::arena::{Arena, PATH_Y, STRAIGHT, gaps};
use rampart_core::battle::{EntityId, Gain, Position, Resource, StatOf};
use rampart_core::content::model::Model;
use rampart_core::content::{Cost, DamageType};

/// Deposits, a plateau two levels up, a small obstacle and a ramp, north of a path along the
/// bottom row.
const ECONOMY: &str = "
    0. 0. 0. 0. 0. 0. 0. 0. 0. 0.
    0. 0f 0m 0. 2. 2. 0. 0o 1S 0.
    0. 0. 0. 0. 2. 2. 0. 0. 0. 0.
    0> 0> 0> 0> 0> 0> 0> 0> 0> 0H
";

fn stat(arena: &Arena, blueprint: &str, entity: Option<EntityId>) -> StatOf {
    StatOf {
        blueprint: arena.content.blueprint_id(blueprint).unwrap(),
        entity,
    }
}

fn range(arena: &mut Arena, entity: EntityId, blueprint: &str) -> f64 {
    let s = stat(arena, blueprint, Some(entity));
    arena.battle.query(|b| &b.chains.range, &s)
}

fn hit_damage(arena: &mut Arena, entity: EntityId, blueprint: &str) -> f64 {
    let s = stat(arena, blueprint, Some(entity));
    arena.battle.query(|b| &b.chains.hit_damage, &s)
}

fn cost(arena: &mut Arena, blueprint: &str) -> Cost {
    let s = stat(arena, blueprint, None);
    arena.battle.query(|b| &b.chains.blueprint_cost, &s)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// A tower at (7, 6) facing a Black Skeleton just inside its range to the south and one just
/// outside it to the east; returns the hits it landed in `ticks` ticks and the skeleton out of
/// range.
fn duel(blueprint: &str, range: f64, ticks: u64) -> (Arena, EntityId, Vec<(u64, f64)>) {
    let mut arena = Arena::new(STRAIGHT);
    let tower = arena.place(blueprint, 7.0, 6.0);
    arena.wave();
    // The older one would be preferred: it must be out of reach.
    let out = arena.standing("core:black_skeleton", 7.0 + range + 0.1, 6.0);
    let inside = arena.standing("core:black_skeleton", 7.0, 6.0 - (range - 0.1));
    arena.run(ticks);
    assert_eq!(
        arena.hp(out),
        180.0,
        "{blueprint} cannot reach {}",
        range + 0.1
    );
    let hits = arena.hits_by(tower);
    assert_eq!(
        hits,
        arena.hits_on(inside),
        "{blueprint} hits only the one in range"
    );
    arena.no_script_errors();
    (arena, tower, hits)
}

/// One row of tables 6.4–6.8: kind, rarity, cost, cooldown and the statistics they print.
struct Row {
    id: &'static str,
    kind: &'static str,
    rarity: &'static str,
    materials: f64,
    energy: f64,
    cooldown: u32,
    range: Option<f64>,
    radius: Option<f64>,
    damage: Option<(f64, &'static [DamageType])>,
    /// Seconds.
    interval: Option<f64>,
}

const fn row(id: &'static str, kind: &'static str, rarity: &'static str, cost: (f64, f64)) -> Row {
    Row {
        id,
        kind,
        rarity,
        materials: cost.0,
        energy: cost.1,
        cooldown: 0,
        range: None,
        radius: None,
        damage: None,
        interval: None,
    }
}

#[test]
fn every_blueprint_has_the_tables_kind_rarity_cost_and_statistics() {
    use DamageType::{Energy, Explosive, HpLoss, Physical};
    let rows = [
        row("dust_refinery", "economic", "common", (5.0, 0.0)),
        row("energy_harvester", "economic", "rare", (15.0, 0.0)),
        Row {
            cooldown: 1,
            ..row("fuel_extractor", "economic", "rare", (30.0, 0.0))
        },
        Row {
            cooldown: 2,
            ..row("matter_replicator", "economic", "rare", (30.0, 0.0))
        },
        row("solar_panel", "economic", "common", (5.0, 0.0)),
        row("surface_drill", "economic", "starter", (10.0, 0.0)),
        Row {
            cooldown: 2,
            range: Some(2.3),
            ..row("amplifier", "special", "legendary", (40.0, 0.0))
        },
        Row {
            range: Some(2.1),
            ..row("frostbite_frontier", "special", "legendary", (25.0, 0.0))
        },
        row("hub", "special", "special", (0.0, 0.0)),
        row("radar", "special", "rare", (10.0, 0.0)),
        Row {
            range: Some(2.9),
            damage: Some((2.0, &[Physical])),
            interval: Some(0.8),
            ..row("budget_sentry", "tower", "starter", (10.0, 0.0))
        },
        Row {
            range: Some(2.4),
            damage: Some((2.0, &[Physical])),
            interval: Some(0.4),
            ..row("double_sentry", "tower", "common", (15.0, 0.0))
        },
        Row {
            range: Some(3.7),
            damage: Some((5.0, &[Physical])),
            interval: Some(0.5),
            ..row("galvanizer", "tower", "rare", (40.0, 10.0))
        },
        Row {
            range: Some(3.3),
            damage: Some((2.0, &[Physical])),
            interval: Some(0.15),
            ..row("gatling_gun", "tower", "common", (40.0, 0.0))
        },
        Row {
            range: Some(3.7),
            radius: Some(1.2),
            damage: Some((4.0, &[Explosive])),
            interval: Some(2.0),
            ..row("mortar", "tower", "starter", (25.0, 0.0))
        },
        Row {
            range: Some(3.4),
            damage: Some((10.0, &[Physical])),
            interval: Some(1.0),
            ..row("predator", "tower", "legendary", (50.0, 0.0))
        },
        Row {
            range: Some(1.6),
            damage: Some((20.0, &[Explosive])),
            interval: Some(2.5),
            ..row("sledgehammer", "tower", "common", (45.0, 0.0))
        },
        Row {
            range: Some(11.1),
            damage: Some((10.0, &[Physical])),
            interval: Some(3.3),
            ..row("sniper", "tower", "common", (20.0, 0.0))
        },
        Row {
            range: Some(3.3),
            radius: Some(1.8),
            damage: Some((4.0, &[Energy])),
            interval: Some(1.9),
            ..row("static_sparker", "tower", "common", (15.0, 0.0))
        },
        Row {
            range: Some(8.1),
            damage: Some((1.0, &[Energy])),
            interval: Some(0.15),
            ..row("ultra_ray", "tower", "rare", (30.0, 0.0))
        },
        Row {
            cooldown: 1,
            radius: Some(0.8),
            ..row("catalyst", "ability", "rare", (0.0, 20.0))
        },
        Row {
            radius: Some(0.75),
            damage: Some((4.0, &[Explosive])),
            ..row("grenade", "ability", "starter", (0.0, 10.0))
        },
        Row {
            cooldown: 1,
            range: Some(2.4),
            damage: Some((3.0, &[HpLoss])),
            interval: Some(1.5),
            ..row("holo_siphon", "ability", "rare", (0.0, 10.0))
        },
        Row {
            radius: Some(2.5),
            damage: Some((25.0, &[Energy])),
            interval: Some(1.0),
            ..row("lightning_storm", "ability", "common", (0.0, 15.0))
        },
        Row {
            radius: Some(1.4),
            damage: Some((16.0, &[Physical, Explosive])),
            ..row("meteor", "ability", "common", (0.0, 25.0))
        },
        Row {
            damage: Some((30.0, &[Energy])),
            ..row("orbital_laser", "ability", "rare", (0.0, 30.0))
        },
        Row {
            cooldown: 1,
            ..row("streamline", "ability", "legendary", (10.0, 10.0))
        },
    ];
    let arena = Arena::new(STRAIGHT);
    assert_eq!(rows.len(), 27);
    // The thesis's 27 and the Relic Cannon, which only events give.
    assert_eq!(arena.content.blueprints.len(), 28, "no more, no fewer");
    let relic = arena.content.blueprint_id("core:relic_cannon").unwrap();
    assert_eq!(
        arena.content.blueprint(relic).rarity,
        rampart_core::content::Rarity::Special
    );
    for r in rows {
        let bp = arena.content.blueprint(
            arena
                .content
                .blueprint_id(&format!("core:{}", r.id))
                .unwrap(),
        );
        let ticks = r.interval.map(|s| (s * 20.0).round() as u32);
        let damage = r
            .damage
            .map(|(d, types)| (d, types.iter().copied().collect()));
        assert_eq!(
            (
                bp.kind.name(),
                bp.rarity.name(),
                bp.cost.materials,
                bp.cost.energy,
                bp.cooldown
            ),
            (r.kind, r.rarity, r.materials, r.energy, r.cooldown),
            "{}",
            r.id
        );
        assert_eq!(
            (
                bp.range,
                bp.radius,
                bp.damage.map(|d| (d, bp.damage_type)),
                bp.interval
            ),
            (r.range, r.radius, damage, ticks),
            "{}",
            r.id
        );
    }
}

// ---- Towers (tables 6.6 and 6.7) ----

#[test]
fn budget_sentries_hit_for_2_every_0_8_s_within_2_9_tiles() {
    // Shots fly for 5 ticks: 7 fired in 100 ticks, 6 landed.
    let (_, _, hits) = duel("core:budget_sentry", 2.9, 100);
    assert_eq!(hits.len(), 6);
    assert!(hits.iter().all(|&(_, d)| d == 2.0), "{hits:?}");
    assert!(gaps(&hits).iter().all(|&g| g == 16), "{hits:?}");
}

#[test]
fn double_sentries_hit_for_2_every_0_4_s_within_2_4_tiles() {
    let (_, _, hits) = duel("core:double_sentry", 2.4, 100);
    assert_eq!(hits.len(), 12);
    assert!(hits.iter().all(|&(_, d)| d == 2.0), "{hits:?}");
    assert!(gaps(&hits).iter().all(|&g| g == 8), "{hits:?}");
}

#[test]
fn a_galvanizer_idle_for_1_8_s_charges_its_next_shot_with_10_energy_damage_and_5_energy() {
    let mut arena = Arena::new(STRAIGHT);
    let galvanizer = arena.place("core:galvanizer", 7.0, 6.0);
    // 40 materials and 10 energy; with no energy, materials pay for it.
    assert_eq!(arena.battle.player().materials, 1000.0 - 50.0);
    arena.wave();
    arena.run(40);
    let target = arena.standing("core:black_skeleton", 7.0, 3.0);
    arena.run(30);
    let hits = arena.hits_by(galvanizer);
    let first = hits[0].0;
    assert_eq!(
        hits,
        vec![
            (first, 5.0),
            (first, 10.0),
            (first + 10, 5.0),
            (first + 20, 5.0)
        ],
        "one charged shot, then plain ones every 0.5 s"
    );
    assert_eq!(arena.battle.player().energy, 5.0);
    // Idle again for 1.8 s: charged again.
    arena.hit(target, 1000.0, DamageType::HpLoss);
    arena.run(40);
    arena.standing("core:black_skeleton", 7.0, 3.0);
    arena.run(10);
    let charged: Vec<_> = arena.hits_by(galvanizer)[4..].to_vec();
    assert_eq!(charged[0].1, 5.0);
    assert_eq!(charged[1], (charged[0].0, 10.0));
    assert_eq!(arena.battle.player().energy, 10.0);
    arena.no_script_errors();
}

#[test]
fn a_gatling_gun_spins_up_from_0_6_s_to_0_15_s_over_5_s_of_shooting() {
    let mut arena = Arena::new(STRAIGHT);
    let gun = arena.place("core:gatling_gun", 7.0, 6.0);
    arena.wave();
    let target = arena.standing("core:black_skeleton", 7.0, 3.0);
    arena.run(160);
    let hits = arena.hits_by(gun);
    assert!(hits.iter().all(|&(_, d)| d == 2.0));
    let g = gaps(&hits);
    assert_eq!(g[0], 12, "it starts 4 times slower: {g:?}");
    assert!(g.windows(2).all(|w| w[1] <= w[0]), "and speeds up: {g:?}");
    let first = hits[0].0;
    let spun: Vec<u64> = hits
        .windows(2)
        .filter(|w| w[0].0 >= first + 100)
        .map(|w| w[1].0 - w[0].0)
        .collect();
    assert!(
        spun.len() > 10 && spun.iter().all(|&g| g == 3),
        "after 5 s: {g:?}"
    );
    // Half a second without a target stops the barrels.
    arena.hit(target, 1000.0, DamageType::HpLoss);
    arena.run(10);
    arena.standing("core:black_skeleton", 7.0, 3.0);
    let before = arena.hits_by(gun).len();
    arena.run(20);
    let again = &arena.hits_by(gun)[before..];
    assert_eq!(gaps(again)[0], 12, "{again:?}");
    arena.no_script_errors();
}

#[test]
fn a_mortar_shell_lands_after_1_s_and_hits_everything_within_1_2_tiles_every_2_s() {
    let mut arena = Arena::new(STRAIGHT);
    let mortar = arena.place("core:mortar", 5.0, 6.0);
    arena.wave();
    let target = arena.standing("core:black_skeleton", 5.0, PATH_Y);
    let near = arena.standing("core:black_skeleton", 6.1, PATH_Y);
    let far = arena.standing("core:black_skeleton", 6.3, PATH_Y);
    arena.run(70);
    let fired = arena.first_shot(mortar);
    let landed = vec![(fired + 20, 4.0), (fired + 60, 4.0)];
    assert_eq!(arena.hits_on(target), landed);
    assert_eq!(arena.hits_on(near), landed);
    assert_eq!(arena.hp(far), 180.0);
    arena.no_script_errors();
}

#[test]
fn a_predator_hits_for_10_and_1_more_with_every_kill() {
    let mut arena = Arena::new(STRAIGHT);
    let predator = arena.place("core:predator", 7.0, 6.0);
    arena.wave();
    arena.standing("core:red_slime", 7.0, 3.0);
    arena.standing("core:red_slime", 7.0, 3.0);
    arena.run(40);
    assert!(arena.attackers().is_empty());
    assert_eq!(hit_damage(&mut arena, predator, "core:predator"), 12.0);
    let target = arena.standing("core:black_skeleton", 7.0, 3.0);
    arena.run(25);
    assert_eq!(
        arena.hits_on(target),
        vec![(arena.hits_on(target)[0].0, 12.0)]
    );
    arena.no_script_errors();
}

#[test]
fn a_sledgehammer_slams_everything_within_1_6_tiles_for_20_every_2_5_s() {
    let mut arena = Arena::new(STRAIGHT);
    let hammer = arena.place("core:sledgehammer", 5.0, 4.0);
    arena.wave();
    let under = arena.standing("core:black_skeleton", 5.0, PATH_Y);
    let beside = arena.standing("core:black_skeleton", 6.0, PATH_Y);
    let away = arena.standing("core:black_skeleton", 6.5, PATH_Y);
    arena.run(60);
    let started = arena.first_shot(hammer);
    let slams = vec![(started + 6, 20.0), (started + 56, 20.0)];
    assert_eq!(arena.hits_on(under), slams, "0.3 s after it starts");
    assert_eq!(arena.hits_on(beside), slams);
    assert_eq!(arena.hp(away), 180.0);
    arena.no_script_errors();
}

#[test]
fn a_sniper_deals_more_the_farther_its_target_up_to_double_at_11_1_tiles() {
    for (x, distance) in [(2.0, 2.0), (11.0, 11.0)] {
        let mut arena = Arena::new(STRAIGHT);
        let sniper = arena.place("core:sniper", 0.0, 6.0);
        arena.wave();
        arena.standing("core:black_skeleton", x, 6.0);
        // Fired at once and 3.3 s later; a shot flies up to 6 ticks.
        arena.run(80);
        let hits = arena.hits_by(sniper);
        assert_eq!(gaps(&hits), vec![66], "every 3.3 s");
        let expected = 10.0 * (1.0 + distance / 11.1);
        assert!(close(hits[0].1, expected), "{hits:?} vs {expected}");
        arena.no_script_errors();
    }
    let mut arena = Arena::new(STRAIGHT);
    let sniper = arena.place("core:sniper", 0.0, 6.0);
    arena.wave();
    let out = arena.standing("core:black_skeleton", 11.2, 6.0);
    arena.run(80);
    assert!(
        arena.hits_by(sniper).is_empty(),
        "no farther than its range"
    );
    assert_eq!(arena.hp(out), 180.0);
}

#[test]
fn a_static_sparker_hits_its_target_for_4_and_3_more_within_1_8_tiles_for_2() {
    let mut arena = Arena::new(STRAIGHT);
    let sparker = arena.place("core:static_sparker", 5.0, 6.0);
    arena.wave();
    let target = arena.standing("core:black_skeleton", 5.0, PATH_Y);
    let jumps = [5.5, 4.0, 6.5].map(|x| arena.standing("core:black_skeleton", x, PATH_Y));
    let fourth = arena.standing("core:black_skeleton", 6.7, PATH_Y);
    let beyond = arena.standing("core:black_skeleton", 3.0, PATH_Y);
    arena.run(40);
    let fired = arena.first_shot(sparker);
    assert_eq!(arena.hits_on(target), vec![(fired, 4.0), (fired + 38, 4.0)]);
    for j in jumps {
        assert_eq!(arena.hits_on(j), vec![(fired, 2.0), (fired + 38, 2.0)]);
    }
    assert_eq!([arena.hp(fourth), arena.hp(beyond)], [180.0, 180.0]);
    arena.no_script_errors();
}

#[test]
fn an_ultra_ray_hits_the_5_nearest_on_its_beam_for_1_every_0_15_s() {
    let mut arena = Arena::new(STRAIGHT);
    // Facing south, down the column x = 5.
    arena.place_turned("core:ultra_ray", 5.0, 6.0, 2);
    arena.wave();
    let on_beam: Vec<EntityId> = [5.5, 5.0, 4.5, 4.0, 3.5, 3.0]
        .iter()
        .map(|&y| arena.standing("core:black_skeleton", 5.0, y))
        .collect();
    let aside = arena.standing("core:black_skeleton", 5.5, 4.0);
    arena.run(30);
    for &id in &on_beam[..5] {
        let hits = arena.hits_on(id);
        assert_eq!(hits.len(), 10, "{hits:?}");
        assert!(hits.iter().all(|&(_, d)| d == 1.0) && gaps(&hits).iter().all(|&g| g == 3));
    }
    assert_eq!([arena.hp(on_beam[5]), arena.hp(aside)], [180.0, 180.0]);
    arena.no_script_errors();
}

// ---- Economic buildings (table 6.4) ----

#[test]
fn each_dust_refinery_standing_raises_the_next_ones_cost_by_5_and_each_produces_5() {
    let mut arena = Arena::new(ECONOMY);
    let mut refineries = Vec::new();
    for (x, price) in [(0.0, 5.0), (2.0, 10.0), (6.0, 15.0)] {
        let before = arena.battle.player().materials;
        refineries.push(arena.place("core:dust_refinery", x, 3.0));
        assert_eq!(before - arena.battle.player().materials, price);
    }
    assert_eq!(cost(&mut arena, "core:dust_refinery").materials, 20.0);
    let next_to = arena
        .battle
        .place("core:dust_refinery", Position { x: 1.0, y: 3.0 }, 0)
        .unwrap_err();
    assert!(next_to.contains("next to another"), "{next_to}");
    arena.wave();
    arena.end_wave();
    for r in &refineries {
        assert_eq!(arena.gains_from(*r, Resource::Materials), vec![5.0]);
    }
    arena.battle.remove(refineries[0]);
    assert_eq!(cost(&mut arena, "core:dust_refinery").materials, 15.0);
    arena.no_script_errors();
}

#[test]
fn an_energy_harvester_turns_40_percent_of_every_material_gain_into_energy() {
    let mut arena = Arena::new(ECONOMY);
    let harvester = arena.place("core:energy_harvester", 0.0, 3.0);
    arena.battle.command(
        |b| &b.chains.add_materials,
        Gain {
            amount: 10.0,
            source: None,
        },
    );
    assert_eq!(arena.battle.player().energy, 4.0);
    // The Hub's 10 materials after a wave bring 4 more, next to its own 10 energy.
    arena.wave();
    arena.end_wave();
    assert_eq!(
        arena.gains_from(harvester, Resource::Energy),
        vec![4.0, 4.0]
    );
    assert_eq!(arena.battle.player().energy, 18.0);
    arena.no_script_errors();
}

#[test]
fn a_fuel_extractor_stands_on_fuel_only_and_produces_10_fuel_per_wave() {
    let mut arena = Arena::new(ECONOMY);
    let refused = arena
        .battle
        .place("core:fuel_extractor", Position { x: 2.0, y: 2.0 }, 0)
        .unwrap_err();
    assert!(refused.contains("rich in fuel"), "{refused}");
    let extractor = arena.place("core:fuel_extractor", 1.0, 2.0);
    arena.wave();
    arena.end_wave();
    assert_eq!(arena.gains_from(extractor, Resource::Fuel), vec![10.0]);
    assert_eq!(arena.battle.player().fuel, 20.0, "and the Hub's 10");
    arena.no_script_errors();
}

#[test]
fn a_matter_replicator_produces_5_then_5_more_after_every_wave() {
    let mut arena = Arena::new(ECONOMY);
    let replicator = arena.place("core:matter_replicator", 0.0, 3.0);
    for _ in 0..3 {
        arena.wave();
        arena.end_wave();
    }
    assert_eq!(
        arena.gains_from(replicator, Resource::Materials),
        vec![5.0, 10.0, 15.0]
    );
    arena.no_script_errors();
}

#[test]
fn a_solar_panel_produces_2_energy_for_every_level_of_height() {
    let mut arena = Arena::new(ECONOMY);
    let low = arena.place("core:solar_panel", 0.0, 3.0);
    let high = arena.place("core:solar_panel", 4.0, 2.0);
    arena.wave();
    arena.end_wave();
    assert_eq!(arena.gains_from(low, Resource::Energy), vec![2.0]);
    assert_eq!(
        arena.gains_from(high, Resource::Energy),
        vec![6.0],
        "two levels up: the third level"
    );
    arena.no_script_errors();
}

#[test]
fn a_surface_drill_produces_5_materials_on_minerals_or_2_fuel_on_fuel() {
    let mut arena = Arena::new(ECONOMY);
    let on_fuel = arena.place("core:surface_drill", 1.0, 2.0);
    let on_minerals = arena.place("core:surface_drill", 2.0, 2.0);
    let refused = arena
        .battle
        .place("core:surface_drill", Position { x: 0.0, y: 3.0 }, 0)
        .unwrap_err();
    assert!(refused.contains("rich in fuel or minerals"), "{refused}");
    arena.wave();
    arena.end_wave();
    assert_eq!(arena.gains_from(on_fuel, Resource::Fuel), vec![2.0]);
    assert!(arena.gains_from(on_fuel, Resource::Materials).is_empty());
    assert_eq!(
        arena.gains_from(on_minerals, Resource::Materials),
        vec![5.0]
    );
    assert!(arena.gains_from(on_minerals, Resource::Fuel).is_empty());
    arena.no_script_errors();
}

// ---- Special buildings (table 6.5) ----

#[test]
fn an_amplifier_adds_3_damage_to_every_tower_within_2_3_tiles() {
    let mut arena = Arena::new(STRAIGHT);
    arena.place("core:amplifier", 5.0, 6.0);
    let near = arena.place("core:budget_sentry", 7.0, 5.0);
    let far = arena.place("core:budget_sentry", 8.0, 6.0);
    assert_eq!(hit_damage(&mut arena, near, "core:budget_sentry"), 5.0);
    assert_eq!(hit_damage(&mut arena, far, "core:budget_sentry"), 2.0);
    arena.wave();
    let target = arena.standing("core:black_skeleton", 7.0, PATH_Y);
    arena.run(10);
    let hits = arena.hits_by(near);
    assert_eq!(hits, vec![(hits[0].0, 5.0)]);
    assert_eq!(arena.hits_on(target).len(), 1, "the far one cannot reach");
    arena.no_script_errors();
}

#[test]
fn a_frostbite_frontier_slows_attackers_in_range_by_25_percent_and_adds_50_percent_energy_damage() {
    let mut arena = Arena::new(STRAIGHT);
    arena.place("core:frostbite_frontier", 5.0, 4.0);
    arena.wave();
    let walker = arena.walking("core:skeleton", 4);
    let outside = arena.standing("core:black_skeleton", 8.0, PATH_Y);
    arena.run(1);
    let x = arena.battle.entity(walker).unwrap().position.x;
    arena.run(20);
    let walked = arena.battle.entity(walker).unwrap().position.x - x;
    assert!(close(walked, 1.2), "1.6 tiles/s × 0.75: {walked}");
    assert_eq!(arena.hit(walker, 4.0, DamageType::Energy), 6.0);
    assert_eq!(arena.hit(walker, 4.0, DamageType::Physical), 4.0);
    assert_eq!(arena.battle.query(|b| &b.chains.speed, &outside), 1.6);
    assert_eq!(arena.hit(outside, 4.0, DamageType::Energy), 4.0);
    arena.no_script_errors();
}

#[test]
fn the_hub_produces_10_of_each_and_loses_at_most_5_hull_per_wave() {
    let mut arena = Arena::new(STRAIGHT);
    let hub = arena.battle.state().hub.unwrap();
    arena.wave();
    for _ in 0..8 {
        arena.walking("core:skeleton", 13);
    }
    arena.run(30);
    assert!(arena.attackers().is_empty());
    assert_eq!(arena.battle.player().hull, 15.0, "8 reached it; 5 counted");
    arena.end_wave();
    for resource in [Resource::Fuel, Resource::Materials, Resource::Energy] {
        assert_eq!(arena.gains_from(hub, resource), vec![10.0]);
    }
    arena.wave();
    arena.walking("core:big_skull", 13);
    arena.run(30);
    assert_eq!(arena.battle.player().hull, 12.0, "a new wave, a new 5");
    arena.no_script_errors();
}

#[test]
fn a_radar_gives_the_four_buildings_next_to_it_30_percent_more_range() {
    let mut arena = Arena::new(STRAIGHT);
    arena.place("core:radar", 5.0, 5.0);
    let next_to = arena.place("core:budget_sentry", 5.0, 6.0);
    let diagonal = arena.place("core:budget_sentry", 6.0, 6.0);
    assert!(close(
        range(&mut arena, next_to, "core:budget_sentry"),
        2.9 * 1.3
    ));
    assert_eq!(range(&mut arena, diagonal, "core:budget_sentry"), 2.9);
    // 3.5 tiles away: only the boosted one reaches it.
    arena.wave();
    let target = arena.standing("core:black_skeleton", 5.0, 2.5);
    arena.run(10);
    assert_eq!(arena.hits_by(next_to).len(), 1);
    assert_eq!(arena.hits_on(target).len(), 1);
    arena.no_script_errors();
}

// ---- Abilities (table 6.8) ----

#[test]
fn a_catalyst_doubles_damage_taken_within_0_8_tiles_and_kills_there_give_1_material() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let caught = arena.standing("core:yellow_skeleton", 5.0, PATH_Y);
    let edge = arena.standing("core:yellow_skeleton", 5.7, PATH_Y);
    let free = arena.standing("core:yellow_skeleton", 5.9, PATH_Y);
    let catalyst = arena.place("core:catalyst", 5.0, PATH_Y);
    assert_eq!(arena.hit(caught, 10.0, DamageType::Physical), 20.0);
    assert_eq!(arena.hit(edge, 10.0, DamageType::Energy), 20.0);
    assert_eq!(arena.hit(free, 10.0, DamageType::Physical), 10.0);
    let materials = arena.battle.player().materials;
    for id in [caught, edge, free] {
        arena.hit(id, 100.0, DamageType::HpLoss);
    }
    assert_eq!(
        arena.gains_from(catalyst, Resource::Materials),
        vec![1.0, 1.0]
    );
    assert_eq!(arena.battle.player().materials, materials + 2.0);
    arena.no_script_errors();
}

#[test]
fn a_grenade_deals_4_to_everything_within_0_75_tiles() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let centre = arena.standing("core:black_skeleton", 5.0, PATH_Y);
    let edge = arena.standing("core:black_skeleton", 5.7, PATH_Y);
    let outside = arena.standing("core:black_skeleton", 5.8, PATH_Y);
    let grenade = arena.place("core:grenade", 5.0, PATH_Y);
    assert_eq!(arena.hits_by(grenade).len(), 2);
    assert_eq!([arena.hp(centre), arena.hp(edge)], [176.0, 176.0]);
    assert_eq!(arena.hp(outside), 180.0);
    assert!(arena.battle.entity(grenade).is_none(), "used up");
    arena.no_script_errors();
}

#[test]
fn a_holo_siphon_hits_everything_in_range_then_siphons_3_from_a_held_target_for_3_waves() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let near = arena.standing("core:black_skeleton", 5.0, PATH_Y);
    let edge = arena.standing("core:black_skeleton", 7.0, PATH_Y);
    let out = arena.standing("core:black_skeleton", 7.5, PATH_Y);
    let used = arena.battle.tick();
    let siphon = arena.place("core:holo_siphon", 5.0, 4.0);
    assert_eq!(arena.hits_on(edge), vec![(used, 3.0)], "at once, in range");
    arena.run(60);
    // Held from the tick it was used: 1.2 s, then every 1.5 s.
    assert_eq!(
        arena.hits_on(near),
        vec![(used, 3.0), (used + 23, 3.0), (used + 53, 3.0)]
    );
    assert_eq!(arena.hits_on(edge).len(), 1);
    assert_eq!(arena.hp(out), 180.0);
    // HP loss: the Black Slime's immunity and any shield do not matter.
    let slime = arena.standing("core:lead_slime", 5.0, 4.5);
    arena.hit(near, 1000.0, DamageType::HpLoss);
    arena.run(31);
    assert_eq!(arena.hits_on(slime), vec![(arena.hits_on(slime)[0].0, 3.0)]);
    // It holds its tile and lasts the wave it was used in and two more.
    for wave in 1..=3 {
        arena.end_wave();
        let refused = arena
            .battle
            .place("core:budget_sentry", Position { x: 5.0, y: 4.0 }, 0)
            .err();
        if wave < 3 {
            assert!(arena.battle.entity(siphon).is_some(), "after wave {wave}");
            assert!(refused.unwrap().contains("already"));
            arena.wave();
        } else {
            assert!(arena.battle.entity(siphon).is_none(), "gone after wave 3");
            assert!(refused.is_none());
        }
    }
    arena.no_script_errors();
}

#[test]
fn a_lightning_storm_strikes_6_random_attackers_within_2_5_tiles_for_25_once_a_second() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let targets = [4.0, 6.0].map(|x| arena.standing("core:black_skeleton", x, PATH_Y));
    let out = arena.standing("core:black_skeleton", 7.6, PATH_Y);
    let used = arena.battle.tick();
    let storm = arena.place("core:lightning_storm", 5.0, PATH_Y);
    arena.run(120);
    let strikes = arena.hits_by(storm);
    let ticks: Vec<u64> = strikes.iter().map(|s| s.0).collect();
    assert_eq!(ticks, (0..6).map(|k| used + 20 * k).collect::<Vec<_>>());
    assert!(strikes.iter().all(|s| s.1 == 25.0));
    let taken = 360.0 - arena.hp(targets[0]) - arena.hp(targets[1]);
    assert_eq!(taken, 150.0);
    assert!(
        arena.hp(targets[0]) < 180.0 && arena.hp(targets[1]) < 180.0,
        "both were picked"
    );
    assert_eq!(arena.hp(out), 180.0);
    assert!(arena.battle.entity(storm).is_none());
    arena.no_script_errors();
}

#[test]
fn a_meteor_lands_after_0_8_s_for_16_within_1_4_tiles_unless_the_wave_ends_first() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let centre = arena.standing("core:black_slime", 5.0, PATH_Y);
    let edge = arena.standing("core:black_skeleton", 6.3, PATH_Y);
    let outside = arena.standing("core:black_skeleton", 6.5, PATH_Y);
    let used = arena.battle.tick();
    arena.place("core:meteor", 5.0, PATH_Y);
    arena.run(20);
    // Physical and explosive: the Black Slime's immunity covers only half of it.
    assert_eq!(arena.hits_on(centre), vec![(used + 16, 16.0)]);
    assert_eq!(arena.hits_on(edge), vec![(used + 16, 16.0)]);
    assert_eq!(arena.hp(outside), 180.0);

    arena.place("core:meteor", 6.5, PATH_Y);
    arena.run(10);
    arena.end_wave();
    arena.wave();
    arena.run(20);
    assert_eq!(arena.hp(outside), 180.0, "the wave ended before it landed");
    arena.no_script_errors();
}

#[test]
fn an_orbital_laser_sweeps_the_world_for_3_s_hitting_each_attacker_in_its_path_once_for_30() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let ahead = [4.0, 8.0, 12.5].map(|x| arena.standing("core:black_skeleton", x, PATH_Y));
    let behind = arena.standing("core:black_skeleton", 1.0, PATH_Y);
    let used = arena.battle.tick();
    // Facing east from x = 2: the line runs north–south and moves 5 tiles a second.
    let laser = arena.place_turned("core:orbital_laser", 2.0, PATH_Y, 1);
    arena.run(70);
    for (id, ticks) in ahead.iter().zip([6, 22, 40]) {
        assert_eq!(arena.hits_on(*id), vec![(used + ticks, 30.0)]);
    }
    assert_eq!(arena.hp(behind), 180.0);
    assert!(arena.battle.entity(laser).is_none(), "gone after 3 s");

    // Facing north instead, the line lies along the path: everything on it is hit at once.
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let all = [1.0, 4.0, 8.0].map(|x| arena.standing("core:black_skeleton", x, PATH_Y));
    let used = arena.battle.tick();
    arena.place_turned("core:orbital_laser", 2.0, PATH_Y, 0);
    arena.run(70);
    for id in all {
        assert_eq!(arena.hits_on(id), vec![(used, 30.0)]);
    }
    arena.no_script_errors();
}

#[test]
fn streamline_makes_other_blueprints_cheaper_reach_farther_and_shoot_faster_but_never_free() {
    let mut arena = Arena::new(STRAIGHT);
    let sentry = arena.place("core:budget_sentry", 5.0, 6.0);
    let gatling = arena.place("core:gatling_gun", 9.0, 6.0);
    let base = |arena: &mut Arena, bp: &str, entity| {
        let s = stat(arena, bp, entity);
        (
            arena.battle.query(|b| &b.chains.blueprint_cost, &s),
            arena.battle.query(|b| &b.chains.range, &s),
            arena.battle.query(|b| &b.chains.radius, &s),
            arena.battle.query(|b| &b.chains.interval, &s),
        )
    };
    for wave in 1..=2 {
        arena.wave();
        arena.place("core:streamline", 5.0, 5.0);
        let n = f64::from(wave);
        let (c, r, _, i) = base(&mut arena, "core:budget_sentry", Some(sentry));
        assert_eq!(c.materials, 10.0 - 2.0 * n);
        assert!(close(r, 2.9 * libm::pow(1.05, n)), "{r}");
        assert!(close(i, 16.0 * libm::pow(0.9, n)), "{i}");
        let (c, _, radius, _) = base(&mut arena, "core:grenade", None);
        assert_eq!(
            c,
            Cost {
                materials: 0.0,
                energy: 10.0
            },
            "abilities stay paid for"
        );
        assert!(close(radius, 0.75 * libm::pow(1.05, n)));
        let (_, _, _, i) = base(&mut arena, "core:gatling_gun", Some(gatling));
        assert!(i >= 3.0, "an interval below 0.25 s is not raised: {i}");
        let (c, _, _, _) = base(&mut arena, "core:streamline", None);
        assert_eq!((c.materials, c.energy), (10.0, 10.0), "only the others");
        arena.end_wave();
    }
    // Down to 0.25 s and no further: 7 uses would take 16 ticks below 8.
    let (c, _, _, _) = base(&mut arena, "core:dust_refinery", None);
    assert_eq!(c.materials, 1.0);
    arena.no_script_errors();
}

// ---- Placement rules the tables state ----

#[test]
fn slopes_small_obstacles_and_deposits_are_respected_as_the_tables_say() {
    let mut arena = Arena::new(ECONOMY);
    let ramp = Position { x: 8.0, y: 2.0 };
    let rock = Position { x: 7.0, y: 2.0 };
    for bp in [
        "core:mortar",
        "core:sledgehammer",
        "core:solar_panel",
        "core:dust_refinery",
    ] {
        let e = arena.battle.place(bp, ramp, 0).unwrap_err();
        assert!(e.contains("slope"), "{bp}: {e}");
    }
    for bp in ["core:budget_sentry", "core:radar"] {
        let id = arena.battle.place(bp, ramp, 0).unwrap();
        arena.battle.remove(id);
    }
    for bp in ["core:sledgehammer", "core:ultra_ray"] {
        let id = arena.battle.place(bp, rock, 0).unwrap();
        arena.battle.remove(id);
    }
    let e = arena.battle.place("core:sniper", rock, 0).unwrap_err();
    assert!(e.contains("small obstacles"), "{e}");
    arena.wave();
    arena.battle.place("core:holo_siphon", rock, 0).unwrap();
    arena.no_script_errors();
}

#[test]
fn every_blueprint_has_a_model_of_parts() {
    let arena = Arena::new(STRAIGHT);
    for b in &arena.content.blueprints {
        // Enough parts for a silhouette of its own, few enough for a crowded map.
        let parts = match &b.model {
            Some(Model::Parts(parts)) => parts.len(),
            _ => 0,
        };
        assert!(
            (4..=12).contains(&parts),
            "{}: {parts} parts of a model",
            b.id
        );
    }
}
