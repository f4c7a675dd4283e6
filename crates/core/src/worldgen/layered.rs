//! The layered terrain generator of *Turn-Based Strategy* (Pedram Amirkhalili, section 4.2), built
//! around the main paths instead of WFC: a river with recursive bends and bridges, a sea grown
//! inward from an edge by a Markov table of depths, mountain clusters, forts, a cleanup pass, and
//! the rule that every crossable tile is connected, enforced by the corrective repair of
//! [`crate::access::corrective`] on the square topology, so no attempt is ever thrown away.
//! Obstacles (woods) come last, on plains. `docs/worldgen.md`, *Layered terrain*, explains the
//! decisions.

use std::collections::VecDeque;

use super::grid::{Grid, Pos};
use super::modules::TileState;
use super::wfc::Terrain;
use crate::access::{Ground, corrective};
use crate::rng::Rng;
use crate::terrain::{Direction, TerrainType};
use crate::topology::{Size, Square};

/// Chance of each river tile to carry a bridge.
pub const BRIDGE_CHANCE: f64 = 0.15;
/// The largest sideways step of a river bend.
pub const MAX_DEVIATION: i32 = 4;
/// How much the chance of starting a new mountain cluster grows per mountain placed.
pub const CLUSTER_STEP: f64 = 0.03;
/// The deepest a sea row reaches inward.
pub const MAX_SEA_DEPTH: u8 = 8;
/// Bends within bends stop at this depth; the river runs out of room long before.
const MAX_BEND_DEPTH: u32 = 8;
/// Rivers drawn to choose from: the one crossing the fewest path tiles is kept, so the paths
/// cross the river instead of running along it.
const RIVER_CANDIDATES: usize = 12;

/// The Markov table of sea depths: for a row `depth` tiles deep, the chances that the next row is
/// one deeper, one shallower, or as deep (depths 1 to 8).
const DEPTH_TABLE: [(f64, f64, f64); 8] = [
    (1.0, 0.0, 0.0),
    (0.6, 0.15, 0.25),
    (0.5, 0.2, 0.3),
    (0.3, 0.2, 0.5),
    (0.2, 0.3, 0.5),
    (0.2, 0.5, 0.3),
    (0.15, 0.75, 0.1),
    (0.0, 1.0, 0.0),
];

/// What a tile is to the layered generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// Open ground.
    Plains,
    /// A crossing over the river (or over water the repair bridged).
    Bridge,
    /// A fort: free ground of its own colour.
    Fort,
    /// River water.
    River,
    /// Sea water.
    Sea,
    /// A mountain, raised and blocked.
    Mountain,
}

impl Layer {
    /// Whether a walker may stand on it.
    pub fn crossable(self) -> bool {
        matches!(self, Layer::Plains | Layer::Bridge | Layer::Fort)
    }
}

/// A finished layered map and what making it took.
#[derive(Clone, Debug)]
pub struct Layered {
    /// The layer of every tile, row by row.
    pub layers: Vec<Layer>,
    /// The river from one end to the other, before the sea and the repair changed any of it.
    pub river: Vec<Pos>,
    /// The depth of every sea row, in the order they were drawn.
    pub sea_depths: Vec<u8>,
    /// Tiles meant to be sea, and to be mountain (the budgets).
    pub budgets: (u32, u32),
    /// Tiles that became sea, and mountain, before the cleanup.
    pub placed: (u32, u32),
    /// Tiles the repair changed (0 when every crossable tile was connected already).
    pub repaired: u32,
}

