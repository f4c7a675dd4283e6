//! The colours that carry meaning — the blueprint kinds, better and worse values, the range and
//! the deposits on the ground, the power of an HP bar's sections, the keys of the run's map —
//! in two palettes:
//! the game's own, and one that people with a colour vision deficiency tell apart (the
//! colour-blind setting). The colour-blind one is built on Okabe and Ito's eight colours, which
//! stay distinct under the common deficiencies (red-green above all); what was green against
//! red or yellow becomes blue against orange. Colours that only decorate stay as they are.

use bevy::prelude::*;

use super::settings::Settings;
use rampart_core::content::BlueprintKind;
use rampart_core::content::describe::Quality;
use rampart_core::mapgen::{self, Key};

/// The colours that carry meaning, as the player's settings want them.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Palette {
    /// Towers, economic buildings, special buildings, abilities.
    kinds: [Color; 4],
    /// A value better than the unmodified content's.
    better: Color,
    /// A value worse than the unmodified content's.
    worse: Color,
    /// Ground where any attacker can be hit (RGBA of the overlay).
    pub range_any: [u8; 4],
    /// Ground where only large attackers can be hit.
    pub range_large: [u8; 4],
    /// Tiles the selected building could go on.
    pub valid: [u8; 4],
    /// Tiles rich in fuel, for a building that needs a deposit.
    pub fuel: [u8; 4],
    /// Tiles rich in minerals.
    pub minerals: [u8; 4],
    /// HP bar fills by the power of ten of a section: 1s, 10s, 100s, 1000s, more.
    sections: [Color; 5],
    /// The colour-blind palette's key colours; `None` takes the map's own (`mapgen`).
    keys: Option<[[u8; 3]; 8]>,
}

/// Okabe and Ito's colours (2008), less black, which a dark screen would swallow.
const ORANGE: [u8; 3] = [230, 159, 0];
const SKY_BLUE: [u8; 3] = [86, 180, 233];
const BLUISH_GREEN: [u8; 3] = [0, 158, 115];
const YELLOW: [u8; 3] = [240, 228, 66];
const BLUE: [u8; 3] = [0, 114, 178];
const VERMILLION: [u8; 3] = [213, 94, 0];
const REDDISH_PURPLE: [u8; 3] = [204, 121, 167];
const PALE_GREY: [u8; 3] = [225, 225, 225];

fn rgb([r, g, b]: [u8; 3]) -> Color {
    Color::srgb_u8(r, g, b)
}

fn rgba([r, g, b]: [u8; 3], a: u8) -> [u8; 4] {
    [r, g, b, a]
}

impl Palette {
    /// The game's own colours.
    pub fn standard() -> Palette {
        Palette {
            kinds: [
                Color::srgb(0.3, 0.5, 0.85),
                Color::srgb(0.35, 0.7, 0.35),
                Color::srgb(0.65, 0.4, 0.8),
                Color::srgb(0.95, 0.6, 0.2),
            ],
            better: Color::srgb(0.45, 0.95, 0.45),
            worse: Color::srgb(1.0, 0.4, 0.35),
            range_any: [70, 230, 90, 120],
            range_large: [245, 215, 50, 140],
            valid: [70, 130, 255, 70],
            // Fuel's and materials' colours, as their icons and the HUD have them.
            fuel: [245, 220, 90, 255],
            minerals: [255, 160, 60, 255],
            sections: [
                Color::srgb(1.0, 0.6, 0.15),
                Color::srgb(0.9, 0.15, 0.1),
                Color::srgb(0.55, 0.05, 0.05),
                Color::srgb(0.85, 0.2, 0.75),
                Color::srgb(0.5, 0.2, 0.8),
            ],
            keys: None,
        }
    }

    /// Colours told apart with a colour vision deficiency. The blueprint kinds keep their hues'
    /// names (towers blue, economic green, special purple, abilities orange), as the tutorial
    /// calls them.
    pub fn colour_blind() -> Palette {
        Palette {
            kinds: [
                rgb(BLUE),
                rgb(BLUISH_GREEN),
                rgb(REDDISH_PURPLE),
                rgb(ORANGE),
            ],
            better: rgb(SKY_BLUE),
            worse: rgb([240, 120, 40]),
            range_any: rgba(SKY_BLUE, 140),
            range_large: rgba(ORANGE, 160),
            // Not blue: blue is the range's colour here.
            valid: rgba(REDDISH_PURPLE, 90),
            fuel: rgba(SKY_BLUE, 255),
            minerals: rgba(ORANGE, 255),
            // Lighter to darker, then hues apart from both.
            sections: [
                rgb(YELLOW),
                rgb(ORANGE),
                rgb(VERMILLION),
                rgb(REDDISH_PURPLE),
                rgb(BLUE),
            ],
            keys: Some([
                ORANGE,
                SKY_BLUE,
                YELLOW,
                BLUISH_GREEN,
                REDDISH_PURPLE,
                VERMILLION,
                PALE_GREY,
                BLUE,
            ]),
        }
    }

