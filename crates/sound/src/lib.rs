//! Rampart's sounds, knowing no game: the parameters a mod writes to describe a sound
//! ([`SynthParams`], [`Tune`]), and the notation of a tune's notes ([`parse_notes`]).

mod notes;
mod params;

pub use notes::{Note, NoteError, parse_notes};
pub use params::{
    Arpeggio, HighPass, LowPass, Phaser, SynthParams, Tune, TuneVoice, Vibrato, Wave,
};

/// The sample rate everything is made and mixed at, in samples per second.
pub const SAMPLE_RATE: u32 = 48_000;