/// Lays out the layers on `grid`, keeping the `reserved` tiles (the paths and the hub) crossable;
/// `hub` is where the connectivity repair starts.
pub fn lay_out(grid: &Grid, reserved: &[bool], hub: Pos, rng: &mut Rng) -> Layered {
    let mut map = Map {
        grid: *grid,
        layers: vec![Layer::Plains; grid.len()],
        reserved,
    };
    let river = map.river(rng);
    let total = grid.len() as u32;
    let budget = total * rng.range_i64(5, 20) as u32 / 100;
    let mountains = budget * rng.range_i64(0, 90) as u32 / 100;
    let sea = budget - mountains;
    let sea_depths = map.sea(sea, rng);
    let placed_sea = map.count(Layer::Sea);
    map.mountains(mountains, rng);
    let placed_mountains = map.count(Layer::Mountain);
    let forts = (total / 100).max(1);
    for i in map.free_plains(rng).into_iter().take(forts as usize) {
        map.layers[i] = Layer::Fort;
    }
    map.cleanup(&river);
    let repaired = map.repair(hub);
    Layered {
        layers: map.layers,
        river,
        sea_depths,
        budgets: (sea, mountains),
        placed: (placed_sea, placed_mountains),
        repaired,
    }
}

/// The WFC-shaped terrain of a layered map, and its obstacles (woods), for the rest of the
/// pipeline: surfaces by the roles of [`crate::terrain::Generator::Layered`], mountains raised
/// one level (two where surrounded by mountain, if `max_height` allows), every edge blocked
/// unless it joins two free tiles of one level.
pub fn to_terrain(
    grid: &Grid,
    terrain: &TerrainType,
    layered: &Layered,
    reserved: &[bool],
    rng: &mut Rng,
) -> (Terrain, Vec<Option<u16>>) {
    let (free, blocked) = (&terrain.free_surfaces, &terrain.blocked_surfaces);
    let layers = &layered.layers;
    let tiles: Vec<TileState> = grid
        .tiles()
        .map(|p| {
            let layer = layers[grid.index(p)];
            let surface = match layer {
                Layer::Plains => free[0],
                Layer::Bridge => free[1],
                Layer::Fort => free[2],
                Layer::River => blocked[0],
                Layer::Sea => blocked[1],
                Layer::Mountain => blocked[2],
            };
            let peak = grid
                .neighbours(p)
                .all(|(_, q)| layers[grid.index(q)] == Layer::Mountain);
            let level = match layer {
                Layer::Mountain if peak => terrain.max_height.min(2),
                Layer::Mountain => 1,
                _ => 0,
            };
            TileState {
                surface,
                level,
                slant: None,
            }
        })
        .collect();
    let edge = |a: Pos, b: Pos| {
        let (ta, tb) = (tiles[grid.index(a)], tiles[grid.index(b)]);
        if terrain.is_free_surface(ta.surface)
            && terrain.is_free_surface(tb.surface)
            && ta.level == tb.level
        {
            terrain.free_edges[0]
        } else {
            terrain.blocked_edges[0]
        }
    };
    let mut edge_east = vec![terrain.free_edges[0]; grid.len()];
    let mut edge_north = edge_east.clone();
    for p in grid.tiles() {
        let i = grid.index(p);
        for (d, q) in grid.neighbours(p) {
            match d {
                Direction::East => edge_east[i] = edge(p, q),
                Direction::North => edge_north[i] = edge(p, q),
                _ => {}
            }
        }
    }
    let placed = woods(grid, terrain, layers, reserved, rng);
    let land = Terrain {
        slots: Vec::new(),
        tiles,
        edge_east,
        edge_north,
        backtracks: 0,
    };
    (land, placed)
}

/// Each obstacle on a random number of tiles between its `min` and `max` (`min` when no `max`),
/// on plains off the paths; fewer only when the plains run out.
fn woods(
    grid: &Grid,
    terrain: &TerrainType,
    layers: &[Layer],
    reserved: &[bool],
    rng: &mut Rng,
) -> Vec<Option<u16>> {
    let mut free: Vec<usize> = (0..grid.len())
        .filter(|&i| layers[i] == Layer::Plains && !reserved[i])
        .collect();
    rng.shuffle(&mut free);
    let mut placed = vec![None; grid.len()];
    for (o, obstacle) in terrain.obstacles.iter().enumerate() {
        let high = obstacle.max.unwrap_or(obstacle.min).max(obstacle.min);
        let count = rng.range_i64(i64::from(obstacle.min), i64::from(high)) as usize;
        for i in free.drain(..count.min(free.len())) {
            placed[i] = Some(o as u16);
        }
    }
    placed
}

