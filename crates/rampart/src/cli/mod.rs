//! Command-line interface. Results go to stdout, diagnostics and errors to stderr.

/// Prints a line to standard output like `println!`, through [`print_line`]: a reader that went
/// away (`rampart waves … | head -1`) ends the command quietly.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::print_line(format_args!($($arg)*))
    };
}

mod api;
mod breed;
mod check;
mod generate;
mod hexmap;
mod map;
mod mods;
mod new_mod;
mod play;
mod rate;
mod replay;
mod simulate;
mod test_mod;
mod trial;
mod waves;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use rampart_core::content::ContentDb;
use rampart_core::diagnostics::Diagnostic;
use rampart_core::modding::{Found, ModSet, UserDirs, find_mods, mod_dirs};

/// Rampart: a roguelike tower-defense game built from mods.
///
/// Mods are folders with a mod.ron; they are read from the game's own mods/ (next to this
/// program, or $RAMPART_GAME), from the user data folder's mods/ (or $RAMPART_HOME/mods), and
/// from every --mods-dir.
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

    /// How much to log: error, warn, info, debug or trace (or a tracing filter such as
    /// `warn,rampart::script=info`).
    #[arg(long, value_name = "LEVEL", global = true, default_value = "warn", value_parser = parse_log)]
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
    /// Exits with 1 when a mod cannot be loaded.
    Mods(mods::ModsArgs),
    /// Generate one world and print a summary, write it as JSON or draw it as a PNG.
    Generate(generate::GenerateArgs),
    /// Play a recorded battle again, check that every state hash it recorded matches, and list
    /// the commands the battle refused (docs/modding/records.md).
    Replay(replay::ReplayArgs),
    /// Print the generated waves of one level of a run, as the level setter makes them.
    Waves(waves::WavesArgs),
    /// Generate one act's run map, explored whole by an agent that takes every open door, and
    /// print a summary, write it as JSON or draw it as a PNG.
    Map(map::MapArgs),
    /// Generate one hex level in which every tile can be reached from the start (the hex
    /// accessibility generator) and print it, write it as JSON or draw it as a PNG.
    Hexmap(hexmap::HexmapArgs),
    /// Play runs headless with the autopilot: a table per level, or with --runs the
    /// distribution of levels won; with --profile, what each mod's scripts cost.
    Simulate(simulate::SimulateArgs),
    /// Measure a level design's difficulty: bots play it on several seeds; 0 is won without a
    /// scratch, 1 always lost.
    Rate(rate::RateArgs),
    /// Breed levels with a genetic algorithm until each sits on a difficulty curve, and write
    /// them as a level setter override a mod can ship.
    Breed(breed::BreedArgs),
    /// Try one blueprint in a small battle — a building beside a straight path (an ability used
    /// on it), one wave of one attacker type — or a scenario file, and report what every
    /// building and attacker type did.
    Try(trial::TryArgs),
    /// Play every scenario in a mod's tests/ folder against the mod and its dependencies, and
    /// say which pass (docs/modding/scenarios.md). Exits with 1 when one fails.
    TestMod(test_mod::TestModArgs),
    /// Start a new mod: a folder with a manifest, a tower and its script, a scenario that tests
    /// it, an editor configuration and a README, in the user mods folder or --dir.
    NewMod(new_mod::NewModArgs),
    /// Write the script API as type definitions for editors: a Luau definitions file for
    /// luau-lsp and annotations for the Lua Language Server (docs/modding/editor.md).
    Api(api::ApiArgs),
}

/// The levels `--log` takes on its own.
const LOG_LEVELS: [&str; 6] = ["off", "error", "warn", "info", "debug", "trace"];

/// Checks `--log`: a level, or a filter whose every part names a level (`target=level`). A bare
/// word is a target to tracing, so a misspelt level would silently log everything of a target
/// that does not exist.
fn parse_log(text: &str) -> Result<String, String> {
    let refuse = || {
        format!(
            "`{text}` is not a log level: use one of {}, or a filter such as `warn,rampart::script=info`",
            LOG_LEVELS.join(", ")
        )
    };
    for part in text.split(',') {
        let level = part.rsplit_once('=').map_or(part, |(_, level)| level);
        if !LOG_LEVELS.contains(&level.trim().to_ascii_lowercase().as_str()) {
            return Err(refuse());
        }
    }
    tracing_subscriber::EnvFilter::try_new(text).map_err(|_| refuse())?;
    Ok(text.to_string())
}

