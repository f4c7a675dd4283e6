//! Targeting, line of sight, projectiles and status effects, with exact numbers.

use std::sync::Arc;

use crate::common::{Mods, attacker, blueprint};
use glam::DVec3;
use rampart_core::battle::{
    Battle, BattleConfig, Damage, Effect, EntityId, Lasting, Phase, PlayerCommand, Position,
    Stacking, WaveSpawn, WaveSpawns,
};
use rampart_core::content::{ContentDb, DamageType, Priority};
use rampart_core::rng::Seed;
use rampart_core::worldgen::World;

/// Blueprints with each kind of weapon, and attackers that stand still or walk.
fn content() -> (Mods, Arc<ContentDb>) {
    let mods = Mods::new();
    mods.manifest("c", &[]);
    mods.file("c/attackers/dummy.ron", &attacker("Dummy", 100.0, 1.0, ""));
    mods.file(
        "c/attackers/big.ron",
        &attacker("Big", 100.0, 1.0, "").replace("Small", "Large"),
    );
    let tower = |name: &str, stats: &str, shooter: &str| {
        blueprint(
            name,
            "Tower",
            &format!("damage_type: [Physical], {stats}, behaviour: Shooter(({shooter}))"),
        )
    };
    mods.file(
        "c/blueprints/gun.ron",
        &tower("Gun", "range: 3, damage: 2, interval: 10", ""),
    );
    mods.file(
        "c/blueprints/blind.ron",
        &tower(
            "Blind",
            "range: 3, damage: 2, interval: 10",
            "line_of_sight: false",
        ),
    );
    mods.file(
        "c/blueprints/low.ron",
        &tower(
            "Low",
            "range: 3, damage: 2, interval: 10",
            "aim: NotUp, muzzle_height: 0.1",
        ),
    );
    mods.file(
        "c/blueprints/bolt.ron",
        &tower(
            "Bolt",
            "range: 5, damage: 7, interval: 100",
            "projectile: Straight(speed: 5)",
        ),
    );
    mods.file(
        "c/blueprints/mortar.ron",
        &tower(
            "Mortar",
            "range: 5, damage: 4, interval: 100, radius: 1.2",
            "projectile: Ballistic(flight: 20)",
        ),
    );
    mods.file(
        "c/blueprints/sparker.ron",
        &tower(
            "Sparker",
            "range: 5, damage: 4, interval: 100, radius: 1.8",
            "projectile: Chain(jumps: 2, falloff: 0.5)",
        ),
    );
    mods.file(
        "c/blueprints/ray.ron",
        &tower(
            "Ray",
            "range: 8, damage: 1, interval: 3, placement: Tile(rotatable: true)",
            "shape: Ray(width: 0.4), targets: Best(3), priority: Closest",
        ),
    );
    mods.file(
        "c/blueprints/hammer.ron",
        &tower(
            "Hammer",
            "range: 1.6, damage: 20, interval: 50, delay: 6",
            "targets: All",
        ),
    );
    mods.file(
        "c/blueprints/grenade.ron",
        &blueprint(
            "Grenade",
            "Ability",
            "radius: 0.75, damage: 4, damage_type: [Explosive], behaviour: Blast",
        ),
    );
    mods.file("c/blueprints/meteor.ron", &blueprint("Meteor", "Ability", "radius: 1.4, damage: 16, damage_type: [Physical, Explosive], delay: 16, behaviour: Blast"));
    let content = mods.load_clean();
    (mods, content)
}

/// An open field with a path along the bottom row, a cliff (level 3) and obstacles higher up.
const LAYOUT: &str = "
    0. 0. 0. 0. 0. 0. 0. 0. 0. 0.
    0. 0. 0. 0. 0. 0. 0. 0. 0. 0.
    0. 0. 3. 3. 0. 0# 0. 0o 0. 0.
    0. 0. 0. 0. 0. 0. 0. 0. 0. 0.
    0> 0> 0> 0> 0> 0> 0> 0> 0> 0H
";

