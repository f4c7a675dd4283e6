//! What a battle tells its host: the log ([`LogEntry`], [`LogKind`]), and the record of script
//! errors — each distinct one once with its count — and of scripts switched off. Neither is in
//! the state hash: they record what happened and change nothing.

use std::collections::HashMap;
use std::fmt;

use super::entity::{EntityId, EntityKind, Lasting, Position};
use super::state::PlayerCommand;
use super::visuals::Visual;
use crate::content::{BlueprintId, DamageTypes};
use rampart_lua::ScriptError;

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
    /// same error again is counted in `Battle::script_error_counts`.
    ScriptError(ScriptError),
    /// A script failed too often and was switched off for this battle; the mod's other scripts
    /// go on.
    ScriptDisabled(ScriptDisabled),
    /// The battle reached [`MAX_ENTITIES`](super::state::MAX_ENTITIES): attackers that would have
    /// appeared beyond it (from waves, deaths or scripts) did not. Logged once per battle.
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
    /// A script played a sound for the player to hear (`game:sound`); nothing in the battle
    /// reads it. Not logged while the battle is only looked at.
    Sound {
        /// The sound's id, `mod:name` (a sound of `ContentDb::sounds`).
        sound: String,
        /// Where, in the battle's coordinates; `None` for a sound heard alike everywhere.
        at: Option<Position>,
        /// The mod whose script played it.
        by_mod: String,
    },
    /// A `Blast` ability's blast landed, where it was used (the ability is gone after it): for
    /// what the player sees and hears of it even when it hits nothing.
    Blast {
        /// The ability.
        ability: EntityId,
        /// Its blueprint.
        blueprint: BlueprintId,
        /// Where it landed.
        at: Position,
    },
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

/// Failures after which a script is switched off for the rest of the battle.
pub const MAX_SCRIPT_FAILURES: u32 = 10;

/// A script error and how many times it happened in the battle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportedError {
    /// The error, as it first happened.
    pub error: ScriptError,
    /// How many times it happened, the first included.
    pub times: u32,
}

impl fmt::Display for ReportedError {
    /// The error, and after it how many times it happened again, if it did.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.error)?;
        match self.times {
            0 | 1 => Ok(()),
            2 => write!(f, " … repeated once"),
            n => write!(f, " … repeated {} times", n - 1),
        }
    }
}

/// The script errors of a battle: each distinct error (same mod, file, line, kind and
/// message) once, with its count, in the order they first happened. Kept instead of every
/// occurrence so that a script failing on every tick does not bury the other errors.
#[derive(Clone, Debug, Default)]
pub(crate) struct ErrorRecord {
    list: Vec<ReportedError>,
    /// Where each error is in `list` (looked up only, never iterated: the order is `list`'s).
    index: HashMap<ScriptError, usize>,
}

impl ErrorRecord {
    /// Counts `times` more of `error`; returns how many there are now.
    pub(crate) fn add(&mut self, error: ScriptError, times: u32) -> u32 {
        match self.index.get(&error) {
            Some(&i) => {
                self.list[i].times += times;
                self.list[i].times
            }
            None => {
                self.index.insert(error.clone(), self.list.len());
                self.list.push(ReportedError { error, times });
                times
            }
        }
    }

    /// Adds every error of `other` after this record's own.
    pub(crate) fn append(&mut self, other: ErrorRecord) {
        for r in other.list {
            self.add(r.error, r.times);
        }
    }

    /// The errors in the order they first happened.
    pub(crate) fn errors(&self) -> &[ReportedError] {
        &self.list
    }
}

/// A script switched off for the rest of a battle after [`MAX_SCRIPT_FAILURES`] failures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptDisabled {
    /// The script's mod.
    pub mod_id: String,
    /// The script, relative to the mod's folder (`scripts/tower.lua`).
    pub file: String,
    /// The error that switched it off (its last).
    pub reason: ScriptError,
}

impl fmt::Display for ScriptDisabled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "[{}] {} is switched off for the rest of the battle after {MAX_SCRIPT_FAILURES} \
             script errors; the last was: {}",
            self.mod_id, self.file, self.reason
        )
    }
}
