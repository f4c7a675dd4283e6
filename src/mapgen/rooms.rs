//! Rooms on the map's grid of base room units: rectangles, the door slots on their walls, and the
//! ways a new room can be attached to a door.

use serde::{Deserialize, Serialize};

use crate::content::acts::Layout;

/// A room's rectangle in base room units; `y` grows downwards (rows of a picture).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rect {
    /// Left column.
    pub x: i32,
    /// Top row.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

/// A cell of the grid.
pub type Cell = (i32, i32);

/// One of a room's four walls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Side {
    /// The top wall.
    North,
    /// The right wall.
    East,
    /// The bottom wall.
    South,
    /// The left wall.
    West,
}

/// A place for a door: a wall, and the cell just outside it where the next room begins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// The wall.
    pub side: Side,
    /// The cell beyond the wall.
    pub outside: Cell,
}

impl Rect {
    /// Every cell the room covers.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        (self.y..self.y + self.h).flat_map(move |y| (self.x..self.x + self.w).map(move |x| (x, y)))
    }

    /// Whether the two rooms share a cell.
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }

    /// The wall of `self` that touches `other`, if the two share a stretch of wall.
    pub fn shared_wall(&self, other: &Rect) -> Option<Side> {
        let rows = self.y < other.y + other.h && other.y < self.y + self.h;
        let columns = self.x < other.x + other.w && other.x < self.x + self.w;
        if rows && self.x + self.w == other.x {
            Some(Side::East)
        } else if rows && other.x + other.w == self.x {
            Some(Side::West)
        } else if columns && self.y + self.h == other.y {
            Some(Side::South)
        } else if columns && other.y + other.h == self.y {
            Some(Side::North)
        } else {
            None
        }
    }

    /// The door slots of the room: one in the middle of every base unit of every wall (a wall
    /// two units long has two, at a quarter and three quarters of its length), in a fixed order.
    pub fn slots(&self) -> Vec<Slot> {
        let mut slots = Vec::new();
        for i in 0..self.w {
            slots.push(Slot {
                side: Side::North,
                outside: (self.x + i, self.y - 1),
            });
        }
        for j in 0..self.h {
            slots.push(Slot {
                side: Side::East,
                outside: (self.x + self.w, self.y + j),
            });
        }
        for i in 0..self.w {
            slots.push(Slot {
                side: Side::South,
                outside: (self.x + i, self.y + self.h),
            });
        }
        for j in 0..self.h {
            slots.push(Slot {
                side: Side::West,
                outside: (self.x - 1, self.y + j),
            });
        }
        slots
    }
}

/// The rectangles a room of `layout` can take behind the door `slot`: each covers the cell
/// beyond the door and lies wholly beyond the wall, so the two rooms share the door's wall.
pub fn attach_options(layout: Layout, slot: Slot) -> Vec<Rect> {
    let (w, h) = layout.size();
    let (cx, cy) = slot.outside;
    match slot.side {
        Side::East => (0..h)
            .map(|d| Rect {
                x: cx,
                y: cy - d,
                w,
                h,
            })
            .collect(),
        Side::West => (0..h)
            .map(|d| Rect {
                x: cx - w + 1,
                y: cy - d,
                w,
                h,
            })
            .collect(),
        Side::South => (0..w)
            .map(|d| Rect {
                x: cx - d,
                y: cy,
                w,
                h,
            })
            .collect(),
        Side::North => (0..w)
            .map(|d| Rect {
                x: cx - d,
                y: cy - h + 1,
                w,
                h,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_attach_option_covers_the_door_cell_and_touches_the_wall() {
        let room = Rect {
            x: 0,
            y: 0,
            w: 2,
            h: 2,
        };
        for slot in room.slots() {
            for layout in [Layout::Small, Layout::Big, Layout::Tall, Layout::Wide] {
                let options = attach_options(layout, slot);
                assert!(!options.is_empty());
                for r in options {
                    assert!(r.cells().any(|c| c == slot.outside), "{r:?} {slot:?}");
                    assert!(!r.overlaps(&room));
                    assert_eq!(room.shared_wall(&r), Some(slot.side), "{r:?} {slot:?}");
                }
            }
        }
    }

    #[test]
    fn a_big_room_has_two_slots_per_wall() {
        let big = Rect {
            x: 3,
            y: -1,
            w: 2,
            h: 2,
        };
        assert_eq!(big.slots().len(), 8);
        assert_eq!(big.cells().count(), 4);
    }
}
