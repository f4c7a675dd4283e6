//! The meaning checks of a terrain file, and the conversion of what was written into a
//! [`TerrainType`]. Every problem points at the text it is about and says what was expected.

use std::collections::BTreeMap;

use super::parse::{Raw, RawFractal, RawModule, RawNode, RawObstacle, RawPart, RawScatter, Sp};
use super::{
    CornerTile, Direction, EDGE_E, EDGE_N, EDGE_S, EDGE_W, FractalNoise, Generator, LookPart,
    LookShape, Module, NE, NW, NoiseExpr, Obstacle, ObstacleKind, PathSolver, SE, SW, ScatterModel,
    Shape, TerrainType, Variants,
};
use crate::diagnostics::{Diagnostic, SourceFile, did_you_mean};

/// Height levels are written as single digits, so there are at most ten.
const HIGHEST_LEVEL: u32 = 9;
/// More octaves than this add nothing visible and only cost time.
const MAX_OCTAVES: u32 = 16;
/// A sanity limit on sample points per tile.
const MAX_TRIES_PER_TILE: u32 = 10_000;

struct Checker<'f> {
    file: &'f SourceFile,
    errors: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn error<T>(&mut self, at: &Sp<T>, message: impl Into<String>, label: &str) -> &mut Diagnostic {
        let d = Diagnostic::error(message)
            .at(self.file, at.start, at.end - at.start)
            .label(label.to_string());
        self.errors.push(d);
        let last = self.errors.len() - 1;
        &mut self.errors[last]
    }

    fn help(&mut self, help: impl Into<String>) {
        if let Some(last) = self.errors.pop() {
            self.errors.push(last.help(help));
        }
    }

    /// A required property that is missing from the whole file.
    fn missing_top(&mut self, property: &str, example: &str) {
        self.errors.push(
            Diagnostic::error(format!("the file has no `{property}`"))
                .at(self.file, 0, 0)
                .label(format!("expected `{property}` somewhere in this file"))
                .help(format!("add a line such as `{example}`")),
        );
    }

    /// A required property missing from the block of `owner`.
    fn missing<T>(
        &mut self,
        owner: &Sp<String>,
        what: &str,
        property: &str,
        example: &str,
    ) -> Option<T> {
        self.error(
            owner,
            format!("{what} `{}` has no `{property}`", owner.value),
            &format!("`{property}` expected in this block"),
        );
        self.help(format!("add `{example}` inside the block"));
        None
    }

    /// Splits a key string into characters, reporting repeated keys.
    fn keys(&mut self, keys: &Sp<String>, what: &str) -> Vec<char> {
        let mut out: Vec<char> = Vec::new();
        for (i, c) in keys.value.char_indices() {
            if out.contains(&c) {
                let at = Sp {
                    value: (),
                    start: keys.start + i,
                    end: keys.start + i + c.len_utf8(),
                };
                self.error(&at, format!("{what} `{c}` is listed twice"), "repeated");
            } else {
                out.push(c);
            }
        }
        out
    }

    /// The free and blocked keys of one kind (surfaces or edge types); the free ones are
    /// required, and no key may be both.
    fn key_sets(
        &mut self,
        free: &Option<Sp<String>>,
        blocked: &Option<Sp<String>>,
        what: &str,
        example: &str,
    ) -> (Vec<char>, Vec<char>) {
        let free_keys = match free {
            Some(k) => self.keys(k, what),
            None => {
                let property = example.split(' ').next().unwrap_or(example);
                self.missing_top(property, example);
                Vec::new()
            }
        };
        let blocked_keys = match blocked {
            Some(k) => {
                self.disjoint(&free_keys, k, what);
                self.keys(k, what)
            }
            None => Vec::new(),
        };
        (free_keys, blocked_keys)
    }

    /// Reports keys of `second` that also appear in `first`.
    fn disjoint(&mut self, first: &[char], second: &Sp<String>, what: &str) {
        for (i, c) in second.value.char_indices() {
            if first.contains(&c) {
                let at = Sp {
                    value: (),
                    start: second.start + i,
                    end: second.start + i + 1,
                };
                self.error(
                    &at,
                    format!("{what} `{c}` is declared both free and blocked"),
                    "also free",
                );
            }
        }
    }
}

