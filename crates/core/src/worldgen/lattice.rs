//! Stages 1 and 2 for a terrain type with `paths lattice` (*Procedural level generation*, the
//! miniTD development log): the main paths follow a logic grid instead of being annealed.
//!
//! Three to six lines are drawn across each axis, never on the world's edge and never next to a
//! parallel line. The hub is an intersection near the centre (RP1). Each path enters at an edge
//! tile where a line meets the edge, runs straight to the line's first intersection, and then
//! moves only between neighbouring intersections of the lattice, never reusing one (of its own
//! or of an earlier path), until it reaches the hub. The search is a depth-first search in
//! random order: when no move is left it drops its last intersection and tries another (the
//! log's backtracking). It looks for a path of exactly the requested length; when the lattice
//! has none within its budget, it keeps the nearest length it found and the world says so
//! ([`super::GenStats::adjusted_paths`]). A later path must pass a tile touching no earlier
//! path tile (RP10), so candidates that hug an earlier path are refused.
//!
//! The final network is the main paths themselves ([`network`]): leaving the lattice for extra
//! branches would break the rule the terrain type asked for.

use super::GenError;
use super::annealing::MainPaths;
use super::endpoints::{Endpoints, hub_radius};
use super::final_paths::{PathNetwork, PathStart};
use super::grid::{Grid, Pos};
use crate::rng::Rng;

/// Intersections a path's search may visit from one entry before it moves on to the next entry.
const SEARCH_BUDGET: usize = 2_000;
/// Lattices drawn per path attempt in search of one that holds the requested lengths.
pub const DRAWS: usize = 64;
/// Fewest and most lines per axis.
pub const LINES: std::ops::RangeInclusive<usize> = 3..=6;

/// The logic grid: the columns of the lines across X and the rows of the lines across Y, sorted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lattice {
    /// Columns of the vertical lines.
    pub xs: Vec<i32>,
    /// Rows of the horizontal lines.
    pub ys: Vec<i32>,
}

impl Lattice {
    /// Whether `p` is an intersection.
    pub fn is_intersection(&self, p: Pos) -> bool {
        self.xs.contains(&p.x) && self.ys.contains(&p.y)
    }

    /// Intersection `(i, j)` as a tile.
    fn at(&self, (i, j): (usize, usize)) -> Pos {
        Pos::new(self.xs[i], self.ys[j])
    }
}

/// The lattice and the main paths on it.
#[derive(Clone, Debug, PartialEq)]
pub struct LatticePaths {
    /// The logic grid.
    pub lattice: Lattice,
    /// The hub and entries; `steps` are the lengths the lattice gave.
    pub endpoints: Endpoints,
    /// The paths, entry tile to hub.
    pub main: MainPaths,
    /// Paths whose length differs from the one asked for.
    pub adjusted: u32,
}

/// Draws `3..=6` line positions in `1..=n − 2`, no two next to each other. A world of 7 tiles
/// fits only three (1, 3, 5), so the count is capped by what fits.
pub fn pick_lines(n: i32, rng: &mut Rng) -> Vec<i32> {
    let fits = ((n - 2 + 1) / 2) as usize;
    let want = rng.range_i64(*LINES.start() as i64, *LINES.end() as i64) as usize;
    let want = want.min(fits);
    // A random pick can block itself (in 1..=5, picking 2 leaves room for one more line only),
    // so draw again; the evenly spaced lines are the last resort.
    for _ in 0..100 {
        let mut lines: Vec<i32> = Vec::new();
        let mut free: Vec<i32> = (1..=n - 2).collect();
        while lines.len() < want && !free.is_empty() {
            let l = free[rng.index(free.len())];
            lines.push(l);
            free.retain(|&f| (f - l).abs() > 1);
        }
        if lines.len() == want {
            lines.sort_unstable();
            return lines;
        }
    }
    (0..want as i32).map(|k| 1 + 2 * k).collect()
}

/// Lays the lattice, the hub and one path per requested length. Up to [`DRAWS`] lattices are
/// drawn and the one whose paths miss the requested lengths by the fewest segments in total is
/// kept (the first that misses by none ends the search).
pub fn lattice_paths(
    grid: &Grid,
    lengths: &[u32],
    rng: &mut Rng,
) -> Result<LatticePaths, GenError> {
    let mut best: Option<(i64, LatticePaths)> = None;
    for _ in 0..DRAWS {
        let Some((miss, laid)) = lay(grid, lengths, rng) else {
            continue;
        };
        if best.as_ref().is_none_or(|b| miss < b.0) {
            best = Some((miss, laid));
        }
        if miss == 0 {
            break;
        }
    }
    best.map(|b| b.1).ok_or_else(|| {
        GenError::Paths(format!(
            "no lattice of {DRAWS} held paths of lengths {lengths:?}"
        ))
    })
}

