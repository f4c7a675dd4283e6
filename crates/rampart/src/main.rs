//! The `rampart` command: play the game, or check and list mods.

mod cli;

use std::process::ExitCode;

use clap::Parser;

/// Every command's result is printed here, once, and turned into the exit code.
fn main() -> ExitCode {
    let args = cli::Cli::parse();
    cli::init_logging(&args.log);
    let subcommand = cli::subcommand_name(&args);
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        // The details (and a backtrace with RUST_BACKTRACE=1) first, then what it means.
        default_hook(info);
        eprintln!("{}", cli::panic_message(subcommand));
        std::process::exit(101);
    }));
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            if let Some(message) = failure.message() {
                eprintln!("error: {message}");
            }
            ExitCode::from(failure.code())
        }
    }
}
