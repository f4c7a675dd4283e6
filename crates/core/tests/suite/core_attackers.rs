//! Every attacker type of the core mod (thesis tables 6.2 and 6.3) doing what its description
//! says, measured in battles with the real mod files and scripts.

use crate::common::arena::{Arena, PATH_Y, STRAIGHT};
use rampart_core::battle::{Figure, LogKind, Visual};
use rampart_core::content::colour::Rgb;
use rampart_core::content::model::{Model, Part};
use rampart_core::content::{DamageType, Size};

/// The tables' speed (tiles/s) and HP of every attacker.
const STATS: [(&str, f64, f64); 26] = [
    ("red_slime", 1.0, 5.0),
    ("blue_slime", 1.4, 10.0),
    ("green_slime", 1.8, 15.0),
    ("yellow_slime", 3.2, 20.0),
    ("pink_slime", 3.5, 25.0),
    ("black_slime", 1.8, 30.0),
    ("lead_slime", 1.0, 35.0),
    ("skeleton", 1.6, 20.0),
    ("yellow_skeleton", 1.6, 60.0),
    ("black_skeleton", 1.6, 180.0),
    ("armored_skeleton", 0.8, 40.0),
    ("yellow_armored_skeleton", 0.8, 120.0),
    ("black_armored_skeleton", 0.8, 360.0),
    ("big_skull", 1.2, 10.0),
    ("big_yellow_skull", 1.2, 30.0),
    ("big_black_skull", 1.2, 90.0),
    ("coffin", 0.4, 80.0),
    ("yellow_coffin", 0.4, 240.0),
    ("black_coffin", 0.4, 720.0),
    ("space_jellyfish", 0.8, 8.0),
    ("blue_space_jellyfish", 0.8, 40.0),
    ("green_space_jellyfish", 0.8, 200.0),
    ("fire_spirit", 3.0, 6.0),
    ("forest_spirit", 2.0, 15.0),
    ("protector", 1.4, 100.0),
    ("druid", 1.0, 120.0),
];

fn core(name: &str) -> String {
    format!("core:{name}")
}

#[test]
fn every_attacker_walks_at_its_speed_and_dies_at_its_hp() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    for (name, speed, hp) in STATS {
        let walker = arena.walking(&core(name), 0);
        arena.run(20);
        let x = arena.battle.entity(walker).unwrap().position.x;
        assert!(
            (x - speed).abs() < 1e-9,
            "{name} walked {x} tiles in a second, not {speed}"
        );
        assert_eq!(arena.hp(walker), hp, "{name}");
        // HP loss ignores shields and resistances: exactly its HP kills it.
        assert_eq!(arena.hit(walker, hp - 0.5, DamageType::HpLoss), hp - 0.5);
        assert!(arena.battle.entity(walker).is_some(), "{name} survives");
        assert_eq!(arena.hit(walker, 1.0, DamageType::HpLoss), 0.5);
        assert!(arena.battle.entity(walker).is_none(), "{name} dies");
        // Clear whatever it left behind for the next one.
        while !arena.attackers().is_empty() {
            let id = arena
                .battle
                .entities()
                .find(|(_, e)| e.kind.attacker().is_some())
                .unwrap()
                .0;
            arena.hit(id, 1e6, DamageType::HpLoss);
        }
    }
    arena.no_script_errors();
}

#[test]
fn the_tables_large_attackers_are_large_and_the_others_small() {
    let arena = Arena::new(STRAIGHT);
    let drawn = arena
        .content
        .attackers
        .iter()
        .filter(|a| a.size != Size::Boss)
        .count();
    assert_eq!(
        drawn, 26,
        "the tables' types, no more, no fewer, besides the act bosses"
    );
    let large: Vec<&str> = STATS
        .iter()
        .map(|s| s.0)
        .filter(|name| {
            let a = arena.content.attacker_id(&core(name)).unwrap();
            arena.content.attacker(a).size == Size::Large
        })
        .collect();
    assert_eq!(
        large,
        [
            "big_skull",
            "big_yellow_skull",
            "big_black_skull",
            "coffin",
            "yellow_coffin",
            "black_coffin",
            "protector",
            "druid"
        ]
    );
    for a in &arena.content.attackers {
        assert!(
            a.value >= a.max_health,
            "{}: its value counts at least its HP",
            a.id
        );
    }
}

