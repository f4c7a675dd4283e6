//! The software mixer: plays clips and music into interleaved stereo at [`SAMPLE_RATE`].
//!
//! Deterministic: no clock and no randomness, so the same calls in the same order give the same
//! samples, on every system (its transcendental functions are libm's). What it guarantees:
//!
//! - **Many plays of one sound are one voice.** Plays of a sound (its key) between two renders
//!   coalesce into one voice whose gain is their mean gain raised by `1 + 0.15·log2(n)`, at most
//!   doubled, at their mean pan: a thousand deaths in one tick are one loud crash, not a
//!   thousand voices. A sound has at most [`Play::max_voices`] voices (4 by default) and the
//!   mixer [`MAX_VOICES`]; a new voice beyond either takes the place of the sound's oldest, or
//!   of the quietest of all (the oldest of equals) unless the new one is quieter still. A voice
//!   replaced fades out over 5 ms rather than stopping with a click.
//! - **Music loops and crossfades.** [`Mixer::set_music`] fades the playing loop out and the new
//!   one in over [`Mixer::set_crossfade`]'s time (1.5 s by default), at equal power; the same
//!   key again changes nothing.
//! - **Volumes change smoothly.** Master, per-bus volumes and muting move to their new value
//!   over 20 ms.
//! - **Never above full scale.** A peak limiter (instant attack, 20 ms hold, 100 ms release)
//!   keeps the output within ±0.98 without clipping the wave; quieter output passes unchanged.
//! - **No allocation while rendering** once its buffers have grown to the busiest frame so far.

use std::f64::consts::FRAC_PI_2;

use rustc_hash::FxHashMap;

use crate::{Clip, SAMPLE_RATE};

/// The most voices playing at once, music apart.
pub const MAX_VOICES: usize = 32;

/// Frames over which a replaced voice fades out (5 ms).
const STEAL_FADE: u32 = SAMPLE_RATE / 200;
/// Frames over which a volume moves from 0 to 1 (20 ms).
const VOLUME_RAMP: f32 = SAMPLE_RATE as f32 / 50.0;
/// How much each doubling of the plays coalesced into one voice raises its gain.
const COALESCE_STEP: f32 = 0.15;
/// The most a voice's gain is raised by coalescing.
const COALESCE_MAX: f32 = 2.0;
/// Loops playing at once while crossfading; a further change drops the quietest.
const MAX_MUSIC: usize = 4;
/// The limiter's ceiling.
const CEILING: f32 = 0.98;
/// The limiter's release time constant, in seconds.
const RELEASE_SECONDS: f64 = 0.1;
/// How long the limiter holds its gain after a frame near the ceiling before it releases, in
/// frames (20 ms): longer than a period of the lowest notes, so that the gain does not ripple
/// within a wave, which would distort it.
const HOLD: u32 = SAMPLE_RATE / 50;
/// How near the ceiling a frame must come to keep the gain held.
const HOLD_NEAR: f32 = 0.9;
/// Frames rendered together, the per-frame gains computed for them first.
const BLOCK: usize = 256;

/// Which volume a sound follows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Bus {
    /// The game's sounds: shots, hits, deaths.
    #[default]
    Effects,
    /// The interface's clicks and chimes.
    Ui,
    /// Music, and jingles played as sounds that should follow the music's volume.
    Music,
}

impl Bus {
    fn index(self) -> usize {
        self as usize
    }
}

/// How a sound is played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Play {
    /// Its loudness, 0 to 4 (1: as the clip is).
    pub gain: f32,
    /// Where it is, -1 (left) to 1 (right).
    pub pan: f32,
    /// Which volume it follows.
    pub bus: Bus,
    /// The most voices this sound may have at once, 1 to [`MAX_VOICES`].
    pub max_voices: usize,
}

impl Default for Play {
    fn default() -> Self {
        Play {
            gain: 1.0,
            pan: 0.0,
            bus: Bus::Effects,
            max_voices: 4,
        }
    }
}

