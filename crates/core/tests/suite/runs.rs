//! Runs: starting (custom or not), rewards, the collection limit, permadeath, the hull carried
//! between levels, and saves.

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::common::{Mods, enter_battle};
use rampart_autopilot::{LevelResult, play_level};
use rampart_core::battle::{Battle, Phase, PlayerCommand};
use rampart_core::content::{ContentDb, Rarity};
use rampart_core::rng::Seed;
use rampart_core::run::rewards::{draw, offerable};
use rampart_core::run::{Difficulty, Run, RunConfig, RunPhase};

/// Core plus a mod with `n` blueprints of each offered rarity (`t:common0`, `t:rare3`, …), one
/// more starter and one special blueprint that is not placed by the game.
fn many_blueprints(n: usize) -> Arc<ContentDb> {
    let mods = Mods::new();
    mods.manifest("t", &["core"]);
    let rarities = ["Common", "Rare", "Legendary", "Starter", "Special"];
    for rarity in rarities {
        let count = if matches!(rarity, "Starter" | "Special") {
            1
        } else {
            n
        };
        for i in 0..count {
            let name = format!("{}{i}", rarity.to_lowercase());
            mods.file(
                &format!("t/blueprints/{name}.ron"),
                &format!(
                    "(name: \"{name}\", kind: Economic, rarity: {rarity}, cost: (materials: 5), material_production: 1)"
                ),
            );
        }
    }
    mods.load_with_core()
}

fn start(content: &ContentDb, seed: u64, starting: Option<&[&str]>) -> Result<Run, String> {
    let starting_blueprints = starting.map(|ids| ids.iter().map(|s| s.to_string()).collect());
    Run::new(
        content,
        RunConfig {
            seed,
            starting_blueprints,
            difficulty: Default::default(),
            ascension: 0,
        },
    )
    .map_err(|e| e.to_string())
}

fn rarity(content: &ContentDb, id: &str) -> Rarity {
    content.blueprint(content.blueprint_id(id).unwrap()).rarity
}

#[test]
fn offers_are_distinct_new_and_never_starter_or_special() {
    let content = many_blueprints(4);
    let setter = content.levels.as_ref().unwrap();
    assert_eq!(setter.offers, 3);
    let offerable_ids: Vec<&str> = content
        .blueprints
        .iter()
        .map(|b| b.id.as_str())
        .filter(|id| offerable(&content, id))
        .collect();
    let ours: Vec<&str> = offerable_ids
        .iter()
        .copied()
        .filter(|id| id.starts_with("t:"))
        .collect();
    assert_eq!(
        ours.len(),
        12,
        "the starter and special are not offerable: {ours:?}"
    );
    let mut rng = Seed(5).rng();
    for round in 0..300u32 {
        // A different set already picked every round, up to all but two.
        let picked: Vec<String> = offerable_ids
            .iter()
            .filter(|_| rng.chance(f64::from(round % 10) / 10.0))
            .take(offerable_ids.len() - 2)
            .map(|s| s.to_string())
            .collect();
        let offers = draw(&content, setter, 1 + round % 15, &picked, &mut rng);
        let left = offerable_ids.len() - picked.len();
        assert_eq!(offers.len(), left.min(3), "round {round}: {offers:?}");
        let distinct: BTreeSet<&String> = offers.iter().collect();
        assert_eq!(distinct.len(), offers.len(), "{offers:?}");
        for o in &offers {
            assert!(!picked.contains(o), "{o} was picked already");
            let r = rarity(&content, o);
            assert!(
                matches!(r, Rarity::Common | Rarity::Rare | Rarity::Legendary),
                "{o} is {r:?}"
            );
        }
    }
    let everything: Vec<String> = offerable_ids.iter().map(|s| s.to_string()).collect();
    assert!(draw(&content, setter, 1, &everything, &mut rng).is_empty());
}