#[test]
fn slimes_split_into_the_next_slime_where_they_fall() {
    for (slime, child, count) in [
        ("blue_slime", "red_slime", 1),
        ("green_slime", "blue_slime", 1),
        ("yellow_slime", "green_slime", 1),
        ("pink_slime", "yellow_slime", 1),
        ("black_slime", "pink_slime", 2),
        ("lead_slime", "black_slime", 2),
    ] {
        let mut arena = Arena::new(STRAIGHT);
        arena.wave();
        let parent = arena.walking(&core(slime), 4);
        arena.run(10);
        let fell = arena.battle.entity(parent).unwrap().position;
        arena.hit(parent, 1000.0, DamageType::HpLoss);
        assert_eq!(arena.attackers(), vec![core(child); count], "{slime}");
        for (_, e) in arena
            .battle
            .entities()
            .filter(|(_, e)| e.kind.attacker().is_some())
        {
            assert_eq!(e.position, fell, "{slime}'s children start where it fell");
            assert!(e.route.is_some(), "and walk on");
        }
        arena.no_script_errors();
    }
}

#[test]
fn black_slimes_ignore_explosions_and_lead_slimes_ignore_physical_damage() {
    let mut arena = Arena::new(STRAIGHT);
    let black = arena.standing("core:black_slime", 5.0, 5.0);
    assert_eq!(arena.hit(black, 10.0, DamageType::Explosive), 0.0);
    assert_eq!(arena.hit(black, 10.0, DamageType::Physical), 10.0);
    // A hit of two types hurts as much as its most effective part.
    let both = [DamageType::Physical, DamageType::Explosive]
        .into_iter()
        .collect();
    assert_eq!(arena.battle.deal(None, black, 10.0, both), 10.0);
    assert_eq!(arena.hp(black), 10.0);

    let lead = arena.standing("core:lead_slime", 6.0, 5.0);
    assert_eq!(arena.hit(lead, 10.0, DamageType::Physical), 0.0);
    assert_eq!(arena.hit(lead, 10.0, DamageType::Energy), 10.0);
    assert_eq!(arena.hit(lead, 10.0, DamageType::Explosive), 10.0);
    assert_eq!(arena.hp(lead), 15.0);
    arena.no_script_errors();
}

#[test]
fn armored_skeletons_block_1_3_and_5_per_hit_until_half_hp_then_run_twice_as_fast() {
    for (name, block, hp) in [
        ("armored_skeleton", 1.0, 40.0),
        ("yellow_armored_skeleton", 3.0, 120.0),
        ("black_armored_skeleton", 5.0, 360.0),
    ] {
        let mut arena = Arena::new(STRAIGHT);
        let skeleton = arena.standing(&core(name), 5.0, 5.0);
        assert_eq!(
            arena.hit(skeleton, 10.0, DamageType::Physical),
            10.0 - block
        );
        assert_eq!(arena.hit(skeleton, block, DamageType::Energy), 0.0);
        // Down to exactly half: the shields hold.
        let to_half = hp - (10.0 - block) - hp / 2.0;
        arena.hit(skeleton, to_half, DamageType::HpLoss);
        assert_eq!(arena.hp(skeleton), hp / 2.0);
        assert_eq!(
            arena.battle.query(|b| &b.chains.speed, &skeleton),
            0.8,
            "{name}"
        );
        assert_eq!(arena.hit(skeleton, block + 1.0, DamageType::Physical), 1.0);
        assert_eq!(
            arena.battle.query(|b| &b.chains.speed, &skeleton),
            1.6,
            "{name}"
        );
        assert_eq!(arena.hit(skeleton, 10.0, DamageType::Physical), 10.0);
        arena.no_script_errors();
    }
}

