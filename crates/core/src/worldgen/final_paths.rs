//! Stage 5: the final path network (thesis 3.3.6).
//!
//! Terrain and obstacles are generated around the main paths; now new paths are searched in what
//! they left open, honouring blocked tiles, blocked edges and ramps (a ramp is only walked along
//! its slope). Every tile of a main path keeps its distance to the hub, so new paths pass the same
//! choke points and keep the shape the annealer optimised.
//!
//! A breadth-first search from the hub computes each tile's *minimum distance*, letting main-path
//! tiles be reached only at their own distance. A depth-first search per start then grows path
//! prototypes over a double-ended queue: continuations must be passable, not revisit the
//! prototype, and leave enough steps (minimum distance ≤ steps left); they are pushed so that the
//! best is popped first — a tile whose minimum distance equals the steps left above all, then
//! going straight, then the least crowded. On reaching the hub or the existing network the path is
//! accepted if its length fits exactly and it passes a tile not adjacent to the existing network
//! (RP10), without crowding every such tile of an earlier path (so RP10 also holds when the
//! finished network is read in any order). After a success the search continues from the *other* end of the queue, so the next
//! branch shares as little as possible with the last, until the branch budget is used.

use std::collections::VecDeque;

use super::GenError;
use super::annealing::{AnnealConfig, Crowding, MainPaths};
use super::endpoints::Endpoints;
use super::grid::{Grid, Pos};
use super::wfc::Terrain;
use crate::rng::Rng;
use crate::terrain::{Direction, TerrainType};

/// Prototypes expanded per start before giving up on its first path.
const FIRST_PATH_BUDGET: usize = 20_000;
/// Further prototypes expanded per start while looking for extra branches; most branches are
/// found early, and a search that finds none would otherwise comb the whole world.
const BRANCH_BUDGET: usize = 1_000;

/// One path start of the final network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathStart {
    /// The tile just outside the world where attackers appear.
    pub outside: Pos,
    /// The edge tile the first segment leads to.
    pub entry: Pos,
    /// Segments from `outside` to the hub.
    pub length: u32,
}

/// The finished path network.
#[derive(Clone, Debug, PartialEq)]
pub struct PathNetwork {
    /// Path distance to the hub of every in-world tile on a path.
    pub distance: Vec<Option<u32>>,
    /// Every directed segment, entry segments included, in the order they were added.
    pub segments: Vec<(Pos, Pos)>,
    /// The starts, in the order of the requested path lengths.
    pub starts: Vec<PathStart>,
    /// Every accepted path, from its entry tile to where it reached the hub or the network, in
    /// the order accepted. A path's new tiles are those in no earlier path.
    pub branches: Vec<Vec<Pos>>,
    /// Outgoing segments beyond the first, summed over all tiles.
    pub extra_branches: u32,
}

/// Everything the search needs to know about the world.
struct Search<'a> {
    grid: &'a Grid,
    terrain_type: &'a TerrainType,
    terrain: &'a Terrain,
    obstacles: &'a [Option<u16>],
}

impl Search<'_> {
    fn blocked(&self, p: Pos) -> bool {
        let i = self.grid.index(p);
        self.obstacles[i].is_some()
            || !self
                .terrain_type
                .is_free_surface(self.terrain.tiles[i].surface)
    }

    /// Whether a path may step from `a` to its neighbour `b` in direction `d`.
    fn passable(&self, a: Pos, b: Pos, d: Direction) -> bool {
        let along = |p: Pos| {
            self.terrain
                .tile(self.grid, p)
                .slant
                .is_none_or(|s| s.is_vertical() == d.is_vertical())
        };
        self.grid.contains(b)
            && !self.blocked(a)
            && !self.blocked(b)
            && !self
                .terrain_type
                .is_blocked_edge(self.terrain.edge_between(self.grid, a, b))
            && along(a)
            && along(b)
    }
}

