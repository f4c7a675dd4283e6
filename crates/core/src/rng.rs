//! Deterministic random numbers with seed branching.
//!
//! Every random decision in Rampart comes from an [`Rng`] (a PCG generator) that was seeded from
//! a [`Seed`]. Seeds form a tree: a child seed is derived from its parent seed and a *label*
//! (`run.branch("level").index(3).branch("world")`), never from how many numbers some other
//! subsystem has drawn. Adding a draw in one subsystem therefore never changes another's output,
//! and any node of the tree can be reached directly (the CLI can generate level 7 without
//! generating levels 1–6). The tree itself is documented in `docs/determinism.md`.
//!
//! An [`Rng`] can also be split at run time with [`Rng::fork`], which draws the child's seed
//! from the parent's stream, the thesis's original form of seed branching. Its state serialises
//! exactly, so a generator that lives through a whole run (the reward generator) can be saved and
//! restored mid-stream.

use rand::{Rng as _, RngExt as _, SeedableRng as _};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::xxh3_64_with_seed;

/// A node of the seed tree. Cheap to copy; turns into a generator with [`Seed::rng`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Seed(pub u64);

impl Seed {
    /// The child seed named `label`. Different labels give unrelated seeds.
    pub fn branch(self, label: &str) -> Seed {
        Seed(xxh3_64_with_seed(label.as_bytes(), self.0))
    }

    /// The `n`-th child of this seed, for numbered branches such as levels or attempts.
    pub fn index(self, n: u64) -> Seed {
        Seed(xxh3_64_with_seed(
            &n.to_le_bytes(),
            self.0 ^ 0x9E37_79B9_7F4A_7C15,
        ))
    }

    /// A generator seeded with this node.
    pub fn rng(self) -> Rng {
        Rng::from_seed(self)
    }
}

impl From<u64> for Seed {
    fn from(value: u64) -> Self {
        Seed(value)
    }
}

/// A small, fast PCG generator (PCG 64-bit output, 128-bit MCG state) whose state can be saved and
/// restored exactly with serde.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rng {
    pcg: Pcg64Mcg,
}

impl Rng {
    /// A generator seeded with `seed`.
    pub fn from_seed(seed: Seed) -> Rng {
        Rng {
            pcg: Pcg64Mcg::seed_from_u64(seed.0),
        }
    }

    /// Splits off an independent generator whose seed is drawn from this one.
    pub fn fork(&mut self) -> Rng {
        Rng::from_seed(Seed(self.next_u64()))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.pcg.next_u64()
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        self.pcg.random::<f64>()
    }

    /// A uniform float in `[low, high)`. `low` must be below `high`.
    pub fn range_f64(&mut self, low: f64, high: f64) -> f64 {
        self.pcg.random_range(low..high)
    }

    /// A uniform integer in `[low, high]`, both ends included.
    pub fn range_i64(&mut self, low: i64, high: i64) -> i64 {
        self.pcg.random_range(low..=high)
    }

    /// A uniform index below `len`. `len` must be positive.
    pub fn index(&mut self, len: usize) -> usize {
        // Sampled as u64 so the result does not depend on the platform's pointer width.
        self.pcg.random_range(0..len as u64) as usize
    }

    /// `true` with probability `p` (clamped to `[0, 1]`).
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p.clamp(0.0, 1.0)
    }

    /// Shuffles `items` in place (Fisher–Yates).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// Picks an index with probability proportional to its weight. Returns `None` when no weight
    /// is positive. Negative and non-finite weights count as zero.
    pub fn weighted_index(&mut self, weights: &[f64]) -> Option<usize> {
        let usable = |w: f64| if w.is_finite() && w > 0.0 { w } else { 0.0 };
        let total: f64 = weights.iter().copied().map(usable).sum();
        if total <= 0.0 {
            return None;
        }
        let mut target = self.unit() * total;
        let mut last = None;
        for (i, w) in weights.iter().copied().map(usable).enumerate() {
            if w == 0.0 {
                continue;
            }
            last = Some(i);
            if target < w {
                return Some(i);
            }
            target -= w;
        }
        // Rounding can leave `target` a hair above the last weight.
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream() {
        let mut a = Seed(42).rng();
        let mut b = Seed(42).rng();
        for _ in 0..100 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn branches_are_independent_of_sibling_draws() {
        let run = Seed(7);
        let mut rewards = run.branch("rewards").rng();
        let before = run.branch("level").index(3).rng().next_u64();
        for _ in 0..1000 {
            rewards.next_u64();
        }
        let after = run.branch("level").index(3).rng().next_u64();
        assert_eq!(before, after);
        assert_ne!(run.branch("a"), run.branch("b"));
        assert_ne!(run.index(1), run.index(2));
        assert_ne!(run.branch("x").index(0), run.index(0).branch("x"));
    }

    #[test]
    fn state_round_trips_exactly() {
        let mut rng = Seed(99).rng();
        for _ in 0..17 {
            rng.next_u64();
        }
        let saved = ron::to_string(&rng).unwrap();
        let mut restored: Rng = ron::from_str(&saved).unwrap();
        for _ in 0..100 {
            assert_eq!(rng.next_u64(), restored.next_u64());
        }
    }

    #[test]
    fn fork_draws_from_parent() {
        let mut a = Seed(1).rng();
        let mut b = Seed(1).rng();
        let mut child_a = a.fork();
        let mut child_b = b.fork();
        assert_eq!(child_a.next_u64(), child_b.next_u64());
        assert_eq!(a.next_u64(), b.next_u64());
    }

    #[test]
    fn samplers_stay_in_range() {
        let mut rng = Seed(3).rng();
        for _ in 0..10_000 {
            let x = rng.range_f64(-2.0, 5.0);
            assert!((-2.0..5.0).contains(&x));
            let i = rng.range_i64(-3, 3);
            assert!((-3..=3).contains(&i));
            assert!(rng.index(5) < 5);
        }
    }

    #[test]
    fn weighted_index_follows_weights() {
        let mut rng = Seed(5).rng();
        let weights = [0.0, 1.0, 3.0, -2.0];
        let mut counts = [0usize; 4];
        for _ in 0..40_000 {
            counts[rng.weighted_index(&weights).unwrap()] += 1;
        }
        assert_eq!(counts[0], 0);
        assert_eq!(counts[3], 0);
        let ratio = counts[2] as f64 / counts[1] as f64;
        assert!((2.7..3.3).contains(&ratio), "ratio {ratio}");
        assert_eq!(rng.weighted_index(&[0.0, -1.0]), None);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = Seed(11).rng();
        let mut v: Vec<u32> = (0..50).collect();
        rng.shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
