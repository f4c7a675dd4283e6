//! What a battle is made of, below every rule: how it starts ([`Start`], [`BattleConfig`]), the
//! player's commands, and its canonical state ([`BattleState`], everything the state hash
//! covers) with the plain data in it — phases, resources, waves to send, barriers, shots in
//! flight. Nothing here runs the battle; the rules above read and change it.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::{DVec2, DVec3};
use serde::{Deserialize, Serialize};
use slotmap::SlotMap;

use super::entity::{Entity, EntityId, Position, Route};
use super::storage::Storage;
use crate::chain;
use crate::content::{AttackerId, BlueprintId, DamageTypes, Priority};
use crate::rng::{Rng, Seed};
use crate::worldgen::{Pos, World};
use rampart_lua::Limits;

/// The most entities (attackers and buildings) a battle holds at once: far beyond any wave (the
/// battle benchmark runs 2 000 attackers), and what keeps a content or script mistake that
/// spawns without end from exhausting memory.
pub const MAX_ENTITIES: usize = 10_000;

/// How deeply chains may run inside each other (a reaction that runs a command whose reaction
/// runs a command…) before the innermost is refused. Stops runaway recursion in content.
pub const MAX_CHAIN_DEPTH: u32 = 48;

/// Who owns a registration in a battle.
pub type Owner = chain::Owner<EntityId>;

/// Which payloads a registration sees in a battle.
pub type Scope = chain::Scope<EntityId>;

/// What one attacker type did in a battle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TypeTally {
    /// Attackers of the type killed.
    pub kills: u32,
    /// Hull they took.
    pub hull: f64,
}

/// Everything a battle starts from apart from its world: the seed, the waves, what the player
/// holds and the level's terms. It serialises, so a level set-up and a battle record store it as
/// it is; a new starting value is one field here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Start {
    /// The battle's seed (a branch of the level's seed).
    pub seed: Seed,
    /// What each wave sends, in order.
    pub waves: Vec<WaveSpawns>,
    /// The blueprints the player has; `None` means every blueprint of the content.
    pub collection: Option<Vec<String>>,
    /// The blueprint the game places on the Hub's tile at the start (e.g. `core:hub`).
    pub hub: Option<String>,
    /// Materials at the start.
    pub materials: f64,
    /// Energy at the start.
    pub energy: f64,
    /// The energy cap before modifiers.
    pub energy_cap: f64,
    /// Hull carried in from the run.
    pub hull: f64,
    /// Fuel needed to win the level.
    pub fuel_goal: f64,
    /// Multipliers of attacker types' HP (`mod:name` → factor), set by the run's adaptive
    /// difficulty when the level is set up; types not named keep their HP.
    #[serde(default)]
    pub strength: BTreeMap<String, f64>,
    /// Augments of the player's blueprints (`mod:name` of a blueprint → its augments, in the
    /// order taken), from the run's collection.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub augments: BTreeMap<String, Vec<String>>,
    /// What each mod kept in its storage (`game:storage()`), by mod id: the run's, carried from
    /// its last battle; empty outside a run.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub storage: BTreeMap<String, Storage>,
}

impl Start {
    /// The given seed with the skeleton's starting values: no waves, every blueprint, no Hub,
    /// 30 materials, no energy under a cap of 50, 20 hull and a fuel goal of 100.
    pub fn new(seed: Seed) -> Start {
        Start {
            seed,
            waves: Vec::new(),
            collection: None,
            hub: None,
            materials: 30.0,
            energy: 0.0,
            energy_cap: 50.0,
            hull: 20.0,
            fuel_goal: 100.0,
            strength: BTreeMap::new(),
            augments: BTreeMap::new(),
            storage: BTreeMap::new(),
        }
    }
}

