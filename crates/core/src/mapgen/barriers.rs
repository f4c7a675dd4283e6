//! Barriers and their keys, solvable by construction.
//!
//! The map thesis keeps its barriers solvable with counters and gives no algorithm; this is
//! ours. When a new room's door becomes a barrier, its key is placed at once, in a room that
//! already exists, was made *before* the barred room, is not entered yet, holds no other key,
//! and fits the barrier (a locked or guarded door's key drops from a battle, a puzzle's from an
//! event). With no such room the door stays open. Why every act can then be finished:
//!
//! - A room's key lies in a room with a smaller id, so following keys (and the doors leading to
//!   the rooms that hold them) always goes to smaller ids: there is no cycle of keys, and no
//!   key lies behind its own barrier (rooms behind a barrier are made after it, when it is
//!   entered).
//! - Whenever rooms are left to enter, one is open: take the unentered room with the smallest
//!   id among the barred ones; its key lies in a room with a smaller id, which is either entered
//!   (so the key is held: the barrier is open) or unentered and so not barred — open either way.
//! - While the act has rooms left to make, every room entered opens at least one door (or, when
//!   the map has closed in on itself, a passage opens elsewhere), so the boss's room, the last
//!   made and never barred, is always reached.
//!
//! `crates/rampart/tests/cli/run_map.rs` checks all three on thousands of seeds with agents that take any
//! open door.

use serde::{Deserialize, Serialize};

use super::{ActMap, NodeId};
use crate::content::acts::NodeKind;
use crate::rng::Rng;

/// A key: five digits, unique within an act (the map thesis's key ids). Its colour on the map
/// comes from its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Key(pub u32);

impl std::fmt::Display for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:05}", self.0)
    }
}

/// Keys have five digits.
const KEY_SPACE: i64 = 100_000;

/// What kind of barrier a door is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BarrierKind {
    /// A locked door; its key of the same colour drops from a battle.
    Locked,
    /// A guarded door; its key is won in a battle led by the attacker type it names.
    Guarded,
    /// A puzzle door; its key comes from an event.
    Puzzle,
}

impl BarrierKind {
    /// The kind's name in lower case, as in `rampart map`'s JSON.
    pub fn name(self) -> &'static str {
        match self {
            BarrierKind::Locked => "locked",
            BarrierKind::Guarded => "guarded",
            BarrierKind::Puzzle => "puzzle",
        }
    }

    /// Whether a room of `kind` may hold this barrier's key.
    fn fits(self, kind: NodeKind) -> bool {
        match self {
            BarrierKind::Locked | BarrierKind::Guarded => {
                matches!(kind, NodeKind::Battle | NodeKind::Elite)
            }
            BarrierKind::Puzzle => kind == NodeKind::Event,
        }
    }
}

/// A barrier on the door into a room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Barrier {
    /// Its kind.
    pub kind: BarrierKind,
    /// The key that opens it.
    pub key: Key,
    /// For a guarded door, the attacker type (`mod:name`) that leads the battle holding its key.
    pub guard: Option<String>,
}

/// Decides whether the door into `room`, just made, is a barrier, and if so places its key.
pub(super) fn decide(map: &mut ActMap, room: NodeId, rng: &mut Rng) {
    let node = &map.nodes[room as usize];
    if node.kind == NodeKind::Boss {
        return;
    }
    let chances = &map.shape.barriers;
    let roll = rng.unit();
    let kind = if roll < chances.locked {
        BarrierKind::Locked
    } else if roll < chances.locked + chances.guarded {
        BarrierKind::Guarded
    } else if roll < chances.locked + chances.guarded + chances.puzzle {
        BarrierKind::Puzzle
    } else {
        return;
    };
    let guard = match kind {
        BarrierKind::Guarded if map.guards.is_empty() => return,
        BarrierKind::Guarded => Some(map.guards[rng.index(map.guards.len())].clone()),
        _ => None,
    };
    let holders: Vec<NodeId> = map.nodes[..room as usize]
        .iter()
        .filter(|n| n.entered.is_none() && n.key_drop.is_none() && kind.fits(n.kind))
        .map(|n| n.id)
        .collect();
    if holders.is_empty() {
        return;
    }
    // The fewer rooms could hold it, the likelier each is (one of them always does).
    let holder = holders[rng.index(holders.len())];
    let key = loop {
        let key = Key(rng.range_i64(0, KEY_SPACE - 1) as u32);
        if map.keys.insert(key) {
            break key;
        }
    };
    let holder = &mut map.nodes[holder as usize];
    holder.key_drop = Some(key);
    holder.guard = guard.clone();
    map.nodes[room as usize].barrier = Some(Barrier { kind, key, guard });
}