struct Map<'r> {
    grid: Grid,
    layers: Vec<Layer>,
    reserved: &'r [bool],
}

impl Map<'_> {
    fn at(&self, p: Pos) -> Layer {
        self.layers[self.grid.index(p)]
    }

    fn count(&self, layer: Layer) -> u32 {
        self.layers.iter().filter(|&&l| l == layer).count() as u32
    }

    /// Plains off the paths, in random order.
    fn free_plains(&self, rng: &mut Rng) -> Vec<usize> {
        let mut free: Vec<usize> = (0..self.grid.len())
            .filter(|&i| self.layers[i] == Layer::Plains && !self.reserved[i])
            .collect();
        rng.shuffle(&mut free);
        free
    }

    /// The river crossing the fewest path tiles of [`RIVER_CANDIDATES`], laid out; each of its
    /// tiles is a bridge with [`BRIDGE_CHANCE`], and every path tile it crosses is one.
    fn river(&mut self, rng: &mut Rng) -> Vec<Pos> {
        let crossings = |r: &Vec<Pos>| {
            r.iter()
                .filter(|&&p| self.reserved[self.grid.index(p)])
                .count()
        };
        let river = (0..RIVER_CANDIDATES)
            .map(|_| self.draw_river(rng))
            .min_by_key(crossings)
            .expect("at least one candidate");
        for &p in &river {
            let i = self.grid.index(p);
            self.layers[i] = if self.reserved[i] || rng.chance(BRIDGE_CHANCE) {
                Layer::Bridge
            } else {
                Layer::River
            };
        }
        river
    }

    /// A river: two ends on opposite sides (so it crosses the world), joined by straight lines
    /// through two corners, each line bent recursively.
    fn draw_river(&self, rng: &mut Rng) -> Vec<Pos> {
        let g = self.grid;
        let (w, h) = (i64::from(g.width), i64::from(g.height));
        let mut at = |low: i64, high: i64| rng.range_i64(low, high) as i32;
        let corners = if at(0, 1) == 0 {
            let (a, b, my) = (at(1, w - 2), at(1, w - 2), at(2, h - 3));
            [(a, 0), (a, my), (b, my), (b, g.height - 1)]
        } else {
            let (a, b, mx) = (at(1, h - 2), at(1, h - 2), at(2, w - 3));
            [(0, a), (mx, a), (mx, b), (g.width - 1, b)]
        }
        .map(|(x, y)| Pos::new(x, y));
        let mut occupied = vec![false; g.len()];
        let mut straight: Vec<Vec<Pos>> = Vec::new();
        for w in corners.windows(2) {
            let line = line(w[0], w[1]);
            line.iter().for_each(|&p| occupied[g.index(p)] = true);
            straight.push(line);
        }
        let mut river: Vec<Pos> = Vec::new();
        for line in straight {
            let bent = self.bend(line, &mut occupied, 0, rng);
            let skip = usize::from(river.last() == bent.first());
            river.extend(&bent[skip..]);
        }
        river
    }

    /// One straight stretch of river, bent: a random stretch of it moves sideways by the largest
    /// step that fits (at most [`MAX_DEVIATION`]) without touching other river tiles, and the
    /// three straight pieces left are bent in turn. Bends keep off the paths.
    fn bend(&self, line: Vec<Pos>, occupied: &mut [bool], depth: u32, rng: &mut Rng) -> Vec<Pos> {
        let len = line.len();
        if len < 5 || depth >= MAX_BEND_DEPTH {
            return line;
        }
        let i = rng.index(len - 4) + 1;
        let j = (i + 2 + rng.index(3)).min(len - 2);
        let along = line[0]
            .direction_to(line[1])
            .expect("a line has neighbouring tiles");
        let mut sides = [along.clockwise(), along.clockwise().opposite()];
        rng.shuffle(&mut sides);
        let g = self.grid;
        let fits = |side: Direction, d: i32, occupied: &[bool]| {
            let fresh = detour(&line[i..=j], side, d);
            fresh.iter().all(|&p| {
                g.contains(p)
                    && !occupied[g.index(p)]
                    && !self.reserved[g.index(p)]
                    && g.neighbours(p).all(|(_, q)| {
                        !occupied[g.index(q)] || line[i..=j].contains(&q) || fresh.contains(&q)
                    })
            })
        };
        let best = sides
            .iter()
            .filter_map(|&s| {
                (1..=MAX_DEVIATION)
                    .rev()
                    .find(|&d| fits(s, d, occupied))
                    .map(|d| (d, s))
            })
            .max_by_key(|&(d, _)| d);
        let Some((d, side)) = best else {
            return line;
        };
        line[i + 1..j]
            .iter()
            .for_each(|&p| occupied[g.index(p)] = false);
        let fresh = detour(&line[i..=j], side, d);
        fresh.iter().for_each(|&p| occupied[g.index(p)] = true);
        let dd = d as usize;
        let mut out = self.bend(line[..=i].to_vec(), occupied, depth + 1, rng);
        out.extend(&fresh[..dd - 1]);
        let middle = fresh[dd - 1..fresh.len() - (dd - 1)].to_vec();
        out.extend(self.bend(middle, occupied, depth + 1, rng));
        out.extend(&fresh[fresh.len() - (dd - 1)..]);
        out.extend(self.bend(line[j..].to_vec(), occupied, depth + 1, rng));
        out
    }

    /// The sea: a base line along the edge of a quarter of the budget (round corners if need
    /// be), then from one end of it a row inward per base tile, each row's depth one more, one
    /// less or the same as the last by [`DEPTH_TABLE`], until the base or the budget runs out.
    /// Path tiles are skipped and cost nothing. Returns the depths drawn.
    fn sea(&mut self, budget: u32, rng: &mut Rng) -> Vec<u8> {
        let g = self.grid;
        let ring = ring(&g);
        let start = rng.index(ring.len());
        let step = if rng.chance(0.5) { 1 } else { ring.len() - 1 };
        let base_len = ((budget / 4).max(1) as usize).min(ring.len());
        let base: Vec<Pos> = (0..base_len)
            .map(|k| ring[(start + k * step) % ring.len()])
            .collect();
        let mut left = budget;
        let put = |layers: &mut [Layer], p: Pos, left: &mut u32| {
            let i = g.index(p);
            if *left > 0 && !self.reserved[i] && layers[i] != Layer::Sea {
                layers[i] = Layer::Sea;
                *left -= 1;
            }
        };
        for &p in &base {
            put(&mut self.layers, p, &mut left);
        }
        let mut depths = Vec::new();
        let mut depth = 1u8;
        for (k, &p) in base.iter().enumerate() {
            if left == 0 {
                break;
            }
            let (up, down, _) = DEPTH_TABLE[usize::from(depth - 1)];
            let roll = rng.unit();
            depth = if roll < up {
                depth + 1
            } else if roll < up + down {
                depth - 1
            } else {
                depth
            };
            depths.push(depth);
            let neighbour = base
                .get(k + 1)
                .or(k.checked_sub(1).and_then(|k| base.get(k)));
            let Some(inward) = inward(&g, p, neighbour.copied()) else {
                continue;
            };
            let mut q = p;
            for _ in 1..depth {
                q = q.step(inward);
                if !g.contains(q) {
                    break;
                }
                put(&mut self.layers, q, &mut left);
            }
        }
        depths
    }

    /// Mountains on plains in clusters: a cluster grows from a random tile through a list of
    /// tiles next to it; before each tile, the cluster ends with a chance that starts at 0 and
    /// grows by [`CLUSTER_STEP`] per tile it has.
    fn mountains(&mut self, budget: u32, rng: &mut Rng) {
        let g = self.grid;
        let mut left = budget;
        while left > 0 {
            let Some(&seed) = self.free_plains(rng).first() else {
                return;
            };
            let mut chance = 0.0;
            let mut next: Vec<Pos> = Vec::new();
            let mut tile = g.pos(seed);
            loop {
                self.layers[g.index(tile)] = Layer::Mountain;
                left -= 1;
                next.extend(g.neighbours(tile).map(|(_, q)| q));
                chance += CLUSTER_STEP;
                let mut found = None;
                while left > 0 && found.is_none() && !next.is_empty() && !rng.chance(chance) {
                    let q = next.swap_remove(rng.index(next.len()));
                    let i = g.index(q);
                    if self.layers[i] == Layer::Plains && !self.reserved[i] {
                        found = Some(q);
                    }
                }
                match found {
                    Some(q) => tile = q,
                    None => break,
                }
            }
        }
    }

    /// The cleanup: plains and forts with nothing crossable around them take the layer of an
    /// uncrossable neighbour; then a bridge whose two banks (the sides away from the river's
    /// flow) are not both crossable and inside the world, or that sits on a bend or an end of
    /// the river, goes back to river. Path tiles stay.
    fn cleanup(&mut self, river: &[Pos]) {
        let g = self.grid;
        for p in g.tiles() {
            let i = g.index(p);
            if !matches!(self.layers[i], Layer::Plains | Layer::Fort) || self.reserved[i] {
                continue;
            }
            let around: Vec<Layer> = g.neighbours(p).map(|(_, q)| self.at(q)).collect();
            if around.iter().all(|l| !l.crossable()) {
                self.layers[i] = around[0];
            }
        }
        for (k, &p) in river.iter().enumerate() {
            let i = g.index(p);
            if self.layers[i] != Layer::Bridge || self.reserved[i] {
                continue;
            }
            let flow = [
                k.checked_sub(1).map(|k| river[k]),
                river.get(k + 1).copied(),
            ];
            // On a bend the two banks are not across from each other: no crossing there.
            let straight = matches!(flow, [Some(a), Some(b)] if a.manhattan(b) == 2 && (a.x == b.x || a.y == b.y));
            let banks_ok = Direction::ALL
                .iter()
                .map(|&d| p.step(d))
                .filter(|q| !flow.contains(&Some(*q)))
                .all(|q| g.contains(q) && self.at(q).crossable());
            if !straight || !banks_ok {
                self.layers[i] = Layer::River;
            }
        }
    }

    /// Joins every crossable tile to the hub's: the corrective repair opens walls (mountains
    /// become plains) and water (bridged or filled in as plains); of what it changed, only what
    /// the connection needs is kept. Returns how many tiles changed.
    fn repair(&mut self, hub: Pos) -> u32 {
        if connected(&self.grid, &self.layers) {
            return 0;
        }
        let g = self.grid;
        let size = Size {
            width: g.width as u32,
            height: g.height as u32,
        };
        let mut ground: Vec<Ground> = self
            .layers
            .iter()
            .map(|l| match l {
                l if l.crossable() => Ground::Land,
                Layer::Mountain => Ground::Wall,
                _ => Ground::Water,
            })
            .collect();
        let fix = corrective::repair(&Square(size), &mut ground, g.index(hub) as u32);
        let before = self.layers.clone();
        for &c in &fix.broken {
            self.layers[c as usize] = Layer::Plains;
        }
        for &b in &fix.bridges {
            self.layers[b as usize] = Layer::Bridge;
        }
        // The repair also opens every wall to a reachable neighbour, which would eat the inside
        // of every sea and mountain range: undo, latest first, each change the connection can
        // do without.
        let mut kept = 0;
        let all: Vec<usize> = fix
            .broken
            .iter()
            .chain(&fix.bridges)
            .map(|&c| c as usize)
            .collect();
        for &i in all.iter().rev() {
            let now = self.layers[i];
            if now == before[i] {
                continue;
            }
            self.layers[i] = before[i];
            if !connected(&g, &self.layers) {
                self.layers[i] = now;
                kept += 1;
            }
        }
        // A bridge whose far bank was undone joins land round a corner, not across: it is
        // filled in as plains, which keeps the same tiles connected.
        for &b in &fix.bridges {
            let p = g.pos(b as usize);
            if self.layers[b as usize] == Layer::Bridge && !self.has_banks(p) {
                self.layers[b as usize] = Layer::Plains;
            }
        }
        kept
    }

    /// Whether both neighbours of `p` along one axis are inside the world and crossable.
    fn has_banks(&self, p: Pos) -> bool {
        let bank = |q: Pos| self.grid.contains(q) && self.at(q).crossable();
        (bank(Pos::new(p.x - 1, p.y)) && bank(Pos::new(p.x + 1, p.y)))
            || (bank(Pos::new(p.x, p.y - 1)) && bank(Pos::new(p.x, p.y + 1)))
    }
}

