//! The difficulty model's closed forms against direct evaluation of their definitions.

use proptest::prelude::*;
use rampart_core::waves::model::{
    self, BatchShape, Collateral, Tower, balanced_kill_times, batch_value, batch_value_direct,
    crossing_index, damage_capacity, damage_rate, kill_time, kill_times_recurrence, n_star,
    remaining_share,
};

/// Relative closeness, with an absolute floor for values near zero.
fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-9 * scale.max(1.0)
}

fn collateral() -> impl Strategy<Value = Collateral> {
    (0.0..0.95f64, 0.0..0.99f64).prop_map(|(alpha, beta)| Collateral { alpha, beta })
}

fn batch(max_count: u32) -> impl Strategy<Value = BatchShape> {
    (1.0..500.0f64, 0.2..4.0f64, 0.1..2.0f64, 1..=max_count).prop_map(
        |(value, speed, spacing, count)| BatchShape {
            value,
            speed,
            spacing,
            count,
        },
    )
}

/// The smallest value rate at which the `k`-th attacker (k ≥ 2) of `b` adds nothing, so rates
/// around it put n* in the middle of the batch.
fn rate_where_term_vanishes(b: BatchShape, c: Collateral, k: u32) -> f64 {
    remaining_share(c, b.speed, b.spacing, k) * b.value / b.spacing
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Closed form 3.11 equals recurrence 3.10 term by term.
    #[test]
    fn kill_time_closed_form_matches_recurrence(
        b in batch(60), c in collateral(), rate in 0.1..200.0f64,
    ) {
        let times = balanced_kill_times(b, rate, c);
        for (i, t) in times.iter().enumerate() {
            let closed = kill_time(b, rate, c, i as u32 + 1);
            prop_assert!(close(closed, *t, b.value / rate), "k = {}: {closed} vs {t}", i + 1);
        }
    }

    /// Closed form 3.17 with n* equals the value 3.14 summed from the recurrence, at rates from
    /// "every attacker adds value" to "only the first does".
    #[test]
    fn batch_value_closed_form_matches_direct_sum(
        b in batch(60), c in collateral(), pick in 2..=60u32, scale in 0.5..1.5f64,
    ) {
        let k = pick.min(b.count.max(2));
        let rate = rate_where_term_vanishes(b, c, k) * scale;
        let closed = batch_value(b, rate, c);
        let direct = batch_value_direct(b, rate, c);
        prop_assert!(
            close(closed, direct, b.value * b.speed * f64::from(b.count)),
            "{closed} vs {direct} (n* = {})", n_star(b, rate, c)
        );
    }

    /// n* is the number of leading attackers that add value; 3.18 as printed is the first that
    /// does not (or n).
    #[test]
    fn n_star_and_crossing_index_follow_their_definitions(
        b in batch(80), c in collateral(), pick in 2..=80u32, scale in 0.5..1.5f64,
    ) {
        let rate = rate_where_term_vanishes(b, c, pick) * scale;
        let x = rate * b.spacing / b.value;
        let times = balanced_kill_times(b, rate, c);
        let adds: Vec<bool> = times.iter().map(|t| rate * t / b.value > x).collect();
        let expected = 1 + adds.iter().skip(1).take_while(|a| **a).count() as u32;
        prop_assert_eq!(n_star(b, rate, c), expected);
        let literal = (1..=b.count)
            .find(|&k| rate * times[k as usize - 1] / b.value <= x)
            .unwrap_or(b.count);
        prop_assert_eq!(crossing_index(b, rate, c), literal);
    }

    /// More attackers never make a batch easier.
    #[test]
    fn batch_value_never_decreases_with_count(
        b in batch(100), c in collateral(), rate in 0.0..300.0f64,
    ) {
        let more = BatchShape { count: b.count + 1, ..b };
        let (v, w) = (batch_value(b, rate, c), batch_value(more, rate, c));
        prop_assert!(w >= v - 1e-9 * v.abs().max(1.0), "{v} then {w}");
    }

    /// Collateral damage only makes waves easier: value falls as α grows.
    #[test]
    fn collateral_lowers_value(b in batch(40), beta in 0.05..0.95f64, rate in 0.0..50.0f64) {
        let low = batch_value(b, rate, Collateral { alpha: 0.1, beta });
        let high = batch_value(b, rate, Collateral { alpha: 0.6, beta });
        prop_assert!(high <= low + 1e-9 * low);
    }

    /// Inequality 3.6: R ≤ C / (s g), for any defence.
    #[test]
    fn rate_is_bounded_by_capacity(
        towers in prop::collection::vec((0.1..50.0f64, 0.1..20.0f64), 1..8),
        speed in 0.2..4.0f64, spacing in 0.1..2.0f64,
    ) {
        let towers: Vec<Tower> = towers
            .into_iter()
            .map(|(damage, coverage)| Tower { damage, coverage })
            .collect();
        let r = damage_rate(&towers, speed, spacing);
        prop_assert!(r <= damage_capacity(&towers) / (speed * spacing) * (1.0 + 1e-12));
        prop_assert!(r <= towers.iter().map(|t| t.damage).sum::<f64>() * (1.0 + 1e-12));
    }
}

#[test]
fn general_recurrence_by_hand() {
    // h = 10, R = 2, R_1 = 1, R_2 = 0.5: t1 = 5, t2 = (10 − 5·1)/2 = 2.5,
    // t3 = (10 − 5·0.5 − 2.5·1)/2 = 2.5.
    let rates = [1.0, 0.5];
    let t = kill_times_recurrence(10.0, 2.0, 3, |j| rates[j as usize - 1]);
    assert_eq!(t, vec![5.0, 2.5, 2.5]);
}

#[test]
fn the_printed_sum_in_3_17_is_negative_ours_is_not() {
    // The thesis's printed closed form of Σ τ_k, for comparison with the one we derived.
    let (a, q) = (0.3f64, 0.5f64);
    let printed = |m: f64| {
        let d = 1.0 + (a - 1.0) * q;
        (m * (q - 1.0) - a * q * (libm::pow(1.0 - a, m) * libm::pow(q, m) + m * (q - 1.0) - 1.0))
            / (d * d)
    };
    assert!(printed(1.0) < 0.0);
    // β = 0.5 with s g = 1 gives q = 0.5; one attacker is worth exactly h s.
    let b = BatchShape {
        value: 10.0,
        speed: 1.0,
        spacing: 1.0,
        count: 1,
    };
    let c = Collateral { alpha: a, beta: q };
    assert!((batch_value(b, 1.0, c) - 10.0).abs() < 1e-12);
}

#[test]
fn later_batches_get_one_second_of_fire_for_free() {
    // Eq. 3.20 with R = 4: the second batch (value 30, speed 2) loses 2·4·1 = 8, the third
    // (value 3, speed 1) would go negative and adds nothing.
    let v = model::wave_value([(20.0, 1.0), (30.0, 2.0), (3.0, 1.0)], 4.0);
    assert_eq!(v, 20.0 + 22.0);
}
