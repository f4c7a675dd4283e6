//! A level written out whole: what the level setter would otherwise draw from its rules — the
//! terrain type, the paths, the attacker types, the waves, the economy and the collection.
//! `rampart rate` measures one, `rampart breed` makes them, and a level setter's `designs` plays
//! them in place of its rules (`docs/balance.md`).

use serde::{Deserialize, Serialize};

use super::WaveParams;

/// One level as data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelDesign {
    /// The level number it is meant for (1-based).
    pub level: u32,
    /// The terrain type, `mod:name`.
    pub terrain: String,
    /// One length per path, in segments from outside the world to the Hub.
    pub path_lengths: Vec<u32>,
    /// Extra branches the final path network may add.
    #[serde(default)]
    pub branches: u32,
    /// The attacker types the waves draw from, `mod:name`.
    pub attackers: Vec<String>,
    /// How many waves.
    pub wave_count: u32,
    /// The wave parameters as they are played (no difficulty multiplies them); fields left out
    /// keep the wave generator's defaults.
    #[serde(default)]
    pub waves: WaveParams,
    /// Fuel needed to win.
    pub fuel_goal: f64,
    /// Materials at the start.
    pub materials: f64,
    /// Energy at the start.
    #[serde(default)]
    pub energy: f64,
    /// The energy cap before modifiers.
    #[serde(default = "default_energy_cap")]
    pub energy_cap: f64,
    /// The blueprints the player has when the level is played alone (`rampart rate`); by default
    /// the game's starting blueprints. In a run the run's collection is played instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collection: Option<Vec<String>>,
}

impl LevelDesign {
    /// The path lengths as text, `26/30`.
    pub fn paths(&self) -> String {
        let lengths: Vec<String> = self.path_lengths.iter().map(u32::to_string).collect();
        lengths.join("/")
    }
}

fn default_energy_cap() -> f64 {
    50.0
}
