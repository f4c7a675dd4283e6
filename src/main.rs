//! The `rampart` command: play the game, or check and list mods.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    cli::init_logging(&args.log);
    cli::run(args)
}
