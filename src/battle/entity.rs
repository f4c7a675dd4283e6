//! The things that exist in a battle: attackers, buildings and placed abilities.

use serde::{Deserialize, Serialize};
use slotmap::{Key, KeyData};

use crate::content::{AttackerId, BlueprintId};

slotmap::new_key_type! {
    /// A stable, generational entity id: a slot index and a version, so an id of a dead entity
    /// never refers to a newer one that reuses the slot.
    pub struct EntityId;
}

impl EntityId {
    /// The id as a number, as scripts see it.
    pub fn to_bits(self) -> u64 {
        self.data().as_ffi()
    }

    /// The id from [`EntityId::to_bits`].
    pub fn from_bits(bits: u64) -> EntityId {
        EntityId::from(KeyData::from_ffi(bits))
    }
}

impl crate::chain::Subject<EntityId> for EntityId {
    fn subject(&self) -> Option<EntityId> {
        Some(*self)
    }
}

/// What an entity is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EntityKind {
    /// An attacker of this type.
    Attacker(AttackerId),
    /// A building made from this blueprint.
    Building(BlueprintId),
    /// A placed ability made from this blueprint.
    Ability(BlueprintId),
}

impl EntityKind {
    /// The blueprint behind a building or ability.
    pub fn blueprint(self) -> Option<BlueprintId> {
        match self {
            EntityKind::Building(b) | EntityKind::Ability(b) => Some(b),
            EntityKind::Attacker(_) => None,
        }
    }

    /// The attacker type of an attacker.
    pub fn attacker(self) -> Option<AttackerId> {
        match self {
            EntityKind::Attacker(a) => Some(a),
            _ => None,
        }
    }

    /// `"attacker"`, `"building"` or `"ability"`.
    pub fn name(self) -> &'static str {
        match self {
            EntityKind::Attacker(_) => "attacker",
            EntityKind::Building(_) => "building",
            EntityKind::Ability(_) => "ability",
        }
    }
}

/// A position on the world's ground plane, in tiles (x east, y north).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Position {
    /// East.
    pub x: f64,
    /// North.
    pub y: f64,
}

impl Position {
    /// The straight-line distance to `other`.
    pub fn distance(self, other: Position) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }
}

/// One entity's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entity {
    /// What it is.
    pub kind: EntityKind,
    /// Where it is.
    pub position: Position,
    /// Hit points left (attackers).
    pub hp: f64,
    /// Hit points when whole.
    pub max_hp: f64,
    /// The tick it appeared.
    pub created_at: u64,
}
