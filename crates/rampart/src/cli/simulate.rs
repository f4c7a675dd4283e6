//! `rampart simulate`: runs played headless by the autopilot — one in detail, or many for the
//! acts reached and won, the win rate and the levels won, per ascension level; with `--profile`,
//! what the mods' scripts cost over every battle played.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use rampart_autopilot::{LevelResult, RunReport, play_run_with};
use rampart_core::battle::ScriptCosts;
use rampart_core::level::replay::Replay;
use rampart_core::run::{Difficulty, Run, RunConfig};

use super::{Context, Failure, Jobs, write_output};

/// Options of `rampart simulate`.
#[derive(Debug, Args)]
pub struct SimulateArgs {
    /// The run seed (with --runs, the first of consecutive seeds).
    #[arg(long, allow_negative_numbers = true, value_parser = super::parse_seed,
          required_unless_present = "merge")]
    pub seed: Option<u64>,
    /// The most battles to play in a run; a run ends sooner when it is won or lost.
    #[arg(long, default_value_t = 100)]
    pub levels: u32,
    /// How many runs, with seeds N, N+1, …, at each ascension level; prints what they reached.
    #[arg(long, default_value_t = 1)]
    pub runs: u64,
    /// Write the result as JSON to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// The ascension level of the runs (0: none; the level setter lists the levels), or a range
    /// `A-B` to play the same seeds at each level from A to B.
    #[arg(long, default_value = "0", value_parser = parse_ascensions)]
    pub ascension: Ascensions,
    /// The difficulty setting: auto, easy, normal or hard.
    #[arg(long, default_value = "auto", value_parser = parse_difficulty)]
    pub difficulty: Difficulty,
    /// Record every level played as a battle record in DIR (`run-<seed>-level-<k>.json`), for
    /// `rampart replay`.
    #[arg(long, value_name = "DIR")]
    pub record: Option<PathBuf>,
    /// Instead of playing, merge sweeps written with `--runs N --json FILE` over consecutive
    /// seed ranges (on other machines, say) into the report one sweep over all of them gives.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["seed", "record", "profile"])]
    pub merge: Vec<PathBuf>,
    /// After the usual output, print what the mods' scripts cost over every battle played: per
    /// mod, and the scripts that ran the most instructions, with their calls, instructions (the
    /// same on every machine), share and wall time in milliseconds. On standard error when the
    /// JSON goes to standard output.
    #[arg(long)]
    pub profile: bool,
    #[command(flatten)]
    pub jobs: Jobs,
}

/// The ascension levels `--ascension` asks for: `from` to `to`, both included.
#[derive(Clone, Copy, Debug)]
pub struct Ascensions {
    from: u32,
    to: u32,
}

/// Reads `--ascension`: `A` or `A-B`.
fn parse_ascensions(text: &str) -> Result<Ascensions, String> {
    let (from, to) = super::parse_range(text, 0, "an ascension level")?;
    Ok(Ascensions { from, to })
}

/// What `--runs` writes as JSON, and `--merge` reads back.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Sweep {
    first_seed: u64,
    runs: u64,
    difficulty: Difficulty,
    max_levels: u32,
    /// The acts a run has.
    acts: u32,
    /// One summary per ascension level played.
    ascensions: Vec<Summary>,
    /// Every run, by ascension level and then by seed.
    reports: Vec<RunReport>,
}

/// What the runs at one ascension level came to.
#[derive(Serialize, Deserialize)]
struct Summary {
    ascension: u32,
    runs: u64,
    /// Runs whose last act's boss was beaten.
    won: u64,
    win_rate: f64,
    /// `acts_reached[a]` runs reached act `a + 1`.
    acts_reached: Vec<u64>,
    /// `acts_won[a]` runs beat the boss of act `a + 1`.
    acts_won: Vec<u64>,
    /// `distribution[k]` runs won exactly `k` battles.
    distribution: Vec<u64>,
    mean_levels_won: f64,
    mean_rooms: f64,
    mean_money_earned: f64,
    /// Acts won without a won boss battle in them: must be 0.
    acts_won_without_boss: u64,
}

