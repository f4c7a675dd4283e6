//! The sound mixer's cost for one frame of the game at 60 frames per second: 800 stereo frames
//! at 48 kHz, rendered into a buffer the caller keeps.
//!
//! - `steady`: music looping and seven sounds playing (shots, hits, a death, an interface
//!   click), the busy middle of a wave;
//! - `after_1200_plays`: the frame after 1 000 plays of one death sound and 200 of twenty other
//!   sounds arrived in one tick, the plays included (`render_only`: the plays made before the
//!   timing, so only the render that turns them into voices is timed);
//! - `full`: all 32 voices playing, and music;
//! - the anchor, `one_voice_by_hand`: the plainest loop that adds one mono clip into 800 stereo
//!   frames at a gain, what any mixer does per voice, to compare runs on a noisy machine.
//!
//! Run with `cargo bench -p rampart-benches --bench mixer`; results go in docs/benchmarks.md.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use rampart_sound::{
    Bus, Clip, LowPass, Mixer, Play, SynthParams, Tune, TuneVoice, Wave, render_tune, synthesize,
};

/// Stereo frames in one frame of the game at 60 frames per second.
const FRAMES: usize = 800;

/// The sounds of a battle: a death, shots, hits, a click, and a tune to loop.
struct Sounds {
    death: Clip,
    effects: Vec<Clip>,
    click: Clip,
    music: Clip,
}

fn sounds() -> Sounds {
    let death = synthesize(&SynthParams {
        wave: Wave::Noise,
        frequency: 60.0,
        slide: -0.5,
        sustain: 0.1,
        punch: 0.6,
        decay: 0.5,
        low_pass: LowPass {
            cutoff: 3_000.0,
            slide: -2.0,
            resonance: 0.2,
        },
        ..SynthParams::default()
    });
    let effects = (0..20)
        .map(|i| {
            synthesize(&SynthParams {
                wave: if i % 2 == 0 {
                    Wave::Square
                } else {
                    Wave::Noise
                },
                frequency: 300.0 + 50.0 * f64::from(i),
                slide: -3.0,
                sustain: 0.05,
                decay: 0.15 + 0.02 * f64::from(i),
                duty: 0.3,
                seed: i as u64,
                ..SynthParams::default()
            })
        })
        .collect();
    let click = synthesize(&SynthParams {
        wave: Wave::Sine,
        frequency: 1_200.0,
        sustain: 0.01,
        decay: 0.03,
        ..SynthParams::default()
    });
    let voice = |notes: &str, wave| TuneVoice {
        instrument: SynthParams {
            wave,
            sustain: 0.2,
            decay: 0.2,
            ..SynthParams::default()
        },
        notes: notes.to_string(),
        volume: Some(0.5),
    };
    let music = render_tune(&Tune {
        tempo: 120.0,
        voices: vec![
            voice("C4 E4 G4 E4 F4 A4 C5 A4", Wave::Triangle),
            voice("C3:2 F3:2 G3:2 C3:2", Wave::Square),
        ],
    })
    .unwrap();
    Sounds {
        death,
        effects,
        click,
        music,
    }
}

/// A mixer with music looping at full level and `voices` sounds playing (a death, a click,
/// the rest shots and hits), started by a render of one frame.
fn playing(sounds: &Sounds, voices: usize) -> Mixer {
    let mut mixer = Mixer::new();
    mixer.set_crossfade(0.0);
    mixer.set_music(Some((1_000, sounds.music.clone())));
    mixer.play(0, &sounds.death, Play::default());
    let ui = Play {
        bus: Bus::Ui,
        ..Play::default()
    };
    mixer.play(999, &sounds.click, ui);
    for i in 0..voices.saturating_sub(2) {
        let pan = i as f32 / 16.0 - 1.0;
        let key = 1 + i % sounds.effects.len();
        let play = Play {
            pan,
            max_voices: 32,
            ..Play::default()
        };
        mixer.play(100 + i as u64, &sounds.effects[key - 1], play);
    }
    mixer.render(&mut [0.0; 2]);
    mixer
}

/// A tick's worth of plays: 1 000 of the death sound, 10 of each of 20 others, spread across.
fn plays(mixer: &mut Mixer, sounds: &Sounds) {
    for i in 0..1_000 {
        let pan = (i % 21) as f32 / 10.0 - 1.0;
        mixer.play(
            0,
            &sounds.death,
            Play {
                pan,
                ..Play::default()
            },
        );
    }
    for i in 0..200 {
        let key = 1 + i % 20;
        let pan = (i % 7) as f32 / 3.0 - 1.0;
        mixer.play(
            key as u64,
            &sounds.effects[key - 1],
            Play {
                pan,
                ..Play::default()
            },
        );
    }
}

fn mixer(c: &mut Criterion) {
    let sounds = sounds();
    let mut group = c.benchmark_group("mixer, one frame of 800");
    let render = |(mut mixer, mut out): (Mixer, Vec<f32>)| {
        mixer.render(&mut out);
        (mixer, out)
    };
    group.bench_function("steady", |b| {
        b.iter_batched(
            || (playing(&sounds, 7), vec![0.0; 2 * FRAMES]),
            render,
            BatchSize::SmallInput,
        )
    });
    group.bench_function("after_1200_plays", |b| {
        b.iter_batched(
            || (playing(&sounds, 7), vec![0.0; 2 * FRAMES]),
            |(mut mixer, mut out)| {
                plays(&mut mixer, &sounds);
                mixer.render(&mut out);
                (mixer, out)
            },
            BatchSize::SmallInput,
        )
    });
    group.bench_function("after_1200_plays, render_only", |b| {
        b.iter_batched(
            || {
                let mut mixer = playing(&sounds, 7);
                plays(&mut mixer, &sounds);
                (mixer, vec![0.0; 2 * FRAMES])
            },
            render,
            BatchSize::SmallInput,
        )
    });
    group.bench_function("full", |b| {
        b.iter_batched(
            || (playing(&sounds, 32), vec![0.0; 2 * FRAMES]),
            render,
            BatchSize::SmallInput,
        )
    });
    let clip = sounds.effects[0].samples();
    group.bench_function("one_voice_by_hand", |b| {
        let mut out = vec![0.0f32; 2 * FRAMES];
        b.iter(|| {
            let gain = black_box(0.8f32);
            for (frame, &s) in out.chunks_exact_mut(2).zip(black_box(clip)) {
                frame[0] += s * gain;
                frame[1] += s * gain;
            }
            black_box(&mut out);
        })
    });
    group.finish();
}

criterion_group!(benches, mixer);
criterion_main!(benches);
