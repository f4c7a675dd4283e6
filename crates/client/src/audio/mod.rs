//! What the player hears: the battle's log as sounds placed by the camera ([`cues`]), the
//! content's sounds made once ([`bank`]), music that follows the battle (build, wave, boss), the
//! interface's clicks, and the mixer on the system's sound output. With no sound server or
//! device (or `--no-audio`) the game plays on in silence after one line in the log.

pub mod bank;
pub mod cues;
pub mod offline;

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use rampart_core::battle::{Phase, Position};
use rampart_core::content::{ContentDb, Size};
use rampart_sound::{Bus, Mixer, Output};

use crate::bindings::Control;
use crate::camera::Rig;
use crate::session::Game;
use crate::settings::Settings;
use crate::{ClientSet, Content, Screen, to_bevy};
use bank::Bank;
use cues::{Cue, Cues};

/// Plays the game's sounds; `enabled: false` (`--no-audio`) opens no sound output.
pub struct AudioPlugin {
    /// Whether to open the system's sound output.
    pub enabled: bool,
}

/// The mixer and what feeds it.
#[derive(Resource)]
pub struct Audio {
    /// The mixer the output thread renders from.
    pub mixer: Arc<Mutex<Mixer>>,
    /// The content's sounds, made.
    pub bank: Bank,
    /// The battle's log, heard.
    cues: Cues,
    /// The content the bank was made from.
    made_from: Option<Arc<ContentDb>>,
    /// The music playing: its sound's id.
    music: Option<String>,
}

impl Audio {
    /// The mixer, locked briefly; a panic elsewhere while it was held leaves it usable.
    pub fn mixer(&self) -> MutexGuard<'_, Mixer> {
        self.mixer.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Plays sound `id` on `bus` at `gain` and `pan`, if the bank has it.
    pub fn play(&self, id: &str, bus: Bus, gain: f32, pan: f32) {
        if let Some(p) = self.bank.get(id) {
            self.mixer()
                .play(p.key, &p.clip, Bank::play(p, gain, pan, bus));
        }
    }
}

/// The system's sound output, while it plays (not `Send`: Windows' streams stay on their thread).
struct Speaker {
    /// Held for its `Drop`, which stops the sound.
    _output: Output,
}

impl Plugin for AudioPlugin {
    fn build(&self, app: &mut App) {
        let mixer = Arc::new(Mutex::new(Mixer::new()));
        if self.enabled {
            match Output::open(Arc::clone(&mixer)) {
                Ok(output) => {
                    info!("sound: {}", output.description());
                    app.insert_non_send(Speaker { _output: output });
                }
                Err(why) => warn!("{why}; the game plays without sound"),
            }
        } else {
            info!("no sound: switched off (--no-audio)");
        }
        app.insert_resource(Audio {
            mixer,
            bank: Bank::default(),
            cues: Cues::default(),
            made_from: None,
            music: None,
        })
        .add_systems(
            Update,
            (make_bank, volumes, battle_sounds, music, clicks)
                .chain()
                .in_set(ClientSet::Present),
        )
        .add_systems(OnEnter(Screen::Reward), reward_sound)
        .add_systems(OnEnter(Screen::Battle), forget_battle);
    }
}

/// Makes the sounds of the content in use, again whenever it is loaded again.
fn make_bank(mut audio: ResMut<Audio>, content: Res<Content>) {
    if audio
        .made_from
        .as_ref()
        .is_some_and(|db| Arc::ptr_eq(db, &content.db))
    {
        return;
    }
    audio.bank.update(&content.db);
    audio.made_from = Some(Arc::clone(&content.db));
    // The music is chosen again: its loop may have been made again, or replaced.
    audio.music = None;
}

/// The player's volumes, and silence while the window is in the background if they asked for
/// it. The interface's sounds follow the effects' volume.
fn volumes(
    audio: Res<Audio>,
    settings: Res<Settings>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut applied: Local<Option<(f32, f32, f32, bool)>>,
) {
    let focused = windows.iter().next().is_none_or(|w| w.focused);
    let now = (
        settings.master_volume,
        settings.music_volume,
        settings.effects_volume,
        settings.mute_when_unfocused && !focused,
    );
    if *applied == Some(now) {
        return;
    }
    let (master, music, effects, muted) = now;
    let mut mixer = audio.mixer();
    mixer.set_master_volume(master);
    mixer.set_volume(Bus::Music, music);
    mixer.set_volume(Bus::Effects, effects);
    mixer.set_volume(Bus::Ui, effects);
    mixer.set_muted(muted);
    *applied = Some(now);
}

