//! Rampart's core: the game without a window. Data flows one way: mod folders ([`modding`]) →
//! typed content ([`content`]) → generated worlds, waves and run maps ([`worldgen`], [`waves`],
//! [`mapgen`]) → the deterministic battle ([`battle`]) → runs ([`run`]). The battle's behaviour
//! is extended through modifiable chains ([`chain`]) by Rust code and by sandboxed Lua scripts
//! (the `rampart-lua` crate). A host — the game's client, the `rampart` binary, the autopilot,
//! or `examples/host.rs` — reads the battle, asks it questions and submits player commands.
//! `docs/architecture.md` is the map.

/// Simulation ticks per second of game time. Times in content files are in ticks.
pub const TICKS_PER_SECOND: u64 = 20;

pub mod access;
pub mod battle;
pub mod chain;
pub mod content;
pub mod diagnostics;
pub mod files;
pub mod hexgen;
pub mod level;
pub mod mapgen;
pub mod modding;
pub mod picture;
pub mod rng;
pub mod ron_file;
pub mod run;
pub mod scenario;
pub mod terrain;
pub mod topology;
pub mod waves;
pub mod worldgen;
