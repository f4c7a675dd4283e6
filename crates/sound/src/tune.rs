//! Tunes: [`Tune`] → [`Clip`]. Each voice plays its notes one after another at the tune's
//! tempo, each note its instrument at the note's pitch; the voices are added together. The clip
//! lasts as long as the longest voice, so that it loops as written.
//!
//! A note's envelope is fitted to the note: it keeps the instrument's shape when that fits,
//! otherwise the sustain is shortened first, then attack and decay in proportion, so every note
//! ends at silence by the next one; attack and decay last at least 2 ms, so no note starts or
//! stops with a click. Notes of the same pitch and length are synthesised once.

use std::collections::HashMap;

use crate::synth::{render, stages};
use crate::{Clip, NoteError, SAMPLE_RATE, Tune, parse_notes};

/// The longest tune, in seconds.
pub const MAX_TUNE_SECONDS: f64 = 300.0;

/// The shortest attack and decay of a note, in output samples (2 ms): a note starting or
/// stopping at full level would click.
const MIN_EDGE: usize = SAMPLE_RATE as usize / 500;

/// Why a tune cannot be played, in words for the modder.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TuneError {
    /// A voice's notes do not parse.
    #[error("voice {} of the tune: {error}", voice + 1)]
    Notes {
        /// Which voice, counted from 0.
        voice: usize,
        /// What is wrong, and where in the voice's notes.
        error: NoteError,
    },
    /// The tempo is not a usable number of beats per minute.
    #[error("a tune's tempo must be 1 to 1000 beats per minute, not {0}")]
    Tempo(f64),
    /// The longest voice lasts longer than [`MAX_TUNE_SECONDS`].
    #[error("the tune lasts {seconds:.0} seconds; a tune may last at most {MAX_TUNE_SECONDS:.0}")]
    TooLong {
        /// How long the longest voice lasts.
        seconds: f64,
    },
    /// No voice has a note or a rest.
    #[error("a tune needs at least one voice with notes")]
    Empty,
}

/// Plays a tune into a clip (see the module's documentation).
pub fn render_tune(tune: &Tune) -> Result<Clip, TuneError> {
    if !(1.0..=1000.0).contains(&tune.tempo) {
        return Err(TuneError::Tempo(tune.tempo));
    }
    let voices = tune
        .voices
        .iter()
        .enumerate()
        .map(|(voice, v)| parse_notes(&v.notes).map_err(|error| TuneError::Notes { voice, error }))
        .collect::<Result<Vec<_>, _>>()?;
    let seconds_per_beat = 60.0 / tune.tempo;
    let beats = voices
        .iter()
        .map(|notes| notes.iter().map(|n| n.beats).sum::<f64>())
        .fold(0.0, f64::max);
    let seconds = beats * seconds_per_beat;
    if seconds > MAX_TUNE_SECONDS {
        return Err(TuneError::TooLong { seconds });
    }
    // The sample where a note starts, from the beats before it: no rounding accumulates.
    let at = |beat: f64| (beat * seconds_per_beat * f64::from(SAMPLE_RATE)).round() as usize;
    let mut mix = vec![0.0f32; at(beats)];
    if mix.is_empty() {
        return Err(TuneError::Empty);
    }
    for (voice, notes) in tune.voices.iter().zip(&voices) {
        let volume = voice.volume.unwrap_or(1.0);
        let volume = if volume.is_nan() {
            1.0
        } else {
            volume.clamp(0.0, 1.0)
        } as f32;
        let mut played: HashMap<(u64, usize), Vec<f32>> = HashMap::new();
        let mut beat = 0.0;
        for note in notes {
            let (start, end) = (at(beat), at(beat + note.beats));
            beat += note.beats;
            let Some(frequency) = note.frequency else {
                continue;
            };
            let samples = played
                .entry((frequency.to_bits(), end - start))
                .or_insert_with(|| {
                    let mut params = voice.instrument;
                    params.frequency = frequency;
                    render(&params, fitted(stages(&params), end - start))
                });
            for (out, sample) in mix[start..].iter_mut().zip(samples.iter()) {
                *out += sample * volume;
            }
        }
    }
    for sample in &mut mix {
        *sample = sample.clamp(-1.0, 1.0);
    }
    Ok(Clip::mono(mix))
}

