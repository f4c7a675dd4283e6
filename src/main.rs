//! The `rampart` command: play the game, or check and list mods.

mod cli;

use std::process::ExitCode;

use clap::Parser;

/// Every command's result is printed here, once, and turned into the exit code.
fn main() -> ExitCode {
    let args = cli::Cli::parse();
    cli::init_logging(&args.log);
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