/// How a battle starts: its [`Start`], the world it is fought on, and the scripts' limits.
#[derive(Clone, Debug)]
pub struct BattleConfig {
    /// The seed, waves, player's holdings and the level's terms.
    pub start: Start,
    /// The world it is fought on. Without one (in tests of the rules alone) there are no paths to
    /// walk and no tiles to check placements against.
    pub world: Option<Arc<World>>,
    /// Limits for mod scripts.
    pub script_limits: Limits,
}

impl BattleConfig {
    /// A configuration with the given seed and the skeleton's starting values, without a world.
    pub fn new(seed: Seed) -> Self {
        BattleConfig::from(Start::new(seed))
    }
}

impl From<Start> for BattleConfig {
    /// A battle from `start`, without a world, with the default script limits.
    fn from(start: Start) -> Self {
        BattleConfig {
            start,
            world: None,
            script_limits: Limits::default(),
        }
    }
}

/// The player's resources in this battle.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    /// Materials: unbounded.
    pub materials: f64,
    /// Energy: capped by the `energy_cap` query.
    pub energy: f64,
    /// Fuel gathered toward `fuel_goal`.
    pub fuel: f64,
    /// Fuel needed to win.
    pub fuel_goal: f64,
    /// Hull left; 0 ends the run.
    pub hull: f64,
}

/// Where the battle stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// Between waves: buildings can be placed.
    Build,
    /// A wave is running: abilities can be used.
    Wave,
    /// The fuel goal was reached.
    Won,
    /// The hull ran out.
    Lost,
}

impl Phase {
    /// The lowercase name scripts use: `"build"`, `"wave"`, `"won"` or `"lost"`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Build => "build",
            Phase::Wave => "wave",
            Phase::Won => "won",
            Phase::Lost => "lost",
        }
    }
}

/// Something the player does, applied at the start of the tick it is stamped with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum PlayerCommand {
    /// Start the next wave.
    StartWave,
    /// Build a building or use an ability.
    Place {
        /// The blueprint's id, `mod:name`.
        blueprint: String,
        /// Where: any point of the tile for a building.
        position: Position,
        /// Quarter turns clockwise from north, for rotatable blueprints.
        rotation: u8,
    },
    /// Remove a building.
    Remove {
        /// The building.
        entity: EntityId,
    },
    /// Change a tower's targeting priority.
    SetPriority {
        /// The tower.
        entity: EntityId,
        /// The new priority.
        priority: Priority,
    },
}

impl PlayerCommand {
    /// A placement without rotation.
    pub fn place(blueprint: &str, x: f64, y: f64) -> PlayerCommand {
        PlayerCommand::Place {
            blueprint: blueprint.to_string(),
            position: Position { x, y },
            rotation: 0,
        }
    }
}

/// The command in words, for reports: `place core:sniper at (5, 6)`, `start the next wave`.
impl std::fmt::Display for PlayerCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayerCommand::StartWave => write!(f, "start the next wave"),
            PlayerCommand::Place {
                blueprint,
                position,
                rotation,
            } => {
                write!(f, "place {blueprint} at ({}, {})", position.x, position.y)?;
                match rotation {
                    0 => Ok(()),
                    r => write!(f, " turned {r} quarter turns"),
                }
            }
            PlayerCommand::Remove { entity } => write!(f, "remove entity {entity:?}"),
            PlayerCommand::SetPriority { entity, priority } => {
                write!(f, "set the priority of entity {entity:?} to {priority:?}")
            }
        }
    }
}

/// Why a command could not be scheduled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    /// Commands apply at a tick that has not run yet.
    #[error("tick {tick} has already run (the battle is at tick {now})")]
    Past {
        /// The requested tick.
        tick: u64,
        /// The next tick to run.
        now: u64,
    },
}

