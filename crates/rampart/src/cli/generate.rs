//! `rampart generate`: one world, as a summary, JSON or a picture; `--watch` regenerates it
//! whenever a terrain file of a loaded mod is saved.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use rampart_core::content::ContentDb;
use rampart_core::diagnostics::did_you_mean;
use rampart_core::modding::watch::FileWatcher;
use rampart_core::rng::Seed;
use rampart_core::terrain::ObstacleKind;
use rampart_core::worldgen::{World, WorldParams, generate_world, render_png};

use super::{Context, Failure, print_diagnostics};

/// Options of `rampart generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The world seed.
    #[arg(long, allow_negative_numbers = true, value_parser = super::parse_seed)]
    pub seed: u64,
    /// The terrain type, `mod:name` (default: the first loaded, preferring core:hills).
    #[arg(long, value_name = "ID")]
    pub terrain: Option<String>,
    /// How many paths; without --lengths they get default lengths (1: 32; 2: 26,30; 3: 24,28,33;
    /// 4: 20,22,24,26).
    #[arg(long, value_name = "N")]
    pub paths: Option<usize>,
    /// The length of each path, in segments from outside the world to the Hub (2 to 256, the
    /// longest a level may ask for).
    #[arg(
        long,
        value_name = "A,B,..",
        value_delimiter = ',',
        value_parser = clap::value_parser!(u32).range(2..=i64::from(rampart_core::content::MAX_PATH_LENGTH))
    )]
    pub lengths: Vec<u32>,
    /// How many extra branches the final path network may add.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub branches: u32,
    /// Write a top-down picture of the world.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
    /// Write the world as JSON to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Keep running and regenerate whenever a terrain file of a loaded mod is saved; a file with
    /// errors is reported and the last good world is kept.
    #[arg(long)]
    pub watch: bool,
}

fn default_lengths(paths: usize) -> Option<Vec<u32>> {
    Some(match paths {
        1 => vec![32],
        2 => vec![26, 30],
        3 => vec![24, 28, 33],
        4 => vec![20, 22, 24, 26],
        _ => return None,
    })
}

/// Runs the command.
pub fn run(context: &Context, args: &GenerateArgs) -> Result<(), Failure> {
    let mut content = context.load_content();
    let lengths = match (args.paths, args.lengths.is_empty()) {
        (_, false) if args.paths.is_some_and(|p| p != args.lengths.len()) => {
            return Err(Failure::error(format!(
                "--paths {} does not match the {} --lengths given",
                args.paths.unwrap_or(0),
                args.lengths.len()
            )));
        }
        (_, false) => args.lengths.clone(),
        (paths, true) => default_lengths(paths.unwrap_or(3))
            .ok_or_else(|| Failure::error("give --lengths for more than 4 paths"))?,
    };
    let mut params = WorldParams::with_lengths(lengths);
    params.extra_branches = args.branches;

    let terrain_id = match &args.terrain {
        Some(id) => id.clone(),
        None => match content.terrain("core:hills").or(content.terrains.first()) {
            Some(t) => t.id.clone(),
            None => {
                return Err(Failure::error(
                    "no terrain types are loaded (looked in every mod's terrain/ folder)",
                ));
            }
        },
    };
    if content.terrain(&terrain_id).is_none() {
        let known = content.terrains.iter().map(|t| t.id.as_str());
        let hint = did_you_mean(&terrain_id, known.clone())
            .map(|h| format!(" ({h})"))
            .unwrap_or_default();
        return Err(Failure::error(format!(
            "there is no terrain type `{terrain_id}`{hint}; loaded: {}",
            known.collect::<Vec<_>>().join(", ")
        )));
    }

    generate_once(&content, &terrain_id, &params, args)?;
    if !args.watch {
        return Ok(());
    }
    watch(&mut content, &terrain_id, &params, args)
}

/// Generates and writes the outputs.
fn generate_once(
    content: &ContentDb,
    terrain_id: &str,
    params: &WorldParams,
    args: &GenerateArgs,
) -> Result<(), Failure> {
    let terrain = content
        .terrain(terrain_id)
        .ok_or_else(|| Failure::error(format!("the terrain type `{terrain_id}` is gone")))?;
    let world = generate_world(params, terrain, Seed(args.seed)).map_err(Failure::error)?;
    super::write_png(args.png.as_deref(), || render_png(&world, terrain))?;
    match args.json.as_deref() {
        Some("-") => {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{}", world.to_json_pretty());
            let _ = out.flush();
        }
        Some(path) => {
            std::fs::write(path, world.to_json_pretty() + "\n")
                .map_err(|e| Failure::error(format!("cannot write {path}: {e}")))?;
            out!("{}", summary(&world));
        }
        None => out!("{}", summary(&world)),
    }
    Ok(())
}

/// One line about a world, for the terminal.
fn summary(world: &World) -> String {
    let count = |kind: ObstacleKind| {
        world
            .obstacles
            .iter()
            .flatten()
            .filter(|&&o| world.obstacle_types[o as usize].kind == kind)
            .count()
    };
    let starts: Vec<String> = world
        .path_starts()
        .iter()
        .map(|s| format!("{:?}→{:?} ({})", s.outside.pair(), s.entry.pair(), s.length))
        .collect();
    // A lattice keeps the lengths it allows; say when that is not what was asked for.
    let adjusted = match world.stats.adjusted_paths {
        0 => String::new(),
        n => format!(" ({n} of them the nearest length the lattice allowed)"),
    };
    format!(
        "world {} on {}: hub {:?}, paths {}{adjusted}, obstacles large {} small {} fuel {} minerals {}, attempts {} paths / {} terrain",
        world.seed.0,
        world.terrain,
        world.hub.pair(),
        starts.join(" "),
        count(ObstacleKind::Large),
        count(ObstacleKind::Small),
        count(ObstacleKind::Fuel),
        count(ObstacleKind::Minerals),
        world.stats.path_attempts,
        world.stats.terrain_attempts,
    )
}

fn watch(
    content: &mut ContentDb,
    terrain_id: &str,
    params: &WorldParams,
    args: &GenerateArgs,
) -> Result<(), Failure> {
    let roots: Vec<PathBuf> = content
        .mods
        .iter()
        .map(|m| m.root.clone())
        .filter(|r| r.join("terrain").is_dir())
        .map(|r| r.join("terrain"))
        .collect();
    let watcher = FileWatcher::new(&roots)
        .map_err(|e| Failure::error(format!("cannot watch the terrain folders: {e}")))?;
    eprintln!(
        "watching {} terrain folder(s); save a .terrain file to regenerate, Ctrl-C to stop",
        roots.len()
    );
    loop {
        let changed = watcher.wait(Duration::from_secs(3600));
        let terrain_files: Vec<&Path> = changed
            .iter()
            .map(PathBuf::as_path)
            .filter(|p| p.extension().is_some_and(|e| e == "terrain"))
            .collect();
        if terrain_files.is_empty() {
            continue;
        }
        let mut ok = true;
        for path in terrain_files {
            match content.reload_terrain(path) {
                Ok(id) => eprintln!("reloaded {id} from {}", path.display()),
                Err(errors) => {
                    ok = false;
                    print_diagnostics(errors.iter());
                    eprintln!("kept the last good version of {}", path.display());
                }
            }
        }
        if ok {
            // A world that fails is reported and the last good one stays; watching goes on.
            match generate_once(content, terrain_id, params, args) {
                Ok(()) => {
                    let _ = std::io::stdout().flush();
                }
                Err(failure) => eprintln!("error: {}", failure.message().unwrap_or_default()),
            }
        }
    }
}
