//! The sfxr synthesiser: [`SynthParams`] → [`Clip`].
//!
//! The algorithm is DrPetter's sfxr (and bfxr's triangle), sample by sample: an oscillator
//! eight times oversampled, its pitch sliding (a slide that itself slides), cut off below a
//! minimum, wobbled by vibrato and jumped by an arpeggio; a square's duty sliding; an
//! attack–sustain–decay envelope with punch; sfxr's resonant low-pass (a damped spring chasing
//! the signal) and one-pole high-pass, both with sliding cutoffs; the phaser (the signal plus a
//! copy delayed by a sliding delay); restarts of pitch, slide, duty and arpeggio. sfxr's
//! unit-less 0–1 parameters are replaced by the physical units of [`SynthParams`]; its pitch,
//! quantised to whole periods of the oversampled clock, is a continuous phase; and the
//! low-pass's damping follows the cutoff (sfxr fixed it from the starting cutoff, which left
//! the cutoff no particular frequency), so that its cutoff is the hertz the parameter says.
//!
//! Same parameters, same samples, on every system: the transcendental functions are libm's and
//! the noise comes from a PCG generator seeded by [`SynthParams::seed`].
//!
//! Wild values are clamped rather than refused (a mod's numbers cannot make a sound
//! unbounded): pitches and cutoffs to 20 kHz at most (pitches and low-pass cutoffs 1 Hz at
//! least), slides to ±64 octaves per second (delta slide ±256 per second), duty to 0–1, vibrato
//! to a depth of 0–1 at up to 100 Hz, the arpeggio's ratio to 1/16–16, punch to 0–2, resonance
//! and volume to 0–1, the phaser's delay to 0–10 ms (its slide to ±100 ms per second), repeats
//! to at least 10 ms; NaN means the default. A sound lasts attack + sustain + decay, at most
//! [`MAX_SYNTH_SECONDS`]: longer envelopes are scaled down to fit. A sound cut short by its
//! minimum frequency fades out over 5 ms rather than clicking.

use std::f64::consts::{FRAC_1_SQRT_2, TAU};

use rand_pcg::Pcg32;
use rand_pcg::rand_core::{Rng, SeedableRng};

use crate::{Clip, SAMPLE_RATE, SynthParams, Wave};

/// The longest sound the synthesiser makes, in seconds.
pub const MAX_SYNTH_SECONDS: f64 = 10.0;

/// Samples per second of the output.
const RATE: f64 = SAMPLE_RATE as f64;
/// How many times the oscillator and filters run per output sample, as in sfxr.
const OVERSAMPLE: usize = 8;
/// The oscillator's and filters' rate.
const INNER_RATE: f64 = RATE * OVERSAMPLE as f64;
/// The highest pitch or cutoff, in hertz.
const MAX_FREQUENCY: f64 = 20_000.0;
/// The lowest pitch or cutoff, in hertz.
const MIN_FREQUENCY: f64 = 1.0;
/// sfxr's largest low-pass coefficient: above it the filter is open anyway, and its spring
/// would ring.
const MAX_LOW_PASS_W: f64 = 0.1;
/// The phaser's longest delay, in milliseconds.
const MAX_PHASER_MS: f64 = 10.0;
/// The phaser's delay line, in oversampled samples: a power of two above the longest delay.
const PHASER_LEN: usize = 4096;
/// Noise values drawn per period of a noise wave, as in sfxr.
const NOISE_VALUES: usize = 32;
/// The fade of a sound cut short by its minimum frequency, in output samples (5 ms).
const CUT_FADE: usize = SAMPLE_RATE as usize / 200;

/// Synthesises the sound `params` describe (see the module's documentation for the algorithm
/// and the limits of each parameter).
pub fn synthesize(params: &SynthParams) -> Clip {
    Clip::mono(render(params, stages(params)))
}

/// The samples of `params` with the envelope's stages given in output samples (attack, sustain,
/// decay), for the notes of a tune, whose envelopes are fitted to the notes.
pub(crate) fn render(params: &SynthParams, stages: [usize; 3]) -> Vec<f32> {
    Synth::new(params, stages).run()
}

/// `value` within `low..=high`, NaN as `default`.
fn clamped(value: f64, low: f64, high: f64, default: f64) -> f64 {
    if value.is_nan() {
        default
    } else {
        value.clamp(low, high)
    }
}

