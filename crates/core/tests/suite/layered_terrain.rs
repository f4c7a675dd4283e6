//! The layered terrain generator (`core:delta`) against its own rules, on the real paths of
//! generated worlds: every crossable tile connected, paths never blocked, bridges with crossable
//! banks after the cleanup, sea depths within 1..=8, budgets kept, a river that flows from edge to
//! edge, the same world for the same seed, and a level of a core run played on it. The number of
//! repairs is printed:
//!
//! ```text
//! cargo test --release -p rampart-core --test suite layered_terrain -- --nocapture
//! ```

use rampart_autopilot::{LevelResult, play_level};
use rampart_core::battle::Battle;
use rampart_core::rng::Seed;
use rampart_core::run::{LevelSpec, Player, starting_collection};
use rampart_core::terrain::{Generator, TerrainType};
use rampart_core::worldgen::layered::{Layer, MAX_SEA_DEPTH, connected, lay_out};
use rampart_core::worldgen::{
    Pos, World, WorldGenerator, WorldParams, generate_world, regenerate_terrain,
};

fn seeds() -> u64 {
    if cfg!(debug_assertions) { 200 } else { 1000 }
}

use crate::worldgen_invariants::terrain as core_terrain;

fn delta() -> TerrainType {
    core_terrain("delta")
}

#[test]
fn delta_is_layered_and_needs_no_modules() {
    let t = delta();
    assert_eq!(t.generator, Generator::Layered);
    assert!(t.modules.is_empty());
}

#[test]
fn layered_maps_keep_their_rules() {
    let terrain = delta();
    let generator = WorldGenerator::new(&terrain);
    let params = WorldParams::default();
    let (mut repairs, mut repaired_tiles, mut sea_rows) = (0, 0, 0);
    let mut counts = [0u32; 6];
    let mut depth_seen = [0u32; 9];
    for seed in 0..seeds() {
        let (world, inputs) = generator.generate_traced(&params, Seed(seed)).unwrap();
        let grid = world.grid;
        let reserved = &inputs.reserved;
        let hub = inputs.endpoints.hub;
        let map = lay_out(&grid, reserved, hub, &mut Seed(seed).branch("test").rng());
        let ctx = format!("seed {seed}");
        let layers = &map.layers;
        let at = |p: Pos| layers[grid.index(p)];

        assert!(connected(&grid, layers), "{ctx}: crossable tiles split");
        for p in grid.tiles() {
            if reserved[grid.index(p)] {
                assert!(at(p).crossable(), "{ctx}: path tile {p:?} is {:?}", at(p));
            }
        }
        // Bridges: every bridge has crossable tiles on both sides along one axis (paths aside:
        // a path may turn on its bridge).
        for p in grid.tiles().filter(|&p| at(p) == Layer::Bridge) {
            if reserved[grid.index(p)] {
                continue;
            }
            let banks = |a: Pos, b: Pos| {
                grid.contains(a) && grid.contains(b) && at(a).crossable() && at(b).crossable()
            };
            assert!(
                banks(Pos::new(p.x - 1, p.y), Pos::new(p.x + 1, p.y))
                    || banks(Pos::new(p.x, p.y - 1), Pos::new(p.x, p.y + 1)),
                "{ctx}: bridge {p:?} leads nowhere"
            );
        }
        // Path tiles crossed by the river are bridges.
        for &p in &map.river {
            if reserved[grid.index(p)] {
                assert_eq!(at(p), Layer::Bridge, "{ctx}: path over the river at {p:?}");
            }
        }
        // The river flows: one step at a time, never back on itself, from edge to edge.
        assert!(
            map.river.windows(2).all(|w| w[0].manhattan(w[1]) == 1),
            "{ctx}"
        );
        let mut sorted = map.river.clone();
        sorted.sort_by_key(|p| (p.y, p.x));
        sorted.dedup();
        assert_eq!(sorted.len(), map.river.len(), "{ctx}: river crosses itself");
        assert!(grid.is_edge(map.river[0]) && grid.is_edge(*map.river.last().unwrap()));
        // Markov depths and budgets.
        for &d in &map.sea_depths {
            assert!((1..=MAX_SEA_DEPTH).contains(&d), "{ctx}: depth {d}");
            depth_seen[usize::from(d)] += 1;
        }
        for w in map.sea_depths.windows(2) {
            assert!(w[0].abs_diff(w[1]) <= 1, "{ctx}: depth jump {w:?}");
        }
        let (sea, mountains) = map.budgets;
        let total = grid.len() as u32;
        let budget = sea + mountains;
        assert!(
            budget >= total * 5 / 100 && budget <= total * 20 / 100,
            "{ctx}"
        );
        assert!(mountains * 100 <= budget * 90, "{ctx}: mountain share");
        assert!(
            map.placed.0 <= sea && map.placed.1 <= mountains,
            "{ctx}: over budget"
        );
        for &l in layers {
            counts[l as usize] += 1;
        }
        repairs += u32::from(map.repaired > 0);
        repaired_tiles += map.repaired;
        sea_rows += map.sea_depths.len();
    }
    let per_map = counts.map(|c| f64::from(c) / seeds() as f64);
    println!(
        "layered: {} maps, {repairs} needed a repair ({repaired_tiles} tiles changed); \
         {sea_rows} sea rows, depths 1..8: {:?}; tiles per map: plains {:.1}, bridge {:.1}, \
         fort {:.1}, river {:.1}, sea {:.1}, mountain {:.1}",
        seeds(),
        &depth_seen[1..],
        per_map[0],
        per_map[1],
        per_map[2],
        per_map[3],
        per_map[4],
        per_map[5],
    );
}

