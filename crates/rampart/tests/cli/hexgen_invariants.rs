//! The hex accessibility generator held to the development log's rules by a checker of its own:
//! its own odd-r neighbours and bridge geometry, its own searches, reading only the level's JSON
//! (and, for the order and the repair, the list of placements).
//!
//! Invariants (numbered as in `docs/worldgen.md`, *Hex levels*): 1 every walkable tile is
//! reached from the start on foot and over single listed bridges, every impassable tile touches
//! a reached one; 2 bridges do not chain; 3 the protected start area has its size, is walkable
//! and reached on foot; 4 critical tiles are never impassable; 5 counts stay within their targets
//! and fall short only when no tile was left; 6 the repair only turns impassable tiles into
//! Grass; 7 no bridge leads only to the border; 8 the types are spawned one after the other in
//! order; 9 both checks give levels alike in their counts.

use std::collections::{BTreeSet, VecDeque};

use proptest::prelude::*;
use rampart_core::hexgen::{
    Check, HexJson, HexParams, Impassable, Method, PRESETS, Tile, generate,
};
use rampart_core::rng::Seed;

type Pos = (i64, i64);

/// A level as read from its JSON.
pub struct Level {
    w: i64,
    h: i64,
    rows: Vec<Vec<char>>,
    start: Pos,
    bridges: BTreeSet<Pos>,
}

impl Level {
    pub fn new(json: &HexJson) -> Level {
        Level {
            w: i64::from(json.width),
            h: i64::from(json.height),
            rows: json.rows.iter().map(|r| r.chars().collect()).collect(),
            start: pos(json.start),
            bridges: json.bridges.iter().map(|&p| pos(p)).collect(),
        }
    }

    fn inside(&self, (x, y): Pos) -> bool {
        (0..self.w).contains(&x) && (0..self.h).contains(&y)
    }

    fn at(&self, (x, y): Pos) -> char {
        self.rows[y as usize][x as usize]
    }

    fn walkable(&self, p: Pos) -> bool {
        matches!(self.at(p), 'G' | 'F' | 'B' | 'S')
    }

    fn on_border(&self, (x, y): Pos) -> bool {
        x == 0 || y == 0 || x == self.w - 1 || y == self.h - 1
    }

    /// The odd-r rule: odd rows touch `x` and `x + 1` above and below, even rows `x − 1`
    /// and `x`.
    fn neighbours(&self, (x, y): Pos) -> Vec<Pos> {
        let lean = if y % 2 == 1 { 0 } else { -1 };
        [
            (x - 1, y),
            (x + 1, y),
            (x + lean, y - 1),
            (x + lean + 1, y - 1),
            (x + lean, y + 1),
            (x + lean + 1, y + 1),
        ]
        .into_iter()
        .filter(|&p| self.inside(p))
        .collect()
    }

    /// The tile across `middle` from `from`: `2·middle − from` in axial coordinates
    /// (`q = x − ⌊y/2⌋`).
    fn across(&self, middle: Pos, from: Pos) -> Option<Pos> {
        let axial = |(x, y): Pos| (x - y.div_euclid(2), y);
        let ((mq, mr), (fq, fr)) = (axial(middle), axial(from));
        let (q, r) = (2 * mq - fq, 2 * mr - fr);
        let p = (q + r.div_euclid(2), r);
        self.inside(p).then_some(p)
    }

    /// Every tile reached from the start: on foot, and (with `bridges`) over a listed bridge in
    /// a straight line from walkable tile to walkable tile.
    fn reached(&self, bridges: bool) -> BTreeSet<Pos> {
        let mut seen = BTreeSet::from([self.start]);
        let mut queue = VecDeque::from([self.start]);
        while let Some(p) = queue.pop_front() {
            for n in self.neighbours(p) {
                let next = if self.walkable(n) {
                    Some(n)
                } else if bridges && self.bridges.contains(&n) {
                    self.across(n, p).filter(|&far| self.walkable(far))
                } else {
                    None
                };
                if let Some(next) = next
                    && seen.insert(next)
                {
                    queue.push_back(next);
                }
            }
        }
        seen
    }

