//! Stage 4: obstacles (thesis 3.5.1–3.5.2).
//!
//! Obstacles are placed phase by phase. In a pass, every open tile is visited in random order
//! (so count limits do not favour the first tiles); each obstacle of the phase is drawn with its
//! placement probability — the base probability plus, for every obstacle already placed, the
//! affinity towards it times its closeness — and if several are drawn one of them is picked at
//! random. An obstacle stops at its maximum count. After a pass, the obstacles that reached their
//! minimum leave the phase and further passes place the rest. Main-path tiles and the hub are never
//! used, nor blocked surfaces, surfaces the obstacle does not allow, or ramps when it avoids them.

use super::GenError;
use super::grid::{Grid, Kernel};
use super::wfc::Terrain;
use crate::rng::Rng;
use crate::terrain::TerrainType;

/// Passes per phase before an unreachable minimum count is reported.
const MAX_PASSES: usize = 64;

/// Spread of the closeness that scales affinities, in tiles.
const CLOSENESS_SIGMA: f64 = 1.2;

/// Places obstacles. `reserved[tile]` marks main-path tiles and the hub. Returns the obstacle
/// index of every tile.
pub fn place_obstacles(
    grid: &Grid,
    terrain_type: &TerrainType,
    terrain: &Terrain,
    reserved: &[bool],
    rng: &mut Rng,
) -> Result<Vec<Option<u16>>, GenError> {
    let obstacles = &terrain_type.obstacles;
    let kernel = Kernel::gaussian(CLOSENESS_SIGMA, 4);
    let mut placed: Vec<Option<u16>> = vec![None; grid.len()];
    let mut counts = vec![0u32; obstacles.len()];
    // closeness[o][tile]: summed closeness of `tile` to every placed obstacle `o`.
    let mut closeness = vec![vec![0.0; grid.len()]; obstacles.len()];

    let allowed = |o: usize, t: usize| {
        let ob = &obstacles[o];
        let tile = terrain.tiles[t];
        !reserved[t]
            && terrain_type.is_free_surface(tile.surface)
            && ob
                .valid_surfaces
                .as_ref()
                .is_none_or(|s| s.contains(&tile.surface))
            && (ob.on_slants || tile.slant.is_none())
    };

    for phase in &terrain_type.phases {
        let mut active: Vec<usize> = phase.clone();
        let mut passes = 0;
        while !active.is_empty() {
            if passes == MAX_PASSES {
                let names: Vec<&str> = active.iter().map(|&o| obstacles[o].name.as_str()).collect();
                return Err(GenError::Obstacles(format!(
                    "could not reach the minimum count of {}",
                    names.join(", ")
                )));
            }
            passes += 1;
            let mut order: Vec<usize> = (0..grid.len())
                .filter(|&t| placed[t].is_none() && !reserved[t])
                .collect();
            rng.shuffle(&mut order);
            let mut candidates = Vec::with_capacity(active.len());
            for t in order {
                candidates.clear();
                for &o in &active {
                    if obstacles[o].max.is_some_and(|m| counts[o] >= m) || !allowed(o, t) {
                        continue;
                    }
                    let affinity: f64 = (0..obstacles.len())
                        .map(|k| obstacles[o].affinity(k) * closeness[k][t])
                        .sum();
                    if rng.chance(obstacles[o].base_probability + affinity) {
                        candidates.push(o);
                    }
                }
                if candidates.is_empty() {
                    continue;
                }
                let o = candidates[rng.index(candidates.len())];
                placed[t] = Some(o as u16);
                counts[o] += 1;
                kernel.splat(grid, &mut closeness[o], grid.pos(t), 1.0);
            }
            active.retain(|&o| counts[o] < obstacles[o].min);
        }
    }
    Ok(placed)
}