#[test]
fn rare_offers_grow_more_likely_over_a_run() {
    let content = many_blueprints(6);
    let setter = content.levels.as_ref().unwrap();
    let shares = |level: u32| {
        let mut rng = Seed(u64::from(level)).rng();
        let mut counts = [0.0f64; 3];
        for _ in 0..2000 {
            for o in draw(&content, setter, level, &[], &mut rng) {
                let slot = match rarity(&content, &o) {
                    Rarity::Common => 0,
                    Rarity::Rare => 1,
                    _ => 2,
                };
                counts[slot] += 1.0;
            }
        }
        let total: f64 = counts.iter().sum();
        counts.map(|c| c / total)
    };
    let (early, late) = (shares(1), shares(12));
    // The core odds: 87/11/2 after level 1, 30/55/15 from level 12 on. Drawing without
    // replacement from six of each flattens them a little, never reverses them.
    assert!(early[0] > 0.75 && late[0] < 0.4, "{early:?} {late:?}");
    assert!(late[1] > 2.0 * early[1], "{early:?} {late:?}");
    assert!(late[2] > 2.0 * early[2], "{early:?} {late:?}");
    let middle = shares(6);
    assert!(early[0] > middle[0] && middle[0] > late[0], "{middle:?}");
}

#[test]
fn custom_runs_check_their_starting_blueprints() {
    let content = many_blueprints(4);
    let run = start(&content, 9, None).unwrap();
    let starters: Vec<&str> = content
        .blueprints
        .iter()
        .filter(|b| b.rarity == Rarity::Starter)
        .map(|b| b.id.as_str())
        .collect();
    assert_eq!(run.collection(), starters.as_slice());
    assert_eq!(run.picked(), run.collection());
    let full = content.levels.as_ref().unwrap().hull;
    assert_eq!((run.level(), run.hull()), (1, full));

    let custom = start(&content, 9, Some(&["t:rare1", "core:grenade"])).unwrap();
    assert_eq!(custom.collection(), ["t:rare1", "core:grenade"]);
    let cases: [(&[&str], &str); 4] = [
        (&["core:grenad"], "did you mean `core:grenade`?"),
        (&["t:rare1", "t:rare1"], "twice"),
        (&["core:hub"], "placed by the game"),
        (
            &[
                "t:common0",
                "t:common1",
                "t:common2",
                "t:common3",
                "t:rare0",
                "t:rare1",
                "t:rare2",
                "t:rare3",
                "t:legendary0",
                "t:legendary1",
            ],
            "do not fit the collection limit of 9",
        ),
    ];
    for (ids, message) in cases {
        let err = start(&content, 9, Some(ids)).unwrap_err();
        assert!(err.contains(message), "{ids:?}: {err}");
    }
}

/// A save of `run` with its phase replaced by a reward of `offers`: how a run looks after a won
/// level, without playing one.
fn at_reward(run: &Run, offers: &[&str]) -> Run {
    let save = run.to_ron();
    let quoted: Vec<String> = offers.iter().map(|o| format!("\"{o}\"")).collect();
    let edited = save.replace(
        "phase: Map",
        &format!("phase: Reward(offers: [{}])", quoted.join(", ")),
    );
    assert_ne!(edited, save, "the save names its phase");
    Run::from_ron(&edited).unwrap()
}

