//! How a sweep of autopilot runs (`rampart simulate --runs`) scales with threads: the same eight
//! whole runs (seeds 0–7, ascension 0, the core mod) played on a pool of one thread and of two.
//! Throughput is in runs, so criterion prints runs per second.
//!
//! Run with `cargo bench -p rampart-benches --bench simulate`; results go in
//! docs/benchmarks.md.

use std::time::Duration;

mod common;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rampart_autopilot::play_run;
use rampart_core::run::RunConfig;
use rayon::prelude::*;

const RUNS: u64 = 8;

fn sweep(c: &mut Criterion) {
    let content = common::game_content();
    let mut group = c.benchmark_group("simulate");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(40))
        .throughput(Throughput::Elements(RUNS));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        group.bench_with_input(BenchmarkId::new("runs", threads), &threads, |b, _| {
            b.iter(|| {
                pool.install(|| {
                    (0..RUNS)
                        .into_par_iter()
                        .map(|seed| play_run(&content, RunConfig::new(seed), 100, |_, _| {}))
                        .map(|r| r.unwrap().levels_won)
                        .sum::<u32>()
                })
            });
        });
    }
    group.finish();
}

criterion_group!(benches, sweep);
criterion_main!(benches);