/// The position of the character at `index` inside a spanned string.
fn char_at<T>(s: &Sp<T>, index: usize) -> Sp<()> {
    Sp {
        value: (),
        start: s.start + index,
        end: s.start + index + 1,
    }
}

/// A `surface_colors` or `surface_names` block as a map: each key a declared surface, given once.
fn per_surface<T: Clone>(
    c: &mut Checker<'_>,
    surfaces: &[char],
    entries: &[(Sp<char>, T)],
    what: &str,
) -> BTreeMap<char, T> {
    let mut map = BTreeMap::new();
    for (key, value) in entries {
        if !surfaces.contains(&key.value) {
            c.error(
                key,
                format!("surface `{}` is not declared", key.value),
                "unknown surface",
            );
            c.help("declare it in `free_surfaces` or `blocked_surfaces`");
        } else if map.insert(key.value, value.clone()).is_some() {
            c.error(
                key,
                format!("surface `{}` has two {what}s", key.value),
                &format!("second {what}"),
            );
        }
    }
    map
}

pub(super) fn build(id: &str, file: &SourceFile, raw: Raw) -> Result<TerrainType, Vec<Diagnostic>> {
    let mut c = Checker {
        file,
        errors: Vec::new(),
    };
    let display_name = raw.display_name.as_ref().map(|d| d.value.clone());
    if display_name.is_none() {
        c.missing_top("display_name", "display_name Green_Hills");
    }
    let (free_surfaces, blocked_surfaces) = c.key_sets(
        &raw.free_surfaces,
        &raw.blocked_surfaces,
        "surface",
        "free_surfaces G",
    );
    let (free_edges, blocked_edges) = c.key_sets(
        &raw.free_edges,
        &raw.blocked_edges,
        "edge type",
        "free_edges A",
    );
    let max_height = match &raw.max_height {
        Some(h) if h.value > HIGHEST_LEVEL => {
            c.error(
                h,
                format!("max_height {} is too high", h.value),
                "at most 9",
            );
            c.help("heights are written as single digits, so levels run from 0 to at most 9");
            HIGHEST_LEVEL as u8
        }
        Some(h) => h.value as u8,
        None => {
            c.missing_top("max_height", "max_height 2");
            // Check the rest against the highest possible level, so this is the only error.
            HIGHEST_LEVEL as u8
        }
    };
    let surfaces: Vec<char> = free_surfaces
        .iter()
        .chain(&blocked_surfaces)
        .copied()
        .collect();
    let edges: Vec<char> = free_edges.iter().chain(&blocked_edges).copied().collect();

    let surface_colors = per_surface(&mut c, &surfaces, &raw.surface_colors, "colour");
    let surface_names = per_surface(&mut c, &surfaces, &raw.surface_names, "name");
    let water_surfaces = match &raw.water_surfaces {
        Some(keys) => {
            let water = c.keys(keys, "water surface");
            for (i, key) in keys.value.char_indices() {
                if !surfaces.contains(&key) {
                    c.error(
                        &char_at(keys, i),
                        format!("surface `{key}` is not declared"),
                        "unknown surface",
                    );
                    c.help("declare it in `free_surfaces` or `blocked_surfaces`");
                }
            }
            water
        }
        None => Vec::new(),
    };

    let ctx = Keys {
        surfaces: &surfaces,
        edges: &edges,
        free_edges: &free_edges,
        max_height,
    };
    let generator = generator(
        &mut c,
        &raw,
        &free_surfaces,
        &blocked_surfaces,
        &blocked_edges,
    );
    let modules = match &raw.modules {
        Some(list) => {
            if list.value.is_empty() {
                c.error(list, "`modules` has no module", "empty");
                c.help("add at least one `* Name { weight 1 shape { ... } }`");
            }
            check_unique(&mut c, list.value.iter().map(|m| &m.name), "module");
            list.value
                .iter()
                .filter_map(|m| module(&mut c, &ctx, m))
                .collect()
        }
        // Only the wave function collapse needs modules; after an unknown generator, saying that
        // they are missing would only repeat that error.
        None if generator != Some(Generator::Wfc) => Vec::new(),
        None => {
            c.missing_top(
                "modules",
                "modules { * Flat { weight 1 variants 0 shape { ... } } }",
            );
            Vec::new()
        }
    };

    check_unique(&mut c, raw.obstacles.iter().map(|o| &o.name), "obstacle");
    let obstacles: Vec<Obstacle> = raw
        .obstacles
        .iter()
        .filter_map(|o| obstacle(&mut c, &surfaces, &free_surfaces, raw.obstacles.len(), o))
        .collect();
    let names: Vec<&str> = raw
        .obstacles
        .iter()
        .map(|o| o.name.value.as_str())
        .collect();
    let phases = phases(&mut c, &raw, &names);

    check_unique(&mut c, raw.scatter.iter().map(|s| &s.name), "scatter model");
    let scatter = raw
        .scatter
        .iter()
        .filter_map(|s| scatter_model(&mut c, &names, s))
        .collect();

    let paths = path_solver(&mut c, &raw);
    if !c.errors.is_empty() {
        return Err(c.errors);
    }
    Ok(TerrainType {
        id: id.to_string(),
        display_name: display_name.unwrap_or_default(),
        generator: generator.unwrap_or_default(),
        paths,
        build_near_paths: raw.build_near_paths.unwrap_or(false),
        free_surfaces,
        blocked_surfaces,
        free_edges,
        blocked_edges,
        max_height,
        surface_colors,
        surface_names,
        water_surfaces,
        modules,
        obstacles,
        phases,
        scatter,
    })
}

