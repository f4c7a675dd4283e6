//! How much of their capacity generated waves use (the thesis's goal: very close, never over).
//!
//! `capacity_use_is_close_and_never_over` guards the numbers on a sample. The tables in
//! `docs/balance.md` come from the ignored test:
//! `cargo test --no-default-features --test suite waves_balance -- --ignored --nocapture`

use crate::waves_common::{core_pool, level_params, synthetic_pool};
use rampart::waves::{AttackerPool, UsageStats, Wave, WaveKind, WaveParams, level_waves};

/// Waves of `seeds` seeds × levels 1–3 × 1–4 paths, 15 waves each, with their path count;
/// `tweak` adjusts each level's parameters.
fn sample_with(
    pool: &AttackerPool,
    seeds: u64,
    tweak: impl Fn(&mut WaveParams),
) -> Vec<(usize, Wave)> {
    let mut waves = Vec::new();
    for seed in 0..seeds {
        for level in 1..=3 {
            let mut params = level_params(level);
            tweak(&mut params);
            for paths in 1..=4 {
                let lw = level_waves(seed, level, paths, &params, pool, 15).unwrap();
                waves.extend(lw.waves.into_iter().map(|w| (paths, w)));
            }
        }
    }
    waves
}

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

fn row(label: &str, s: &UsageStats) -> String {
    format!(
        "| {label} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.1} % | {:.1} % | {} |",
        s.waves,
        s.mean,
        s.min,
        s.p05,
        s.median,
        100.0 * s.at_least_90,
        100.0 * s.at_least_99,
        s.over
    )
}

#[test]
#[ignore = "prints the tables of docs/balance.md; slow"]
fn print_capacity_use_tables() {
    let header = "| waves | count | mean | min | 5th pct | median | ≥ 90 % | ≥ 99 % | over |\n\
                  |---|---:|---:|---:|---:|---:|---:|---:|---:|";
    for (name, pool) in [
        ("core attackers", core_pool()),
        ("8 synthetic attackers", synthetic_pool(8)),
    ] {
        let waves = sample(&pool, 500);
        println!("\n#### {name}\n\n{header}");
        let all = UsageStats::of(waves.iter().map(|(_, w)| w));
        println!("{}", row("all", &all));
        for paths in 1..=4 {
            let s = UsageStats::of(waves.iter().filter(|(p, _)| *p == paths).map(|(_, w)| w));
            println!("{}", row(&format!("{paths} path(s)"), &s));
        }
        for kind in [WaveKind::Sequential, WaveKind::Parallel] {
            let s = UsageStats::of(waves.iter().map(|(_, w)| w).filter(|w| w.kind == kind));
            println!("{}", row(&format!("{kind:?}").to_lowercase(), &s));
        }
        for (from, to) in [(1, 2), (3, 4), (5, 10), (11, 15)] {
            let s = UsageStats::of(
                waves
                    .iter()
                    .map(|(_, w)| w)
                    .filter(|w| (from..=to).contains(&w.number)),
            );
            println!("{}", row(&format!("waves {from}–{to}"), &s));
        }
        // Our additions switched off: one attempt, and no fill target before the thesis's test.
        let plain = sample_with(&pool, 500, |p| {
            p.sequential_attempts = 1;
            p.fill_target = 1.0;
        });
        let s = UsageStats::of(plain.iter().map(|(_, w)| w));
        println!("{}", row("all, thesis rules only", &s));
        let s = UsageStats::of(
            plain
                .iter()
                .map(|(_, w)| w)
                .filter(|w| w.kind == WaveKind::Sequential),
        );
        println!("{}", row("sequential, thesis rules only", &s));
    }
}
