//! A whole battle on a generated world, recorded, replayed in another process, and played with
//! different tick batching; a record checked in from today's format, which must replay with
//! its hashes; the example record of `docs/modding/records.md`; and refused commands, which a
//! replay reports with their tick and the battle's reason.
//!
//! The checked-in record pins the record format and the state hash: a change to either (a new
//! field in the battle state, a rule that plays differently) fails
//! `the_checked_in_record_replays_with_its_hashes`. When the change is meant, bump
//! `level::replay::FORMAT` and make the record again, in the same commit:
//! `RAMPART_UPDATE_RECORD=1 cargo test -p rampart --test cli replay::`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use crate::common::{load_dirs, repo_mods};
use rampart_core::battle::{
    Battle, EntityKind, PlayerCommand, Start, StatOf, WaveSpawn, WaveSpawns,
};
use rampart_core::content::{ContentDb, Priority};
use rampart_core::level::replay::{FORMAT, Refusal, Replay};
use rampart_core::level::{LevelSetup, WorldSetup};
use rampart_core::rng::Seed;
use rampart_core::worldgen::Pos;

/// The mods folder of the recorded battle: its own attackers, towers, Hub and terrain, nothing
/// of core's, so balancing core never changes the record.
fn fixture_mods() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("tests/fixtures/replay/mods")
}

/// The battle record made by this build's format, checked in.
fn fixture_record() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/replay/record.json")
}

fn content() -> Arc<ContentDb> {
    load_dirs(&[fixture_mods()])
}

fn setup() -> LevelSetup {
    let wave = |n: u32| WaveSpawns {
        spawns: (0..n)
            .map(|i| WaveSpawn {
                delay: i * 10,
                path: (i % 2) as usize,
                attacker: if i % 4 == 3 {
                    "recorded:tank".into()
                } else {
                    "recorded:runner".into()
                },
            })
            .collect(),
    };
    LevelSetup {
        world: WorldSetup::Generated {
            terrain: "recorded:meadow".into(),
            seed: 5,
            width: 15,
            height: 15,
            path_lengths: vec![20, 24],
            extra_branches: 1,
        },
        start: Start {
            waves: vec![wave(6), wave(10), wave(16)],
            hub: Some("recorded:hub".into()),
            materials: 100.0,
            energy: 20.0,
            fuel_goal: 1000.0,
            ..Start::new(Seed(77))
        },
    }
}

/// Buildable tiles next to a path, in tile order.
fn spots(battle: &Battle) -> Vec<Pos> {
    let field = battle.field().unwrap();
    let world = field.world();
    world
        .grid
        .tiles()
        .filter(|&p| world.buildable(p))
        .filter(|&p| {
            [(1, 0), (-1, 0), (0, 1), (0, -1)]
                .iter()
                .any(|(dx, dy)| field.on_path(Pos::new(p.x + dx, p.y + dy)))
        })
        .collect()
}

/// Plays the level with its commands, in the given tick batches.
fn play(content: &Arc<ContentDb>, batches: &[u64]) -> (Battle, LevelSetup) {
    let setup = setup();
    let mut b = setup.start(content).unwrap();
    let spots = spots(&b);
    assert!(spots.len() >= 6, "{spots:?}");
    for (i, p) in spots.iter().take(5).enumerate() {
        let blueprint = if i % 2 == 0 {
            "recorded:gun"
        } else {
            "recorded:bolt"
        };
        b.schedule(
            0,
            PlayerCommand::place(blueprint, f64::from(p.x), f64::from(p.y)),
        )
        .unwrap();
    }
    b.schedule(1, PlayerCommand::StartWave).unwrap();
    // Too early: the first wave is still running (refused, and recorded as such).
    b.schedule(300, PlayerCommand::StartWave).unwrap();
    b.schedule(
        640,
        PlayerCommand::place("recorded:gun", f64::from(spots[5].x), f64::from(spots[5].y)),
    )
    .unwrap();
    b.schedule(650, PlayerCommand::StartWave).unwrap();
    let mut ticks = 0;
    for &n in batches {
        if ticks == 700 {
            // Part-way through the last wave the player retargets the first tower.
            let first = b.entities().find(|(_, e)| e.tower.is_some()).unwrap().0;
            b.submit(PlayerCommand::SetPriority {
                entity: first,
                priority: Priority::Strongest,
            });
        }
        b.run_ticks(n);
        ticks += n;
    }
    (b, setup)
}

