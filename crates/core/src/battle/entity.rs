//! The things that exist in a battle: attackers, buildings and placed abilities, with what they
//! carry — a tower's firing state, status effects.

use serde::{Deserialize, Serialize};
use slotmap::{Key, KeyData};

use crate::content::{AttackerId, BlueprintId, Priority};
use crate::worldgen::Pos;

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
        libm::hypot(self.x - other.x, self.y - other.y)
    }
}

/// Where an attacker is on the path network: a segment and how far along it (0 to 1).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Route {
    /// The segment, an index into the field's segments.
    pub segment: usize,
    /// How far along it, from 0 at its start to 1 at its end.
    pub progress: f64,
}

/// One entity's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entity {
    /// What it is.
    pub kind: EntityKind,
    /// Where it is on the ground plane.
    pub position: Position,
    /// Hit points left (attackers).
    pub hp: f64,
    /// Hit points when whole.
    pub max_hp: f64,
    /// The tick it appeared.
    pub created_at: u64,
    /// Where an attacker walks, if it walks the path network.
    pub route: Option<Route>,
    /// The tile a building stands on.
    pub tile: Option<Pos>,
    /// Quarter turns clockwise from north, for rotatable buildings and abilities.
    pub rotation: u8,
    /// Damage this entity has dealt, for the info panel.
    pub damage_dealt: f64,
    /// A tower's firing state.
    pub tower: Option<TowerState>,
    /// Status effects on it.
    pub effects: Vec<Effect>,
    /// Waves an ability still lasts (from its `duration_waves`).
    pub waves_left: Option<u32>,
    /// Ticks an ability still lasts (from its `duration_ticks`).
    pub ticks_left: Option<u32>,
}

impl Entity {
    /// A new entity of `kind` at `position`, with everything else empty.
    pub fn new(kind: EntityKind, position: Position, hp: f64, created_at: u64) -> Entity {
        Entity {
            kind,
            position,
            hp,
            max_hp: hp,
            created_at,
            route: None,
            tile: None,
            rotation: 0,
            damage_dealt: 0.0,
            tower: None,
            effects: Vec::new(),
            waves_left: None,
            ticks_left: None,
        }
    }
}

/// A tower's firing state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TowerState {
    /// Ticks until it can fire again.
    pub ready_in: u32,
    /// Which target it prefers; the player can change it.
    pub priority: Priority,
    /// What it aims at now (for turning the turret), if anything.
    pub aiming_at: Option<EntityId>,
    /// The attacker a script told it to aim at (`set_target`): first whenever the tower can
    /// hit it, until it dies or the script lets go.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<EntityId>,
}

/// How long an effect lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lasting {
    /// Ticks left.
    Ticks(u32),
    /// Waves left (ends when that many waves have finished).
    Waves(u32),
    /// Shots left (a tower's).
    Shots(u32),
}

impl Lasting {
    pub(super) fn amount(self) -> u32 {
        match self {
            Lasting::Ticks(n) | Lasting::Waves(n) | Lasting::Shots(n) => n,
        }
    }

    pub(super) fn with(self, n: u32) -> Lasting {
        match self {
            Lasting::Ticks(_) => Lasting::Ticks(n),
            Lasting::Waves(_) => Lasting::Waves(n),
            Lasting::Shots(_) => Lasting::Shots(n),
        }
    }
}

/// What happens when an effect is applied to something that already has it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stacking {
    /// Keep one: the longer duration and the stronger magnitude.
    #[default]
    Refresh,
    /// Add durations and magnitudes.
    Add,
    /// The new one replaces the old.
    Replace,
}

impl Stacking {
    /// The lowercase name scripts use: `"refresh"`, `"add"` or `"replace"`.
    pub fn name(self) -> &'static str {
        match self {
            Stacking::Refresh => "refresh",
            Stacking::Add => "add",
            Stacking::Replace => "replace",
        }
    }
}

/// A status effect on an entity.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Effect {
    /// Its name (`burning`, or a mod's own).
    pub name: String,
    /// How long it still lasts.
    pub lasting: Lasting,
    /// How strong it is; what that means depends on the effect.
    pub magnitude: f64,
    /// Who applied it.
    pub source: Option<EntityId>,
    /// Ticks since it was applied.
    pub age: u32,
}
