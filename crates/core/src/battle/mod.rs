//! The deterministic battle simulation.
//!
//! A battle advances only in whole ticks, 20 per second of game time ([`TICKS_PER_SECOND`]).
//! Player input arrives as [`PlayerCommand`]s stamped with the tick they apply at, so pausing or
//! speeding up the game only changes how many ticks run per real second, never the outcome. Every
//! change to the game goes through the named [`Chains`], which is where content — Rust rules and
//! Lua scripts alike — hooks in. [`Battle::state_hash`] fingerprints the canonical state; the same
//! content, seed and commands give the same hash in any process.

mod augments;
pub mod barriers;
pub mod chains;
mod describe;
mod economy;
pub mod effects;
pub mod entity;
pub mod field;
mod lifecycle;
mod mod_chains;
mod movement;
mod placement;
pub mod preview;
pub mod reload;
mod rules;
pub mod scripting;
pub mod shape;
mod spatial;
mod spawning;
pub mod storage;
mod targeting;
mod timers;
pub mod visuals;
pub mod weapons;

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use slotmap::SlotMap;

use crate::chain::{self, Outcome};
use crate::content::{AttackerId, BlueprintId, ContentDb, DamageTypes, Priority};
use crate::rng::{Rng, Seed};
use crate::worldgen::{Pos, World};
use rampart_lua::{Limits, ScriptError};

pub use barriers::Barrier;
pub use chains::{
    ChainInfo, ChainKind, Chains, Damage, EntityEvent, Gain, Heal, HullDamage, Signal, StatOf,
    Wave, chain_kind,
};
pub use describe::BlueprintView;
pub use economy::Payment;
pub use effects::{Effect, Lasting, Stacking};
pub use entity::{Entity, EntityId, EntityKind, Position, Route};
pub use field::Field;
pub use lifecycle::MAX_ENTITIES;
pub use preview::SegmentCover;
pub use scripting::api::{Access, TableField};
pub use scripting::api::{DEPRECATED, Deprecated};
pub use scripting::cost::{Cost, CostReport, CostRow, ScriptCosts};
pub use scripting::payload::{Domain, LuaShape};
pub use scripting::{ReportedError, ScriptDisabled, ScriptHost};
pub use spawning::{SpawnAt, WaveSpawn, WaveSpawns};
pub use storage::{STORAGE_DEPTH, STORAGE_LIMIT, Storage};
pub use visuals::{Figure, Visual};
pub use weapons::{Delayed, Shot, ShotKind, TowerState};

pub use crate::TICKS_PER_SECOND;

/// How deeply chains may run inside each other (a reaction that runs a command whose reaction
/// runs a command…) before the innermost is refused. Stops runaway recursion in content.
pub const MAX_CHAIN_DEPTH: u32 = 48;

/// Who owns a registration in a battle.
pub type Owner = chain::Owner<EntityId>;
/// Which payloads a registration sees in a battle.
pub type Scope = chain::Scope<EntityId>;
/// A command chain of the battle.
pub type Cmd<T> = chain::Command<Battle, EntityId, T>;
/// A query chain of the battle.
pub type Qry<I, O> = chain::Query<Battle, EntityId, I, O>;
/// An event chain of the battle.
pub type Evt<T> = chain::Event<Battle, EntityId, T>;

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

/// A line of the battle's log, for the client and for tests.
#[derive(Clone, Debug, PartialEq)]
pub struct LogEntry {
    /// The tick it happened at.
    pub tick: u64,
    /// What happened.
    pub kind: LogKind,
}

