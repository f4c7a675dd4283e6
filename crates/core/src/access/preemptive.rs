//! The preemptive check: before an impassable tile is kept, make sure that everything stays
//! reachable from the start.
//!
//! By induction every tile is reachable before the placement, so only the new tile's neighbours
//! need looking at: a path that went through the tile can go round it through them. One greedy
//! best-first search from the start looks for all of them at once, always expanding the frontier
//! tile closest (in hex distance) to the new tile. A passable neighbour counts as found when
//! reached; an impassable one when a reached tile touches it (so it can still be seen and
//! approached). When the search runs dry with neighbours missing, the placement blocks — unless
//! the new tile is water and some land neighbour it cut off lies straight across it from a
//! reached land tile: then the search goes on over a bridge to each such neighbour, and if it
//! finds the rest from there, the tile is kept as a crossing. Water whose crossings would all
//! land on the grid's border is refused like the repair's pointless bridges.

use super::Ground;
use crate::topology::Topology;

/// What placing one impassable tile would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every neighbour is still found by land and the existing bridges.
    Open,
    /// Some land neighbours are cut off, and each is reached by one bridge over the new water
    /// tile (directly, or on foot after one): keep it as a [`Ground::Bridge`]. The ends of those
    /// crossings must stay passable.
    Crossing,
    /// The tile would cut something off.
    Blocks,
}

/// The search, with its buffers kept between checks (a generator runs one check per impassable
/// tile it tries).
#[derive(Debug)]
pub struct Checker {
    /// `reached[c] == epoch` when cell `c` was reached in the current check.
    reached: Vec<u32>,
    /// `target[c] == epoch` when cell `c` neighbours the current candidate.
    target: Vec<u32>,
    epoch: u32,
    /// The frontier as a bucket queue by distance to the candidate.
    buckets: Vec<Vec<u32>>,
    lowest: usize,
    highest: usize,
    targets: [u32; 6],
    found: [bool; 6],
    count: usize,
    missing: usize,
}

impl Checker {
    /// A checker for grids of `topology`'s size.
    pub fn new(topology: &impl Topology) -> Checker {
        let size = topology.size();
        let cells = size.cells();
        Checker {
            reached: vec![0; cells],
            target: vec![0; cells],
            epoch: 0,
            buckets: vec![Vec::new(); (size.width + size.height + 1) as usize],
            lowest: 0,
            highest: 0,
            targets: [0; 6],
            found: [false; 6],
            count: 0,
            missing: 0,
        }
    }

    /// Checks the impassable tile just written at `candidate` (`Wall` or `Water` in `ground`).
    /// On [`Verdict::Crossing`] `ends` holds the pairs of land tiles each new bridge joins.
    pub fn check<T: Topology>(
        &mut self,
        topology: &T,
        ground: &[Ground],
        start: u32,
        candidate: u32,
        ends: &mut Vec<(u32, u32)>,
    ) -> Verdict {
        self.begin(topology, candidate);
        ends.clear();
        self.reach(start, topology.distance(start, candidate));
        if self.explore(topology, ground, candidate, None) {
            return Verdict::Open;
        }
        if ground[candidate as usize] != Ground::Water {
            return Verdict::Blocks;
        }
        for i in 0..self.count {
            let cut = self.targets[i];
            if self.found[i] || !ground[cut as usize].is_land() {
                continue;
            }
            match topology.across(candidate, cut) {
                Some(from) if ground[from as usize].is_land() && self.is_reached(from) => {
                    ends.push((from, cut));
                }
                // Perhaps reached on foot from one that is bridged: the search will tell.
                _ => {}
            }
        }
        // A bridge that leads only to the border would be pointless (as in the repair).
        if ends.iter().all(|&(_, cut)| topology.size().on_border(cut)) {
            return Verdict::Blocks;
        }
        for &(_, cut) in ends.iter() {
            self.reach(cut, 1);
        }
        if self.explore(topology, ground, candidate, Some(candidate)) {
            Verdict::Crossing
        } else {
            Verdict::Blocks
        }
    }

    /// A fresh check: new stamps, an empty frontier, the candidate's neighbours as targets.
    fn begin(&mut self, topology: &impl Topology, candidate: u32) {
        if self.epoch == u32::MAX {
            self.reached.fill(0);
            self.target.fill(0);
            self.epoch = 0;
        }
        self.epoch += 1;
        for bucket in &mut self.buckets[self.lowest..=self.highest] {
            bucket.clear();
        }
        self.lowest = usize::MAX;
        self.highest = 0;
        let neighbours = topology.neighbours(candidate);
        self.count = neighbours.len();
        self.missing = neighbours.len();
        for (i, &n) in neighbours.iter().enumerate() {
            self.targets[i] = n;
            self.found[i] = false;
            self.target[n as usize] = self.epoch;
        }
    }

    fn is_reached(&self, cell: u32) -> bool {
        self.reached[cell as usize] == self.epoch
    }

