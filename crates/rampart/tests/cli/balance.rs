//! Rating and breeding levels (`rampart rate`, `rampart breed`): the measure's range and
//! determinism on any number of threads, the genetic algorithm's rules (population size, one
//! component per mutation, the widening window, termination), and bred designs played by the
//! level setter.

use std::ops::Range;
use std::sync::Arc;

use rampart_autopilot::LevelResult;
use rampart_balance::breed::{COMPONENTS, random_design, regenerate, window};
use rampart_balance::{Bot, Breeder, Component, Play, Rating, Selection, rate};
use rampart_core::content::{ContentDb, LevelDesign};
use rampart_core::rng::Seed;
use rampart_core::run::LevelSpec;

use crate::common::Mods;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn armed() -> Arc<ContentDb> {
    Mods::new().load_armed()
}

/// A rating made up from a number, for searches that should not play: a design's difficulty is
/// a fixed pseudo-random function of it and the seeds, so the search has nothing to climb — the
/// hardest case for termination — and a confirmation is independent of the first rating.
fn made_up(designs: &[LevelDesign], seeds: Range<u64>) -> Vec<Rating> {
    designs
        .iter()
        .map(|d| {
            let text = format!("{d:?}{seeds:?}");
            let x = Seed(xxhash_rust::xxh3::xxh3_64(text.as_bytes()))
                .rng()
                .range_f64(0.0, 1.0);
            let play = Play {
                seed: 0,
                result: LevelResult::Won,
                hull_lost: x,
                score: x,
            };
            Rating::of(Bot::Autopilot, vec![play])
        })
        .collect()
}

#[test]
fn a_rating_lies_in_0_1_and_does_not_depend_on_the_threads() {
    let content = armed();
    let design = random_design(&content, 2, &mut Seed(4).rng()).unwrap();
    let one = pool(1).install(|| rate(&content, &design, Bot::Autopilot, 0..3).unwrap());
    let two = pool(2).install(|| rate(&content, &design, Bot::Autopilot, 0..3).unwrap());
    assert_eq!(one, two);
    assert_eq!(one.plays.len(), 3);
    assert!((0.0..=1.0).contains(&one.difficulty), "{one:?}");
    for p in &one.plays {
        let expected = match p.result {
            LevelResult::Won => p.hull_lost,
            _ => 1.0,
        };
        assert_eq!(p.score, expected, "{p:?}");
    }
    let mean = one.plays.iter().map(|p| p.score).sum::<f64>() / 3.0;
    assert!((one.difficulty - mean).abs() < 1e-12);
}

#[test]
fn regenerating_a_component_changes_nothing_else() {
    let content = armed();
    let mut rng = Seed(9).rng();
    for level in [1, 4, 9] {
        let start = random_design(&content, level, &mut rng).unwrap();
        for c in COMPONENTS {
            for _ in 0..5 {
                let mut child = start.clone();
                regenerate(&content, &mut child, c, &mut rng).unwrap();
                // Put the regenerated component back: what is left must be the original.
                let mut restored = child.clone();
                rampart_balance::breed::take(&mut restored, &start, c);
                assert_eq!(restored, start, "{c:?} changed more than itself");
                LevelSpec::of_design(&content, &child).unwrap();
            }
        }
    }
}

