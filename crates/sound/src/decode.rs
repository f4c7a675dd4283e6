//! Sound files a mod ships → [`Clip`]: WAV (integer samples of 8 to 32 bits, or 32-bit float)
//! and Ogg Vorbis, mono or stereo, at any rate from 8 to 192 kHz, resampled to [`SAMPLE_RATE`]
//! by linear interpolation (cheap, and enough for effects and music played once at load: it
//! softens the highest frequencies a little and lets a little of what lies above half the new
//! rate fold back when a file is made slower).
//!
//! A file is refused, with the reason in words for the modder, rather than allowed to exhaust
//! memory: at most [`MAX_FILE_BYTES`] bytes and [`MAX_DECODED_SECONDS`] of sound. WAV samples
//! decode to the same values everywhere; Vorbis's do up to the last bits, as its decoder
//! computes with the system's sine and cosine.

use std::io::Cursor;

use lewton::inside_ogg::OggStreamReader;
use lewton::samples::InterleavedSamples;
use lewton::{VorbisError, header::HeaderReadError};

use crate::{Clip, SAMPLE_RATE};

/// The largest sound file, in bytes (64 MiB).
pub const MAX_FILE_BYTES: usize = 64 << 20;
/// The longest sound a file may hold, in seconds.
pub const MAX_DECODED_SECONDS: u32 = 600;
/// The sample rates a file may have, in hertz.
const RATES: std::ops::RangeInclusive<u32> = 8_000..=192_000;

/// Why a sound file cannot be played, in words for the modder.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DecodeError {
    /// Larger than [`MAX_FILE_BYTES`].
    #[error(
        "the file has {bytes} bytes; a sound file may have at most {} MiB",
        MAX_FILE_BYTES >> 20
    )]
    TooLarge {
        /// The file's size.
        bytes: usize,
    },
    /// Neither a WAV nor an Ogg file.
    #[error("not a WAV or Ogg Vorbis file")]
    UnknownFormat,
    /// An Ogg file whose first stream is not Vorbis.
    #[error("an Ogg file without Vorbis sound (Opus or FLAC in Ogg is not supported)")]
    NotVorbis,
    /// A WAV file of a sample format the decoder does not read.
    #[error("{0} WAV unsupported: save it as 16-bit integer or 32-bit float PCM")]
    WavFormat(String),
    /// Neither mono nor stereo.
    #[error("{0} channels: only mono and stereo sounds can be played")]
    Channels(u32),
    /// A sample rate outside 8 to 192 kHz.
    #[error("a sample rate of {0} Hz; sounds must be 8 000 to 192 000 Hz")]
    SampleRate(u32),
    /// Longer than [`MAX_DECODED_SECONDS`].
    #[error(
        "the sound lasts more than {MAX_DECODED_SECONDS} seconds, the longest a sound file may be"
    )]
    TooLong,
    /// Not a single sample.
    #[error("the file holds no sound")]
    Empty,
    /// A WAV file whose contents do not read.
    #[error("damaged WAV file: {0}")]
    DamagedWav(String),
    /// An Ogg Vorbis file whose contents do not decode.
    #[error("damaged Ogg Vorbis file: {0}")]
    DamagedVorbis(String),
    /// An Ogg file whose later part changes its channels or sample rate.
    #[error("an Ogg file whose parts differ in channels or sample rate")]
    ChangingFormat,
}

/// Decodes a WAV or Ogg Vorbis file's bytes into a clip at [`SAMPLE_RATE`].
pub fn decode(bytes: &[u8]) -> Result<Clip, DecodeError> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(DecodeError::TooLarge { bytes: bytes.len() });
    }
    let (channels, rate, samples) = if bytes.starts_with(b"RIFF") {
        decode_wav(bytes)?
    } else if bytes.starts_with(b"OggS") {
        decode_vorbis(bytes)?
    } else {
        return Err(DecodeError::UnknownFormat);
    };
    if samples.is_empty() {
        return Err(DecodeError::Empty);
    }
    let samples = resample(&samples, channels, rate);
    Ok(if channels == 2 {
        Clip::stereo(samples)
    } else {
        Clip::mono(samples)
    })
}

/// Channels and rate checked for what a clip can hold.
fn check_format(channels: u32, rate: u32) -> Result<(), DecodeError> {
    if !(1..=2).contains(&channels) {
        return Err(DecodeError::Channels(channels));
    }
    if !RATES.contains(&rate) {
        return Err(DecodeError::SampleRate(rate));
    }
    Ok(())
}

/// The most samples (all channels) a file of this format may hold.
fn max_samples(channels: u32, rate: u32) -> usize {
    (u64::from(MAX_DECODED_SECONDS) * u64::from(rate) * u64::from(channels)) as usize
}