/// The `generator` property, and what the layered generator needs of the rest of the file: three
/// free surfaces (plains, bridge, fort), three blocked ones (river, sea, mountain), a blocked edge
/// type for the shores and cliffs, and a level above 0 for the mountains. `None` for an unknown
/// generator (reported).
fn generator(
    c: &mut Checker<'_>,
    raw: &Raw,
    free: &[char],
    blocked: &[char],
    blocked_edges: &[char],
) -> Option<Generator> {
    let Some(g) = &raw.generator else {
        return Some(Generator::Wfc);
    };
    match g.value.as_str() {
        "wfc" => Some(Generator::Wfc),
        "layered" => {
            let too_few = [
                (free.len() < 3, "three free surfaces (plains, bridge, fort)"),
                (
                    blocked.len() < 3,
                    "three blocked surfaces (river, sea, mountain)",
                ),
                (
                    blocked_edges.is_empty(),
                    "a blocked edge type (shores and cliffs)",
                ),
                (
                    raw.max_height.as_ref().is_some_and(|h| h.value == 0),
                    "`max_height` of at least 1 (mountains stand above the plains)",
                ),
            ];
            for (_, needs) in too_few.iter().filter(|(short, _)| *short) {
                c.error(
                    g,
                    format!("the layered generator needs {needs}"),
                    "layered here",
                );
                c.help(
                    "the first three free surfaces are plains, bridge and fort, the first three \
                     blocked ones river, sea and mountain",
                );
            }
            Some(Generator::Layered)
        }
        other => {
            c.error(
                g,
                format!("unknown generator `{other}`"),
                "expected `wfc` or `layered`",
            );
            if let Some(hint) = did_you_mean(other, ["wfc", "layered"]) {
                c.help(hint);
            }
            None
        }
    }
}

/// The `paths` property: annealed (the default) or lattice.
fn path_solver(c: &mut Checker<'_>, raw: &Raw) -> PathSolver {
    let Some(p) = &raw.paths else {
        return PathSolver::Annealed;
    };
    match p.value.as_str() {
        "annealed" => PathSolver::Annealed,
        "lattice" => PathSolver::Lattice,
        other => {
            c.error(
                p,
                format!("unknown path solver `{other}`"),
                "expected `annealed` or `lattice`",
            );
            if let Some(hint) = did_you_mean(other, ["annealed", "lattice"]) {
                c.help(hint);
            }
            PathSolver::Annealed
        }
    }
}

