//! `rampart simulate`: runs played headless by the autopilot — one in detail, or many for the
//! distribution of levels reached.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use rampart::autopilot::{RunReport, play_run};
use rampart::level::replay::Replay;
use rampart::run::{Difficulty, RunConfig};

use super::{Context, Failure, write_output};

/// Options of `rampart simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The run seed (with --runs, the first of consecutive seeds).
    #[arg(long, allow_negative_numbers = true, value_parser = super::parse_seed)]
    pub seed: u64,
    /// The most levels to play in a run.
    #[arg(long, default_value_t = 5)]
    pub levels: u32,
    /// How many runs, with seeds N, N+1, …; prints the distribution of levels won.
    #[arg(long, default_value_t = 1)]
    pub runs: u64,
    /// Write the result as JSON to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// The ascension level of the runs (0: none; the level setter lists the levels).
    #[arg(long, default_value_t = 0)]
    pub ascension: u32,
    /// The difficulty setting: auto, easy, normal or hard.
    #[arg(long, default_value = "auto", value_parser = parse_difficulty)]
    pub difficulty: Difficulty,
    /// Record every level played as a battle record in DIR (`run-<seed>-level-<k>.json`), for
    /// `rampart replay`.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
}

/// What `--runs` writes as JSON.
#[derive(Serialize)]
struct Sweep<'a> {
    first_seed: u64,
    runs: u64,
    ascension: u32,
    difficulty: Difficulty,
    max_levels: u32,
    /// `distribution[k]` runs won exactly `k` levels.
    distribution: Vec<u64>,
    mean_levels_won: f64,
    reports: &'a [RunReport],
}

/// Runs the command.
pub fn run(context: &Context, args: &SimulateArgs) -> Result<(), Failure> {
    if args.runs == 0 || args.levels == 0 {
        return Err(Failure::error("--runs and --levels must be at least 1"));
    }
    let Some(last_seed) = args.seed.checked_add(args.runs - 1) else {
        return Err(Failure::error(format!(
            "--seed {} with --runs {} goes past the largest seed, {}",
            args.seed,
            args.runs,
            u64::MAX
        )));
    };
    if let Some(dir) = &args.record {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::error(format!("cannot create {}: {e}", dir.display())))?;
    }
    let content = Arc::new(context.load_content());
    let mut progress = Progress::new(args.runs);
    let mut reports = Vec::new();
    let mut record_error = None;
    for seed in args.seed..=last_seed {
        let config = RunConfig {
            seed,
            starting_blueprints: None,
            difficulty: args.difficulty,
            ascension: args.ascension,
        };
        let played = play_run(&content, config, args.levels, |plan, battle| {
            let Some(dir) = &args.record else {
                return;
            };
            let path = dir.join(format!("run-{seed}-level-{}.json", plan.level));
            let record = Replay::record(battle, &plan.setup);
            let json = serde_json::to_string(&record).expect("records serialise");
            if let Err(e) = std::fs::write(&path, json) {
                record_error = Some(format!("cannot write {}: {e}", path.display()));
            }
        });
        match played {
            Ok(r) => reports.push(r),
            Err(e) => {
                progress.finish();
                return Err(Failure::error(format!("run {seed}: {e}")));
            }
        }
        progress.inc();
    }
    progress.finish();
    if let Some(e) = record_error {
        return Err(Failure::error(e));
    }
    if args.runs == 1 {
        let report = &reports[0];
        let json = serde_json::to_string_pretty(report).expect("reports serialise");
        return write_output(args.json.as_deref(), &json, || run_table(report));
    }
    let mut distribution = vec![0u64; args.levels as usize + 1];
    for r in &reports {
        distribution[r.levels_won as usize] += 1;
    }
    let total: u64 = reports.iter().map(|r| u64::from(r.levels_won)).sum();
    let sweep = Sweep {
        first_seed: args.seed,
        runs: args.runs,
        ascension: args.ascension,
        difficulty: args.difficulty,
        max_levels: args.levels,
        mean_levels_won: total as f64 / args.runs as f64,
        distribution,
        reports: &reports,
    };
    let json = serde_json::to_string_pretty(&sweep).expect("reports serialise");
    write_output(args.json.as_deref(), &json, || sweep_table(&sweep))
}