/// Builds the final network from the main paths.
#[expect(
    clippy::too_many_arguments,
    reason = "the stages' results, each its own value"
)]
pub fn finalize_paths(
    grid: &Grid,
    terrain_type: &TerrainType,
    terrain: &Terrain,
    obstacles: &[Option<u16>],
    endpoints: &Endpoints,
    main: &MainPaths,
    max_extra_branches: u32,
    anneal: &AnnealConfig,
    rng: &mut Rng,
) -> Result<PathNetwork, GenError> {
    let search = Search {
        grid,
        terrain_type,
        terrain,
        obstacles,
    };
    let hub = endpoints.hub;
    let mut original: Vec<Option<u32>> = vec![None; grid.len()];
    for path in &main.paths {
        let n = path.len() - 1;
        for (i, &p) in path.iter().enumerate() {
            original[grid.index(p)] = Some((n - i) as u32);
        }
    }
    let min_dist = minimum_distances(&search, hub, &original);
    let entries = &endpoints.entries;

    // The annealer's crowding, edge penalty included, orders the continuations.
    let mut crowding = Crowding::new(*grid, anneal);
    crowding.add(hub);
    let mut net = Network {
        grid: *grid,
        distance: vec![None; grid.len()],
        out_degree: vec![0; grid.len()],
        segments: Vec::new(),
        branches: Vec::new(),
        witnesses: Vec::new(),
        extra: 0,
        crowding,
    };
    net.distance[grid.index(hub)] = Some(0);

    // Every start gets its first path before any start gets extra branches, so that short
    // branches (with few witnesses for RP10) cannot leave a later start without any path.
    let mut searches: Vec<StartSearch> = entries
        .iter()
        .zip(&endpoints.steps)
        .enumerate()
        .map(|(k, (&entry, &steps))| StartSearch {
            k,
            entry,
            steps,
            queue: VecDeque::from([vec![entry]]),
            success: false,
            expansions: 0,
        })
        .collect();
    let shared = Shared {
        search: &search,
        hub,
        entries,
        original: &original,
        min_dist: &min_dist,
        max_extra_branches,
    };
    for s in &mut searches {
        if !s.run(&shared, &mut net, true, rng) {
            return Err(GenError::FinalPaths(format!(
                "no path of length {} fits from {:?}",
                s.steps + 1,
                s.entry
            )));
        }
    }
    for s in &mut searches {
        if net.extra >= max_extra_branches {
            break;
        }
        s.expansions = 0;
        s.run(&shared, &mut net, false, rng);
    }

    let starts: Vec<PathStart> = entries
        .iter()
        .zip(&endpoints.steps)
        .zip(&main.paths)
        .map(|((&entry, &steps), path)| {
            let inward = path
                .get(1)
                .and_then(|&p| entry.direction_to(p))
                .unwrap_or(Direction::North);
            PathStart {
                outside: grid.outside_of(entry, inward),
                entry,
                length: steps + 1,
            }
        })
        .collect();
    let mut segments: Vec<(Pos, Pos)> = starts.iter().map(|s| (s.outside, s.entry)).collect();
    segments.extend(net.segments);
    Ok(PathNetwork {
        distance: net.distance,
        segments,
        starts,
        branches: net.branches,
        extra_branches: net.extra,
    })
}

/// What every start's search reads.
struct Shared<'a> {
    search: &'a Search<'a>,
    hub: Pos,
    entries: &'a [Pos],
    original: &'a [Option<u32>],
    min_dist: &'a [Option<u32>],
    max_extra_branches: u32,
}

/// The depth-first search from one start, kept between its first path and its extra branches.
struct StartSearch {
    k: usize,
    entry: Pos,
    steps: u32,
    queue: VecDeque<Vec<Pos>>,
    success: bool,
    expansions: usize,
}

impl StartSearch {
    /// Searches until the first accepted path (`first_only`) or until the branch budget, the
    /// queue or the expansion budget runs out. Returns whether it accepted a path.
    fn run(&mut self, w: &Shared<'_>, net: &mut Network, first_only: bool, rng: &mut Rng) -> bool {
        let grid = w.search.grid;
        let mut accepted = false;
        loop {
            if !first_only && net.extra >= w.max_extra_branches {
                return accepted;
            }
            let popped = if self.success {
                self.queue.pop_front()
            } else {
                self.queue.pop_back()
            };
            let Some(proto) = popped else { return accepted };
            self.expansions += 1;
            if self.expansions
                > if first_only {
                    FIRST_PATH_BUDGET
                } else {
                    BRANCH_BUDGET
                }
            {
                return accepted;
            }
            let last = *proto.last().unwrap_or(&self.entry);
            let left = i64::from(self.steps) - (proto.len() as i64 - 1);
            if proto.len() > 1 && net.distance[grid.index(last)].is_some() {
                self.success =
                    net.try_finish(&proto, self.steps, !first_only, w.max_extra_branches);
                accepted |= self.success;
                if self.success && first_only {
                    return true;
                }
                continue;
            }
            self.success = false;
            let after = left - 1;
            let mut next: Vec<(Pos, (bool, bool, f64))> = Vec::new();
            for (d, c) in grid.neighbours(last) {
                let ci = grid.index(c);
                let fits = |v: Option<u32>| v.is_some_and(|v| i64::from(v) == after);
                let ok = w.search.passable(last, c, d)
                    && w.min_dist[ci].is_some_and(|m| i64::from(m) <= after)
                    && w.original[ci].is_none_or(|o| i64::from(o) == after)
                    && net.distance[ci].is_none_or(|o| i64::from(o) == after)
                    && (c != w.hub || after == 0)
                    && !w
                        .entries
                        .iter()
                        .enumerate()
                        .any(|(j, &e)| j != self.k && e == c)
                    && !proto.contains(&c);
                if !ok {
                    continue;
                }
                let straight =
                    proto.len() >= 2 && proto[proto.len() - 2].direction_to(last) == Some(d);
                let crowding = net.crowding.total(c) + net.crowding.edge(c);
                next.push((c, (fits(w.min_dist[ci]), straight, crowding)));
            }
            // Shuffle first so that equal keys come in random order, then push the best last.
            rng.shuffle(&mut next);
            next.sort_by(|a, b| {
                (a.1.0, a.1.1)
                    .cmp(&(b.1.0, b.1.1))
                    .then(b.1.2.total_cmp(&a.1.2))
            });
            for (c, _) in next {
                let mut p = proto.clone();
                p.push(c);
                self.queue.push_back(p);
            }
        }
    }
}

