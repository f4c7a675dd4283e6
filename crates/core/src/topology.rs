//! Grid topologies for the tile generators that do not use the thesis's grid: which cells
//! neighbour a cell, how many steps apart two cells are, and which cell lies straight across a
//! cell from one of its neighbours (where a bridge over that cell lands).
//!
//! A cell is its index `y · width + x` in a flat grid, so generators keep their tiles in plain
//! `Vec`s. [`Square`] has four neighbours per cell; [`Hex`] is a hex grid of pointy-top hexes in
//! offset rows where odd rows are shifted half a hex to the right ("odd-r"), with coordinates
//! `x:y` as column and row.

/// The neighbours of one cell: at most six, held without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Neighbours {
    cells: [u32; 6],
    len: u8,
}

impl Neighbours {
    fn push(&mut self, cell: u32) {
        self.cells[self.len as usize] = cell;
        self.len += 1;
    }
}

impl std::ops::Deref for Neighbours {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        &self.cells[..self.len as usize]
    }
}

/// A rectangle of cells, `width × height`, numbered row by row from `0:0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
}

impl Size {
    /// How many cells the rectangle holds.
    pub fn cells(self) -> usize {
        self.width as usize * self.height as usize
    }

    /// The cell at column `x`, row `y`.
    pub fn cell(self, x: u32, y: u32) -> u32 {
        y * self.width + x
    }

    /// The column and row of `cell`.
    pub fn xy(self, cell: u32) -> (u32, u32) {
        (cell % self.width, cell / self.width)
    }

    /// The cell at `x:y` when that lies inside the rectangle.
    pub fn checked_cell(self, x: i64, y: i64) -> Option<u32> {
        let inside =
            (0..i64::from(self.width)).contains(&x) && (0..i64::from(self.height)).contains(&y);
        inside.then(|| self.cell(x as u32, y as u32))
    }

    /// Whether `cell` lies in the outermost ring of the rectangle.
    pub fn on_border(self, cell: u32) -> bool {
        let (x, y) = self.xy(cell);
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }
}

/// How the cells of a rectangle connect.
pub trait Topology {
    /// The rectangle.
    fn size(&self) -> Size;

    /// The cells one step from `cell`, inside the rectangle.
    fn neighbours(&self, cell: u32) -> Neighbours;

    /// The fewest steps from `a` to `b`, ignoring what lies between.
    fn distance(&self, a: u32, b: u32) -> u32;

    /// The cell straight across `middle` from its neighbour `from` (two steps in one direction),
    /// if that is inside the rectangle.
    fn across(&self, middle: u32, from: u32) -> Option<u32>;
}

/// Square cells with four neighbours (no diagonals).
#[derive(Clone, Copy, Debug)]
pub struct Square(pub Size);

impl Topology for Square {
    fn size(&self) -> Size {
        self.0
    }

    fn neighbours(&self, cell: u32) -> Neighbours {
        let (x, y) = self.0.xy(cell);
        let mut out = Neighbours {
            cells: [0; 6],
            len: 0,
        };
        for (dx, dy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
            if let Some(n) = self.0.checked_cell(i64::from(x) + dx, i64::from(y) + dy) {
                out.push(n);
            }
        }
        out
    }

    fn distance(&self, a: u32, b: u32) -> u32 {
        let ((ax, ay), (bx, by)) = (self.0.xy(a), self.0.xy(b));
        ax.abs_diff(bx) + ay.abs_diff(by)
    }

    fn across(&self, middle: u32, from: u32) -> Option<u32> {
        let ((mx, my), (fx, fy)) = (self.0.xy(middle), self.0.xy(from));
        let (x, y) = (
            2 * i64::from(mx) - i64::from(fx),
            2 * i64::from(my) - i64::from(fy),
        );
        self.0.checked_cell(x, y)
    }
}

/// Pointy-top hexes in odd-r offset rows: odd rows sit half a hex to the right, so an odd row's
/// cell `x` touches cells `x` and `x + 1` of the rows above and below, and an even row's cell `x`
/// touches `x − 1` and `x`.
#[derive(Clone, Copy, Debug)]
pub struct Hex(pub Size);

