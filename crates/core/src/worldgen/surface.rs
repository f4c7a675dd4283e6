//! The ground's height at any point of a generated world.

use super::grid::Pos;
use super::modules::TileState;
use super::world::{LEVEL_HEIGHT, World};
use crate::terrain::Direction;

/// The height level at an offset `(dx, dy)` (each from −½ to ½) from the centre of a tile: the
/// tile's level, or on a ramp, its level on the uphill side falling by one level toward the
/// downhill side the slant points to.
pub fn level_within(tile: TileState, dx: f64, dy: f64) -> f64 {
    let level = f64::from(tile.level);
    match tile.slant {
        None => level,
        Some(down) => {
            let along = match down {
                Direction::North => dy,
                Direction::South => -dy,
                Direction::East => dx,
                Direction::West => -dx,
            };
            level - (along.clamp(-0.5, 0.5) + 0.5)
        }
    }
}

impl World {
    /// The tile containing a point; tile `(x, y)` spans `x ± ½`, `y ± ½`. Points outside the
    /// world belong to the nearest edge tile.
    pub fn tile_at(&self, x: f64, y: f64) -> Pos {
        let clamp = |v: f64, n: i32| (v.round() as i32).clamp(0, n - 1);
        Pos::new(clamp(x, self.grid.width), clamp(y, self.grid.height))
    }

    /// The ground's height in world units at a point (ramps slope, cliffs are steps at tile
    /// edges). Outside the world the nearest edge tile's ground continues flat.
    pub fn ground_height(&self, x: f64, y: f64) -> f64 {
        let p = self.tile_at(x, y);
        let (dx, dy) = (
            (x - f64::from(p.x)).clamp(-0.5, 0.5),
            (y - f64::from(p.y)).clamp(-0.5, 0.5),
        );
        level_within(self.tile(p), dx, dy) * LEVEL_HEIGHT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramps_fall_toward_their_arrow() {
        let ramp = TileState {
            surface: 'G',
            level: 2,
            slant: Some(Direction::East),
        };
        assert_eq!(level_within(ramp, -0.5, 0.0), 2.0);
        assert_eq!(level_within(ramp, 0.0, 0.3), 1.5);
        assert_eq!(level_within(ramp, 0.5, 0.0), 1.0);
        let flat = TileState {
            slant: None,
            ..ramp
        };
        assert_eq!(level_within(flat, 0.4, -0.4), 2.0);
    }
}
