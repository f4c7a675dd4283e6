//! Sequential waves (thesis §3.6.9, Algorithm 5): up to three batches, one attacker type each,
//! the same attackers on every path of the wave.
//!
//! The new rate and capacity are first spread over the wave's paths as evenly as their budgets
//! allow. Each batch then picks a random valid attacker type — not yet in this wave, at most one
//! type new to the level, at least one attacker per path fitting the capacity and the limits —
//! and a random valid spacing. Batches before the last take a random count up to the most that
//! fits (cut by a third when even that cannot use up the capacity, to leave room for the next
//! batches); the last batch only considers types and spacings that can use the capacity up
//! (preferring those that reach the fill target) and takes the spacing and count that leave the
//! least capacity unused.

use super::budget::{Budget, PathBudget, fill_evenly};
use super::draft::{Draft, DraftBatch, WaveInput, duration_room, extend_duration};
use super::search::{first_ok, last_ok};
use super::wave::WaveKind;
use crate::rng::Rng;

/// Generates a sequential wave. It has no batches only if no attacker type fits at all.
///
/// Algorithm 5 is run up to `sequential_attempts` times: the first wave reaching the fill target
/// is kept, otherwise the one with the most value (the earliest on ties). This is the thesis's
/// rejection sampling on top of its algorithm, for the waves whose random early batches leave
/// the last one nothing good to choose.
pub(crate) fn generate(input: &WaveInput, rng: &mut Rng) -> Draft {
    let budget = even_budget(input);
    let target = input.params.fill_target * budget.total();
    let mut best: Option<Partial> = None;
    for _ in 0..input.params.sequential_attempts.max(1) {
        let wave = attempt(input, &budget, rng);
        let value: f64 = wave.values.iter().sum();
        if best
            .as_ref()
            .is_none_or(|b| value > b.values.iter().sum::<f64>())
        {
            best = Some(wave);
        }
        if value >= target {
            break;
        }
    }
    Draft {
        kind: WaveKind::Sequential,
        batches: best.map(|b| b.batches).unwrap_or_default(),
        budgets: budget.paths,
    }
}

/// Most batches wave `number` may have: one for waves 1–2, two for 3–4, three after.
fn max_batches(number: u32) -> u32 {
    match number {
        0..=2 => 1,
        3..=4 => 2,
        _ => 3,
    }
}

/// One run of Algorithm 5.
fn attempt(input: &WaveInput, budget: &Budget, rng: &mut Rng) -> Partial {
    let planned = rng.range_i64(1, i64::from(max_batches(input.number))) as usize;
    let mut wave = Partial::new(input.slots());
    for i in 0..planned {
        let last = i + 1 == planned;
        match next_batch(input, budget, &wave, last, rng) {
            Some(batch) => wave.push(input, budget, batch),
            None => {
                // Nothing fits after the previous batch, so that one is the last after all:
                // choose it again the way a last batch is chosen. Its old choice still fits.
                if i > 0 {
                    wave = wave.without_last(input, budget);
                    if let Some(batch) = next_batch(input, budget, &wave, true, rng) {
                        wave.push(input, budget, batch);
                    }
                }
                break;
            }
        }
    }
    wave
}

/// The wave's budget once the new rate and capacity are spread evenly over its paths.
fn even_budget(input: &WaveInput) -> Budget {
    let mut capacities: Vec<f64> = input.budgets.iter().map(|b| b.capacity).collect();
    let mut rates: Vec<f64> = input.budgets.iter().map(|b| b.rate).collect();
    fill_evenly(&mut capacities, input.new_capacity);
    fill_evenly(&mut rates, input.new_rate);
    Budget {
        paths: rates
            .into_iter()
            .zip(capacities)
            .map(|(rate, capacity)| PathBudget { rate, capacity })
            .collect(),
        global: input.global,
    }
}

/// The batches chosen so far, with running per-path values, count and duration.
struct Partial {
    batches: Vec<DraftBatch>,
    values: Vec<f64>,
    count: u32,
    duration: f64,
}

impl Partial {
    fn new(slots: usize) -> Partial {
        Partial {
            batches: Vec::new(),
            values: vec![0.0; slots],
            count: 0,
            duration: 0.0,
        }
    }

    /// The same batches but the last, rebuilt so the running values add up in the same order.
    fn without_last(mut self, input: &WaveInput, budget: &Budget) -> Partial {
        self.batches.pop();
        let mut rebuilt = Partial::new(input.slots());
        for batch in self.batches {
            rebuilt.push(input, budget, batch);
        }
        rebuilt
    }

    fn push(&mut self, input: &WaveInput, budget: &Budget, batch: DraftBatch) {
        let index = self.batches.len();
        for (slot, path) in budget.paths.iter().enumerate() {
            let a = batch.attackers[slot];
            self.values[slot] += input.batch_term(index, a, batch.spacing, batch.count, path.rate);
        }
        self.count += batch.count * input.slots() as u32;
        self.duration = extend_duration(self.duration, index, batch.spacing, batch.count);
        self.batches.push(batch);
    }
}

/// One attacker type at one spacing as the next batch.
struct Candidate<'a> {
    input: &'a WaveInput<'a>,
    budget: &'a Budget,
    wave: &'a Partial,
    attacker: usize,
    spacing: f64,
}

