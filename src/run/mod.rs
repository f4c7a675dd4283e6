//! A run (thesis §1.3, §2.4, §4.3.2–4.3.4): linear levels, one battle each, with the hull carried
//! from battle to battle, a blueprint reward after every won level, and permadeath.
//!
//! ```no_run
//! # use rampart::content::ContentDb;
//! # fn demo(content: std::sync::Arc<ContentDb>) -> Result<(), Box<dyn std::error::Error>> {
//! use rampart::run::{Run, RunConfig, RunPhase};
//!
//! let mut run = Run::new(&content, RunConfig::new(42))?;
//! let plan = run.plan(&content)?;                 // level 1: world, waves, resources
//! let mut battle = plan.start(&content)?;         // play it through PlayerCommands…
//! run.finish_battle(&battle);                     // won → Reward, lost → Over
//! if let RunPhase::Reward { offers } = run.phase() {
//!     run.choose_reward(Some(0), None)?;          // take the first offer
//! }
//! let save = run.to_ron();                        // and Run::from_ron(&save) later
//! # Ok(()) }
//! ```
//!
//! Every random choice comes from the seed tree of `docs/architecture.md`: the rewards from
//! `run → "rewards"` (one generator through the whole run, saved with it), level `k` from
//! `run → "level" / k` (`"setup"` for the level setter's choices, `"world"`, `"waves"`,
//! `"battle"`). `docs/runs.md` describes the flow and the level setter's file.

pub mod adapt;
mod error;
pub mod map;
pub mod rewards;
pub mod save;
pub mod setter;
pub mod shop;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::battle::{Battle, Phase, Start, TypeTally};
use crate::content::{ContentDb, Placement, Rarity};
use crate::diagnostics::SourceFile;
use crate::level::{LevelSetup, WorldSetup};
use crate::rng::{Rng, Seed};
use crate::waves::LevelWaves;
use crate::worldgen::WorldParams;

pub use adapt::Difficulty;
pub use error::{RunError, SaveProblem};
pub use setter::{LevelKind, LevelSpec, level_seed, spawns};
pub use shop::{Offer, Shop, Ware};

/// The version of the save format.
pub const SAVE_FORMAT: u32 = 1;

/// How a run starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// The run seed: chosen by the player, or [`RunConfig::random_seed`].
    pub seed: u64,
    /// The blueprints to start with (`mod:name`); `None` for every starter blueprint.
    pub starting_blueprints: Option<Vec<String>>,
    /// The difficulty setting (`docs/runs.md`, *Adaptive difficulty*).
    #[serde(default)]
    pub difficulty: Difficulty,
    /// The ascension level: 0 for none, up to the level setter's last (`docs/runs.md`).
    #[serde(default)]
    pub ascension: u32,
}

impl RunConfig {
    /// A run with seed `seed`, the starter blueprints, the Auto difficulty and no ascension.
    pub fn new(seed: u64) -> RunConfig {
        RunConfig {
            seed,
            starting_blueprints: None,
            difficulty: Difficulty::Auto,
            ascension: 0,
        }
    }

    /// A seed from the operating system, for a run whose seed the player did not choose.
    pub fn random_seed() -> u64 {
        rand::random()
    }
}

/// Where a run stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RunPhase {
    /// The current level's battle is to be played.
    Battle,
    /// The level was won; the player picks one of `offers` (blueprint ids) or skips.
    Reward {
        /// The blueprints on offer, distinct, none picked before in this run.
        offers: Vec<String>,
    },
    /// The hull ran out: the run is over (permadeath).
    Over {
        /// Levels won before the last battle.
        levels_won: u32,
    },
}

/// Everything that sets up the current level.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelPlan {
    /// The level number, 1-based.
    pub level: u32,
    /// The level's set-up ([`LevelPlan::start`] starts it), also what a battle record stores.
    pub setup: LevelSetup,
    /// The level's waves as generated (the battle's waves are made from them).
    pub waves: LevelWaves,
}

