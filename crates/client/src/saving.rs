//! Saving the run in progress: at the start of every build phase, when the map, a shop, an event
//! or a reward opens, and when the player leaves (to the menu, or by closing the game); Continue
//! on the main menu brings it back on the screen of its phase. Writing is atomic and keeps the
//! previous save (`run::save`). A run that has ended has no save: a lost run cannot be continued
//! (permadeath), nor a won one. The player's profile remembers what outlives a run.

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;

use super::session::{Game, Session};
use super::{ClientSet, Screen};
use rampart_core::battle::Phase;
use rampart_core::content::ContentDb;
use rampart_core::run::save::{Resumed, SavedGame};
use rampart_core::run::{Profile, RunPhase};

/// Saves the run as it goes, and remembers the player between runs.
pub struct SavingPlugin {
    /// Where the run is saved; `None` when the system has no user folder (nothing is saved).
    pub file: Option<PathBuf>,
    /// Where what the game remembers of the player is kept.
    pub profile: Option<PathBuf>,
}

impl Plugin for SavingPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(SaveFile(self.file.clone()))
            .insert_resource(PlayerProfile(Profile::load(self.profile.clone())))
            .add_systems(
                Update,
                autosave
                    .in_set(ClientSet::Simulate)
                    .run_if(in_state(Screen::Battle)),
            )
            .add_systems(OnEnter(Screen::Map), save_now)
            .add_systems(OnEnter(Screen::Shop), save_now)
            .add_systems(OnEnter(Screen::Event), save_now)
            .add_systems(OnEnter(Screen::Reward), save_now)
            .add_systems(OnEnter(Screen::RunEnd), save_now)
            .add_systems(Last, save_on_exit);
    }
}

/// The player's profile (`run::Profile`) as a resource of the game.
#[derive(Resource, Clone, Debug, Deref, DerefMut)]
pub struct PlayerProfile(pub Profile);

/// The file the run is saved in, if any.
#[derive(Resource, Clone)]
pub struct SaveFile(pub Option<PathBuf>);

impl SaveFile {
    /// Whether there is a save to continue.
    pub fn exists(&self) -> bool {
        self.0.as_ref().is_some_and(|p| p.is_file())
    }
}

/// Writes the session's run (and its battle, if one is being played) to `file`; a run that has
/// ended removes the save instead. Failures are told to the player, and the old save stays.
pub fn save(session: &mut Session, file: &SaveFile) {
    let Some(path) = &file.0 else {
        return;
    };
    if session.run.phase().is_end() {
        let _ = std::fs::remove_file(path);
        return;
    }
    let battle =
        (*session.run.phase() == RunPhase::Battle).then_some((&session.battle, &session.plan));
    if let Err(e) = SavedGame::new(&session.run, battle).write(path) {
        session.notify(format!(
            "The run could not be saved to {}: {e}",
            path.display()
        ));
    }
}

/// Saves at the start of every build phase: the level's start and after each wave.
fn autosave(
    mut game: NonSendMut<Game>,
    file: Res<SaveFile>,
    mut saved: Local<Option<(u32, u32, u64)>>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    if session.battle.phase() != Phase::Build {
        return;
    }
    let key = (
        session.run.level(),
        session.battle.wave(),
        session.run.seed(),
    );
    if *saved != Some(key) {
        *saved = Some(key);
        save(session, &file);
    }
}

fn save_now(mut game: NonSendMut<Game>, file: Res<SaveFile>) {
    if let Some(session) = game.0.as_mut() {
        save(session, &file);
    }
}

/// Saves when the game closes, wherever the player was.
fn save_on_exit(
    mut exits: MessageReader<AppExit>,
    mut game: NonSendMut<Game>,
    file: Res<SaveFile>,
) {
    if exits.read().next().is_some()
        && let Some(session) = game.0.as_mut()
    {
        save(session, &file);
    }
}

/// The saved run brought back, and what the player should be told about it: a battle comes
/// back paused.
pub fn continue_saved(
    file: &SaveFile,
    content: &Arc<ContentDb>,
) -> Result<(Session, Option<String>), String> {
    let Some(path) = &file.0 else {
        return Err("there is no user folder to keep saves in".into());
    };
    let saved = SavedGame::read(path).map_err(|e| format!("The save cannot be loaded: {e}"))?;
    let resumed = saved
        .resume(content)
        .map_err(|e| format!("The saved run cannot go on: {e}"))?;
    let run = saved.run;
    let (mut session, message) = match resumed {
        Resumed::Battle(plan, battle) => (Session::resume(run, plan, battle), None),
        Resumed::Restarted(plan, battle, why) => (
            Session::resume(run, plan, battle),
            Some(format!("The level starts again from its beginning: {why}")),
        ),
        Resumed::Between => {
            // The map, a shop, an event or a reward needs a level plan and a battle to stand
            // behind it: the level just won, or the next one, set up (its battle is not played).
            if run.phase().is_end() {
                return Err("The saved run has ended".into());
            }
            let plan = run
                .plan_of_level(content)
                .map_err(|e| format!("The saved run cannot go on: {e}"))?;
            let battle = plan
                .start(content)
                .map_err(|e| format!("The saved run cannot go on: {e}"))?;
            return Ok((Session::resume(run, plan, battle), None));
        }
    };
    // The player comes back to a still picture and goes on when ready.
    session.paused = true;
    let message = message.unwrap_or_else(|| "Paused: press P to go on".into());
    Ok((session, Some(message)))
}
