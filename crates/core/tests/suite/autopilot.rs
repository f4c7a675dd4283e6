//! The autopilot: it wins the first levels on most seeds, plays the same game for the same seed,
//! and acts only through player commands (its battles replay from their command logs alone).

use crate::common::Mods;
use rampart_autopilot::{LevelResult, play_run};
use rampart_core::level::replay::Replay;
use rampart_core::run::RunConfig;

fn config(seed: u64) -> RunConfig {
    RunConfig {
        seed,
        starting_blueprints: None,
        difficulty: Default::default(),
        ascension: 0,
    }
}

#[test]
fn wins_the_first_two_levels_on_most_seeds() {
    let content = Mods::new().load_armed();
    let mut won = 0;
    for seed in 0..8 {
        let report = play_run(&content, config(seed), 2, |_, _| {}).unwrap();
        assert!(report.levels_reached >= 1);
        assert!(
            report
                .levels
                .iter()
                .all(|l| l.result != LevelResult::Stalled)
        );
        if report.levels_won == 2 {
            won += 1;
        }
    }
    assert!(won >= 6, "won both levels on {won} of 8 seeds");
}

#[test]
fn the_same_seed_plays_the_same_run_through_commands_only() {
    let content = Mods::new().load_armed();
    let mut replays = Vec::new();
    let first = play_run(&content, config(21), 2, |plan, battle| {
        replays.push(Replay::record(battle, &plan.setup));
    })
    .unwrap();
    assert_eq!(first, play_run(&content, config(21), 2, |_, _| {}).unwrap());
    assert_eq!(replays.len(), first.levels.len());
    for (replay, level) in replays.iter().zip(&first.levels) {
        assert!(level.towers > 0, "level {} built towers", level.level);
        // Replaying the recorded commands on a fresh battle reaches every checkpoint's hash.
        assert!(replay.verify(&content).is_ok(), "level {}", level.level);
    }
}