/// A sample kept within -1 to 1, NaN and infinities as silence: what a float file may hold
/// besides sound.
fn sane(sample: f32) -> f32 {
    if sample.is_finite() {
        sample.clamp(-1.0, 1.0)
    } else {
        0.0
    }
}

/// A WAV file's channels, rate and interleaved samples.
fn decode_wav(bytes: &[u8]) -> Result<(u32, u32, Vec<f32>), DecodeError> {
    let mut reader =
        hound::WavReader::new(Cursor::new(bytes)).map_err(|error| match unsupported_wav_format(
            bytes,
        ) {
            Some(format) => DecodeError::WavFormat(format),
            None => DecodeError::DamagedWav(error.to_string()),
        })?;
    let spec = reader.spec();
    let (channels, rate) = (u32::from(spec.channels), spec.sample_rate);
    check_format(channels, rate)?;
    let declared = reader.len() as usize;
    if declared > max_samples(channels, rate) {
        return Err(DecodeError::TooLong);
    }
    let damaged = |error: hound::Error| DecodeError::DamagedWav(error.to_string());
    let samples = match spec.sample_format {
        hound::SampleFormat::Float => reader
            .samples::<f32>()
            .map(|s| s.map(sane))
            .collect::<Result<Vec<_>, _>>()
            .map_err(damaged)?,
        hound::SampleFormat::Int => {
            let scale = 1.0 / (1u64 << (spec.bits_per_sample - 1)) as f32;
            reader
                .samples::<i32>()
                .map(|s| s.map(|s| s as f32 * scale))
                .collect::<Result<Vec<_>, _>>()
                .map_err(damaged)?
        }
    };
    Ok((channels, rate, samples))
}

