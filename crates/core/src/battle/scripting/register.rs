//! Script callbacks on the battle's chains: a Lua function wrapped as a command modifier or
//! reaction, a query modifier or an event reaction, registered next to the Rust ones; running a
//! command or query a script asked for; timers (`game:after`), called the same way; and the
//! checks and messages for registrations that cannot be (wrong chain kind, priority, unknown
//! name).

use std::rc::Rc;

use mlua::{AnyUserData, Function, Lua, MetaMethod, UserData, UserDataMethods, Value};

use super::super::chains::{ChainKind, chain_kind};
use super::super::mod_chains::{self, DeclaredPayload, Use};
use super::super::{Battle, Cmd, EntityId, Evt, Owner, Qry, Scope};
use super::api::{
    Arg, CallArgs, Class, LuaType, LuaTyped, Returned, api_functions, entity_to_lua, tables,
};
use super::failures::ScriptId;
use super::lend::HostLink;
use super::payload::{Domain, LuaPayload};
use super::plain::{self, Plain};
use crate::chain::{Flow, Outcome, ReactionFn, RegistrationId, Subject};
use crate::content::ContentDb;
use crate::content::chains::{DeclaredKind, FieldType};
use rampart_lua::{Sandbox, ScriptError};

impl HostLink {
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
        check_registration(
            &self.shared.content,
            self.mod_index,
            chain,
            kind,
            priority,
            self_entity.is_some(),
        )?;
        let owner = match self_entity {
            Some(e) => Owner::Entity(e),
            None => self.current_owner(),
        };
        let sandbox = self.sandbox()?;
        let lua = sandbox.lua();
        let subject = match scope {
            Scope::Subject(e) => match entity_to_lua(lua, e).map_err(|e| e.to_string())? {
                Value::UserData(handle) => Some((e, handle)),
                _ => None,
            },
            Scope::Global => None,
        };
        let reg = LuaRegistration {
            owner,
            scope,
            priority,
            callback: LuaCallback::new(self.clone(), sandbox, function, owner, subject),
        };
        let name = chain.to_string();
        self.shared.with_battle(|battle| match battle {
            // Under `rampart check` there is no battle: the registration is checked, not kept.
            None => Ok(Registration { kept: None }),
            Some(b) if b.in_query() => Err(format!(
                "a query modifier must not register on `{chain}`: it only computes a value"
            )),
            Some(b) => {
                self.shared.limits.register(self.mod_index)?;
                let id = match kind {
                    RegistrationKind::Modify => super::super::chains::lua_modify(b, chain, reg),
                    RegistrationKind::React => super::super::chains::lua_react(b, chain, reg),
                }?;
                Ok(Registration {
                    kept: Some(Kept::Chain(name, id)),
                })
            }
        })
    }

    /// Sets a timer: `function` is called once, `ticks` (at least 1) ticks from now, unless
    /// its owner — whatever the script is running for — is removed first.
    pub(crate) fn after(
        self: &Rc<Self>,
        ticks: u64,
        function: Function,
    ) -> Result<Registration, String> {
        let owner = self.current_owner();
        let sandbox = self.sandbox()?;
        let callback = LuaCallback::new(self.clone(), sandbox, function, owner, None);
        self.shared.with_battle(|battle| match battle {
            None => Ok(Registration { kept: None }),
            Some(b) if b.in_query() => {
                Err("a query modifier must not set timers: it only computes a value".to_string())
            }
            Some(b) => {
                self.shared.limits.register(self.mod_index)?;
                let due = b.tick() + ticks;
                let id = b.timers.add(
                    due,
                    owner,
                    Box::new(move |b: &mut Battle| {
                        callback.call::<(), 0>(b, |_, _| Ok([]));
                    }),
                );
                Ok(Registration {
                    kept: Some(Kept::Timer(id)),
                })
            }
        })
    }

    /// Who owns what the script registers now: the entity or mod it is running for.
    fn current_owner(&self) -> Owner {
        self.shared
            .owner()
            .unwrap_or(Owner::Mod(self.mod_index as u32))
    }

    fn sandbox(&self) -> Result<Rc<Sandbox>, String> {
        self.sandbox
            .borrow()
            .upgrade()
            .ok_or_else(|| "the mod's VM is gone".to_string())
    }
}

