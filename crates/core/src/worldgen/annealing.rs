//! Stage 2: the main paths, by simulated annealing (thesis 3.3.2–3.3.5).
//!
//! A state is one tile sequence per path, from its entry tile to the hub, of exactly the
//! requested length; consecutive tiles are neighbours, but a sequence may revisit tiles while
//! annealing. A neighbouring state changes one interior tile (thesis figure 3.3): on a straight
//! run nothing can change, at a corner the tile can flip to the other corner of the square, and
//! where the path doubles back the tile can move to any other neighbour of the tile before it.
//!
//! The cost of a state is the summed crowding of its tiles: every occurrence of a tile crowds
//! every tile by a Gaussian of their distance (1 on itself), plus a penalty near the world's
//! edge (RP8, RP9). Changing tile `v` into `w` improves the cost by
//! `r = ce(v) − ce(w) + 2·ct(v) − 2·ct(w) + 2·c(w, v) − 2`, where `ct` is the crowding total a
//! tile gets from the whole state; keeping `ct` for every tile makes `r` O(1) and an accepted
//! move costs one kernel's worth of updates. A move is accepted with probability `r − t`, where
//! `t` moves linearly from `t_initial` (negative: worse moves are accepted early on) to
//! `t_final`. Self-crossings, which local moves cannot undo, are untwisted by reversing the loop
//! between the two visits. The initial state is a random walk that never strays further from
//! the hub than it has steps left and prefers uncrowded tiles, so different paths rarely cross.
//! A final state that still revisits a tile is rejected and the world restarts.

use super::GenError;
use super::endpoints::Endpoints;
use super::grid::{Grid, Kernel, Pos};
use crate::rng::Rng;

/// Tuning of the annealer.
#[derive(Clone, Debug, PartialEq)]
pub struct AnnealConfig {
    /// Annealing steps per movable path tile.
    pub steps_per_tile: u32,
    /// Acceptance offset at the first step (negative accepts worse states).
    pub t_initial: f64,
    /// Acceptance offset at the last step.
    pub t_final: f64,
    /// Untwist self-crossings every this many steps.
    pub untwist_every: u32,
    /// Standard deviation of the crowding kernel, in tiles.
    pub sigma: f64,
    /// Crowding on edge tiles from the edge itself.
    pub edge_penalty: f64,
    /// Factor by which the edge penalty falls per tile away from the edge.
    pub edge_decay: f64,
    /// How strongly the initial random walk avoids crowded tiles.
    pub walk_avoidance: f64,
}

impl Default for AnnealConfig {
    fn default() -> Self {
        AnnealConfig {
            steps_per_tile: 100,
            t_initial: -3.0,
            t_final: 0.0,
            untwist_every: 256,
            sigma: 0.8,
            edge_penalty: 2.0,
            edge_decay: 0.35,
            walk_avoidance: 3.0,
        }
    }
}

/// The annealed main paths: per path, its tiles from the entry tile to the hub.
#[derive(Clone, Debug, PartialEq)]
pub struct MainPaths {
    /// One tile sequence per path; the last tile is the hub.
    pub paths: Vec<Vec<Pos>>,
}

/// Crowding totals of a state, kept up to date move by move.
#[derive(Clone, Debug)]
pub struct Crowding {
    grid: Grid,
    kernel: Kernel,
    edge: Vec<f64>,
    totals: Vec<f64>,
}

impl Crowding {
    /// Empty crowding for `grid`.
    pub fn new(grid: Grid, cfg: &AnnealConfig) -> Crowding {
        let radius = (cfg.sigma * 2.0).ceil() as i32;
        let edge = grid
            .tiles()
            .map(|p| cfg.edge_penalty * libm::pow(cfg.edge_decay, f64::from(grid.edge_distance(p))))
            .collect();
        Crowding {
            grid,
            kernel: Kernel::gaussian(cfg.sigma, radius),
            edge,
            totals: vec![0.0; grid.len()],
        }
    }

    /// `c(t, u)`: the crowding tile `t` gets from one occurrence of `u`.
    pub fn pair(&self, t: Pos, u: Pos) -> f64 {
        self.kernel.between(t, u)
    }

    /// `ce(t)`: the crowding tile `t` gets from the world's edge.
    pub fn edge(&self, t: Pos) -> f64 {
        self.edge[self.grid.index(t)]
    }

