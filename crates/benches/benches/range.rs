//! The range map the client draws (thesis 3.10): where a tower that needs line of sight can hit
//! small and large attackers, at 8 samples per tile edge, on a generated world of the core's
//! hills. Measured whole, and as the client computes it — a fixed number of point tests per
//! frame — against the goal that no frame spends more than 16 ms on it.
//!
//! Run with `cargo bench -p rampart-benches --bench range`; results go in docs/benchmarks.md.

use std::hint::black_box;
use std::sync::Arc;

mod common;

use criterion::{Criterion, criterion_group, criterion_main};
use rampart_core::battle::preview::{RangeOf, RangeSampler};
use rampart_core::battle::{Battle, Start};
use rampart_core::content::ContentDb;
use rampart_core::level::{LevelSetup, WorldSetup};
use rampart_core::rng::Seed;
use rampart_core::worldgen::{Pos, WorldParams};

/// A battle on a generated hills world, and the buildable tile nearest the middle.
fn battle(content: &Arc<ContentDb>) -> (Battle, Pos) {
    let params = WorldParams::default();
    let world = WorldSetup::generate(content, "core:hills", &params, Seed(3)).unwrap();
    let setup = LevelSetup {
        world,
        start: Start {
            hub: Some("core:hub".into()),
            ..Start::new(Seed(1))
        },
    };
    let battle = setup.start(content).unwrap();
    let world = battle.field().unwrap().world().clone();
    let middle = Pos::new(world.grid.width / 2, world.grid.height / 2);
    let tile = world
        .grid
        .tiles()
        .filter(|&p| world.buildable(p))
        .min_by_key(|&p| p.manhattan(middle))
        .unwrap();
    (battle, tile)
}

fn range(c: &mut Criterion) {
    let content = common::game_content();
    let (mut battle, tile) = battle(&content);
    let of = |id: &str| RangeOf::Planned {
        blueprint: content.blueprint_id(id).unwrap(),
        position: rampart_core::battle::Position {
            x: f64::from(tile.x),
            y: f64::from(tile.y),
        },
        rotation: 0,
    };
    let mut g = c.benchmark_group("range map, 8 samples per tile edge");
    // The Galvanizer needs line of sight; the Sniper reaches farthest.
    for id in ["core:galvanizer", "core:sniper"] {
        g.bench_function(format!("{id} whole"), |b| {
            b.iter(|| black_box(battle.range_map(of(id), 8)))
        });
        let tests = RangeSampler::TESTS_PER_FRAME;
        g.bench_function(format!("{id} one frame ({tests} tests)"), |b| {
            b.iter_batched(
                || battle.range_sampler(of(id), 8).unwrap(),
                |mut sampler| {
                    sampler.refine(tests);
                    sampler
                },
                criterion::BatchSize::SmallInput,
            )
        });
    }
    g.finish();
}

criterion_group!(benches, range);
criterion_main!(benches);