/// The envelope's stages in output samples, clamped and scaled to fit [`MAX_SYNTH_SECONDS`].
pub(crate) fn stages(params: &SynthParams) -> [usize; 3] {
    let defaults = SynthParams::default();
    let mut stages = [
        clamped(params.attack, 0.0, MAX_SYNTH_SECONDS, defaults.attack),
        clamped(params.sustain, 0.0, MAX_SYNTH_SECONDS, defaults.sustain),
        clamped(params.decay, 0.0, MAX_SYNTH_SECONDS, defaults.decay),
    ];
    let total: f64 = stages.iter().sum();
    if total > MAX_SYNTH_SECONDS {
        for stage in &mut stages {
            *stage *= MAX_SYNTH_SECONDS / total;
        }
    }
    stages.map(|seconds| (seconds * RATE) as usize)
}

/// A synthesis in progress: sfxr's state, in physical units.
struct Synth {
    wave: Wave,
    volume: f64,
    /// Envelope stages in output samples: attack, sustain, decay.
    stages: [usize; 3],
    punch: f64,

    base_frequency: f64,
    min_frequency: f64,
    /// The pitch above the base, in octaves: slides and arpeggios add to it.
    octaves: f64,
    /// The slide now, in octaves per second.
    slide: f64,
    start_slide: f64,
    delta_slide: f64,
    duty: f64,
    start_duty: f64,
    duty_slide: f64,
    vibrato_depth: f64,
    vibrato_speed: f64,
    vibrato_phase: f64,
    /// The arpeggio's jump in octaves, and when, in output samples since the last restart.
    arpeggio_octaves: f64,
    arpeggio_at: usize,
    arpeggio_done: bool,
    /// Output samples between restarts (0: none).
    repeat: usize,
    since_restart: usize,

    /// The oscillator's position in its period, 0 to 1.
    phase: f64,
    noise: [f64; NOISE_VALUES],
    rng: Pcg32,

    low_pass_cutoff: f64,
    low_pass_slide: f64,
    /// The low-pass spring's damping ratio, set by the resonance.
    low_pass_damping_ratio: f64,
    /// The low-pass output and its velocity.
    low_pass: (f64, f64),
    high_pass_cutoff: f64,
    high_pass_slide: f64,
    high_pass: f64,
    phaser_ms: f64,
    phaser_slide: f64,
    phaser_line: Box<[f64; PHASER_LEN]>,
    phaser_at: usize,
}

impl Synth {
    fn new(p: &SynthParams, stages: [usize; 3]) -> Synth {
        let d = SynthParams::default();
        let frequency =
            |value: f64, default: f64| clamped(value, MIN_FREQUENCY, MAX_FREQUENCY, default);
        let slide = |value: f64| clamped(value, -64.0, 64.0, 0.0);
        let duty = clamped(p.duty, 0.0, 1.0, d.duty);
        let ratio = clamped(p.arpeggio.ratio, 1.0 / 16.0, 16.0, 1.0);
        let repeat = clamped(p.repeat, 0.0, MAX_SYNTH_SECONDS, 0.0);
        let low_pass_cutoff = frequency(p.low_pass.cutoff, d.low_pass.cutoff);
        let resonance = clamped(p.low_pass.resonance, 0.0, 1.0, 0.0);
        let mut rng = Pcg32::seed_from_u64(p.seed);
        let noise = std::array::from_fn(|_| noise_value(&mut rng));
        Synth {
            wave: p.wave,
            volume: clamped(p.volume, 0.0, 1.0, d.volume),
            stages,
            punch: clamped(p.punch, 0.0, 2.0, 0.0),
            base_frequency: frequency(p.frequency, d.frequency),
            min_frequency: clamped(p.min_frequency, 0.0, MAX_FREQUENCY, 0.0),
            octaves: 0.0,
            slide: slide(p.slide),
            start_slide: slide(p.slide),
            delta_slide: clamped(p.delta_slide, -256.0, 256.0, 0.0),
            duty,
            start_duty: duty,
            duty_slide: clamped(p.duty_slide, -64.0, 64.0, 0.0),
            vibrato_depth: clamped(p.vibrato.depth, 0.0, 1.0, 0.0),
            vibrato_speed: clamped(p.vibrato.speed, 0.0, 100.0, d.vibrato.speed),
            vibrato_phase: 0.0,
            arpeggio_octaves: libm::log2(ratio),
            arpeggio_at: (clamped(p.arpeggio.after, 0.0, MAX_SYNTH_SECONDS, 0.0) * RATE) as usize,
            arpeggio_done: false,
            repeat: if repeat > 0.0 {
                (repeat.max(0.01) * RATE) as usize
            } else {
                0
            },
            since_restart: 0,
            phase: 0.0,
            noise,
            rng,
            low_pass_cutoff,
            low_pass_slide: slide(p.low_pass.slide),
            // sfxr's 1 / (1 + 20·resonance²), from a flat response (√½) at no resonance.
            low_pass_damping_ratio: FRAC_1_SQRT_2 / (1.0 + 20.0 * resonance * resonance),
            low_pass: (0.0, 0.0),
            high_pass_cutoff: clamped(p.high_pass.cutoff, 0.0, MAX_FREQUENCY, 0.0),
            high_pass_slide: slide(p.high_pass.slide),
            high_pass: 0.0,
            phaser_ms: clamped(p.phaser.offset, 0.0, MAX_PHASER_MS, 0.0),
            phaser_slide: clamped(p.phaser.slide, -100.0, 100.0, 0.0),
            phaser_line: Box::new([0.0; PHASER_LEN]),
            phaser_at: 0,
        }
    }

