//! How close generated waves come to their capacity (the thesis's goal: very close, never over).

use serde::{Deserialize, Serialize};

use super::wave::Wave;

/// The share of capacity used (`value / capacity`) over a set of waves.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UsageStats {
    /// How many waves.
    pub waves: usize,
    /// Mean share used.
    pub mean: f64,
    /// Smallest share used.
    pub min: f64,
    /// 5th percentile (nearest rank).
    pub p05: f64,
    /// Median (nearest rank).
    pub median: f64,
    /// Largest share used.
    pub max: f64,
    /// Fraction of waves using at least 90 % of their capacity.
    pub at_least_90: f64,
    /// Fraction of waves using at least 99 % of their capacity.
    pub at_least_99: f64,
    /// Waves whose value exceeds their capacity (the generator promises none).
    pub over: usize,
    /// Waves without attackers (no attacker type fitted).
    pub empty: usize,
}

impl UsageStats {
    /// The statistics of `waves`; all zero for none.
    pub fn of<'a>(waves: impl IntoIterator<Item = &'a Wave>) -> UsageStats {
        let mut shares = Vec::new();
        let (mut over, mut empty) = (0, 0);
        for w in waves {
            shares.push(w.usage());
            over += usize::from(w.value > w.capacity);
            empty += usize::from(w.batches.is_empty());
        }
        shares.sort_by(f64::total_cmp);
        let n = shares.len();
        let rank = |p: f64| {
            if n == 0 {
                0.0
            } else {
                shares[((p * n as f64).ceil() as usize).clamp(1, n) - 1]
            }
        };
        let fraction = |t: f64| {
            if n == 0 {
                0.0
            } else {
                shares.iter().filter(|&&s| s >= t).count() as f64 / n as f64
            }
        };
        UsageStats {
            waves: n,
            mean: if n == 0 {
                0.0
            } else {
                shares.iter().sum::<f64>() / n as f64
            },
            min: shares.first().copied().unwrap_or(0.0),
            p05: rank(0.05),
            median: rank(0.5),
            max: shares.last().copied().unwrap_or(0.0),
            at_least_90: fraction(0.9),
            at_least_99: fraction(0.99),
            over,
            empty,
        }
    }
}