impl Candidate<'_> {
    /// Per-path wave values with `count` of the candidate appended.
    fn values(&self, count: u32) -> Vec<f64> {
        let index = self.wave.batches.len();
        let (a, g) = (self.attacker, self.spacing);
        self.wave
            .values
            .iter()
            .zip(&self.budget.paths)
            .map(|(before, path)| before + self.input.batch_term(index, a, g, count, path.rate))
            .collect()
    }

    fn fits(&self, count: u32) -> bool {
        self.budget.admits(&self.values(count))
    }

    fn total(&self, count: u32) -> f64 {
        self.values(count).iter().sum()
    }

    /// The most useful count and what it gives, or `None` if the batch cannot be added (not one
    /// attacker per path fits) or would add no value.
    fn evaluate(&self) -> Option<Choice> {
        let input = self.input;
        let slots = input.slots() as u32;
        let room = input.params.max_attackers.saturating_sub(self.wave.count) / slots;
        let index = self.wave.batches.len();
        let limit = duration_room(input.params, self.wave.duration, index, self.spacing, room);
        if limit == 0 || !self.fits(1) {
            return None;
        }
        let most = last_ok(1, limit, |n| self.fits(n));
        // Past n* extra attackers add no value; stop at the smallest count reaching the best.
        let best = self.total(most);
        let useful = first_ok(1, most, |n| self.total(n) >= best);
        let count = if self.fits(useful) { useful } else { most };
        let value = self.total(count);
        if value <= self.wave.values.iter().sum::<f64>() {
            return None;
        }
        Some(Choice {
            attacker: self.attacker,
            spacing: self.spacing,
            count,
            value,
            uses_up: !self.fits(most + 1),
        })
    }
}

/// A valid way to fill the next batch.
#[derive(Clone, Copy, Debug)]
struct Choice {
    attacker: usize,
    spacing: f64,
    /// The most useful count that fits.
    count: u32,
    /// The wave's total value with that count.
    value: f64,
    /// Whether one more attacker would overshoot the capacity: the count is bound by the
    /// capacity, not by the limits or by attackers ceasing to add value.
    uses_up: bool,
}

/// Picks the next batch, or `None` when no attacker type can be added.
fn next_batch(
    input: &WaveInput,
    budget: &Budget,
    wave: &Partial,
    last: bool,
    rng: &mut Rng,
) -> Option<DraftBatch> {
    let in_wave: Vec<usize> = wave.batches.iter().map(|b| b.attackers[0]).collect();
    // Valid types, each with its valid spacings, in pool order.
    let mut valid: Vec<Vec<Choice>> = Vec::new();
    for attacker in 0..input.pool.len() {
        if !input.drawable(attacker)
            || in_wave.contains(&attacker)
            || !input.may_add(attacker, in_wave.iter().copied())
        {
            continue;
        }
        let choices: Vec<Choice> = input
            .spacings_for(attacker)
            .filter_map(|spacing| {
                Candidate {
                    input,
                    budget,
                    wave,
                    attacker,
                    spacing,
                }
                .evaluate()
            })
            .collect();
        if !choices.is_empty() {
            valid.push(choices);
        }
    }
    if valid.is_empty() {
        return None;
    }
    let (choice, count) = if last {
        last_batch(input, budget, &valid, rng)
    } else {
        let choices = pick_type(input, &valid, rng);
        let choice = choices[rng.index(choices.len())];
        let mut most = choice.count;
        if !choice.uses_up {
            most -= most / 3;
        }
        let count = rng.range_i64(1, i64::from(most)) as u32;
        let candidate = Candidate {
            input,
            budget,
            wave,
            attacker: choice.attacker,
            spacing: choice.spacing,
        };
        // Fewer attackers fit whenever more do; the check only guards against rounding.
        let count = if candidate.fits(count) {
            count
        } else {
            choice.count
        };
        (choice, count)
    };
    Some(DraftBatch {
        spacing: choice.spacing,
        count,
        attackers: vec![choice.attacker; input.slots()],
    })
}

/// The last batch: a random type among those that can use up the capacity with some spacing,
/// at the spacing and count giving the most value. Types whose best choice reaches the fill
/// target come first; then any that one more attacker would push over the capacity (the
/// thesis's test); when no type can, the best choice of all.
fn last_batch(
    input: &WaveInput,
    budget: &Budget,
    valid: &[Vec<Choice>],
    rng: &mut Rng,
) -> (Choice, u32) {
    let target = input.params.fill_target * budget.total();
    let tiers: [&dyn Fn(&Choice) -> bool; 2] = [&|c| c.value >= target, &|c| c.uses_up];
    for tier in tiers {
        let able: Vec<Vec<Choice>> = valid
            .iter()
            .map(|choices| choices.iter().copied().filter(|c| tier(c)).collect())
            .filter(|choices: &Vec<Choice>| !choices.is_empty())
            .collect();
        if !able.is_empty() {
            let best = best_of(pick_type(input, &able, rng).iter());
            return (best, best.count);
        }
    }
    let best = best_of(valid.iter().flatten());
    (best, best.count)
}

/// A weighted random type among `valid` (each entry the choices of one type).
fn pick_type<'a>(input: &WaveInput, valid: &'a [Vec<Choice>], rng: &mut Rng) -> &'a [Choice] {
    let weights: Vec<f64> = valid
        .iter()
        .map(|choices| input.pool.get(choices[0].attacker).weight)
        .collect();
    // Every valid type is drawable (positive weight), so a pick always exists.
    &valid[rng.weighted_index(&weights).unwrap_or(0)]
}

/// The choice with the most value; ties go to fewer attackers, then to the earlier choice.
fn best_of<'a>(choices: impl Iterator<Item = &'a Choice>) -> Choice {
    let mut best: Option<Choice> = None;
    for c in choices {
        let better = match best {
            None => true,
            Some(b) => c.value > b.value || (c.value == b.value && c.count < b.count),
        };
        if better {
            best = Some(*c);
        }
    }
    best.expect("best_of needs at least one choice")
}
