//! The run map: each act is a map of rooms, generated online as the player goes, after the
//! online dungeon generator of *Game Prototype: Online Procedural Map Generation Supporting Multi
//! Level Barriers* ("the map thesis" below).
//!
//! Rooms are rectangles of base units (`rooms.rs`). The act begins with its start room entered.
//! Entering a room opens its doors — the start room 1 to `start_doors`, any other 0 to `doors`
//! new ones, never on the wall it was entered through, at least one while the act has rooms left
//! to make — and makes the room behind each door at once: a layout tried in random order, each
//! of its attach options in random order, rejected when it would overlap a room or another new
//! door's cell (a small room always fits, as the door's cell is free). A new room's kind is drawn
//! from the act's weights, and its door may become a barrier (`barriers.rs`). The room that
//! reaches the act's room limit is the boss's: the act's exit, never barred. Nothing beyond the
//! rooms next to the one entered exists, so the same seed and the same choices give the same map.
//!
//! `docs/runs.md` describes the map for players and modders; `explore.rs` holds the greedy
//! agent behind `rampart map` and the solvability tests.

mod barriers;
mod explore;
mod json;
mod render;
pub mod rooms;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::content::acts::{ActShape, NodeKind};
use crate::rng::{Rng, Seed};

pub use barriers::{Barrier, BarrierKind, Key};
pub use explore::{explore_all, explore_randomly};
pub use json::MapJson;
pub use render::{key_colour, kind_colour, render_png};
pub use rooms::{Rect, Side};

/// A node's index in its act's map, in the order the nodes were made.
pub type NodeId = u32;

/// One room of the map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// Its index.
    pub id: NodeId,
    /// What it holds.
    pub kind: NodeKind,
    /// Where it lies, in base room units.
    pub rect: Rect,
    /// The room whose door led here (`None` for the start).
    pub parent: Option<NodeId>,
    /// The rooms its doors lead to, its parent included.
    pub doors: Vec<NodeId>,
    /// What must be done before it can be entered, if anything.
    pub barrier: Option<Barrier>,
    /// The key clearing it yields, if any.
    pub key_drop: Option<Key>,
    /// For a battle that yields a guarded door's key: the attacker type that leads it.
    pub guard: Option<String>,
    /// When it was entered: 0 for the start, then 1, 2, … in the order of entering.
    pub entered: Option<u32>,
    /// Whether it was cleared (its battle won, its event or shop left).
    pub cleared: bool,
}

/// Why a node cannot be entered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    /// There is no such node.
    #[error("there is no room {0} on this map")]
    NoSuchNode(NodeId),
    /// The node was entered before.
    #[error("room {0} was entered already")]
    Entered(NodeId),
    /// The room the player is in is not cleared yet.
    #[error("room {0} must be cleared before moving on")]
    NotCleared(NodeId),
    /// The node's barrier is closed and its key is not held.
    #[error("room {room} is behind a {kind} barrier whose key {key} is not held")]
    Barred {
        /// The node.
        room: NodeId,
        /// The barrier's kind.
        kind: &'static str,
        /// Its key.
        key: Key,
    },
    /// The act is over.
    #[error("the act is over: its boss was beaten")]
    ActOver,
    /// No room is open and the boss was not beaten: the map broke its own guarantee.
    #[error("no open door is left (in room {0}) and the boss was not beaten")]
    NoWayOn(NodeId),
}

/// The map of one act as far as it has been generated, and where the player is on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ActMap {
    run_seed: u64,
    act: u32,
    seed: Seed,
    shape: ActShape,
    /// Attacker types a guarded door may name.
    guards: Vec<String>,
    nodes: Vec<Node>,
    /// The room the player is in.
    current: NodeId,
    /// Keys collected and not used yet.
    held: Vec<Key>,
    /// Every key made in this act (keys are unique within an act).
    keys: BTreeSet<Key>,
    /// Rooms made through a passage from an earlier room, when the map closed in on itself.
    passages: u32,
}