#[test]
fn a_full_collection_takes_a_reward_only_in_place_of_another() {
    let content = many_blueprints(4);
    let starting = [
        "t:common0",
        "t:common1",
        "t:common2",
        "t:rare0",
        "t:rare1",
        "t:rare2",
        "t:legendary0",
        "t:legendary1",
    ];
    let run = start(&content, 3, Some(&starting)).unwrap();
    assert_eq!(run.collection_limit(), 9);

    // One free place: the reward is added.
    let mut run = at_reward(&run, &["t:common3", "t:rare3"]);
    run.choose_reward(&content, Some(1), None).unwrap();
    assert_eq!(run.collection().len(), 9);
    assert_eq!(run.collection().last().unwrap(), "t:rare3");
    assert_eq!(run.phase(), &RunPhase::Map);

    // Full: without a blueprint to give up the choice is refused and nothing changes.
    let mut full = at_reward(&run, &["t:common3", "t:legendary2"]);
    let before = full.clone();
    let err = full.choose_reward(&content, Some(1), None).unwrap_err();
    assert!(err.to_string().contains("choose one to replace"), "{err}");
    assert!(full.choose_reward(&content, Some(1), Some(9)).is_err());
    assert!(full.choose_reward(&content, Some(2), Some(0)).is_err());
    assert_eq!(full, before);
    full.choose_reward(&content, Some(1), Some(0)).unwrap();
    assert_eq!(full.collection().len(), 9);
    assert_eq!(full.collection()[0], "t:legendary2");
    // Given up or not, a picked blueprint is never offered again.
    assert!(full.picked().contains(&"t:common0".to_string()));
    assert!(full.picked().contains(&"t:legendary2".to_string()));

    // Skipping keeps the collection and moves on.
    let mut skip = at_reward(&full, &["t:common3"]);
    skip.choose_reward(&content, None, None).unwrap();
    assert_eq!(skip.collection(), full.collection());
    assert_eq!(skip.phase(), &RunPhase::Map);
}

#[test]
fn saves_round_trip_and_broken_saves_say_where() {
    let content = many_blueprints(4);
    let run = start(&content, 77, None).unwrap();
    assert_eq!(Run::from_ron(&run.to_ron()).unwrap(), run);
    let reward = at_reward(&run, &["t:rare2", "t:common1"]);
    let loaded = Run::from_ron(&reward.to_ron()).unwrap();
    assert_eq!(loaded, reward);
    assert_eq!(loaded.to_ron(), reward.to_ron());

    let save = run.to_ron();
    let broken = [
        (save.replace("format: 2", "format: 3"), "format 3"),
        (
            save.replace(&format!("hull: {:?}", run.hull()), "hull: -1.0"),
            "`hull` must be",
        ),
        (save.replace("level: 1", "level: 0"), "starts at 1"),
        (save.replace("seed: 77", "seed: \"x\""), "save:3:11: `seed`"),
        (
            save.replace("phase: Map", "phase: Reward(offers: [\"core:grenade\"])"),
            "already picked",
        ),
        (
            save.replace("phase: Map", "phase: Battle"),
            "its room on the map holds none",
        ),
    ];
    for (text, message) in broken {
        assert_ne!(text, save, "the edit for `{message}` applies");
        let err = Run::from_ron(&text).unwrap_err();
        assert!(
            err.to_string().contains(message),
            "expected `{message}`: {err}"
        );
    }
}

/// Starts waves and builds nothing until the battle ends.
fn hold_out_unarmed(battle: &mut Battle) {
    for _ in 0..200_000 {
        match battle.phase() {
            Phase::Won | Phase::Lost => return,
            Phase::Build => battle.submit(PlayerCommand::StartWave),
            Phase::Wave => {}
        }
        battle.step();
    }
    panic!("the battle did not end");
}

#[test]
fn a_lost_level_ends_the_run_for_good() {
    let content = Mods::new().load_armed();
    let mut run = start(&content, 4, None).unwrap();
    assert!(
        run.plan(&content).is_err(),
        "no battle before a battle room"
    );
    enter_battle(&mut run, &content);
    let plan = run.plan(&content).unwrap();
    let mut battle = plan.setup.start(&content).unwrap();
    hold_out_unarmed(&mut battle);
    assert_eq!(battle.phase(), Phase::Lost);
    run.finish_battle(&battle);
    assert_eq!(run.phase(), &RunPhase::Over { levels_won: 0 });
    assert_eq!(run.hull(), 0.0);
    assert!(run.plan(&content).unwrap_err().to_string().contains("over"));
    assert!(run.choose_reward(&content, Some(0), None).is_err());
    // The end is saved too.
    assert_eq!(Run::from_ron(&run.to_ron()).unwrap(), run);
}

