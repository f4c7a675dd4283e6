//! A tune's notes as a modder writes them: tokens separated by spaces, each a pitch or a rest
//! with an optional length in beats. `C4` is middle C for one beat, `F#3:2` two beats, `Bb4:0.5`
//! half a beat, `-:4` a rest of four beats.

/// A note or rest of a tune.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Note {
    /// The pitch in hertz (A4 = 440, equal temperament), `None` for a rest.
    pub frequency: Option<f64>,
    /// How long, in beats.
    pub beats: f64,
}

/// A mistake in a tune's notes: what is wrong and where, as a byte offset into the notes text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct NoteError {
    /// The byte offset of the token at fault.
    pub offset: usize,
    /// What is wrong, in words for the modder.
    pub message: String,
}

/// The longest note or rest, in beats.
const MAX_BEATS: f64 = 64.0;

/// Reads a tune's notes; the first mistake is the error.
pub fn parse_notes(text: &str) -> Result<Vec<Note>, NoteError> {
    let mut notes = Vec::new();
    let mut offset = 0;
    for token in text.split_inclusive(char::is_whitespace) {
        let start = offset;
        offset += token.len();
        let token = token.trim_end();
        if token.is_empty() {
            continue;
        }
        let fail = |message: String| NoteError {
            offset: start,
            message,
        };
        let (pitch, length) = token.split_once(':').unwrap_or((token, "1"));
        let beats: f64 = length
            .parse()
            .ok()
            .filter(|b: &f64| b.is_finite() && *b > 0.0 && *b <= MAX_BEATS)
            .ok_or_else(|| {
                fail(format!(
                    "`{token}`: the length after `:` must be a number of beats above 0 and at \
                     most {MAX_BEATS}"
                ))
            })?;
        let frequency = if pitch == "-" {
            None
        } else {
            Some(frequency(pitch).ok_or_else(|| {
                fail(format!(
                    "`{token}` is not a note: write a letter A–G, an optional # or b, and an \
                     octave 0–8 (`C4`, `F#3`, `Bb2`), or `-` for a rest"
                ))
            })?)
        };
        notes.push(Note { frequency, beats });
    }
    Ok(notes)
}

/// The frequency of a pitch like `C4`, `F#3` or `Bb2`.
fn frequency(pitch: &str) -> Option<f64> {
    let mut chars = pitch.chars();
    let step = match chars.next()? {
        'C' => 0,
        'D' => 2,
        'E' => 4,
        'F' => 5,
        'G' => 7,
        'A' => 9,
        'B' => 11,
        _ => return None,
    };
    let rest = chars.as_str();
    let (shift, octave) = match rest.as_bytes().first()? {
        b'#' => (1, &rest[1..]),
        b'b' => (-1, &rest[1..]),
        _ => (0, rest),
    };
    let octave: i32 = octave.parse().ok().filter(|o| (0..=8).contains(o))?;
    let semitones_from_a4 = (octave - 4) * 12 + step + shift - 9;
    Some(440.0 * libm::exp2(f64::from(semitones_from_a4) / 12.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pitches_and_lengths() {
        let notes = parse_notes("A4 C4:2  F#3:0.5 -:4").unwrap();
        assert_eq!(notes.len(), 4);
        assert!((notes[0].frequency.unwrap() - 440.0).abs() < 1e-9);
        assert!((notes[1].frequency.unwrap() - 261.6256).abs() < 1e-3);
        assert_eq!(notes[1].beats, 2.0);
        assert!((notes[2].frequency.unwrap() - 184.9972).abs() < 1e-3);
        assert_eq!(
            notes[3],
            Note {
                frequency: None,
                beats: 4.0
            }
        );
    }

    #[test]
    fn mistakes_are_located() {
        let error = parse_notes("C4 E4 H4 G4").unwrap_err();
        assert_eq!(error.offset, 6);
        assert!(error.message.contains("`H4`"));
        assert_eq!(parse_notes("C4:0").unwrap_err().offset, 0);
        assert_eq!(parse_notes("C4 C9").unwrap_err().offset, 3);
        assert_eq!(parse_notes("C4:x").unwrap_err().offset, 0);
    }
}