#[test]
fn the_search_keeps_its_population_widens_its_window_and_always_ends() {
    let content = armed();
    let mut unconfirmed = 0;
    for (seed, selection, population) in [
        (1, Selection::Ends, 10),
        (2, Selection::Tournament, 10),
        (3, Selection::Ends, 5),
    ] {
        let breeder = Breeder {
            population,
            seed,
            selection,
            ..Breeder::default()
        };
        let mut seen = Vec::new();
        let bred = breeder
            .search(
                &content,
                3,
                0.37,
                |d, seeds| Ok(made_up(d, seeds)),
                |g| seen.push(g.clone()),
            )
            .unwrap();
        assert_eq!(seen, bred.generations);
        let last = bred.generations.len() - 1;
        for g in &bred.generations {
            assert_eq!(g.difficulties.len(), population, "population size");
            assert_eq!(g.window, window(g.number));
            // A design within the window is rated again on other seeds, and only then.
            assert_eq!(g.confirmation.is_some(), g.best_error <= g.window, "{g:?}");
            let confirmed = g.confirmation.is_some_and(|c| (c - 0.37).abs() <= g.window);
            if g.number as usize == last {
                assert!(confirmed, "{g:?} ended the search unconfirmed");
                assert!(g.mutations.is_empty());
            } else {
                assert!(!confirmed, "{g:?} should have ended the search");
                unconfirmed += usize::from(g.confirmation.is_some());
                // Every child: one draw for whether it mutates, at most one component.
                assert_eq!(g.mutations.len(), population / 2 * 2);
            }
        }
        assert!((bred.rating.difficulty - 0.37).abs() <= bred.window);
        assert!((bred.confirmation.difficulty - 0.37).abs() <= bred.window);
        assert_eq!(
            bred.tolerance,
            bred.window + 2.0 * std::f64::consts::SQRT_2 * bred.confirmation.std_error
        );
        assert!(last < 300, "the window reaches 1 by generation 300");
        // About 15 % of the children had one component drawn anew.
        let children: Vec<&Option<Component>> =
            bred.generations.iter().flat_map(|g| &g.mutations).collect();
        let mutated = children.iter().filter(|m| m.is_some()).count() as f64;
        if children.len() >= 100 {
            let share = mutated / children.len() as f64;
            assert!((0.07..0.25).contains(&share), "{share}");
        }
    }
    assert!(
        unconfirmed > 0,
        "no confirmation failed: that path is untested"
    );
    assert_eq!(window(0), 0.0);
    assert_eq!(window(2), 0.0);
    assert_eq!(window(3), 0.01);
    assert_eq!(window(8), 0.02);
}

#[test]
fn breeding_is_the_same_on_one_thread_or_two_and_its_level_is_played_by_the_setter() {
    let content = armed();
    // Target 0: a level the autopilot wins without losing hull, which the armed starters find
    // in the first generations.
    let breeder = Breeder {
        population: 4,
        plays: 2,
        seed: 5,
        ..Breeder::default()
    };
    let breed =
        |threads| pool(threads).install(|| breeder.breed(&content, 1, 0.0, |_| {}).unwrap());
    let one = breed(1);
    assert_eq!(one, breed(2));
    assert!(one.rating.difficulty <= one.window);
    assert!(one.confirmation.difficulty <= one.window);
    let seeds: Vec<u64> = one.confirmation.plays.iter().map(|p| p.seed).collect();
    assert_eq!(
        seeds,
        [2, 3],
        "the confirmation plays the seeds after the breeding's"
    );
    let two_errors = 2.0 * std::f64::consts::SQRT_2 * one.confirmation.std_error;
    assert_eq!(one.tolerance, one.window + two_errors);

    // As a mod's level setter override, the design is what level 1 plays.
    let levels = format!(
        "(overrides: \"core:levels\", designs: [{}])",
        rampart_core::ron_file::to_string(&one.design).unwrap()
    );
    let mods = Mods::new();
    mods.manifest("bred", &["core"])
        .file("bred/levels.ron", &levels);
    let with_design = mods.load_armed();
    let spec = LevelSpec::new(&with_design, 77, 1).unwrap();
    assert_eq!(spec.terrain, one.design.terrain);
    assert_eq!(spec.path_lengths, one.design.path_lengths);
    assert_eq!(spec.wave_count, one.design.wave_count);
    let ids: Vec<&str> = spec
        .pool
        .attackers()
        .iter()
        .map(|a| a.id.as_str())
        .collect();
    assert_eq!(ids, one.design.attackers);
    // Other levels still come from the rules.
    assert_eq!(
        LevelSpec::new(&with_design, 77, 2).unwrap(),
        LevelSpec::new(&content, 77, 2).unwrap()
    );
}

fn rampart(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_rampart"))
        .args(["--mods-dir", "tests/fixtures/run"])
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .env(
            "RAMPART_HOME",
            std::env::temp_dir().join("rampart-balance-test"),
        )
        .env_remove("RUST_LOG")
        .output()
        .unwrap()
}

