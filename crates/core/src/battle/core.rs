//! The battle itself: the [`Battle`] struct, what it answers about itself, its log, the player's
//! commands coming in, a tick in its fixed order, and running its chains with the nesting guard.
//! The rules (`lifecycle.rs`, `combat.rs`, `rules.rs`, …) add their methods to it in their own
//! files; the scripts, above it, reach it through [`Scripts`], so that nothing here knows Lua.

use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;

use super::chains::ChainSet;
use super::costs::ScriptCosts;
use super::coverage::Coverages;
use super::entity::{Entity, EntityId, Position};
use super::field::Field;
use super::log::{ErrorRecord, LogEntry, LogKind, ReportedError, Resource};
use super::state::{
    BattleConfig, BattleState, MAX_CHAIN_DEPTH, Phase, Player, PlayerCommand, ScheduleError,
    SpawnAt, TypeTally,
};
use super::storage::{Key, Storage, StorageError, Stored, Table};
use super::timers::Timers;
use crate::chain::{self, Outcome};
use crate::content::{AttackerId, BlueprintId, ContentDb};
use crate::rng::Rng;
use rampart_lua::ScriptError;

/// The hooks a behaviour script's table may define.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    /// An attacker appeared.
    Spawn,
    /// A building was built or an ability used.
    Placed,
    /// Every tick.
    Tick,
    /// An attacker was killed (before it is removed).
    Death,
    /// A building was removed by the player.
    Removed,
}

impl Hook {
    /// Every hook, in the order an instance keeps them.
    pub const ALL: [Hook; 5] = [
        Hook::Spawn,
        Hook::Placed,
        Hook::Tick,
        Hook::Death,
        Hook::Removed,
    ];

    /// The field name in the script's table.
    pub fn name(self) -> &'static str {
        match self {
            Hook::Spawn => "on_spawn",
            Hook::Placed => "on_placed",
            Hook::Tick => "on_tick",
            Hook::Death => "on_death",
            Hook::Removed => "on_removed",
        }
    }

    /// When it is called, in words for modders.
    pub fn doc(self) -> &'static str {
        match self {
            Hook::Spawn => "When an attacker appears.",
            Hook::Placed => "When a building is built or an ability used.",
            Hook::Tick => "Every tick (20 per second), in entity order.",
            Hook::Death => "When an attacker is killed, before it is removed.",
            Hook::Removed => "When the player removes a building.",
        }
    }
}

/// What the battle asks of its scripts. The script host (`scripting/`) sits above the battle
/// and implements this, so that the rules call hooks without knowing Lua.
pub(crate) trait Scripts {
    /// Gives a new entity its script instances: its type's script, if it has one, then the
    /// scripts of its blueprint's augments.
    fn attach(&self, battle: &mut Battle, entity: EntityId);
    /// Calls a hook of each of an entity's script instances that has it, in attach order.
    fn call_hook(&self, battle: &mut Battle, entity: EntityId, hook: Hook);
    /// Calls `on_tick` of every scripted entity that has one, in entity order.
    fn tick_all(&self, battle: &mut Battle);
    /// Forgets a removed entity's instances.
    fn detach(&self, entity: EntityId);
    /// Starts a new tick for the limits of every mod.
    fn new_tick(&self);
    /// What each script's calls have cost so far, by mod id and script path.
    fn costs(&self) -> ScriptCosts;
    /// Starts or stops timing the scripts' calls.
    fn time_calls(&self, on: bool);
}

/// Every chain of a battle.
pub type Chains = ChainSet<Battle>;
/// A command chain of the battle.
pub type Cmd<T> = chain::Command<Battle, EntityId, T>;
/// A query chain of the battle.
pub type Qry<I, O> = chain::Query<Battle, EntityId, I, O>;
/// An event chain of the battle.
pub type Evt<T> = chain::Event<Battle, EntityId, T>;

