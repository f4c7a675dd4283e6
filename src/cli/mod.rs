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

use clap::{Parser, Subcommand};

use rampart::content::ContentDb;
use rampart::diagnostics::Diagnostic;
use rampart::modding::{ModSet, ModSettings, UserDirs, mod_dirs};

/// Rampart: a roguelike tower-defense game built from mods.
///
/// Mods are folders with a mod.ron; they are read from ./mods, from the user data folder's
/// mods/ (or $RAMPART_HOME/mods), and from every --mods-dir.
#[derive(Debug, Parser)]
#[command(
    name = "rampart",
    version,
    propagate_version = true,
    after_help = "Exit status: 0 when all went well; 1 when what the command examined has errors \
                  (the mods' content, a replay that does not match), having done what it could \
                  with the rest; 2 when it could not do what was asked."
)]
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

/// Why a command did not succeed. `main` prints it and exits with its [`Failure::code`]: the one
/// exit-code policy of `rampart`, written in `--help`.
#[derive(Debug)]
pub enum Failure {
    /// What the command examined has errors — the mods' content (printed as diagnostics as it
    /// loaded), a replay that does not match: exit 1. The command did what it could with the
    /// rest. `None` when everything was said already (`rampart check`'s summary).
    Found(Option<String>),
    /// The command could not do what was asked — an argument, an id, a file it cannot read or
    /// write, a run that cannot be set up: exit 2 (as for arguments `clap` refuses).
    Error(String),
}

impl Failure {
    /// Exit 2 with `message`.
    pub fn error(message: impl std::fmt::Display) -> Failure {
        Failure::Error(message.to_string())
    }

    /// The process's exit code.
    pub fn code(&self) -> u8 {
        match self {
            Failure::Found(_) => 1,
            Failure::Error(_) => 2,
        }
    }

    /// What is left to say, if anything.
    pub fn message(&self) -> Option<&str> {
        match self {
            Failure::Found(message) => message.as_deref(),
            Failure::Error(message) => Some(message),
        }
    }
}

/// What every command gets: the extra mod folders, and a count of the content errors printed
/// while loading, which decides the exit code when the command itself succeeds.
pub struct Context {
    mods_dirs: Vec<PathBuf>,
    content_errors: std::cell::Cell<usize>,
}

impl Context {
    /// The context of one command line.
    pub fn new(mods_dirs: Vec<PathBuf>) -> Context {
        Context {
            mods_dirs,
            content_errors: std::cell::Cell::new(0),
        }
    }

    /// The folders given with `--mods-dir` (the game's hot reload looks in them again).
    #[cfg_attr(not(feature = "client"), allow(dead_code))]
    pub fn mods_dirs(&self) -> &[PathBuf] {
        &self.mods_dirs
    }

    /// Finds the mods, reporting a broken settings file as a diagnostic.
    pub fn find_mods(&self) -> Found {
        find_mods(&self.mods_dirs)
    }

    /// Finds and loads the mods' content, printing its errors; content with errors is left out
    /// and the rest is returned. The errors are counted toward the exit code.
    pub fn load_content(&self) -> ContentDb {
        let found = self.find_mods();
        let (content, diagnostics) = ContentDb::load(&found.mods);
        let errors: Vec<&Diagnostic> = found
            .mods
            .diagnostics
            .iter()
            .chain(diagnostics.iter())
            .filter(|d| d.is_error())
            .collect();
        self.content_errors
            .set(self.content_errors.get() + errors.len());
        print_diagnostics(errors);
        content
    }

    /// Success, unless content errors were printed: then exit 1, the command having used what
    /// loaded.
    fn finish(&self) -> Result<(), Failure> {
        match self.content_errors.get() {
            0 => Ok(()),
            n => Err(Failure::Found(Some(format!(
                "the mods have {n} error{} (above); their content was left out",
                if n == 1 { "" } else { "s" }
            )))),
        }
    }
}

/// Runs the chosen command.
pub fn run(cli: Cli) -> Result<(), Failure> {
    let context = Context::new(cli.mods_dirs);
    let command = cli
        .command
        .unwrap_or_else(|| Command::Play(play::PlayArgs::default()));
    match command {
        Command::Play(args) => play::run(&context, &args),
        Command::Check => check::run(&context),
        Command::Mods(args) => mods::run(&context, &args),
        Command::Generate(args) => generate::run(&context, &args),
        Command::Replay(args) => replay::run(&context, &args),
        Command::Waves(args) => waves::run(&context, &args),
        Command::Simulate(args) => simulate::run(&context, &args),
        Command::Try(args) => trial::run(&context, &args),
    }?;
    context.finish()
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

/// Writes `json` to the `--json` target (a file, or standard output for `-`); without one, or
/// after writing a file, prints `text()` for the terminal.
pub fn write_output(
    target: Option<&str>,
    json: &str,
    text: impl FnOnce() -> String,
) -> Result<(), Failure> {
    match target {
        Some("-") => println!("{json}"),
        Some(path) => {
            std::fs::write(path, format!("{json}\n"))
                .map_err(|e| Failure::error(format!("cannot write {path}: {e}")))?;
            println!("{}", text());
        }
        None => println!("{}", text()),
    }
    Ok(())
}

/// Prints diagnostics to stderr, in colour on a terminal: at most
/// [`SHOWN_PER_FILE`](rampart::diagnostics::SHOWN_PER_FILE) per file, then how many more.
pub fn print_diagnostics<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) {
    let color = std::io::stderr().is_terminal();
    let (shown, left_out) = rampart::diagnostics::shown_per_file(diagnostics);
    for d in shown {
        eprint!("{}", d.render(color));
    }
    for (file, n) in left_out {
        eprintln!(
            "... and {n} more problem{} in {} (the first {} are shown above)",
            if n == 1 { "" } else { "s" },
            file.display(),
            rampart::diagnostics::SHOWN_PER_FILE
        );
    }
}
