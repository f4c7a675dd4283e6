//! A saved game: the run and, during a level, its battle as far as it was played.
//!
//! A battle holds its scripts' Lua state, which cannot be written down; but a battle follows from
//! its set-up and the player's stamped commands alone (the determinism invariant), so the save
//! keeps the battle's record (`level::replay::Replay`) and playing it again brings the battle
//! back exactly — the record's state hashes say so. When the mods changed since the save, the
//! record no longer matches: the run goes on from the start of that level and the player is told
//! why ([`Resumed::Restarted`]).
//!
//! Saves are written atomically (`crate::files`): the previous save stays as `run.ron.bak`.

use std::path::Path;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{LevelPlan, Run, RunError, RunPhase, SaveProblem};
use crate::battle::Battle;
use crate::content::ContentDb;
use crate::diagnostics::SourceFile;
use crate::level::replay::Replay;

/// The version of the saved-game format.
pub const GAME_FORMAT: u32 = 1;

/// A run and the battle of its current level so far.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SavedGame {
    format: u32,
    /// The run.
    pub run: Run,
    /// The current level's battle as far as it was played; `None` between levels.
    pub battle: Option<Replay>,
}

/// The game a save brings back.
pub enum Resumed {
    /// The level's battle, exactly as it was saved.
    Battle(LevelPlan, Battle),
    /// The level's battle could not be brought back (the mods changed, or the save is from a
    /// build that plays differently): it starts again from the level's beginning, for this
    /// reason.
    Restarted(LevelPlan, Battle, String),
    /// No battle is under way: the run waits for a reward choice, or is over.
    Between,
}

impl SavedGame {
    /// The save of `run`, with the battle of its current level (and the set-up it started
    /// from) if one is being played.
    pub fn new(run: &Run, battle: Option<(&Battle, &LevelPlan)>) -> SavedGame {
        SavedGame {
            format: GAME_FORMAT,
            run: run.clone(),
            battle: battle.map(|(b, plan)| Replay::record(b, &plan.setup)),
        }
    }

    /// The save as RON.
    pub fn to_ron(&self) -> String {
        crate::ron_file::to_string(self).expect("a saved game always serialises")
    }

    /// Writes the save to `path` atomically, keeping the previous one as its backup.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        crate::files::write_atomically(path, self.to_ron().as_bytes())
    }

    /// Reads a save; errors name the file, line and column, or say why the save cannot be used
    /// (another format, a run no game could be in).
    pub fn read(path: &Path) -> Result<SavedGame, RunError> {
        let file = SourceFile::read(path).map_err(|d| RunError::SaveSyntax(Box::new(d)))?;
        SavedGame::parse(&file)
    }

    /// Reads a save from its text.
    pub fn from_ron(text: &str) -> Result<SavedGame, RunError> {
        SavedGame::parse(&SourceFile::new("save", text))
    }

    fn parse(file: &SourceFile) -> Result<SavedGame, RunError> {
        // The format first, so that a save of another version says so rather than naming the
        // first field this build does not know.
        #[derive(Deserialize)]
        struct Format {
            format: u32,
        }
        let bad = |problem| RunError::BadSave {
            file: file.path.display().to_string(),
            problem,
        };
        if let Ok(Format { format }) = crate::ron_file::options().from_str::<Format>(&file.text)
            && format != GAME_FORMAT
        {
            return Err(bad(SaveProblem::Format {
                found: format,
                reads: GAME_FORMAT,
            }));
        }
        let saved: SavedGame =
            crate::ron_file::parse(file).map_err(|d| RunError::SaveSyntax(Box::new(d)))?;
        let run = saved.run.checked(file)?;
        if saved.battle.is_some() && run.phase != RunPhase::Battle {
            return Err(bad(SaveProblem::BattleOutOfPlace));
        }
        Ok(SavedGame { run, ..saved })
    }

    /// Brings the game back with `content`: the current level's battle played again to where it
    /// was saved, or from its start if that cannot be done.
    pub fn resume(&self, content: &Arc<ContentDb>) -> Result<Resumed, RunError> {
        if self.run.phase != RunPhase::Battle {
            return Ok(Resumed::Between);
        }
        let plan = self.run.plan(content)?;
        let Some(record) = &self.battle else {
            let battle = plan.start(content)?;
            return Ok(Resumed::Battle(plan, battle));
        };
        let why = if record.setup != plan.setup {
            "the level is set up differently now (the mods changed)".to_string()
        } else {
            match record.play(content) {
                Ok((battle, _)) => return Ok(Resumed::Battle(plan, battle)),
                Err(e) => format!("the battle plays differently now ({e})"),
            }
        };
        let battle = plan.start(content)?;
        Ok(Resumed::Restarted(plan, battle, why))
    }
}
