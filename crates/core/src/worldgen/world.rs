//! The finished world and its JSON form (the world-JSON contract of `rampart generate --json`).

use serde::Serialize;

use super::annealing::MainPaths;
use super::final_paths::{PathNetwork, PathStart};
use super::grid::{Grid, Pos};
use super::modules::{ModuleSet, TileState};
use super::scatter::ModelInstance;
use super::wfc::Terrain;
use crate::rng::Seed;
use crate::terrain::{ObstacleKind, TerrainType};

/// Height of one level in world units (tile edges are 1 unit long; RW4).
pub const LEVEL_HEIGHT: f64 = 0.5;

/// How much work a world took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct GenStats {
    /// Path attempts (endpoints + annealing) started.
    pub path_attempts: u32,
    /// Terrain (WFC) attempts started.
    pub terrain_attempts: u32,
    /// Terrain attempts that ended in a contradiction.
    pub terrain_failures: u32,
    /// Backtracks in the successful terrain attempt and the failed ones before it.
    pub backtracks: u32,
    /// Layered terrain attempts whose crossable tiles had to be joined by the repair.
    pub repairs: u32,
    /// Tiles those repairs changed.
    pub repaired_tiles: u32,
    /// Lattice paths whose length had to differ from the one asked for (the nearest the lattice
    /// allowed).
    pub adjusted_paths: u32,
}

/// One placed obstacle type, as the world refers to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ObstacleInfo {
    /// Its name in the terrain file.
    pub name: String,
    /// Its kind.
    pub kind: ObstacleKind,
}

/// One collapsed WFC slot, for building terrain meshes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SlotInfo {
    /// Slot column; the slot's centre is the corner point `(x − ½, y − ½)` in tile coordinates.
    pub x: i32,
    /// Slot row.
    pub y: i32,
    /// The module's name.
    pub module: String,
    /// Quarter turns clockwise, applied after mirroring.
    pub rotation: u8,
    /// Mirrored east–west first.
    pub mirrored: bool,
    /// The module's base level.
    pub level: u8,
}

/// A generated world.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    /// The world seed.
    pub seed: Seed,
    /// The terrain type's id.
    pub terrain: String,
    /// The size.
    pub grid: Grid,
    /// The hub tile.
    pub hub: Pos,
    /// Every tile's state, row by row from the south-west.
    pub tiles: Vec<TileState>,
    /// Which tiles have a blocked surface.
    pub blocked_surface: Vec<bool>,
    /// The obstacle on each tile, as an index into [`World::obstacle_types`].
    pub obstacles: Vec<Option<u16>>,
    /// The terrain type's obstacles.
    pub obstacle_types: Vec<ObstacleInfo>,
    /// Edges paths may not cross: pairs of neighbouring tiles, south or west tile first.
    pub blocked_edges: Vec<(Pos, Pos)>,
    /// The annealed main paths (entry tile to hub), before finalisation.
    pub main_paths: Vec<Vec<Pos>>,
    /// The final path network.
    pub network: PathNetwork,
    /// The collapsed slots.
    pub slots: Vec<SlotInfo>,
    /// Obstacle models.
    pub models: Vec<ModelInstance>,
    /// Names and prefabs of the scatter models, indexed by [`ModelInstance::model`].
    pub model_types: Vec<(String, String)>,
    /// Effort spent.
    pub stats: GenStats,
    /// Whether buildings may stand only next to or diagonal to a path tile (the terrain type's
    /// `build_near_paths`).
    pub build_near_paths: bool,
}

