//! Money (thesis §2.9.4), as data of the level setter (`money` in `levels.rs`): what a run starts
//! with, what a won battle pays, and what shops stock and charge. The rules are in `run::shop`
//! and `docs/runs.md`.

use serde::{Deserialize, Serialize};

/// Money's numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Money {
    /// Money at the start of a run.
    pub start: u32,
    /// Paid for a won ordinary battle.
    pub battle: u32,
    /// Paid for a won elite battle.
    pub elite: u32,
    /// Paid for a won boss battle.
    pub boss: u32,
    /// Taken off a battle's pay per point of hull lost in it (the pay never goes below 0).
    pub per_hull_lost: f64,
    /// Blueprints a shop offers.
    pub shop_blueprints: usize,
    /// Hull one repair bought in a shop gives back (never above the run's starting hull).
    pub repair: f64,
    /// Prices.
    pub prices: Prices,
}

/// What shops charge.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Prices {
    /// A common blueprint.
    pub common: u32,
    /// A rare blueprint.
    pub rare: u32,
    /// A legendary blueprint.
    pub legendary: u32,
    /// One repair.
    pub repair: u32,
    /// Removing a blueprint from the collection.
    pub removal: u32,
}

impl Money {
    /// What is wrong with the numbers, if anything.
    pub fn problem(&self) -> Option<String> {
        if !(self.per_hull_lost.is_finite() && self.per_hull_lost >= 0.0) {
            return Some("`per_hull_lost` must be a number ≥ 0".into());
        }
        if !(self.repair.is_finite() && self.repair > 0.0) {
            return Some("`repair` must be a number above 0".into());
        }
        if self.shop_blueprints > 10 {
            return Some("`shop_blueprints` must be at most 10".into());
        }
        None
    }
}
