//! How hard a run is, as data of the level setter (`levels.rs`): the adaptive difficulty's
//! numbers (`adaptation`) — how much stronger an attacker type grows with the kills of it and of
//! the others, how much weaker with the hull it took, its bounds, and the global multiplier of
//! each difficulty setting — and the ascension levels (`ascension`), each one small rule change
//! on top of the ones below. The rules are in `run::adapt` and `docs/runs.md`.

use serde::{Deserialize, Serialize};

/// The adaptive difficulty's numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adaptation {
    /// HP added to a type per `per_kills` kills of that type (0.08: +8 %).
    pub own: f64,
    /// HP added to a type per `per_kills` kills of other types.
    pub others: f64,
    /// Kills that make one step of `own` and `others`.
    pub per_kills: f64,
    /// HP taken from a type per run's starting hull it took (0.5: half of the hull → −25 %).
    pub hull: f64,
    /// The least a type's HP multiplier may be, before the global one.
    pub min: f64,
    /// The most a type's HP multiplier may be, before the global one.
    pub max: f64,
    /// The global multiplier of the fixed settings.
    pub easy: f64,
    /// As `easy`.
    pub normal: f64,
    /// As `easy`.
    pub hard: f64,
    /// Auto: the share of the run's starting hull the player is meant to keep.
    pub auto_target: f64,
    /// Auto: the global multiplier moves by this per whole starting hull above or below target.
    pub auto_rate: f64,
    /// Auto: the least the global multiplier may be.
    pub auto_min: f64,
    /// Auto: the most the global multiplier may be.
    pub auto_max: f64,
}

impl Adaptation {
    /// What is wrong with the numbers, if anything.
    pub fn problem(&self) -> Option<String> {
        let all = [
            self.own,
            self.others,
            self.per_kills,
            self.hull,
            self.min,
            self.max,
            self.easy,
            self.normal,
            self.hard,
            self.auto_target,
            self.auto_rate,
            self.auto_min,
            self.auto_max,
        ];
        if all.iter().any(|v| !(v.is_finite() && *v >= 0.0)) {
            return Some("every number of `adaptation` must be finite and ≥ 0".into());
        }
        if self.per_kills <= 0.0 {
            return Some("`per_kills` must be above 0".into());
        }
        let positive = [self.min, self.easy, self.normal, self.hard, self.auto_min];
        if positive.iter().any(|&v| v <= 0.0)
            || self.min > self.max
            || self.auto_min > self.auto_max
        {
            return Some(
                "multipliers must be above 0, with `min` ≤ `max` and `auto_min` ≤ `auto_max`"
                    .into(),
            );
        }
        None
    }
}

/// One ascension level: a small rule change that holds, with those of every lower level, in a
/// run started at that level or above (thesis §2.1.5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ascension {
    /// What changes, for the player.
    pub description: String,
    /// Added to the run's starting hull.
    #[serde(default)]
    pub hull: f64,
    /// Added to every attacker type's HP multiplier (0.05: 5 % more HP).
    #[serde(default)]
    pub attacker_hp: f64,
    /// Added to the share of a level's starting materials the player gets (−0.1: 10 % fewer).
    #[serde(default)]
    pub materials: f64,
    /// Added to the collection limit.
    #[serde(default)]
    pub collection_limit: i32,
}

impl Ascension {
    /// What is wrong with the level, if anything.
    pub fn problem(&self) -> Option<String> {
        let numbers = [self.hull, self.attacker_hp, self.materials];
        if numbers.iter().any(|v| !v.is_finite()) {
            return Some("an ascension level's numbers must be finite".into());
        }
        if self.description.trim().is_empty() {
            return Some("an ascension level needs a `description` for the player".into());
        }
        None
    }
}
