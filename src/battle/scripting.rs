//! Mod scripts in a battle: one sandboxed VM per mod, behaviour hooks per entity, and script
//! callbacks registered on the chains next to Rust ones.
//!
//! # How a script reaches the battle
//! Chains call their callbacks with `&mut Battle`; a Lua callback in turn calls back into the
//! battle through the `game` API. While the host runs Lua it lends the battle to the API through
//! a pointer kept in [`HostShared`] (see [`HostShared::activate`]): the pointer is set from the
//! `&mut Battle` the host was given, only for the duration of the call, and the guard that holds
//! it keeps that `&mut Battle` borrowed, so nothing else can touch the battle meanwhile. Nested
//! calls (Lua → battle → Lua) lend the reborrowed battle again and restore the outer pointer
//! afterwards, so the API always sees the innermost borrow.
//!
//! # Failure
//! Every call into Lua is budgeted by the sandbox. A failing call is skipped (a modifier leaves
//! the payload as it was), reported in the battle log with mod, file and line, and counted;
//! after [`MAX_SCRIPT_FAILURES`] failures the mod's scripts are switched off for the battle.

use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::marker::PhantomData;
use std::rc::{Rc, Weak};
use std::sync::Arc;

use mlua::{Function, Lua, Table, UserData, UserDataMethods, Value};

use super::chains::{ChainKind, LuaPayload, chain_kind};
use super::lua_api;
use super::{Battle, Cmd, EntityId, EntityKind, Evt, LogKind, Owner, Qry, Scope};
use crate::chain::{Flow, Outcome, ReactionFn, RegistrationId, Subject};
use crate::content::{ContentDb, ScriptRef};
use crate::lua::{Budget, Limits, ModScripts, Sandbox, ScriptError, ScriptErrorKind};

/// Failures after which a mod's scripts are switched off for the rest of the battle.
pub const MAX_SCRIPT_FAILURES: u32 = 10;

/// State shared by the host and every VM it made.
pub(crate) struct HostShared {
    battle: Cell<*mut Battle>,
    owner: Cell<Option<Owner>>,
    loading: Cell<bool>,
    failures: RefCell<Vec<u32>>,
    disabled: RefCell<Vec<bool>>,
    /// Errors raised with no battle to log them in (under `rampart check`).
    unlogged: RefCell<Vec<ScriptError>>,
}

/// Lends a battle to the script API; dropping it takes the battle back.
struct Active<'a> {
    shared: &'a HostShared,
    previous: (*mut Battle, Option<Owner>),
    _battle: PhantomData<&'a mut Battle>,
}

impl Drop for Active<'_> {
    fn drop(&mut self) {
        self.shared.battle.set(self.previous.0);
        self.shared.owner.set(self.previous.1);
    }
}

impl HostShared {
    fn new(mods: usize) -> Rc<HostShared> {
        Rc::new(HostShared {
            battle: Cell::new(std::ptr::null_mut()),
            owner: Cell::new(None),
            loading: Cell::new(false),
            failures: RefCell::new(vec![0; mods]),
            disabled: RefCell::new(vec![false; mods]),
            unlogged: RefCell::new(Vec::new()),
        })
    }