impl ActMap {
    /// The map of act `act` (1-based) of the run with seed `run_seed`: its start room, entered,
    /// and the rooms behind its doors. `guards` are the attacker types guarded doors may name
    /// (none: no guarded doors).
    pub fn new(run_seed: u64, act: u32, shape: &ActShape, guards: Vec<String>) -> ActMap {
        let seed = act_seed(run_seed, act);
        let mut map = ActMap {
            run_seed,
            act,
            seed,
            shape: shape.clone(),
            guards,
            nodes: vec![Node {
                id: 0,
                kind: NodeKind::Start,
                rect: Rect {
                    x: 0,
                    y: 0,
                    w: 1,
                    h: 1,
                },
                parent: None,
                doors: Vec::new(),
                barrier: None,
                key_drop: None,
                guard: None,
                entered: Some(0),
                cleared: true,
            }],
            current: 0,
            held: Vec::new(),
            keys: BTreeSet::new(),
            passages: 0,
        };
        map.open_doors(0);
        map
    }

    /// The run seed.
    pub fn run_seed(&self) -> u64 {
        self.run_seed
    }

    /// The act, 1-based.
    pub fn act(&self) -> u32 {
        self.act
    }

    /// The act's seed (the run seed's `"map"` branch, numbered by act).
    pub fn seed(&self) -> Seed {
        self.seed
    }

    /// The act's shape, as it was when the act began.
    pub fn shape(&self) -> &ActShape {
        &self.shape
    }

    /// Every node made so far, by id.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// A node.
    pub fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    /// The room the player is in.
    pub fn current(&self) -> NodeId {
        self.current
    }

    /// Keys held and not used yet.
    pub fn held(&self) -> &[Key] {
        &self.held
    }

    /// The boss's room, once made.
    pub fn boss(&self) -> Option<NodeId> {
        self.nodes
            .iter()
            .find(|n| n.kind == NodeKind::Boss)
            .map(|n| n.id)
    }

    /// Whether the boss was beaten.
    pub fn is_over(&self) -> bool {
        self.boss()
            .and_then(|b| self.node(b))
            .is_some_and(|b| b.cleared)
    }

    /// How many rooms were made through a passage from an earlier room because the map had
    /// closed in on itself (rare; counted for the tests and `docs/runs.md`).
    pub fn passages(&self) -> u32 {
        self.passages
    }

    /// The rooms the player may enter now: not entered yet, behind a door of an entered room,
    /// and open (no barrier, or its key held). Empty while the current room is not cleared.
    pub fn choices(&self) -> Vec<NodeId> {
        if !self.nodes[self.current as usize].cleared || self.is_over() {
            return Vec::new();
        }
        self.nodes
            .iter()
            .filter(|n| n.entered.is_none() && self.is_open(n))
            .map(|n| n.id)
            .collect()
    }

    /// Whether a node's barrier, if any, can be passed with the keys held.
    fn is_open(&self, node: &Node) -> bool {
        node.barrier
            .as_ref()
            .is_none_or(|b| self.held.contains(&b.key))
    }

    /// Enters room `id`: uses the key of its barrier, and makes the rooms behind its new doors.
    pub fn enter(&mut self, id: NodeId) -> Result<(), MapError> {
        if self.is_over() {
            return Err(MapError::ActOver);
        }
        let node = self.node(id).ok_or(MapError::NoSuchNode(id))?;
        if node.entered.is_some() {
            return Err(MapError::Entered(id));
        }
        if !self.nodes[self.current as usize].cleared {
            return Err(MapError::NotCleared(self.current));
        }
        if let Some(b) = &node.barrier {
            let Some(at) = self.held.iter().position(|k| *k == b.key) else {
                return Err(MapError::Barred {
                    room: id,
                    kind: b.kind.name(),
                    key: b.key,
                });
            };
            self.held.remove(at);
        }
        let order = self.nodes.iter().filter(|n| n.entered.is_some()).count() as u32;
        let node = &mut self.nodes[id as usize];
        node.entered = Some(order);
        self.current = id;
        self.open_doors(id);
        Ok(())
    }

    /// Marks the current room cleared and collects its key, if it drops one.
    pub fn clear_current(&mut self) {
        let node = &mut self.nodes[self.current as usize];
        if !node.cleared {
            node.cleared = true;
            if let Some(key) = node.key_drop {
                self.held.push(key);
            }
        }
    }

