//! Attacker pools and level parameters for measuring the wave generator, shared by the wave
//! tests and `examples/generator_capacity.rs` (which includes this file by path).

use rampart_core::waves::{AttackerPool, Growth, PoolAttacker, Wave, WaveParams, level_waves};

/// A pool of `n` made-up attacker types spanning weak-and-fast to strong-and-slow.
pub fn synthetic_pool(n: usize) -> AttackerPool {
    AttackerPool::new(
        (0..n)
            .map(|i| PoolAttacker {
                id: format!("test:a{i}"),
                value: 4.0 * libm::pow(1.6, i as f64),
                speed: [0.6, 1.0, 1.5, 2.2][i % 4],
                min_spacing: [0.25, 0.5, 1.0][i % 3],
                weight: 1.0 + (i % 2) as f64,
            })
            .collect(),
    )
    .unwrap()
}

/// Stand-ins for the level setter: harder levels start higher and grow faster.
pub fn level_params(level: u32) -> WaveParams {
    let d = WaveParams::default();
    let k = f64::from(level - 1);
    WaveParams {
        capacity: Growth {
            first: d.capacity.first * (1.0 + 0.5 * k),
            per_wave: d.capacity.per_wave * (1.0 + 0.25 * k),
            ..d.capacity
        },
        rate: Growth {
            first: d.rate.first * (1.0 + 0.3 * k),
            ..d.rate
        },
        ..d
    }
}

/// Waves of `seeds` seeds × levels 1–3 × 1–4 paths, 15 waves each, with their path count;
/// `tweak` adjusts each level's parameters.
pub fn sample_with(
    pool: &AttackerPool,
    seeds: u64,
    tweak: impl Fn(&mut WaveParams),
) -> Vec<(usize, Wave)> {
    let mut waves = Vec::new();
    for seed in 0..seeds {
        for level in 1..=3 {
            let mut params = level_params(level);
            tweak(&mut params);
            for paths in 1..=4 {
                let lw = level_waves(seed, level, paths, &params, pool, 15).unwrap();
                waves.extend(lw.waves.into_iter().map(|w| (paths, w)));
            }
        }
    }
    waves
}
