//! The tile grid: positions, neighbours, distances, and the crowding kernel that several stages
//! use to spread things out.

use serde::{Deserialize, Serialize};

use crate::terrain::Direction;

/// A tile position. `x` grows east, `y` grows north, `(0, 0)` is the south-west tile. Positions
/// just outside the world (path starts) are valid values too.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Column, growing east.
    pub x: i32,
    /// Row, growing north.
    pub y: i32,
}

impl Pos {
    /// The position `(x, y)`.
    pub const fn new(x: i32, y: i32) -> Pos {
        Pos { x, y }
    }

    /// The neighbouring position in direction `d`.
    pub fn step(self, d: Direction) -> Pos {
        let (dx, dy) = d.delta();
        Pos::new(self.x + dx, self.y + dy)
    }

    /// Manhattan distance, the shortest path length between two tiles.
    pub fn manhattan(self, other: Pos) -> i32 {
        (self.x - other.x).abs() + (self.y - other.y).abs()
    }

    /// Euclidean distance between tile centres.
    pub fn distance(self, other: Pos) -> f64 {
        f64::from((self.x - other.x).pow(2) + (self.y - other.y).pow(2)).sqrt()
    }

    /// The direction from `self` to an edge neighbour `other`, if it is one.
    pub fn direction_to(self, other: Pos) -> Option<Direction> {
        Direction::ALL.into_iter().find(|&d| self.step(d) == other)
    }

    /// Whether `other` touches `self` by an edge or a corner (or is `self`).
    pub fn touches(self, other: Pos) -> bool {
        (self.x - other.x).abs() <= 1 && (self.y - other.y).abs() <= 1
    }

    /// `[x, y]`, the JSON form.
    pub fn pair(self) -> [i32; 2] {
        [self.x, self.y]
    }
}

/// The size of the world and conversions between positions and flat indices (row-major from
/// the south-west corner).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Grid {
    /// Tiles from west to east.
    pub width: i32,
    /// Tiles from south to north.
    pub height: i32,
}

impl Grid {
    /// A grid of `width` × `height` tiles.
    pub const fn new(width: i32, height: i32) -> Grid {
        Grid { width, height }
    }

    /// Number of tiles.
    pub fn len(&self) -> usize {
        (self.width * self.height) as usize
    }

    /// Whether the grid has no tiles.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `p` is a tile of the world.
    pub fn contains(&self, p: Pos) -> bool {
        p.x >= 0 && p.y >= 0 && p.x < self.width && p.y < self.height
    }

    /// The flat index of a tile inside the world.
    pub fn index(&self, p: Pos) -> usize {
        debug_assert!(self.contains(p));
        (p.y * self.width + p.x) as usize
    }

    /// The tile at a flat index.
    pub fn pos(&self, index: usize) -> Pos {
        let i = index as i32;
        Pos::new(i % self.width, i / self.width)
    }

    /// All tiles, row by row from the south-west.
    pub fn tiles(&self) -> impl Iterator<Item = Pos> + use<> {
        let (w, h) = (self.width, self.height);
        (0..h).flat_map(move |y| (0..w).map(move |x| Pos::new(x, y)))
    }

    /// The in-world edge neighbours of `p`, clockwise from north.
    pub fn neighbours(&self, p: Pos) -> impl Iterator<Item = (Direction, Pos)> + '_ {
        Direction::ALL
            .into_iter()
            .map(move |d| (d, p.step(d)))
            .filter(|(_, n)| self.contains(*n))
    }

    /// How many tiles lie between `p` and the nearest border (0 for edge tiles).
    pub fn edge_distance(&self, p: Pos) -> i32 {
        p.x.min(p.y)
            .min(self.width - 1 - p.x)
            .min(self.height - 1 - p.y)
    }

    /// Whether `p` is an edge tile (fewer than four neighbours).
    pub fn is_edge(&self, p: Pos) -> bool {
        self.contains(p) && self.edge_distance(p) == 0
    }

    /// The tile just outside the world next to edge tile `p`, reached by leaving `p` against
    /// `inward` when that leaves the world, otherwise by the nearest border.
    pub fn outside_of(&self, p: Pos, inward: Direction) -> Pos {
        let straight = p.step(inward.opposite());
        if !self.contains(straight) {
            return straight;
        }
        Direction::ALL
            .into_iter()
            .map(|d| p.step(d))
            .find(|q| !self.contains(*q))
            .unwrap_or(straight)
    }
}

