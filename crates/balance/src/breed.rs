//! Levels bred to a target difficulty: the genetic algorithm of *Endless Tower* (its section
//! 4.6), with the autopilot's rating ([`super::rate`]) as the fitness it never finished.
//!
//! A chromosome is a [`LevelDesign`]; its genes are four components ([`Component`]). Each
//! generation is rated on the same seeds; the design nearest the target ends the search once it
//! lies within the window, which starts at the target alone and widens by 0.01 on each side
//! every three generations, so the search always ends — and once it lies there again when rated
//! on as many other seeds (the confirmation: the nearest of ten noisy ratings flatters its
//! design, an independent one does not). Otherwise parents are paired — the
//! fittest with the least fit, the second with the second-last, … (*Endless Tower* pairs the
//! first and the last of its population) or by tournaments of two — each pair's crossover swaps
//! the component at a random locus, and each child has a 15 % chance to have one component
//! drawn anew. The children replace the population.

use std::ops::Range;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::rate::{Bot, Rating, rate_many};
use rampart_core::content::{ContentDb, LevelDesign, MAX_PATH_LENGTH};
use rampart_core::rng::{Rng, Seed};
use rampart_core::run::{LevelSpec, RunError, setter::scale};

/// The parts of a level that crossover swaps and mutation draws anew.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Component {
    /// The terrain type, the paths' lengths and branches.
    Map,
    /// The attacker types.
    Attackers,
    /// The wave parameters: how much value the waves bring, and how fast.
    Waves,
    /// The fuel goal with the number of waves, and the starting materials.
    Economy,
}

/// Every component, in locus order.
pub const COMPONENTS: [Component; 4] = [
    Component::Map,
    Component::Attackers,
    Component::Waves,
    Component::Economy,
];

/// How parents are paired.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Selection {
    /// Sorted by fitness, the first with the last, the second with the second-last, and so on.
    #[default]
    Ends,
    /// Each parent the fitter of two drawn at random.
    Tournament,
}

/// The widening window: after `generation` generations, a design this close to the target ends
/// the search.
pub fn window(generation: u32) -> f64 {
    0.01 * f64::from(generation / 3)
}

/// The settings of a breeding.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Breeder {
    /// Designs per generation (at least 2).
    pub population: usize,
    /// Plays per rating.
    pub plays: u64,
    /// The first run seed of every rating; each generation is rated on the same seeds.
    pub rating_seed: u64,
    /// The seed of the algorithm's own draws.
    pub seed: u64,
    /// How parents are paired.
    pub selection: Selection,
    /// The chance that a child has one component drawn anew.
    pub mutation: f64,
    /// The bot that rates.
    pub bot: Bot,
}

impl Default for Breeder {
    fn default() -> Self {
        Breeder {
            population: 10,
            plays: 12,
            rating_seed: 0,
            seed: 0,
            selection: Selection::Ends,
            mutation: 0.15,
            bot: Bot::Autopilot,
        }
    }
}

/// One generation, as rated.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Generation {
    /// Its number, from 0 (the random designs).
    pub number: u32,
    /// The window it was judged with.
    pub window: f64,
    /// Each design's measured difficulty, in population order.
    pub difficulties: Vec<f64>,
    /// The smallest distance to the target.
    pub best_error: f64,
    /// When the nearest design lay within the window: its difficulty on the confirmation seeds.
    pub confirmation: Option<f64>,
    /// For each child bred from this generation, the component drawn anew, if any (empty for
    /// the last generation).
    pub mutations: Vec<Option<Component>>,
}

/// A bred level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bred {
    /// The level.
    pub design: LevelDesign,
    /// The target difficulty.
    pub target: f64,
    /// Its rating on the breeding seeds.
    pub rating: Rating,
    /// Its rating on the confirmation seeds (as many, after the breeding's): the difficulty the
    /// breeding achieved, measured independently of the choice of the design.
    pub confirmation: Rating,
    /// The window it was accepted in: both ratings lie within it of the target.
    pub window: f64,
    /// How far from the target a new measurement with as many plays on other seeds may land:
    /// the window plus two standard errors of the difference of two such measurements (√2 times
    /// the confirmation's), so about 95 % of re-measurements land inside.
    pub tolerance: f64,
    /// Every generation.
    pub generations: Vec<Generation>,
}