/// A battle in progress.
pub struct Battle {
    pub(super) state: BattleState,
    /// The battle's chains; content registers on them.
    pub chains: Chains,
    pub(super) content: Arc<ContentDb>,
    pub(super) config: BattleConfig,
    pub(super) field: Option<Arc<Field>>,
    pub(super) collection: Vec<BlueprintId>,
    pub(super) coverage: Coverages,
    /// A reused buffer for picking targets.
    pub(super) scratch: Vec<(f64, f64, EntityId)>,
    /// Player commands not applied yet, by tick, in submission order: input, not state.
    pub(super) queue: BTreeMap<u64, Vec<PlayerCommand>>,
    pub(super) history: Vec<(u64, PlayerCommand)>,
    pub(super) checkpoints: Vec<(u64, u64)>,
    pub(super) wave_ended: bool,
    /// Whether the battle has said that it reached [`MAX_ENTITIES`](super::state::MAX_ENTITIES) (it says
    /// so once).
    pub(super) entity_limit_logged: bool,
    /// Kills and hull lost by attacker type: what the run adapts its difficulty to. Counted from
    /// the battle's own events, it changes nothing in the battle, so it is not in the state hash.
    pub(super) tally: BTreeMap<String, TypeTally>,
    /// Whether an attacker moved closer or was damaged this tick (see `lifecycle.rs`).
    pub(super) progressed: bool,
    /// The attackers at the end of the last tick, as a count and a sum of their ids.
    pub(super) roster: (usize, u64),
    /// Ticks the running wave has gone without progress.
    pub(super) stalled_for: u32,
    /// The scripts of the battle, if it has a host for them (`scripting/`).
    pub(super) scripts: Option<Rc<dyn Scripts>>,
    /// Callbacks scripts set for later ticks (`game:after`).
    pub(super) timers: Timers<Battle>,
    pub(super) log: Vec<LogEntry>,
    /// The script errors so far, each distinct one once with its count. Like the log, outside
    /// the state hash: it records what happened and changes nothing.
    pub(super) script_errors: ErrorRecord,
    /// What the scripts of earlier script hosts of this battle cost (hot reload makes a new
    /// host); like the errors, outside the state hash.
    pub(super) earlier_costs: ScriptCosts,
    /// Whether script calls are timed ([`Battle::time_scripts`]).
    pub(super) timing_scripts: bool,
    pub(super) depth: u32,
    /// Queries being computed (nested); scripts may not change the battle meanwhile.
    pub(super) querying: u32,
    /// Whether values are being computed for display only: script errors then are not counted
    /// or logged, so that looking at the battle never changes it.
    pub(super) previewing: bool,
}

impl Battle {
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
    pub(crate) fn count(&mut self, attacker: AttackerId, kills: u32, hull: f64) {
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
    pub(super) fn preview<R>(&mut self, f: impl FnOnce(&mut Battle) -> R) -> R {
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

    /// Fires the timers due now, one at a time, so that one a callback sets or cancels is seen
    /// by the rest of this run.
    pub(super) fn fire_timers(&mut self) {
        while let Some(fire) = self.timers.take_due(self.state.tick) {
            fire(self);
        }
    }

    /// Every mod's storage now, by mod id; a mod that stores nothing has no entry. The storage
    /// of mods not loaded is carried as it came.
    pub fn storage(&self) -> &BTreeMap<String, Storage> {
        &self.state.storage
    }

    /// The table at `path` in the storage of mod `mod_index`; the top is there, empty, for a mod
    /// that stores nothing.
    pub(crate) fn stored_table(&self, mod_index: usize, path: &[Key]) -> Option<&Table> {
        static EMPTY: Table = Table::new();
        match self.state.storage.get(&self.content.mods[mod_index].id) {
            Some(storage) => storage.table_at(path),
            None => path.is_empty().then_some(&EMPTY),
        }
    }

    /// Sets `key` of the table at `path` in the storage of mod `mod_index` (see [`Storage::set`]).
    pub(crate) fn store(
        &mut self,
        mod_index: usize,
        path: &[Key],
        key: Key,
        value: Option<Stored>,
    ) -> Result<(), StorageError> {
        let mod_id = &self.content.mods[mod_index].id;
        let all = &mut self.state.storage;
        if !all.contains_key(mod_id) {
            all.insert(mod_id.clone(), Storage::default());
        }
        let storage = all.get_mut(mod_id).expect("inserted if missing");
        let result = storage.set(mod_id, path, key, value);
        // No entry for an empty storage: one form for "nothing stored", and a battle whose
        // scripts store nothing keeps the state hash it had before storage existed.
        if storage.is_empty() {
            all.remove(mod_id);
        }
        result
    }
}
