//! `rampart play`: the game window (with the `client` feature).

use clap::Args;

use super::{Context, Failure};

/// Options of `rampart play`.
#[derive(Debug, Default, Args)]
pub struct PlayArgs {
    /// Play without sound: open no sound output.
    #[arg(long)]
    pub no_audio: bool,
}

/// Opens the game. Content errors are printed before the window opens (and shown in the game
/// as they are fixed); they make the exit code 1 when the game closes.
#[cfg(feature = "client")]
pub fn run(context: &Context, args: &PlayArgs) -> Result<(), Failure> {
    use rampart_client::{ClientError, ClientOptions};

    let loaded = rampart_client::load(context.mods_dirs());
    context.report(loaded.mods.diagnostics());
    let user = rampart_core::modding::UserDirs::detect();
    rampart_client::run(ClientOptions {
        loaded,
        mods_dirs: context.mods_dirs().to_vec(),
        save_file: user.as_ref().map(|u| u.save_file()),
        profile_file: user.as_ref().map(|u| u.profile_file()),
        audio: !args.no_audio,
    })
    .map_err(|e| match e {
        ClientError::Failed(_) => Failure::Found(Some(e.to_string())),
        ClientError::NoDisplay(_) | ClientError::Crashed => Failure::error(e),
    })?;
    context.finish()
}

/// Says that this build has no game.
#[cfg(not(feature = "client"))]
pub fn run(_context: &Context, _args: &PlayArgs) -> Result<(), Failure> {
    Err(Failure::error(
        "this build of rampart has no game client (it was built without the `client` \
         feature); `rampart check`, `rampart mods` and the other commands work",
    ))
}
