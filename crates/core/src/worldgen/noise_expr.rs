//! Evaluating noise expressions (thesis 3.5.3) over a finished world. Points are in tile units
//! with tile `(x, y)` covering `[x − ½, x + ½] × [y − ½, y + ½]`.

use super::grid::{Grid, Pos};
use super::noise::Fractal;
use super::wfc::Terrain;
use crate::rng::Rng;
use crate::terrain::NoiseExpr;

/// Signed distances are not searched further than this many tiles; beyond, they stay at this.
pub const SDF_REACH: i32 = 4;

/// What an expression can look at.
pub struct Field<'a> {
    /// The world's size.
    pub grid: &'a Grid,
    /// The terrain (for `height`).
    pub terrain: &'a Terrain,
    /// Region 0: the path tiles; region `1 + o`: the tiles of obstacle `o`.
    regions: Vec<Region>,
}

/// A set of tiles and, per tile, how many rings of neighbours out the nearest tile on the
/// other side of the region's boundary is, so distance searches can skip the empty rings.
struct Region {
    inside: Vec<bool>,
    first_ring: Vec<u8>,
}

impl Region {
    fn new(grid: &Grid, inside: Vec<bool>) -> Region {
        let first_ring = grid
            .tiles()
            .map(|p| {
                let here = inside[grid.index(p)];
                (1..=SDF_REACH)
                    .find(|&k| {
                        let mut found = false;
                        for_ring(p, k, |t| found |= other_side(grid, &inside, t, here));
                        found
                    })
                    .unwrap_or(SDF_REACH + 1) as u8
            })
            .collect();
        Region { inside, first_ring }
    }
}

/// Whether tile `t` (maybe outside the world) is on the other side of the boundary from a tile
/// whose membership is `here`. Space beyond the world counts as outside every region.
fn other_side(grid: &Grid, inside: &[bool], t: Pos, here: bool) -> bool {
    if grid.contains(t) {
        inside[grid.index(t)] != here
    } else {
        here
    }
}

/// Calls `f` on every tile at Chebyshev distance exactly `k` from `p`.
fn for_ring(p: Pos, k: i32, mut f: impl FnMut(Pos)) {
    for dy in -k..=k {
        if dy.abs() == k {
            for dx in -k..=k {
                f(Pos::new(p.x + dx, p.y + dy));
            }
        } else {
            f(Pos::new(p.x - k, p.y + dy));
            f(Pos::new(p.x + k, p.y + dy));
        }
    }
}

impl<'a> Field<'a> {
    /// The field of a finished world: `path[tile]` marks path tiles (the hub included),
    /// `obstacles` holds each tile's obstacle of the `obstacle_types` declared ones.
    pub fn new(
        grid: &'a Grid,
        terrain: &'a Terrain,
        path: &[bool],
        obstacles: &[Option<u16>],
        obstacle_types: usize,
    ) -> Field<'a> {
        let mut regions = vec![Region::new(grid, path.to_vec())];
        for o in 0..obstacle_types {
            let inside = obstacles.iter().map(|&t| t == Some(o as u16)).collect();
            regions.push(Region::new(grid, inside));
        }
        Field {
            grid,
            terrain,
            regions,
        }
    }

    /// Bounds of [`Field::signed`] over tile `p`. The nearest tile across the boundary lies in
    /// ring `k` (or none is within reach); any point of `p` is at least `k − 1` from it and at
    /// most `k·√2`.
    fn signed_bounds(&self, r: usize, p: Pos, scale_in: f64, scale_out: f64) -> (f64, f64) {
        let region = &self.regions[r];
        let index = self.grid.index(p);
        let k = i32::from(region.first_ring[index]);
        let reach = f64::from(SDF_REACH);
        let (near, far) = if k > SDF_REACH {
            (reach, reach)
        } else {
            (
                f64::from(k - 1),
                (f64::from(k) * std::f64::consts::SQRT_2).min(reach),
            )
        };
        let scale = if region.inside[index] {
            scale_in
        } else {
            scale_out
        };
        if scale >= 0.0 {
            (scale * near, scale * far)
        } else {
            (scale * far, scale * near)
        }
    }

    /// Signed distance from `(x, y)` to region `r`, scaled by `scale_in` inside and `scale_out`
    /// outside.
    fn signed(&self, r: usize, x: f64, y: f64, scale_in: f64, scale_out: f64) -> f64 {
        let region = &self.regions[r];
        let grid = self.grid;
        let here = tile_of(grid, x, y);
        let index = grid.index(here);
        let is_in = region.inside[index];
        let mut best2 = f64::from(SDF_REACH * SDF_REACH);
        // A tile in ring k is at least k − 1 away from any point of the centre tile.
        for k in i32::from(region.first_ring[index])..=SDF_REACH {
            if best2 <= f64::from((k - 1) * (k - 1)) {
                break;
            }
            for_ring(here, k, |t| {
                if other_side(grid, &region.inside, t, is_in) {
                    best2 = best2.min(to_square2(x, y, t));
                }
            });
        }
        let best = best2.sqrt();
        if is_in {
            scale_in * best
        } else {
            scale_out * best
        }
    }
}

