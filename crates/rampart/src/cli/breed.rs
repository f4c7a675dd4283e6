//! `rampart breed`: levels bred by a genetic algorithm until each sits on a difficulty curve,
//! written as a level setter's `designs` that a mod can ship.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use rampart_balance::plot::Series;
use rampart_balance::{Bred, Breeder, Curve, Generation, Rating, Selection, rate, rate_setter};
use rampart_core::diagnostics::SourceFile;

use super::rate::{Bots, parse_bots};
use super::{Context, Failure, Jobs, print_diagnostics, write_output};

/// Options of `rampart breed`.
#[derive(Debug, Args)]
pub struct BreedArgs {
    /// The target curve: a RON file `(targets: [0.12, 0.14, …])`, level 1 first, or `default`.
    #[arg(long, default_value = "default")]
    pub curve: String,
    /// The levels to breed: `K` or a range `A-B`.
    #[arg(long, default_value = "1-10", value_parser = parse_levels)]
    pub levels: (u32, u32),
    /// The seed of the algorithm's draws.
    #[arg(long, allow_negative_numbers = true, value_parser = super::parse_seed)]
    pub seed: u64,
    /// Designs per generation.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..=1000))]
    pub population: u64,
    /// Plays per rating (run seeds from --rating-seed).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub plays: u64,
    /// The first run seed of the ratings.
    #[arg(long, default_value_t = 0, value_parser = super::parse_seed)]
    pub rating_seed: u64,
    /// How parents are paired: ends (fittest with least fit) or tournament.
    #[arg(long, default_value = "ends", value_parser = parse_selection)]
    pub selection: Selection,
    /// The bot that rates: autopilot or frugal.
    #[arg(long, default_value = "autopilot", value_parser = parse_bots)]
    pub bot: Bots,
    /// Write the bred levels as a level setter override (RON) to FILE, for a mod's `levels.ron`.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Draw the target curve, the bred levels and the level setter's, measured on fresh seeds,
    /// as a PNG plot to FILE.
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Write every level's breeding as JSON to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    #[command(flatten)]
    pub jobs: Jobs,
}

fn parse_levels(text: &str) -> Result<(u32, u32), String> {
    super::parse_range(text, 1, "a level (levels count from 1)")
}

fn parse_selection(text: &str) -> Result<Selection, String> {
    match text.to_ascii_lowercase().as_str() {
        "ends" => Ok(Selection::Ends),
        "tournament" => Ok(Selection::Tournament),
        _ => Err(format!(
            "`{text}` is not a selection: use ends or tournament"
        )),
    }
}

#[derive(Serialize)]
struct Report {
    breeder: Breeder,
    curve: Curve,
    /// The run seeds of the re-measurements, after the breeding's and the confirmation's.
    fresh_seeds: (u64, u64),
    levels: Vec<Outcome>,
}

/// One level bred, and measured again.
#[derive(Serialize)]
struct Outcome {
    #[serde(flatten)]
    bred: Bred,
    /// The bred level rated again on fresh seeds.
    recheck: Rating,
    /// Whether the re-measured difficulty lies within the tolerance of the target.
    within: bool,
    /// Today's level setter's level, rated on the same fresh seeds.
    setter: Rating,
}

/// A level setter override holding the bred designs.
#[derive(Serialize)]
struct Override<'a> {
    overrides: &'a str,
    designs: Vec<&'a rampart_core::content::LevelDesign>,
}

/// Runs the command.
pub fn run(context: &Context, args: &BreedArgs) -> Result<(), Failure> {
    let [bot] = args.bot.0[..] else {
        return Err(Failure::error(
            "breeding rates with one bot: --bot autopilot or --bot frugal",
        ));
    };
    let curve = read_curve(&args.curve)?;
    let content = Arc::new(context.load_content());
    let Some(setter) = content.levels.as_ref() else {
        return Err(Failure::error("no mod defines a level setter (levels.ron)"));
    };
    let breeder = Breeder {
        population: args.population as usize,
        plays: args.plays,
        rating_seed: args.rating_seed,
        seed: args.seed,
        selection: args.selection,
        bot,
        ..Breeder::default()
    };
    let fresh = breeder.fresh_seeds();
    let mut levels = Vec::new();
    for level in args.levels.0..=args.levels.1 {
        let target = curve.target(level);
        let progress = Progress::new(level, target);
        let outcome = args.jobs.install(|| {
            let bred = breeder.breed(&content, level, target, |g| progress.show(g))?;
            let recheck = rate(&content, &bred.design, breeder.bot, fresh.clone())?;
            let setter = rate_setter(&content, level, breeder.bot, fresh.clone())?;
            Ok::<_, rampart_core::run::RunError>(Outcome {
                within: (recheck.difficulty - target).abs() <= bred.tolerance,
                bred,
                recheck,
                setter,
            })
        })?;
        progress.finish(&outcome);
        levels.push(outcome.map_err(|e| Failure::error(format!("level {level}: {e}")))?);
    }
    if let Some(path) = &args.out {
        let file = Override {
            overrides: &setter.id,
            designs: levels.iter().map(|o| &o.bred.design).collect(),
        };
        let text = rampart_core::ron_file::to_string(&file).expect("designs serialise");
        let header = format!(
            "// Levels bred by `rampart breed --seed {} --levels {}-{}` to the curve `{}`.\n",
            args.seed, args.levels.0, args.levels.1, args.curve
        );
        rampart_core::files::write_atomically(path, format!("{header}{text}\n").as_bytes())
            .map_err(|e| Failure::error(format!("cannot write {}: {e}", path.display())))?;
    }
    let report = Report {
        breeder,
        curve,
        fresh_seeds: (fresh.start, fresh.end - 1),
        levels,
    };
    if let Some(path) = &args.plot {
        let png = plot(&report).map_err(Failure::error)?;
        rampart_core::files::write_atomically(path, &png)
            .map_err(|e| Failure::error(format!("cannot write {}: {e}", path.display())))?;
    }
    let json = serde_json::to_string_pretty(&report).expect("breedings serialise");
    write_output(args.json.as_deref(), &json, || table(&report))
}