/// Reads a seed: a whole number from 0 to 18446744073709551615 (a negative one is refused with
/// that range instead of being taken for an option).
pub fn parse_seed(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| {
        format!(
            "`{text}` is not a seed: seeds are whole numbers from 0 to {}",
            u64::MAX
        )
    })
}

/// `--jobs`: how many threads a command that plays many independent games may use.
#[derive(Debug, Default, Args)]
pub struct Jobs {
    /// Play on K threads (default: one per core). The results are the same with any number.
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
}

impl Jobs {
    /// Runs `work` on a pool of the asked number of threads; `rayon`'s parallel iterators inside
    /// it use that pool.
    pub fn install<R: Send>(&self, work: impl FnOnce() -> R + Send) -> Result<R, Failure> {
        // The main thread's stack size, so a deep search behaves the same on any thread.
        let mut pool = rayon::ThreadPoolBuilder::new().stack_size(8 << 20);
        if let Some(k) = self.jobs {
            pool = pool.num_threads(usize::from(k));
        }
        let pool = pool
            .build()
            .map_err(|e| Failure::error(format!("cannot start the threads to play on: {e}")))?;
        Ok(pool.install(work))
    }
}

/// Reads `A` or a range `A-B` of numbers from `lowest` up, as `--ascension` and `--levels` take
/// them; `what` names one number in the error (`an ascension level`).
pub fn parse_range(text: &str, lowest: u32, what: &str) -> Result<(u32, u32), String> {
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n >= lowest)
            .ok_or_else(|| format!("`{text}` is not {what} or a range like {lowest}-10"))
    };
    let (from, to) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(text)?, number(text)?),
    };
    if to < from {
        return Err(format!("`{text}`: the range must go up, like {lowest}-10"));
    }
    Ok((from, to))
}

/// Writes one line of a command's output. When standard output is closed (the reader of a
/// pipe is done) the command ends here with success, as Unix tools do; another write error
/// ends it with exit 2.
pub fn print_line(args: std::fmt::Arguments) {
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_fmt(args)
        .and_then(|()| stdout.write_all(b"\n"))
        .and_then(|()| stdout.flush())
    {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(2);
    }
}

/// Sets up logging from `--log` (already checked by [`parse_log`]).
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

    /// The folders given with `--mods-dir` (the game looks in them again when it loads the mods
    /// again).
    #[cfg_attr(
        not(feature = "client"),
        expect(dead_code, reason = "only the game window loads the mods again")
    )]
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
        self.load(&self.find_mods().mods)
    }

    /// Loads the mod in the folder `root` and the mods it depends on, whether or not they are
    /// switched on, from the usual places and every `--mods-dir` (see [`ModSet::of_mod`]),
    /// printing the content's errors as [`Context::load_content`] does. A mod whose manifest
    /// cannot be read, or that cannot load, is an error.
    pub fn load_mod(&self, root: &std::path::Path) -> Result<(ContentDb, String), Failure> {
        let user = UserDirs::detect();
        let dirs = mod_dirs(&self.mods_dirs, user.as_ref());
        let (id, mods) = ModSet::of_mod(root, &dirs).map_err(|d| {
            print_diagnostics([&d]);
            Failure::error(format!(
                "{} is not a mod folder that reads (above)",
                root.display()
            ))
        })?;
        let content = self.load(&mods);
        if content.mods.iter().all(|m| m.id != id) {
            return Err(Failure::Found(Some(format!(
                "mod `{id}` in {} cannot load (above)",
                root.display()
            ))));
        }
        Ok((content, id))
    }

    /// Loads the content of `mods`, printing the errors and counting them toward the exit code.
    fn load(&self, mods: &ModSet) -> ContentDb {
        let (content, diagnostics) = ContentDb::load(mods);
        self.report(mods.diagnostics.iter().chain(diagnostics.iter()));
        content
    }

    /// Prints the errors among the diagnostics of loading the mods and counts them toward the
    /// exit code.
    pub fn report<'a>(&self, diagnostics: impl IntoIterator<Item = &'a Diagnostic>) {
        let errors: Vec<&Diagnostic> = diagnostics.into_iter().filter(|d| d.is_error()).collect();
        self.content_errors
            .set(self.content_errors.get() + errors.len());
        print_diagnostics(errors);
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

/// The subcommand's name, as typed (`play` when none was).
pub fn subcommand_name(cli: &Cli) -> &'static str {
    match cli.command {
        None | Some(Command::Play(_)) => "play",
        Some(Command::Check) => "check",
        Some(Command::Mods(_)) => "mods",
        Some(Command::Generate(_)) => "generate",
        Some(Command::Replay(_)) => "replay",
        Some(Command::Waves(_)) => "waves",
        Some(Command::Map(_)) => "map",
        Some(Command::Hexmap(_)) => "hexmap",
        Some(Command::Simulate(_)) => "simulate",
        Some(Command::Rate(_)) => "rate",
        Some(Command::Breed(_)) => "breed",
        Some(Command::Try(_)) => "try",
        Some(Command::TestMod(_)) => "test-mod",
        Some(Command::NewMod(_)) => "new-mod",
        Some(Command::Api(_)) => "api",
    }
}

