//! Terrain types: what a world looks like and which building blocks the generator may use.
//!
//! A terrain type is written in a `.terrain` file (format of the thesis, section 5.3; grammar in
//! `grammar/terrain.pest`) and read with [`parse_terrain`]. It names the surface and edge types,
//! the highest height level, the wave-function-collapse modules, the obstacles and how they are
//! placed, and the scatterer that turns obstacle tiles into clusters of models.
//!
//! Extensions to the thesis's format (documented in `docs/worldgen.md`): keys may be letters or
//! digits, `collision` is optional, a `surface_colors { G 4c9a3f ... }` block gives colours for
//! pictures and the client, `surface_names { G Grass ... }` names surfaces for the player,
//! `water_surfaces W` are drawn as moving water, a scatter model's `look { ... }` gives its
//! models primitive parts, `obstacles` / `scatterer` may be left out (no obstacles / models),
//! `generator layered` swaps the wave function collapse for the layered generator, `paths lattice`
//! lays the main paths along a logic grid, and `build_near_paths true` keeps buildings next to
//! the paths.

mod check;
mod parse;

use std::collections::BTreeMap;

use serde::Serialize;

pub use parse::parse_terrain;

/// One terrain type, parsed and checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TerrainType {
    /// `mod_id:file_stem`, e.g. `core:hills`.
    pub id: String,
    /// The name shown to players.
    pub display_name: String,
    /// Which generator builds the terrain around the paths.
    pub generator: Generator,
    /// How the main paths are made (`paths annealed|lattice`; annealed when not given).
    pub paths: PathSolver,
    /// Whether buildings may stand only next to or diagonal to a path tile
    /// (`build_near_paths true`; false when not given).
    pub build_near_paths: bool,
    /// Surfaces that paths, buildings and obstacles may use, in declaration order.
    pub free_surfaces: Vec<char>,
    /// Surfaces nothing may use (water, lava, ...), in declaration order.
    pub blocked_surfaces: Vec<char>,
    /// Edge types paths may cross.
    pub free_edges: Vec<char>,
    /// Edge types paths may not cross (cliffs, shore lines, ...).
    pub blocked_edges: Vec<char>,
    /// The highest height level; levels run from 0 to this.
    pub max_height: u8,
    /// Optional colours per surface, `[r, g, b]`.
    pub surface_colors: BTreeMap<char, [u8; 3]>,
    /// Optional names per surface, for the player (`surface_names`).
    pub surface_names: BTreeMap<char, String>,
    /// Surfaces the client draws as moving water (`water_surfaces`; none when not given).
    pub water_surfaces: Vec<char>,
    /// The wave-function-collapse modules, in declaration order.
    pub modules: Vec<Module>,
    /// The obstacles, in declaration order. Affinities refer to this order.
    pub obstacles: Vec<Obstacle>,
    /// Placement phases: each phase lists indices into [`TerrainType::obstacles`].
    pub phases: Vec<Vec<usize>>,
    /// How obstacle models are scattered over the finished world.
    pub scatter: Vec<ScatterModel>,
}

impl TerrainType {
    /// Whether `other` makes the same worlds: everything equal but the colours, the names and
    /// the scatter models' looks, which only change how a world looks.
    pub fn same_worlds(&self, other: &TerrainType) -> bool {
        let looks = |t: &TerrainType| TerrainType {
            display_name: String::new(),
            surface_colors: BTreeMap::new(),
            surface_names: BTreeMap::new(),
            water_surfaces: Vec::new(),
            scatter: t
                .scatter
                .iter()
                .map(|s| ScatterModel {
                    look: Vec::new(),
                    ..s.clone()
                })
                .collect(),
            ..t.clone()
        };
        looks(self) == looks(other)
    }

    /// Whether `surface` is one of the free surfaces.
    pub fn is_free_surface(&self, surface: char) -> bool {
        self.free_surfaces.contains(&surface)
    }

    /// Whether `edge` is one of the blocked edge types.
    pub fn is_blocked_edge(&self, edge: char) -> bool {
        self.blocked_edges.contains(&edge)
    }

    /// All surfaces, free ones first.
    pub fn surfaces(&self) -> impl Iterator<Item = char> + '_ {
        self.free_surfaces
            .iter()
            .chain(&self.blocked_surfaces)
            .copied()
    }

    /// The index of the obstacle called `name`.
    pub fn obstacle_index(&self, name: &str) -> Option<usize> {
        self.obstacles.iter().position(|o| o.name == name)
    }
}

/// The terrain generator a terrain type asks for (`generator wfc|layered`; WFC when not given).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Generator {
    /// Wave function collapse over the type's modules (thesis 3.4).
    #[default]
    Wfc,
    /// River, sea, mountain clusters, woods and forts laid in layers (*Turn-Based Strategy*,
    /// `docs/worldgen.md`, *Layered terrain*). Surfaces play fixed roles: the first three free
    /// surfaces are plains, bridge and fort, the first three blocked ones river, sea and
    /// mountain; obstacles are woods.
    Layered,
}

