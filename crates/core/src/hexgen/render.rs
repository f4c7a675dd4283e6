//! A level as a picture of pointy-top hexes: row 0 at the top, odd rows half a hex to the right,
//! a thin dark gap between hexes, the start as a white hex inside its tile, bridges as a wooden
//! hex inside their water tile.

use super::{HexMap, Tile};
use crate::picture::encode_png;

type Rgb = [u8; 3];

const BACKGROUND: Rgb = [24, 26, 30];
const START: Rgb = [250, 250, 240];
const BRIDGE: Rgb = [150, 100, 50];
const MARGIN: f64 = 8.0;

fn colour(tile: Tile) -> Rgb {
    match tile {
        Tile::Grass => [126, 184, 84],
        Tile::Mountain => [118, 108, 100],
        Tile::Water => [58, 118, 204],
        Tile::Forest => [32, 98, 44],
        Tile::Bushes => [176, 70, 120],
        Tile::Stone => [184, 184, 190],
    }
}

/// The level as PNG bytes.
pub fn render_png(map: &HexMap) -> Vec<u8> {
    let size = map.params.size();
    // Hex radius (centre to corner) in pixels: big levels get smaller hexes.
    let radius = (1400.0 / (3f64.sqrt() * f64::from(size.width))).clamp(4.0, 14.0);
    let step_x = 3f64.sqrt() * radius;
    let step_y = 1.5 * radius;
    let width = (2.0 * MARGIN + step_x * (f64::from(size.width) + 0.5)).ceil() as u32;
    let height = (2.0 * MARGIN + 2.0 * radius + step_y * f64::from(size.height - 1)).ceil() as u32;
    let mut image = Image {
        width,
        height,
        rgb: BACKGROUND.repeat((width * height) as usize),
    };
    let centre = |cell: u32| {
        let (x, y) = size.xy(cell);
        (
            MARGIN + step_x * (f64::from(x) + 0.5 + 0.5 * f64::from(y % 2)),
            MARGIN + radius + step_y * f64::from(y),
        )
    };
    for (cell, &tile) in (0..).zip(&map.tiles) {
        image.hexagon(centre(cell), radius - 1.0, colour(tile));
    }
    image.hexagon(centre(map.start), radius * 0.45, START);
    for &cell in &map.bridges {
        image.hexagon(centre(cell), radius * 0.5, BRIDGE);
    }
    encode_png(width, height, &image.rgb)
}

struct Image {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Image {
    /// Fills the pointy-top hexagon of circumradius `r` around `centre`.
    fn hexagon(&mut self, centre: (f64, f64), r: f64, colour: Rgb) {
        let half_width = 3f64.sqrt() / 2.0 * r;
        let x0 = (centre.0 - half_width).floor().max(0.0) as u32;
        let x1 = ((centre.0 + half_width).ceil() as u32).min(self.width);
        let y0 = (centre.1 - r).floor().max(0.0) as u32;
        let y1 = ((centre.1 + r).ceil() as u32).min(self.height);
        for py in y0..y1 {
            for px in x0..x1 {
                let dx = (f64::from(px) + 0.5 - centre.0).abs();
                let dy = (f64::from(py) + 0.5 - centre.1).abs();
                if dx <= half_width && dy <= r - dx / 3f64.sqrt() {
                    let i = (py * self.width + px) as usize * 3;
                    self.rgb[i..i + 3].copy_from_slice(&colour);
                }
            }
        }
    }
}
