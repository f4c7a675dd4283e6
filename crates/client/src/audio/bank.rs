//! The content's sounds made playable: each [`Sound`] of the loaded mods synthesised, rendered
//! from its tune or decoded from its file once, as a [`Clip`] with what the mixer needs to
//! play it. Made again only for sounds that changed when the content is loaded again (hot
//! reload): a changed declaration, or a sound file saved again.

use std::collections::HashMap;
use std::time::SystemTime;

use rampart_core::content::{ContentDb, Sound, SoundSource};
use rampart_sound::{Clip, Play, decode, render_tune, synthesize};

/// A sound ready to play.
#[derive(Clone, Debug)]
pub struct Playable {
    /// What the mixer calls it: the same for every play of this sound, so that its voice limit
    /// and coalescing count them together, and new when the sound is made again, so that music
    /// made again replaces the loop playing.
    pub key: u64,
    /// Its samples, at the sound's `volume`.
    pub clip: Clip,
    /// The most copies playing at once (the sound's `voices`).
    pub voices: usize,
}

/// Every sound of the content, ready to play, by id.
#[derive(Debug, Default)]
pub struct Bank {
    sounds: HashMap<String, (Made, Playable)>,
    /// The key of the next sound made.
    next_key: u64,
}

/// What a [`Playable`] was made from: the sound as declared, and for a file when it was last
/// changed and its size, so that a file saved again is heard anew though its declaration is the
/// same.
#[derive(Debug, PartialEq)]
struct Made {
    sound: Sound,
    file: Option<(SystemTime, u64)>,
}

impl Made {
    fn of(sound: &Sound) -> Made {
        let file = match &sound.source {
            SoundSource::File(path) => std::fs::metadata(path)
                .ok()
                .and_then(|m| Some((m.modified().ok()?, m.len()))),
            SoundSource::Synth(_) | SoundSource::Tune(_) => None,
        };
        Made {
            sound: sound.clone(),
            file,
        }
    }
}

impl Bank {
    /// The bank for `content`: the sounds of `self` that did not change are kept, the others
    /// made. A sound that cannot be made (a file changed since it was checked) is left out,
    /// with a line in the log.
    pub fn update(&mut self, content: &ContentDb) {
        let mut old = std::mem::take(&mut self.sounds);
        for (id, sound) in &content.sounds {
            let made = Made::of(sound);
            let kept = old.remove(id).filter(|(was, _)| *was == made);
            let playable = match kept {
                Some((_, playable)) => playable,
                None => match make(sound) {
                    Ok(clip) => Playable {
                        key: {
                            self.next_key += 1;
                            self.next_key
                        },
                        clip: scaled(&clip, sound.volume as f32),
                        voices: sound.voices as usize,
                    },
                    Err(why) => {
                        bevy::log::warn!("sound {id} cannot be played: {why}");
                        continue;
                    }
                },
            };
            self.sounds.insert(id.clone(), (made, playable));
        }
    }

    /// The sound with id `id`, if it can be played.
    pub fn get(&self, id: &str) -> Option<&Playable> {
        self.sounds.get(id).map(|(_, p)| p)
    }

    /// How the mixer plays sound `playable` at `gain` and `pan`.
    pub fn play(playable: &Playable, gain: f32, pan: f32, bus: rampart_sound::Bus) -> Play {
        Play {
            gain,
            pan,
            bus,
            max_voices: playable.voices,
        }
    }
}

/// `clip` at `volume`: the volume is made part of the samples, so that music, which the mixer
/// plays at the music's volume alone, follows it too.
fn scaled(clip: &Clip, volume: f32) -> Clip {
    if volume == 1.0 {
        return clip.clone();
    }
    let samples: Vec<f32> = clip.samples().iter().map(|s| s * volume).collect();
    match clip.channels() {
        1 => Clip::mono(samples),
        _ => Clip::stereo(samples),
    }
}

/// The samples of `sound`.
fn make(sound: &Sound) -> Result<Clip, String> {
    match &sound.source {
        SoundSource::Synth(params) => Ok(synthesize(params)),
        SoundSource::Tune(tune) => render_tune(tune).map_err(|e| e.to_string()),
        SoundSource::File(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
        }
    }
}
