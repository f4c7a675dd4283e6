//! The scene's frame times on the battle screen: the real time between one frame and the next
//! while the battle screen stays shown (the frame that enters it is left out: it holds the
//! level's loading). When the scene ends they are summed up — how many, their median and 95th
//! percentile — printed and written to `frames.txt` beside the screenshots. Under Xvfb the
//! renderer is the CPU's (lavapipe), so they say how this machine draws, not a player's GPU.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use rampart_client::Screen;

/// The file the summary goes to, in the scene's folder.
pub const FILE: &str = "frames.txt";

/// Times the frames of the battle screen and writes their summary to `dir` at the end.
pub struct FramesPlugin {
    /// The scene's folder.
    pub dir: PathBuf,
}

impl Plugin for FramesPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Frames {
            dir: self.dir.clone(),
            times: Vec::new(),
            was_battle: false,
        })
        .add_systems(Last, (time_frame, report).chain());
    }
}

/// The frame times so far.
#[derive(Resource)]
struct Frames {
    dir: PathBuf,
    times: Vec<Duration>,
    /// Whether the frame before was on the battle screen.
    was_battle: bool,
}

fn time_frame(mut frames: ResMut<Frames>, real: Res<Time<Real>>, screen: Res<State<Screen>>) {
    let battle = *screen.get() == Screen::Battle;
    if battle && frames.was_battle {
        frames.times.push(real.delta());
    }
    frames.was_battle = battle;
}

fn report(frames: Res<Frames>, mut exits: MessageReader<AppExit>) {
    if exits.read().count() == 0 {
        return;
    }
    let line = summary(&frames.times);
    println!("render test, battle screen: {line}");
    let path = frames.dir.join(FILE);
    std::fs::write(&path, line + "\n").unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// How many `times`, and their median and 95th percentile (nearest rank) in milliseconds.
fn summary(times: &[Duration]) -> String {
    if times.is_empty() {
        return "0 frames".into();
    }
    let mut sorted = times.to_vec();
    sorted.sort();
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3;
    format!(
        "{} frames, median {:.1} ms, 95th percentile {:.1} ms",
        sorted.len(),
        at(0.5),
        at(0.95)
    )
}