fn check_unique<'a>(c: &mut Checker<'_>, names: impl Iterator<Item = &'a Sp<String>>, what: &str) {
    let mut seen: Vec<&str> = Vec::new();
    for name in names {
        if seen.contains(&name.value.as_str()) {
            c.error(
                name,
                format!("there are two {what}s called `{}`", name.value),
                "second definition",
            );
        } else {
            seen.push(&name.value);
        }
    }
}

/// What the module checks need to know about the rest of the file.
struct Keys<'a> {
    surfaces: &'a [char],
    edges: &'a [char],
    free_edges: &'a [char],
    max_height: u8,
}

fn module(c: &mut Checker<'_>, keys: &Keys<'_>, m: &RawModule) -> Option<Module> {
    let weight = match &m.weight {
        Some(w) if w.value > 0.0 => Some(w.value),
        Some(w) => {
            c.error(
                w,
                format!("weight {} is not positive", w.value),
                "must be above 0",
            );
            None
        }
        None => c.missing(&m.name, "module", "weight", "weight 1"),
    };
    let variants = match &m.variants {
        Some(v) => {
            let parsed = parse_variants(&v.value);
            if parsed.is_none() {
                c.error(
                    v,
                    format!("`{}` is not a valid variants value", v.value),
                    "invalid variants",
                );
                c.help("write 0, 2 or 4 (rotations), optionally with f for reflection: 0, 2, 4, f, f2, f4");
            }
            parsed
        }
        None => Some(Variants {
            rotations: 1,
            reflect: false,
        }),
    };
    let shape = match &m.shape {
        Some((corners, edge_keys)) => shape(c, keys, corners, edge_keys),
        None => c.missing(
            &m.name,
            "module",
            "shape",
            "shape { G0x A G0x  A A  G0x A G0x }",
        ),
    };
    let (weight, variants, shape) = (weight?, variants?, shape?);
    let heights = module_heights(c, keys.max_height, m, &shape)?;
    Some(Module {
        name: m.name.value.clone(),
        weight,
        variants,
        height_offset: m.height_offset.as_ref().map_or(0.0, |h| h.value),
        collision: m.collision.as_ref().map(|p| p.value.clone()),
        shape,
        heights,
    })
}

fn parse_variants(text: &str) -> Option<Variants> {
    let mut rotations = None;
    let mut reflect = false;
    for ch in text.chars() {
        match ch {
            'f' | 'F' if !reflect => reflect = true,
            '0' | '2' | '4' if rotations.is_none() => {
                rotations = Some(if ch == '0' { 1 } else { ch as u8 - b'0' })
            }
            _ => return None,
        }
    }
    Some(Variants {
        rotations: rotations.unwrap_or(1),
        reflect,
    })
}

