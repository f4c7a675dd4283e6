//! Stage 3: the terrain, by wave function collapse (thesis 3.4).
//!
//! A world of `w × h` tiles has `(w + 1) × (h + 1)` slots, one at every tile corner, so each
//! module decides how four tiles meet. Every slot starts with every variant. Constraints from the
//! paths are applied first: main-path tiles get free surfaces and may be ramps only where the path
//! runs straight along the ramp, the edges the paths cross must be free, the hub tile is flat and
//! free, and one random tile is forced to level 0 and another to the top level.
//!
//! Propagation is AC-4 at the granularity of faces ([`super::modules`]): every slot counts, per
//! side and face, how many of its variants show that face. When a count drops to zero, the
//! neighbour on that side loses every variant that needed the face. (Diagonal neighbours share
//! a tile too; side constraints already imply their agreement.) Removals are recorded
//! on a trail so that a collapse can be undone.
//!
//! The slot to collapse is drawn at random, weighted by the number of variants already ruled
//! out plus one; its variant is drawn by weight. If the collapse leads to a contradiction it is
//! undone and the chosen variant removed (backtracking depth 1). If that contradicts too, the
//! attempt fails and the caller restarts with a fresh generator.

use super::GenError;
use super::grid::{Grid, Pos};
use super::modules::{ModuleSet, SIDES, TileState, opposite};
use crate::rng::Rng;
use crate::terrain::{EDGE_E, EDGE_N, EDGE_S, EDGE_W, NE, NW, SE, SW, TerrainType};

/// What a tile must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileRule {
    /// A main-path tile: free surface, and a ramp only along `straight` (`Some(true)`: the path
    /// runs north–south through it; `Some(false)`: east–west; `None`: it turns, so flat).
    Path {
        /// The axis the path runs straight along, if it does.
        straight: Option<bool>,
    },
    /// The hub: free surface, flat.
    Hub,
    /// Flat at exactly this level.
    FlatAt(u8),
}

/// The constraints the paths put on the terrain.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WfcConstraints {
    /// Tiles and what they must be.
    pub tiles: Vec<(Pos, TileRule)>,
    /// Pairs of neighbouring tiles (one may lie just outside the world) whose shared edge must be
    /// free.
    pub free_edges: Vec<(Pos, Pos)>,
}

/// The generated terrain.
#[derive(Clone, Debug, PartialEq)]
pub struct Terrain {
    /// The chosen variant of each slot, row by row from the south-west; slot `(i, j)` has tile
    /// `(i, j)` as its north-east corner.
    pub slots: Vec<u16>,
    /// Every tile's state, row by row.
    pub tiles: Vec<TileState>,
    /// Edge key between tile `(x, y)` and `(x + 1, y)`, indexed like tiles (last column unused).
    pub edge_east: Vec<char>,
    /// Edge key between tile `(x, y)` and `(x, y + 1)`, indexed like tiles (last row unused).
    pub edge_north: Vec<char>,
    /// How often this attempt backtracked.
    pub backtracks: u32,
}

impl Terrain {
    /// The state of a tile.
    pub fn tile(&self, grid: &Grid, p: Pos) -> TileState {
        self.tiles[grid.index(p)]
    }

    /// The edge key between two neighbouring in-world tiles.
    pub fn edge_between(&self, grid: &Grid, a: Pos, b: Pos) -> char {
        let (lo, hi) = if (a.y, a.x) < (b.y, b.x) {
            (a, b)
        } else {
            (b, a)
        };
        if hi.x > lo.x {
            self.edge_east[grid.index(lo)]
        } else {
            self.edge_north[grid.index(lo)]
        }
    }
}

/// A fixed-size bit set over variants, stored in a slice of words.
fn bit(words: &[u64], i: usize) -> bool {
    words[i / 64] >> (i % 64) & 1 == 1
}