#[test]
fn same_seed_same_delta_world() {
    let terrain = delta();
    let params = WorldParams::default();
    for seed in [0, 7, 42] {
        let a = generate_world(&params, &terrain, Seed(seed)).unwrap();
        let b = generate_world(&params, &terrain, Seed(seed)).unwrap();
        assert_eq!(a.to_json_string(), b.to_json_string());
    }
}

#[test]
fn delta_worlds_report_their_repairs() {
    let terrain = delta();
    let params = WorldParams::default();
    let (mut worlds, mut repairs) = (0, 0);
    for seed in 0..seeds() {
        let w = generate_world(&params, &terrain, Seed(seed)).unwrap();
        assert_eq!(
            w.stats.terrain_failures, 0,
            "the layered generator never fails"
        );
        worlds += w.stats.terrain_attempts;
        repairs += w.stats.repairs;
    }
    assert!(repairs <= worlds);
    println!("delta worlds: {repairs} of {worlds} terrain attempts needed a repair");
}

/// Plays level 1 of the first run seed below 60 whose level setter picks `terrain`, with the
/// autopilot, and returns the run seed, the battle as it ended and its result.
pub(crate) fn play_level_on(terrain: &str) -> (u64, Battle, LevelResult) {
    let content = crate::common::Mods::new().load_with_core();
    let setter = content.levels.as_ref().unwrap();
    let (seed, spec) = (0..60)
        .map(|seed| (seed, LevelSpec::new(&content, seed, 1).unwrap()))
        .find(|(_, spec)| spec.terrain == terrain)
        .unwrap_or_else(|| panic!("{terrain} is in the level setter's pool"));
    let player = Player {
        collection: starting_collection(&content),
        hull: setter.hull,
        materials: spec.materials,
        ..Player::default()
    };
    let plan = spec.plan(&content, seed, player).unwrap();
    let mut battle = plan.start(&content).unwrap();
    let result = play_level(&mut battle);
    (seed, battle, result)
}

#[test]
fn the_level_setter_picks_delta_and_the_autopilot_plays_it() {
    let (seed, _, result) = play_level_on("core:delta");
    // Whether it wins is balance; that the battle runs to a result on the layered world is not.
    assert_ne!(result, LevelResult::Stalled, "run seed {seed}");
    println!("run seed {seed}, level 1 on core:delta: {result:?}");
}

#[test]
fn hot_reload_puts_delta_under_existing_paths() {
    let hills = core_terrain("hills");
    let world = generate_world(&WorldParams::default(), &hills, Seed(5)).unwrap();
    let delta_world = regenerate_terrain(&world, &delta(), 1).unwrap();
    assert_eq!(delta_world.terrain, "core:delta");
    assert_eq!(delta_world.network, world.network);
    let grid = delta_world.grid;
    for p in grid.tiles() {
        if world.network.distance[grid.index(p)].is_some() {
            assert!(!delta_world.blocked_surface[grid.index(p)], "{p:?}");
            assert!(delta_world.obstacle(p).is_none(), "{p:?}");
        }
    }
}

/// Generates worlds of `terrain` at 7×7, 24×11 and 64×64 (seeds 0–3) and hands each to
/// `check` with a label saying which it is.
pub(crate) fn in_every_size(terrain: &TerrainType, mut check: impl FnMut(&World, &str)) {
    for (width, height, lengths) in [
        (7, 7, vec![8]),
        (24, 11, vec![20, 24]),
        (64, 64, vec![60, 70, 80]),
    ] {
        let mut params = WorldParams::with_lengths(lengths);
        params.width = width;
        params.height = height;
        for seed in 0..4 {
            let ctx = format!("{width}×{height} seed {seed}");
            let world = generate_world(&params, terrain, Seed(seed))
                .unwrap_or_else(|e| panic!("{ctx}: {e}"));
            check(&world, &ctx);
        }
    }
}

#[test]
fn layered_worlds_come_in_every_size() {
    in_every_size(&delta(), |world, ctx| {
        let grid = world.grid;
        for p in grid.tiles() {
            if world.network.distance[grid.index(p)].is_some() {
                assert!(!world.blocked_surface[grid.index(p)], "{ctx} {p:?}");
            }
        }
    });
}