fn batches_of(size: u64, total: u64) -> Vec<u64> {
    vec![size; (total / size) as usize]
}

#[test]
fn batching_and_pauses_do_not_change_the_battle() {
    let content = content();
    let (one, _) = play(&content, &batches_of(1, 1400));
    let (two, _) = play(&content, &batches_of(2, 1400));
    let (tens, _) = play(&content, &batches_of(20, 1400));
    assert!(
        one.checkpoints().len() >= 2,
        "the waves ended: {:?}",
        one.checkpoints()
    );
    assert!(
        one.entities().filter(|(_, e)| e.damage_dealt > 0.0).count() >= 3,
        "the towers fought"
    );
    for other in [&two, &tens] {
        assert_eq!(one.state_hash(), other.state_hash());
        assert_eq!(one.checkpoints(), other.checkpoints());
    }
    assert_eq!(one.script_errors().count(), 0);
}

/// Runs `rampart replay FILE --mods-dir MODS` and `extra` away from the repository, so that only
/// those mods load.
fn replay_cli(file: &Path, mods: &Path, extra: &[&str]) -> std::process::Output {
    let dir = file.parent().unwrap();
    Command::new(env!("CARGO_BIN_EXE_rampart"))
        .args(["replay"])
        .arg(file)
        .arg("--mods-dir")
        .arg(mods)
        .args(extra)
        .current_dir(dir)
        .env("RAMPART_HOME", dir)
        .env("RAMPART_GAME", dir)
        .output()
        .unwrap()
}

#[test]
fn a_recorded_battle_verifies_in_another_process_and_a_changed_one_does_not() {
    let content = content();
    let (battle, setup) = play(&content, &batches_of(20, 1400));
    let replay = Replay::record(&battle, &setup);
    assert_eq!(replay.verify(&content), Ok(replay.checkpoints.len() + 1));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("battle.json");
    std::fs::write(&file, serde_json::to_string_pretty(&replay).unwrap()).unwrap();
    let run = |file: &Path| replay_cli(file, &fixture_mods(), &[]);
    let out = run(&file);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("replay verified"), "{stdout}");

    let mut changed = replay.clone();
    changed.commands.retain(
        |(_, c)| !matches!(c, PlayerCommand::Place { blueprint, .. } if blueprint == "recorded:bolt"),
    );
    let file = dir.path().join("changed.json");
    std::fs::write(&file, serde_json::to_string(&changed).unwrap()).unwrap();
    let out = run(&file);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not match"));
}

#[test]
fn the_checked_in_record_replays_with_its_hashes() {
    let content = content();
    if std::env::var_os("RAMPART_UPDATE_RECORD").is_some() {
        let (battle, setup) = play(&content, &batches_of(20, 1400));
        let record = Replay::record(&battle, &setup);
        let json = serde_json::to_string_pretty(&record).unwrap();
        std::fs::write(fixture_record(), json + "\n").unwrap();
    }
    let text = std::fs::read_to_string(fixture_record()).unwrap();
    let record: Replay = serde_json::from_str(&text).unwrap_or_else(|e| {
        panic!("the checked-in record no longer reads ({e}): bump FORMAT and make it again")
    });
    assert_eq!(
        record.format, FORMAT,
        "FORMAT changed: make the record again (see this file's docs)"
    );
    assert_eq!(record.content_hash, content.content_hash());
    assert!(record.checkpoints.len() >= 2, "{:?}", record.checkpoints);
    assert_eq!(record.verify(&content), Ok(record.checkpoints.len() + 1));
}

