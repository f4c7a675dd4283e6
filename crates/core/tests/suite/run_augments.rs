//! Augments: as content (the documented example and its script, mistakes pointed at), in battle
//! (the engine's changes through the stat queries and `damage`, a script's hooks on every entity
//! of the blueprint), and in runs (at most two per blueprint, offered as rewards and in shops,
//! kept in saves, dropped with their blueprint).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::common::Mods;
use crate::common::arena::{Arena, STRAIGHT};
use rampart_core::battle::{Battle, BlueprintView, Damage, Qry, StatOf};
use rampart_core::chain::Outcome;
use rampart_core::content::describe::{Quality, RichText};
use rampart_core::content::{ContentDb, DamageType};
use rampart_core::rng::Seed;
use rampart_core::run::rewards::after_battle;
use rampart_core::run::{AugmentOffer, Run, RunConfig, RunError, RunPhase, Shop, Ware};

/// The first `lang` code block of `docs/modding/runs.md`'s augment section.
fn documented(lang: &str) -> String {
    documented_in("## An augment of your own", lang)
}

/// The first `lang` code block of `docs/modding/runs.md` after `heading`.
fn documented_in(heading: &str, lang: &str) -> String {
    let doc = std::fs::read_to_string(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("docs/modding/runs.md"),
    )
    .unwrap();
    let at = doc.find(heading).unwrap();
    let fence = format!("```{lang}\n");
    let start = at + doc[at..].find(&fence).unwrap() + fence.len();
    let end = start + doc[start..].find("```").unwrap();
    doc[start..end].to_string()
}

fn stat(content: &ContentDb, blueprint: &str) -> StatOf {
    StatOf {
        blueprint: content.blueprint_id(blueprint).unwrap(),
        entity: None,
    }
}

