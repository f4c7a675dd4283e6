//! Shared by the wave tests: pools, and an independent check of every promise a level's waves
//! make, recomputed from the waves' own numbers and the model.

use std::collections::BTreeSet;

use rampart_core::waves::budget::PathBudget;
use rampart_core::waves::model::{self, BatchShape, Collateral};
use rampart_core::waves::{AttackerPool, Wave, WaveKind, WaveParams};

mod pools;
pub use pools::{level_params, sample_with, synthetic_pool};

/// The core mod's content.
pub fn core_content() -> std::sync::Arc<rampart_core::content::ContentDb> {
    crate::common::Mods::new().load_with_core()
}

/// The core mod's attackers.
pub fn core_pool() -> AttackerPool {
    AttackerPool::from_content(&core_content()).unwrap()
}

fn relative_eq(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Checks every wave of a level with `paths` paths against the limits and the model. Returns
/// a description of the first broken promise.
pub fn check_level(
    waves: &[Wave],
    params: &WaveParams,
    pool: &AttackerPool,
    paths: usize,
) -> Result<(), String> {
    let mut used: BTreeSet<String> = BTreeSet::new();
    let mut held = vec![PathBudget::default(); paths];
    for (i, w) in waves.iter().enumerate() {
        check_wave(w, i as u32 + 1, params, pool, paths, &used, &mut held)
            .map_err(|e| format!("wave {}: {e}\n{w:#?}", w.number))?;
        used.extend(w.attacker_ids().into_iter().map(String::from));
    }
    Ok(())
}

fn check_wave(
    w: &Wave,
    number: u32,
    params: &WaveParams,
    pool: &AttackerPool,
    paths: usize,
    used: &BTreeSet<String>,
    held: &mut [PathBudget],
) -> Result<(), String> {
    let fail = |m: String| Err(m);
    if w.number != number {
        return fail(format!("numbered {} instead of {number}", w.number));
    }
    // Capacity: never exceeded, in total or per path beyond what the global share covers.
    if w.value > w.capacity {
        return fail(format!("value {} > capacity {}", w.value, w.capacity));
    }
    // Per path: what goes beyond the path's own capacity must fit in the global capacity.
    let overshoot: f64 = w
        .loads
        .iter()
        .map(|l| (l.value - l.capacity).max(0.0))
        .sum();
    if overshoot > w.global_capacity {
        return fail(format!(
            "paths overshoot by {overshoot} > global {}",
            w.global_capacity
        ));
    }
    let capacity: f64 = w.loads.iter().map(|l| l.capacity).sum::<f64>() + w.global_capacity;
    let value: f64 = w.loads.iter().map(|l| l.value).sum();
    if !relative_eq(capacity, w.capacity) || !relative_eq(value, w.value) {
        return fail("capacity or value does not add up over the paths".into());
    }
    let collateral = Collateral {
        alpha: w.alpha,
        beta: w.beta,
    };
    if collateral != Collateral::at_wave(params, number) {
        return fail("α, β do not follow the ramps".into());
    }
    if w.global_capacity < params.capacity.at(number) * params.global_fraction * (1.0 - 1e-12) {
        return fail("global capacity below its share".into());
    }
    // Paths: at least one, distinct, ascending, in range; budgets never shrink.
    let wave_paths: Vec<usize> = w.paths().collect();
    if wave_paths.is_empty() || wave_paths.windows(2).any(|p| p[0] >= p[1]) {
        return fail(format!("bad path list {wave_paths:?}"));
    }
    for l in &w.loads {
        if l.path >= paths {
            return fail(format!("path {} out of range", l.path));
        }
        let before = held[l.path];
        if l.rate < before.rate * (1.0 - 1e-12) || l.capacity < before.capacity * (1.0 - 1e-12) {
            return fail(format!("path {} lost rate or capacity", l.path));
        }
        held[l.path] = PathBudget {
            rate: l.rate,
            capacity: l.capacity,
        };
    }
    // Batches: count by wave number, shape by kind, spacing allowed for the type.
    if w.batches.is_empty() {
        return fail("no batches".into());
    }
    // The thesis's rule, written out rather than taken from the code under test.
    let max_batches = match number {
        1 | 2 => 1,
        3 | 4 => 2,
        _ => 3,
    };
    if w.batches.len() > max_batches {
        return fail(format!("{} batches in wave {number}", w.batches.len()));
    }
    let find = |id: &str| pool.attackers().iter().find(|a| a.id == id);
    let mut per_batch_types: Vec<&str> = Vec::new();
    for b in &w.batches {
        let ids: Vec<&str> = b.per_path.iter().map(|p| p.attacker.as_str()).collect();
        let batch_paths: Vec<usize> = b.per_path.iter().map(|p| p.path).collect();
        if batch_paths != wave_paths {
            return fail("a batch does not cover exactly the wave's paths".into());
        }
        if b.count == 0 || !params.spacings.contains(&b.spacing_s) {
            return fail(format!("count {} spacing {}", b.count, b.spacing_s));
        }
        for id in &ids {
            let a = find(id).ok_or(format!("unknown attacker {id}"))?;
            if b.spacing_s < a.min_spacing {
                return fail(format!("{id} spaced below its minimum"));
            }
        }
        if w.kind == WaveKind::Sequential {
            if ids.iter().any(|id| *id != ids[0]) {
                return fail("a sequential batch mixes attacker types".into());
            }
            if per_batch_types.contains(&ids[0]) {
                return fail(format!("{} used by two batches", ids[0]));
            }
            per_batch_types.push(ids[0]);
        }
    }
    if w.kind == WaveKind::Parallel && (w.batches.len() != 1 || wave_paths.len() < 2) {
        return fail("a parallel wave is one batch over at least two paths".into());
    }
    let new: Vec<&str> = w
        .attacker_ids()
        .into_iter()
        .filter(|id| !used.contains(*id))
        .collect();
    if new.len() > 1 {
        return fail(format!("{} new attacker types: {new:?}", new.len()));
    }
    // Limits.
    let count: u32 = w
        .batches
        .iter()
        .map(|b| b.count * b.per_path.len() as u32)
        .sum();
    if count != w.attacker_count || count > params.max_attackers {
        return fail(format!("{count} attackers (reported {})", w.attacker_count));
    }
    let duration: f64 = w
        .batches
        .iter()
        .map(|b| f64::from(b.count - 1) * b.spacing_s)
        .sum::<f64>()
        + (w.batches.len() - 1) as f64 * model::BATCH_GAP_S;
    if !relative_eq(duration, w.duration_s) || w.duration_s > params.max_duration_s {
        return fail(format!("duration {} (recomputed {duration})", w.duration_s));
    }
    // Values: recomputed from the model with each path's own rate.
    for (slot, load) in w.loads.iter().enumerate() {
        let terms = w.batches.iter().map(|b| {
            let a = find(&b.per_path[slot].attacker).unwrap();
            let shape = BatchShape {
                value: a.value,
                speed: a.speed,
                spacing: b.spacing_s,
                count: b.count,
            };
            (model::batch_value(shape, load.rate, collateral), a.speed)
        });
        let value = model::wave_value(terms, load.rate);
        if !relative_eq(value, load.value) {
            return fail(format!("path {} value {} ≠ {value}", load.path, load.value));
        }
    }
    Ok(())
}