    fn tiles(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.h).flat_map(move |y| (0..self.w).map(move |x| (x, y)))
    }
}

fn pos(p: [u32; 2]) -> Pos {
    (i64::from(p[0]), i64::from(p[1]))
}

/// `2 · ⌊log2(W·H − 15)⌋`, none below 17 tiles, at most all tiles but the start.
fn protected_size(w: i64, h: i64) -> usize {
    let area = w * h - 15;
    let n = if area < 1 {
        0
    } else {
        2 * (63 - area.leading_zeros() as i64)
    };
    n.min(w * h - 1) as usize
}

/// Invariants 1–5 and 7, from the JSON alone. Invariant 5's shortfall rule for impassable tiles
/// is checked here for the preemptive check, where the final level is the spawned one.
pub fn check_json(json: &HexJson) -> Result<(), String> {
    let level = Level::new(json);
    if level.rows.len() as i64 != level.h || level.rows.iter().any(|r| r.len() as i64 != level.w) {
        return Err("rows do not match width and height".into());
    }
    if let Some(bad) = level.tiles().find(|&p| !"GMWFBS".contains(level.at(p))) {
        return Err(format!("unknown letter at {bad:?}"));
    }
    if level.at(level.start) != 'G' {
        return Err("the start is not Grass".into());
    }
    // 1 and 2: reachable on foot and over single bridges, each bridge a water tile.
    if let Some(b) = level.bridges.iter().find(|&&b| level.at(b) != 'W') {
        return Err(format!("bridge {b:?} is not water"));
    }
    let reached = level.reached(true);
    for p in level.tiles() {
        if level.walkable(p) && !reached.contains(&p) {
            return Err(format!("{p:?} cannot be reached"));
        }
        if !level.walkable(p) && !level.neighbours(p).iter().any(|n| reached.contains(n)) {
            return Err(format!("impassable {p:?} touches nothing reached"));
        }
    }
    // 3: the protected area.
    let protected: Vec<Pos> = json.protected.iter().map(|&p| pos(p)).collect();
    let critical: BTreeSet<Pos> = json.critical.iter().map(|&p| pos(p)).collect();
    if protected.len() != protected_size(level.w, level.h) {
        return Err(format!("{} protected tiles", protected.len()));
    }
    let on_foot = level.reached(false);
    if on_foot.len() < protected.len() + 1 {
        return Err(format!("only {} tiles reached on foot", on_foot.len()));
    }
    if let Some(p) = protected
        .iter()
        .find(|p| !on_foot.contains(p) || !critical.contains(p))
    {
        return Err(format!(
            "protected {p:?} is not reached on foot or not critical"
        ));
    }
    // 4: critical tiles stay walkable.
    if let Some(p) = critical.iter().find(|&&p| !level.walkable(p)) {
        return Err(format!("critical {p:?} is impassable"));
    }
    // 5: counts within targets; for the preemptive check a short type means nothing was left.
    let count = |c: char| level.tiles().filter(|&p| level.at(p) == c).count() as u32;
    let tenth = json.width * json.height / 10;
    let double = if json.impassable == "2x" { 2 } else { 1 };
    for (letter, target) in [
        ('M', double * tenth),
        ('W', double * tenth),
        ('F', tenth),
        ('B', tenth),
        ('S', tenth),
    ] {
        if json.targets.get(&letter) != Some(&target) {
            return Err(format!("target of {letter} is not {target}"));
        }
        if count(letter) > target {
            return Err(format!(
                "{} {letter} over the target {target}",
                count(letter)
            ));
        }
    }
    if json.check == "preemptive" {
        let free = level
            .tiles()
            .any(|p| level.at(p) == 'G' && p != level.start && !critical.contains(&p));
        let short = count('M') < double * tenth || count('W') < double * tenth;
        if short && free {
            return Err("impassable tiles short while a free Grass tile is left".into());
        }
    }
    // 7: every bridge leads somewhere off the border.
    for &b in &level.bridges {
        let useful = level.neighbours(b).into_iter().any(|n| {
            !level.on_border(n)
                && level.walkable(n)
                && level.across(b, n).is_some_and(|far| level.walkable(far))
        });
        if !useful {
            return Err(format!("bridge {b:?} leads only to the border"));
        }
    }
    Ok(())
}

