//! Battle records: everything needed to play a battle again — the mods, the level, the player's
//! stamped commands — and the state hashes it reached, so that playing it again checks that the
//! simulation is still deterministic.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Battle, BattleConfig, PlayerCommand, WaveSpawns};
use crate::content::ContentDb;
use crate::rng::Seed;
use crate::worldgen::{World, WorldParams, generate_world};

/// The version of the record format.
pub const FORMAT: u32 = 1;

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
    /// Makes the world.
    pub fn build(&self, content: &ContentDb) -> Result<World, String> {
        match self {
            WorldSetup::Layout(text) => World::from_layout(text),
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
                    .ok_or_else(|| format!("the terrain type `{terrain}` is not loaded"))?;
                let mut params = WorldParams::with_lengths(path_lengths.clone());
                params.width = *width;
                params.height = *height;
                params.extra_branches = *extra_branches;
                generate_world(&params, terrain, Seed(*seed)).map_err(|e| e.to_string())
            }
        }
    }
}

/// Everything that sets a level up, apart from the content.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelSetup {
    /// The battle's seed.
    pub seed: u64,
    /// The world.
    pub world: WorldSetup,
    /// The waves.
    pub waves: Vec<WaveSpawns>,
    /// The player's blueprints; every blueprint if `None`.
    pub collection: Option<Vec<String>>,
    /// The Hub blueprint.
    pub hub: Option<String>,
    /// Materials at the start.
    pub materials: f64,
    /// Energy at the start.
    pub energy: f64,
    /// The energy cap before modifiers.
    pub energy_cap: f64,
    /// Hull at the start.
    pub hull: f64,
    /// Fuel needed to win.
    pub fuel_goal: f64,
}

impl LevelSetup {
    /// The battle configuration for this level.
    pub fn config(&self, content: &ContentDb) -> Result<BattleConfig, String> {
        let mut config = BattleConfig::new(Seed(self.seed));
        config.world = Some(Arc::new(self.world.build(content)?));
        config.waves = self.waves.clone();
        config.collection = self.collection.clone();
        config.hub = self.hub.clone();
        config.materials = self.materials;
        config.energy = self.energy;
        config.energy_cap = self.energy_cap;
        config.hull = self.hull;
        config.fuel_goal = self.fuel_goal;
        Ok(config)
    }

    /// Starts the battle of this level.
    pub fn start(&self, content: &Arc<ContentDb>) -> Result<Battle, String> {
        Ok(Battle::new(content.clone(), self.config(content)?))
    }
}

/// A recorded battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// The format version.
    pub format: u32,
    /// The mods it was played with, in load order, with versions.
    pub mods: Vec<(String, String)>,
    /// The hash of the content files.
    pub content_hash: u64,
    /// The level.
    pub setup: LevelSetup,
    /// The player's commands with the tick each applied at, in order.
    pub commands: Vec<(u64, PlayerCommand)>,
    /// The state hash at the end of every tick a wave ended in.
    pub checkpoints: Vec<(u64, u64)>,
    /// The tick the recording stopped at, and the state hash there.
    pub end: (u64, u64),
}

/// Where a replay went differently.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The level could not be set up.
    #[error("the level cannot be set up: {0}")]
    Setup(String),
    /// The record has a format this build does not read.
    #[error("the record is format {0}; this build reads format {FORMAT}")]
    Format(u32),
    /// The state differs from the recording.
    #[error("at tick {tick} the state hash is {found:016x}, the recording says {expected:016x}")]
    Diverged {
        /// The tick.
        tick: u64,
        /// The recorded hash.
        expected: u64,
        /// The hash now.
        found: u64,
    },
}

impl Replay {
    /// Records a battle that was started from `setup` and played up to now.
    pub fn record(battle: &Battle, setup: &LevelSetup) -> Replay {
        let content = battle.content();
        Replay {
            format: FORMAT,
            mods: content
                .mods
                .iter()
                .map(|m| (m.id.clone(), m.version.to_string()))
                .collect(),
            content_hash: content.content_hash(),
            setup: setup.clone(),
            commands: battle.history().to_vec(),
            checkpoints: battle.checkpoints().to_vec(),
            end: (battle.tick(), battle.state_hash()),
        }
    }

    /// Plays the record again with `content`, checking every checkpoint and the end. Returns how
    /// many hashes matched.
    pub fn verify(&self, content: &Arc<ContentDb>) -> Result<usize, ReplayError> {
        if self.format != FORMAT {
            return Err(ReplayError::Format(self.format));
        }
        let mut battle = self.setup.start(content).map_err(ReplayError::Setup)?;
        for (tick, command) in &self.commands {
            battle
                .schedule(*tick, command.clone())
                .map_err(|e| ReplayError::Setup(e.to_string()))?;
        }
        let mut checks = self.checkpoints.iter().peekable();
        let mut matched = 0;
        while battle.tick() < self.end.0 {
            battle.step();
            while let Some(&&(tick, expected)) = checks.peek() {
                if tick >= battle.tick() {
                    break;
                }
                checks.next();
                let found = battle
                    .checkpoints()
                    .iter()
                    .find(|(t, _)| *t == tick)
                    .map_or(0, |(_, h)| *h);
                if found != expected {
                    return Err(ReplayError::Diverged {
                        tick,
                        expected,
                        found,
                    });
                }
                matched += 1;
            }
        }
        let found = battle.state_hash();
        if found != self.end.1 {
            return Err(ReplayError::Diverged {
                tick: self.end.0,
                expected: self.end.1,
                found,
            });
        }
        Ok(matched + 1)
    }
}