fn battle(content: &Arc<ContentDb>) -> Battle {
    let mut config = BattleConfig::new(Seed(9));
    config.world = Some(Arc::new(World::from_layout(LAYOUT).unwrap()));
    config.start.materials = 1000.0;
    // One attacker due long after every test ends keeps the first wave running.
    config.start.waves = vec![WaveSpawns {
        spawns: vec![WaveSpawn {
            delay: 1_000_000,
            path: 0,
            attacker: "c:dummy".into(),
        }],
    }];
    Battle::new(content.clone(), config)
}

fn dummy(b: &mut Battle, content: &ContentDb, x: f64, y: f64) -> EntityId {
    b.spawn_attacker(content.attacker_id("c:dummy").unwrap(), Position { x, y })
}

fn hp(b: &Battle, id: EntityId) -> f64 {
    b.entity(id).map_or(0.0, |e| e.hp)
}

/// Starts a wave; the attackers already in the battle keep it running.
fn wave(b: &mut Battle) {
    b.submit(PlayerCommand::StartWave);
    b.step();
    assert_eq!(b.phase(), Phase::Wave);
}

#[test]
fn line_of_sight_is_blocked_by_cliffs_and_large_obstacles_but_not_small_ones() {
    let world = Arc::new(World::from_layout(LAYOUT).unwrap());
    let field = rampart_core::battle::Field::new(world);
    let at = |x: f64, y: f64, z: f64| DVec3::new(x, y, field.ground(x, y) + z);
    assert!(
        !field.line_of_sight(at(2.5, 4.0, 0.5), at(2.5, 0.0, 0.15)),
        "a cliff is in the way"
    );
    assert!(
        field.line_of_sight(at(2.5, 2.0, 0.5), at(2.5, 0.0, 0.15)),
        "on top of it, the view is clear"
    );
    assert!(
        !field.line_of_sight(at(5.0, 4.0, 0.5), at(5.0, 0.0, 0.15)),
        "a large obstacle is in the way"
    );
    assert!(
        field.line_of_sight(at(5.0, 4.0, 1.2), at(5.0, 0.0, 0.3)),
        "but not over it"
    );
    assert!(
        field.line_of_sight(at(7.0, 4.0, 0.5), at(7.0, 0.0, 0.15)),
        "small obstacles never block"
    );
}

#[test]
fn towers_need_line_of_sight_unless_they_do_not() {
    let (_m, content) = content();
    let mut b = battle(&content);
    let gun = b.place("c:gun", Position { x: 2.0, y: 4.0 }, 0).unwrap();
    let blind = b.place("c:blind", Position { x: 3.0, y: 4.0 }, 0).unwrap();
    wave(&mut b);
    let target = dummy(&mut b, &content, 2.5, 1.2);
    b.step();
    assert_eq!(
        b.entity(gun).unwrap().tower.as_ref().unwrap().aiming_at,
        None,
        "the cliff hides it"
    );
    assert_eq!(
        b.entity(blind).unwrap().tower.as_ref().unwrap().aiming_at,
        Some(target)
    );
    assert_eq!(hp(&b, target), 98.0);
    assert_eq!(b.entity(blind).unwrap().damage_dealt, 2.0);
}

#[test]
fn a_tower_that_cannot_aim_up_ignores_targets_above_its_muzzle() {
    let (_m, content) = content();
    let mut b = battle(&content);
    b.place("c:low", Position { x: 0.0, y: 3.0 }, 0).unwrap();
    wave(&mut b);
    let small = dummy(&mut b, &content, 0.0, 1.0);
    let big = b.spawn_attacker(
        content.attacker_id("c:big").unwrap(),
        Position { x: 1.0, y: 1.0 },
    );
    b.run_ticks(11);
    assert_eq!(
        hp(&b, small),
        100.0,
        "0.15 above the ground is above a 0.1 muzzle"
    );
    assert_eq!(hp(&b, big), 100.0);
}

