//! World generation (thesis 3.2–3.5): a 15×15 (by default) grid of tiles with heights, ramps,
//! surfaces, obstacles, a hub and a path network that every attacker follows to the hub.
//!
//! The stages run in the thesis's order (section 4.3.5), each a pure function of its inputs and
//! a generator:
//!
//! 1. [`endpoints::pick_endpoints`] — hub and path starts,
//! 2. [`annealing::anneal_paths`] — main paths by simulated annealing (a terrain type with
//!    `paths lattice` replaces 1 and 2 with [`lattice`], and 5 with its main paths as they are),
//! 3. [`wfc::generate_terrain`] — terrain by wave function collapse, around the main paths,
//! 4. [`obstacles::place_obstacles`] — obstacles, off the main paths (a terrain type with
//!    `generator layered` replaces 3 and 4 with [`layered`]),
//! 5. [`final_paths::finalize_paths`] — the final network with extra branches,
//! 6. [`scatter::scatter_models`] — obstacle models for the client.
//!
//! [`generate_world`] chains them with bounded restarts. Every stage draws from its own branch
//! of the world seed (`endpoints`, `annealing` or `lattice`, `wfc`, `obstacles`, `finalize`, `scatter`),
//! numbered by attempt, so a restart in one stage never shifts the numbers another sees.
//! `docs/worldgen.md` explains the whole in more detail, with measurements.

pub mod annealing;
pub mod endpoints;
pub mod final_paths;
pub mod grid;
mod keep_paths;
pub mod lattice;
pub mod layered;
mod layout;
pub mod modules;
pub mod noise;
pub mod noise_expr;
pub mod obstacles;
mod render;
pub mod scatter;
mod surface;
pub mod wfc;
mod world;

pub use grid::{Grid, Pos};
pub use keep_paths::regenerate_terrain;
pub use layout::STRAIGHT_PATH;
pub use render::{render_png, surface_color};
pub use surface::level_within;
pub use world::{GenStats, LEVEL_HEIGHT, World};

use annealing::AnnealConfig;
use modules::ModuleSet;

use crate::rng::Seed;
use crate::terrain::{Generator, PathSolver, TerrainType};

/// Why a world could not be generated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GenError {
    /// The parameters cannot work (for example, paths too short to reach the hub).
    #[error("invalid world parameters: {0}")]
    InvalidParams(String),
    /// The main paths came out invalid.
    #[error("path generation failed: {0}")]
    Paths(String),
    /// The terrain could not be completed.
    #[error("terrain generation failed: {0}")]
    Terrain(String),
    /// Obstacle counts could not be met.
    #[error("obstacle placement failed: {0}")]
    Obstacles(String),
    /// No final path fits for some start.
    #[error("final path search failed: {0}")]
    FinalPaths(String),
    /// Every attempt failed.
    #[error(
        "no valid world for terrain `{terrain}` after {attempts} attempts (last problem: {last})"
    )]
    Exhausted {
        /// The terrain type's id.
        terrain: String,
        /// Path attempts made.
        attempts: u32,
        /// The last stage error.
        last: Box<GenError>,
    },
}

/// What the level asks of its world.
#[derive(Clone, Debug, PartialEq)]
pub struct WorldParams {
    /// Tiles from west to east.
    pub width: i32,
    /// Tiles from south to north.
    pub height: i32,
    /// One entry per path start: segments from the start (just outside the world) to the hub.
    pub path_lengths: Vec<u32>,
    /// Outgoing segments beyond the first that the final network may add, summed over tiles.
    pub extra_branches: u32,
    /// Path attempts (new endpoints and annealing) before giving up.
    pub path_attempts: u32,
    /// Terrain attempts per path attempt.
    pub terrain_attempts: u32,
    /// Annealer tuning.
    pub anneal: AnnealConfig,
}

impl Default for WorldParams {
    /// A 15×15 world with the thesis's test configuration: three paths of 24, 28 and 33.
    fn default() -> Self {
        WorldParams::with_lengths(vec![24, 28, 33])
    }
}

impl WorldParams {
    /// A 15×15 world with the given path lengths and up to two extra branches.
    pub fn with_lengths(path_lengths: Vec<u32>) -> WorldParams {
        WorldParams {
            width: 15,
            height: 15,
            path_lengths,
            extra_branches: 2,
            path_attempts: 12,
            terrain_attempts: 8,
            anneal: AnnealConfig::default(),
        }
    }

    /// The number of path starts.
    pub fn paths(&self) -> usize {
        self.path_lengths.len()
    }

    /// The tile grid.
    pub fn grid(&self) -> Grid {
        Grid::new(self.width, self.height)
    }

