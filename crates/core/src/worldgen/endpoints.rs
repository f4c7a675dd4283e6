//! Stage 1: the hub tile and the path starts (thesis 3.3.1).
//!
//! The hub is a random tile within a radius of the centre that shrinks as the number of paths
//! grows (RP1). Starts are edge tiles: while generating, a path starts on the edge tile where
//! its first real segment (from just outside the world) ends; that outside segment is added at
//! the very end. A start can only reach the hub in exactly `n` steps if their Manhattan distance
//! is at most `n` and has the parity of `n`; starts keep a minimum distance from each other, and a
//! lone path keeps one from the hub so it has room to wind. Starts are drawn by rejection
//! sampling, and whole lists are redrawn when early picks leave no room for later ones.

use super::grid::{Grid, Pos};
use super::{GenError, WorldParams};
use crate::rng::Rng;

/// Picks of single starts tried before the current list is given up.
const PICKS_PER_START: usize = 200;
/// Lists tried before the parameters are declared impossible.
const LISTS: usize = 100;

/// The hub and where the paths enter the world.
#[derive(Clone, Debug, PartialEq)]
pub struct Endpoints {
    /// The hub tile.
    pub hub: Pos,
    /// One entry (edge) tile per path, in the order of [`WorldParams::path_lengths`].
    pub entries: Vec<Pos>,
    /// Segments from each entry tile to the hub (the path length minus the outside segment).
    pub steps: Vec<u32>,
}

/// How far from the centre the hub may be: less the more paths there are (RP1).
pub fn hub_radius(grid: &Grid, paths: usize) -> f64 {
    let half = f64::from(grid.width.min(grid.height)) / 2.0;
    (half - 3.5).max(0.0) / paths.max(1) as f64
}

/// The smallest euclidean distance between two starts.
pub fn start_separation(grid: &Grid, paths: usize) -> f64 {
    f64::from(grid.width + grid.height) / (paths as f64 + 2.0)
}

/// The smallest euclidean distance between a start and the hub.
pub fn hub_clearance(grid: &Grid, paths: usize, steps: u32) -> f64 {
    if paths == 1 {
        // A single path should start far away so it can wind through the world.
        (f64::from(grid.width.min(grid.height)) / 2.0).min(f64::from(steps) / 2.0)
    } else {
        3.0
    }
}

/// Picks the hub and one entry tile per path.
pub fn pick_endpoints(params: &WorldParams, rng: &mut Rng) -> Result<Endpoints, GenError> {
    let grid = params.grid();
    let paths = params.path_lengths.len();
    let steps: Vec<u32> = params
        .path_lengths
        .iter()
        .map(|l| l.saturating_sub(1))
        .collect();

    let center_x = f64::from(grid.width - 1) / 2.0;
    let center_y = f64::from(grid.height - 1) / 2.0;
    let radius = hub_radius(&grid, paths);
    let hub_candidates: Vec<Pos> = grid
        .tiles()
        .filter(|p| {
            libm::hypot(f64::from(p.x) - center_x, f64::from(p.y) - center_y) <= radius + 0.5
        })
        .collect();
    if hub_candidates.is_empty() {
        return Err(GenError::InvalidParams(
            "the world is too small for a hub".into(),
        ));
    }
    // Edge tiles, split by the parity of x + y: a start needs the parity of its step count.
    let mut by_parity: [Vec<Pos>; 2] = [Vec::new(), Vec::new()];
    for p in grid.tiles().filter(|p| grid.is_edge(*p)) {
        by_parity[((p.x + p.y) & 1) as usize].push(p);
    }
    let separation = start_separation(&grid, paths);

    for _ in 0..LISTS {
        let hub = hub_candidates[rng.index(hub_candidates.len())];
        let mut entries: Vec<Pos> = Vec::with_capacity(paths);
        for &n in &steps {
            let parity = ((hub.x + hub.y + n as i32) & 1) as usize;
            let pool = &by_parity[parity];
            let clearance = hub_clearance(&grid, paths, n);
            let ok = |p: Pos, chosen: &[Pos]| {
                p.manhattan(hub) <= n as i32
                    && p.distance(hub) >= clearance
                    && chosen.iter().all(|q| p.distance(*q) >= separation)
            };
            let found = (0..PICKS_PER_START)
                .map(|_| pool[rng.index(pool.len())])
                .find(|p| ok(*p, &entries));
            match found {
                Some(p) => entries.push(p),
                None => break,
            }
        }
        if entries.len() == paths {
            return Ok(Endpoints {
                hub,
                entries,
                steps,
            });
        }
    }
    Err(GenError::InvalidParams(format!(
        "no valid path starts for lengths {:?} in a {}×{} world",
        params.path_lengths, grid.width, grid.height
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Seed;

    #[test]
    fn starts_obey_parity_reach_and_spacing() {
        for seed in 0..300 {
            let params = WorldParams::with_lengths(vec![24, 28, 33]);
            let e = pick_endpoints(&params, &mut Seed(seed).rng()).unwrap();
            let grid = params.grid();
            assert!(grid.edge_distance(e.hub) >= 3, "hub {:?}", e.hub);
            for (i, (&p, &n)) in e.entries.iter().zip(&e.steps).enumerate() {
                assert!(grid.is_edge(p));
                assert!(p.manhattan(e.hub) <= n as i32);
                assert_eq!((p.manhattan(e.hub) - n as i32) % 2, 0);
                for &q in &e.entries[..i] {
                    assert!(p.distance(q) >= start_separation(&grid, 3));
                }
            }
        }
    }

    #[test]
    fn impossible_lengths_are_an_error() {
        let params = WorldParams::with_lengths(vec![3]);
        assert!(pick_endpoints(&params, &mut Seed(1).rng()).is_err());
    }
}
