//! `rampart map`: one act's run map, explored whole by the greedy agent (every open door, the
//! lowest room first, the boss's last), as a summary, JSON or a picture.

use std::path::PathBuf;

use clap::Args;

use rampart_core::content::acts::NodeKind;
use rampart_core::mapgen::{ActMap, MapJson, explore_all, render_png};
use rampart_core::run::map::act_map;

use super::{Context, Failure, write_output};

/// Options of `rampart map`.
#[derive(Debug, Args)]
pub struct MapArgs {
    /// The run seed.
    #[arg(long, allow_negative_numbers = true, value_parser = super::parse_seed)]
    pub seed: u64,
    /// The act, from 1.
    #[arg(long, default_value_t = 1)]
    pub act: u32,
    /// Write the explored map as JSON to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE")]
    pub json: Option<String>,
    /// Draw the explored map as a PNG.
    #[arg(long, value_name = "FILE")]
    pub png: Option<PathBuf>,
}

/// Runs the command.
pub fn run(context: &Context, args: &MapArgs) -> Result<(), Failure> {
    let content = context.load_content();
    let mut map = act_map(&content, args.seed, args.act).map_err(Failure::error)?;
    explore_all(&mut map).map_err(Failure::error)?;
    super::write_png(args.png.as_deref(), || render_png(&map))?;
    let json = serde_json::to_string_pretty(&MapJson::new(&map)).expect("a map serialises");
    write_output(args.json.as_deref(), &json, || summary(&map))
}

/// The map for the terminal.
fn summary(map: &ActMap) -> String {
    let nodes = map.nodes();
    let count = |kind: NodeKind| nodes.iter().filter(|n| n.kind == kind).count();
    let kinds: Vec<String> = [
        NodeKind::Battle,
        NodeKind::Elite,
        NodeKind::Shop,
        NodeKind::Event,
        NodeKind::Rest,
    ]
    .into_iter()
    .map(|k| format!("{} {}", count(k), k.name()))
    .collect();
    let mut out = format!(
        "run {} act {}: {} rooms ({}), boss in room {}\n",
        map.run_seed(),
        map.act(),
        nodes.len(),
        kinds.join(", "),
        map.boss().map_or("-".into(), |b| b.to_string()),
    );
    for n in nodes.iter().filter(|n| n.barrier.is_some()) {
        let b = n.barrier.as_ref().expect("filtered");
        let holder = nodes
            .iter()
            .find(|h| h.key_drop == Some(b.key))
            .map_or("-".into(), |h| h.id.to_string());
        out += &format!(
            "room {:>2}: {} door, key {} in room {}{}\n",
            n.id,
            b.kind.name(),
            b.key,
            holder,
            b.guard
                .as_ref()
                .map(|g| format!(" (a battle led by {g})"))
                .unwrap_or_default(),
        );
    }
    out.trim_end().to_string()
}
