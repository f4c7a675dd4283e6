//! The battle on a world: walking, splits, the Hub, placement rules, waves, resources.

use std::sync::Arc;

use crate::common::{Mods, attacker, blueprint, wave};
use rampart_core::battle::{
    Battle, BattleConfig, EntityId, Gain, HullDamage, LogKind, Phase, PlayerCommand, Position,
    SpawnAt, WaveSpawns,
};
use rampart_core::content::ContentDb;
use rampart_core::rng::Seed;
use rampart_core::worldgen::World;

/// A 7×5 world: one path start in the west, splitting in two around the middle and joining at
/// the Hub; deposits, obstacles, water and a ramp in the east.
const LAYOUT: &str = "
    0. 0.  0. 0. 0. 0.  0.
    0. 0>  0> 0v 0. 0f  0m
    0> 0^v 0. 0H 0. 0o  0#
    0. 0>  0> 0^ 0. 1.E 0~
    0. 0.  0. 0. 0. 0.  0.
";

fn content() -> (Mods, Arc<ContentDb>) {
    let mods = Mods::new();
    mods.manifest("w", &["core"]);
    mods.file("w/attackers/walker.ron", &attacker("Walker", 10.0, 1.0, ""));
    mods.file(
        "w/attackers/brute.ron",
        &attacker("Brute", 10.0, 2.0, "").replace("Small", "Large"),
    );
    mods.file(
        "w/blueprints/wall.ron",
        &blueprint("Wall", "Special", "cost: (materials: 1)"),
    );
    mods.file(
        "w/blueprints/ramp_hut.ron",
        &blueprint("Ramp Hut", "Special", "placement: Tile(slants: true)"),
    );
    mods.file(
        "w/blueprints/rock_hut.ron",
        &blueprint(
            "Rock Hut",
            "Special",
            "placement: Tile(small_obstacles: true)",
        ),
    );
    mods.file(
        "w/blueprints/drill.ron",
        &blueprint(
            "Drill",
            "Economic",
            "placement: Tile(deposit: Fuel), material_production: 4",
        ),
    );
    mods.file(
        "w/blueprints/loner.ron",
        &blueprint(
            "Loner",
            "Special",
            "placement: Tile(not_adjacent_to_same: true)",
        ),
    );
    mods.file(
        "w/blueprints/slow.ron",
        &blueprint("Slow", "Tower", "cooldown: 1, starting_cooldown: 1"),
    );
    mods.file(
        "w/blueprints/bomb.ron",
        &blueprint("Bomb", "Ability", "cost: (energy: 5)"),
    );
    let content = mods.load_with_core();
    (mods, content)
}

fn battle(content: &Arc<ContentDb>, waves: Vec<WaveSpawns>) -> Battle {
    let mut config = BattleConfig::new(Seed(3));
    config.world = Some(Arc::new(World::from_layout(LAYOUT).unwrap()));
    config.start.hub = Some("core:hub".into());
    config.start.waves = waves;
    Battle::new(content.clone(), config)
}

fn attackers(b: &Battle) -> Vec<(EntityId, Position)> {
    b.entities()
        .filter(|(_, e)| e.kind.attacker().is_some())
        .map(|(id, e)| (id, e.position))
        .collect()
}

#[test]
fn attackers_walk_tile_to_tile_at_their_speed_and_alternate_at_splits() {
    let (_mods, content) = content();
    let mut b = battle(
        &content,
        vec![wave(&[
            (0, "w:walker"),
            (20, "w:walker"),
            (40, "w:walker"),
            (60, "w:walker"),
        ])],
    );
    b.submit(PlayerCommand::StartWave);
    b.step();
    // Spawned outside the world and moved 1/20 of a tile in the first tick.
    let (_, first) = attackers(&b)[0];
    assert!(
        (first.x - (-1.0 + 0.05)).abs() < 1e-9 && first.y == 2.0,
        "{first:?}"
    );
    b.run_ticks(19);
    let (_, p) = attackers(&b)[0];
    assert!(
        (p.x - 0.0).abs() < 1e-9 && p.y == 2.0,
        "one second at 1 tile/s: {p:?}"
    );
    // Two more seconds: through the split tile (1, 2) and one tile into a branch.
    b.run_ticks(40);
    let (_, p) = attackers(&b)[0];
    assert!(
        (p.x - 1.0).abs() < 1e-9 && (p.y - 3.0).abs() < 1e-9,
        "the first takes the first branch: {p:?}"
    );
    b.run_ticks(60);
    let branches: Vec<f64> = attackers(&b).iter().map(|(_, p)| p.y).collect();
    // By now the first (north) has reached the Hub; the others went south, north, south.
    assert_eq!(branches.len(), 3, "{branches:?}");
    assert!(
        branches[0] < 2.0 && branches[1] > 2.0 && branches[2] < 2.0,
        "{branches:?}"
    );
}

