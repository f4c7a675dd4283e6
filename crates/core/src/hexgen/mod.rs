//! The hex accessibility generator of the development log *Hello World* (Vincent Reynier): a hex
//! level of Grass, Mountain, Water, Forest, Bushes and Stone in which every tile can be reached
//! from the start tile on foot or over single bridges. See `docs/worldgen.md`, section *Hex
//! levels*.
//!
//! The level starts as Grass with a random start tile and a protected area around it. Mountains,
//! then Water, then Forests, Bushes and Stone are spawned, each type finished before the next
//! (`placement.rs`): impassable tiles at random or in chains, resources at random. Accessibility
//! is kept either by checking every impassable tile before it stays ([`Check::Preemptive`]) or by
//! repairing the finished level ([`Check::Corrective`]); both are in [`crate::access`].

mod json;
mod placement;
mod render;

pub use json::HexJson;
pub use render::render_png;

use crate::access::Ground;
use crate::access::corrective::repair;
use crate::rng::Seed;
use crate::topology::{Hex, Size};
use placement::Placer;

/// The largest width and height.
pub const MAX_SIDE: u32 = 200;

/// The development log's level sizes, smallest first.
pub const PRESETS: [(u32, u32); 5] = [(8, 5), (15, 8), (30, 15), (40, 20), (50, 25)];

/// The chance that a chain grows by its second tile.
pub const CHAIN_CHANCE: f64 = 0.95;

/// How slowly that chance falls: each further tile of the chain lowers it by
/// `1 − CHANCE_PROPAGATION`.
pub const CHANCE_PROPAGATION: f64 = 0.99;

/// A tile of the level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Tile {
    /// Open ground, where every other tile is placed.
    Grass,
    /// Impassable.
    Mountain,
    /// Impassable, but a bridge can cross it.
    Water,
    /// A resource: walkable.
    Forest,
    /// A resource: walkable.
    Bushes,
    /// A resource: walkable.
    Stone,
}

impl Tile {
    /// The types that are spawned, in the default order.
    pub const SPAWN_ORDER: [Tile; 5] = [
        Tile::Mountain,
        Tile::Water,
        Tile::Forest,
        Tile::Bushes,
        Tile::Stone,
    ];

    /// Its letter in the JSON rows.
    pub fn letter(self) -> char {
        ['G', 'M', 'W', 'F', 'B', 'S'][self as usize]
    }

    /// Whether a walker cannot stand on it.
    pub fn is_impassable(self) -> bool {
        matches!(self, Tile::Mountain | Tile::Water)
    }

    /// What it is to a walker (Water without a bridge).
    pub fn ground(self) -> Ground {
        match self {
            Tile::Mountain => Ground::Wall,
            Tile::Water => Ground::Water,
            _ => Ground::Land,
        }
    }
}

/// How impassable tiles are spawned (resources are always spawned at random).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Each tile on a random Grass tile.
    Random,
    /// In chains: mountains grow from their newest tile (ranges), water from a random tile of
    /// its chain (rivers and lakes).
    Natural,
}

/// How accessibility is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Every impassable tile is checked before it stays.
    Preemptive,
    /// The finished level is repaired by one search that breaks walls.
    Corrective,
}

/// How many impassable tiles are asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Impassable {
    /// A tenth of the level each for Mountain and Water (a fifth impassable).
    Normal,
    /// Twice that.
    Double,
}

macro_rules! names {
    ($ty:ty { $($variant:ident = $name:literal),+ }) => {
        impl $ty {
            /// The names the command line and the JSON use.
            pub const NAMES: &[&str] = &[$($name),+];

            /// Its name.
            pub fn name(self) -> &'static str {
                match self { $(Self::$variant => $name),+ }
            }

            /// The value of a name in [`Self::NAMES`].
            pub fn from_name(name: &str) -> Option<Self> {
                match name { $($name => Some(Self::$variant),)+ _ => None }
            }
        }
    };
}

names!(Method { Random = "random", Natural = "natural" });
names!(Check { Preemptive = "preemptive", Corrective = "corrective" });
names!(Impassable { Normal = "1x", Double = "2x" });

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexParams {
    /// Columns, 1 to [`MAX_SIDE`].
    pub width: u32,
    /// Rows, 1 to [`MAX_SIDE`].
    pub height: u32,
    /// How impassable tiles are spawned.
    pub method: Method,
    /// How accessibility is kept.
    pub check: Check,
    /// How many impassable tiles.
    pub impassable: Impassable,
}

impl HexParams {
    /// The level's rectangle.
    pub fn size(&self) -> Size {
        Size {
            width: self.width,
            height: self.height,
        }
    }