/// An expression ready to evaluate, its noise functions drawn.
#[derive(Clone, Debug)]
pub enum Compiled {
    /// See [`NoiseExpr::Const`].
    Const(f64),
    /// See [`NoiseExpr::Sum`].
    Sum(Vec<Compiled>),
    /// See [`NoiseExpr::Mult`].
    Mult(f64, Vec<Compiled>),
    /// See [`NoiseExpr::Clamp`].
    Clamp(f64, f64, Vec<Compiled>),
    /// See [`NoiseExpr::Path`].
    Path(f64, f64),
    /// See [`NoiseExpr::Obstacle`].
    Obstacle(u16, f64, f64),
    /// See [`NoiseExpr::Height`].
    Height,
    /// See [`NoiseExpr::Fractal`].
    Fractal(Box<Fractal>),
}

/// Compiles the sum of `nodes`, drawing each noise node's function from `rng` in order.
pub fn compile(nodes: &[NoiseExpr], rng: &mut Rng) -> Compiled {
    Compiled::Sum(nodes.iter().map(|n| compile_node(n, rng)).collect())
}

fn compile_node(node: &NoiseExpr, rng: &mut Rng) -> Compiled {
    match node {
        NoiseExpr::Const(v) => Compiled::Const(*v),
        NoiseExpr::Sum(c) => Compiled::Sum(c.iter().map(|n| compile_node(n, rng)).collect()),
        NoiseExpr::Mult(m, c) => {
            Compiled::Mult(*m, c.iter().map(|n| compile_node(n, rng)).collect())
        }
        NoiseExpr::Clamp(lo, hi, c) => {
            Compiled::Clamp(*lo, *hi, c.iter().map(|n| compile_node(n, rng)).collect())
        }
        NoiseExpr::Path { inside, outside } => Compiled::Path(*inside, *outside),
        NoiseExpr::Obstacle {
            obstacle,
            inside,
            outside,
        } => Compiled::Obstacle(*obstacle as u16, *inside, *outside),
        NoiseExpr::Height => Compiled::Height,
        NoiseExpr::Fractal(f) => Compiled::Fractal(Box::new(Fractal::new(*f, rng))),
    }
}

