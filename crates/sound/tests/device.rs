//! The mixer on a real sound output: a 440 Hz tone for one second through `Output`.
//!
//! Without a sound server or device the test passes with a note, so that `cargo test` passes on
//! machines without sound; with `RAMPART_AUDIO_DEVICE_TEST=1` (`.ci/audio`, which starts a
//! server and records what it plays) no server is a failure.
#![cfg(feature = "device")]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rampart_sound::{Mixer, Output, Play, SynthParams, Wave, synthesize};

#[test]
fn a_tone_plays_on_the_sound_output() {
    let required = std::env::var("RAMPART_AUDIO_DEVICE_TEST").is_ok_and(|v| v == "1");
    let mixer = Arc::new(Mutex::new(Mixer::new()));
    let output = match Output::open(Arc::clone(&mixer)) {
        Ok(output) => output,
        Err(error) if !required => {
            println!("skipped: {error} (RAMPART_AUDIO_DEVICE_TEST=1 makes this a failure)");
            return;
        }
        Err(error) => panic!("{error}"),
    };
    println!("{}", output.description());
    // A sine at half of full scale for one second, 10 ms in and out.
    let tone = synthesize(&SynthParams {
        wave: Wave::Sine,
        frequency: 440.0,
        attack: 0.01,
        sustain: 0.98,
        decay: 0.01,
        volume: 0.25,
        ..SynthParams::default()
    });
    let started = Instant::now();
    mixer.lock().unwrap().play(1, &tone, Play::default());
    // Started by the output thread's next render, then taken off the mixer when done: the
    // thread rendered the whole second.
    let wait_for = |playing: bool| {
        while (mixer.lock().unwrap().voices() > 0) != playing {
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "the output does not pull from the mixer (still waiting after 5 s)"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    };
    wait_for(true);
    wait_for(false);
    println!(
        "played in {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    // Let the server play out what it holds.
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(output.failure(), None);
    #[cfg(target_os = "linux")]
    println!("{}", audio_thread_cpu(started.elapsed()));
    drop(output);
}

/// What the audio thread spent on a processor while the tone played, from the kernel's
/// scheduler statistics of the thread named `rampart-audio`.
#[cfg(target_os = "linux")]
fn audio_thread_cpu(elapsed: Duration) -> String {
    let tasks = std::fs::read_dir("/proc/self/task").unwrap();
    for task in tasks.map(Result::unwrap) {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.trim() == "rampart-audio" {
            let schedstat = std::fs::read_to_string(task.path().join("schedstat")).unwrap();
            let nanos: f64 = schedstat
                .split_whitespace()
                .next()
                .unwrap()
                .parse()
                .unwrap();
            return format!(
                "audio thread: {:.2} ms on a processor in {:.2} s ({:.3} %)",
                nanos / 1e6,
                elapsed.as_secs_f64(),
                nanos / 1e7 / elapsed.as_secs_f64()
            );
        }
    }
    "audio thread: not found".to_string()
}
