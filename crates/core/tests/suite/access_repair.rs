//! The corrective repair on the square topology (four neighbours), as other generators will use
//! it: random grids of land, walls and water, repaired, then checked by a search of this file's
//! own — every land tile reached on foot or over a bridge crossed straight, every impassable tile
//! touching a reached one, only impassable tiles turned into land and water into bridges, and no
//! bridge that leads only to the border.

use std::collections::VecDeque;

use proptest::prelude::*;
use rampart_core::access::Ground;
use rampart_core::access::corrective::repair;
use rampart_core::topology::{Size, Square};

/// Four neighbours of `(x, y)` inside `w × h`.
fn around(w: i64, h: i64, x: i64, y: i64) -> impl Iterator<Item = (i64, i64)> {
    [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
        .into_iter()
        .filter(move |&(a, b)| (0..w).contains(&a) && (0..h).contains(&b))
}

fn check(w: i64, h: i64, before: &[Ground], after: &[Ground], start: usize) -> Result<(), String> {
    let at = |x: i64, y: i64| (y * w + x) as usize;
    for (i, (&b, &a)) in before.iter().zip(after).enumerate() {
        let allowed = b == a
            || (b != Ground::Land && a == Ground::Land)
            || (b == Ground::Water && a == Ground::Bridge);
        if !allowed {
            return Err(format!("tile {i}: {b:?} became {a:?}"));
        }
    }
    let mut seen = vec![false; after.len()];
    seen[start] = true;
    let mut queue = VecDeque::from([start]);
    while let Some(c) = queue.pop_front() {
        let (x, y) = (c as i64 % w, c as i64 / w);
        for (nx, ny) in around(w, h, x, y) {
            let next = match after[at(nx, ny)] {
                Ground::Land => Some((nx, ny)),
                Ground::Bridge => {
                    let (fx, fy) = (2 * nx - x, 2 * ny - y);
                    let inside = (0..w).contains(&fx) && (0..h).contains(&fy);
                    (inside && after[at(fx, fy)] == Ground::Land).then_some((fx, fy))
                }
                _ => None,
            };
            if let Some((fx, fy)) = next
                && !seen[at(fx, fy)]
            {
                seen[at(fx, fy)] = true;
                queue.push_back(at(fx, fy));
            }
        }
    }
    for y in 0..h {
        for x in 0..w {
            let here = at(x, y);
            let touched = around(w, h, x, y).any(|(a, b)| seen[at(a, b)]);
            if after[here] == Ground::Land && !seen[here] {
                return Err(format!("{x}:{y} cannot be reached"));
            }
            if after[here] != Ground::Land && !touched {
                return Err(format!("{x}:{y} touches nothing reached"));
            }
            let border = |a: i64, b: i64| a == 0 || b == 0 || a == w - 1 || b == h - 1;
            if after[here] == Ground::Bridge
                && !around(w, h, x, y).any(|(a, b)| {
                    let (fx, fy) = (2 * x - a, 2 * y - b);
                    !border(a, b)
                        && after[at(a, b)] == Ground::Land
                        && (0..w).contains(&fx)
                        && (0..h).contains(&fy)
                        && after[at(fx, fy)] == Ground::Land
                })
            {
                return Err(format!("bridge {x}:{y} leads only to the border"));
            }
        }
    }
    Ok(())
}

proptest! {
    // A failure shrinks for a bounded time: a grid has hundreds of cells to shrink.
    #![proptest_config(ProptestConfig {
        cases: 2000,
        max_shrink_iters: 2000,
        ..ProptestConfig::default()
    })]

    #[test]
    fn repaired_square_grids_are_accessible(
        w in 1u32..=24, h in 1u32..=16, walls in 0u8..6, water in 0u8..4,
        cells in proptest::collection::vec(0u8..10, 24 * 16),
        start in any::<prop::sample::Index>(),
    ) {
        let size = Size { width: w, height: h };
        let start = start.index(size.cells());
        let mut ground: Vec<Ground> = cells[..size.cells()]
            .iter()
            .map(|&r| if r < walls { Ground::Wall } else if r < walls + water { Ground::Water } else { Ground::Land })
            .collect();
        ground[start] = Ground::Land;
        let before = ground.clone();
        let result = repair(&Square(size), &mut ground, start as u32);
        let broken = before.iter().zip(&ground).filter(|(b, a)| **b != Ground::Land && **a == Ground::Land).count();
        prop_assert_eq!(broken, result.broken.len());
        check(i64::from(w), i64::from(h), &before, &ground, start).map_err(TestCaseError::fail)?;
    }
}
