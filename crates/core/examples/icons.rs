//! Draws the base game's icons into `mods/core/icons/`: one 32×32 picture per resource, stat,
//! damage type and status effect, built from simple shapes (discs, rings, polygons, strokes)
//! and smoothed by sampling every pixel 4×4 times. The client shows them in descriptions, on
//! status-effect badges and wherever the description tags name them; a mod replaces one by
//! shipping an image of the same name in its own `icons/` folder.
//!
//! `cargo run -p rampart-core --example icons` (from the repository) writes them again.

use std::path::Path;

/// A shape: whether a point (in pixels, 0–32 both ways, y down) is inside.
type Shape = Box<dyn Fn(f64, f64) -> bool>;

const SIZE: u32 = 32;

fn disc(cx: f64, cy: f64, r: f64) -> Shape {
    Box::new(move |x, y| libm::hypot(x - cx, y - cy) <= r)
}

fn ring(cx: f64, cy: f64, r: f64, width: f64) -> Shape {
    Box::new(move |x, y| (libm::hypot(x - cx, y - cy) - r).abs() <= width / 2.0)
}

fn polygon(points: Vec<(f64, f64)>) -> Shape {
    Box::new(move |x, y| {
        // Even-odd crossing test.
        let mut inside = false;
        let n = points.len();
        for i in 0..n {
            let (x1, y1) = points[i];
            let (x2, y2) = points[(i + 1) % n];
            if (y1 > y) != (y2 > y) && x < x1 + (y - y1) * (x2 - x1) / (y2 - y1) {
                inside = !inside;
            }
        }
        inside
    })
}

