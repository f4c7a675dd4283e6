//! Rampart's sounds, knowing no game: the parameters a mod writes to describe a sound
//! ([`SynthParams`], [`Tune`]) and the notation of a tune's notes ([`parse_notes`]); sounds made
//! from them ([`synthesize`], [`render_tune`]), [`Clip`]s at one sample rate.
//!
//! Deterministic: the same parameters give the same samples on every system.

mod clip;
mod notes;
mod params;
mod synth;
mod tune;

pub use clip::Clip;
pub use notes::{Note, NoteError, parse_notes};
pub use params::{
    Arpeggio, HighPass, LowPass, Phaser, SynthParams, Tune, TuneVoice, Vibrato, Wave,
};
pub use synth::{MAX_SYNTH_SECONDS, synthesize};
pub use tune::{MAX_TUNE_SECONDS, TuneError, render_tune};

/// The sample rate everything is made and mixed at, in samples per second.
pub const SAMPLE_RATE: u32 = 48_000;
