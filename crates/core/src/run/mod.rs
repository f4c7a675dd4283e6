//! A run (thesis §1.3, §2.4, §4.3, §2.9.2): acts, each a map of rooms the player walks
//! (`mapgen`), with battles, elites, shops, events and rests on the way to the act's boss; the
//! hull carried from battle to battle, money, a blueprint reward after every won battle, and
//! permadeath.
//!
//! ```no_run
//! # use rampart_core::content::ContentDb;
//! # fn demo(content: std::sync::Arc<ContentDb>) -> Result<(), Box<dyn std::error::Error>> {
//! use rampart_core::run::{Run, RunConfig, RunPhase};
//!
//! let mut run = Run::new(&content, RunConfig::new(42))?; // on act 1's map, in its start room
//! let room = run.choices()[0];
//! run.enter(&content, room)?;                     // a battle room: the phase is Battle
//! let plan = run.plan(&content)?;                 // its level: world, waves, resources
//! let mut battle = plan.start(&content)?;         // play it through PlayerCommands…
//! run.finish_battle(&battle);                     // won → Reward, lost → Over
//! if let RunPhase::Reward { .. } = run.phase() {
//!     run.choose_reward(&content, Some(0), None)?; // take the first offer: back on the map
//! }
//! let save = run.to_ron();                        // and Run::from_ron(&save) later
//! # Ok(()) }
//! ```
//!
//! Every random choice comes from the seed tree of `docs/determinism.md`: the rewards from
//! `run → "rewards"` (one generator through the whole run, saved with it), act `a`'s map from
//! `run → "map" / a`, the `k`-th battle's level from `run → "level" / k` (`"setup"` for the level
//! setter's choices, `"world"`, `"waves"`, `"battle"`). `docs/runs.md` describes the flow and the
//! level setter's file.

pub mod adapt;
pub mod augments;
mod error;
pub mod event_script;
pub mod events;
pub mod map;
pub mod profile;
pub mod rewards;
pub mod save;
pub mod setter;
pub mod shop;

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::battle::{Battle, Phase, Storage, TypeTally};
use crate::content::acts::NodeKind;
use crate::content::{Blueprint, ContentDb, Rarity};
use crate::diagnostics::SourceFile;
use crate::level::LevelSetup;
use crate::mapgen::{ActMap, NodeId};
use crate::rng::{Rng, Seed};
use crate::waves::LevelWaves;

pub use adapt::Difficulty;
pub use augments::AugmentOffer;
pub use error::{RunError, SaveProblem};
pub use events::{ChoiceState, EventVisit};
pub use profile::Profile;
pub use setter::{LevelKind, LevelSpec, Player, level_seed, spawns};
pub use shop::{Offer, Shop, Ware};

/// The version of the save format.
pub const SAVE_FORMAT: u32 = 2;

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
    /// On the act's map: the player picks a room to enter ([`Run::choices`], [`Run::enter`]).
    Map,
    /// The battle of the room entered is to be played.
    Battle,
    /// A battle was won (or an event gave a blueprint); the player picks one of `offers`
    /// (blueprint ids), or the augment on offer ([`Run::take_reward_augment`]), or skips.
    Reward {
        /// The blueprints on offer, distinct, none picked before in this run.
        offers: Vec<String>,
        /// For each offer, the augment it comes with, if any (empty: none has one).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        augmented: Vec<Option<String>>,
        /// An augment for a blueprint of the collection, offered in place of a blueprint.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        augment: Option<AugmentOffer>,
    },
    /// In a shop room: buying ([`Run::buy`]) until the player leaves ([`Run::leave_shop`]).
    Shop(Shop),
    /// In an event room: the player takes one of its choices ([`Run::choose_event`]).
    Event(EventVisit),
    /// The hull ran out: the run is over (permadeath).
    Over {
        /// Battles won before the last one.
        levels_won: u32,
    },
    /// The last act's boss was beaten: the run is won.
    Won {
        /// Battles won in the run.
        levels_won: u32,
    },
}

