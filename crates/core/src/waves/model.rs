//! The wave-difficulty model of thesis §3.6.1–3.6.7, as plain functions.
//!
//! A defence is described by two numbers: its *capacity* `C` (the damage it would deal to one
//! attacker of speed 1 walking the whole path, eq. 3.2) and its *rate* `R` (the damage it deals per
//! second while attackers keep coming, eq. 3.4). An attacker is described by its speed `s` and its
//! *value* `h`, which stands in for its hit points (model 7: abilities raise or lower the value).
//! A batch of `n` such attackers spawned `g` seconds apart has a *value* `V` (eq. 3.17); a defence
//! beats the batch when `C ≥ V`. Batches add up to a wave's value (eq. 3.20), and with several
//! paths every path is judged on its own (model 6, applied in [`super::budget`]).
//!
//! Collateral damage (model 4) enters through an [`Collateral`] pair `(α, β)`: the damage rate of
//! the towers that also hit attackers `x` tiles behind their target is `α β^x R`. Under that
//! assumption the kill times follow the recurrence 3.10 ([`balanced_kill_times`]), whose closed
//! form 3.11 is [`kill_time`] and whose summed value 3.17 is [`batch_value`].
//!
//! Two places differ from the printed thesis, both explained in `docs/waves.md`: the closed form
//! of the sum in 3.17 is re-derived (the printed one is negative for every `n`), and [`n_star`]
//! counts only the attackers that still add value, so that 3.17 equals 3.14 exactly.

use serde::{Deserialize, Serialize};

use crate::content::WaveParams;

/// Seconds between the last attacker of a batch and the first of the next (thesis §2.3.1).
pub const BATCH_GAP_S: f64 = 1.0;

/// A tower as models 1–3 see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tower {
    /// Damage per second dealt to the first attacker in range, `d_t`.
    pub damage: f64,
    /// Length of path it covers, in tiles, `l_t`.
    pub coverage: f64,
}

/// Damage capacity of a defence, `C = Σ d_t l_t` (eq. 3.2).
pub fn damage_capacity(towers: &[Tower]) -> f64 {
    towers.iter().map(|t| t.damage * t.coverage).sum()
}

/// Damage rate of a defence against attackers of speed `speed` coming every `spacing` seconds,
/// `R = Σ d_t min(l_t / (s g), 1)` (eq. 3.4).
pub fn damage_rate(towers: &[Tower], speed: f64, spacing: f64) -> f64 {
    towers
        .iter()
        .map(|t| t.damage * (t.coverage / (speed * spacing)).min(1.0))
        .sum()
}

/// Value of one attacker, `h s` (model 1: a defence beats it iff `C ≥ h s`, eq. 3.1).
pub fn single_value(value: f64, speed: f64) -> f64 {
    value * speed
}

/// A batch: `count` attackers of one type, `spacing` seconds apart.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BatchShape {
    /// The attacker's value `h` (its HP for attackers without abilities).
    pub value: f64,
    /// The attacker's speed `s`, tiles per second.
    pub speed: f64,
    /// Seconds between two spawns, `g`.
    pub spacing: f64,
    /// Number of attackers `n` (per path).
    pub count: u32,
}

/// Value of a batch without collateral damage, `s (n h − (n − 1) R g)` (model 3, eq. 3.8).
///
/// Unlike [`batch_value`] it does not stop at zero per attacker, so it goes wrong (even negative)
/// once `R g > h`; model 4 with `α = 0` is the corrected form.
pub fn finite_wave_value(batch: BatchShape, rate: f64) -> f64 {
    let n = f64::from(batch.count);
    batch.speed * (n * batch.value - (n - 1.0) * rate * batch.spacing)
}

/// How much collateral damage a defence deals, as in the thesis's (α, β)-balanced defence: the
/// towers that hit attackers at least `x` tiles behind their target deal `α β^x R` damage per
/// second. Both lie in `[0, 1)`; `α = 0` or `β = 0` means no collateral damage.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Collateral {
    /// Share of the damage rate that reaches beyond the target at all, `α`.
    pub alpha: f64,
    /// How fast that share falls off per tile behind the target, `β`.
    pub beta: f64,
}

impl Collateral {
    /// No collateral damage (models 1–3).
    pub const NONE: Collateral = Collateral {
        alpha: 0.0,
        beta: 0.0,
    };

    /// The collateral assumed of the defence at wave `number` (1-based): `alpha` and `beta`
    /// ramped as the level's parameters say.
    pub fn at_wave(params: &WaveParams, number: u32) -> Collateral {
        Collateral {
            alpha: params.alpha.at(number),
            beta: params.beta.at(number),
        }
    }

    /// `q = β^{s g}`: how much of the collateral rate reaches the next attacker, `s g` tiles back.
    pub fn decay(self, speed: f64, spacing: f64) -> f64 {
        libm::pow(self.beta, speed * spacing)
    }
}

