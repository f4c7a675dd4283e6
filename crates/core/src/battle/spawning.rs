//! Waves: starting them, sending their attackers in at the path starts, and ending them when
//! everything has been sent and nothing is left alive — or when they make no progress for the
//! level's `stall_ticks`, so that no wave runs forever.

use super::payloads::Wave;
use slotmap::Key;

use super::core::Battle;
use super::entity::{EntityId, EntityKind, Position, Route};
use super::log::LogKind;
use super::state::{Phase, PlayerCommand, SpawnAt};
use crate::chain::Outcome;
use crate::content::AttackerId;

/// How far from the origin a point may be in a battle without a world, in tiles.
const OFF_WORLD_REACH: f64 = 1024.0;

impl Battle {
    /// Checks a point a script asked to spawn an attacker at: finite, and in the world (or, in
    /// a battle without one, within [`OFF_WORLD_REACH`] tiles of the origin).
    pub(crate) fn spawn_point(&self, x: f64, y: f64) -> Result<Position, String> {
        if !x.is_finite() || !y.is_finite() {
            return Err(format!("the point ({x}, {y}) is not a finite position"));
        }
        let (lo, hi) = match &self.field {
            // Tile centres are whole numbers; a tile reaches half a tile around its centre.
            Some(field) => {
                let grid = field.world().grid;
                (
                    (-0.5, -0.5),
                    (f64::from(grid.width) - 0.5, f64::from(grid.height) - 0.5),
                )
            }
            None => (
                (-OFF_WORLD_REACH, -OFF_WORLD_REACH),
                (OFF_WORLD_REACH, OFF_WORLD_REACH),
            ),
        };
        if x < lo.0 || x > hi.0 || y < lo.1 || y > hi.1 {
            return Err(format!(
                "the point ({x}, {y}) is outside the world (x from {} to {}, y from {} to {})",
                lo.0, hi.0, lo.1, hi.1
            ));
        }
        Ok(Position { x, y })
    }

    /// Starts the next wave through the `start_wave` command (which content may cancel).
    pub(super) fn start_wave(&mut self) -> Result<(), String> {
        if self.state.phase == Phase::Build
            && self.state.wave as usize >= self.config.start.waves.len()
            && !self.config.start.waves.is_empty()
        {
            return Err("there are no more waves".into());
        }
        let wave = Wave {
            wave: self.state.wave + 1,
        };
        match self.command(|b| &b.chains.start_wave, wave) {
            Outcome::Applied(_) => Ok(()),
            Outcome::Cancelled => Err(match self.state.phase {
                Phase::Wave => "a wave is already running".into(),
                Phase::Won | Phase::Lost => "the battle is over".into(),
                Phase::Build => "the wave was held back".into(),
            }),
        }
    }

    /// Queues the attackers of wave `number` (from 1), relative to the current tick.
    pub(super) fn queue_wave(&mut self, number: u32) {
        let Some(wave) = self.config.start.waves.get(number as usize - 1).cloned() else {
            return;
        };
        let now = self.state.tick;
        for spawn in wave.spawns {
            match self.content.attacker_id(&spawn.attacker) {
                Some(id) => {
                    self.schedule_spawn(now + u64::from(spawn.delay), id, SpawnAt::Path(spawn.path))
                }
                None => self.push_log(LogKind::Refused {
                    command: PlayerCommand::StartWave,
                    reason: format!(
                        "wave {number} names an unknown attacker type `{}`",
                        spawn.attacker
                    ),
                }),
            }
        }
    }

    /// Ends the running wave when everything has been sent and no attacker is left.
    pub(super) fn end_wave_if_over(&mut self) {
        let anyone = self
            .state
            .entities
            .values()
            .any(|e| matches!(e.kind, EntityKind::Attacker(_)));
        if self.state.phase == Phase::Wave && self.state.spawns.is_empty() && !anyone {
            self.finish_wave();
        }
    }

    /// Ends the running wave if its attackers have made no progress for the level's
    /// `stall_ticks`: none appeared, died, left, moved closer or was damaged. Attackers waiting
    /// for a wave's next spawn with none alive are not stalled. The attackers left are taken
    /// away, queued ones dropped, and the log says so.
    pub(super) fn end_wave_if_stalled(&mut self) {
        let progressed = std::mem::take(&mut self.progressed);
        let roster = self
            .state
            .entities
            .iter()
            .filter(|(_, e)| matches!(e.kind, EntityKind::Attacker(_)))
            .fold((0usize, 0u64), |(n, sum), (id, _)| {
                (n + 1, sum.wrapping_add(id.data().as_ffi()))
            });
        let changed = std::mem::replace(&mut self.roster, roster) != roster;
        if self.state.phase != Phase::Wave || roster.0 == 0 || progressed || changed {
            self.stalled_for = 0;
            return;
        }
        self.stalled_for += 1;
        let limit = self
            .content
            .levels
            .as_ref()
            .map_or(crate::content::levels::DEFAULT_STALL_TICKS, |l| {
                l.stall_ticks
            })
            .max(1);
        if self.stalled_for < limit {
            return;
        }
        let attackers: Vec<EntityId> = self
            .state
            .entities
            .iter()
            .filter(|(_, e)| matches!(e.kind, EntityKind::Attacker(_)))
            .map(|(id, _)| id)
            .collect();
        self.push_log(LogKind::WaveStalled {
            wave: self.state.wave,
            ticks: self.stalled_for,
            attackers: attackers.len(),
        });
        for id in attackers {
            self.destroy(id);
        }
        self.state.spawns.clear();
        self.stalled_for = 0;
        self.finish_wave();
    }

    /// Ends the running wave: back to building, and `wave_finished` fires (production and
    /// cooldowns react to it).
    pub fn finish_wave(&mut self) {
        if self.state.phase != Phase::Wave {
            return;
        }
        self.state.phase = Phase::Build;
        self.wave_ended = true;
        let wave = Wave {
            wave: self.state.wave,
        };
        self.emit(|b| &b.chains.wave_finished, &wave);
    }

    /// Brings a queued attacker in.
    pub(super) fn spawn(&mut self, attacker: AttackerId, at: SpawnAt) -> Option<EntityId> {
        if !self.room_for_attacker() {
            return None;
        }
        match at {
            SpawnAt::Point(p) => Some(self.spawn_attacker(attacker, p)),
            SpawnAt::Route(route) => {
                let p = self
                    .field
                    .as_ref()?
                    .along_flat(route.segment, route.progress);
                Some(self.spawn_attacker_at(attacker, Position { x: p.x, y: p.y }, Some(route)))
            }
            SpawnAt::Path(n) => {
                let field = self.field.clone()?;
                let segment = field.entry(n)?;
                let p = field.along_flat(segment, 0.0);
                let route = Route {
                    segment,
                    progress: 0.0,
                };
                Some(self.spawn_attacker_at(attacker, Position { x: p.x, y: p.y }, Some(route)))
            }
        }
    }
}
