//! A whole battle on a generated world, recorded, replayed in another process, and played with
//! different tick batching.

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use crate::common::{Mods, attacker, blueprint};
use rampart::battle::replay::{LevelSetup, Replay, WorldSetup};
use rampart::battle::{Battle, PlayerCommand, WaveSpawn, WaveSpawns};
use rampart::content::{ContentDb, Priority};
use rampart::worldgen::Pos;

fn content(mods: &Mods) -> Arc<ContentDb> {
    mods.manifest("r", &["core"]);
    mods.file(
        "r/attackers/runner.ron",
        &attacker("Runner", 12.0, 1.5, "script: \"scripts/runner.lua\","),
    );
    mods.file(
        "r/attackers/tank.ron",
        &attacker("Tank", 40.0, 0.8, "").replace("Small", "Large"),
    );
    mods.file(
        "r/blueprints/gun.ron",
        &blueprint("Gun", "Tower", "cost: (materials: 10), range: 2.9, damage: 2, damage_type: [Physical], interval: 16, behaviour: Shooter(())"),
    );
    mods.file(
        "r/blueprints/bolt.ron",
        &blueprint(
            "Bolt",
            "Tower",
            "cost: (materials: 15), range: 4, damage: 5, damage_type: [Physical], interval: 30, behaviour: Shooter((projectile: Straight(speed: 6)))",
        ),
    );
    mods.file(
        "r/scripts/runner.lua",
        "-- Runners sometimes sprint.\nreturn { on_spawn = function(self, game)\n  local burst = math.random(1, 3)\n  self:modify(\"speed\", -5, function(s) if self:hp() < 6 then return s * burst end end)\nend }",
    );
    mods.load_with_core()
}

fn setup() -> LevelSetup {
    let wave = |n: u32| WaveSpawns {
        spawns: (0..n)
            .map(|i| WaveSpawn {
                delay: i * 10,
                path: (i % 2) as usize,
                attacker: if i % 4 == 3 {
                    "r:tank".into()
                } else {
                    "r:runner".into()
                },
            })
            .collect(),
    };
    LevelSetup {
        seed: 77,
        world: WorldSetup::Generated {
            terrain: "core:hills".into(),
            seed: 5,
            width: 15,
            height: 15,
            path_lengths: vec![20, 24],
            extra_branches: 1,
        },
        waves: vec![wave(6), wave(10), wave(16)],
        collection: None,
        hub: Some("core:hub".into()),
        materials: 100.0,
        energy: 20.0,
        energy_cap: 50.0,
        hull: 20.0,
        fuel_goal: 1000.0,
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
        let blueprint = if i % 2 == 0 { "r:gun" } else { "r:bolt" };
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
        PlayerCommand::place("r:gun", f64::from(spots[5].x), f64::from(spots[5].y)),
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
    let mods = Mods::new();
    let content = content(&mods);
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

#[test]
fn a_recorded_battle_verifies_in_another_process_and_a_changed_one_does_not() {
    let mods = Mods::new();
    let content = content(&mods);
    let (battle, setup) = play(&content, &batches_of(20, 1400));
    let replay = Replay::record(&battle, &setup);
    assert_eq!(replay.verify(&content), Ok(replay.checkpoints.len() + 1));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("battle.json");
    std::fs::write(&file, serde_json::to_string_pretty(&replay).unwrap()).unwrap();
    let run = |file: &Path| {
        Command::new(env!("CARGO_BIN_EXE_rampart"))
            .args(["replay"])
            .arg(file)
            .arg("--mods-dir")
            .arg(mods.path())
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("RAMPART_HOME", dir.path())
            .output()
            .unwrap()
    };
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
        |(_, c)| !matches!(c, PlayerCommand::Place { blueprint, .. } if blueprint == "r:bolt"),
    );
    let file = dir.path().join("changed.json");
    std::fs::write(&file, serde_json::to_string(&changed).unwrap()).unwrap();
    let out = run(&file);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not match"));
}
