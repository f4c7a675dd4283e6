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
//!
//! On top of that, the host may give each of several *accounts* (one per mod) an allowance per
//! *period* (a battle tick): every interrupt is also charged to the account whose code runs,
//! and once an account has spent its allowance every further interrupt of its code fails until
//! the host starts the next period. This bounds the total a mod's scripts run per tick, however
//! many calls it is spread over.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Interrupts between two checks of the wall clock.
const CLOCK_EVERY: u64 = 4096;

/// The budget shared by all the sandboxes of one host.
#[derive(Debug, Default)]
pub struct Budget {
    remaining: Cell<u64>,
    spent: Cell<u64>,
    /// Units spent by the outermost calls before the current one: added up when a call
    /// starts, so that [`Budget::executed`] costs nothing per interrupt.
    earlier: Cell<u64>,
    depth: Cell<u32>,
    wall_clock: Cell<Duration>,
    /// When the clock was first read in the current call; reading it on entry would cost more
    /// than most calls.
    started: Cell<Option<Instant>>,
    /// The allowance of every account per period.
    allowance: Cell<u64>,
    /// What each account has spent this period.
    accounts: RefCell<Vec<u64>>,
    /// The account whose code runs now, if any.
    account: Cell<Option<usize>>,
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
    pub fn enter(&self, instructions: u64, wall_clock: Duration) -> BudgetGuard<'_> {
        if self.depth.get() == 0 {
            self.remaining.set(instructions);
            self.earlier.set(self.earlier.get() + self.spent.get());
            self.spent.set(0);
            self.wall_clock.set(wall_clock);
            self.started.set(None);
        }
        self.depth.set(self.depth.get() + 1);
        BudgetGuard { budget: self }
    }

    /// Sets up `accounts` accounts, each allowed `allowance` units per period.
    pub fn open_accounts(&self, accounts: usize, allowance: u64) {
        self.allowance.set(allowance);
        *self.accounts.borrow_mut() = vec![0; accounts];
    }

    /// Starts a new period: every account has its whole allowance again.
    pub fn new_period(&self) {
        self.accounts.borrow_mut().fill(0);
    }

    /// Charges what runs from now on to `account` (`None`: to no account); returns the account
    /// charged before, for the caller to put back when its call ends.
    pub fn set_account(&self, account: Option<usize>) -> Option<usize> {
        self.account.replace(account)
    }

    /// Whether `account` has spent its allowance for this period.
    pub fn overdrawn(&self, account: usize) -> bool {
        self.accounts
            .borrow()
            .get(account)
            .is_some_and(|&spent| spent >= self.allowance.get())
    }

    /// Spends what is left of `account`'s allowance this period, so its code runs no more.
    pub fn close_for_period(&self, account: usize) {
        if let Some(spent) = self.accounts.borrow_mut().get_mut(account) {
            *spent = (*spent).max(self.allowance.get());
        }
    }

    /// The allowance of each account per period.
    pub fn allowance(&self) -> u64 {
        self.allowance.get()
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
        if let Some(account) = self.account.get() {
            let mut accounts = self.accounts.borrow_mut();
            if let Some(spent) = accounts.get_mut(account) {
                if *spent >= self.allowance.get() {
                    return Err(Exhausted::Instructions);
                }
                *spent += 1;
            }
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

    /// Spends one unit if that is all there is to do: inside a host call, with budget and
    /// allowance left and no clock check due. Otherwise spends nothing and returns `false`, and
    /// [`Budget::spend`] decides. The interrupt's quick path, which skips mlua's callback wrapper.
    pub fn spend_quick(&self) -> bool {
        let left = self.remaining.get();
        let spent = self.spent.get() + 1;
        if self.depth.get() == 0 || left == 0 || spent.is_multiple_of(CLOCK_EVERY) {
            return false;
        }
        if let Some(account) = self.account.get() {
            let mut accounts = self.accounts.borrow_mut();
            match accounts.get_mut(account) {
                Some(used) if *used < self.allowance.get() => *used += 1,
                _ => return false,
            }
        }
        self.remaining.set(left - 1);
        self.spent.set(spent);
        true
    }

    /// Units spent by the current outermost call.
    pub fn spent(&self) -> u64 {
        self.spent.get()
    }

    /// Units spent by every call since the budget was made: it only grows, so the difference
    /// of two readings is what ran in between (what a host reads at the start and end of a call
    /// to know what that call cost).
    pub fn executed(&self) -> u64 {
        self.earlier.get() + self.spent.get()
    }
}

/// Ends a host call when dropped.
pub struct BudgetGuard<'a> {
    budget: &'a Budget,
}

impl Drop for BudgetGuard<'_> {
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

    #[test]
    fn executed_counts_every_call_and_only_grows() {
        let b = Budget::new();
        assert_eq!(b.executed(), 0);
        for expected in [2, 4] {
            let _call = b.enter(1000, Duration::from_secs(60));
            b.spend().unwrap();
            assert!(b.spend_quick());
            assert_eq!(b.executed(), expected);
        }
        let before = b.executed();
        let _call = b.enter(1000, Duration::from_secs(60));
        assert_eq!(
            b.executed(),
            before,
            "a new call keeps what earlier calls spent"
        );
        b.spend().unwrap();
        assert_eq!(b.executed(), before + 1);
    }

    #[test]
    fn accounts_are_charged_per_period_across_calls() {
        let b = Budget::new();
        b.open_accounts(2, 3);
        let spend_in_call = |account| {
            let _call = b.enter(1000, Duration::from_secs(60));
            let previous = b.set_account(Some(account));
            let spent = b.spend();
            b.set_account(previous);
            spent
        };
        for _ in 0..3 {
            spend_in_call(0).unwrap();
        }
        assert_eq!(
            spend_in_call(0),
            Err(Exhausted::Instructions),
            "the allowance spans calls"
        );
        assert!(b.overdrawn(0));
        assert!(spend_in_call(1).is_ok(), "accounts are separate");
        b.close_for_period(1);
        assert_eq!(spend_in_call(1), Err(Exhausted::Instructions));
        b.new_period();
        assert!(!b.overdrawn(0) && !b.overdrawn(1));
        assert!(spend_in_call(0).is_ok());
    }
}