    /// How many tiles of `tile` are asked for: a tenth of the level for each spawned type
    /// (twice that for Mountain and Water with [`Impassable::Double`]); none for Grass.
    pub fn target(&self, tile: Tile) -> u32 {
        let tenth = (self.width * self.height) / 10;
        match tile {
            Tile::Grass => 0,
            Tile::Mountain | Tile::Water if self.impassable == Impassable::Double => 2 * tenth,
            _ => tenth,
        }
    }

    /// The size of the protected start area: `2 · ⌊log2(W · H − 15)⌋` tiles (none below 17
    /// tiles), and never more than the tiles besides the start.
    pub fn protected(&self) -> usize {
        let cells = self.size().cells();
        let area = cells.saturating_sub(15);
        let count = if area == 0 {
            0
        } else {
            2 * area.ilog2() as usize
        };
        count.min(cells - 1)
    }
}

/// A generated level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexMap {
    /// What was asked for.
    pub params: HexParams,
    /// The seed it came from.
    pub seed: Seed,
    /// The tiles, row by row (`y · width + x`).
    pub tiles: Vec<Tile>,
    /// The start tile (always Grass).
    pub start: u32,
    /// The protected start area: Grass or resources, never impassable.
    pub protected: Vec<u32>,
    /// Every tile on which impassable tiles were forbidden (the protected area, tiles whose
    /// impassable placement failed the check, the ends of bridges), ascending.
    pub critical: Vec<u32>,
    /// The water tiles that carry a bridge some path needs, ascending.
    pub bridges: Vec<u32>,
    /// Every tile placed, in order: the accepted ones with the preemptive check, all of them
    /// (before the repair) with the corrective one.
    pub placements: Vec<(u32, Tile)>,
    /// The impassable tiles the corrective repair turned into Grass, in order.
    pub broken: Vec<u32>,
}

impl HexMap {
    /// How many tiles of `tile` the level has.
    pub fn count(&self, tile: Tile) -> usize {
        self.tiles.iter().filter(|&&t| t == tile).count()
    }
}

/// Generates a level.
///
/// # Panics
/// When the width or height is 0 or above [`MAX_SIDE`].
pub fn generate(params: &HexParams, seed: Seed) -> HexMap {
    assert!(
        (1..=MAX_SIDE).contains(&params.width) && (1..=MAX_SIDE).contains(&params.height),
        "a hex level is 1 to {MAX_SIDE} tiles wide and high, not {}×{}",
        params.width,
        params.height
    );
    let hex = Hex(params.size());
    let mut rng = seed.branch("hexmap").rng();
    let start = rng.index(params.size().cells()) as u32;
    let mut placer = Placer::new(hex, start, params.check == Check::Preemptive);
    let protected = placer.protect_start(params.protected(), &mut rng);
    for tile in Tile::SPAWN_ORDER {
        placer.spawn(tile, params.target(tile), params.method, &mut rng);
    }
    let mut done = placer.finish();
    let mut broken = Vec::new();
    if params.check == Check::Corrective {
        let fixed = repair(&hex, &mut done.ground, start);
        for &cell in &fixed.broken {
            done.tiles[cell as usize] = Tile::Grass;
        }
        broken = fixed.broken;
        done.bridges = fixed.bridges;
    }
    HexMap {
        params: *params,
        seed,
        tiles: done.tiles,
        start,
        protected,
        critical: done.critical,
        bridges: done.bridges,
        placements: done.placements,
        broken,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(width: u32, height: u32) -> HexParams {
        HexParams {
            width,
            height,
            method: Method::Natural,
            check: Check::Preemptive,
            impassable: Impassable::Normal,
        }
    }

    #[test]
    fn protected_area_follows_the_logarithm() {
        let sizes: Vec<usize> = PRESETS
            .iter()
            .map(|&(w, h)| params(w, h).protected())
            .collect();
        assert_eq!(sizes, [8, 12, 16, 18, 20]);
        assert_eq!(params(4, 4).protected(), 0);
        assert_eq!(params(1, 1).protected(), 0);
        assert_eq!(params(200, 200).protected(), 30);
    }

    #[test]
    fn the_same_seed_gives_the_same_level() {
        let p = params(30, 15);
        assert_eq!(generate(&p, Seed(4)), generate(&p, Seed(4)));
        assert_ne!(generate(&p, Seed(4)).tiles, generate(&p, Seed(5)).tiles);
    }

    #[test]
    fn names_round_trip() {
        for name in Method::NAMES
            .iter()
            .chain(Check::NAMES)
            .chain(Impassable::NAMES)
        {
            let known = Method::from_name(name)
                .map(Method::name)
                .or(Check::from_name(name).map(Check::name))
                .or(Impassable::from_name(name).map(Impassable::name));
            assert_eq!(known, Some(*name));
        }
    }
}