/// How a terrain type's main paths are made (`paths annealed|lattice`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PathSolver {
    /// Simulated annealing (thesis 3.3).
    #[default]
    Annealed,
    /// Along the lines of a random logic grid, with backtracking (*Procedural level
    /// generation*, `docs/worldgen.md`, *Lattice paths*).
    Lattice,
}

/// A compass direction on the tile grid. North is +y, east is +x.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// +y.
    North,
    /// +x.
    East,
    /// -y.
    South,
    /// -x.
    West,
}

impl Direction {
    /// All four, clockwise from north.
    pub const ALL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// The step `(dx, dy)` one tile this way.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (0, 1),
            Direction::East => (1, 0),
            Direction::South => (0, -1),
            Direction::West => (-1, 0),
        }
    }

    /// The direction a quarter turn clockwise.
    pub fn clockwise(self) -> Direction {
        match self {
            Direction::North => Direction::East,
            Direction::East => Direction::South,
            Direction::South => Direction::West,
            Direction::West => Direction::North,
        }
    }

    /// The opposite direction.
    pub fn opposite(self) -> Direction {
        self.clockwise().clockwise()
    }

    /// The direction mirrored east–west (north and south stay).
    pub fn mirrored(self) -> Direction {
        match self {
            Direction::East => Direction::West,
            Direction::West => Direction::East,
            d => d,
        }
    }

    /// Whether this is north or south.
    pub fn is_vertical(self) -> bool {
        matches!(self, Direction::North | Direction::South)
    }

    /// The lowercase name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Direction::North => "north",
            Direction::East => "east",
            Direction::South => "south",
            Direction::West => "west",
        }
    }
}

/// What a module says about one of the four tiles it touches.
///
/// A slanted tile at level `h` is a ramp: it is at level `h` on the side opposite `slant` and at
/// level `h - 1` on the `slant` side (the arrow points downhill). This is the only reading under
/// which the thesis's `CornerCliffSlantUp` example joins its ramp to the lower tile over a free
/// edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct CornerTile {
    /// Surface key.
    pub surface: char,
    /// Height level relative to the module's own level.
    pub height: u8,
    /// Downhill direction of a ramp, `None` for a flat tile.
    pub slant: Option<Direction>,
}

/// The constraints a module puts on its surroundings (thesis figure 5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Shape {
    /// The four tiles: north-west, north-east, south-west, south-east.
    pub corners: [CornerTile; 4],
    /// The four edge types: north, west, east, south (each runs between two of the tiles).
    pub edges: [char; 4],
}

/// Index of the north-west tile in [`Shape::corners`].
pub const NW: usize = 0;
/// Index of the north-east tile in [`Shape::corners`].
pub const NE: usize = 1;
/// Index of the south-west tile in [`Shape::corners`].
pub const SW: usize = 2;
/// Index of the south-east tile in [`Shape::corners`].
pub const SE: usize = 3;
/// Index of the north edge in [`Shape::edges`] (between the north-west and north-east tiles).
pub const EDGE_N: usize = 0;
/// Index of the west edge in [`Shape::edges`] (between the north-west and south-west tiles).
pub const EDGE_W: usize = 1;
/// Index of the east edge in [`Shape::edges`] (between the north-east and south-east tiles).
pub const EDGE_E: usize = 2;
/// Index of the south edge in [`Shape::edges`] (between the south-west and south-east tiles).
pub const EDGE_S: usize = 3;

/// Which symmetric copies of a module the generator may use (`variants f4` and friends).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Variants {
    /// 1 (as written), 2 (also turned half way) or 4 (all quarter turns). The file writes 0 for 1.
    pub rotations: u8,
    /// Whether mirrored copies are allowed too.
    pub reflect: bool,
}

/// One wave-function-collapse module as written in the file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Module {
    /// The module's name.
    pub name: String,
    /// Relative likelihood of each of its variants when a slot collapses.
    pub weight: f64,
    /// Allowed rotations and reflection.
    pub variants: Variants,
    /// Vertical offset of the module's mesh, in height levels.
    pub height_offset: f64,
    /// The collision mesh, if given.
    pub collision: Option<String>,
    /// Tile and edge constraints.
    pub shape: Shape,
    /// The base height levels this module may sit at (all that fit when not given).
    pub heights: Vec<u8>,
}

/// The four kinds of obstacle (RW2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ObstacleKind {
    /// Blocks building and line of sight.
    Large,
    /// Blocks building only.
    Small,
    /// A small obstacle that makes the tile rich in fuel.
    Fuel,
    /// A small obstacle that makes the tile rich in minerals.
    Minerals,
}

impl ObstacleKind {
    /// The name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            ObstacleKind::Large => "large",
            ObstacleKind::Small => "small",
            ObstacleKind::Fuel => "fuel",
            ObstacleKind::Minerals => "minerals",
        }
    }
}