/// A voice playing a clip once.
#[derive(Debug)]
struct Voice {
    key: u64,
    clip: Clip,
    /// The next frame to play.
    position: usize,
    bus: Bus,
    /// Its gain, which decides the quietest voice.
    gain: f32,
    left: f32,
    right: f32,
    /// When it started, in plays: the oldest has the smallest.
    serial: u64,
    /// Frames left of its fade-out once replaced.
    fading: Option<u32>,
}

/// Plays of one sound since the last render, to become one voice.
#[derive(Debug)]
struct Pending {
    key: u64,
    clip: Clip,
    play: Play,
    count: u32,
    gain_sum: f32,
    pan_sum: f32,
}

/// A music loop, fading toward its target level.
#[derive(Debug)]
struct Loop {
    key: u64,
    clip: Clip,
    position: usize,
    /// 0 to 1, moving toward `target` by the crossfade's step per frame (f64: f32 steps would
    /// add up to a crossfade tens of frames off).
    level: f64,
    target: f64,
}

/// A volume that moves toward its target over [`VOLUME_RAMP`].
#[derive(Clone, Copy, Debug)]
struct Smoothed {
    value: f32,
    target: f32,
}

impl Smoothed {
    fn new(value: f32) -> Smoothed {
        Smoothed {
            value,
            target: value,
        }
    }

    /// The next `out.len()` frames' values.
    fn fill(&mut self, out: &mut [f32]) {
        if self.value == self.target {
            out.fill(self.value);
            return;
        }
        let step = 1.0 / VOLUME_RAMP;
        for value in out {
            self.value = if self.value < self.target {
                (self.value + step).min(self.target)
            } else {
                (self.value - step).max(self.target)
            };
            *value = self.value;
        }
    }
}

/// The mixer (see the module's documentation). Keys identify sounds: any number the caller
/// gives each sound, the same for every play of it.
#[derive(Debug)]
pub struct Mixer {
    voices: Vec<Voice>,
    pending: Vec<Pending>,
    /// Where each key's plays are in `pending`.
    pending_at: FxHashMap<u64, usize>,
    serial: u64,
    music: Vec<Loop>,
    music_key: Option<u64>,
    /// The crossfade's step per frame.
    crossfade_step: f64,
    master: f32,
    muted: bool,
    /// Master times mute, smoothed.
    master_gain: Smoothed,
    buses: [Smoothed; 3],
    /// The limiter's gain (f64: a release in f32 steps stalls short of 1 by rounding).
    limiter_gain: f64,
    /// Frames left before the limiter releases.
    limiter_hold: u32,
    /// The limiter's release per frame: how much of the way back it keeps.
    release: f64,
}

impl Default for Mixer {
    fn default() -> Self {
        Mixer::new()
    }
}

impl Mixer {
    /// A silent mixer: volumes at 1, a 1.5 s crossfade.
    pub fn new() -> Mixer {
        let mut mixer = Mixer {
            // Replaced voices fade in slots of their own.
            voices: Vec::with_capacity(2 * MAX_VOICES),
            pending: Vec::new(),
            pending_at: FxHashMap::default(),
            serial: 0,
            music: Vec::with_capacity(MAX_MUSIC + 1),
            music_key: None,
            crossfade_step: 0.0,
            master: 1.0,
            muted: false,
            master_gain: Smoothed::new(1.0),
            buses: [Smoothed::new(1.0); 3],
            limiter_gain: 1.0,
            limiter_hold: 0,
            release: libm::exp(-1.0 / (RELEASE_SECONDS * f64::from(SAMPLE_RATE))),
        };
        mixer.set_crossfade(1.5);
        mixer
    }

    /// Plays `clip` as the sound `key` (see the module's documentation for how plays coalesce
    /// and voices are limited). It starts at the next render.
    pub fn play(&mut self, key: u64, clip: &Clip, play: Play) {
        let gain = if play.gain.is_nan() {
            0.0
        } else {
            play.gain.clamp(0.0, 4.0)
        };
        let pan = if play.pan.is_nan() {
            0.0
        } else {
            play.pan.clamp(-1.0, 1.0)
        };
        if let Some(&at) = self.pending_at.get(&key) {
            let pending = &mut self.pending[at];
            pending.count += 1;
            pending.gain_sum += gain;
            pending.pan_sum += pan;
        } else {
            self.pending_at.insert(key, self.pending.len());
            self.pending.push(Pending {
                key,
                clip: clip.clone(),
                play,
                count: 1,
                gain_sum: gain,
                pan_sum: pan,
            });
        }
    }

