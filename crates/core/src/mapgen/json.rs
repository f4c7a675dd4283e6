//! An act's map as JSON, the contract of `rampart map --json`: rectangles in base room units, a
//! door joins two rooms that share a wall, a node's `barrier` guards entering it, clearing a node
//! yields its `key_drop`. `parent` and `entered` let a checker see that every room was made when
//! the room behind its door was entered.

use serde::Serialize;

use super::{ActMap, NodeId};

/// The map of one act.
#[derive(Clone, Debug, Serialize)]
pub struct MapJson {
    /// The run seed.
    pub seed: u64,
    /// The act, 1-based.
    pub act: u32,
    /// The start room.
    pub start: NodeId,
    /// The boss's room, the act's exit (`null` while not made yet).
    pub exit: Option<NodeId>,
    /// Every room made.
    pub nodes: Vec<NodeJson>,
}

/// One room.
#[derive(Clone, Debug, Serialize)]
pub struct NodeJson {
    /// Its id.
    pub id: NodeId,
    /// `start`, `battle`, `elite`, `shop`, `event`, `rest` or `boss`.
    pub kind: &'static str,
    /// `[x, y, w, h]` in base room units, `y` downwards.
    pub rect: [i32; 4],
    /// The rooms its doors lead to.
    pub doors: Vec<NodeId>,
    /// What guards entering it.
    pub barrier: Option<BarrierJson>,
    /// The key clearing it yields.
    pub key_drop: Option<String>,
    /// The room it was made from (`null` for the start).
    pub parent: Option<NodeId>,
    /// When it was entered (0 for the start), `null` if never.
    pub entered: Option<u32>,
    /// For a battle yielding a guarded door's key, the attacker type leading it.
    pub guard: Option<String>,
}

/// A barrier.
#[derive(Clone, Debug, Serialize)]
pub struct BarrierJson {
    /// `locked`, `guarded` or `puzzle`.
    pub kind: &'static str,
    /// The key that opens it, five digits.
    pub key: String,
    /// For a guarded door, the attacker type named on it.
    pub guard: Option<String>,
}

impl MapJson {
    /// The map as it stands.
    pub fn new(map: &ActMap) -> MapJson {
        MapJson {
            seed: map.run_seed(),
            act: map.act(),
            start: 0,
            exit: map.boss(),
            nodes: map
                .nodes()
                .iter()
                .map(|n| NodeJson {
                    id: n.id,
                    kind: n.kind.name(),
                    rect: [n.rect.x, n.rect.y, n.rect.w, n.rect.h],
                    doors: n.doors.clone(),
                    barrier: n.barrier.as_ref().map(|b| BarrierJson {
                        kind: b.kind.name(),
                        key: b.key.to_string(),
                        guard: b.guard.clone(),
                    }),
                    key_drop: n.key_drop.map(|k| k.to_string()),
                    parent: n.parent,
                    entered: n.entered,
                    guard: n.guard.clone(),
                })
                .collect(),
        }
    }
}
