//! Reading a `.terrain` file: pest turns the text into a tree; this module turns the tree into
//! [`Raw`] values that remember where each came from, reporting syntax errors, duplicated
//! properties and malformed numbers. `check.rs` then checks meaning and builds the
//! [`TerrainType`].

use pest::Parser as _;
use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pair;
use pest_derive::Parser;

use super::TerrainType;
use super::check;
use crate::diagnostics::{Diagnostic, SourceFile};

#[derive(Parser)]
#[grammar = "../grammar/terrain.pest"]
struct TerrainParser;

/// Deepest brace nesting accepted. Real files need five or six levels; the limit keeps a
/// malicious file from exhausting the stack of the recursive-descent parser.
const MAX_NESTING: usize = 48;

/// Parses and checks one terrain file. `id` is the terrain type's id (`mod_id:file_stem`).
///
/// Every problem found is returned, each pointing at the offending text; syntax errors stop at
/// the first one (nothing after it can be trusted).
pub fn parse_terrain(id: &str, file: &SourceFile) -> Result<TerrainType, Vec<Diagnostic>> {
    let raw = read_raw(file)?;
    check::build(id, file, raw)
}

/// A value and the byte range it was written at.
#[derive(Clone, Debug)]
pub(super) struct Sp<T> {
    pub value: T,
    pub start: usize,
    pub end: usize,
}

impl<T> Sp<T> {
    fn new(value: T, pair: &Pair<'_, Rule>) -> Self {
        Sp {
            value,
            start: pair.as_span().start(),
            end: pair.as_span().end(),
        }
    }

    /// The same place, another value.
    pub fn with<U>(&self, value: U) -> Sp<U> {
        Sp {
            value,
            start: self.start,
            end: self.end,
        }
    }
}

/// The whole file as written.
#[derive(Debug, Default)]
pub(super) struct Raw {
    pub display_name: Option<Sp<String>>,
    pub generator: Option<Sp<String>>,
    pub paths: Option<Sp<String>>,
    pub build_near_paths: Option<bool>,
    pub free_surfaces: Option<Sp<String>>,
    pub blocked_surfaces: Option<Sp<String>>,
    pub free_edges: Option<Sp<String>>,
    pub blocked_edges: Option<Sp<String>>,
    pub max_height: Option<Sp<u32>>,
    pub surface_colors: Vec<(Sp<char>, [u8; 3])>,
    pub surface_names: Vec<(Sp<char>, String)>,
    pub water_surfaces: Option<Sp<String>>,
    pub modules: Option<Sp<Vec<RawModule>>>,
    pub phases: Option<Sp<Vec<Vec<Sp<String>>>>>,
    pub obstacles: Vec<RawObstacle>,
    pub scatter: Vec<RawScatter>,
}

#[derive(Debug)]
pub(super) struct RawModule {
    pub name: Sp<String>,
    pub weight: Option<Sp<f64>>,
    pub variants: Option<Sp<String>>,
    pub height_offset: Option<Sp<f64>>,
    pub collision: Option<Sp<String>>,
    pub shape: Option<RawShape>,
    pub heights: Option<Sp<String>>,
}

/// Four corners (`G0x`) then four edges (N, W, E, S), as written.
pub(super) type RawShape = (Vec<Sp<String>>, Vec<Sp<char>>);

#[derive(Debug)]
pub(super) struct RawObstacle {
    pub name: Sp<String>,
    pub kind: Option<Sp<String>>,
    pub min: Option<Sp<u32>>,
    pub max: Option<Sp<u32>>,
    pub base_probability: Option<Sp<f64>>,
    pub valid_surfaces: Option<Sp<String>>,
    pub on_slants: Option<bool>,
    pub affinities: Vec<Sp<f64>>,
}

#[derive(Debug)]
pub(super) struct RawScatter {
    pub name: Sp<String>,
    pub prefab: Option<Sp<String>>,
    pub tries_per_tile: Option<Sp<u32>>,
    pub placement_radius: Option<Sp<f64>>,
    pub persistent_radius: Option<Sp<f64>>,
    pub size_gain: Option<Sp<f64>>,
    pub radius_gain: Option<Sp<f64>>,
    pub angle_spread: Option<Sp<f64>>,
    pub value_threshold: Option<Sp<f64>>,
    pub value: Option<Vec<RawNode>>,
    pub look: Option<Vec<RawPart>>,
}