impl RunPhase {
    /// Where the run is, in words for messages.
    pub fn name(&self) -> &'static str {
        match self {
            RunPhase::Map => "on the map",
            RunPhase::Battle => "in a battle",
            RunPhase::Reward { .. } => "choosing a reward",
            RunPhase::Shop(_) => "in a shop",
            RunPhase::Event(_) => "at an event",
            RunPhase::Over { .. } => "over",
            RunPhase::Won { .. } => "won",
        }
    }

    /// Whether the run has ended, lost or won.
    pub fn is_end(&self) -> bool {
        matches!(self, RunPhase::Over { .. } | RunPhase::Won { .. })
    }
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
    difficulty: Difficulty,
    /// The ascension level.
    ascension: u32,
    /// Kills and hull taken by attacker type over the run's battles (adaptive difficulty).
    record: BTreeMap<String, TypeTally>,
    /// Money (earned in battles, spent in shops).
    money: u32,
    /// The augments of the collection's blueprints: blueprint → augments, in the order taken.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    augments: BTreeMap<String, Vec<String>>,
    /// The act being played, 1-based.
    act: u32,
    /// The act's map as far as it was made, and where the player is on it.
    map: ActMap,
    /// The events met so far, not met again while others are left.
    #[serde(default)]
    events_seen: Vec<String>,
    /// What each mod keeps in its storage (`game:storage()`), by mod id, as the last battle
    /// left it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    storage: BTreeMap<String, Storage>,
}

