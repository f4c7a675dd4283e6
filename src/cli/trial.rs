//! `rampart try`: one blueprint in a small battle against one wave of one attacker type, and
//! what it did there. The quickest way for a modder to see a new tower work (or not) without
//! the game client: the same content, scripts and rules as a real battle, on a hand-drawn world
//! where nothing else gets in the way.

use std::sync::Arc;

use clap::Args;

use rampart::battle::{
    Battle, BattleConfig, EntityId, LogKind, Phase, PlayerCommand, Position, Resource, WaveSpawn,
    WaveSpawns,
};
use rampart::content::{ContentDb, Placement};
use rampart::rng::Seed;
use rampart::worldgen::{STRAIGHT_PATH, World};

use super::{Context, Failure};

/// Where a building goes (and an ability placed on a tile, such as a conjured tower): two tiles
/// off the middle of the path (rotation 2 faces the path).
const BUILDING_AT: Position = Position { x: 7.0, y: 5.0 };

/// Where an ability is used (one placed on a tile goes to [`BUILDING_AT`] instead), once an
/// attacker is all but on this spot of the path.
const ABILITY_AT: Position = Position { x: 7.0, y: 3.0 };

/// How close to [`ABILITY_AT`] that is, in tiles: less than the smallest radius of an ability.
const CLOSE: f64 = 0.2;

/// Options of `rampart try`.
#[derive(Debug, Args)]
pub struct TryArgs {
    /// The blueprint to try, `mod:name`.
    pub blueprint: String,
    /// The attacker type the wave sends.
    #[arg(long, default_value = "core:skeleton")]
    pub attacker: String,
    /// How many attackers the wave sends (1 to 1000).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub count: u32,
    /// Ticks between two attackers (20 ticks are a second; at most 12 000, ten minutes).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=12_000))]
    pub every: u32,
    /// Quarter turns clockwise from north, for blueprints that can be turned (2 faces a
    /// building toward the path).
    #[arg(long, default_value_t = 2)]
    pub rotation: u8,
    /// The longest the wave may run, in seconds (at most 3600).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub seconds: u64,
}

/// Runs the command.
pub fn run(context: &Context, args: &TryArgs) -> Result<(), Failure> {
    let content = Arc::new(context.load_content());
    let report = try_out(&content, args).map_err(Failure::error)?;
    out!("{}", report.trim_end_matches('\n'));
    Ok(())
}

/// Plays the trial and describes it.
fn try_out(content: &Arc<ContentDb>, args: &TryArgs) -> Result<String, String> {
    let bp = content.blueprint_id(&args.blueprint).ok_or_else(|| {
        format!(
            "there is no blueprint `{}` (is its mod on?)",
            args.blueprint
        )
    })?;
    if content.attacker_id(&args.attacker).is_none() {
        return Err(format!("there is no attacker type `{}`", args.attacker));
    }
    let blueprint = content.blueprint(bp);
    let building = blueprint.kind.is_building();
    let at = match blueprint.placement() {
        Placement::Tile { .. } => BUILDING_AT,
        _ => ABILITY_AT,
    };
    let mut battle = Battle::new(content.clone(), config(content, args));
    let mut used = None;
    if building {
        used = Some(
            battle
                .place(&args.blueprint, at, args.rotation)
                .map_err(|e| format!("placing {}: {e}", args.blueprint))?,
        );
    }
    battle.submit(PlayerCommand::StartWave);
    let limit = args.seconds * rampart::TICKS_PER_SECOND;
    let start = battle.tick();
    battle.step();
    while battle.phase() == Phase::Wave && battle.tick() - start < limit {
        if used.is_none() && attacker_near(&battle, ABILITY_AT) {
            used = Some(
                battle
                    .place(&args.blueprint, at, args.rotation)
                    .map_err(|e| format!("using {}: {e}", args.blueprint))?,
            );
        }
        battle.step();
    }
    let seconds = (battle.tick() - start) as f64 / rampart::TICKS_PER_SECOND as f64;
    Ok(describe(&battle, args, used, at, seconds))
}

