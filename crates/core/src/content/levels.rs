//! The level setter's data (thesis §4.3.4): a mod's `levels.ron` says what each level of a run
//! looks like — its paths, world, waves, fuel goal, terrain types and attacker types — and what a
//! run starts with and is offered.
//!
//! One mod defines the level setter (the base game: `mods/core/levels.ron`, id `core:levels`).
//! A later mod changes it only explicitly: its own `levels.ron` says `overrides: "core:levels"`
//! and gives the fields to change, which replace the earlier values whole. `docs/runs.md`
//! describes the format.

use serde::{Deserialize, Serialize};

use super::acts::{ActShape, MAX_ACTS};
use super::adaptation::{Adaptation, Ascension};
use super::item::content_item;
use super::load::{Item, Single, Source};
use super::money::Money;
use super::{ContentDb, Size, WaveParams};
use crate::diagnostics::{Diagnostic, Diagnostics, did_you_mean};
use crate::ron_file;

/// The file a mod's level setter is read from.
pub const FILE: &str = "levels.ron";

/// A number that grows with the level: `first + per_level × (k − from)` for level `k` of a rule
/// that starts at level `from`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PerLevel {
    /// The value at the rule's first level.
    pub first: f64,
    /// Added for every level after that.
    #[serde(default)]
    pub per_level: f64,
}

impl PerLevel {
    /// The value `steps` levels after the rule's first level.
    pub fn at(&self, steps: u32) -> f64 {
        self.first + self.per_level * f64::from(steps)
    }
}

/// The most waves one level may have. A level's wave count comes from its fuel goal and the
/// Hub's production unless the rule gives one; either way past this the level cannot be set up.
pub const MAX_WAVES_PER_LEVEL: u32 = 200;

/// The longest path (in segments) a level may ask for; path lengths grow with the level, so this
/// is also how far a run can go on a level setter whose paths keep growing.
pub const MAX_PATH_LENGTH: u32 = 256;

/// The largest fuel goal, materials or energy a level design may ask for: far beyond any level.
pub const MAX_AMOUNT: f64 = 1e6;

/// Which attacker types a level's waves draw from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PoolRule {
    /// Only types whose wave value is at most this (weak attackers early, strong ones later).
    pub max_value: PerLevel,
    /// Only types whose wave value is at least this.
    #[serde(default)]
    pub min_value: f64,
    /// How many types the level draws from those (the weakest always among them, so the first
    /// waves can be filled); 0 takes them all.
    #[serde(default)]
    pub types: u32,
    /// Types always in the pool, whatever their value (`mod:name`).
    #[serde(default)]
    pub include: Vec<String>,
    /// Types never in the pool (`mod:name`).
    #[serde(default)]
    pub exclude: Vec<String>,
}

/// What the levels from `from` on look like, until the next rule starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelRule {
    /// The first level the rule applies to (1-based).
    pub from: u32,
    /// One entry per path: its length in segments from outside the world to the Hub.
    pub lengths: Vec<u32>,
    /// Added to every length for each level after `from` (negative: shorter paths, less time to
    /// kill attackers).
    #[serde(default)]
    pub length_per_level: i32,
    /// Paths never get shorter than this.
    #[serde(default = "default_min_length")]
    pub min_length: u32,
    /// Extra branches the final path network may add.
    #[serde(default)]
    pub branches: u32,
    /// Fuel needed to win.
    pub fuel_goal: PerLevel,
    /// Materials at the start of the battle.
    pub materials: PerLevel,
    /// Energy at the start of the battle.
    #[serde(default)]
    pub energy: f64,
    /// The energy cap before modifiers.
    #[serde(default = "default_energy_cap")]
    pub energy_cap: f64,
    /// Multiplies the capacity and rate of `waves` (first value and growth per wave alike).
    pub difficulty: PerLevel,
    /// The wave parameters; fields left out keep the wave generator's defaults.
    #[serde(default)]
    pub waves: WaveParams,
    /// How many waves the level has; by default as many as the Hub alone needs to gather the
    /// fuel goal, so a level can always be won by holding out.
    #[serde(default)]
    pub wave_count: Option<u32>,
    /// The terrain types a level picks from, uniformly; empty for every loaded type.
    #[serde(default)]
    pub terrains: Vec<String>,
    /// The attacker types.
    pub attackers: PoolRule,
}