#[test]
fn the_documented_augment_and_its_script_change_their_blueprint() {
    let mods = Mods::new();
    mods.manifest("m", &["core"])
        .file("m/augments/ricochet.ron", &documented("ron"))
        .file("m/scripts/ricochet.lua", &documented("lua"));
    let content = mods.load_with_core();
    let ricochet = content.augment("m:ricochet").expect("the example loads");
    let sniper = content.blueprint(content.blueprint_id("core:sniper").unwrap());
    let meteor = content.blueprint(content.blueprint_id("core:meteor").unwrap());
    assert!(
        ricochet.fits(sniper) && !ricochet.fits(meteor),
        "towers with damage and range"
    );

    let plain = |content: &Arc<ContentDb>| Arena::with_augments(content.clone(), STRAIGHT, &[]);
    let mut a = Arena::with_augments(
        content.clone(),
        STRAIGHT,
        &[("core:sniper", &["m:ricochet"])],
    );
    let damage = |b: &mut Battle, bp: &str| b.query(|b| &b.chains.hit_damage, &stat(&content, bp));
    assert_eq!(damage(&mut plain(&content).battle, "core:sniper"), 10.0);
    assert!(
        (damage(&mut a.battle, "core:sniper") - 11.5).abs() < 1e-9,
        "× 1.15"
    );
    assert_eq!(
        damage(&mut a.battle, "core:gatling_gun"),
        damage(&mut plain(&content).battle, "core:gatling_gun")
    );

    // The script runs on each sniper placed: +1 range per wave it has stood.
    let tower = a.place("core:sniper", 4.0, 1.0);
    let range = |a: &mut Arena| {
        a.battle.query(
            |b| &b.chains.range,
            &StatOf {
                entity: Some(tower),
                ..stat(&content, "core:sniper")
            },
        )
    };
    assert!((range(&mut a) - 11.1).abs() < 1e-9, "{}", range(&mut a));
    a.wave();
    a.end_wave();
    assert!((range(&mut a) - 12.1).abs() < 1e-9, "{}", range(&mut a));
    a.no_script_errors();

    // Mistakes are pointed at.
    let broken = Mods::new();
    broken
        .manifest("m", &["core"])
        .file("m/augments/nothing.ron", r#"(name: "Nothing", description: "Does nothing.", rarity: Common)"#)
        .file(
            "m/augments/huge.ron",
            r#"(name: "Huge", description: "Too much.", rarity: Special, changes: [Range(50)], script: "scripts/missing.lua")"#,
        );
    let (content, diagnostics) = broken.load_after_core();
    assert!(content.augment("m:nothing").is_none() && content.augment("m:huge").is_none());
    let text: String = diagnostics.iter().map(|d| d.summary() + "\n").collect();
    for needle in [
        "nothing.ron:1:",
        "an augment needs `changes`, a `script`, or both",
        "an augment is Common, Rare or Legendary, not Special",
        "a change's factor must be above 0 and at most 10, not 50",
        "missing.lua",
    ] {
        assert!(text.contains(needle), "expected `{needle}` in:\n{text}");
    }
}

#[test]
fn core_augments_change_what_they_say() {
    let content = Mods::new().load_with_core();
    assert!(content.augments.len() >= 8, "{}", content.augments.len());
    let mut a = Arena::with_augments(
        content.clone(),
        STRAIGHT,
        &[
            (
                "core:sniper",
                &["core:long_barrel", "core:thermite_coating"],
            ),
            (
                "core:gatling_gun",
                &["core:rapid_loader", "core:salvaged_parts"],
            ),
        ],
    );
    let mut plain = Arena::with_augments(content.clone(), STRAIGHT, &[]);
    let q = |b: &mut Battle, chain: fn(&Battle) -> &Qry<StatOf, f64>, bp: &str| {
        b.query(chain, &stat(&content, bp))
    };
    let range: fn(&Battle) -> &Qry<StatOf, f64> = |b| &b.chains.range;
    let interval: fn(&Battle) -> &Qry<StatOf, f64> = |b| &b.chains.interval;
    let (b, p) = (&mut a.battle, &mut plain.battle);
    assert!((q(b, range, "core:sniper") - q(p, range, "core:sniper") * 1.2).abs() < 1e-9);
    assert!(
        (q(b, interval, "core:gatling_gun") - q(p, interval, "core:gatling_gun") * 0.8).abs()
            < 1e-9
    );
    let cost = |b: &mut Battle| {
        b.query(
            |b| &b.chains.blueprint_cost,
            &stat(&content, "core:gatling_gun"),
        )
    };
    assert!((cost(b).materials - cost(p).materials * 0.8).abs() < 1e-9);
    // The info panel shows the augmented cost as better.
    let view = b.describe_blueprint(content.blueprint_id("core:gatling_gun").unwrap(), None);
    assert!((view.cost.materials - cost(p).materials * 0.8).abs() < 1e-9);
    assert_eq!(
        view.cost_quality,
        rampart_core::content::describe::Quality::Better
    );
    // Each augment says what it does, as an added line.
    let added: Vec<String> = view
        .text
        .lines
        .iter()
        .filter(|l| l.added)
        .map(|l| {
            RichText {
                lines: vec![l.clone()],
            }
            .plain()
        })
        .collect();
    assert_eq!(
        added,
        [
            "Rapid Loader: Shoots 20% more often.",
            "Salvaged Parts: Costs 20% less.",
        ],
        "{added:?}"
    );
    // A card away from the battle shows the same values and lines.
    let card = BlueprintView::with_augments(
        &content,
        "core:gatling_gun",
        &["core:rapid_loader".into(), "core:salvaged_parts".into()],
    )
    .unwrap();
    assert_eq!(card, view);
    assert!(card.text.values().any(|(_, q)| q == Quality::Better));
    let bare = BlueprintView::with_augments(&content, "core:gatling_gun", &[]).unwrap();
    assert!(bare.text.lines.iter().all(|l| !l.added));
    assert_eq!(bare.cost_quality, Quality::Unchanged);
    assert!(BlueprintView::with_augments(&content, "core:nothing", &[]).is_none());

    // Thermite: the sniper's hits are also energy; another tower's are not.
    let sniper = a.place("core:sniper", 4.0, 1.0);
    let gun = a.place("core:gatling_gun", 6.0, 1.0);
    let target = a.standing("core:red_slime", 8.0, 3.0);
    let hit = |b: &mut Battle, source| {
        let Outcome::Applied(d) = b.command(
            |b| &b.chains.damage,
            Damage {
                target,
                amount: 0.5,
                types: [DamageType::Physical].into_iter().collect(),
                source: Some(source),
                own_hit: false,
                dealt: 0.0,
            },
        ) else {
            panic!("the hit went through");
        };
        d.types
    };
    assert!(hit(&mut a.battle, sniper).contains(DamageType::Energy));
    assert!(!hit(&mut a.battle, gun).contains(DamageType::Energy));

    // Executioner (a script): double damage on attackers below a quarter of their HP.
    let mut a = Arena::with_augments(
        content.clone(),
        STRAIGHT,
        &[("core:sniper", &["core:executioner"])],
    );
    let sniper = a.place("core:sniper", 4.0, 1.0);
    let target = a.standing("core:red_slime", 8.0, 3.0);
    let shot = |a: &mut Arena| {
        a.battle
            .command(
                |b| &b.chains.damage,
                Damage {
                    target,
                    amount: 0.1,
                    types: [DamageType::Physical].into_iter().collect(),
                    source: Some(sniper),
                    own_hit: false,
                    dealt: 0.0,
                },
            )
            .applied()
            .unwrap()
            .amount
    };
    // (The sniper's own script adds to a hit by distance; the same both times.)
    let full = shot(&mut a);
    let hp = a.hp(target);
    a.hit(target, hp * 0.8, DamageType::HpLoss);
    assert!(
        (shot(&mut a) - 2.0 * full).abs() < 1e-9,
        "below a quarter: doubled"
    );
    a.no_script_errors();
}

/// A fresh run of the core.
fn run_with(content: &ContentDb, seed: u64) -> Run {
    Run::new(content, RunConfig::new(seed)).unwrap()
}

/// `run` standing in `shop` with money to spare.
fn in_shop(run: &Run, shop: &Shop) -> Run {
    let shop_text = rampart_core::ron_file::to_string(shop).unwrap();
    let text = run
        .to_ron()
        .replace("money: 30", "money: 1000")
        .replace("phase: Map", &format!("phase: Shop({shop_text})"));
    Run::from_ron(&text).unwrap()
}

#[test]
fn a_run_applies_augments_at_most_twice_per_blueprint_and_keeps_them() {
    let content = Mods::new().load_with_core();
    let run = run_with(&content, 4);
    // A shop with every kind of ware, the augments among them, stocked from a seed.
    let shop = Shop::stock(&content, &run, Seed(9)).unwrap();
    let augment_wares: Vec<&AugmentOffer> = shop
        .offers
        .iter()
        .filter_map(|o| match &o.ware {
            Ware::Augment(a) => Some(a),
            _ => None,
        })
        .collect();
    let setter = content.levels.as_ref().unwrap();
    assert_eq!(augment_wares.len(), setter.augments.shop);
    for a in &augment_wares {
        assert!(run.collection().contains(&a.blueprint));
        let bp = content.blueprint(content.blueprint_id(&a.blueprint).unwrap());
        assert!(content.augment(&a.augment).unwrap().fits(bp));
    }
    // Bought, the augment is on its blueprint; the battle set up next carries it.
    let mut run = in_shop(&run, &shop);
    let index = shop
        .offers
        .iter()
        .position(|o| matches!(o.ware, Ware::Augment(_)))
        .unwrap();
    let bought = augment_wares[0].clone();
    run.buy(&content, index, None).unwrap();
    assert_eq!(
        run.augments_of(&bought.blueprint),
        std::slice::from_ref(&bought.augment)
    );
    assert!(run.buy(&content, index, None).is_err(), "sold");
    let saved = Run::from_ron(&run.to_ron()).unwrap();
    assert_eq!(saved, run, "augments are saved");
    run.leave_shop().unwrap();
    let plan = run.plan_of_level(&content).unwrap();
    assert_eq!(plan.setup.start.augments, run.augments().clone());

    // Two at most, and never the same twice: a third is refused.
    let blueprint = "core:budget_sentry";
    let mut augments: BTreeMap<String, Vec<String>> = BTreeMap::new();
    augments.insert(
        blueprint.into(),
        vec!["core:hardened_rounds".into(), "core:long_barrel".into()],
    );
    let text = run_with(&content, 4).to_ron().replace(
        "    money:",
        &format!(
            "    augments: {},\n    money:",
            rampart_core::ron_file::to_string(&augments).unwrap()
        ),
    );
    let full = Run::from_ron(&text).unwrap();
    let targets: Vec<(&str, &[String])> = full
        .collection()
        .iter()
        .map(|b| (b.as_str(), full.augments_of(b)))
        .collect();
    let mut rng = Seed(1).rng();
    for _ in 0..200 {
        let offer =
            rampart_core::run::augments::draw(&content, setter, 5, &targets, &mut rng).unwrap();
        assert_ne!(
            offer.blueprint, blueprint,
            "a blueprint with two takes no third"
        );
    }
    // A save with three on one blueprint is refused.
    let three = text.replace(
        "\"core:long_barrel\"",
        "\"core:long_barrel\", \"core:rapid_loader\"",
    );
    let err = Run::from_ron(&three).unwrap_err().to_string();
    assert!(err.contains("more than two"), "{err}");
}

#[test]
fn rewards_sometimes_offer_an_augment_or_an_augmented_blueprint() {
    let content = Mods::new().load_with_core();
    let setter = content.levels.as_ref().unwrap();
    let run = run_with(&content, 1);
    let collection: Vec<(&str, &[String])> = run
        .collection()
        .iter()
        .map(|b| (b.as_str(), &[][..]))
        .collect();
    let mut rng = Seed(3).rng();
    let (mut rewards, mut offered, mut preapplied) = (0, 0, 0);
    for level in 1..=200 {
        let o = after_battle(&content, setter, level % 20 + 1, &[], &collection, &mut rng);
        rewards += 1;
        assert_eq!(
            o.offers.len() + usize::from(o.augment.is_some()),
            setter.offers
        );
        if let Some(a) = &o.augment {
            offered += 1;
            assert!(run.collection().contains(&a.blueprint));
        }
        for (id, with) in o.offers.iter().zip(&o.augmented) {
            if let Some(augment) = with {
                preapplied += 1;
                let bp = content.blueprint(content.blueprint_id(id).unwrap());
                assert!(
                    content.augment(augment).unwrap().fits(bp),
                    "{augment} on {id}"
                );
            }
        }
    }
    // The core's chances: 0.3 and 0.15 per offer.
    let share = offered as f64 / rewards as f64;
    assert!((0.2..0.4).contains(&share), "{offered} of {rewards}");
    assert!(preapplied > 30, "{preapplied}");
}

/// The ascension example of `docs/modding/runs.md`: a mod's own levels, added up.
#[test]
fn a_mod_gives_its_own_ascension_levels() {
    let mods = Mods::new();
    mods.manifest("m", &["core"]).file(
        "m/levels.ron",
        &documented_in("## Ascension levels of your own", "ron"),
    );
    let content = mods.load_with_core();
    let setter = content.levels.as_ref().unwrap();
    assert_eq!(setter.ascension.len(), 4);
    let at = |ascension| {
        Run::new(
            &content,
            RunConfig {
                ascension,
                difficulty: rampart_core::run::Difficulty::Normal,
                ..RunConfig::new(3)
            },
        )
    };
    let (base, top) = (at(0).unwrap(), at(4).unwrap());
    assert_eq!(top.hull(), base.hull() - 5.0);
    assert_eq!(top.collection_limit(), base.collection_limit() - 2);
    let strength = top.strength(&content).unwrap();
    assert_eq!(base.strength(&content).unwrap()["core:skeleton"], 1.0);
    assert!((strength["core:skeleton"] - 1.1).abs() < 1e-9);
    let materials = |run: &Run| run.plan_of_level(&content).unwrap().setup.start.materials;
    assert!((materials(&top) - materials(&base) * 0.8).abs() < 1e-9);
    assert!(at(5).is_err(), "the mod has four levels");
}

#[test]
fn an_augment_whose_blueprint_left_the_collection_is_gone_from_the_shop() {
    let content = Mods::new().load_with_core();
    let run = run_with(&content, 4);
    let shop = Shop::stock(&content, &run, Seed(9)).unwrap();
    let (ware, target) = shop
        .offers
        .iter()
        .enumerate()
        .find_map(|(i, o)| match &o.ware {
            Ware::Augment(a) => Some((i, a.blueprint.clone())),
            _ => None,
        })
        .expect("the shop sells an augment");
    let removal = shop
        .offers
        .iter()
        .position(|o| o.ware == Ware::Removal)
        .expect("the shop sells a removal");
    let mut run = in_shop(&run, &shop);
    let slot = run.collection().iter().position(|b| *b == target).unwrap();
    run.buy(&content, removal, Some(slot)).unwrap();
    assert!(!run.collection().contains(&target));
    let RunPhase::Shop(after) = run.phase() else {
        panic!("still in the shop");
    };
    assert!(
        after.offers[ware].sold,
        "the augment went with its blueprint"
    );
    assert!(matches!(run.buy(&content, ware, None), Err(RunError::Sold)));
    assert!(run.augments_of(&target).is_empty());
}