/// An obstacle and its placement parameters (thesis 3.5.1).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Obstacle {
    /// The obstacle's name.
    pub name: String,
    /// Its kind.
    pub kind: ObstacleKind,
    /// At least this many tiles get it.
    pub min: u32,
    /// At most this many tiles get it (`None`: no limit).
    pub max: Option<u32>,
    /// Chance per tile before affinities.
    pub base_probability: f64,
    /// Surfaces it may stand on (`None`: every free surface).
    pub valid_surfaces: Option<Vec<char>>,
    /// Whether it may stand on a ramp.
    pub on_slants: bool,
    /// Affinity towards each obstacle, by declaration order; missing entries are 0.
    pub affinities: Vec<f64>,
}

impl Obstacle {
    /// The affinity towards the obstacle with index `other`.
    pub fn affinity(&self, other: usize) -> f64 {
        self.affinities.get(other).copied().unwrap_or(0.0)
    }
}

/// How one kind of model is scattered (thesis 3.5.3).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScatterModel {
    /// The model definition's name.
    pub name: String,
    /// What the client instantiates.
    pub prefab: String,
    /// Sample points per tile.
    pub tries_per_tile: u32,
    /// Base radius kept clear of already placed models when placing.
    pub placement_radius: f64,
    /// Base radius this model keeps clear once placed.
    pub persistent_radius: f64,
    /// How strongly the value scales the model.
    pub size_gain: f64,
    /// How strongly the value scales both radii.
    pub radius_gain: f64,
    /// Largest random tilt, in degrees.
    pub angle_spread: f64,
    /// No model where the value is below this.
    pub value_threshold: f64,
    /// The noise expression (a sum of these nodes).
    pub value: Vec<NoiseExpr>,
    /// How the client draws an instance (`look { ... }`): parts standing on the ground at the
    /// instance's point; empty gives the client's plain rock.
    pub look: Vec<LookPart>,
}

/// One primitive part of a scatter model's look, in the model space of blueprint models
/// (`content::model`): a tile is 1 long, `y` is up, the model stands on `y = 0`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LookPart {
    /// Which primitive.
    pub shape: LookShape,
    /// Its colour.
    pub color: [u8; 3],
    /// Width (`x`), height (`y`) and depth (`z`) of its bounding box, in tiles.
    pub size: [f64; 3],
    /// Where its centre is, in tiles from the model's origin.
    pub at: [f64; 3],
    /// Its rotation in degrees about `x`, `y` and `z`, applied in that order.
    pub turn: [f64; 3],
    /// How much light it gives off itself, 0 (none) to 1 (bright as its colour).
    pub glow: f64,
}

/// The primitive shapes a look's part may have, each filling the part's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LookShape {
    /// A box.
    Box,
    /// A sphere, or an ellipsoid when the size is uneven.
    Sphere,
    /// A cylinder standing along `y`.
    Cylinder,
    /// A cone, point up.
    Cone,
    /// A cylinder with round ends, standing along `y`.
    Capsule,
}

impl LookShape {
    /// Every shape, as written in a file.
    pub const ALL: [(&'static str, LookShape); 5] = [
        ("box", LookShape::Box),
        ("sphere", LookShape::Sphere),
        ("cylinder", LookShape::Cylinder),
        ("cone", LookShape::Cone),
        ("capsule", LookShape::Capsule),
    ];
}

/// A node of a noise expression (thesis 3.5.3).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum NoiseExpr {
    /// The same value everywhere.
    Const(f64),
    /// The sum of the children.
    Sum(Vec<NoiseExpr>),
    /// The sum of the children times a factor.
    Mult(f64, Vec<NoiseExpr>),
    /// The sum of the children, clamped to `[min, max]`.
    Clamp(f64, f64, Vec<NoiseExpr>),
    /// Signed distance to path tiles: `inside` × depth inside them, `outside` × distance outside.
    Path {
        /// Scale (and sign) inside path tiles.
        inside: f64,
        /// Scale (and sign) outside path tiles.
        outside: f64,
    },
    /// Signed distance to the tiles holding one obstacle.
    Obstacle {
        /// Index into [`TerrainType::obstacles`].
        obstacle: usize,
        /// Scale (and sign) inside those tiles.
        inside: f64,
        /// Scale (and sign) outside them.
        outside: f64,
    },
    /// The terrain height level, fractional on ramps.
    Height,
    /// Several octaves of Perlin noise.
    Fractal(FractalNoise),
}

/// Parameters of fractal (multi-octave) Perlin noise.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FractalNoise {
    /// Number of layers.
    pub octaves: u32,
    /// Added to the result.
    pub bias: f64,
    /// Amplitude of the first layer.
    pub base_amplitude: f64,
    /// Each layer's amplitude is the previous one's times this.
    pub amplitude_mult: f64,
    /// Frequency of the first layer (per tile).
    pub base_frequency: f64,
    /// Each layer's frequency is the previous one's times this.
    pub frequency_mult: f64,
}