/// Whether the crossable tiles form one group (4-neighbour moves).
pub fn connected(grid: &Grid, layers: &[Layer]) -> bool {
    let Some(first) = layers.iter().position(|l| l.crossable()) else {
        return true;
    };
    let mut seen = vec![false; grid.len()];
    seen[first] = true;
    let mut queue = VecDeque::from([grid.pos(first)]);
    let mut reached = 1;
    while let Some(p) = queue.pop_front() {
        for (_, q) in grid.neighbours(p) {
            let i = grid.index(q);
            if !seen[i] && layers[i].crossable() {
                seen[i] = true;
                reached += 1;
                queue.push_back(q);
            }
        }
    }
    reached == layers.iter().filter(|l| l.crossable()).count()
}

/// The tiles from `a` to `b` in a straight line (both included).
fn line(a: Pos, b: Pos) -> Vec<Pos> {
    let (dx, dy) = ((b.x - a.x).signum(), (b.y - a.y).signum());
    let n = (b.x - a.x).abs().max((b.y - a.y).abs());
    (0..=n)
        .map(|k| Pos::new(a.x + k * dx, a.y + k * dy))
        .collect()
}

/// The tiles of a detour `d` tiles towards `side` around the stretch `run`: out from its first
/// tile, along beside it, and back to its last (the first and last tiles themselves excluded).
fn detour(run: &[Pos], side: Direction, d: i32) -> Vec<Pos> {
    let (sx, sy) = side.delta();
    let shift = |p: Pos, k: i32| Pos::new(p.x + sx * k, p.y + sy * k);
    let (first, last) = (run[0], run[run.len() - 1]);
    let mut out: Vec<Pos> = (1..=d).map(|k| shift(first, k)).collect();
    out.extend(run[1..run.len() - 1].iter().map(|&p| shift(p, d)));
    out.extend((1..=d).rev().map(|k| shift(last, k)));
    out
}

