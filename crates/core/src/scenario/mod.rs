//! Scenarios: a battle set up by hand in a RON file — the world, what the player holds, the
//! buildings standing, the waves, the player's timed actions — played headless, with a report of
//! what every building and attacker type did and the file's expectations checked against it.
//! `rampart try` plays one (or builds one from its arguments) and `rampart test-mod` plays every
//! scenario in a mod's `tests/` folder. The format is `docs/modding/scenarios.md`.
//!
//! A scenario becomes a [`LevelSetup`] and player commands, the same stuff as a battle record;
//! the battle is the game's own, and what the report says comes from the battle's log and its
//! queries (`run.rs`).

pub mod expect;
pub mod format;
pub mod report;
pub mod run;

use std::path::Path;

use crate::battle::{BattleConfig, Start, WaveSpawn, WaveSpawns};
use crate::content::ContentDb;
use crate::diagnostics::{Diagnostic, SourceFile, did_you_mean};
use crate::level::replay::MAX_TICKS;
use crate::level::{LevelSetup, WorldSetup};
use crate::rng::Seed;
use crate::ron_file;
use crate::worldgen::{STRAIGHT_PATH, WorldParams};

pub use format::{
    Act, Action, Building, DEFAULT_TICKS, Expectation, Group, Measure, NEAR, Of, Scenario, Stat,
    WaveSpec, Who, WorldSpec,
};
pub use report::Report;
pub use run::play;

/// The most attackers one group of a wave may send (a battle holds at most
/// [`MAX_ENTITIES`](crate::battle::MAX_ENTITIES) at once anyway).
pub const MAX_GROUP: u32 = 10_000;

/// A mistake in a scenario that parsing cannot see (an id nothing loaded has, a path the world
/// does not have), with what in the file it is about.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// What is wrong.
    pub message: String,
    /// A hint, such as the id probably meant.
    pub help: Option<String>,
    /// The field at fault.
    pub field: &'static str,
    /// Its value as written, to find the one field among several of that name.
    pub value: Option<Written>,
}

/// A value as it stands in a scenario file.
#[derive(Clone, Debug, PartialEq)]
pub enum Written {
    /// A string (found with its quotes).
    Text(String),
    /// A number.
    Number(String),
}

impl Problem {
    fn new(field: &'static str, value: Option<Written>, message: String) -> Problem {
        Problem {
            message,
            help: None,
            field,
            value,
        }
    }

    /// The problem pointing into `file`: at the value if it can be found, else at the field.
    pub fn located(&self, file: &SourceFile) -> Diagnostic {
        let field_at = || ron_file::find_field(file, self.field);
        let (at, len) = match &self.value {
            Some(Written::Text(v)) => (ron_file::locate(file, self.field, Some(v)), v.len() + 2),
            Some(Written::Number(n)) => (
                ron_file::find_field_valued(file, self.field, n)
                    .or_else(field_at)
                    .unwrap_or(0),
                self.field.len(),
            ),
            None => (field_at().unwrap_or(0), self.field.len()),
        };
        let d = Diagnostic::error(&self.message).at(file, at, len);
        match &self.help {
            Some(h) => d.help(h),
            None => d,
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)?;
        match &self.help {
            Some(h) => write!(f, " ({h})"),
            None => Ok(()),
        }
    }
}

impl Scenario {
    /// Reads a scenario file; a mistake is a diagnostic with its line and column. The name
    /// defaults to the file's.
    pub fn read(path: &Path) -> Result<(Scenario, SourceFile), Diagnostic> {
        let file = SourceFile::read(path)?;
        let mut scenario: Scenario = ron_file::parse(&file)?;
        if scenario.name.is_empty() {
            scenario.name = path.display().to_string();
        }
        Ok((scenario, file))
    }

    /// Reads a scenario file and checks it against `content`: the scenario and the battle it
    /// sets up, or every mistake found, pointing into the file.
    pub fn load(
        path: &Path,
        content: &ContentDb,
    ) -> Result<(Scenario, BattleConfig), Vec<Diagnostic>> {
        let (scenario, file) = Scenario::read(path).map_err(|d| vec![d])?;
        match scenario.prepare(content) {
            Ok(config) => Ok((scenario, config)),
            Err(problems) => Err(problems.iter().map(|p| p.located(&file)).collect()),
        }
    }

