//! Rampart: a roguelike tower-defense game that is also a data-driven modding platform.
//!
//! Data flows one way: mod folders (`modding`) → typed content (`content`) → world generation
//! and the deterministic battle (`battle`) → the client. The battle's behaviour is extended
//! through modifiable chains ([`chain`]) by Rust code and by sandboxed Lua scripts.
//! `docs/architecture.md` is the map.

pub mod chain;
pub mod diagnostics;
pub mod rng;
pub mod terrain;
pub mod worldgen;