/// The target curve with the bred levels and the level setter's as measured on fresh seeds.
fn plot(r: &Report) -> Result<Vec<u8>, String> {
    let points = |f: &dyn Fn(&Outcome) -> (f64, f64)| -> Vec<(u32, f64, f64)> {
        r.levels
            .iter()
            .map(|o| {
                let (v, e) = f(o);
                (o.bred.design.level, v, e)
            })
            .collect()
    };
    let series = [
        Series {
            name: "target",
            points: points(&|o| (o.bred.target, 0.0)),
            colour: (40, 40, 40),
            line: true,
            offset: 0.0,
        },
        Series {
            name: "bred levels, fresh seeds",
            points: points(&|o| (o.recheck.difficulty, o.recheck.std_error)),
            colour: (30, 110, 200),
            line: false,
            offset: -0.08,
        },
        Series {
            name: "level setter today, fresh seeds",
            points: points(&|o| (o.setter.difficulty, o.setter.std_error)),
            colour: (210, 90, 30),
            line: false,
            offset: 0.08,
        },
    ];
    let title = format!(
        "difficulty by level ({:?}, {} plays per point; bars: 2 standard errors)",
        r.breeder.bot, r.breeder.plays
    )
    .to_lowercase();
    rampart_balance::plot::plot(&title, &series)
}

/// Progress of one level's breeding on standard error: a line redrawn in place on a terminal,
/// a line per generation elsewhere (a log shows them all).
struct Progress {
    level: u32,
    target: f64,
    bar: Option<ProgressBar>,
}

impl Progress {
    fn new(level: u32, target: f64) -> Progress {
        let bar = std::io::IsTerminal::is_terminal(&std::io::stderr()).then(|| {
            let bar = ProgressBar::new_spinner();
            bar.set_style(
                ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                    .expect("a valid template"),
            );
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            bar
        });
        Progress { level, target, bar }
    }

    fn show(&self, g: &Generation) {
        let mut line = format!(
            "level {}: generation {}, nearest {:.3} from the target {:.2} (window ±{:.2})",
            self.level, g.number, g.best_error, self.target, g.window
        );
        if let Some(c) = g.confirmation {
            line += &format!(", {c:.3} on the confirmation seeds");
        }
        match &self.bar {
            Some(bar) => bar.set_message(line),
            None => eprintln!("{line}"),
        }
    }

    fn finish<E>(&self, outcome: &Result<Outcome, E>) {
        let Some(bar) = &self.bar else {
            return;
        };
        match outcome {
            Ok(o) => bar.finish_with_message(format!(
                "level {}: difficulty {:.3}, confirmed {:.3}, for the target {:.2} after {} generations; {:.3} on fresh seeds",
                self.level,
                o.bred.rating.difficulty,
                o.bred.confirmation.difficulty,
                self.target,
                o.bred.generations.len(),
                o.recheck.difficulty
            )),
            Err(_) => bar.finish_and_clear(),
        }
    }
}

fn read_curve(name: &str) -> Result<Curve, Failure> {
    let curve = match name {
        "default" => Curve::standard(),
        path => {
            let shown = |d| {
                print_diagnostics([&d]);
                Failure::error(format!("{path} is not a curve (above)"))
            };
            let file = SourceFile::read(std::path::Path::new(path)).map_err(shown)?;
            rampart_core::ron_file::parse(&file).map_err(shown)?
        }
    };
    match curve.problem() {
        Some(p) => Err(Failure::error(format!("{name}: {p}"))),
        None => Ok(curve),
    }
}

fn table(r: &Report) -> String {
    let mut out = format!(
        "difficulty on the breeding seeds, on the confirmation seeds, again on seeds {}–{} (fresh), and today's level setter on those\n",
        r.fresh_seeds.0, r.fresh_seeds.1
    );
    out += "level  target  bred   confirmed  ± s.e.  generations  tolerance  fresh  within  setter  terrain          paths     waves  attackers\n";
    for o in &r.levels {
        let (b, d) = (&o.bred, &o.bred.design);
        out += &format!(
            "{:>5}  {:>6.2}  {:>5.3}  {:>9.3}  {:>6.3}  {:>11}  {:>9.3}  {:>5.3}  {:<6}  {:>6.3}  {:<15}  {:<8}  {:>5}  {}\n",
            d.level,
            b.target,
            b.rating.difficulty,
            b.confirmation.difficulty,
            b.confirmation.std_error,
            b.generations.len(),
            b.tolerance,
            o.recheck.difficulty,
            if o.within { "yes" } else { "no" },
            o.setter.difficulty,
            d.terrain,
            d.paths(),
            d.wave_count,
            d.attackers.join(", ")
        );
    }
    out.pop();
    out
}