    /// Checks the scenario against `content` and sets up its battle: the world built, the waves
    /// and holdings as a battle's [`Start`]. Every mistake found is returned, not just the first.
    pub fn prepare(&self, content: &ContentDb) -> Result<BattleConfig, Vec<Problem>> {
        let mut problems = self.check_ids(content);
        problems.extend(self.check_numbers());
        let setup = self.world_setup(content).and_then(|world| {
            let setup = LevelSetup {
                world,
                start: self.start(content),
            };
            setup
                .config(content)
                .map_err(|e| Problem::new("world", None, e.to_string()))
        });
        let config = match setup {
            Ok(config) => config,
            Err(p) => {
                problems.push(p);
                return Err(problems);
            }
        };
        let paths = config.world.as_ref().map_or(0, |w| w.path_starts().len());
        for g in self.waves.iter().flat_map(|w| &w.send) {
            if g.path >= paths {
                problems.push(Problem::new(
                    "path",
                    Some(Written::Number(g.path.to_string())),
                    format!(
                        "there is no path {}: the world has {paths} path start{} (numbered from 0)",
                        g.path,
                        if paths == 1 { "" } else { "s" }
                    ),
                ));
            }
        }
        match problems.is_empty() {
            true => Ok(config),
            false => Err(problems),
        }
    }

    /// The world: drawn, or generated (with the next seeds when one cannot be finished).
    fn world_setup(&self, content: &ContentDb) -> Result<WorldSetup, Problem> {
        match &self.world {
            WorldSpec::Straight => Ok(WorldSetup::Layout(STRAIGHT_PATH.to_string())),
            WorldSpec::Layout(text) => Ok(WorldSetup::Layout(text.clone())),
            WorldSpec::Generated {
                terrain,
                seed,
                paths,
                width,
                height,
            } => {
                let mut params = WorldParams::with_lengths(paths.clone());
                params.width = *width;
                params.height = *height;
                if let Err(e) = params.validate() {
                    return Err(Problem::new("world", None, e.to_string()));
                }
                WorldSetup::generate(content, terrain, &params, Seed(*seed)).map_err(|e| {
                    let mut p = Problem::new(
                        "terrain",
                        Some(Written::Text(terrain.clone())),
                        e.to_string(),
                    );
                    p.help = did_you_mean(terrain, content.terrains.iter().map(|t| t.id.as_str()));
                    p
                })
            }
        }
    }

    /// The battle's starting values: the seed, the waves spelt out attacker by attacker, what
    /// the player holds.
    fn start(&self, content: &ContentDb) -> Start {
        let mut start = Start::new(Seed(self.seed));
        start.waves = self
            .waves
            .iter()
            .map(|w| WaveSpawns {
                spawns: w
                    .send
                    .iter()
                    .flat_map(|g| {
                        (0..g.count).map(move |i| WaveSpawn {
                            delay: g.delay.saturating_add(i.saturating_mul(g.every)),
                            path: g.path,
                            attacker: g.attacker.clone(),
                        })
                    })
                    .collect(),
            })
            .collect();
        start.collection = self.collection.clone();
        start.hub = self.hub.clone().or_else(|| default_hub(content));
        start.materials = self.materials;
        start.energy = self.energy;
        start.energy_cap = self.energy_cap;
        start.hull = self.hull;
        start.fuel_goal = self.fuel_goal;
        start.strength = self.strength.clone();
        start.augments = self.augments.clone();
        start.storage = self.storage.clone();
        start
    }

