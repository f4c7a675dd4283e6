//! The scenario file as Rust types: what `docs/modding/scenarios.md` documents field by field.
//! Every field but the waves' attackers has a default, so a scenario says only what it tests.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::battle::{Start, Storage};
use crate::content::{DamageType, Priority};
use crate::rng::Seed;

/// A battle set up by hand: its world, what the player holds, the buildings standing at the
/// start, the waves, the player's timed actions, how long to run, and what to expect.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// What it tests, in the report's first line; the file's name when left out.
    #[serde(default)]
    pub name: String,
    /// The world it is fought on.
    #[serde(default)]
    pub world: WorldSpec,
    /// The battle's seed: what the battle and the scripts' `math.random` draw.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// The blueprints the player has; every blueprint loaded when left out.
    #[serde(default)]
    pub collection: Option<Vec<String>>,
    /// The blueprint on the Hub's tile: `core:hub` when loaded, else the first blueprint the
    /// game places itself.
    #[serde(default)]
    pub hub: Option<String>,
    /// Materials at the start.
    #[serde(default = "default_materials")]
    pub materials: f64,
    /// Energy at the start.
    #[serde(default)]
    pub energy: f64,
    /// The energy cap before modifiers.
    #[serde(default = "default_energy_cap")]
    pub energy_cap: f64,
    /// Hull at the start.
    #[serde(default = "default_hull")]
    pub hull: f64,
    /// Fuel that wins the battle; high by default, so that no scenario is won by accident.
    #[serde(default = "default_fuel_goal")]
    pub fuel_goal: f64,
    /// Attacker types' HP multipliers, `"mod:name": factor`.
    #[serde(default)]
    pub strength: BTreeMap<String, f64>,
    /// Augments of the player's blueprints, `"mod:blueprint": ["mod:augment", …]`.
    #[serde(default)]
    pub augments: BTreeMap<String, Vec<String>>,
    /// What mods have in their storage at the start, `"mod": [(key, value), …]`, as if an
    /// earlier battle of a run had left it; empty when left out.
    #[serde(default)]
    pub storage: BTreeMap<String, Storage>,
    /// Buildings placed before anything else, in order.
    #[serde(default)]
    pub buildings: Vec<Building>,
    /// The waves, in order; each starts once the one before has ended.
    #[serde(default)]
    pub waves: Vec<WaveSpec>,
    /// The player's timed actions, in the order they are given when due on the same tick.
    #[serde(default)]
    pub actions: Vec<Action>,
    /// The most ticks to run (20 are a second); [`DEFAULT_TICKS`] when left out.
    #[serde(default)]
    pub ticks: Option<u64>,
    /// What must hold at the end.
    #[serde(default)]
    pub expect: Vec<Expectation>,
}

/// How long a scenario runs at most when it does not say: ten minutes of game time.
pub const DEFAULT_TICKS: u64 = 12_000;

fn default_seed() -> u64 {
    1
}

fn default_materials() -> f64 {
    1000.0
}

fn default_energy_cap() -> f64 {
    Start::new(Seed(0)).energy_cap
}

fn default_hull() -> f64 {
    Start::new(Seed(0)).hull
}

fn default_fuel_goal() -> f64 {
    1_000_000.0
}

fn default_count() -> u32 {
    1
}

impl Default for Scenario {
    /// The scenario of an empty file: the straight path, every default, nothing placed or sent.
    fn default() -> Scenario {
        Scenario {
            name: String::new(),
            world: WorldSpec::default(),
            seed: default_seed(),
            collection: None,
            hub: None,
            materials: default_materials(),
            energy: 0.0,
            energy_cap: default_energy_cap(),
            hull: default_hull(),
            fuel_goal: default_fuel_goal(),
            strength: BTreeMap::new(),
            augments: BTreeMap::new(),
            storage: BTreeMap::new(),
            buildings: Vec::new(),
            waves: Vec::new(),
            actions: Vec::new(),
            ticks: None,
            expect: Vec::new(),
        }
    }
}

/// The world a scenario is fought on.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum WorldSpec {
    /// Open ground 15 tiles by 7 around one straight path along the middle row (y = 3), from
    /// the west edge to the Hub at (14, 3): the world of `rampart try`.
    #[default]
    Straight,
    /// A world drawn as text (the layout of battle records, `docs/modding/records.md`).
    Layout(String),
    /// A world generated the way levels are.
    Generated {
        /// The terrain type, `mod:name`.
        terrain: String,
        /// The world seed (the next seeds are tried if the generator cannot finish it).
        seed: u64,
        /// One length per path.
        paths: Vec<u32>,
        /// Tiles from west to east.
        #[serde(default = "default_side")]
        width: i32,
        /// Tiles from south to north.
        #[serde(default = "default_side")]
        height: i32,
    },
}

fn default_side() -> i32 {
    crate::worldgen::WorldParams::default().width
}

/// A building standing before the first wave.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Building {
    /// Its blueprint, `mod:name`.
    pub blueprint: String,
    /// The tile it stands on, `(x, y)`.
    pub tile: (i32, i32),
    /// Quarter turns clockwise from north, for blueprints that can be turned.
    #[serde(default)]
    pub rotation: u8,
}

/// One wave.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WaveSpec {
    /// What it sends.
    pub send: Vec<Group>,
    /// Ticks to wait between waves (after the one before ended, or after the start) before it
    /// starts.
    #[serde(default)]
    pub pause: u32,
}

