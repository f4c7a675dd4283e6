//! Spawning the tile types one after the other, at random or in chains, with the preemptive
//! check when it is on.

use super::{CHAIN_CHANCE, CHANCE_PROPAGATION, Method, Tile};
use crate::access::Ground;
use crate::access::preemptive::{Checker, Verdict};
use crate::rng::Rng;
use crate::topology::{Hex, Topology};

/// A set of cells with constant-time insert, remove and random pick.
struct CellSet {
    cells: Vec<u32>,
    /// Where each cell is in `cells`, or `ABSENT`.
    at: Vec<u32>,
}

const ABSENT: u32 = u32::MAX;

impl CellSet {
    /// Every cell of a grid of `len` cells but `except`.
    fn all_but(len: usize, except: u32) -> CellSet {
        let mut set = CellSet {
            cells: Vec::with_capacity(len),
            at: vec![ABSENT; len],
        };
        for cell in (0..len as u32).filter(|&c| c != except) {
            set.at[cell as usize] = set.cells.len() as u32;
            set.cells.push(cell);
        }
        set
    }

    fn contains(&self, cell: u32) -> bool {
        self.at[cell as usize] != ABSENT
    }

    fn remove(&mut self, cell: u32) {
        let at = self.at[cell as usize];
        if at == ABSENT {
            return;
        }
        self.cells.swap_remove(at as usize);
        if let Some(&moved) = self.cells.get(at as usize) {
            self.at[moved as usize] = at;
        }
        self.at[cell as usize] = ABSENT;
    }

    fn pick(&self, rng: &mut Rng) -> Option<u32> {
        (!self.cells.is_empty()).then(|| self.cells[rng.index(self.cells.len())])
    }
}

/// The level while it is spawned.
pub(super) struct Placer {
    hex: Hex,
    start: u32,
    tiles: Vec<Tile>,
    ground: Vec<Ground>,
    critical: Vec<bool>,
    /// Grass tiles but the start: where resources may go.
    grass: CellSet,
    /// Grass tiles neither critical nor the start: where impassable tiles may go.
    open: CellSet,
    /// The preemptive check, when it is on.
    checker: Option<Checker>,
    ends: Vec<(u32, u32)>,
    bridges: Vec<u32>,
    placements: Vec<(u32, Tile)>,
}

/// What spawning left.
pub(super) struct Spawned {
    pub tiles: Vec<Tile>,
    pub ground: Vec<Ground>,
    pub critical: Vec<u32>,
    pub bridges: Vec<u32>,
    pub placements: Vec<(u32, Tile)>,
}

impl Placer {
    /// An all-Grass level; with `check`, every impassable tile is checked before it stays.
    pub fn new(hex: Hex, start: u32, check: bool) -> Placer {
        let cells = hex.size().cells();
        Placer {
            hex,
            start,
            tiles: vec![Tile::Grass; cells],
            ground: vec![Ground::Land; cells],
            critical: vec![false; cells],
            grass: CellSet::all_but(cells, start),
            open: CellSet::all_but(cells, start),
            checker: check.then(|| Checker::new(&hex)),
            ends: Vec::new(),
            bridges: Vec::new(),
            placements: Vec::new(),
        }
    }

    /// Marks the `count` tiles nearest the start (by steps; the farthest ring drawn at random)
    /// critical, so the start keeps a connected area of land around it. Returns them.
    pub fn protect_start(&mut self, count: usize, rng: &mut Rng) -> Vec<u32> {
        let mut seen = vec![false; self.tiles.len()];
        seen[self.start as usize] = true;
        let mut ring = vec![self.start];
        let mut area: Vec<u32> = Vec::with_capacity(count);
        while area.len() < count && !ring.is_empty() {
            let mut next = Vec::new();
            for &cell in &ring {
                for &n in self.hex.neighbours(cell).iter() {
                    if !std::mem::replace(&mut seen[n as usize], true) {
                        next.push(n);
                    }
                }
            }
            if area.len() + next.len() > count {
                rng.shuffle(&mut next);
                next.truncate(count - area.len());
            }
            area.extend_from_slice(&next);
            ring = next;
        }
        for &cell in &area {
            self.mark_critical(cell);
        }
        area
    }

