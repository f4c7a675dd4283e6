//! A finished sound: samples at [`SAMPLE_RATE`], shared rather than copied, so that a sound
//! played a thousand times holds its samples once.

use std::sync::Arc;
use std::time::Duration;

use crate::SAMPLE_RATE;

/// A sound's samples at [`SAMPLE_RATE`], mono or stereo (interleaved left, right). Cloning
/// shares the samples: it costs one reference count.
#[derive(Clone, Debug, PartialEq)]
pub struct Clip {
    stereo: bool,
    samples: Arc<[f32]>,
}

impl Clip {
    /// A mono clip.
    pub fn mono(samples: impl Into<Arc<[f32]>>) -> Clip {
        Clip {
            stereo: false,
            samples: samples.into(),
        }
    }

    /// A stereo clip from interleaved samples (left, right, left, …); an odd last sample is
    /// dropped, as half a frame cannot be played.
    pub fn stereo(samples: Vec<f32>) -> Clip {
        let mut samples = samples;
        samples.truncate(samples.len() / 2 * 2);
        Clip {
            stereo: true,
            samples: samples.into(),
        }
    }

    /// 1 for mono, 2 for stereo.
    pub fn channels(&self) -> usize {
        if self.stereo { 2 } else { 1 }
    }

    /// The samples, interleaved if stereo.
    pub fn samples(&self) -> &[f32] {
        &self.samples
    }

    /// How many frames (one sample per channel) long.
    pub fn frames(&self) -> usize {
        self.samples.len() / self.channels()
    }

    /// How long it plays.
    pub fn duration(&self) -> Duration {
        Duration::from_secs_f64(self.frames() as f64 / f64::from(SAMPLE_RATE))
    }

    /// Whether it has no frame at all.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The frame at `index` as (left, right): a mono sample on both sides.
    pub(crate) fn frame(&self, index: usize) -> (f32, f32) {
        if self.stereo {
            (self.samples[2 * index], self.samples[2 * index + 1])
        } else {
            let s = self.samples[index];
            (s, s)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_and_duration() {
        let mono = Clip::mono(vec![0.0; 48_000]);
        assert_eq!(mono.channels(), 1);
        assert_eq!(mono.frames(), 48_000);
        assert_eq!(mono.duration(), Duration::from_secs(1));
        let stereo = Clip::stereo(vec![0.5; 24_001]);
        assert_eq!(stereo.channels(), 2);
        assert_eq!(stereo.frames(), 12_000);
        assert_eq!(stereo.samples().len(), 24_000);
        assert_eq!(stereo.duration(), Duration::from_millis(250));
        assert!(Clip::mono(Vec::new()).is_empty());
    }

    #[test]
    fn clones_share_samples() {
        let clip = Clip::stereo(vec![0.25, -0.25, 1.0, 0.0]);
        let copy = clip.clone();
        assert_eq!(copy.samples().as_ptr(), clip.samples().as_ptr());
        assert_eq!(copy.frame(1), (1.0, 0.0));
        assert_eq!(Clip::mono(vec![0.5]).frame(0), (0.5, 0.5));
    }
}