fn stroke(a: (f64, f64), b: (f64, f64), width: f64) -> Shape {
    Box::new(move |x, y| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let t = (((x - a.0) * dx + (y - a.1) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
        libm::hypot(x - a.0 - t * dx, y - a.1 - t * dy) <= width / 2.0
    })
}

fn star(cx: f64, cy: f64, outer: f64, inner: f64, points: usize, turn: f64) -> Shape {
    let pts = (0..points * 2)
        .map(|i| {
            let r = if i % 2 == 0 { outer } else { inner };
            let a = turn + std::f64::consts::PI * i as f64 / points as f64;
            (cx + r * libm::sin(a), cy - r * libm::cos(a))
        })
        .collect();
    polygon(pts)
}

fn any(shapes: Vec<Shape>) -> Shape {
    Box::new(move |x, y| shapes.iter().any(|s| s(x, y)))
}

fn both(a: Shape, b: Shape) -> Shape {
    Box::new(move |x, y| a(x, y) && b(x, y))
}

fn minus(a: Shape, b: Shape) -> Shape {
    Box::new(move |x, y| a(x, y) && !b(x, y))
}

/// A layer: a shape in a colour; later layers are drawn over earlier ones.
type Layer = (Shape, [u8; 3]);

/// A dark outline around the whole icon keeps it readable on any background.
fn outlined(layers: Vec<Layer>) -> Vec<Layer> {
    let union: Vec<&Shape> = layers.iter().map(|(s, _)| s).collect();
    let inside = |x: f64, y: f64| union.iter().any(|s| s(x, y));
    // Sampled around each point: inside anything within 1.5 px.
    let mut grid = vec![false; 34 * 34];
    for gy in 0..34 {
        for gx in 0..34 {
            let (x, y) = (gx as f64 - 1.0, gy as f64 - 1.0);
            grid[gy * 34 + gx] = inside(x, y);
        }
    }
    let halo: Shape = Box::new(move |x, y| {
        let (gx, gy) = ((x + 1.0).floor(), (y + 1.0).floor());
        (-2i32..=2).any(|dy| {
            (-2i32..=2).any(|dx| {
                let (px, py) = (gx as i32 + dx, gy as i32 + dy);
                (0..34).contains(&px) && (0..34).contains(&py) && grid[(py * 34 + px) as usize]
            })
        })
    });
    let mut out: Vec<Layer> = vec![(halo, [20, 22, 28])];
    out.extend(layers);
    out
}

fn draw(layers: &[Layer]) -> Vec<u8> {
    let mut data = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    for py in 0..SIZE {
        for px in 0..SIZE {
            let (mut rgb, mut alpha) = ([0.0f64; 3], 0.0f64);
            for sy in 0..4 {
                for sx in 0..4 {
                    let (x, y) = (
                        f64::from(px) + (f64::from(sx) + 0.5) / 4.0,
                        f64::from(py) + (f64::from(sy) + 0.5) / 4.0,
                    );
                    if let Some((_, c)) = layers.iter().rev().find(|(s, _)| s(x, y)) {
                        for i in 0..3 {
                            rgb[i] += f64::from(c[i]);
                        }
                        alpha += 1.0;
                    }
                }
            }
            if alpha > 0.0 {
                data.extend(rgb.map(|v| (v / alpha).round() as u8));
                data.push((alpha / 16.0 * 255.0).round() as u8);
            } else {
                data.extend([0, 0, 0, 0]);
            }
        }
    }
    data
}

fn bolt(color: [u8; 3]) -> Vec<Layer> {
    vec![(
        polygon(vec![
            (19.0, 2.0),
            (7.0, 18.0),
            (15.0, 18.0),
            (12.0, 30.0),
            (25.0, 12.0),
            (17.0, 12.0),
        ]),
        color,
    )]
}

fn drop(color: [u8; 3]) -> Vec<Layer> {
    vec![(
        any(vec![
            disc(16.0, 20.0, 8.5),
            polygon(vec![(16.0, 3.0), (8.2, 17.0), (23.8, 17.0)]),
        ]),
        color,
    )]
}

fn shield(color: [u8; 3]) -> Vec<Layer> {
    vec![(
        polygon(vec![
            (16.0, 3.0),
            (27.0, 7.0),
            (26.0, 17.0),
            (16.0, 29.0),
            (6.0, 17.0),
            (5.0, 7.0),
        ]),
        color,
    )]
}

/// Every icon: its name (the file is `<name>.png`) and its layers.
fn icons() -> Vec<(&'static str, Vec<Layer>)> {
    vec![
        ("fuel", drop([240, 200, 60])),
        (
            "materials",
            vec![(
                polygon(
                    (0..6)
                        .map(|i| {
                            let a = std::f64::consts::PI / 3.0 * f64::from(i);
                            (16.0 + 12.0 * libm::cos(a), 16.0 + 12.0 * libm::sin(a))
                        })
                        .collect(),
                ),
                [250, 170, 80],
            )],
        ),
        ("energy", bolt([110, 170, 255])),
        ("hull", shield([230, 80, 70])),
        (
            "range",
            vec![
                (ring(16.0, 16.0, 11.5, 3.0), [170, 185, 220]),
                (ring(16.0, 16.0, 5.5, 3.0), [170, 185, 220]),
                (disc(16.0, 16.0, 1.8), [170, 185, 220]),
            ],
        ),
        (
            "damage",
            vec![(star(16.0, 16.0, 14.0, 6.0, 8, 0.0), [240, 110, 70])],
        ),
        (
            "interval",
            vec![
                (ring(16.0, 16.0, 11.5, 3.0), [210, 210, 225]),
                (stroke((16.0, 16.0), (16.0, 8.0), 2.5), [210, 210, 225]),
                (stroke((16.0, 16.0), (22.0, 19.0), 2.5), [210, 210, 225]),
            ],
        ),
        (
            "duration",
            vec![(
                any(vec![
                    polygon(vec![(7.0, 4.0), (25.0, 4.0), (16.0, 16.0)]),
                    polygon(vec![(16.0, 16.0), (25.0, 28.0), (7.0, 28.0)]),
                ]),
                [210, 185, 140],
            )],
        ),
        (
            "hp",
            vec![(
                any(vec![
                    disc(11.0, 12.0, 6.5),
                    disc(21.0, 12.0, 6.5),
                    polygon(vec![(4.8, 14.0), (27.2, 14.0), (16.0, 28.0)]),
                ]),
                [230, 60, 80],
            )],
        ),
        (
            "radius",
            vec![
                (ring(16.0, 16.0, 11.5, 3.0), [160, 205, 235]),
                (stroke((16.0, 16.0), (27.0, 16.0), 2.5), [160, 205, 235]),
                (disc(16.0, 16.0, 2.5), [160, 205, 235]),
            ],
        ),
        (
            "production",
            vec![(
                any(vec![
                    stroke((16.0, 5.0), (16.0, 27.0), 6.0),
                    stroke((5.0, 16.0), (27.0, 16.0), 6.0),
                ]),
                [110, 230, 110],
            )],
        ),
        (
            "damage-physical",
            vec![(
                polygon(vec![(16.0, 3.0), (29.0, 16.0), (16.0, 29.0), (3.0, 16.0)]),
                [185, 185, 195],
            )],
        ),
        (
            "damage-explosive",
            vec![(star(16.0, 16.0, 14.0, 5.0, 6, 0.3), [255, 150, 50])],
        ),
        ("damage-energy", bolt([90, 230, 255])),
        ("damage-hp_loss", drop([175, 95, 225])),
        (
            "effect-burning",
            vec![
                (
                    any(vec![
                        disc(16.0, 21.0, 8.0),
                        polygon(vec![(17.0, 2.0), (8.3, 19.0), (23.7, 19.0)]),
                    ]),
                    [245, 110, 40],
                ),
                (disc(16.0, 22.0, 4.0), [255, 210, 80]),
            ],
        ),
        (
            "effect-freezing",
            vec![(
                any(vec![
                    stroke((16.0, 3.0), (16.0, 29.0), 3.0),
                    stroke((4.7, 9.5), (27.3, 22.5), 3.0),
                    stroke((4.7, 22.5), (27.3, 9.5), 3.0),
                ]),
                [170, 225, 255],
            )],
        ),
        ("effect-shield", shield([190, 220, 255])),
        (
            "effect-stealth",
            vec![
                (
                    both(disc(16.0, 28.0, 17.0), disc(16.0, 4.0, 17.0)),
                    [170, 170, 180],
                ),
                (disc(16.0, 16.0, 3.5), [60, 60, 70]),
            ],
        ),
        (
            "effect-overclocked",
            vec![(
                minus(
                    any(vec![
                        disc(16.0, 16.0, 9.5),
                        star(16.0, 16.0, 14.0, 9.0, 8, 0.2),
                    ]),
                    disc(16.0, 16.0, 4.0),
                ),
                [245, 215, 70],
            )],
        ),
        (
            "effect-paralyzed",
            vec![(
                any(vec![
                    stroke((5.0, 9.0), (13.0, 16.0), 3.5),
                    stroke((13.0, 16.0), (19.0, 9.0), 3.5),
                    stroke((19.0, 9.0), (27.0, 16.0), 3.5),
                    stroke((5.0, 19.0), (13.0, 26.0), 3.5),
                    stroke((13.0, 26.0), (19.0, 19.0), 3.5),
                    stroke((19.0, 19.0), (27.0, 26.0), 3.5),
                ]),
                [185, 120, 255],
            )],
        ),
        ("effect-electrified", bolt([120, 255, 240])),
    ]
}

fn main() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("mods/core/icons");
    std::fs::create_dir_all(&dir).expect("the icons folder can be made");
    for (name, layers) in icons() {
        let data = draw(&outlined(layers));
        let path = dir.join(format!("{name}.png"));
        let file = std::fs::File::create(&path).expect("the icon can be written");
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), SIZE, SIZE);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().expect("a PNG header");
        writer.write_image_data(&data).expect("the icon's pixels");
        println!("{}", path.display());
    }
}
