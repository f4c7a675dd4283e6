//! The wave generator of one level (thesis §3.6.8): the state that carries from wave to wave —
//! each path's budget, the leftover capacity, the attacker types used so far — and the steps of
//! one wave: difficulty, paths, kind, then the sequential or parallel algorithm.

use super::WaveError;
use super::budget::{Budget, PathBudget};
use super::draft::{self, WaveInput};
use super::model::Collateral;
use super::pool::AttackerPool;
use super::wave::{Batch, PathAttacker, PathLoad, Wave, WaveKind};
use super::{parallel, sequential};
use crate::content::WaveParams;
use crate::rng::{Rng, Seed};

/// Generates a level's waves one after the other. Also an endless [`Iterator`] of [`Wave`]s.
///
/// Wave `i` draws its random numbers from `seed.index(i)`, so a change in how one wave draws
/// never shifts the numbers of another; the waves still depend on each other through the
/// budgets, the leftover and the types used, so they are generated in order.
#[derive(Clone, Debug)]
pub struct WaveGenerator {
    params: WaveParams,
    spacings: Vec<f64>,
    pool: AttackerPool,
    seed: Seed,
    paths: Vec<PathBudget>,
    leftover: f64,
    used: Vec<bool>,
    next: u32,
}

impl WaveGenerator {
    /// A generator for a level with `paths` paths, drawing from `seed` (a level's waves use
    /// `level_seed.branch("waves")`, see [`super::waves_seed`]).
    pub fn new(
        params: WaveParams,
        pool: AttackerPool,
        paths: usize,
        seed: Seed,
    ) -> Result<WaveGenerator, WaveError> {
        params.validate()?;
        if paths == 0 {
            return Err(WaveError::NoPaths);
        }
        Ok(WaveGenerator {
            spacings: sorted_spacings(&params),
            params,
            used: vec![false; pool.len()],
            pool,
            seed,
            paths: vec![PathBudget::default(); paths],
            leftover: 0.0,
            next: 1,
        })
    }

    /// The budgets the paths have after the waves generated so far.
    pub fn budgets(&self) -> &[PathBudget] {
        &self.paths
    }

    /// The capacity the last wave left unused, which the next wave gets on top of its own.
    pub fn leftover(&self) -> f64 {
        self.leftover
    }

    /// The parameters.
    pub fn params(&self) -> &WaveParams {
        &self.params
    }

    /// Generates the next wave.
    pub fn next_wave(&mut self) -> Wave {
        let number = self.next;
        self.next += 1;
        let mut rng = self.seed.index(u64::from(number)).rng();
        let params = &self.params;

        // The difficulty of this wave (a falling curve may not go below zero), and the part of
        // it no path has yet.
        let capacity = params.capacity.at(number).max(0.0);
        let path_capacity = capacity * (1.0 - params.global_fraction);
        let held_capacity: f64 = self.paths.iter().map(|p| p.capacity).sum();
        let held_rate: f64 = self.paths.iter().map(|p| p.rate).sum();
        let global = capacity * params.global_fraction + self.leftover;

        let selected = self.select_paths(&mut rng);
        let parallel_weight = params.kinds.parallel;
        let kind = match rng.weighted_index(&[params.kinds.sequential, parallel_weight]) {
            Some(1) if selected.len() > 1 => WaveKind::Parallel,
            // A parallel wave on one path would be a one-batch sequential wave.
            _ => WaveKind::Sequential,
        };
        let input = WaveInput {
            number,
            params,
            spacings: &self.spacings,
            pool: &self.pool,
            collateral: Collateral::at_wave(params, number),
            budgets: selected.iter().map(|&p| self.paths[p]).collect(),
            global,
            new_rate: (params.rate.at(number).max(0.0) - held_rate).max(0.0),
            new_capacity: (path_capacity - held_capacity).max(0.0),
            used: &self.used,
        };
        let draft = match kind {
            WaveKind::Parallel => parallel::generate(&input, &mut rng)
                .unwrap_or_else(|| sequential::generate(&input, &mut rng)),
            WaveKind::Sequential => sequential::generate(&input, &mut rng),
        };

        let values = input.path_values(&draft.batches, &draft.budgets);
        let budget = Budget {
            paths: draft.budgets.clone(),
            global,
        };
        let wave = Wave {
            number,
            kind: draft.kind,
            capacity: budget.total(),
            value: values.iter().sum(),
            duration_s: draft::duration(&draft.batches),
            attacker_count: draft::attacker_count(&draft.batches),
            batches: draft
                .batches
                .iter()
                .map(|b| Batch {
                    spacing_s: b.spacing,
                    count: b.count,
                    per_path: selected
                        .iter()
                        .zip(&b.attackers)
                        .map(|(&path, &a)| PathAttacker {
                            path,
                            attacker: self.pool.get(a).id.clone(),
                        })
                        .collect(),
                })
                .collect(),
            global_capacity: global,
            loads: selected
                .iter()
                .zip(&draft.budgets)
                .zip(&values)
                .map(|((&path, b), &value)| PathLoad {
                    path,
                    rate: b.rate,
                    capacity: b.capacity,
                    value,
                })
                .collect(),
            alpha: input.collateral.alpha,
            beta: input.collateral.beta,
        };
        debug_assert!(budget.admits(&values), "wave {number} exceeds its capacity");

        for batch in &draft.batches {
            for &a in &batch.attackers {
                self.used[a] = true;
            }
        }
        for (&path, b) in selected.iter().zip(&draft.budgets) {
            self.paths[path] = *b;
        }
        self.leftover = (wave.capacity - wave.value).max(0.0);
        wave
    }

    /// One forced path, and each other path with the extra-path chance; in path order.
    fn select_paths(&self, rng: &mut Rng) -> Vec<usize> {
        let forced = rng.index(self.paths.len());
        (0..self.paths.len())
            .filter(|&p| p == forced || rng.chance(self.params.extra_path_chance))
            .collect()
    }
}

impl Iterator for WaveGenerator {
    type Item = Wave;

    fn next(&mut self) -> Option<Wave> {
        Some(self.next_wave())
    }
}

/// The spacings sorted ascending without repeats, the order ties are broken in.
fn sorted_spacings(params: &WaveParams) -> Vec<f64> {
    let mut s = params.spacings.clone();
    s.sort_by(f64::total_cmp);
    s.dedup();
    s
}
