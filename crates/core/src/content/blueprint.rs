//! Blueprints (thesis §2.4, §3.11, §5.2.1): what the player can build or use, one RON file each
//! in a mod's `blueprints/` folder.
//!
//! A blueprint holds every statistic other things may want to read or modify, whether or not an
//! instance exists; statistics a blueprint does not use are simply absent (`None`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::behaviour::Behaviour;
use super::damage::DamageTypes;
use super::item::content_item;
use super::model::Model;
use super::sounds::BlueprintSounds;
use super::{Param, ScriptRef};

/// What a blueprint makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum BlueprintKind {
    /// A building that damages attackers.
    Tower,
    /// A building that produces resources.
    Economic,
    /// A building with some other effect (Radar, Amplifier, the Hub).
    Special,
    /// A one-off effect used during a wave.
    Ability,
}

impl BlueprintKind {
    /// The lowercase name scripts use: `"tower"`, `"economic"`, `"special"` or `"ability"`.
    pub fn name(self) -> &'static str {
        match self {
            BlueprintKind::Tower => "tower",
            BlueprintKind::Economic => "economic",
            BlueprintKind::Special => "special",
            BlueprintKind::Ability => "ability",
        }
    }

    /// Whether blueprints of this kind are buildings (placed between waves).
    pub fn is_building(self) -> bool {
        self != BlueprintKind::Ability
    }
}

/// How often a blueprint is offered as a reward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Rarity {
    /// Every run starts with these; never offered.
    Starter,
    /// Offered most often.
    Common,
    /// Offered less often, more toward the end of a run.
    Rare,
    /// Offered rarely.
    Legendary,
    /// Never offered as a normal reward (the Hub, event rewards).
    Special,
}

/// What using a blueprint costs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    /// Materials.
    #[serde(default)]
    pub materials: f64,
    /// Energy (abilities may pay a shortfall with materials).
    #[serde(default)]
    pub energy: f64,
}

/// A resource a tile can be rich in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Deposit {
    /// Fuel-rich tiles.
    Fuel,
    /// Mineral-rich tiles.
    Minerals,
    /// Tiles rich in either.
    FuelOrMinerals,
}

/// Where a blueprint can be placed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Placement {
    /// On a free tile, as a building: no obstacle (but see `small_obstacles`), no path, no other
    /// building.
    Tile {
        /// Allowed on slanted tiles.
        #[serde(default)]
        slants: bool,
        /// Allowed on tiles with small obstacles.
        #[serde(default)]
        small_obstacles: bool,
        /// Only on tiles rich in this resource.
        #[serde(default)]
        deposit: Option<Deposit>,
        /// Not next to another building of the same blueprint.
        #[serde(default)]
        not_adjacent_to_same: bool,
        /// Can be turned in the four cardinal directions.
        #[serde(default)]
        rotatable: bool,
    },
    /// Anywhere on the terrain surface (most abilities).
    Surface {
        /// Can be turned in the four cardinal directions.
        #[serde(default)]
        rotatable: bool,
    },
    /// Placed by the game, never by the player, and never removed (the Hub).
    Fixed,
}

impl Rarity {
    /// The lowercase name scripts use: `"starter"`, `"common"`, `"rare"`, `"legendary"` or
    /// `"special"`.
    pub fn name(self) -> &'static str {
        match self {
            Rarity::Starter => "starter",
            Rarity::Common => "common",
            Rarity::Rare => "rare",
            Rarity::Legendary => "legendary",
            Rarity::Special => "special",
        }
    }
}

impl Placement {
    /// The default for a kind: buildings go on tiles, abilities anywhere on the surface.
    pub fn default_for(kind: BlueprintKind) -> Placement {
        if kind.is_building() {
            Placement::Tile {
                slants: false,
                small_obstacles: false,
                deposit: None,
                not_adjacent_to_same: false,
                rotatable: false,
            }
        } else {
            Placement::Surface { rotatable: false }
        }
    }
}

