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

    /// The middle of the stretch of wall `self` shares with `other`, in base units (x, y), if
    /// they share one: where a door between them is drawn.
    pub fn door_point(&self, other: &Rect) -> Option<(f64, f64)> {
        let (a, b) = (self, other);
        let side = a.shared_wall(b)?;
        let mid = |lo: i32, hi: i32| f64::from(lo + hi) / 2.0;
        let rows = mid(a.y.max(b.y), (a.y + a.h).min(b.y + b.h));
        let columns = mid(a.x.max(b.x), (a.x + a.w).min(b.x + b.w));
        Some(match side {
            Side::East => (f64::from(a.x + a.w), rows),
            Side::West => (f64::from(a.x), rows),
            Side::South => (columns, f64::from(a.y + a.h)),
            Side::North => (columns, f64::from(a.y)),
        })
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

    #[test]
    fn a_door_is_in_the_middle_of_the_shared_wall() {
        let rect = |x, y, w, h| Rect { x, y, w, h };
        // A big room and a small one on its east wall's lower half.
        let (big, east) = (rect(0, 0, 2, 2), rect(2, 1, 1, 1));
        assert_eq!(big.door_point(&east), Some((2.0, 1.5)));
        assert_eq!(east.door_point(&big), Some((2.0, 1.5)));
        // A wide room above: the middle of the stretch both share.
        assert_eq!(big.door_point(&rect(1, -1, 2, 1)), Some((1.5, 0.0)));
        assert_eq!(big.door_point(&rect(5, 5, 1, 1)), None);
    }
}
