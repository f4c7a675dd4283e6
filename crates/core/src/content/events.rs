//! Run events (thesis §2.4): short texts met in event rooms of the run map, each with a few
//! choices whose outcomes change the run — money, hull, blueprints. One RON file each in a mod's
//! `events/` folder; `run::events` draws and carries them out, and `docs/modding/runs.md` shows a
//! mod adding one.

use serde::{Deserialize, Serialize};

use super::Rarity;
use super::item::content_item;

/// The most choices an event may offer (they must fit one screen).
pub const MAX_CHOICES: usize = 6;

/// What a choice does to the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// Money gained, or lost when negative. A choice that loses money needs that much.
    Money(i32),
    /// Hull gained (up to the run's starting hull), or lost when negative (an event never takes
    /// the last point of hull).
    Hull(f64),
    /// A blueprint of this rarity the run has not held, drawn at random and offered like a
    /// reward (taken, put in place of another, or refused). `Special` draws from the blueprints
    /// only events give.
    Blueprint(Rarity),
    /// This blueprint (`mod:name`), offered like a reward.
    GiveBlueprint(String),
    /// A blueprint of the collection, at random, is lost. A choice with it needs two blueprints.
    LoseBlueprint,
}

/// One choice of an event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// What the player reads on its button.
    pub text: String,
    /// What happens.
    #[serde(default)]
    pub outcomes: Vec<Outcome>,
    /// The chance that `outcomes` happen; otherwise `otherwise` does. Drawn from the run's seed
    /// tree, so a run played again chooses the same way.
    #[serde(default = "certain")]
    pub chance: f64,
    /// What happens when the chance fails.
    #[serde(default)]
    pub otherwise: Vec<Outcome>,
}

fn certain() -> f64 {
    1.0
}

fn one() -> f64 {
    1.0
}

fn first_act() -> u32 {
    1
}

content_item! {
    /// An event.
    pub struct Event, overridden by EventPatch, "event" {
        /// Its title.
        pub title: String,
        /// What the player reads.
        pub text: String,
        /// How likely it is among the events an event room may hold.
        #[serde(default = "one")]
        pub weight: f64,
        /// The first act it may appear in.
        #[serde(default = "first_act")]
        pub from_act: u32,
        /// The last act it may appear in; `None`: every act from `from_act` on.
        #[serde(default)]
        pub to_act: Option<u32>,
        /// The choices, at least one, at most [`MAX_CHOICES`].
        pub choices: Vec<Choice>,
        /// A script (path inside the mod) whose `outcomes(run, choice, outcomes)` decides what a
        /// choice does (`docs/modding/runs.md`).
        #[serde(default)]
        pub script: Option<String>,
        /// The script, resolved by the loader.
        #[serde(skip)]
        #[patch(skip)]
        pub script_ref: Option<super::ScriptRef>,
    }
}

impl Event {
    /// Whether the event may appear in act `act`.
    pub fn in_act(&self, act: u32) -> bool {
        act >= self.from_act && self.to_act.is_none_or(|to| act <= to)
    }
}

impl Choice {
    /// Money the choice needs: what its outcomes, either way, may take.
    pub fn money_needed(&self) -> u32 {
        let taken = |outcomes: &[Outcome]| {
            outcomes
                .iter()
                .map(|o| match o {
                    Outcome::Money(m) if *m < 0 => m.unsigned_abs(),
                    _ => 0,
                })
                .sum::<u32>()
        };
        taken(&self.outcomes).max(taken(&self.otherwise))
    }

    /// Whether the choice may take a blueprint out of the collection.
    pub fn loses_blueprint(&self) -> bool {
        self.outcomes
            .iter()
            .chain(&self.otherwise)
            .any(|o| *o == Outcome::LoseBlueprint)
    }
}
