//! Generated waves keep every limit and never exceed their capacity, over many seeds, levels,
//! path counts and attacker pools; the same seed gives the same waves.

use crate::waves_common::{check_level, core_content, core_pool, level_params, synthetic_pool};
use proptest::prelude::*;
use rampart_core::rng::Seed;
use rampart_core::run::LevelSpec;
use rampart_core::waves::{
    AttackerPool, Growth, PoolAttacker, WaveError, WaveGenerator, WaveKind, WaveParams, level_waves,
};

#[test]
fn core_waves_keep_every_limit() {
    let pool = core_pool();
    let mut kinds = [0usize; 2];
    for seed in 0..40 {
        for level in 1..=3 {
            for paths in 1..=4 {
                let params = level_params(level);
                let lw = level_waves(seed, level, paths, &params, &pool, 15).unwrap();
                if let Err(e) = check_level(&lw.waves, &params, &pool, paths) {
                    panic!("seed {seed} level {level} paths {paths}: {e}");
                }
                for w in &lw.waves {
                    kinds[usize::from(w.kind == WaveKind::Parallel)] += 1;
                }
            }
        }
    }
    // Both kinds occur (parallel needs a wave on two or more paths).
    assert!(kinds[0] > 0 && kinds[1] > 0, "{kinds:?}");
}

#[test]
fn level_setter_waves_keep_every_limit() {
    let content = core_content();
    let mut used = Vec::new();
    for seed in 0..25 {
        for level in 1..=14 {
            let spec = LevelSpec::new(&content, seed, level).unwrap();
            let lw = spec.waves(seed).unwrap();
            assert_eq!(lw.waves.len() as u32, spec.wave_count);
            let paths = spec.path_lengths.len();
            if let Err(e) = check_level(&lw.waves, &spec.params, &spec.pool, paths) {
                panic!("seed {seed} level {level}: {e}");
            }
            used.extend(lw.waves.iter().map(|w| w.usage()));
        }
    }
    // The level setter keeps its curves within what the core attackers can fill
    // (docs/balance.md has the full numbers).
    let mean = used.iter().sum::<f64>() / used.len() as f64;
    assert!(mean > 0.95, "mean share of capacity used {mean}");
}

#[test]
fn synthetic_pools_keep_every_limit() {
    for n in [1, 2, 3, 5, 8, 12] {
        let pool = synthetic_pool(n);
        for seed in 0..25 {
            for paths in [1, 2, 3, 5] {
                let params = WaveParams::default();
                let lw = level_waves(seed, 1, paths, &params, &pool, 15).unwrap();
                if let Err(e) = check_level(&lw.waves, &params, &pool, paths) {
                    panic!("pool {n} seed {seed} paths {paths}: {e}");
                }
            }
        }
    }
}

/// Random pools (always with one small attacker, so something fits every wave) and random
/// parameters.
fn random_level() -> impl Strategy<Value = (AttackerPool, WaveParams, usize, u64)> {
    let attacker = (1.0..300.0f64, 0.3..4.0f64, 0.05..2.5f64, 0.0..3.0f64);
    let pool = prop::collection::vec(attacker, 0..10).prop_map(|types| {
        let mut attackers = vec![PoolAttacker {
            id: "test:small".into(),
            value: 1.0,
            speed: 1.0,
            min_spacing: 0.25,
            weight: 1.0,
        }];
        for (i, (value, speed, min_spacing, weight)) in types.into_iter().enumerate() {
            attackers.push(PoolAttacker {
                id: format!("test:t{i}"),
                value,
                speed,
                min_spacing,
                weight,
            });
        }
        AttackerPool::new(attackers).unwrap()
    });
    let params = (
        (20.0..200.0f64, 0.0..60.0f64, 1.0..1.1f64),
        (0.5..10.0f64, 0.0..3.0f64),
        (5.0..60.0f64, 10u32..120),
        (0.0..0.9f64, 0.0..0.9f64, 1u32..8),
        (0.0..=1.0f64, 0.0..1.0f64, 0.0..1.0f64, 0.0..0.6f64),
        (1u32..6, 0u32..40, 1u32..10, 0.5..1.0f64),
    )
        .prop_map(
            |(
                (c_first, c_per_wave, factor),
                (r_first, r_per_wave),
                (max_duration_s, max_attackers),
                (alpha, beta, ramp),
                (extra_path_chance, seq, par, global_fraction),
                (min_per_path, parallel_attempts, sequential_attempts, fill_target),
            )| {
                let d = WaveParams::default();
                WaveParams {
                    capacity: Growth {
                        first: c_first,
                        per_wave: c_per_wave,
                        factor,
                    },
                    rate: Growth {
                        first: r_first,
                        per_wave: r_per_wave,
                        factor,
                    },
                    max_duration_s,
                    max_attackers,
                    alpha: rampart_core::waves::Ramp {
                        start: 0.0,
                        end: alpha,
                        waves: ramp,
                    },
                    beta: rampart_core::waves::Ramp {
                        start: beta / 2.0,
                        end: beta,
                        waves: ramp,
                    },
                    extra_path_chance,
                    kinds: rampart_core::waves::KindWeights {
                        sequential: seq,
                        parallel: par + 0.01,
                    },
                    global_fraction,
                    parallel_min_per_path: min_per_path,
                    parallel_attempts,
                    sequential_attempts,
                    fill_target,
                    ..d
                }
            },
        );
    (pool, params, 1usize..6, any::<u64>())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_levels_keep_every_limit((pool, params, paths, seed) in random_level()) {
        let lw = level_waves(seed, 1, paths, &params, &pool, 12).unwrap();
        if let Err(e) = check_level(&lw.waves, &params, &pool, paths) {
            return Err(TestCaseError::fail(e));
        }
    }
}

