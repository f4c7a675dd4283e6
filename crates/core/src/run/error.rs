//! Why a run cannot start, go on, or be read back.

use crate::diagnostics::Diagnostic;
use crate::level::SetupError;
use crate::waves::WaveError;

/// What went wrong in a run. The messages are for the player (or the modder whose content is at
/// fault); `rampart check` shows the content errors behind most of them.
#[derive(Clone, Debug, thiserror::Error)]
pub enum RunError {
    /// No enabled mod has a valid `levels.ron`.
    #[error(
        "no level setter is loaded: no enabled mod has a valid levels.ron (`rampart check` shows why)"
    )]
    NoLevelSetter,
    /// Level 0 was asked for.
    #[error("levels are numbered from 1")]
    LevelZero,
    /// An ascension level the level setter does not have was asked for.
    #[error("there is no ascension level {asked}: the level setter has {levels}")]
    NoSuchAscension {
        /// The level asked for.
        asked: u32,
        /// How many there are.
        levels: usize,
    },
    /// A shop's offer was sold already.
    #[error("that offer is sold")]
    Sold,
    /// Not enough money.
    #[error("it costs {price} and the run has {money}")]
    TooPoor {
        /// The price.
        price: u32,
        /// The money the run has.
        money: u32,
    },
    /// The collection's last blueprint cannot be removed.
    #[error("the last blueprint of the collection cannot be removed")]
    LastBlueprint,
    /// The hull is whole.
    #[error("the hull is whole: there is nothing to repair")]
    HullFull,
    /// A boss level's boss is not an attacker type of size `Boss`.
    #[error("`{0}` is not a boss: a boss level needs an attacker type of size Boss")]
    NoBoss(String),
    /// An act the level setter does not have was asked for.
    #[error("there is no act {act}: the level setter has {acts} (acts are numbered from 1)")]
    NoSuchAct {
        /// The act asked for.
        act: u32,
        /// How many acts there are.
        acts: usize,
    },
    /// No mod has a terrain type.
    #[error("no terrain types are loaded (every mod's terrain/ folder is empty)")]
    NoTerrain,
    /// The Hub makes no fuel and the rule does not say how many waves there are.
    #[error("level {level}: the hub `{hub}` produces no fuel, so the rule needs a `wave_count`")]
    NoWaveCount {
        /// The level.
        level: u32,
        /// The Hub blueprint.
        hub: String,
    },
    /// The level would have more waves than a level may have.
    #[error(
        "level {level}: its fuel goal and the Hub's production make {waves} waves, more than the {max} a level may have (levels.ron: lower `fuel_goal` or set `wave_count`)",
        max = crate::content::MAX_WAVES_PER_LEVEL
    )]
    TooManyWaves {
        /// The level.
        level: u32,
        /// How many waves it would have.
        waves: f64,
    },
    /// The level's paths would be longer than a path may be.
    #[error(
        "level {level}: its paths grow to {length} segments, longer than the {max} a path may be (levels.ron: `lengths` and `length_per_level`); the run cannot go further",
        max = crate::content::MAX_PATH_LENGTH
    )]
    PathTooLong {
        /// The level.
        level: u32,
        /// The longest path it asks for.
        length: i64,
    },
    /// No attacker type fits the level's value window.
    #[error("level {level}: no attacker type has a value between {min} and {max}")]
    NoAttackers {
        /// The level.
        level: u32,
        /// The lowest value allowed.
        min: f64,
        /// The highest value allowed.
        max: f64,
    },
    /// A level design names an attacker type that no loaded mod defines, or a boss.
    #[error("level {level}: {}{}", match boss {
        true => format!("`{id}` is a boss: bosses come only to boss levels"),
        false => format!("there is no attacker type `{id}`"),
    }, hint.as_ref().map(|h| format!(" (did you mean `{h}`?)")).unwrap_or_default())]
    NoAttacker {
        /// The level.
        level: u32,
        /// The id asked for.
        id: String,
        /// Whether it is a boss rather than missing.
        boss: bool,
        /// The closest id that exists.
        hint: Option<String>,
    },
    /// A level design with no paths, no waves or no attacker types.
    #[error("level {level}: a level design needs at least one {what}")]
    EmptyDesign {
        /// The level.
        level: u32,
        /// What it lacks: `path`, `wave` or `attacker type`.
        what: &'static str,
    },
    /// The level's waves cannot be generated.
    #[error("level {level}: {error}")]
    Waves {
        /// The level.
        level: u32,
        /// Why.
        error: WaveError,
    },
    /// The level's world cannot be made.
    #[error("level {level}: {error}")]
    World {
        /// The level.
        level: u32,
        /// Why.
        error: SetupError,
    },
    /// A blueprint id that no loaded mod defines.
    #[error("there is no blueprint `{id}`{}", hint.as_ref().map(|h| format!(" (did you mean `{h}`?)")).unwrap_or_default())]
    NoBlueprint {
        /// The id asked for.
        id: String,
        /// The closest id that exists.
        hint: Option<String>,
    },
    /// The same starting blueprint twice.
    #[error("`{0}` is among the starting blueprints twice")]
    TwiceInStart(String),
    /// A blueprint the game places itself (the Hub) in a collection.
    #[error("`{0}` is placed by the game and cannot be in a collection")]
    PlacedByGame(String),
    /// More starting blueprints than the collection holds.
    #[error("{count} starting blueprints do not fit the collection limit of {limit}")]
    TooManyStarters {
        /// How many were given.
        count: usize,
        /// The collection limit.
        limit: usize,
    },
    /// The collection holds a blueprint whose mod is gone.
    #[error("the collection holds `{0}`, which no loaded mod defines")]
    LostBlueprint(String),
    /// A level was asked for while a reward waits.
    #[error("the level is won: choose a reward before the next level")]
    RewardPending,
    /// The run ended.
    #[error("the run is over")]
    Over,
    /// The run is not where the call needs it to be.
    #[error("the run is {is}: that needs {needs}")]
    WrongPhase {
        /// What the call needs (`"the map"`, `"a shop"`, …).
        needs: &'static str,
        /// Where the run is.
        is: &'static str,
    },
    /// A room of the run map cannot be entered.
    #[error("{0}")]
    Map(#[from] crate::mapgen::MapError),
    /// An event has no choice of that index.
    #[error("the event has {choices} choices; {index} is not one")]
    NoSuchChoice {
        /// How many there are.
        choices: usize,
        /// The index asked for.
        index: usize,
    },
    /// No loaded mod has the augment.
    #[error("no loaded mod has the augment `{0}`")]
    NoAugment(String),
    /// An augment cannot go on the blueprint named.
    #[error("that augment cannot be applied: {0}")]
    AugmentTarget(String),
    /// An event's choice cannot be taken now.
    #[error("that choice cannot be taken: {0}")]
    ChoiceUnavailable(String),
    /// A reward was chosen with none on offer.
    #[error("there is no reward to choose now")]
    NoReward,
    /// An offer index past the offers.
    #[error("there are {offers} offers; {index} is not one")]
    NoSuchOffer {
        /// How many offers there are.
        offers: usize,
        /// The index given.
        index: usize,
    },
    /// A collection index past the collection.
    #[error("the collection holds {len} blueprints; {index} is not one of them")]
    NoSuchSlot {
        /// How many blueprints the collection holds.
        len: usize,
        /// The index given.
        index: usize,
    },
    /// A reward taken into a full collection without saying what it replaces.
    #[error("the collection is full ({0} blueprints): choose one to replace")]
    CollectionFull(usize),
    /// A save file that does not parse (the diagnostic names its line and column).
    #[error("{}", .0.summary())]
    SaveSyntax(Box<Diagnostic>),
    /// A save file that parses but cannot be a run.
    #[error("{file}: {problem}")]
    BadSave {
        /// The save file.
        file: String,
        /// What is wrong with it.
        problem: SaveProblem,
    },
}

