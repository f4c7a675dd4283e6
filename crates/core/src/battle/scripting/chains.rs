//! The battle's chains as scripts see them: each chain's name, kind and payload for scripts and
//! the editor definitions ([`ChainInfo`], `Chains::ALL`, made from the chain table of
//! `chains.rs`), and the dispatch from a chain's name — as a script gives it — to the typed
//! chain: registering a script's callback, running a command, asking a query, firing an event.
//! Names the game does not know are the chains mods declare (`mod_chains.rs`): who may fire,
//! ask and register on each is checked here ([`usable`]), and their payloads cross between
//! VMs as plain data (`plain.rs`).

use mlua::{Lua, Value};

use super::super::chains::{ChainKind, with_chains};
use super::super::core::{Battle, Chains};
use super::super::entity::EntityId;
use super::super::mod_chains::{DeclaredChain, DeclaredPayload};
use super::super::payloads::{
    Damage, Domain, EntityEvent, Gain, Heal, HullDamage, Signal, StatOf, Wave,
};
use super::api::types::LuaType;
use super::lend::HostLink;
use super::payload::{LuaPayload, LuaShape, payload};
use super::plain;
use super::register::{self, LuaRegistration};
use crate::chain::RegistrationId;
use crate::content::chains::{ChainDecl, DeclaredKind};
use crate::content::{ContentDb, Cost, ModContent};

/// A chain as scripts see it.
#[derive(Clone, Copy, Debug)]
pub struct ChainInfo {
    /// Its name.
    pub name: &'static str,
    /// What it is for, in words.
    pub doc: &'static str,
    /// Command, query or event.
    pub kind: ChainKind,
    /// The payload of a command or event; the input of a query.
    pub payload: LuaShape,
    /// What a script may pass for the payload to `game:command`, or for the input to
    /// `game:query`.
    pub accepts: LuaType,
    /// The value of a query.
    pub value: Option<LuaShape>,
    /// The values a script may give a query's number (the domains of payload numbers are on
    /// their fields).
    pub domain: Option<Domain>,
    /// The payload field naming the entity the chain is about (registrations scoped to an
    /// entity see only payloads about it).
    pub about: Option<&'static str>,
    /// The mod that declared the chain; `None` for the game's own.
    pub declared_by: Option<&'static str>,
}

