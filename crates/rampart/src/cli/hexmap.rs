//! `rampart hexmap`: one level of the hex accessibility generator, as a summary, JSON or a
//! picture of hexes.

use std::path::PathBuf;

use clap::Args;
use clap::builder::{PossibleValuesParser, TypedValueParser};

use rampart_core::hexgen::{
    Check, HexJson, HexMap, HexParams, Impassable, MAX_SIDE, Method, Tile, generate, render_png,
};
use rampart_core::rng::Seed;

use super::{Failure, write_output};

/// Options of `rampart hexmap`.
#[derive(Debug, Args)]
pub struct HexmapArgs {
    /// Columns, 1 to 200 (the presets: 8x5, 15x8, 30x15, 40x20, 50x25).
    #[arg(long, value_name = "W", value_parser = parse_side)]
    pub width: u32,
    /// Rows, 1 to 200.
    #[arg(long, value_name = "H", value_parser = parse_side)]
    pub height: u32,
    /// The seed.
    #[arg(long, allow_negative_numbers = true, value_parser = super::parse_seed)]
    pub seed: u64,
    /// How mountains and water are spawned: each on a random tile, or in chains.
    #[arg(long, value_parser = PossibleValuesParser::new(Method::NAMES)
        .map(|s| Method::from_name(&s).expect("a listed name")))]
    pub method: Method,
    /// How every tile is kept reachable: checked before each impassable tile stays, or repaired
    /// once at the end.
    #[arg(long, value_parser = PossibleValuesParser::new(Check::NAMES)
        .map(|s| Check::from_name(&s).expect("a listed name")))]
    pub check: Check,
    /// Mountains and water: a tenth of the level each (1x) or twice that (2x).
    #[arg(long, default_value = "1x", value_parser = PossibleValuesParser::new(Impassable::NAMES)
        .map(|s| Impassable::from_name(&s).expect("a listed name")))]
    pub impassable: Impassable,
    /// Write the level as JSON to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Draw the level as a PNG of hexes.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
}

/// Reads a width or height.
fn parse_side(text: &str) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if (1..=MAX_SIDE).contains(&n) => Ok(n),
        _ => Err(format!(
            "`{text}` is not a side length: a hex level is 1 to {MAX_SIDE} tiles wide and high"
        )),
    }
}

/// Runs the command.
pub fn run(args: &HexmapArgs) -> Result<(), Failure> {
    let params = HexParams {
        width: args.width,
        height: args.height,
        method: args.method,
        check: args.check,
        impassable: args.impassable,
    };
    let map = generate(&params, Seed(args.seed));
    super::write_png(args.png.as_deref(), || render_png(&map))?;
    let json = serde_json::to_string_pretty(&HexJson::new(&map)).expect("a level serialises");
    write_output(args.json.as_deref(), &json, || summary(&map))
}

/// The level for the terminal: its counts against the targets, then its rows.
fn summary(map: &HexMap) -> String {
    let p = &map.params;
    let (x, y) = p.size().xy(map.start);
    let counts: Vec<String> = Tile::SPAWN_ORDER
        .iter()
        .map(|&t| format!("{} {}/{}", t.letter(), map.count(t), p.target(t)))
        .collect();
    let mut out = format!(
        "hex level {}x{}, seed {}, {} {} {}: start {x}:{y}, {} (of target), G {}, {} bridges, {} \
         critical, {} broken by the repair\n",
        p.width,
        p.height,
        map.seed.0,
        p.method.name(),
        p.check.name(),
        p.impassable.name(),
        counts.join(", "),
        map.count(Tile::Grass),
        map.bridges.len(),
        map.critical.len(),
        map.broken.len(),
    );
    for row in HexJson::new(map).rows.iter().enumerate() {
        let indent = if row.0 % 2 == 1 { " " } else { "" };
        let spaced: Vec<String> = row.1.chars().map(String::from).collect();
        out += &format!("{indent}{}\n", spaced.join(" "));
    }
    out.trim_end().to_string()
}
