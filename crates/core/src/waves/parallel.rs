//! Parallel waves (thesis §3.6.10, Algorithm 6): one batch, the same count and spacing on every
//! path of the wave, an attacker type of its own on each.
//!
//! The new rate and capacity stay unassigned while the wave is built. A random spacing is drawn;
//! each path gets a random type among those valid for it (a few fit its capacity plus the
//! unassigned capacity, and enough of them can use its own capacity up). Two tests then judge the
//! set: the count that uses up every path's capacity must fit the total capacity (if not, the
//! path overshooting most gets another type), and the most attackers the limits allow, plus
//! one, must overshoot it (if not, the path overshooting least gets another type). A set that
//! passes gets the largest count that fits, found by binary search, and the new rate and capacity
//! go to the paths in proportion to how far each overshoots its own capacity.
//!
//! Fitting is always judged exactly: the new rate and capacity are distributed as they would be
//! for that count, and the wave's values recomputed with the resulting rates. The thesis instead
//! estimates the new rate's effect as one gap of firing per attacker after the first.

use super::budget::{Budget, PathBudget, split_proportionally};
use super::draft::{Draft, DraftBatch, WaveInput, duration_room};
use super::search::{first_ok, last_ok};
use super::wave::WaveKind;
use crate::rng::Rng;

/// Generates a parallel wave, or `None` when no set of attacker types passes both tests within
/// the allowed attempts (the caller then makes the wave sequential).
pub(crate) fn generate(input: &WaveInput, rng: &mut Rng) -> Option<Draft> {
    let slots = input.slots();
    let spacing = input.spacings[rng.index(input.spacings.len())];
    let room = input.params.max_attackers / slots as u32;
    let limit = duration_room(input.params, 0.0, 0, spacing, room);
    if limit == 0 {
        return None;
    }
    // The global and new capacity are shared by all paths of the wave: each path's fair share.
    let free = (input.global + input.new_capacity) / slots as f64;
    let few = input.params.parallel_min_per_path.clamp(1, limit);
    let valid: Vec<Vec<usize>> = input
        .budgets
        .iter()
        .map(|path| {
            (0..input.pool.len())
                .filter(|&a| {
                    input.drawable(a)
                        && input.pool.get(a).min_spacing <= spacing
                        && input.batch_value(a, spacing, few, path.rate) <= path.capacity + free
                        && input.batch_value(a, spacing, limit, path.rate) >= path.capacity
                })
                .collect()
        })
        .collect();
    let mut set: Vec<usize> = Vec::with_capacity(slots);
    for options in &valid {
        let a = pick(input, options, &set, None, rng)?;
        set.push(a);
    }

    let mut attempts = 0;
    let lowest = loop {
        let fill = Fill {
            input,
            spacing,
            set: &set,
        };
        let lowest = fill.lowest_count(limit);
        let low = fill.check(lowest);
        let change = if !low.fits {
            Some(extreme(&low.over, |a, b| a > b))
        } else {
            let high = fill.check(limit + 1);
            high.fits.then(|| extreme(&high.over, |a, b| a < b))
        };
        let Some(slot) = change else {
            break Some(lowest);
        };
        if attempts == input.params.parallel_attempts {
            // Out of attempts. A set that only passes the first test would fit but leave
            // capacity unused; a sequential wave does better.
            break None;
        }
        attempts += 1;
        let others: Vec<usize> = (0..slots).filter(|&s| s != slot).map(|s| set[s]).collect();
        match pick(input, &valid[slot], &others, Some(set[slot]), rng) {
            Some(a) => set[slot] = a,
            None => break None,
        }
    }?;

    let fill = Fill {
        input,
        spacing,
        set: &set,
    };
    let most = last_ok(lowest, limit, |n| fill.check(n).fits);
    // Attackers past n* add no value: stop at the smallest count that reaches the best.
    let best = fill.check(most).total;
    let useful = first_ok(lowest, most, |n| fill.check(n).total >= best);
    let count = if fill.check(useful).fits {
        useful
    } else {
        most
    };
    Some(Draft {
        kind: WaveKind::Parallel,
        budgets: fill.check(count).budgets,
        batches: vec![fill.batch(count)],
    })
}

/// A set of attacker types (one per slot) at one spacing.
struct Fill<'a> {
    input: &'a WaveInput<'a>,
    spacing: f64,
    set: &'a [usize],
}

/// How a count of a [`Fill`] turns out.
struct Check {
    /// Whether it fits the capacity, once the new rate and capacity are handed out.
    fits: bool,
    /// Per slot, its value (at the paths' old rates) less its old capacity.
    over: Vec<f64>,
    /// The slots' budgets with their shares of the new rate and capacity.
    budgets: Vec<PathBudget>,
    /// The wave's total value under those budgets.
    total: f64,
}

impl Fill<'_> {
    fn batch(&self, count: u32) -> DraftBatch {
        DraftBatch {
            spacing: self.spacing,
            count,
            attackers: self.set.to_vec(),
        }
    }

    /// The smallest count whose value reaches every path's own capacity (at most `limit`,
    /// which validity guarantees is enough).
    fn lowest_count(&self, limit: u32) -> u32 {
        let input = self.input;
        input
            .budgets
            .iter()
            .zip(self.set)
            .map(|(path, &a)| {
                first_ok(1, limit, |n| {
                    input.batch_value(a, self.spacing, n, path.rate) >= path.capacity
                })
            })
            .max()
            .unwrap_or(1)
    }

    /// Hands the new rate and capacity out in proportion to each path's overshoot at `count`,
    /// and judges the wave with the resulting budgets.
    fn check(&self, count: u32) -> Check {
        let input = self.input;
        let batch = [self.batch(count)];
        let old = input.path_values(&batch, &input.budgets);
        let over: Vec<f64> = old
            .iter()
            .zip(&input.budgets)
            .map(|(v, path)| v - path.capacity)
            .collect();
        let capacity = split_proportionally(input.new_capacity, &over);
        let rate = split_proportionally(input.new_rate, &over);
        let budgets: Vec<PathBudget> = input
            .budgets
            .iter()
            .enumerate()
            .map(|(slot, path)| PathBudget {
                rate: path.rate + rate[slot],
                capacity: path.capacity + capacity[slot],
            })
            .collect();
        let values = input.path_values(&batch, &budgets);
        let budget = Budget {
            paths: budgets,
            global: input.global,
        };
        Check {
            fits: budget.admits(&values),
            over,
            total: values.iter().sum(),
            budgets: budget.paths,
        }
    }
}

/// The slot whose overshoot is the most extreme by `before` (the first such slot on ties).
fn extreme(over: &[f64], before: impl Fn(f64, f64) -> bool) -> usize {
    let mut best = 0;
    for (slot, &o) in over.iter().enumerate() {
        if before(o, over[best]) {
            best = slot;
        }
    }
    best
}

/// A weighted random type among `options` that the wave may add next to `others`, other than
/// `current` (the type being replaced); `None` if there is none.
fn pick(
    input: &WaveInput,
    options: &[usize],
    others: &[usize],
    current: Option<usize>,
    rng: &mut Rng,
) -> Option<usize> {
    let allowed: Vec<usize> = options
        .iter()
        .copied()
        .filter(|&a| Some(a) != current && input.may_add(a, others.iter().copied()))
        .collect();
    let weights: Vec<f64> = allowed.iter().map(|&a| input.pool.get(a).weight).collect();
    rng.weighted_index(&weights).map(|i| allowed[i])
}
