//! Rampart: a roguelike tower-defense game that is also a data-driven modding platform.
//!
//! Data flows one way: mod folders ([`modding`]) → typed content ([`content`]) → the
//! deterministic battle ([`battle`]) → the client. The battle's behaviour is extended through
//! modifiable chains ([`chain`]) by Rust code and by sandboxed Lua scripts ([`lua`]).
//! `docs/architecture.md` is the map.

pub mod battle;
pub mod chain;
pub mod content;
pub mod diagnostics;
pub mod lua;
pub mod modding;
pub mod rng;
pub mod ron_file;
pub mod waves;
