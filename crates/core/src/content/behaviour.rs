//! Behaviours the engine runs for a blueprint, configured by data, so that a plain tower needs
//! no script: what it can hit (a range shape), how it picks targets, and what it fires. A script
//! can still change any of it through the stat queries, or replace it.
//!
//! Distances along the range are multiples of the blueprint's `range` statistic (so a Radar that
//! raises the range widens every shape); widths and heights are in tiles.

use serde::{Deserialize, Serialize};

/// What the engine does with a placed blueprint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Behaviour {
    /// A tower: whenever it is ready and something is in range, it hits it.
    Shooter(Shooter),
    /// An ability that damages everything within its `radius` of where it is used, after its
    /// `delay` if it has one, then disappears. A wave ending first cancels it.
    Blast,
}

/// A tower's targeting and weapon.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shooter {
    /// Where targets may be.
    #[serde(default)]
    pub shape: Shape,
    /// Whether the line from the muzzle to a target must be clear of terrain and large obstacles.
    #[serde(default = "yes")]
    pub line_of_sight: bool,
    /// Whether it can shoot up and down.
    #[serde(default)]
    pub aim: Aim,
    /// Which target it prefers at first (the player can change it).
    #[serde(default)]
    pub priority: Priority,
    /// How many targets one shot hits: a number, or every target in range.
    #[serde(default)]
    pub targets: Targets,
    /// What it fires.
    #[serde(default)]
    pub projectile: Projectile,
    /// Height of the muzzle above the ground, in tiles.
    #[serde(default = "muzzle")]
    pub muzzle_height: f64,
}

fn yes() -> bool {
    true
}

fn muzzle() -> f64 {
    0.5
}

fn one() -> f64 {
    1.0
}

/// A range shape, relative to the tower's muzzle and facing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Shape {
    /// Everything within `radius` × range horizontally; with `height`, only that far above or
    /// below the muzzle.
    Cylinder {
        /// Radius, in multiples of the range.
        #[serde(default = "one")]
        radius: f64,
        /// Vertical reach above and below the muzzle, in tiles; unlimited if left out.
        #[serde(default)]
        height: Option<f64>,
    },
    /// A box along the facing: from `back` behind to `forward` ahead (multiples of the range),
    /// `side` tiles to either side.
    Box {
        /// How far ahead, in multiples of the range.
        #[serde(default = "one")]
        forward: f64,
        /// How far behind, in multiples of the range.
        #[serde(default)]
        back: f64,
        /// Half the width, in tiles.
        side: f64,
    },
    /// A straight line along the facing, as long as the range and `width` tiles wide.
    Ray {
        /// Full width, in tiles.
        width: f64,
    },
    /// Inside any of them.
    Union(Vec<Shape>),
    /// Inside all of them.
    Intersection(Vec<Shape>),
    /// Inside the first, not the second.
    Difference(Box<Shape>, Box<Shape>),
}

impl Default for Shape {
    fn default() -> Self {
        Shape::Cylinder {
            radius: 1.0,
            height: None,
        }
    }
}

/// Which way a tower can aim.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Aim {
    /// Up, down and level.
    #[default]
    Any,
    /// Not at targets above the muzzle.
    NotUp,
    /// Not at targets below the muzzle.
    NotDown,
}

/// Which target a tower prefers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Priority {
    /// Closest to the Hub along its path.
    #[default]
    First,
    /// Farthest from the Hub along its path.
    Last,
    /// Closest to the tower.
    Closest,
    /// Farthest from the tower.
    Farthest,
    /// Fewest hit points.
    Weakest,
    /// Most hit points.
    Strongest,
}

impl Priority {
    /// All priorities in the order Tab cycles through them.
    pub const ALL: [Priority; 6] = [
        Priority::First,
        Priority::Last,
        Priority::Closest,
        Priority::Farthest,
        Priority::Weakest,
        Priority::Strongest,
    ];

    /// The next priority in the cycle (`step` = 1) or the previous (`step` = -1).
    pub fn cycle(self, step: i32) -> Priority {
        let i = Priority::ALL.iter().position(|p| *p == self).unwrap_or(0) as i32;
        Priority::ALL[(i + step).rem_euclid(Priority::ALL.len() as i32) as usize]
    }

    /// The name shown to players.
    pub fn name(self) -> &'static str {
        match self {
            Priority::First => "First",
            Priority::Last => "Last",
            Priority::Closest => "Closest",
            Priority::Farthest => "Farthest",
            Priority::Weakest => "Weakest",
            Priority::Strongest => "Strongest",
        }
    }
}

/// How many targets one shot hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Targets {
    /// The best `n` by priority.
    Best(u32),
    /// Everything in range.
    All,
}

impl Default for Targets {
    fn default() -> Self {
        Targets::Best(1)
    }
}

/// What a tower fires.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Projectile {
    /// The hit lands at once (also beams and slams).
    #[default]
    Instant,
    /// A projectile flying straight at where the target was, `speed` tiles per second; it can
    /// miss a target that moves, and hits the first attacker in its way.
    Straight {
        /// Tiles per second.
        speed: f64,
    },
    /// A projectile that follows its target, `speed` tiles per second, and hits it unless the
    /// target dies first (then it fizzles) or it is stopped on the way (by a barrier).
    Homing {
        /// Tiles per second.
        speed: f64,
    },
    /// A shell over obstacles, landing where the target will be after `flight` ticks and
    /// damaging everything within the blueprint's `radius`.
    Ballistic {
        /// Ticks in the air.
        flight: u32,
    },
    /// A hit that jumps on: after the target, up to `jumps` more attackers within the
    /// blueprint's `radius` of it, nearest first, each taking `falloff` × the damage.
    Chain {
        /// Extra attackers hit.
        jumps: u32,
        /// Fraction of the damage the extra hits deal.
        falloff: f64,
    },
}