    /// Lends `battle` to scripts for as long as the guard lives; `owner` owns what they register.
    fn activate<'a>(&'a self, battle: &'a mut Battle, owner: Owner) -> Active<'a> {
        let previous = (
            self.battle.replace(battle as *mut Battle),
            self.owner.replace(Some(owner)),
        );
        Active {
            shared: self,
            previous,
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

    /// Whether top-level chunks are running (only registrations are allowed then).
    pub(crate) fn is_loading(&self) -> bool {
        self.loading.get()
    }

    fn is_disabled(&self, mod_index: usize) -> bool {
        self.disabled
            .borrow()
            .get(mod_index)
            .copied()
            .unwrap_or(true)
    }

    /// Records a script failure: in the battle's log if there is a battle, and toward switching
    /// the mod off.
    fn report(&self, battle: Option<&mut Battle>, mod_index: usize, error: ScriptError) {
        tracing::debug!(target: "rampart::script", "{error}");
        if battle.as_ref().is_some_and(|b| b.previewing()) {
            return;
        }
        let mod_id = error.mod_id.clone();
        let failures = {
            let mut f = self.failures.borrow_mut();
            f[mod_index] += 1;
            f[mod_index]
        };
        let switch_off = failures == MAX_SCRIPT_FAILURES;
        if switch_off {
            self.disabled.borrow_mut()[mod_index] = true;
            tracing::info!(target: "rampart::script", "[{mod_id}] switched off after {failures} script errors");
        }
        match battle {
            Some(b) => {
                b.push_log(LogKind::ScriptError(error));
                if switch_off {
                    b.push_log(LogKind::ModDisabled { mod_id });
                }
            }
            None => self.unlogged.borrow_mut().push(error),
        }
    }
}

/// What each VM knows about its host, kept in the VM's app data.
pub(crate) struct HostLink {
    pub shared: Rc<HostShared>,
    pub mod_index: usize,
    sandbox: RefCell<Weak<Sandbox>>,
}

impl HostLink {
    /// The link of the VM running `lua`.
    pub(crate) fn get(lua: &Lua) -> mlua::Result<Rc<HostLink>> {
        lua.app_data_ref::<Rc<HostLink>>()
            .map(|l| l.clone())
            .ok_or_else(|| mlua::Error::runtime("this VM has no host"))
    }

    /// Registers a script callback on the chain `chain`. `self_entity` is set for `self:modify`
    /// and `self:react` (owned by and scoped to that entity); otherwise the registration is global
    /// and owned by whatever the script is running for.
    pub(crate) fn register(
        self: &Rc<Self>,
        kind: RegistrationKind,
        chain: &str,
        priority: i32,
        scope: Scope,
        self_entity: Option<EntityId>,
        function: Function,
    ) -> Result<Registration, String> {
        check_registration(chain, kind, priority)?;
        let owner = match self_entity {
            Some(e) => Owner::Entity(e),
            None => self
                .shared
                .owner
                .get()
                .unwrap_or(Owner::Mod(self.mod_index as u32)),
        };
        let sandbox = self
            .sandbox
            .borrow()
            .upgrade()
            .ok_or("the mod's VM is gone")?;
        let reg = LuaRegistration {
            owner,
            scope,
            priority,
            callback: LuaCallback {
                link: self.clone(),
                sandbox,
                function,
                owner,
            },
        };
        let name = chain.to_string();
        self.shared.with_battle(|battle| match battle {
            // Under `rampart check` there is no battle: the registration is checked, not kept.
            None => Ok(Registration {
                chain: name,
                id: None,
            }),
            Some(b) if b.in_query() => Err(format!(
                "a query modifier must not register on `{chain}`: it only computes a value"
            )),
            Some(b) => {
                let id = match kind {
                    RegistrationKind::Modify => super::chains::lua_modify(b, chain, reg),
                    RegistrationKind::React => super::chains::lua_react(b, chain, reg),
                }?;
                Ok(Registration {
                    chain: name,
                    id: Some(id),
                })
            }
        })
    }
}

/// Modify or react.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RegistrationKind {
    Modify,
    React,
}

/// Checks a registration against the chain's kind before anything is built.
fn check_registration(chain: &str, kind: RegistrationKind, priority: i32) -> Result<(), String> {
    let chain_kind = chain_kind(chain).ok_or_else(|| unknown_chain(chain))?;
    match (chain_kind, kind) {
        (ChainKind::Event, RegistrationKind::Modify) => {
            Err(format!("`{chain}` is an event: use react, not modify"))
        }
        (ChainKind::Query, RegistrationKind::React) => Err(format!(
            "`{chain}` is a query: queries have no reactions, use modify"
        )),
        (ChainKind::Command, RegistrationKind::Modify) if priority >= 0 => Err(format!(
            "command modifiers run before the handler (priority 0), so their priority must be negative, not {priority}"
        )),
        (ChainKind::Command, RegistrationKind::React) if priority <= 0 => Err(format!(
            "command reactions run after the handler (priority 0), so their priority must be positive, not {priority}"
        )),
        _ => Ok(()),
    }
}

/// The message for a chain name that does not exist, with the closest real one.
pub(crate) fn unknown_chain(name: &str) -> String {
    let names = super::Chains::ALL.iter().map(|(n, _)| *n);
    let best = names
        .max_by(|a, b| strsim::jaro_winkler(name, a).total_cmp(&strsim::jaro_winkler(name, b)));
    match best.filter(|b| strsim::jaro_winkler(name, b) > 0.75) {
        Some(b) => format!("there is no chain `{name}`; did you mean `{b}`?"),
        None => {
            format!("there is no chain `{name}` (the chains are listed in docs/modding/lua-api.md)")
        }
    }
}

/// The message for using a chain as the wrong kind.
pub(crate) fn not_a(name: &str, wanted: ChainKind) -> String {
    match chain_kind(name) {
        None => unknown_chain(name),
        Some(kind) => format!("`{name}` is a {kind:?}, not a {wanted:?}").to_lowercase(),
    }
}

/// A registration handle returned to scripts; `:remove()` takes the callback off its chain.
pub(crate) struct Registration {
    chain: String,
    id: Option<RegistrationId>,
}

impl UserData for Registration {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("remove", |lua, this, ()| {
            let Some(id) = this.id else { return Ok(false) };
            let link = HostLink::get(lua)?;
            link.shared.with_battle(|b| match b {
                Some(b) if b.in_query() => Err(mlua::Error::runtime(
                    "a query modifier must not remove registrations: it only computes a value",
                )),
                Some(b) => Ok(b.chains.remove(&this.chain, id)),
                None => Ok(false),
            })
        });
    }
}