#[test]
fn a_won_level_offers_rewards_and_the_hull_carries_over() {
    let content = Mods::new().load_armed();
    let mut run = start(&content, 2, None).unwrap();
    enter_battle(&mut run, &content);
    let plan = run.plan(&content).unwrap();
    let full = content.levels.as_ref().unwrap().hull;
    assert_eq!((plan.level, plan.setup.start.hull), (1, full));
    assert_eq!(
        plan.setup.start.collection.as_deref(),
        Some(run.collection())
    );
    assert_eq!(
        plan,
        run.plan(&content).unwrap(),
        "a level is the same every time"
    );
    let mut battle = plan.setup.start(&content).unwrap();
    assert_eq!(play_level(&mut battle), LevelResult::Won);
    run.finish_battle(&battle);
    let RunPhase::Reward { offers, .. } = run.phase().clone() else {
        panic!("a won level offers rewards: {:?}", run.phase());
    };
    assert!(!offers.is_empty() && offers.len() <= 3);
    assert!(offers.iter().all(|o| offerable(&content, o)));
    assert!(
        run.plan(&content).is_err(),
        "no next level before the reward"
    );

    // A save taken now continues exactly like the run itself.
    let mut resumed = Run::from_ron(&run.to_ron()).unwrap();
    run.choose_reward(&content, Some(0), None).unwrap();
    resumed.choose_reward(&content, Some(0), None).unwrap();
    assert_eq!(run, resumed);
    assert_eq!(run.phase(), &RunPhase::Map, "back on the map");
    assert!(run.map().node(run.map().current()).unwrap().cleared);

    enter_battle(&mut run, &content);
    let next = run.plan(&content).unwrap();
    assert_eq!(next.level, 2);
    assert_eq!(next.setup.start.hull, battle.player().hull);
    assert!(next.setup.start.collection.unwrap().contains(&offers[0]));
    assert_ne!(next.setup.start.seed, plan.setup.start.seed);
}

/// Adaptive difficulty: the battle tallies kills and hull by attacker type, the run adds them
/// up, and the next level (never the current battle) gives the types killed most more HP.
#[test]
fn the_types_killed_most_come_back_stronger_at_the_next_level() {
    let content = Mods::new().load_with_core();
    let config = |difficulty| RunConfig {
        seed: 5,
        starting_blueprints: None,
        difficulty,
        ascension: 0,
    };
    let mut run = Run::new(&content, config(Difficulty::Normal)).unwrap();
    enter_battle(&mut run, &content);
    let first = run.plan(&content).unwrap();
    assert!(
        first.setup.start.strength.values().all(|&s| s == 1.0),
        "nothing killed yet, Normal: every type as it is"
    );
    let mut battle = first.setup.start(&content).unwrap();
    assert_eq!(play_level(&mut battle), LevelResult::Won);
    let tally = battle.tally().clone();
    let kills: u32 = tally.values().map(|t| t.kills).sum();
    assert!(kills > 20, "{tally:?}");
    run.finish_battle(&battle);
    assert_eq!(run.record(), &tally);
    run.choose_reward(&content, None, None).unwrap();
    enter_battle(&mut run, &content);

    let next = run.plan(&content).unwrap();
    let strength = &next.setup.start.strength;
    let (most, _) = tally.iter().max_by_key(|(_, t)| t.kills).unwrap();
    let untouched = content
        .attackers
        .iter()
        .find(|a| !tally.contains_key(&a.id))
        .unwrap();
    assert!(
        strength[most] > strength[&untouched.id] && strength[&untouched.id] > 1.0,
        "{most} killed most: {strength:?}"
    );
    // Spawned attackers carry it.
    let mut battle = next.setup.start(&content).unwrap();
    let id = content.attacker_id(most).unwrap();
    let e = battle.spawn_attacker(id, Default::default());
    let base = content.attacker(id).max_health;
    assert!((battle.entity(e).unwrap().max_hp - base * strength[most]).abs() < 1e-9);

    // The same record under Hard: everything a quarter stronger again.
    let hard = Run::from_ron(
        &run.to_ron()
            .replace("difficulty: Normal", "difficulty: Hard"),
    )
    .unwrap();
    assert_eq!(hard.difficulty(), Difficulty::Hard);
    let hard_strength = hard.plan(&content).unwrap().setup.start.strength;
    assert!((hard_strength[most] - strength[most] * 1.25).abs() < 1e-9);
    // A save keeps the record.
    assert_eq!(Run::from_ron(&run.to_ron()).unwrap().record(), run.record());
}

