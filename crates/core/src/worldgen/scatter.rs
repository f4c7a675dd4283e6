//! Stage 6: obstacle models (thesis 3.5.3).
//!
//! For every model definition, in order, a number of random points is tried on every tile. The
//! definition's noise expression gives each point a value; below the threshold nothing is placed.
//! The value also scales the model (`size_gain`) and its two collision radii (`radius_gain`): a
//! gain `g` and value `v` scale by `1 + g·v` when that is positive and by `1 / (1 − g·v)`
//! otherwise. A point is rejected when its placement radius overlaps the persistent radius of a
//! model placed before it (of any definition). Placed models get a random heading and a random
//! tilt of up to `angle_spread` degrees.

use serde::Serialize;

use super::grid::{Grid, Pos};
use super::noise_expr::{Compiled, Field, compile, height_at};
use crate::rng::Rng;
use crate::terrain::TerrainType;

/// One model the client draws.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ModelInstance {
    /// Index into [`TerrainType::scatter`].
    pub model: u16,
    /// East coordinate, tile units (tile centres are integers).
    pub x: f64,
    /// North coordinate, tile units.
    pub y: f64,
    /// Terrain height level under the model.
    pub z: f64,
    /// Uniform scale.
    pub scale: f64,
    /// Heading in degrees, counter-clockwise from east.
    pub heading: f64,
    /// Tilt away from vertical, in degrees.
    pub tilt: f64,
    /// Direction of the tilt, in degrees counter-clockwise from east.
    pub tilt_direction: f64,
}

/// The scale factor for gain × value (see the module documentation).
pub fn gain_scale(gain_times_value: f64) -> f64 {
    if gain_times_value >= 0.0 {
        1.0 + gain_times_value
    } else {
        1.0 / (1.0 - gain_times_value)
    }
}

/// Placed models, bucketed by tile for collision checks.
struct Placed {
    grid: Grid,
    buckets: Vec<Vec<(f64, f64, f64)>>,
    widest: f64,
}

impl Placed {
    fn collides(&self, x: f64, y: f64, radius: f64) -> bool {
        let reach = radius + self.widest;
        let cells = reach.ceil() as i32;
        let here = Pos::new(x.round() as i32, y.round() as i32);
        for ty in (here.y - cells).max(0)..=(here.y + cells).min(self.grid.height - 1) {
            for tx in (here.x - cells).max(0)..=(here.x + cells).min(self.grid.width - 1) {
                for &(px, py, keep) in &self.buckets[self.grid.index(Pos::new(tx, ty))] {
                    let r = radius + keep;
                    if (px - x) * (px - x) + (py - y) * (py - y) < r * r {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn add(&mut self, x: f64, y: f64, keep: f64) {
        let p = Pos::new(x.round() as i32, y.round() as i32);
        let i = self.grid.index(Pos::new(
            p.x.clamp(0, self.grid.width - 1),
            p.y.clamp(0, self.grid.height - 1),
        ));
        self.buckets[i].push((x, y, keep));
        self.widest = self.widest.max(keep);
    }
}

/// The most instances one scatter model places per tile of the world, on average: far beyond any
/// real terrain type (the core's place well under one), and what keeps a definition with zero
/// radii and thousands of tries per tile from filling memory.
pub const MAX_INSTANCES_PER_TILE: usize = 16;

/// Scatters the models of every definition over the world. Each definition places at most
/// [`MAX_INSTANCES_PER_TILE`] times the world's tiles instances; past that it stops, the same way
/// in every run.
pub fn scatter_models(
    terrain_type: &TerrainType,
    field: &Field<'_>,
    rng: &mut Rng,
) -> Vec<ModelInstance> {
    let grid = *field.grid;
    let compiled: Vec<Compiled> = terrain_type
        .scatter
        .iter()
        .map(|m| compile(&m.value, rng))
        .collect();
    let mut placed = Placed {
        grid,
        buckets: vec![Vec::new(); grid.len()],
        widest: 0.0,
    };
    let mut out = Vec::new();
    let most = MAX_INSTANCES_PER_TILE * grid.len();
    for (m, (def, expr)) in terrain_type.scatter.iter().zip(&compiled).enumerate() {
        let first = out.len();
        'tiles: for tile in grid.tiles() {
            // Most tiles are far from the obstacle a definition follows: skip those where no
            // point can reach the threshold.
            if expr.bounds(field, tile).1 < def.value_threshold {
                continue;
            }
            for _ in 0..def.tries_per_tile {
                if out.len() - first >= most {
                    break 'tiles;
                }
                let x = f64::from(tile.x) + rng.unit() - 0.5;
                let y = f64::from(tile.y) + rng.unit() - 0.5;
                let value = expr.eval(field, x, y);
                // Absurd noise frequencies can produce NaN; it places nothing.
                if value.is_nan() || value < def.value_threshold {
                    continue;
                }
                let radius_scale = gain_scale(def.radius_gain * value);
                if placed.collides(x, y, def.placement_radius * radius_scale) {
                    continue;
                }
                placed.add(x, y, def.persistent_radius * radius_scale);
                out.push(ModelInstance {
                    model: m as u16,
                    x,
                    y,
                    z: height_at(&grid, field.terrain, x, y),
                    scale: gain_scale(def.size_gain * value),
                    heading: rng.range_f64(0.0, 360.0),
                    tilt: rng.unit() * def.angle_spread,
                    tilt_direction: rng.range_f64(0.0, 360.0),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gain_scale_matches_the_thesis_examples() {
        // size_gain 1: value 1 → scale 2, value −2 → scale 1/3; radius_gain −1, value 1 → ½.
        assert_eq!(gain_scale(1.0), 2.0);
        assert!((gain_scale(-2.0) - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(gain_scale(-1.0), 0.5);
    }
}
