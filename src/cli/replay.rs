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

/// The largest record file read: records of the longest battles are a few megabytes.
const MAX_RECORD_BYTES: u64 = 64 << 20;

fn read(path: &Path) -> Result<Replay, String> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_RECORD_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| e.to_string())?;
    if text.len() as u64 > MAX_RECORD_BYTES {
        return Err(format!(
            "the file is larger than a battle record may be ({} MiB)",
            MAX_RECORD_BYTES >> 20
        ));
    }
    // serde's message names the field at fault and its line and column.
    serde_json::from_str(&text).map_err(|e| format!("not a battle record: {e}"))
}
