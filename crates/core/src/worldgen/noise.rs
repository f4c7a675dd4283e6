//! Perlin gradient noise in two dimensions, seeded from our own generator so that worlds stay
//! reproducible, and its fractal (multi-octave) sum.

use crate::rng::Rng;
use crate::terrain::FractalNoise;

/// One Perlin noise function: a shuffled permutation table decides the gradient at each lattice
/// point.
#[derive(Clone, Debug)]
pub struct Perlin {
    perm: [u8; 512],
}

/// Unit gradients in eight directions.
const GRADIENTS: [(f64, f64); 8] = [
    (1.0, 0.0),
    (-1.0, 0.0),
    (0.0, 1.0),
    (0.0, -1.0),
    (
        std::f64::consts::FRAC_1_SQRT_2,
        std::f64::consts::FRAC_1_SQRT_2,
    ),
    (
        -std::f64::consts::FRAC_1_SQRT_2,
        std::f64::consts::FRAC_1_SQRT_2,
    ),
    (
        std::f64::consts::FRAC_1_SQRT_2,
        -std::f64::consts::FRAC_1_SQRT_2,
    ),
    (
        -std::f64::consts::FRAC_1_SQRT_2,
        -std::f64::consts::FRAC_1_SQRT_2,
    ),
];

fn fade(t: f64) -> f64 {
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

impl Perlin {
    /// A noise function drawn from `rng`.
    pub fn new(rng: &mut Rng) -> Perlin {
        let mut table: Vec<u8> = (0..=255).collect();
        rng.shuffle(&mut table);
        let mut perm = [0u8; 512];
        for i in 0..512 {
            perm[i] = table[i & 255];
        }
        Perlin { perm }
    }

    fn gradient(&self, x: i64, y: i64, dx: f64, dy: f64) -> f64 {
        let h = self.perm[(self.perm[(x & 255) as usize] as usize + (y & 255) as usize) & 511];
        let (gx, gy) = GRADIENTS[(h & 7) as usize];
        gx * dx + gy * dy
    }

    /// The noise at `(x, y)`, roughly within `[-1, 1]`, smooth, 0 on lattice points.
    pub fn at(&self, x: f64, y: f64) -> f64 {
        let (x0, y0) = (x.floor(), y.floor());
        let (fx, fy) = (x - x0, y - y0);
        let (ix, iy) = (x0 as i64, y0 as i64);
        let n00 = self.gradient(ix, iy, fx, fy);
        let n10 = self.gradient(ix + 1, iy, fx - 1.0, fy);
        let n01 = self.gradient(ix, iy + 1, fx, fy - 1.0);
        let n11 = self.gradient(ix + 1, iy + 1, fx - 1.0, fy - 1.0);
        let (u, v) = (fade(fx), fade(fy));
        let bottom = n00 + u * (n10 - n00);
        let top = n01 + u * (n11 - n01);
        // Unit gradients give at most √2 / 2 in 2D; scale to about ±1.
        (bottom + v * (top - bottom)) * std::f64::consts::SQRT_2
    }
}

/// Fractal noise: a sum of octaves of one Perlin function, each shifted so they do not line up.
#[derive(Clone, Debug)]
pub struct Fractal {
    params: FractalNoise,
    perlin: Perlin,
}

impl Fractal {
    /// A fractal noise function drawn from `rng`.
    pub fn new(params: FractalNoise, rng: &mut Rng) -> Fractal {
        Fractal {
            params,
            perlin: Perlin::new(rng),
        }
    }

    /// Bounds of the value anywhere: each octave stays within its amplitude.
    pub fn bounds(&self) -> (f64, f64) {
        let p = &self.params;
        let mut amplitude = p.base_amplitude.abs();
        let mut total = 0.0;
        for _ in 0..p.octaves {
            total += amplitude;
            amplitude *= p.amplitude_mult;
        }
        (p.bias - total, p.bias + total)
    }

    /// The value at `(x, y)`, in tiles.
    pub fn at(&self, x: f64, y: f64) -> f64 {
        let p = &self.params;
        let mut amplitude = p.base_amplitude;
        let mut frequency = p.base_frequency;
        let mut sum = p.bias;
        for octave in 0..p.octaves {
            let shift = f64::from(octave) * 17.31;
            sum += amplitude * self.perlin.at(x * frequency + shift, y * frequency - shift);
            amplitude *= p.amplitude_mult;
            frequency *= p.frequency_mult;
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Seed;

    #[test]
    fn perlin_is_bounded_smooth_and_seeded() {
        let a = Perlin::new(&mut Seed(1).rng());
        let b = Perlin::new(&mut Seed(1).rng());
        let c = Perlin::new(&mut Seed(2).rng());
        let mut differs = false;
        for i in 0..2000 {
            let (x, y) = (f64::from(i) * 0.173, f64::from(i % 37) * 0.291);
            let v = a.at(x, y);
            assert!(v.abs() <= 1.0 + 1e-9, "{v}");
            assert_eq!(v, b.at(x, y));
            differs |= v != c.at(x, y);
            assert!((a.at(x + 1e-4, y) - v).abs() < 1e-3);
        }
        assert!(differs);
        assert_eq!(a.at(3.0, 4.0), 0.0);
    }
}