    /// Spawns up to `target` tiles of `tile`; stops early when no tile is left where it may go.
    pub fn spawn(&mut self, tile: Tile, target: u32, method: Method, rng: &mut Rng) {
        if tile.is_impassable() && method == Method::Natural {
            self.spawn_chains(tile, target, rng);
            return;
        }
        let mut placed = 0;
        while placed < target {
            let free = if tile.is_impassable() {
                &self.open
            } else {
                &self.grass
            };
            let Some(cell) = free.pick(rng) else { break };
            placed += u32::from(self.place(cell, tile));
        }
    }

    /// Spawns impassable tiles in chains. With no chain, a random open tile starts one. A chain
    /// grows with a chance that falls with its length: from a branching tile of the chain (the
    /// newest for mountains, a random one for water) to the first of its neighbours, in random
    /// order, where the tile may go; a branching tile with no such neighbour leaves the chain.
    fn spawn_chains(&mut self, tile: Tile, target: u32, rng: &mut Rng) {
        let newest_first = tile == Tile::Mountain;
        let mut chain: Vec<u32> = Vec::new();
        let mut length = 0u32;
        let mut placed = 0;
        while placed < target {
            if chain.is_empty() {
                let Some(cell) = self.open.pick(rng) else {
                    break;
                };
                if self.place(cell, tile) {
                    chain.push(cell);
                    (length, placed) = (1, placed + 1);
                }
                continue;
            }
            let chance = CHAIN_CHANCE - f64::from(length - 1) * (1.0 - CHANCE_PROPAGATION);
            if !rng.chance(chance) {
                chain.clear();
                continue;
            }
            let at = if newest_first {
                chain.len() - 1
            } else {
                rng.index(chain.len())
            };
            let neighbours = self.hex.neighbours(chain[at]);
            let mut order = [0u32; 6];
            let order = &mut order[..neighbours.len()];
            order.copy_from_slice(&neighbours);
            rng.shuffle(order);
            match order
                .iter()
                .find(|&&n| self.open.contains(n) && self.place(n, tile))
            {
                Some(&grown) => {
                    chain.push(grown);
                    (length, placed) = (length + 1, placed + 1);
                }
                None => {
                    chain.swap_remove(at);
                }
            }
        }
    }

    /// Puts `tile` on the Grass tile `cell`; an impassable tile that fails the check is taken
    /// back and its place marked critical. Returns whether it stays.
    fn place(&mut self, cell: u32, tile: Tile) -> bool {
        let c = cell as usize;
        self.tiles[c] = tile;
        self.ground[c] = tile.ground();
        if tile.is_impassable()
            && let Some(checker) = &mut self.checker
        {
            match checker.check(&self.hex, &self.ground, self.start, cell, &mut self.ends) {
                Verdict::Open => {}
                Verdict::Crossing => {
                    self.ground[c] = Ground::Bridge;
                    self.bridges.push(cell);
                    for (from, to) in std::mem::take(&mut self.ends) {
                        self.mark_critical(from);
                        self.mark_critical(to);
                    }
                }
                Verdict::Blocks => {
                    self.tiles[c] = Tile::Grass;
                    self.ground[c] = Ground::Land;
                    self.mark_critical(cell);
                    return false;
                }
            }
        }
        self.grass.remove(cell);
        self.open.remove(cell);
        self.placements.push((cell, tile));
        true
    }

    fn mark_critical(&mut self, cell: u32) {
        self.critical[cell as usize] = true;
        self.open.remove(cell);
    }

    /// The level as spawned.
    pub fn finish(self) -> Spawned {
        let mut bridges = self.bridges;
        bridges.sort_unstable();
        Spawned {
            critical: (0..self.tiles.len() as u32)
                .filter(|&c| self.critical[c as usize])
                .collect(),
            tiles: self.tiles,
            ground: self.ground,
            bridges,
            placements: self.placements,
        }
    }
}
