//! `rampart play`: the game window (with the `client` feature).

use std::path::PathBuf;

use clap::Args;

use super::{Context, Failure};

/// Options of `rampart play`.
#[derive(Debug, Default, Args)]
pub struct PlayArgs {
    /// Play the render test's scripted scene instead of waiting for a player, saving its
    /// screenshots and HUD texts into DIR, then quit. The scene plays on a copy of the game's
    /// mods in DIR/mods, because it edits a terrain file to show hot reload.
    #[arg(long, value_name = "DIR")]
    pub scene: Option<PathBuf>,
}

/// Opens the game. Content errors are printed before the window opens (and shown in the game
/// as they are fixed); they make the exit code 1 when the game closes.
#[cfg(feature = "client")]
pub fn run(context: &Context, args: &PlayArgs) -> Result<(), Failure> {
    use rampart::client::{ClientError, ClientOptions};

    let mut extra = context.mods_dirs().to_vec();
    let scene = match &args.scene {
        Some(dir) => Some(scene_folder(dir, &mut extra).map_err(Failure::error)?),
        None => None,
    };
    // The scene works in its own folder with absolute mod folders, so it loads from those.
    let context = Context::new(extra);
    let loaded = rampart::client::load(context.mods_dirs());
    context.report(loaded.mods.diagnostics());
    let user = rampart::modding::UserDirs::detect();
    rampart::client::run(ClientOptions {
        loaded,
        mods_dirs: context.mods_dirs().to_vec(),
        scene,
        save_file: user.as_ref().map(|u| u.save_file()),
        profile_file: user.as_ref().map(|u| u.profile_file()),
    })
    .map_err(|e| match e {
        ClientError::Failed(_) => Failure::Found(Some(e.to_string())),
        ClientError::NoDisplay(_) | ClientError::Crashed => Failure::error(e),
    })?;
    context.finish()
}

/// Prepares the scripted scene's folder: the scene edits a terrain file to show hot reload, so
/// it plays on a copy of the game's `mods` folder in `dir`, which becomes the working folder.
/// Returns `dir` as an absolute path; `extra` mod folders are made absolute too.
#[cfg(feature = "client")]
fn scene_folder(dir: &std::path::Path, extra: &mut [PathBuf]) -> Result<PathBuf, String> {
    let at = |path: &std::path::Path, e: std::io::Error| format!("{}: {e}", path.display());
    std::fs::create_dir_all(dir).map_err(|e| at(dir, e))?;
    let dir = dir.canonicalize().map_err(|e| at(dir, e))?;
    for path in extra.iter_mut() {
        *path = path.canonicalize().map_err(|e| at(path, e))?;
    }
    let copy = dir.join("mods");
    if copy.exists() {
        std::fs::remove_dir_all(&copy).map_err(|e| at(&copy, e))?;
    }
    let game = std::path::Path::new("mods");
    for entry in walkdir::WalkDir::new(game) {
        let entry = entry.map_err(|e| e.to_string())?;
        let to = copy.join(entry.path().strip_prefix(game).unwrap_or(entry.path()));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).map_err(|e| at(&to, e))?;
        } else {
            std::fs::copy(entry.path(), &to).map_err(|e| at(entry.path(), e))?;
        }
    }
    std::env::set_current_dir(&dir).map_err(|e| at(&dir, e))?;
    Ok(dir)
}

/// Says that this build has no game.
#[cfg(not(feature = "client"))]
pub fn run(_context: &Context, _args: &PlayArgs) -> Result<(), Failure> {
    Err(Failure::error(
        "this build of rampart has no game client (it was built without the `client` \
         feature); `rampart check`, `rampart mods` and the other commands work",
    ))
}