    /// Rejects parameters no attempt could satisfy.
    pub fn validate(&self) -> Result<(), GenError> {
        let bad = |m: String| Err(GenError::InvalidParams(m));
        if !(7..=64).contains(&self.width) || !(7..=64).contains(&self.height) {
            return bad(format!(
                "world size {}×{} is outside 7..=64",
                self.width, self.height
            ));
        }
        if self.path_lengths.is_empty() || self.path_lengths.len() > 8 {
            return bad(format!(
                "{} paths requested; 1 to 8 are supported",
                self.path_lengths.len()
            ));
        }
        let area = (self.width * self.height) as u32;
        let total: u32 = self.path_lengths.iter().sum();
        if let Some(l) = self.path_lengths.iter().find(|&&l| l < 2) {
            return bad(format!("path length {l} is too short"));
        }
        if total > area / 2 {
            return bad(format!(
                "paths of total length {total} cannot fit in {area} tiles"
            ));
        }
        if self.path_attempts == 0 || self.terrain_attempts == 0 {
            return bad("at least one attempt is needed".into());
        }
        Ok(())
    }
}

/// Generates a world for `terrain` from `seed`, restarting failed stages within the attempt
/// budget of `params`. To generate many worlds of one terrain type, [`WorldGenerator`] saves
/// expanding its modules every time.
pub fn generate_world(
    params: &WorldParams,
    terrain: &TerrainType,
    seed: Seed,
) -> Result<World, GenError> {
    WorldGenerator::new(terrain).generate(params, seed)
}

/// A terrain type prepared for generation: its module variants expanded once.
#[derive(Clone, Debug)]
pub struct WorldGenerator<'t> {
    terrain: &'t TerrainType,
    set: ModuleSet,
}