/// How much a tile is crowded by another at a given offset: 1 on the tile itself, falling off
/// with euclidean distance (a Gaussian cut off at `radius`). Used for the crowding penalty of the
/// path annealer and the final paths (thesis 3.3.4) and for obstacle closeness (3.5.1).
#[derive(Clone, Debug)]
pub struct Kernel {
    radius: i32,
    side: i32,
    values: Vec<f64>,
}

impl Kernel {
    /// A kernel with standard deviation `sigma` tiles, zero beyond `radius + ½` tiles.
    pub fn gaussian(sigma: f64, radius: i32) -> Kernel {
        let side = 2 * radius + 1;
        let mut values = Vec::with_capacity((side * side) as usize);
        for dy in -radius..=radius {
            for dx in -radius..=radius {
                let d2 = f64::from(dx * dx + dy * dy);
                let reach = f64::from(radius) + 0.5;
                let v = if d2 > reach * reach {
                    0.0
                } else {
                    libm::exp(-d2 / (2.0 * sigma * sigma))
                };
                values.push(v);
            }
        }
        Kernel {
            radius,
            side,
            values,
        }
    }

    /// Beyond this many tiles in x or y the kernel is zero.
    pub fn radius(&self) -> i32 {
        self.radius
    }

    /// The value between two tiles.
    pub fn between(&self, a: Pos, b: Pos) -> f64 {
        let (dx, dy) = (a.x - b.x, a.y - b.y);
        if dx.abs() > self.radius || dy.abs() > self.radius {
            return 0.0;
        }
        self.values[((dy + self.radius) * self.side + dx + self.radius) as usize]
    }

    /// Adds `sign` × kernel centred on `center` into a per-tile field.
    pub fn splat(&self, grid: &Grid, field: &mut [f64], center: Pos, sign: f64) {
        let r = self.radius;
        let (x0, x1) = ((center.x - r).max(0), (center.x + r).min(grid.width - 1));
        if x0 > x1 {
            return;
        }
        for y in (center.y - r).max(0)..=(center.y + r).min(grid.height - 1) {
            let k = ((y - center.y + r) * self.side + x0 - center.x + r) as usize;
            let row = &self.values[k..k + (x1 - x0 + 1) as usize];
            let start = (y * grid.width + x0) as usize;
            for (cell, &v) in field[start..start + row.len()].iter_mut().zip(row) {
                *cell += sign * v;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip_and_edges() {
        let g = Grid::new(15, 15);
        for p in g.tiles() {
            assert_eq!(g.pos(g.index(p)), p);
        }
        assert!(g.is_edge(Pos::new(0, 7)));
        assert!(!g.is_edge(Pos::new(1, 7)));
        assert_eq!(g.edge_distance(Pos::new(7, 7)), 7);
        assert_eq!(
            g.outside_of(Pos::new(0, 0), Direction::East),
            Pos::new(-1, 0)
        );
        assert_eq!(
            g.outside_of(Pos::new(0, 0), Direction::North),
            Pos::new(0, -1)
        );
        assert_eq!(
            g.outside_of(Pos::new(0, 5), Direction::North),
            Pos::new(-1, 5)
        );
    }

    #[test]
    fn kernel_is_one_on_itself_and_symmetric() {
        let k = Kernel::gaussian(1.0, 3);
        let a = Pos::new(4, 4);
        assert_eq!(k.between(a, a), 1.0);
        assert_eq!(k.between(a, Pos::new(5, 6)), k.between(Pos::new(5, 6), a));
        assert!(k.between(a, Pos::new(5, 4)) > k.between(a, Pos::new(6, 4)));
        assert_eq!(k.between(a, Pos::new(8, 4)), 0.0);
        assert_eq!(k.between(a, Pos::new(7, 7)), 0.0);
        assert!(k.between(a, Pos::new(7, 5)) > 0.0);
    }
}