/// What a [`LogEntry`] records.
#[derive(Clone, Debug, PartialEq)]
pub enum LogKind {
    /// An event chain fired.
    Event {
        /// The chain's name.
        chain: &'static str,
        /// The entity it was about.
        entity: Option<EntityId>,
    },
    /// A player command could not be carried out.
    Refused {
        /// The command.
        command: PlayerCommand,
        /// Why, in words for the player.
        reason: String,
    },
    /// A mod's script failed; the battle went on without it. Logged the first time only: the
    /// same error again is counted in [`Battle::script_error_counts`].
    ScriptError(ScriptError),
    /// A script failed too often and was switched off for this battle; the mod's other scripts
    /// go on.
    ScriptDisabled(ScriptDisabled),
    /// The battle reached [`MAX_ENTITIES`]: attackers that would have appeared beyond it (from
    /// waves, deaths or scripts) did not. Logged once per battle.
    EntityLimit {
        /// The limit.
        limit: usize,
    },
    /// A wave made no progress for the level's `stall_ticks` and was ended; the attackers left
    /// were taken away.
    WaveStalled {
        /// The wave.
        wave: u32,
        /// The ticks it went without progress.
        ticks: u32,
        /// The attackers taken away.
        attackers: usize,
    },
    /// Content ran chains inside each other too deeply; the innermost was refused.
    ChainTooDeep {
        /// The chain refused.
        chain: &'static str,
    },
    /// Damage was dealt (for number pop-ups, and for what `rampart try` reports).
    Damaged {
        /// Who took it.
        target: EntityId,
        /// HP lost.
        amount: f64,
        /// Who dealt it.
        source: Option<EntityId>,
        /// Its damage types, as the hit landed (after modifiers).
        types: DamageTypes,
    },
    /// Hit points were given back (only when some were).
    Healed {
        /// Who was healed.
        target: EntityId,
        /// HP restored.
        amount: f64,
        /// Who healed, if anyone.
        source: Option<EntityId>,
    },
    /// An entity came into the battle: an attacker appeared, a building was built (the Hub
    /// too), an ability was used. The log keeps what it was, which a report needs after it is
    /// gone.
    Appeared {
        /// The new entity.
        entity: EntityId,
        /// What it is.
        kind: EntityKind,
        /// Where it appeared.
        position: Position,
    },
    /// A status effect was applied (or renewed) by `apply_effect`.
    EffectApplied {
        /// On whom.
        target: EntityId,
        /// Which effect.
        name: String,
        /// How long it was given for.
        lasting: Lasting,
        /// Who applied it, if anyone.
        source: Option<EntityId>,
    },
    /// A resource was gained (for number pop-ups).
    Gained {
        /// Which.
        resource: Resource,
        /// How much.
        amount: f64,
        /// From where.
        source: Option<EntityId>,
    },
    /// An attacker died, and who killed it if anyone did (for the info panel's kill counts).
    Killed {
        /// The attacker.
        attacker: EntityId,
        /// The entity whose hit was fatal.
        killer: Option<EntityId>,
    },
    /// A status effect ran out.
    EffectEnded {
        /// On whom.
        entity: EntityId,
        /// Which effect.
        name: String,
    },
    /// A script drew something for the player to see (`game:draw_line`, `game:draw_ring`,
    /// `game:flash`); nothing in the battle reads it. Not logged while the battle is only
    /// looked at.
    Drawn(Visual),
}

/// The resources of a battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resource {
    /// Materials.
    Materials,
    /// Energy.
    Energy,
    /// Fuel.
    Fuel,
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

/// The canonical state of a battle: everything [`Battle::state_hash`] covers.
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

