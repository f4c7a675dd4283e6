//! Measuring and breeding levels: a level's difficulty measured by the autopilot playing it
//! ([`rate`]), and levels bred by a genetic algorithm until each sits on a difficulty curve
//! ([`breed`], after the genetic algorithm of *Endless Tower*). `docs/balance.md` has the
//! definitions, decisions and measurements.
//!
//! Every game here is independent and spread over the threads of the current `rayon` pool;
//! results are collected in order, so nothing depends on the number of threads.

pub mod breed;
pub mod curve;
pub mod plot;
pub mod rate;

pub use breed::{Bred, Breeder, Component, Generation, Selection};
pub use curve::Curve;
pub use rate::{Bot, Play, Rating, rate, rate_many, rate_setter};