content_item! {
    /// A blueprint.
    ///
    /// A file that sets `overrides: "mod:name"` changes an existing blueprint instead; it may then
    /// give any subset of the fields.
    pub struct Blueprint, overridden by BlueprintPatch, "blueprint" {
        /// The name shown to players.
        pub name: String,
        /// Tower, economic, special or ability.
        pub kind: BlueprintKind,
        /// How often it is offered.
        pub rarity: Rarity,
        /// What each use costs.
        #[serde(default)]
        pub cost: Cost,
        /// Waves to wait after each use.
        #[serde(default)]
        pub cooldown: u32,
        /// Waves at the start of each level before the first use.
        #[serde(default)]
        pub starting_cooldown: u32,
        /// Range in tiles.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub range: Option<f64>,
        /// Radius of an effect, in tiles.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub radius: Option<f64>,
        /// Damage per hit.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub damage: Option<f64>,
        /// The types of the damage dealt; empty exactly when there is no damage.
        #[serde(default)]
        pub damage_type: DamageTypes,
        /// Ticks between shots (20 per second).
        #[serde(default)]
        #[patch(skip_wrap)]
        pub interval: Option<u32>,
        /// Ticks before an effect lands.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub delay: Option<u32>,
        /// How long an effect lasts, in ticks.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub duration_ticks: Option<u32>,
        /// How long an effect lasts, in waves.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub duration_waves: Option<u32>,
        /// Fuel produced after every wave.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub fuel_production: Option<f64>,
        /// Materials produced after every wave.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub material_production: Option<f64>,
        /// Energy produced after every wave.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub energy_production: Option<f64>,
        /// Stat tags shown above the descriptions, e.g. `["$RNG", "$DMG", "$INT"]`.
        #[serde(default)]
        pub stats_to_display: Vec<String>,
        /// One entry per ability, in the description tag language.
        #[serde(default)]
        pub descriptions: Vec<String>,
        /// Where it can be placed; buildings default to free tiles, abilities to anywhere.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub placement: Option<Placement>,
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
        /// Values for the behaviour script, read with `self:param("name")` (a shield's strength, the
        /// attacker a coffin releases), so variants of one behaviour share a script.
        #[serde(default)]
        pub params: BTreeMap<String, Param>,
        /// What the engine does with it once placed (targeting and firing, a blast), if anything.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub behaviour: Option<Behaviour>,
        /// What the game highlights it acting on (thesis 2.7) when the behaviour does not say: a
        /// support building's towers, a building's neighbours. Without it, a tower highlights the
        /// attackers it can hit and anything with a radius or range the attackers within it.
        #[serde(default)]
        #[patch(skip_wrap)]
        pub affects: Option<Affects>,
        /// The sounds it makes: placed, firing, used, removed. Ids as written, resolved by the
        /// loader to full ids (`mod:name`).
        #[serde(default)]
        pub sounds: BlueprintSounds,
        /// The script resolved to its mod; set by the loader.
        #[serde(skip)]
        #[patch(skip)]
        pub script_ref: Option<ScriptRef>,
    }
}

/// What a blueprint acts on, for highlighting it (see [`Blueprint::affects`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Affects {
    /// Attackers within its radius (or range).
    Attackers,
    /// Towers within its range (or radius).
    Towers,
    /// Buildings within its range (or radius).
    Buildings,
    /// Buildings on the four tiles next to it.
    Adjacent,
}

impl Blueprint {
    /// Where it can be placed, with the kind's default filled in.
    pub fn placement(&self) -> Placement {
        self.placement
            .clone()
            .unwrap_or_else(|| Placement::default_for(self.kind))
    }

    /// Whether the game places it (the Hub) rather than the player: it is never offered,
    /// drawn, bought, augmented or started with, and cannot be placed or removed by a player.
    pub fn placed_by_game(&self) -> bool {
        self.placement() == Placement::Fixed
    }
}
