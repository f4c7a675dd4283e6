//! The core's bosses, one per act, each bending one rule: the Bone Warden shields its escort, the
//! Slime Queen splits as it loses HP, the Void Leviathan paralyzes the nearest building. A boss
//! that reaches the Hub takes the whole hull.

use crate::common::arena::{Arena, PATH_Y, STRAIGHT};
use rampart_core::content::{DamageType, Size};

#[test]
fn every_act_has_a_boss_and_bosses_are_never_drawn_into_waves() {
    let arena = Arena::new(STRAIGHT);
    let setter = arena.content.levels.as_ref().unwrap();
    let bosses: Vec<&str> = setter.acts.iter().map(|a| a.boss.as_str()).collect();
    assert_eq!(
        bosses,
        [
            "core:bone_warden",
            "core:slime_queen",
            "core:void_leviathan"
        ]
    );
    for id in bosses {
        let boss = arena
            .content
            .attacker(arena.content.attacker_id(id).unwrap());
        assert_eq!(boss.size, Size::Boss, "{id}");
    }
    for level in 1..=30 {
        let spec = rampart_core::run::LevelSpec::new(&arena.content, 5, level).unwrap();
        assert!(
            spec.pool.attackers().iter().all(|a| {
                let id = arena.content.attacker_id(&a.id).unwrap();
                arena.content.attacker(id).size != Size::Boss
            }),
            "level {level}"
        );
    }
}

#[test]
fn the_bone_warden_shields_other_attackers_within_2_5_tiles_every_4_seconds() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let warden = arena.standing("core:bone_warden", 5.0, PATH_Y);
    let near = arena.standing("core:skeleton", 7.4, PATH_Y);
    let far = arena.standing("core:skeleton", 7.6, PATH_Y);
    let shield = |arena: &Arena, id| arena.battle.effect(id, "shield").map(|e| e.magnitude);
    arena.run(80);
    assert_eq!(shield(&arena, near), None, "not before 4 s");
    arena.run(1);
    assert_eq!(shield(&arena, near), Some(15.0));
    assert_eq!(shield(&arena, far), None, "beyond 2.5 tiles");
    assert_eq!(shield(&arena, warden), None, "not itself");
    // The shield takes the first 15 damage of a hit.
    let hp = arena.hp(near);
    arena.hit(near, 18.0, DamageType::Physical);
    assert_eq!(arena.hp(near), hp - 3.0);
    arena.no_script_errors();
}

#[test]
fn the_slime_queen_splits_off_three_slimes_per_quarter_of_its_hp() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let queen = arena.standing("core:slime_queen", 5.0, PATH_Y);
    let max = arena.hp(queen);
    let greens = |arena: &Arena| {
        arena
            .attackers()
            .iter()
            .filter(|a| *a == "core:green_slime")
            .count()
    };
    arena.hit(queen, max * 0.2, DamageType::HpLoss);
    arena.run(1);
    assert_eq!(greens(&arena), 0, "less than a quarter lost");
    arena.hit(queen, max * 0.1, DamageType::HpLoss);
    arena.run(1);
    assert_eq!(greens(&arena), 3, "a quarter lost");
    arena.hit(queen, max * 0.5, DamageType::HpLoss);
    arena.run(1);
    assert_eq!(
        greens(&arena),
        9,
        "one hit past two more marks splits twice"
    );
    arena.hit(queen, max, DamageType::HpLoss);
    arena.run(1);
    let lead = arena
        .attackers()
        .iter()
        .filter(|a| *a == "core:lead_slime")
        .count();
    assert_eq!(
        (greens(&arena), lead),
        (9, 4),
        "the last quarter is its death"
    );
    arena.no_script_errors();
}

#[test]
fn the_void_leviathan_paralyzes_the_nearest_building_within_4_tiles_every_6_seconds() {
    let mut arena = Arena::new(STRAIGHT);
    let near = arena.place("core:budget_sentry", 6.0, 5.0);
    let farther = arena.place("core:budget_sentry", 8.0, 5.0);
    arena.wave();
    arena.standing("core:void_leviathan", 5.0, PATH_Y);
    let paralyzed = |arena: &Arena, id| arena.battle.effect(id, "paralyzed").is_some();
    arena.run(121);
    assert!(paralyzed(&arena, near));
    assert!(!paralyzed(&arena, farther));
    arena.run(60);
    assert!(!paralyzed(&arena, near), "for 3 s");
    arena.no_script_errors();
}

#[test]
fn a_boss_reaching_the_hub_takes_the_whole_hull() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let hull = arena.battle.player().hull;
    assert!(hull > 0.0);
    arena.walking("core:bone_warden", 0);
    arena.run(20 * 60);
    assert_eq!(arena.battle.player().hull, 0.0);
    arena.no_script_errors();
}
