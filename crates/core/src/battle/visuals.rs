//! What scripts draw (`game:draw_line`, `game:draw_ring`, `game:flash`): lines, rings and
//! flashes at points of the world for a number of ticks. They go into the battle's log as
//! [`LogKind::Drawn`](super::LogKind::Drawn) and nowhere else, so drawing never changes the battle: the client draws
//! them, every other reader of the log passes them by.

use super::entity::Position;
use crate::content::colour::Rgb;

/// The most ticks a visual shows (10 s); a script asking for more gets this many.
pub const MAX_VISUAL_TICKS: u32 = 200;

/// The ticks a visual shows when its options do not say (half a second).
pub const DEFAULT_VISUAL_TICKS: u32 = 10;

/// The largest radius of a ring or flash, in tiles: beyond any world.
pub const MAX_VISUAL_RADIUS: f64 = 100.0;

/// The widest line or ring, in tiles.
pub const MAX_VISUAL_WIDTH: f64 = 1.0;

/// Something a script drew, as the log keeps it.
#[derive(Clone, Debug, PartialEq)]
pub struct Visual {
    /// What it is and where.
    pub figure: Figure,
    /// Its colour.
    pub colour: Rgb,
    /// How opaque it is, 0 (not at all) to 1.
    pub alpha: f64,
    /// How many ticks it shows, from the tick it was drawn at (1 to [`MAX_VISUAL_TICKS`]).
    pub ticks: u32,
}

/// What a [`Visual`] is, in the battle's coordinates (tiles; drawn on the ground).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Figure {
    /// A straight line between two points.
    Line {
        /// One end.
        from: Position,
        /// The other end.
        to: Position,
        /// Its width, in tiles.
        width: f64,
    },
    /// A circle around a point.
    Ring {
        /// Its centre.
        center: Position,
        /// Its radius, in tiles.
        radius: f64,
        /// The width of its line, in tiles.
        width: f64,
    },
    /// A burst of light that grows and fades.
    Flash {
        /// Where.
        at: Position,
        /// How far it reaches at its largest, in tiles.
        radius: f64,
    },
}