/// The canonical state of a battle: everything `Battle::state_hash` covers.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BattleState {
    /// The next tick to run.
    pub tick: u64,
    /// Build, wave, won or lost.
    pub phase: Phase,
    /// The number of the current or last wave (0 before the first).
    pub wave: u32,
    /// Every entity.
    pub entities: SlotMap<EntityId, Entity>,
    /// The player's resources.
    pub player: Player,
    /// The battle's own random numbers.
    pub rng: Rng,
    /// One generator per mod for `math.random`, in load order.
    pub script_rngs: Vec<Rng>,
    /// Attackers waiting to appear, by tick.
    pub spawns: BTreeMap<u64, Vec<(AttackerId, SpawnAt)>>,
    /// Entities at 0 HP waiting to die at the end of the current command, with their killer.
    pub dying: Vec<(EntityId, Option<EntityId>)>,
    /// How many attackers have passed each split, so the next takes the next branch.
    pub splits: BTreeMap<Pos, u32>,
    /// Waves each blueprint must still wait before it can be used.
    pub cooldowns: BTreeMap<BlueprintId, u32>,
    /// The Hub building, if the battle has one.
    pub hub: Option<EntityId>,
    /// Shots in flight.
    pub shots: Vec<Shot>,
    /// Hits that land later.
    pub delayed: Vec<Delayed>,
    /// Barriers standing, which stop flying shots from outside.
    pub barriers: Vec<Barrier>,
    /// Each mod's storage, by mod id (`game:storage()`). Left out of the hash's bytes when no
    /// mod stores anything, so battles without storage keep the hashes they had before it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub storage: BTreeMap<String, Storage>,
}

/// Where a spawned attacker appears.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum SpawnAt {
    /// Outside the world at path start `n`, walking in.
    Path(usize),
    /// Somewhere on the path network, walking on (children of an attacker that died there).
    Route(Route),
    /// At a point, off the path network (standing still).
    Point(Position),
}

/// One attacker of a wave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WaveSpawn {
    /// Ticks after the wave starts.
    pub delay: u32,
    /// The path start it comes from.
    pub path: usize,
    /// The attacker type, `mod:name`.
    pub attacker: String,
}

/// Everything one wave sends, in any order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WaveSpawns {
    /// The attackers.
    pub spawns: Vec<WaveSpawn>,
}

/// A circle that stops flying shots from outside.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Barrier {
    /// Its centre on the ground plane.
    pub center: DVec2,
    /// Its radius in tiles.
    pub radius: f64,
    /// Ticks it still stands.
    pub ticks_left: u32,
}

impl Barrier {
    /// Whether `p` is inside.
    pub fn contains(&self, p: DVec2) -> bool {
        p.distance(self.center) <= self.radius
    }
}

/// A shot in flight.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shot {
    /// The tower that fired it.
    pub source: EntityId,
    /// Where it was fired from (barriers stop shots from outside them).
    pub origin: DVec3,
    /// Where it is now.
    pub position: DVec3,
    /// How it flies.
    pub kind: ShotKind,
    /// Damage on hit.
    pub damage: f64,
    /// Damage types.
    pub types: DamageTypes,
    /// Extra energy damage on hit, from an electrified tower.
    pub extra: Option<f64>,
}

/// How a shot flies.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ShotKind {
    /// Straight on, hitting the first attacker in its way or nothing.
    Straight {
        /// Movement per tick.
        velocity: DVec3,
        /// Distance it may still fly.
        left: f64,
    },
    /// After its target, hitting it on arrival; gone if the target is.
    Homing {
        /// What it flies at.
        target: EntityId,
        /// Distance per tick.
        step: f64,
    },
    /// Over everything, landing at `to` and damaging all within `radius`.
    Ballistic {
        /// Where it left.
        from: DVec3,
        /// Where it lands.
        to: DVec3,
        /// Ticks flown.
        elapsed: u32,
        /// Ticks it flies.
        flight: u32,
        /// Radius of the blast.
        radius: f64,
    },
}

/// A hit that lands later: a slam after the tower's delay, a blast ability.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Delayed {
    /// The tick it lands.
    pub at: u64,
    /// The tower or ability.
    pub source: EntityId,
}
