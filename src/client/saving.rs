//! Saving the run in progress: at the start of every build phase, when the map, a shop, an event
//! or a reward opens, and when the player leaves (to the menu, or by closing the game); Continue
//! on the main menu brings it back on the screen of its phase. Writing is atomic and keeps the
//! previous save (`run::save`). A run that has ended has no save: a lost run cannot be continued
//! (permadeath), nor a won one. The player's profile remembers what outlives a run.

use std::path::PathBuf;
use std::sync::Arc;

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::session::{Game, Session};
use super::{ClientSet, Screen};
use crate::battle::Phase;
use crate::content::ContentDb;
use crate::run::RunPhase;
use crate::run::save::{Resumed, SavedGame};

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
            .insert_resource(Profile::load(self.profile.clone()))
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

/// What the game remembers of the player between runs.
#[derive(Resource, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Where it is kept (not part of the file).
    #[serde(skip)]
    file: Option<PathBuf>,
    /// Whether the first start already offered the tutorial.
    #[serde(default)]
    pub tutorial_offered: bool,
    /// The highest ascension level a run may be started at: one above the highest won.
    #[serde(default)]
    pub ascension_unlocked: u32,
}

impl Profile {
    /// The profile kept in `file`; a missing or unreadable one is a fresh profile (nothing in
    /// it is worth refusing to start over).
    pub fn load(file: Option<PathBuf>) -> Profile {
        let read = file
            .as_ref()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .and_then(|text| crate::ron_file::options().from_str::<Profile>(&text).ok())
            .unwrap_or_default();
        Profile { file, ..read }
    }

    /// Opens the ascension level above `won`, a run just won at it, if the level setter has
    /// that many (`levels`); says whether a level was opened.
    pub fn unlock_after(&mut self, won: u32, levels: u32) -> bool {
        let next = (won + 1).min(levels);
        if next <= self.ascension_unlocked {
            return false;
        }
        self.ascension_unlocked = next;
        true
    }

    /// Writes the profile, atomically.
    pub fn save(&self) -> std::io::Result<()> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let text = crate::ron_file::to_string(self).map_err(std::io::Error::other)?;
        crate::files::write_atomically(file, (text + "\n").as_bytes())
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_won_run_opens_the_next_ascension_level_up_to_the_last() {
        let mut profile = Profile::default();
        assert!(profile.unlock_after(0, 10));
        assert_eq!(profile.ascension_unlocked, 1);
        // Winning a lower level again opens nothing.
        assert!(!profile.unlock_after(0, 10));
        assert!(profile.unlock_after(9, 10));
        assert_eq!(profile.ascension_unlocked, 10);
        assert!(!profile.unlock_after(10, 10));
        assert_eq!(profile.ascension_unlocked, 10);
    }

    #[test]
    fn an_old_profile_reads_with_no_ascension_open() {
        let text = "(tutorial_offered: true)";
        let profile: Profile = crate::ron_file::options().from_str(text).unwrap();
        assert!(profile.tutorial_offered);
        assert_eq!(profile.ascension_unlocked, 0);
    }
}
