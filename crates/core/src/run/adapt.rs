//! Adaptive difficulty, after the dynamic difficulty adaptation of the map thesis: the run
//! counts, per attacker type, the kills and the hull taken over all its battles, and when a level
//! is set up (never during a battle) every type's HP is multiplied by
//!
//! ```text
//! m(t) = clamp(1 + own × K(t)/per_kills + others × (K − K(t))/per_kills − hull × H(t)/H0, min, max)
//! strength(t) = m(t) × G
//! ```
//!
//! (then the ascension levels' `attacker_hp` added, see [`Ascended`]) with `K(t)` the kills of
//! type `t`, `K` all kills, `H(t)` the hull `t` took, `H0` the run's
//! starting hull, and `G` the difficulty setting's global multiplier: fixed for Easy, Normal and
//! Hard; for Auto `clamp(1 + auto_rate × (h/H0 − auto_target), auto_min, auto_max)` with `h` the
//! hull the run has now. The numbers are `adaptation` in `levels.ron`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::battle::TypeTally;
use crate::content::LevelSetter;
use crate::content::adaptation::{Adaptation, Ascension};

/// The run's difficulty setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Difficulty {
    /// The global multiplier follows the hull the player keeps.
    #[default]
    Auto,
    /// A fixed, low global multiplier.
    Easy,
    /// A fixed global multiplier of the data's `normal`.
    Normal,
    /// A fixed, high global multiplier.
    Hard,
}

/// The global multiplier of `difficulty` for a run with `hull` left of `starting_hull`.
pub fn global(a: &Adaptation, difficulty: Difficulty, hull: f64, starting_hull: f64) -> f64 {
    match difficulty {
        Difficulty::Easy => a.easy,
        Difficulty::Normal => a.normal,
        Difficulty::Hard => a.hard,
        Difficulty::Auto => {
            let kept = if starting_hull > 0.0 {
                hull / starting_hull
            } else {
                1.0
            };
            (1.0 + a.auto_rate * (kept - a.auto_target)).clamp(a.auto_min, a.auto_max)
        }
    }
}

/// The HP multiplier of each of `types` after the battles tallied in `record`, before the
/// global one.
pub fn multipliers<'a>(
    a: &Adaptation,
    record: &BTreeMap<String, TypeTally>,
    types: impl IntoIterator<Item = &'a str>,
    starting_hull: f64,
) -> BTreeMap<String, f64> {
    let all: f64 = record.values().map(|t| f64::from(t.kills)).sum();
    types
        .into_iter()
        .map(|t| {
            let tally = record.get(t).copied().unwrap_or_default();
            let own = f64::from(tally.kills);
            let hurt = if starting_hull > 0.0 {
                tally.hull / starting_hull
            } else {
                0.0
            };
            let m = 1.0 + a.own * own / a.per_kills + a.others * (all - own) / a.per_kills
                - a.hull * hurt;
            (t.to_string(), m.clamp(a.min, a.max))
        })
        .collect()
}

/// The rule changes of an ascension level and all those below it, summed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ascended {
    hull: f64,
    attacker_hp: f64,
    materials: f64,
    collection_limit: i64,
}

impl Ascended {
    /// The changes of levels 1 to `level` of the level setter (fewer if it has fewer).
    pub fn new(setter: &LevelSetter, level: u32) -> Ascended {
        let levels: &[Ascension] = &setter.ascension;
        levels
            .iter()
            .take(level as usize)
            .fold(Ascended::default(), |sum, a| Ascended {
                hull: sum.hull + a.hull,
                attacker_hp: sum.attacker_hp + a.attacker_hp,
                materials: sum.materials + a.materials,
                collection_limit: sum.collection_limit + i64::from(a.collection_limit),
            })
    }

    /// The run's starting hull from the level setter's: never below 1.
    pub fn hull(&self, base: f64) -> f64 {
        (base + self.hull).max(1.0)
    }

    /// An attacker type's HP multiplier: never below a tenth.
    pub fn attacker_hp(&self, multiplier: f64) -> f64 {
        (multiplier + self.attacker_hp).max(0.1)
    }

    /// A level's starting materials: never below none.
    pub fn materials(&self, base: f64) -> f64 {
        (base * (1.0 + self.materials)).max(0.0)
    }

    /// The collection limit: never below 1.
    pub fn collection_limit(&self, base: usize) -> usize {
        (base as i64 + self.collection_limit).max(1) as usize
    }
}

/// Adds a battle's tally to the run's record.
pub fn add(record: &mut BTreeMap<String, TypeTally>, battle: &BTreeMap<String, TypeTally>) {
    for (t, tally) in battle {
        let entry = record.entry(t.clone()).or_default();
        entry.kills += tally.kills;
        entry.hull += tally.hull;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers() -> Adaptation {
        Adaptation {
            own: 0.08,
            others: 0.02,
            per_kills: 100.0,
            hull: 0.5,
            min: 0.75,
            max: 1.6,
            easy: 0.8,
            normal: 1.0,
            hard: 1.25,
            auto_target: 0.75,
            auto_rate: 0.4,
            auto_min: 0.85,
            auto_max: 1.2,
        }
    }

    fn tally(kills: u32, hull: f64) -> TypeTally {
        TypeTally { kills, hull }
    }

    #[test]
    fn the_type_killed_most_grows_most_within_bounds() {
        let a = numbers();
        let record = BTreeMap::from([
            ("x".to_string(), tally(500, 0.0)),
            ("y".to_string(), tally(100, 0.0)),
        ]);
        let m = multipliers(&a, &record, ["x", "y", "z"], 20.0);
        // x: 1 + 0.08 × 5 + 0.02 × 1 = 1.42; y: 1 + 0.08 + 0.02 × 5 = 1.18; z: 1 + 0.02 × 6.
        assert!((m["x"] - 1.42).abs() < 1e-9, "{m:?}");
        assert!((m["y"] - 1.18).abs() < 1e-9, "{m:?}");
        assert!((m["z"] - 1.12).abs() < 1e-9, "{m:?}");
        let many = BTreeMap::from([("x".to_string(), tally(100_000, 0.0))]);
        assert_eq!(multipliers(&a, &many, ["x"], 20.0)["x"], a.max);
    }

    #[test]
    fn a_type_that_took_hull_grows_weaker() {
        let a = numbers();
        let record = BTreeMap::from([("x".to_string(), tally(0, 10.0))]);
        // Half the starting hull: 1 − 0.5 × 0.5.
        assert_eq!(multipliers(&a, &record, ["x"], 20.0)["x"], 0.75);
    }

    #[test]
    fn the_settings_fix_the_global_multiplier_and_auto_follows_the_hull_kept() {
        let a = numbers();
        assert_eq!(global(&a, Difficulty::Hard, 1.0, 20.0), 1.25);
        assert_eq!(global(&a, Difficulty::Easy, 20.0, 20.0), 0.8);
        // Auto: all hull kept → 1 + 0.4 × 0.25 = 1.1; a quarter kept → clamped at 0.85.
        assert!((global(&a, Difficulty::Auto, 20.0, 20.0) - 1.1).abs() < 1e-9);
        assert_eq!(global(&a, Difficulty::Auto, 5.0, 20.0), 0.85);
    }
}