fn default_min_length() -> u32 {
    12
}

fn default_energy_cap() -> f64 {
    50.0
}

/// Relative chances of each rarity among reward offers, at one level; between two entries the
/// chances move linearly, beyond the last they stay.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RarityOdds {
    /// The level just won.
    pub level: u32,
    /// Weight of common blueprints.
    pub common: f64,
    /// Weight of rare blueprints.
    pub rare: f64,
    /// Weight of legendary blueprints.
    pub legendary: f64,
}

/// How much harder an elite or boss battle is than an ordinary battle of the same level (the
/// thesis: harder battles need more fuel to win).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Harder {
    /// Multiplies the waves' capacity and rate.
    pub difficulty: f64,
    /// Multiplies the fuel goal (and so the number of waves).
    pub fuel_goal: f64,
    /// Its reward offers are drawn with the rarity odds of this many levels later.
    #[serde(default)]
    pub reward_levels: u32,
}

content_item! {
    /// The level setter: everything `levels.ron` holds.
    pub struct LevelSetter, overridden by LevelSetterPatch, "level setter" {
        /// The blueprint the game places on the Hub's tile in every battle.
        pub hub: String,
        /// Hull at the start of a run.
        pub hull: f64,
        /// The most blueprints a collection may hold.
        pub collection_limit: usize,
        /// Blueprints offered after each won level.
        pub offers: usize,
        /// The rarity odds of reward offers over the run.
        pub rarity_odds: Vec<RarityOdds>,
        /// The rules, by the level they start at, ascending from 1.
        pub levels: Vec<LevelRule>,
        /// Levels written out whole (bred by `rampart breed`, say): a level with a design here is
        /// played as designed instead of drawn from its rule.
        #[serde(default)]
        pub designs: Vec<super::LevelDesign>,
        /// The run map, one entry per act (`docs/runs.md`).
        pub acts: Vec<ActShape>,
        /// How much harder an elite battle is than an ordinary one of the same level.
        pub elite: Harder,
        /// How much harder the act's boss battle is; the boss comes with its last wave.
        pub boss: Harder,
        /// How often augments are offered (`docs/runs.md`).
        #[serde(default)]
        pub augments: AugmentOdds,
        /// Hull a rest room gives back (never above the run's starting hull).
        #[serde(default = "default_rest")]
        pub rest: f64,
        /// Money: what a run starts with, battles pay and shops charge (`docs/runs.md`).
        pub money: Money,
        /// The adaptive difficulty's numbers (`docs/runs.md`).
        pub adaptation: Adaptation,
        /// The ascension levels, from 1: each adds its change to those of the levels below.
        pub ascension: Vec<Ascension>,
        /// Ticks a wave may go without progress — no attacker appeared, died, moved closer or was
        /// damaged — before the battle ends it (attackers frozen for good would hold it forever).
        #[serde(default = "default_stall_ticks")]
        pub stall_ticks: u32,
    }
}

/// How often augments come with rewards and shops.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AugmentOdds {
    /// The chance that one of a battle's reward offers is an augment for the collection.
    pub offer: f64,
    /// The chance that a blueprint offered (as a reward or in a shop) comes with an augment.
    pub preapplied: f64,
    /// Augments a shop sells.
    pub shop: usize,
}

impl Default for AugmentOdds {
    fn default() -> Self {
        AugmentOdds {
            offer: 0.3,
            preapplied: 0.15,
            shop: 1,
        }
    }
}

/// `stall_ticks` when `levels.ron` does not say: a minute.
pub const DEFAULT_STALL_TICKS: u32 = 60 * crate::TICKS_PER_SECOND as u32;

fn default_rest() -> f64 {
    6.0
}

fn default_stall_ticks() -> u32 {
    DEFAULT_STALL_TICKS
}

impl LevelSetter {
    /// The rule for level `level` (1-based) and how many levels after its start that is.
    pub fn rule(&self, level: u32) -> (&LevelRule, u32) {
        let rule = self
            .levels
            .iter()
            .rev()
            .find(|r| r.from <= level)
            .unwrap_or(&self.levels[0]);
        (rule, level.saturating_sub(rule.from))
    }

