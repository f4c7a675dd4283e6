//! Augments (thesis §2.4.2): small changes a run applies to one blueprint of its collection —
//! more damage, another damage type, cheaper, longer range, shorter interval — at most
//! [`MAX_PER_BLUEPRINT`] per blueprint. One RON file each in a mod's `augments/` folder: the
//! changes the engine makes (`changes`) and, optionally, a script whose hooks run on every
//! building or ability of the augmented blueprint, like a blueprint's own script, so a mod can
//! register any modifier. `docs/modding/runs.md` shows a mod adding one.

use serde::{Deserialize, Serialize};

use super::item::content_item;
use super::{Blueprint, BlueprintKind, DamageType, Rarity, ScriptRef};

/// The most augments one blueprint may carry.
pub const MAX_PER_BLUEPRINT: usize = 2;

/// A statistic a blueprint must have for an augment to fit it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Needs {
    /// Damage per hit.
    Damage,
    /// A range.
    Range,
    /// An effect radius.
    Radius,
    /// An interval between shots or effects.
    Interval,
    /// A cooldown in waves.
    Cooldown,
    /// Any production (fuel, materials or energy).
    Production,
}

impl Needs {
    /// Whether `bp` has the statistic.
    pub fn met_by(self, bp: &Blueprint) -> bool {
        match self {
            Needs::Damage => bp.damage.is_some(),
            Needs::Range => bp.range.is_some(),
            Needs::Radius => bp.radius.is_some(),
            Needs::Interval => bp.interval.is_some(),
            Needs::Cooldown => bp.cooldown > 0,
            Needs::Production => {
                bp.fuel_production.is_some()
                    || bp.material_production.is_some()
                    || bp.energy_production.is_some()
            }
        }
    }
}

/// One change the engine makes to an augmented blueprint, through the battle's chains.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Change {
    /// Multiplies damage per hit.
    Damage(f64),
    /// Multiplies the range.
    Range(f64),
    /// Multiplies the effect radius.
    Radius(f64),
    /// Multiplies the interval (below 1: faster).
    Interval(f64),
    /// Multiplies the cost, materials and energy.
    Cost(f64),
    /// Multiplies the cooldown in waves (rounded by the battle as any cooldown is).
    Cooldown(f64),
    /// Multiplies fuel, material and energy production.
    Production(f64),
    /// Adds a damage type to every hit it deals.
    DamageType(DamageType),
}

impl Change {
    /// The multiplier, for the changes that have one.
    pub fn factor(self) -> Option<f64> {
        match self {
            Change::Damage(f)
            | Change::Range(f)
            | Change::Radius(f)
            | Change::Interval(f)
            | Change::Cost(f)
            | Change::Cooldown(f)
            | Change::Production(f) => Some(f),
            Change::DamageType(_) => None,
        }
    }
}

/// Which blueprints an augment fits.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fits {
    /// The kinds it fits; empty: every kind.
    #[serde(default)]
    pub kinds: Vec<BlueprintKind>,
    /// The statistics a blueprint must have.
    #[serde(default)]
    pub needs: Vec<Needs>,
}

content_item! {
    /// An augment.
    pub struct Augment, overridden by AugmentPatch, "augment" {
        /// Its name.
        pub name: String,
        /// What it does, in a line the cards and the info panel show.
        pub description: String,
        /// How often it is offered: `Common`, `Rare` or `Legendary`.
        pub rarity: Rarity,
        /// Which blueprints it fits.
        #[serde(default)]
        pub fits: Fits,
        /// What the engine changes.
        #[serde(default)]
        pub changes: Vec<Change>,
        /// A script whose hooks run on every entity of the augmented blueprint (path inside the mod).
        #[serde(default)]
        pub script: Option<String>,
        /// The script, resolved by the loader.
        #[serde(skip)]
        #[patch(skip)]
        pub script_ref: Option<ScriptRef>,
    }
}

impl Augment {
    /// Whether the augment fits `bp`: its kind, its statistics, and not a blueprint the game
    /// places.
    pub fn fits(&self, bp: &Blueprint) -> bool {
        (self.fits.kinds.is_empty() || self.fits.kinds.contains(&bp.kind))
            && self.fits.needs.iter().all(|n| n.met_by(bp))
            && !bp.placed_by_game()
    }
}
