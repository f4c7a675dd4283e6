//! What mod scripts cost a battle, per mod and per script: the calls into Lua, the instructions
//! they ran and, when asked for, the wall time they took — what a modder looks at to find the
//! script that makes a battle slow.
//!
//! Instructions are the interrupts the [`Budget`](rampart_lua::Budget) counts (function calls,
//! returns, loop back-edges), so calls and instructions are the same on every machine and in
//! every run of the same battle. Wall time is measured only while a person looks at it
//! (`Battle::time_scripts`): it never reaches the battle's
//! state, its hash or any decision.
//!
//! Costs are counted at the boundaries of calls — when the guard that lends the battle to Lua
//! is made and when it ends — not at every interrupt: the budget's running total is read there.
//! A call is charged to the script its function belongs to (the file it was defined in, see
//! [`failures`](super::failures)); a call nested in it (a script's command whose chain calls
//! another script) is charged to its own script, not the outer one, so each instruction
//! counts once.

use std::cell::{Cell, RefCell};
use std::time::{Duration, Instant};

use super::failures::ScriptId;

pub use super::super::costs::{Cost, CostReport, CostRow, ScriptCosts};

/// One script's cost as the meter keeps it: plain integers, since this is added to at every
/// call (a `Duration`'s sum checks for overflow and carries nanoseconds into seconds).
#[derive(Clone, Copy, Default)]
struct Tally {
    calls: u64,
    instructions: u64,
    nanos: u64,
}

/// Counts each script's cost at the boundaries of its calls; kept in the host's shared state.
///
/// Whenever a call starts or ends, what ran since the last boundary is charged to the script
/// that was running: a call nested in another one charges the outer script up to its start and
/// itself up to its end, and the outer script then runs on from there.
#[derive(Default)]
pub(super) struct Meter {
    /// By script id.
    tallies: RefCell<Vec<Tally>>,
    /// The script whose call runs now, and the budget's running total at the last boundary.
    running: Cell<Option<(ScriptId, u64)>>,
    /// The clock at the last boundary, while calls are timed.
    clock: Cell<Option<Instant>>,
    /// Whether calls are timed.
    timed: Cell<bool>,
}

/// The script a metered call interrupted, which runs on when the call ends.
#[derive(Clone, Copy)]
pub(super) struct Resume(Option<ScriptId>);

impl Meter {
    /// Starts timing calls (`true`) or stops (`false`).
    pub(super) fn time(&self, on: bool) {
        self.timed.set(on);
        self.clock.set(None);
    }

    /// A call of `script` starts; `executed` is the budget's running total.
    pub(super) fn start(&self, script: ScriptId, executed: u64) -> Resume {
        let interrupted = self.running.replace(Some((script, executed)));
        if let Some((outer, mark)) = interrupted {
            self.charge(outer, 0, executed - mark);
        } else if self.timed.get() {
            self.clock.set(Some(Instant::now()));
        }
        Resume(interrupted.map(|(outer, _)| outer))
    }

    /// The call that `start` gave `resume` for ends; `executed` is the budget's running total.
    pub(super) fn end(&self, resume: Resume, executed: u64) {
        let running = self
            .running
            .replace(resume.0.map(|outer| (outer, executed)));
        if let Some((script, mark)) = running {
            self.charge(script, 1, executed - mark);
        }
    }

    /// Charges `script` with `calls` calls, `instructions` instructions and, while timing, the
    /// time since the last boundary.
    fn charge(&self, script: ScriptId, calls: u64, instructions: u64) {
        let mut tallies = self.tallies.borrow_mut();
        let i = script.index();
        if i >= tallies.len() {
            tallies.resize(i + 1, Tally::default());
        }
        let tally = &mut tallies[i];
        tally.calls += calls;
        tally.instructions += instructions;
        if self.timed.get() {
            let now = Instant::now();
            if let Some(before) = self.clock.replace(Some(now)) {
                let nanos = now.duration_since(before).as_nanos();
                tally.nanos += u64::try_from(nanos).unwrap_or(u64::MAX);
            }
        }
    }

    /// The cost of script `script` so far.
    pub(super) fn cost(&self, script: ScriptId) -> Cost {
        let tally = self
            .tallies
            .borrow()
            .get(script.index())
            .copied()
            .unwrap_or_default();
        Cost {
            calls: tally.calls,
            instructions: tally.instructions,
            wall: Duration::from_nanos(tally.nanos),
        }
    }
}