/// One part of a scatter model's `look`, as written.
#[derive(Debug)]
pub(super) struct RawPart {
    pub shape: Sp<String>,
    pub color: [u8; 3],
    pub size: Option<Sp<[f64; 3]>>,
    pub at: Option<Sp<[f64; 3]>>,
    pub turn: Option<Sp<[f64; 3]>>,
    pub glow: Option<Sp<f64>>,
}

#[derive(Debug)]
pub(super) enum RawNode {
    Const(f64),
    Sum(Vec<RawNode>),
    Mult(f64, Vec<RawNode>),
    Clamp(Sp<f64>, Sp<f64>, Vec<RawNode>),
    Path(f64, f64),
    Obstacle(Sp<String>, f64, f64),
    Height,
    Fractal(Sp<RawFractal>),
}

#[derive(Debug, Default)]
pub(super) struct RawFractal {
    pub octaves: Option<Sp<u32>>,
    pub bias: Option<Sp<f64>>,
    pub base_amplitude: Option<Sp<f64>>,
    pub amplitude_mult: Option<Sp<f64>>,
    pub base_frequency: Option<Sp<f64>>,
    pub frequency_mult: Option<Sp<f64>>,
}

fn read_raw(file: &SourceFile) -> Result<Raw, Vec<Diagnostic>> {
    let text: &str = &file.text;
    check_nesting(file)?;
    let mut pairs =
        TerrainParser::parse(Rule::file, text).map_err(|e| vec![syntax_error(file, &e)])?;
    let mut reader = Reader {
        file,
        errors: Vec::new(),
    };
    let raw = match pairs.next() {
        Some(top) => reader.file(top),
        None => Raw::default(),
    };
    if reader.errors.is_empty() {
        Ok(raw)
    } else {
        Err(reader.errors)
    }
}

/// Rejects absurd brace nesting before pest recurses into it.
fn check_nesting(file: &SourceFile) -> Result<(), Vec<Diagnostic>> {
    let mut depth = 0usize;
    let mut chars = file.text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '#' => {
                for (_, c) in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '%' => {
                let _ = chars.by_ref().find(|&(_, c)| c == '%');
            }
            '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(vec![
                        Diagnostic::error(format!("blocks nested more than {MAX_NESTING} deep"))
                            .at(file, i, 1)
                            .label("too deep")
                            .help("flatten the noise expression"),
                    ]);
                }
            }
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

/// Turns a pest error into a diagnostic that says what was expected, in words.
fn syntax_error(file: &SourceFile, e: &pest::error::Error<Rule>) -> Diagnostic {
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((s, e)) => (s, e),
    };
    let mut expected: Vec<String> = Vec::new();
    if let ErrorVariant::ParsingError { positives, .. } = &e.variant {
        expected.extend(positives.iter().filter_map(|r| describe(*r)));
    }
    expected.sort();
    expected.dedup();
    let found = file.text[start..].split_whitespace().next().unwrap_or("");
    let found = if found.is_empty() {
        "the end of the file".to_string()
    } else {
        format!("`{}`", found.chars().take(24).collect::<String>())
    };
    let message = match expected.len() {
        0 => format!("unexpected {found}"),
        1 => format!("expected {}, found {found}", expected[0]),
        _ => {
            let last = expected.pop().unwrap_or_default();
            format!("expected {} or {last}, found {found}", expected.join(", "))
        }
    };
    let len = if end > start {
        end - start
    } else {
        file.text[start..]
            .split_whitespace()
            .next()
            .map_or(0, str::len)
    };
    Diagnostic::error(message)
        .at(file, start, len.max(1))
        .label("here")
}