    /// `ct(t, s)`: the crowding tile `t` gets from the current state.
    pub fn total(&self, t: Pos) -> f64 {
        self.totals[self.grid.index(t)]
    }

    /// Records one more occurrence of `p` in the state.
    pub fn add(&mut self, p: Pos) {
        self.kernel.splat(&self.grid, &mut self.totals, p, 1.0);
    }

    /// Records one occurrence fewer of `p`.
    pub fn remove(&mut self, p: Pos) {
        self.kernel.splat(&self.grid, &mut self.totals, p, -1.0);
    }

    /// `f(s) − f(s')` for the state `s'` that differs from the current one by one occurrence of
    /// `v` becoming `w` (thesis 3.3.5).
    pub fn relative_improvement(&self, v: Pos, w: Pos) -> f64 {
        self.edge(v) - self.edge(w) + 2.0 * self.total(v) - 2.0 * self.total(w)
            + 2.0 * self.pair(w, v)
            - 2.0
    }

    /// `f(s)` computed from scratch, for checking the incremental form.
    pub fn full_cost(&self, paths: &[Vec<Pos>]) -> f64 {
        let all: Vec<Pos> = paths.iter().flatten().copied().collect();
        all.iter()
            .map(|&t| self.edge(t) + all.iter().map(|&u| self.pair(t, u)).sum::<f64>())
            .sum()
    }
}

/// The tiles `path[i]` may change into (thesis figure 3.3), inside the world: up to three, in
/// the first `len` entries.
pub fn moves(grid: &Grid, path: &[Pos], i: usize) -> ([Pos; 3], usize) {
    let (p, v, q) = (path[i - 1], path[i], path[i + 1]);
    let mut out = [v; 3];
    let mut len = 0;
    if p == q {
        for (_, n) in grid.neighbours(p) {
            if n != v {
                out[len] = n;
                len += 1;
            }
        }
    } else if p.x + q.x != 2 * v.x || p.y + q.y != 2 * v.y {
        let w = Pos::new(p.x + q.x - v.x, p.y + q.y - v.y);
        if grid.contains(w) {
            out[0] = w;
            len = 1;
        }
    }
    (out, len)
}

/// Generates the main paths from the chosen endpoints.
pub fn anneal_paths(
    grid: &Grid,
    endpoints: &Endpoints,
    cfg: &AnnealConfig,
    rng: &mut Rng,
) -> Result<MainPaths, GenError> {
    let paths = anneal_paths_raw(grid, endpoints, cfg, rng);
    validate(grid, endpoints.hub, &paths)?;
    Ok(MainPaths { paths })
}

/// The annealed state, valid or not.
pub fn anneal_paths_raw(
    grid: &Grid,
    endpoints: &Endpoints,
    cfg: &AnnealConfig,
    rng: &mut Rng,
) -> Vec<Vec<Pos>> {
    let mut crowding = Crowding::new(*grid, cfg);
    let mut paths = Vec::with_capacity(endpoints.entries.len());
    for (&entry, &steps) in endpoints.entries.iter().zip(&endpoints.steps) {
        let walk = random_walk(grid, &crowding, cfg, entry, endpoints.hub, steps, rng);
        for &p in &walk {
            crowding.add(p);
        }
        paths.push(walk);
    }

    let movable: Vec<(usize, usize)> = paths
        .iter()
        .enumerate()
        .flat_map(|(k, path)| (1..path.len().saturating_sub(1)).map(move |i| (k, i)))
        .collect();
    if !movable.is_empty() {
        let steps = u64::from(cfg.steps_per_tile) * movable.len() as u64;
        let last = (steps - 1).max(1) as f64;
        for step in 0..steps {
            let t = cfg.t_initial + (cfg.t_final - cfg.t_initial) * (step as f64 / last);
            let (k, i) = movable[rng.index(movable.len())];
            let (options, count) = moves(grid, &paths[k], i);
            if count > 0 {
                let w = options[rng.index(count)];
                let v = paths[k][i];
                let r = crowding.relative_improvement(v, w);
                if rng.chance(r - t) {
                    crowding.remove(v);
                    crowding.add(w);
                    paths[k][i] = w;
                }
            }
            if cfg.untwist_every > 0 && step % u64::from(cfg.untwist_every) == 0 {
                paths.iter_mut().for_each(|p| untwist(p));
            }
        }
    }
    paths.iter_mut().for_each(|p| untwist(p));
    paths
}

