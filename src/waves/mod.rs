//! Attacker waves: the difficulty model and the wave generators (thesis §3.6).
//!
//! [`model`] turns a wave's attackers into a *value* comparable with the value rate and
//! capacity a level expects of the player's defence.

pub mod model;

pub use model::{BatchShape, Collateral};
