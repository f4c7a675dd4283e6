//! Generated waves, shaped as the `rampart waves --json` contract (brief §8).

use serde::{Deserialize, Serialize};

/// The two kinds of waves (thesis §3.6.8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WaveKind {
    /// Up to three batches, each of one attacker type, the same on every path of the wave.
    Sequential,
    /// One batch with an attacker type of its own on each path.
    Parallel,
}

/// Which attacker type a batch spawns on one path.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathAttacker {
    /// The path, as an index into the level's paths (0-based, the order of the world's
    /// `path_starts`).
    pub path: usize,
    /// The attacker type's id, `mod:name`.
    pub attacker: String,
}

/// A batch: `count` attackers on each of its paths, `spacing_s` seconds apart.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Batch {
    /// Seconds between two spawns on one path.
    pub spacing_s: f64,
    /// Attackers per path.
    pub count: u32,
    /// The attacker type on each path the wave uses, in path order.
    pub per_path: Vec<PathAttacker>,
}

/// How the difficulty of a wave falls on one of its paths.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PathLoad {
    /// The path (0-based).
    pub path: usize,
    /// The value rate expected on it for this wave.
    pub rate: f64,
    /// The capacity expected on it for this wave.
    pub capacity: f64,
    /// The value of the wave's attackers on it (eq. 3.20 with this path's rate).
    pub value: f64,
}

/// One generated wave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Wave {
    /// 1-based number in the level.
    pub number: u32,
    /// Sequential or parallel.
    pub kind: WaveKind,
    /// Capacity available to the wave: its paths' capacities plus the global capacity.
    pub capacity: f64,
    /// Total value of its attackers, over its paths; never more than `capacity`.
    pub value: f64,
    /// Seconds from the first spawn to the last (batches one second apart).
    pub duration_s: f64,
    /// Attackers spawned, all paths and batches together.
    pub attacker_count: u32,
    /// The batches, in spawn order. Empty only if no attacker type fits the capacity at all.
    pub batches: Vec<Batch>,
    /// The global part of `capacity` (global share plus the previous wave's leftover).
    pub global_capacity: f64,
    /// Rate, capacity and value on each path the wave uses, in path order.
    pub loads: Vec<PathLoad>,
    /// The collateral share `α` assumed for this wave.
    pub alpha: f64,
    /// The collateral fall-off `β` assumed for this wave.
    pub beta: f64,
}

impl Wave {
    /// The share of its capacity the wave uses, `value / capacity` (1 for zero capacity).
    pub fn usage(&self) -> f64 {
        if self.capacity > 0.0 {
            self.value / self.capacity
        } else {
            1.0
        }
    }

    /// The paths the wave spawns on.
    pub fn paths(&self) -> impl Iterator<Item = usize> + '_ {
        self.loads.iter().map(|l| l.path)
    }

    /// The distinct attacker ids of the wave, in order of first appearance.
    pub fn attacker_ids(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = Vec::new();
        for b in &self.batches {
            for p in &b.per_path {
                if !ids.contains(&p.attacker.as_str()) {
                    ids.push(&p.attacker);
                }
            }
        }
        ids
    }
}

/// The limits every wave of a level keeps to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Longest wave, seconds from first to last spawn.
    pub max_duration_s: f64,
    /// Most attackers in a wave, all paths together.
    pub max_attackers: u32,
}

/// A level's waves: what `rampart waves --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelWaves {
    /// The run seed.
    pub seed: u64,
    /// The level number (1-based).
    pub level: u32,
    /// How many paths the level has.
    pub paths: usize,
    /// The waves, in order.
    pub waves: Vec<Wave>,
    /// The limits they keep to.
    pub limits: Limits,
}
