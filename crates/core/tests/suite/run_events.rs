//! Walking the run map: rooms entered by kind (battles, shops, events, rests), events as content
//! with their outcomes and chances, the act's end, saves of a run on its map; and the autopilot
//! walking whole runs.

use std::sync::Arc;

use crate::common::Mods;
use rampart_autopilot::{choose_event, choose_purchase, choose_room, play_run};
use rampart_core::content::ContentDb;
use rampart_core::content::acts::NodeKind;
use rampart_core::content::events::Outcome;
use rampart_core::run::rewards::{draw, offerable};
use rampart_core::run::{Run, RunConfig, RunPhase};

/// The event example of `docs/modding/runs.md`, as a modder would copy it.
fn documented_event() -> String {
    let doc = std::fs::read_to_string(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("docs/modding/runs.md"),
    )
    .unwrap();
    let at = doc.find("## An event of your own").unwrap();
    let start = at + doc[at..].find("```ron\n").unwrap() + 7;
    let end = start + doc[start..].find("```").unwrap();
    doc[start..end].to_string()
}

/// The code blocks (`ron`, `lua`) of the event-with-a-script example of `docs/modding/runs.md`.
fn documented_script_event() -> (String, String) {
    let doc = std::fs::read_to_string(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("docs/modding/runs.md"),
    )
    .unwrap();
    let at = doc.find("### An event with a script").unwrap();
    let block = |lang: &str| {
        let fence = format!("```{lang}\n");
        let start = at + doc[at..].find(&fence).unwrap() + fence.len();
        let end = start + doc[start..].find("```").unwrap();
        doc[start..end].to_string()
    };
    (block("ron"), block("lua"))
}

/// The first run from seed `from` on whose start room opens a room of `kind`, and that room.
fn run_next_to(content: &ContentDb, kind: NodeKind, from: u64) -> (Run, u32) {
    for seed in from..from + 500 {
        let run = Run::new(content, RunConfig::new(seed)).unwrap();
        let room = run
            .choices()
            .into_iter()
            .find(|&id| run.map().node(id).unwrap().kind == kind);
        if let Some(room) = room {
            return (run, room);
        }
    }
    panic!("no seed opens a {kind:?} room next to the start");
}

#[test]
fn a_mod_adds_an_event_and_its_mistakes_are_pointed_at() {
    let mods = Mods::new();
    mods.manifest("m", &["core"])
        .file("m/events/toll_bridge.ron", &documented_event())
        .file(
            "m/events/broken.ron",
            r#"(
    title: "Broken",
    text: "Every mistake at once.",
    choices: [
        (text: "Gamble", chance: 1.5, outcomes: [GiveBlueprint("core:snipper")]),
        (text: "Starter", outcomes: [Blueprint(Starter)]),
    ],
)"#,
        );
    let (content, diagnostics) = mods.load_after_core();
    let toll = content
        .events
        .iter()
        .find(|e| e.id == "m:toll_bridge")
        .expect("the documented event loads");
    assert_eq!(
        (toll.from_act, toll.to_act, toll.choices.len()),
        (1, Some(2), 3)
    );
    assert!(toll.in_act(2) && !toll.in_act(3));
    assert!(content.events.iter().all(|e| e.id != "m:broken"));
    let text: String = diagnostics.iter().map(|d| d.summary() + "\n").collect();
    for needle in [
        "broken.ron:5:26: `chance` must be from 0 to 1, not 1.5",
        "broken.ron:5:64: there is no blueprint `core:snipper`",
        "did you mean `core:sniper`",
        "broken.ron:6:38: starter blueprints are never given",
    ] {
        assert!(text.contains(needle), "expected `{needle}` in:\n{text}");
    }
    // The core's events all load.
    let core = Mods::new().load_with_core();
    assert!(core.events.len() >= 6, "{}", core.events.len());
}