fn shape(
    c: &mut Checker<'_>,
    keys: &Keys<'_>,
    corners: &[Sp<String>],
    edge_keys: &[Sp<char>],
) -> Option<Shape> {
    let before = c.errors.len();
    let mut tiles = [CornerTile {
        surface: '?',
        height: 0,
        slant: None,
    }; 4];
    for (i, corner) in corners.iter().enumerate().take(4) {
        let chars: Vec<char> = corner.value.chars().collect();
        let (surface, digit, slant) = (chars[0], chars[1], chars[2]);
        if !keys.surfaces.contains(&surface) {
            c.error(
                &char_at(corner, 0),
                format!("surface `{surface}` is not declared"),
                "unknown surface",
            );
            c.help("declare it in `free_surfaces` or `blocked_surfaces`");
        }
        let height = digit as u8 - b'0';
        if height > keys.max_height {
            c.error(
                &char_at(corner, 1),
                format!("height {height} is above max_height {}", keys.max_height),
                "too high",
            );
        }
        tiles[i] = CornerTile {
            surface,
            height,
            slant: match slant {
                '^' => Some(Direction::North),
                'v' => Some(Direction::South),
                '<' => Some(Direction::West),
                '>' => Some(Direction::East),
                _ => None,
            },
        };
    }
    let mut edges = ['?'; 4];
    for (i, e) in edge_keys.iter().enumerate().take(4) {
        if !keys.edges.contains(&e.value) {
            c.error(
                e,
                format!("edge type `{}` is not declared", e.value),
                "unknown edge type",
            );
            c.help("declare it in `free_edges` or `blocked_edges`");
        }
        edges[i] = e.value;
    }
    if c.errors.len() > before {
        return None;
    }
    // A free edge is one a path may cross, so the two tiles must meet at the same height along it.
    let pairs = [
        (EDGE_N, NW, NE, Direction::East),
        (EDGE_W, NW, SW, Direction::South),
        (EDGE_E, NE, SE, Direction::South),
        (EDGE_S, SW, SE, Direction::East),
    ];
    for (edge, a, b, towards_b) in pairs {
        if !keys.free_edges.contains(&edges[edge]) {
            continue;
        }
        let (ta, tb) = (tiles[a], tiles[b]);
        if side_profile(ta, towards_b) != side_profile(tb, towards_b.opposite()) {
            let at = &edge_keys[edge];
            c.error(
                at,
                format!(
                    "free edge `{}` joins tiles that do not meet at the same height",
                    at.value
                ),
                "paths could cross here",
            );
            c.help(format!(
                "the tiles on either side ({}, {}) have different heights at their shared side; use a blocked edge type here",
                corners[a].value, corners[b].value
            ));
        }
    }
    if c.errors.len() > before {
        return None;
    }
    Some(Shape {
        corners: tiles,
        edges,
    })
}

/// The height along one side of a tile: a level, or a ramp falling towards a direction.
#[derive(PartialEq, Eq, Debug)]
enum Profile {
    Level(i32),
    Ramp { high: i32, downhill: Direction },
}

/// What side `side` of a tile looks like (the semantics of ramps are on [`CornerTile`]).
fn side_profile(t: CornerTile, side: Direction) -> Profile {
    let h = i32::from(t.height);
    match t.slant {
        None => Profile::Level(h),
        Some(down) if down == side => Profile::Level(h - 1),
        Some(down) if down == side.opposite() => Profile::Level(h),
        Some(down) => Profile::Ramp {
            high: h,
            downhill: down,
        },
    }
}

/// The base levels a module may sit at: the given `heights`, checked, or every level it fits.
fn module_heights(
    c: &mut Checker<'_>,
    max_height: u8,
    m: &RawModule,
    shape: &Shape,
) -> Option<Vec<u8>> {
    let top = shape.corners.iter().map(|t| t.height).max().unwrap_or(0);
    // A ramp at level h descends to h - 1, so it needs h >= 1.
    let lowest_ramp = shape
        .corners
        .iter()
        .filter(|t| t.slant.is_some())
        .map(|t| t.height)
        .min();
    let fits = |base: u8| base + top <= max_height && lowest_ramp.is_none_or(|r| base + r >= 1);
    match &m.heights {
        Some(digits) => {
            let mut out = Vec::new();
            for (i, ch) in digits.value.char_indices() {
                let base = ch as u8 - b'0';
                if out.contains(&base) {
                    c.error(
                        &char_at(digits, i),
                        format!("height {base} is listed twice"),
                        "repeated",
                    );
                } else if !fits(base) {
                    c.error(
                        &char_at(digits, i),
                        format!("module `{}` does not fit at height {base}", m.name.value),
                        "invalid height",
                    );
                    c.help(format!(
                        "its tiles reach {top} levels above its base and max_height is {max_height}; a ramp needs a level below it"
                    ));
                } else {
                    out.push(base);
                }
            }
            (out.len() == digits.value.len()).then_some(out)
        }
        None => {
            let out: Vec<u8> = (0..=max_height).filter(|&b| fits(b)).collect();
            if out.is_empty() {
                c.error(
                    &m.name,
                    format!(
                        "module `{}` fits at no height between 0 and {max_height}",
                        m.name.value
                    ),
                    "never usable",
                );
            }
            (!out.is_empty()).then_some(out)
        }
    }
}

