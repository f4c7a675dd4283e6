//! `rampart replay`: play a recorded battle again, check every state hash it recorded, and
//! list the commands the battle refused (`docs/modding/records.md`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;

use rampart_core::level::replay::{Refusal, Replay};

use super::{Context, Failure};

/// Options of `rampart replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The battle record (JSON).
    pub file: PathBuf,
    /// Exit 1 when the battle refused any of the record's commands (they are listed either way).
    #[arg(long)]
    pub strict: bool,
}

/// Runs the command: a record that does not match is a finding (exit 1), and so is a refused
/// command with `--strict`; one that cannot be read is an error (exit 2). Refused commands are
/// listed on stderr, with their tick and the battle's reason, whether or not the hashes match.
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
    let mut refused = Vec::new();
    let played = replay.play_noting(&Arc::new(content), &mut refused);
    report_refused(&refused);
    let (battle, matched) =
        played.map_err(|e| Failure::Found(Some(format!("the replay does not match: {e}"))))?;
    let (tick, hash) = (replay.end.0, battle.state_hash());
    match replay.end.1 {
        Some(_) => {
            out!("replay verified: {matched} state hashes match, up to tick {tick} ({hash:016x})")
        }
        None => out!(
            "replay played to tick {tick}: {matched} state hashes match; the record gives no end hash (the state hash there is {hash:016x}): write `\"end\": [{tick}, {hash}]` into it to check it"
        ),
    }
    if args.strict && !refused.is_empty() {
        return Err(Failure::Found(Some(format!(
            "{} refused (--strict)",
            commands(refused.len())
        ))));
    }
    Ok(())
}

/// Lists the refused commands on stderr, one a line: tick, command, the battle's reason.
fn report_refused(refused: &[Refusal]) {
    if refused.is_empty() {
        return;
    }
    eprintln!("warning: the battle refused {}:", commands(refused.len()));
    for r in refused {
        eprintln!("  tick {}: {}: {}", r.tick, r.command, r.reason);
    }
}

/// "1 command", "2 commands".
fn commands(n: usize) -> String {
    match n {
        1 => "1 command".to_string(),
        n => format!("{n} commands"),
    }
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