#[test]
fn rooms_do_what_their_kind_says() {
    let content = Mods::new().load_with_core();
    let full = content.levels.as_ref().unwrap().hull;
    let (mut run, room) = run_next_to(&content, NodeKind::Battle, 1);
    assert_eq!(run.phase(), &RunPhase::Map);
    assert!(run.plan(&content).is_err(), "no battle on the map");
    // A barred or unmade room cannot be entered; nothing changes.
    let before = run.clone();
    assert!(run.enter(&content, 999).is_err());
    assert_eq!(run, before);
    run.enter(&content, room).unwrap();
    assert_eq!(run.phase(), &RunPhase::Battle);
    assert!(run.choices().is_empty(), "no other room during a battle");
    assert!(run.enter(&content, room).is_err());

    // A rest gives hull back, up to the starting hull, and the map stays. (A save edited so
    // that a room next to the start is a rest: rests come later in the core's acts.)
    let (run, room) = run_next_to(&content, NodeKind::Battle, 1);
    let save = run.to_ron();
    let at = save.find(&format!("id: {room},")).unwrap();
    let kind_at = at + save[at..].find("kind: Battle").unwrap();
    let text = format!(
        "{}kind: Rest{}",
        &save[..kind_at],
        &save[kind_at + "kind: Battle".len()..]
    )
    .replace(&format!("hull: {full:?}"), "hull: 10.0");
    let mut hurt = Run::from_ron(&text).unwrap();
    hurt.enter(&content, room).unwrap();
    let rest = content.levels.as_ref().unwrap().rest;
    assert_eq!(hurt.phase(), &RunPhase::Map);
    assert_eq!(hurt.hull(), (10.0 + rest).min(full));
    assert!(hurt.map().node(room).unwrap().cleared);
    assert!(!hurt.choices().is_empty(), "on to the next room");
}

#[test]
fn events_are_drawn_and_decided_from_the_run_seed() {
    let content = Mods::new().load_with_core();
    let (run, room) = run_next_to(&content, NodeKind::Event, 1);
    let mut a = run.clone();
    let mut b = run.clone();
    a.enter(&content, room).unwrap();
    b.enter(&content, room).unwrap();
    assert_eq!(a, b, "the same seed draws the same event");
    let RunPhase::Event(visit) = a.phase().clone() else {
        panic!("an event room holds an event: {:?}", a.phase());
    };
    assert!(
        content
            .events
            .iter()
            .any(|e| e.id == visit.event && e.in_act(1))
    );
    let (event, states) = a.event_choices(&content).unwrap();
    assert_eq!(states.len(), event.choices.len());
    let open = states.iter().position(|s| s.blocked.is_none()).unwrap();
    let happened = a.choose_event(&content, open).unwrap();
    assert_eq!(happened, b.choose_event(&content, open).unwrap());
    assert_eq!(a, b, "the same choice has the same outcome");
    assert!(matches!(a.phase(), RunPhase::Map | RunPhase::Reward { .. }));
    assert!(a.map().node(room).unwrap().cleared);
    assert!(
        a.choose_event(&content, 0).is_err(),
        "an event is taken once"
    );
}