    /// The rarity weights `(common, rare, legendary)` after level `level` is won.
    pub fn odds(&self, level: u32) -> [f64; 3] {
        let weights = |o: &RarityOdds| [o.common, o.rare, o.legendary];
        let odds = &self.rarity_odds;
        let after = odds.iter().position(|o| o.level > level);
        match after {
            None => weights(&odds[odds.len() - 1]),
            Some(0) => weights(&odds[0]),
            Some(i) => {
                let (a, b) = (&odds[i - 1], &odds[i]);
                let t = f64::from(level - a.level) / f64::from(b.level - a.level);
                let (wa, wb) = (weights(a), weights(b));
                [0, 1, 2].map(|j| wa[j] + (wb[j] - wa[j]) * t)
            }
        }
    }
}

impl Single for LevelSetter {
    const FILE: &'static str = FILE;
}

/// What is wrong with an act's `boss`, if anything.
fn boss_problem(id: &str, db: &ContentDb) -> Option<(&'static str, String)> {
    match db.attacker_id(id) {
        None => {
            let hint = did_you_mean(id, db.attackers.iter().map(|a| a.id.as_str()))
                .map(|h| format!(" ({h})"))
                .unwrap_or_default();
            Some(("boss", format!("there is no attacker type `{id}`{hint}")))
        }
        Some(a) if db.attacker(a).size != Size::Boss => Some((
            "boss",
            format!("`{id}` is not a boss: an act's boss needs `size: Boss`"),
        )),
        Some(_) => None,
    }
}

/// Checks the level setter against the loaded content; it is kept only if nothing is wrong.
pub(super) fn finish(
    item: Item<LevelSetter>,
    db: &ContentDb,
    diagnostics: &mut Diagnostics,
) -> Option<LevelSetter> {
    let mut check = Check {
        item: &item,
        diagnostics,
        errors: 0,
    };
    check.run(db);
    (check.errors == 0).then_some(item.value)
}

/// An error in `source` at the string `value` written after offset `at` (or at the field there
/// if not found).
fn diagnostic(
    source: &Source,
    at: usize,
    field: &str,
    value: Option<&str>,
    message: String,
    help: Option<String>,
) -> Diagnostic {
    let quoted = value.map(|v| format!("\"{v}\""));
    let (at, len) = match quoted
        .as_deref()
        .and_then(|q| source.file.text[at..].find(q))
    {
        Some(i) => (at + i, quoted.as_deref().map_or(1, str::len)),
        None => (at, field.len().max(1)),
    };
    let d = Diagnostic::error(message)
        .at(&source.file, at, len)
        .for_mod(source.mod_id.clone());
    match help {
        Some(h) => d.help(h),
        None => d,
    }
}

struct Check<'a> {
    item: &'a Item<LevelSetter>,
    diagnostics: &'a mut Diagnostics,
    errors: usize,
}