/// A script callback as registered on a chain.
pub(crate) struct LuaRegistration {
    owner: Owner,
    scope: Scope,
    priority: i32,
    callback: LuaCallback,
}

/// A Lua function and everything needed to call it from a chain.
struct LuaCallback {
    link: Rc<HostLink>,
    sandbox: Rc<Sandbox>,
    function: Function,
    owner: Owner,
}

impl LuaCallback {
    /// Calls the function with arguments built in its VM; failures are reported and give `None`.
    fn call<R: mlua::FromLuaMulti>(
        &self,
        battle: &mut Battle,
        args: impl FnOnce(&Lua, &Battle) -> mlua::Result<mlua::MultiValue>,
    ) -> Option<R> {
        let shared = &self.link.shared;
        if shared.is_disabled(self.link.mod_index) {
            return None;
        }
        let result = match args(self.sandbox.lua(), battle) {
            Ok(args) => {
                let _lent = shared.activate(battle, self.owner);
                self.sandbox.call::<R>(&self.function, args)
            }
            Err(e) => Err(self.error(&e)),
        };
        match result {
            Ok(r) => Some(r),
            Err(e) => {
                shared.report(Some(battle), self.link.mod_index, e);
                None
            }
        }
    }

    /// An error about the callback as a whole, located at its definition.
    fn error(&self, e: &mlua::Error) -> ScriptError {
        let info = self.function.info();
        ScriptError::from_lua(
            self.sandbox.mod_id(),
            e,
            info.short_src.map(|src| (src, info.line_defined)),
        )
    }

    fn report(&self, battle: &mut Battle, e: &mlua::Error) {
        let error = self.error(e);
        self.link
            .shared
            .report(Some(battle), self.link.mod_index, error);
    }
}

fn one(value: Value) -> mlua::Result<mlua::MultiValue> {
    Ok(mlua::MultiValue::from_vec(vec![value]))
}

/// Freezes a payload table handed to a reaction: reactions see, they do not change.
fn read_only(value: Value) -> Value {
    if let Value::Table(t) = &value {
        t.set_readonly(true);
    }
    value
}

pub(crate) fn command_modifier<T: LuaPayload + Subject<EntityId>>(
    chain: &mut Cmd<T>,
    reg: LuaRegistration,
) -> Result<RegistrationId, String> {
    let cb = reg.callback;
    chain
        .modify(
            reg.owner,
            reg.scope,
            reg.priority,
            Box::new(move |b: &mut Battle, payload: &mut T| {
                let mut table = None;
                let verdict: Option<Value> = cb.call(b, |lua, b| {
                    let t = payload.to_lua(lua, b)?;
                    table = Some(t.clone());
                    one(t)
                });
                let (Some(verdict), Some(table)) = (verdict, table) else {
                    return Flow::Continue;
                };
                if let Err(e) = payload.update_from_lua(&table, b) {
                    cb.report(b, &e);
                }
                if verdict == Value::Boolean(false) {
                    Flow::Cancel
                } else {
                    Flow::Continue
                }
            }),
        )
        .map_err(|e| e.to_string())
}

/// A reaction calling a Lua function with a read-only copy of the payload.
fn lua_reaction<T: LuaPayload>(cb: LuaCallback) -> Box<ReactionFn<Battle, T>> {
    Box::new(move |b: &mut Battle, payload: &T| {
        cb.call::<()>(b, |lua, b| one(read_only(payload.to_lua(lua, b)?)));
    })
}

pub(crate) fn command_reaction<T: LuaPayload + Subject<EntityId>>(
    chain: &mut Cmd<T>,
    reg: LuaRegistration,
) -> Result<RegistrationId, String> {
    chain
        .react(
            reg.owner,
            reg.scope,
            reg.priority,
            lua_reaction(reg.callback),
        )
        .map_err(|e| e.to_string())
}

