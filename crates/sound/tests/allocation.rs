//! The mixer renders without allocating once its buffers have grown: every allocation of the
//! test's thread is counted (dhat's allocator, the test binary's global one; this file holds one
//! test so that no other test's allocations count).

use rampart_sound::{Bus, Clip, Mixer, Play};

#[global_allocator]
static ALLOC: dhat::Alloc = dhat::Alloc;

/// A battle's worth of sound per frame: a burst of deaths, some shots, a click.
fn frame(mixer: &mut Mixer, clips: &[Clip], tick: usize, out: &mut [f32]) {
    for i in 0..(tick % 7) * 150 {
        mixer.play(0, &clips[0], Play::default());
        let key = 1 + i % 20;
        let pan = (i as f32 / 100.0).fract() * 2.0 - 1.0;
        mixer.play(
            key as u64,
            &clips[key % clips.len()],
            Play {
                pan,
                ..Play::default()
            },
        );
    }
    let ui = Play {
        bus: Bus::Ui,
        ..Play::default()
    };
    mixer.play(50, &clips[1], ui);
    if tick % 90 == 45 {
        mixer.set_volume(Bus::Effects, (tick % 4) as f32 / 4.0);
    }
    mixer.render(out);
}

#[test]
fn rendering_does_not_allocate() {
    let clips: Vec<Clip> = (1..8)
        .map(|k| {
            let samples: Vec<f32> = (0..4_800 * k)
                .map(|i| ((i * k) % 100) as f32 / 200.0)
                .collect();
            if k % 2 == 0 {
                Clip::stereo(samples)
            } else {
                Clip::mono(samples)
            }
        })
        .collect();
    let mut mixer = Mixer::new();
    mixer.set_music(Some((100, clips[6].clone())));
    let mut out = vec![0.0; 1_600];
    // The busiest frames once, so that every buffer has grown.
    for tick in 0..120 {
        frame(&mut mixer, &clips, tick, &mut out);
    }

    let _profiler = dhat::Profiler::builder().testing().build();
    for tick in 120..600 {
        frame(&mut mixer, &clips, tick, &mut out);
        if tick == 300 {
            // A crossfade to other music: the loop's clip is shared, not copied.
            mixer.set_music(Some((101, clips[5].clone())));
        }
    }
    let stats = dhat::HeapStats::get();
    assert_eq!(stats.total_blocks, 0, "{stats:?}");
    assert!(out.iter().any(|s| *s != 0.0));
}
