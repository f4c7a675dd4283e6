//! The chains mods declare in their `chains.ron` (`content::chains`): one event or query chain
//! per declaration, beside the game's own in [`Chains`](super::Chains) and run by the same
//! generic chains — priorities, owners, scopes, the nesting limit, the log of events —, with
//! payloads of plain data ([`Plain`]) that cross from the declaring mod's VM to the VMs of the
//! mods reacting.
//!
//! Who may do what, checked by [`usable`]: the declaring mod fires its events and asks its
//! queries; it and the mods that depend on it directly register on them and ask its queries.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use mlua::{Lua, Value};

use super::scripting::plain::{self, Plain};
use super::scripting::register::{self, LuaRegistration};
use super::{Battle, EntityId, Evt, Owner, Qry};
use crate::chain::{RegistrationId, Subject};
use crate::content::chains::{ChainDecl, DeclaredKind, FieldType};
use crate::content::{ContentDb, ModContent};

/// The payload of a declared event, or the input of a declared query: its fields, and the
/// entity its `about` field names.
#[derive(Clone, Debug, PartialEq)]
pub struct DeclaredPayload {
    /// The fields, as a table.
    pub fields: Plain,
    subject: Option<EntityId>,
}

impl DeclaredPayload {
    /// A payload of `decl` with these fields.
    fn new(decl: &ChainDecl, fields: Plain) -> DeclaredPayload {
        let subject = decl.about.as_deref().and_then(|a| fields.entity_at(a));
        DeclaredPayload { fields, subject }
    }
}

impl Subject<EntityId> for DeclaredPayload {
    fn subject(&self) -> Option<EntityId> {
        self.subject
    }
}

/// One declared chain in a battle.
enum Chain {
    Event(Evt<DeclaredPayload>),
    Query {
        chain: Qry<DeclaredPayload, Plain>,
        /// The type of its value, which its modifiers must return.
        value: FieldType,
    },
}

/// The chains the loaded mods declared, one per declaration of the content and in its order,
/// so that a declaration's place among them is its chain's.
#[derive(Default)]
pub struct DeclaredChains {
    chains: Vec<Chain>,
    by_name: BTreeMap<&'static str, usize>,
}

impl DeclaredChains {
    /// A chain for every declaration of `content`, with nothing registered.
    pub(super) fn new(content: &ContentDb) -> DeclaredChains {
        let mut chains = DeclaredChains::default();
        for decl in &content.chains {
            let name = intern(&decl.name);
            let chain = match &decl.kind {
                DeclaredKind::Event => Chain::Event(Evt::new(name)),
                DeclaredKind::Query { value, base } => {
                    let base = Plain::from(base);
                    Chain::Query {
                        chain: Qry::new(name, move |_: &mut Battle, _: &DeclaredPayload| {
                            base.clone()
                        }),
                        value: *value,
                    }
                }
            };
            chains.by_name.insert(name, chains.chains.len());
            chains.chains.push(chain);
        }
        chains
    }

    /// Removes everything `owner` registered, on every declared chain.
    pub(super) fn remove_owner(&mut self, owner: Owner) {
        for c in &mut self.chains {
            match c {
                Chain::Event(e) => e.remove_owner(owner),
                Chain::Query { chain, .. } => chain.remove_owner(owner),
            };
        }
    }

    /// Removes every registration scoped to `subject`, on every declared chain.
    pub(super) fn remove_subject(&mut self, subject: EntityId) {
        for c in &mut self.chains {
            match c {
                Chain::Event(e) => e.remove_subject(subject),
                Chain::Query { chain, .. } => chain.remove_subject(subject),
            }
        }
    }

    /// Removes one registration of the declared chain `name`.
    pub(super) fn remove(&mut self, name: &str, id: RegistrationId) -> bool {
        match self.get_mut(name) {
            Some(Chain::Event(e)) => e.remove(id),
            Some(Chain::Query { chain, .. }) => chain.remove(id),
            None => false,
        }
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut Chain> {
        let i = *self.by_name.get(name)?;
        Some(&mut self.chains[i])
    }

    fn event(&self, i: usize) -> &Evt<DeclaredPayload> {
        match &self.chains[i] {
            Chain::Event(e) => e,
            Chain::Query { .. } => unreachable!("checked to be an event"),
        }
    }

    fn query(&self, i: usize) -> &Qry<DeclaredPayload, Plain> {
        match &self.chains[i] {
            Chain::Query { chain, .. } => chain,
            Chain::Event(_) => unreachable!("checked to be a query"),
        }
    }
}

/// `name` (of a declared chain, or another text of its declaration) for as long as the process
/// runs: chains, the battle's log and the editor definitions describe chains with `&'static
/// str`, as the game's own are compiled in. Each text is kept once, however often content is
/// loaded.
pub(crate) fn intern(name: &str) -> &'static str {
    static NAMES: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut names = NAMES
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    match names.get(name) {
        Some(kept) => kept,
        None => {
            let kept: &'static str = Box::leak(name.into());
            names.insert(kept);
            kept
        }
    }
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
        .ok_or_else(|| register::unknown_chain(name, content))?;
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
pub(crate) fn lua_react(
    b: &mut Battle,
    name: &str,
    reg: LuaRegistration,
) -> Result<RegistrationId, String> {
    match b.chains.declared.get_mut(name) {
        Some(Chain::Event(e)) => Ok(register::event_reaction(e, reg, |payload, lua, _| {
            payload.fields.to_lua(lua)
        })),
        _ => Err(format!("`{name}` is no declared event")),
    }
}

/// Registers a script's modifier on the declared query `name` (checked by [`usable`] first).
pub(crate) fn lua_modify(
    b: &mut Battle,
    name: &str,
    reg: LuaRegistration,
) -> Result<RegistrationId, String> {
    match b.chains.declared.get_mut(name) {
        Some(Chain::Query { chain, value }) => {
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
    if let Some(kind) = super::chain_kind(name) {
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
pub(crate) fn lua_query(
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