#[test]
fn same_seed_same_waves_other_seed_other_waves() {
    let pool = core_pool();
    let params = WaveParams::default();
    let a = level_waves(9, 2, 3, &params, &pool, 15).unwrap();
    let b = level_waves(9, 2, 3, &params, &pool, 15).unwrap();
    assert_eq!(a, b);
    assert_ne!(
        a.waves,
        level_waves(10, 2, 3, &params, &pool, 15).unwrap().waves
    );
    assert_ne!(
        a.waves,
        level_waves(9, 3, 3, &params, &pool, 15).unwrap().waves
    );
    // The iterator and repeated next_wave calls agree, and prefixes are stable.
    let seed = rampart_core::waves::waves_seed(Seed(9), 2);
    let mut generator = WaveGenerator::new(params.clone(), pool.clone(), 3, seed).unwrap();
    let first: Vec<_> = (0..5).map(|_| generator.next_wave()).collect();
    assert_eq!(first, a.waves[..5]);
}

#[test]
fn leftover_capacity_goes_to_the_next_wave() {
    let pool = core_pool();
    let params = WaveParams::default();
    let seed = rampart_core::waves::waves_seed(Seed(4), 1);
    let mut generator = WaveGenerator::new(params.clone(), pool, 2, seed).unwrap();
    for number in 1..=10 {
        let before = generator.leftover();
        let w = generator.next_wave();
        let share = params.capacity.at(number) * params.global_fraction;
        assert!((w.global_capacity - (share + before)).abs() < 1e-9);
        assert!((generator.leftover() - (w.capacity - w.value)).abs() < 1e-9);
    }
}

#[test]
fn waves_follow_the_json_contract() {
    let lw = level_waves(5, 1, 2, &WaveParams::default(), &core_pool(), 6).unwrap();
    let json: serde_json::Value = serde_json::to_value(&lw).unwrap();
    assert_eq!(json["seed"], 5);
    assert_eq!(json["level"], 1);
    assert_eq!(json["paths"], 2);
    assert_eq!(json["limits"]["max_attackers"], 60);
    assert!(json["limits"]["max_duration_s"].is_f64());
    for w in json["waves"].as_array().unwrap() {
        assert!(w["number"].is_u64() && w["attacker_count"].is_u64());
        assert!(["sequential", "parallel"].contains(&w["kind"].as_str().unwrap()));
        assert!(w["capacity"].as_f64().unwrap() >= w["value"].as_f64().unwrap());
        assert!(w["duration_s"].is_f64());
        for b in w["batches"].as_array().unwrap() {
            assert!(b["spacing_s"].is_f64() && b["count"].is_u64());
            for p in b["per_path"].as_array().unwrap() {
                assert!(p["path"].is_u64());
                assert!(p["attacker"].as_str().unwrap().starts_with("core:"));
            }
        }
    }
    // Floats are written in their shortest exact form, so any exact parser reads them back.
    let text = serde_json::to_string(&lw).unwrap();
    for w in &lw.waves {
        for x in [w.capacity, w.value, w.duration_s] {
            assert!(
                text.contains(&format!("{x:?}")),
                "{x:?} not written exactly"
            );
        }
    }
}

#[test]
fn bad_input_is_an_error() {
    let pool = core_pool();
    let params = WaveParams::default();
    assert_eq!(
        WaveGenerator::new(params.clone(), pool.clone(), 0, Seed(1)).unwrap_err(),
        WaveError::NoPaths
    );
    let mut bad = params.clone();
    bad.beta.end = 1.5;
    assert!(matches!(
        WaveGenerator::new(bad, pool, 2, Seed(1)),
        Err(WaveError::InvalidParam { .. })
    ));
    assert_eq!(AttackerPool::new(vec![]).unwrap_err(), WaveError::EmptyPool);
    let broken = PoolAttacker {
        id: "test:x".into(),
        value: 0.0,
        speed: 1.0,
        min_spacing: 0.5,
        weight: 1.0,
    };
    assert!(AttackerPool::new(vec![broken]).is_err());
}

#[test]
fn an_unaffordable_pool_gives_empty_waves_not_overshooting_ones() {
    let giant = PoolAttacker {
        id: "test:giant".into(),
        value: 1e6,
        speed: 1.0,
        min_spacing: 0.5,
        weight: 1.0,
    };
    let pool = AttackerPool::new(vec![giant]).unwrap();
    let lw = level_waves(1, 1, 2, &WaveParams::default(), &pool, 3).unwrap();
    for w in &lw.waves {
        assert!(w.batches.is_empty() && w.value == 0.0 && w.attacker_count == 0);
    }
    // All capacity is left over, so the global capacity grows wave by wave.
    assert!(lw.waves[2].global_capacity > lw.waves[1].global_capacity);
}

#[test]
fn a_falling_difficulty_curve_never_goes_negative() {
    let mut params = WaveParams::default();
    params.capacity.per_wave = -30.0;
    params.rate.per_wave = -3.0;
    let pool = core_pool();
    let lw = level_waves(3, 1, 2, &params, &pool, 8).unwrap();
    for w in &lw.waves {
        assert!(w.capacity >= 0.0 && w.global_capacity >= 0.0 && w.value <= w.capacity);
        assert!(w.loads.iter().all(|l| l.rate >= 0.0 && l.capacity >= 0.0));
    }
}
