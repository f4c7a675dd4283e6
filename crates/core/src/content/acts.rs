//! The shape of a run's map, act by act: how many rooms an act has, which room layouts it uses,
//! how many doors a room opens, how likely each kind of node and each kind of barrier is. It is
//! part of the level setter (`acts` in `levels.rs`), so a mod changes it the same way, and the
//! run map generator (`mapgen`) reads it. `docs/runs.md` describes the fields.

use serde::{Deserialize, Serialize};

/// The most rooms one act may have: the map stays readable on one screen, and its generation
/// cost stays small.
pub const MAX_ROOMS_PER_ACT: u32 = 64;

/// The most acts a run may have.
pub const MAX_ACTS: usize = 16;

/// A room's size in base room units (the run map generator's *Small*, *Big* and *Long* rooms).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Layout {
    /// One unit square.
    Small,
    /// Two by two units.
    Big,
    /// One unit wide, two high.
    Tall,
    /// Two units wide, one high.
    Wide,
}

impl Layout {
    /// Width and height in base units.
    pub fn size(self) -> (i32, i32) {
        match self {
            Layout::Small => (1, 1),
            Layout::Big => (2, 2),
            Layout::Tall => (1, 2),
            Layout::Wide => (2, 1),
        }
    }
}

/// What a node of the run map holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum NodeKind {
    /// Where the act begins: no content, its doors are the first choices.
    Start,
    /// A battle.
    Battle,
    /// A harder battle with a better reward.
    Elite,
    /// A shop.
    Shop,
    /// A short text event with choices.
    Event,
    /// A rest: hull repaired.
    Rest,
    /// The act's boss battle; winning it ends the act.
    Boss,
}

impl NodeKind {
    /// The kinds a data file may give weights to (the start and the boss are placed by rule).
    pub const DRAWN: [NodeKind; 5] = [
        NodeKind::Battle,
        NodeKind::Elite,
        NodeKind::Shop,
        NodeKind::Event,
        NodeKind::Rest,
    ];

    /// The kind's name in lower case, as in `rampart map`'s JSON.
    pub fn name(self) -> &'static str {
        match self {
            NodeKind::Start => "start",
            NodeKind::Battle => "battle",
            NodeKind::Elite => "elite",
            NodeKind::Shop => "shop",
            NodeKind::Event => "event",
            NodeKind::Rest => "rest",
            NodeKind::Boss => "boss",
        }
    }

    /// Whether the node is a battle of any kind.
    pub fn is_battle(self) -> bool {
        matches!(self, NodeKind::Battle | NodeKind::Elite | NodeKind::Boss)
    }
}

/// How likely a kind of node is when a room is made.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindWeight {
    /// The kind (not `Start` or `Boss`).
    pub kind: NodeKind,
    /// Relative weight among the kinds allowed for the room.
    pub weight: f64,
    /// The kind appears only once this many rooms of the act exist (no shop next to the start).
    #[serde(default)]
    pub earliest: u32,
}

/// The chance that a new door is a barrier of each kind.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BarrierChances {
    /// A locked door: its coloured key drops from a battle.
    #[serde(default)]
    pub locked: f64,
    /// A guarded door: its key is won in a battle led by a named attacker type.
    #[serde(default)]
    pub guarded: f64,
    /// A puzzle door: its key comes from an event.
    #[serde(default)]
    pub puzzle: f64,
}

/// The map of one act.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActShape {
    /// Rooms in the act, the start and the boss included; the boss's room is the last made.
    pub rooms: u32,
    /// The act's boss: an attacker type of size `Boss` (`mod:name`).
    pub boss: String,
    /// The room layouts the act uses (the start room is always `Small`).
    pub layouts: Vec<Layout>,
    /// The most doors the start room opens (at least 1, at most 4).
    pub start_doors: u32,
    /// The most new doors any other room opens (at most 3: a room has at most 4 doors, one of
    /// them the way in); while the act has rooms left to make, at least one.
    pub doors: u32,
    /// The kinds of node and their weights.
    pub kinds: Vec<KindWeight>,
    /// How likely each kind of barrier is on a new door.
    #[serde(default)]
    pub barriers: BarrierChances,
}

impl ActShape {
    /// What is wrong with the shape, if anything, as `(field, message)` pairs.
    pub fn problems(&self) -> Vec<(&'static str, String)> {
        let mut problems = Vec::new();
        if !(3..=MAX_ROOMS_PER_ACT).contains(&self.rooms) {
            problems.push((
                "rooms",
                format!(
                    "`rooms` must be from 3 (start, one room, boss) to {MAX_ROOMS_PER_ACT}, not {}",
                    self.rooms
                ),
            ));
        }
        if self.layouts.is_empty() {
            problems.push(("layouts", "`layouts` needs at least one layout".into()));
        }
        if !(1..=4).contains(&self.start_doors) {
            problems.push(("start_doors", "`start_doors` must be from 1 to 4".into()));
        }
        if !(1..=3).contains(&self.doors) {
            problems.push(("doors", "`doors` must be from 1 to 3".into()));
        }
        let weight_ok = |w: f64| w.is_finite() && w >= 0.0;
        if self
            .kinds
            .iter()
            .any(|k| !NodeKind::DRAWN.contains(&k.kind))
        {
            problems.push((
                "kinds",
                "`kinds` may weigh Battle, Elite, Shop, Event and Rest; the start and the boss are placed by rule".into(),
            ));
        }
        if self.kinds.iter().any(|k| !weight_ok(k.weight))
            || !self.kinds.iter().any(|k| k.weight > 0.0 && k.earliest == 0)
        {
            problems.push((
                "kinds",
                "kind weights must be ≥ 0, and one kind with a positive weight must have no `earliest`".into(),
            ));
        }
        let b = &self.barriers;
        let chances = [b.locked, b.guarded, b.puzzle];
        if chances.iter().any(|&c| !weight_ok(c)) || chances.iter().sum::<f64>() > 1.0 {
            problems.push((
                "barriers",
                "barrier chances must be ≥ 0 and add up to at most 1".into(),
            ));
        }
        problems
    }
}