impl Check<'_> {
    /// An error at `field` of whichever file set it last; inside rule `rule` when given.
    fn error(&mut self, rule: Option<usize>, field: &str, message: String, help: Option<String>) {
        self.error_at(rule, field, None, message, help);
    }

    /// An error at the string `value` written for `field` (or at the field if not found there).
    fn error_at(
        &mut self,
        rule: Option<usize>,
        field: &str,
        value: Option<&str>,
        message: String,
        help: Option<String>,
    ) {
        let (source, at) = self.locate(rule, field);
        let d = diagnostic(source, at, field, value, message, help);
        self.push(d);
    }

    /// An error at `field` (at the string `value` there, if given) of design `design`.
    fn design_error(
        &mut self,
        design: usize,
        field: &str,
        value: Option<&str>,
        message: String,
        help: Option<String>,
    ) {
        let (source, at) = self.locate_in("designs", "level", design, field);
        let d = diagnostic(source, at, field, value, message, help);
        self.push(d);
    }

    fn push(&mut self, d: Diagnostic) {
        self.errors += 1;
        self.diagnostics.push(d);
    }

    /// Each level design names what exists and asks for what a level can be.
    fn designs(&mut self, db: &ContentDb) {
        let designs = &self.item.value.designs;
        for (i, d) in designs.iter().enumerate() {
            let say = |m: &str| format!("design for level {}: {m}", d.level);
            if d.level == 0 {
                self.design_error(i, "level", None, say("levels count from 1"), None);
            } else if designs[..i].iter().any(|e| e.level == d.level) {
                self.design_error(
                    i,
                    "level",
                    None,
                    say("the level has a design already"),
                    None,
                );
            }
            if db.terrain(&d.terrain).is_none() {
                let (m, help) = missing_terrain(db, &d.terrain);
                self.design_error(i, "terrain", Some(&d.terrain), say(&m), help);
            }
            for id in &d.attackers {
                let found = db.attacker_id(id).map(|a| db.attacker(a));
                let (message, help) = match found {
                    Some(a) if a.size != Size::Boss => continue,
                    Some(_) => (
                        format!("`{id}` is a boss: bosses come only to boss levels"),
                        None,
                    ),
                    None => (
                        format!("there is no attacker type `{id}`"),
                        did_you_mean(id, db.attackers.iter().map(|a| a.id.as_str())),
                    ),
                };
                self.design_error(i, "attackers", Some(id), say(&message), help);
            }
            let checks = [
                (
                    d.attackers.is_empty(),
                    "attackers",
                    "it needs at least one attacker type".to_string(),
                ),
                (
                    d.path_lengths.is_empty()
                        || d.path_lengths
                            .iter()
                            .any(|&l| l == 0 || l > MAX_PATH_LENGTH),
                    "path_lengths",
                    format!(
                        "it needs at least one path, each 1 to {MAX_PATH_LENGTH} segments long"
                    ),
                ),
                (
                    d.wave_count == 0 || d.wave_count > MAX_WAVES_PER_LEVEL,
                    "wave_count",
                    format!("`wave_count` must be from 1 to {MAX_WAVES_PER_LEVEL}"),
                ),
            ];
            for (bad, field, message) in checks {
                if bad {
                    self.design_error(i, field, None, say(&message), None);
                }
            }
            let amounts = [
                ("fuel_goal", d.fuel_goal),
                ("materials", d.materials),
                ("energy", d.energy),
                ("energy_cap", d.energy_cap),
            ];
            for (field, x) in amounts {
                if !(x.is_finite() && (0.0..=MAX_AMOUNT).contains(&x)) {
                    let m = say(&format!("`{field}` must be from 0 to {MAX_AMOUNT}"));
                    self.design_error(i, field, None, m, None);
                }
            }
            if let Err(e) = d.waves.validate() {
                self.design_error(i, "waves", None, say(&e.to_string()), None);
            }
        }
    }

    /// The file that set `field` last and the field's offset — for a field of a rule, the first
    /// occurrence after that rule's `from:`.
    fn locate(&self, rule: Option<usize>, field: &str) -> (&Source, usize) {
        match rule {
            Some(rule) => self.locate_in("levels", "from", rule, field),
            None => self.item.locate(field),
        }
    }

    /// The offset of `field` in entry `index` of the list `list`, each entry of which starts
    /// with (or at least has one) `anchor` field.
    fn locate_in(&self, list: &str, anchor: &str, index: usize, field: &str) -> (&Source, usize) {
        let (source, _) = self.item.locate(list);
        let starts = ron_file::find_fields(&source.file, anchor);
        let start = starts.get(index).copied().unwrap_or(0);
        let before = starts.get(index).map_or(0, |_| {
            // The anchor may come after other fields of its entry: look back to the entry's `(`.
            source.file.text[..start].rfind('(').unwrap_or(start)
        });
        let at = ron_file::find_fields(&source.file, field)
            .into_iter()
            .find(|&at| at >= before)
            .unwrap_or(start);
        (source, at)
    }

    fn run(&mut self, db: &ContentDb) {
        let v = &self.item.value;
        match db.blueprint_id(&v.hub) {
            None => {
                let help = did_you_mean(&v.hub, db.blueprints.iter().map(|b| b.id.as_str()));
                self.error(
                    None,
                    "hub",
                    format!("there is no blueprint `{}`", v.hub),
                    help,
                );
            }
            Some(id) if !db.blueprint(id).placed_by_game() => self.error(
                None,
                "hub",
                format!("the hub `{}` must have `placement: Fixed`", v.hub),
                None,
            ),
            Some(_) => {}
        }
        if !(v.hull.is_finite() && v.hull > 0.0) {
            self.error(
                None,
                "hull",
                "`hull` must be a positive number".into(),
                None,
            );
        }
        if v.collection_limit == 0 {
            self.error(
                None,
                "collection_limit",
                "`collection_limit` must be at least 1".into(),
                None,
            );
        }
        if v.offers == 0 {
            self.error(None, "offers", "`offers` must be at least 1".into(), None);
        }
        self.odds();
        if v.levels.is_empty() {
            self.error(
                None,
                "levels",
                "`levels` needs at least one rule".into(),
                None,
            );
        } else if v.levels[0].from != 1 {
            self.error(
                Some(0),
                "from",
                "the first rule must start at level 1 (`from: 1`)".into(),
                None,
            );
        }
        for i in 0..v.levels.len() {
            self.rule(i, db);
        }
        self.acts(db);
        self.designs(db);
        for (field, harder) in [("elite", v.elite), ("boss", v.boss)] {
            let ok = |x: f64| x.is_finite() && x > 0.0 && x <= 100.0;
            if !(ok(harder.difficulty) && ok(harder.fuel_goal)) {
                self.error(
                    None,
                    field,
                    format!(
                        "`{field}`'s `difficulty` and `fuel_goal` must be above 0 and at most 100"
                    ),
                    None,
                );
            }
        }
        let odds = &v.augments;
        if !((0.0..=1.0).contains(&odds.offer) && (0.0..=1.0).contains(&odds.preapplied))
            || odds.shop > 5
        {
            self.error(
                None,
                "augments",
                "`offer` and `preapplied` are chances from 0 to 1, and a shop sells at most 5 augments".into(),
                None,
            );
        }
        if !(v.rest.is_finite() && v.rest >= 0.0 && v.rest <= 1000.0) {
            self.error(None, "rest", "`rest` must be from 0 to 1000".into(), None);
        }
        if let Some(message) = v.money.problem() {
            self.error(None, "money", message, None);
        }
        if let Some(message) = v.adaptation.problem() {
            self.error(None, "adaptation", message, None);
        }
        let ascension: Vec<_> = v
            .ascension
            .iter()
            .enumerate()
            .filter_map(|(i, level)| Some((i, level.problem()?)))
            .collect();
        for (i, message) in ascension {
            let (source, at) = self.locate_in("ascension", "description", i, "description");
            let d = Diagnostic::error(format!("ascension level {}: {message}", i + 1))
                .at(&source.file, at, "description".len())
                .for_mod(source.mod_id.clone());
            self.errors += 1;
            self.diagnostics.push(d);
        }
    }

    fn acts(&mut self, db: &ContentDb) {
        let acts = &self.item.value.acts;
        if acts.is_empty() || acts.len() > MAX_ACTS {
            self.error(
                None,
                "acts",
                format!("`acts` needs from 1 to {MAX_ACTS} entries, one per act"),
                None,
            );
        }
        let problems: Vec<_> = acts
            .iter()
            .enumerate()
            .flat_map(|(i, act)| act.problems().into_iter().map(move |p| (i, p)))
            .collect();
        let bosses: Vec<_> = acts
            .iter()
            .enumerate()
            .filter_map(|(i, act)| Some((i, boss_problem(&act.boss, db)?)))
            .collect();
        for (i, (field, message)) in problems.into_iter().chain(bosses) {
            let (source, at) = self.locate_in("acts", "rooms", i, field);
            let d = Diagnostic::error(format!("act {}: {message}", i + 1))
                .at(&source.file, at, field.len())
                .for_mod(source.mod_id.clone());
            self.errors += 1;
            self.diagnostics.push(d);
        }
    }

    fn odds(&mut self) {
        let odds = &self.item.value.rarity_odds;
        if odds.is_empty() {
            self.error(
                None,
                "rarity_odds",
                "`rarity_odds` needs at least one entry".into(),
                None,
            );
        }
        let weight_ok = |w: f64| w.is_finite() && w >= 0.0;
        let bad_weights = odds.iter().any(|o| {
            !(weight_ok(o.common) && weight_ok(o.rare) && weight_ok(o.legendary))
                || o.common + o.rare + o.legendary <= 0.0
        });
        let unordered = odds.windows(2).any(|w| w[0].level >= w[1].level);
        if bad_weights {
            self.error(
                None,
                "rarity_odds",
                "rarity weights must be ≥ 0 with a positive sum in every entry".into(),
                None,
            );
        }
        if unordered {
            self.error(
                None,
                "rarity_odds",
                "the entries of `rarity_odds` must have ascending `level`s".into(),
                None,
            );
        }
    }

    fn rule(&mut self, i: usize, db: &ContentDb) {
        let r = self.item.value.levels[i].clone();
        let at = Some(i);
        if i > 0 && r.from <= self.item.value.levels[i - 1].from {
            self.error(
                at,
                "from",
                format!(
                    "rules must start at ascending levels; this one starts at {} after one at {}",
                    r.from,
                    self.item.value.levels[i - 1].from
                ),
                None,
            );
        }
        if r.lengths.is_empty() {
            self.error(
                at,
                "lengths",
                "`lengths` needs one length per path, at least one".into(),
                None,
            );
        }
        if r.min_length < 2 || r.lengths.iter().any(|&l| l < 2) {
            self.error(
                at,
                "lengths",
                "a path needs a length of at least 2 (and `min_length` at least 2)".into(),
                None,
            );
        }
        let positive = |p: &PerLevel| p.first.is_finite() && p.per_level.is_finite();
        for (field, p) in [
            ("fuel_goal", r.fuel_goal),
            ("materials", r.materials),
            ("difficulty", r.difficulty),
        ] {
            if !positive(&p) || p.first < 0.0 {
                self.error(
                    at,
                    field,
                    format!("`{field}` must be finite numbers with `first` ≥ 0"),
                    None,
                );
            }
        }
        if r.fuel_goal.first <= 0.0 {
            self.error(
                at,
                "fuel_goal",
                "`fuel_goal` must start above 0".into(),
                None,
            );
        }
        if !(r.energy.is_finite() && r.energy >= 0.0 && r.energy_cap.is_finite()) {
            self.error(
                at,
                "energy",
                "`energy` and `energy_cap` must be numbers ≥ 0".into(),
                None,
            );
        }
        if let Err(e) = r.waves.validate() {
            self.error(at, "waves", e.to_string(), None);
        }
        if r.wave_count == Some(0) || r.wave_count > Some(MAX_WAVES_PER_LEVEL) {
            self.error(
                at,
                "wave_count",
                format!("`wave_count` must be from 1 to {MAX_WAVES_PER_LEVEL}"),
                None,
            );
        }
        for t in &r.terrains {
            if db.terrain(t).is_none() {
                let (message, help) = missing_terrain(db, t);
                self.error_at(at, "terrains", Some(t), message, help);
            }
        }
        let pool = &r.attackers;
        for (field, ids) in [("include", &pool.include), ("exclude", &pool.exclude)] {
            for id in ids {
                match db.attacker_id(id) {
                    None => {
                        let help = did_you_mean(id, db.attackers.iter().map(|a| a.id.as_str()));
                        let message = format!("there is no attacker type `{id}`");
                        self.error_at(at, field, Some(id), message, help);
                    }
                    Some(a) if db.attacker(a).size == Size::Boss => self.error_at(
                        at,
                        field,
                        Some(id),
                        format!("`{id}` is a boss; bosses are not drawn into waves"),
                        None,
                    ),
                    Some(_) => {}
                }
            }
        }
        if !(pool.max_value.first.is_finite()
            && pool.max_value.per_level.is_finite()
            && pool.min_value.is_finite())
        {
            self.error(
                at,
                "max_value",
                "attacker values must be finite numbers".into(),
                None,
            );
        }
    }
}

/// The error for a terrain type a level asks for but the content lacks: one whose file had
/// errors is named as such (those errors are reported at the file), anything else gets a
/// suggestion.
fn missing_terrain(db: &ContentDb, id: &str) -> (String, Option<String>) {
    if db.terrain_broken(id) {
        let message = format!("terrain type `{id}` has errors (reported at its file)");
        return (message, None);
    }
    let help = did_you_mean(id, db.terrains.iter().map(|t| t.id.as_str()));
    (format!("there is no terrain type `{id}`"), help)
}
