//! `rampart replay`: play a recorded battle again and check every state hash it recorded.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;

use rampart::battle::replay::Replay;
use rampart::content::ContentDb;

use super::{find_mods, print_diagnostics};

/// Options of `rampart replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The battle record (JSON).
    pub file: PathBuf,
}

/// Runs the command.
pub fn run(extra: &[PathBuf], args: &ReplayArgs) -> ExitCode {
    let replay = match read(&args.file) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {}: {e}", args.file.display());
            return ExitCode::FAILURE;
        }
    };
    let found = find_mods(extra);
    let (content, diagnostics) = ContentDb::load(&found.mods);
    print_diagnostics(
        found
            .mods
            .diagnostics
            .iter()
            .chain(diagnostics.iter())
            .filter(|d| d.is_error()),
    );
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
    match replay.verify(&Arc::new(content)) {
        Ok(matched) => {
            println!(
                "replay verified: {matched} state hashes match, up to tick {} ({:016x})",
                replay.end.0, replay.end.1
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: the replay does not match: {e}");
            ExitCode::FAILURE
        }
    }
}

fn read(path: &Path) -> Result<Replay, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| format!("not a battle record: {e}"))
}