#[test]
fn instant_hits_every_interval_and_all_six_priorities() {
    let (_m, content) = content();
    let mut b = battle(&content);
    let gun = b.place("c:gun", Position { x: 4.0, y: 1.0 }, 0).unwrap();
    wave(&mut b);
    let dummy_id = content.attacker_id("c:dummy").unwrap();
    // Attackers on the path at different distances from the Hub and the tower, with different HP.
    let on_path = |b: &mut Battle, x: f64, hurt: f64| {
        let route = rampart_core::battle::Route {
            segment: 0,
            progress: 0.0,
        };
        let mut route_at = route;
        let field = b.field().unwrap().clone();
        let seg = (0..field.segment_count())
            .find(|&s| field.segment(s).from.x == x as i32)
            .unwrap();
        route_at.segment = seg;
        let id = b.spawn_attacker_at(dummy_id, Position { x, y: 0.0 }, Some(route_at));
        if hurt > 0.0 {
            b.deal(None, id, hurt, [DamageType::HpLoss].into_iter().collect());
        }
        id
    };
    let a = on_path(&mut b, 2.0, 0.0); // farthest from the Hub and the tower, strongest
    let c = on_path(&mut b, 4.0, 50.0); // closest to the tower, weakest
    let d = on_path(&mut b, 5.0, 10.0); // closest to the Hub
    let aiming = |b: &Battle| b.entity(gun).unwrap().tower.as_ref().unwrap().aiming_at;
    let check = |b: &mut Battle, p: Priority, expected: EntityId| {
        b.submit(PlayerCommand::SetPriority {
            entity: gun,
            priority: p,
        });
        // Hold the attackers still so only the priority changes.
        for id in [a, c, d] {
            b.set_position(id, b.entity(id).unwrap().position);
        }
        b.step();
        assert_eq!(aiming(b), Some(expected), "{p:?}");
    };
    check(&mut b, Priority::First, d);
    check(&mut b, Priority::Last, a);
    check(&mut b, Priority::Closest, c);
    check(&mut b, Priority::Farthest, a);
    check(&mut b, Priority::Weakest, c);
    check(&mut b, Priority::Strongest, a);
    // Damage: 2 per shot every 10 ticks; it has fired once per target it took (ready at once).
    let dealt = b.entity(gun).unwrap().damage_dealt;
    assert_eq!(dealt % 2.0, 0.0);
    assert!(dealt >= 2.0);
}

#[test]
fn straight_projectiles_fly_and_can_miss() {
    let (_m, content) = content();
    let mut b = battle(&content);
    b.place("c:bolt", Position { x: 0.0, y: 3.0 }, 0).unwrap();
    wave(&mut b);
    let target = dummy(&mut b, &content, 3.0, 3.0);
    b.step();
    assert_eq!(b.state().shots.len(), 1);
    assert_eq!(hp(&b, target), 100.0, "still flying");
    // 3 tiles at 5 tiles/s: 12 ticks.
    b.run_ticks(12);
    assert_eq!(hp(&b, target), 93.0);
    assert!(b.state().shots.is_empty());

    let mut b = battle(&content);
    b.place("c:bolt", Position { x: 0.0, y: 3.0 }, 0).unwrap();
    wave(&mut b);
    let dodger = dummy(&mut b, &content, 3.0, 3.0);
    b.step();
    b.set_position(dodger, Position { x: 3.0, y: 4.0 });
    b.run_ticks(30);
    assert_eq!(hp(&b, dodger), 100.0, "it stepped aside");
    assert!(b.state().shots.is_empty(), "the shot flew past and ended");
}

#[test]
fn shells_land_after_their_flight_and_hit_everything_around() {
    let (_m, content) = content();
    let mut b = battle(&content);
    b.place("c:mortar", Position { x: 0.0, y: 3.0 }, 0).unwrap();
    wave(&mut b);
    let first = dummy(&mut b, &content, 4.0, 3.0);
    let near = dummy(&mut b, &content, 4.0, 4.0);
    let far = dummy(&mut b, &content, 4.0, 1.0);
    b.run_ticks(20);
    assert_eq!(hp(&b, first), 100.0, "in the air for 20 ticks");
    b.step();
    assert_eq!(
        (hp(&b, first), hp(&b, near), hp(&b, far)),
        (96.0, 96.0, 100.0)
    );
}