impl Summary {
    fn new(ascension: u32, acts: u32, reports: &[&RunReport]) -> Summary {
        let runs = reports.len() as u64;
        let share = |n: u64| {
            if runs == 0 {
                0.0
            } else {
                n as f64 / runs as f64
            }
        };
        let mean = |f: &dyn Fn(&RunReport) -> f64| {
            if runs == 0 {
                0.0
            } else {
                reports.iter().map(|r| f(r)).sum::<f64>() / runs as f64
            }
        };
        let won = reports.iter().filter(|r| r.won).count() as u64;
        let count_acts = |f: &dyn Fn(&RunReport) -> u32| -> Vec<u64> {
            (1..=acts)
                .map(|a| reports.iter().filter(|r| f(r) >= a).count() as u64)
                .collect()
        };
        let most_won = reports.iter().map(|r| r.levels_won).max().unwrap_or(0);
        let mut distribution = vec![0u64; most_won as usize + 1];
        for r in reports {
            distribution[r.levels_won as usize] += 1;
        }
        let without_boss = reports
            .iter()
            .map(|r| {
                let bosses = r
                    .levels
                    .iter()
                    .filter(|l| l.kind == "boss" && l.result == LevelResult::Won)
                    .count() as u32;
                u64::from(r.acts_won.saturating_sub(bosses))
            })
            .sum();
        Summary {
            ascension,
            runs,
            won,
            win_rate: share(won),
            acts_reached: count_acts(&|r| r.acts_reached),
            acts_won: count_acts(&|r| r.acts_won),
            distribution,
            mean_levels_won: mean(&|r| f64::from(r.levels_won)),
            mean_rooms: mean(&|r| f64::from(r.rooms)),
            mean_money_earned: mean(&|r| f64::from(r.money + r.money_spent)),
            acts_won_without_boss: without_boss,
        }
    }
}

/// Runs the command.
pub fn run(context: &Context, args: &SimulateArgs) -> Result<(), Failure> {
    if !args.merge.is_empty() {
        let sweep = merge(&args.merge)?;
        let json = serde_json::to_string_pretty(&sweep).expect("reports serialise");
        return write_output(args.json.as_deref(), &json, || sweep_table(&sweep));
    }
    let seed = args
        .seed
        .expect("clap asks for --seed unless --merge is given");
    if args.runs == 0 || args.levels == 0 {
        return Err(Failure::error("--runs and --levels must be at least 1"));
    }
    let Some(last_seed) = seed.checked_add(args.runs - 1) else {
        return Err(Failure::error(format!(
            "--seed {seed} with --runs {} goes past the largest seed, {}",
            args.runs,
            u64::MAX
        )));
    };
    if let Some(dir) = &args.record {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::error(format!("cannot create {}: {e}", dir.display())))?;
    }
    let content = Arc::new(context.load_content());
    let acts = Run::acts(&content).map_err(|e| Failure::error(e.to_string()))?;
    let ascensions: Vec<u32> = (args.ascension.from..=args.ascension.to).collect();
    let runs: Vec<(u32, u64)> = ascensions
        .iter()
        .flat_map(|&a| (seed..=last_seed).map(move |s| (a, s)))
        .collect();
    let progress = Progress::new(runs.len() as u64);
    // Each run is independent and collected in order, so the report is the same with any
    // number of threads.
    let played: Vec<Result<(RunReport, ScriptCosts), String>> = args.jobs.install(|| {
        runs.par_iter()
            .map(|&(ascension, seed)| {
                let report = play_one(&content, args, ascension, seed);
                progress.inc();
                report
            })
            .collect()
    })?;
    progress.finish();
    let (reports, costs): (Vec<RunReport>, Vec<ScriptCosts>) = played
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::error)?
        .into_iter()
        .unzip();
    if reports.len() == 1 {
        let report = &reports[0];
        let json = serde_json::to_string_pretty(report).expect("reports serialise");
        write_output(args.json.as_deref(), &json, || run_table(report))?;
        return print_profile(args, &costs);
    }
    let sweep = Sweep::new(
        seed,
        args.runs,
        args.difficulty,
        args.levels,
        acts,
        &ascensions,
        reports,
    );
    let json = serde_json::to_string_pretty(&sweep).expect("reports serialise");
    write_output(args.json.as_deref(), &json, || sweep_table(&sweep))?;
    print_profile(args, &costs)
}