/// Modify or react.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RegistrationKind {
    Modify,
    React,
}

/// Checks a registration of a script of mod `user` against the chain's kind before anything is
/// built; a chain a mod declared must also be open to `user` ([`mod_chains::usable`]).
fn check_registration(
    content: &ContentDb,
    user: usize,
    chain: &str,
    kind: RegistrationKind,
    priority: i32,
    self_scoped: bool,
) -> Result<(), String> {
    let Some(chain_kind) = chain_kind(chain) else {
        let how = match kind {
            RegistrationKind::Modify => Use::Modify,
            RegistrationKind::React => Use::React,
        };
        return mod_chains::usable(content, user, chain, how, self_scoped).map(|_| ());
    };
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

/// The message for a chain name that does not exist, with the closest real one among the
/// game's chains and those the mods of `content` declare.
pub(crate) fn unknown_chain(name: &str, content: &ContentDb) -> String {
    let names = super::super::Chains::ALL
        .iter()
        .map(|c| c.name)
        .chain(content.chains.iter().map(|c| c.name.as_str()));
    match crate::diagnostics::did_you_mean(name, names) {
        Some(hint) => format!("there is no chain `{name}`; {hint}"),
        None => {
            format!("there is no chain `{name}` (the chains are listed in docs/modding/lua-api.md)")
        }
    }
}

/// The message for using the chain `name` as the wrong kind.
pub(crate) fn not_a(name: &str, wanted: ChainKind, content: &ContentDb) -> String {
    let kind = match chain_kind(name) {
        Some(kind) => kind,
        None => match content.declared_chain(name).map(|d| &d.kind) {
            Some(DeclaredKind::Event) => ChainKind::Event,
            Some(DeclaredKind::Query { .. }) => ChainKind::Query,
            None => return unknown_chain(name, content),
        },
    };
    format!("`{name}` is {}, not {}", kind.noun(), wanted.noun())
}

/// A registration handle returned to scripts; `:remove()` takes the callback off its chain or
/// cancels the timer.
pub(crate) struct Registration {
    /// What was registered; `None` where nothing is kept (under `rampart check`).
    kept: Option<Kept>,
}

/// Where a registration is kept.
enum Kept {
    Chain(String, RegistrationId),
    Timer(u64),
}

impl UserData for Registration {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        // Its functions come from the API's description, as the entity functions do.
        methods.add_meta_function(
            MetaMethod::Index,
            |lua, (_, key): (AnyUserData, String)| -> mlua::Result<Value> {
                tables(lua)?.registration_api.raw_get(key)
            },
        );
    }
}

impl LuaTyped for Registration {
    const TYPE: LuaType = LuaType::Class(Class::Registration);
}

api_functions! {
    /// The functions of registrations.
    pub(crate) const REGISTRATION = [
        /// Takes the callback off its chain, or cancels the timer; gives whether it was still
        /// there.
        fn remove(lua, this: AnyUserData) -> bool {
            let this = this.borrow::<Registration>()?;
            let Some(kept) = &this.kept else {
                return Ok(false);
            };
            let link = HostLink::get(lua)?;
            link.shared.with_battle(|b| match b {
                Some(b) if b.in_query() => Err(mlua::Error::runtime(
                    "a query modifier must not remove registrations: it only computes a value",
                )),
                Some(b) => Ok(match kept {
                    Kept::Chain(chain, id) => b.chains.remove(chain, *id),
                    Kept::Timer(id) => b.timers.remove(*id),
                }),
                None => Ok(false),
            })
        }
    ];
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
    /// The script whose failure budget the callback's failures count against.
    script: ScriptId,
    owner: Owner,
    /// The handle of the entity the registration is scoped to, if it is: passed without a
    /// lookup.
    subject: Option<(EntityId, AnyUserData)>,
}