#[test]
fn big_skulls_are_large_and_release_three_skeletons() {
    for (skull, inside) in [
        ("big_skull", "skeleton"),
        ("big_yellow_skull", "yellow_skeleton"),
        ("big_black_skull", "black_skeleton"),
    ] {
        let mut arena = Arena::new(STRAIGHT);
        arena.wave();
        let hull = arena.battle.player().hull;
        // Large: reaching the Hub costs 3 hull.
        arena.walking(&core(skull), 13);
        arena.run(40);
        assert_eq!(arena.battle.player().hull, hull - 3.0, "{skull}");
        let dead = arena.walking(&core(skull), 5);
        arena.hit(dead, 1000.0, DamageType::HpLoss);
        assert_eq!(arena.attackers(), vec![core(inside); 3], "{skull}");
        arena.no_script_errors();
    }
}

#[test]
fn coffins_release_an_armored_skeleton_every_4_5_and_6_seconds_and_four_skeletons_when_broken() {
    for (coffin, every, released, inside) in [
        ("coffin", 80, "armored_skeleton", "skeleton"),
        (
            "yellow_coffin",
            100,
            "yellow_armored_skeleton",
            "yellow_skeleton",
        ),
        (
            "black_coffin",
            120,
            "black_armored_skeleton",
            "black_skeleton",
        ),
    ] {
        let mut arena = Arena::new(STRAIGHT);
        arena.wave();
        let c = arena.walking(&core(coffin), 0);
        arena.run(3 * every);
        assert_eq!(arena.attackers().len(), 1 + 2, "{coffin}: two out so far");
        arena.run(1);
        let coffin_at = arena.battle.entity(c).unwrap().position;
        let latest = arena
            .battle
            .entities()
            .max_by_key(|(_, e)| e.created_at)
            .unwrap()
            .1
            .clone();
        assert_eq!(latest.position, coffin_at, "released where the coffin is");
        assert_eq!(
            arena.attackers(),
            [vec![core(released); 3], vec![core(coffin)]].concat(),
            "{coffin}: the third after {} ticks",
            3 * every
        );
        arena.hit(c, 1e4, DamageType::HpLoss);
        let mut expected = vec![core(released); 3];
        expected.extend(vec![core(inside); 4]);
        assert_eq!(arena.attackers(), expected, "{coffin}");
        arena.no_script_errors();
    }
}

#[test]
fn jellyfish_and_spirits_resist_one_damage_type() {
    for (name, kind, dealt) in [
        ("space_jellyfish", DamageType::Physical, 6.0),
        ("blue_space_jellyfish", DamageType::Physical, 5.0),
        ("green_space_jellyfish", DamageType::Physical, 3.4),
        ("fire_spirit", DamageType::Energy, 5.0),
        ("forest_spirit", DamageType::Explosive, 3.4),
    ] {
        let mut arena = Arena::new(STRAIGHT);
        let a = arena.standing(&core(name), 5.0, 5.0);
        let resisted = arena.hit(a, 10.0, kind);
        assert!((resisted - dealt).abs() < 1e-9, "{name}: {resisted}");
        let other = if kind == DamageType::Physical {
            DamageType::Energy
        } else {
            DamageType::Physical
        };
        assert_eq!(
            arena.hit(a, 1.0, other),
            1.0,
            "{name} takes other damage in full"
        );
        arena.no_script_errors();
    }
}

#[test]
fn a_protectors_bubble_stops_projectiles_from_outside_for_five_seconds() {
    let mut arena = Arena::new(STRAIGHT);
    // Two tiles north of the path: outside a 1.3-tile bubble around (5, 3).
    let sentry = arena.place("core:budget_sentry", 5.0, 5.0);
    arena.wave();
    let protector = arena.standing("core:protector", 5.0, PATH_Y);
    arena.hit(protector, 1000.0, DamageType::HpLoss);
    let fell = arena.battle.tick();
    let bubble = &arena.battle.barriers()[0];
    assert_eq!((bubble.radius, bubble.ticks_left), (1.3, 100));
    let sheltered = arena.standing("core:black_skeleton", 5.5, PATH_Y);
    arena.run(140);
    let hits = arena.hits_on(sheltered);
    assert!(
        !hits.is_empty() && hits.iter().all(|&(t, _)| t >= fell + 100),
        "nothing lands for 100 ticks: {hits:?}"
    );
    assert!(
        arena.hits_by(sentry).len() == hits.len() && arena.battle.barriers().is_empty(),
        "the bubble is gone"
    );
    // Without the bubble the first shot lands within a few ticks.
    let mut open = Arena::new(STRAIGHT);
    open.place("core:budget_sentry", 5.0, 5.0);
    open.wave();
    let start = open.battle.tick();
    let target = open.standing("core:black_skeleton", 5.5, PATH_Y);
    open.run(10);
    assert!(open.hits_on(target)[0].0 < start + 10);
    arena.no_script_errors();
}