impl Breeder {
    /// The run seeds every generation is rated on.
    pub fn breeding_seeds(&self) -> Range<u64> {
        self.seeds_after(0)
    }

    /// The run seeds a design that lies within the window is rated on again.
    pub fn confirmation_seeds(&self) -> Range<u64> {
        self.seeds_after(1)
    }

    /// The run seeds after the confirmation's, for measuring bred levels afresh.
    pub fn fresh_seeds(&self) -> Range<u64> {
        self.seeds_after(2)
    }

    /// The `k`-th block of `plays` seeds from the rating seed.
    fn seeds_after(&self, k: u64) -> Range<u64> {
        let plays = self.plays.max(1);
        let start = self.rating_seed.saturating_add(plays.saturating_mul(k));
        start..start.saturating_add(plays)
    }

    /// Breeds level `level` to `target`, rating with the bot on the breeder's seeds;
    /// `on_generation` sees each generation once rated.
    pub fn breed(
        &self,
        content: &Arc<ContentDb>,
        level: u32,
        target: f64,
        on_generation: impl FnMut(&Generation),
    ) -> Result<Bred, RunError> {
        let rate = |designs: &[LevelDesign], seeds: Range<u64>| {
            rate_many(content, designs, self.bot, seeds)
                .into_iter()
                .collect::<Result<Vec<Rating>, _>>()
        };
        self.search(content, level, target, rate, on_generation)
    }

    /// The algorithm itself, with `rate` giving each design its rating on the given run seeds,
    /// in order ([`Breeder::breed`] plays them; a test may measure otherwise).
    pub fn search(
        &self,
        content: &ContentDb,
        level: u32,
        target: f64,
        mut rate: impl FnMut(&[LevelDesign], Range<u64>) -> Result<Vec<Rating>, RunError>,
        mut on_generation: impl FnMut(&Generation),
    ) -> Result<Bred, RunError> {
        let n = self.population.max(2);
        let mut rng = Seed(self.seed)
            .branch("breed")
            .index(u64::from(level))
            .rng();
        let mut population = (0..n)
            .map(|_| random_design(content, level, &mut rng))
            .collect::<Result<Vec<_>, _>>()?;
        let mut generations = Vec::new();
        for number in 0.. {
            let mut ratings = rate(&population, self.breeding_seeds())?;
            let errors: Vec<f64> = ratings
                .iter()
                .map(|r| (r.difficulty - target).abs())
                .collect();
            // Fittest first; a stable sort keeps population order among equals.
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| errors[a].total_cmp(&errors[b]));
            let best = order[0];
            let window = window(number);
            let mut generation = Generation {
                number,
                window,
                difficulties: ratings.iter().map(|r| r.difficulty).collect(),
                best_error: errors[best],
                confirmation: None,
                mutations: Vec::new(),
            };
            if errors[best] <= window {
                let design = std::slice::from_ref(&population[best]);
                let confirmation = rate(design, self.confirmation_seeds())?
                    .pop()
                    .expect("one rating per design");
                generation.confirmation = Some(confirmation.difficulty);
                if (confirmation.difficulty - target).abs() <= window {
                    on_generation(&generation);
                    generations.push(generation);
                    return Ok(Bred {
                        design: population.swap_remove(best),
                        target,
                        tolerance: window + 2.0 * std::f64::consts::SQRT_2 * confirmation.std_error,
                        rating: ratings.swap_remove(best),
                        confirmation,
                        window,
                        generations,
                    });
                }
            }
            let pairs = self.pairs(&order, &errors, &mut rng);
            let mut children = Vec::with_capacity(n);
            for (a, b) in pairs {
                let locus = COMPONENTS[rng.index(COMPONENTS.len())];
                let mut first = population[a].clone();
                let mut second = population[b].clone();
                take(&mut first, &population[b], locus);
                take(&mut second, &population[a], locus);
                for mut child in [first, second] {
                    let mutated = match rng.chance(self.mutation) {
                        true => Some(COMPONENTS[rng.index(COMPONENTS.len())]),
                        false => None,
                    };
                    if let Some(c) = mutated {
                        regenerate(content, &mut child, c, &mut rng)?;
                    }
                    generation.mutations.push(mutated);
                    children.push(child);
                }
            }
            // An odd population carries its middle design (by fitness) over unchanged.
            if children.len() < n {
                children.push(population[order[n / 2]].clone());
            }
            on_generation(&generation);
            generations.push(generation);
            population = children;
        }
        unreachable!(
            "the window reaches 1 after 300 generations, and every error (confirmation too) is at most 1"
        )
    }

    /// The parents of the next generation: `n / 2` pairs of indices into the population.
    fn pairs(&self, order: &[usize], errors: &[f64], rng: &mut Rng) -> Vec<(usize, usize)> {
        let n = order.len();
        match self.selection {
            Selection::Ends => (0..n / 2).map(|i| (order[i], order[n - 1 - i])).collect(),
            Selection::Tournament => {
                let mut pick = || {
                    let (a, b) = (rng.index(n), rng.index(n));
                    if errors[b] < errors[a] { b } else { a }
                };
                (0..n / 2).map(|_| (pick(), pick())).collect()
            }
        }
    }
}

