//! World generation benchmarks: each stage on fixed inputs and whole worlds, on the thesis's
//! table-3.1 configuration (three paths of 24, 28 and 33) and a one-path level, for every core
//! terrain type. Before the criterion runs, `cargo bench --bench worldgen` also prints the
//! distribution of whole-world times (p50, p95), the terrain generator's success rate per
//! attempt (WFC, or the layered generator for `core:delta`) and the attempts per world over 1000
//! seeds per terrain type; `docs/worldgen.md` records them.

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion};
use rampart_core::diagnostics::SourceFile;
use rampart_core::rng::Seed;
use rampart_core::terrain::{TerrainType, parse_terrain};
use rampart_core::worldgen::annealing::anneal_paths;
use rampart_core::worldgen::endpoints::pick_endpoints;
use rampart_core::worldgen::modules::ModuleSet;
use rampart_core::worldgen::noise_expr::Field;
use rampart_core::worldgen::wfc::generate_terrain;
use rampart_core::worldgen::{
    StageInputs, WorldGenerator, WorldParams, final_paths, obstacles, scatter,
};

const TERRAINS: [&str; 5] = ["hills", "islands", "plateaus", "delta", "circuit"];

fn terrain(stem: &str) -> TerrainType {
    let path = format!(
        "{}/mods/core/terrain/{stem}.terrain",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
    );
    let text = std::fs::read_to_string(&path).expect("core terrain file");
    parse_terrain(&format!("core:{stem}"), &SourceFile::new(&path, text))
        .expect("core terrain parses")
}

/// The real pipeline's stage inputs for one world of `t` on the default parameters.
fn inputs(t: &TerrainType) -> (WorldParams, ModuleSet, StageInputs) {
    let params = WorldParams::default();
    let generator = WorldGenerator::new(t);
    let (_, inputs) = generator
        .generate_traced(&params, Seed(0))
        .expect("a world for seed 0");
    (params, generator.modules().clone(), inputs)
}

fn stages(c: &mut Criterion) {
    let t = terrain("hills");
    let (params, set, i) = inputs(&t);
    let grid = params.grid();
    let mut g = c.benchmark_group("stage (hills, paths 24/28/33)");
    g.bench_function("modules", |b| b.iter(|| ModuleSet::new(black_box(&t))));
    g.bench_function("endpoints", |b| {
        let mut s = 0;
        b.iter(|| {
            s += 1;
            pick_endpoints(&params, &mut Seed(s).rng())
        })
    });
    g.bench_function("annealing", |b| {
        let mut s = 0;
        b.iter(|| {
            s += 1;
            anneal_paths(&grid, &i.endpoints, &params.anneal, &mut Seed(s).rng())
        })
    });
    g.bench_function("wfc", |b| {
        let mut s = 0;
        b.iter(|| {
            s += 1;
            generate_terrain(&grid, &t, &set, &i.constraints, &mut Seed(s).rng())
        })
    });
    g.bench_function("obstacles", |b| {
        let mut s = 0;
        b.iter(|| {
            s += 1;
            obstacles::place_obstacles(&grid, &t, &i.land, &i.reserved, &mut Seed(s).rng())
        })
    });
    g.bench_function("final_paths", |b| {
        let mut s = 0;
        b.iter(|| {
            s += 1;
            final_paths::finalize_paths(
                &grid,
                &t,
                &i.land,
                &i.placed,
                &i.endpoints,
                &i.main,
                params.extra_branches,
                &params.anneal,
                &mut Seed(s).rng(),
            )
        })
    });
    g.bench_function("scatter", |b| {
        let field = Field::new(&grid, &i.land, &i.path_tiles, &i.placed, t.obstacles.len());
        let mut s = 0;
        b.iter(|| {
            s += 1;
            scatter::scatter_models(&t, &field, &mut Seed(s).rng())
        })
    });
    g.finish();
}

fn worlds(c: &mut Criterion) {
    let mut g = c.benchmark_group("world");
    for stem in TERRAINS {
        let t = terrain(stem);
        let generator = WorldGenerator::new(&t);
        for lengths in [vec![24, 28, 33], vec![30]] {
            let params = WorldParams::with_lengths(lengths.clone());
            let id = BenchmarkId::new(stem, format!("{lengths:?}"));
            let mut s = 0;
            g.bench_with_input(id, &params, |b, params| {
                b.iter(|| {
                    s += 1;
                    generator.generate(params, Seed(s))
                })
            });
        }
    }
    g.finish();
}

/// CPU time this thread has used. Unlike wall time it does not grow when other processes
/// compete for the cores, so it stays comparable on a busy machine.
fn thread_cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec and the clock id is a constant the OS knows.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn percentiles(mut times: Vec<Duration>) -> String {
    times.sort();
    let n = times.len();
    format!(
        "p50 {:>8.3?} p95 {:>8.3?} max {:>8.3?}",
        times[n / 2],
        times[n * 95 / 100],
        times[n - 1]
    )
}

/// Whole-world time percentiles and attempt statistics over many seeds.
fn statistics() {
    println!("whole worlds, paths 24/28/33, 1000 seeds each (module expansion included):");
    for stem in TERRAINS {
        let t = terrain(stem);
        let params = WorldParams::default();
        let mut wall: Vec<Duration> = Vec::new();
        let mut cpu: Vec<Duration> = Vec::new();
        let (mut paths, mut terrains, mut terrain_failures, mut failed) = (0u64, 0u64, 0u64, 0);
        for s in 0..1000 {
            let (start, start_cpu) = (Instant::now(), thread_cpu_time());
            let result = WorldGenerator::new(&t).generate(&params, Seed(s));
            cpu.push(thread_cpu_time() - start_cpu);
            wall.push(start.elapsed());
            match result {
                Ok(w) => {
                    paths += u64::from(w.stats.path_attempts);
                    terrains += u64::from(w.stats.terrain_attempts);
                    terrain_failures += u64::from(w.stats.terrain_failures);
                }
                Err(_) => failed += 1,
            }
        }
        let worlds = (1000 - failed) as f64;
        println!(
            "  {stem:9} wall {}  cpu {}  failed {failed}  path attempts/world {:.3}  terrain attempts/world {:.3}  \
             terrain success/attempt {:.1}%",
            percentiles(wall),
            percentiles(cpu),
            paths as f64 / worlds,
            terrains as f64 / worlds,
            100.0 * (terrains - terrain_failures) as f64 / terrains as f64,
        );
    }
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(30)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_millis(500))
        .configure_from_args();
    // `cargo bench` passes --bench; `cargo test --benches` does not and only smoke-tests.
    if std::env::args().any(|a| a == "--bench") {
        statistics();
    }
    stages(&mut c);
    worlds(&mut c);
    c.final_summary();
}
