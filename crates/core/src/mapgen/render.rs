//! A picture of an act's map, for people: rooms as rectangles coloured by kind (paler while not
//! entered), doors as gaps in the walls, a barrier as a mark in its key's colour on its door (a
//! square for locked, a diamond for guarded, a disc for puzzle), and a key drop as a small disc
//! of the key's colour inside the room that yields it.

use super::{ActMap, BarrierKind, Key, Node};
use crate::content::acts::NodeKind;

/// Pixels per base room unit.
const UNIT: i32 = 56;
/// Margin around the map, in pixels.
const MARGIN: i32 = 24;
/// The gap between two rooms' walls.
const INSET: i32 = 5;

type Rgb = [u8; 3];

const BACKGROUND: Rgb = [30, 30, 36];
const DOOR: Rgb = [200, 200, 190];

/// A key's colour: one of eight distinct hues, by its number.
pub fn key_colour(key: Key) -> Rgb {
    const COLOURS: [Rgb; 8] = [
        [230, 60, 60],
        [60, 140, 240],
        [240, 200, 40],
        [80, 200, 90],
        [200, 90, 220],
        [250, 140, 40],
        [60, 210, 210],
        [255, 130, 170],
    ];
    COLOURS[(key.0 % 8) as usize]
}

/// A kind of room's colour.
pub fn kind_colour(kind: NodeKind) -> Rgb {
    match kind {
        NodeKind::Start => [120, 120, 130],
        NodeKind::Battle => [150, 70, 60],
        NodeKind::Elite => [170, 40, 120],
        NodeKind::Shop => [60, 140, 80],
        NodeKind::Event => [70, 100, 170],
        NodeKind::Rest => [60, 150, 150],
        NodeKind::Boss => [200, 30, 30],
    }
}

struct Canvas {
    width: i32,
    height: i32,
    data: Vec<u8>,
}

impl Canvas {
    fn fill(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: Rgb) {
        for y in y0.max(0)..y1.min(self.height) {
            for x in x0.max(0)..x1.min(self.width) {
                let i = ((y * self.width + x) * 3) as usize;
                self.data[i..i + 3].copy_from_slice(&c);
            }
        }
    }

    /// A shape centred on `(cx, cy)` with radius `r`: `inside(dx, dy)` says which pixels.
    fn shape(&mut self, cx: i32, cy: i32, r: i32, c: Rgb, inside: impl Fn(i32, i32) -> bool) {
        for y in cy - r..=cy + r {
            for x in cx - r..=cx + r {
                if inside(x - cx, y - cy) {
                    self.fill(x, y, x + 1, y + 1, c);
                }
            }
        }
    }
}

/// The map as PNG bytes.
pub fn render_png(map: &ActMap) -> Vec<u8> {
    let nodes = map.nodes();
    let min_x = nodes.iter().map(|n| n.rect.x).min().unwrap_or(0);
    let min_y = nodes.iter().map(|n| n.rect.y).min().unwrap_or(0);
    let max_x = nodes.iter().map(|n| n.rect.x + n.rect.w).max().unwrap_or(1);
    let max_y = nodes.iter().map(|n| n.rect.y + n.rect.h).max().unwrap_or(1);
    let mut canvas = Canvas {
        width: (max_x - min_x) * UNIT + 2 * MARGIN,
        height: (max_y - min_y) * UNIT + 2 * MARGIN,
        data: Vec::new(),
    };
    canvas.data = vec![0; (canvas.width * canvas.height * 3) as usize];
    canvas.fill(0, 0, canvas.width, canvas.height, BACKGROUND);
    let px = |x: i32| (x - min_x) * UNIT + MARGIN;
    let py = |y: i32| (y - min_y) * UNIT + MARGIN;

    for n in nodes {
        let r = n.rect;
        let mut colour = kind_colour(n.kind);
        if n.entered.is_none() {
            colour = colour.map(|v| ((u16::from(v) + 2 * 200) / 3) as u8);
        }
        canvas.fill(
            px(r.x) + INSET,
            py(r.y) + INSET,
            px(r.x + r.w) - INSET,
            py(r.y + r.h) - INSET,
            colour,
        );
        if let Some(key) = n.key_drop {
            let (cx, cy) = (px(r.x) + UNIT / 2, py(r.y) + UNIT / 2);
            canvas.shape(cx, cy, 7, key_colour(key), |dx, dy| dx * dx + dy * dy <= 49);
        }
    }
    for n in nodes {
        if let Some(parent) = n.parent.and_then(|p| map.node(p)) {
            door(&mut canvas, &px, &py, n, parent);
        }
    }
    crate::picture::encode_png(canvas.width as u32, canvas.height as u32, &canvas.data)
}

/// The door between `room` and the room it was entered from, with its barrier's mark.
fn door(
    canvas: &mut Canvas,
    px: &impl Fn(i32) -> i32,
    py: &impl Fn(i32) -> i32,
    room: &Node,
    parent: &Node,
) {
    let Some((x, y)) = room.rect.door_point(&parent.rect) else {
        return;
    };
    let at = |v: f64| (v * f64::from(UNIT)) as i32;
    let (cx, cy) = (px(0) + at(x), py(0) + at(y));
    let half = UNIT / 6;
    canvas.fill(cx - half, cy - half, cx + half, cy + half, DOOR);
    if let Some(barrier) = &room.barrier {
        let c = key_colour(barrier.key);
        let r = UNIT / 7;
        match barrier.kind {
            BarrierKind::Locked => canvas.fill(cx - r, cy - r, cx + r, cy + r, c),
            BarrierKind::Guarded => canvas.shape(cx, cy, r, c, |dx, dy| dx.abs() + dy.abs() <= r),
            BarrierKind::Puzzle => canvas.shape(cx, cy, r, c, |dx, dy| dx * dx + dy * dy <= r * r),
        }
    }
}
