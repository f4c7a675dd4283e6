//! The module's face: every public name of the battle, re-exported from the file that defines
//! it, and [`Battle::new`], which puts a battle together from its layers — the state, the
//! engine's rules on the chains, the augments, and the scripts on top. Inside, the files are
//! layered: plain data at the bottom (`state.rs`, `entity.rs`, `payloads.rs`, `log.rs`, …), the
//! chains and the battle itself (`chains.rs`, `core.rs`) above them, the rules above those, and
//! the Lua edge (`scripting/`) on top; each file imports only from below it.

mod augments;
pub mod chains;
mod combat;
mod core;
mod costs;
mod coverage;
mod economy;
pub mod effects;
pub mod entity;
pub mod field;
mod lifecycle;
mod log;
mod mod_chains;
mod payloads;
mod plain;
pub mod preview;
mod questions;
pub mod reload;
mod rules;
pub mod scripting;
pub mod shape;
mod spatial;
mod state;
pub mod storage;
mod timers;
pub mod visuals;

use std::collections::BTreeMap;
use std::sync::Arc;

use slotmap::SlotMap;

use crate::content::{BlueprintId, ContentDb};

pub use self::core::{Battle, Chains, Cmd, Evt, Qry};
pub use chains::ChainKind;
pub use costs::{Cost, CostReport, CostRow, ScriptCosts};
pub use economy::Payment;
pub use entity::{
    Effect, Entity, EntityId, EntityKind, Lasting, Position, Route, Stacking, TowerState,
};
pub use field::Field;
pub use log::{LogEntry, LogKind, ReportedError, Resource, ScriptDisabled};
pub use payloads::{Damage, Domain, EntityEvent, Gain, Heal, HullDamage, Signal, StatOf, Wave};
pub use preview::SegmentCover;
pub use questions::BlueprintView;
pub use scripting::ScriptHost;
pub use scripting::api::{Access, DEPRECATED, Deprecated, TableField};
pub use scripting::chains::{ChainInfo, chain_kind};
pub use scripting::payload::LuaShape;
pub use state::{
    Barrier, BattleConfig, BattleState, Delayed, MAX_CHAIN_DEPTH, MAX_ENTITIES, Owner, Phase,
    Player, PlayerCommand, ScheduleError, Scope, Shot, ShotKind, SpawnAt, Start, TypeTally,
    WaveSpawn, WaveSpawns,
};
pub use storage::{STORAGE_DEPTH, STORAGE_LIMIT, Storage};
pub use visuals::{Figure, Visual};

pub use crate::TICKS_PER_SECOND;

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
            script_errors: log::ErrorRecord::default(),
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
}
