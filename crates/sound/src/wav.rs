//! What the mixer rendered, as a WAV file's bytes: for offline renders, to listen to or compare
//! without a sound device.

use std::io::Cursor;

use crate::SAMPLE_RATE;

/// The most frames a WAV file holds: its sizes are 32-bit numbers of bytes (about 6 hours).
const MAX_FRAMES: usize = (u32::MAX as usize - 44) / 4;

/// Why samples could not be written as WAV.
#[derive(Debug, thiserror::Error)]
pub enum WavError {
    /// More than a WAV file can hold.
    #[error("{frames} frames are more than a WAV file can hold ({MAX_FRAMES})")]
    TooLong {
        /// How many were given.
        frames: usize,
    },
    /// The encoder failed.
    #[error("cannot write the WAV file: {0}")]
    Write(#[from] hound::Error),
}

/// Interleaved stereo samples at [`SAMPLE_RATE`] → a 16-bit PCM WAV file. Samples are clamped
/// to -1..1 and rounded to the nearest step; an odd last sample (half a frame) is dropped.
pub fn wav_bytes(interleaved: &[f32]) -> Result<Vec<u8>, WavError> {
    let spec = hound::WavSpec {
        channels: 2,
        sample_rate: SAMPLE_RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let frames = interleaved.len() / 2;
    if frames > MAX_FRAMES {
        return Err(WavError::TooLong { frames });
    }
    let mut bytes = Cursor::new(Vec::with_capacity(44 + frames * 4));
    let mut writer = hound::WavWriter::new(&mut bytes, spec)?;
    let mut samples = writer.get_i16_writer((frames * 2) as u32);
    for &sample in &interleaved[..frames * 2] {
        // NaN becomes 0 through the cast; the clamp keeps the rest in range.
        samples.write_sample((sample.clamp(-1.0, 1.0) * f32::from(i16::MAX)).round() as i16);
    }
    samples.flush()?;
    writer.finalize()?;
    Ok(bytes.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode;

    #[test]
    fn round_trip() {
        let samples = [0.0, 1.0, -1.0, 0.5, 2.0, f32::NAN, -0.25];
        let bytes = wav_bytes(&samples).unwrap();
        assert_eq!(bytes.len(), 44 + 3 * 4);
        let reader = hound::WavReader::new(Cursor::new(&bytes)).unwrap();
        assert_eq!(reader.spec().channels, 2);
        assert_eq!(reader.spec().sample_rate, SAMPLE_RATE);
        let read: Vec<i16> = reader.into_samples().map(Result::unwrap).collect();
        assert_eq!(read, [0, 32767, -32767, 16384, 32767, 0]);
        // And the game's own decoder reads it back.
        let clip = decode(&bytes).unwrap();
        assert_eq!(clip.frames(), 3);
        assert!((clip.samples()[3] - 0.5).abs() < 1e-4);
    }
}