/// A battle in progress.
pub struct Battle {
    state: BattleState,
    /// The battle's chains; content registers on them.
    pub chains: Chains,
    content: Arc<ContentDb>,
    config: BattleConfig,
    field: Option<Arc<Field>>,
    collection: Vec<BlueprintId>,
    coverage: targeting::Coverages,
    /// A reused buffer for picking targets.
    scratch: Vec<(f64, f64, EntityId)>,
    /// Player commands not applied yet, by tick, in submission order: input, not state.
    queue: BTreeMap<u64, Vec<PlayerCommand>>,
    history: Vec<(u64, PlayerCommand)>,
    checkpoints: Vec<(u64, u64)>,
    wave_ended: bool,
    /// Whether the battle has said that it reached [`MAX_ENTITIES`] (it says so once).
    entity_limit_logged: bool,
    /// Kills and hull lost by attacker type: what the run adapts its difficulty to. Counted from
    /// the battle's own events, it changes nothing in the battle, so it is not in the state hash.
    tally: BTreeMap<String, TypeTally>,
    /// Whether an attacker moved closer or was damaged this tick (see `spawning.rs`).
    progressed: bool,
    /// The attackers at the end of the last tick, as a count and a sum of their ids.
    roster: (usize, u64),
    /// Ticks the running wave has gone without progress.
    stalled_for: u32,
    scripts: Option<Rc<ScriptHost>>,
    /// Callbacks scripts set for later ticks (`game:after`).
    timers: timers::Timers,
    log: Vec<LogEntry>,
    /// The script errors so far, each distinct one once with its count. Like the log, outside
    /// the state hash: it records what happened and changes nothing.
    script_errors: scripting::ErrorRecord,
    /// What the scripts of earlier script hosts of this battle cost (hot reload makes a new
    /// host); like the errors, outside the state hash.
    earlier_costs: ScriptCosts,
    /// Whether script calls are timed ([`Battle::time_scripts`]).
    timing_scripts: bool,
    depth: u32,
    /// Queries being computed (nested); scripts may not change the battle meanwhile.
    querying: u32,
    /// Whether values are being computed for display only: script errors then are not counted
    /// or logged, so that looking at the battle never changes it.
    previewing: bool,
}

impl Battle {
    /// Starts a battle with the given content. Every mod's scripts load now; a script that fails
    /// is reported in the log and the battle goes on without it.
    pub fn new(content: Arc<ContentDb>, config: BattleConfig) -> Battle {
        let start = &config.start;
        let script_seed = start.seed.branch("scripts");
        let state = BattleState {
            tick: 0,
            phase: Phase::Build,
            wave: 0,
            entities: SlotMap::with_key(),
            player: Player {
                materials: start.materials,
                energy: start.energy,
                fuel: 0.0,
                fuel_goal: start.fuel_goal,
                hull: start.hull,
            },
            rng: start.seed.branch("simulation").rng(),
            script_rngs: content
                .mods
                .iter()
                .map(|m| script_seed.branch(&m.id).rng())
                .collect(),
            spawns: BTreeMap::new(),
            dying: Vec::new(),
            splits: BTreeMap::new(),
            cooldowns: BTreeMap::new(),
            hub: None,
            shots: Vec::new(),
            delayed: Vec::new(),
            barriers: Vec::new(),
            storage: start
                .storage
                .iter()
                .filter(|(_, s)| !s.is_empty())
                .map(|(id, s)| (id.clone(), s.clone()))
                .collect(),
        };
        let collection = match &start.collection {
            None => (0..content.blueprints.len() as u32)
                .map(BlueprintId)
                .collect(),
            Some(ids) => ids
                .iter()
                .filter_map(|id| content.blueprint_id(id))
                .collect(),
        };
        let field = config.world.clone().map(|w| Arc::new(Field::new(w)));
        let mut battle = Battle {
            state,
            chains: Chains::new(&content),
            content,
            config,
            field,
            collection,
            coverage: BTreeMap::new(),
            scratch: Vec::new(),
            timers: timers::Timers::default(),
            queue: BTreeMap::new(),
            history: Vec::new(),
            checkpoints: Vec::new(),
            wave_ended: false,
            entity_limit_logged: false,
            tally: BTreeMap::new(),
            progressed: false,
            roster: (0, 0),
            stalled_for: 0,
            scripts: None,
            log: Vec::new(),
            script_errors: scripting::ErrorRecord::default(),
            earlier_costs: ScriptCosts::default(),
            timing_scripts: false,
            depth: 0,
            querying: 0,
            previewing: false,
        };
        rules::install(&mut battle);
        augments::install(&mut battle);
        let host = ScriptHost::new(&battle.content, &battle.config.script_limits);
        battle.scripts = Some(host.clone());
        host.load_all(&mut battle);
        battle.start_cooldowns();
        battle.place_hub();
        battle
    }

    /// The world as the battle sees it, if it has one.
    pub fn field(&self) -> Option<&Arc<Field>> {
        self.field.as_ref()
    }