impl<'t> WorldGenerator<'t> {
    /// Prepares `terrain`.
    pub fn new(terrain: &'t TerrainType) -> WorldGenerator<'t> {
        WorldGenerator {
            terrain,
            set: ModuleSet::new(terrain),
        }
    }

    /// The expanded module variants.
    pub fn modules(&self) -> &ModuleSet {
        &self.set
    }

    /// Generates a world from `seed` (see [`generate_world`]).
    pub fn generate(&self, params: &WorldParams, seed: Seed) -> Result<World, GenError> {
        generate_prepared(params, self.terrain, &self.set, seed, false).map(|(world, _)| world)
    }

    /// Generates a world as [`WorldGenerator::generate`] does, and keeps what each stage was
    /// given on the attempt that made it, so each stage can be measured on its own with real
    /// inputs.
    pub fn generate_traced(
        &self,
        params: &WorldParams,
        seed: Seed,
    ) -> Result<(World, StageInputs), GenError> {
        let (world, inputs) = generate_prepared(params, self.terrain, &self.set, seed, true)?;
        Ok((world, inputs.expect("inputs are kept when traced")))
    }
}

/// What each stage was given on the attempt that made a world
/// ([`WorldGenerator::generate_traced`]).
#[derive(Clone, Debug)]
pub struct StageInputs {
    /// The hub and path starts (the annealer's and the terrain constraints' input).
    pub endpoints: endpoints::Endpoints,
    /// The main paths (the terrain constraints' and the final network's input).
    pub main: annealing::MainPaths,
    /// What the paths ask of the terrain (the wave function collapse's input).
    pub constraints: wfc::WfcConstraints,
    /// The terrain (the obstacles' and the final network's input).
    pub land: wfc::Terrain,
    /// Tiles kept free of obstacles: the main paths.
    pub reserved: Vec<bool>,
    /// The obstacle on each tile (the final network's input).
    pub placed: Vec<Option<u16>>,
    /// Tiles of the final network (the scatter's input).
    pub path_tiles: Vec<bool>,
}

fn generate_prepared(
    params: &WorldParams,
    terrain: &TerrainType,
    set: &ModuleSet,
    seed: Seed,
    trace: bool,
) -> Result<(World, Option<StageInputs>), GenError> {
    params.validate()?;
    let grid = params.grid();
    if set.variants.len() > usize::from(u16::MAX) {
        return Err(GenError::Terrain("more than 65535 module variants".into()));
    }
    let lattice_world = terrain.paths == PathSolver::Lattice;
    if lattice_world && params.paths() > 4 {
        return Err(GenError::InvalidParams(format!(
            "{} paths requested; a lattice hub has four ways in",
            params.paths()
        )));
    }
    let mut stats = GenStats::default();
    let mut last = GenError::Paths("no attempt was made".into());
    for attempt in 0..u64::from(params.path_attempts) {
        stats.path_attempts += 1;
        let (endpoints, main) = if lattice_world {
            let laid = lattice::lattice_paths(
                &grid,
                &params.path_lengths,
                &mut seed.branch("lattice").index(attempt).rng(),
            );
            match laid {
                Ok(l) => {
                    stats.adjusted_paths = l.adjusted;
                    (l.endpoints, l.main)
                }
                Err(e) => {
                    last = e;
                    continue;
                }
            }
        } else {
            let endpoints = endpoints::pick_endpoints(
                params,
                &mut seed.branch("endpoints").index(attempt).rng(),
            )?;
            match annealing::anneal_paths(
                &grid,
                &endpoints,
                &params.anneal,
                &mut seed.branch("annealing").index(attempt).rng(),
            ) {
                Ok(m) => (endpoints, m),
                Err(e) => {
                    last = e;
                    continue;
                }
            }
        };
        let mut reserved = vec![false; grid.len()];
        main.paths
            .iter()
            .flatten()
            .for_each(|&p| reserved[grid.index(p)] = true);

        for k in 0..u64::from(params.terrain_attempts) {
            let stage = |name: &str| seed.branch(name).index(attempt).index(k).rng();
            stats.terrain_attempts += 1;
            let mut wfc_rng = stage("wfc");
            let constraints =
                wfc::path_constraints(&grid, terrain, &endpoints, &main, &mut wfc_rng);
            let (land, placed) = match land_and_obstacles(
                &grid,
                terrain,
                set,
                &constraints,
                (&reserved, endpoints.hub),
                [&mut wfc_rng, &mut stage("obstacles")],
                &mut stats,
            ) {
                Ok(found) => found,
                Err(e) => {
                    last = e;
                    continue;
                }
            };
            let finalized = if lattice_world {
                Ok(lattice::network(&grid, &main))
            } else {
                final_paths::finalize_paths(
                    &grid,
                    terrain,
                    &land,
                    &placed,
                    &endpoints,
                    &main,
                    params.extra_branches,
                    &params.anneal,
                    &mut stage("finalize"),
                )
            };
            let network = match finalized {
                Ok(n) => n,
                Err(e) => {
                    last = e;
                    continue;
                }
            };
            let inputs = trace.then(|| StageInputs {
                endpoints: endpoints.clone(),
                main: main.clone(),
                constraints: constraints.clone(),
                land: land.clone(),
                reserved: reserved.clone(),
                placed: placed.clone(),
                path_tiles: network.distance.iter().map(Option::is_some).collect(),
            });
            let world = scatter_and_assemble(
                seed,
                terrain,
                set,
                grid,
                endpoints.hub,
                main,
                land,
                placed,
                network,
                stats,
                &mut stage("scatter"),
            );
            return Ok((world, inputs));
        }
    }
    Err(GenError::Exhausted {
        terrain: terrain.id.clone(),
        attempts: stats.path_attempts,
        last: Box::new(last),
    })
}

/// One terrain attempt: the wave function collapse under `constraints` (drawing from the first
/// generator), then obstacles kept off the `reserved` tiles (from the second). A layered terrain
/// type lays out its layers instead (from the first generator), joined up from `hub`, and
/// places its woods (from the second); it never fails.
fn land_and_obstacles(
    grid: &Grid,
    terrain: &TerrainType,
    set: &ModuleSet,
    constraints: &wfc::WfcConstraints,
    (reserved, hub): (&[bool], Pos),
    [wfc_rng, obstacle_rng]: [&mut crate::rng::Rng; 2],
    stats: &mut GenStats,
) -> Result<(wfc::Terrain, Vec<Option<u16>>), GenError> {
    if terrain.generator == Generator::Layered {
        let layers = layered::lay_out(grid, reserved, hub, wfc_rng);
        stats.repairs += u32::from(layers.repaired > 0);
        stats.repaired_tiles += layers.repaired;
        return Ok(layered::to_terrain(
            grid,
            terrain,
            &layers,
            reserved,
            obstacle_rng,
        ));
    }
    let land =
        wfc::generate_terrain(grid, terrain, set, constraints, wfc_rng).inspect_err(|_| {
            stats.terrain_failures += 1;
        })?;
    stats.backtracks += land.backtracks;
    let placed = obstacles::place_obstacles(grid, terrain, &land, reserved, obstacle_rng)?;
    Ok((land, placed))
}

/// The last stage: obstacle models scattered over the finished terrain, then the world put
/// together.
#[expect(
    clippy::too_many_arguments,
    reason = "the stages' results, each its own value"
)]
fn scatter_and_assemble(
    seed: Seed,
    terrain: &TerrainType,
    set: &ModuleSet,
    grid: Grid,
    hub: Pos,
    main: annealing::MainPaths,
    land: wfc::Terrain,
    placed: Vec<Option<u16>>,
    network: final_paths::PathNetwork,
    stats: GenStats,
    rng: &mut crate::rng::Rng,
) -> World {
    let path_tiles: Vec<bool> = network.distance.iter().map(Option::is_some).collect();
    let field = noise_expr::Field::new(&grid, &land, &path_tiles, &placed, terrain.obstacles.len());
    let models = scatter::scatter_models(terrain, &field, rng);
    World::assemble(
        seed, terrain, set, grid, hub, main, land, placed, network, models, stats,
    )
}