/// The six directions in axial coordinates `(q, r)`, going round the hex.
const AXIAL_STEPS: [(i64, i64); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

impl Hex {
    /// `cell` in axial coordinates: `q = x − ⌊y / 2⌋`, `r = y`. In them the six neighbours are
    /// the same offsets on every row, and distances and straight lines are plain arithmetic.
    pub fn axial(&self, cell: u32) -> (i64, i64) {
        let (x, y) = self.0.xy(cell);
        (i64::from(x) - i64::from(y / 2), i64::from(y))
    }

    /// The cell at axial `(q, r)`, if inside the rectangle.
    fn cell_at_axial(&self, q: i64, r: i64) -> Option<u32> {
        if r < 0 {
            return None;
        }
        self.0.checked_cell(q + r / 2, r)
    }
}

impl Topology for Hex {
    fn size(&self) -> Size {
        self.0
    }

    fn neighbours(&self, cell: u32) -> Neighbours {
        let (q, r) = self.axial(cell);
        let mut out = Neighbours {
            cells: [0; 6],
            len: 0,
        };
        for (dq, dr) in AXIAL_STEPS {
            if let Some(n) = self.cell_at_axial(q + dq, r + dr) {
                out.push(n);
            }
        }
        out
    }

    fn distance(&self, a: u32, b: u32) -> u32 {
        let ((q0, r0), (q1, r1)) = (self.axial(a), self.axial(b));
        let (dq, dr) = (q1 - q0, r1 - r0);
        dq.abs().max(dr.abs()).max((dq + dr).abs()) as u32
    }

    fn across(&self, middle: u32, from: u32) -> Option<u32> {
        let ((mq, mr), (fq, fr)) = (self.axial(middle), self.axial(from));
        self.cell_at_axial(2 * mq - fq, 2 * mr - fr)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(size: Size, cells: &[u32]) -> Vec<String> {
        let mut out: Vec<String> = cells
            .iter()
            .map(|&c| {
                let (x, y) = size.xy(c);
                format!("{x}:{y}")
            })
            .collect();
        out.sort();
        out
    }

    const SIZE: Size = Size {
        width: 8,
        height: 5,
    };

    #[test]
    fn hex_neighbours_follow_the_worked_example() {
        let hex = Hex(SIZE);
        // The development log's example: the neighbours of 4:1.
        let got = labels(SIZE, &hex.neighbours(SIZE.cell(4, 1)));
        assert_eq!(got, ["3:1", "4:0", "4:2", "5:0", "5:1", "5:2"]);
        // An even row leans the other way: 4:2 touches 3:1, 4:1, 3:3 and 4:3.
        let got = labels(SIZE, &hex.neighbours(SIZE.cell(4, 2)));
        assert_eq!(got, ["3:1", "3:2", "3:3", "4:1", "4:3", "5:2"]);
        // Corners and edges lose the neighbours outside.
        assert_eq!(labels(SIZE, &hex.neighbours(0)), ["0:1", "1:0"]);
        assert_eq!(
            labels(SIZE, &hex.neighbours(SIZE.cell(7, 1))),
            ["6:1", "7:0", "7:2"]
        );
    }

    #[test]
    fn hex_neighbourhood_is_symmetric_and_at_distance_one() {
        let hex = Hex(SIZE);
        for a in 0..SIZE.cells() as u32 {
            for &b in hex.neighbours(a).iter() {
                assert!(hex.neighbours(b).contains(&a), "{a} {b}");
                assert_eq!(hex.distance(a, b), 1);
            }
        }
    }

    #[test]
    fn hex_distance_is_the_offset_formula() {
        let hex = Hex(SIZE);
        // x0 = a0 − ⌊b0/2⌋, y0 = b0, likewise for the other; max(|dx|, |dy|, |dx + dy|).
        let formula = |(a0, b0): (i64, i64), (a1, b1): (i64, i64)| {
            let (x0, x1) = (a0 - b0.div_euclid(2), a1 - b1.div_euclid(2));
            let (dx, dy) = (x1 - x0, b1 - b0);
            dx.abs().max(dy.abs()).max((dx + dy).abs()) as u32
        };
        for a in 0..SIZE.cells() as u32 {
            for b in 0..SIZE.cells() as u32 {
                let (pa, pb) = (SIZE.xy(a), SIZE.xy(b));
                let expected = formula((pa.0.into(), pa.1.into()), (pb.0.into(), pb.1.into()));
                assert_eq!(hex.distance(a, b), expected);
            }
        }
        assert_eq!(hex.distance(SIZE.cell(4, 1), SIZE.cell(0, 4)), 6);
        assert_eq!(hex.distance(SIZE.cell(0, 0), SIZE.cell(7, 4)), 9);
    }

    #[test]
    fn hex_distance_counts_steps_of_a_search() {
        let hex = Hex(SIZE);
        for start in 0..SIZE.cells() as u32 {
            let mut steps = vec![u32::MAX; SIZE.cells()];
            steps[start as usize] = 0;
            let mut queue = std::collections::VecDeque::from([start]);
            while let Some(c) = queue.pop_front() {
                for &n in hex.neighbours(c).iter() {
                    if steps[n as usize] == u32::MAX {
                        steps[n as usize] = steps[c as usize] + 1;
                        queue.push_back(n);
                    }
                }
            }
            for (b, &s) in steps.iter().enumerate() {
                assert_eq!(hex.distance(start, b as u32), s);
            }
        }
    }

    #[test]
    fn across_is_two_steps_in_one_direction() {
        let hex = Hex(SIZE);
        let c = |x, y| SIZE.cell(x, y);
        // Over 4:1: from 3:1 to 5:1, from 4:0 to 5:2, from 5:0 to 4:2.
        assert_eq!(hex.across(c(4, 1), c(3, 1)), Some(c(5, 1)));
        assert_eq!(hex.across(c(4, 1), c(4, 0)), Some(c(5, 2)));
        assert_eq!(hex.across(c(4, 1), c(5, 0)), Some(c(4, 2)));
        assert_eq!(hex.across(c(4, 3), c(5, 4)), Some(c(4, 2)));
        assert_eq!(hex.across(c(0, 1), c(1, 1)), None);
        let square = Square(SIZE);
        assert_eq!(square.across(c(2, 2), c(2, 1)), Some(c(2, 3)));
        assert_eq!(square.across(c(0, 2), c(1, 2)), None);
    }

    #[test]
    fn square_has_four_neighbours_and_manhattan_distance() {
        let square = Square(SIZE);
        assert_eq!(
            labels(SIZE, &square.neighbours(SIZE.cell(3, 2))),
            ["2:2", "3:1", "3:3", "4:2"]
        );
        assert_eq!(labels(SIZE, &square.neighbours(0)), ["0:1", "1:0"]);
        assert_eq!(square.distance(0, SIZE.cell(7, 4)), 11);
        assert!(SIZE.on_border(SIZE.cell(7, 2)) && !SIZE.on_border(SIZE.cell(1, 1)));
    }
}
