//! Lending the battle to Lua: the one `unsafe` of the scripting layer, and why it is sound.
//!
//! Chains call their callbacks with `&mut Battle`; a Lua callback in turn calls back into the
//! battle through the `game` API, which Lua can only reach through state kept in the VM. While
//! the host runs Lua it lends the battle to the API through a pointer kept in [`HostShared`]
//! ([`HostShared::activate`]): the pointer is set from the `&mut Battle` the host was given,
//! only for the duration of the call, and the guard that holds it keeps that `&mut Battle`
//! borrowed, so nothing else can touch the battle meanwhile. Nested calls (Lua → battle → Lua)
//! lend the reborrowed battle again and restore the outer pointer afterwards, so the API always
//! sees the innermost borrow.
//!
//! The same shared state counts each script's failures and switches a script off after
//! [`MAX_SCRIPT_FAILURES`](super::failures::MAX_SCRIPT_FAILURES) ([`Budgets`]), and keeps
//! each mod's limits per tick ([`TickLimits`]): whose account the instructions of a call are
//! charged to is set along with the lent battle, and what each call costs is counted when
//! its guard ends ([`Meter`]).

use std::cell::{Cell, RefCell};
use std::collections::BTreeSet;
use std::marker::PhantomData;
use std::rc::{Rc, Weak};
use std::sync::Arc;

use mlua::Lua;

use super::super::core::Battle;
use super::super::log::LogKind;
use super::super::state::Owner;
use super::api::handles::HandleCache;
use super::cost::{Meter, Resume};
use super::failures::{Budgets, ScriptDisabled, ScriptId};
use super::limits::TickLimits;
use crate::content::ContentDb;
use rampart_lua::{Budget, Sandbox, ScriptError, ScriptErrorKind, caller_location};

/// Different warnings given per battle before the rest are not shown ([`HostShared::warn_once`]).
pub(crate) const MAX_WARNINGS: usize = 100;

/// State shared by the host and every VM it made.
pub(crate) struct HostShared {
    battle: Cell<*mut Battle>,
    owner: Cell<Option<Owner>>,
    loading: Cell<bool>,
    /// Each script's failures.
    pub(super) budgets: Budgets,
    /// The keys of the warnings given this battle, so that each is given once.
    warned: RefCell<BTreeSet<String>>,
    /// What each mod's scripts may still do this tick.
    pub(super) limits: TickLimits,
    /// What each script's calls cost.
    pub(super) meter: Meter,
    /// Errors raised with no battle to log them in (under `rampart check`).
    pub(super) unlogged: RefCell<Vec<ScriptError>>,
    /// The content the scripts belong to: what registrations are checked against, with or
    /// without a battle.
    pub(super) content: Arc<ContentDb>,
}

/// Lends a battle to the script API; dropping it takes the battle back.
pub(super) struct Active<'a> {
    shared: &'a HostShared,
    previous: (*mut Battle, Option<Owner>, Option<usize>),
    /// The script this call interrupted, for the meter.
    resume: Resume,
    _battle: PhantomData<&'a mut Battle>,
}

impl Drop for Active<'_> {
    fn drop(&mut self) {
        self.shared.battle.set(self.previous.0);
        self.shared.owner.set(self.previous.1);
        let budget = self.shared.limits.budget();
        budget.set_account(self.previous.2);
        self.shared.meter.end(self.resume, budget.executed());
    }
}

impl HostShared {
    pub(super) fn new(content: Arc<ContentDb>, budget: Rc<Budget>) -> Rc<HostShared> {
        let mods = content.mods.len();
        Rc::new(HostShared {
            battle: Cell::new(std::ptr::null_mut()),
            owner: Cell::new(None),
            loading: Cell::new(false),
            budgets: Budgets::default(),
            warned: RefCell::new(BTreeSet::new()),
            limits: TickLimits::new(mods, budget),
            meter: Meter::default(),
            unlogged: RefCell::new(Vec::new()),
            content,
        })
    }