/// Scripts listed by `--profile` (the rest are counted on one line).
const PROFILE_TOP: usize = 20;

/// With `--profile`, prints the scripts' costs of every run added up (in run order, so the
/// counts do not depend on the threads): on standard output after the usual output, or on
/// standard error when the JSON went to standard output.
fn print_profile(args: &SimulateArgs, runs: &[ScriptCosts]) -> Result<(), Failure> {
    if !args.profile {
        return Ok(());
    }
    let mut costs = ScriptCosts::default();
    for run in runs {
        costs.add(run);
    }
    let table = costs.report(PROFILE_TOP).to_string();
    match args.json.as_deref() {
        Some("-") => eprintln!("{table}"),
        _ => out!("\n{table}"),
    }
    Ok(())
}

/// Plays the run with `seed` at `ascension`, recording its levels when `--record` asks; with
/// `--profile`, also what its battles' scripts cost (otherwise an empty table).
fn play_one(
    content: &Arc<rampart_core::content::ContentDb>,
    args: &SimulateArgs,
    ascension: u32,
    seed: u64,
) -> Result<(RunReport, ScriptCosts), String> {
    let config = RunConfig {
        seed,
        starting_blueprints: None,
        difficulty: args.difficulty,
        ascension,
    };
    let mut record_error = None;
    let mut costs = ScriptCosts::default();
    let time_scripts =
        |battle: &mut rampart_core::battle::Battle| battle.time_scripts(args.profile);
    let report = play_run_with(
        content,
        config,
        args.levels,
        time_scripts,
        |plan, battle| {
            if args.profile {
                costs.add(&battle.script_costs());
            }
            let Some(dir) = &args.record else {
                return;
            };
            let name = match ascension {
                0 => format!("run-{seed}-level-{}.json", plan.level),
                a => format!("run-{seed}-a{a}-level-{}.json", plan.level),
            };
            let path = dir.join(name);
            let record = Replay::record(battle, &plan.setup);
            let json = serde_json::to_string(&record).expect("records serialise");
            if let Err(e) = std::fs::write(&path, json) {
                record_error = Some(format!("cannot write {}: {e}", path.display()));
            }
        },
    )
    .map_err(|e| format!("run {seed}: {e}"))?;
    match record_error {
        Some(e) => Err(e),
        None => Ok((report, costs)),
    }
}

impl Sweep {
    /// The sweep of `reports`, which hold `runs` seeds from `first_seed` at each of
    /// `ascensions`, ordered by ascension level and then by seed.
    fn new(
        first_seed: u64,
        runs: u64,
        difficulty: Difficulty,
        max_levels: u32,
        acts: u32,
        ascensions: &[u32],
        reports: Vec<RunReport>,
    ) -> Sweep {
        let summaries = ascensions
            .iter()
            .map(|&a| {
                let at: Vec<&RunReport> = reports.iter().filter(|r| r.ascension == a).collect();
                Summary::new(a, acts, &at)
            })
            .collect();
        Sweep {
            first_seed,
            runs,
            difficulty,
            max_levels,
            acts,
            ascensions: summaries,
            reports,
        }
    }

