//! The per-level wave parameters (thesis §3.6.8), read from a level's data (`levels.ron`) and
//! used by the wave generator (`crate::waves`), which reads them from here.
//!
//! Every field has a default, and a level only writes the fields it changes:
//! `(max_attackers: 80, alpha: (start: 0.0, end: 0.5, waves: 6))` in RON. The defaults are our
//! choices where the thesis leaves the number to playtesting; `docs/waves.md` says why each.

use serde::{Deserialize, Serialize};

/// A number that changes from wave to wave: `(first + per_wave (i − 1)) · factor^(i − 1)` for
/// wave `i` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Growth {
    /// The value for wave 1.
    pub first: f64,
    /// Added per wave.
    #[serde(default)]
    pub per_wave: f64,
    /// Multiplied in per wave.
    #[serde(default = "one")]
    pub factor: f64,
}

fn one() -> f64 {
    1.0
}

impl Growth {
    /// The value for wave `number` (1-based).
    pub fn at(&self, number: u32) -> f64 {
        let steps = number.saturating_sub(1);
        (self.first + self.per_wave * f64::from(steps)) * libm::pow(self.factor, f64::from(steps))
    }
}

/// A number that moves linearly from `start` at wave 1 to `end` at wave `waves`, then stays.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ramp {
    /// The value for wave 1.
    pub start: f64,
    /// The value from wave `waves` on.
    pub end: f64,
    /// The wave that reaches `end`; 0 or 1 means from the first wave.
    pub waves: u32,
}

impl Ramp {
    /// The value for wave `number` (1-based).
    pub fn at(&self, number: u32) -> f64 {
        if number >= self.waves || self.waves <= 1 {
            return self.end;
        }
        let t = f64::from(number.saturating_sub(1)) / f64::from(self.waves - 1);
        self.start + (self.end - self.start) * t
    }
}

/// How likely each kind of wave is (relative weights).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindWeights {
    /// Weight of sequential waves: up to three batches, the same attackers on every path.
    pub sequential: f64,
    /// Weight of parallel waves: one batch, an attacker type of its own on each path.
    pub parallel: f64,
}

/// A wave parameter out of its range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("wave parameter `{field}` {reason}")]
pub struct InvalidParam {
    /// The parameter.
    pub field: String,
    /// What is wrong.
    pub reason: String,
}

/// Everything that shapes the waves of one level.
///
/// The difficulty (`capacity`, `rate`) is what the level setter prescribes; the rest tunes the
/// generator. Deserialises from a partial RON/JSON map: missing fields keep their defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WaveParams {
    /// Value capacity `C` expected of the whole defence at each wave (all paths together).
    pub capacity: Growth,
    /// Value rate `R` expected of the whole defence at each wave, value per second.
    pub rate: Growth,
    /// Longest a wave may take from its first spawn to its last, in seconds.
    pub max_duration_s: f64,
    /// Most attackers a wave may spawn, all paths and batches together.
    pub max_attackers: u32,
    /// Collateral share `α` (model 4), small at first while the player has few area towers.
    pub alpha: Ramp,
    /// Collateral fall-off `β` per tile (model 4), ramped like `alpha`.
    pub beta: Ramp,
    /// Chance that each path other than the wave's forced one is also used.
    pub extra_path_chance: f64,
    /// How often each kind of wave is drawn.
    pub kinds: KindWeights,
    /// Share of the capacity kept global: usable on any path, never locked to one.
    pub global_fraction: f64,
    /// A parallel wave only uses an attacker type on a path if at least this many fit the path's
    /// capacity plus the unassigned capacity, so the count can be tuned finely.
    pub parallel_min_per_path: u32,
    /// How many times a parallel wave may swap one path's attacker type before giving up.
    pub parallel_attempts: u32,
    /// How many times a sequential wave is drawn before the best draw is kept (one that reaches
    /// `fill_target` is kept at once).
    pub sequential_attempts: u32,
    /// The last batch of a sequential wave prefers attacker types that can bring the wave to at
    /// least this share of its capacity; without any, those that one more attacker would push
    /// over the capacity (the thesis's test).
    pub fill_target: f64,
    /// The spacings a batch may use, in seconds; an attacker type uses those at or above its
    /// own minimum spacing.
    pub spacings: Vec<f64>,
}

