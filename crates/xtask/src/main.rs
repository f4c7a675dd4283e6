//! `cargo xtask`: the project's own tasks. `cargo xtask dist` builds the `rampart` binary as a
//! packaged build and packs it into the archive players download.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use xtask::{Compression, Error, Pack};

/// The project's own tasks.
#[derive(Parser)]
#[command(name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Build `rampart` for a target as a packaged build (it finds its game next to itself only)
    /// and pack it with the game's mods, a README and the licences into
    /// `rampart-<version>-<target>.tar.gz`, or `.zip` for a Windows target.
    Dist(DistArgs),
}

#[derive(clap::Args)]
struct DistArgs {
    /// The target triple to build for [default: this machine's].
    #[arg(long, value_name = "TRIPLE")]
    target: Option<String>,
    /// The cargo profile to build with.
    #[arg(long, value_name = "PROFILE", default_value = "release")]
    profile: String,
    /// Build without the `rampart` crate's default features: no game window.
    #[arg(long)]
    no_default_features: bool,
    /// The folder to write the archive into [default: `dist` in cargo's target folder].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

fn main() -> ExitCode {
    let Task::Dist(args) = Cli::parse().task;
    match dist(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn dist(args: &DistArgs) -> Result<(), Error> {
    // This crate is `crates/xtask` of the repository.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .ok_or_else(|| Error::new("the repository's root is not above crates/xtask"))?;
    let target = match &args.target {
        Some(target) => target.clone(),
        None => xtask::host_target()?,
    };
    let target_dir = cargo_metadata::MetadataCommand::new()
        .cargo_path(xtask::cargo().get_program())
        .manifest_path(root.join("Cargo.toml"))
        .no_deps()
        .exec()
        .map_err(|e| Error::new(format!("`cargo metadata` failed: {e}")))?
        .target_directory
        .into_std_path_buf();

    let mut build = xtask::cargo();
    build
        .current_dir(root)
        .args(["build", "--locked", "-p", "rampart", "--target", &target])
        .args(["--profile", &args.profile])
        // A packaged build looks for its game next to itself only, never in this checkout
        // (crates/core/src/modding/game.rs).
        .env("RAMPART_PACKAGED", "1");
    if args.no_default_features {
        build.arg("--no-default-features");
    }
    let status = build
        .status()
        .map_err(|e| Error::new(format!("cannot run `cargo build`: {e}")))?;
    if !status.success() {
        return Err(Error::new(format!("`cargo build` failed ({status})")));
    }

    let binary = target_dir
        .join(&target)
        .join(profile_folder(&args.profile))
        .join(xtask::program(&target));
    let out = args.out.clone().unwrap_or_else(|| target_dir.join("dist"));
    let archive = xtask::pack(&Pack {
        binary: &binary,
        target: &target,
        default_features: !args.no_default_features,
        root,
        out: &out,
        compression: Compression::best(),
    })?;
    let size = std::fs::metadata(&archive).map_or(0, |m| m.len());
    println!(
        "{} ({:.1} MB)",
        archive.display(),
        size as f64 / 1_000_000.0
    );
    Ok(())
}

/// The folder of cargo's target folder that a profile's build goes into.
fn profile_folder(profile: &str) -> &str {
    match profile {
        "dev" | "test" => "debug",
        "bench" => "release",
        other => other,
    }
}