#[test]
fn reaching_the_hub_costs_hull_by_size_and_removes_the_attacker() {
    let (_mods, content) = content();
    let mut b = battle(&content, vec![wave(&[(0, "w:walker"), (0, "w:brute")])]);
    let hull = b.player().hull;
    b.submit(PlayerCommand::StartWave);
    // Path length 6 tiles: the brute (2 t/s) arrives after 60 ticks, the walker after 120.
    b.run_ticks(61);
    assert_eq!(b.player().hull, hull - 3.0, "a large attacker costs 3");
    assert_eq!(attackers(&b).len(), 1);
    b.run_ticks(60);
    assert_eq!(b.player().hull, hull - 4.0, "a small one costs 1");
    let reached = b
        .log()
        .iter()
        .filter(|l| {
            matches!(
                l.kind,
                LogKind::Event {
                    chain: "attacker_reached_hub",
                    ..
                }
            )
        })
        .count();
    assert_eq!(reached, 2);
    assert!(b.log().iter().all(|l| !matches!(
        l.kind,
        LogKind::Event {
            chain: "attacker_killed",
            ..
        }
    )));
    // Nothing left: the wave ended and the Hub produced its 10 / 10 / 10.
    assert_eq!(b.phase(), Phase::Build);
    assert_eq!(b.player().fuel, 10.0);
}

#[test]
fn every_refused_placement_says_why() {
    let (_mods, content) = content();
    let mut b = battle(&content, vec![wave(&[(0, "w:walker")])]);
    let refuse =
        |b: &mut Battle, bp: &str, x: f64, y: f64| b.place(bp, Position { x, y }, 0).unwrap_err();
    assert!(refuse(&mut b, "w:wall", 2.0, 3.0).contains("attackers walk there"));
    assert!(
        refuse(&mut b, "w:wall", 3.0, 2.0).contains("attackers walk there"),
        "the Hub's tile is on the path"
    );
    assert!(refuse(&mut b, "w:wall", 6.0, 2.0).contains("large obstacle"));
    assert!(refuse(&mut b, "w:wall", 5.0, 2.0).contains("cannot stand on small obstacles"));
    assert!(refuse(&mut b, "w:wall", 6.0, 1.0).contains("nothing can be built on this ground"));
    assert!(refuse(&mut b, "w:wall", 5.0, 1.0).contains("cannot be built on a slope"));
    assert!(refuse(&mut b, "w:wall", 7.0, 1.0).contains("outside the world"));
    assert!(refuse(&mut b, "w:drill", 4.0, 4.0).contains("rich in fuel"));
    assert!(
        refuse(&mut b, "w:drill", 6.0, 3.0).contains("rich in fuel"),
        "minerals are not fuel"
    );
    assert!(refuse(&mut b, "w:slow", 0.0, 0.0).contains("cooling down for 1 more wave"));
    assert!(refuse(&mut b, "w:bomb", 0.0, 0.0).contains("during a wave"));
    assert!(refuse(&mut b, "core:hub", 0.0, 0.0).contains("placed by the game"));

    b.place("w:ramp_hut", Position { x: 5.0, y: 1.0 }, 0)
        .unwrap();
    b.place("w:rock_hut", Position { x: 5.0, y: 2.2 }, 0)
        .unwrap();
    b.place("w:drill", Position { x: 5.0, y: 3.0 }, 0).unwrap();
    b.place("w:loner", Position { x: 0.0, y: 0.0 }, 0).unwrap();
    assert!(refuse(&mut b, "w:loner", 1.0, 0.0).contains("next to another Loner"));
    b.place("w:loner", Position { x: 1.0, y: 4.0 }, 0).unwrap();
    assert!(refuse(&mut b, "w:wall", 0.0, 0.4).contains("already a building"));
    let materials = b.player().materials;
    b.place("w:wall", Position { x: 4.0, y: 4.0 }, 0).unwrap();
    assert_eq!(b.player().materials, materials - 1.0);
    // The Hub cannot be removed; other buildings can.
    let hub = b.state().hub.unwrap();
    b.submit(PlayerCommand::Remove { entity: hub });
    b.step();
    assert!(b.log().iter().any(|l| matches!(&l.kind, LogKind::Refused { reason, .. } if reason.contains("Hub cannot be removed"))));
    assert!(b.entity(hub).is_some());
}