impl Default for WaveParams {
    fn default() -> Self {
        WaveParams {
            capacity: Growth {
                first: 40.0,
                per_wave: 20.0,
                factor: 1.03,
            },
            rate: Growth {
                first: 4.0,
                per_wave: 0.75,
                factor: 1.03,
            },
            max_duration_s: 30.0,
            max_attackers: 60,
            alpha: Ramp {
                start: 0.05,
                end: 0.3,
                waves: 5,
            },
            beta: Ramp {
                start: 0.1,
                end: 0.5,
                waves: 5,
            },
            extra_path_chance: 0.5,
            kinds: KindWeights {
                sequential: 2.0,
                parallel: 1.0,
            },
            global_fraction: 0.25,
            parallel_min_per_path: 3,
            parallel_attempts: 32,
            sequential_attempts: 8,
            fill_target: 0.9,
            spacings: vec![0.25, 0.5, 0.75, 1.0, 1.5, 2.0],
        }
    }
}

impl WaveParams {
    /// Checks that every number is in its range, so the generator can rely on it.
    pub fn validate(&self) -> Result<(), InvalidParam> {
        let bad = |field: &str, reason: &str| {
            Err(InvalidParam {
                field: field.to_string(),
                reason: reason.to_string(),
            })
        };
        let growths = [("capacity", self.capacity), ("rate", self.rate)];
        for (field, g) in growths {
            if !(g.first.is_finite() && g.per_wave.is_finite() && g.factor.is_finite()) {
                return bad(field, "must be finite");
            }
            if g.first < 0.0 || g.factor <= 0.0 {
                return bad(field, "needs first ≥ 0 and factor > 0");
            }
        }
        for (field, ramp) in [("alpha", self.alpha), ("beta", self.beta)] {
            let ok = |v: f64| (0.0..1.0).contains(&v);
            if !(ok(ramp.start) && ok(ramp.end)) {
                return bad(field, "start and end must lie in [0, 1)");
            }
        }
        if !(self.max_duration_s.is_finite() && self.max_duration_s >= 0.0) {
            return bad("max_duration_s", "must be a finite number ≥ 0");
        }
        if self.max_attackers == 0 {
            return bad("max_attackers", "must be at least 1");
        }
        if !(0.0..=1.0).contains(&self.extra_path_chance) {
            return bad("extra_path_chance", "must lie in [0, 1]");
        }
        let k = self.kinds;
        let weight_ok = |w: f64| w.is_finite() && w >= 0.0;
        if !(weight_ok(k.sequential) && weight_ok(k.parallel)) || k.sequential + k.parallel <= 0.0 {
            return bad("kinds", "weights must be ≥ 0 with a positive sum");
        }
        if !(0.0..1.0).contains(&self.global_fraction) {
            return bad("global_fraction", "must lie in [0, 1)");
        }
        if !(0.0..=1.0).contains(&self.fill_target) {
            return bad("fill_target", "must lie in [0, 1]");
        }
        if self.spacings.is_empty() || self.spacings.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
            return bad("spacings", "must be positive numbers, at least one");
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn growth_and_ramp() {
        let g = Growth {
            first: 10.0,
            per_wave: 5.0,
            factor: 2.0,
        };
        assert_eq!(g.at(1), 10.0);
        assert_eq!(g.at(3), 20.0 * 4.0);
        let r = Ramp {
            start: 0.0,
            end: 0.4,
            waves: 5,
        };
        assert_eq!(r.at(1), 0.0);
        assert!((r.at(3) - 0.2).abs() < 1e-12);
        assert_eq!(r.at(5), 0.4);
        assert_eq!(r.at(50), 0.4);
    }

    #[test]
    fn partial_ron_keeps_defaults() {
        let p: WaveParams =
            ron::from_str("(max_attackers: 80, alpha: (start: 0.0, end: 0.5, waves: 6))").unwrap();
        assert_eq!(p.max_attackers, 80);
        assert_eq!(p.alpha.end, 0.5);
        assert_eq!(p.beta, WaveParams::default().beta);
        assert!(p.validate().is_ok());
        assert!(ron::from_str::<WaveParams>("(max_atackers: 3)").is_err());
    }

    #[test]
    fn out_of_range_values_are_refused() {
        let mut p = WaveParams::default();
        p.alpha.end = 1.0;
        assert!(p.validate().is_err());
        let mut p = WaveParams::default();
        p.spacings.clear();
        assert!(p.validate().is_err());
        let mut p = WaveParams::default();
        p.kinds.sequential = 0.0;
        p.kinds.parallel = 0.0;
        assert!(p.validate().is_err());
    }
}