/// The general kill-time recurrence 3.9: `t_k = (h − Σ_{i<k} t_i R_{k−i}) / R`, where
/// `collateral_rate(j)` is `R_j`, the damage rate of the towers that reach `j` attackers back.
///
/// `t_k` is how long the defence shoots at the `k`-th attacker after the ones before it died.
/// Needs `rate > 0`. Quadratic in `count`; the closed form is [`kill_time`].
pub fn kill_times_recurrence(
    value: f64,
    rate: f64,
    count: u32,
    collateral_rate: impl Fn(u32) -> f64,
) -> Vec<f64> {
    let mut times: Vec<f64> = Vec::with_capacity(count as usize);
    for k in 1..=count {
        let taken: f64 = (1..k)
            .map(|i| times[i as usize - 1] * collateral_rate(k - i))
            .sum();
        times.push((value - taken) / rate);
    }
    times
}

/// Recurrence 3.10: recurrence 3.9 for an (α, β)-balanced defence, `R_j = α β^{j s g} R`.
pub fn balanced_kill_times(batch: BatchShape, rate: f64, collateral: Collateral) -> Vec<f64> {
    let reach = batch.speed * batch.spacing;
    kill_times_recurrence(batch.value, rate, batch.count, |j| {
        collateral.alpha * libm::pow(collateral.beta, f64::from(j) * reach) * rate
    })
}

/// `τ_k = R t_k / h`: the share of its value the `k`-th attacker (k ≥ 1) still has when the
/// attackers before it have died. This is closed form 3.11 without the factor `h / R`, written as
/// `((1 − q) + α q r^{k−1}) / (1 − r)` with `q = β^{s g}`, `r = (1 − α) q` (the same expression,
/// divided through by `1 − α`). It falls from 1 towards `(1 − q) / (1 − r)`.
pub fn remaining_share(collateral: Collateral, speed: f64, spacing: f64, k: u32) -> f64 {
    let q = collateral.decay(speed, spacing);
    let r = (1.0 - collateral.alpha) * q;
    ((1.0 - q) + collateral.alpha * q * libm::pow(r, f64::from(k) - 1.0)) / (1.0 - r)
}

/// Closed form 3.11 of recurrence 3.10: the kill time `t_k` of the `k`-th attacker (k ≥ 1).
pub fn kill_time(batch: BatchShape, rate: f64, collateral: Collateral, k: u32) -> f64 {
    batch.value / rate * remaining_share(collateral, batch.speed, batch.spacing, k)
}

/// `n*`: how many attackers of the batch add value — the first one, plus every later one that
/// arrives with more than `R g` of its value left (`τ_k > R g / h`). Because `τ_k` never grows
/// with `k`, these are the first `n*` attackers; the rest die within the `g` seconds the
/// defence gains per attacker and add nothing.
///
/// Rule 3.18 as printed takes the first `k` with `τ_k ≤ R g / h` instead, which also counts that
/// first attacker adding nothing and makes 3.17 smaller than 3.14 by `s (R g − h τ_k)`;
/// [`crossing_index`] is that literal rule. Computed in constant time from the closed form
/// (a logarithm), checked against the neighbouring terms.
pub fn n_star(batch: BatchShape, rate: f64, collateral: Collateral) -> u32 {
    let n = batch.count;
    if n <= 1 {
        return n;
    }
    let threshold = rate * batch.spacing / batch.value;
    let adds_value =
        |k: u32| remaining_share(collateral, batch.speed, batch.spacing, k) > threshold;
    let q = collateral.decay(batch.speed, batch.spacing);
    let r = (1.0 - collateral.alpha) * q;
    let aq = collateral.alpha * q;
    // τ_k > x  ⟺  α q r^{k−1} > x (1 − r) − (1 − q) =: d.
    let d = threshold * (1.0 - r) - (1.0 - q);
    let guess = if aq <= 0.0 {
        // No collateral damage: every τ_k is 1.
        if 1.0 > threshold { n } else { 1 }
    } else if d < 0.0 {
        n
    } else if d >= aq {
        1
    } else {
        // k − 1 < ln(d / αq) / ln r; the last such k is the ceiling (saturating casts).
        let bound = (libm::log(d / aq) / libm::log(r)).ceil();
        (bound as u32).clamp(1, n)
    };
    // Rounding in the logarithm can be one off either way.
    let mut k = guess;
    while k < n && adds_value(k + 1) {
        k += 1;
    }
    while k > 1 && !adds_value(k) {
        k -= 1;
    }
    k
}

/// Rule 3.18 as the thesis prints it: the smallest `k` in `1..=n` with `τ_k ≤ R g / h`, or `n`
/// when there is none. Kept for comparison; [`n_star`] is what the values use.
pub fn crossing_index(batch: BatchShape, rate: f64, collateral: Collateral) -> u32 {
    let n = batch.count;
    let adding = n_star(batch, rate, collateral);
    if n == 0 || 1.0 <= rate * batch.spacing / batch.value {
        n.min(1)
    } else if adding < n {
        adding + 1
    } else {
        n
    }
}

/// `Σ_{k=1}^{m} τ_k` in closed form: `(m (1 − q)(1 − r) + α q (1 − r^m)) / (1 − r)²`.
fn remaining_share_sum(collateral: Collateral, speed: f64, spacing: f64, m: u32) -> f64 {
    let q = collateral.decay(speed, spacing);
    let r = (1.0 - collateral.alpha) * q;
    let m_f = f64::from(m);
    (m_f * (1.0 - q) * (1.0 - r) + collateral.alpha * q * (1.0 - libm::pow(r, m_f)))
        / ((1.0 - r) * (1.0 - r))
}

