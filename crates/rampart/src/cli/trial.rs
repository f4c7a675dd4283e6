//! `rampart try`: a small battle and what every building in it did. Either one blueprint
//! against one wave of one attacker type on a hand-drawn world where nothing else gets in the
//! way, or a scenario file (`docs/modding/scenarios.md`); `--with` adds buildings to either.
//! The quickest way for a modder to see a new tower work (or not) without the game client: the
//! same content, scripts and rules as a real battle.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use rampart_core::content::{ContentDb, Placement};
use rampart_core::diagnostics::{Diagnostic, did_you_mean};
use rampart_core::scenario::{
    self, Act, Action, Building, Expectation, Group, Measure, Report, Scenario, WaveSpec,
};

use super::{Context, Failure, print_diagnostics, write_output};

/// Where a building goes (and an ability placed on a tile, such as a conjured tower): two tiles
/// off the middle of the path (rotation 2 faces the path).
const BUILDING_AT: (i32, i32) = (7, 5);

/// Where an ability is used (one placed on a tile goes to [`BUILDING_AT`] instead), once an
/// attacker is all but on this spot of the path.
const ABILITY_AT: (f64, f64) = (7.0, 3.0);

/// Options of `rampart try`.
#[derive(Debug, Args)]
pub struct TryArgs {
    /// The blueprint to try, `mod:name` (or play a scenario with --scenario).
    #[arg(required_unless_present = "scenario", conflicts_with = "scenario")]
    pub blueprint: Option<String>,
    /// Play this scenario file instead of one blueprint (docs/modding/scenarios.md); exits 1
    /// when one of its expectations fails.
    #[arg(long, value_name = "FILE")]
    pub scenario: Option<PathBuf>,
    /// Also build this blueprint on tile X,Y before the first wave (may be repeated).
    #[arg(long = "with", value_name = "BLUEPRINT@X,Y", value_parser = parse_with)]
    pub with: Vec<Building>,
    /// The attacker type the wave sends.
    #[arg(long, default_value = "core:skeleton", conflicts_with = "scenario")]
    pub attacker: String,
    /// How many attackers the wave sends (1 to 1000).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000), conflicts_with = "scenario")]
    pub count: u32,
    /// Ticks between two attackers (20 ticks are a second; at most 12 000, ten minutes).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(0..=12_000), conflicts_with = "scenario")]
    pub every: u32,
    /// Quarter turns clockwise from north, for blueprints that can be turned (2 faces a
    /// building toward the path).
    #[arg(long, default_value_t = 2, conflicts_with = "scenario")]
    pub rotation: u8,
    /// The longest the wave may run, in seconds (at most 3600).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=3600), conflicts_with = "scenario")]
    pub seconds: u64,
    /// Write the report as JSON to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE|-")]
    pub json: Option<String>,
    /// Also measure the wall time each script takes (unlike calls and instructions, it differs
    /// from run to run).
    #[arg(long)]
    pub time_scripts: bool,
}

/// Reads `--with`: `mod:name@x,y`.
fn parse_with(text: &str) -> Result<Building, String> {
    let refuse = || {
        format!("`{text}` is not BLUEPRINT@X,Y (a blueprint and a tile, such as core:radar@8,5)")
    };
    let (blueprint, tile) = text.rsplit_once('@').ok_or_else(refuse)?;
    let (x, y) = tile.split_once(',').ok_or_else(refuse)?;
    let number = |t: &str| t.trim().parse::<i32>().map_err(|_| refuse());
    Ok(Building {
        blueprint: blueprint.to_string(),
        tile: (number(x)?, number(y)?),
        rotation: 0,
    })
}

/// Runs the command: an expectation that fails is a finding (exit 1); a blueprint, attacker
/// type or scenario that cannot be played is an error (exit 2).
pub fn run(context: &Context, args: &TryArgs) -> Result<(), Failure> {
    let content = Arc::new(context.load_content());
    for b in &args.with {
        known_blueprint(&content, &b.blueprint).map_err(Failure::error)?;
    }
    let (scenario, config) = match (&args.scenario, &args.blueprint) {
        (Some(path), _) => {
            let shown = |d: Vec<Diagnostic>| {
                print_diagnostics(&d);
                Failure::error(format!(
                    "{} is not a scenario that can be played (above)",
                    path.display()
                ))
            };
            let (mut scenario, file) = Scenario::read(path).map_err(|d| shown(vec![d]))?;
            scenario.buildings.extend(args.with.iter().cloned());
            let config = scenario
                .prepare(&content)
                .map_err(|p| shown(p.iter().map(|p| p.located(&file)).collect()))?;
            (scenario, config)
        }
        (None, Some(blueprint)) => {
            let mut scenario = one_blueprint(&content, args, blueprint).map_err(Failure::error)?;
            scenario.buildings.extend(args.with.iter().cloned());
            let config = scenario.prepare(&content).map_err(|p| {
                let problems: Vec<String> = p.iter().map(ToString::to_string).collect();
                Failure::error(problems.join("; "))
            })?;
            (scenario, config)
        }
        (None, None) => unreachable!("clap requires a blueprint or a scenario"),
    };
    let report = scenario::play(&content, &scenario, config, args.time_scripts);
    write_output(args.json.as_deref(), &report.to_json(), || {
        report.text().trim_end_matches('\n').to_string()
    })?;
    expectations(&report)?;
    script_errors(&report, &scenario)
}

