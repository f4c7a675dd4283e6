//! `rampart play`: the game window (with the `client` feature).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

/// Options of `rampart play`.
#[derive(Debug, Default, Args)]
pub struct PlayArgs {
    /// Play the render test's scripted scene instead of waiting for a player, saving its
    /// screenshots and HUD texts into DIR, then quit.
    #[arg(long, value_name = "DIR")]
    pub scene: Option<PathBuf>,
}

/// Opens the game.
#[cfg(feature = "client")]
pub fn run(extra: &[PathBuf], args: &PlayArgs) -> ExitCode {
    use std::sync::Arc;

    use rampart::client::{ClientOptions, LoadContent};
    use rampart::content::ContentDb;

    if let Some(dir) = &args.scene
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("error: cannot create {}: {e}", dir.display());
        return ExitCode::FAILURE;
    }
    let content = Arc::new(super::load_content(extra));
    let watch = content.mods.iter().map(|m| m.root.clone()).collect();
    let dirs = extra.to_vec();
    let reload: LoadContent = Arc::new(move || {
        let found = super::find_mods(&dirs);
        let (content, mut diagnostics) = ContentDb::load(&found.mods);
        diagnostics.extend(found.mods.diagnostics.iter().cloned());
        (content, diagnostics)
    });
    rampart::client::run(ClientOptions {
        content,
        reload,
        watch,
        scene: args.scene.clone(),
    })
}

/// Says that this build has no game.
#[cfg(not(feature = "client"))]
pub fn run(_extra: &[PathBuf], _args: &PlayArgs) -> ExitCode {
    eprintln!(
        "error: this build of rampart has no game client (it was built without the `client` \
         feature); `rampart check`, `rampart mods` and the other commands work"
    );
    ExitCode::FAILURE
}
