//! `rampart mods`: which mods load, in which order, from where; switching them on and off.

use clap::Args;

use rampart_core::modding::{BASE_GAME, ModEntry};

use super::{Context, Failure, print_diagnostics};

/// Options of `rampart mods`.
#[derive(Debug, Args)]
pub struct ModsArgs {
    /// Switch a mod on (kept in the player's settings; the folder is untouched).
    #[arg(long, value_name = "ID")]
    pub enable: Vec<String>,
    /// Switch a mod off without deleting it.
    #[arg(long, value_name = "ID")]
    pub disable: Vec<String>,
}

/// Applies any switches, then lists the mods.
pub fn run(context: &Context, args: &ModsArgs) -> Result<(), Failure> {
    let mut found = context.find_mods();
    if !args.enable.is_empty() || !args.disable.is_empty() {
        let switched = found
            .switch(&args.enable, &args.disable)
            .map_err(Failure::error)?;
        for warning in &switched.warnings {
            eprintln!(
                "warning: {warning}; `rampart mods --enable {BASE_GAME}` switches it back on"
            );
        }
        out!("saved mod settings to {}", switched.file.display());
        found = context.find_mods();
    }

    print_diagnostics(found.mods.diagnostics.iter());
    // Like `check`: a mod that cannot load is a problem found.
    let outcome = if found.mods.diagnostics.iter().any(|d| d.is_error()) {
        Err(Failure::Found(Some(
            "some mods cannot be loaded (above); they were left out".into(),
        )))
    } else {
        Ok(())
    };
    let list = found.mods.list([]);
    if list.entries.is_empty() {
        out!("no mods found (looked in ./mods, the user mods folder and every --mods-dir)");
        return outcome;
    }
    out!(
        "{:<4} {:<20} {:<10} {:<14} {:<10} folder",
        "#",
        "mod",
        "version",
        "state",
        "from"
    );
    for entry in &list.entries {
        print_row(entry);
    }
    outcome
}

fn print_row(entry: &ModEntry) {
    let position = entry.position.map_or("-".to_string(), |p| p.to_string());
    let version = entry
        .version
        .as_ref()
        .map_or("-".to_string(), |v| v.to_string());
    out!(
        "{position:<4} {:<20} {version:<10} {:<14} {:<10} {}",
        entry.id,
        entry.state.label(),
        entry.origin.to_string(),
        entry.root.display()
    );
}