impl Run {
    /// Starts a run in the start room of act 1's map, with the level setter's hull. Custom starting blueprints must exist,
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
            None => starting_collection(content),
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
            phase: RunPhase::Map,
            rewards: Seed(config.seed).branch("rewards").rng(),
            difficulty: config.difficulty,
            ascension: config.ascension,
            record: BTreeMap::new(),
            money: setter.money.start,
            augments: BTreeMap::new(),
            act: 1,
            map: map::act_map(content, config.seed, 1)?,
            events_seen: Vec::new(),
            storage: BTreeMap::new(),
        })
    }

    /// The run seed.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The level of the current (or next) battle, 1-based: battles count up through the run.
    pub fn level(&self) -> u32 {
        self.level
    }

    /// The act being played, 1-based.
    pub fn act(&self) -> u32 {
        self.act
    }

    /// The acts a run of `content` has.
    pub fn acts(content: &ContentDb) -> Result<u32, RunError> {
        Ok(setter::setter(content)?.acts.len() as u32)
    }

    /// The current act's map as far as it was made.
    pub fn map(&self) -> &ActMap {
        &self.map
    }

    /// Hull the run can have at most: its starting hull.
    pub fn max_hull(&self, content: &ContentDb) -> Result<f64, RunError> {
        let setter = setter::setter(content)?;
        Ok(adapt::Ascended::new(setter, self.ascension).hull(setter.hull))
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

    /// What each mod keeps in its storage, by mod id, as the run's last finished battle left
    /// it; the next battle starts from it.
    pub fn storage(&self) -> &BTreeMap<String, Storage> {
        &self.storage
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

    /// Where the run stands.
    pub fn phase(&self) -> &RunPhase {
        &self.phase
    }

    /// The rooms of the map that can be entered now; empty off the map.
    pub fn choices(&self) -> Vec<NodeId> {
        match self.phase {
            RunPhase::Map => self.map.choices(),
            _ => Vec::new(),
        }
    }

    /// Enters room `room` of the map: a battle room starts its battle phase, a shop stocks its
    /// offers (`run → "map" / act → "shop" / room`), an event room draws its event
    /// (`… → "event" / room`), and a rest gives the level setter's `rest` hull back at once.
    pub fn enter(&mut self, content: &ContentDb, room: NodeId) -> Result<(), RunError> {
        self.needs(matches!(self.phase, RunPhase::Map), "the map")?;
        let setter = setter::setter(content)?;
        let kind = self.map.node(room).map(|n| n.kind);
        // Stock and draw before entering, so that a failure leaves the run as it was.
        let phase = match kind {
            Some(NodeKind::Shop) => {
                let seed = self.map.seed().branch("shop").index(u64::from(room));
                Some(RunPhase::Shop(Shop::stock(content, self, seed)?))
            }
            Some(NodeKind::Event) => {
                let seed = self.map.seed().branch("event").index(u64::from(room));
                events::draw(content, self.act, &self.events_seen, seed).map(RunPhase::Event)
            }
            _ => None,
        };
        self.map.enter(room)?;
        match kind {
            Some(k) if k.is_battle() => self.phase = RunPhase::Battle,
            Some(NodeKind::Rest) => {
                let most = self.max_hull(content)?;
                self.hull = (self.hull + setter.rest).min(most).max(self.hull);
                self.map.clear_current();
            }
            _ => match phase {
                Some(phase) => {
                    if let RunPhase::Event(visit) = &phase {
                        self.events_seen.push(visit.event.clone());
                    }
                    self.phase = phase;
                }
                // An event room with no event to hold: nothing happens there.
                None => self.map.clear_current(),
            },
        }
        Ok(())
    }

    /// Leaves the shop the run is in, back to the map.
    pub fn leave_shop(&mut self) -> Result<(), RunError> {
        self.needs(matches!(self.phase, RunPhase::Shop(_)), "a shop")?;
        self.map.clear_current();
        self.phase = RunPhase::Map;
        Ok(())
    }

    /// `Ok` when `ok`, else why not: the run is elsewhere than `needs`.
    fn needs(&self, ok: bool, needs: &'static str) -> Result<(), RunError> {
        match (&self.phase, ok) {
            (_, true) => Ok(()),
            (RunPhase::Over { .. }, _) => Err(RunError::Over),
            (RunPhase::Reward { .. }, _) => Err(RunError::RewardPending),
            (phase, false) => Err(RunError::WrongPhase {
                needs,
                is: phase.name(),
            }),
        }
    }

    /// What kind of battle the current room is (for a reward, the one just won); `Normal`
    /// off a battle room.
    pub fn level_kind(&self) -> LevelKind {
        let node = self.map.node(self.map.current());
        match node.map(|n| n.kind) {
            Some(NodeKind::Elite) => LevelKind::Elite,
            Some(NodeKind::Boss) => LevelKind::Boss(self.map.shape().boss.clone()),
            _ => LevelKind::Normal,
        }
    }

    /// Whether the run's current room is a battle room.
    fn in_battle_room(&self) -> bool {
        self.map
            .node(self.map.current())
            .is_some_and(|n| n.kind.is_battle())
    }

    /// What the current level's battle is: the world and waves from the level setter, the
    /// collection and hull from the run. Only in the battle phase.
    pub fn plan(&self, content: &ContentDb) -> Result<LevelPlan, RunError> {
        self.needs(self.phase == RunPhase::Battle, "a battle")?;
        self.plan_of_level(content)
    }

    /// The current (or next) level as [`Run::plan`] makes it, whatever the phase: the level a
    /// reward was won in, or the next battle's world for a screen to show behind the map.
    pub fn plan_of_level(&self, content: &ContentDb) -> Result<LevelPlan, RunError> {
        let setter = setter::setter(content)?;
        for id in &self.collection {
            if content.blueprint_id(id).is_none() {
                return Err(RunError::LostBlueprint(id.clone()));
            }
        }
        let in_room = matches!(self.phase, RunPhase::Battle | RunPhase::Reward { .. })
            && self.in_battle_room();
        let (kind, guard) = match in_room {
            true => (
                self.level_kind(),
                self.map
                    .node(self.map.current())
                    .and_then(|n| n.guard.clone()),
            ),
            false => (LevelKind::Normal, None),
        };
        let mut spec = LevelSpec::of_kind(content, self.seed, self.level, kind)?;
        spec.guard = guard;
        let player = Player {
            collection: self.collection.clone(),
            hull: self.hull,
            materials: adapt::Ascended::new(setter, self.ascension).materials(spec.materials),
            strength: self.strength(content)?,
            augments: self.augments.clone(),
            storage: self.storage.clone(),
        };
        spec.plan(content, self.seed, player)
    }

    /// Takes the result of the current battle: won → its pay, its room cleared (and its key
    /// collected), then the reward offers (or the map straight away when nothing is left to
    /// offer), or the run won after the last act's boss; lost → the run is over. The hull left
    /// and the mods' storage are carried either way. A battle still running, or a call outside
    /// the battle phase, changes nothing.
    pub fn finish_battle(&mut self, battle: &Battle) {
        if self.phase != RunPhase::Battle {
            return;
        }
        if matches!(battle.phase(), Phase::Won | Phase::Lost) {
            adapt::add(&mut self.record, battle.tally());
            self.storage = battle.storage().clone();
        }
        match battle.phase() {
            Phase::Won => {
                let lost = self.hull - battle.player().hull;
                self.hull = battle.player().hull;
                let kind = self.level_kind();
                self.map.clear_current();
                let content = battle.content();
                let Ok(setter) = setter::setter(content) else {
                    self.after_reward(content);
                    return;
                };
                let pay = shop::pay(&setter.money, &kind, lost);
                self.money = self.money.saturating_add(pay);
                if self.map.is_over() && self.act as usize >= setter.acts.len() {
                    self.phase = RunPhase::Won {
                        levels_won: self.level,
                    };
                    return;
                }
                let later = match kind {
                    LevelKind::Normal => 0,
                    LevelKind::Elite => setter.elite.reward_levels,
                    LevelKind::Boss(_) => setter.boss.reward_levels,
                };
                let odds_of = self.level.saturating_add(later);
                let rewards::Offers {
                    offers,
                    augmented,
                    augment,
                } = rewards::after_battle(
                    content,
                    setter,
                    odds_of,
                    &self.picked,
                    &augments::targets(&self.collection, &self.augments),
                    &mut self.rewards,
                );
                if offers.is_empty() && augment.is_none() {
                    self.after_reward(content);
                } else {
                    self.phase = RunPhase::Reward {
                        offers,
                        augmented,
                        augment,
                    };
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

    /// After a reward (taken, skipped, or none to offer): the next battle's level after a
    /// battle, the next act's map after its boss, and back on the map.
    fn after_reward(&mut self, content: &ContentDb) {
        if self.in_battle_room() {
            self.level += 1;
        }
        self.phase = RunPhase::Map;
        if self.map.is_over()
            && let Ok(map) = map::act_map(content, self.seed, self.act + 1)
        {
            self.act += 1;
            self.map = map;
        }
    }

    /// Takes offer `offer` (an index into the offers; `None` skips the reward) and goes back to
    /// the map (the next act's, after a boss). A full collection needs `replace`, the index of
    /// the blueprint to give up; with room, `replace` swaps instead of adding.
    pub fn choose_reward(
        &mut self,
        content: &ContentDb,
        offer: Option<usize>,
        replace: Option<usize>,
    ) -> Result<(), RunError> {
        let RunPhase::Reward {
            offers, augmented, ..
        } = &self.phase
        else {
            return Err(RunError::NoReward);
        };
        let with = offer.and_then(|i| augmented.get(i).cloned().flatten());
        if let Some(i) = offer {
            let id = offers
                .get(i)
                .ok_or(RunError::NoSuchOffer {
                    offers: offers.len(),
                    index: i,
                })?
                .clone();
            self.add_blueprint(&id, replace)?;
            if let Some(augment) = with {
                // It was drawn to fit this blueprint, which has no augments yet.
                self.apply_augment(
                    content,
                    &AugmentOffer {
                        augment,
                        blueprint: id,
                    },
                )?;
            }
        }
        self.after_reward(content);
        Ok(())
    }

    /// Puts blueprint `id` into the collection: in place of slot `slot` when given (its
    /// augments go with the blueprint replaced), else added, which a full collection refuses.
    /// The run will not offer it again.
    fn add_blueprint(&mut self, id: &str, slot: Option<usize>) -> Result<(), RunError> {
        match slot {
            Some(j) if j >= self.collection.len() => {
                return Err(RunError::NoSuchSlot {
                    len: self.collection.len(),
                    index: j,
                });
            }
            Some(j) => self.collection[j] = id.to_string(),
            None if self.collection.len() >= self.collection_limit => {
                return Err(RunError::CollectionFull(self.collection_limit));
            }
            None => self.collection.push(id.to_string()),
        }
        self.picked.push(id.to_string());
        self.drop_stray_augments();
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
        let stray = run.augments.iter().any(|(b, a)| {
            !run.collection.contains(b) || a.len() > crate::content::augments::MAX_PER_BLUEPRINT
        });
        if stray {
            return bad(SaveProblem::Augments);
        }
        for (mod_id, storage) in &run.storage {
            if let Err(problem) = storage.check() {
                return bad(SaveProblem::Storage {
                    mod_id: mod_id.clone(),
                    problem,
                });
            }
        }
        match &run.phase {
            RunPhase::Reward {
                offers, augment, ..
            } if offers.is_empty() && augment.is_none() => bad(SaveProblem::NoOffers),
            RunPhase::Reward { offers, .. } if offers.iter().any(|o| run.picked.contains(o)) => {
                bad(SaveProblem::OfferPicked)
            }
            RunPhase::Over { levels_won } if *levels_won >= run.level => {
                bad(SaveProblem::LevelsWon(run.level))
            }
            RunPhase::Battle if !run.in_battle_room() => bad(SaveProblem::NotABattleRoom),
            _ => Ok(run),
        }
    }
}

/// The blueprints a run starts with unless told otherwise: every starter the player places.
pub fn starting_collection(content: &ContentDb) -> Vec<String> {
    startable_blueprints(content)
        .filter(|&(_, starter)| starter)
        .map(|(b, _)| b.id.clone())
        .collect()
}

/// The blueprints a custom run may start with — every one the player places — each with whether
/// it is a starter, in the collection unless the player leaves it out.
pub fn startable_blueprints(content: &ContentDb) -> impl Iterator<Item = (&Blueprint, bool)> {
    content
        .blueprints
        .iter()
        .filter(|b| !b.placed_by_game())
        .map(|b| (b, b.rarity == Rarity::Starter))
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
    if content.blueprint(b).placed_by_game() {
        return Err(RunError::PlacedByGame(id.to_string()));
    }
    Ok(())
}
