//! The level setter at work (thesis §4.3.4): from the rules of `levels.ron`, the run seed and a
//! level number, everything that level is — its paths, terrain type, fuel goal, starting
//! resources, attacker types and wave parameters.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{LevelPlan, RunError};
use crate::battle::{Start, Storage, WaveSpawn, WaveSpawns};
use crate::content::{
    ContentDb, LevelDesign, LevelSetter, MAX_PATH_LENGTH, MAX_WAVES_PER_LEVEL, Size,
};
use crate::level::{LevelSetup, WorldSetup};
use crate::rng::Seed;
use crate::waves::{AttackerPool, LevelWaves, Wave, WaveParams, level_waves};
use crate::worldgen::WorldParams;

/// The seed of level `level` of a run: `run → "level" / level`. The level's world, waves and
/// battle branch from it (`docs/determinism.md`, the seed tree).
pub fn level_seed(run_seed: u64, level: u32) -> Seed {
    Seed(run_seed).branch("level").index(u64::from(level))
}

/// The player's side of a level's set-up: what the run brings into the battle.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Player {
    /// The blueprints the player has.
    pub collection: Vec<String>,
    /// Hull at the start of the battle.
    pub hull: f64,
    /// Materials at the start of the battle.
    pub materials: f64,
    /// Multipliers of attacker types' HP (the adaptive difficulty).
    pub strength: BTreeMap<String, f64>,
    /// The augments of the player's blueprints.
    pub augments: BTreeMap<String, Vec<String>>,
    /// What each mod keeps in its storage, by mod id.
    pub storage: BTreeMap<String, Storage>,
}

/// What kind of battle a level is.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LevelKind {
    /// An ordinary battle.
    #[default]
    Normal,
    /// An elite battle: the level setter's `elite` makes it harder.
    Elite,
    /// A boss battle against this attacker type (`mod:name`): the level setter's `boss` makes
    /// it harder, and the boss comes with the last wave.
    Boss(String),
}

/// One level as the level setter makes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelSpec {
    /// The level number, 1-based.
    pub level: u32,
    /// What kind of battle it is.
    #[serde(default)]
    pub kind: LevelKind,
    /// The attacker type (`mod:name`) that leads the last wave of a battle holding a guarded
    /// door's key; `None` for most battles.
    #[serde(default)]
    pub guard: Option<String>,
    /// The terrain type, `mod:name`.
    pub terrain: String,
    /// One length per path, in segments from outside the world to the Hub.
    pub path_lengths: Vec<u32>,
    /// Extra branches the final path network may add.
    pub branches: u32,
    /// Fuel needed to win.
    pub fuel_goal: f64,
    /// Materials at the start.
    pub materials: f64,
    /// Energy at the start.
    pub energy: f64,
    /// The energy cap before modifiers.
    pub energy_cap: f64,
    /// How many waves the level has.
    pub wave_count: u32,
    /// The wave parameters, difficulty applied.
    pub params: WaveParams,
    /// The attacker types the waves draw from.
    pub pool: AttackerPool,
}

impl LevelSpec {
    /// Level `level` of the run with seed `run_seed`, from the content's level setter. Its random
    /// choices (terrain type, attacker types) draw from `level seed → "setup"`.
    pub fn new(content: &ContentDb, run_seed: u64, level: u32) -> Result<LevelSpec, RunError> {
        LevelSpec::of_kind(content, run_seed, level, LevelKind::Normal)
    }

    /// Level `level` as a battle of `kind`: an elite or boss battle multiplies the waves'
    /// difficulty and the fuel goal by the level setter's `elite` or `boss`, and a boss must be
    /// an attacker type of size `Boss`. Everything else is as [`LevelSpec::new`] makes it.
    pub fn of_kind(
        content: &ContentDb,
        run_seed: u64,
        level: u32,
        kind: LevelKind,
    ) -> Result<LevelSpec, RunError> {
        LevelSpec::make(content, run_seed, level, kind, true)
    }

