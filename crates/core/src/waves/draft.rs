//! What the two wave algorithms share: their input, the wave they build, and how that wave's
//! value, duration and attacker count are computed.

use super::budget::PathBudget;
use super::model::{self, BatchShape, Collateral};
use super::pool::AttackerPool;
use super::wave::WaveKind;
use crate::content::WaveParams;

/// Everything one wave's algorithm works with. "Slots" are the wave's paths in path order.
pub(crate) struct WaveInput<'a> {
    /// 1-based wave number.
    pub number: u32,
    /// The level's parameters.
    pub params: &'a WaveParams,
    /// The allowed spacings, ascending.
    pub spacings: &'a [f64],
    /// The attacker types, indexed by pool position everywhere below.
    pub pool: &'a AttackerPool,
    /// The wave's (α, β).
    pub collateral: Collateral,
    /// The budgets the wave's paths already have, before this wave's new rate and capacity.
    pub budgets: Vec<PathBudget>,
    /// The global capacity, leftover included.
    pub global: f64,
    /// Rate not yet handed to any path.
    pub new_rate: f64,
    /// Path capacity not yet handed to any path.
    pub new_capacity: f64,
    /// Per pool index: whether an earlier wave of the level used the type.
    pub used: &'a [bool],
}

/// A batch under construction: the attacker type on each slot.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct DraftBatch {
    /// Seconds between spawns.
    pub spacing: f64,
    /// Attackers per slot.
    pub count: u32,
    /// Pool index per slot.
    pub attackers: Vec<usize>,
}

/// A finished wave before it is written out: its batches and the budgets its paths end with.
pub(crate) struct Draft {
    /// The kind actually generated (a parallel wave may have become sequential).
    pub kind: WaveKind,
    /// The batches in spawn order.
    pub batches: Vec<DraftBatch>,
    /// Per slot, the budget with this wave's share of the new rate and capacity.
    pub budgets: Vec<PathBudget>,
}

impl WaveInput<'_> {
    /// How many paths the wave uses.
    pub fn slots(&self) -> usize {
        self.budgets.len()
    }

    /// The value of `count` attackers of pool type `attacker` at `spacing` on a path with `rate`.
    pub fn batch_value(&self, attacker: usize, spacing: f64, count: u32, rate: f64) -> f64 {
        let a = self.pool.get(attacker);
        let shape = BatchShape {
            value: a.value,
            speed: a.speed,
            spacing,
            count,
        };
        model::batch_value(shape, rate, self.collateral)
    }

    /// What batch number `index` (0-based) of `count` attackers adds to a path's wave value.
    pub fn batch_term(
        &self,
        index: usize,
        attacker: usize,
        spacing: f64,
        count: u32,
        rate: f64,
    ) -> f64 {
        let value = self.batch_value(attacker, spacing, count, rate);
        model::batch_term(index, value, self.pool.get(attacker).speed, rate)
    }

    /// The wave value on every slot (eq. 3.20), each with its own budget's rate.
    pub fn path_values(&self, batches: &[DraftBatch], budgets: &[PathBudget]) -> Vec<f64> {
        budgets
            .iter()
            .enumerate()
            .map(|(slot, b)| {
                batches.iter().enumerate().fold(0.0, |total, (i, batch)| {
                    let a = batch.attackers[slot];
                    total + self.batch_term(i, a, batch.spacing, batch.count, b.rate)
                })
            })
            .collect()
    }

    /// The spacings an attacker type may use, ascending.
    pub fn spacings_for(&self, attacker: usize) -> impl Iterator<Item = f64> + '_ {
        let min = self.pool.get(attacker).min_spacing;
        self.spacings.iter().copied().filter(move |s| *s >= min)
    }

    /// Whether the wave may use `attacker` alongside the types in `others`: at most one type per
    /// wave may be new to the level.
    pub fn may_add(&self, attacker: usize, others: impl IntoIterator<Item = usize>) -> bool {
        self.used[attacker]
            || others
                .into_iter()
                .all(|other| self.used[other] || other == attacker)
    }

    /// Whether the pool type can be drawn at all.
    pub fn drawable(&self, attacker: usize) -> bool {
        self.pool.get(attacker).weight > 0.0
    }
}

/// A wave's duration once a batch of `count` at `spacing` is appended as batch `index`
/// (0-based) to batches lasting `before` seconds. [`duration`] adds up the same way, so both
/// give the same number.
pub(crate) fn extend_duration(before: f64, index: usize, spacing: f64, count: u32) -> f64 {
    let gap = if index == 0 { 0.0 } else { model::BATCH_GAP_S };
    before + gap + f64::from(count.saturating_sub(1)) * spacing
}

/// Seconds from the first spawn of the wave to its last.
pub(crate) fn duration(batches: &[DraftBatch]) -> f64 {
    batches
        .iter()
        .enumerate()
        .fold(0.0, |d, (i, b)| extend_duration(d, i, b.spacing, b.count))
}

/// Attackers spawned, all slots together.
pub(crate) fn attacker_count(batches: &[DraftBatch]) -> u32 {
    batches
        .iter()
        .map(|b| b.count * b.attackers.len() as u32)
        .sum()
}

/// The largest count per slot, at most `room`, whose batch keeps the wave within the maximum
/// duration when appended as batch `index` to batches lasting `before` seconds; 0 if not even
/// one attacker fits.
pub(crate) fn duration_room(
    params: &WaveParams,
    before: f64,
    index: usize,
    spacing: f64,
    room: u32,
) -> u32 {
    let within = |n: u32| extend_duration(before, index, spacing, n) <= params.max_duration_s;
    if room == 0 || !within(1) {
        return 0;
    }
    super::search::last_ok(1, room, within)
}
