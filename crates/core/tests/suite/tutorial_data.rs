//! The tutorial as content: core's `tutorial.ron` loads and its battle can start; a mod
//! replaces its steps with an override; mistakes point at the file and say what is wrong.

use crate::common::Mods;
use rampart_core::content::tutorial::{Pointer, Wait};
use rampart_core::content::{BlueprintKind, ContentDb};
use rampart_core::run::{Run, RunConfig};

fn errors(mods: &Mods) -> Vec<String> {
    let (_, diagnostics) = mods.load_after_core();
    diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.summary())
        .collect()
}

#[test]
fn core_has_a_tutorial_whose_battle_starts() {
    let content: std::sync::Arc<ContentDb> = Mods::new().load_with_core();
    let tutorial = content.tutorial.as_ref().expect("core has a tutorial");
    assert_eq!(tutorial.id, "core:tutorial");
    assert!(tutorial.steps.len() >= 10, "{}", tutorial.steps.len());
    // It teaches the camera, placing a tower, a wave, pause and 2×, an economic building, an
    // ability and the fuel and hull bars.
    let waits: Vec<Wait> = tutorial.steps.iter().map(|s| s.wait).collect();
    for wait in [
        Wait::Camera,
        Wait::Place(BlueprintKind::Tower),
        Wait::WaveStarted,
        Wait::Paused,
        Wait::FastForward,
        Wait::Place(BlueprintKind::Economic),
        Wait::Place(BlueprintKind::Ability),
    ] {
        assert!(waits.contains(&wait), "no step waits for {wait:?}");
    }
    let points: Vec<Pointer> = tutorial.steps.iter().map(|s| s.point).collect();
    assert!(points.contains(&Pointer::Fuel) && points.contains(&Pointer::Hull));
    let mut run = Run::new(
        &content,
        RunConfig {
            seed: tutorial.seed,
            starting_blueprints: Some(tutorial.blueprints.clone()),
            difficulty: Default::default(),
            ascension: 0,
        },
    )
    .unwrap();
    // The tutorial's seed opens a battle room next to the start (the client enters it).
    crate::common::enter_battle(&mut run, &content);
    let battle = run.plan(&content).unwrap().start(&content).unwrap();
    assert_eq!(battle.collection().len(), tutorial.blueprints.len());
}

#[test]
fn a_mod_translates_the_tutorial_with_an_override() {
    let mods = Mods::new();
    mods.manifest("de", &["core"]).file(
        "de/tutorial.ron",
        r#"(overrides: "core:tutorial", steps: [(title: "Willkommen", text: "Los geht's.", wait: Next)])"#,
    );
    let (content, diagnostics) = mods.load_after_core();
    assert!(!diagnostics.has_errors(), "{diagnostics:?}");
    let tutorial = content.tutorial.as_ref().unwrap();
    assert_eq!(tutorial.steps.len(), 1);
    assert_eq!(tutorial.steps[0].title, "Willkommen");
    // The seed and blueprints it did not change are core's.
    assert_eq!(tutorial.blueprints[0], "core:budget_sentry");
}

#[test]
fn tutorial_mistakes_say_where_and_what() {
    let mods = Mods::new();
    mods.manifest("bad", &["core"]).file(
        "bad/tutorial.ron",
        r#"(overrides: "core:tutorial", blueprints: ["core:budget_sentri"])"#,
    );
    let errs = errors(&mods);
    assert!(
        errs.iter()
            .any(|e| e.contains("no blueprint `core:budget_sentri`")
                && e.contains("did you mean `core:budget_sentry`")),
        "{errs:#?}"
    );
    // Core's steps need an economic building and an ability, which this tutorial no longer holds.
    assert!(
        errs.iter()
            .any(|e| e.contains("is about economic blueprints, and the tutorial holds none")),
        "{errs:#?}"
    );
    let twice = Mods::new();
    twice.manifest("again", &["core"]).file(
        "again/tutorial.ron",
        r#"(seed: 1, blueprints: [], steps: [])"#,
    );
    let errs = errors(&twice);
    assert!(
        errs.iter()
            .any(|e| e.contains("the tutorial is already defined by `core:tutorial`")),
        "{errs:#?}"
    );
}
