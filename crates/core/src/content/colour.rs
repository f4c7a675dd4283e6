//! Colours as mods write them, in data (`effects.ron`) and in scripts (`game:draw_line`): `"#rrggbb"`
//! or one of a few names. One reader for both, so a colour that works in one works in the other.

use crate::diagnostics::did_you_mean;

/// A colour: red, green and blue, 0 to 255 each (sRGB, as written).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

/// The colours that have a name, with their values.
pub const NAMED: [(&str, Rgb); 12] = [
    ("white", Rgb(255, 255, 255)),
    ("black", Rgb(0, 0, 0)),
    ("grey", Rgb(128, 128, 128)),
    ("red", Rgb(230, 50, 40)),
    ("orange", Rgb(255, 150, 30)),
    ("yellow", Rgb(255, 225, 50)),
    ("green", Rgb(70, 200, 70)),
    ("cyan", Rgb(60, 220, 230)),
    ("blue", Rgb(50, 110, 240)),
    ("purple", Rgb(150, 80, 220)),
    ("magenta", Rgb(230, 60, 200)),
    ("pink", Rgb(255, 150, 190)),
];

impl Rgb {
    /// Reads `"#rrggbb"` (hex digits in either case) or a name of [`NAMED`]; the error says what
    /// may be written, with the name probably meant.
    pub fn parse(text: &str) -> Result<Rgb, String> {
        if let Some(hex) = text.strip_prefix('#') {
            let channel = |i: usize| {
                hex.get(i..i + 2)
                    .and_then(|d| u8::from_str_radix(d, 16).ok())
            };
            if hex.len() == 6
                && hex.is_ascii()
                && let (Some(r), Some(g), Some(b)) = (channel(0), channel(2), channel(4))
            {
                return Ok(Rgb(r, g, b));
            }
            return Err(format!(
                "`{text}` is not a colour: after `#` come six hex digits, two each for red, green and blue (`#ff8800`)"
            ));
        }
        if let Some((_, rgb)) = NAMED.iter().find(|(name, _)| *name == text) {
            return Ok(*rgb);
        }
        let names: Vec<&str> = NAMED.iter().map(|(name, _)| *name).collect();
        let hint = did_you_mean(text, names.iter().copied())
            .map(|h| format!("; {h}"))
            .unwrap_or_default();
        Err(format!(
            "`{text}` is not a colour: write `#rrggbb` or one of {}{hint}",
            names.join(", ")
        ))
    }

    /// The colour's channels from 0 to 1.
    pub fn unit(self) -> [f32; 3] {
        [self.0, self.1, self.2].map(|c| f32::from(c) / 255.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_and_names_are_read_and_mistakes_say_what_to_write() {
        assert_eq!(Rgb::parse("#FF8800"), Ok(Rgb(255, 136, 0)));
        assert_eq!(Rgb::parse("#0a0b0c"), Ok(Rgb(10, 11, 12)));
        assert_eq!(Rgb::parse("cyan"), Ok(Rgb(60, 220, 230)));
        let short = Rgb::parse("#fff").unwrap_err();
        assert!(short.contains("six hex digits"), "{short}");
        assert!(Rgb::parse("#gg0000").is_err());
        // Six bytes that are not six characters.
        assert!(Rgb::parse("#ééé").is_err());
        let typo = Rgb::parse("purpel").unwrap_err();
        assert!(typo.contains("did you mean `purple`?"), "{typo}");
        assert!(typo.contains("`#rrggbb` or one of white, black"), "{typo}");
        assert_eq!(Rgb(255, 0, 51).unit(), [1.0, 0.0, 0.2]);
    }
}
