//! A level's set-up as data: the world it is fought on (generated from a terrain type and a seed,
//! or drawn by hand) and the battle's [`Start`]. Runs make one per level ([`crate::run`]), battle
//! records store one ([`record`]), and [`LevelSetup::start`] turns it into a running [`Battle`].
//!
//! This module sits above `battle` and `worldgen` and uses only their public API: the battle
//! knows nothing of how its world was made.

pub mod replay;

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::battle::{Battle, BattleConfig, Start};
use crate::content::ContentDb;
use crate::rng::Seed;
use crate::worldgen::{GenError, World, WorldParams, generate_world, regenerate_terrain};

/// How many world seeds a level tries before giving up (`"world"`, then `"world" / 1`, …), for
/// the rare world the generator cannot finish.
pub const WORLD_ATTEMPTS: u64 = 4;

/// How many tries new terrain gets to fit under a battle's paths.
const KEEP_PATHS_ATTEMPTS: u32 = 16;

/// Why a level cannot be set up.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SetupError {
    /// The level's terrain type is not among the loaded content.
    #[error("the terrain type `{0}` is not loaded")]
    NoTerrain(String),
    /// A hand-drawn world does not parse.
    #[error("the drawn world is not valid: {0}")]
    Layout(String),
    /// The world generator could not make the world.
    #[error(transparent)]
    Generation(#[from] GenError),
}

/// How a level's world is made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum WorldSetup {
    /// Generated from a terrain type and a seed.
    Generated {
        /// The terrain type's id.
        terrain: String,
        /// The world seed.
        seed: u64,
        /// Tiles from west to east.
        width: i32,
        /// Tiles from south to north.
        height: i32,
        /// The length of each path.
        path_lengths: Vec<u32>,
        /// Extra branches the final network may add.
        extra_branches: u32,
    },
    /// Drawn by hand (see `World::from_layout`).
    Layout(String),
}

impl WorldSetup {
    /// A generated world for `terrain` with `params`: from `seed`, or — for the rare seed the
    /// generator cannot finish — from `seed / 1`, `seed / 2`, … up to [`WORLD_ATTEMPTS`] seeds.
    /// The set-up names the seed that worked, so building it again needs no retries.
    pub fn generate(
        content: &ContentDb,
        terrain: &str,
        params: &WorldParams,
        seed: Seed,
    ) -> Result<WorldSetup, SetupError> {
        let terrain_type = content
            .terrain(terrain)
            .ok_or_else(|| SetupError::NoTerrain(terrain.to_string()))?;
        let mut last = None;
        for attempt in 0..WORLD_ATTEMPTS {
            let seed = if attempt == 0 {
                seed
            } else {
                seed.index(attempt)
            };
            match generate_world(params, terrain_type, seed) {
                Ok(_) => {
                    return Ok(WorldSetup::Generated {
                        terrain: terrain.to_string(),
                        seed: seed.0,
                        width: params.width,
                        height: params.height,
                        path_lengths: params.path_lengths.clone(),
                        extra_branches: params.extra_branches,
                    });
                }
                Err(e) => last = Some(e),
            }
        }
        Err(SetupError::Generation(
            last.expect("at least one attempt was made"),
        ))
    }

    /// Makes the world.
    pub fn build(&self, content: &ContentDb) -> Result<World, SetupError> {
        match self {
            WorldSetup::Layout(text) => World::from_layout(text).map_err(SetupError::Layout),
            WorldSetup::Generated {
                terrain,
                seed,
                width,
                height,
                path_lengths,
                extra_branches,
            } => {
                let terrain = content
                    .terrain(terrain)
                    .ok_or_else(|| SetupError::NoTerrain(terrain.clone()))?;
                let mut params = WorldParams::with_lengths(path_lengths.clone());
                params.width = *width;
                params.height = *height;
                params.extra_branches = *extra_branches;
                Ok(generate_world(&params, terrain, Seed(*seed))?)
            }
        }
    }

    /// The level's world made again for a changed terrain type while its battle goes on (hot
    /// reload): the world the level's first generation makes with the loaded terrain type — the
    /// same seeds, so undoing an edit gives back the very same world — if its paths are those
    /// of `current`, where the battle's attackers walk; otherwise new terrain under `current`'s
    /// paths ([`regenerate_terrain`]).
    pub fn regenerate(&self, content: &ContentDb, current: &World) -> Result<World, SetupError> {
        if let WorldSetup::Generated { .. } = self
            && let Ok(world) = self.build(content)
            && world.grid == current.grid
            && world.hub == current.hub
            && world.network == current.network
        {
            return Ok(world);
        }
        let terrain = content
            .terrain(&current.terrain)
            .ok_or_else(|| SetupError::NoTerrain(current.terrain.clone()))?;
        Ok(regenerate_terrain(current, terrain, KEEP_PATHS_ATTEMPTS)?)
    }

    /// The terrain type's id, or `"layout"` for a drawn world.
    pub fn terrain(&self) -> &str {
        match self {
            WorldSetup::Generated { terrain, .. } => terrain,
            WorldSetup::Layout(_) => "layout",
        }
    }
}

/// Everything that sets a level up, apart from the content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelSetup {
    /// The world.
    pub world: WorldSetup,
    /// The battle's seed, waves, player's holdings and terms.
    pub start: Start,
}

impl LevelSetup {
    /// The battle configuration for this level: its world built, the default script limits.
    pub fn config(&self, content: &ContentDb) -> Result<BattleConfig, SetupError> {
        let mut config = BattleConfig::from(self.start.clone());
        config.world = Some(Arc::new(self.world.build(content)?));
        Ok(config)
    }

    /// Starts the battle of this level.
    pub fn start(&self, content: &Arc<ContentDb>) -> Result<Battle, SetupError> {
        Ok(Battle::new(content.clone(), self.config(content)?))
    }
}