#[test]
fn druids_heal_everyone_within_1_6_tiles_by_15_every_4_seconds() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let druid = arena.standing("core:druid", 5.0, PATH_Y);
    let near = arena.standing("core:yellow_skeleton", 6.5, PATH_Y);
    let far = arena.standing("core:yellow_skeleton", 6.7, PATH_Y);
    for id in [druid, near, far] {
        arena.hit(id, 40.0, DamageType::HpLoss);
    }
    arena.run(80);
    assert_eq!(
        [arena.hp(druid), arena.hp(near), arena.hp(far)],
        [80.0, 20.0, 20.0]
    );
    arena.run(1);
    assert_eq!(
        [arena.hp(druid), arena.hp(near), arena.hp(far)],
        [95.0, 35.0, 20.0]
    );
    arena.run(80);
    assert_eq!(
        [arena.hp(druid), arena.hp(near)],
        [110.0, 50.0],
        "again 4 s later"
    );
    // The player sees each pulse: a green ring of its reach around the druid.
    let rings: Vec<(u64, f64)> = arena
        .battle
        .log()
        .iter()
        .filter_map(|l| match &l.kind {
            LogKind::Drawn(Visual {
                figure: Figure::Ring { radius, .. },
                colour,
                ..
            }) if *colour == Rgb(70, 200, 70) => Some((l.tick, *radius)),
            _ => None,
        })
        .collect();
    assert_eq!(rings.len(), 2, "{rings:?}");
    assert!(rings.iter().all(|&(_, r)| r == 1.6), "{rings:?}");
    arena.no_script_errors();
}

/// How high `part` reaches above the model's ground, in tiles: its box's centre plus its half
/// height once turned (about `x`, then `y`, then `z`, as the model's page says).
fn part_top(part: &Part) -> f32 {
    let [(sx, cx), (sy, cy), (sz, cz)] = [part.turn.0, part.turn.1, part.turn.2].map(|degrees| {
        let r = degrees.to_radians();
        (libm::sinf(r), libm::cosf(r))
    });
    // The middle row of Rz·Ry·Rx: how much of each of the box's axes ends up along y.
    let up = [sz * cy, cz * cx + sz * sy * sx, sz * sy * cx - cz * sx];
    let (x, y, z) = part.size;
    let half = (up[0].abs() * x + up[1].abs() * y + up[2].abs() * z) / 2.0;
    part.at.1 + half
}

#[test]
fn every_attacker_has_a_model_of_parts_as_tall_as_its_threat() {
    let arena = Arena::new(STRAIGHT);
    for a in &arena.content.attackers {
        let Some(Model::Parts(parts)) = &a.model else {
            panic!("{} has no model of parts", a.id);
        };
        // Few enough parts to draw a crowd of 2000; a boss comes alone and may have a few more.
        let most = if a.size == Size::Boss { 12 } else { 10 };
        assert!(
            (3..=most).contains(&parts.len()),
            "{}: {} parts",
            a.id,
            parts.len()
        );
        let top = parts.iter().map(part_top).fold(0.0, f32::max);
        let tall = match a.size {
            Size::Small => 0.18..=0.5,
            Size::Large => 0.55..=0.95,
            Size::Boss => 1.2..=2.0,
        };
        assert!(tall.contains(&top), "{}: {top} tiles tall", a.id);
    }
}