#[test]
fn outcomes_change_the_run_as_they_say() {
    let content = Mods::new().load_with_core();
    let full = content.levels.as_ref().unwrap().hull;
    let (run, room) = run_next_to(&content, NodeKind::Event, 1);
    let mut at = run.clone();
    at.enter(&content, room).unwrap();
    let RunPhase::Event(visit) = at.phase().clone() else {
        panic!()
    };
    let at_event = |event: &str, money: u32, hull: f64| {
        let text = at
            .to_ron()
            .replace(&visit.event, event)
            .replace(
                &format!("money: {}", at.money()),
                &format!("money: {money}"),
            )
            .replace(&format!("hull: {full:?}"), &format!("hull: {hull:?}"));
        Run::from_ron(&text).unwrap()
    };

    // The smith: money for hull, never past the starting hull; blocked without the money.
    let mut poor = at_event("core:wandering_smith", 10, 5.0);
    let (_, states) = poor.event_choices(&content).unwrap();
    let why = states[0].blocked.clone().expect("25 money needed, 10 held");
    assert!(why.contains("needs 25 money"), "{why}");
    assert!(poor.choose_event(&content, 0).is_err());
    poor.choose_event(&content, 2).unwrap();
    assert_eq!((poor.money(), poor.hull()), (10, 5.0));
    let mut rich = at_event("core:wandering_smith", 100, full - 3.0);
    assert_eq!(
        rich.choose_event(&content, 1).unwrap(),
        [Outcome::Money(-50), Outcome::Hull(12.0)]
    );
    assert_eq!((rich.money(), rich.hull()), (50, full));

    // Losing hull never takes the last point.
    let mut frail = at_event("core:buried_relic", 0, 3.0);
    frail.choose_event(&content, 0).unwrap();
    assert_eq!(frail.hull(), 1.0);
    // … and the special blueprint comes as a reward to take, not a battle won.
    let RunPhase::Reward { offers, .. } = frail.phase().clone() else {
        panic!("a blueprint outcome offers it: {:?}", frail.phase());
    };
    assert_eq!(offers, ["core:relic_cannon"]);
    let level = frail.level();
    frail.choose_reward(&content, Some(0), None).unwrap();
    assert!(
        frail
            .collection()
            .contains(&"core:relic_cannon".to_string())
    );
    assert_eq!((frail.level(), frail.phase()), (level, &RunPhase::Map));
    // Special blueprints are never offered after battles or in shops.
    assert!(!offerable(&content, "core:relic_cannon"));
    let setter = content.levels.as_ref().unwrap();
    let mut rng = rampart_core::rng::Seed(1).rng();
    for level in 1..30 {
        let offers = draw(&content, setter, level, &[], &mut rng);
        assert!(offers.iter().all(|o| o != "core:relic_cannon"));
    }

    // The trader takes a blueprint, at random, for money; the last one always stays.
    let mut trader = at_event("core:scrap_trader", 0, 20.0);
    let held = trader.collection().len();
    trader.choose_event(&content, 0).unwrap();
    assert_eq!((trader.collection().len(), trader.money()), (held - 1, 60));

    // A chance is drawn from the room's seed: over many rooms both sides come up.
    let (mut wins, mut losses) = (0, 0);
    for seed in 0..40u64 {
        let save = at_event("core:gambler", 100, 20.0).to_ron();
        let from = format!("seed: {},", visit.seed.0);
        assert!(save.contains(&from), "{save}");
        let text = save.replace(&from, &format!("seed: {seed},"));
        let mut gambler = Run::from_ron(&text).unwrap();
        match gambler.choose_event(&content, 0).unwrap()[..] {
            [Outcome::Money(30)] => wins += 1,
            [Outcome::Money(-30)] => losses += 1,
            ref other => panic!("{other:?}"),
        }
    }
    assert!(wins >= 8 && losses >= 8, "{wins} wins, {losses} losses");
}

#[test]
fn a_run_on_its_map_saves_and_loads_into_the_same_state() {
    let content = Mods::new().load_with_core();
    let (mut run, room) = run_next_to(&content, NodeKind::Event, 3);
    run.enter(&content, room).unwrap();
    let saved = Run::from_ron(&run.to_ron()).unwrap();
    assert_eq!(saved, run);
    assert_eq!(saved.map(), run.map());
    let choice = choose_event(&content, &run).unwrap();
    let mut again = saved.clone();
    assert_eq!(
        run.choose_event(&content, choice).unwrap(),
        again.choose_event(&content, choice).unwrap()
    );
    assert_eq!(run, again);
    if let RunPhase::Reward { .. } = run.phase() {
        run.choose_reward(&content, None, None).unwrap();
    }
    // The next rooms made are the same after a load: the map grows from the seed tree alone.
    let next = choose_room(&content, &run).unwrap();
    let mut loaded = Run::from_ron(&run.to_ron()).unwrap();
    run.enter(&content, next).unwrap();
    loaded.enter(&content, next).unwrap();
    assert_eq!(run.map(), loaded.map());
}

/// The autopilot walks whole runs: it enters rooms, shops, takes events, and every act it wins
/// ended with its boss's battle.
#[test]
fn the_autopilot_walks_runs_across_acts() {
    let content: Arc<ContentDb> = Mods::new().load_with_core();
    let mut rooms = 0;
    for seed in 0..3 {
        let report = play_run(&content, RunConfig::new(seed), 100, |_, _| {}).unwrap();
        rooms += report.rooms;
        assert!(report.rooms as usize >= report.levels.len());
        let won_bosses = report
            .levels
            .iter()
            .filter(|l| l.kind == "boss" && l.result == rampart_autopilot::LevelResult::Won)
            .count() as u32;
        assert_eq!(won_bosses, report.acts_won, "seed {seed}");
        assert!(report.acts_reached >= 1 && report.acts_reached <= 3);
        assert_eq!(report.won, report.acts_won == 3);
        // Levels count up through the run, act after act.
        for (i, l) in report.levels.iter().enumerate() {
            assert_eq!(l.level, i as u32 + 1);
        }
    }
    assert!(rooms > 6, "rooms entered: {rooms}");
    // In a shop it buys only what it can pay for, and leaves.
    let (mut run, _) = run_next_to(&content, NodeKind::Battle, 1);
    assert!(choose_purchase(&content, &run).is_none(), "not in a shop");
    let shop = rampart_core::run::Shop::stock(&content, &run, rampart_core::rng::Seed(2)).unwrap();
    let text = run.to_ron().replace(
        "phase: Map",
        &format!(
            "phase: Shop({})",
            rampart_core::ron_file::to_string(&shop).unwrap()
        ),
    );
    run = Run::from_ron(&text).unwrap();
    while let Some((offer, slot)) = choose_purchase(&content, &run) {
        run.buy(&content, offer, slot).unwrap();
    }
    run.leave_shop().unwrap();
}

