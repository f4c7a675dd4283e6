//! What a mod writes to describe a sound made by the game: an sfxr-style synthesiser's
//! parameters, and tunes of notes played by such synthesisers. Every field has a default, so
//! a sound names only what it changes. Units are the ones a modder thinks in: hertz, seconds,
//! octaves per second.

use serde::Deserialize;

/// The shape of a synthesiser's wave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Wave {
    /// A square wave whose high part is `duty` of each period: hollow, retro.
    #[default]
    Square,
    /// A rising ramp: bright, buzzy.
    Saw,
    /// A pure tone.
    Sine,
    /// Softer than a square, brighter than a sine.
    Triangle,
    /// White noise, its grain set by the frequency: hits, explosions, wind.
    Noise,
}

/// A pitch that wobbles.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Vibrato {
    /// How far, as a fraction of the pitch (0 to 1).
    pub depth: f64,
    /// How often, in wobbles per second.
    pub speed: f64,
}

impl Default for Vibrato {
    fn default() -> Self {
        Vibrato {
            depth: 0.0,
            speed: 6.0,
        }
    }
}

/// A jump of the pitch partway through: the classic pick-up "ding".
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Arpeggio {
    /// The pitch is multiplied by this (2: an octave up; 1: no jump).
    pub ratio: f64,
    /// After this many seconds.
    pub after: f64,
}

impl Default for Arpeggio {
    fn default() -> Self {
        Arpeggio {
            ratio: 1.0,
            after: 0.0,
        }
    }
}

/// A resonant low-pass filter: takes the edge off.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LowPass {
    /// The cutoff at the start, in hertz (20 000: open).
    pub cutoff: f64,
    /// How the cutoff moves, in octaves per second.
    pub slide: f64,
    /// How much it rings at the cutoff (0 to 1).
    pub resonance: f64,
}

impl Default for LowPass {
    fn default() -> Self {
        LowPass {
            cutoff: 20_000.0,
            slide: 0.0,
            resonance: 0.0,
        }
    }
}

/// A high-pass filter: thins the sound out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HighPass {
    /// The cutoff at the start, in hertz (0: open).
    pub cutoff: f64,
    /// How the cutoff moves, in octaves per second.
    pub slide: f64,
}

/// A phaser: the sound mixed with a delayed copy of itself, a sweeping "whoosh".
#[derive(Clone, Copy, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Phaser {
    /// The delay at the start, in milliseconds (0: no phaser).
    pub offset: f64,
    /// How the delay moves, in milliseconds per second.
    pub slide: f64,
}

/// An sfxr-style synthesiser: a wave whose pitch slides and wobbles, shaped by an envelope,
/// filtered, optionally restarted. Enough for shots, hits, explosions, pick-ups and alarms
/// without an audio editor.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SynthParams {
    /// The wave's shape.
    pub wave: Wave,
    /// The pitch at the start, in hertz (for noise: how often a new random value is drawn,
    /// divided by 32 — higher is hissier).
    pub frequency: f64,
    /// How the pitch moves, in octaves per second (negative: falls).
    pub slide: f64,
    /// How the slide itself changes, in octaves per second per second.
    pub delta_slide: f64,
    /// The sound ends when a falling pitch goes below this, in hertz (0: never).
    pub min_frequency: f64,
    /// A square wave's high part, as a fraction of its period (0.5: even).
    pub duty: f64,
    /// How the duty moves, per second.
    pub duty_slide: f64,
    /// A wobbling pitch.
    pub vibrato: Vibrato,
    /// A jump of the pitch partway through.
    pub arpeggio: Arpeggio,
    /// Seconds to rise from silence to full.
    pub attack: f64,
    /// Seconds at full.
    pub sustain: f64,
    /// How much louder the start of the sustain is (0: not; 1: twice).
    pub punch: f64,
    /// Seconds to fall back to silence.
    pub decay: f64,
    /// A low-pass filter.
    pub low_pass: LowPass,
    /// A high-pass filter.
    pub high_pass: HighPass,
    /// A phaser.
    pub phaser: Phaser,
    /// Restart the pitch, slide, duty and arpeggio every this many seconds (0: never; at
    /// least 0.01 otherwise): trills, engines, alarms.
    pub repeat: f64,
    /// How loud, 0 to 1.
    pub volume: f64,
    /// Which noise: two sounds that differ only here sound alike but not the same.
    pub seed: u64,
}

impl Default for SynthParams {
    fn default() -> Self {
        SynthParams {
            wave: Wave::Square,
            frequency: 440.0,
            slide: 0.0,
            delta_slide: 0.0,
            min_frequency: 0.0,
            duty: 0.5,
            duty_slide: 0.0,
            vibrato: Vibrato::default(),
            arpeggio: Arpeggio::default(),
            attack: 0.0,
            sustain: 0.1,
            punch: 0.0,
            decay: 0.2,
            low_pass: LowPass::default(),
            high_pass: HighPass::default(),
            phaser: Phaser::default(),
            repeat: 0.0,
            volume: 0.5,
            seed: 0,
        }
    }
}

/// A tune: voices playing notes together at one tempo, each note a synthesiser sound at the
/// note's pitch. Music made from data, which loops as written.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Tune {
    /// Beats per minute.
    pub tempo: f64,
    /// The voices, played at once.
    pub voices: Vec<TuneVoice>,
}

impl Default for Tune {
    fn default() -> Self {
        Tune {
            tempo: 120.0,
            voices: Vec::new(),
        }
    }
}

/// One voice of a [`Tune`].
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TuneVoice {
    /// The synthesiser that plays each note; its `frequency` is replaced by the note's, and its
    /// envelope is cut to the note's length.
    pub instrument: SynthParams,
    /// The notes, in the notation of [`parse_notes`](crate::parse_notes): `"C4 E4 G4:2 -:2"`.
    pub notes: String,
    /// How loud this voice is, 0 to 1 (none: 1), on top of its instrument's volume.
    pub volume: Option<f64>,
}