/// A new battle: what the last one's entities were is of no use.
fn forget_battle(mut audio: ResMut<Audio>) {
    audio.cues.reset();
}

/// The battle's log of this frame as sounds, placed by where the camera looks.
fn battle_sounds(
    game: NonSend<Game>,
    mut audio: ResMut<Audio>,
    screen: Res<State<Screen>>,
    // The window's camera (icons are photographed by cameras of their own).
    cameras: Query<(&Camera, &GlobalTransform), With<Rig>>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    if *screen.get() != Screen::Battle || session.frame_log.is_empty() {
        return;
    }
    let heard = audio.cues.hear(&session.battle, &session.frame_log);
    let field = session.battle.field();
    let listener = cameras.iter().next();
    for Cue { sound, at } in heard {
        let (gain, pan) = match (at, listener) {
            (Some(p), Some((camera, transform))) => {
                let ground = field.map_or(0.0, |f| f.ground(p.x, p.y));
                placed(camera, transform, p, ground)
            }
            _ => (1.0, 0.0),
        };
        let bus = if at.is_some() { Bus::Effects } else { Bus::Ui };
        audio.play(&sound, bus, gain, pan);
    }
}

/// The gain and pan of a sound at `at`, heard from the camera: panned by where it is across the
/// view, full inside it and fading with its distance outside.
fn placed(camera: &Camera, transform: &GlobalTransform, at: Position, ground: f64) -> (f32, f32) {
    let Some(ndc) = camera.world_to_ndc(transform, to_bevy(at.x, at.y, ground)) else {
        return (1.0, 0.0);
    };
    stereo_place(ndc.x, ndc.y)
}

/// Gain and pan for a point at `x`, `y` in the view's coordinates (−1 to 1 across it).
pub fn stereo_place(x: f32, y: f32) -> (f32, f32) {
    let outside = (x.abs().max(y.abs()) - 1.0).max(0.0);
    let gain = 1.0 / (1.0 + 1.5 * outside);
    (gain * gain, (0.8 * x).clamp(-1.0, 1.0))
}

/// The music the game is at: between waves and on the other screens the build music, in a wave
/// the wave's (a boss's while one is on the field), none once a level is won or lost (its
/// jingle plays).
fn music(
    game: NonSend<Game>,
    mut audio: ResMut<Audio>,
    screen: Res<State<Screen>>,
    content: Res<Content>,
) {
    let scape = &content.db.soundscape.music;
    let wanted = match (screen.get(), game.0.as_ref()) {
        (Screen::Battle, Some(session)) => match session.battle.phase() {
            Phase::Build => scape.build.clone(),
            Phase::Wave => {
                let boss = session.battle.entities().any(|(_, e)| {
                    e.kind
                        .attacker()
                        .is_some_and(|a| session.battle.content().attacker(a).size == Size::Boss)
                });
                if boss {
                    scape.boss.clone()
                } else {
                    scape.wave.clone()
                }
            }
            Phase::Won | Phase::Lost => None,
        },
        _ => scape.build.clone(),
    };
    if wanted == audio.music {
        return;
    }
    let next = wanted
        .as_deref()
        .and_then(|id| audio.bank.get(id))
        .map(|p| (p.key, p.clip.clone()));
    audio.mixer().set_music(next);
    audio.music = wanted;
}

/// A click for every button pressed; the Back control (Esc unless rebound: back, close,
/// deselect) sounds `ui_back`.
fn clicks(
    audio: Res<Audio>,
    content: Res<Content>,
    settings: Res<Settings>,
    keys: Res<ButtonInput<KeyCode>>,
    pressed: Query<&Interaction, (Changed<Interaction>, With<Button>)>,
) {
    let scape = &content.db.soundscape;
    if pressed.iter().any(|i| *i == Interaction::Pressed)
        && let Some(click) = &scape.ui_click
    {
        audio.play(click, Bus::Ui, 1.0, 0.0);
    }
    if settings.keys.just_pressed(Control::Back, &keys)
        && let Some(back) = &scape.ui_back
    {
        audio.play(back, Bus::Ui, 1.0, 0.0);
    }
}

/// The reward screen's chime.
fn reward_sound(audio: Res<Audio>, content: Res<Content>) {
    if let Some(reward) = &content.db.soundscape.reward {
        audio.play(reward, Bus::Ui, 1.0, 0.0);
    }
}
