//! The instruction budget of a call from the host into Lua.
//!
//! Luau calls an interrupt at every function call, return and loop back-edge. Each interrupt
//! spends one unit; when a call from the host has spent its budget, every further interrupt
//! raises an error, so a script cannot escape by catching it with `pcall` — the next loop
//! iteration or call fails again. Counting interrupts, not time, keeps the outcome the same on
//! every machine; a generous wall-clock ceiling backs it up for the rare case of slow built-in
//! functions running long between interrupts.
//!
//! Nested calls (Lua → host → Lua) share the budget of the outermost call.

use std::cell::Cell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Interrupts between two checks of the wall clock.
const CLOCK_EVERY: u64 = 4096;

/// The budget shared by all the sandboxes of one host.
#[derive(Debug, Default)]
pub struct Budget {
    remaining: Cell<u64>,
    spent: Cell<u64>,
    depth: Cell<u32>,
    wall_clock: Cell<Duration>,
    /// When the clock was first read in the current call; reading it on entry would cost more
    /// than most calls.
    started: Cell<Option<Instant>>,
}

/// Why a budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exhausted {
    /// The instruction budget is spent.
    Instructions,
    /// The wall-clock ceiling passed.
    Time,
}

impl Budget {
    /// A budget with nothing running.
    pub fn new() -> Rc<Budget> {
        Rc::new(Budget::default())
    }

    /// Starts a call from the host. The outermost call sets the budget; nested calls share it.
    pub fn enter(self: &Rc<Self>, instructions: u64, wall_clock: Duration) -> BudgetGuard {
        if self.depth.get() == 0 {
            self.remaining.set(instructions);
            self.spent.set(0);
            self.wall_clock.set(wall_clock);
            self.started.set(None);
        }
        self.depth.set(self.depth.get() + 1);
        BudgetGuard {
            budget: self.clone(),
        }
    }

    /// Spends one unit. Outside any host call the budget is not enforced.
    pub fn spend(&self) -> Result<(), Exhausted> {
        if self.depth.get() == 0 {
            return Ok(());
        }
        let left = self.remaining.get();
        if left == 0 {
            return Err(Exhausted::Instructions);
        }
        self.remaining.set(left - 1);
        let spent = self.spent.get() + 1;
        self.spent.set(spent);
        if spent.is_multiple_of(CLOCK_EVERY) {
            // The clock starts at the first check, a few thousand interrupts in: a negligible
            // part of the ceiling.
            let now = Instant::now();
            let started = *self.started.get().get_or_insert(now);
            self.started.set(Some(started));
            if now.duration_since(started) > self.wall_clock.get() {
                self.remaining.set(0);
                return Err(Exhausted::Time);
            }
        }
        Ok(())
    }

    /// Units spent by the current outermost call.
    pub fn spent(&self) -> u64 {
        self.spent.get()
    }
}

/// Ends a host call when dropped.
pub struct BudgetGuard {
    budget: Rc<Budget>,
}

impl Drop for BudgetGuard {
    fn drop(&mut self) {
        self.budget.depth.set(self.budget.depth.get() - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_calls_share_the_outer_budget() {
        let b = Budget::new();
        assert!(b.spend().is_ok(), "outside a call nothing is counted");
        let outer = b.enter(3, Duration::from_secs(60));
        b.spend().unwrap();
        {
            let _inner = b.enter(1000, Duration::from_secs(60));
            b.spend().unwrap();
        }
        b.spend().unwrap();
        assert_eq!(b.spend(), Err(Exhausted::Instructions));
        assert_eq!(
            b.spend(),
            Err(Exhausted::Instructions),
            "exhaustion is sticky"
        );
        drop(outer);
        let _again = b.enter(1, Duration::from_secs(60));
        assert!(b.spend().is_ok());
    }
}
