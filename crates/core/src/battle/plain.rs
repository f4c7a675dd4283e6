//! Plain data: what crosses from one mod's VM to another's in the payloads, inputs and values
//! of the chains mods declare — numbers, strings, booleans, entities and tables of those, never
//! a function. It belongs to no VM; `scripting/plain.rs` reads it from Lua, checked against the
//! chain's declaration, and makes it again in each VM it reaches.

use std::collections::BTreeMap;
use std::rc::Rc;

use super::entity::EntityId;
use crate::content::chains::Scalar;

/// A value that crosses from one mod's VM to another's.
#[derive(Clone, Debug, PartialEq)]
pub enum Plain {
    /// `true` or `false`.
    Boolean(bool),
    /// A finite number.
    Number(f64),
    /// A string, as the bytes Lua holds.
    String(Rc<[u8]>),
    /// An entity, made into that VM's handle of it.
    Entity(EntityId),
    /// A table, its keys in order (whole numbers first), so that every VM builds it alike.
    Table(Rc<BTreeMap<Key, Plain>>),
}

/// A key of a [`Plain`] table.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    /// A whole number (a list's index).
    Index(i64),
    /// A string.
    Name(Rc<[u8]>),
}

impl Plain {
    /// The entity in the field `name` of a table, if it holds one.
    pub(crate) fn entity_at(&self, name: &str) -> Option<EntityId> {
        match self {
            Plain::Table(entries) => match entries.get(&Key::Name(Rc::from(name.as_bytes()))) {
                Some(Plain::Entity(id)) => Some(*id),
                _ => None,
            },
            _ => None,
        }
    }
}

impl From<&Scalar> for Plain {
    fn from(scalar: &Scalar) -> Plain {
        match scalar {
            Scalar::Number(n) => Plain::Number(*n),
            Scalar::Text(t) => Plain::String(Rc::from(t.as_bytes())),
            Scalar::Boolean(b) => Plain::Boolean(*b),
        }
    }
}
