//! `rampart test-mod`: every scenario in a mod's `tests/` folder played against the mod and
//! its dependencies, a line each, the failures with what was measured.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;

use rampart_core::battle::CostReport;
use rampart_core::scenario::{self, Scenario};

use super::{Context, Failure, print_diagnostics};

/// Options of `rampart test-mod`.
#[derive(Debug, Args)]
pub struct TestModArgs {
    /// The mod's folder (the one holding its mod.ron).
    pub dir: PathBuf,
    /// Also measure the wall time the mod's scripts take (unlike calls and instructions, it
    /// differs from run to run).
    #[arg(long)]
    pub time_scripts: bool,
}

/// Runs the command: a scenario that fails, or cannot be played, is a finding (exit 1); a mod
/// that cannot be read or has no scenarios is an error (exit 2).
pub fn run(context: &Context, args: &TestModArgs) -> Result<(), Failure> {
    let files = scenarios(&args.dir)?;
    let (content, id) = context.load_mod(&args.dir)?;
    let content = Arc::new(content);
    let mut failed = 0;
    for path in &files {
        if !play(&content, &id, path, args.time_scripts) {
            failed += 1;
        }
    }
    let n = files.len();
    out!(
        "mod `{id}`: {} scenario{}, {} passed, {failed} failed",
        n,
        if n == 1 { "" } else { "s" },
        n - failed
    );
    match failed {
        0 => Ok(()),
        _ => Err(Failure::Found(Some(format!(
            "{failed} of {n} scenarios failed"
        )))),
    }
}

/// The scenario files in the mod's `tests/` folder, sorted by name.
fn scenarios(dir: &Path) -> Result<Vec<PathBuf>, Failure> {
    let tests = dir.join("tests");
    let entries = std::fs::read_dir(&tests)
        .map_err(|e| Failure::error(format!("cannot read {}: {e}", tests.display())))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(Failure::error(format!(
            "{} holds no scenarios (.ron files; see docs/modding/scenarios.md)",
            tests.display()
        )));
    }
    Ok(files)
}

/// Plays one scenario and prints its line, then its failed expectations, refused actions and
/// script errors, and what the scripts of mod `id` cost; whether it passed.
fn play(
    content: &Arc<rampart_core::content::ContentDb>,
    id: &str,
    path: &Path,
    time_scripts: bool,
) -> bool {
    let (scenario, config) = match Scenario::load(path, content) {
        Ok(loaded) => loaded,
        Err(diagnostics) => {
            out!("FAIL {}: the scenario cannot be played:", path.display());
            print_diagnostics(&diagnostics);
            return false;
        }
    };
    let report = scenario::play(content, &scenario, config, time_scripts);
    let passed = report.passed;
    let verdict = if passed { "ok  " } else { "FAIL" };
    let file = path.display().to_string();
    let name = match report.scenario == file {
        true => String::new(),
        false => format!(": {}", report.scenario),
    };
    let n = report.expectations.len();
    out!(
        "{verdict} {file}{name} ({n} expectation{})",
        if n == 1 { "" } else { "s" }
    );
    for c in report.failures() {
        out!("  {}", c.line());
    }
    for r in &report.refused {
        out!("  refused at tick {}: {}: {}", r.tick, r.action, r.reason);
    }
    for e in &report.script_errors {
        out!("  script error: {}", e.text);
    }
    out!("  {}", cost_line(&report.script_cost, id));
    passed
}

/// ``mod `frost`'s scripts: 120 calls, 5400 instructions (12.5% of all), 0.84 ms; most:
/// scripts/ice.lua (5000)``; the wall time only when it was measured.
fn cost_line(cost: &CostReport, id: &str) -> String {
    let Some(own) = cost.mods.iter().find(|r| r.mod_id == id) else {
        return format!("mod `{id}`'s scripts were not called");
    };
    let mut line = format!(
        "mod `{id}`'s scripts: {} call{}, {} instructions ({:.1}% of all)",
        own.calls,
        if own.calls == 1 { "" } else { "s" },
        own.instructions,
        100.0 * own.share,
    );
    if cost.wall_ms > 0.0 {
        line.push_str(&format!(", {:.2} ms", own.wall_ms));
    }
    if let Some(top) = cost.scripts.iter().find(|r| r.mod_id == id) {
        let path = top.script.as_deref().unwrap_or("");
        line.push_str(&format!("; most: {path} ({})", top.instructions));
    }
    line
}