    /// Lends `battle` to scripts for as long as the guard lives, for a call of `script`;
    /// `owner` owns what they register, the instructions they take are charged to the tick's
    /// allowance of mod `account`, and the call's cost to `script`.
    pub(super) fn activate<'a>(
        &'a self,
        battle: &'a mut Battle,
        script: ScriptId,
        owner: Owner,
        account: Option<usize>,
    ) -> Active<'a> {
        let budget = self.limits.budget();
        let previous = (
            self.battle.replace(battle as *mut Battle),
            self.owner.replace(Some(owner)),
            budget.set_account(account),
        );
        Active {
            shared: self,
            previous,
            resume: self.meter.start(script, budget.executed()),
            _battle: PhantomData,
        }
    }

    /// Runs `f` with the battle currently lent to scripts, if any.
    pub(crate) fn with_battle<R>(&self, f: impl FnOnce(Option<&mut Battle>) -> R) -> R {
        let ptr = self.battle.get();
        // SAFETY: the pointer is only non-null while an `Active` guard lives, and that guard
        // holds the `&mut Battle` it came from borrowed, so the battle is alive and nothing else
        // accesses it. Nested API calls reborrow from this reference and lend it on in turn.
        f(unsafe { ptr.as_mut() })
    }

    /// Who owns what scripts register now, if a call is running.
    pub(super) fn owner(&self) -> Option<Owner> {
        self.owner.get()
    }

    /// Sets the owner of what top-level chunks register, outside a battle (`rampart check`).
    pub(super) fn set_owner(&self, owner: Owner) {
        self.owner.set(Some(owner));
    }

    /// Whether top-level chunks are running (only registrations are allowed then).
    pub(crate) fn is_loading(&self) -> bool {
        self.loading.get()
    }

    /// Marks top-level chunks as running or not.
    pub(super) fn set_loading(&self, loading: bool) {
        self.loading.set(loading);
    }

    /// Whether a script may run now: not switched off, and its mod not stopped for this tick
    /// by one of its limits.
    pub(super) fn may_run(&self, script: ScriptId) -> bool {
        !self.budgets.is_off(script) && !self.limits.stopped(self.budgets.mod_index(script))
    }

    /// Records a failure of `script`: in the battle's record and log if there is a battle, and
    /// toward switching the script off. Failures while the battle is only being looked at count
    /// for nothing.
    pub(super) fn report(&self, battle: Option<&mut Battle>, script: ScriptId, error: ScriptError) {
        let error = self.limits.explain(self.budgets.mod_index(script), error);
        let Some(battle) = battle else {
            // `rampart check` reports what it finds as diagnostics of its own.
            tracing::debug!(target: "rampart::script", "{error}");
            self.unlogged.borrow_mut().push(error);
            return;
        };
        if battle.previewing() {
            return;
        }
        let switched_off = self.budgets.fail(script);
        // The player (and `--log warn`) hears of each distinct error once; its repeats are
        // counted in the battle's record.
        match battle.record_script_error(error.clone()) {
            1 => tracing::warn!(target: "rampart::script", "{error}"),
            n => tracing::debug!(target: "rampart::script", "{error} (happened {n} times)"),
        }
        if let Some(file) = switched_off {
            let disabled = ScriptDisabled {
                mod_id: error.mod_id.clone(),
                file,
                reason: error,
            };
            tracing::warn!(target: "rampart::script", "{disabled}");
            battle.push_log(LogKind::ScriptDisabled(disabled));
        }
    }

    /// Logs `warning` at `warn`, the first time this battle that a warning is given under `key`.
    /// After [`MAX_WARNINGS`] different warnings one more says the rest are not shown: a script
    /// making up new names in a loop would otherwise grow the set, and the log, without end.
    pub(crate) fn warn_once(&self, key: String, warning: String) {
        let mut warned = self.warned.borrow_mut();
        if warned.len() > MAX_WARNINGS || warned.contains(&key) {
            return;
        }
        if warned.len() == MAX_WARNINGS {
            // The empty key is never a warning's: it marks the set as full.
            warned.insert(String::new());
            tracing::warn!(
                target: "rampart::script",
                "{MAX_WARNINGS} different script warnings this battle; further ones are not shown"
            );
            return;
        }
        warned.insert(key);
        tracing::warn!(target: "rampart::script", "{warning}");
    }
}

/// What each VM knows about its host, kept in the VM's app data.
pub(crate) struct HostLink {
    /// The host's shared state.
    pub shared: Rc<HostShared>,
    /// The VM's mod, by load order.
    pub mod_index: usize,
    /// The VM's sandbox, set once it is made.
    pub(super) sandbox: RefCell<Weak<Sandbox>>,
    /// Handles of entities the host passed to the VM's callbacks.
    pub(super) handles: HandleCache,
}

impl HostLink {
    /// The id of the VM's mod.
    pub(crate) fn mod_id(&self) -> String {
        self.sandbox
            .borrow()
            .upgrade()
            .map(|s| s.mod_id().to_string())
            .unwrap_or_default()
    }

    /// `message` as a warning about the calling script's current line, located and printed
    /// as script errors are, though nothing failed (for [`HostShared::warn_once`]).
    pub(crate) fn warning(&self, lua: &Lua, message: String) -> String {
        let (file, line) = caller_location(lua).unzip();
        ScriptError {
            mod_id: self.mod_id(),
            file,
            line,
            kind: ScriptErrorKind::Runtime,
            message,
        }
        .to_string()
    }

    /// The link of the VM running `lua`.
    pub(crate) fn get(lua: &Lua) -> mlua::Result<Rc<HostLink>> {
        lua.app_data_ref::<Rc<HostLink>>()
            .map(|l| l.clone())
            .ok_or_else(|| mlua::Error::runtime("this VM has no host"))
    }
}