    /// Opens the new doors of room `id`, just entered, and makes the rooms behind them.
    fn open_doors(&mut self, id: NodeId) {
        let limit = self.shape.rooms as usize;
        if self.nodes.len() >= limit {
            return;
        }
        let mut rng = self.seed.branch("room").index(u64::from(id)).rng();
        let room = self.nodes[id as usize].clone();
        let entry = room
            .parent
            .and_then(|p| room.rect.shared_wall(&self.nodes[p as usize].rect));
        let occupied = self.occupied();
        let mut free: Vec<_> = room
            .rect
            .slots()
            .into_iter()
            .filter(|s| Some(s.side) != entry && !occupied.contains(&s.outside))
            .collect();
        let (least, most) = if room.parent.is_none() {
            (1, self.shape.start_doors)
        } else {
            (0, self.shape.doors)
        };
        // At least one door while the act has rooms left to make; never more doors than free
        // walls or rooms left.
        let wanted = (rng.range_i64(i64::from(least), i64::from(most)) as usize).max(1);
        let count = wanted.min(free.len()).min(limit - self.nodes.len());
        rng.shuffle(&mut free);
        free.truncate(count);
        let first_new = self.nodes.len() as NodeId;
        let mut reserved: BTreeSet<_> = free.iter().map(|s| s.outside).collect();
        for slot in free {
            reserved.remove(&slot.outside);
            let rect = self.place(slot, &reserved, &mut rng);
            self.add_room(id, rect, &mut rng);
        }
        if self.nodes.len() as NodeId == first_new
            && self.nodes.len() < limit
            && self.nodes.iter().all(|n| n.entered.is_some())
        {
            self.open_passage(&mut rng);
        }
        for new in first_new..self.nodes.len() as NodeId {
            barriers::decide(self, new, &mut rng);
        }
    }

    /// When the map has closed in on itself — no room left to enter, rooms still to make — a
    /// passage opens from the earliest room with a free wall, so the act can always go on.
    fn open_passage(&mut self, rng: &mut Rng) {
        let occupied = self.occupied();
        let found = self.nodes.iter().find_map(|n| {
            n.rect
                .slots()
                .into_iter()
                .find(|s| !occupied.contains(&s.outside))
                .map(|s| (n.id, s))
        });
        // A finite set of rooms always has a free wall (the leftmost room's west wall, say).
        if let Some((from, slot)) = found {
            let rect = self.place(slot, &BTreeSet::new(), rng);
            self.add_room(from, rect, rng);
            self.passages += 1;
        }
    }

    /// Every cell covered by a room.
    fn occupied(&self) -> BTreeSet<rooms::Cell> {
        self.nodes.iter().flat_map(|n| n.rect.cells()).collect()
    }

    /// The rectangle of the room behind `slot`: the act's layouts in random order, each one's
    /// attach options in random order, the first that overlaps no room and no `reserved` cell.
    fn place(&self, slot: rooms::Slot, reserved: &BTreeSet<rooms::Cell>, rng: &mut Rng) -> Rect {
        let occupied = self.occupied();
        let mut layouts = self.shape.layouts.clone();
        rng.shuffle(&mut layouts);
        for layout in layouts {
            let mut options = rooms::attach_options(layout, slot);
            rng.shuffle(&mut options);
            if let Some(rect) = options.into_iter().find(|r| {
                r.cells()
                    .all(|c| !occupied.contains(&c) && !reserved.contains(&c))
            }) {
                return rect;
            }
        }
        Rect {
            x: slot.outside.0,
            y: slot.outside.1,
            w: 1,
            h: 1,
        }
    }

    /// Adds a room behind a door of `from`: the boss's if it is the act's last, otherwise of a
    /// kind drawn from the act's weights.
    fn add_room(&mut self, from: NodeId, rect: Rect, rng: &mut Rng) {
        let id = self.nodes.len() as NodeId;
        let kind = if self.nodes.len() + 1 == self.shape.rooms as usize {
            NodeKind::Boss
        } else {
            self.draw_kind(rng)
        };
        self.nodes.push(Node {
            id,
            kind,
            rect,
            parent: Some(from),
            doors: vec![from],
            barrier: None,
            key_drop: None,
            guard: None,
            entered: None,
            cleared: false,
        });
        self.nodes[from as usize].doors.push(id);
    }

    /// A kind from the act's weights, among those allowed with the rooms made so far.
    fn draw_kind(&self, rng: &mut Rng) -> NodeKind {
        let made = self.nodes.len() as u32;
        let weights: Vec<f64> = self
            .shape
            .kinds
            .iter()
            .map(|k| if k.earliest <= made { k.weight } else { 0.0 })
            .collect();
        rng.weighted_index(&weights)
            .map_or(NodeKind::Battle, |i| self.shape.kinds[i].kind)
    }
}

/// The seed of act `act`'s map: the run seed's `"map"` branch, numbered by act.
pub fn act_seed(run_seed: u64, act: u32) -> Seed {
    Seed(run_seed).branch("map").index(u64::from(act))
}