    /// Level `level` as its rule draws it for the run with seed `run_seed`, even where the level
    /// setter has a design for it: what `rampart breed` draws its levels' parts from.
    pub fn drawn(content: &ContentDb, run_seed: u64, level: u32) -> Result<LevelSpec, RunError> {
        LevelSpec::make(content, run_seed, level, LevelKind::Normal, false)
    }

    fn make(
        content: &ContentDb,
        run_seed: u64,
        level: u32,
        kind: LevelKind,
        designs: bool,
    ) -> Result<LevelSpec, RunError> {
        let setter = setter(content)?;
        let harder = match &kind {
            LevelKind::Normal => None,
            LevelKind::Elite => Some(setter.elite),
            LevelKind::Boss(boss) => {
                let is_boss = content
                    .attacker_id(boss)
                    .is_some_and(|a| content.attacker(a).size == Size::Boss);
                if !is_boss {
                    return Err(RunError::NoBoss(boss.clone()));
                }
                Some(setter.boss)
            }
        };
        let (harder_difficulty, harder_fuel) =
            harder.map_or((1.0, 1.0), |h| (h.difficulty, h.fuel_goal));
        if level == 0 {
            return Err(RunError::LevelZero);
        }
        if let Some(design) = setter.designs.iter().find(|d| designs && d.level == level) {
            let mut spec = LevelSpec::of_design(content, design)?;
            spec.kind = kind;
            spec.fuel_goal *= harder_fuel;
            scale(&mut spec.params, harder_difficulty);
            return Ok(spec);
        }
        let (rule, steps) = setter.rule(level);
        let mut rng = level_seed(run_seed, level).branch("setup").rng();

        let step = i64::from(rule.length_per_level) * i64::from(steps);
        let path_lengths: Vec<i64> = rule
            .lengths
            .iter()
            .map(|&l| (i64::from(l) + step).max(i64::from(rule.min_length)))
            .collect();
        if let Some(&length) = path_lengths
            .iter()
            .find(|&&l| l > i64::from(MAX_PATH_LENGTH))
        {
            return Err(RunError::PathTooLong { level, length });
        }
        let path_lengths: Vec<u32> = path_lengths.into_iter().map(|l| l as u32).collect();

        let terrains: Vec<&str> = if rule.terrains.is_empty() {
            content.terrains.iter().map(|t| t.id.as_str()).collect()
        } else {
            rule.terrains.iter().map(String::as_str).collect()
        };
        if terrains.is_empty() {
            return Err(RunError::NoTerrain);
        }
        let terrain = terrains[rng.index(terrains.len())].to_string();

        let fuel_goal = rule.fuel_goal.at(steps) * harder_fuel;
        let hub_fuel = content
            .blueprint_id(&setter.hub)
            .and_then(|id| content.blueprint(id).fuel_production)
            .unwrap_or(0.0);
        let wave_count = match rule.wave_count {
            Some(n) => f64::from(n),
            None if hub_fuel > 0.0 => (fuel_goal / hub_fuel).ceil().max(1.0),
            None => {
                return Err(RunError::NoWaveCount {
                    level,
                    hub: setter.hub.clone(),
                });
            }
        };
        // A fuel goal far beyond what the Hub makes would mean waves without end.
        if wave_count.is_nan() || wave_count > f64::from(MAX_WAVES_PER_LEVEL) {
            return Err(RunError::TooManyWaves {
                level,
                waves: wave_count,
            });
        }
        let wave_count = wave_count as u32;

        let mut params = rule.waves.clone();
        scale(
            &mut params,
            rule.difficulty.at(steps).max(0.0) * harder_difficulty,
        );

        Ok(LevelSpec {
            level,
            kind,
            guard: None,
            terrain,
            path_lengths,
            branches: rule.branches,
            fuel_goal,
            materials: rule.materials.at(steps).max(0.0),
            energy: rule.energy,
            energy_cap: rule.energy_cap,
            wave_count,
            params,
            pool: pool(content, rule, steps, level, &mut rng)?,
        })
    }

