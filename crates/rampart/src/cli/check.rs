//! `rampart check`: validate every enabled mod without playing.

use std::sync::Arc;

use rampart_core::battle::ScriptHost;
use rampart_core::content::ContentDb;
use rampart_core::diagnostics::{Diagnostic, Diagnostics};
use rampart_core::modding::game;
use rampart_lua::Limits;

use super::{Context, Failure, print_diagnostics};

/// Loads everything, prints every problem, and fails if any is an error.
pub fn run(context: &Context) -> Result<(), Failure> {
    let found = context.find_mods();
    let mut diagnostics = Diagnostics::new();
    diagnostics.extend(found.mods.diagnostics.iter().cloned());
    if game::locate().is_none() {
        // Finding the mods warned; a game without its base game is not one that plays as meant.
        diagnostics.push(Diagnostic::error(
            "there is no base game to check the mods with (see the warning above)",
        ));
    }
    let (content, content_diagnostics) = ContentDb::load(&found.mods);
    diagnostics.extend(content_diagnostics);
    let content = Arc::new(content);
    for error in ScriptHost::check(&content, &Limits::default()) {
        diagnostics.push(content.diagnose(&error));
    }
    print_diagnostics(diagnostics.iter());
    if let Some(dir) = game::locate() {
        out!("base game: {}", dir.display());
    }

    let scripts: usize = content.mods.iter().map(|m| m.scripts.len()).sum();
    let mods: Vec<&str> = content.mods.iter().map(|m| m.id.as_str()).collect();
    out!(
        "checked {} mod{} ({}): {} attacker types, {} blueprints, {} augments, {} events, {} terrain types, {} sounds, {} scripts — {} error{}, {} warning{}",
        mods.len(),
        plural(mods.len()),
        if mods.is_empty() {
            "none found".to_string()
        } else {
            mods.join(", ")
        },
        content.attackers.len(),
        content.blueprints.len(),
        content.augments.len(),
        content.events.len(),
        content.terrains.len(),
        content.sounds.len(),
        scripts,
        diagnostics.error_count(),
        plural(diagnostics.error_count()),
        diagnostics.warning_count(),
        plural(diagnostics.warning_count()),
    );
    if diagnostics.has_errors() {
        Err(Failure::Found(None))
    } else {
        Ok(())
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
