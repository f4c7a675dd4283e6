//! What the battle's questions (`questions.rs`) answer with: the share of each path segment a
//! tower would cover, what the buildings will produce, and range maps — what one is drawn for,
//! the map itself, and the sampler that works one out a few points at a time.

use std::sync::Arc;

use glam::DVec3;

use super::entity::{EntityId, Position};
use super::field::Field;
use crate::content::BlueprintId;

/// How much of one path segment a tower would cover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentCover {
    /// The segment (an index into the battle field's segments).
    pub segment: usize,
    /// The share of the segment where it can hit small attackers, 0 to 1.
    pub small: f64,
    /// The share where it can hit large attackers.
    pub large: f64,
}

/// Fuel, materials and energy, per wave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Production {
    /// Fuel.
    pub fuel: f64,
    /// Materials.
    pub materials: f64,
    /// Energy.
    pub energy: f64,
}

/// What a range map is drawn for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RangeOf {
    /// A tower or ability already in the world.
    Placed(EntityId),
    /// A blueprint about to be placed at `position`, turned `rotation` quarter turns.
    Planned {
        /// The blueprint.
        blueprint: BlueprintId,
        /// Where (a building goes on the tile containing it).
        position: Position,
        /// Quarter turns clockwise from north.
        rotation: u8,
    },
}

/// Where something can hit attackers, sampled on a square grid over the world: bit 0 of a cell
/// means a small attacker standing there can be hit, bit 1 a large one.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeMap {
    /// The centre of the first cell (south-west), in tile coordinates.
    pub origin: (f64, f64),
    /// The side of a cell, in tiles.
    pub step: f64,
    /// Cells from west to east.
    pub columns: usize,
    /// Cells from south to north.
    pub rows: usize,
    /// The cells, row by row from the south.
    pub cells: Vec<u8>,
}

impl RangeMap {
    /// Bit set in a cell where a small attacker can be hit.
    pub const SMALL: u8 = 1;
    /// Bit set in a cell where a large attacker can be hit.
    pub const LARGE: u8 = 2;

    /// The centre of cell `(column, row)`.
    pub fn center(&self, column: usize, row: usize) -> (f64, f64) {
        (
            self.origin.0 + column as f64 * self.step,
            self.origin.1 + row as f64 * self.step,
        )
    }

    /// The cell at `(column, row)`.
    pub fn cell(&self, column: usize, row: usize) -> u8 {
        self.cells[row * self.columns + column]
    }
}

/// The test behind a range map: what a point on the ground is for the thing measured.
pub(super) type RangeTest = Box<dyn Fn(DVec3) -> u8 + Send + Sync>;

/// A range map worked out progressively (thesis 3.10.1): every refinement halves the size of
/// the squares sampled, so the map is whole — if coarse — after the first call and exact after
/// the last. Cells farther from the centre than the reach are empty without a test.
pub struct RangeSampler {
    test: RangeTest,
    field: Arc<Field>,
    map: RangeMap,
    /// Whether a cell's own centre was tested (its value is exact).
    exact: Vec<bool>,
    centre: (f64, f64),
    reach: f64,
    /// The side, in cells, of the squares the current pass samples (a power of two), and the
    /// next square of that pass.
    block: usize,
    next: usize,
}

impl RangeSampler {
    /// Point tests a frame of the game client spends refining a range map: small enough that a
    /// frame stays well under 16 ms (`benches/range.rs` measures it).
    pub const TESTS_PER_FRAME: usize = 400;

    pub(super) fn new(
        field: Arc<Field>,
        test: RangeTest,
        centre: (f64, f64),
        reach: f64,
        per_tile: u32,
    ) -> RangeSampler {
        let grid = field.world().grid;
        let per_tile = per_tile.max(1) as usize;
        let step = 1.0 / per_tile as f64;
        let columns = grid.width as usize * per_tile;
        let rows = grid.height as usize * per_tile;
        RangeSampler {
            test,
            field,
            map: RangeMap {
                origin: (-0.5 + step / 2.0, -0.5 + step / 2.0),
                step,
                columns,
                rows,
                cells: vec![0; columns * rows],
            },
            exact: vec![false; columns * rows],
            centre,
            reach,
            block: per_tile.next_power_of_two(),
            next: 0,
        }
    }

    /// The map as far as it is worked out.
    pub fn map(&self) -> &RangeMap {
        &self.map
    }

    /// The map, worked out or not.
    pub(super) fn into_map(self) -> RangeMap {
        self.map
    }

    /// Whether every cell is exact.
    pub fn is_complete(&self) -> bool {
        self.block == 0
    }

    /// Tests up to `budget` more points (cells out of reach cost nothing) and fills the squares
    /// they stand for. Returns whether the map is complete.
    pub fn refine(&mut self, budget: usize) -> bool {
        let mut spent = 0;
        while self.block > 0 && spent < budget {
            let b = self.block;
            let across = self.map.columns.div_ceil(b);
            let down = self.map.rows.div_ceil(b);
            if self.next >= across * down {
                self.block /= 2;
                self.next = 0;
                continue;
            }
            let (bx, by) = (self.next % across, self.next / across);
            self.next += 1;
            // The square's own sample: the cell at its middle, kept inside the map.
            let column = (bx * b + b / 2).min(self.map.columns - 1);
            let row = (by * b + b / 2).min(self.map.rows - 1);
            let index = row * self.map.columns + column;
            let value = if self.exact[index] {
                self.map.cells[index]
            } else {
                let (x, y) = self.map.center(column, row);
                let near =
                    libm::hypot(x - self.centre.0, y - self.centre.1) <= self.reach + self.map.step;
                let value = if near {
                    spent += 1;
                    (self.test)(self.field.on_ground(x, y))
                } else {
                    0
                };
                self.exact[index] = true;
                self.map.cells[index] = value;
                value
            };
            // Cells of the square not yet exact take the square's value until their turn.
            for r in by * b..((by + 1) * b).min(self.map.rows) {
                for c in bx * b..((bx + 1) * b).min(self.map.columns) {
                    let i = r * self.map.columns + c;
                    if !self.exact[i] {
                        self.map.cells[i] = value;
                    }
                }
            }
        }
        self.is_complete()
    }
}
