//! A level as JSON, for tools: `rows[y]` holds row `y`'s tiles as letters (G M W F B S), and
//! positions are `[x, y]` in the odd-r convention of [`crate::topology::Hex`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{HexMap, Tile};
use crate::topology::Size;

/// A level as `rampart hexmap --json` writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexJson {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `random` or `natural`.
    pub method: String,
    /// `preemptive` or `corrective`.
    pub check: String,
    /// `1x` or `2x`.
    pub impassable: String,
    /// The seed.
    pub seed: u64,
    /// The start tile.
    pub start: [u32; 2],
    /// Row `y` as letters, `y = 0` first.
    pub rows: Vec<String>,
    /// The water tiles a path crosses on a bridge.
    pub bridges: Vec<[u32; 2]>,
    /// The protected start area.
    pub protected: Vec<[u32; 2]>,
    /// Every tile on which impassable tiles were forbidden.
    pub critical: Vec<[u32; 2]>,
    /// How many tiles of each spawned type were asked for, by letter.
    pub targets: BTreeMap<char, u32>,
}

impl HexJson {
    /// The JSON of `map`.
    pub fn new(map: &HexMap) -> HexJson {
        let size = map.params.size();
        let positions = |cells: &[u32]| -> Vec<[u32; 2]> {
            cells
                .iter()
                .map(|&c| {
                    let (x, y) = size.xy(c);
                    [x, y]
                })
                .collect()
        };
        HexJson {
            width: size.width,
            height: size.height,
            method: map.params.method.name().into(),
            check: map.params.check.name().into(),
            impassable: map.params.impassable.name().into(),
            seed: map.seed.0,
            start: positions(&[map.start])[0],
            rows: rows(size, &map.tiles),
            bridges: positions(&map.bridges),
            protected: positions(&map.protected),
            critical: positions(&map.critical),
            targets: Tile::SPAWN_ORDER
                .iter()
                .map(|&t| (t.letter(), map.params.target(t)))
                .collect(),
        }
    }
}

fn rows(size: Size, tiles: &[Tile]) -> Vec<String> {
    tiles
        .chunks(size.width as usize)
        .map(|row| row.iter().map(|t| t.letter()).collect())
        .collect()
}
