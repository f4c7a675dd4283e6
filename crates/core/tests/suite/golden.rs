//! The numbers that decide worlds, waves, battles and runs are the same bits on every system:
//! computed here with the library and compared with `tests/fixtures/golden/platform.ron`, made
//! on Linux. The same test binary cross-compiled for Windows must pass unchanged (see
//! `docs/determinism.md`, *The same bits on every system*).
//!
//! The file holds one entry per value: a hash of each core terrain type's world JSON (as
//! `rampart generate --json` writes it), of the waves `rampart waves` makes, the state hashes
//! the checked-in battle record reaches, and what a few runs played by the autopilot come to
//! (as `rampart simulate --runs` plays them). After an intended change, regenerate it with
//! `RAMPART_UPDATE_SNAPSHOTS=1 cargo test -p rampart-core --test suite golden` and say in the
//! commit which values changed.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use rampart_autopilot::play_run;
use rampart_core::content::ContentDb;
use rampart_core::level::replay::Replay;
use rampart_core::rng::Seed;
use rampart_core::run::{LevelKind, LevelSpec, RunConfig};
use rampart_core::worldgen::{WorldParams, generate_world};

use crate::common::{load_dirs, load_repo_with, repo};

/// The seed of the worlds.
const WORLD_SEED: u64 = 7;
/// The run seed of the waves, and the first of the runs played.
const RUN_SEED: u64 = 1;
/// Runs played, and the most levels each.
const RUNS: u64 = 4;
const RUN_LEVELS: u32 = 3;

fn golden_file() -> PathBuf {
    repo()
        .join("tests")
        .join("fixtures")
        .join("golden")
        .join("platform.ron")
}

fn hash(text: &str) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(text.as_bytes()))
}

/// Every value, by a name that says what it is.
fn values() -> BTreeMap<String, String> {
    let content = load_repo_with(&[]);
    let mut values = BTreeMap::new();
    worlds(&content, &mut values);
    waves(&content, &mut values);
    record(&mut values);
    runs(&content, &mut values);
    values
}

/// `rampart generate --seed 7 --terrain <id> --json -` for each core terrain type: three paths
/// of the default lengths, two extra branches.
fn worlds(content: &ContentDb, values: &mut BTreeMap<String, String>) {
    let mut params = WorldParams::with_lengths(vec![24, 28, 33]);
    params.extra_branches = 2;
    let core = content
        .terrains
        .iter()
        .filter(|t| t.id.starts_with("core:"));
    for terrain in core {
        let world = generate_world(&params, terrain, Seed(WORLD_SEED)).unwrap();
        values.insert(
            format!("world {} seed {WORLD_SEED}", terrain.id),
            hash(&world.to_json_pretty()),
        );
    }
}

/// `rampart waves --seed 1 --level <n> [--elite] --json -`.
fn waves(content: &ContentDb, values: &mut BTreeMap<String, String>) {
    for (level, kind) in [
        (1, LevelKind::Normal),
        (3, LevelKind::Elite),
        (6, LevelKind::Normal),
    ] {
        let name = format!("waves run {RUN_SEED} level {level} {kind:?}");
        let spec = LevelSpec::of_kind(content, RUN_SEED, level, kind).unwrap();
        let waves = spec.waves(RUN_SEED).unwrap();
        values.insert(name, hash(&serde_json::to_string_pretty(&waves).unwrap()));
    }
}

/// The state hashes `tests/fixtures/replay/record.json` reaches, played without its own hashes
/// (so a difference shows here as values, not as a replay that stops).
fn record(values: &mut BTreeMap<String, String>) {
    let fixture = repo().join("tests").join("fixtures").join("replay");
    let content = load_dirs(&[fixture.join("mods")]);
    let text = std::fs::read_to_string(fixture.join("record.json")).unwrap();
    let mut record: Replay = serde_json::from_str(&text).unwrap();
    record.checkpoints.clear();
    record.end.1 = None;
    let (battle, _) = record.play(&content).unwrap();
    for (tick, state) in battle.checkpoints() {
        values.insert(
            format!("record replay/record.json tick {tick}"),
            format!("{state:016x}"),
        );
    }
    values.insert(
        format!("record replay/record.json end tick {}", battle.tick()),
        format!("{:016x}", battle.state_hash()),
    );
}

/// `rampart simulate --seed 1 --runs 4 --levels 3`: each run's outcome and the final state hash
/// of every level it played.
fn runs(content: &Arc<ContentDb>, values: &mut BTreeMap<String, String>) {
    for seed in RUN_SEED..RUN_SEED + RUNS {
        let report = play_run(content, RunConfig::new(seed), RUN_LEVELS, |_, _| {}).unwrap();
        values.insert(
            format!("run {seed}"),
            format!(
                "levels won {} of {}, act {}, rooms {}, money {} (spent {}), hull {:?}",
                report.levels_won,
                report.levels_reached,
                report.acts_reached,
                report.rooms,
                report.money,
                report.money_spent,
                report.hull
            ),
        );
        for level in &report.levels {
            values.insert(
                format!("run {seed} level {}", level.level),
                format!(
                    "{:?} after {} ticks, state hash {}",
                    level.result, level.ticks, level.state_hash
                ),
            );
        }
    }
}

/// The file's text: a header saying what it is, then the values.
fn render(values: &BTreeMap<String, String>) -> String {
    let pretty = ron::ser::PrettyConfig::default();
    let body = ron::ser::to_string_pretty(values, pretty).unwrap();
    format!(
        "// Values that must be the same bits on every system: crates/core/tests/suite/golden.rs.\n\
         // Regenerate: RAMPART_UPDATE_SNAPSHOTS=1 cargo test -p rampart-core --test suite golden\n\
         {body}\n"
    )
}

#[test]
fn worlds_waves_battles_and_runs_give_the_golden_values() {
    let actual = values();
    let path = golden_file();
    if std::env::var_os("RAMPART_UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, render(&actual)).unwrap();
    }
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (see this file's header)", path.display()));
    let expected: BTreeMap<String, String> = ron::from_str(&text).unwrap();
    let mut differences = Vec::new();
    for name in expected
        .keys()
        .chain(actual.keys().filter(|n| !expected.contains_key(*n)))
    {
        let (want, got) = (expected.get(name), actual.get(name));
        if want != got {
            let shown = |v: Option<&String>| v.map_or("(none)".to_string(), |v| format!("{v:?}"));
            differences.push(format!(
                "  {name}: expected {}, actual {}",
                shown(want),
                shown(got)
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} golden values differ on this system:\n{}\n\
         If the change is meant, regenerate {} (see crates/core/tests/suite/golden.rs).",
        differences.len(),
        expected.len().max(actual.len()),
        differences.join("\n"),
        path.display()
    );
}
