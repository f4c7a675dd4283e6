//! Barriers: circles on the ground that stop flying shots fired from outside them (the bubble a
//! Protector leaves behind). Shots that fly — straight, homing and ballistic projectiles — cannot
//! hit attackers inside a barrier unless they were fired from inside it too; a straight or homing
//! shot stops where it enters. Hits that do not fly (instant hits, beams, slams, chains) and
//! abilities are not stopped.

use glam::DVec2;

use super::core::Battle;
use super::state::Barrier;

impl Battle {
    /// Raises a barrier that stands for `ticks` ticks.
    pub fn add_barrier(&mut self, barrier: Barrier) {
        if barrier.ticks_left > 0 && barrier.radius > 0.0 {
            self.state.barriers.push(barrier);
        }
    }

    /// The barriers standing now.
    pub fn barriers(&self) -> &[Barrier] {
        &self.state.barriers
    }

    /// Whether a shot fired at `origin` is stopped at `p`: `p` is inside a barrier and `origin`
    /// is not.
    pub(super) fn stopped(&self, origin: DVec2, p: DVec2) -> bool {
        self.state
            .barriers
            .iter()
            .any(|b| b.contains(p) && !b.contains(origin))
    }

    /// Barriers age by a tick; those whose time is up fall.
    pub(super) fn tick_barriers(&mut self) {
        for b in &mut self.state.barriers {
            b.ticks_left -= 1;
        }
        self.state.barriers.retain(|b| b.ticks_left > 0);
    }
}