    /// Every id the scenario names that nothing loaded has.
    fn check_ids(&self, content: &ContentDb) -> Vec<Problem> {
        let blueprints = || content.blueprints.iter().map(|b| b.id.as_str());
        let attackers = || content.attackers.iter().map(|a| a.id.as_str());
        let mut problems = Vec::new();
        let mut blueprint = |field: &'static str, id: &str| {
            if content.blueprint_id(id).is_none() {
                problems.push(unknown(field, "blueprint", id, blueprints()));
            }
        };
        for b in &self.buildings {
            blueprint("blueprint", &b.blueprint);
        }
        for a in &self.actions {
            if let Act::Place { blueprint: id, .. } | Act::Use { blueprint: id, .. } = &a.act {
                blueprint("blueprint", id);
            }
        }
        for id in self.collection.iter().flatten() {
            blueprint("collection", id);
        }
        for id in self.augments.keys() {
            blueprint("augments", id);
        }
        if let Some(id) = &self.hub {
            blueprint("hub", id);
        }
        for m in self.expect.iter().filter_map(Expectation::measure) {
            if let Some(Of::Blueprint(id)) = m.of() {
                blueprint("expect", id);
            }
        }
        for id in self.augments.values().flatten() {
            if content.augment(id).is_none() {
                let known = content.augments.iter().map(|a| a.id.as_str());
                problems.push(unknown("augments", "augment", id, known));
            }
        }
        let mut attacker = |field: &'static str, id: &str| {
            if content.attacker_id(id).is_none() {
                problems.push(unknown(field, "attacker type", id, attackers()));
            }
        };
        for g in self.waves.iter().flat_map(|w| &w.send) {
            attacker("attacker", &g.attacker);
        }
        for id in self.strength.keys() {
            attacker("strength", id);
        }
        for m in self.expect.iter().filter_map(Expectation::measure) {
            if let Some(Who::Type(id)) = m.who() {
                attacker("expect", id);
            }
        }
        for m in self.expect.iter().filter_map(Expectation::measure) {
            if let Some(scripts) = m.scripts() {
                problems.extend(unknown_scripts(content, scripts));
            }
        }
        for (id, storage) in &self.storage {
            let written = Some(Written::Text(id.clone()));
            if content.mod_index(id).is_none() {
                let mut p = Problem::new(
                    "storage",
                    written.clone(),
                    format!("there is no mod `{id}` loaded to give storage to"),
                );
                p.help = did_you_mean(id, content.mods.iter().map(|m| m.id.as_str()));
                problems.push(p);
            }
            if let Err(why) = storage.check() {
                problems.push(Problem::new(
                    "storage",
                    written,
                    format!("the storage of mod `{id}` {why}"),
                ));
            }
        }
        problems
    }

    /// Numbers out of bounds, and actions timed by waves the scenario does not have.
    fn check_numbers(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        if let Some(ticks) = self.ticks.filter(|t| !(1..=MAX_TICKS).contains(t)) {
            problems.push(Problem::new(
                "ticks",
                Some(Written::Number(ticks.to_string())),
                format!("`ticks` must be from 1 to {MAX_TICKS}, not {ticks}"),
            ));
        }
        for g in self.waves.iter().flat_map(|w| &w.send) {
            if !(1..=MAX_GROUP).contains(&g.count) {
                problems.push(Problem::new(
                    "count",
                    Some(Written::Number(g.count.to_string())),
                    format!("`count` must be from 1 to {MAX_GROUP}, not {}", g.count),
                ));
            }
        }
        let waves = self.waves.len() as u32;
        for a in &self.actions {
            for (field, wave) in [("wave", a.wave), ("before_wave", a.before_wave)] {
                if let Some(w) = wave.filter(|w| !(1..=waves).contains(w)) {
                    problems.push(Problem::new(
                        field,
                        Some(Written::Number(w.to_string())),
                        format!(
                            "there is no wave {w}: the scenario has {waves} wave{} (numbered from 1)",
                            if waves == 1 { "" } else { "s" }
                        ),
                    ));
                }
            }
            if let Some(w) = a.before_wave
                && (a.wave.is_some() || a.tick != 0 || a.near.is_some())
            {
                problems.push(Problem::new(
                    "before_wave",
                    Some(Written::Number(w.to_string())),
                    "`before_wave` is when the action happens: leave out `wave`, `tick` and `near`"
                        .to_string(),
                ));
            }
        }
        problems
    }
}

/// "there is no blueprint `x`", with the id probably meant.
fn unknown<'a>(
    field: &'static str,
    what: &str,
    id: &str,
    known: impl IntoIterator<Item = &'a str>,
) -> Problem {
    let mut p = Problem::new(
        field,
        Some(Written::Text(id.to_string())),
        format!("there is no {what} `{id}` (is its mod on?)"),
    );
    p.help = did_you_mean(id, known);
    p
}

/// Why `scripts` — a mod (`frost`) or one of its scripts (`frost:scripts/ice.lua`) — names
/// nothing loaded, if it does.
fn unknown_scripts(content: &ContentDb, scripts: &str) -> Option<Problem> {
    let (mod_id, path) = match scripts.split_once(':') {
        Some((m, p)) => (m, Some(p)),
        None => (scripts, None),
    };
    let mods = || content.mods.iter().map(|m| m.id.as_str());
    let Some(m) = content.mods.iter().find(|m| m.id == mod_id) else {
        let mut p = unknown("expect", "mod", mod_id, mods());
        p.message = format!("no mod `{mod_id}` is loaded");
        return Some(p);
    };
    let path = path?;
    if m.scripts.contains_key(path) {
        return None;
    }
    let known: Vec<String> = m.scripts.keys().map(|p| format!("{mod_id}:{p}")).collect();
    let mut p = unknown(
        "expect",
        "script",
        scripts,
        known.iter().map(String::as_str),
    );
    p.message = format!("mod `{mod_id}` has no script `{path}`");
    Some(p)
}

/// The blueprint the game puts on the Hub's tile: core's if it is loaded, else the first
/// blueprint only the game places.
fn default_hub(content: &ContentDb) -> Option<String> {
    content
        .blueprint_id("core:hub")
        .map(|_| "core:hub".to_string())
        .or_else(|| {
            content
                .blueprints
                .iter()
                .find(|b| b.placed_by_game())
                .map(|b| b.id.clone())
        })
}