/// One lattice and its paths, with their total miss; `None` when some path found no way to the
/// hub. The longest paths are laid first, since they need the most room.
fn lay(grid: &Grid, lengths: &[u32], rng: &mut Rng) -> Option<(i64, LatticePaths)> {
    let lattice = Lattice {
        xs: pick_lines(grid.width, rng),
        ys: pick_lines(grid.height, rng),
    };
    let hub_at = pick_hub(grid, &lattice, lengths.len(), rng);
    let hub = lattice.at(hub_at);
    let mut used = vec![vec![false; lattice.ys.len()]; lattice.xs.len()];
    let mut order: Vec<usize> = (0..lengths.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(lengths[k]));
    let mut laid: Vec<Vec<Pos>> = Vec::new();
    let mut paths: Vec<Vec<Pos>> = vec![Vec::new(); lengths.len()];
    let (mut adjusted, mut total_miss) = (0, 0);
    for k in order {
        let mut solver = Solver {
            lattice: &lattice,
            hub: hub_at,
            used: &mut used,
            earlier: &laid,
            target: i64::from(lengths[k].saturating_sub(1)),
            best: None,
            budget: 0,
        };
        let mut entries = entries(grid, &lattice);
        rng.shuffle(&mut entries);
        for (entry, first) in entries {
            if solver.best.as_ref().is_some_and(|b| b.0 == 0) {
                break;
            }
            if !solver.reaches_hub(first) {
                continue;
            }
            solver.budget = SEARCH_BUDGET;
            let lead = entry.manhattan(lattice.at(first));
            let mut route = vec![first];
            solver.search(&mut route, i64::from(lead), entry, rng);
        }
        let (miss, path) = solver.best?;
        adjusted += u32::from(miss != 0);
        total_miss += miss;
        for &p in &path[..path.len() - 1] {
            if let (Some(i), Some(j)) = (
                lattice.xs.iter().position(|&x| x == p.x),
                lattice.ys.iter().position(|&y| y == p.y),
            ) {
                used[i][j] = true;
            }
        }
        laid.push(path.clone());
        paths[k] = path;
    }
    let endpoints = Endpoints {
        hub,
        entries: paths.iter().map(|p| p[0]).collect(),
        steps: paths.iter().map(|p| p.len() as u32 - 1).collect(),
    };
    Some((
        total_miss,
        LatticePaths {
            lattice,
            endpoints,
            main: MainPaths { paths },
            adjusted,
        },
    ))
}

/// The hub: a random intersection within the annealer's hub radius of the centre (RP1), or the
/// nearest one when none is that close.
fn pick_hub(grid: &Grid, lattice: &Lattice, paths: usize, rng: &mut Rng) -> (usize, usize) {
    let cx = f64::from(grid.width - 1) / 2.0;
    let cy = f64::from(grid.height - 1) / 2.0;
    let all: Vec<(usize, usize)> = (0..lattice.xs.len())
        .flat_map(|i| (0..lattice.ys.len()).map(move |j| (i, j)))
        .collect();
    let off = |&(i, j): &(usize, usize)| {
        libm::hypot(f64::from(lattice.xs[i]) - cx, f64::from(lattice.ys[j]) - cy)
    };
    let radius = hub_radius(grid, paths) + 0.5;
    let near: Vec<(usize, usize)> = all.iter().copied().filter(|c| off(c) <= radius).collect();
    if near.is_empty() {
        *all.iter()
            .min_by(|a, b| off(a).total_cmp(&off(b)))
            .expect("a lattice has intersections")
    } else {
        near[rng.index(near.len())]
    }
}

/// Every edge tile where a line meets the edge, with the intersection its lead-in runs to.
fn entries(grid: &Grid, l: &Lattice) -> Vec<(Pos, (usize, usize))> {
    let (nx, ny) = (l.xs.len() - 1, l.ys.len() - 1);
    let mut out = Vec::new();
    for (j, &y) in l.ys.iter().enumerate() {
        out.push((Pos::new(0, y), (0, j)));
        out.push((Pos::new(grid.width - 1, y), (nx, j)));
    }
    for (i, &x) in l.xs.iter().enumerate() {
        out.push((Pos::new(x, 0), (i, 0)));
        out.push((Pos::new(x, grid.height - 1), (i, ny)));
    }
    out
}

/// The backtracking search for one path.
struct Solver<'a> {
    lattice: &'a Lattice,
    hub: (usize, usize),
    used: &'a mut Vec<Vec<bool>>,
    earlier: &'a [Vec<Pos>],
    target: i64,
    /// The nearest length found so far: how far it misses, and its tiles.
    best: Option<(i64, Vec<Pos>)>,
    budget: usize,
}