    /// A level played as `design` says (an ordinary battle). Refuses attacker types that do not
    /// exist or are bosses, and a design without paths, waves or attacker types.
    pub fn of_design(content: &ContentDb, design: &LevelDesign) -> Result<LevelSpec, RunError> {
        let level = design.level;
        if level == 0 {
            return Err(RunError::LevelZero);
        }
        let empty = |what| Err(RunError::EmptyDesign { level, what });
        if design.path_lengths.is_empty() {
            return empty("path");
        }
        if design.wave_count == 0 {
            return empty("wave");
        }
        if design.attackers.is_empty() {
            return empty("attacker type");
        }
        if let Some(&length) = design.path_lengths.iter().max()
            && length > MAX_PATH_LENGTH
        {
            return Err(RunError::PathTooLong {
                level,
                length: i64::from(length),
            });
        }
        if design.wave_count > MAX_WAVES_PER_LEVEL {
            return Err(RunError::TooManyWaves {
                level,
                waves: f64::from(design.wave_count),
            });
        }
        let mut types = Vec::new();
        for id in &design.attackers {
            let found = content.attacker_id(id).map(|a| content.attacker(a));
            match found {
                Some(a) if a.size != Size::Boss => types.push(a),
                _ => {
                    let names = content.attackers.iter().map(|a| a.id.as_str());
                    return Err(RunError::NoAttacker {
                        level,
                        id: id.clone(),
                        boss: found.is_some(),
                        hint: match found {
                            Some(_) => None,
                            None => crate::diagnostics::closest(id, names).map(str::to_string),
                        },
                    });
                }
            }
        }
        let pool =
            AttackerPool::from_types(types).map_err(|error| RunError::Waves { level, error })?;
        Ok(LevelSpec {
            level,
            kind: LevelKind::Normal,
            guard: None,
            terrain: design.terrain.clone(),
            path_lengths: design.path_lengths.clone(),
            branches: design.branches,
            fuel_goal: design.fuel_goal,
            materials: design.materials,
            energy: design.energy,
            energy_cap: design.energy_cap,
            wave_count: design.wave_count,
            params: design.waves.clone(),
            pool,
        })
    }

    /// The level set up for a run with seed `run_seed` and the `player`'s side: its world
    /// (`level seed → "world"`), its waves and the battle's start (`level seed → "battle"`).
    pub fn plan(
        &self,
        content: &ContentDb,
        run_seed: u64,
        player: Player,
    ) -> Result<LevelPlan, RunError> {
        let setter = setter(content)?;
        let waves = self.waves(run_seed)?;
        let level_seed = level_seed(run_seed, self.level);
        let mut params = WorldParams::with_lengths(self.path_lengths.clone());
        params.extra_branches = self.branches;
        let world =
            WorldSetup::generate(content, &self.terrain, &params, level_seed.branch("world"))
                .map_err(|error| RunError::World {
                    level: self.level,
                    error,
                })?;
        Ok(LevelPlan {
            level: self.level,
            setup: LevelSetup {
                world,
                start: Start {
                    seed: level_seed.branch("battle"),
                    waves: self.spawns(&waves),
                    collection: Some(player.collection),
                    hub: Some(setter.hub.clone()),
                    materials: player.materials,
                    energy: self.energy,
                    energy_cap: self.energy_cap,
                    hull: player.hull,
                    fuel_goal: self.fuel_goal,
                    strength: player.strength,
                    augments: player.augments,
                    storage: player.storage,
                },
            },
            waves,
        })
    }

    /// The level's waves (`run → "level" / k → "waves"`), as `rampart waves --json` prints them.
    pub fn waves(&self, run_seed: u64) -> Result<LevelWaves, RunError> {
        level_waves(
            run_seed,
            self.level,
            self.path_lengths.len(),
            &self.params,
            &self.pool,
            self.wave_count,
        )
        .map_err(|error| RunError::Waves {
            level: self.level,
            error,
        })
    }
}

/// Multiplies the waves' value capacity and rate, first value and growth alike, by `factor`.
pub fn scale(params: &mut WaveParams, factor: f64) {
    for growth in [&mut params.capacity, &mut params.rate] {
        growth.first *= factor;
        growth.per_wave *= factor;
    }
}