/// A walk of exactly `steps` segments from `entry` that ends on `hub`, preferring uncrowded tiles.
fn random_walk(
    grid: &Grid,
    crowding: &Crowding,
    cfg: &AnnealConfig,
    entry: Pos,
    hub: Pos,
    steps: u32,
    rng: &mut Rng,
) -> Vec<Pos> {
    let mut walk = Vec::with_capacity(steps as usize + 1);
    walk.push(entry);
    let mut current = entry;
    for left in (0..steps as i32).rev() {
        // `left` steps remain after this one: never go where the hub is further than that, and
        // never touch the hub early.
        let mut options: Vec<Pos> = grid
            .neighbours(current)
            .map(|(_, n)| n)
            .filter(|&n| n.manhattan(hub) <= left && (n != hub || left == 0))
            .collect();
        // Stepping straight back makes a spike that no single-tile move can remove (the tile
        // before and after the tip are the same); avoid it unless nothing else fits.
        let previous = walk.len().checked_sub(2).map(|i| walk[i]);
        if options.len() > 1 {
            options.retain(|&n| Some(n) != previous);
        }
        let weights: Vec<f64> = options
            .iter()
            .map(|&n| libm::exp(-cfg.walk_avoidance * (crowding.total(n) + crowding.edge(n))))
            .collect();
        // There is always an option: a tile no further from the hub than the steps left has a
        // neighbour that is closer, or any neighbour when there is slack.
        let Some(choice) = rng
            .weighted_index(&weights)
            .or((!options.is_empty()).then_some(0))
        else {
            break;
        };
        current = options[choice];
        walk.push(current);
    }
    walk
}

/// Reverses the loop of every place where `path` crosses itself, turning each crossing into a
/// touch that the annealer's local moves can pull apart (thesis figure 3.4).
pub fn untwist(path: &mut [Pos]) {
    // Each reversal removes one crossing; the bound only guards against surprises.
    for _ in 0..path.len() {
        let Some((a, b)) = find_crossing(path) else {
            return;
        };
        path[a + 1..b].reverse();
    }
}

/// Two visits `a < b` of the same tile where the path goes straight through both times, along
/// different axes.
fn find_crossing(path: &[Pos]) -> Option<(usize, usize)> {
    let straight_axis = |i: usize| -> Option<bool> {
        let (p, v, q) = (path[i - 1], path[i], path[i + 1]);
        (p.x + q.x == 2 * v.x && p.y + q.y == 2 * v.y).then_some(p.x == v.x)
    };
    // Only visits that go straight through can cross; compare each with the earlier ones.
    let mut seen: Vec<(Pos, usize, bool)> = Vec::with_capacity(path.len());
    for (b, &tile) in path
        .iter()
        .enumerate()
        .take(path.len().saturating_sub(1))
        .skip(1)
    {
        let Some(axis_b) = straight_axis(b) else {
            continue;
        };
        if let Some(&(_, a, _)) = seen
            .iter()
            .find(|(p, _, axis)| *p == tile && *axis != axis_b)
        {
            return Some((a, b));
        }
        seen.push((tile, b, axis_b));
    }
    None
}