pub(crate) fn query_modifier<I: LuaPayload + Subject<EntityId>, O: LuaPayload>(
    chain: &mut Qry<I, O>,
    reg: LuaRegistration,
) -> RegistrationId {
    let cb = reg.callback;
    chain.modify(
        reg.owner,
        reg.scope,
        reg.priority,
        Box::new(move |b: &mut Battle, input: &I, value: &mut O| {
            let result: Option<Value> = cb.call(b, |lua, b| {
                Ok(mlua::MultiValue::from_vec(vec![
                    value.to_lua(lua, b)?,
                    input.to_lua(lua, b)?,
                ]))
            });
            match result {
                None | Some(Value::Nil) => {}
                Some(v) => match O::from_lua(&v, b) {
                    Ok(new) => *value = new,
                    Err(e) => cb.report(b, &e),
                },
            }
        }),
    )
}

pub(crate) fn event_reaction<T: LuaPayload + Subject<EntityId>>(
    chain: &mut Evt<T>,
    reg: LuaRegistration,
) -> RegistrationId {
    chain.react(
        reg.owner,
        reg.scope,
        reg.priority,
        lua_reaction(reg.callback),
    )
}

/// Runs a command for a script: the final payload as a table, or `nil` if it was cancelled.
pub(crate) fn run_command<T: LuaPayload + Subject<EntityId>>(
    b: &mut Battle,
    lua: &Lua,
    chain: impl Fn(&Battle) -> &Cmd<T>,
    payload: &Value,
) -> mlua::Result<Value> {
    let payload = T::from_lua(payload, b)?;
    match b.command(chain, payload) {
        Outcome::Applied(p) => p.to_lua(lua, b),
        Outcome::Cancelled => Ok(Value::Nil),
    }
}

/// Computes a query for a script.
pub(crate) fn run_query<I: LuaPayload + Subject<EntityId>, O: LuaPayload>(
    b: &mut Battle,
    lua: &Lua,
    chain: impl Fn(&Battle) -> &Qry<I, O>,
    input: &Value,
) -> mlua::Result<Value> {
    let input = I::from_lua(input, b)?;
    let value = b.query(chain, &input);
    value.to_lua(lua, b)
}

/// One mod's VM and what the host keeps of it.
struct ModRuntime {
    sandbox: Rc<Sandbox>,
    /// The metatable of instance tables (`self`).
    instance_meta: Table,
    /// The VM's `game` object, passed to hooks.
    game: Table,
}

/// The hooks a behaviour script's table may define.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Hook {
    /// An attacker appeared.
    Spawn,
    /// A building was built or an ability used.
    Placed,
    /// Every tick.
    Tick,
    /// An attacker was killed (before it is removed).
    Death,
    /// A building was removed by the player.
    Removed,
}

impl Hook {
    const ALL: [Hook; 5] = [
        Hook::Spawn,
        Hook::Placed,
        Hook::Tick,
        Hook::Death,
        Hook::Removed,
    ];

    /// The field name in the script's table.
    fn name(self) -> &'static str {
        match self {
            Hook::Spawn => "on_spawn",
            Hook::Placed => "on_placed",
            Hook::Tick => "on_tick",
            Hook::Death => "on_death",
            Hook::Removed => "on_removed",
        }
    }
}

/// A scripted entity: its hooks, looked up once, and its `self` table.
struct Instance {
    mod_index: usize,
    hooks: [Option<Function>; 5],
    this: Table,
}

/// The scripts of one battle.
pub struct ScriptHost {
    shared: Rc<HostShared>,
    runtimes: Vec<Option<ModRuntime>>,
    instances: RefCell<BTreeMap<EntityId, Instance>>,
    /// Entities whose script has `on_tick`, in entity order.
    ticking: RefCell<BTreeSet<EntityId>>,
    content: Arc<ContentDb>,
}

