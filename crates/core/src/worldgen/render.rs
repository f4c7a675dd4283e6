//! A top-down picture of a world, for people: heights as shading (ramps as gradients), surfaces
//! as colours, cliffs and other blocked edges as thick dark lines, obstacles as symbols by kind,
//! obstacle models as small dots, paths as lines with arrows, the hub as a gold disc and the path
//! starts as red squares in the margin.

use super::World;
use super::grid::Pos;
use super::noise_expr::height_at;
use super::wfc::Terrain;
use crate::terrain::{ObstacleKind, TerrainType};

/// Pixels per tile.
const TILE: i32 = 40;

type Rgb = [u8; 3];

/// An RGB canvas with anti-aliased shapes.
struct Canvas {
    width: i32,
    height: i32,
    data: Vec<u8>,
}

impl Canvas {
    fn blend(&mut self, x: i32, y: i32, c: Rgb, alpha: f64) {
        if x < 0 || y < 0 || x >= self.width || y >= self.height || alpha <= 0.0 {
            return;
        }
        let a = alpha.min(1.0);
        let i = ((y * self.width + x) * 3) as usize;
        for (cell, &target) in self.data[i..i + 3].iter_mut().zip(&c) {
            let old = f64::from(*cell);
            *cell = (old + (f64::from(target) - old) * a).round() as u8;
        }
    }

    /// Paints every pixel whose centre lies within `reach` of the shape, with coverage from the
    /// signed distance `sdf` (negative inside).
    fn shape(
        &mut self,
        bounds: (f64, f64, f64, f64),
        c: Rgb,
        alpha: f64,
        sdf: impl Fn(f64, f64) -> f64,
    ) {
        let (x0, y0, x1, y1) = bounds;
        for y in (y0.floor() as i32 - 1)..=(y1.ceil() as i32 + 1) {
            for x in (x0.floor() as i32 - 1)..=(x1.ceil() as i32 + 1) {
                let d = sdf(f64::from(x) + 0.5, f64::from(y) + 0.5);
                let coverage = (0.5 - d).clamp(0.0, 1.0);
                self.blend(x, y, c, alpha * coverage);
            }
        }
    }

    fn line(&mut self, a: (f64, f64), b: (f64, f64), width: f64, c: Rgb) {
        let bounds = (
            a.0.min(b.0) - width,
            a.1.min(b.1) - width,
            a.0.max(b.0) + width,
            a.1.max(b.1) + width,
        );
        self.shape(bounds, c, 1.0, |x, y| {
            segment_distance((x, y), a, b) - width / 2.0
        });
    }

    fn circle(&mut self, center: (f64, f64), r: f64, c: Rgb, alpha: f64) {
        let bounds = (center.0 - r, center.1 - r, center.0 + r, center.1 + r);
        self.shape(bounds, c, alpha, |x, y| {
            libm::hypot(x - center.0, y - center.1) - r
        });
    }

    fn polygon(&mut self, points: &[(f64, f64)], c: Rgb) {
        let x0 = points.iter().map(|p| p.0).fold(f64::MAX, f64::min);
        let y0 = points.iter().map(|p| p.1).fold(f64::MAX, f64::min);
        let x1 = points.iter().map(|p| p.0).fold(f64::MIN, f64::max);
        let y1 = points.iter().map(|p| p.1).fold(f64::MIN, f64::max);
        self.shape((x0, y0, x1, y1), c, 1.0, |x, y| {
            let edge = (0..points.len())
                .map(|i| segment_distance((x, y), points[i], points[(i + 1) % points.len()]))
                .fold(f64::MAX, f64::min);
            if inside_polygon((x, y), points) {
                -edge
            } else {
                edge
            }
        });
    }
}

fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0)
    };
    libm::hypot(p.0 - a.0 - t * dx, p.1 - a.1 - t * dy)
}

fn inside_polygon(p: (f64, f64), points: &[(f64, f64)]) -> bool {
    let mut inside = false;
    let mut j = points.len() - 1;
    for i in 0..points.len() {
        let (a, b) = (points[i], points[j]);
        if (a.1 > p.1) != (b.1 > p.1) && p.0 < (b.0 - a.0) * (p.1 - a.1) / (b.1 - a.1) + a.0 {
            inside = !inside;
        }
        j = i;
    }
    inside
}

/// The colour of `surface`: the terrain file's, or a default for the usual letters.
pub fn surface_color(terrain_type: &TerrainType, surface: char) -> [u8; 3] {
    terrain_type
        .surface_colors
        .get(&surface)
        .copied()
        .unwrap_or(default_color(surface))
}