/// A valid network: no tile is used twice, except the hub that ends every path.
fn validate(grid: &Grid, hub: Pos, paths: &[Vec<Pos>]) -> Result<(), GenError> {
    let mut used: Vec<Option<usize>> = vec![None; grid.len()];
    for (k, path) in paths.iter().enumerate() {
        for &p in &path[..path.len() - 1] {
            let i = grid.index(p);
            if p == hub {
                return Err(GenError::Paths(format!("path {k} passes the hub early")));
            }
            match used[i] {
                Some(j) if j == k => {
                    return Err(GenError::Paths(format!("path {k} revisits {p:?}")));
                }
                Some(j) => return Err(GenError::Paths(format!("paths {j} and {k} meet at {p:?}"))),
                None => used[i] = Some(k),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Seed;
    use crate::worldgen::WorldParams;
    use crate::worldgen::endpoints::pick_endpoints;

    #[test]
    fn relative_improvement_matches_full_recomputation() {
        let grid = Grid::new(15, 15);
        let cfg = AnnealConfig::default();
        let mut rng = Seed(5).rng();
        let params = WorldParams::with_lengths(vec![24, 28, 33]);
        let ends = pick_endpoints(&params, &mut rng).unwrap();
        let mut crowding = Crowding::new(grid, &cfg);
        let mut paths = Vec::new();
        for (&e, &n) in ends.entries.iter().zip(&ends.steps) {
            let w = random_walk(&grid, &crowding, &cfg, e, ends.hub, n, &mut rng);
            w.iter().for_each(|&p| crowding.add(p));
            paths.push(w);
        }
        let mut checked = 0;
        for _ in 0..3000 {
            let k = rng.index(paths.len());
            let i = 1 + rng.index(paths[k].len() - 2);
            let (options, count) = moves(&grid, &paths[k], i);
            if count == 0 {
                continue;
            }
            let w = options[rng.index(count)];
            let v = paths[k][i];
            let before = crowding.full_cost(&paths);
            let predicted = crowding.relative_improvement(v, w);
            paths[k][i] = w;
            let after = crowding.full_cost(&paths);
            assert!(
                (before - after - predicted).abs() < 1e-9,
                "{before} {after} {predicted}"
            );
            // Keep the totals in step, as the annealer does.
            crowding.remove(v);
            crowding.add(w);
            for p in grid.tiles() {
                let direct: f64 = paths.iter().flatten().map(|&u| crowding.pair(p, u)).sum();
                assert!((direct - crowding.total(p)).abs() < 1e-9);
            }
            checked += 1;
        }
        assert!(checked > 1000);
    }

    #[test]
    fn moves_follow_figure_3_3() {
        let grid = Grid::new(5, 5);
        let straight = [Pos::new(1, 1), Pos::new(2, 1), Pos::new(3, 1)];
        assert_eq!(moves(&grid, &straight, 1).1, 0);
        let corner = [Pos::new(1, 1), Pos::new(2, 1), Pos::new(2, 2)];
        assert_eq!(
            moves(&grid, &corner, 1),
            ([Pos::new(1, 2), Pos::new(2, 1), Pos::new(2, 1)], 1)
        );
        let back = [Pos::new(2, 2), Pos::new(2, 3), Pos::new(2, 2)];
        assert_eq!(moves(&grid, &back, 1).1, 3);
    }

    #[test]
    fn untwisting_turns_a_crossing_into_a_touch() {
        // Up through (1,1), round a loop to the west, then east through (1,1) again.
        let mut path = vec![
            Pos::new(1, 0),
            Pos::new(1, 1),
            Pos::new(1, 2),
            Pos::new(0, 2),
            Pos::new(0, 1),
            Pos::new(1, 1),
            Pos::new(2, 1),
        ];
        assert_eq!(find_crossing(&path), Some((1, 5)));
        untwist(&mut path);
        assert_eq!(find_crossing(&path), None);
        assert_eq!(path.len(), 7);
        assert_eq!((path[0], path[6]), (Pos::new(1, 0), Pos::new(2, 1)));
        for w in path.windows(2) {
            assert_eq!(w[0].manhattan(w[1]), 1);
        }
        // A path that only touches itself is left alone.
        let touch = vec![
            Pos::new(1, 0),
            Pos::new(1, 1),
            Pos::new(0, 1),
            Pos::new(1, 1),
            Pos::new(1, 2),
        ];
        assert_eq!(find_crossing(&touch), None);
    }

    #[test]
    fn annealed_paths_have_exact_lengths_and_end_on_the_hub() {
        let params = WorldParams::with_lengths(vec![24, 28, 33]);
        let mut ok = 0;
        for seed in 0..100 {
            let mut rng = Seed(seed).rng();
            let ends = pick_endpoints(&params, &mut rng).unwrap();
            if let Ok(main) =
                anneal_paths(&params.grid(), &ends, &AnnealConfig::default(), &mut rng)
            {
                ok += 1;
                for (path, &n) in main.paths.iter().zip(&ends.steps) {
                    assert_eq!(path.len(), n as usize + 1);
                    assert_eq!(*path.last().unwrap(), ends.hub);
                    for w in path.windows(2) {
                        assert_eq!(w[0].manhattan(w[1]), 1);
                    }
                }
            }
        }
        // About three in four are valid for this crowded configuration (docs/worldgen.md).
        assert!(ok >= 60, "only {ok} of 100 annealings were valid");
    }
}
