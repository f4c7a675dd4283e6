//! Rampart's sounds, knowing no game: the parameters a mod writes to describe a sound
//! ([`SynthParams`], [`Tune`]) and the notation of a tune's notes ([`parse_notes`]); sounds made
//! from them ([`synthesize`], [`render_tune`]) or decoded from a mod's files ([`decode`]), all
//! [`Clip`]s at one sample rate; the [`Mixer`] that plays them, writing what it renders as WAV
//! ([`wav_bytes`]), and, with the default feature `device`, playing it on the system's sound
//! output ([`Output`]).
//!
//! Everything but the device output is deterministic: the same parameters give the same samples,
//! and the same calls to the mixer the same output, on every system.

mod clip;
mod decode;
mod mixer;
mod notes;
#[cfg(feature = "device")]
mod output;
mod params;
mod synth;
mod tune;
mod wav;

pub use clip::Clip;
pub use decode::{DecodeError, MAX_DECODED_SECONDS, MAX_FILE_BYTES, decode};
pub use mixer::{Bus, MAX_VOICES, Mixer, Play};
pub use notes::{Note, NoteError, parse_notes};
#[cfg(feature = "device")]
pub use output::{Output, OutputError};
pub use params::{
    Arpeggio, HighPass, LowPass, Phaser, SynthParams, Tune, TuneVoice, Vibrato, Wave,
};
pub use synth::{MAX_SYNTH_SECONDS, synthesize};
pub use tune::{MAX_TUNE_SECONDS, TuneError, render_tune};
pub use wav::{WavError, wav_bytes};

/// The sample rate everything is made and mixed at, in samples per second.
pub const SAMPLE_RATE: u32 = 48_000;