fn obstacle(
    c: &mut Checker<'_>,
    surfaces: &[char],
    free_surfaces: &[char],
    count: usize,
    o: &RawObstacle,
) -> Option<Obstacle> {
    let before = c.errors.len();
    let kind = match &o.kind {
        Some(k) => {
            let kind = match k.value.as_str() {
                "l" | "large" => Some(ObstacleKind::Large),
                "s" | "small" => Some(ObstacleKind::Small),
                "f" | "fuel" => Some(ObstacleKind::Fuel),
                "m" | "minerals" => Some(ObstacleKind::Minerals),
                _ => None,
            };
            if kind.is_none() {
                c.error(
                    k,
                    format!("unknown obstacle type `{}`", k.value),
                    "invalid type",
                );
                c.help("one of: l, large, s, small, f, fuel, m, minerals");
            }
            kind
        }
        None => c.missing(&o.name, "obstacle", "type", "type small"),
    };
    let base_probability = match &o.base_probability {
        Some(p) if (0.0..=1.0).contains(&p.value) => Some(p.value),
        Some(p) => {
            c.error(
                p,
                format!("base_probability {} is not a probability", p.value),
                "between 0 and 1",
            );
            None
        }
        None => c.missing(
            &o.name,
            "obstacle",
            "base_probability",
            "base_probability 0.1",
        ),
    };
    if let (Some(min), Some(max)) = (&o.min, &o.max)
        && min.value > max.value
    {
        c.error(
            min,
            format!("min {} is above max {}", min.value, max.value),
            "min must be ≤ max",
        );
    }
    let valid_surfaces = o.valid_surfaces.as_ref().map(|k| {
        let keys = c.keys(k, "surface");
        for (i, s) in k.value.char_indices() {
            if !surfaces.contains(&s) {
                c.error(
                    &char_at(k, i),
                    format!("surface `{s}` is not declared"),
                    "unknown surface",
                );
            } else if !free_surfaces.contains(&s) {
                c.error(
                    &char_at(k, i),
                    format!("surface `{s}` is blocked"),
                    "blocked surface",
                );
                c.help("obstacles can only stand on free surfaces");
            }
        }
        keys
    });
    if o.affinities.len() > count {
        c.error(
            &o.affinities[count],
            format!("more affinities than obstacles ({count})"),
            "no obstacle for this entry",
        );
        c.help("affinities list one number per obstacle, in the order the obstacles are declared");
    }
    if c.errors.len() > before {
        return None;
    }
    Some(Obstacle {
        name: o.name.value.clone(),
        kind: kind?,
        min: o.min.as_ref().map_or(0, |m| m.value),
        max: o.max.as_ref().map(|m| m.value),
        base_probability: base_probability?,
        valid_surfaces,
        on_slants: o.on_slants.unwrap_or(true),
        affinities: o.affinities.iter().map(|a| a.value).collect(),
    })
}

fn phases(c: &mut Checker<'_>, raw: &Raw, names: &[&str]) -> Vec<Vec<usize>> {
    let Some(phases) = &raw.phases else {
        if let Some(first) = raw.obstacles.first() {
            c.error(
                &first.name,
                "obstacles are declared but there is no `phases` block",
                "never placed",
            );
            c.help("add `phases { ... }` inside `obstacles`, one line of obstacle names per phase");
        }
        return Vec::new();
    };
    let mut placed: Vec<Option<usize>> = vec![None; names.len()];
    let mut out = Vec::new();
    for line in &phases.value {
        let mut phase = Vec::new();
        for name in line {
            match names.iter().position(|n| *n == name.value) {
                Some(i) if placed[i].is_some() => {
                    c.error(
                        name,
                        format!("`{}` is in more than one phase", name.value),
                        "again here",
                    );
                }
                Some(i) => {
                    placed[i] = Some(out.len());
                    phase.push(i);
                }
                None => {
                    c.error(
                        name,
                        format!("no obstacle is called `{}`", name.value),
                        "unknown obstacle",
                    );
                    if let Some(hint) = did_you_mean(&name.value, names.iter().copied()) {
                        c.help(hint);
                    }
                }
            }
        }
        out.push(phase);
    }
    for (o, p) in raw.obstacles.iter().zip(&placed) {
        if p.is_none() {
            c.error(
                &o.name,
                format!("obstacle `{}` is in no phase", o.name.value),
                "never placed",
            );
            c.help("add its name to a line of `phases`");
        }
    }
    out
}

