//! Attacker waves: the difficulty model and the wave generators (thesis §3.6).
//!
//! A level prescribes, for every wave, the value *rate* and *capacity* it expects of the
//! player's defence ([`WaveParams::rate`], [`WaveParams::capacity`]). [`model`] turns a wave's
//! attackers into a *value* comparable with those numbers; the generator ([`WaveGenerator`])
//! draws random waves whose value comes as close to the capacity as it can without going over,
//! within the limits on duration, attacker count, batches and new attacker types.
//!
//! ```
//! use rampart_core::rng::Seed;
//! use rampart_core::waves::{AttackerPool, PoolAttacker, WaveGenerator, WaveParams};
//!
//! let slime = PoolAttacker {
//!     id: "core:red_slime".into(),
//!     value: 5.0,
//!     speed: 1.0,
//!     min_spacing: 0.25,
//!     weight: 1.0,
//! };
//! let pool = AttackerPool::new(vec![slime]).unwrap();
//! let mut waves = WaveGenerator::new(WaveParams::default(), pool, 2, Seed(7)).unwrap();
//! let first = waves.next_wave();
//! assert!(first.value <= first.capacity);
//! ```
//!
//! `docs/waves.md` explains the model, the algorithms and every number chosen here.

pub mod budget;
mod draft;
pub mod generator;
pub mod model;
mod parallel;
pub mod pool;
mod search;
mod sequential;
pub mod stats;
pub mod wave;

pub use crate::content::{Growth, InvalidParam, KindWeights, Ramp, WaveParams};
pub use budget::{Budget, PathBudget};
pub use generator::WaveGenerator;
pub use model::{BatchShape, Collateral};
pub use pool::{AttackerPool, PoolAttacker};
pub use stats::UsageStats;
pub use wave::{Batch, LevelWaves, Limits, PathAttacker, PathLoad, Wave, WaveKind};

use crate::rng::Seed;

/// Why waves cannot be generated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum WaveError {
    /// The level has no paths.
    #[error("a level needs at least one path for its waves")]
    NoPaths,
    /// No attacker type can ever be drawn.
    #[error("the attacker pool has no attacker type with a positive weight")]
    EmptyPool,
    /// An attacker type has numbers the model cannot use.
    #[error("attacker `{id}` cannot be used in waves: {reason}")]
    InvalidAttacker {
        /// The attacker's id.
        id: String,
        /// What is wrong.
        reason: String,
    },
    /// A parameter is out of range.
    #[error(transparent)]
    InvalidParam(#[from] InvalidParam),
}

/// The seed of level `level`'s waves in a run: `run → "level" / level → "waves"`, as the seed
/// tree in `docs/determinism.md` lays out.
pub fn waves_seed(run: Seed, level: u32) -> Seed {
    run.branch("level").index(u64::from(level)).branch("waves")
}

/// The first `count` waves of level `level` of the run with seed `run_seed`, as
/// `rampart waves --json` prints them.
pub fn level_waves(
    run_seed: u64,
    level: u32,
    paths: usize,
    params: &WaveParams,
    pool: &AttackerPool,
    count: u32,
) -> Result<LevelWaves, WaveError> {
    let seed = waves_seed(Seed(run_seed), level);
    let generator = WaveGenerator::new(params.clone(), pool.clone(), paths, seed)?;
    Ok(LevelWaves {
        seed: run_seed,
        level,
        paths,
        waves: generator.take(count as usize).collect(),
        limits: Limits {
            max_duration_s: params.max_duration_s,
            max_attackers: params.max_attackers,
        },
    })
}
