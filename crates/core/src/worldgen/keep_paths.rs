//! New terrain under an existing path network: what a modder's edited terrain type looks like on
//! the level being played, with attackers walking exactly where they walked before.
//!
//! The path stages (endpoints, annealing, final paths) are skipped; the finished network
//! constrains the wave function collapse the way main paths do in [`super::generate_world`]
//! (path tiles on free surfaces, ramps only along the path, free edges where the path crosses,
//! a flat hub), every path tile is kept free of obstacles, and the models are scattered anew.

use std::collections::BTreeMap;

use super::modules::ModuleSet;
use super::wfc::{TileRule, WfcConstraints};
use super::{GenError, GenStats, Pos, World, annealing, land_and_obstacles, scatter_and_assemble};
use crate::terrain::TerrainType;

/// Generates terrain of type `terrain` for `world`'s hub and path network, from the world's seed,
/// making up to `attempts` tries. The result has the same grid, hub, path starts, segments and
/// path distances as `world`, so a battle's attackers walk the same way on it.
pub fn regenerate_terrain(
    world: &World,
    terrain: &TerrainType,
    attempts: u32,
) -> Result<World, GenError> {
    let set = ModuleSet::new(terrain);
    if set.variants.len() > usize::from(u16::MAX) {
        return Err(GenError::Terrain("more than 65535 module variants".into()));
    }
    let grid = world.grid;
    let network = &world.network;
    let constraints = network_constraints(world);
    let reserved: Vec<bool> = network.distance.iter().map(Option::is_some).collect();
    let seed = world.seed.branch("keep_paths");
    let mut stats = GenStats::default();
    let mut last = GenError::Terrain("no attempt was made".into());
    for k in 0..u64::from(attempts.max(1)) {
        let stage = |name: &str| seed.branch(name).index(k).rng();
        stats.terrain_attempts += 1;
        let (land, placed) = match land_and_obstacles(
            &grid,
            terrain,
            &set,
            &constraints,
            (&reserved, world.hub),
            [&mut stage("wfc"), &mut stage("obstacles")],
            &mut stats,
        ) {
            Ok(found) => found,
            Err(e) => {
                last = e;
                continue;
            }
        };
        return Ok(scatter_and_assemble(
            world.seed,
            terrain,
            &set,
            grid,
            world.hub,
            annealing::MainPaths {
                paths: world.main_paths.clone(),
            },
            land,
            placed,
            network.clone(),
            stats,
            &mut stage("scatter"),
        ));
    }
    Err(GenError::Exhausted {
        terrain: terrain.id.clone(),
        attempts: stats.terrain_attempts,
        last: Box::new(last),
    })
}

/// What the network asks of the terrain: every edge a segment crosses is free, the hub is flat,
/// and every other path tile has a free surface and is a ramp only if all its segments run
/// along one axis.
fn network_constraints(world: &World) -> WfcConstraints {
    let mut c = WfcConstraints::default();
    // For each path tile inside the world: the axes its segments run along (vertical or not).
    let mut axes: BTreeMap<Pos, Vec<bool>> = BTreeMap::new();
    for &(from, to) in &world.network.segments {
        c.free_edges.push((from, to));
        let vertical = from.x == to.x;
        for tile in [from, to] {
            if world.grid.contains(tile) {
                axes.entry(tile).or_default().push(vertical);
            }
        }
    }
    for (tile, along) in axes {
        let rule = if tile == world.hub {
            TileRule::Hub
        } else {
            let first = along[0];
            TileRule::Path {
                straight: along.iter().all(|&a| a == first).then_some(first),
            }
        };
        c.tiles.push((tile, rule));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Seed;
    use crate::terrain::parse_terrain;
    use crate::worldgen::{WorldParams, generate_world};

    fn terrain(name: &str) -> TerrainType {
        let path = format!(
            "{}/mods/core/terrain/{name}.terrain",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
        );
        let file = crate::diagnostics::SourceFile::read(std::path::Path::new(&path)).unwrap();
        parse_terrain(&format!("core:{name}"), &file).unwrap()
    }

    #[test]
    fn another_terrain_type_keeps_hub_and_paths() {
        let hills = terrain("hills");
        let islands = terrain("islands");
        let world = generate_world(&WorldParams::default(), &hills, Seed(42)).unwrap();
        let again = regenerate_terrain(&world, &islands, 16).unwrap();
        assert_eq!(again.terrain, "core:islands");
        assert_eq!(again.hub, world.hub);
        assert_eq!(again.network, world.network);
        for (i, p) in world.grid.tiles().enumerate() {
            if world.network.distance[i].is_some() {
                assert!(
                    again.obstacles[i].is_none(),
                    "obstacle on the path at {p:?}"
                );
                assert!(
                    !again.blocked_surface[i],
                    "blocked surface on the path at {p:?}"
                );
            }
        }
        assert_ne!(again.tiles, world.tiles);
        // The same inputs give the same world.
        assert_eq!(regenerate_terrain(&world, &islands, 16).unwrap(), again);
    }

    #[test]
    fn segments_cross_free_edges_only() {
        let plateaus = terrain("plateaus");
        let world = generate_world(&WorldParams::default(), &terrain("hills"), Seed(7)).unwrap();
        let again = regenerate_terrain(&world, &plateaus, 16).unwrap();
        for &(a, b) in &again.network.segments {
            let edge = if (a.y, a.x) < (b.y, b.x) {
                (a, b)
            } else {
                (b, a)
            };
            assert!(!again.blocked_edges.contains(&edge), "{a:?}→{b:?} blocked");
        }
    }
}
