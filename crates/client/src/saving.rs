//! Saving the run in progress: at the start of every build phase, when the map, a shop, an event
//! or a reward opens, and when the player leaves (to the menu, or by closing the game); Continue
//! on the main menu brings it back on the screen of its phase. Writing is atomic and keeps the
//! previous save (`run::save`). Beside the save, `view.ron` keeps how the battle was shown — the
//! game's speed and where the camera looked — which the core's save has no place for, so that
//! Continue shows the battle as it was left. A run that has ended has no save: a lost run cannot
//! be continued (permadeath), nor a won one. The player's profile remembers what outlives a run.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::camera::CameraView;
use super::session::{Game, Session};
use super::{ClientSet, Screen};
use rampart_core::battle::Phase;
use rampart_core::content::ContentDb;
use rampart_core::run::save::{Resumed, SavedGame};
use rampart_core::run::{Profile, RunPhase};
use rampart_core::{files, ron_file};

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

/// How the battle was shown when the run was saved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct SavedView {
    /// The game's speed, 1 or 2.
    speed: u32,
    /// Where the camera looked, once it had framed the battle's world.
    camera: Option<CameraView>,
}

/// The file beside the save `save` that keeps how its battle was shown.
fn view_file(save: &Path) -> PathBuf {
    save.with_file_name("view.ron")
}

/// The view kept beside the save `save`; none when it is missing or unreadable (the battle is
/// then framed afresh at 1×: nothing of the run is lost).
fn read_view(save: &Path) -> Option<SavedView> {
    let text = std::fs::read_to_string(view_file(save)).ok()?;
    ron_file::options().from_str(&text).ok()
}

/// Writes the session's run (and its battle, if one is being played) to `file`, and beside it
/// how the battle is shown; a run that has ended removes the save instead. Failures are told to
/// the player, and the old save stays.
pub fn save(session: &mut Session, file: &SaveFile) {
    let Some(path) = &file.0 else {
        return;
    };
    if session.run.phase().is_end() {
        let _ = std::fs::remove_file(path);
        let _ = std::fs::remove_file(view_file(path));
        return;
    }
    let battle =
        (*session.run.phase() == RunPhase::Battle).then_some((&session.battle, &session.plan));
    let view = SavedView {
        speed: session.speed,
        camera: session.camera,
    };
    let written = SavedGame::new(&session.run, battle)
        .write(path)
        .and_then(|()| {
            let text = ron_file::to_string(&view).map_err(std::io::Error::other)?;
            files::write_atomically(&view_file(path), text.as_bytes())
        });
    if let Err(e) = written {
        session.notify(format!(
            "The run could not be saved to {}: {e}",
            path.display()
        ));
    }
}

/// What the saved run is, in a few words (`act 1, level 3, hull 24`), or why it cannot be read.
pub fn saved_summary(file: &SaveFile) -> String {
    let Some(path) = &file.0 else {
        return "none".into();
    };
    match SavedGame::read(path) {
        Ok(saved) => {
            let run = &saved.run;
            format!(
                "act {}, level {}, hull {:.0}",
                run.act(),
                run.level(),
                run.hull()
            )
        }
        Err(e) => format!("it cannot be read: {e}"),
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
/// back paused, at the speed and with the camera it had.
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
    let view = read_view(path);
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
            // The next battle is framed afresh; the speed the player chose goes on.
            let mut session = Session::resume(run, plan, battle);
            session.speed = view.map_or(1, |v| v.speed.clamp(1, 2));
            return Ok((session, None));
        }
    };
    // The player comes back to a still picture, as it was shown, and goes on when ready (the
    // HUD's banner says it is paused).
    if let Some(view) = view {
        session.speed = view.speed.clamp(1, 2);
        session.camera = view.camera;
    }
    session.paused = true;
    Ok((session, message))
}