impl ScriptHost {
    /// Creates one sandbox per mod that has scripts. Nothing runs yet.
    pub(crate) fn new(content: &Arc<ContentDb>, limits: &Limits) -> Rc<ScriptHost> {
        let shared = HostShared::new(content.mods.len());
        let budget = Budget::new();
        let mut runtimes = Vec::new();
        for (i, m) in content.mods.iter().enumerate() {
            if m.scripts.is_empty() {
                runtimes.push(None);
                continue;
            }
            let scripts = Rc::new(ModScripts {
                mod_id: m.id.clone(),
                scripts: m
                    .scripts
                    .iter()
                    .map(|(p, s)| (p.clone(), s.bytecode.clone()))
                    .collect(),
            });
            let link = Rc::new(HostLink {
                shared: shared.clone(),
                mod_index: i,
                sandbox: RefCell::new(Weak::new()),
            });
            let made = Sandbox::new(scripts, limits.clone(), budget.clone(), |lua, globals| {
                lua.set_app_data(link.clone());
                lua_api::install(lua, globals)
            })
            .and_then(|sandbox| {
                let meta = lua_api::instance_meta(sandbox.lua())?;
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
        host.shared.loading.set(true);
        let mut failed = BTreeSet::new();
        for (i, rt) in host.runtimes.iter().enumerate() {
            let Some(rt) = rt else { continue };
            host.shared.owner.set(Some(Owner::Mod(i as u32)));
            for path in rt.sandbox.script_paths() {
                if let Err(e) = rt.sandbox.load_script(path) {
                    failed.insert((i, path.to_string()));
                    host.shared.report(None, i, e);
                }
            }
        }
        host.shared.loading.set(false);
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
            .collect();
        for script in used {
            let Some(i) = content.mod_index(&script.mod_id) else {
                continue;
            };
            if failed.contains(&(i, script.path.clone())) {
                continue;
            }
            if let Err(e) = host.behaviour(script) {
                host.shared.report(None, i, e);
            }
        }
        host.shared.unlogged.take()
    }

    /// Runs every script's top-level chunk in this battle (where scripts register global
    /// callbacks, owned by their mod).
    pub(crate) fn load_all(&self, battle: &mut Battle) {
        for e in self.shared.unlogged.borrow_mut().drain(..) {
            battle.push_log(LogKind::ScriptError(e));
        }
        self.shared.loading.set(true);
        for (i, rt) in self.runtimes.iter().enumerate() {
            let Some(rt) = rt else { continue };
            for path in rt.sandbox.script_paths() {
                let result = {
                    let _lent = self.shared.activate(battle, Owner::Mod(i as u32));
                    rt.sandbox.load_script(path)
                };
                if let Err(e) = result {
                    self.shared.report(Some(battle), i, e);
                }
            }
        }
        self.shared.loading.set(false);
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

    /// Gives a new entity its script instance, if its type has a script.
    pub(crate) fn attach(&self, battle: &mut Battle, entity: EntityId) {
        let Some(kind) = battle.entity(entity).map(|e| e.kind) else {
            return;
        };
        let script = match kind {
            EntityKind::Attacker(a) => self.content.attacker(a).script_ref.clone(),
            EntityKind::Building(b) | EntityKind::Ability(b) => {
                self.content.blueprint(b).script_ref.clone()
            }
        };
        let Some(script) = script else { return };
        let Some(mod_index) = self.content.mod_index(&script.mod_id) else {
            return;
        };
        let Some(Some(rt)) = self.runtimes.get(mod_index) else {
            return;
        };
        if self.shared.is_disabled(mod_index) {
            return;
        }
        let made = self.behaviour(&script).and_then(|hooks| {
            let lua = rt.sandbox.lua();
            let this = lua
                .create_table()
                .and_then(|t| {
                    t.raw_set("entity", lua_api::entity_to_lua(lua, entity)?)?;
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
                self.instances.borrow_mut().insert(entity, instance);
            }
            Err(e) => self.shared.report(Some(battle), mod_index, e),
        }
    }

    /// Calls a hook of an entity's script, if it has one.
    pub(crate) fn call_hook(&self, battle: &mut Battle, entity: EntityId, hook: Hook) {
        let (mod_index, function, this) = {
            let instances = self.instances.borrow();
            let Some(instance) = instances.get(&entity) else {
                return;
            };
            let Some(function) = instance.hooks[hook as usize].clone() else {
                return;
            };
            (instance.mod_index, function, instance.this.clone())
        };
        if self.shared.is_disabled(mod_index) {
            return;
        }
        let Some(Some(rt)) = self.runtimes.get(mod_index) else {
            return;
        };
        let result = {
            let _lent = self.shared.activate(battle, Owner::Entity(entity));
            rt.sandbox.call::<()>(&function, (this, &rt.game))
        };
        if let Err(e) = result {
            self.shared.report(Some(battle), mod_index, e);
        }
    }

    /// Calls `on_tick` of every scripted entity that has one, in entity order.
    pub(crate) fn tick_all(&self, battle: &mut Battle) {
        let ticking: Vec<EntityId> = self.ticking.borrow().iter().copied().collect();
        for entity in ticking {
            if battle.entity(entity).is_some() {
                self.call_hook(battle, entity, Hook::Tick);
            }
        }
    }

    /// Forgets a removed entity's instance.
    pub(crate) fn detach(&self, entity: EntityId) {
        self.instances.borrow_mut().remove(&entity);
        self.ticking.borrow_mut().remove(&entity);
    }
}
