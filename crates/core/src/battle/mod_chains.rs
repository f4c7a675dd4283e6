//! The chains mods declare in their `chains.ron` (`content::chains`): one event or query chain
//! per declaration, beside the game's own in [`ChainSet`](super::chains::ChainSet) and run by the
//! same generic chains — priorities, owners, scopes, the nesting limit, the log of events —, with
//! payloads of plain data ([`Plain`]) that cross from the declaring mod's VM to the VMs of the
//! mods reacting. Like the game's chains they are generic over the context they run on.
//!
//! Who may do what, and what scripts give them, is the Lua edge's (`scripting/chains.rs`): the
//! declaring mod fires its events and asks its queries; it and the mods that depend on it
//! directly register on them and ask its queries.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Mutex;

use super::entity::EntityId;
use super::plain::Plain;
use super::state::Owner;
use crate::chain::{Event, Query, RegistrationId, Subject};
use crate::content::ContentDb;
use crate::content::chains::{ChainDecl, DeclaredKind, FieldType};

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
    pub(crate) fn new(decl: &ChainDecl, fields: Plain) -> DeclaredPayload {
        let subject = decl.about.as_deref().and_then(|a| fields.entity_at(a));
        DeclaredPayload { fields, subject }
    }
}

impl Subject<EntityId> for DeclaredPayload {
    fn subject(&self) -> Option<EntityId> {
        self.subject
    }
}

/// One declared chain in a battle, run on `C`.
pub(crate) enum DeclaredChain<C> {
    /// An event.
    Event(Event<C, EntityId, DeclaredPayload>),
    /// A query.
    Query {
        /// The chain.
        chain: Query<C, EntityId, DeclaredPayload, Plain>,
        /// The type of its value, which its modifiers must return.
        value: FieldType,
    },
}

/// The chains the loaded mods declared, one per declaration of the content and in its order,
/// so that a declaration's place among them is its chain's.
pub struct DeclaredChains<C> {
    chains: Vec<DeclaredChain<C>>,
    by_name: BTreeMap<&'static str, usize>,
}

impl<C: 'static> DeclaredChains<C> {
    /// A chain for every declaration of `content`, with nothing registered.
    pub(super) fn new(content: &ContentDb) -> DeclaredChains<C> {
        let mut chains = DeclaredChains {
            chains: Vec::new(),
            by_name: BTreeMap::new(),
        };
        for decl in &content.chains {
            let name = intern(&decl.name);
            let chain = match &decl.kind {
                DeclaredKind::Event => DeclaredChain::Event(Event::new(name)),
                DeclaredKind::Query { value, base } => {
                    let base = Plain::from(base);
                    DeclaredChain::Query {
                        chain: Query::new(name, move |_: &mut C, _: &DeclaredPayload| base.clone()),
                        value: *value,
                    }
                }
            };
            chains.by_name.insert(name, chains.chains.len());
            chains.chains.push(chain);
        }
        chains
    }
}

impl<C> DeclaredChains<C> {
    /// Removes everything `owner` registered, on every declared chain.
    pub(super) fn remove_owner(&mut self, owner: Owner) {
        for c in &mut self.chains {
            match c {
                DeclaredChain::Event(e) => e.remove_owner(owner),
                DeclaredChain::Query { chain, .. } => chain.remove_owner(owner),
            };
        }
    }

    /// Removes every registration scoped to `subject`, on every declared chain.
    pub(super) fn remove_subject(&mut self, subject: EntityId) {
        for c in &mut self.chains {
            match c {
                DeclaredChain::Event(e) => e.remove_subject(subject),
                DeclaredChain::Query { chain, .. } => chain.remove_subject(subject),
            }
        }
    }

    /// Removes one registration of the declared chain `name`.
    pub(super) fn remove(&mut self, name: &str, id: RegistrationId) -> bool {
        match self.get_mut(name) {
            Some(DeclaredChain::Event(e)) => e.remove(id),
            Some(DeclaredChain::Query { chain, .. }) => chain.remove(id),
            None => false,
        }
    }

    /// The declared chain `name`, if there is one.
    pub(crate) fn get_mut(&mut self, name: &str) -> Option<&mut DeclaredChain<C>> {
        let i = *self.by_name.get(name)?;
        Some(&mut self.chains[i])
    }

    /// The declared event at place `i` (checked to be an event).
    pub(crate) fn event(&self, i: usize) -> &Event<C, EntityId, DeclaredPayload> {
        match &self.chains[i] {
            DeclaredChain::Event(e) => e,
            DeclaredChain::Query { .. } => unreachable!("checked to be an event"),
        }
    }

    /// The declared query at place `i` (checked to be a query).
    pub(crate) fn query(&self, i: usize) -> &Query<C, EntityId, DeclaredPayload, Plain> {
        match &self.chains[i] {
            DeclaredChain::Query { chain, .. } => chain,
            DeclaredChain::Event(_) => unreachable!("checked to be a query"),
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
