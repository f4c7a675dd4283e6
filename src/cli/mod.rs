//! Command-line interface. Results go to stdout, diagnostics and errors to stderr.

mod check;
mod generate;
mod mods;
mod play;
mod replay;
mod simulate;
mod trial;
mod waves;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use rampart::content::ContentDb;
use rampart::diagnostics::Diagnostic;
use rampart::modding::{ModSet, ModSettings, UserDirs, mod_dirs};

/// Rampart: a roguelike tower-defense game built from mods.
///
/// Mods are folders with a mod.ron; they are read from ./mods, from the user data folder's
/// mods/ (or $RAMPART_HOME/mods), and from every --mods-dir.
#[derive(Debug, Parser)]
#[command(name = "rampart", version, propagate_version = true)]
pub struct Cli {
    /// An extra folder to load mods from (may be repeated).
    #[arg(long = "mods-dir", value_name = "DIR", global = true)]
    pub mods_dirs: Vec<PathBuf>,

    /// How much to log: error, warn, info, debug or trace (or a tracing filter).
    #[arg(long, value_name = "LEVEL", global = true, default_value = "warn")]
    pub log: String,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What to do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Start the game (the default when no command is given).
    Play(play::PlayArgs),
    /// Load and validate every enabled mod without starting the game: manifests, load order,
    /// content files, and each script's load phase in its sandbox. Exits with 1 on any error.
    Check,
    /// List mods in load order with versions and where each came from; switch mods on or off.
    Mods(mods::ModsArgs),
    /// Generate one world and print a summary, write it as JSON or draw it as a PNG.
    Generate(generate::GenerateArgs),
    /// Play a recorded battle again and check that every state hash it recorded matches.
    Replay(replay::ReplayArgs),
    /// Print the generated waves of one level of a run, as the level setter makes them.
    Waves(waves::WavesArgs),
    /// Play runs headless with the autopilot: a table per level, or with --runs the
    /// distribution of levels won.
    Simulate(simulate::SimulateArgs),
    /// Try one blueprint in a small battle: a building beside a straight path (an ability used
    /// on it), one wave of one attacker type, and what the blueprint did.
    Try(trial::TryArgs),
}

/// Sets up logging from `--log`.
pub fn init_logging(level: &str) {
    let filter = tracing_subscriber::EnvFilter::try_new(level)
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .without_time()
        .init();
}

/// Runs the chosen command.
pub fn run(cli: Cli) -> ExitCode {
    match cli
        .command
        .unwrap_or_else(|| Command::Play(play::PlayArgs::default()))
    {
        Command::Play(args) => play::run(&cli.mods_dirs, &args),
        Command::Check => check::run(&cli.mods_dirs),
        Command::Mods(args) => mods::run(&cli.mods_dirs, &args),
        Command::Generate(args) => generate::run(&cli.mods_dirs, &args),
        Command::Replay(args) => replay::run(&cli.mods_dirs, &args),
        Command::Waves(args) => waves::run(&cli.mods_dirs, &args),
        Command::Simulate(args) => simulate::run(&cli.mods_dirs, &args),
        Command::Try(args) => trial::run(&cli.mods_dirs, &args),
    }
}

/// The player's folders and mod choices, and the mods found with them.
pub struct Found {
    pub user: Option<UserDirs>,
    pub settings: ModSettings,
    pub mods: ModSet,
}

/// Finds the mods, reporting a broken settings file as a diagnostic.
pub fn find_mods(extra: &[PathBuf]) -> Found {
    let user = UserDirs::detect();
    let mut problems = Vec::new();
    let settings = match user.as_ref().map(|u| ModSettings::load(&u.settings_file())) {
        Some(Ok(s)) => s,
        Some(Err(d)) => {
            problems.push(d);
            ModSettings::default()
        }
        None => ModSettings::default(),
    };
    for dir in extra.iter().filter(|d| !d.is_dir()) {
        problems.push(Diagnostic::error(format!(
            "--mods-dir {} is not a folder",
            dir.display()
        )));
    }
    let dirs = mod_dirs(extra, user.as_ref());
    let mut mods = ModSet::discover(&dirs, &settings);
    let found = std::mem::take(&mut mods.diagnostics);
    mods.diagnostics.extend(problems);
    mods.diagnostics.extend(found);
    Found {
        user,
        settings,
        mods,
    }
}

/// Finds and loads the mods' content, printing the errors (content with errors is left out).
pub fn load_content(extra: &[PathBuf]) -> ContentDb {
    let found = find_mods(extra);
    let (content, diagnostics) = ContentDb::load(&found.mods);
    print_diagnostics(
        found
            .mods
            .diagnostics
            .iter()
            .chain(diagnostics.iter())
            .filter(|d| d.is_error()),
    );
    content
}

/// Writes `json` to the `--json` target (a file, or standard output for `-`); without one, or
/// after writing a file, prints `text()` for the terminal.
pub fn write_output(target: Option<&str>, json: &str, text: impl FnOnce() -> String) -> ExitCode {
    match target {
        Some("-") => println!("{json}"),
        Some(path) => {
            if let Err(e) = std::fs::write(path, format!("{json}\n")) {
                eprintln!("error: cannot write {path}: {e}");
                return ExitCode::FAILURE;
            }
            println!("{}", text());
        }
        None => println!("{}", text()),
    }
    ExitCode::SUCCESS
}

/// Prints diagnostics to stderr, in colour on a terminal.
pub fn print_diagnostics<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) {
    let color = std::io::stderr().is_terminal();
    for d in diagnostics {
        eprint!("{}", d.render(color));
    }
}
