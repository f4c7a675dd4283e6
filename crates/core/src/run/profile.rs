//! What the game remembers of a player between runs: whether the tutorial was offered, and the
//! ascension levels a won run has opened (thesis §2.9.2: each level opens when a run is won at
//! the one below). Kept in one small RON file, written atomically.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{Run, RunPhase};
use crate::content::ContentDb;

/// The player's profile.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
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
    /// it is worth refusing to start over). `None` keeps nothing.
    pub fn load(file: Option<PathBuf>) -> Profile {
        let read = file
            .as_ref()
            .and_then(|f| std::fs::read_to_string(f).ok())
            .and_then(|text| crate::ron_file::options().from_str::<Profile>(&text).ok())
            .unwrap_or_default();
        Profile { file, ..read }
    }

    /// Writes the profile, atomically.
    pub fn save(&self) -> std::io::Result<()> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let text = crate::ron_file::to_string(self).map_err(std::io::Error::other)?;
        crate::files::write_atomically(file, (text + "\n").as_bytes())
    }

    /// The highest ascension level a run may start at now, among the level setter's.
    pub fn ascension_open(&self, content: &ContentDb) -> u32 {
        self.ascension_unlocked.min(ascension_levels(content))
    }

    /// Takes a run that ended into the profile: a run won opens the ascension level above its
    /// own, if the level setter has that many. Returns the level opened, if one was.
    pub fn run_ended(&mut self, run: &Run, content: &ContentDb) -> Option<u32> {
        match run.phase() {
            RunPhase::Won { .. } => self.open_after(run.ascension(), ascension_levels(content)),
            _ => None,
        }
    }

    /// Opens the level above `won`, of `levels`, unless it is open already.
    fn open_after(&mut self, won: u32, levels: u32) -> Option<u32> {
        let next = (won + 1).min(levels);
        if next <= self.ascension_unlocked {
            return None;
        }
        self.ascension_unlocked = next;
        Some(next)
    }
}

/// How many ascension levels the level setter has (0 without one).
pub fn ascension_levels(content: &ContentDb) -> u32 {
    content
        .levels
        .as_ref()
        .map_or(0, |l| l.ascension.len() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_won_run_opens_the_next_ascension_level_up_to_the_last() {
        let mut profile = Profile::default();
        assert_eq!(profile.open_after(0, 10), Some(1));
        // Winning a lower level again opens nothing.
        assert_eq!(profile.open_after(0, 10), None);
        assert_eq!(profile.open_after(9, 10), Some(10));
        assert_eq!(profile.open_after(10, 10), None);
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
