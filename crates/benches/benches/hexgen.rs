//! The hex accessibility generator on the development log's timing table: random and natural
//! spawning, preemptive and corrective checks, normal and double impassable tiles, at the five
//! preset sizes. Each iteration generates a whole level from a new seed; `docs/benchmarks.md`
//! sets the results beside the log's. Before the criterion runs, `cargo bench --bench hexgen`
//! also prints what the levels hold on average over 200 seeds per configuration (impassable
//! tiles against the target, tiles the repair broke, bridges, critical tiles), which
//! `docs/worldgen.md` records.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion};
use rampart_core::hexgen::{Check, HexParams, Impassable, Method, PRESETS, Tile, generate};
use rampart_core::rng::Seed;

/// One of the log's eight configurations.
struct Configuration {
    name: String,
    impassable: Impassable,
    method: Method,
    check: Check,
}

impl Configuration {
    fn at(&self, width: u32, height: u32) -> HexParams {
        HexParams {
            width,
            height,
            method: self.method,
            check: self.check,
            impassable: self.impassable,
        }
    }
}

/// The log's eight configurations.
fn configurations() -> Vec<Configuration> {
    let mut out = Vec::new();
    for impassable in [Impassable::Normal, Impassable::Double] {
        for method in [Method::Random, Method::Natural] {
            for check in [Check::Preemptive, Check::Corrective] {
                let name = format!(
                    "hexmap {} {} {}",
                    impassable.name(),
                    method.name(),
                    check.name()
                );
                out.push(Configuration {
                    name,
                    impassable,
                    method,
                    check,
                });
            }
        }
    }
    out
}

/// Averages over 200 seeds per configuration, as table rows.
fn statistics() {
    println!("| size | configuration | M / target | W / target | broken | bridges | critical |");
    println!("|---|---|---|---|---|---|---|");
    for (width, height) in [(30, 15), (50, 25)] {
        for configuration in configurations() {
            let params = configuration.at(width, height);
            let seeds = 200;
            let mut sums = [0usize; 5];
            for seed in 0..seeds {
                let map = generate(&params, Seed(seed));
                let values = [
                    map.count(Tile::Mountain),
                    map.count(Tile::Water),
                    map.broken.len(),
                    map.bridges.len(),
                    map.critical.len(),
                ];
                for (sum, v) in sums.iter_mut().zip(values) {
                    *sum += v;
                }
            }
            let mean = |i: usize| sums[i] as f64 / seeds as f64;
            println!(
                "| {width}x{height} | {} | {:.1} / {} | {:.1} / {} | {:.1} | {:.2} | {:.1} |",
                configuration.name.trim_start_matches("hexmap "),
                mean(0),
                params.target(Tile::Mountain),
                mean(1),
                params.target(Tile::Water),
                mean(2),
                mean(3),
                mean(4),
            );
        }
    }
}

fn levels(c: &mut Criterion) {
    for configuration in configurations() {
        let mut g = c.benchmark_group(&configuration.name);
        for (width, height) in PRESETS {
            let params = configuration.at(width, height);
            let id = BenchmarkId::from_parameter(format!("{width}x{height}"));
            let mut seed = 0;
            g.bench_with_input(id, &params, |b, params| {
                b.iter(|| {
                    seed += 1;
                    generate(params, Seed(seed))
                })
            });
        }
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .configure_from_args();
    // `cargo bench` passes --bench; `cargo test --benches` does not and only smoke-tests.
    if std::env::args().any(|a| a == "--bench") {
        statistics();
    }
    levels(&mut c);
    c.final_summary();
}