/// A colour for surfaces without one in the file.
fn default_color(surface: char) -> Rgb {
    match surface.to_ascii_uppercase() {
        'G' => [96, 160, 72],
        'W' => [58, 110, 190],
        'S' => [222, 200, 140],
        'R' => [140, 136, 128],
        'D' => [150, 112, 74],
        'L' => [210, 80, 40],
        'I' => [220, 236, 244],
        c => {
            let h = u32::from(c).wrapping_mul(2_654_435_761);
            [
                (h >> 8) as u8 | 64,
                (h >> 16) as u8 | 64,
                (h >> 24) as u8 | 64,
            ]
        }
    }
}

/// Pixel position of a point in tile coordinates (tile centres are integers; one tile of margin).
fn to_pixels(world: &World, x: f64, y: f64) -> (f64, f64) {
    let t = f64::from(TILE);
    ((x + 1.5) * t, (f64::from(world.grid.height) - y + 0.5) * t)
}

/// Renders `world` to an RGB buffer: `(width, height, rows of RGB bytes from the top)`.
pub fn render_rgb(world: &World, terrain_type: &TerrainType) -> (u32, u32, Vec<u8>) {
    let grid = world.grid;
    let mut canvas = Canvas {
        width: (grid.width + 2) * TILE,
        height: (grid.height + 2) * TILE,
        data: Vec::new(),
    };
    canvas.data = [40u8, 44, 52].repeat((canvas.width * canvas.height) as usize);
    let land = Terrain {
        slots: Vec::new(),
        tiles: world.tiles.clone(),
        edge_east: Vec::new(),
        edge_north: Vec::new(),
        backtracks: 0,
    };
    let top = f64::from(terrain_type.max_height.max(1));

    // Ground: surface colour, brighter the higher, per pixel so ramps show as gradients.
    for p in grid.tiles() {
        let t = world.tile(p);
        let base = surface_color(terrain_type, t.surface);
        let (px, py) = to_pixels(world, f64::from(p.x) - 0.5, f64::from(p.y) + 0.5);
        for dy in 0..TILE {
            for dx in 0..TILE {
                let wx = f64::from(p.x) - 0.5 + (f64::from(dx) + 0.5) / f64::from(TILE);
                let wy = f64::from(p.y) + 0.5 - (f64::from(dy) + 0.5) / f64::from(TILE);
                let level = height_at(&grid, &land, wx, wy);
                let shade = 0.78 + 0.4 * level / top;
                let c = base.map(|v| (f64::from(v) * shade).clamp(0.0, 255.0) as u8);
                canvas.blend(px as i32 + dx, py as i32 + dy, c, 1.0);
            }
        }
        // Faint grid lines.
        let (x0, y0) = (px, py);
        let t = f64::from(TILE);
        canvas.line((x0, y0), (x0 + t, y0), 1.0, [0, 0, 0]);
        canvas.line((x0, y0), (x0, y0 + t), 1.0, [0, 0, 0]);
        slant_marker(&mut canvas, world, p);
    }
    // Blocked edges next to blocked surfaces (water and the like) say nothing new: skip them.
    let open = |p: Pos| !world.blocked_surface[grid.index(p)];
    for &(a, b) in world
        .blocked_edges
        .iter()
        .filter(|(a, b)| open(*a) && open(*b))
    {
        // The shared side of two tiles: its middle lies halfway between their centres.
        let (mx, my) = (f64::from(a.x + b.x) / 2.0, f64::from(a.y + b.y) / 2.0);
        let (ex, ey) = if a.x != b.x { (0.0, 0.5) } else { (0.5, 0.0) };
        let p0 = to_pixels(world, mx - ex, my - ey);
        let p1 = to_pixels(world, mx + ex, my + ey);
        canvas.line(p0, p1, 4.0, [25, 22, 20]);
    }

    // Models as small dots, then obstacle symbols.
    for m in &world.models {
        let p = to_pixels(world, m.x, m.y);
        canvas.circle(p, (1.6 * m.scale).clamp(1.0, 4.0), [30, 34, 30], 0.55);
    }
    let t = f64::from(TILE);
    for p in grid.tiles() {
        let Some(o) = world.obstacle(p) else { continue };
        let (cx, cy) = to_pixels(world, f64::from(p.x), f64::from(p.y));
        match o.kind {
            ObstacleKind::Large => {
                let pts = [
                    (cx, cy - 0.36 * t),
                    (cx - 0.32 * t, cy + 0.28 * t),
                    (cx + 0.32 * t, cy + 0.28 * t),
                ];
                canvas.polygon(&pts, [20, 20, 20]);
                let inner = [
                    (cx, cy - 0.24 * t),
                    (cx - 0.22 * t, cy + 0.2 * t),
                    (cx + 0.22 * t, cy + 0.2 * t),
                ];
                canvas.polygon(&inner, [40, 90, 45]);
            }
            ObstacleKind::Small => {
                canvas.circle((cx, cy), 0.22 * t, [20, 20, 20], 1.0);
                canvas.circle((cx, cy), 0.16 * t, [150, 150, 145], 1.0);
            }
            ObstacleKind::Fuel => {
                canvas.circle((cx, cy), 0.24 * t, [20, 20, 20], 1.0);
                canvas.circle((cx, cy), 0.18 * t, [240, 140, 30], 1.0);
            }
            ObstacleKind::Minerals => {
                let outer = [
                    (cx, cy - 0.3 * t),
                    (cx + 0.24 * t, cy),
                    (cx, cy + 0.3 * t),
                    (cx - 0.24 * t, cy),
                ];
                canvas.polygon(&outer, [20, 20, 20]);
                let inner = [
                    (cx, cy - 0.22 * t),
                    (cx + 0.16 * t, cy),
                    (cx, cy + 0.22 * t),
                    (cx - 0.16 * t, cy),
                ];
                canvas.polygon(&inner, [80, 220, 230]);
            }
        }
    }

    // Paths: white under red, then an arrow head halfway along every segment.
    let center = |p: Pos| to_pixels(world, f64::from(p.x), f64::from(p.y));
    for &(a, b) in &world.network.segments {
        canvas.line(center(a), center(b), 7.0, [255, 255, 255]);
    }
    for &(a, b) in &world.network.segments {
        canvas.line(center(a), center(b), 4.0, [200, 30, 40]);
    }
    for &(a, b) in &world.network.segments {
        let (pa, pb) = (center(a), center(b));
        let (dx, dy) = ((pb.0 - pa.0) / t, (pb.1 - pa.1) / t);
        let (mx, my) = (
            (pa.0 + pb.0) / 2.0 + dx * 0.12 * t,
            (pa.1 + pb.1) / 2.0 + dy * 0.12 * t,
        );
        let (nx, ny) = (-dy, dx);
        let tip = (mx + dx * 0.14 * t, my + dy * 0.14 * t);
        let left = (
            mx - dx * 0.1 * t + nx * 0.14 * t,
            my - dy * 0.1 * t + ny * 0.14 * t,
        );
        let right = (
            mx - dx * 0.1 * t - nx * 0.14 * t,
            my - dy * 0.1 * t - ny * 0.14 * t,
        );
        canvas.polygon(&[tip, left, right], [130, 0, 10]);
    }
    for s in &world.network.starts {
        let (cx, cy) = center(s.outside);
        let h = 0.22 * t;
        canvas.polygon(
            &[
                (cx - h, cy - h),
                (cx + h, cy - h),
                (cx + h, cy + h),
                (cx - h, cy + h),
            ],
            [200, 30, 40],
        );
    }
    let hub = center(world.hub);
    canvas.circle(hub, 0.34 * t, [20, 20, 20], 1.0);
    canvas.circle(hub, 0.27 * t, [250, 200, 40], 1.0);
    (canvas.width as u32, canvas.height as u32, canvas.data)
}

/// Draws a chevron pointing downhill on ramp tiles.
fn slant_marker(canvas: &mut Canvas, world: &World, p: Pos) -> Option<()> {
    let down = world.tile(p).slant?;
    let (dx, dy) = down.delta();
    let t = f64::from(TILE);
    let (cx, cy) = to_pixels(world, f64::from(p.x), f64::from(p.y));
    // Screen y grows downwards.
    let (ux, uy) = (f64::from(dx), -f64::from(dy));
    let (nx, ny) = (-uy, ux);
    let tip = (cx + ux * 0.3 * t, cy + uy * 0.3 * t);
    for side in [1.0, -1.0] {
        let tail = (cx + nx * side * 0.25 * t, cy + ny * side * 0.25 * t);
        canvas.line(tail, tip, 2.0, [60, 50, 40]);
    }
    Some(())
}

/// A PNG picture of `world`, encoded in memory (writing it is the caller's business: world
/// generation does no I/O).
pub fn render_png(world: &World, terrain_type: &TerrainType) -> Vec<u8> {
    let (width, height, data) = render_rgb(world, terrain_type);
    crate::picture::encode_png(width, height, &data)
}