#[test]
fn chains_jump_to_the_nearest_with_less_damage() {
    let (_m, content) = content();
    let mut b = battle(&content);
    b.place("c:sparker", Position { x: 0.0, y: 3.0 }, 0)
        .unwrap();
    wave(&mut b);
    let target = dummy(&mut b, &content, 1.0, 3.0);
    let second = dummy(&mut b, &content, 2.0, 3.0);
    let third = dummy(&mut b, &content, 2.5, 3.0);
    let fourth = dummy(&mut b, &content, 2.6, 3.0);
    let out_of_reach = dummy(&mut b, &content, 3.0, 1.0);
    b.step();
    let hps: Vec<f64> = [target, second, third, fourth, out_of_reach]
        .iter()
        .map(|&id| hp(&b, id))
        .collect();
    assert_eq!(
        hps,
        [96.0, 98.0, 98.0, 100.0, 100.0],
        "two jumps at half damage, nearest first"
    );
}

#[test]
fn a_ray_hits_the_nearest_few_in_its_direction() {
    let (_m, content) = content();
    let mut b = battle(&content);
    // Facing east (one quarter turn) along row 3.
    b.place("c:ray", Position { x: 0.0, y: 3.0 }, 1).unwrap();
    wave(&mut b);
    let in_line: Vec<EntityId> = (1..=4)
        .map(|x| dummy(&mut b, &content, x as f64, 3.0))
        .collect();
    let beside = dummy(&mut b, &content, 2.0, 2.0);
    b.step();
    let hps: Vec<f64> = in_line.iter().map(|&id| hp(&b, id)).collect();
    assert_eq!(hps, [99.0, 99.0, 99.0, 100.0]);
    assert_eq!(hp(&b, beside), 100.0);
}

#[test]
fn a_slam_lands_after_its_delay_on_everything_in_range() {
    let (_m, content) = content();
    let mut b = battle(&content);
    b.place("c:hammer", Position { x: 0.0, y: 3.0 }, 0).unwrap();
    wave(&mut b);
    let first = dummy(&mut b, &content, 1.0, 3.0);
    b.step();
    let late = dummy(&mut b, &content, 0.0, 4.0);
    b.run_ticks(5);
    assert_eq!(hp(&b, first), 100.0);
    b.step();
    assert_eq!(
        (hp(&b, first), hp(&b, late)),
        (80.0, 80.0),
        "both in range when it lands"
    );
}

#[test]
fn blasts_land_at_once_or_after_their_delay_and_a_wave_end_cancels_them() {
    let (_m, content) = content();
    let mut b = battle(&content);
    wave(&mut b);
    let target = dummy(&mut b, &content, 5.0, 3.0);
    let grenade = b
        .place("c:grenade", Position { x: 5.5, y: 3.0 }, 0)
        .unwrap();
    assert_eq!(hp(&b, target), 96.0);
    assert!(
        b.entity(grenade).is_none(),
        "a grenade is gone once it blew"
    );
    b.place("c:meteor", Position { x: 5.0, y: 3.0 }, 0).unwrap();
    // Placed before tick t runs, it lands in tick t + 16.
    b.run_ticks(16);
    assert_eq!(hp(&b, target), 96.0);
    b.step();
    assert_eq!(hp(&b, target), 80.0, "the meteor lands after 16 ticks");

    // Used just before the wave ends, a meteor never lands.
    let meteor = b.place("c:meteor", Position { x: 5.0, y: 3.0 }, 0).unwrap();
    b.deal(
        None,
        target,
        100.0,
        [DamageType::HpLoss].into_iter().collect(),
    );
    b.step();
    b.finish_wave();
    assert!(b.entity(meteor).is_none(), "the wave's end took it");
    b.submit(PlayerCommand::StartWave);
    b.step();
    let next = dummy(&mut b, &content, 5.0, 3.0);
    b.run_ticks(20);
    assert_eq!(hp(&b, next), 100.0);
}

fn effect(name: &str, lasting: Lasting, magnitude: f64) -> Effect {
    Effect {
        name: name.into(),
        lasting,
        magnitude,
        source: None,
        age: 0,
    }
}

