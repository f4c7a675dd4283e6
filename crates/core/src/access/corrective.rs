//! The corrective repair: a finished grid is made accessible by one breadth-first search from
//! the start that breaks a wall whenever it gets stuck.
//!
//! The search never restarts. Its frontier is split: a queue of land tiles to expand, and the
//! impassable tiles it has touched (the *edge*) in two lists — grade A, with at least one
//! unexplored land neighbour, and grade B, with unexplored neighbours but none of them land. Each
//! edge tile's counts of unexplored neighbours and unexplored land neighbours are kept up to date
//! as tiles are explored, moving it from A to B and dropping it once nothing unexplored is left
//! around it (trimming), so the edge stays small. When the queue runs dry the best A tile (the
//! most unexplored neighbours), or failing that the best B tile, is broken into land and the
//! search goes on from it. An A tile that is water is bridged instead when the land across it
//! from an unexplored land neighbour has been reached; when what lies across is an explored
//! impassable tile, that tile is broken so that the bridge is needed; water whose unexplored land
//! neighbours all lie on the grid's border would be a pointless bridge and is broken.

use std::collections::VecDeque;

use super::Ground;
use crate::topology::Topology;

/// What the repair changed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repair {
    /// The impassable tiles turned into land, in the order they were broken.
    pub broken: Vec<u32>,
    /// The water tiles that now carry a bridge (and are [`Ground::Bridge`] in the grid).
    pub bridges: Vec<u32>,
}

/// Makes every tile reachable from `start`, by land and single bridges, changing only walls and
/// water into land and water into bridges. `ground` holds `Land`, `Wall` and `Water`.
pub fn repair<T: Topology>(topology: &T, ground: &mut [Ground], start: u32) -> Repair {
    let mut frontier = SplitFrontier::new(topology.size().cells());
    let mut repair = Repair::default();
    frontier.add(topology, ground, start);
    loop {
        while let Some(cell) = frontier.land.pop_front() {
            for &n in topology.neighbours(cell).iter() {
                if !frontier.explored[n as usize] {
                    frontier.add(topology, ground, n);
                }
            }
        }
        if !frontier.break_edge(topology, ground, &mut repair) {
            break;
        }
    }
    repair
        .bridges
        .retain(|&b| ground[b as usize] == Ground::Water);
    repair.bridges.sort_unstable();
    repair.bridges.dedup();
    for &b in &repair.bridges {
        ground[b as usize] = Ground::Bridge;
    }
    repair
}

const NONE: u8 = 0;
const GRADE_A: u8 = 1;
const GRADE_B: u8 = 2;

/// The search's frontier: land to expand and the graded impassable edge.
struct SplitFrontier {
    explored: Vec<bool>,
    land: VecDeque<u32>,
    a: Vec<u32>,
    b: Vec<u32>,
    /// Which list an edge tile is in, and where.
    grade: Vec<u8>,
    slot: Vec<u32>,
    /// Unexplored neighbours, and unexplored land neighbours, of each edge tile.
    open: Vec<u8>,
    open_land: Vec<u8>,
}

impl SplitFrontier {
    fn new(cells: usize) -> SplitFrontier {
        SplitFrontier {
            explored: vec![false; cells],
            land: VecDeque::new(),
            a: Vec::new(),
            b: Vec::new(),
            grade: vec![NONE; cells],
            slot: vec![0; cells],
            open: vec![0; cells],
            open_land: vec![0; cells],
        }
    }

    /// Explores `cell`: land joins the queue, an impassable tile the edge (unless nothing
    /// unexplored lies around it); the edge tiles around it count one unexplored neighbour less.
    fn add<T: Topology>(&mut self, topology: &T, ground: &[Ground], cell: u32) {
        let c = cell as usize;
        self.explored[c] = true;
        let land = ground[c].is_land();
        let neighbours = topology.neighbours(cell);
        if land {
            self.land.push_back(cell);
        } else {
            let (mut open, mut open_land) = (0, 0);
            for &n in neighbours.iter() {
                if !self.explored[n as usize] {
                    open += 1;
                    open_land += u8::from(ground[n as usize].is_land());
                }
            }
            self.open[c] = open;
            self.open_land[c] = open_land;
            self.regrade(cell);
        }
        for &n in neighbours.iter() {
            let i = n as usize;
            if self.grade[i] != NONE {
                self.open[i] -= 1;
                self.open_land[i] -= u8::from(land);
                self.regrade(n);
            }
        }
    }

    /// Files an edge tile under the grade its counts give.
    fn regrade(&mut self, cell: u32) {
        let c = cell as usize;
        let grade = if self.open_land[c] > 0 {
            GRADE_A
        } else if self.open[c] > 0 {
            GRADE_B
        } else {
            NONE
        };
        if grade != self.grade[c] {
            self.unfile(cell);
            let list = if grade == GRADE_A {
                &mut self.a
            } else if grade == GRADE_B {
                &mut self.b
            } else {
                return;
            };
            self.slot[c] = list.len() as u32;
            list.push(cell);
            self.grade[c] = grade;
        }
    }

