//! The payloads of the battle's chains: what a command carries, an event tells, a query is
//! asked about — plain data that the rules and the scripts' adapters share.
//!
//! Each payload's fields are listed once, in [`with_payloads!`]: this file makes the structs
//! from the list, and `scripting/payload.rs` makes their Lua tables from the same list. A field
//! is marked with what scripts may do with it (`read`, `write`, `result`) and a number field
//! may name its [`Domain`]; Rust code reads and writes every field alike.

use serde::Serialize;

use super::entity::EntityId;
use crate::chain::Subject;
use crate::content::{BlueprintId, DamageType, DamageTypes};

use crate::content::chains::MAX_MAGNITUDE;

/// Calls the macro `$callback` with the field list of every payload declared from one (see the
/// module docs): `pub struct Name about FIELD bypass FN { access field: Type where DOMAIN, … }`.
/// `about FIELD` names the entity the payload concerns (scoped registrations see only theirs);
/// `bypass FN` names a function telling whether the payload skips every modifier.
macro_rules! with_payloads {
    ($callback:ident) => {
        $callback! {
            /// `damage`: hit points taken from an entity. Modifiers may change `amount` and `types` or
            /// cancel (a shield); the handler subtracts the HP and records in `dealt` how much was lost.
            pub struct Damage about target bypass hp_loss {
                /// Who is hit.
                read target: EntityId,
                /// How much damage.
                write amount: f64 where NonNegative,
                /// Its types; `hp_loss` damage skips every modifier.
                write types: DamageTypes,
                /// Who dealt it, if anyone.
                read source: Option<EntityId>,
                /// Whether it is the source's own hit — a tower's shot or an ability's blast — rather
                /// than damage a script dealt with `game:command` or an effect such as burning dealt.
                result own_hit: bool,
                /// HP actually lost.
                result dealt: f64,
            }

            /// `heal`: hit points given back to an entity, up to its maximum.
            pub struct Heal about target {
                /// Who is healed.
                read target: EntityId,
                /// How much.
                write amount: f64 where NonNegative,
                /// Who healed, if anyone.
                read source: Option<EntityId>,
                /// HP actually restored.
                result healed: f64,
            }

            /// `add_materials`, `add_energy`, `add_fuel`: a resource gained, and from where.
            pub struct Gain about source {
                /// How much (negative for a loss).
                write amount: f64 where Finite,
                /// The entity producing it, if any (scoped registrations see their own production).
                read source: Option<EntityId>,
            }

            /// `damage_hull`: hull lost, usually to an attacker reaching the Hub.
            pub struct HullDamage about attacker {
                /// How much hull (negative for a repair).
                write amount: f64 where Finite,
                /// The attacker responsible, if any.
                read attacker: Option<EntityId>,
            }

            /// `start_wave`, `wave_started`, `wave_finished`: a wave by its number (from 1).
            pub struct Wave {
                /// The wave's number.
                read wave: u32,
            }

            /// Events about an entity (`attacker_spawned`, `attacker_killed`, `attacker_reached_hub`,
            /// `building_placed`, `building_removed`, `ability_used`, `tower_fired`), with another entity
            /// involved if any (the killer of an attacker, a tower's first target).
            pub struct EntityEvent about entity {
                /// The entity the event is about.
                read entity: EntityId,
                /// Another entity involved: the killer of a killed attacker, a tower's first target.
                read other: Option<EntityId>,
            }
        }
    };
}
pub(crate) use with_payloads;

/// Makes the payload structs of [`with_payloads!`] and the entity each is about.
macro_rules! declare_payloads {
    ($(
        $(#[doc = $doc:literal])*
        pub struct $name:ident $(about $subject:ident)? $(bypass $bypass:path)? {
            $( $(#[doc = $fdoc:literal])* $access:ident $field:ident : $ty:ty
                $(where $domain:ident)? $(= $default:expr)? ),* $(,)?
        }
    )*) => {$(
        $(#[doc = $doc])*
        #[derive(Clone, Debug, PartialEq, Serialize)]
        pub struct $name {
            $( $(#[doc = $fdoc])* pub $field: $ty, )*
        }

        impl Subject<EntityId> for $name {
            fn subject(&self) -> Option<EntityId> {
                declare_payloads!(@subject self $($subject)?)
            }
            $(
                fn bypasses_modifiers(&self) -> bool {
                    $bypass(self)
                }
            )?
        }
    )*};
    (@subject $this:ident) => { None };
    (@subject $this:ident $field:ident) => { AsSubject::as_subject(&$this.$field) };
}

with_payloads!(declare_payloads);

/// HP loss ignores every damage modifier (shields, resistances, vulnerabilities).
fn hp_loss(damage: &Damage) -> bool {
    damage.types.contains(DamageType::HpLoss)
}

/// Events of the whole battle with nothing to carry (`level_won`, `defeat`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Signal;

impl Subject<EntityId> for Signal {
    fn subject(&self) -> Option<EntityId> {
        None
    }
}

/// The input of a blueprint statistic query: the blueprint, and the placed instance if there is
/// one (so modifiers can depend on where it stands).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StatOf {
    /// The blueprint.
    pub blueprint: BlueprintId,
    /// The building or ability made from it, if placed.
    pub entity: Option<EntityId>,
}

impl Subject<EntityId> for StatOf {
    fn subject(&self) -> Option<EntityId> {
        self.entity
    }
}

impl Subject<EntityId> for () {
    fn subject(&self) -> Option<EntityId> {
        None
    }
}

/// The values a number of a chain may take. A script's value outside its chain's domain (NaN,
/// an infinity, a negative speed, an interval of 0…) is a script error, and the value before
/// that script's change is kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    /// A number of at most [`MAX_MAGNITUDE`] either way.
    Finite,
    /// As [`Domain::Finite`], and not negative.
    NonNegative,
    /// As [`Domain::Finite`], and above 0.
    Positive,
}

impl Domain {
    /// The domain in words, as the docs and error messages say it.
    pub fn describe(self) -> &'static str {
        match self {
            Domain::Finite => "a finite number (at most 1e15 either way)",
            Domain::NonNegative => "a finite number ≥ 0 (at most 1e15)",
            Domain::Positive => "a finite number > 0 (at most 1e15)",
        }
    }

    /// Whether `value` lies in the domain; the error says what was expected.
    pub fn check(self, value: f64) -> Result<(), String> {
        let inside = value.abs() <= MAX_MAGNITUDE
            && match self {
                Domain::Finite => true,
                Domain::NonNegative => value >= 0.0,
                Domain::Positive => value > 0.0,
            };
        if inside {
            Ok(())
        } else {
            Err(format!("expected {}, got {value}", self.describe()))
        }
    }
}

/// The entity a payload is about, from the field that names it.
pub(crate) trait AsSubject {
    /// The entity, if any.
    fn as_subject(&self) -> Option<EntityId>;
}

impl AsSubject for EntityId {
    fn as_subject(&self) -> Option<EntityId> {
        Some(*self)
    }
}

impl AsSubject for Option<EntityId> {
    fn as_subject(&self) -> Option<EntityId> {
        *self
    }
}
