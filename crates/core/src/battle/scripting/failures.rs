//! Script failures in a battle: each script's failure budget. The battle's record of script
//! errors, identical ones kept once and counted, is `log.rs`'s.
//!
//! # What a "script" is
//! A script is one Lua file of a mod (`scripts/tower.lua`). A function belongs to the file it
//! was defined in, wherever it was registered or returned from: a callback that
//! `scripts/tower.lua` registers with a function written in `scripts/util.lua` counts against
//! `scripts/util.lua`, and so do the hooks a behaviour script takes from it. That file is the
//! one that holds the failing code's definition, so it is the one a modder has to fix, and
//! switching it off stops exactly the functions written there. A function with no file (a
//! built-in such as `print` passed as a callback) belongs to the script that registered it; a
//! top-level chunk belongs to its own file.
//!
//! After [`MAX_SCRIPT_FAILURES`] failures in one battle a script is switched off: its callbacks
//! and hooks are skipped for the rest of the battle, while the mod's other scripts go on.

use std::cell::RefCell;
use std::collections::BTreeMap;

use mlua::{Function, Lua};

use rampart_lua::caller_location;

pub use super::super::log::{MAX_SCRIPT_FAILURES, ReportedError, ScriptDisabled};

/// A script of a battle's mods, numbered by the host in the order it first met them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ScriptId(usize);

impl ScriptId {
    /// The script's place in the order the host first met scripts.
    pub(super) fn index(self) -> usize {
        self.0
    }
}

/// One script's failures so far.
struct Budget {
    mod_index: usize,
    file: String,
    failures: u32,
}

/// The failure budget of every script of a battle.
#[derive(Default)]
pub(super) struct Budgets {
    scripts: RefCell<Vec<Budget>>,
    ids: RefCell<BTreeMap<(usize, String), ScriptId>>,
}

impl Budgets {
    /// The script `file` of mod `mod_index`.
    pub(super) fn id(&self, mod_index: usize, file: &str) -> ScriptId {
        if let Some(id) = self.ids.borrow().get(&(mod_index, file.to_string())) {
            return *id;
        }
        let mut scripts = self.scripts.borrow_mut();
        let id = ScriptId(scripts.len());
        scripts.push(Budget {
            mod_index,
            file: file.to_string(),
            failures: 0,
        });
        self.ids
            .borrow_mut()
            .insert((mod_index, file.to_string()), id);
        id
    }

    /// The script `function` belongs to (see the module's doc): the file it was defined in, or
    /// if it has none (a built-in), the script `otherwise` names.
    pub(super) fn of_function(
        &self,
        mod_index: usize,
        function: &Function,
        otherwise: impl FnOnce() -> String,
    ) -> ScriptId {
        let info = function.info();
        let file = match info.short_src {
            Some(file) if info.what != "C" => file,
            _ => otherwise(),
        };
        self.id(mod_index, &file)
    }

    /// The script a callback registered now belongs to: the file `function` was defined in, or
    /// the script registering it.
    pub(super) fn of_callback(&self, mod_index: usize, lua: &Lua, function: &Function) -> ScriptId {
        self.of_function(mod_index, function, || {
            caller_location(lua).map_or_else(|| "(a built-in function)".into(), |(file, _)| file)
        })
    }

    /// Every script met so far as (id, mod by load order, file), in id order.
    pub(super) fn all(&self) -> Vec<(ScriptId, usize, String)> {
        let scripts = self.scripts.borrow();
        let all = scripts.iter().enumerate();
        all.map(|(i, s)| (ScriptId(i), s.mod_index, s.file.clone()))
            .collect()
    }

    /// Whether the script has been switched off.
    pub(super) fn is_off(&self, id: ScriptId) -> bool {
        self.scripts
            .borrow()
            .get(id.0)
            .is_none_or(|s| s.failures >= MAX_SCRIPT_FAILURES)
    }

    /// The mod a script belongs to, by load order.
    pub(super) fn mod_index(&self, id: ScriptId) -> usize {
        self.scripts.borrow()[id.0].mod_index
    }

    /// Counts a failure of the script; returns its file if this failure switched it off.
    pub(super) fn fail(&self, id: ScriptId) -> Option<String> {
        let mut scripts = self.scripts.borrow_mut();
        let script = &mut scripts[id.0];
        script.failures += 1;
        (script.failures == MAX_SCRIPT_FAILURES).then(|| script.file.clone())
    }
}