/// The value of a batch on a path with value rate `rate` (eq. 3.17 with [`n_star`]):
/// `s (h Σ_{k≤n*} τ_k − (n* − 1) R g)`. A defence with capacity `C` beats the batch iff
/// `C ≥` this value. Never decreases as `count` grows; zero for an empty batch.
pub fn batch_value(batch: BatchShape, rate: f64, collateral: Collateral) -> f64 {
    let m = n_star(batch, rate, collateral);
    if m == 0 {
        return 0.0;
    }
    let shares = remaining_share_sum(collateral, batch.speed, batch.spacing, m);
    batch.speed * (batch.value * shares - f64::from(m - 1) * rate * batch.spacing)
}

/// The value of a batch evaluated directly from its definition (eq. 3.14):
/// `s (R t_1 + Σ_{k≥2} max(R t_k − R g, 0))` with `t_k` from recurrence 3.10. Quadratic in the
/// count and needs `rate > 0`; the reference [`batch_value`] is tested against.
pub fn batch_value_direct(batch: BatchShape, rate: f64, collateral: Collateral) -> f64 {
    let times = balanced_kill_times(batch, rate, collateral);
    let mut total = 0.0;
    for (i, t) in times.iter().enumerate() {
        let left = rate * t;
        total += if i == 0 {
            left
        } else {
            (left - rate * batch.spacing).max(0.0)
        };
    }
    batch.speed * total
}

/// What a batch adds to its wave (eq. 3.20): the first batch its whole value; a later one its
/// value less the [`BATCH_GAP_S`] of firing the defence gains before it arrives, `s_k R`, never
/// below zero (towers cannot bank damage on dead attackers).
pub fn batch_term(index: usize, batch_value: f64, speed: f64, rate: f64) -> f64 {
    if index == 0 {
        batch_value
    } else {
        (batch_value - speed * rate * BATCH_GAP_S).max(0.0)
    }
}

/// The value of a wave on one path (eq. 3.20) from its batches' `(value, speed)` in order.
/// Summed left to right, so a running total built with [`batch_term`] gives the same number.
pub fn wave_value(batches: impl IntoIterator<Item = (f64, f64)>, rate: f64) -> f64 {
    batches
        .into_iter()
        .enumerate()
        .fold(0.0, |total, (i, (value, speed))| {
            total + batch_term(i, value, speed, rate)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(value: f64, speed: f64, spacing: f64, count: u32) -> BatchShape {
        BatchShape {
            value,
            speed,
            spacing,
            count,
        }
    }

    #[test]
    fn rate_and_capacity_follow_their_definitions() {
        let towers = [
            Tower {
                damage: 5.0,
                coverage: 12.0,
            },
            Tower {
                damage: 10.0,
                coverage: 1.5,
            },
        ];
        assert_eq!(damage_capacity(&towers), 75.0);
        // s g = 2: the second tower covers less than one gap and is scaled by 1.5 / 2.
        assert_eq!(damage_rate(&towers, 2.0, 1.0), 5.0 + 7.5);
        // Inequality 3.6: R ≤ C / (s g).
        assert!(damage_rate(&towers, 2.0, 1.0) <= damage_capacity(&towers) / 2.0);
    }

    #[test]
    fn one_attacker_is_worth_its_value_times_speed() {
        // Model 1: 10 HP at speed 1 is as hard as 5 HP at speed 2.
        assert_eq!(single_value(10.0, 1.0), single_value(5.0, 2.0));
        let b = shape(10.0, 2.0, 0.5, 1);
        assert_eq!(batch_value(b, 4.0, Collateral::NONE), 20.0);
    }

    #[test]
    fn without_collateral_model_4_is_model_3_while_attackers_outlast_a_gap() {
        let b = shape(10.0, 1.5, 0.5, 7);
        let value = batch_value(b, 4.0, Collateral::NONE);
        assert!((value - finite_wave_value(b, 4.0)).abs() < 1e-9);
        // Once R g ≥ h, extra attackers add nothing instead of subtracting.
        let weak = shape(1.0, 1.0, 0.5, 7);
        assert_eq!(batch_value(weak, 4.0, Collateral::NONE), 1.0);
        assert!(finite_wave_value(weak, 4.0) < 0.0);
    }

    #[test]
    fn n_star_counts_attackers_that_add_value() {
        let c = Collateral {
            alpha: 0.3,
            beta: 0.6,
        };
        let b = shape(10.0, 1.2, 0.5, 30);
        let rate = 12.0;
        let x = rate * b.spacing / b.value;
        let m = n_star(b, rate, c);
        assert!(m > 1 && m < 30, "n* = {m}");
        assert!(remaining_share(c, b.speed, b.spacing, m) > x);
        assert!(remaining_share(c, b.speed, b.spacing, m + 1) <= x);
        assert_eq!(crossing_index(b, rate, c), m + 1);
    }
}