impl LevelPlan {
    /// Starts the level's battle.
    pub fn start(&self, content: &Arc<ContentDb>) -> Result<Battle, RunError> {
        self.setup.start(content).map_err(|error| RunError::World {
            level: self.level,
            error,
        })
    }
}

/// A run in progress; serialises to a save file ([`Run::to_ron`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Run {
    format: u32,
    seed: u64,
    level: u32,
    hull: f64,
    collection: Vec<String>,
    collection_limit: usize,
    /// Every blueprint the run has held, starting ones included: never offered again.
    picked: Vec<String>,
    phase: RunPhase,
    rewards: Rng,
    /// The difficulty setting.
    #[serde(default)]
    difficulty: Difficulty,
    /// The ascension level.
    #[serde(default)]
    ascension: u32,
    /// Kills and hull taken by attacker type over the run's battles (adaptive difficulty).
    #[serde(default)]
    record: BTreeMap<String, TypeTally>,
    /// Money (earned in battles, spent in shops).
    #[serde(default)]
    money: u32,
}

impl Run {
    /// Starts a run at level 1 with the level setter's hull. Custom starting blueprints must exist,
    /// be distinct, not be placed by the game, and fit the collection limit.
    pub fn new(content: &ContentDb, config: RunConfig) -> Result<Run, RunError> {
        let setter = setter::setter(content)?;
        if config.ascension as usize > setter.ascension.len() {
            return Err(RunError::NoSuchAscension {
                asked: config.ascension,
                levels: setter.ascension.len(),
            });
        }
        let rules = adapt::Ascended::new(setter, config.ascension);
        let collection = match config.starting_blueprints {
            None => content
                .blueprints
                .iter()
                .filter(|b| b.rarity == Rarity::Starter && b.placement() != Placement::Fixed)
                .map(|b| b.id.clone())
                .collect(),
            Some(ids) => {
                for (i, id) in ids.iter().enumerate() {
                    check_blueprint(content, id)?;
                    if ids[..i].contains(id) {
                        return Err(RunError::TwiceInStart(id.clone()));
                    }
                }
                ids
            }
        };
        let collection_limit = rules.collection_limit(setter.collection_limit);
        if collection.len() > collection_limit {
            return Err(RunError::TooManyStarters {
                count: collection.len(),
                limit: collection_limit,
            });
        }
        Ok(Run {
            format: SAVE_FORMAT,
            seed: config.seed,
            level: 1,
            hull: rules.hull(setter.hull),
            picked: collection.clone(),
            collection,
            collection_limit,
            phase: RunPhase::Battle,
            rewards: Seed(config.seed).branch("rewards").rng(),
            difficulty: config.difficulty,
            ascension: config.ascension,
            record: BTreeMap::new(),
            money: setter.money.start,
        })
    }

    /// The run seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The current (or last played) level, 1-based.
    pub fn level(&self) -> u32 {
        self.level
    }

    /// Hull left.
    pub fn hull(&self) -> f64 {
        self.hull
    }

    /// The blueprints the player has, `mod:name`, in the order collected.
    pub fn collection(&self) -> &[String] {
        &self.collection
    }

    /// The most blueprints the collection may hold.
    pub fn collection_limit(&self) -> usize {
        self.collection_limit
    }

    /// Every blueprint the run has held; none of them is offered again.
    pub fn picked(&self) -> &[String] {
        &self.picked
    }

    /// The difficulty setting.
    pub fn difficulty(&self) -> Difficulty {
        self.difficulty
    }

    /// The ascension level (0: none).
    pub fn ascension(&self) -> u32 {
        self.ascension
    }

    /// Kills and hull taken by attacker type over the run's finished battles.
    pub fn record(&self) -> &BTreeMap<String, TypeTally> {
        &self.record
    }

