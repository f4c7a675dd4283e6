//! Mod scripts in a battle — the Lua edge of the battle, all in this folder: one sandboxed VM
//! per mod and the behaviour hooks of scripted entities (here), lending the battle to Lua for
//! the length of a call ([`lend`]; it and the stack pushes of `api::handles` hold the `unsafe`),
//! script callbacks on the chains ([`register`]), the chains by the names scripts give
//! ([`chains`]), payloads as Lua tables ([`payload`]), and the
//! API scripts call ([`api`]: `game`, entity handles), documented for modders in
//! `docs/modding/lua-api.md`, and what each script's calls cost ([`cost`]).
//!
//! # Failure
//! Every call into Lua is budgeted by the sandbox. A failing call is skipped (a modifier leaves
//! the payload as it was), reported in the battle log with mod, file and line (identical errors
//! once, with a count), and counted against its script; after [`MAX_SCRIPT_FAILURES`] failures
//! that script is switched off for the battle and the mod's other scripts go on ([`failures`]
//! says which script a function belongs to). On top of each call's budget, [`limits`] bounds
//! what all of a mod's calls do in one tick.

pub mod api;
pub(crate) mod chains;
pub mod cost;
pub mod defs;
pub mod failures;
mod lend;
pub mod limits;
pub mod payload;
pub mod plain;
pub(crate) mod register;

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::{Rc, Weak};
use std::sync::Arc;

use mlua::{Function, Table, Value};

use super::core::{Battle, Scripts};
use super::entity::{EntityId, EntityKind};
use super::state::Owner;
use crate::content::{ContentDb, ScriptRef};
use rampart_lua::{Budget, Limits, Sandbox, ScriptError, ScriptErrorKind};

pub use super::core::Hook;
use api::HandleCache;
use failures::ScriptId;
pub use failures::{MAX_SCRIPT_FAILURES, ReportedError, ScriptDisabled};
pub(crate) use lend::HostLink;
use lend::HostShared;

/// One mod's VM and what the host keeps of it.
struct ModRuntime {
    sandbox: Rc<Sandbox>,
    /// The metatable of instance tables (`self`).
    instance_meta: Table,
    /// The VM's `game` object, passed to hooks.
    game: Table,
}

/// A scripted entity: its hooks, looked up once with the script each belongs to, and its
/// `self` table.
struct Instance {
    mod_index: usize,
    hooks: [Option<(Function, ScriptId)>; 5],
    this: Table,
}

/// The scripts of one battle.
pub struct ScriptHost {
    shared: Rc<HostShared>,
    runtimes: Vec<Option<ModRuntime>>,
    /// Each entity's instances: its type's script first, then its augments' scripts. Shared
    /// so a hook call holds the list without copying it (attaching copies it on write).
    instances: RefCell<BTreeMap<EntityId, Rc<Vec<Rc<Instance>>>>>,
    /// Entities whose script has `on_tick`, in entity order.
    ticking: RefCell<BTreeSet<EntityId>>,
    content: Arc<ContentDb>,
}

impl ScriptHost {
    /// Creates one sandbox per mod that has scripts. Nothing runs yet.
    pub(crate) fn new(content: &Arc<ContentDb>, limits: &Limits) -> Rc<ScriptHost> {
        let budget = Budget::new();
        let shared = HostShared::new(content.clone(), budget.clone());
        let mut runtimes = Vec::new();
        for (i, m) in content.mods.iter().enumerate() {
            if m.scripts.is_empty() {
                runtimes.push(None);
                continue;
            }
            let scripts = Rc::new(content.scripts_for(m));
            let link = Rc::new(HostLink {
                shared: shared.clone(),
                mod_index: i,
                sandbox: RefCell::new(Weak::new()),
                handles: HandleCache::default(),
            });
            let made = Sandbox::new(scripts, limits.clone(), budget.clone(), |lua, globals| {
                lua.set_app_data(link.clone());
                api::install(lua, globals)
            })
            .and_then(|sandbox| {
                let meta = api::instance_meta(sandbox.lua())?;
                let game: Table = sandbox.lua().globals().get("game")?;
                Ok((Rc::new(sandbox), meta, game))
            });
            match made {
                Ok((sandbox, instance_meta, game)) => {
                    *link.sandbox.borrow_mut() = Rc::downgrade(&sandbox);
                    runtimes.push(Some(ModRuntime {
                        sandbox,
                        instance_meta,
                        game,
                    }));
                }
                Err(e) => {
                    let error = ScriptError::from_lua(&m.id, &e, None);
                    shared.unlogged.borrow_mut().push(error);
                    runtimes.push(None);
                }
            }
        }
        Rc::new(ScriptHost {
            shared,
            runtimes,
            instances: RefCell::new(BTreeMap::new()),
            ticking: RefCell::new(BTreeSet::new()),
            content: content.clone(),
        })
    }