/// Invariants 5 (the spawned level), 6 and 8, from the placements.
fn check_placements(json: &HexJson, placements: &[(u32, Tile)]) -> Result<(), String> {
    let level = Level::new(json);
    let w = json.width;
    let at = |cell: u32| (i64::from(cell % w), i64::from(cell / w));
    // 8: types in the spawn order, each finished before the next.
    let rank = |t: Tile| Tile::SPAWN_ORDER.iter().position(|&s| s == t);
    let ranks: Vec<Option<usize>> = placements.iter().map(|&(_, t)| rank(t)).collect();
    if ranks.iter().any(Option::is_none) || ranks.windows(2).any(|r| r[0] > r[1]) {
        return Err("types not spawned in order".into());
    }
    // The spawned level: every placement on a distinct Grass tile other than the start.
    let mut spawned: Vec<Vec<char>> = vec![vec!['G'; w as usize]; json.height as usize];
    for &(cell, tile) in placements {
        let (x, y) = at(cell);
        let here = &mut spawned[y as usize][x as usize];
        if *here != 'G' || (x, y) == level.start {
            return Err(format!("placement on {x}:{y} is not on free Grass"));
        }
        *here = tile.letter();
    }
    // 5: a type short of its target only when no tile was left where it could go.
    let critical: BTreeSet<Pos> = json.critical.iter().map(|&p| pos(p)).collect();
    let free = |impassable: bool| {
        level.tiles().any(|p| {
            spawned[p.1 as usize][p.0 as usize] == 'G'
                && p != level.start
                && !(impassable && critical.contains(&p))
        })
    };
    for (letter, &target) in &json.targets {
        let placed = placements
            .iter()
            .filter(|(_, t)| t.letter() == *letter)
            .count() as u32;
        if placed > target || (placed < target && free(matches!(letter, 'M' | 'W'))) {
            return Err(format!(
                "{placed} {letter} spawned of {target} with room left"
            ));
        }
    }
    // 6 (and for the preemptive check: the level is the spawned one).
    for p in level.tiles() {
        let (before, after) = (spawned[p.1 as usize][p.0 as usize], level.at(p));
        let repaired = json.check == "corrective" && matches!(before, 'M' | 'W') && after == 'G';
        if before != after && !repaired {
            return Err(format!("{p:?} went from {before} to {after}"));
        }
    }
    Ok(())
}

fn params(w: u32, h: u32, natural: bool, corrective: bool, double: bool) -> HexParams {
    HexParams {
        width: w,
        height: h,
        method: if natural {
            Method::Natural
        } else {
            Method::Random
        },
        check: if corrective {
            Check::Corrective
        } else {
            Check::Preemptive
        },
        impassable: if double {
            Impassable::Double
        } else {
            Impassable::Normal
        },
    }
}

fn check_level(p: &HexParams, seed: u64) -> Result<(), String> {
    let map = generate(p, Seed(seed));
    let json = HexJson::new(&map);
    check_json(&json)
        .and_then(|()| check_placements(&json, &map.placements))
        .map_err(|e| format!("{p:?} seed {seed}: {e}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, max_shrink_iters: 500, ..ProptestConfig::default() })]

    /// Small levels of every shape, every configuration.
    #[test]
    fn small_levels_keep_the_invariants(
        w in 1u32..=16, h in 1u32..=10, seed in any::<u64>(),
        natural in any::<bool>(), corrective in any::<bool>(), double in any::<bool>(),
    ) {
        check_level(&params(w, h, natural, corrective, double), seed)
            .map_err(TestCaseError::fail)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, max_shrink_iters: 500, ..ProptestConfig::default() })]

    /// The preset sizes, every configuration.
    #[test]
    fn preset_levels_keep_the_invariants(
        preset in 0..PRESETS.len(), seed in any::<u64>(),
        natural in any::<bool>(), corrective in any::<bool>(), double in any::<bool>(),
    ) {
        let (w, h) = PRESETS[preset];
        check_level(&params(w, h, natural, corrective, double), seed)
            .map_err(TestCaseError::fail)?;
    }
}