/// A battle with one wave of `--count` attackers and plenty to pay with.
fn config(content: &ContentDb, args: &TryArgs) -> BattleConfig {
    let mut config = BattleConfig::new(Seed(1));
    config.world = Some(Arc::new(
        World::from_layout(STRAIGHT_PATH).expect("the trial layout is valid"),
    ));
    // The Hub is whatever blueprint the game places itself, core's if there is one.
    config.start.hub = content
        .blueprint_id("core:hub")
        .map(|_| "core:hub".to_string())
        .or_else(|| {
            content
                .blueprints
                .iter()
                .find(|b| b.placement() == Placement::Fixed)
                .map(|b| b.id.clone())
        });
    config.start.materials = 1000.0;
    config.start.waves = vec![WaveSpawns {
        spawns: (0..args.count)
            .map(|i| WaveSpawn {
                delay: i * args.every,
                path: 0,
                attacker: args.attacker.clone(),
            })
            .collect(),
    }];
    config
}

/// Whether an attacker is within [`CLOSE`] of `at`.
fn attacker_near(battle: &Battle, at: Position) -> bool {
    battle.entities().any(|(_, e)| {
        e.kind.attacker().is_some() && (e.position.x - at.x).hypot(e.position.y - at.y) <= CLOSE
    })
}

/// What happened, in a few lines.
fn describe(
    battle: &Battle,
    args: &TryArgs,
    used: Option<EntityId>,
    at: Position,
    seconds: f64,
) -> String {
    let count = |chain: &str| {
        battle
            .log()
            .iter()
            .filter(|l| matches!(l.kind, LogKind::Event { chain: c, .. } if c == chain))
            .count()
    };
    let mut out = format!(
        "tried {} at ({}, {}) against {} × {}, one every {} s\n",
        args.blueprint,
        at.x,
        at.y,
        args.count,
        args.attacker,
        f64::from(args.every) / rampart::TICKS_PER_SECOND as f64,
    );
    let end = match battle.phase() {
        Phase::Wave => format!("the wave was still running after {seconds} s"),
        Phase::Lost => format!("the battle was lost after {seconds} s"),
        _ => format!("the wave ended after {seconds} s"),
    };
    out += &format!(
        "{end}: {} killed, {} reached the Hub\n",
        count("attacker_killed"),
        count("attacker_reached_hub")
    );
    let Some(used) = used else {
        out += "it was never used: no attacker came to the spot\n";
        return out;
    };
    let hits: Vec<f64> = battle.hits_by(used).map(|(_, amount)| amount).collect();
    if hits.is_empty() {
        out += "it hit nothing\n";
    } else {
        out += &format!(
            "it hit {} time{} for {} damage in all\n",
            hits.len(),
            if hits.len() == 1 { "" } else { "s" },
            // Tenths are enough to read, and whole totals stay whole ("18", not "18.0").
            (hits.iter().fold(0.0, |a, b| a + b) * 10.0).round() / 10.0
        );
    }
    for resource in [Resource::Materials, Resource::Energy, Resource::Fuel] {
        let gained = battle.gains_from(used, resource).fold(0.0, |a, b| a + b);
        if gained != 0.0 {
            out += &format!("it produced {gained} {}\n", resource_name(resource));
        }
    }
    // Every error with mod, file and line, the same one again as a count, then the scripts
    // that were switched off.
    let errors = battle.script_error_counts();
    if errors.is_empty() {
        out += "no script errors\n";
    } else {
        let total: u32 = errors.iter().map(|e| e.times).sum();
        out += &format!(
            "{total} script error{}:\n",
            if total == 1 { "" } else { "s" }
        );
        for e in errors {
            out += &format!("  {e}\n");
        }
    }
    for entry in battle.log() {
        if let LogKind::ScriptDisabled(off) = &entry.kind {
            out += &format!("{off}\n");
        }
    }
    out
}

fn resource_name(resource: Resource) -> &'static str {
    match resource {
        Resource::Materials => "materials",
        Resource::Energy => "energy",
        Resource::Fuel => "fuel",
    }
}
