//! Callbacks due at a later tick (`game:after`): kept by due tick and creation, so that they fire
//! in the same order in every run, and removed with their owner like chain registrations.

use std::collections::BTreeMap;

use super::{Battle, Owner};

/// What a timer does when it fires.
pub(crate) type TimerFn = Box<dyn FnOnce(&mut Battle)>;

/// The pending timers of a battle. Like the chains, they hold callbacks, not state: a battle is
/// saved as its record and played again, which sets them again.
#[derive(Default)]
pub(crate) struct Timers {
    /// By (due tick, creation number): the order they fire in.
    pending: BTreeMap<(u64, u64), (Owner, TimerFn)>,
    created: u64,
}

impl Timers {
    /// Adds a timer due at `tick`; its creation number identifies it.
    pub(crate) fn add(&mut self, tick: u64, owner: Owner, fire: TimerFn) -> u64 {
        let id = self.created;
        self.created += 1;
        self.pending.insert((tick, id), (owner, fire));
        id
    }

    /// Cancels a timer; false if it has fired or was cancelled already.
    pub(crate) fn remove(&mut self, id: u64) -> bool {
        let key = self.pending.keys().find(|(_, i)| *i == id).copied();
        key.is_some_and(|key| self.pending.remove(&key).is_some())
    }

    /// Cancels every timer `owner` made.
    pub(crate) fn remove_owner(&mut self, owner: Owner) {
        self.pending.retain(|_, (o, _)| *o != owner);
    }

    /// Takes the first timer due at or before `tick`, if any.
    fn take_due(&mut self, tick: u64) -> Option<TimerFn> {
        let entry = self.pending.first_entry()?;
        (entry.key().0 <= tick).then(|| entry.remove().1)
    }
}

impl Battle {
    /// Fires the timers due now, one at a time, so that one a callback sets or cancels is seen
    /// by the rest of this run.
    pub(super) fn fire_timers(&mut self) {
        while let Some(fire) = self.timers.take_due(self.state.tick) {
            fire(self);
        }
    }
}