/// Words for the sample format a WAV file's `fmt ` chunk names if the decoder does not read it
/// ("24-bit float", "ADPCM", "format 85"); `None` if it does, or if there is no such chunk.
fn unsupported_wav_format(bytes: &[u8]) -> Option<String> {
    let u16_at = |at: usize| {
        bytes
            .get(at..at + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
    };
    let u32_at = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    // The chunks after "RIFF", size, "WAVE": each an id, a size, and the size's bytes (padded
    // to an even length).
    let mut at = 12;
    while let (Some(id), Some(size)) = (bytes.get(at..at + 4), u32_at(at + 4)) {
        if id == b"fmt " {
            let (mut tag, bits) = (u16_at(at + 8)?, u16_at(at + 22)?);
            // WAVE_FORMAT_EXTENSIBLE: the real format leads its sub-format GUID.
            if tag == 0xFFFE {
                tag = u16_at(at + 32)?;
            }
            return match (tag, bits) {
                (1, 8 | 16 | 24 | 32) | (3, 32) => None,
                (1, bits) => Some(format!("{bits}-bit integer")),
                (3, bits) => Some(format!("{bits}-bit float")),
                (2, _) => Some("ADPCM".to_string()),
                (6, _) => Some("A-law".to_string()),
                (7, _) => Some("μ-law".to_string()),
                (0x11, _) => Some("IMA ADPCM".to_string()),
                (0x55, _) => Some("MP3".to_string()),
                (other, _) => Some(format!("format {other}")),
            };
        }
        at = at.checked_add(8 + size as usize + size as usize % 2)?;
    }
    None
}

/// An Ogg Vorbis file's channels, rate and interleaved samples.
fn decode_vorbis(bytes: &[u8]) -> Result<(u32, u32, Vec<f32>), DecodeError> {
    let damaged = |error: VorbisError| match error {
        VorbisError::BadHeader(HeaderReadError::NotVorbisHeader) => DecodeError::NotVorbis,
        VorbisError::BadHeader(e) => DecodeError::DamagedVorbis(format!("its headers: {e}")),
        VorbisError::BadAudio(e) => DecodeError::DamagedVorbis(format!("its sound: {e}")),
        VorbisError::OggError(e) => DecodeError::DamagedVorbis(format!("its Ogg pages: {e}")),
    };
    let mut reader = OggStreamReader::new(Cursor::new(bytes)).map_err(damaged)?;
    let channels = u32::from(reader.ident_hdr.audio_channels);
    let rate = reader.ident_hdr.audio_sample_rate;
    check_format(channels, rate)?;
    let limit = max_samples(channels, rate);
    let mut samples = Vec::new();
    while let Some(packet) = reader
        .read_dec_packet_generic::<InterleavedSamples<f32>>()
        .map_err(damaged)?
    {
        // A chained file may start a new stream with another format.
        if u32::from(reader.ident_hdr.audio_channels) != channels
            || reader.ident_hdr.audio_sample_rate != rate
        {
            return Err(DecodeError::ChangingFormat);
        }
        if samples.len() + packet.samples.len() > limit {
            return Err(DecodeError::TooLong);
        }
        samples.extend(packet.samples.into_iter().map(sane));
    }
    Ok((channels, rate, samples))
}

/// Interleaved samples at `rate` → at [`SAMPLE_RATE`], by linear interpolation between the
/// two nearest frames (positions computed in integers, so exact).
fn resample(samples: &[f32], channels: u32, rate: u32) -> Vec<f32> {
    if rate == SAMPLE_RATE {
        return samples.to_vec();
    }
    let channels = channels as usize;
    let frames = samples.len() / channels;
    let (rate, target) = (u64::from(rate), u64::from(SAMPLE_RATE));
    let out_frames = (frames as u64 * target).div_ceil(rate) as usize;
    let mut out = Vec::with_capacity(out_frames * channels);
    for j in 0..out_frames as u64 {
        let position = j * rate;
        let i = (position / target) as usize;
        let fraction = (position % target) as f32 / target as f32;
        let next = (i + 1).min(frames - 1);
        for c in 0..channels {
            let (a, b) = (samples[i * channels + c], samples[next * channels + c]);
            out.push(a + (b - a) * fraction);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A WAV file of `samples` (interleaved) in `spec`'s format, written by hound.
    fn wav(spec: hound::WavSpec, samples: &[f64]) -> Vec<u8> {
        let mut bytes = Cursor::new(Vec::new());
        let mut writer = hound::WavWriter::new(&mut bytes, spec).unwrap();
        for &s in samples {
            match spec.sample_format {
                hound::SampleFormat::Float => writer.write_sample(s as f32).unwrap(),
                hound::SampleFormat::Int => {
                    let full = f64::from((1u32 << (spec.bits_per_sample - 1)) - 1);
                    writer.write_sample((s * full).round() as i32).unwrap();
                }
            }
        }
        writer.finalize().unwrap();
        bytes.into_inner()
    }

    /// A mono 48 kHz WAV file of format `tag` with `bits` per sample and `data`, written by hand:
    /// hound writes only formats it reads.
    fn raw_wav(tag: u16, bits: u16, data: &[u8]) -> Vec<u8> {
        let block = bits / 8;
        let mut b = Vec::new();
        b.extend(b"RIFF");
        b.extend((36 + data.len() as u32).to_le_bytes());
        b.extend(b"WAVEfmt ");
        b.extend(16u32.to_le_bytes());
        b.extend(tag.to_le_bytes());
        b.extend(1u16.to_le_bytes());
        b.extend(48_000u32.to_le_bytes());
        b.extend((48_000 * u32::from(block)).to_le_bytes());
        b.extend(block.to_le_bytes());
        b.extend(bits.to_le_bytes());
        b.extend(b"data");
        b.extend((data.len() as u32).to_le_bytes());
        b.extend(data);
        b
    }

    fn spec(channels: u16, sample_rate: u32, bits: u16, float: bool) -> hound::WavSpec {
        hound::WavSpec {
            channels,
            sample_rate,
            bits_per_sample: bits,
            sample_format: if float {
                hound::SampleFormat::Float
            } else {
                hound::SampleFormat::Int
            },
        }
    }

    #[test]
    fn wav_formats_decode() {
        let samples = [0.0, 0.5, -0.5, 0.25];
        for (bits, float) in [
            (8, false),
            (16, false),
            (24, false),
            (32, false),
            (32, true),
        ] {
            let clip = decode(&wav(spec(2, 48_000, bits, float), &samples)).unwrap();
            assert_eq!(clip.channels(), 2);
            assert_eq!(clip.frames(), 2);
            for (got, want) in clip.samples().iter().zip(samples) {
                assert!((f64::from(*got) - want).abs() < 0.01, "{bits} bits: {got}");
            }
        }
        let mono = decode(&wav(spec(1, 48_000, 16, false), &samples)).unwrap();
        assert_eq!((mono.channels(), mono.frames()), (1, 4));
    }

    #[test]
    fn rates_are_resampled() {
        // One second of a ramp at 24 kHz: two seconds' worth of frames at 48 kHz, halfway
        // values between the original ones.
        let ramp: Vec<f64> = (0..24_000).map(|i| f64::from(i) / 24_000.0).collect();
        let clip = decode(&wav(spec(1, 24_000, 32, true), &ramp)).unwrap();
        assert_eq!(clip.frames(), 48_000);
        let s = clip.samples();
        assert_eq!(s[200], ramp[100] as f32);
        assert!((f64::from(s[201]) - (ramp[100] + ramp[101]) / 2.0).abs() < 1e-6);
        // 44.1 kHz, the usual rate of files: 441 frames are 480.
        let clip = decode(&wav(spec(2, 44_100, 16, false), &vec![0.1; 882])).unwrap();
        assert_eq!(clip.frames(), 480);
        assert!(clip.samples().iter().all(|s| (s - 0.1).abs() < 1e-3));
    }

    #[test]
    fn ogg_vorbis_decodes() {
        let bytes = include_bytes!("../../../tests/fixtures/sound/tone.ogg");
        let clip = decode(bytes).unwrap();
        assert_eq!(clip.channels(), 2);
        // Half a second at 44.1 kHz, resampled, and 30 frames more: lewton leaves the last
        // block whole where SoX, which wrote the file, trims it to the stream's end.
        assert_eq!(clip.frames(), 24_033);
        // 440 Hz on the left, 660 Hz on the right: upward zero crossings per half second.
        let crossings = |channel: usize| {
            let side: Vec<f32> = clip
                .samples()
                .iter()
                .skip(channel)
                .step_by(2)
                .copied()
                .collect();
            side.windows(2)
                .filter(|w| w[0] <= 0.0 && w[1] > 0.0)
                .count()
        };
        assert!(crossings(0).abs_diff(220) <= 2, "{}", crossings(0));
        assert!(crossings(1).abs_diff(330) <= 2, "{}", crossings(1));
    }

    #[test]
    fn refusals_are_in_words() {
        let message = |bytes: &[u8]| decode(bytes).unwrap_err().to_string();
        assert_eq!(message(b"ID3 an mp3"), "not a WAV or Ogg Vorbis file");
        assert_eq!(message(b""), "not a WAV or Ogg Vorbis file");
        assert_eq!(
            message(&raw_wav(3, 24, &[0; 6])),
            "24-bit float WAV unsupported: save it as 16-bit integer or 32-bit float PCM"
        );
        assert!(message(&raw_wav(3, 64, &[0; 16])).starts_with("64-bit float WAV unsupported"));
        assert!(message(&raw_wav(2, 16, &[0; 8])).starts_with("ADPCM WAV unsupported"));
        // The hand-written header itself reads, as 16-bit integers.
        assert_eq!(decode(&raw_wav(1, 16, &[0, 64])).unwrap().samples(), &[0.5]);
        assert_eq!(
            message(&wav(spec(3, 48_000, 16, false), &[0.0; 3])),
            "3 channels: only mono and stereo sounds can be played"
        );
        assert_eq!(
            message(&wav(spec(1, 4_000, 16, false), &[0.0; 3])),
            "a sample rate of 4000 Hz; sounds must be 8 000 to 192 000 Hz"
        );
        assert_eq!(
            message(&wav(spec(1, 48_000, 16, false), &[])),
            "the file holds no sound"
        );
        let truncated = wav(spec(1, 48_000, 16, false), &[0.5; 100]);
        assert!(message(&truncated[..30]).starts_with("damaged WAV file"));
        let ogg = include_bytes!("../../../tests/fixtures/sound/tone.ogg");
        assert!(message(&ogg[..200]).starts_with("damaged Ogg Vorbis file"));
    }

    #[test]
    fn hostile_sizes_are_refused() {
        assert_eq!(
            decode(&vec![0; MAX_FILE_BYTES + 1]),
            Err(DecodeError::TooLarge {
                bytes: MAX_FILE_BYTES + 1
            })
        );
        // A header that declares four hours of sound in a file of a few bytes.
        let mut liar = wav(spec(1, 8_000, 16, false), &[0.0; 2]);
        let declared = 4 * 3600 * 8_000 * 2u32;
        liar[40..44].copy_from_slice(&declared.to_le_bytes());
        assert_eq!(decode(&liar), Err(DecodeError::TooLong));
        // A float file of NaNs and infinities plays as silence.
        let wild = decode(&wav(
            spec(1, 48_000, 32, true),
            &[f64::NAN, f64::INFINITY, 5.0],
        ))
        .unwrap();
        assert_eq!(wild.samples(), &[0.0, 0.0, 1.0]);
    }

    #[test]
    fn damaged_files_never_panic() {
        // Every byte of the Ogg fixture and of a WAV file changed in turn, in a few ways.
        let ogg = include_bytes!("../../../tests/fixtures/sound/tone.ogg").to_vec();
        let wav = wav(spec(2, 44_100, 16, false), &[0.25; 64]);
        for file in [ogg, wav] {
            for at in (0..file.len()).step_by(7) {
                for value in [0x00, 0xFF, file[at] ^ 0x10] {
                    let mut damaged = file.clone();
                    damaged[at] = value;
                    let _ = decode(&damaged);
                }
            }
        }
    }
}