/// Makes `Chains::ALL` and the dispatch by name from the table of [`with_chains!`].
macro_rules! lua_chains {
    (
        commands { $( $(#[doc = $cdoc:literal])* $c:ident : $ct:ty ),* $(,)? }
        queries { $( $(#[doc = $qdoc:literal])* $q:ident : $qi:ty => $qo:ty $(where $qd:ident)? = $provider:ident ),* $(,)? }
        events { $( $(#[doc = $edoc:literal])* $e:ident : $et:ty ),* $(,)? }
    ) => {
        impl Chains {
            /// Every chain, in declaration order: its name, kind, and what scripts see of it.
            pub const ALL: &'static [ChainInfo] = &[
                $( ChainInfo {
                    name: stringify!($c),
                    doc: concat!($($cdoc, "\n"),*),
                    kind: ChainKind::Command,
                    payload: <$ct as LuaPayload>::SHAPE,
                    accepts: <$ct as LuaPayload>::INPUT,
                    value: None,
                    domain: None,
                    about: <$ct as LuaPayload>::ABOUT,
                    declared_by: None,
                }, )*
                $( ChainInfo {
                    name: stringify!($q),
                    doc: concat!($($qdoc, "\n"),*),
                    kind: ChainKind::Query,
                    payload: <$qi as LuaPayload>::SHAPE,
                    accepts: <$qi as LuaPayload>::INPUT,
                    value: Some(<$qo as LuaPayload>::SHAPE),
                    domain: payload!(@domain $($qd)?),
                    about: <$qi as LuaPayload>::ABOUT,
                    declared_by: None,
                }, )*
                $( ChainInfo {
                    name: stringify!($e),
                    doc: concat!($($edoc, "\n"),*),
                    kind: ChainKind::Event,
                    payload: <$et as LuaPayload>::SHAPE,
                    accepts: <$et as LuaPayload>::INPUT,
                    value: None,
                    domain: None,
                    about: <$et as LuaPayload>::ABOUT,
                    declared_by: None,
                }, )*
            ];
        }

        /// Registers a script's modifier on the chain `name`.
        pub(crate) fn lua_modify(b: &mut Battle, name: &str, reg: LuaRegistration) -> Result<RegistrationId, String> {
            match name {
                $( stringify!($c) => register::command_modifier(&mut b.chains.$c, reg), )*
                $( stringify!($q) => Ok(register::query_modifier(
                    &mut b.chains.$q,
                    reg,
                    payload!(@domain $($qd)?),
                )), )*
                $( stringify!($e) => Err(format!("`{}` is an event: use react, not modify", stringify!($e))), )*
                _ => declared_modify(b, name, reg),
            }
        }

        /// Registers a script's reaction on the chain `name`.
        pub(crate) fn lua_react(b: &mut Battle, name: &str, reg: LuaRegistration) -> Result<RegistrationId, String> {
            match name {
                $( stringify!($c) => register::command_reaction(&mut b.chains.$c, reg), )*
                $( stringify!($q) => Err(format!("`{}` is a query: queries have no reactions, use modify", stringify!($q))), )*
                $( stringify!($e) => Ok(register::event_reaction(&mut b.chains.$e, reg, <$et as LuaPayload>::to_lua)), )*
                _ => declared_react(b, name, reg),
            }
        }

        /// Runs the command `name` with a payload built from a script's table.
        pub(crate) fn lua_command(b: &mut Battle, lua: &Lua, name: &str, payload: &Value) -> mlua::Result<Value> {
            match name {
                $( stringify!($c) => register::run_command(b, lua, |b: &Battle| &b.chains.$c, payload), )*
                _ => Err(mlua::Error::runtime(not_a(name, ChainKind::Command, &b.content))),
            }
        }

        /// Computes the query `name` for an input given by a script.
        pub(crate) fn lua_query(b: &mut Battle, lua: &Lua, name: &str, input: &Value) -> mlua::Result<Value> {
            match name {
                $( stringify!($q) => register::run_query(b, lua, |b: &Battle| &b.chains.$q, input), )*
                _ if b.content.declared_chain(name).is_some() => {
                    let user = HostLink::get(lua)?.mod_index;
                    declared_query(b, lua, user, name, input).map_err(mlua::Error::runtime)
                }
                _ => Err(mlua::Error::runtime(not_a(name, ChainKind::Query, &b.content))),
            }
        }
    };
}

with_chains!(lua_chains);

/// The message for a chain name that does not exist, with the closest real one among the
/// game's chains and those the mods of `content` declare.
pub(crate) fn unknown_chain(name: &str, content: &ContentDb) -> String {
    let names = Chains::ALL
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

/// The kind of the chain called `name`, if there is one.
pub fn chain_kind(name: &str) -> Option<ChainKind> {
    Chains::ALL.iter().find(|c| c.name == name).map(|c| c.kind)
}

/// What a script does with a declared chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Use {
    /// `game:react` or `self:react`.
    React,
    /// `game:modify` or `self:modify`.
    Modify,
    /// `game:event`.
    Fire,
    /// `game:query` or `entity:query`.
    Ask,
}

/// The declaration of `name`, and its place among the declarations (that of its chain among
/// the battle's), if the scripts of mod `user` may use it so; otherwise why not. `self_scoped`
/// is set for `self:react` and `self:modify`, which need a chain about an entity.
pub(crate) fn usable<'a>(
    content: &'a ContentDb,
    user: usize,
    name: &str,
    how: Use,
    self_scoped: bool,
) -> Result<(usize, &'a ChainDecl), String> {
    let (i, decl) = content
        .chains
        .iter()
        .enumerate()
        .find(|(_, d)| d.name == name)
        .ok_or_else(|| unknown_chain(name, content))?;
    let is_event = decl.kind == DeclaredKind::Event;
    match how {
        Use::Modify if is_event => {
            return Err(format!("`{name}` is an event: use react, not modify"));
        }
        Use::React if !is_event => {
            return Err(format!(
                "`{name}` is a query: queries have no reactions, use modify"
            ));
        }
        Use::Fire if !is_event => {
            return Err(format!(
                "`{name}` is a query: ask it with game:query, events are fired"
            ));
        }
        Use::Ask if is_event => {
            return Err(format!("`{name}` is an event: fire it with game:event"));
        }
        _ => {}
    }
    let user_mod: &ModContent = &content.mods[user];
    let own = decl.mod_id == user_mod.id;
    if how == Use::Fire && !own {
        return Err(format!(
            "`{name}` is an event of `{}`: only its own scripts fire it (a mod announces what happens in it; react to it instead)",
            decl.mod_id
        ));
    }
    if !own && !user_mod.dependencies.contains(&decl.mod_id) {
        return Err(format!(
            "`{name}` is declared by `{0}`, which is not a dependency of `{1}`; add (id: \"{0}\") to the dependencies in {1}'s mod.ron",
            decl.mod_id, user_mod.id
        ));
    }
    if self_scoped && decl.about.is_none() {
        return Err(format!(
            "`{name}` is about no entity (its declaration has no `about`), so a registration of `self` would never run; use game:{}",
            if how == Use::Modify {
                "modify"
            } else {
                "react"
            }
        ));
    }
    Ok((i, decl))
}

/// Registers a script's reaction on the declared event `name` (checked by [`usable`] first).
fn declared_react(
    b: &mut Battle,
    name: &str,
    reg: LuaRegistration,
) -> Result<RegistrationId, String> {
    match b.chains.declared.get_mut(name) {
        Some(DeclaredChain::Event(e)) => Ok(register::event_reaction(e, reg, |payload, lua, _| {
            payload.fields.to_lua(lua)
        })),
        _ => Err(format!("`{name}` is no declared event")),
    }
}

/// Registers a script's modifier on the declared query `name` (checked by [`usable`] first).
fn declared_modify(
    b: &mut Battle,
    name: &str,
    reg: LuaRegistration,
) -> Result<RegistrationId, String> {
    match b.chains.declared.get_mut(name) {
        Some(DeclaredChain::Query { chain, value }) => {
            Ok(register::declared_query_modifier(chain, reg, *value))
        }
        _ => Err(format!("`{name}` is no declared query")),
    }
}

/// Fires the declared event `name` with the payload a script of mod `user` gave.
pub(crate) fn lua_event(
    b: &mut Battle,
    user: usize,
    name: &str,
    payload: &Value,
) -> Result<(), String> {
    if let Some(kind) = chain_kind(name) {
        return Err(format!(
            "`{name}` is {} of the game's, which the game runs itself; game:event fires the events a mod declares in its chains.ron",
            kind.noun()
        ));
    }
    let content = b.content.clone();
    let (i, decl) = usable(&content, user, name, Use::Fire, false)?;
    let payload = DeclaredPayload::new(decl, plain::fields_from_lua(decl, payload)?);
    b.emit(move |b: &Battle| b.chains.declared.event(i), &payload);
    Ok(())
}

/// Asks the declared query `name` for the input a script of mod `user` gave: a table of its
/// fields, or (for a query about an entity) the entity alone.
fn declared_query(
    b: &mut Battle,
    lua: &Lua,
    user: usize,
    name: &str,
    input: &Value,
) -> Result<Value, String> {
    let content = b.content.clone();
    let (i, decl) = usable(&content, user, name, Use::Ask, false)?;
    // A query about an entity may be asked for the entity alone: `self:query(name)`.
    let input = match (&decl.about, is_entity(input)) {
        (Some(about), true) => {
            let fields = lua.create_table().map_err(|e| e.to_string())?;
            fields
                .raw_set(about.as_str(), input)
                .map_err(|e| e.to_string())?;
            Value::Table(fields)
        }
        (None, true) => {
            return Err(format!(
                "`{name}` is about no entity (its declaration has no `about`): ask it with game:query and a table of its fields"
            ));
        }
        (_, false) => input.clone(),
    };
    let fields = plain::fields_from_lua(decl, &input)?;
    let input = DeclaredPayload::new(decl, fields);
    let value = b.query(move |b: &Battle| b.chains.declared.query(i), &input);
    value.to_lua(lua).map_err(|e| e.to_string())
}

/// Whether a script passed an entity (its handle, or `self`) rather than a table of fields.
fn is_entity(value: &Value) -> bool {
    match value {
        Value::UserData(_) => true,
        Value::Table(t) => t.metatable().is_some(),
        _ => false,
    }
}
