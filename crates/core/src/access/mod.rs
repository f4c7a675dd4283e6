//! Keeping every tile of a generated grid accessible from a start tile, by the two methods of
//! the development log *Hello World* (Vincent Reynier): checking each impassable tile before it
//! is placed ([`preemptive`]) or repairing a finished grid by breaking walls ([`corrective`]).
//! Both work over any [`Topology`](crate::topology::Topology) and see a grid only as [`Ground`].
//!
//! A walker moves between neighbouring land tiles, and over one water tile that carries a bridge
//! in a straight line: from land `a` over the bridge `b` to the land across it. Bridges never
//! chain: a crossing always lands on land.

pub mod corrective;
pub mod preemptive;

/// What a tile is to a walker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Ground {
    /// Walkable.
    Land,
    /// Never crossed (a mountain).
    Wall,
    /// Not walkable, but a bridge could be built over it.
    Water,
    /// Water with a bridge: crossed in a straight line from land to land.
    Bridge,
}

impl Ground {
    /// Whether a walker can stand on it.
    pub fn is_land(self) -> bool {
        self == Ground::Land
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::Ground;
    use crate::topology::Size;

    /// A grid drawn as rows, row 0 first: `M` wall, `W` water, `B` bridge, anything else land.
    pub fn grid(rows: &[&str]) -> (Size, Vec<Ground>) {
        let size = Size {
            width: rows[0].len() as u32,
            height: rows.len() as u32,
        };
        let ground = rows
            .iter()
            .flat_map(|r| r.chars())
            .map(|c| match c {
                'M' => Ground::Wall,
                'W' => Ground::Water,
                'B' => Ground::Bridge,
                _ => Ground::Land,
            })
            .collect();
        (size, ground)
    }
}