    /// Plays `music` (a key and its clip) as a loop, crossfading from what played before;
    /// `None` fades the music out. The key already playing changes nothing; a key still fading
    /// out fades back in from where it is.
    pub fn set_music(&mut self, music: Option<(u64, Clip)>) {
        if music.as_ref().map(|(key, _)| *key) == self.music_key {
            return;
        }
        for playing in &mut self.music {
            playing.target = 0.0;
        }
        self.music_key = music.as_ref().map(|(key, _)| *key);
        let Some((key, clip)) = music else {
            return;
        };
        // A loop still fading out comes back from where it is.
        if let Some(playing) = self.music.iter_mut().find(|m| m.key == key) {
            playing.target = 1.0;
            return;
        }
        if clip.is_empty() {
            return;
        }
        if self.music.len() == MAX_MUSIC {
            let quietest = (0..self.music.len())
                .min_by(|&a, &b| self.music[a].level.total_cmp(&self.music[b].level))
                .unwrap_or(0);
            self.music.remove(quietest);
        }
        self.music.push(Loop {
            key,
            clip,
            position: 0,
            level: 0.0,
            target: 1.0,
        });
    }

    /// How long music takes to fade from one loop to the next, in seconds (0: at once).
    pub fn set_crossfade(&mut self, seconds: f64) {
        let frames = seconds.max(0.0) * f64::from(SAMPLE_RATE);
        self.crossfade_step = if frames >= 1.0 { 1.0 / frames } else { 1.0 };
    }

    /// The volume of everything, 0 to 1.
    pub fn set_master_volume(&mut self, volume: f32) {
        if !volume.is_nan() {
            self.master = volume.clamp(0.0, 1.0);
            self.master_gain.target = if self.muted { 0.0 } else { self.master };
        }
    }

    /// The volume of one bus, 0 to 1.
    pub fn set_volume(&mut self, bus: Bus, volume: f32) {
        if !volume.is_nan() {
            self.buses[bus.index()].target = volume.clamp(0.0, 1.0);
        }
    }

    /// Silences everything, or lets it be heard again, keeping the volumes.
    pub fn set_muted(&mut self, muted: bool) {
        self.muted = muted;
        self.master_gain.target = if muted { 0.0 } else { self.master };
    }

    /// How many voices are playing or fading out, music apart.
    pub fn voices(&self) -> usize {
        self.voices.len()
    }

    /// Fills `out` with interleaved stereo (left, right, …): the plays since the last render
    /// start, everything playing moves on by `out.len() / 2` frames. An odd last sample is set
    /// to silence.
    pub fn render(&mut self, out: &mut [f32]) {
        self.start_pending();
        let (frames, odd) = out.as_chunks_mut::<2>();
        for sample in odd {
            *sample = 0.0;
        }
        for block in frames.chunks_mut(BLOCK) {
            self.render_block(block);
        }
        self.voices
            .retain(|v| v.position < v.clip.frames() && v.fading != Some(0));
        self.music.retain(|m| m.level > 0.0 || m.target > 0.0);
    }

    /// Turns the plays since the last render into voices.
    fn start_pending(&mut self) {
        let mut pending = std::mem::take(&mut self.pending);
        for p in pending.drain(..) {
            if p.clip.is_empty() {
                continue;
            }
            let n = p.count as f32;
            let raise = (1.0 + COALESCE_STEP * libm::log2f(n)).min(COALESCE_MAX);
            let gain = p.gain_sum / n * raise;
            let pan = (p.pan_sum / n).clamp(-1.0, 1.0);
            if !self.make_room(p.key, gain, p.play.max_voices.clamp(1, MAX_VOICES)) {
                continue;
            }
            self.serial += 1;
            self.voices.push(Voice {
                key: p.key,
                clip: p.clip,
                position: 0,
                bus: p.play.bus,
                gain,
                // Balance: the far side falls away, the near side stays whole.
                left: gain * (1.0 - pan).min(1.0),
                right: gain * (1.0 + pan).min(1.0),
                serial: self.serial,
                fading: None,
            });
        }
        // The emptied vector back, keeping its capacity.
        self.pending = pending;
        self.pending_at.clear();
    }