    /// The HP multiplier of every attacker type for the next level: adaptive difficulty, from
    /// the run's record, its setting and the hull it has now.
    pub fn strength(&self, content: &ContentDb) -> Result<BTreeMap<String, f64>, RunError> {
        let setter = setter::setter(content)?;
        let rules = adapt::Ascended::new(setter, self.ascension);
        let starting_hull = rules.hull(setter.hull);
        let a = &setter.adaptation;
        let g = adapt::global(a, self.difficulty, self.hull, starting_hull);
        let types = content.attackers.iter().map(|t| t.id.as_str());
        let mut m = adapt::multipliers(a, &self.record, types, starting_hull);
        m.values_mut().for_each(|v| *v = rules.attacker_hp(*v * g));
        Ok(m)
    }

    /// Battle, reward or over.
    pub fn phase(&self) -> &RunPhase {
        &self.phase
    }

    /// What the current level's battle is: the world and waves from the level setter, the
    /// collection and hull from the run. Only in the battle phase.
    pub fn plan(&self, content: &ContentDb) -> Result<LevelPlan, RunError> {
        match &self.phase {
            RunPhase::Battle => {}
            RunPhase::Reward { .. } => return Err(RunError::RewardPending),
            RunPhase::Over { .. } => return Err(RunError::Over),
        }
        self.plan_of_level(content)
    }