    /// Takes an edge tile out of its list.
    fn unfile(&mut self, cell: u32) {
        let c = cell as usize;
        let list = match self.grade[c] {
            GRADE_A => &mut self.a,
            GRADE_B => &mut self.b,
            _ => return,
        };
        let at = self.slot[c] as usize;
        list.swap_remove(at);
        if let Some(&moved) = list.get(at) {
            self.slot[moved as usize] = at as u32;
        }
        self.grade[c] = NONE;
    }

    /// Turns an explored impassable tile into land and queues it.
    fn break_tile(&mut self, ground: &mut [Ground], cell: u32, repair: &mut Repair) {
        self.unfile(cell);
        ground[cell as usize] = Ground::Land;
        self.land.push_back(cell);
        repair.broken.push(cell);
    }

    /// The tile of `list` with the most unexplored neighbours (the first of equals).
    fn best(&self, list: &[u32]) -> Option<u32> {
        let mut best: Option<u32> = None;
        for &cell in list {
            if best.is_none_or(|b| self.open[cell as usize] > self.open[b as usize]) {
                best = Some(cell);
            }
        }
        best
    }

    /// Opens the edge when the land queue is empty: returns `false` when there is no edge left
    /// (everything is explored).
    fn break_edge<T: Topology>(
        &mut self,
        topology: &T,
        ground: &mut [Ground],
        repair: &mut Repair,
    ) -> bool {
        if let Some(cell) = self.best(&self.a) {
            if ground[cell as usize] == Ground::Water {
                self.open_water(topology, ground, cell, repair);
            } else {
                self.break_tile(ground, cell, repair);
            }
            true
        } else if let Some(cell) = self.best(&self.b) {
            self.break_tile(ground, cell, repair);
            true
        } else {
            false
        }
    }

    /// The water rule for the best A tile: bridge it when the land across it from an unexplored
    /// land neighbour is reached; break what lies across when that is an explored impassable
    /// tile; otherwise, or when the bridge would only lead to the border, break the water.
    fn open_water<T: Topology>(
        &mut self,
        topology: &T,
        ground: &mut [Ground],
        water: u32,
        repair: &mut Repair,
    ) {
        let size = topology.size();
        let mut blocked_far_side = None;
        for &n in topology.neighbours(water).iter() {
            if self.explored[n as usize] || !ground[n as usize].is_land() || size.on_border(n) {
                continue;
            }
            let Some(far) = topology.across(water, n) else {
                continue;
            };
            if !self.explored[far as usize] {
                continue;
            }
            if ground[far as usize].is_land() {
                repair.bridges.push(water);
                self.add(topology, ground, n);
                return;
            }
            blocked_far_side.get_or_insert(far);
        }
        match blocked_far_side {
            Some(far) => self.break_tile(ground, far, repair),
            None => self.break_tile(ground, water, repair),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::tests::grid;
    use crate::topology::{Hex, Square};

    #[test]
    fn an_open_grid_is_left_alone() {
        let (size, mut ground) = grid(&["....", "..M.", "...."]);
        let before = ground.clone();
        let repair = repair(&Hex(size), &mut ground, 0);
        assert_eq!(repair, Repair::default());
        assert_eq!(ground, before);
    }

    #[test]
    fn one_wall_opens_a_walled_pocket() {
        // A pocket at the right behind a wall of mountains: one break is enough.
        let (size, mut ground) = grid(&["...M..", "...M..", "...M..", "...M.."]);
        let r = repair(&Square(size), &mut ground, 0);
        assert_eq!(r.broken.len(), 1);
        assert!(r.bridges.is_empty());
    }

    #[test]
    fn water_with_land_across_becomes_a_bridge() {
        // The mountains at the ends have no land behind them (grade B); the water has (grade A).
        let (size, mut ground) = grid(&["..MM..", "..W...", "..W...", "..W...", "..MM.."]);
        let r = repair(&Square(size), &mut ground, 0);
        assert!(r.broken.is_empty(), "{r:?}");
        assert_eq!(r.bridges, [size.cell(2, 1)]);
        assert_eq!(ground[r.bridges[0] as usize], Ground::Bridge);
    }

    #[test]
    fn water_leading_only_to_the_border_is_broken() {
        // Behind the water lies only the last column, the border.
        let (size, mut ground) = grid(&["....W.", "....W.", "....W.", "....W."]);
        let r = repair(&Square(size), &mut ground, 0);
        assert!(r.bridges.is_empty());
        assert_eq!(r.broken.len(), 1);
    }
}