    /// Makes room for a new voice of `key` at `gain`: fades out the sound's oldest voice if it
    /// has `max_voices`, or the quietest if the mixer is full. False if the new voice is the
    /// quietest and should not play.
    fn make_room(&mut self, key: u64, gain: f32, max_voices: usize) -> bool {
        let (mut active, mut of_key) = (0, 0);
        // The sound's oldest voice and the quietest of all (the oldest of equals), as
        // (gain, serial, index).
        let mut oldest: Option<(u64, usize)> = None;
        let mut quietest: Option<(f32, u64, usize)> = None;
        for (i, v) in self.voices.iter().enumerate() {
            if v.fading.is_some() {
                continue;
            }
            active += 1;
            if v.key == key {
                of_key += 1;
                if oldest.is_none_or(|(serial, _)| v.serial < serial) {
                    oldest = Some((v.serial, i));
                }
            }
            if quietest.is_none_or(|(g, serial, _)| (v.gain, v.serial) < (g, serial)) {
                quietest = Some((v.gain, v.serial, i));
            }
        }
        let victim = if of_key >= max_voices {
            oldest.map(|(_, i)| i)
        } else if active >= MAX_VOICES {
            match quietest {
                Some((quietest_gain, _, _)) if quietest_gain > gain => return false,
                found => found.map(|(_, _, i)| i),
            }
        } else {
            None
        };
        if let Some(i) = victim {
            self.voices[i].fading = Some(STEAL_FADE);
        }
        if self.voices.len() == self.voices.capacity() {
            // Every fading slot taken: the fade nearest its end is cut.
            let nearest = (0..self.voices.len())
                .filter(|&i| self.voices[i].fading.is_some())
                .min_by_key(|&i| self.voices[i].fading);
            if let Some(i) = nearest {
                self.voices.swap_remove(i);
            }
        }
        true
    }

    /// Renders one block of frames.
    fn render_block(&mut self, out: &mut [[f32; 2]]) {
        let n = out.len();
        let mut master = [0.0f32; BLOCK];
        self.master_gain.fill(&mut master[..n]);
        let mut gains = [[0.0f32; BLOCK]; 3];
        for (bus, smoothed) in gains.iter_mut().zip(&mut self.buses) {
            smoothed.fill(&mut bus[..n]);
            for (gain, master) in bus.iter_mut().zip(&master) {
                *gain *= master;
            }
        }
        out.fill([0.0; 2]);
        for voice in &mut self.voices {
            let gains = &gains[voice.bus.index()];
            let (clip, sides) = (&voice.clip, (voice.left, voice.right));
            voice.position = match &mut voice.fading {
                None => add(clip, voice.position, sides, out, |f| gains[f]),
                Some(left) => {
                    let start = *left;
                    let frames = out.len().min(start as usize);
                    *left -= frames as u32;
                    add(clip, voice.position, sides, &mut out[..frames], |f| {
                        gains[f] * (start - f as u32) as f32 / STEAL_FADE as f32
                    })
                }
            };
        }
        let gains = &gains[Bus::Music.index()];
        for music in &mut self.music {
            if music.level == music.target {
                // Steady: the loop in stretches up to its end, then from its start again.
                let fade = music.level as f32;
                let mut done = 0;
                while done < n {
                    let rest = &mut out[done..];
                    let gain = |f: usize| gains[done + f] * fade;
                    let end = add(&music.clip, music.position, (1.0, 1.0), rest, gain);
                    done += end - music.position;
                    music.position = if end == music.clip.frames() { 0 } else { end };
                }
                continue;
            }
            let frames = music.clip.frames();
            for (f, frame) in out.iter_mut().enumerate() {
                music.level = if music.level < music.target {
                    (music.level + self.crossfade_step).min(music.target)
                } else {
                    (music.level - self.crossfade_step).max(music.target)
                };
                // Equal power: the two loops' squared gains add to 1 throughout the fade.
                let fade = libm::sin(music.level * FRAC_PI_2) as f32;
                let (l, r) = music.clip.frame(music.position);
                let gain = gains[f] * fade;
                frame[0] += l * gain;
                frame[1] += r * gain;
                music.position += 1;
                if music.position == frames {
                    music.position = 0;
                }
            }
        }
        for frame in out {
            self.limit(frame);
        }
    }

