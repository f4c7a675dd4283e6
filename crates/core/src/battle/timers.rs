//! Callbacks due at a later tick (`game:after`): kept by due tick and creation, so that they fire
//! in the same order in every run, and removed with their owner like chain registrations.
//!
//! Generic over what a timer is called with (the battle), like the chains, so that the battle
//! can keep its timers without this file knowing it.

use std::collections::BTreeMap;

use super::state::Owner;

/// What a timer does when it fires, given `C` (the battle).
pub(crate) type TimerFn<C> = Box<dyn FnOnce(&mut C)>;

/// The pending timers of a battle. Like the chains, they hold callbacks, not state: a battle is
/// saved as its record and played again, which sets them again.
pub(crate) struct Timers<C> {
    /// By (due tick, creation number): the order they fire in.
    pending: BTreeMap<(u64, u64), (Owner, TimerFn<C>)>,
    created: u64,
}

impl<C> Default for Timers<C> {
    fn default() -> Self {
        Timers {
            pending: BTreeMap::new(),
            created: 0,
        }
    }
}

impl<C> Timers<C> {
    /// Adds a timer due at `tick`; its creation number identifies it.
    pub(crate) fn add(&mut self, tick: u64, owner: Owner, fire: TimerFn<C>) -> u64 {
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
    pub(super) fn take_due(&mut self, tick: u64) -> Option<TimerFn<C>> {
        let entry = self.pending.first_entry()?;
        (entry.key().0 <= tick).then(|| entry.remove().1)
    }
}