/// The border tiles in order round the world.
fn ring(g: &Grid) -> Vec<Pos> {
    let (w, h) = (g.width, g.height);
    let mut out: Vec<Pos> = (0..w).map(|x| Pos::new(x, 0)).collect();
    out.extend((1..h).map(|y| Pos::new(w - 1, y)));
    out.extend((0..w - 1).rev().map(|x| Pos::new(x, h - 1)));
    out.extend((1..h - 1).rev().map(|y| Pos::new(0, y)));
    out
}

/// Into the world from border tile `p`, across the base line (which runs towards `neighbour`).
fn inward(g: &Grid, p: Pos, neighbour: Option<Pos>) -> Option<Direction> {
    let along = neighbour.and_then(|n| p.direction_to(n));
    Direction::ALL.into_iter().find(|&d| {
        along.is_none_or(|a| a.is_vertical() != d.is_vertical())
            && g.contains(p.step(d))
            && !g.contains(p.step(d.opposite()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_detour_leaves_and_rejoins_its_stretch() {
        let run = line(Pos::new(2, 5), Pos::new(5, 5));
        let d = detour(&run, Direction::North, 2);
        assert_eq!(d.first(), Some(&Pos::new(2, 6)));
        assert_eq!(d.last(), Some(&Pos::new(5, 6)));
        assert_eq!(d.len(), 2 + 2 + 2);
        assert!(d.windows(2).all(|w| w[0].manhattan(w[1]) == 1));
    }

    #[test]
    fn the_depth_table_rows_sum_to_one() {
        for (up, down, same) in DEPTH_TABLE {
            assert!((up + down + same - 1.0).abs() < 1e-9);
        }
    }
}