impl Solver<'_> {
    /// Extends `route` (intersections, `steps` segments from `entry` so far) towards the hub.
    fn search(&mut self, route: &mut Vec<(usize, usize)>, steps: i64, entry: Pos, rng: &mut Rng) {
        let here = *route.last().expect("a route starts at an intersection");
        if here == self.hub {
            self.offer(route, steps, entry);
            return;
        }
        if self.budget == 0 || self.best.as_ref().is_some_and(|b| b.0 == 0) {
            return;
        }
        self.budget -= 1;
        let to_hub = i64::from(self.lattice.at(here).manhattan(self.lattice.at(self.hub)));
        // Every way on is at least this long, so it cannot beat the best miss found.
        if let Some((miss, _)) = &self.best
            && steps + to_hub - self.target >= *miss
        {
            return;
        }
        let (i, j) = here;
        let mut next: Vec<(usize, usize)> = Vec::with_capacity(4);
        if i > 0 {
            next.push((i - 1, j));
        }
        if i + 1 < self.lattice.xs.len() {
            next.push((i + 1, j));
        }
        if j > 0 {
            next.push((i, j - 1));
        }
        if j + 1 < self.lattice.ys.len() {
            next.push((i, j + 1));
        }
        // Next to the hub, a path steps onto it: passing by would take one of the hub's four
        // ways in from the paths still to come.
        if next.contains(&self.hub) {
            next = vec![self.hub];
        }
        rng.shuffle(&mut next);
        // With no slack left, only moves towards the hub can still reach the length asked for;
        // trying them first also finds some route quickly when the lattice has none that fits.
        if steps + to_hub >= self.target {
            let hub = self.lattice.at(self.hub);
            next.sort_by_key(|&n| self.lattice.at(n).manhattan(hub));
        }
        for n in next {
            if route.contains(&n) || (self.used[n.0][n.1] && n != self.hub) {
                continue;
            }
            let gap = i64::from(self.lattice.at(here).manhattan(self.lattice.at(n)));
            route.push(n);
            self.search(route, steps + gap, entry, rng);
            route.pop();
        }
    }

    /// Whether the hub can be reached from intersection `from` over unused intersections (or
    /// `from` is the hub); searching from an entry cut off from it would only use up the budget.
    fn reaches_hub(&self, from: (usize, usize)) -> bool {
        let free = |c: (usize, usize)| c == self.hub || !self.used[c.0][c.1];
        if !free(from) {
            return false;
        }
        let (nx, ny) = (self.lattice.xs.len(), self.lattice.ys.len());
        let mut seen = vec![vec![false; ny]; nx];
        let mut stack = vec![from];
        seen[from.0][from.1] = true;
        while let Some((i, j)) = stack.pop() {
            if (i, j) == self.hub {
                return true;
            }
            let around = [
                (i.wrapping_sub(1), j),
                (i + 1, j),
                (i, j.wrapping_sub(1)),
                (i, j + 1),
            ];
            for (a, b) in around {
                if a < nx && b < ny && !seen[a][b] && free((a, b)) {
                    seen[a][b] = true;
                    stack.push((a, b));
                }
            }
        }
        false
    }

    /// Considers a route that reached the hub: kept if it misses the target by less than the
    /// best so far and every path, this one and the earlier ones, keeps a tile of its own (RP10).
    fn offer(&mut self, route: &[(usize, usize)], steps: i64, entry: Pos) {
        let miss = (steps - self.target).abs();
        if self.best.as_ref().is_some_and(|b| b.0 <= miss) {
            return;
        }
        let tiles = self.tiles(route, entry);
        let mut all: Vec<&[Pos]> = self.earlier.iter().map(Vec::as_slice).collect();
        all.push(&tiles);
        if each_alone(&all) {
            self.best = Some((miss, tiles));
        }
    }

    /// The tiles of a route: the lead-in from `entry`, then every tile between intersections.
    fn tiles(&self, route: &[(usize, usize)], entry: Pos) -> Vec<Pos> {
        let mut out = vec![entry];
        for &c in route {
            let to = self.lattice.at(c);
            let mut at = *out.last().expect("the entry is the first tile");
            while at != to {
                at = Pos::new(at.x + (to.x - at.x).signum(), at.y + (to.y - at.y).signum());
                out.push(at);
            }
        }
        out
    }
}

/// RP10 read in any order: every path has a tile, other than the hub they share, touching no
/// tile of another path.
fn each_alone(paths: &[&[Pos]]) -> bool {
    paths.iter().enumerate().all(|(k, path)| {
        path[..path.len() - 1].iter().any(|t| {
            paths
                .iter()
                .enumerate()
                .filter(|&(o, _)| o != k)
                .all(|(_, other)| other.iter().all(|q| !t.touches(*q)))
        })
    })
}

/// The final network of a lattice world: its main paths, each in the order made, with no extra
/// branches (RP2–RP4, RP6, RP7 and RP10 hold by construction).
pub fn network(grid: &Grid, main: &MainPaths) -> PathNetwork {
    let mut distance = vec![None; grid.len()];
    let mut starts = Vec::new();
    let mut segments = Vec::new();
    for path in &main.paths {
        let n = path.len() - 1;
        for (i, &p) in path.iter().enumerate() {
            distance[grid.index(p)] = Some((n - i) as u32);
        }
        let entry = path[0];
        let inward = path
            .get(1)
            .and_then(|&p| entry.direction_to(p))
            .expect("a lattice path has a lead-in");
        starts.push(PathStart {
            outside: grid.outside_of(entry, inward),
            entry,
            length: n as u32 + 1,
        });
    }
    segments.extend(starts.iter().map(|s| (s.outside, s.entry)));
    for path in &main.paths {
        segments.extend(path.windows(2).map(|w| (w[0], w[1])));
    }
    PathNetwork {
        distance,
        segments,
        starts,
        branches: main.paths.clone(),
        extra_branches: 0,
    }
}
