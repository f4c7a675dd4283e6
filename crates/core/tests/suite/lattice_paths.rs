//! Lattice paths (`paths lattice`, `core:circuit`) against the rules of the miniTD development
//! log: 3–6 lines per axis, never next to each other, never on the edge; paths that run straight
//! from an edge to a line's first intersection, then only between neighbouring intersections,
//! never reusing one; the hub on an intersection; the lengths asked for, or the nearest found
//! (counted and printed). Also: `build_near_paths` through the battle's placement check, and the
//! same world for the same seed.
//!
//! ```text
//! cargo test --release -p rampart-core --test suite lattice_paths -- --nocapture
//! ```

use std::collections::BTreeSet;

use rampart_autopilot::LevelResult;
use rampart_core::rng::Seed;
use rampart_core::terrain::PathSolver;
use rampart_core::worldgen::lattice::{LINES, LatticePaths, lattice_paths};
use rampart_core::worldgen::{
    GenError, Grid, Pos, WorldParams, generate_world, regenerate_terrain,
};

use crate::layered_terrain::{in_every_size, play_level_on};
use crate::worldgen_invariants::terrain as core_terrain;

fn seeds() -> u64 {
    if cfg!(debug_assertions) { 200 } else { 2000 }
}

/// The path configurations measured: those of the worldgen invariants sweep.
const CONFIGS: [&[u32]; 4] = [&[30], &[22, 26], &[24, 28, 33], &[16, 18, 20, 22]];

fn check_lines(lines: &[i32], n: i32, ctx: &str) {
    let fits = ((n - 1) / 2) as usize;
    assert!(
        lines.len() >= (*LINES.start()).min(fits) && lines.len() <= *LINES.end(),
        "{ctx}: {} lines",
        lines.len()
    );
    for w in lines.windows(2) {
        assert!(w[1] - w[0] >= 2, "{ctx}: adjacent lines {lines:?}");
    }
    assert!(
        lines.iter().all(|&l| l >= 1 && l <= n - 2),
        "{ctx}: line on the edge {lines:?}"
    );
}

/// Checks one set of lattice paths against the log's rules.
fn check_laid(grid: &Grid, laid: &LatticePaths, ctx: &str) {
    let (lattice, hub, paths) = (&laid.lattice, laid.endpoints.hub, &laid.main.paths);
    check_lines(&lattice.xs, grid.width, ctx);
    check_lines(&lattice.ys, grid.height, ctx);
    assert!(
        lattice.is_intersection(hub),
        "{ctx}: hub {hub:?} off the lattice"
    );
    let index = |p: Pos| {
        (
            lattice.xs.iter().position(|&x| x == p.x).unwrap(),
            lattice.ys.iter().position(|&y| y == p.y).unwrap(),
        )
    };
    let mut seen: BTreeSet<Pos> = BTreeSet::new();
    for path in paths {
        assert!(grid.is_edge(path[0]), "{ctx}: entry {:?}", path[0]);
        assert_eq!(*path.last().unwrap(), hub, "{ctx}: path ends off the hub");
        for w in path.windows(2) {
            assert_eq!(w[0].manhattan(w[1]), 1, "{ctx}: {:?}→{:?}", w[0], w[1]);
        }
        let corners: Vec<Pos> = path
            .iter()
            .copied()
            .filter(|&p| lattice.is_intersection(p))
            .collect();
        // The lead-in: no intersection before the first, and it lies on the entry's line.
        let first = corners[0];
        assert!(
            first.x == path[0].x || first.y == path[0].y,
            "{ctx}: lead-in bends"
        );
        for p in &path[..path.iter().position(|&p| p == first).unwrap()] {
            assert!(grid.contains(*p) && !lattice.is_intersection(*p));
        }
        // Only between neighbouring intersections, in straight runs.
        for w in corners.windows(2) {
            let (a, b) = (index(w[0]), index(w[1]));
            assert_eq!(
                a.0.abs_diff(b.0) + a.1.abs_diff(b.1),
                1,
                "{ctx}: {:?}→{:?} skips or leaves the lattice",
                w[0],
                w[1]
            );
        }
        for p in path {
            if !lattice.is_intersection(*p) {
                assert!(
                    lattice.xs.contains(&p.x) || lattice.ys.contains(&p.y),
                    "{ctx}: {p:?} off the lines"
                );
            }
        }
        // No intersection (or tile) used twice, by this path or another; the hub is shared.
        for &p in &path[..path.len() - 1] {
            assert!(seen.insert(p), "{ctx}: {p:?} reused");
        }
    }
}