/// Reads `--difficulty`.
fn parse_difficulty(text: &str) -> Result<Difficulty, String> {
    match text.to_ascii_lowercase().as_str() {
        "auto" => Ok(Difficulty::Auto),
        "easy" => Ok(Difficulty::Easy),
        "normal" => Ok(Difficulty::Normal),
        "hard" => Ok(Difficulty::Hard),
        _ => Err(format!(
            "`{text}` is not a difficulty: use auto, easy, normal or hard"
        )),
    }
}

/// Progress of a sweep on standard error, which leaves standard output the same everywhere: a bar
/// on a terminal; elsewhere (a pipe, a log), where a bar redrawn in place would not show, a line
/// every tenth of the runs.
enum Progress {
    Bar(ProgressBar),
    Lines { done: u64, runs: u64 },
    Quiet,
}

impl Progress {
    fn new(runs: u64) -> Progress {
        if runs <= 1 {
            return Progress::Quiet;
        }
        if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            return Progress::Lines { done: 0, runs };
        }
        let bar = ProgressBar::with_draw_target(Some(runs), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} runs, {elapsed} ({eta} left)")
                .expect("a valid template"),
        );
        Progress::Bar(bar)
    }

    /// One more run done.
    fn inc(&mut self) {
        match self {
            Progress::Bar(bar) => bar.inc(1),
            Progress::Lines { done, runs } => {
                *done += 1;
                let every = runs.div_ceil(10);
                if done.is_multiple_of(every) || done == runs {
                    eprintln!("{done}/{runs} runs");
                }
            }
            Progress::Quiet => {}
        }
    }

    /// Removes the bar before the results are printed.
    fn finish(&self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

/// One run, level by level.
fn run_table(r: &RunReport) -> String {
    let mut out = format!("run {}\n", r.seed);
    out += "level  terrain          paths  result   waves  hull   fuel       materials  towers  other  reward\n";
    for l in &r.levels {
        out += &format!(
            "{:>5}  {:<16} {:>5}  {:<7} {:>3}/{:<3} {:>4}  {:>4}/{:<5} {:>9.0} {:>7} {:>6}  {}\n",
            l.level,
            l.terrain,
            l.paths,
            format!("{:?}", l.result).to_lowercase(),
            l.waves_survived,
            l.waves,
            l.hull,
            l.fuel,
            l.fuel_goal,
            l.materials,
            l.towers,
            l.buildings,
            l.reward.as_deref().unwrap_or("-"),
        );
    }
    let last = r.levels.last().map_or(0, |l| l.level);
    let outcome = match r.result {
        rampart::autopilot::LevelResult::Won => {
            format!("won all {} levels played", r.levels_won)
        }
        rampart::autopilot::LevelResult::Lost => format!("lost at level {last}"),
        rampart::autopilot::LevelResult::Stalled => format!("stalled at level {last}"),
    };
    out += &format!(
        "result: {outcome}; {} level(s) won, hull {}\ncollection: {}",
        r.levels_won,
        r.hull,
        r.collection.join(", ")
    );
    out
}

/// The distribution of levels won over many runs.
fn sweep_table(s: &Sweep) -> String {
    let last = s.first_seed + s.runs - 1;
    let mut out = format!(
        "{} runs (seeds {}–{last}), at most {} levels each, ascension {}, difficulty {:?}\nlevels won  runs  share\n",
        s.runs, s.first_seed, s.max_levels, s.ascension, s.difficulty
    );
    for (k, &n) in s.distribution.iter().enumerate() {
        let share = n as f64 / s.runs as f64;
        let bar = "#".repeat((share * 40.0).round() as usize);
        out += &format!("{k:>10}  {n:>4}  {:>5.1}%  {bar}\n", 100.0 * share);
    }
    out += "level  reached  won\n";
    for level in 1..=s.max_levels {
        let reached = s
            .reports
            .iter()
            .filter(|r| r.levels_reached >= level)
            .count();
        let won = s.reports.iter().filter(|r| r.levels_won >= level).count();
        out += &format!("{level:>5}  {reached:>7}  {won:>3}\n");
    }
    out += &format!("mean levels won: {:.2}", s.mean_levels_won);
    out
}