#[test]
fn the_largest_level_keeps_the_invariants() {
    // Natural chains with the preemptive check take seconds here in a debug build: left out.
    for (seed, natural, corrective, double) in [
        (1, true, true, true),
        (2, false, true, true),
        (3, false, false, false),
    ] {
        check_level(&params(200, 200, natural, corrective, double), seed).unwrap();
    }
}

#[test]
fn the_checker_catches_broken_levels() {
    let map = generate(&params(15, 8, true, false, true), Seed(9));
    let good = HexJson::new(&map);
    check_json(&good).unwrap();
    // A critical tile made impassable, a bridge dropped, a protected tile walled.
    let mut walled = good.clone();
    let [x, y] = good.protected[0];
    walled.rows[y as usize].replace_range(x as usize..x as usize + 1, "M");
    assert!(check_json(&walled).is_err());
    let mut no_bridge = good.clone();
    if !no_bridge.bridges.is_empty() {
        no_bridge.bridges.clear();
        assert!(check_json(&no_bridge).is_err());
    }
    let mut start_walled = good.clone();
    let [sx, sy] = good.start;
    for n in Level::new(&good).neighbours((i64::from(sx), i64::from(sy))) {
        start_walled.rows[n.1 as usize].replace_range(n.0 as usize..n.0 as usize + 1, "M");
    }
    assert!(check_json(&start_walled).is_err());
    // Placements out of order.
    let mut shuffled = map.placements.clone();
    shuffled.reverse();
    assert!(check_placements(&good, &shuffled).is_err());
}

/// Means over seeds of one configuration: impassable tiles, and how clumped they are (the share
/// of impassable tiles among the neighbours of impassable tiles).
fn means(p: &HexParams, seeds: u64) -> (f64, f64) {
    let (mut impassable, mut clumping) = (0.0, 0.0);
    for seed in 0..seeds {
        let json = HexJson::new(&generate(p, Seed(seed)));
        let level = Level::new(&json);
        let blocked: Vec<Pos> = level.tiles().filter(|&t| !level.walkable(t)).collect();
        let (mut same, mut all) = (0, 0);
        for &b in &blocked {
            for n in level.neighbours(b) {
                all += 1;
                same += usize::from(!level.walkable(n));
            }
        }
        impassable += blocked.len() as f64;
        clumping += same as f64 / all.max(1) as f64;
    }
    (impassable / seeds as f64, clumping / seeds as f64)
}

/// Invariant 9: the two checks make levels alike — as many impassable tiles within a fifth
/// (the repair only removes, and removes more from chains), and as clumped within 0.06 — while
/// chains stay clearly more clumped than random tiles under both.
#[test]
fn both_checks_make_alike_levels() {
    let mut report = String::new();
    let mut ok = true;
    for double in [false, true] {
        let mut clumping = [[0.0; 2]; 2];
        for natural in [false, true] {
            let (pre, pre_clump) = means(&params(30, 15, natural, false, double), 60);
            let (cor, cor_clump) = means(&params(30, 15, natural, true, double), 60);
            clumping[usize::from(natural)] = [pre_clump, cor_clump];
            let alike = cor <= pre && cor >= 0.8 * pre && (pre_clump - cor_clump).abs() < 0.06;
            ok &= alike;
            report += &format!(
                "natural {natural} 2x {double}: impassable {pre:.1} / {cor:.1}, clumping \
                 {pre_clump:.3} / {cor_clump:.3}\n"
            );
        }
        ok &= (0..2).all(|check| clumping[1][check] > clumping[0][check] + 0.1);
    }
    assert!(ok, "preemptive / corrective:\n{report}");
    println!("{report}");
}