    /// Every output sample of the sound.
    fn run(mut self) -> Vec<f32> {
        let length: usize = self.stages.iter().sum();
        let mut out = Vec::with_capacity(length);
        let mut frequency = self.base_frequency;
        // Set when the pitch falls below the minimum: the sample where the fade-out began; the
        // pitch holds meanwhile.
        let mut cut_at = None;
        for i in 0..length {
            if cut_at.is_none() {
                match self.advance_pitch() {
                    Some(f) => frequency = f,
                    None => cut_at = Some(i),
                }
            }
            let fade = match cut_at {
                Some(start) if i - start >= CUT_FADE => break,
                Some(start) => 1.0 - (i - start) as f64 / CUT_FADE as f64,
                None => 1.0,
            };
            let sample = self.sample(frequency, self.envelope(i) * fade);
            out.push(sample.clamp(-1.0, 1.0) as f32);
        }
        out
    }

    /// The envelope's level at output sample `i`.
    fn envelope(&self, i: usize) -> f64 {
        let [attack, sustain, decay] = self.stages;
        if i < attack {
            i as f64 / attack as f64
        } else if i < attack + sustain {
            1.0 + (1.0 - (i - attack) as f64 / sustain as f64) * self.punch
        } else {
            1.0 - (i - attack - sustain) as f64 / decay as f64
        }
    }

    /// Moves the pitch on by one output sample (restart, arpeggio, slides, vibrato) and returns
    /// the frequency to play, or `None` once the pitch has fallen below the minimum.
    fn advance_pitch(&mut self) -> Option<f64> {
        if self.repeat > 0 && self.since_restart >= self.repeat {
            self.since_restart = 0;
            self.octaves = 0.0;
            self.slide = self.start_slide;
            self.duty = self.start_duty;
            self.arpeggio_done = false;
        }
        if !self.arpeggio_done && self.since_restart >= self.arpeggio_at {
            self.arpeggio_done = true;
            self.octaves += self.arpeggio_octaves;
        }
        self.since_restart += 1;
        self.slide += self.delta_slide / RATE;
        self.octaves += self.slide / RATE;
        let frequency = self.base_frequency * libm::exp2(self.octaves);
        if frequency < self.min_frequency {
            return None;
        }
        // Held within range as sfxr holds its period, so a long slide cannot run away.
        let frequency = if (MIN_FREQUENCY..=MAX_FREQUENCY).contains(&frequency) {
            frequency
        } else {
            let held = frequency.clamp(MIN_FREQUENCY, MAX_FREQUENCY);
            self.octaves = libm::log2(held / self.base_frequency);
            held
        };
        self.duty = (self.duty + self.duty_slide / RATE).clamp(0.0, 1.0);
        if self.vibrato_depth > 0.0 {
            self.vibrato_phase = (self.vibrato_phase + self.vibrato_speed / RATE).fract();
            let wobble = 1.0 + libm::sin(self.vibrato_phase * TAU) * self.vibrato_depth;
            Some((frequency * wobble).min(MAX_FREQUENCY))
        } else {
            Some(frequency)
        }
    }