    /// The seeds it covers, as text: `5–8`, or `5` alone.
    fn seeds(&self) -> String {
        match self.runs {
            0 | 1 => self.first_seed.to_string(),
            n => format!("{}–{}", self.first_seed, self.first_seed + (n - 1)),
        }
    }
}

/// Reads the sweeps in `files` and makes the one sweep over all their seeds. They must have been
/// played with the same settings over seed ranges that follow each other without gap or overlap.
fn merge(files: &[PathBuf]) -> Result<Sweep, Failure> {
    let mut parts: Vec<(&Path, Sweep)> = Vec::new();
    for file in files {
        parts.push((file, read_sweep(file)?));
    }
    parts.sort_by_key(|(_, s)| s.first_seed);
    let (first_file, first) = &parts[0];
    let levels_of = |s: &Sweep| -> Vec<u32> { s.ascensions.iter().map(|a| a.ascension).collect() };
    let ascensions = levels_of(first);
    for pair in parts.windows(2) {
        let ((a_file, a), (b_file, b)) = (&pair[0], &pair[1]);
        let next = a.first_seed.saturating_add(a.runs);
        if b.first_seed != next {
            let what = if b.first_seed < next {
                "overlap"
            } else {
                "leave a gap"
            };
            return Err(Failure::error(format!(
                "{} (seeds {}) and {} (seeds {}) {what}: the parts must cover consecutive seed ranges",
                a_file.display(),
                a.seeds(),
                b_file.display(),
                b.seeds()
            )));
        }
    }
    for (file, part) in &parts[1..] {
        let settings = |s: &Sweep| (s.difficulty, s.max_levels, s.acts, levels_of(s));
        if settings(part) != settings(first) {
            return Err(Failure::error(format!(
                "{} was played with other settings than {} (difficulty {:?} and {:?}, --levels {} \
                 and {}, ascension levels {:?} and {:?}): merge only parts of one sweep",
                file.display(),
                first_file.display(),
                part.difficulty,
                first.difficulty,
                part.max_levels,
                first.max_levels,
                levels_of(part),
                ascensions
            )));
        }
    }
    let (first_seed, difficulty, max_levels, acts) = (
        first.first_seed,
        first.difficulty,
        first.max_levels,
        first.acts,
    );
    let runs = parts.iter().map(|(_, s)| s.runs).sum();
    let mut reports: Vec<RunReport> = parts.into_iter().flat_map(|(_, s)| s.reports).collect();
    // A stable sort: by ascension level in the order played, then by seed.
    reports.sort_by_key(|r| {
        let at = ascensions.iter().position(|&a| a == r.ascension);
        (at, r.seed)
    });
    Ok(Sweep::new(
        first_seed,
        runs,
        difficulty,
        max_levels,
        acts,
        &ascensions,
        reports,
    ))
}

/// One part of a sweep, checked to hold the runs its header says.
fn read_sweep(file: &Path) -> Result<Sweep, Failure> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| Failure::error(format!("cannot read {}: {e}", file.display())))?;
    let sweep: Sweep = serde_json::from_str(&text).map_err(|e| {
        let single = serde_json::from_str::<RunReport>(&text).is_ok();
        Failure::error(match single {
            true => format!(
                "{} holds the report of a single run: write the parts with --runs 2 or more",
                file.display()
            ),
            false => format!(
                "{} is not a sweep written by `rampart simulate --runs N --json FILE`: {e}",
                file.display()
            ),
        })
    })?;
    let expected = sweep.runs.saturating_mul(sweep.ascensions.len() as u64);
    let seeds = sweep.first_seed..sweep.first_seed.saturating_add(sweep.runs);
    let levels: Vec<u32> = sweep.ascensions.iter().map(|a| a.ascension).collect();
    let fits = |r: &RunReport| seeds.contains(&r.seed) && levels.contains(&r.ascension);
    if sweep.reports.len() as u64 != expected || !sweep.reports.iter().all(fits) {
        return Err(Failure::error(format!(
            "{} is damaged: it should hold {expected} runs of seeds {} at ascension levels \
             {levels:?}, and holds {}",
            file.display(),
            sweep.seeds(),
            sweep.reports.len()
        )));
    }
    Ok(sweep)
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
    /// Runs done (behind a lock so the lines come in order from any thread) and in all.
    Lines {
        done: Mutex<u64>,
        runs: u64,
    },
    Quiet,
}