    /// Marks a land cell reached and puts it on the frontier at `priority`.
    fn reach(&mut self, cell: u32, priority: u32) {
        self.reached[cell as usize] = self.epoch;
        self.touch(cell);
        let p = priority as usize;
        self.buckets[p].push(cell);
        self.lowest = self.lowest.min(p);
        self.highest = self.highest.max(p);
    }

    /// A reached tile reaches or touches `cell`: if it is a target, it is found.
    fn touch(&mut self, cell: u32) {
        if self.target[cell as usize] != self.epoch {
            return;
        }
        for i in 0..self.count {
            if self.targets[i] == cell && !self.found[i] {
                self.found[i] = true;
                self.missing -= 1;
            }
        }
    }

    fn pop(&mut self) -> Option<u32> {
        while self.lowest <= self.highest {
            if let Some(cell) = self.buckets[self.lowest].pop() {
                return Some(cell);
            }
            self.lowest += 1;
        }
        None
    }

    /// Runs the search until every target is found (`true`) or the frontier is empty (`false`).
    /// `bridge` is a water tile to cross as if it carried a bridge.
    fn explore<T: Topology>(
        &mut self,
        topology: &T,
        ground: &[Ground],
        candidate: u32,
        bridge: Option<u32>,
    ) -> bool {
        if self.missing == 0 {
            return true;
        }
        while let Some(cell) = self.pop() {
            for &n in topology.neighbours(cell).iter() {
                let here = if Some(n) == bridge {
                    Ground::Bridge
                } else {
                    ground[n as usize]
                };
                match here {
                    Ground::Land if !self.is_reached(n) => {
                        self.reach(n, topology.distance(n, candidate));
                    }
                    Ground::Bridge => {
                        self.touch(n);
                        if let Some(far) = topology.across(n, cell)
                            && ground[far as usize].is_land()
                            && !self.is_reached(far)
                        {
                            self.reach(far, topology.distance(far, candidate));
                        }
                    }
                    Ground::Wall | Ground::Water => self.touch(n),
                    Ground::Land => {}
                }
            }
            if self.missing == 0 {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::access::tests::grid;
    use crate::topology::Hex;

    /// A grid, a candidate tile and what the check must say.
    type Case<'a> = (&'a [&'a str], (u32, u32), Ground, Verdict);

    /// The verdict on `tile` at `at` in a hex grid drawn as rows, from the start `0:0`.
    fn verdict(rows: &[&str], at: (u32, u32), tile: Ground) -> Verdict {
        let (size, mut ground) = grid(rows);
        let hex = Hex(size);
        let candidate = size.cell(at.0, at.1);
        ground[candidate as usize] = tile;
        Checker::new(&hex).check(&hex, &ground, 0, candidate, &mut Vec::new())
    }

    #[test]
    fn verdicts() {
        use Ground::{Wall, Water};
        use Verdict::{Blocks, Crossing, Open};
        let open = ["......", "......", "......", "......"];
        // Column 4 is a wall but for the gap at 4:1 (row 1 is odd, shifted right).
        let gap = ["....M...", "........", "....M...", "...M....", "...M...."];
        // A pocket right of 4:4 hangs on 4:3 through 5:4; across 4:3 from 5:4 lies 4:2.
        let pocket = [
            "........", "........", "....M...", ".....MMM", "....M...", "....MMMM",
        ];
        let pocket_open = [
            "........", "........", "........", ".....MMM", "....M...", "....MMMM",
        ];
        // The last column hangs on 6:1; across it from 7:1 lies the land 5:1, but the crossing
        // would lead only to the border.
        let border = ["......M.", "........", "......M.", "......M.", "......M."];
        // The right side hangs on the bridge at 4:1 (column 4 blocked but for 4:3, or wholly).
        let bridged = ["....M...", "....B...", "....M...", "........", "....M..."];
        let walled = ["....M...", "....B...", "....M...", "....M...", "....M..."];
        let cases: [Case; 12] = [
            (&open, (3, 2), Wall, Open),
            (&gap, (4, 1), Wall, Blocks),
            (&gap, (4, 1), Water, Crossing),
            (&pocket, (4, 3), Water, Blocks),
            (&pocket_open, (4, 3), Water, Crossing),
            (&pocket_open, (4, 3), Wall, Blocks),
            (&border, (6, 1), Water, Blocks),
            (&gap, (4, 3), Wall, Open),
            (&bridged, (4, 3), Wall, Open),
            (&walled, (6, 2), Wall, Open),
            // The bridge's landing.
            (&walled, (5, 1), Wall, Blocks),
            (&walled, (3, 1), Water, Blocks),
        ];
        for (rows, at, tile, expected) in cases {
            assert_eq!(
                verdict(rows, at, tile),
                expected,
                "{tile:?} at {at:?} in {rows:?}"
            );
        }
    }
}
