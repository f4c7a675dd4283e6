//! Battle records: everything needed to play a battle again — the mods, the level, the player's
//! stamped commands — and the state hashes it reached, so that playing it again checks that the
//! simulation is still deterministic.
//!
//! The state hash is the serialised battle state, so a new field in it changes every recorded
//! hash; so does a change to the record's own shape. Either bumps [`FORMAT`], and the record
//! checked in under `tests/fixtures/replay/` is made again on purpose.
//!
//! The format is documented field by field for modders in `docs/modding/records.md`, whose
//! example `crates/rampart/tests/cli/replay.rs` replays.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{LevelSetup, SetupError};
use crate::battle::{Battle, LogEntry, LogKind, PlayerCommand};
use crate::content::ContentDb;

/// The version of the record format: 2 since the battle's starting values are one `start`.
/// (A `null` end hash, for records written by hand, is format 2 too: records written by the game
/// are unchanged, and every format-2 record reads as before. So is `start.storage`, the mods'
/// storage: left out when empty, and then the state hash is what it was without it.)
pub const FORMAT: u32 = 2;

/// The longest battle a record may hold, in ticks: 1 000 000 ticks are almost 14 hours of play
/// (a level has at most 200 waves). Replaying costs as long as the battle, so a record cannot ask
/// for more.
pub const MAX_TICKS: u64 = 1_000_000;

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
    /// The tick the recording stopped at, and the state hash there. A record written by hand
    /// may leave the hash out (`null`): it is played to that tick without a final check, and the
    /// hash reached there can be written in afterwards.
    pub end: (u64, Option<u64>),
}

/// A command the battle refused while a record was played, with the battle's reason — the words
/// the client shows the player.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The tick it was refused at.
    pub tick: u64,
    /// The command, as the record has it.
    pub command: PlayerCommand,
    /// Why, in words for the player.
    pub reason: String,
}

impl Refusal {
    /// The commands the battle refused in `log`, in order, with its reasons.
    pub fn in_log(log: &[LogEntry]) -> impl Iterator<Item = Refusal> + '_ {
        log.iter().filter_map(|entry| match &entry.kind {
            LogKind::Refused { command, reason } => Some(Refusal {
                tick: entry.tick,
                command: command.clone(),
                reason: reason.clone(),
            }),
            _ => None,
        })
    }
}

/// Where a replay went differently.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ReplayError {
    /// The level could not be set up.
    #[error("the level cannot be set up: {0}")]
    Setup(#[from] SetupError),
    /// A recorded command is stamped before the one it follows.
    #[error("the record is out of order: {0}")]
    Order(String),
    /// The record has a format this build does not read.
    #[error("the record is format {0}; this build reads format {FORMAT}")]
    Format(u32),
    /// The record contradicts itself or asks for more than a record may.
    #[error("the record's `{field}` {problem}")]
    Malformed {
        /// The field at fault.
        field: &'static str,
        /// What is wrong with it.
        problem: String,
    },
    /// The recording has a wave ending at a tick where the replay has none.
    #[error(
        "at tick {tick} the recording has a wave ending (state hash {expected:016x}); the replay has none there (its state hash is {found:016x})"
    )]
    NoWaveEnd {
        /// The tick.
        tick: u64,
        /// The recorded hash.
        expected: u64,
        /// The replay's state hash after that tick.
        found: u64,
    },
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
            end: (battle.tick(), Some(battle.state_hash())),
        }
    }

    /// Plays the record again with `content`, checking every checkpoint and the end. Returns how
    /// many hashes matched.
    pub fn verify(&self, content: &Arc<ContentDb>) -> Result<usize, ReplayError> {
        self.play(content).map(|(_, matched)| matched)
    }

    /// Plays the record again with `content` up to where it stopped, checking every checkpoint
    /// and the end: the battle as it was when recorded, and how many hashes matched.
    pub fn play(&self, content: &Arc<ContentDb>) -> Result<(Battle, usize), ReplayError> {
        self.play_noting(content, &mut Vec::new())
    }

    /// [`Replay::play`], pushing every command the battle refuses onto `refused` as it happens —
    /// so a replay that stops at a difference still tells what was refused before it. The
    /// battle's log says what it refused and why; nothing here judges a command.
    pub fn play_noting(
        &self,
        content: &Arc<ContentDb>,
        refused: &mut Vec<Refusal>,
    ) -> Result<(Battle, usize), ReplayError> {
        if self.format != FORMAT {
            return Err(ReplayError::Format(self.format));
        }
        self.check()?;
        let mut battle = self.setup.start(content)?;
        for (tick, command) in &self.commands {
            battle
                .schedule(*tick, command.clone())
                .map_err(|e| ReplayError::Order(e.to_string()))?;
        }
        let mut checks = self.checkpoints.iter().peekable();
        let mut matched = 0;
        let mut logged = 0;
        while battle.tick() < self.end.0 {
            battle.step();
            let log = battle.log();
            refused.extend(Refusal::in_log(&log[logged..]));
            logged = log.len();
            while let Some(&&(tick, expected)) = checks.peek() {
                if tick >= battle.tick() {
                    break;
                }
                checks.next();
                let found = battle
                    .checkpoints()
                    .iter()
                    .find(|(t, _)| *t == tick)
                    .map(|(_, h)| *h);
                match found {
                    Some(found) if found != expected => {
                        return Err(ReplayError::Diverged {
                            tick,
                            expected,
                            found,
                        });
                    }
                    Some(_) => {}
                    None => {
                        return Err(ReplayError::NoWaveEnd {
                            tick,
                            expected,
                            found: battle.state_hash(),
                        });
                    }
                }
                matched += 1;
            }
        }
        let found = battle.state_hash();
        match self.end.1 {
            Some(expected) if expected != found => Err(ReplayError::Diverged {
                tick: self.end.0,
                expected,
                found,
            }),
            Some(_) => Ok((battle, matched + 1)),
            None => Ok((battle, matched)),
        }
    }

    /// Whether the record is consistent with itself and within [`MAX_TICKS`], before anything is
    /// played: a record read from a file may say anything.
    fn check(&self) -> Result<(), ReplayError> {
        let malformed = |field, problem: String| Err(ReplayError::Malformed { field, problem });
        let end = self.end.0;
        if end > MAX_TICKS {
            return malformed(
                "end",
                format!(
                    "tick {end} is past the longest battle a record may hold ({MAX_TICKS} ticks)"
                ),
            );
        }
        if let Some((tick, _)) = self.commands.iter().find(|(t, _)| *t > end) {
            return malformed(
                "commands",
                format!("has a command at tick {tick}, after the recording's end at tick {end}"),
            );
        }
        if let Some((tick, _)) = self.checkpoints.iter().find(|(t, _)| *t > end) {
            return malformed(
                "checkpoints",
                format!(
                    "has a wave ending at tick {tick}, after the recording's end at tick {end}"
                ),
            );
        }
        for (mod_id, storage) in &self.setup.start.storage {
            if let Err(problem) = storage.check() {
                return malformed(
                    "setup.start.storage",
                    format!("of mod `{mod_id}` {problem}"),
                );
            }
        }
        if let Some(pair) = self.checkpoints.windows(2).find(|w| w[0].0 >= w[1].0) {
            return malformed(
                "checkpoints",
                format!(
                    "are not in order of their ticks ({} then {})",
                    pair[0].0, pair[1].0
                ),
            );
        }
        Ok(())
    }
}