/// An envelope's stages (attack, sustain, decay, in samples) fitted to a note of `length`
/// samples: attack and decay at least [`MIN_EDGE`], the sustain shortened first, then attack
/// and decay in proportion.
fn fitted([attack, sustain, decay]: [usize; 3], length: usize) -> [usize; 3] {
    let (attack, decay) = (attack.max(MIN_EDGE), decay.max(MIN_EDGE));
    if attack + sustain + decay <= length {
        [attack, sustain, decay]
    } else if attack + decay <= length {
        [attack, length - attack - decay, decay]
    } else {
        let attack = attack * length / (attack + decay);
        [attack, 0, length - attack]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SynthParams, TuneVoice, Wave};

    fn voice(notes: &str) -> TuneVoice {
        TuneVoice {
            instrument: SynthParams {
                wave: Wave::Sine,
                attack: 0.0,
                sustain: 10.0,
                decay: 0.0,
                volume: 0.25,
                ..SynthParams::default()
            },
            notes: notes.to_string(),
            volume: None,
        }
    }

    /// Largest jump between neighbouring samples: a click shows as one.
    fn largest_step(samples: &[f32]) -> f32 {
        samples
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0, f32::max)
    }

    #[test]
    fn length_is_the_longest_voice() {
        let tune = Tune {
            tempo: 120.0,
            voices: vec![voice("C4 E4"), voice("G3:3 -:2")],
        };
        // Five beats at two per second.
        assert_eq!(render_tune(&tune).unwrap().frames(), 5 * 24_000);
    }

    #[test]
    fn notes_are_fitted_without_clicks() {
        let tune = Tune {
            tempo: 240.0,
            voices: vec![voice("A4 A4 C5:0.5 -:0.5 A4")],
        };
        let clip = render_tune(&tune).unwrap();
        // A 523 Hz sine at level 0.5 moves at most π·523/48000 ≈ 0.034 per sample, plus the
        // envelope's 2 ms ramps; a cut note would jump by up to 0.5.
        assert!(largest_step(clip.samples()) < 0.05);
        // Each note falls silent at its end: the rest (beats 2.5 to 3) is silent.
        let rest = &clip.samples()[30_000..36_000];
        assert!(rest.iter().all(|s| *s == 0.0));
        assert_eq!(clip.samples()[0], 0.0);
    }

    #[test]
    fn voices_add_at_their_volumes() {
        let loud = render_tune(&Tune {
            tempo: 60.0,
            voices: vec![voice("A4")],
        })
        .unwrap();
        let mut quiet_voice = voice("A4");
        quiet_voice.volume = Some(0.5);
        let both = render_tune(&Tune {
            tempo: 60.0,
            voices: vec![voice("A4"), quiet_voice],
        })
        .unwrap();
        let peak = |c: &Clip| c.samples().iter().fold(0.0f32, |m, s| m.max(s.abs()));
        assert!((peak(&both) / peak(&loud) - 1.5).abs() < 0.01);
    }

    #[test]
    fn mistakes_are_errors() {
        let error = render_tune(&Tune {
            tempo: 120.0,
            voices: vec![voice("C4"), voice("C4 X9")],
        })
        .unwrap_err();
        match &error {
            TuneError::Notes { voice: 1, error } => assert_eq!(error.offset, 3),
            other => panic!("{other:?}"),
        }
        assert!(error.to_string().starts_with("voice 2 of the tune: `X9`"));
        let bad_tempo = Tune {
            tempo: f64::NAN,
            voices: vec![voice("C4")],
        };
        assert!(matches!(render_tune(&bad_tempo), Err(TuneError::Tempo(_))));
        // 64 beats per note, 10 notes, at 100 beats per minute: 384 seconds.
        let long = Tune {
            tempo: 100.0,
            voices: vec![voice(&"C4:64 ".repeat(10))],
        };
        let error = render_tune(&long).unwrap_err();
        assert_eq!(error, TuneError::TooLong { seconds: 384.0 });
        assert_eq!(
            error.to_string(),
            "the tune lasts 384 seconds; a tune may last at most 300"
        );
        assert_eq!(render_tune(&Tune::default()), Err(TuneError::Empty));
    }

    #[test]
    fn envelopes_fit_their_notes() {
        assert_eq!(fitted([0, 100, 0], 1000), [96, 100, 96]);
        assert_eq!(fitted([200, 900, 300], 1000), [200, 500, 300]);
        assert_eq!(fitted([600, 900, 600], 1000), [500, 0, 500]);
        assert_eq!(fitted([0, 0, 0], 100), [50, 0, 50]);
    }
}