    /// The blueprints the player can use in this battle.
    pub fn collection(&self) -> &[BlueprintId] {
        &self.collection
    }

    /// The content the battle was made from.
    pub fn content(&self) -> &Arc<ContentDb> {
        &self.content
    }

    /// How the battle was set up.
    pub fn config(&self) -> &BattleConfig {
        &self.config
    }

    /// The canonical state.
    pub fn state(&self) -> &BattleState {
        &self.state
    }

    /// The next tick to run.
    pub fn tick(&self) -> u64 {
        self.state.tick
    }

    /// Build, wave, won or lost.
    pub fn phase(&self) -> Phase {
        self.state.phase
    }

    /// The number of the current or last wave.
    pub fn wave(&self) -> u32 {
        self.state.wave
    }

    /// The player's resources.
    pub fn player(&self) -> &Player {
        &self.state.player
    }

    /// An entity, if it is alive.
    pub fn entity(&self, id: EntityId) -> Option<&Entity> {
        self.state.entities.get(id)
    }

    /// Moves an entity by hand (attackers on a path move by themselves).
    pub fn set_position(&mut self, id: EntityId, position: Position) {
        if let Some(e) = self.state.entities.get_mut(id) {
            e.position = position;
        }
    }

    /// Every entity, in id order.
    pub fn entities(&self) -> impl Iterator<Item = (EntityId, &Entity)> {
        self.state.entities.iter()
    }

    /// Kills and hull lost so far, by attacker type (`mod:name`).
    pub fn tally(&self) -> &BTreeMap<String, TypeTally> {
        &self.tally
    }

    /// Counts for the tally what an attacker of type `attacker` did.
    pub(super) fn count(&mut self, attacker: AttackerId, kills: u32, hull: f64) {
        let id = &self.content.attacker(attacker).id;
        let entry = self.tally.entry(id.clone()).or_default();
        entry.kills += kills;
        entry.hull += hull;
    }

    /// Everything logged so far.
    pub fn log(&self) -> &[LogEntry] {
        &self.log
    }