impl World {
    /// Puts the stage results together.
    #[expect(
        clippy::too_many_arguments,
        reason = "the stages' results, each its own value"
    )]
    pub(super) fn assemble(
        seed: Seed,
        terrain_type: &TerrainType,
        set: &ModuleSet,
        grid: Grid,
        hub: Pos,
        main: MainPaths,
        land: Terrain,
        obstacles: Vec<Option<u16>>,
        network: PathNetwork,
        models: Vec<ModelInstance>,
        stats: GenStats,
    ) -> World {
        let mut blocked_edges = Vec::new();
        for p in grid.tiles() {
            for q in [Pos::new(p.x + 1, p.y), Pos::new(p.x, p.y + 1)] {
                if grid.contains(q) && terrain_type.is_blocked_edge(land.edge_between(&grid, p, q))
                {
                    blocked_edges.push((p, q));
                }
            }
        }
        let slots_x = grid.width + 1;
        let slots = land
            .slots
            .iter()
            .enumerate()
            .map(|(s, &v)| {
                let variant = &set.variants[v as usize];
                SlotInfo {
                    x: s as i32 % slots_x,
                    y: s as i32 / slots_x,
                    module: terrain_type.modules[variant.module].name.clone(),
                    rotation: variant.rotation,
                    mirrored: variant.mirrored,
                    level: variant.base,
                }
            })
            .collect();
        World {
            seed,
            terrain: terrain_type.id.clone(),
            grid,
            hub,
            blocked_surface: land
                .tiles
                .iter()
                .map(|t| !terrain_type.is_free_surface(t.surface))
                .collect(),
            tiles: land.tiles,
            obstacles,
            obstacle_types: terrain_type
                .obstacles
                .iter()
                .map(|o| ObstacleInfo {
                    name: o.name.clone(),
                    kind: o.kind,
                })
                .collect(),
            blocked_edges,
            main_paths: main.paths,
            network,
            slots,
            models,
            model_types: terrain_type
                .scatter
                .iter()
                .map(|m| (m.name.clone(), m.prefab.clone()))
                .collect(),
            stats,
            build_near_paths: terrain_type.build_near_paths,
        }
    }

    /// The state of tile `p`.
    pub fn tile(&self, p: Pos) -> TileState {
        self.tiles[self.grid.index(p)]
    }

    /// The obstacle on tile `p`, if any.
    pub fn obstacle(&self, p: Pos) -> Option<&ObstacleInfo> {
        self.obstacles[self.grid.index(p)].map(|o| &self.obstacle_types[o as usize])
    }

    /// The path starts.
    pub fn path_starts(&self) -> &[PathStart] {
        &self.network.starts
    }

    /// Whether a player may build on `p` (RW5): free surface, no obstacle, no path, and next to
    /// a path where the terrain type asks for that.
    pub fn buildable(&self, p: Pos) -> bool {
        let i = self.grid.index(p);
        !self.blocked_surface[i]
            && self.obstacles[i].is_none()
            && self.network.distance[i].is_none()
            && (!self.build_near_paths || self.near_path(p))
    }

    /// Whether a path tile touches `p` by a side or a corner.
    pub fn near_path(&self, p: Pos) -> bool {
        (-1..=1).any(|dy| {
            (-1..=1).any(|dx| {
                let q = Pos::new(p.x + dx, p.y + dy);
                self.grid.contains(q) && self.network.distance[self.grid.index(q)].is_some()
            })
        })
    }

    /// The world as JSON, in the contract's shape. Same seed and terrain type give the same bytes.
    pub fn to_json_string(&self) -> String {
        serde_json::to_string(&self.to_json()).unwrap_or_default()
    }

    /// The world as pretty-printed JSON.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(&self.to_json()).unwrap_or_default()
    }

    fn to_json(&self) -> JsonWorld<'_> {
        let grid = self.grid;
        let tiles = grid
            .tiles()
            .map(|p| {
                let t = self.tile(p);
                JsonTile {
                    x: p.x,
                    y: p.y,
                    height: f64::from(t.level) * LEVEL_HEIGHT,
                    slant: t.slant.map(|d| d.name()),
                    surface: t.surface.to_string(),
                    blocked_surface: self.blocked_surface[grid.index(p)],
                    obstacle: self.obstacle(p).map(|o| JsonObstacle {
                        name: &o.name,
                        kind: o.kind.name(),
                    }),
                    level: t.level,
                    buildable: self.buildable(p),
                }
            })
            .collect();
        let mut segments: Vec<(Pos, Pos)> = self.network.segments.clone();
        segments.sort_by_key(|(a, b)| (a.y, a.x, b.y, b.x));
        let path_distance = grid
            .tiles()
            .filter_map(|p| {
                self.network.distance[grid.index(p)].map(|d| JsonDistance {
                    tile: p.pair(),
                    distance: d,
                })
            })
            .collect();
        JsonWorld {
            seed: self.seed.0,
            terrain: &self.terrain,
            width: grid.width,
            height: grid.height,
            hub: self.hub.pair(),
            build_near_paths: self.build_near_paths,
            tiles,
            path_starts: self
                .network
                .starts
                .iter()
                .map(|s| JsonStart {
                    outside: s.outside.pair(),
                    entry: s.entry.pair(),
                    length: s.length,
                })
                .collect(),
            path_segments: segments
                .iter()
                .map(|(a, b)| JsonSegment {
                    from: a.pair(),
                    to: b.pair(),
                })
                .collect(),
            path_distance,
            blocked_edges: self
                .blocked_edges
                .iter()
                .map(|(a, b)| JsonEdge {
                    a: a.pair(),
                    b: b.pair(),
                })
                .collect(),
            level_height: LEVEL_HEIGHT,
            extra_branches: self.network.extra_branches,
            branches: self
                .network
                .branches
                .iter()
                .map(|b| b.iter().map(|p| p.pair()).collect())
                .collect(),
            main_paths: self
                .main_paths
                .iter()
                .map(|b| b.iter().map(|p| p.pair()).collect())
                .collect(),
            slots: &self.slots,
            models: self
                .models
                .iter()
                .map(|m| {
                    let (name, prefab) = &self.model_types[m.model as usize];
                    JsonModel {
                        name,
                        prefab,
                        x: round(m.x),
                        y: round(m.y),
                        z: round(m.z),
                        scale: round(m.scale),
                        heading: round(m.heading),
                        tilt: round(m.tilt),
                        tilt_direction: round(m.tilt_direction),
                    }
                })
                .collect(),
        }
    }
}