impl Compiled {
    /// The value at point `(x, y)`.
    pub fn eval(&self, field: &Field<'_>, x: f64, y: f64) -> f64 {
        let sum = |children: &[Compiled]| children.iter().map(|c| c.eval(field, x, y)).sum::<f64>();
        match self {
            Compiled::Const(v) => *v,
            Compiled::Sum(c) => sum(c),
            Compiled::Mult(m, c) => m * sum(c),
            Compiled::Clamp(lo, hi, c) => sum(c).clamp(*lo, *hi),
            Compiled::Path(inside, outside) => field.signed(0, x, y, *inside, *outside),
            Compiled::Obstacle(o, inside, outside) => {
                field.signed(1 + *o as usize, x, y, *inside, *outside)
            }
            Compiled::Height => height_at(field.grid, field.terrain, x, y),
            Compiled::Fractal(f) => f.at(x, y),
        }
    }
}

/// The tile containing point `(x, y)`, clamped into the world.
fn tile_of(grid: &Grid, x: f64, y: f64) -> Pos {
    Pos::new(
        (x.round() as i32).clamp(0, grid.width - 1),
        (y.round() as i32).clamp(0, grid.height - 1),
    )
}

impl Compiled {
    /// Bounds `[low, high]` of the value over the whole of tile `p`, so the scatterer can skip
    /// tiles where no point can reach its threshold.
    pub fn bounds(&self, field: &Field<'_>, p: Pos) -> (f64, f64) {
        let sum = |children: &[Compiled]| {
            children.iter().fold((0.0, 0.0), |(lo, hi), c| {
                let (a, b) = c.bounds(field, p);
                (lo + a, hi + b)
            })
        };
        let scaled = |m: f64, (lo, hi): (f64, f64)| {
            if m >= 0.0 {
                (m * lo, m * hi)
            } else {
                (m * hi, m * lo)
            }
        };
        match self {
            Compiled::Const(v) => (*v, *v),
            Compiled::Sum(c) => sum(c),
            Compiled::Mult(m, c) => scaled(*m, sum(c)),
            Compiled::Clamp(lo, hi, c) => {
                let (a, b) = sum(c);
                (a.clamp(*lo, *hi), b.clamp(*lo, *hi))
            }
            Compiled::Path(inside, outside) => field.signed_bounds(0, p, *inside, *outside),
            Compiled::Obstacle(o, inside, outside) => {
                field.signed_bounds(1 + *o as usize, p, *inside, *outside)
            }
            Compiled::Height => {
                let t = field.terrain.tile(field.grid, p);
                let level = f64::from(t.level);
                if t.slant.is_some() {
                    (level - 1.0, level)
                } else {
                    (level, level)
                }
            }
            Compiled::Fractal(f) => f.bounds(),
        }
    }
}

/// Terrain height level at a point: the tile's level, sloping by one level across a ramp.
pub fn height_at(grid: &Grid, terrain: &Terrain, x: f64, y: f64) -> f64 {
    let p = tile_of(grid, x, y);
    super::surface::level_within(
        terrain.tile(grid, p),
        x - f64::from(p.x),
        y - f64::from(p.y),
    )
}