struct Wave<'m> {
    set: &'m ModuleSet,
    words: usize,
    slots_x: i32,
    slots: usize,
    /// Variant bits per slot.
    domain: Vec<u64>,
    size: Vec<u32>,
    /// `counts[slot * stride + face_index[variant][d]]`: how many variants of the slot show
    /// that face towards `d`.
    counts: Vec<u16>,
    /// Per variant and side, where its face is counted (`offset[d] + face`) and where the
    /// neighbour counts the same face seen from the other side (`offset[opposite] + face`).
    face_index: Vec<[u32; 4]>,
    back_index: Vec<[u32; 4]>,
    stride: usize,
    /// Neighbour slot per direction, `u32::MAX` outside.
    neighbours: Vec<[u32; 4]>,
    /// Variants showing a face towards a direction, as bit words: `words` words per
    /// `face_index`-style position `offset[d] + face`.
    has_face: Vec<u64>,
    trail: Vec<(u32, u16)>,
    /// Slots and the face (as a `has_face` position) whose variants must go.
    pending: Vec<(u32, u32)>,
}

impl<'m> Wave<'m> {
    fn new(set: &'m ModuleSet, grid: &Grid) -> Wave<'m> {
        let n = set.variants.len();
        let words = n.div_ceil(64);
        let (sx, sy) = (grid.width + 1, grid.height + 1);
        let slots = (sx * sy) as usize;
        let mut offset = [0; 4];
        let mut stride = 0;
        for (o, count) in offset.iter_mut().zip(set.face_counts) {
            *o = stride;
            stride += count;
        }
        let mut template = vec![0u16; stride];
        let mut face_index = vec![[0u32; 4]; n];
        let mut back_index = vec![[0u32; 4]; n];
        let mut has_face = vec![0u64; stride * words];
        for d in 0..4 {
            for v in 0..n {
                let at = offset[d] + set.faces[d][v] as usize;
                template[at] += 1;
                face_index[v][d] = at as u32;
                back_index[v][d] = (offset[opposite(d)] + set.faces[d][v] as usize) as u32;
                has_face[at * words + v / 64] |= 1 << (v % 64);
            }
        }
        let mut full = vec![u64::MAX; words];
        if !n.is_multiple_of(64) {
            full[words - 1] = (1u64 << (n % 64)) - 1;
        }
        let neighbours = (0..slots)
            .map(|s| {
                let (i, j) = (s as i32 % sx, s as i32 / sx);
                SIDES.map(|(dx, dy)| {
                    let (ni, nj) = (i + dx, j + dy);
                    if ni < 0 || nj < 0 || ni >= sx || nj >= sy {
                        u32::MAX
                    } else {
                        (nj * sx + ni) as u32
                    }
                })
            })
            .collect();
        Wave {
            set,
            words,
            slots_x: sx,
            slots,
            domain: full.repeat(slots),
            size: vec![n as u32; slots],
            counts: template.repeat(slots),
            face_index,
            back_index,
            stride,
            neighbours,
            has_face,
            trail: Vec::new(),
            pending: Vec::new(),
        }
    }

    fn slot(&self, i: i32, j: i32) -> Option<usize> {
        let sy = self.slots as i32 / self.slots_x;
        (i >= 0 && j >= 0 && i < self.slots_x && j < sy).then(|| (j * self.slots_x + i) as usize)
    }

    fn dom(&self, s: usize) -> &[u64] {
        &self.domain[s * self.words..(s + 1) * self.words]
    }

    /// Removes variant `v` from slot `s`. Returns `false` when the slot is left empty.
    fn remove(&mut self, s: usize, v: usize) -> bool {
        self.domain[s * self.words + v / 64] &= !(1 << (v % 64));
        self.size[s] -= 1;
        self.trail.push((s as u32, v as u16));
        let row = &mut self.counts[s * self.stride..(s + 1) * self.stride];
        let (faces, backs) = (self.face_index[v], self.back_index[v]);
        for ((&n, face), back) in self.neighbours[s].iter().zip(faces).zip(backs) {
            if n == u32::MAX {
                continue;
            }
            let c = &mut row[face as usize];
            *c -= 1;
            if *c == 0 {
                // The neighbour's variants showing this face back lose their last support.
                self.pending.push((n, back));
            }
        }
        self.size[s] > 0
    }

    /// Makes the full wave arc consistent: a variant whose face towards a side is shown back by
    /// no variant at all can never have a neighbour there. Counts only ever fall from here on,
    /// so without this such variants would never be removed.
    fn prune_unsupported(&mut self) -> bool {
        let n = self.set.variants.len();
        let mut unsupported: [Vec<u64>; 4] = Default::default();
        for (d, mask) in unsupported.iter_mut().enumerate() {
            *mask = vec![0u64; self.words];
            for v in 0..n {
                let back = self.back_index[v][d] as usize;
                if self.has_face[back * self.words..(back + 1) * self.words]
                    .iter()
                    .all(|&w| w == 0)
                {
                    mask[v / 64] |= 1 << (v % 64);
                }
            }
        }
        for s in 0..self.slots {
            for (d, mask) in unsupported.iter().enumerate() {
                if self.neighbours[s][d] != u32::MAX && !self.remove_masked(s, |_, w| mask[w]) {
                    self.pending.clear();
                    return false;
                }
            }
        }
        self.propagate()
    }

    /// Removes the variants of slot `s` whose bits are set in `mask` (word by word). `false` on
    /// a contradiction.
    fn remove_masked(&mut self, s: usize, mask: impl Fn(&Self, usize) -> u64) -> bool {
        for w in 0..self.words {
            let mut kill = self.domain[s * self.words + w] & mask(self, w);
            while kill != 0 {
                let v = w * 64 + kill.trailing_zeros() as usize;
                kill &= kill - 1;
                if !self.remove(s, v) {
                    return false;
                }
            }
        }
        true
    }

    /// Removes from neighbours whatever lost its last support. `false` on a contradiction.
    fn propagate(&mut self) -> bool {
        while let Some((n, at)) = self.pending.pop() {
            let at = at as usize;
            if !self.remove_masked(n as usize, |wave, w| wave.has_face[at * wave.words + w]) {
                self.pending.clear();
                return false;
            }
        }
        true
    }

    /// Removes every variant of slot `s` that fails `keep`, then propagates.
    fn restrict(&mut self, s: usize, keep: impl Fn(usize) -> bool) -> bool {
        for w in 0..self.words {
            let mut bits = self.domain[s * self.words + w];
            while bits != 0 {
                let v = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !keep(v) && !self.remove(s, v) {
                    self.pending.clear();
                    return false;
                }
            }
        }
        self.propagate()
    }

    /// Puts every removal since the trail was cleared back.
    fn undo(&mut self) {
        while let Some((s, v)) = self.trail.pop() {
            let (s, v) = (s as usize, v as usize);
            self.domain[s * self.words + v / 64] |= 1 << (v % 64);
            self.size[s] += 1;
            for (&n, fi) in self.neighbours[s].iter().zip(self.face_index[v]) {
                if n != u32::MAX {
                    self.counts[s * self.stride + fi as usize] += 1;
                }
            }
        }
    }
}

/// The slots touching tile `p` and which of their corners it is.
fn tile_slots(p: Pos) -> [(i32, i32, usize); 4] {
    [
        (p.x, p.y, NE),
        (p.x + 1, p.y, NW),
        (p.x, p.y + 1, SE),
        (p.x + 1, p.y + 1, SW),
    ]
}

/// The two slots whose shared side is the edge between neighbouring tiles `a` and `b`, with
/// the edge's index in each.
fn edge_slots(a: Pos, b: Pos) -> [(i32, i32, usize); 2] {
    let (lo, hi) = if (a.y, a.x) < (b.y, b.x) {
        (a, b)
    } else {
        (b, a)
    };
    if hi.x > lo.x {
        [(lo.x + 1, lo.y, EDGE_N), (lo.x + 1, lo.y + 1, EDGE_S)]
    } else {
        [(lo.x, lo.y + 1, EDGE_E), (lo.x + 1, lo.y + 1, EDGE_W)]
    }
}

/// Whether a tile state satisfies a rule.
fn allows(terrain: &TerrainType, rule: TileRule, t: TileState) -> bool {
    match rule {
        TileRule::Path { straight } => {
            terrain.is_free_surface(t.surface)
                && match t.slant {
                    None => true,
                    Some(d) => straight == Some(d.is_vertical()),
                }
        }
        TileRule::Hub => terrain.is_free_surface(t.surface) && t.slant.is_none(),
        TileRule::FlatAt(level) => t.slant.is_none() && t.level == level,
    }
}

/// Runs one WFC attempt.
pub fn generate_terrain(
    grid: &Grid,
    terrain: &TerrainType,
    set: &ModuleSet,
    constraints: &WfcConstraints,
    rng: &mut Rng,
) -> Result<Terrain, GenError> {
    let mut wave = Wave::new(set, grid);
    if set.variants.is_empty() {
        return Err(GenError::Terrain(
            "the terrain type has no usable modules".into(),
        ));
    }
    let contradiction =
        |what: &str| GenError::Terrain(format!("the constraints contradict each other ({what})"));
    if !wave.prune_unsupported() {
        return Err(contradiction("no module fits next to another"));
    }
    // Rules are checked once per tile state and edge key, not once per variant.
    let blocked_edge: Vec<[bool; 4]> = set
        .variants
        .iter()
        .map(|v| v.edges.map(|e| terrain.is_blocked_edge(e)))
        .collect();
    for &(p, rule) in &constraints.tiles {
        let ok: Vec<bool> = set
            .states
            .iter()
            .map(|&t| allows(terrain, rule, t))
            .collect();
        for (i, j, corner) in tile_slots(p) {
            let Some(s) = wave.slot(i, j) else { continue };
            if !wave.restrict(s, |v| ok[set.variants[v].corners[corner] as usize]) {
                return Err(contradiction("tiles"));
            }
        }
    }
    for &(a, b) in &constraints.free_edges {
        for (i, j, edge) in edge_slots(a, b) {
            let Some(s) = wave.slot(i, j) else { continue };
            if !wave.restrict(s, |v| !blocked_edge[v][edge]) {
                return Err(contradiction("edges"));
            }
        }
    }

    let total = set.variants.len() as u32;
    let mut backtracks = 0;
    let mut slot_weights = vec![0.0; wave.slots];
    let mut variant_weights: Vec<(usize, f64)> = Vec::new();
    loop {
        let mut open = false;
        for (s, w) in slot_weights.iter_mut().enumerate() {
            *w = if wave.size[s] > 1 {
                open = true;
                f64::from(total - wave.size[s] + 1)
            } else {
                0.0
            };
        }
        if !open {
            break;
        }
        let Some(s) = rng.weighted_index(&slot_weights) else {
            break;
        };
        variant_weights.clear();
        variant_weights.extend(
            (0..set.variants.len())
                .filter(|&v| bit(wave.dom(s), v))
                .map(|v| (v, set.variants[v].weight)),
        );
        let weights: Vec<f64> = variant_weights.iter().map(|&(_, w)| w).collect();
        let chosen = variant_weights[rng.weighted_index(&weights).unwrap_or(0)].0;

        wave.trail.clear();
        if !wave.restrict(s, |v| v == chosen) {
            wave.undo();
            backtracks += 1;
            wave.trail.clear();
            if !(wave.remove(s, chosen) && wave.propagate()) {
                return Err(GenError::Terrain(
                    "a contradiction survived backtracking".into(),
                ));
            }
        }
    }

    // Read the result: every slot is down to one variant.
    let slots: Vec<u16> = (0..wave.slots)
        .map(|s| {
            (0..set.variants.len())
                .find(|&v| bit(wave.dom(s), v))
                .unwrap_or(0) as u16
        })
        .collect();
    let slot_at = |i: i32, j: i32| slots[(j * wave.slots_x + i) as usize] as usize;
    let tiles = grid
        .tiles()
        .map(|p| set.corner(slot_at(p.x, p.y), NE))
        .collect();
    let edge_east = grid
        .tiles()
        .map(|p| set.variants[slot_at(p.x + 1, p.y)].edges[EDGE_N])
        .collect();
    let edge_north = grid
        .tiles()
        .map(|p| set.variants[slot_at(p.x, p.y + 1)].edges[EDGE_E])
        .collect();
    Ok(Terrain {
        slots,
        tiles,
        edge_east,
        edge_north,
        backtracks,
    })
}

/// The constraints the main paths put on the terrain (see the module documentation), with the
/// lowest-level and highest-level tiles drawn from `rng` among the tiles off the paths.
pub fn path_constraints(
    grid: &Grid,
    terrain: &TerrainType,
    endpoints: &super::endpoints::Endpoints,
    main: &super::annealing::MainPaths,
    rng: &mut Rng,
) -> WfcConstraints {
    let mut c = WfcConstraints::default();
    let mut on_path = vec![false; grid.len()];
    for path in &main.paths {
        let entry = path[0];
        let inward = path.get(1).and_then(|&p| entry.direction_to(p));
        let outside = inward.map_or(entry, |d| grid.outside_of(entry, d));
        c.free_edges.push((outside, entry));
        for (i, &p) in path.iter().enumerate() {
            on_path[grid.index(p)] = true;
            if p == endpoints.hub {
                continue;
            }
            let before = if i == 0 { outside } else { path[i - 1] };
            let after = path[i + 1];
            c.free_edges.push((p, after));
            let (din, dout) = (before.direction_to(p), p.direction_to(after));
            let straight = match (din, dout) {
                (Some(a), Some(b)) if a == b => Some(a.is_vertical()),
                _ => None,
            };
            c.tiles.push((p, TileRule::Path { straight }));
        }
    }
    c.tiles.push((endpoints.hub, TileRule::Hub));

    // The lowest and highest tiles. Drawn anywhere off the paths they often cannot both be met
    // (a level-0 and a top-level tile next to the same stretch of path), so they are drawn
    // among tiles with a free ring around them, the top one first, the low one far enough from
    // it for the cliffs in between; without such tiles, anywhere off the paths.
    let clear = |p: Pos| {
        (-1..=1).all(|dy| {
            (-1..=1).all(|dx| {
                let q = Pos::new(p.x + dx, p.y + dy);
                !grid.contains(q) || !on_path[grid.index(q)]
            })
        })
    };
    let off_path: Vec<Pos> = grid.tiles().filter(|p| !on_path[grid.index(*p)]).collect();
    let roomy: Vec<Pos> = off_path.iter().copied().filter(|&p| clear(p)).collect();
    let pool = if roomy.len() >= 2 { &roomy } else { &off_path };
    if pool.len() < 2 {
        return c;
    }
    let top = pool[rng.index(pool.len())];
    let apart =
        |p: Pos| (p.x - top.x).abs().max((p.y - top.y).abs()) >= i32::from(terrain.max_height);
    let far: Vec<Pos> = pool
        .iter()
        .copied()
        .filter(|&p| p != top && apart(p))
        .collect();
    let rest: Vec<Pos> = pool.iter().copied().filter(|&p| p != top).collect();
    let lows = if far.is_empty() { &rest } else { &far };
    let low = lows[rng.index(lows.len())];
    c.tiles.push((low, TileRule::FlatAt(0)));
    if terrain.max_height > 0 {
        c.tiles.push((top, TileRule::FlatAt(terrain.max_height)));
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::SourceFile;
    use crate::rng::Seed;
    use crate::terrain::parse_terrain;

    fn load(path: &str) -> TerrainType {
        let path = format!("{}/{path}", concat!(env!("CARGO_MANIFEST_DIR"), "/../.."));
        let text = std::fs::read_to_string(&path).unwrap();
        parse_terrain("test:t", &SourceFile::new(path, text)).unwrap()
    }

    fn hills() -> TerrainType {
        load("mods/core/terrain/hills.terrain")
    }

    #[test]
    fn every_pair_of_neighbouring_slots_agrees_and_rules_hold() {
        slots_agree_and_rules_hold(&hills(), 3);
        // Some variants of this set can never have a neighbour on one side.
        slots_agree_and_rules_hold(&load("tests/fixtures/terrain/sparse.terrain"), 2);
    }

    fn slots_agree_and_rules_hold(terrain: &TerrainType, top: u8) {
        let terrain = terrain.clone();
        let set = ModuleSet::new(&terrain);
        let grid = Grid::new(9, 7);
        let mut constraints = WfcConstraints::default();
        constraints.tiles.push((Pos::new(4, 3), TileRule::Hub));
        constraints
            .tiles
            .push((Pos::new(0, 0), TileRule::FlatAt(0)));
        constraints
            .tiles
            .push((Pos::new(8, 6), TileRule::FlatAt(top)));
        for x in 1..4 {
            constraints.tiles.push((
                Pos::new(x, 3),
                TileRule::Path {
                    straight: Some(false),
                },
            ));
            constraints
                .free_edges
                .push((Pos::new(x, 3), Pos::new(x + 1, 3)));
        }
        let mut done = 0;
        for seed in 0..20 {
            let Ok(t) =
                generate_terrain(&grid, &terrain, &set, &constraints, &mut Seed(seed).rng())
            else {
                continue;
            };
            done += 1;
            let sx = grid.width + 1;
            let v = |i: i32, j: i32| &set.variants[t.slots[(j * sx + i) as usize] as usize];
            for j in 0..=grid.height {
                for i in 0..=grid.width {
                    if i < grid.width {
                        let (a, b) = (v(i, j), v(i + 1, j));
                        assert_eq!(
                            (a.corners[NE], a.corners[SE], a.edges[EDGE_E]),
                            (b.corners[NW], b.corners[SW], b.edges[EDGE_W])
                        );
                    }
                    if j < grid.height {
                        let (a, b) = (v(i, j), v(i, j + 1));
                        assert_eq!(
                            (a.corners[NW], a.corners[NE], a.edges[EDGE_N]),
                            (b.corners[SW], b.corners[SE], b.edges[EDGE_S])
                        );
                    }
                }
            }
            let hub = t.tile(&grid, Pos::new(4, 3));
            assert!(hub.slant.is_none() && terrain.is_free_surface(hub.surface));
            assert_eq!(t.tile(&grid, Pos::new(0, 0)).level, 0);
            assert_eq!(t.tile(&grid, Pos::new(8, 6)).level, top);
            for x in 1..4 {
                let edge = t.edge_between(&grid, Pos::new(x, 3), Pos::new(x + 1, 3));
                assert!(!terrain.is_blocked_edge(edge));
                assert!(
                    t.tile(&grid, Pos::new(x, 3))
                        .slant
                        .is_none_or(|d| !d.is_vertical())
                );
            }
        }
        assert!(done >= 15, "only {done} of 20 attempts succeeded");
    }

    #[test]
    fn undo_restores_domains_and_counts_exactly() {
        let terrain = hills();
        let set = ModuleSet::new(&terrain);
        let grid = Grid::new(6, 6);
        let mut wave = Wave::new(&set, &grid);
        let (domain, counts, size) = (wave.domain.clone(), wave.counts.clone(), wave.size.clone());
        wave.trail.clear();
        let chosen = 5;
        assert!(wave.restrict(10, |v| v == chosen));
        assert!(wave.size[10] == 1 && wave.trail.len() > set.variants.len());
        wave.undo();
        assert_eq!(
            (wave.domain.clone(), wave.counts.clone(), wave.size.clone()),
            (domain, counts, size)
        );
    }

    #[test]
    fn impossible_constraints_are_reported() {
        let terrain = hills();
        let set = ModuleSet::new(&terrain);
        let grid = Grid::new(5, 5);
        // Two neighbouring tiles three levels apart cannot be joined by any module.
        let constraints = WfcConstraints {
            tiles: vec![
                (Pos::new(1, 1), TileRule::FlatAt(0)),
                (Pos::new(2, 1), TileRule::FlatAt(3)),
            ],
            free_edges: Vec::new(),
        };
        let result = generate_terrain(&grid, &terrain, &set, &constraints, &mut Seed(1).rng());
        assert!(matches!(result, Err(GenError::Terrain(_))));
    }
}
