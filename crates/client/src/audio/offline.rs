//! A battle's sounds rendered without a sound device: tick by tick, what the battle logged is
//! heard as the game window hears it ([`Cues`]) and mixed into samples, one tick's worth at a
//! time. The same battle gives the same samples, so a test can check that sound comes exactly
//! where things happened. No music: what is heard is the battle alone.

use rampart_core::TICKS_PER_SECOND;
use rampart_core::battle::{Battle, LogEntry};
use rampart_core::content::ContentDb;
use rampart_sound::{Bus, Mixer, SAMPLE_RATE, WavError, wav_bytes};

use super::bank::Bank;
use super::cues::{Cue, Cues};

/// Stereo frames a tick lasts.
pub const FRAMES_PER_TICK: usize = (SAMPLE_RATE / TICKS_PER_SECOND as u32) as usize;

/// A battle's sound, rendered as it is played.
#[derive(Debug)]
pub struct OfflineRender {
    bank: Bank,
    cues: Cues,
    mixer: Mixer,
    samples: Vec<f32>,
}

impl OfflineRender {
    /// A render of battles of `content`, silent so far.
    pub fn new(content: &ContentDb) -> OfflineRender {
        let mut bank = Bank::default();
        bank.update(content);
        OfflineRender {
            bank,
            cues: Cues::default(),
            mixer: Mixer::new(),
            samples: Vec::new(),
        }
    }

    /// Hears `log`, what `battle` logged in its last tick, and renders that tick's sound;
    /// returns the cues heard. A listener above the middle of the world hears every sound at
    /// full volume, panned by where it is from west to east.
    pub fn tick(&mut self, battle: &Battle, log: &[LogEntry]) -> Vec<Cue> {
        let width = battle
            .field()
            .map_or(1.0, |f| f64::from(f.world().grid.width.max(1)));
        let heard = self.cues.hear(battle, log);
        for cue in &heard {
            let Some(p) = self.bank.get(&cue.sound) else {
                continue;
            };
            let (pan, bus) = match cue.at {
                Some(at) => ((0.8 * (2.0 * at.x / width - 1.0)) as f32, Bus::Effects),
                None => (0.0, Bus::Ui),
            };
            self.mixer.play(
                p.key,
                &p.clip,
                Bank::play(p, 1.0, pan.clamp(-1.0, 1.0), bus),
            );
        }
        let start = self.samples.len();
        self.samples.resize(start + 2 * FRAMES_PER_TICK, 0.0);
        self.mixer.render(&mut self.samples[start..]);
        heard
    }

    /// Everything rendered so far, interleaved stereo at [`SAMPLE_RATE`].
    pub fn samples(&self) -> &[f32] {
        &self.samples
    }

    /// Everything rendered so far as a 16-bit WAV file.
    pub fn wav(&self) -> Result<Vec<u8>, WavError> {
        wav_bytes(&self.samples)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::sync::Arc;

    use rampart_autopilot::Autopilot;
    use rampart_core::battle::{Battle, Phase};
    use rampart_core::content::ContentDb;
    use rampart_core::content::acts::NodeKind;
    use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};
    use rampart_core::run::{Run, RunConfig};

    use super::*;

    /// Ticks the battle stands idle before the bot plays: long enough for the sounds of its
    /// first tick to end.
    const IDLE_TICKS: u64 = 80;
    /// Ticks the bot plays.
    const PLAYED_TICKS: u64 = 1_600;

    /// The game's own mods, with core's sounds.
    fn content() -> Arc<ContentDb> {
        let dirs = [ModDir {
            path: PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../mods"),
            origin: Origin::Game,
        }];
        let set = ModSet::discover(&dirs, &ModSettings::default());
        let (content, diagnostics) = ContentDb::load(&set);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        Arc::new(content)
    }

    /// The first battle of a run with seed `seed`.
    fn battle(content: &Arc<ContentDb>, seed: u64) -> Battle {
        let mut run = Run::new(content, RunConfig::new(seed)).unwrap();
        let map = run.map();
        let room = run
            .choices()
            .into_iter()
            .find(|&id| map.node(id).is_some_and(|n| n.kind == NodeKind::Battle))
            .unwrap();
        run.enter(content, room).unwrap();
        run.plan(content).unwrap().start(content).unwrap()
    }

    /// The battle idle for a while, then played by the bot: its sound, and the cues of each
    /// tick.
    fn render(seed: u64) -> (OfflineRender, Vec<Vec<Cue>>) {
        let content = content();
        let mut battle = battle(&content, seed);
        let mut render = OfflineRender::new(&content);
        let mut pilot = Autopilot::new();
        let mut seen = 0;
        let mut cues = Vec::new();
        while battle.tick() < IDLE_TICKS + PLAYED_TICKS
            && !matches!(battle.phase(), Phase::Won | Phase::Lost)
        {
            if battle.tick() >= IDLE_TICKS {
                pilot.act(&mut battle);
            }
            battle.step();
            let log = battle.log()[seen..].to_vec();
            seen = battle.log().len();
            cues.push(render.tick(&battle, &log));
        }
        (render, cues)
    }

    /// The root mean square of tick `tick`'s samples.
    fn loudness(samples: &[f32], tick: usize) -> f64 {
        let block = &samples[tick * 2 * FRAMES_PER_TICK..(tick + 1) * 2 * FRAMES_PER_TICK];
        (block.iter().map(|s| f64::from(*s).powi(2)).sum::<f64>() / block.len() as f64).sqrt()
    }

    #[test]
    fn sound_comes_where_things_happen_and_nowhere_else() {
        let (render, cues) = render(3);
        let samples = render.samples();
        assert_eq!(samples.len(), cues.len() * 2 * FRAMES_PER_TICK);
        // How long the longest sound of the battle lasts, in ticks.
        let longest = cues
            .iter()
            .flatten()
            .filter_map(|c| render.bank.get(&c.sound))
            .map(|p| p.clip.frames().div_ceil(FRAMES_PER_TICK))
            .max()
            .expect("the battle made no sound");
        let mut sounding = 0;
        let mut silent = 0;
        for (tick, heard) in cues.iter().enumerate() {
            let playable = heard.iter().any(|c| render.bank.get(&c.sound).is_some());
            let quiet_since = (tick.saturating_sub(longest)..=tick).all(|t| cues[t].is_empty());
            let level = loudness(samples, tick);
            if playable {
                assert!(
                    level > 1e-3,
                    "tick {tick} had {heard:?} but is silent ({level})"
                );
                sounding += 1;
            } else if quiet_since {
                assert_eq!(
                    level, 0.0,
                    "tick {tick}: nothing for {longest} ticks, yet sound"
                );
                silent += 1;
            }
        }
        assert!(sounding > 50, "only {sounding} ticks with sounds");
        assert!(silent > 20, "only {silent} ticks of silence");
        // The idle start: sounds of the first tick (if any), then silence until the bot acts.
        assert_eq!(loudness(samples, IDLE_TICKS as usize - 1), 0.0);
    }

    #[test]
    fn the_same_battle_sounds_the_same() {
        let (a, _) = render(5);
        let (b, _) = render(5);
        assert_eq!(a.wav().unwrap(), b.wav().unwrap());
        let (c, _) = render(6);
        assert_ne!(a.samples(), c.samples());
    }
}