    /// Runs the top-level chunk of every script of every mod, as `rampart check` does, without
    /// a battle. Returns every failure.
    pub fn check(content: &Arc<ContentDb>, limits: &Limits) -> Vec<ScriptError> {
        let host = ScriptHost::new(content, limits);
        host.shared.set_loading(true);
        let mut failed = BTreeSet::new();
        for (i, rt) in host.runtimes.iter().enumerate() {
            let Some(rt) = rt else { continue };
            host.shared.set_owner(Owner::Mod(i as u32));
            for path in rt.sandbox.script_paths() {
                if let Err(e) = rt.sandbox.load_script(path) {
                    failed.insert((i, path.to_string()));
                    host.shared.report(None, host.shared.budgets.id(i, path), e);
                }
            }
        }
        host.shared.set_loading(false);
        // Behaviour scripts must also have the shape of one.
        let used: BTreeSet<&ScriptRef> = content
            .attackers
            .iter()
            .filter_map(|a| a.script_ref.as_ref())
            .chain(
                content
                    .blueprints
                    .iter()
                    .filter_map(|b| b.script_ref.as_ref()),
            )
            .chain(
                content
                    .augments
                    .iter()
                    .filter_map(|a| a.script_ref.as_ref()),
            )
            .collect();
        for script in used {
            let Some(i) = content.mod_index(&script.mod_id) else {
                continue;
            };
            if failed.contains(&(i, script.path.clone())) {
                continue;
            }
            if let Err(e) = host.behaviour(script) {
                host.shared
                    .report(None, host.shared.budgets.id(i, &script.path), e);
            }
        }
        host.shared.unlogged.take()
    }

    /// Runs every script's top-level chunk in this battle (where scripts register global
    /// callbacks, owned by their mod).
    pub(crate) fn load_all(&self, battle: &mut Battle) {
        for e in self.shared.unlogged.borrow_mut().drain(..) {
            battle.record_script_error(e);
        }
        self.shared.set_loading(true);
        for (i, rt) in self.runtimes.iter().enumerate() {
            let Some(rt) = rt else { continue };
            for path in rt.sandbox.script_paths() {
                let script = self.shared.budgets.id(i, path);
                let result = {
                    // Loading has its own budget per script, not the tick's.
                    let _lent = self
                        .shared
                        .activate(battle, script, Owner::Mod(i as u32), None);
                    rt.sandbox.load_script(path)
                };
                if let Err(e) = result {
                    self.shared.report(Some(battle), script, e);
                }
            }
        }
        self.shared.set_loading(false);
    }

    /// The hooks of a behaviour script: it must return a table whose `on_…` fields are known
    /// hooks and functions.
    fn behaviour(&self, script: &ScriptRef) -> Result<[Option<Function>; 5], ScriptError> {
        let fail = |message: String| ScriptError {
            mod_id: script.mod_id.clone(),
            file: Some(script.path.clone()),
            line: None,
            kind: ScriptErrorKind::Runtime,
            message,
        };
        let runtime = self
            .content
            .mod_index(&script.mod_id)
            .and_then(|i| self.runtimes.get(i)?.as_ref());
        let Some(rt) = runtime else {
            return Err(fail("the mod's scripts are not running".into()));
        };
        let Value::Table(module) = rt.sandbox.load_script(&script.path)? else {
            return Err(fail("a behaviour script must return a table of hooks (`return { on_spawn = function(self, game) … end }`)".into()));
        };
        // Sorted, so the first problem reported does not depend on table order.
        let mut fields: Vec<(String, Value)> = module
            .pairs::<Value, Value>()
            .filter_map(|pair| match pair {
                Ok((Value::String(key), value)) => Some((key.to_string_lossy(), value)),
                _ => None,
            })
            .collect();
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        for (key, value) in fields {
            let known = Hook::ALL.iter().any(|h| h.name() == key);
            if key.starts_with("on_") && !known {
                let names: Vec<&str> = Hook::ALL.iter().map(|h| h.name()).collect();
                return Err(fail(format!(
                    "`{key}` is not a hook; the hooks are {}",
                    names.join(", ")
                )));
            }
            if known && !matches!(value, Value::Function(_)) {
                return Err(fail(format!(
                    "hook `{key}` must be a function, not {}",
                    value.type_name()
                )));
            }
        }
        Ok(
            Hook::ALL.map(|hook| match module.raw_get::<Value>(hook.name()) {
                Ok(Value::Function(f)) => Some(f),
                _ => None,
            }),
        )
    }

