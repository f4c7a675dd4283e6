//! Saved games: a run saved in the middle of a level comes back with its battle exactly as it
//! was (same state hash), in another process's terms — from the file alone; a save whose mods
//! changed starts the level again and says why; a save of another version says so; the previous
//! save survives a write as its backup.

use std::sync::Arc;

use crate::common::{Mods, enter_battle};
use rampart_autopilot::Autopilot;
use rampart_core::battle::Phase;
use rampart_core::content::ContentDb;
use rampart_core::files::backup_of;
use rampart_core::run::save::{Resumed, SavedGame};
use rampart_core::run::{Run, RunConfig, RunPhase};

/// A run of the armed test mods, its first level played by the autopilot for `ticks` ticks.
fn played(content: &Arc<ContentDb>, ticks: u64) -> (Run, SavedGame, u64) {
    let mut run = Run::new(
        content,
        RunConfig {
            seed: 11,
            starting_blueprints: None,
            difficulty: Default::default(),
            ascension: 0,
        },
    )
    .unwrap();
    enter_battle(&mut run, content);
    let plan = run.plan(content).unwrap();
    let mut battle = plan.start(content).unwrap();
    let mut pilot = Autopilot::new();
    for _ in 0..ticks {
        pilot.act(&mut battle);
        battle.step();
    }
    assert!(battle.history().len() > 2, "the autopilot played");
    let saved = SavedGame::new(&run, Some((&battle, &plan)));
    (run, saved, battle.state_hash())
}

#[test]
fn a_level_saved_mid_battle_comes_back_exactly() {
    let content = Mods::new().load_armed();
    let (run, saved, hash) = played(&content, 900);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("saves/run.ron");
    saved.write(&path).unwrap();
    let read = SavedGame::read(&path).unwrap();
    assert_eq!(read, saved);
    assert_eq!(read.run, run);
    match read.resume(&content).unwrap() {
        Resumed::Battle(plan, battle) => {
            assert_eq!(plan.level, 1);
            assert_eq!(battle.state_hash(), hash);
            assert_eq!(battle.tick(), 900);
            assert_ne!(battle.phase(), Phase::Won);
        }
        _ => panic!("the battle should come back as it was"),
    }
    // Writing again keeps the last save as the backup.
    let (_, later, _) = played(&content, 1000);
    later.write(&path).unwrap();
    assert_eq!(SavedGame::read(&backup_of(&path)).unwrap(), saved);
    assert_eq!(SavedGame::read(&path).unwrap(), later);
}

#[test]
fn a_save_whose_mods_changed_starts_the_level_again_and_says_why() {
    let content = Mods::new().load_armed();
    let (_, saved, _) = played(&content, 600);
    // The same mods, one blueprint made stronger: the recorded battle now plays differently.
    let changed = Mods::new();
    changed.manifest("tweak", &["core", "armed"]).file(
        "tweak/blueprints/stronger.ron",
        "(overrides: \"core:budget_sentry\", damage: 40)",
    );
    let changed = changed.load_armed();
    match saved.resume(&changed).unwrap() {
        Resumed::Restarted(plan, battle, why) => {
            assert_eq!(plan.level, 1);
            assert_eq!(battle.tick(), 0);
            assert!(why.contains("plays differently"), "{why}");
        }
        _ => panic!("the battle cannot come back as it was"),
    }
}

#[test]
fn saves_of_another_version_or_a_broken_one_say_why() {
    let content = Mods::new().load_armed();
    let (_, saved, _) = played(&content, 50);
    let text = saved.to_ron();
    let future = text.replacen("format: 1", "format: 9", 1);
    let err = SavedGame::from_ron(&future).unwrap_err().to_string();
    assert!(err.contains("format 9, from another version"), "{err}");
    let broken = text.replacen("battle:", "batle:", 1);
    let err = SavedGame::from_ron(&broken).unwrap_err().to_string();
    assert!(
        err.contains("batle") && err.contains("did you mean `battle`"),
        "{err}"
    );
}

#[test]
fn a_save_between_levels_has_no_battle_to_bring_back() {
    let content = Mods::new().load_armed();
    let mut run = Run::new(
        &content,
        RunConfig {
            seed: 3,
            starting_blueprints: None,
            difficulty: Default::default(),
            ascension: 0,
        },
    )
    .unwrap();
    enter_battle(&mut run, &content);
    let plan = run.plan(&content).unwrap();
    let mut battle = plan.start(&content).unwrap();
    rampart_autopilot::play_level(&mut battle);
    run.finish_battle(&battle);
    assert!(matches!(run.phase(), RunPhase::Reward { .. }));
    let saved = SavedGame::new(&run, None);
    let read = SavedGame::from_ron(&saved.to_ron()).unwrap();
    assert!(matches!(read.resume(&content).unwrap(), Resumed::Between));
    // A battle in a save whose run waits for a reward is refused.
    let odd = SavedGame::new(&run, Some((&battle, &plan)));
    let err = SavedGame::from_ron(&odd.to_ron()).unwrap_err().to_string();
    assert!(err.contains("not in one"), "{err}");
}