impl LuaCallback {
    /// A callback of the link's mod, counted among its live registrations until dropped.
    fn new(
        link: Rc<HostLink>,
        sandbox: Rc<Sandbox>,
        function: Function,
        owner: Owner,
        subject: Option<(EntityId, AnyUserData)>,
    ) -> Self {
        link.shared.limits.count_live(link.mod_index, true);
        let script = link
            .shared
            .budgets
            .of_callback(link.mod_index, sandbox.lua(), &function);
        LuaCallback {
            link,
            sandbox,
            function,
            script,
            owner,
            subject,
        }
    }

    /// Calls the function with arguments built in its VM; failures are reported and give `None`.
    fn call<R: mlua::FromLuaMulti, const N: usize>(
        &self,
        battle: &mut Battle,
        args: impl FnOnce(&Lua, &Battle) -> mlua::Result<[Arg; N]>,
    ) -> Option<R> {
        let shared = &self.link.shared;
        if !shared.may_run(self.script) {
            return None;
        }
        let lua = self.sandbox.lua();
        let known = self.subject.as_ref().map(|(e, h)| (*e, h));
        let prepared = args(lua, battle).and_then(|args| {
            for arg in &args {
                match (arg, known) {
                    (Arg::Entity(id), Some((subject, _))) if *id == subject => {}
                    (Arg::Entity(id), _) => self.link.handles.ensure(lua, *id)?,
                    (Arg::Value(_), _) => {}
                }
            }
            Ok(args)
        });
        let result = match prepared {
            Ok(args) => {
                let _lent =
                    shared.activate(battle, self.script, self.owner, Some(self.link.mod_index));
                let args = CallArgs {
                    cache: &self.link.handles,
                    known,
                    args,
                };
                self.sandbox.call::<R>(&self.function, args)
            }
            Err(e) => Err(self.error(&e)),
        };
        match result {
            Ok(r) => Some(r),
            Err(e) => {
                shared.report(Some(battle), self.script, e);
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
        self.link.shared.report(Some(battle), self.script, error);
    }
}

impl Drop for LuaCallback {
    fn drop(&mut self) {
        self.link
            .shared
            .limits
            .count_live(self.link.mod_index, false);
    }
}

fn one(value: Value) -> mlua::Result<[Arg; 1]> {
    Ok([Arg::Value(value)])
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
                // A cancelled command is dropped whole: what the script left in its payload
                // (a damage taken below zero before cancelling, say) is never read.
                if verdict == Value::Boolean(false) {
                    return Flow::Cancel;
                }
                if let Err(e) = payload.update_from_lua(&table, b) {
                    let e = mlua::Error::runtime(format!(
                        "{}; the payload before this modifier is kept",
                        super::payload::message(e)
                    ));
                    cb.report(b, &e);
                }
                Flow::Continue
            }),
        )
        .map_err(|e| e.to_string())
}

/// A reaction calling a Lua function with a read-only copy of the payload, made by `to_lua`.
fn lua_reaction<T: 'static>(
    cb: LuaCallback,
    to_lua: fn(&T, &Lua, &Battle) -> mlua::Result<Value>,
) -> Box<ReactionFn<Battle, T>> {
    Box::new(move |b: &mut Battle, payload: &T| {
        cb.call::<(), 1>(b, |lua, b| one(read_only(to_lua(payload, lua, b)?)));
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
            lua_reaction(reg.callback, T::to_lua),
        )
        .map_err(|e| e.to_string())
}

/// How a query modifier is called and what it returns is read, for one kind of query.
trait QueryValues<I, O>: 'static {
    /// The modifier's arguments: the value so far, then the input.
    fn args(&self, lua: &Lua, b: &Battle, value: &O, input: &I) -> mlua::Result<[Arg; 2]>;
    /// The new value from what the modifier returned (not `nil`), or why it is refused.
    fn read(&self, returned: &Value, b: &Battle, before: &O) -> mlua::Result<O>;
}

