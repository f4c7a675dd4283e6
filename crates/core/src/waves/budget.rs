//! Rate and capacity per path (model 6) and the global share, and how new difficulty is handed
//! out among paths (thesis §3.6.8–3.6.10).

use serde::{Deserialize, Serialize};

/// How far (relative) a wave's value stays below its total capacity at the least.
pub const MARGIN: f64 = 1e-9;

/// The rate and capacity a path's defence is expected to have. Once a wave hands them to a path
/// they stay with it: towers are permanent, so later waves expect at least as much there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PathBudget {
    /// Value rate `R_p`, value per second.
    pub rate: f64,
    /// Value capacity `C_p`.
    pub capacity: f64,
}

/// What a wave has to stay within: its paths' capacities and the global capacity that any of
/// them may draw on.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    /// The budgets of the wave's paths, in the wave's path order.
    pub paths: Vec<PathBudget>,
    /// Capacity shared by all paths of the wave (the global share plus the last wave's leftover).
    pub global: f64,
}

impl Budget {
    /// All capacity available to the wave: the paths' plus the global.
    pub fn total(&self) -> f64 {
        self.paths.iter().map(|p| p.capacity).sum::<f64>() + self.global
    }

    /// How far the wave's per-path `values` go beyond their paths' own capacities, summed: what
    /// the global capacity has to cover.
    pub fn overshoot(&self, values: &[f64]) -> f64 {
        self.paths
            .iter()
            .zip(values)
            .map(|(p, v)| (v - p.capacity).max(0.0))
            .sum()
    }

    /// Whether a defence with this budget beats a wave with these per-path values: the global
    /// capacity covers every path's overshoot, and the total value stays [`MARGIN`] (relative)
    /// below the total capacity, so a checker that re-parses or recomputes the numbers with its
    /// own rounding still finds `value ≤ capacity`.
    pub fn admits(&self, values: &[f64]) -> bool {
        self.overshoot(values) <= self.global
            && values.iter().sum::<f64>() <= self.total() * (1.0 - MARGIN)
    }
}

/// Adds `amount` to `levels` as evenly as their current values allow: the lowest are raised to
/// the next lowest, and so on, until the amount runs out (water filling). Equal levels stay equal.
pub fn fill_evenly(levels: &mut [f64], amount: f64) {
    if levels.is_empty() || amount <= 0.0 {
        return;
    }
    let mut order: Vec<usize> = (0..levels.len()).collect();
    order.sort_by(|&a, &b| levels[a].total_cmp(&levels[b]).then(a.cmp(&b)));
    // Find how many of the lowest levels end up raised, and the common level they reach.
    let mut sum = 0.0;
    let mut water = levels[order[0]] + amount;
    for (j, &i) in order.iter().enumerate() {
        sum += levels[i];
        let raised = j + 1;
        let level = (amount + sum) / raised as f64;
        water = level;
        match order.get(raised) {
            Some(&next) if levels[next] < level => continue,
            _ => break,
        }
    }
    for level in levels.iter_mut() {
        if *level < water {
            *level = water;
        }
    }
}

/// Splits `amount` in proportion to `weights` (negative weights count as 0); evenly when no
/// weight is positive.
pub fn split_proportionally(amount: f64, weights: &[f64]) -> Vec<f64> {
    let total: f64 = weights.iter().map(|w| w.max(0.0)).sum();
    if total <= 0.0 {
        let share = amount / weights.len().max(1) as f64;
        return vec![share; weights.len()];
    }
    weights
        .iter()
        .map(|w| amount * w.max(0.0) / total)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filling_raises_the_lowest_first() {
        let mut v = [5.0, 1.0, 3.0];
        fill_evenly(&mut v, 3.0);
        assert_eq!(v, [5.0, 3.5, 3.5]);
        let mut v = [5.0, 1.0, 3.0];
        fill_evenly(&mut v, 9.0);
        assert_eq!(v, [6.0, 6.0, 6.0]);
        let mut v = [2.0, 2.0];
        fill_evenly(&mut v, 1.0);
        assert_eq!(v, [2.5, 2.5]);
    }

    #[test]
    fn proportional_split() {
        assert_eq!(split_proportionally(6.0, &[1.0, 2.0, 0.0]), [2.0, 4.0, 0.0]);
        assert_eq!(split_proportionally(6.0, &[0.0, -1.0]), [3.0, 3.0]);
    }

    #[test]
    fn global_capacity_covers_overshoot_on_any_path() {
        let budget = Budget {
            paths: vec![
                PathBudget {
                    rate: 1.0,
                    capacity: 100.0,
                },
                PathBudget {
                    rate: 1.0,
                    capacity: 100.0,
                },
            ],
            global: 10.0,
        };
        assert!(budget.admits(&[100.0, 109.99]));
        assert!(budget.admits(&[104.0, 105.0]));
        // Exactly at the capacity is refused: the margin keeps the value a hair below it.
        assert!(!budget.admits(&[100.0, 110.0]));
        // Under-used capacity on one path does not help another.
        assert!(!budget.admits(&[50.0, 150.0]));
        assert!(!budget.admits(&[106.0, 106.0]));
    }
}