    /// One output sample at `frequency` and envelope level `level`: the oversampled
    /// oscillator through the filters and the phaser, averaged.
    fn sample(&mut self, frequency: f64, level: f64) -> f64 {
        // The filters' and the phaser's slides, once per output sample.
        let seconds = 1.0 / RATE;
        self.low_pass_cutoff = slid(self.low_pass_cutoff, self.low_pass_slide, seconds);
        let low_pass_open = self.low_pass_cutoff >= MAX_FREQUENCY;
        let w = low_pass_w(self.low_pass_cutoff);
        let damping = 2.0 * self.low_pass_damping_ratio * w.sqrt();
        if self.high_pass_cutoff > 0.0 {
            self.high_pass_cutoff = slid(self.high_pass_cutoff, self.high_pass_slide, seconds);
        }
        let high_pass_keep = libm::exp(-TAU * self.high_pass_cutoff / INNER_RATE);
        self.phaser_ms = (self.phaser_ms + self.phaser_slide * seconds).clamp(0.0, MAX_PHASER_MS);
        let delay = ((self.phaser_ms / 1000.0 * INNER_RATE) as usize).min(PHASER_LEN - 1);

        let step = frequency / INNER_RATE;
        let mut sum = 0.0;
        for _ in 0..OVERSAMPLE {
            self.phase += step;
            if self.phase >= 1.0 {
                self.phase = self.phase.fract();
                if self.wave == Wave::Noise {
                    for value in &mut self.noise {
                        *value = noise_value(&mut self.rng);
                    }
                }
            }
            let raw = self.oscillator();
            // sfxr's low-pass: a damped spring pulled toward the signal.
            let (position, velocity) = &mut self.low_pass;
            let previous = *position;
            if low_pass_open {
                *position = raw;
                *velocity = 0.0;
            } else {
                *velocity += (raw - *position) * w;
                *velocity -= *velocity * damping;
                *position += *velocity;
            }
            // One-pole high-pass on the low-pass's output.
            self.high_pass = (self.high_pass + *position - previous) * high_pass_keep;
            let filtered = self.high_pass;
            // sfxr's phaser: the signal plus itself `delay` samples ago (doubled at no delay).
            self.phaser_line[self.phaser_at] = filtered;
            let delayed = self.phaser_line[(self.phaser_at + PHASER_LEN - delay) % PHASER_LEN];
            self.phaser_at = (self.phaser_at + 1) % PHASER_LEN;
            sum += (filtered + delayed) * level;
        }
        sum / OVERSAMPLE as f64 * self.volume
    }

    /// The wave at the current phase, at sfxr's levels (a square is ±0.5, the others ±1).
    fn oscillator(&self) -> f64 {
        let phase = self.phase;
        match self.wave {
            Wave::Square => {
                if phase < self.duty {
                    0.5
                } else {
                    -0.5
                }
            }
            Wave::Saw => 1.0 - phase * 2.0,
            Wave::Sine => libm::sin(phase * TAU),
            Wave::Triangle => 4.0 * (phase - 0.5).abs() - 1.0,
            Wave::Noise => {
                self.noise[((phase * NOISE_VALUES as f64) as usize).min(NOISE_VALUES - 1)]
            }
        }
    }
}

/// `frequency` after sliding `octaves_per_second` for `seconds`, within range.
fn slid(frequency: f64, octaves_per_second: f64, seconds: f64) -> f64 {
    if octaves_per_second == 0.0 {
        return frequency;
    }
    (frequency * libm::exp2(octaves_per_second * seconds)).clamp(MIN_FREQUENCY, MAX_FREQUENCY)
}

/// sfxr's low-pass coefficient for a cutoff: the spring's stiffness, whose natural frequency
/// (√w radians per oversampled sample) is the cutoff.
fn low_pass_w(cutoff: f64) -> f64 {
    let radians = TAU * cutoff / INNER_RATE;
    (radians * radians).min(MAX_LOW_PASS_W)
}