/// What a crash says after the panic's own message: the last resort when a bug gets through,
/// printed before the process exits with 101.
pub fn panic_message(subcommand: &str) -> String {
    format!(
        "error: `rampart {subcommand}` stopped on an internal error (a bug in Rampart, not in your \
         mods). Please report it with the command line and the message above. Exit status 101."
    )
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
        Command::Map(args) => map::run(&context, &args),
        Command::Hexmap(args) => hexmap::run(&args),
        Command::Simulate(args) => simulate::run(&context, &args),
        Command::Rate(args) => rate::run(&context, &args),
        Command::Breed(args) => breed::run(&context, &args),
        Command::Try(args) => trial::run(&context, &args),
        Command::TestMod(args) => test_mod::run(&context, &args),
        Command::NewMod(args) => new_mod::run(&args),
        Command::Api(args) => api::run(&context, &args),
    }?;
    context.finish()
}

/// Writes `json` to the `--json` target (a file, or standard output for `-`); without one, or
/// after writing a file, prints `text()` for the terminal.
pub fn write_output(
    target: Option<&str>,
    json: &str,
    text: impl FnOnce() -> String,
) -> Result<(), Failure> {
    match target {
        Some("-") => out!("{json}"),
        Some(path) => {
            std::fs::write(path, format!("{json}\n"))
                .map_err(|e| Failure::error(format!("cannot write {path}: {e}")))?;
            out!("{}", text());
        }
        None => out!("{}", text()),
    }
    Ok(())
}

/// Writes the picture `png()` to the `--png` target, if one was given.
pub fn write_png(
    target: Option<&std::path::Path>,
    png: impl FnOnce() -> Vec<u8>,
) -> Result<(), Failure> {
    if let Some(path) = target {
        std::fs::write(path, png())
            .map_err(|e| Failure::error(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

/// Prints diagnostics to stderr, in colour on a terminal: at most
/// [`SHOWN_PER_FILE`](rampart_core::diagnostics::SHOWN_PER_FILE) per file, then how many more.
pub fn print_diagnostics<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) {
    let color = std::io::stderr().is_terminal();
    let (shown, left_out) = rampart_core::diagnostics::shown_per_file(diagnostics);
    for d in shown {
        eprint!("{}", d.render(color));
    }
    for (file, n) in left_out {
        eprintln!(
            "... and {n} more problem{} in {} (the first {} are shown above)",
            if n == 1 { "" } else { "s" },
            file.display(),
            rampart_core::diagnostics::SHOWN_PER_FILE
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_levels_and_filters_are_checked() {
        for good in [
            "warn",
            "INFO",
            "off",
            "warn,rampart::script=info",
            "rampart=debug",
        ] {
            assert!(parse_log(good).is_ok(), "{good}");
        }
        for bad in ["garbage", "wran", "warn,rampart", "rampart=loud", ""] {
            assert!(parse_log(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn seeds_cover_u64_and_say_so_otherwise() {
        assert_eq!(parse_seed("18446744073709551615"), Ok(u64::MAX));
        let refused = parse_seed("-1").unwrap_err();
        assert!(refused.contains("0 to 18446744073709551615"), "{refused}");
    }

    #[test]
    fn a_crash_names_the_command_and_asks_for_a_report() {
        let message = panic_message("simulate");
        assert!(message.contains("`rampart simulate`") && message.contains("report"));
        let cli = Cli::parse_from(["rampart", "waves", "--seed", "1"]);
        assert_eq!(subcommand_name(&cli), "waves");
        assert_eq!(subcommand_name(&Cli::parse_from(["rampart"])), "play");
    }
}
