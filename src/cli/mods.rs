//! `rampart mods`: which mods load, in which order, from where; switching them on and off.

use clap::Args;

use rampart::modding::{ModInfo, ModState};

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
        let known = |id: &str| {
            found
                .mods
                .mods
                .iter()
                .chain(found.mods.others.iter().map(|(m, _)| m))
                .any(|m| m.id() == id)
        };
        for id in args.enable.iter().chain(&args.disable) {
            if !known(id) {
                return Err(Failure::error(format!(
                    "there is no mod `{id}` in the mods folders"
                )));
            }
        }
        let Some(user) = found.user.as_ref() else {
            return Err(Failure::error(
                "no user settings folder on this system; set RAMPART_HOME",
            ));
        };
        for id in &args.enable {
            found.settings.set_enabled(id, true);
        }
        for id in &args.disable {
            found.settings.set_enabled(id, false);
        }
        if args.disable.iter().any(|id| id == "core") {
            eprintln!(
                "warning: `core` is the base game: with it off, only what other mods bring is \
                 there to play (no Hub, towers or attackers of the base game, no levels); \
                 `rampart mods --enable core` switches it back on"
            );
        }
        let path = user.settings_file();
        found
            .settings
            .save(&path)
            .map_err(|e| Failure::error(format!("cannot write {}: {e}", path.display())))?;
        out!("saved mod settings to {}", path.display());
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
    if found.mods.mods.is_empty() && found.mods.others.is_empty() {
        out!("no mods found (looked in ./mods, the user mods folder and every --mods-dir)");
        return outcome;
    }
    out!(
        "{:<4} {:<20} {:<10} {:<10} {:<10} folder",
        "#",
        "mod",
        "version",
        "state",
        "from"
    );
    for (i, m) in found.mods.mods.iter().enumerate() {
        print_row(&(i + 1).to_string(), m, ModState::Loaded);
    }
    for (m, state) in &found.mods.others {
        print_row("-", m, *state);
    }
    outcome
}

fn print_row(position: &str, m: &ModInfo, state: ModState) {
    let state = match state {
        ModState::Loaded => "loaded",
        ModState::Disabled => "disabled",
        ModState::Failed => "failed",
    };
    out!(
        "{position:<4} {:<20} {:<10} {:<10} {:<10} {}",
        m.id(),
        m.manifest.version.to_string(),
        state,
        m.origin.to_string(),
        m.root.display()
    );
}
