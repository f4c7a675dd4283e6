//! What one mod's scripts may do per battle tick, beyond the budget of each single call: how
//! many callbacks they register, how many stay registered, how many instructions all their
//! calls of the tick take together, and how many things they draw and sounds they play.
//!
//! "Instructions" are the interrupts Luau raises at function calls, returns and loop
//! back-edges, counted by the same [`Budget`] that bounds each call, so the count is the same on
//! every machine. A mod that reaches a limit gets one script error naming the limit (which counts
//! toward switching it off, like any other) and its scripts run no more until the next tick;
//! the battle goes on.

use std::cell::RefCell;
use std::rc::Rc;

use rampart_lua::{Budget, ScriptError, ScriptErrorKind};

/// Callbacks one mod's scripts may register in one tick (loading counts as one tick).
pub const MAX_REGISTRATIONS_PER_TICK: u32 = 5_000;

/// Callbacks of one mod's scripts registered at the same time.
pub const MAX_LIVE_REGISTRATIONS: u32 = 50_000;

/// Instructions (interrupts) all of one mod's script calls may take together in one tick.
pub const TICK_INSTRUCTIONS: u64 = 4_000_000;

/// Visuals (`game:draw_line`, `game:draw_ring`, `game:flash`) one mod's scripts may draw in
/// one tick. Past it they are not drawn, with a warning once per battle: drawing changes
/// nothing in the battle, so too much of it is no error.
pub const MAX_VISUALS_PER_TICK: u32 = 64;

/// Sounds (`game:sound`) one mod's scripts may play in one tick. Past it they are not played,
/// with a warning once per battle, as visuals are: a tick is a twentieth of a second, and more
/// than this many sounds at once are noise.
pub const MAX_SOUNDS_PER_TICK: u32 = 16;

/// What scripts put out for the player only — nothing in the battle reads it — counted against
/// the mod's allowance of each per tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shown {
    /// A visual drawn: [`MAX_VISUALS_PER_TICK`].
    Visual,
    /// A sound played: [`MAX_SOUNDS_PER_TICK`].
    Sound,
}

impl Shown {
    /// How many a mod may put out in one tick.
    pub(crate) fn allowance(self) -> u32 {
        match self {
            Shown::Visual => MAX_VISUALS_PER_TICK,
            Shown::Sound => MAX_SOUNDS_PER_TICK,
        }
    }

    /// The warning past the allowance, after the name of the function called.
    pub(crate) fn over(self) -> String {
        let (did, what, not) = match self {
            Shown::Visual => ("drew", "visuals", "shown"),
            Shown::Sound => ("played", "sounds", "played"),
        };
        format!(
            "the mod {did} more than {} {what} in one tick (the limit); the rest of that tick's \
             are not {not} (said once per battle)",
            self.allowance()
        )
    }
}

/// Why a mod's scripts stopped for the rest of a tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Instructions,
    Registrations,
}

/// The per-tick limits of every mod of a battle, by load order.
pub(super) struct TickLimits {
    budget: Rc<Budget>,
    registered: RefCell<Vec<u32>>,
    live: RefCell<Vec<u32>>,
    /// Per mod, the visuals and the sounds of this tick ([`Shown`] as index).
    shown: RefCell<Vec<[u32; 2]>>,
    stopped: RefCell<Vec<Option<Stop>>>,
}

impl TickLimits {
    /// Limits for `mods` mods, counted with `budget` (the budget of their sandboxes).
    pub(super) fn new(mods: usize, budget: Rc<Budget>) -> TickLimits {
        budget.open_accounts(mods, TICK_INSTRUCTIONS);
        TickLimits {
            budget,
            registered: RefCell::new(vec![0; mods]),
            live: RefCell::new(vec![0; mods]),
            shown: RefCell::new(vec![[0; 2]; mods]),
            stopped: RefCell::new(vec![None; mods]),
        }
    }

    /// The budget whose accounts are the mods.
    pub(super) fn budget(&self) -> &Rc<Budget> {
        &self.budget
    }

    /// A new tick: every mod may run and register again.
    pub(super) fn new_tick(&self) {
        self.budget.new_period();
        self.registered.borrow_mut().fill(0);
        self.shown.borrow_mut().fill([0; 2]);
        self.stopped.borrow_mut().fill(None);
    }

    /// Whether the mod's scripts have reached a limit this tick (its calls are then skipped).
    pub(super) fn stopped(&self, mod_index: usize) -> bool {
        self.budget.overdrawn(mod_index)
    }

    /// Counts a registration the mod is about to make; past a limit it is refused and the mod's
    /// scripts stop for the tick.
    pub(super) fn register(&self, mod_index: usize) -> Result<(), String> {
        let live = self.live.borrow().get(mod_index).copied().unwrap_or(0);
        if live >= MAX_LIVE_REGISTRATIONS {
            return Err(format!(
                "the mod already has {MAX_LIVE_REGISTRATIONS} callbacks registered (the limit); \
                 remove some with registration:remove() first"
            ));
        }
        let mut registered = self.registered.borrow_mut();
        let Some(count) = registered.get_mut(mod_index) else {
            return Ok(());
        };
        *count += 1;
        if *count > MAX_REGISTRATIONS_PER_TICK {
            drop(registered);
            self.stop(mod_index, Stop::Registrations);
            return Err(format!(
                "the mod registered more than {MAX_REGISTRATIONS_PER_TICK} callbacks in one tick \
                 (the limit); its scripts are skipped for the rest of this tick"
            ));
        }
        Ok(())
    }

    /// Counts a visual or sound the mod is about to put out; `false` past its allowance this
    /// tick (it is then left out).
    pub(super) fn show(&self, what: Shown, mod_index: usize) -> bool {
        let mut shown = self.shown.borrow_mut();
        let Some(counts) = shown.get_mut(mod_index) else {
            return false;
        };
        let count = &mut counts[what as usize];
        *count = count.saturating_add(1);
        *count <= what.allowance()
    }

    /// A callback of the mod was registered (`true`) or is gone (`false`).
    pub(super) fn count_live(&self, mod_index: usize, added: bool) {
        if let Some(n) = self.live.borrow_mut().get_mut(mod_index) {
            *n = if added { *n + 1 } else { n.saturating_sub(1) };
        }
    }

    fn stop(&self, mod_index: usize, why: Stop) {
        self.budget.close_for_period(mod_index);
        if let Some(s) = self.stopped.borrow_mut().get_mut(mod_index) {
            s.get_or_insert(why);
        }
    }

    /// Rewrites a budget failure caused by the tick's limit (rather than the call's own budget)
    /// so that it names that limit.
    pub(super) fn explain(&self, mod_index: usize, mut error: ScriptError) -> ScriptError {
        if error.kind != ScriptErrorKind::Budget || !self.stopped(mod_index) {
            return error;
        }
        let why = *self
            .stopped
            .borrow_mut()
            .get_mut(mod_index)
            .map_or(&Stop::Instructions, |s| s.get_or_insert(Stop::Instructions));
        error.message = match why {
            Stop::Instructions => format!(
                "the mod's scripts used up their {TICK_INSTRUCTIONS} instructions for this tick \
                 (the limit; instructions are counted at calls, returns and loop iterations); \
                 its scripts are skipped for the rest of this tick"
            ),
            Stop::Registrations => format!(
                "the mod's scripts were stopped for this tick after registering more than \
                 {MAX_REGISTRATIONS_PER_TICK} callbacks (the limit)"
            ),
        };
        error
    }
}