    /// The limiter on one frame.
    fn limit(&mut self, frame: &mut [f32; 2]) {
        let peak = frame[0].abs().max(frame[1].abs());
        if !peak.is_finite() {
            *frame = [0.0; 2];
            return;
        }
        let allowed = if peak > CEILING {
            f64::from(CEILING / peak)
        } else {
            1.0
        };
        if allowed < self.limiter_gain {
            self.limiter_gain = allowed;
            self.limiter_hold = HOLD;
        } else if peak as f64 * self.limiter_gain >= f64::from(CEILING * HOLD_NEAR) {
            self.limiter_hold = HOLD;
        } else if self.limiter_hold > 0 {
            self.limiter_hold -= 1;
        } else {
            self.limiter_gain = allowed + (self.limiter_gain - allowed) * self.release;
            // Snapped back to exactly 1 at the end of its release, so quiet output passes
            // unchanged rather than forever a millionth off.
            if self.limiter_gain > 1.0 - 1e-6 {
                self.limiter_gain = 1.0;
            }
        }
        frame[0] = (f64::from(frame[0]) * self.limiter_gain) as f32;
        frame[1] = (f64::from(frame[1]) * self.limiter_gain) as f32;
    }
}

/// Adds `clip` from frame `position` into `out`, as far as both go, at `sides` (left and right
/// gains) and the per-frame `gain`; returns the position after. Mono and stereo are separate
/// loops over plain slices, the one place the mixer spends its time.
fn add(
    clip: &Clip,
    position: usize,
    (left, right): (f32, f32),
    out: &mut [[f32; 2]],
    gain: impl Fn(usize) -> f32,
) -> usize {
    let frames = out.len().min(clip.frames() - position);
    let out = &mut out[..frames];
    if clip.channels() == 2 {
        let samples = &clip.samples()[2 * position..2 * (position + frames)];
        for (f, (frame, s)) in out.iter_mut().zip(samples.as_chunks::<2>().0).enumerate() {
            let gain = gain(f);
            frame[0] += s[0] * left * gain;
            frame[1] += s[1] * right * gain;
        }
    } else {
        let samples = &clip.samples()[position..position + frames];
        for (f, (frame, &s)) in out.iter_mut().zip(samples).enumerate() {
            let gain = gain(f);
            frame[0] += s * left * gain;
            frame[1] += s * right * gain;
        }
    }
    position + frames
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_gain(gain: f32) -> Play {
        Play {
            gain,
            ..Play::default()
        }
    }

    fn constant(value: f32, frames: usize) -> Clip {
        Clip::mono(vec![value; frames])
    }

    fn render(mixer: &mut Mixer, frames: usize) -> Vec<f32> {
        let mut out = vec![f32::NAN; 2 * frames];
        mixer.render(&mut out);
        out
    }

    fn left(out: &[f32]) -> Vec<f32> {
        out.iter().step_by(2).copied().collect()
    }

    fn right(out: &[f32]) -> Vec<f32> {
        out.iter().skip(1).step_by(2).copied().collect()
    }

    #[test]
    fn a_clip_plays_once_at_its_gain_and_pan() {
        let mut mixer = Mixer::new();
        assert!(render(&mut mixer, 4).iter().all(|s| *s == 0.0));
        let clip = Clip::mono(vec![0.1, 0.2, 0.3]);
        mixer.play(1, &clip, Play::default());
        assert_eq!(
            render(&mut mixer, 4),
            [0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.0, 0.0]
        );
        assert_eq!(mixer.voices(), 0);
        let half_left = Play {
            gain: 2.0,
            pan: -0.5,
            ..Play::default()
        };
        mixer.play(1, &clip, half_left);
        let out = render(&mut mixer, 3);
        assert_eq!(left(&out), [0.2, 0.4, 0.6]);
        assert_eq!(right(&out), [0.1, 0.2, 0.3]);
        // Stereo clips keep their sides.
        mixer.play(2, &Clip::stereo(vec![0.5, -0.5]), Play::default());
        assert_eq!(render(&mut mixer, 1), [0.5, -0.5]);
    }

    #[test]
    fn plays_before_a_render_coalesce() {
        let mut mixer = Mixer::new();
        let clip = constant(0.1, 100);
        for i in 0..1000 {
            let pan = if i % 2 == 0 { -1.0 } else { 1.0 };
            mixer.play(
                7,
                &clip,
                Play {
                    pan,
                    ..Play::default()
                },
            );
        }
        let out = render(&mut mixer, 10);
        assert_eq!(mixer.voices(), 1);
        // Gain doubled (1 + 0.15·log2 1000 ≈ 2.5, capped), pan in the middle.
        assert!(out.iter().all(|s| (s - 0.2).abs() < 1e-6), "{out:?}");
        // Two plays: raised by 15 %, the mean of their gains.
        let mut mixer = Mixer::new();
        mixer.play(7, &clip, at_gain(0.5));
        mixer.play(7, &clip, at_gain(1.5));
        assert!((render(&mut mixer, 1)[0] - 0.115).abs() < 1e-6);
        // Other sounds are voices of their own.
        mixer.play(8, &clip, Play::default());
        mixer.play(9, &clip, Play::default());
        render(&mut mixer, 1);
        assert_eq!(mixer.voices(), 3);
    }

    #[test]
    fn a_sound_has_at_most_its_voices() {
        let mut mixer = Mixer::new();
        let clip = constant(0.01, 48_000);
        for _ in 0..6 {
            mixer.play(3, &clip, Play::default());
            render(&mut mixer, 1);
        }
        // Four playing, two replaced and fading out.
        assert_eq!(mixer.voices(), 6);
        render(&mut mixer, STEAL_FADE as usize);
        assert_eq!(mixer.voices(), 4);
        // The four left are the newest: their sum is 4 × 0.01 and they end together.
        // The four left are the newest, 4, 3, 2 and 1 frames in before the fade: their sum is
        // 4 × 0.01, and the oldest ends first.
        let out = render(&mut mixer, 48_000 - STEAL_FADE as usize - 4);
        assert!((out[0] - 0.04).abs() < 1e-6);
        assert_eq!(mixer.voices(), 3);
        let single = Play {
            max_voices: 1,
            ..Play::default()
        };
        mixer.play(4, &clip, single);
        render(&mut mixer, 1);
        mixer.play(4, &clip, single);
        render(&mut mixer, STEAL_FADE as usize);
        assert_eq!(mixer.voices.iter().filter(|v| v.key == 4).count(), 1);
    }

    #[test]
    fn a_full_mixer_replaces_the_quietest() {
        let mut mixer = Mixer::new();
        let clip = constant(0.001, 48_000);
        for key in 0..MAX_VOICES as u64 {
            let gain = 1.0 + key as f32 / 100.0;
            mixer.play(key, &clip, at_gain(gain));
        }
        render(&mut mixer, 1);
        assert_eq!(mixer.voices(), MAX_VOICES);
        // Quieter than every voice: not played.
        mixer.play(100, &clip, at_gain(0.5));
        render(&mut mixer, 1);
        assert_eq!(mixer.voices(), MAX_VOICES);
        // Louder: replaces key 0, the quietest, which fades out.
        mixer.play(101, &clip, at_gain(3.0));
        render(&mut mixer, 1);
        assert_eq!(mixer.voices(), MAX_VOICES + 1);
        assert_eq!(
            mixer.voices.iter().filter(|v| v.fading.is_some()).count(),
            1
        );
        let fading = mixer.voices.iter().find(|v| v.fading.is_some()).unwrap();
        assert_eq!(fading.key, 0);
        render(&mut mixer, STEAL_FADE as usize);
        assert_eq!(mixer.voices(), MAX_VOICES);
        // A replaced voice fades, never jumps: a loud voice replaced by a silent one.
        let mut mixer = Mixer::new();
        let loud = constant(0.5, 48_000);
        mixer.play(
            1,
            &loud,
            Play {
                max_voices: 1,
                ..Play::default()
            },
        );
        render(&mut mixer, 10);
        mixer.play(
            1,
            &constant(0.0, 48_000),
            Play {
                max_voices: 1,
                ..Play::default()
            },
        );
        let out = left(&render(&mut mixer, STEAL_FADE as usize + 1));
        let largest_step = out
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0, f32::max);
        assert!(
            largest_step < 0.5 / STEAL_FADE as f32 + 1e-6,
            "{largest_step}"
        );
        assert_eq!(out[STEAL_FADE as usize], 0.0);
    }

    #[test]
    fn music_loops_and_crossfades_at_equal_power() {
        let mut mixer = Mixer::new();
        mixer.set_crossfade(0.0);
        let ramp = Clip::mono(vec![0.1, 0.2, 0.3]);
        mixer.set_music(Some((1, ramp.clone())));
        assert_eq!(
            left(&render(&mut mixer, 7)),
            [0.1, 0.2, 0.3, 0.1, 0.2, 0.3, 0.1]
        );
        // The same key again changes nothing: the loop goes on where it was.
        mixer.set_music(Some((1, ramp)));
        assert_eq!(left(&render(&mut mixer, 2)), [0.2, 0.3]);

        // Two loops, one on each side: their powers add to the full level while they fade.
        let mut mixer = Mixer::new();
        mixer.set_crossfade(0.5);
        mixer.set_music(Some((1, Clip::stereo(vec![0.5, 0.0]))));
        render(&mut mixer, 24_000);
        mixer.set_music(Some((2, Clip::stereo(vec![0.0, 0.5]))));
        let out = render(&mut mixer, 24_000);
        for (l, r) in left(&out).iter().zip(right(&out)) {
            assert!((l * l + r * r - 0.25).abs() < 1e-3, "{l} {r}");
        }
        assert!(left(&out)[23_999] < 1e-3 && (right(&out)[23_999] - 0.5).abs() < 1e-6);
        // (Steps of 1/24 000 in f32 may leave the last one for the next frame.)
        render(&mut mixer, 1);
        assert_eq!(mixer.music.len(), 1);
        // Back to the first: it fades in again; None fades everything out.
        mixer.set_music(Some((1, Clip::stereo(vec![0.5, 0.0]))));
        mixer.set_music(None);
        let out = render(&mut mixer, 24_000);
        assert!(out[out.len() - 2..].iter().all(|s| s.abs() < 1e-3));
        render(&mut mixer, 1);
        assert!(mixer.music.is_empty());
    }

    #[test]
    fn volumes_and_mute_change_smoothly() {
        let mut mixer = Mixer::new();
        mixer.set_music(Some((1, constant(0.5, 10))));
        mixer.set_crossfade(0.0);
        mixer.set_music(Some((2, constant(0.5, 10))));
        render(&mut mixer, 48_000);
        mixer.set_master_volume(0.0);
        let out = left(&render(&mut mixer, 2_000));
        let largest_step = out
            .windows(2)
            .map(|w| (w[1] - w[0]).abs())
            .fold(0.0, f32::max);
        assert!(largest_step <= 0.5 / VOLUME_RAMP + 1e-6);
        assert_eq!(out[1_000], 0.0);
        mixer.set_master_volume(1.0);
        mixer.set_volume(Bus::Music, 0.5);
        mixer.set_muted(true);
        assert_eq!(render(&mut mixer, 1_000)[1_998], 0.0);
        mixer.set_muted(false);
        let out = render(&mut mixer, 1_000);
        assert!((out[1_998] - 0.25).abs() < 1e-6);
        // Each bus follows its own volume.
        mixer.set_volume(Bus::Effects, 0.0);
        mixer.set_music(None);
        // (Both at first, above the limiter's ceiling: a second for it to recover.)
        mixer.play(5, &constant(0.5, 96_000), Play::default());
        mixer.play(
            6,
            &constant(0.5, 96_000),
            Play {
                bus: Bus::Ui,
                ..Play::default()
            },
        );
        let out = render(&mut mixer, 48_000);
        assert!((out[95_998] - 0.5).abs() < 1e-6, "{}", out[95_998]);
        mixer.set_volume(Bus::Ui, f32::NAN);
        assert!((render(&mut mixer, 1)[0] - 0.5).abs() < 1e-6);
    }

    #[test]
    fn the_limiter_keeps_the_output_in_range_without_clipping() {
        let mut mixer = Mixer::new();
        let sine: Vec<f32> = (0..48_000)
            .map(|i| libm::sinf(i as f32 * 440.0 * std::f32::consts::TAU / 48_000.0))
            .collect();
        let sine = Clip::mono(sine);
        for key in 0..40 {
            mixer.play(key, &sine, at_gain(4.0));
        }
        let out = left(&render(&mut mixer, 48_000));
        // (Within rounding: the peak times the ceiling over the peak.)
        assert!(
            out.iter()
                .all(|s| s.abs() <= CEILING * (1.0 + f32::EPSILON))
        );
        // Not clipped: after the first peak the output is the sine scaled, its peaks round.
        let input = sine.samples();
        let ratios: Vec<f32> = (24_000..24_200)
            .filter(|&i| input[i].abs() > 0.1)
            .map(|i| out[i] / input[i])
            .collect();
        let (low, high) = ratios
            .iter()
            .fold((f32::MAX, 0.0f32), |(l, h), r| (l.min(*r), h.max(*r)));
        assert!(high / low < 1.01, "{low} {high}");
        assert!(high > 0.9 * CEILING);
        // Quiet output passes unchanged, once the limiter has recovered (1.4 s after a frame at
        // twice full scale: 20 ms held, then 0.1 s per factor e).
        let mut mixer = Mixer::new();
        mixer.play(1, &constant(2.0, 10), Play::default());
        render(&mut mixer, 68_000);
        mixer.play(1, &constant(0.3, 10), Play::default());
        assert_eq!(render(&mut mixer, 1), [0.3, 0.3]);
        // Broken samples are silence.
        mixer.play(2, &Clip::mono(vec![f32::NAN]), Play::default());
        assert_eq!(render(&mut mixer, 1), [0.0, 0.0]);
    }

    #[test]
    fn the_same_calls_give_the_same_samples() {
        let run = || {
            let mut mixer = Mixer::new();
            let clips: Vec<Clip> = (1..6)
                .map(|k| {
                    Clip::mono(
                        (0..3_000)
                            .map(|i| libm::sinf(i as f32 * k as f32 * 0.01))
                            .collect::<Vec<_>>(),
                    )
                })
                .collect();
            mixer.set_music(Some((99, clips[4].clone())));
            let mut out = Vec::new();
            for tick in 0..60u64 {
                for play in 0..(tick * 7) % 50 {
                    let key = play % 5;
                    let pan = (play as f32 * 0.37).fract() * 2.0 - 1.0;
                    mixer.play(
                        key,
                        &clips[key as usize],
                        Play {
                            pan,
                            ..Play::default()
                        },
                    );
                }
                if tick == 30 {
                    mixer.set_music(Some((98, clips[0].clone())));
                    mixer.set_volume(Bus::Effects, 0.3);
                }
                out.extend(render(&mut mixer, 800));
            }
            out
        };
        let (a, b) = (run(), run());
        assert!(a.iter().zip(&b).all(|(x, y)| x.to_bits() == y.to_bits()));
        assert!(a.iter().any(|s| s.abs() > 0.1));
    }

    #[test]
    fn an_odd_sample_is_silence() {
        let mut mixer = Mixer::new();
        mixer.play(1, &constant(0.5, 10), Play::default());
        assert_eq!(render_odd(&mut mixer), [0.5, 0.5, 0.0]);
    }

    fn render_odd(mixer: &mut Mixer) -> Vec<f32> {
        let mut out = vec![f32::NAN; 3];
        mixer.render(&mut out);
        out
    }
}