/// Exit 1 when a script failed, unless the scenario judges script errors itself (it expects
/// none, or measures them): what a script did wrong is a mistake in the mods examined, as the
/// exit-code policy has it, even when no expectation asked.
fn script_errors(report: &Report, scenario: &Scenario) -> Result<(), Failure> {
    let judged = scenario.expect.iter().any(|e| match e {
        Expectation::NoScriptErrors => true,
        Expectation::AtLeast(m, _) | Expectation::AtMost(m, _) => *m == Measure::ScriptErrors,
        _ => false,
    });
    let errors: u32 = report.script_errors.iter().map(|e| e.times).sum();
    match errors {
        0 => Ok(()),
        _ if judged => Ok(()),
        1 => Err(Failure::Found(Some("a script failed (above)".into()))),
        n => Err(Failure::Found(Some(format!(
            "scripts failed {n} times (above)"
        )))),
    }
}

/// Exit 1 when an expectation failed.
pub fn expectations(report: &Report) -> Result<(), Failure> {
    match report.failures().count() {
        0 => Ok(()),
        1 => Err(Failure::Found(Some("1 expectation failed".into()))),
        n => Err(Failure::Found(Some(format!("{n} expectations failed")))),
    }
}

/// The scenario of the one-blueprint form: the blueprint beside the straight path (an ability
/// used on it when the first attacker gets there), one wave of `--count` attackers.
fn one_blueprint(content: &ContentDb, args: &TryArgs, id: &str) -> Result<Scenario, String> {
    let bp = known_blueprint(content, id)?;
    if content.attacker_id(&args.attacker).is_none() {
        let known = content.attackers.iter().map(|a| a.id.as_str());
        return Err(with_hint(
            format!("there is no attacker type `{}`", args.attacker),
            did_you_mean(&args.attacker, known),
        ));
    }
    let blueprint = content.blueprint(bp);
    let on_tile = matches!(blueprint.placement(), Placement::Tile { .. });
    let at = match on_tile {
        true => (f64::from(BUILDING_AT.0), f64::from(BUILDING_AT.1)),
        false => ABILITY_AT,
    };
    let mut scenario = Scenario {
        name: format!(
            "tried {id} at ({}, {}) against {} × {}, one every {} s",
            at.0,
            at.1,
            args.count,
            args.attacker,
            f64::from(args.every) / rampart_core::TICKS_PER_SECOND as f64,
        ),
        waves: vec![WaveSpec {
            send: vec![Group {
                attacker: args.attacker.clone(),
                count: args.count,
                every: args.every,
                path: 0,
                delay: 0,
            }],
            pause: 0,
        }],
        ticks: Some(args.seconds * rampart_core::TICKS_PER_SECOND),
        ..Scenario::default()
    };
    if blueprint.kind.is_building() {
        scenario.buildings.push(Building {
            blueprint: id.to_string(),
            tile: BUILDING_AT,
            rotation: args.rotation,
        });
    } else {
        scenario.actions.push(Action {
            tick: 0,
            wave: Some(1),
            before_wave: None,
            near: Some(ABILITY_AT),
            act: Act::Use {
                blueprint: id.to_string(),
                at,
                rotation: args.rotation,
            },
        });
    }
    Ok(scenario)
}

/// The blueprint `id`, or why there is none.
fn known_blueprint(
    content: &ContentDb,
    id: &str,
) -> Result<rampart_core::content::BlueprintId, String> {
    content.blueprint_id(id).ok_or_else(|| {
        let known = content.blueprints.iter().map(|b| b.id.as_str());
        with_hint(
            format!("there is no blueprint `{id}` (is its mod on?)"),
            did_you_mean(id, known),
        )
    })
}

fn with_hint(message: String, hint: Option<String>) -> String {
    match hint {
        Some(h) => format!("{message}: {h}"),
        None => message,
    }
}
