//! Script callbacks on the battle's chains: a Lua function wrapped as a command modifier or
//! reaction, a query modifier or an event reaction, registered next to the Rust ones, and called
//! with the failure budget and the lent battle (timers, `game:after`, are called the same way);
//! running a command or query a script asked for. Which chain a name means is `chains.rs`'s;
//! the checks before a callback is registered and the handle scripts get back are
//! `api/registration.rs`'s.

use std::rc::Rc;

use mlua::{AnyUserData, Function, Lua, Value};

use super::super::core::{Battle, Cmd, Evt, Qry};
use super::super::entity::EntityId;
use super::super::mod_chains::DeclaredPayload;
use super::super::state::{Owner, Scope};
use super::api::handles::{Arg, CallArgs, Returned};
use super::api::types::message;
use super::failures::ScriptId;
use super::lend::HostLink;
use super::payload::{Domain, LuaPayload};
use super::plain::{self, Plain};
use crate::chain::{Flow, Outcome, ReactionFn, RegistrationId, Subject};
use crate::content::chains::FieldType;
use rampart_lua::{Sandbox, ScriptError};

/// A script callback as registered on a chain.
pub(crate) struct LuaRegistration {
    /// Who owns it.
    pub(super) owner: Owner,
    /// Which payloads it sees.
    pub(super) scope: Scope,
    /// Where it runs among the chain's callbacks.
    pub(super) priority: i32,
    /// The script's function.
    pub(super) callback: LuaCallback,
}

/// A Lua function and everything needed to call it from a chain.
pub(super) struct LuaCallback {
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
    pub(super) fn new(
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
    pub(super) fn call<R: mlua::FromLuaMulti, const N: usize>(
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
                        message(e)
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