/// The network built so far.
struct Network {
    grid: Grid,
    distance: Vec<Option<u32>>,
    out_degree: Vec<u32>,
    segments: Vec<(Pos, Pos)>,
    branches: Vec<Vec<Pos>>,
    /// Per accepted path, its new tiles that touch no tile of any other path.
    witnesses: Vec<Vec<Pos>>,
    extra: u32,
    crowding: Crowding,
}

impl Network {
    /// Accepts `proto` (which ends on the network) if it fits exactly, stays within the branch
    /// budget (the first path of a start always may) and passes RP10.
    fn try_finish(&mut self, proto: &[Pos], steps: u32, first_done: bool, budget: u32) -> bool {
        let grid = self.grid;
        let mut fresh = Vec::new();
        for (i, &p) in proto.iter().enumerate() {
            let want = i64::from(steps) - i as i64;
            match self.distance[grid.index(p)] {
                Some(d) if i64::from(d) != want => return false,
                Some(_) => {}
                None => fresh.push(p),
            }
        }
        // RP10: some new tile touches no tile of the existing network. Those tiles are the
        // branch's witnesses; later branches must leave every earlier branch at least one, so
        // the rule holds in the finished network too, whatever order it is read in.
        let witnesses: Vec<Pos> = fresh
            .iter()
            .copied()
            .filter(|&p| {
                (-1..=1).all(|dy| {
                    (-1..=1).all(|dx| {
                        let q = Pos::new(p.x + dx, p.y + dy);
                        !grid.contains(q) || self.distance[grid.index(q)].is_none()
                    })
                })
            })
            .collect();
        if witnesses.is_empty() {
            return false;
        }
        let kept: Vec<Vec<Pos>> = self
            .witnesses
            .iter()
            .map(|list| {
                list.iter()
                    .copied()
                    .filter(|&w| !fresh.iter().any(|&f| w.touches(f)))
                    .collect()
            })
            .collect();
        if kept.iter().any(Vec::is_empty) {
            return false;
        }
        let new_segments: Vec<(Pos, Pos)> = proto
            .windows(2)
            .map(|w| (w[0], w[1]))
            .filter(|s| !self.segments.contains(s))
            .collect();
        let mut extra = self.extra;
        let mut degree = self.out_degree.clone();
        for &(a, _) in &new_segments {
            let i = grid.index(a);
            degree[i] += 1;
            if degree[i] > 1 {
                extra += 1;
            }
        }
        if first_done && extra > budget {
            return false;
        }
        self.extra = extra;
        self.out_degree = degree;
        for (i, &p) in proto.iter().enumerate() {
            let idx = grid.index(p);
            if self.distance[idx].is_none() {
                self.distance[idx] = Some(steps - i as u32);
                self.crowding.add(p);
            }
        }
        self.segments.extend(new_segments);
        self.branches.push(proto.to_vec());
        self.witnesses = kept;
        self.witnesses.push(witnesses);
        true
    }
}

/// Breadth-first distances from the hub, in which a main-path tile can only be reached at its
/// own distance (thesis figure 3.8). `None`: no path can reach the hub from there.
fn minimum_distances(search: &Search<'_>, hub: Pos, original: &[Option<u32>]) -> Vec<Option<u32>> {
    let grid = search.grid;
    let mut dist: Vec<Option<u32>> = vec![None; grid.len()];
    dist[grid.index(hub)] = Some(0);
    let mut frontier = vec![hub];
    let mut level = 0u32;
    // Main-path tiles that are reached early wait here for their own level.
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &p in &frontier {
            for (d, n) in grid.neighbours(p) {
                let ni = grid.index(n);
                if dist[ni].is_some() || !search.passable(n, p, d.opposite()) {
                    continue;
                }
                if original[ni].is_some_and(|o| o != level + 1) {
                    continue;
                }
                dist[ni] = Some(level + 1);
                next.push(n);
            }
        }
        frontier = next;
        level += 1;
    }
    dist
}
