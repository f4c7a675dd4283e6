//! `rampart replay`: play a recorded battle again and check every state hash it recorded.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;

use rampart::level::replay::Replay;

use super::{Context, Failure};

/// Options of `rampart replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The battle record (JSON).
    pub file: PathBuf,
}

/// Runs the command: a record that does not match is a finding (exit 1), one that cannot be
/// read an error (exit 2).
pub fn run(context: &Context, args: &ReplayArgs) -> Result<(), Failure> {
    let replay =
        read(&args.file).map_err(|e| Failure::error(format!("{}: {e}", args.file.display())))?;
    let content = context.load_content();
    let mods: Vec<(String, String)> = content
        .mods
        .iter()
        .map(|m| (m.id.clone(), m.version.to_string()))
        .collect();
    if mods != replay.mods || content.content_hash() != replay.content_hash {
        let list = |m: &[(String, String)]| {
            m.iter()
                .map(|(id, v)| format!("{id} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        eprintln!(
            "warning: the record was made with other mods or files ({}; content {:016x}); now: {}; content {:016x}",
            list(&replay.mods),
            replay.content_hash,
            list(&mods),
            content.content_hash()
        );
    }
    let matched = replay
        .verify(&Arc::new(content))
        .map_err(|e| Failure::Found(Some(format!("the replay does not match: {e}"))))?;
    out!(
        "replay verified: {matched} state hashes match, up to tick {} ({:016x})",
        replay.end.0,
        replay.end.1
    );
    Ok(())
}

fn read(path: &Path) -> Result<Replay, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| format!("not a battle record: {e}"))
}