/// A design for `level` with every component drawn anew.
pub fn random_design(
    content: &ContentDb,
    level: u32,
    rng: &mut Rng,
) -> Result<LevelDesign, RunError> {
    let mut design = design_of(&LevelSpec::drawn(content, rng.next_u64(), level)?);
    for c in COMPONENTS {
        regenerate(content, &mut design, c, rng)?;
    }
    Ok(design)
}

/// The design of a level the level setter made (with the game's starting blueprints).
pub fn design_of(spec: &LevelSpec) -> LevelDesign {
    LevelDesign {
        level: spec.level,
        terrain: spec.terrain.clone(),
        path_lengths: spec.path_lengths.clone(),
        branches: spec.branches,
        attackers: spec.pool.attackers().iter().map(|a| a.id.clone()).collect(),
        wave_count: spec.wave_count,
        waves: spec.params.clone(),
        fuel_goal: spec.fuel_goal,
        materials: spec.materials,
        energy: spec.energy,
        energy_cap: spec.energy_cap,
        collection: None,
    }
}

/// Draws `component` of `design` anew: from what the level setter's rule for the level draws
/// with a fresh seed, spread wider so the search can reach easier and harder levels than the
/// rule makes — path lengths ×0.75–1.25, the waves' value ×0.3–1.5, the fuel goal and waves
/// ×0.75–1.25, materials ×0.6–1.6.
pub fn regenerate(
    content: &ContentDb,
    design: &mut LevelDesign,
    component: Component,
    rng: &mut Rng,
) -> Result<(), RunError> {
    let base = design_of(&LevelSpec::drawn(content, rng.next_u64(), design.level)?);
    match component {
        Component::Map => {
            design.terrain = base.terrain;
            design.branches = base.branches;
            design.path_lengths = base
                .path_lengths
                .iter()
                .map(|&l| {
                    let l = (f64::from(l) * rng.range_f64(0.75, 1.25)).round();
                    (l as u32).clamp(MIN_PATH_LENGTH, MAX_PATH_LENGTH)
                })
                .collect();
        }
        Component::Attackers => design.attackers = base.attackers,
        Component::Waves => {
            design.waves = base.waves;
            scale(&mut design.waves, hundredths(rng.range_f64(0.3, 1.5)));
        }
        Component::Economy => {
            let f = rng.range_f64(0.75, 1.25);
            design.fuel_goal = (base.fuel_goal * f).round();
            design.wave_count = ((f64::from(base.wave_count) * f).round() as u32).max(1);
            design.materials = (base.materials * rng.range_f64(0.6, 1.6)).round();
            design.energy = base.energy;
            design.energy_cap = base.energy_cap;
        }
    }
    Ok(())
}

/// `x` to two decimals, so that a bred level file reads well.
fn hundredths(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Paths bred shorter than this leave no room to defend.
const MIN_PATH_LENGTH: u32 = 8;

/// Copies `component` of `from` into `to`.
pub fn take(to: &mut LevelDesign, from: &LevelDesign, component: Component) {
    match component {
        Component::Map => {
            to.terrain = from.terrain.clone();
            to.path_lengths = from.path_lengths.clone();
            to.branches = from.branches;
        }
        Component::Attackers => to.attackers = from.attackers.clone(),
        Component::Waves => to.waves = from.waves.clone(),
        Component::Economy => {
            to.fuel_goal = from.fuel_goal;
            to.wave_count = from.wave_count;
            to.materials = from.materials;
            to.energy = from.energy;
            to.energy_cap = from.energy_cap;
        }
    }
}