/// Ascension: each level adds its rule change to those below, from the run's start.
#[test]
fn ascension_levels_add_up_their_changes() {
    let content = Mods::new().load_with_core();
    let setter = content.levels.as_ref().unwrap();
    assert!(setter.ascension.len() >= 10, "at least ten levels");
    let at = |ascension| {
        let config = RunConfig {
            seed: 9,
            starting_blueprints: None,
            difficulty: Difficulty::Normal,
            ascension,
        };
        let run = Run::new(&content, config).unwrap();
        let start = run.plan_of_level(&content).unwrap().setup.start;
        (run, start)
    };
    let (base, base_start) = at(0);
    let skeleton = "core:skeleton";
    assert_eq!(base_start.strength[skeleton], 1.0);
    // Level 1: attackers +5 % HP; 2: 10 % fewer materials; 3: 3 less hull.
    let (one, one_start) = at(1);
    assert!((one_start.strength[skeleton] - 1.05).abs() < 1e-9);
    assert_eq!(one_start.materials, base_start.materials);
    let (_, two_start) = at(2);
    assert!((two_start.materials - base_start.materials * 0.9).abs() < 1e-9);
    let (three, _) = at(3);
    assert_eq!((one.hull(), three.hull()), (base.hull(), base.hull() - 3.0));
    let (top, top_start) = at(setter.ascension.len() as u32);
    assert_eq!(top.hull(), base.hull() - 12.0);
    assert_eq!(top.collection_limit(), base.collection_limit() - 2);
    assert!((top_start.strength[skeleton] - 1.2).abs() < 1e-9);
    assert_eq!(top.ascension(), setter.ascension.len() as u32);
    // Saved and read back, the level stays.
    assert_eq!(
        Run::from_ron(&top.to_ron()).unwrap().ascension(),
        top.ascension()
    );
    let past = RunConfig {
        seed: 9,
        starting_blueprints: None,
        difficulty: Difficulty::Normal,
        ascension: setter.ascension.len() as u32 + 1,
    };
    let err = Run::new(&content, past).unwrap_err().to_string();
    assert!(err.contains("there is no ascension level"), "{err}");
}