    /// The hits `source` has dealt, as (tick, HP taken), in order (as far as the log goes back).
    pub fn hits_by(&self, source: EntityId) -> impl Iterator<Item = (u64, f64)> + '_ {
        self.log.iter().filter_map(move |l| match l.kind {
            LogKind::Damaged {
                amount,
                source: Some(s),
                ..
            } if s == source => Some((l.tick, amount)),
            _ => None,
        })
    }

    /// What `source` has produced of `resource`, gain by gain (as far as the log goes back).
    pub fn gains_from(
        &self,
        source: EntityId,
        resource: Resource,
    ) -> impl Iterator<Item = f64> + '_ {
        self.log.iter().filter_map(move |l| match l.kind {
            LogKind::Gained {
                resource: r,
                amount,
                source: Some(s),
            } if s == source && r == resource => Some(amount),
            _ => None,
        })
    }

    /// Takes the log, leaving it empty (the client consumes it every frame).
    pub fn drain_log(&mut self) -> Vec<LogEntry> {
        std::mem::take(&mut self.log)
    }

    /// The script errors so far, each distinct one once, in the order they first happened
    /// (whether or not the log was drained since).
    pub fn script_errors(&self) -> impl Iterator<Item = &ScriptError> {
        self.script_errors.errors().iter().map(|r| &r.error)
    }

    /// The script errors so far with how many times each happened, in the order they first
    /// happened.
    pub fn script_error_counts(&self) -> &[ReportedError] {
        self.script_errors.errors()
    }

    /// What each mod's scripts have cost this battle so far, per script: calls and instructions
    /// (the same in every run of the battle), and wall time while [`Battle::time_scripts`] was
    /// on. Outside the state: measuring changes nothing in the battle.
    pub fn script_costs(&self) -> ScriptCosts {
        let mut costs = self.earlier_costs.clone();
        if let Some(host) = &self.scripts {
            costs.add(&host.costs());
        }
        costs
    }

    /// Starts (`true`) or stops measuring the wall time of script calls for
    /// [`Battle::script_costs`]; off at first, since reading the clock at every call costs
    /// time of its own. Only for showing to a person: nothing in the battle depends on it.
    pub fn time_scripts(&mut self, on: bool) {
        self.timing_scripts = on;
        if let Some(host) = &self.scripts {
            host.time_calls(on);
        }
    }

    /// Whether the wall time of script calls is being measured ([`Battle::time_scripts`]).
    pub fn scripts_timed(&self) -> bool {
        self.timing_scripts
    }

    /// Counts a script error; the first time it happens it is also logged. Returns how many
    /// times it has happened now.
    pub(crate) fn record_script_error(&mut self, error: ScriptError) -> u32 {
        let times = self.script_errors.add(error.clone(), 1);
        if times == 1 {
            self.push_log(LogKind::ScriptError(error));
        }
        times
    }

    pub(crate) fn push_log(&mut self, kind: LogKind) {
        self.log.push(LogEntry {
            tick: self.state.tick,
            kind,
        });
    }

    /// Schedules a player command for `tick` (the current tick or later).
    pub fn schedule(&mut self, tick: u64, command: PlayerCommand) -> Result<(), ScheduleError> {
        if tick < self.state.tick {
            return Err(ScheduleError::Past {
                tick,
                now: self.state.tick,
            });
        }
        self.queue.entry(tick).or_default().push(command);
        Ok(())
    }

    /// Schedules a player command for the next tick to run.
    pub fn submit(&mut self, command: PlayerCommand) {
        let tick = self.state.tick;
        self.queue.entry(tick).or_default().push(command);
    }

    /// Schedules an attacker to appear at `tick`.
    pub fn schedule_spawn(&mut self, tick: u64, attacker: AttackerId, at: SpawnAt) {
        self.state
            .spawns
            .entry(tick.max(self.state.tick))
            .or_default()
            .push((attacker, at));
    }

    /// Runs one tick, in a fixed order: the player's commands stamped for it, the attackers due,
    /// movement, shots already in flight, towers (whose new shots fly from the next tick), hits
    /// that land now, status effects, barriers, every script's `on_tick`, the scripts' timers due
    /// (`game:after`), timed abilities, deaths, and the end of the wave when nothing is left.
    pub fn step(&mut self) {
        let tick = self.state.tick;
        if let Some(host) = &self.scripts {
            host.new_tick();
        }
        for command in self.queue.remove(&tick).unwrap_or_default() {
            self.history.push((tick, command.clone()));
            self.apply(command);
        }
        for (attacker, at) in self.state.spawns.remove(&tick).unwrap_or_default() {
            self.spawn(attacker, at);
        }
        self.move_attackers();
        self.run_shots();
        self.run_towers();
        self.run_delayed();
        self.tick_effects();
        self.tick_barriers();
        if let Some(host) = self.scripts.clone() {
            host.tick_all(self);
        }
        self.fire_timers();
        self.tick_abilities();
        self.resolve_deaths();
        self.end_wave_if_over();
        self.end_wave_if_stalled();
        self.state.tick += 1;
        if std::mem::take(&mut self.wave_ended) {
            self.checkpoints.push((tick, self.state_hash()));
        }
    }

    /// The player's commands applied so far, with their ticks.
    pub fn history(&self) -> &[(u64, PlayerCommand)] {
        &self.history
    }

    /// The state hash at the end of every tick a wave ended in.
    pub fn checkpoints(&self) -> &[(u64, u64)] {
        &self.checkpoints
    }

    /// Runs `n` ticks.
    pub fn run_ticks(&mut self, n: u64) {
        for _ in 0..n {
            self.step();
        }
    }

    fn apply(&mut self, command: PlayerCommand) {
        let result = match &command {
            PlayerCommand::StartWave => self.start_wave(),
            PlayerCommand::Place {
                blueprint,
                position,
                rotation,
            } => self.place(blueprint, *position, *rotation).map(|_| ()),
            PlayerCommand::Remove { entity } => self.remove_building(*entity),
            PlayerCommand::SetPriority { entity, priority } => {
                self.set_priority(*entity, *priority)
            }
        };
        if let Err(reason) = result {
            self.push_log(LogKind::Refused { command, reason });
        }
    }

    /// Runs a command chain, with the nesting guard; deaths it caused resolve when the outermost
    /// command finishes.
    pub fn command<T: chain::Subject<EntityId>>(
        &mut self,
        chain: impl Fn(&Battle) -> &Cmd<T>,
        payload: T,
    ) -> Outcome<T> {
        if !self.enter(chain(self).name()) {
            return Outcome::Cancelled;
        }
        let outcome = chain::Command::run(self, chain, payload);
        self.depth -= 1;
        if self.depth == 0 {
            self.resolve_deaths();
        }
        outcome
    }

    /// Computes a query. Past the nesting limit only the base value is computed.
    pub fn query<I: chain::Subject<EntityId>, O>(
        &mut self,
        chain: impl Fn(&Battle) -> &Qry<I, O>,
        input: &I,
    ) -> O {
        if !self.enter(chain(self).name()) {
            return chain::Query::base(self, chain, input);
        }
        self.querying += 1;
        let value = chain::Query::run(self, chain, input);
        self.querying -= 1;
        self.depth -= 1;
        value
    }

    /// Fires an event chain and logs it.
    pub fn emit<T: chain::Subject<EntityId>>(
        &mut self,
        chain: impl Fn(&Battle) -> &Evt<T>,
        payload: &T,
    ) {
        let name = chain(self).name();
        self.push_log(LogKind::Event {
            chain: name,
            entity: payload.subject(),
        });
        if !self.enter(name) {
            return;
        }
        chain::Event::emit(self, chain, payload);
        self.depth -= 1;
    }

    /// Whether another chain may start inside the running ones.
    pub(crate) fn can_nest(&self) -> bool {
        self.depth < MAX_CHAIN_DEPTH
    }

    /// Whether a query is being computed.
    pub(crate) fn in_query(&self) -> bool {
        self.querying > 0
    }

    /// Whether values are being computed for display only.
    pub(crate) fn previewing(&self) -> bool {
        self.previewing
    }

    /// Computes a query for display or planning, as a player looking at the game would: modifiers
    /// included, but whatever scripts get wrong meanwhile is neither counted nor logged, so
    /// looking never changes the battle.
    pub fn look<I: chain::Subject<EntityId>, O>(
        &mut self,
        chain: impl Fn(&Battle) -> &Qry<I, O>,
        input: &I,
    ) -> O {
        self.preview(|b| b.query(chain, input))
    }

    /// Runs `f` for display only: whatever scripts get wrong meanwhile is neither counted toward
    /// switching their mod off nor logged.
    fn preview<R>(&mut self, f: impl FnOnce(&mut Battle) -> R) -> R {
        let outer = std::mem::replace(&mut self.previewing, true);
        let result = f(self);
        self.previewing = outer;
        result
    }

    fn enter(&mut self, chain: &'static str) -> bool {
        if !self.can_nest() {
            self.push_log(LogKind::ChainTooDeep { chain });
            return false;
        }
        self.depth += 1;
        true
    }

    /// Marks an entity brought to 0 HP; it dies when the current command finishes.
    pub(crate) fn mark_dying(&mut self, entity: EntityId, killer: Option<EntityId>) {
        if !self.state.dying.iter().any(|(e, _)| *e == entity) {
            self.state.dying.push((entity, killer));
        }
    }

    pub(crate) fn state_mut(&mut self) -> &mut BattleState {
        &mut self.state
    }

    pub(crate) fn script_rng(&mut self, mod_index: usize) -> Option<&mut Rng> {
        self.state.script_rngs.get_mut(mod_index)
    }

    /// A fingerprint of the canonical state (tick, phase, entities, resources, shots, random
    /// generators…), stable across processes and runs. Commands not yet applied are input, not
    /// state, and do not count.
    pub fn state_hash(&self) -> u64 {
        let bytes = postcard::to_stdvec(&self.state).expect("battle state always serialises");
        xxhash_rust::xxh3::xxh3_64(&bytes)
    }
}
