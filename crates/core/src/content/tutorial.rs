//! The tutorial (thesis 4.1.1, 4.2.10): a guided first battle, as data. A mod's `tutorial.ron`
//! gives the battle (a run seed and the blueprints to hold) and the steps: each a text panel,
//! what it points at, and what the player must do to go on. The base game's is
//! `mods/core/tutorial.ron` (id `core:tutorial`); a mod replaces or translates it with
//! `overrides: "core:tutorial"` and the fields to change. `docs/modding/tutorial-steps.md`
//! describes the format.

use serde::{Deserialize, Serialize};

use super::item::content_item;
use super::load::{Item, Single};
use super::{BlueprintKind, ContentDb};
use crate::diagnostics::{Diagnostic, Diagnostics, did_you_mean};

/// The file a mod's tutorial is read from.
pub const FILE: &str = "tutorial.ron";

content_item! {
    /// The tutorial: its battle and its steps.
    pub struct Tutorial, overridden by TutorialPatch, "tutorial" {
        /// The run seed of the tutorial's battle (its world and waves).
        pub seed: u64,
        /// The blueprints the player holds in it, `mod:name`.
        pub blueprints: Vec<String>,
        /// The steps, in order.
        pub steps: Vec<Step>,
    }
}

/// One step: a text panel, what it points at, and what ends it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The panel's heading.
    pub title: String,
    /// What the panel says.
    pub text: String,
    /// What the step points at.
    #[serde(default)]
    pub point: Pointer,
    /// What the player does to go on.
    pub wait: Wait,
}

/// Something on the screen or in the world a step points at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pointer {
    /// Nothing.
    #[default]
    Nothing,
    /// The first blueprint of this kind in the blueprint menu.
    Blueprint(BlueprintKind),
    /// The Start wave button.
    StartWave,
    /// The pause button.
    Pause,
    /// The speed button.
    Speed,
    /// The fuel bar.
    Fuel,
    /// The hull bar.
    Hull,
    /// The tile where the selected tower would cover the most path.
    BestTile,
    /// The first building of this kind.
    Building(BlueprintKind),
    /// The Hub.
    Hub,
    /// Where the attackers come in.
    PathStart,
}

/// What the player does to end a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wait {
    /// Clicks the panel's Next button.
    Next,
    /// Moves, zooms or turns the camera.
    Camera,
    /// Selects a blueprint of this kind.
    SelectBlueprint(BlueprintKind),
    /// Places a building of this kind, or uses an ability.
    Place(BlueprintKind),
    /// Selects a building of this kind in the world.
    SelectBuilding(BlueprintKind),
    /// Starts a wave.
    WaveStarted,
    /// Waits for the wave to end.
    WaveEnded,
    /// Pauses the game.
    Paused,
    /// Switches to double speed.
    FastForward,
}

impl Single for Tutorial {
    const FILE: &'static str = FILE;
}

/// Checks the tutorial against the loaded content: its blueprints exist and can be held, and
/// every kind a step names is among them. It is kept only if nothing is wrong.
pub(super) fn finish(
    item: Item<Tutorial>,
    db: &ContentDb,
    diagnostics: &mut Diagnostics,
) -> Option<Tutorial> {
    let mut errors = 0;
    let mut error = |field: &str, value: Option<&str>, message: String, help: Option<String>| {
        let (source, at) = match value {
            Some(v) => item.locate_value(field, v),
            None => item.locate(field),
        };
        let len = value.map_or(field.len(), |v| v.len() + 2);
        let mut d = Diagnostic::error(message)
            .at(&source.file, at, len)
            .for_mod(source.mod_id.clone());
        if let Some(h) = help {
            d = d.help(h);
        }
        diagnostics.push(d);
        errors += 1;
    };
    let t = &item.value;
    let mut kinds = Vec::new();
    for id in &t.blueprints {
        match db.blueprint_id(id) {
            None => error(
                "blueprints",
                Some(id),
                format!("there is no blueprint `{id}`"),
                did_you_mean(id, db.blueprints.iter().map(|b| b.id.as_str())),
            ),
            Some(b) if db.blueprint(b).placed_by_game() => error(
                "blueprints",
                Some(id),
                format!("`{id}` is placed by the game and cannot be held"),
                None,
            ),
            Some(b) => kinds.push(db.blueprint(b).kind),
        }
    }
    if t.steps.is_empty() {
        error(
            "steps",
            None,
            "the tutorial needs at least one step".into(),
            None,
        );
    }
    for step in &t.steps {
        let needed = match (step.point, step.wait) {
            (_, Wait::SelectBlueprint(k) | Wait::Place(k) | Wait::SelectBuilding(k)) => Some(k),
            (Pointer::Blueprint(k) | Pointer::Building(k), _) => Some(k),
            _ => None,
        };
        if let Some(kind) = needed.filter(|k| !kinds.contains(k)) {
            error(
                "steps",
                None,
                format!(
                    "step \"{}\" is about {} blueprints, and the tutorial holds none",
                    step.title,
                    kind.name()
                ),
                Some("add one to `blueprints`".into()),
            );
        }
    }
    (errors == 0).then_some(item.value)
}
