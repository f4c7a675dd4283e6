//! Attacker types (thesis §2.3.4, §5.1.1), one RON file each in a mod's `attackers/` folder.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::item::content_item;
use super::model::Model;
use super::sounds::AttackerSounds;
use super::{Param, ScriptRef};

/// How big an attacker is: decides the hull it costs at the Hub and how high towers aim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Size {
    /// Costs 1 hull; towers aim 0.15 above the ground.
    Small,
    /// Costs 3 hull; towers aim 0.3 above the ground.
    Large,
    /// Ends the run on reaching the Hub; aimed at like a large attacker.
    Boss,
}

impl Size {
    /// The lowercase name scripts use: `"small"`, `"large"` or `"boss"`.
    pub fn name(self) -> &'static str {
        match self {
            Size::Small => "small",
            Size::Large => "large",
            Size::Boss => "boss",
        }
    }

    /// The height above the surface that towers aim at, in tiles.
    pub fn target_height(self) -> f64 {
        match self {
            Size::Small => 0.15,
            Size::Large | Size::Boss => 0.3,
        }
    }
}

/// Attackers spawned when one dies (slimes split, skulls release skeletons).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spawn {
    /// The attacker type spawned: `mod:name`, or `name` for one of the same mod.
    pub attacker: String,
    /// How many.
    #[serde(default = "one")]
    pub count: u32,
}

fn one() -> u32 {
    1
}

fn one_f64() -> f64 {
    1.0
}

content_item! {
    /// An attacker type.
    ///
    /// A file that sets `overrides: "mod:name"` changes an existing attacker type instead; it may then
    /// give any subset of the fields.
    pub struct AttackerType, overridden by AttackerTypePatch, "attacker type" {
        /// The name shown to players.
        pub name: String,
        /// Small, large or boss.
        pub size: Size,
        /// Hit points when spawned.
        pub max_health: f64,
        /// Movement speed in tiles per second.
        pub speed: f64,
        /// The smallest gap between two of these in a batch, in seconds.
        pub min_spacing: f64,
        /// How hard it is to kill, for wave generation: its HP for attackers without abilities.
        pub value: f64,
        /// How likely the wave generator is to pick it among valid types.
        #[serde(default = "one_f64")]
        pub weight: f64,
        /// One entry per ability, in the description tag language.
        #[serde(default)]
        pub descriptions: Vec<String>,
        /// How it looks in the game window: parts or a glTF file ([`Model`]); without one the
        /// client draws a plain default.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub model: Option<Model>,
        /// Icon image, relative to the mod folder.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub icon: Option<String>,
        /// Behaviour script, relative to the mod folder (`scripts/name.lua`).
        #[serde(default)]
        #[patch(skip_wrap)]
        pub script: Option<String>,
        /// The script resolved to its mod; set by the loader.
        #[serde(skip)]
        #[patch(skip)]
        pub script_ref: Option<ScriptRef>,
        /// Attackers spawned where this one dies.
        #[serde(default)]
        pub spawns_on_death: Vec<Spawn>,
        /// Values for the behaviour script, read with `self:param("name")` (a shield's strength, the
        /// attacker a coffin releases), so variants of one behaviour share a script.
        #[serde(default)]
        pub params: BTreeMap<String, Param>,
        /// The sounds it makes: appearing, dying, hit, reaching the Hub. Ids as written,
        /// resolved by the loader to full ids (`mod:name`).
        #[serde(default)]
        pub sounds: AttackerSounds,
    }
}