#[test]
fn lattice_paths_follow_the_log() {
    let grid = Grid::new(15, 15);
    for lengths in CONFIGS {
        let (mut adjusted, mut misses, mut worst) = (0u32, 0u64, 0u64);
        for seed in 0..seeds() {
            let ctx = format!("seed {seed} lengths {lengths:?}");
            let laid = lattice_paths(&grid, lengths, &mut Seed(seed).rng()).unwrap();
            check_laid(&grid, &laid, &ctx);
            let mut missed = 0;
            for (path, &want) in laid.main.paths.iter().zip(lengths) {
                // A path's length counts the segment from just outside to the entry tile.
                let miss = (path.len() as i64 - i64::from(want)).unsigned_abs();
                missed += u32::from(miss > 0);
                misses += miss;
                worst = worst.max(miss);
            }
            assert_eq!(laid.adjusted, missed, "{ctx}: adjusted count");
            adjusted += missed;
        }
        let paths = seeds() * lengths.len() as u64;
        println!(
            "lattice {lengths:?}: {} worlds; {:.1}% of paths adjusted, {:.2} segments off on \
             average per path, {worst} at most",
            seeds(),
            100.0 * f64::from(adjusted) / paths as f64,
            misses as f64 / paths as f64,
        );
    }
}

#[test]
fn small_and_large_worlds_keep_the_lattice_rules() {
    for (w, h, lengths) in [
        (7, 7, vec![6]),
        (24, 11, vec![20, 24]),
        (64, 64, vec![90, 100]),
    ] {
        let grid = Grid::new(w, h);
        for seed in 0..50 {
            let ctx = format!("{w}×{h} seed {seed}");
            let laid = lattice_paths(&grid, &lengths, &mut Seed(seed).rng()).unwrap();
            check_laid(&grid, &laid, &ctx);
        }
    }
}

#[test]
fn circuit_worlds_are_lattice_worlds_and_repeat() {
    let terrain = core_terrain("circuit");
    assert_eq!(terrain.paths, PathSolver::Lattice);
    assert!(terrain.build_near_paths);
    let params = WorldParams::default();
    for seed in 0..20 {
        let a = generate_world(&params, &terrain, Seed(seed)).unwrap();
        let b = generate_world(&params, &terrain, Seed(seed)).unwrap();
        assert_eq!(a.to_json_string(), b.to_json_string(), "seed {seed}");
        assert!(a.build_near_paths);
        // The JSON tells tools the rule and its result per tile.
        let json: serde_json::Value = serde_json::from_str(&a.to_json_string()).unwrap();
        assert_eq!(json["build_near_paths"], true);
        let buildable: Vec<bool> = json["tiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["buildable"].as_bool().unwrap())
            .collect();
        let expected: Vec<bool> = a.grid.tiles().map(|p| a.buildable(p)).collect();
        assert_eq!(buildable, expected, "seed {seed}");
        assert!(buildable.contains(&true) && buildable.contains(&false));
        assert_eq!(a.network.extra_branches, 0);
        assert_eq!(a.network.branches, a.main_paths, "seed {seed}");
        for p in a.grid.tiles() {
            if a.buildable(p) {
                assert!(
                    a.near_path(p),
                    "seed {seed}: {p:?} buildable far from paths"
                );
            }
        }
    }
}

#[test]
fn circuit_worlds_come_in_every_size_and_reload_under_their_paths() {
    let terrain = core_terrain("circuit");
    in_every_size(&terrain, |world, ctx| {
        assert_eq!(world.network.branches, world.main_paths, "{ctx}");
        // Hot reload: new terrain under the same lattice paths, the rule kept.
        let reloaded = regenerate_terrain(world, &terrain, 8).unwrap();
        assert_eq!(reloaded.network, world.network, "{ctx}");
        assert!(reloaded.build_near_paths, "{ctx}");
        let grid = reloaded.grid;
        for p in grid.tiles() {
            if reloaded.network.distance[grid.index(p)].is_some() {
                assert!(!reloaded.blocked_surface[grid.index(p)], "{ctx}: {p:?}");
                assert!(reloaded.obstacle(p).is_none(), "{ctx}: {p:?}");
            }
        }
    });
}

#[test]
fn more_paths_than_the_hub_has_ways_in_are_refused() {
    let terrain = core_terrain("circuit");
    let params = WorldParams::with_lengths(vec![16; 5]);
    let err = generate_world(&params, &terrain, Seed(1)).unwrap_err();
    assert!(
        matches!(&err, GenError::InvalidParams(m) if m.contains("four ways in")),
        "{err}"
    );
}

#[test]
fn the_level_setter_picks_circuit_and_the_autopilot_builds_only_near_paths() {
    let (seed, battle, result) = play_level_on("core:circuit");
    assert_ne!(result, LevelResult::Stalled, "run seed {seed}");
    let world = battle.field().expect("a level has a world").world().clone();
    let built: Vec<Pos> = battle.entities().filter_map(|(_, e)| e.tile).collect();
    assert!(built.len() > 1, "the autopilot built something");
    for tile in built {
        assert!(world.near_path(tile), "run seed {seed}: built at {tile:?}");
    }
    println!("run seed {seed}, level 1 on core:circuit: {result:?}");
}
