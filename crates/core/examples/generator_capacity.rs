//! The tables of `docs/balance.md`, "Wave capacity use of the generator": how much of its
//! capacity every generated wave uses, over 500 seeds × levels 1–3 × 1–4 paths × 15 waves, for
//! the core mod's attackers and for eight synthetic ones.
//!
//! `cargo run --release -p rampart-core --example generator_capacity`
//! (from the repository, whose `mods/` it loads).

#[path = "../tests/suite/waves_common/pools.rs"]
mod pools;

use std::path::PathBuf;

use rampart_core::content::ContentDb;
use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};
use rampart_core::waves::{AttackerPool, UsageStats, WaveKind};

use pools::{sample_with, synthetic_pool};

/// The attacker types of the repository's mods.
fn core_pool() -> AttackerPool {
    let dirs = [ModDir {
        path: PathBuf::from("mods"),
        origin: Origin::Game,
    }];
    let (content, _) = ContentDb::load(&ModSet::discover(&dirs, &ModSettings::default()));
    AttackerPool::from_content(&content).expect("the mods have attacker types")
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

fn main() {
    let header = "| waves | count | mean | min | 5th pct | median | ≥ 90 % | ≥ 99 % | over |\n\
                  |---|---:|---:|---:|---:|---:|---:|---:|---:|";
    for (name, pool) in [
        ("core attackers", core_pool()),
        ("8 synthetic attackers", synthetic_pool(8)),
    ] {
        let waves = sample_with(&pool, 500, |_| {});
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
