//! `rampart rate`: a level design's difficulty, measured by bots playing it on several seeds.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use serde::Serialize;

use rampart_balance::{Bot, Rating, rate, rate_setter};
use rampart_core::content::{ContentDb, LevelDesign};
use rampart_core::diagnostics::{Diagnostic, SourceFile};
use rampart_core::run::{LevelSpec, RunError};

use super::{Context, Failure, Jobs, print_diagnostics, write_output};

/// Options of `rampart rate`.
#[derive(Debug, Args)]
pub struct RateArgs {
    /// The level design (RON, `docs/balance.md`).
    #[arg(required_unless_present = "level", conflicts_with = "level")]
    pub file: Option<PathBuf>,
    /// Instead of a design, rate level K as the level setter's rules make it for each seed.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..))]
    pub level: Option<u32>,
    /// Plays per bot: run seeds A, A+1, … (at least 2, for a standard error).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    pub plays: u64,
    /// The first run seed, A.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = super::parse_seed)]
    pub seed: u64,
    /// Which bot plays: autopilot, frugal (keeps half its materials back) or both.
    #[arg(long, default_value = "autopilot", value_parser = parse_bots)]
    pub bot: Bots,
    /// Write the ratings as JSON to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    #[command(flatten)]
    pub jobs: Jobs,
}

/// The bots `--bot` asks for.
#[derive(Clone, Debug)]
pub struct Bots(pub Vec<Bot>);

/// Reads `--bot` (also used by `rampart breed`, which takes one).
pub fn parse_bots(text: &str) -> Result<Bots, String> {
    match text.to_ascii_lowercase().as_str() {
        "autopilot" => Ok(Bots(vec![Bot::Autopilot])),
        "frugal" => Ok(Bots(vec![Bot::Frugal])),
        "both" => Ok(Bots(vec![Bot::Autopilot, Bot::Frugal])),
        _ => Err(format!(
            "`{text}` is not a bot: use autopilot, frugal or both"
        )),
    }
}

#[derive(Serialize)]
struct Report {
    /// The design rated, or none for a level of the level setter.
    design: Option<LevelDesign>,
    /// The level setter's level rated, or none for a design.
    level: Option<u32>,
    first_seed: u64,
    ratings: Vec<Rating>,
}

/// Runs the command.
pub fn run(context: &Context, args: &RateArgs) -> Result<(), Failure> {
    let content = Arc::new(context.load_content());
    let design = match &args.file {
        Some(file) => Some(read_design(&content, file)?),
        None => None,
    };
    let Some(end) = args.seed.checked_add(args.plays) else {
        return Err(Failure::error(
            "--seed with --plays goes past the largest seed",
        ));
    };
    let seeds = args.seed..end;
    let ratings = args.jobs.install(|| {
        args.bot
            .0
            .iter()
            .map(|&bot| match (&design, args.level) {
                (Some(d), _) => rate(&content, d, bot, seeds.clone()),
                (None, level) => {
                    let level = level.expect("clap asks for a file or --level");
                    rate_setter(&content, level, bot, seeds.clone())
                }
            })
            .collect::<Result<Vec<_>, _>>()
    })?;
    let what = match &args.file {
        Some(f) => f.display().to_string(),
        None => format!("level {}", args.level.unwrap_or(0)),
    };
    let ratings = ratings.map_err(|e| Failure::error(format!("{what}: {e}")))?;
    let report = Report {
        design,
        level: args.level,
        first_seed: args.seed,
        ratings,
    };
    let json = serde_json::to_string_pretty(&report).expect("ratings serialise");
    write_output(args.json.as_deref(), &json, || table(&what, &report))
}

/// Reads a level design and checks it against the content; an error points into the file.
pub fn read_design(content: &ContentDb, path: &Path) -> Result<LevelDesign, Failure> {
    let shown = |d: Diagnostic| {
        print_diagnostics([&d]);
        Failure::error(format!(
            "{} is not a level design that can be played (above)",
            path.display()
        ))
    };
    let file = SourceFile::read(path).map_err(shown)?;
    let design: LevelDesign = rampart_core::ron_file::parse(&file).map_err(shown)?;
    if let Err(e) = LevelSpec::of_design(content, &design) {
        let (field, value) = match &e {
            RunError::NoAttacker { id, .. } => ("attackers", Some(id.as_str())),
            RunError::PathTooLong { .. } => ("path_lengths", None),
            RunError::TooManyWaves { .. } => ("wave_count", None),
            RunError::EmptyDesign { what, .. } => match *what {
                "path" => ("path_lengths", None),
                "wave" => ("wave_count", None),
                _ => ("attackers", None),
            },
            _ => ("level", None),
        };
        let at = rampart_core::ron_file::locate(&file, field, value);
        let len = value.map_or(field.len(), |v| v.len() + 2);
        return Err(shown(Diagnostic::error(e.to_string()).at(&file, at, len)));
    }
    if content.terrain(&design.terrain).is_none() {
        let at = rampart_core::ron_file::locate(&file, "terrain", Some(&design.terrain));
        let hint = rampart_core::diagnostics::closest(
            &design.terrain,
            content.terrains.iter().map(|t| t.id.as_str()),
        );
        let mut d = Diagnostic::error(format!("there is no terrain type `{}`", design.terrain)).at(
            &file,
            at,
            design.terrain.len() + 2,
        );
        if let Some(h) = hint {
            d = d.help(format!("did you mean `{h}`?"));
        }
        return Err(shown(d));
    }
    Ok(design)
}

fn table(what: &str, r: &Report) -> String {
    let plays = r.ratings.first().map_or(0, |x| x.plays.len()) as u64;
    let seeds = format!(
        "seeds {}–{}",
        r.first_seed,
        r.first_seed + plays.saturating_sub(1)
    );
    let mut out = match &r.design {
        Some(d) => format!(
            "{what}: level {}, {}, paths {}, {} waves, {} attacker types; {seeds}\n",
            d.level,
            d.terrain,
            d.paths(),
            d.wave_count,
            d.attackers.len(),
        ),
        None => format!("{what} of the level setter, as each seed draws it; {seeds}\n"),
    };
    out += "bot        plays  won  difficulty  std error\n";
    for x in &r.ratings {
        out += &format!(
            "{:<9}  {:>5}  {:>3}  {:>10.3}  {:>9.3}\n",
            format!("{:?}", x.bot).to_lowercase(),
            x.plays.len(),
            x.won,
            x.difficulty,
            x.std_error
        );
    }
    out.pop();
    out
}