/// A query of the game's: values of a Rust type, numbers within the chain's domain.
struct Typed {
    name: &'static str,
    domain: Option<Domain>,
}

impl<I: LuaPayload, O: LuaPayload + PartialEq> QueryValues<I, O> for Typed {
    fn args(&self, lua: &Lua, b: &Battle, value: &O, input: &I) -> mlua::Result<[Arg; 2]> {
        Ok([value.arg(lua, b)?, input.arg(lua, b)?])
    }

    /// A value given back unchanged is never at fault.
    fn read(&self, returned: &Value, b: &Battle, before: &O) -> mlua::Result<O> {
        let new = O::from_lua(returned, b)?;
        if new == *before {
            return Ok(new);
        }
        new.check(self.domain).map(|()| new).map_err(|why| {
            mlua::Error::runtime(format!(
                "the `{}` modifier returned a value out of range ({why}); the value before it is kept",
                self.name
            ))
        })
    }
}

/// A query a mod declared: plain values of its declared type.
struct Declared {
    name: &'static str,
    value: FieldType,
}

impl QueryValues<DeclaredPayload, Plain> for Declared {
    fn args(
        &self,
        lua: &Lua,
        _: &Battle,
        value: &Plain,
        input: &DeclaredPayload,
    ) -> mlua::Result<[Arg; 2]> {
        Ok([
            Arg::Value(value.to_lua(lua)?),
            Arg::Value(input.fields.to_lua(lua)?),
        ])
    }

    fn read(&self, returned: &Value, _: &Battle, _: &Plain) -> mlua::Result<Plain> {
        plain::value_from_lua(self.value, returned).map_err(|why| {
            mlua::Error::runtime(format!(
                "the `{}` modifier returned a value that does not fit ({why}); the value before it is kept",
                self.name
            ))
        })
    }
}

/// A query modifier calling a Lua function: a value it returns that `values` refuses is a
/// script error, and the value before it is kept.
fn lua_query_modifier<I: Subject<EntityId> + 'static, O: 'static>(
    chain: &mut Qry<I, O>,
    reg: LuaRegistration,
    values: impl QueryValues<I, O>,
) -> RegistrationId {
    let cb = reg.callback;
    chain.modify(
        reg.owner,
        reg.scope,
        reg.priority,
        Box::new(move |b: &mut Battle, input: &I, value: &mut O| {
            let result: Option<Returned> = cb.call(b, |lua, b| values.args(lua, b, value, input));
            match result.map(|r| r.0) {
                None | Some(Value::Nil) => {}
                Some(v) => match values.read(&v, b, value) {
                    Ok(new) => *value = new,
                    Err(e) => cb.report(b, &e),
                },
            }
        }),
    )
}

/// A modifier of one of the game's queries. What it returns must lie in the chain's `domain`
/// (a value it was given back unchanged always does).
pub(crate) fn query_modifier<I: LuaPayload + Subject<EntityId>, O: LuaPayload + PartialEq>(
    chain: &mut Qry<I, O>,
    reg: LuaRegistration,
    domain: Option<Domain>,
) -> RegistrationId {
    let name = chain.name();
    lua_query_modifier(chain, reg, Typed { name, domain })
}

/// A modifier of a query a mod declared: what it returns must be of the declared type `value`.
pub(crate) fn declared_query_modifier(
    chain: &mut Qry<DeclaredPayload, Plain>,
    reg: LuaRegistration,
    value: FieldType,
) -> RegistrationId {
    let name = chain.name();
    lua_query_modifier(chain, reg, Declared { name, value })
}

/// A reaction on an event, which gets the payload as `to_lua` makes it in its own VM.
pub(crate) fn event_reaction<T: Subject<EntityId> + 'static>(
    chain: &mut Evt<T>,
    reg: LuaRegistration,
    to_lua: fn(&T, &Lua, &Battle) -> mlua::Result<Value>,
) -> RegistrationId {
    chain.react(
        reg.owner,
        reg.scope,
        reg.priority,
        lua_reaction(reg.callback, to_lua),
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
