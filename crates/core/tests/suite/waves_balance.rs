//! How much of their capacity generated waves use (the thesis's goal: very close, never over).
//!
//! `capacity_use_is_close_and_never_over` guards the numbers on a sample. The tables in
//! `docs/balance.md` come from `examples/generator_capacity.rs`.

use crate::waves_common::{core_pool, sample_with, synthetic_pool};
use rampart_core::waves::{AttackerPool, UsageStats, Wave};

fn sample(pool: &AttackerPool, seeds: u64) -> Vec<(usize, Wave)> {
    sample_with(pool, seeds, |_| {})
}

#[test]
fn capacity_use_is_close_and_never_over() {
    for (name, pool) in [("core", core_pool()), ("synthetic", synthetic_pool(8))] {
        let waves = sample(&pool, 30);
        let s = UsageStats::of(waves.iter().map(|(_, w)| w));
        assert_eq!(s.over, 0, "{name}: {s:?}");
        assert_eq!(s.empty, 0, "{name}: {s:?}");
        assert!(s.max <= 1.0, "{name}: {s:?}");
        assert!(s.mean >= 0.95, "{name}: {s:?}");
        assert!(s.at_least_90 >= 0.9, "{name}: {s:?}");
    }
}