/// An event's script decides a choice's outcomes from the run, deterministically; a broken one
/// leaves the choice's own outcomes in place.
#[test]
fn event_scripts_decide_from_the_run_and_the_room_seed() {
    let (ron, lua) = documented_script_event();
    let mods = Mods::new();
    mods.manifest("m", &["core"])
        .file("m/events/caravan.ron", &ron)
        .file("m/scripts/caravan.lua", &lua)
        .file(
            "m/events/broken.ron",
            r#"(title: "Broken", text: "Its script fails.", choices: [(text: "Try", outcomes: [Money(5)])], script: "scripts/broken.lua")"#,
        )
        .file(
            "m/scripts/broken.lua",
            "return { outcomes = function(run, choice, outcomes) return { { money = 'lots' } } end }",
        );
    let content = mods.load_with_core();
    assert!(content.events.iter().any(|e| e.id == "m:caravan"));
    let (run, room) = run_next_to(&content, NodeKind::Event, 1);
    let mut at = run.clone();
    at.enter(&content, room).unwrap();
    let RunPhase::Event(visit) = at.phase().clone() else {
        panic!()
    };
    let with = |event: &str, seed: u64, money: u32| {
        let text = at
            .to_ron()
            .replace(&visit.event, event)
            .replace(
                &format!("seed: {},", visit.seed.0),
                &format!("seed: {seed},"),
            )
            .replace(
                &format!("money: {}", at.money()),
                &format!("money: {money}"),
            );
        Run::from_ron(&text).unwrap()
    };
    let (mut traps, mut poor, mut rich) = (0, 0, 0);
    for seed in 0..60 {
        for (money, count) in [(10, &mut poor), (100, &mut rich)] {
            let mut run = with("m:caravan", seed, money);
            let happened = run.choose_event(&content, 0).unwrap();
            let mut again = with("m:caravan", seed, money);
            assert_eq!(
                again.choose_event(&content, 0).unwrap(),
                happened,
                "the same luck"
            );
            match happened[..] {
                [Outcome::Hull(-3.0)] => traps += 1,
                [Outcome::Money(30)] if money == 10 => *count += 1,
                [Outcome::Blueprint(rampart_core::content::Rarity::Rare)] if money == 100 => {
                    *count += 1;
                    assert!(matches!(run.phase(), RunPhase::Reward { .. }));
                }
                ref other => panic!("{money} money: {other:?}"),
            }
        }
    }
    assert!(
        traps > 20 && poor > 20 && rich > 20,
        "{traps} {poor} {rich}"
    );
    // Leaving: the choice's own (empty) outcomes.
    assert!(
        with("m:caravan", 1, 10)
            .choose_event(&content, 1)
            .unwrap()
            .is_empty()
    );
    // A broken script: the data's outcomes stand in.
    let mut broken = with("m:broken", 1, 10);
    assert_eq!(
        broken.choose_event(&content, 0).unwrap(),
        [Outcome::Money(5)]
    );
    assert_eq!(broken.money(), 15);
    // The core's Fortune Teller reads the run: a hurt run is healed.
    let mut hurt = with("core:fortune_teller", 1, 50);
    let hurt = {
        let full = content.levels.as_ref().unwrap().hull;
        let text = hurt
            .to_ron()
            .replace(&format!("hull: {full:?}"), "hull: 4.0");
        hurt = Run::from_ron(&text).unwrap();
        hurt.choose_event(&content, 0).unwrap()
    };
    assert_eq!(hurt, [Outcome::Money(-15), Outcome::Hull(5.0)]);
}