impl Progress {
    fn new(runs: u64) -> Progress {
        if runs <= 1 {
            return Progress::Quiet;
        }
        if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
            return Progress::Lines {
                done: Mutex::new(0),
                runs,
            };
        }
        let bar = ProgressBar::with_draw_target(Some(runs), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} runs, {elapsed} ({eta} left)")
                .expect("a valid template"),
        );
        Progress::Bar(bar)
    }

    /// One more run done.
    fn inc(&self) {
        match self {
            Progress::Bar(bar) => bar.inc(1),
            Progress::Lines { done, runs } => {
                let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
                *done += 1;
                if done.is_multiple_of(runs.div_ceil(10)) || *done == *runs {
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
    let mut out = format!("run {} (ascension {})\n", r.seed, r.ascension);
    out += "act  level  kind    terrain          paths  result   waves  hull   fuel       materials  towers  other  reward\n";
    for l in &r.levels {
        out += &format!(
            "{:>3}  {:>5}  {:<7} {:<16} {:>5}  {:<7} {:>3}/{:<3} {:>4}  {:>4}/{:<5} {:>9.0} {:>7} {:>6}  {}\n",
            l.act,
            l.level,
            l.kind,
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
    let outcome = match (r.won, r.result) {
        (true, _) => "run won".to_string(),
        (false, LevelResult::Lost) => format!("lost at level {last} in act {}", r.acts_reached),
        (false, LevelResult::Stalled) => format!("stalled at level {last}"),
        (false, LevelResult::Won) => format!("stopped after {} levels", r.levels.len()),
    };
    out += &format!(
        "result: {outcome}; {} level(s) won, {} act(s) won, {} rooms entered, hull {}, money {} ({} spent)\ncollection: {}",
        r.levels_won,
        r.acts_won,
        r.rooms,
        r.hull,
        r.money,
        r.money_spent,
        r.collection.join(", ")
    );
    out
}

/// What many runs reached, per ascension level.
fn sweep_table(s: &Sweep) -> String {
    let mut out = format!(
        "{} runs (seeds {}) per ascension level, at most {} levels each, difficulty {:?}\n",
        s.runs,
        s.seeds(),
        s.max_levels,
        s.difficulty
    );
    out += "ascension  won    win rate  levels won  rooms  money";
    for a in 1..=s.acts {
        out += &format!("  act {a} reached/won");
    }
    out += "\n";
    for a in &s.ascensions {
        out += &format!(
            "{:>9}  {:>4}  {:>7.1}%  {:>10.2}  {:>5.1}  {:>5.0}",
            a.ascension,
            a.won,
            100.0 * a.win_rate,
            a.mean_levels_won,
            a.mean_rooms,
            a.mean_money_earned
        );
        for (reached, won) in a.acts_reached.iter().zip(&a.acts_won) {
            out += &format!("  {:>17}", format!("{reached}/{won}"));
        }
        out += "\n";
    }
    for a in &s.ascensions {
        out += &format!("ascension {}: levels won  runs  share\n", a.ascension);
        for (k, &n) in a.distribution.iter().enumerate() {
            let share = n as f64 / a.runs.max(1) as f64;
            let bar = "#".repeat((share * 40.0).round() as usize);
            out += &format!("{k:>23}  {n:>4}  {:>5.1}%  {bar}\n", 100.0 * share);
        }
    }
    out.pop();
    out
}