/// The checked-in record, read.
fn checked_in() -> Replay {
    serde_json::from_str(&std::fs::read_to_string(fixture_record()).unwrap()).unwrap()
}

#[test]
fn a_record_that_asks_for_more_than_a_battle_is_refused_before_playing() {
    let content = content();
    let mut record = checked_in();
    // Replaying to tick 4e9 would take hours: refused at once, naming the field.
    record.end.0 = 4_000_000_000;
    let error = record.verify(&content).unwrap_err().to_string();
    assert!(
        error.contains("`end`") && error.contains("1000000"),
        "{error}"
    );

    let mut record = checked_in();
    record.checkpoints.push((record.end.0 + 5, 1));
    let error = record.verify(&content).unwrap_err().to_string();
    assert!(error.contains("`checkpoints`"), "{error}");
}

#[test]
fn a_wave_end_the_replay_does_not_have_is_reported_with_the_real_hash() {
    let content = content();
    let mut record = checked_in();
    let (first, _) = record.checkpoints[0];
    // A wave ending one tick early, which the replay does not have.
    record.checkpoints.insert(0, (first - 1, 42));
    let error = record.verify(&content).unwrap_err().to_string();
    assert!(error.contains("the replay has none there"), "{error}");
    assert!(!error.contains("0000000000000000"), "{error}");
}

/// The text of `docs/modding/records.md`.
fn records_doc() -> String {
    let path =
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("docs/modding/records.md");
    std::fs::read_to_string(path).unwrap()
}

/// The code blocks of `docs/modding/records.md` fenced as `lang`, in order.
fn doc_blocks(lang: &str) -> Vec<String> {
    records_doc()
        .split(&format!("```{lang}\n"))
        .skip(1)
        .map(|block| block.split("```").next().unwrap().to_string())
        .collect()
}

/// The example record of `docs/modding/records.md`, its one JSON block, as written there.
fn documented_record() -> String {
    let blocks = doc_blocks("json");
    assert_eq!(blocks.len(), 1, "records.md has one JSON example");
    blocks[0].clone()
}

fn read_record(text: &str) -> Replay {
    serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("the example of docs/modding/records.md: {e}"))
}

#[test]
fn the_documented_record_replays_with_nothing_refused_and_its_buildings_fight() {
    let content = load_dirs(&[repo_mods()]);
    let record = read_record(&documented_record());
    let mut refused = Vec::new();
    let (mut battle, matched) = record.play_noting(&content, &mut refused).unwrap();
    assert_eq!(refused, [], "the example's commands are all carried out");
    assert_eq!(matched, 0, "the example gives no hashes to check");
    assert_eq!(battle.tick(), 600);
    assert_eq!(battle.checkpoints().len(), 2, "both waves ended");
    let buildings = battle
        .entities()
        .filter(|(_, e)| matches!(e.kind, EntityKind::Building(_)))
        .count();
    assert_eq!(buildings, 3, "the Hub, the Sentry and the Radar");
    let (id, sentry) = battle.entities().find(|(_, e)| e.tower.is_some()).unwrap();
    assert!(sentry.damage_dealt > 0.0, "the Sentry fought");
    assert_eq!(
        serde_json::to_value(id).unwrap(),
        serde_json::json!({"idx": 2, "version": 1}),
        "the first building placed is numbered as records.md says"
    );
    let EntityKind::Building(blueprint) = sentry.kind else {
        panic!("the Sentry is a building")
    };
    let stat = StatOf {
        blueprint,
        entity: Some(id),
    };
    let range = battle.look(|b| &b.chains.range, &stat);
    assert!(
        range > content.blueprint(blueprint).range.unwrap(),
        "the Radar beside it lengthens the Sentry's range"
    );
    assert_eq!(battle.script_errors().count(), 0);

    // With the hashes it reached written in, as the doc says, it verifies them.
    let mut sealed = record.clone();
    sealed.end.1 = Some(battle.state_hash());
    assert_eq!(sealed.verify(&content), Ok(1));
    sealed.end.1 = Some(battle.state_hash() ^ 1);
    assert!(sealed.verify(&content).is_err());
}