/// How a grammar rule is named in an error message (`None`: not worth naming).
fn describe(rule: Rule) -> Option<String> {
    let text = match rule {
        Rule::word | Rule::phase_name => "a name (no spaces)",
        Rule::keys => "keys (letters or digits)",
        Rule::number => "a number",
        Rule::integer => "a whole number",
        Rule::digits => "height digits",
        Rule::boolean => "`true` or `false`",
        Rule::color => "a colour as six hex digits (rrggbb)",
        Rule::surface_key => "a surface key (one letter or digit)",
        Rule::surface_color => "a surface key and its colour (`G 4c9a3f`)",
        Rule::surface_name => "a surface key and its name (`G Grass`)",
        Rule::corner => "a tile `<surface><height><slant>`, e.g. `G0x`",
        Rule::edge => "an edge key (one letter or digit)",
        Rule::module | Rule::obstacle | Rule::scatter_model => "`* <Name> { ... }`",
        Rule::look_part => "a part `<shape> <rrggbb> size <x y z>`",
        Rule::part_shape => "a shape (box, sphere, cylinder, cone, capsule)",
        Rule::phase => "a phase (obstacle names on one line)",
        Rule::nodes | Rule::open => "`{`",
        Rule::close => "`}`",
        Rule::star => "`*`",
        Rule::EOI => "the end of the file",
        Rule::file | Rule::WHITESPACE | Rule::COMMENT => return None,
        other => {
            let name = format!("{other:?}");
            let keyword = name
                .strip_prefix("k_")
                .or_else(|| name.strip_prefix("n_"))?;
            let keyword = if keyword == "fractal" {
                "fractal_noise"
            } else {
                keyword
            };
            return Some(format!("`{keyword}`"));
        }
    };
    Some(text.to_string())
}

struct Reader<'f> {
    file: &'f SourceFile,
    errors: Vec<Diagnostic>,
}

/// The children of a pair without punctuation.
fn items(pair: Pair<'_, Rule>) -> impl Iterator<Item = Pair<'_, Rule>> {
    pair.into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::open | Rule::close | Rule::star))
}

/// The entries of a `surface_names` block: key and name, `_` read as a space.
fn surface_names(prop: Pair<'_, Rule>) -> Vec<(Sp<char>, String)> {
    items(prop)
        .skip(1)
        .filter_map(|entry| {
            let mut inner = items(entry);
            let (key, name) = (inner.next()?, inner.next()?);
            let c = key.as_str().chars().next()?;
            Some((Sp::new(c, &key), name.as_str().replace('_', " ")))
        })
        .collect()
}

/// A `color` pair (six hex digits) as its three bytes.
fn rgb(color: &Pair<'_, Rule>) -> [u8; 3] {
    let hex = color.as_str();
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
    [byte(0), byte(2), byte(4)]
}