    /// The current (or last played) level as [`Run::plan`] makes it, whatever the phase: the
    /// level a reward was won in, for a screen that shows it again.
    pub fn plan_of_level(&self, content: &ContentDb) -> Result<LevelPlan, RunError> {
        let setter = setter::setter(content)?;
        for id in &self.collection {
            if content.blueprint_id(id).is_none() {
                return Err(RunError::LostBlueprint(id.clone()));
            }
        }
        let spec = LevelSpec::new(content, self.seed, self.level)?;
        let waves = spec.waves(self.seed)?;
        let level_seed = level_seed(self.seed, self.level);
        let mut params = WorldParams::with_lengths(spec.path_lengths.clone());
        params.extra_branches = spec.branches;
        let world =
            WorldSetup::generate(content, &spec.terrain, &params, level_seed.branch("world"))
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
                    waves: spec.spawns(&waves),
                    collection: Some(self.collection.clone()),
                    hub: Some(setter.hub.clone()),
                    materials: adapt::Ascended::new(setter, self.ascension)
                        .materials(spec.materials),
                    energy: spec.energy,
                    energy_cap: spec.energy_cap,
                    hull: self.hull,
                    fuel_goal: spec.fuel_goal,
                    strength: self.strength(content)?,
                },
            },
            waves,
        })
    }

    /// Takes the result of the current level's battle: won → the reward offers (or the next
    /// level straight away when nothing is left to offer), lost → the run is over. The hull left
    /// is carried either way. A battle still running, or a call outside the battle phase,
    /// changes nothing.
    pub fn finish_battle(&mut self, battle: &Battle) {
        if self.phase != RunPhase::Battle {
            return;
        }
        if matches!(battle.phase(), Phase::Won | Phase::Lost) {
            adapt::add(&mut self.record, battle.tally());
        }
        match battle.phase() {
            Phase::Won => {
                let lost = self.hull - battle.player().hull;
                self.hull = battle.player().hull;
                if let Ok(setter) = setter::setter(battle.content()) {
                    let pay = shop::pay(&setter.money, &LevelKind::Normal, lost);
                    self.money = self.money.saturating_add(pay);
                }
                let content = battle.content();
                let offers = match setter::setter(content) {
                    Ok(setter) => {
                        rewards::draw(content, setter, self.level, &self.picked, &mut self.rewards)
                    }
                    Err(_) => Vec::new(),
                };
                if offers.is_empty() {
                    self.level += 1;
                } else {
                    self.phase = RunPhase::Reward { offers };
                }
            }
            Phase::Lost => {
                self.hull = battle.player().hull.max(0.0);
                self.phase = RunPhase::Over {
                    levels_won: self.level - 1,
                };
            }
            Phase::Build | Phase::Wave => {}
        }
    }

    /// Takes offer `offer` (an index into the offers; `None` skips the reward) and moves on to the
    /// next level. A full collection needs `replace`, the index of the blueprint to give up; with
    /// room, `replace` swaps instead of adding.
    pub fn choose_reward(
        &mut self,
        offer: Option<usize>,
        replace: Option<usize>,
    ) -> Result<(), RunError> {
        let RunPhase::Reward { offers } = &self.phase else {
            return Err(RunError::NoReward);
        };
        if let Some(i) = offer {
            let id = offers
                .get(i)
                .ok_or(RunError::NoSuchOffer {
                    offers: offers.len(),
                    index: i,
                })?
                .clone();
            match replace {
                Some(j) if j >= self.collection.len() => {
                    return Err(RunError::NoSuchSlot {
                        len: self.collection.len(),
                        index: j,
                    });
                }
                Some(j) => self.collection[j] = id.clone(),
                None if self.collection.len() >= self.collection_limit => {
                    return Err(RunError::CollectionFull(self.collection_limit));
                }
                None => self.collection.push(id.clone()),
            }
            self.picked.push(id);
        }
        self.level += 1;
        self.phase = RunPhase::Battle;
        Ok(())
    }

    /// The run as a save file (RON).
    pub fn to_ron(&self) -> String {
        crate::ron_file::to_string(self).expect("a run always serialises")
    }

    /// Reads a save written by [`Run::to_ron`]; errors name the line and column.
    pub fn from_ron(text: &str) -> Result<Run, RunError> {
        Run::parse(&SourceFile::new("save", text))
    }

    fn parse(file: &SourceFile) -> Result<Run, RunError> {
        let run: Run =
            crate::ron_file::parse(file).map_err(|d| RunError::SaveSyntax(Box::new(d)))?;
        run.checked(file)
    }

    /// The run read from `file`, if it is one a run could be in.
    pub(super) fn checked(self, file: &SourceFile) -> Result<Run, RunError> {
        let run = self;
        let bad = |problem: SaveProblem| {
            Err(RunError::BadSave {
                file: file.path.display().to_string(),
                problem,
            })
        };
        if run.format != SAVE_FORMAT {
            return bad(SaveProblem::Format {
                found: run.format,
                reads: SAVE_FORMAT,
            });
        }
        if run.level == 0 {
            return bad(SaveProblem::LevelZero);
        }
        if !(run.hull.is_finite() && run.hull >= 0.0) {
            return bad(SaveProblem::Hull(run.hull));
        }
        if run.collection_limit == 0 || run.collection.len() > run.collection_limit {
            return bad(SaveProblem::Collection {
                count: run.collection.len(),
                limit: run.collection_limit,
            });
        }
        if let Some(id) = run.collection.iter().find(|id| !run.picked.contains(id)) {
            return bad(SaveProblem::NotPicked(id.clone()));
        }
        match &run.phase {
            RunPhase::Reward { offers } if offers.is_empty() => bad(SaveProblem::NoOffers),
            RunPhase::Reward { offers } if offers.iter().any(|o| run.picked.contains(o)) => {
                bad(SaveProblem::OfferPicked)
            }
            RunPhase::Over { levels_won } if *levels_won >= run.level => {
                bad(SaveProblem::LevelsWon(run.level))
            }
            _ => Ok(run),
        }
    }
}

/// Why `id` cannot start a custom run, if it cannot.
fn check_blueprint(content: &ContentDb, id: &str) -> Result<(), RunError> {
    let Some(b) = content.blueprint_id(id) else {
        let hint =
            crate::diagnostics::closest(id, content.blueprints.iter().map(|b| b.id.as_str()));
        return Err(RunError::NoBlueprint {
            id: id.to_string(),
            hint: hint.map(str::to_string),
        });
    };
    if content.blueprint(b).placement() == Placement::Fixed {
        return Err(RunError::PlacedByGame(id.to_string()));
    }
    Ok(())
}