#[test]
fn build_near_paths_keeps_buildings_next_to_a_path() {
    let (_mods, content) = content();
    let mut world = World::from_layout(LAYOUT).unwrap();
    world.build_near_paths = true;
    let far = rampart_core::worldgen::Pos::new(5, 4);
    assert!(!world.buildable(far) && !world.near_path(far));
    let mut config = BattleConfig::new(Seed(3));
    config.world = Some(Arc::new(world));
    config.start.hub = Some("core:hub".into());
    let mut b = Battle::new(content.clone(), config);
    let err = b
        .place("w:wall", Position { x: 5.0, y: 4.0 }, 0)
        .unwrap_err();
    assert!(err.contains("next to or diagonal to a path"), "{err}");
    // Beside a path (4, 4 touches 3, 3 by a corner) and diagonal to one (0, 0 touches 1, 1).
    b.place("w:wall", Position { x: 4.0, y: 4.0 }, 0).unwrap();
    b.place("w:wall", Position { x: 0.0, y: 0.0 }, 0).unwrap();
}

#[test]
fn the_collection_limits_what_can_be_placed() {
    let (_mods, content) = content();
    let mut config = BattleConfig::new(Seed(3));
    config.world = Some(Arc::new(World::from_layout(LAYOUT).unwrap()));
    config.start.collection = Some(vec!["w:wall".into()]);
    let mut b = Battle::new(content.clone(), config);
    assert!(
        b.place("w:loner", Position { x: 0.0, y: 0.0 }, 0)
            .unwrap_err()
            .contains("do not have the Loner")
    );
    assert!(b.place("w:wall", Position { x: 0.0, y: 0.0 }, 0).is_ok());
}

#[test]
fn cooldowns_count_waves_and_production_comes_after_every_wave() {
    let (_mods, content) = content();
    let empty = || WaveSpawns::default();
    let mut b = battle(&content, vec![empty(), empty(), empty()]);
    let slow = content.blueprint_id("w:slow").unwrap();
    assert_eq!(b.cooldown_left(slow), 1, "starting cooldown");
    b.place("w:drill", Position { x: 5.0, y: 3.0 }, 0).unwrap();
    let start = b.player().clone();
    b.submit(PlayerCommand::StartWave);
    b.step();
    assert_eq!(b.phase(), Phase::Build, "an empty wave ends at once");
    assert_eq!(b.cooldown_left(slow), 0);
    assert_eq!(
        b.player().materials,
        start.materials + 10.0 + 4.0,
        "Hub 10 + drill 4"
    );
    assert_eq!(b.player().fuel, start.fuel + 10.0);
    assert_eq!(b.player().energy, start.energy + 10.0);
    b.place("w:slow", Position { x: 0.0, y: 0.0 }, 0).unwrap();
    assert!(
        b.place("w:slow", Position { x: 4.0, y: 0.0 }, 0)
            .unwrap_err()
            .contains("cooling down")
    );
    b.submit(PlayerCommand::StartWave);
    b.step();
    b.place("w:slow", Position { x: 4.0, y: 0.0 }, 0).unwrap();
    assert_eq!(b.wave(), 2);
    b.submit(PlayerCommand::StartWave);
    b.step();
    b.submit(PlayerCommand::StartWave);
    b.step();
    assert!(b.log().iter().any(
        |l| matches!(&l.kind, LogKind::Refused { reason, .. } if reason.contains("no more waves"))
    ));
}

