//! The difficulty a level should have, by its number.

use serde::{Deserialize, Serialize};

/// Target difficulties, level 1 first; levels past the end keep the last target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Curve {
    /// `targets[k]` is the target of level `k + 1`, each in [0, 1].
    pub targets: Vec<f64>,
}

impl Curve {
    /// The default curve: rising by 0.02 a level through 0.26 at level 8, the one value
    /// *Endless Tower*'s difficulty-curve figure states; from level 8 on it keeps rising, to a
    /// ceiling of 0.6 (our choice: harder than that the autopilot mostly loses, and the measure
    /// stops telling levels apart).
    pub fn standard() -> Curve {
        Curve {
            targets: (1..=25)
                .map(|n| (0.10 + 0.02 * f64::from(n)).min(0.6))
                .collect(),
        }
    }

    /// The target of level `level` (1-based).
    pub fn target(&self, level: u32) -> f64 {
        let i = (level.max(1) as usize - 1).min(self.targets.len().saturating_sub(1));
        self.targets.get(i).copied().unwrap_or(0.0)
    }

    /// Why the curve cannot be used, if it cannot.
    pub fn problem(&self) -> Option<String> {
        if self.targets.is_empty() {
            return Some("the curve has no targets".into());
        }
        self.targets
            .iter()
            .position(|t| !(0.0..=1.0).contains(t))
            .map(|i| {
                format!(
                    "the target of level {} is {}: targets lie between 0 and 1",
                    i + 1,
                    self.targets[i]
                )
            })
    }
}