#[test]
fn the_documented_refusal_is_what_replay_prints_and_strict_exits_1() {
    let radar = r#"{"blueprint": "core:radar", "position": {"x": 5.0"#;
    let text = documented_record();
    assert!(
        text.contains(radar),
        "the example places the Radar at x = 5"
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("off-the-world.json");
    std::fs::write(&file, text.replace(radar, &radar.replace("5.0", "40.0"))).unwrap();
    let [listed, strict] = <[String; 2]>::try_from(doc_blocks("text")).unwrap();

    let out = replay_cli(&file, &repo_mods(), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("replay played to tick 600"),
        "{stderr}"
    );
    for line in listed.lines() {
        assert!(stderr.contains(line), "`{line}` is not in\n{stderr}");
    }

    let out = replay_cli(&file, &repo_mods(), &["--strict"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    for line in listed.lines().chain(strict.lines()) {
        assert!(stderr.contains(line), "`{line}` is not in\n{stderr}");
    }
}

#[test]
fn refused_commands_are_reported_with_tick_command_and_reason_and_change_nothing() {
    let content = content();
    let mut record = checked_in();
    let Some((0, PlayerCommand::Place { position, .. })) = record.commands.first().cloned() else {
        panic!("the record starts by placing a building");
    };
    let occupied = PlayerCommand::place("recorded:bolt", position.x, position.y);
    let outside = PlayerCommand::place("recorded:gun", -3.0, position.y);
    let unknown = PlayerCommand::place("recorded:cannon", position.x, position.y);
    for (i, command) in [&occupied, &outside, &unknown].into_iter().enumerate() {
        record.commands.insert(1 + i, (0, command.clone()));
    }
    let mut refused = Vec::new();
    let (_, matched) = record.play_noting(&content, &mut refused).unwrap();
    // Refused commands change nothing: the recorded hashes still match.
    assert_eq!(matched, record.checkpoints.len() + 1);
    let refusal = |tick, command: &PlayerCommand, reason: &str| Refusal {
        tick,
        command: command.clone(),
        reason: reason.to_string(),
    };
    assert_eq!(
        refused,
        [
            refusal(0, &occupied, "there is already a building here"),
            refusal(0, &outside, "that is outside the world"),
            refusal(0, &unknown, "there is no blueprint `recorded:cannon`"),
            // The checked-in record's own: a wave started while one runs.
            refusal(300, &PlayerCommand::StartWave, "a wave is already running"),
        ]
    );

    // The command line lists them, one a line, and still verifies the hashes.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("refused.json");
    std::fs::write(&file, serde_json::to_string(&record).unwrap()).unwrap();
    let out = replay_cli(&file, &fixture_mods(), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("replay verified"));
    assert!(
        stderr.contains("the battle refused 4 commands:"),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "  tick 0: place recorded:gun at (-3, {}): that is outside the world\n",
            position.y
        )),
        "{stderr}"
    );
    assert!(
        stderr.contains("  tick 300: start the next wave: a wave is already running\n"),
        "{stderr}"
    );
    let out = replay_cli(&file, &fixture_mods(), &["--strict"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error: 4 commands refused (--strict)"));
}

#[test]
fn placements_without_the_materials_are_refused_with_the_battles_reason() {
    let content = load_dirs(&[repo_mods()]);
    let mut record = read_record(&documented_record());
    record.setup.start.materials = 0.0;
    let mut refused = Vec::new();
    record.play_noting(&content, &mut refused).unwrap();
    let placements: Vec<&Refusal> = refused.iter().filter(|r| r.tick == 0).collect();
    assert_eq!(placements.len(), 2, "{refused:?}");
    for (r, (_, command)) in placements.iter().zip(&record.commands) {
        assert_eq!(&r.command, command);
        assert!(
            r.reason.starts_with("not enough materials:") && r.reason.ends_with(", 0 available"),
            "{}",
            r.reason
        );
    }
}