/// The value part of a `keyword value` property.
fn value_pair(pair: Pair<'_, Rule>) -> Option<Pair<'_, Rule>> {
    items(pair).nth(1)
}

impl Reader<'_> {
    fn error(&mut self, start: usize, end: usize, message: String, label: &str) {
        self.errors.push(
            Diagnostic::error(message)
                .at(self.file, start, end.saturating_sub(start))
                .label(label.to_string()),
        );
    }

    /// Stores `value` into `slot`, reporting a second occurrence of the same property.
    fn once<T>(&mut self, slot: &mut Option<T>, pair: &Pair<'_, Rule>, value: Option<T>) {
        if slot.is_some() {
            let keyword = pair.as_str().split_whitespace().next().unwrap_or("");
            let span = pair.as_span();
            self.error(
                span.start(),
                span.start() + keyword.len(),
                format!("`{keyword}` is given twice"),
                "second time here",
            );
            return;
        }
        *slot = value;
    }

    /// Reads a string property into `slot`.
    fn set_string(&mut self, slot: &mut Option<Sp<String>>, pair: &Pair<'_, Rule>) {
        let v = self.string(pair.clone());
        self.once(slot, pair, v);
    }

    /// Reads a number property into `slot`.
    fn set_number(&mut self, slot: &mut Option<Sp<f64>>, pair: &Pair<'_, Rule>) {
        let v = self.number(pair.clone());
        self.once(slot, pair, v);
    }

    /// Reads a whole-number property into `slot`.
    fn set_integer(&mut self, slot: &mut Option<Sp<u32>>, pair: &Pair<'_, Rule>) {
        let v = self.integer(pair.clone());
        self.once(slot, pair, v);
    }

    fn string(&mut self, pair: Pair<'_, Rule>) -> Option<Sp<String>> {
        let v = value_pair(pair)?;
        Some(Sp::new(v.as_str().to_string(), &v))
    }

    fn number(&mut self, pair: Pair<'_, Rule>) -> Option<Sp<f64>> {
        let v = value_pair(pair)?;
        self.number_value(&v)
    }

    fn number_value(&mut self, v: &Pair<'_, Rule>) -> Option<Sp<f64>> {
        match v.as_str().parse::<f64>() {
            Ok(x) if x.is_finite() => Some(Sp::new(x, v)),
            _ => {
                let span = v.as_span();
                self.error(
                    span.start(),
                    span.end(),
                    "number out of range".into(),
                    "not a finite number",
                );
                None
            }
        }
    }

    fn integer(&mut self, pair: Pair<'_, Rule>) -> Option<Sp<u32>> {
        let v = value_pair(pair)?;
        match v.as_str().parse::<u32>() {
            Ok(x) => Some(Sp::new(x, &v)),
            Err(_) => {
                let span = v.as_span();
                self.error(
                    span.start(),
                    span.end(),
                    "whole number too large".into(),
                    "at most 4294967295",
                );
                None
            }
        }
    }

    fn file(&mut self, top: Pair<'_, Rule>) -> Raw {
        let mut raw = Raw::default();
        let mut colors_seen = None;
        let mut names_seen = None;
        let mut obstacles_seen = None;
        let mut scatter_seen = None;
        for prop in items(top) {
            match prop.as_rule() {
                Rule::display_name => self.set_string(&mut raw.display_name, &prop),
                Rule::generator => self.set_string(&mut raw.generator, &prop),
                Rule::paths => self.set_string(&mut raw.paths, &prop),
                Rule::build_near_paths => {
                    let v = value_pair(prop.clone()).map(|b| b.as_str() == "true");
                    self.once(&mut raw.build_near_paths, &prop, v);
                }
                Rule::free_surfaces => self.set_string(&mut raw.free_surfaces, &prop),
                Rule::blocked_surfaces => self.set_string(&mut raw.blocked_surfaces, &prop),
                Rule::free_edges => self.set_string(&mut raw.free_edges, &prop),
                Rule::blocked_edges => self.set_string(&mut raw.blocked_edges, &prop),
                Rule::max_height => self.set_integer(&mut raw.max_height, &prop),
                Rule::water_surfaces => self.set_string(&mut raw.water_surfaces, &prop),
                Rule::surface_colors => {
                    self.once(&mut colors_seen, &prop, Some(()));
                    raw.surface_colors.extend(self.surface_colors(prop));
                }
                Rule::surface_names => {
                    self.once(&mut names_seen, &prop, Some(()));
                    raw.surface_names.extend(surface_names(prop));
                }
                Rule::modules => {
                    let v = Some(Sp::new(self.modules(prop.clone()), &prop));
                    self.once(&mut raw.modules, &prop, v);
                }
                Rule::obstacles => {
                    self.once(&mut obstacles_seen, &prop, Some(()));
                    self.obstacles(prop, &mut raw);
                }
                Rule::scatterer => {
                    self.once(&mut scatter_seen, &prop, Some(()));
                    for model in items(prop).skip(1) {
                        let m = self.scatter_model(model);
                        raw.scatter.push(m);
                    }
                }
                _ => {}
            }
        }
        raw
    }

    fn surface_colors(&mut self, prop: Pair<'_, Rule>) -> Vec<(Sp<char>, [u8; 3])> {
        let mut out = Vec::new();
        for entry in items(prop).skip(1) {
            let mut inner = items(entry);
            let (Some(key), Some(color)) = (inner.next(), inner.next()) else {
                continue;
            };
            let c = key.as_str().chars().next().unwrap_or('?');
            out.push((Sp::new(c, &key), rgb(&color)));
        }
        out
    }

    fn look(&mut self, prop: Pair<'_, Rule>) -> Vec<RawPart> {
        let mut out = Vec::new();
        for part in items(prop).skip(1) {
            let mut inner = items(part);
            let (Some(shape), Some(color)) = (inner.next(), inner.next()) else {
                continue;
            };
            let mut raw = RawPart {
                shape: Sp::new(shape.as_str().to_string(), &shape),
                color: rgb(&color),
                size: None,
                at: None,
                turn: None,
                glow: None,
            };
            for p in inner {
                match p.as_rule() {
                    Rule::part_size => self.set_triple(&mut raw.size, &p),
                    Rule::part_at => self.set_triple(&mut raw.at, &p),
                    Rule::part_turn => self.set_triple(&mut raw.turn, &p),
                    Rule::part_glow => self.set_number(&mut raw.glow, &p),
                    _ => {}
                }
            }
            out.push(raw);
        }
        out
    }

    /// Reads a property of three numbers (`size 0.2 0.4 0.2`) into `slot`.
    fn set_triple(&mut self, slot: &mut Option<Sp<[f64; 3]>>, pair: &Pair<'_, Rule>) {
        let numbers: Vec<f64> = items(pair.clone())
            .skip(1)
            .filter_map(|n| self.number_value(&n).map(|x| x.value))
            .collect();
        let v = <[f64; 3]>::try_from(numbers).ok().map(|v| Sp::new(v, pair));
        self.once(slot, pair, v);
    }

    fn modules(&mut self, prop: Pair<'_, Rule>) -> Vec<RawModule> {
        let mut out = Vec::new();
        for module in items(prop).skip(1) {
            let mut inner = items(module);
            let Some(name) = inner.next() else { continue };
            let mut m = RawModule {
                name: Sp::new(name.as_str().to_string(), &name),
                weight: None,
                variants: None,
                height_offset: None,
                collision: None,
                shape: None,
                heights: None,
            };
            for p in inner {
                match p.as_rule() {
                    Rule::weight => self.set_number(&mut m.weight, &p),
                    Rule::variants => self.set_string(&mut m.variants, &p),
                    Rule::height_offset => self.set_number(&mut m.height_offset, &p),
                    Rule::collision => self.set_string(&mut m.collision, &p),
                    Rule::heights => self.set_string(&mut m.heights, &p),
                    Rule::shape => {
                        let mut corners = Vec::new();
                        let mut edges = Vec::new();
                        for part in items(p.clone()).skip(1) {
                            match part.as_rule() {
                                Rule::corner => {
                                    corners.push(Sp::new(part.as_str().to_string(), &part))
                                }
                                _ => edges.push(Sp::new(
                                    part.as_str().chars().next().unwrap_or('?'),
                                    &part,
                                )),
                            }
                        }
                        self.once(&mut m.shape, &p, Some((corners, edges)));
                    }
                    _ => {}
                }
            }
            out.push(m);
        }
        out
    }

    fn obstacles(&mut self, prop: Pair<'_, Rule>, raw: &mut Raw) {
        for item in items(prop).skip(1) {
            match item.as_rule() {
                Rule::phases => {
                    let lines = items(item.clone())
                        .skip(1)
                        .map(|line| {
                            items(line)
                                .map(|n| Sp::new(n.as_str().to_string(), &n))
                                .collect()
                        })
                        .collect();
                    let v = Some(Sp::new(lines, &item));
                    self.once(&mut raw.phases, &item, v);
                }
                Rule::obstacle => {
                    let o = self.obstacle(item);
                    raw.obstacles.push(o);
                }
                _ => {}
            }
        }
    }

    fn obstacle(&mut self, item: Pair<'_, Rule>) -> RawObstacle {
        let mut inner = items(item);
        let name = inner.next().map(|n| Sp::new(n.as_str().to_string(), &n));
        let mut o = RawObstacle {
            name: name.unwrap_or(Sp {
                value: String::new(),
                start: 0,
                end: 0,
            }),
            kind: None,
            min: None,
            max: None,
            base_probability: None,
            valid_surfaces: None,
            on_slants: None,
            affinities: Vec::new(),
        };
        let mut affinities_seen = None;
        for p in inner {
            match p.as_rule() {
                Rule::obstacle_type => self.set_string(&mut o.kind, &p),
                Rule::min => self.set_integer(&mut o.min, &p),
                Rule::max => self.set_integer(&mut o.max, &p),
                Rule::base_probability => self.set_number(&mut o.base_probability, &p),
                Rule::valid_surfaces => self.set_string(&mut o.valid_surfaces, &p),
                Rule::on_slants => {
                    let v = value_pair(p.clone()).map(|b| b.as_str() == "true");
                    self.once(&mut o.on_slants, &p, v);
                }
                Rule::affinities => {
                    self.once(&mut affinities_seen, &p, Some(()));
                    for n in items(p).skip(1) {
                        if let Some(x) = self.number_value(&n) {
                            o.affinities.push(x);
                        }
                    }
                }
                _ => {}
            }
        }
        o
    }

    fn scatter_model(&mut self, model: Pair<'_, Rule>) -> RawScatter {
        let mut inner = items(model);
        let name = inner.next().map(|n| Sp::new(n.as_str().to_string(), &n));
        let mut s = RawScatter {
            name: name.unwrap_or(Sp {
                value: String::new(),
                start: 0,
                end: 0,
            }),
            prefab: None,
            tries_per_tile: None,
            placement_radius: None,
            persistent_radius: None,
            size_gain: None,
            radius_gain: None,
            angle_spread: None,
            value_threshold: None,
            value: None,
            look: None,
        };
        for p in inner {
            match p.as_rule() {
                Rule::prefab => self.set_string(&mut s.prefab, &p),
                Rule::tries_per_tile => self.set_integer(&mut s.tries_per_tile, &p),
                Rule::value => {
                    let v = value_pair(p.clone()).map(|nodes| self.nodes(nodes));
                    self.once(&mut s.value, &p, v);
                }
                Rule::placement_radius => self.set_number(&mut s.placement_radius, &p),
                Rule::persistent_radius => self.set_number(&mut s.persistent_radius, &p),
                Rule::size_gain => self.set_number(&mut s.size_gain, &p),
                Rule::radius_gain => self.set_number(&mut s.radius_gain, &p),
                Rule::angle_spread => self.set_number(&mut s.angle_spread, &p),
                Rule::value_threshold => self.set_number(&mut s.value_threshold, &p),
                Rule::look => {
                    let v = Some(self.look(p.clone()));
                    self.once(&mut s.look, &p, v);
                }
                _ => {}
            }
        }
        s
    }

    fn nodes(&mut self, nodes: Pair<'_, Rule>) -> Vec<RawNode> {
        items(nodes).filter_map(|n| self.node(n)).collect()
    }

    fn node(&mut self, node: Pair<'_, Rule>) -> Option<RawNode> {
        let rule = node.as_rule();
        let fractal_span = node.clone();
        let mut inner = items(node).skip(1);
        Some(match rule {
            Rule::n_const => RawNode::Const(self.number_value(&inner.next()?)?.value),
            Rule::n_sum => RawNode::Sum(self.nodes(inner.next()?)),
            Rule::n_mult => {
                let m = self.number_value(&inner.next()?)?.value;
                RawNode::Mult(m, self.nodes(inner.next()?))
            }
            Rule::n_clamp => {
                let lo = self.number_value(&inner.next()?)?;
                let hi = self.number_value(&inner.next()?)?;
                RawNode::Clamp(lo, hi, self.nodes(inner.next()?))
            }
            Rule::n_path => {
                let a = self.number_value(&inner.next()?)?.value;
                let b = self.number_value(&inner.next()?)?.value;
                RawNode::Path(a, b)
            }
            Rule::n_obstacle => {
                let name = inner.next()?;
                let name = Sp::new(name.as_str().to_string(), &name);
                let a = self.number_value(&inner.next()?)?.value;
                let b = self.number_value(&inner.next()?)?.value;
                RawNode::Obstacle(name, a, b)
            }
            Rule::n_height => RawNode::Height,
            Rule::n_fractal => {
                let mut f = RawFractal::default();
                for p in inner {
                    match p.as_rule() {
                        Rule::octaves => self.set_integer(&mut f.octaves, &p),
                        Rule::bias => self.set_number(&mut f.bias, &p),
                        Rule::base_amplitude => self.set_number(&mut f.base_amplitude, &p),
                        Rule::amplitude_mult => self.set_number(&mut f.amplitude_mult, &p),
                        Rule::base_frequency => self.set_number(&mut f.base_frequency, &p),
                        Rule::frequency_mult => self.set_number(&mut f.frequency_mult, &p),
                        _ => {}
                    }
                }
                // Point at the keyword only: the block can be long.
                let start = fractal_span.as_span().start();
                RawNode::Fractal(Sp {
                    value: f,
                    start,
                    end: start + "fractal_noise".len(),
                })
            }
            _ => return None,
        })
    }
}