#[test]
fn energy_is_capped_fuel_wins_and_hull_loses() {
    let (_mods, content) = content();
    let mut b = battle(
        &content,
        vec![wave(&[(0, "w:walker")]), wave(&[(0, "w:walker")])],
    );
    let cap = b.config().start.energy_cap;
    b.command(
        |b| &b.chains.add_energy,
        Gain {
            amount: cap * 3.0,
            source: None,
        },
    );
    assert_eq!(b.player().energy, cap);
    let goal = b.player().fuel_goal;
    b.command(
        |b| &b.chains.add_fuel,
        Gain {
            amount: goal,
            source: None,
        },
    );
    assert_eq!(b.phase(), Phase::Won);
    assert!(b.log().iter().any(|l| l.kind
        == LogKind::Event {
            chain: "level_won",
            entity: None
        }));
    b.submit(PlayerCommand::StartWave);
    b.step();
    assert!(
        b.log()
            .iter()
            .any(|l| matches!(&l.kind, LogKind::Refused { reason, .. } if reason.contains("over")))
    );

    let mut b = battle(&content, vec![]);
    let hull = b.player().hull;
    b.command(
        |b| &b.chains.damage_hull,
        HullDamage {
            amount: hull,
            attacker: None,
        },
    );
    assert_eq!(b.phase(), Phase::Lost);
    assert!(b.log().iter().any(|l| l.kind
        == LogKind::Event {
            chain: "defeat",
            entity: None
        }));
}

#[test]
fn children_of_a_dead_attacker_walk_on_from_where_it_fell() {
    let (_mods, content) = content();
    let mut b = battle(&content, vec![]);
    let blue = content.attacker_id("core:blue_slime").unwrap();
    b.schedule_spawn(0, blue, SpawnAt::Path(0));
    b.run_ticks(30);
    let (slime, at) = attackers(&b)[0];
    b.command(
        |b| &b.chains.damage,
        rampart_core::battle::Damage {
            target: slime,
            amount: 100.0,
            types: [rampart_core::content::DamageType::Physical]
                .into_iter()
                .collect(),
            source: None,
            own_hit: false,
            dealt: 0.0,
        },
    );
    let (child, child_at) = attackers(&b)[0];
    assert_ne!(child, slime);
    assert_eq!(child_at, at);
    assert!(b.entity(child).unwrap().route.is_some());
    b.step();
    assert_ne!(attackers(&b)[0].1, at, "it walks on");
}

#[test]
fn spread_attackers_go_round_the_segments_and_walk_on_from_there() {
    let (_mods, content) = content();
    let mut b = battle(&content, Vec::new());
    let walker = content.attacker_id("w:walker").unwrap();
    let brute = content.attacker_id("w:brute").unwrap();
    let field = b.field().unwrap().clone();
    let segments = field.segment_count();
    assert!(segments >= 2, "{segments} segments");
    // Two ranges, the second carrying on from the first.
    b.spread_attackers(&[walker, brute], 0..segments, 0.25);
    b.spread_attackers(&[walker, brute], segments..segments + 3, 0.25);
    let spread: Vec<_> = b
        .entities()
        .filter(|(_, e)| e.kind.attacker().is_some())
        .map(|(_, e)| e.clone())
        .collect();
    assert_eq!(spread.len(), segments + 3);
    for (n, e) in spread.iter().enumerate() {
        let route = e.route.expect("on the path network");
        let progress = if n < segments { 0.0 } else { 0.25 };
        assert_eq!((route.segment, route.progress), (n % segments, progress));
        let at = field.along_flat(route.segment, route.progress);
        assert_eq!((e.position.x, e.position.y), (at.x, at.y));
        let kind = if n % 2 == 0 { walker } else { brute };
        assert_eq!(e.kind.attacker(), Some(kind), "attacker {n}");
    }
    // Nothing to spread: none appear.
    b.spread_attackers(&[], 0..10, 0.25);
    assert_eq!(attackers(&b).len(), segments + 3);
}