fn scatter_model(c: &mut Checker<'_>, obstacles: &[&str], s: &RawScatter) -> Option<ScatterModel> {
    let before = c.errors.len();
    let prefab = match &s.prefab {
        Some(p) => Some(p.value.clone()),
        None => c.missing(&s.name, "scatter model", "prefab", "prefab Rocks"),
    };
    let tries = match &s.tries_per_tile {
        Some(t) if t.value == 0 || t.value > MAX_TRIES_PER_TILE => {
            c.error(
                t,
                format!("tries_per_tile {} is out of range", t.value),
                "between 1 and 10000",
            );
            None
        }
        Some(t) => Some(t.value),
        None => c.missing(
            &s.name,
            "scatter model",
            "tries_per_tile",
            "tries_per_tile 20",
        ),
    };
    let mut non_negative = |v: &Option<Sp<f64>>, property: &str, required: bool| match v {
        Some(x) if x.value < 0.0 => {
            c.error(
                x,
                format!("{property} {} is negative", x.value),
                "must be 0 or more",
            );
            None
        }
        Some(x) => Some(x.value),
        None if required => c.missing(
            &s.name,
            "scatter model",
            property,
            &format!("{property} 0.1"),
        ),
        None => Some(0.0),
    };
    let placement_radius = non_negative(&s.placement_radius, "placement_radius", true);
    let persistent_radius = non_negative(&s.persistent_radius, "persistent_radius", true);
    let angle_spread = non_negative(&s.angle_spread, "angle_spread", false);
    let value = match &s.value {
        Some(nodes) => Some(noise_nodes(c, obstacles, nodes)),
        None => c.missing(&s.name, "scatter model", "value", "value { const 1 }"),
    };
    let look: Vec<Option<LookPart>> = s.look.iter().flatten().map(|p| look_part(c, p)).collect();
    if c.errors.len() > before {
        return None;
    }
    Some(ScatterModel {
        name: s.name.value.clone(),
        prefab: prefab?,
        tries_per_tile: tries?,
        placement_radius: placement_radius?,
        persistent_radius: persistent_radius?,
        size_gain: s.size_gain.as_ref().map_or(0.0, |x| x.value),
        radius_gain: s.radius_gain.as_ref().map_or(0.0, |x| x.value),
        angle_spread: angle_spread?,
        value_threshold: s.value_threshold.as_ref().map_or(0.0, |x| x.value),
        value: value?,
        look: look.into_iter().collect::<Option<_>>()?,
    })
}

/// The largest size of a look's part, in tiles: a scatter model decorates one tile.
const MAX_PART_SIZE: f64 = 4.0;

fn look_part(c: &mut Checker<'_>, p: &RawPart) -> Option<LookPart> {
    let shape = LookShape::ALL
        .iter()
        .find(|(name, _)| *name == p.shape.value)
        .map(|&(_, shape)| shape);
    if shape.is_none() {
        c.error(
            &p.shape,
            format!("unknown shape `{}`", p.shape.value),
            "expected box, sphere, cylinder, cone or capsule",
        );
        if let Some(hint) = did_you_mean(&p.shape.value, LookShape::ALL.iter().map(|(n, _)| *n)) {
            c.help(hint);
        }
    }
    let size = match &p.size {
        Some(size) if size.value.iter().any(|x| *x <= 0.0 || *x > MAX_PART_SIZE) => {
            c.error(
                size,
                "a part's size is out of range",
                "each between 0 (not included) and 4",
            );
            None
        }
        Some(size) => Some(size.value),
        None => {
            c.error(
                &p.shape,
                "the part has no `size`",
                "`size` expected after its colour",
            );
            c.help("write its width, height and depth in tiles: `size 0.2 0.4 0.2`");
            None
        }
    };
    let glow = match &p.glow {
        Some(g) if !(0.0..=1.0).contains(&g.value) => {
            c.error(
                g,
                format!("glow {} is out of range", g.value),
                "between 0 and 1",
            );
            None
        }
        g => Some(g.as_ref().map_or(0.0, |g| g.value)),
    };
    Some(LookPart {
        shape: shape?,
        color: p.color,
        size: size?,
        at: p.at.as_ref().map_or([0.0; 3], |a| a.value),
        turn: p.turn.as_ref().map_or([0.0; 3], |t| t.value),
        glow: glow?,
    })
}