    /// The palette the settings ask for.
    pub fn of(settings: &Settings) -> Palette {
        if settings.colour_blind {
            Palette::colour_blind()
        } else {
            Palette::standard()
        }
    }

    /// A blueprint kind's colour, the same on cards, menus and the field.
    pub fn kind(&self, kind: BlueprintKind) -> Color {
        self.kinds[match kind {
            BlueprintKind::Tower => 0,
            BlueprintKind::Economic => 1,
            BlueprintKind::Special => 2,
            BlueprintKind::Ability => 3,
        }]
    }

    /// The colour of a value compared with the unmodified content: better, worse, or
    /// `unchanged`.
    pub fn quality(&self, quality: Quality, unchanged: Color) -> Color {
        match quality {
            Quality::Better => self.better,
            Quality::Worse => self.worse,
            Quality::Unchanged => unchanged,
        }
    }

    /// The fill of an HP bar whose sections are `size` HP: by its power of ten.
    pub fn section(&self, size: f64) -> Color {
        let power = size.max(1.0).log10().round() as usize;
        self.sections[power.min(self.sections.len() - 1)]
    }

    /// A key's colour on the run's map: one of eight, by its number.
    pub fn key(&self, key: Key) -> Color {
        let [r, g, b] = match self.keys {
            Some(keys) => keys[(key.0 % 8) as usize],
            None => mapgen::key_colour(key),
        };
        Color::srgb_u8(r, g, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The colour as a protanope or deuteranope sees it, roughly: red and green fold into one
    /// axis (Viénot, Brettel and Mollon's projection onto the yellow-blue plane), so what
    /// remains to tell colours apart is lightness and yellow against blue.
    fn red_green_blind(c: Color) -> (f32, f32) {
        let c = c.to_srgba();
        let lightness = 0.2126 * c.red + 0.7152 * c.green + 0.0722 * c.blue;
        let yellow_blue = (c.red + c.green) / 2.0 - c.blue;
        (lightness, yellow_blue)
    }

    fn apart(a: Color, b: Color) -> f32 {
        let (l1, y1) = red_green_blind(a);
        let (l2, y2) = red_green_blind(b);
        (l1 - l2).abs() + (y1 - y2).abs()
    }

    fn colour([r, g, b, _]: [u8; 4]) -> Color {
        Color::srgb_u8(r, g, b)
    }

    #[test]
    fn the_colour_blind_palette_keeps_meanings_apart_without_red_and_green() {
        let standard = Palette::standard();
        let safe = Palette::colour_blind();
        // The standard palette's green against yellow (range) and green against red (values)
        // are what the colour-blind one is for: they come closer than its pairs.
        let pairs = |p: &Palette| {
            [
                apart(colour(p.range_any), colour(p.range_large)),
                apart(p.better, p.worse),
                apart(colour(p.fuel), colour(p.minerals)),
            ]
        };
        for (old, new) in pairs(&standard).into_iter().zip(pairs(&safe)) {
            assert!(new > old, "{new} is not further apart than {old}");
            assert!(new > 0.5, "{new}");
        }
        // Every two kinds, section powers and keys differ.
        let kinds = [
            BlueprintKind::Tower,
            BlueprintKind::Economic,
            BlueprintKind::Special,
            BlueprintKind::Ability,
        ]
        .map(|k| safe.kind(k));
        for (i, a) in kinds.iter().enumerate() {
            for b in &kinds[i + 1..] {
                assert!(apart(*a, *b) > 0.1, "{a:?} {b:?}");
            }
        }
        let keys: Vec<Color> = (0..8).map(|k| safe.key(Key(k))).collect();
        for (i, a) in keys.iter().enumerate() {
            assert!(keys[i + 1..].iter().all(|b| a != b));
        }
        assert_ne!(safe.section(10.0), safe.section(100.0));
        assert_eq!(standard.key(Key(3)), {
            let [r, g, b] = mapgen::key_colour(Key(3));
            Color::srgb_u8(r, g, b)
        });
    }

    #[test]
    fn sections_take_their_power_of_ten() {
        let p = Palette::standard();
        assert_eq!(p.section(1.0), p.sections[0]);
        assert_eq!(p.section(100.0), p.sections[2]);
        assert_eq!(p.section(1e6), p.sections[4]);
    }
}