/// A noise value, -1 to 1.
fn noise_value(rng: &mut Pcg32) -> f64 {
    f64::from(rng.next_u32()) / f64::from(u32::MAX) * 2.0 - 1.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Arpeggio, HighPass, LowPass, Phaser, Vibrato};

    /// Root mean square of samples.
    fn rms(samples: &[f32]) -> f64 {
        let sum: f64 = samples.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
        (sum / samples.len() as f64).sqrt()
    }

    /// Upward zero crossings per second over `samples`: a pitch.
    fn pitch(samples: &[f32]) -> f64 {
        let crossings = samples
            .windows(2)
            .filter(|w| w[0] <= 0.0 && w[1] > 0.0)
            .count();
        crossings as f64 * RATE / samples.len() as f64
    }

    fn tone(wave: Wave, frequency: f64) -> SynthParams {
        SynthParams {
            wave,
            frequency,
            attack: 0.0,
            sustain: 0.5,
            decay: 0.0,
            ..SynthParams::default()
        }
    }

    #[test]
    fn length_is_the_envelope() {
        let clip = synthesize(&SynthParams {
            attack: 0.01,
            sustain: 0.1,
            decay: 0.2,
            ..SynthParams::default()
        });
        assert_eq!(clip.frames(), 480 + 4800 + 9600);
        assert_eq!(clip.channels(), 1);
        // The attack rises from silence and the decay falls back to it.
        assert_eq!(clip.samples()[0], 0.0);
        assert!(clip.samples()[clip.frames() - 1].abs() < 0.01);
    }

    #[test]
    fn envelopes_are_bounded() {
        let clip = synthesize(&SynthParams {
            attack: 100.0,
            sustain: f64::INFINITY,
            decay: 30.0,
            ..SynthParams::default()
        });
        assert_eq!(clip.frames(), (MAX_SYNTH_SECONDS * RATE) as usize);
        let empty = synthesize(&SynthParams {
            attack: -1.0,
            sustain: 0.0,
            decay: f64::NEG_INFINITY,
            ..SynthParams::default()
        });
        assert!(empty.is_empty());
    }

    #[test]
    fn waves_play_at_their_pitch() {
        for wave in [Wave::Square, Wave::Saw, Wave::Sine, Wave::Triangle] {
            let clip = synthesize(&tone(wave, 440.0));
            let measured = pitch(clip.samples());
            assert!((measured - 440.0).abs() < 5.0, "{wave:?}: {measured} Hz");
        }
        let low = synthesize(&tone(Wave::Sine, 110.0));
        assert!((pitch(low.samples()) - 110.0).abs() < 5.0);
    }

    #[test]
    fn levels_follow_sfxr() {
        // At volume 1 and no envelope shape a square is ±0.5 doubled by the phaser's zero delay,
        // a sine ±1 doubled too, so clamped.
        let square = synthesize(&SynthParams {
            volume: 1.0,
            ..tone(Wave::Square, 440.0)
        });
        assert!((rms(square.samples()) - 1.0).abs() < 0.02);
        let half = synthesize(&tone(Wave::Square, 440.0));
        assert!((rms(half.samples()) - 0.5).abs() < 0.01);
        let quiet = synthesize(&SynthParams {
            volume: 0.0,
            ..tone(Wave::Saw, 440.0)
        });
        assert_eq!(rms(quiet.samples()), 0.0);
    }

    #[test]
    fn the_same_parameters_give_the_same_samples() {
        let params = SynthParams {
            wave: Wave::Noise,
            frequency: 800.0,
            slide: -2.0,
            vibrato: Vibrato {
                depth: 0.2,
                speed: 9.0,
            },
            low_pass: LowPass {
                cutoff: 3000.0,
                slide: -1.0,
                resonance: 0.5,
            },
            high_pass: HighPass {
                cutoff: 100.0,
                slide: 1.0,
            },
            phaser: Phaser {
                offset: 1.0,
                slide: 2.0,
            },
            seed: 7,
            ..SynthParams::default()
        };
        let a = synthesize(&params);
        assert_eq!(a, synthesize(&params));
        let other_seed = synthesize(&SynthParams { seed: 8, ..params });
        assert_ne!(a, other_seed);
        assert!((rms(a.samples()) - rms(other_seed.samples())).abs() < 0.05);
    }

    #[test]
    fn slides_move_the_pitch() {
        // One octave up per second over one second: the second half is higher than the first.
        let clip = synthesize(&SynthParams {
            slide: 1.0,
            sustain: 1.0,
            ..tone(Wave::Sine, 200.0)
        });
        let (first, second) = clip.samples().split_at(24_000);
        let (a, b) = (pitch(first), pitch(second));
        // Cycles in each half of 200·2^t, per second: 2·200/ln2·(√2−1) and 2·200/ln2·(2−√2).
        assert!(
            (a - 239.0).abs() < 4.0 && (b - 338.0).abs() < 4.0,
            "{a} {b}"
        );
        // A delta slide bends a flat start upward.
        let bent = synthesize(&SynthParams {
            delta_slide: 4.0,
            sustain: 1.0,
            ..tone(Wave::Sine, 200.0)
        });
        let (first, second) = bent.samples().split_at(24_000);
        assert!(pitch(second) > 2.0 * pitch(first));
    }

    #[test]
    fn a_falling_pitch_ends_at_the_minimum_frequency() {
        // 800 Hz falling two octaves a second reaches 200 Hz after one second, then fades.
        let clip = synthesize(&SynthParams {
            slide: -2.0,
            min_frequency: 200.0,
            sustain: 3.0,
            ..tone(Wave::Square, 800.0)
        });
        let expected = RATE as usize + CUT_FADE;
        assert!(clip.frames().abs_diff(expected) <= 2, "{}", clip.frames());
        // The fade: a square of ±0.5 at the start of the last 5 ms, ±0.5/240 at its end.
        let fade = &clip.samples()[clip.frames() - CUT_FADE..];
        assert!(fade[0].abs() > 0.45);
        assert!(fade[CUT_FADE - 1].abs() < 0.005);
    }

    #[test]
    fn the_arpeggio_jumps_and_repeat_restarts() {
        let clip = synthesize(&SynthParams {
            arpeggio: Arpeggio {
                ratio: 2.0,
                after: 0.25,
            },
            ..tone(Wave::Sine, 300.0)
        });
        let (before, after) = clip.samples().split_at(12_000);
        assert!((pitch(before) - 300.0).abs() < 5.0);
        assert!((pitch(after) - 600.0).abs() < 5.0);
        // Restarting every 0.2 s: the jump at 0.1 s happens in each restart.
        let repeated = synthesize(&SynthParams {
            arpeggio: Arpeggio {
                ratio: 2.0,
                after: 0.1,
            },
            repeat: 0.2,
            sustain: 0.4,
            ..tone(Wave::Sine, 300.0)
        });
        let s = repeated.samples();
        let tenth = 4_800;
        for (part, expected) in [(0, 300.0), (1, 600.0), (2, 300.0), (3, 600.0)] {
            let measured = pitch(&s[part * tenth..(part + 1) * tenth]);
            assert!((measured - expected).abs() < 15.0, "{part}: {measured}");
        }
    }

    #[test]
    fn punch_is_louder_at_first() {
        let clip = synthesize(&SynthParams {
            punch: 1.0,
            volume: 0.25,
            sustain: 1.0,
            ..tone(Wave::Square, 440.0)
        });
        let start = rms(&clip.samples()[..2_400]);
        let end = rms(&clip.samples()[45_000..]);
        assert!((start / end - 1.95).abs() < 0.1, "{start} {end}");
    }

    #[test]
    fn filters_take_away_what_they_should() {
        let plain = rms(synthesize(&tone(Wave::Saw, 2_000.0)).samples());
        let low = rms(synthesize(&SynthParams {
            low_pass: LowPass {
                cutoff: 200.0,
                ..LowPass::default()
            },
            ..tone(Wave::Saw, 2_000.0)
        })
        .samples());
        assert!(low < plain * 0.2, "{low} {plain}");
        let high = rms(synthesize(&SynthParams {
            high_pass: HighPass {
                cutoff: 5_000.0,
                slide: 0.0,
            },
            ..tone(Wave::Saw, 200.0)
        })
        .samples());
        let plain_low = rms(synthesize(&tone(Wave::Saw, 200.0)).samples());
        assert!(high < plain_low * 0.4, "{high} {plain_low}");
        // A resonant low-pass at the pitch rings louder than one without resonance.
        let at_pitch = |resonance| {
            rms(synthesize(&SynthParams {
                low_pass: LowPass {
                    cutoff: 440.0,
                    slide: 0.0,
                    resonance,
                },
                ..tone(Wave::Sine, 440.0)
            })
            .samples())
        };
        assert!(at_pitch(1.0) > 1.5 * at_pitch(0.0));
    }

    #[test]
    fn wild_values_are_clamped() {
        let clip = synthesize(&SynthParams {
            frequency: f64::NAN,
            slide: 1e300,
            delta_slide: -1e300,
            duty: 7.0,
            low_pass: LowPass {
                cutoff: -5.0,
                slide: f64::INFINITY,
                resonance: 9.0,
            },
            phaser: Phaser {
                offset: 1e9,
                slide: -1e9,
            },
            repeat: 1e-12,
            volume: 3.0,
            punch: 100.0,
            ..SynthParams::default()
        });
        assert!(
            clip.samples()
                .iter()
                .all(|s| s.is_finite() && s.abs() <= 1.0)
        );
        assert!(!clip.is_empty());
    }
}