#[test]
fn the_seven_built_in_effects() {
    let (_m, content) = content();
    let mut b = battle(&content);
    let gun = b.place("c:gun", Position { x: 0.0, y: 3.0 }, 0).unwrap();
    wave(&mut b);

    // Burning: 3 energy damage a second for 2 seconds.
    let burnt = dummy(&mut b, &content, 9.0, 4.0);
    b.apply_effect(
        burnt,
        effect("burning", Lasting::Ticks(40), 3.0),
        Stacking::Refresh,
    );
    b.run_ticks(60);
    assert_eq!(hp(&b, burnt), 94.0);
    assert!(b.effect(burnt, "burning").is_none(), "it ran out");

    // Freezing: 25 % slower while it lasts.
    b.apply_effect(
        burnt,
        effect("freezing", Lasting::Ticks(5), 0.25),
        Stacking::Refresh,
    );
    assert_eq!(b.query(|b| &b.chains.speed, &burnt), 0.75);
    b.run_ticks(5);
    assert_eq!(b.query(|b| &b.chains.speed, &burnt), 1.0);

    // Shield: absorbs 5, then breaks; HP loss goes straight through.
    b.apply_effect(
        burnt,
        effect("shield", Lasting::Ticks(1000), 5.0),
        Stacking::Add,
    );
    assert_eq!(
        b.deal(
            None,
            burnt,
            3.0,
            [DamageType::Physical].into_iter().collect()
        ),
        0.0
    );
    assert_eq!(
        b.deal(None, burnt, 3.0, [DamageType::HpLoss].into_iter().collect()),
        3.0
    );
    assert_eq!(
        b.deal(
            None,
            burnt,
            3.0,
            [DamageType::Physical].into_iter().collect()
        ),
        1.0
    );
    assert!(b.effect(burnt, "shield").is_none());

    // Stealth: the gun cannot target it.
    let hidden = dummy(&mut b, &content, 1.0, 3.0);
    b.apply_effect(
        hidden,
        effect("stealth", Lasting::Ticks(30), 0.0),
        Stacking::Refresh,
    );
    b.run_ticks(20);
    assert_eq!(hp(&b, hidden), 100.0);
    b.run_ticks(11);
    assert!(hp(&b, hidden) < 100.0, "visible again");

    // Overclocked: 50 % faster (interval 10 → 6.67) for a wave.
    let stat = rampart_core::battle::StatOf {
        blueprint: content.blueprint_id("c:gun").unwrap(),
        entity: Some(gun),
    };
    b.apply_effect(
        gun,
        effect("overclocked", Lasting::Waves(1), 0.0),
        Stacking::Refresh,
    );
    assert!((b.query(|b| &b.chains.interval, &stat) - 10.0 / 1.5).abs() < 1e-9);

    // Electrified: the next 2 shots deal 3 extra energy damage; three shots take 30 ticks.
    let before = hp(&b, hidden);
    b.apply_effect(
        gun,
        effect("electrified", Lasting::Shots(2), 3.0),
        Stacking::Add,
    );
    b.run_ticks(30);
    assert_eq!(
        before - hp(&b, hidden),
        3.0 * 2.0 + 2.0 * 3.0,
        "three shots, two of them electrified"
    );
    assert!(b.effect(gun, "electrified").is_none());

    // Paralyzed: the gun does nothing.
    b.apply_effect(
        gun,
        effect("paralyzed", Lasting::Ticks(40), 0.0),
        Stacking::Refresh,
    );
    let before = hp(&b, hidden);
    b.run_ticks(40);
    assert_eq!(hp(&b, hidden), before);

    // Waves: overclocked ends with the wave.
    for id in [burnt, hidden] {
        b.command(
            |b| &b.chains.damage,
            Damage {
                target: id,
                amount: 1000.0,
                types: [DamageType::HpLoss].into_iter().collect(),
                source: None,
                own_hit: false,
                dealt: 0.0,
            },
        );
    }
    b.finish_wave();
    assert_eq!(b.phase(), Phase::Build);
    assert!(b.effect(gun, "overclocked").is_none());
}