/// What is wrong with a save file that parses.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SaveProblem {
    /// Another format version (of the run or of the saved game around it).
    #[error(
        "the save is format {found}, from another version of the game; this build reads format {reads}"
    )]
    Format {
        /// The save's format.
        found: u32,
        /// The format this build reads.
        reads: u32,
    },
    /// Level 0.
    #[error("`level` starts at 1")]
    LevelZero,
    /// Negative, infinite or NaN hull.
    #[error("`hull` must be a number ≥ 0, not {0}")]
    Hull(f64),
    /// A collection over its limit (or a limit of 0).
    #[error("the collection holds {count} blueprints, over its limit of {limit}")]
    Collection {
        /// Blueprints held.
        count: usize,
        /// The limit.
        limit: usize,
    },
    /// A collected blueprint not recorded as picked.
    #[error("`{0}` is in the collection but not among `picked`")]
    NotPicked(String),
    /// A reward phase with nothing on offer.
    #[error("a reward needs at least one offer")]
    NoOffers,
    /// An offer of a blueprint the run already picked.
    #[error("an offer was already picked in this run")]
    OfferPicked,
    /// A finished run that won as many levels as it reached.
    #[error("`levels_won` must be below the level ({0})")]
    LevelsWon(u32),
    /// A battle saved while the run was not in a battle.
    #[error("the save holds a battle, but the run is not in one")]
    BattleOutOfPlace,
    /// An augment is on a blueprint outside the collection, or a blueprint has too many.
    #[error(
        "an augment is on a blueprint the collection does not hold, or a blueprint has more than two"
    )]
    Augments,
    /// The run is in a battle whose room on the map holds none.
    #[error("the run is in a battle, but its room on the map holds none")]
    NotABattleRoom,
    /// A mod's storage that no game could have written.
    #[error("the storage of mod `{mod_id}` {problem}")]
    Storage {
        /// The mod.
        mod_id: String,
        /// What is wrong with it.
        problem: String,
    },
}