/// Attackers of one type sent one after another.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Group {
    /// The attacker type, `mod:name`.
    pub attacker: String,
    /// How many.
    #[serde(default = "default_count")]
    pub count: u32,
    /// Ticks between two of them.
    #[serde(default)]
    pub every: u32,
    /// The path start they come from (from 0).
    #[serde(default)]
    pub path: usize,
    /// Ticks after the wave starts that the first comes.
    #[serde(default)]
    pub delay: u32,
}

/// Something the player does, and when.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Action {
    /// Ticks after the start of the battle, or after the start of `wave` if given.
    #[serde(default)]
    pub tick: u64,
    /// The wave (from 1) whose start `tick` counts from.
    #[serde(default)]
    pub wave: Option<u32>,
    /// Instead of a tick: between waves, just before this wave (from 1) starts.
    #[serde(default)]
    pub before_wave: Option<u32>,
    /// Once its time has come, wait until an attacker is within [`NEAR`] tiles of this point.
    #[serde(default)]
    pub near: Option<(f64, f64)>,
    /// What the player does.
    #[serde(rename = "do")]
    pub act: Act,
}

/// How close an attacker must come to an action's `near` point: less than the smallest radius
/// of an ability, so that one used there catches it.
pub const NEAR: f64 = 0.2;

/// What the player does in an [`Action`].
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Act {
    /// Build a building on a tile (between waves).
    Place {
        /// The blueprint, `mod:name`.
        blueprint: String,
        /// The tile, `(x, y)`.
        tile: (i32, i32),
        /// Quarter turns clockwise from north.
        #[serde(default)]
        rotation: u8,
    },
    /// Use an ability at a point (during a wave).
    Use {
        /// The blueprint, `mod:name`.
        blueprint: String,
        /// The point, `(x, y)` in tiles.
        at: (f64, f64),
        /// Quarter turns clockwise from north.
        #[serde(default)]
        rotation: u8,
    },
    /// Remove the building on a tile.
    Remove {
        /// The tile, `(x, y)`.
        tile: (i32, i32),
    },
    /// Change the targeting priority of the tower on a tile.
    Priority {
        /// The tile, `(x, y)`.
        tile: (i32, i32),
        /// `First`, `Last`, `Closest`, `Farthest`, `Weakest` or `Strongest`.
        priority: Priority,
    },
}

/// Something that must hold when the scenario has run.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub enum Expectation {
    /// The measure is at least the number.
    AtLeast(Measure, f64),
    /// The measure is at most the number.
    AtMost(Measure, f64),
    /// Every attacker that came was killed.
    AllAttackersDead,
    /// No script failed.
    NoScriptErrors,
    /// The battle refused no action.
    NothingRefused,
}

/// A number the report holds, for an [`Expectation`].
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub enum Measure {
    /// Damage dealt, all types.
    Damage(Of),
    /// Damage dealt by hits that carry this type.
    DamageOfType(Of, DamageType),
    /// Hits that dealt damage.
    Hits(Of),
    /// Attackers killed by its hit.
    Kills(Of),
    /// Times it fired.
    Shots(Of),
    /// Hit points it gave back.
    Healing(Of),
    /// Materials it produced.
    Materials(Of),
    /// Energy it produced.
    Energy(Of),
    /// Fuel it produced.
    Fuel(Of),
    /// Times it applied the effect.
    EffectsApplied(Of, String),
    /// Ticks of the effect it applied, added up over its applications.
    EffectTicks(Of, String),
    /// A statistic as queried just after it was placed.
    StartStat(Of, Stat),
    /// A statistic as queried at the end (or last, before it went).
    EndStat(Of, Stat),
    /// Attackers that came.
    Came(Who),
    /// Attackers killed.
    Killed(Who),
    /// Attackers that reached the Hub.
    Leaked(Who),
    /// Attackers still alive at the end.
    Alive(Who),
    /// The lowest speed an attacker had, in tiles per second.
    SlowestSpeed(Who),
    /// The attackers' average speed over the ticks they were alive, in tiles per second.
    AverageSpeed(Who),
    /// Ticks the attackers spent under the effect, added up over the attackers.
    EffectTicksOn(Who, String),
    /// Hull lost.
    HullLost,
    /// Script errors, repeats included.
    ScriptErrors,
    /// Actions refused.
    Refused,
    /// Waves that ended.
    WavesEnded,
    /// Instructions run by a mod's scripts (`"frost"`) or by one script
    /// (`"frost:scripts/ice.lua"`), as the battle counts them: the same in every run.
    ScriptInstructions(String),
    /// Calls into a mod's scripts or into one script, named as for `ScriptInstructions`.
    ScriptCalls(String),
}

/// The buildings and abilities a measure is about: numbers add up over all of them, a statistic
/// is the first one's.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub enum Of {
    /// What stood on this tile.
    Tile(i32, i32),
    /// Everything made from this blueprint.
    Blueprint(String),
}

/// The attackers a measure is about.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub enum Who {
    /// All of them.
    Any,
    /// Those of this type, `mod:name`.
    Type(String),
}

/// A blueprint statistic, read through its query.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Deserialize)]
pub enum Stat {
    /// `range`, in tiles.
    Range,
    /// `radius`, in tiles.
    Radius,
    /// `hit_damage`, per hit.
    HitDamage,
    /// `interval`, in ticks.
    Interval,
}

impl Stat {
    /// Every statistic, in the report's order.
    pub const ALL: [Stat; 4] = [Stat::Range, Stat::Radius, Stat::HitDamage, Stat::Interval];

    /// The query's name, which is also the report's.
    pub fn name(self) -> &'static str {
        match self {
            Stat::Range => "range",
            Stat::Radius => "radius",
            Stat::HitDamage => "hit_damage",
            Stat::Interval => "interval",
        }
    }
}