fn noise_nodes(c: &mut Checker<'_>, obstacles: &[&str], nodes: &[RawNode]) -> Vec<NoiseExpr> {
    nodes
        .iter()
        .filter_map(|n| noise_node(c, obstacles, n))
        .collect()
}

fn noise_node(c: &mut Checker<'_>, obstacles: &[&str], node: &RawNode) -> Option<NoiseExpr> {
    Some(match node {
        RawNode::Const(v) => NoiseExpr::Const(*v),
        RawNode::Sum(children) => NoiseExpr::Sum(noise_nodes(c, obstacles, children)),
        RawNode::Mult(m, children) => NoiseExpr::Mult(*m, noise_nodes(c, obstacles, children)),
        RawNode::Clamp(lo, hi, children) => {
            if lo.value > hi.value {
                c.error(
                    lo,
                    format!(
                        "clamp minimum {} is above its maximum {}",
                        lo.value, hi.value
                    ),
                    "min > max",
                );
            }
            NoiseExpr::Clamp(lo.value, hi.value, noise_nodes(c, obstacles, children))
        }
        RawNode::Path(inside, outside) => NoiseExpr::Path {
            inside: *inside,
            outside: *outside,
        },
        RawNode::Obstacle(name, inside, outside) => {
            match obstacles.iter().position(|o| *o == name.value) {
                Some(obstacle) => NoiseExpr::Obstacle {
                    obstacle,
                    inside: *inside,
                    outside: *outside,
                },
                None => {
                    c.error(
                        name,
                        format!("no obstacle is called `{}`", name.value),
                        "unknown obstacle",
                    );
                    if let Some(hint) = did_you_mean(&name.value, obstacles.iter().copied()) {
                        c.help(hint);
                    }
                    return None;
                }
            }
        }
        RawNode::Height => NoiseExpr::Height,
        RawNode::Fractal(f) => NoiseExpr::Fractal(fractal(c, f)?),
    })
}

fn fractal(c: &mut Checker<'_>, f: &Sp<RawFractal>) -> Option<FractalNoise> {
    let owner = f.with("fractal_noise".to_string());
    let octaves = match &f.value.octaves {
        Some(o) if o.value == 0 || o.value > MAX_OCTAVES => {
            c.error(
                o,
                format!("octaves {} is out of range", o.value),
                "between 1 and 16",
            );
            None
        }
        Some(o) => Some(o.value),
        None => c.missing(&owner, "noise", "octaves", "octaves 2"),
    };
    let mut positive = |v: &Option<Sp<f64>>, property: &str, default: f64| match v {
        Some(x) if x.value <= 0.0 => {
            c.error(
                x,
                format!("{property} {} is not positive", x.value),
                "must be above 0",
            );
            None
        }
        Some(x) => Some(x.value),
        None => Some(default),
    };
    let amplitude_mult = positive(&f.value.amplitude_mult, "amplitude_mult", 0.5);
    let frequency_mult = positive(&f.value.frequency_mult, "frequency_mult", 2.0);
    let base_amplitude = match &f.value.base_amplitude {
        Some(a) => Some(a.value),
        None => c.missing(&owner, "noise", "base_amplitude", "base_amplitude 1"),
    };
    let base_frequency = match &f.value.base_frequency {
        Some(a) => Some(a.value),
        None => c.missing(&owner, "noise", "base_frequency", "base_frequency 0.5"),
    };
    Some(FractalNoise {
        octaves: octaves?,
        bias: f.value.bias.as_ref().map_or(0.0, |b| b.value),
        base_amplitude: base_amplitude?,
        amplitude_mult: amplitude_mult?,
        base_frequency: base_frequency?,
        frequency_mult: frequency_mult?,
    })
}
