//! The waves of one fixed seed stay exactly what they were.
//!
//! The fixture holds its own inputs (parameters and attacker pool) next to the expected waves,
//! so tuning the defaults or the core attackers does not touch it; only a change in how waves
//! are generated does. After an intended change, regenerate it with
//! `RAMPART_UPDATE_SNAPSHOTS=1 cargo test -p rampart-core --test suite waves_snapshot`
//! and review the diff.

use std::path::PathBuf;

use rampart_core::waves::{AttackerPool, LevelWaves, PoolAttacker, WaveParams, level_waves};
use serde::{Deserialize, Serialize};

/// Inputs and expected output, as stored in the fixture.
#[derive(Serialize, Deserialize)]
struct Snapshot {
    paths: usize,
    count: u32,
    params: WaveParams,
    pool: AttackerPool,
    waves: LevelWaves,
}

fn fixture() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .join("tests/fixtures/waves/seed_42_level_3.json")
}

/// The inputs a fresh snapshot is made from: the defaults and the core attackers' numbers as
/// they were when the snapshot was taken.
fn fresh_inputs() -> (WaveParams, AttackerPool) {
    let attacker = |id: &str, value, speed| PoolAttacker {
        id: id.into(),
        value,
        speed,
        min_spacing: 0.25,
        weight: 1.0,
    };
    let pool = AttackerPool::new(vec![
        attacker("core:armored_skeleton", 50.0, 0.8),
        attacker("core:blue_slime", 15.0, 1.4),
        attacker("core:red_slime", 5.0, 1.0),
        attacker("core:skeleton", 20.0, 1.6),
    ])
    .unwrap();
    (WaveParams::default(), pool)
}

fn render(snapshot: &Snapshot) -> String {
    serde_json::to_string_pretty(snapshot).unwrap() + "\n"
}

#[test]
fn waves_of_a_fixed_seed_are_stable() {
    let path = fixture();
    if std::env::var_os("RAMPART_UPDATE_SNAPSHOTS").is_some() {
        let (params, pool) = fresh_inputs();
        let waves = level_waves(42, 3, 3, &params, &pool, 12).unwrap();
        let snapshot = Snapshot {
            paths: 3,
            count: 12,
            params,
            pool,
            waves,
        };
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, render(&snapshot)).unwrap();
    }
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (see this file's header)", path.display()));
    // The inputs are short decimals, which parse exactly.
    let mut snapshot: Snapshot = serde_json::from_str(&text).unwrap();
    snapshot.waves = level_waves(
        snapshot.waves.seed,
        snapshot.waves.level,
        snapshot.paths,
        &snapshot.params,
        &snapshot.pool,
        snapshot.count,
    )
    .unwrap();
    assert_eq!(snapshot.waves.waves.len(), 12);
    // Compared as text: the JSON writer prints each float's shortest exact form, so equal text
    // means equal waves to the last bit.
    assert!(
        render(&snapshot) == text,
        "waves changed; if intended, regenerate the fixture (see this file's header)"
    );
}