/// Four decimals are plenty for placement and keep the JSON short.
fn round(v: f64) -> f64 {
    (v * 1e4).round() / 1e4
}

#[derive(Serialize)]
struct JsonWorld<'a> {
    seed: u64,
    terrain: &'a str,
    width: i32,
    height: i32,
    hub: [i32; 2],
    build_near_paths: bool,
    tiles: Vec<JsonTile<'a>>,
    path_starts: Vec<JsonStart>,
    path_segments: Vec<JsonSegment>,
    path_distance: Vec<JsonDistance>,
    blocked_edges: Vec<JsonEdge>,
    level_height: f64,
    extra_branches: u32,
    branches: Vec<Vec<[i32; 2]>>,
    main_paths: Vec<Vec<[i32; 2]>>,
    slots: &'a [SlotInfo],
    models: Vec<JsonModel<'a>>,
}

#[derive(Serialize)]
struct JsonTile<'a> {
    x: i32,
    y: i32,
    height: f64,
    slant: Option<&'static str>,
    surface: String,
    blocked_surface: bool,
    obstacle: Option<JsonObstacle<'a>>,
    level: u8,
    buildable: bool,
}

#[derive(Serialize)]
struct JsonObstacle<'a> {
    name: &'a str,
    kind: &'static str,
}

#[derive(Serialize)]
struct JsonStart {
    outside: [i32; 2],
    entry: [i32; 2],
    length: u32,
}

#[derive(Serialize)]
struct JsonSegment {
    from: [i32; 2],
    to: [i32; 2],
}

#[derive(Serialize)]
struct JsonDistance {
    tile: [i32; 2],
    distance: u32,
}

#[derive(Serialize)]
struct JsonEdge {
    a: [i32; 2],
    b: [i32; 2],
}

#[derive(Serialize)]
struct JsonModel<'a> {
    name: &'a str,
    prefab: &'a str,
    x: f64,
    y: f64,
    z: f64,
    scale: f64,
    heading: f64,
    tilt: f64,
    tilt_direction: f64,
}