/// The content's level setter, or why there is none.
pub fn setter(content: &ContentDb) -> Result<&LevelSetter, RunError> {
    content.levels.as_ref().ok_or(RunError::NoLevelSetter)
}

/// The attacker types of a level: every non-boss type with a positive weight whose value lies in
/// the rule's window, minus the excluded ones; of those `types` at random (weighted, the weakest
/// always kept so the first waves can be filled), plus the included ones; in load order.
fn pool(
    content: &ContentDb,
    rule: &crate::content::levels::LevelRule,
    steps: u32,
    level: u32,
    rng: &mut crate::rng::Rng,
) -> Result<AttackerPool, RunError> {
    let spec = &rule.attackers;
    let max_value = spec.max_value.at(steps);
    let usable = |i: usize| {
        let a = &content.attackers[i];
        a.size != Size::Boss && a.weight > 0.0 && !spec.exclude.contains(&a.id)
    };
    let mut candidates: Vec<usize> = (0..content.attackers.len())
        .filter(|&i| {
            let v = content.attackers[i].value;
            usable(i) && v >= spec.min_value && v <= max_value
        })
        .collect();
    if spec.types > 0 && candidates.len() > spec.types as usize {
        let weakest = candidates
            .iter()
            .copied()
            .min_by(|&a, &b| {
                content.attackers[a]
                    .value
                    .total_cmp(&content.attackers[b].value)
            })
            .expect("more candidates than types, so at least one");
        let mut rest: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| i != weakest)
            .collect();
        let mut chosen = vec![weakest];
        while chosen.len() < spec.types as usize {
            let weights: Vec<f64> = rest.iter().map(|&i| content.attackers[i].weight).collect();
            let Some(k) = rng.weighted_index(&weights) else {
                break;
            };
            chosen.push(rest.remove(k));
        }
        candidates = chosen;
    }
    for id in &spec.include {
        if let Some(a) = content.attacker_id(id)
            && !candidates.contains(&(a.0 as usize))
            && usable(a.0 as usize)
        {
            candidates.push(a.0 as usize);
        }
    }
    candidates.sort_unstable();
    if candidates.is_empty() {
        return Err(RunError::NoAttackers {
            level,
            min: spec.min_value,
            max: max_value,
        });
    }
    AttackerPool::from_types(candidates.iter().map(|&i| &content.attackers[i]))
        .map_err(|error| RunError::Waves { level, error })
}

impl LevelSpec {
    /// What each of `waves` sends into the battle; a boss level's boss, and a guarded door's
    /// guard, come first in the last wave, on the first path.
    pub fn spawns(&self, waves: &LevelWaves) -> Vec<WaveSpawns> {
        let mut all: Vec<WaveSpawns> = waves.waves.iter().map(spawns).collect();
        let boss = match &self.kind {
            LevelKind::Boss(boss) => Some(boss),
            _ => None,
        };
        if let Some(last) = all.last_mut() {
            for leader in [self.guard.as_ref(), boss].into_iter().flatten() {
                last.spawns.insert(
                    0,
                    WaveSpawn {
                        delay: 0,
                        path: 0,
                        attacker: leader.clone(),
                    },
                );
            }
        }
        all
    }
}

/// What a generated wave sends into a battle: each batch's attackers on each of its paths,
/// `spacing_s` apart, batches one second apart (thesis §2.3.1), in whole ticks.
pub fn spawns(wave: &Wave) -> WaveSpawns {
    let ticks = |seconds: f64| (seconds * crate::TICKS_PER_SECOND as f64).round() as u32;
    let mut spawns = Vec::new();
    let mut start = 0.0;
    for batch in &wave.batches {
        for i in 0..batch.count {
            let at = start + f64::from(i) * batch.spacing_s;
            for p in &batch.per_path {
                spawns.push(WaveSpawn {
                    delay: ticks(at),
                    path: p.path,
                    attacker: p.attacker.clone(),
                });
            }
        }
        start += f64::from(batch.count.saturating_sub(1)) * batch.spacing_s
            + crate::waves::model::BATCH_GAP_S;
    }
    WaveSpawns { spawns }
}
