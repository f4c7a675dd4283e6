//! Rampart: a roguelike tower-defense game that is also a data-driven modding platform.
//!
//! Data flows one way: mod folders ([`modding`]) → typed content ([`content`]) → the
//! deterministic battle ([`battle`]) → the client. The battle's behaviour is extended through
//! modifiable chains ([`chain`]) by Rust code and by sandboxed Lua scripts ([`lua`]).
//! `docs/architecture.md` is the map.

/// Simulation ticks per second of game time. Times in content files are in ticks.
pub const TICKS_PER_SECOND: u64 = 20;

pub mod access;
pub mod autopilot;
pub mod balance;
pub mod battle;
pub mod chain;
#[cfg(feature = "client")]
pub mod client;
pub mod content;
pub mod diagnostics;
pub mod files;
pub mod hexgen;
pub mod level;
pub mod lua;
pub mod mapgen;
pub mod modding;
pub mod picture;
pub mod rng;
pub mod ron_file;
pub mod run;
pub mod scenario;
pub mod terrain;
pub mod text;
pub mod topology;
pub mod waves;
pub mod worldgen;
