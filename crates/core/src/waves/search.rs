//! Binary searches over attacker counts.
//!
//! The predicates they search (a count fits the capacity, a count reaches a value) are monotone
//! in exact arithmetic but may wobble by a rounding error in floating point. The searches answer
//! with a count at which the predicate was evaluated true, unless the assumed end of the range
//! is false after all; callers that need the guarantee check the answer.

/// The largest `n` in `lo..=hi` with `ok(n)`, assuming `ok(lo)` holds and `ok` is true up to
/// some count and false after it.
pub(crate) fn last_ok(lo: u32, hi: u32, mut ok: impl FnMut(u32) -> bool) -> u32 {
    if hi <= lo || ok(hi) {
        return hi.max(lo);
    }
    let (mut good, mut bad) = (lo, hi);
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if ok(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    good
}

/// The smallest `n` in `lo..=hi` with `ok(n)`, assuming `ok(hi)` holds and `ok` is false up to
/// some count and true after it: one past the last count where it is false.
pub(crate) fn first_ok(lo: u32, hi: u32, mut ok: impl FnMut(u32) -> bool) -> u32 {
    if lo >= hi || ok(lo) {
        return lo.min(hi);
    }
    (last_ok(lo, hi, |n| !ok(n)) + 1).min(hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_find_the_boundary() {
        for boundary in 1..=20u32 {
            assert_eq!(last_ok(1, 20, |n| n <= boundary), boundary);
            assert_eq!(first_ok(1, 20, |n| n >= boundary), boundary);
        }
        assert_eq!(last_ok(3, 3, |_| true), 3);
        assert_eq!(first_ok(4, 4, |_| true), 4);
    }
}
