//! `rampart waves`: the waves of one level of a run, as the level setter makes them.

use clap::Args;

use rampart_core::run::{LevelKind, LevelSpec};
use rampart_core::waves::{LevelWaves, Wave};

use super::{Context, Failure, write_output};

/// Options of `rampart waves`.
#[derive(Debug, Args)]
pub struct WavesArgs {
    /// The run seed.
    #[arg(long, allow_negative_numbers = true, value_parser = super::parse_seed)]
    pub seed: u64,
    /// The level, from 1.
    #[arg(long, default_value_t = 1)]
    pub level: u32,
    /// Make it an elite battle (the level setter's `elite`).
    #[arg(long, conflicts_with = "boss")]
    pub elite: bool,
    /// Make it a boss battle against this boss (`mod:name`), who comes with the last wave.
    #[arg(long, value_name = "ID")]
    pub boss: Option<String>,
    /// Write the waves as JSON to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
}

/// Runs the command.
pub fn run(context: &Context, args: &WavesArgs) -> Result<(), Failure> {
    let content = context.load_content();
    let kind = match (&args.boss, args.elite) {
        (Some(boss), _) => LevelKind::Boss(boss.clone()),
        (None, true) => LevelKind::Elite,
        (None, false) => LevelKind::Normal,
    };
    let spec = LevelSpec::of_kind(&content, args.seed, args.level, kind).map_err(Failure::error)?;
    let waves = spec.waves(args.seed).map_err(Failure::error)?;
    let json = serde_json::to_string_pretty(&waves).expect("waves serialise");
    write_output(args.json.as_deref(), &json, || table(&spec, &waves))
}

/// The waves for the terminal.
fn table(spec: &LevelSpec, level: &LevelWaves) -> String {
    let lengths: Vec<String> = spec.path_lengths.iter().map(u32::to_string).collect();
    let pool: Vec<&str> = spec
        .pool
        .attackers()
        .iter()
        .map(|a| a.id.as_str())
        .collect();
    let kind = match &spec.kind {
        LevelKind::Normal => String::new(),
        LevelKind::Elite => " (elite)".to_string(),
        LevelKind::Boss(boss) => format!(" (boss: {boss} comes first in the last wave)"),
    };
    let mut out = format!(
        "run {} level {}{kind}: {} path(s) of length {}, terrain {}, fuel goal {}, {} waves\nattackers: {}\n\n",
        level.seed,
        level.level,
        level.paths,
        lengths.join(", "),
        spec.terrain,
        spec.fuel_goal,
        level.waves.len(),
        pool.join(", ")
    );
    out += "wave  kind        capacity     value   used  duration  attackers  batches\n";
    for w in &level.waves {
        out += &format!(
            "{:>4}  {:<10} {:>9.1} {:>9.1} {:>5.1}% {:>7.1} s {:>10}  {}\n",
            w.number,
            format!("{:?}", w.kind).to_lowercase(),
            w.capacity,
            w.value,
            100.0 * w.usage(),
            w.duration_s,
            w.attacker_count,
            batches(w)
        );
    }
    out += &format!(
        "limits: {} s, {} attackers per wave",
        level.limits.max_duration_s, level.limits.max_attackers
    );
    out
}

/// `12× core:skeleton /0.5 s on 0,1; …`.
fn batches(w: &Wave) -> String {
    w.batches
        .iter()
        .map(|b| {
            let mut types: Vec<&str> = b.per_path.iter().map(|p| p.attacker.as_str()).collect();
            types.dedup();
            let paths: Vec<String> = b.per_path.iter().map(|p| p.path.to_string()).collect();
            format!(
                "{}× {} /{} s on {}",
                b.count,
                types.join("|"),
                b.spacing_s,
                paths.join(",")
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}