const DESIGN: &str = r#"(
    level: 2,
    terrain: "core:hills",
    path_lengths: [24],
    attackers: ["core:red_slime", "core:blue_slime"],
    wave_count: 3,
    fuel_goal: 40,
    materials: 50,
)"#;

#[test]
fn rate_plays_a_design_file_with_both_bots_and_points_at_its_mistakes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("level.ron");
    std::fs::write(&file, DESIGN).unwrap();
    let path = file.to_str().unwrap();
    let out = rampart(&["rate", path, "--plays", "2", "--bot", "both", "--json", "-"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let ratings = report["ratings"].as_array().unwrap();
    assert_eq!(ratings.len(), 2);
    for (r, bot) in ratings.iter().zip(["autopilot", "frugal"]) {
        assert_eq!(r["bot"], bot);
        let d = r["difficulty"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&d), "{r}");
        assert_eq!(r["plays"].as_array().unwrap().len(), 2);
    }
    let table = rampart(&["rate", path, "--plays", "2"]);
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(
        text.contains("level 2, core:hills, paths 24, 3 waves"),
        "{text}"
    );
    assert!(text.contains("autopilot      2"), "{text}");

    for (broken, at, needle) in [
        (
            DESIGN.replace("red_slime", "red_slim"),
            ":5:17",
            "did you mean `core:red_slime`?",
        ),
        (
            DESIGN.replace("core:hills", "core:hill"),
            ":3:14",
            "did you mean `core:hills`?",
        ),
        (
            DESIGN.replace("wave_count", "wave_cont"),
            ":6:5",
            "wave_count",
        ),
        (DESIGN.replace("[24]", "[]"), ":4:5", "at least one path"),
    ] {
        std::fs::write(&file, &broken).unwrap();
        let out = rampart(&["rate", path, "--plays", "2"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(&format!("level.ron{at}")), "{at}: {stderr}");
        assert!(stderr.contains(needle), "{needle}: {stderr}");
    }
}

#[test]
fn breed_writes_levels_a_mod_can_ship_and_refuses_a_bad_curve() {
    let dir = tempfile::tempdir().unwrap();
    let curve = dir.path().join("curve.ron");
    std::fs::write(&curve, "(targets: [0.0])").unwrap();
    let shipped = dir.path().join("mods/bred");
    std::fs::create_dir_all(&shipped).unwrap();
    std::fs::write(
        shipped.join("mod.ron"),
        r#"(id: "bred", name: "Bred", version: "0.1.0", dependencies: [(id: "core")])"#,
    )
    .unwrap();
    let levels = shipped.join("levels.ron");
    let out = rampart(&[
        "breed",
        "--curve",
        curve.to_str().unwrap(),
        "--levels",
        "1",
        "--seed",
        "3",
        "--population",
        "4",
        "--plays",
        "2",
        "--out",
        levels.to_str().unwrap(),
        "--json",
        "-",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("level 1: generation 0"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let level = &report["levels"][0];
    assert_eq!(level["target"], 0.0);
    assert_eq!(report["fresh_seeds"], serde_json::json!([4, 5]));
    for field in ["recheck", "setter"] {
        let d = level[field]["difficulty"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&d), "{field}: {level}");
    }
    // The override loads as a mod, and its design is what level 1 plays.
    let check = std::process::Command::new(env!("CARGO_BIN_EXE_rampart"))
        .args([
            "--mods-dir",
            dir.path().join("mods").to_str().unwrap(),
            "check",
        ])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .env("RAMPART_HOME", dir.path().join("home"))
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
    let text = std::fs::read_to_string(&levels).unwrap();
    assert!(text.contains("overrides: \"core:levels\""), "{text}");
    assert!(
        text.contains(level["design"]["terrain"].as_str().unwrap()),
        "{text}"
    );

    std::fs::write(&curve, "(targets: [0.2, 1.5])").unwrap();
    let bad = rampart(&["breed", "--curve", curve.to_str().unwrap(), "--seed", "1"]);
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the target of level 2 is 1.5"), "{stderr}");
    std::fs::write(&curve, "(targets: [0.2,, 0.3])").unwrap();
    let bad = rampart(&["breed", "--curve", curve.to_str().unwrap(), "--seed", "1"]);
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(stderr.contains("curve.ron:1:"), "{stderr}");
}