/// Money: a won battle pays, less for hull lost; shops sell blueprints from the reward pool, a
/// repair and a removal at the level setter's prices.
#[test]
fn battles_pay_and_shops_sell_at_the_level_setters_prices() {
    use rampart_core::run::{Shop, Ware};
    let content = Mods::new().load_with_core();
    let money = &content.levels.as_ref().unwrap().money;
    let mut run = Run::new(&content, RunConfig::new(12)).unwrap();
    assert_eq!(run.money(), money.start);
    let hull = run.hull();
    enter_battle(&mut run, &content);
    let mut battle = run.plan(&content).unwrap().setup.start(&content).unwrap();
    assert_eq!(play_level(&mut battle), LevelResult::Won);
    run.finish_battle(&battle);
    let lost = hull - run.hull();
    let pay = (f64::from(money.battle) - (money.per_hull_lost * lost).round()).max(0.0) as u32;
    assert_eq!(run.money(), money.start + pay, "lost {lost} hull");

    let shop = Shop::stock(&content, &run, Seed(3).branch("shop")).unwrap();
    assert_eq!(
        shop,
        Shop::stock(&content, &run, Seed(3).branch("shop")).unwrap(),
        "the same seed stocks the same shop"
    );
    let wares: Vec<&Ware> = shop.offers.iter().map(|o| &o.ware).collect();
    // Blueprints, then augments for the collection, then a repair and a removal.
    let augments = content.levels.as_ref().unwrap().augments.shop;
    assert_eq!(wares.len(), money.shop_blueprints + augments + 2);
    assert!(
        wares[money.shop_blueprints..wares.len() - 2]
            .iter()
            .all(|w| matches!(w, Ware::Augment(_)))
    );
    assert_eq!(wares[wares.len() - 2..], [&Ware::Repair, &Ware::Removal]);
    for o in &shop.offers[..money.shop_blueprints] {
        let Ware::Blueprint(id) = &o.ware else {
            panic!("blueprints first")
        };
        assert!(offerable(&content, id) && !run.picked().contains(id));
        let rarity = content.blueprint(content.blueprint_id(id).unwrap()).rarity;
        let price = match rarity {
            Rarity::Rare => money.prices.rare,
            Rarity::Legendary => money.prices.legendary,
            _ => money.prices.common,
        };
        assert_eq!(o.price, price);
    }

    // Too poor, then rich enough (a save edited to hold more money: saves are plain RON).
    let too_much = shop.offers.iter().position(|o| o.price > run.money());
    let err = run.clone().buy(&content, 0, None).unwrap_err();
    assert!(err.to_string().contains("needs a shop"), "{err}");
    run.choose_reward(&content, None, None).unwrap();
    // In the shop (a save edited to stand in it: saves are plain RON).
    let in_shop = |run: &Run, money: u32| {
        let shop = rampart_core::ron_file::to_string(&shop).unwrap();
        let text = run
            .to_ron()
            .replace(
                &format!("money: {}", run.money()),
                &format!("money: {money}"),
            )
            .replace("phase: Map", &format!("phase: Shop({shop})"));
        Run::from_ron(&text).unwrap()
    };
    if let Some(i) = too_much {
        let err = in_shop(&run, run.money())
            .buy(&content, i, None)
            .unwrap_err();
        assert!(err.to_string().contains("it costs"), "{err}");
    }
    let mut run = in_shop(&run, 1000);
    let Ware::Blueprint(bought) = shop.offers[0].ware.clone() else {
        unreachable!()
    };
    let before = run.collection().len();
    run.buy(&content, 0, None).unwrap();
    assert_eq!(run.collection().len(), before + 1);
    assert!(run.picked().contains(&bought));
    assert_eq!(run.money(), 1000 - shop.offers[0].price);
    let err = run.buy(&content, 0, None).unwrap_err();
    assert!(err.to_string().contains("sold"), "{err}");
    // A removal takes the named slot out.
    let removal = shop.offers.len() - 1;
    let first = run.collection()[0].clone();
    run.buy(&content, removal, Some(0)).unwrap();
    assert_eq!(run.collection().len(), before);
    assert!(!run.collection().contains(&first));
    // A repair gives hull back, never past the starting hull.
    let repair = shop.offers.len() - 2;
    if run.hull() < hull {
        run.buy(&content, repair, None).unwrap();
        assert!(run.hull() <= hull);
    }
    while run.hull() < hull {
        run.buy(&content, repair, None).unwrap();
    }
    let err = run.buy(&content, repair, None).unwrap_err();
    assert!(err.to_string().contains("whole"), "{err}");
    run.leave_shop().unwrap();
    assert_eq!(run.phase(), &RunPhase::Map);
}