    /// Adds one script instance to `entity`.
    fn attach_one(&self, battle: &mut Battle, entity: EntityId, script: &ScriptRef) {
        let Some(mod_index) = self.content.mod_index(&script.mod_id) else {
            return;
        };
        let Some(Some(rt)) = self.runtimes.get(mod_index) else {
            return;
        };
        let own = self.shared.budgets.id(mod_index, &script.path);
        if self.shared.budgets.is_off(own) {
            return;
        }
        let made = self.behaviour(script).and_then(|hooks| {
            let lua = rt.sandbox.lua();
            let hooks = hooks.map(|hook| {
                hook.map(|f| {
                    let belongs = self
                        .shared
                        .budgets
                        .of_function(mod_index, &f, || script.path.clone());
                    (f, belongs)
                })
            });
            let this = lua
                .create_table()
                .and_then(|t| {
                    t.raw_set(api::ENTITY, api::entity_to_lua(lua, entity)?)?;
                    t.set_metatable(Some(rt.instance_meta.clone()))?;
                    Ok(t)
                })
                .map_err(|e| {
                    ScriptError::from_lua(&script.mod_id, &e, Some((script.path.clone(), None)))
                })?;
            Ok(Instance {
                mod_index,
                hooks,
                this,
            })
        });
        match made {
            Ok(instance) => {
                if instance.hooks[Hook::Tick as usize].is_some() {
                    self.ticking.borrow_mut().insert(entity);
                }
                let mut instances = self.instances.borrow_mut();
                Rc::make_mut(instances.entry(entity).or_default()).push(Rc::new(instance));
            }
            Err(e) => self.shared.report(Some(battle), own, e),
        }
    }
}

impl Scripts for ScriptHost {
    fn attach(&self, battle: &mut Battle, entity: EntityId) {
        let Some(kind) = battle.entity(entity).map(|e| e.kind) else {
            return;
        };
        let scripts: Vec<ScriptRef> = match kind {
            EntityKind::Attacker(a) => self
                .content
                .attacker(a)
                .script_ref
                .iter()
                .cloned()
                .collect(),
            EntityKind::Building(b) | EntityKind::Ability(b) => {
                let own = self.content.blueprint(b).script_ref.clone();
                own.into_iter()
                    .chain(super::augments::scripts(battle, b))
                    .collect()
            }
        };
        for script in scripts {
            self.attach_one(battle, entity, &script);
        }
    }

    fn call_hook(&self, battle: &mut Battle, entity: EntityId, hook: Hook) {
        // Shared, not cloned: a clone of each Lua reference would cost a trip through mlua's
        // reference slots per call. The list is held, not copied, so hooks may attach or remove
        // instances (which copy it on write) while it is walked.
        let calls: Rc<Vec<Rc<Instance>>> = match self.instances.borrow().get(&entity) {
            Some(list) => Rc::clone(list),
            None => return,
        };
        let with_hook = calls
            .iter()
            .filter_map(|i| i.hooks[hook as usize].as_ref().map(|f| (i, f)));
        for (i, (instance, (function, script))) in with_hook.enumerate() {
            let mod_index = instance.mod_index;
            // An earlier instance's hook may have removed the entity.
            if i > 0 && battle.entity(entity).is_none() {
                break;
            }
            if !self.shared.may_run(*script) {
                continue;
            }
            let Some(Some(rt)) = self.runtimes.get(mod_index) else {
                continue;
            };
            let result = {
                let _lent =
                    self.shared
                        .activate(battle, *script, Owner::Entity(entity), Some(mod_index));
                rt.sandbox.call::<()>(function, (&instance.this, &rt.game))
            };
            if let Err(e) = result {
                self.shared.report(Some(battle), *script, e);
            }
        }
    }

    fn tick_all(&self, battle: &mut Battle) {
        let ticking: Vec<EntityId> = self.ticking.borrow().iter().copied().collect();
        for entity in ticking {
            if battle.entity(entity).is_some() {
                self.call_hook(battle, entity, Hook::Tick);
            }
        }
    }

    fn new_tick(&self) {
        self.shared.limits.new_tick();
    }

    fn costs(&self) -> cost::ScriptCosts {
        let mut costs = cost::ScriptCosts::default();
        for (id, mod_index, file) in self.shared.budgets.all() {
            let spent = self.shared.meter.cost(id);
            if spent.calls > 0 {
                costs.add_script(&self.content.mods[mod_index].id, &file, spent);
            }
        }
        costs
    }

    fn time_calls(&self, on: bool) {
        self.shared.meter.time(on);
    }

    fn detach(&self, entity: EntityId) {
        self.instances.borrow_mut().remove(&entity);
        self.ticking.borrow_mut().remove(&entity);
    }
}