/// Squared distance from a point to the square of tile `t`.
fn to_square2(x: f64, y: f64, t: Pos) -> f64 {
    let dx = ((x - f64::from(t.x)).abs() - 0.5).max(0.0);
    let dy = ((y - f64::from(t.y)).abs() - 0.5).max(0.0);
    dx * dx + dy * dy
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worldgen::modules::TileState;

    fn flat_terrain(grid: &Grid) -> Terrain {
        let flat = TileState {
            surface: 'G',
            level: 0,
            slant: None,
        };
        Terrain {
            slots: Vec::new(),
            tiles: vec![flat; grid.len()],
            edge_east: Vec::new(),
            edge_north: Vec::new(),
            backtracks: 0,
        }
    }

    #[test]
    fn signed_distance_to_one_tile() {
        let grid = Grid::new(9, 9);
        let terrain = flat_terrain(&grid);
        let mut path = vec![false; grid.len()];
        path[grid.index(Pos::new(4, 4))] = true;
        let field = Field::new(&grid, &terrain, &path, &vec![None; grid.len()], 0);
        // The centre of the tile is half a tile from its boundary.
        assert!((field.signed(0, 4.0, 4.0, 1.0, -1.0) - 0.5).abs() < 1e-12);
        // A point two tiles east is 1.5 from the tile's east side.
        assert!((field.signed(0, 6.0, 4.0, 1.0, -1.0) + 1.5).abs() < 1e-12);
        // Diagonally off the corner.
        let d = field.signed(0, 5.0, 5.0, 1.0, -1.0);
        assert!((d + libm::hypot(0.5, 0.5)).abs() < 1e-12, "{d}");
        // Far away the distance saturates at the search reach.
        assert_eq!(field.signed(0, 0.0, 0.0, 0.0, 1.0), f64::from(SDF_REACH));
    }

    #[test]
    fn ring_search_agrees_with_brute_force() {
        let grid = Grid::new(11, 11);
        let terrain = flat_terrain(&grid);
        let mut rng = crate::rng::Seed(9).rng();
        let inside: Vec<bool> = (0..grid.len()).map(|_| rng.chance(0.15)).collect();
        let field = Field::new(&grid, &terrain, &inside, &vec![None; grid.len()], 0);
        for _ in 0..2000 {
            let (x, y) = (rng.range_f64(-0.5, 10.5), rng.range_f64(-0.5, 10.5));
            let here = tile_of(&grid, x, y);
            let is_in = inside[grid.index(here)];
            let mut best = f64::from(SDF_REACH);
            for ty in -6..17 {
                for tx in -6..17 {
                    let t = Pos::new(tx, ty);
                    if other_side(&grid, &inside, t, is_in) {
                        best = best.min(to_square2(x, y, t).sqrt());
                    }
                }
            }
            let got = field.signed(0, x, y, 1.0, 1.0);
            assert!((got - best).abs() < 1e-9, "{x} {y}: {got} vs {best}");
        }
    }

    #[test]
    fn tile_bounds_contain_every_value_in_the_tile() {
        use crate::terrain::{Direction, FractalNoise};
        let grid = Grid::new(12, 12);
        let mut terrain = flat_terrain(&grid);
        terrain.tiles[grid.index(Pos::new(3, 3))] = TileState {
            surface: 'G',
            level: 2,
            slant: Some(Direction::East),
        };
        let mut rng = crate::rng::Seed(4).rng();
        let path: Vec<bool> = (0..grid.len()).map(|_| rng.chance(0.2)).collect();
        let obstacles: Vec<Option<u16>> = (0..grid.len())
            .map(|_| rng.chance(0.1).then_some(0))
            .collect();
        let field = Field::new(&grid, &terrain, &path, &obstacles, 1);
        let noise = NoiseExpr::Fractal(FractalNoise {
            octaves: 3,
            bias: 0.2,
            base_amplitude: 0.5,
            amplitude_mult: 0.6,
            base_frequency: 0.7,
            frequency_mult: 2.1,
        });
        let expr = compile(
            &[
                NoiseExpr::Clamp(
                    -3.0,
                    0.7,
                    vec![
                        NoiseExpr::Obstacle {
                            obstacle: 0,
                            inside: 1.0,
                            outside: -1.0,
                        },
                        noise,
                        NoiseExpr::Path {
                            inside: -3.0,
                            outside: 0.0,
                        },
                    ],
                ),
                NoiseExpr::Mult(-0.5, vec![NoiseExpr::Height, NoiseExpr::Const(1.0)]),
            ],
            &mut rng,
        );
        for p in grid.tiles() {
            let (lo, hi) = expr.bounds(&field, p);
            for _ in 0..40 {
                let (x, y) = (
                    f64::from(p.x) + rng.unit() - 0.5,
                    f64::from(p.y) + rng.unit() - 0.5,
                );
                let v = expr.eval(&field, x, y);
                assert!(
                    lo - 1e-9 <= v && v <= hi + 1e-9,
                    "{p:?}: {v} outside [{lo}, {hi}]"
                );
            }
        }
    }
}
