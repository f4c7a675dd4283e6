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

/// How much of a kind's colour its [`Palette::ground`] keeps.
const GROUND: f32 = 0.32;

/// A colour's relative luminance (WCAG 2), its alpha ignored.
pub fn luminance(c: Color) -> f32 {
    let l = c.to_linear();
    0.2126 * l.red + 0.7152 * l.green + 0.0722 * l.blue
}

/// The contrast ratio of two colours (WCAG 2): 1 for the same, 21 for black on white. Text
/// needs 4.5, large text (24 pixels, or bold from 19) 3.
pub fn contrast(a: Color, b: Color) -> f32 {
    let (a, b) = (luminance(a), luminance(b));
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

/// The text colour that reads on `background`: black or white, whichever contrasts more.
pub fn ink_on(background: Color) -> Color {
    if contrast(Color::BLACK, background) > contrast(Color::WHITE, background) {
        Color::BLACK
    } else {
        Color::WHITE
    }
}

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

    /// The ground of text on a blueprint kind's colour (a card's head, the blueprint menu): the
    /// kind's colour darkened until white text and the refusal colour on it read (WCAG AA).
    pub fn ground(&self, kind: BlueprintKind) -> Color {
        let c = self.kind(kind).to_srgba();
        Color::srgb(c.red * GROUND, c.green * GROUND, c.blue * GROUND)
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

    /// `colour` laid over `below`, as its alpha blends it.
    fn over(colour: Color, below: Color) -> Color {
        let (c, b) = (colour.to_srgba(), below.to_srgba());
        let a = c.alpha;
        Color::srgb(
            c.red * a + b.red * (1.0 - a),
            c.green * a + b.green * (1.0 - a),
            c.blue * a + b.blue * (1.0 - a),
        )
    }

    /// Every text colour the client draws on each background it draws it on, with whether the
    /// text is large (WCAG: 24 pixels, or bold from 19), for both palettes. A background with
    /// alpha is checked over black and over white, the darkest and lightest world behind it.
    fn pairs(p: &Palette) -> Vec<(String, Color, Color, bool)> {
        use super::super::hud::BAR_RGB;
        use super::super::rich::{
            ADDED, BODY, ENERGY, FUEL, HULL, LABEL, MATERIALS, PRODUCTION, UNKNOWN, VALUE,
        };
        use super::super::run_map::{ROOM_KINDS, kind_colour};
        use super::super::tutorial::PANEL_BG;
        use super::super::ui::{
            BUTTON, BUTTON_HOVER, CARD, DISABLED, GOLD, MUTED, NOTICE, PANEL, PROBLEMS,
            PROBLEMS_TEXT, WARN, WHY,
        };
        let kinds = [
            BlueprintKind::Tower,
            BlueprintKind::Economic,
            BlueprintKind::Special,
            BlueprintKind::Ability,
        ];
        let bar = Color::srgb_u8(BAR_RGB[0], BAR_RGB[1], BAR_RGB[2]).with_alpha(0.9);
        let mut out = Vec::new();
        let mut add = |what: &str, text: Color, ground: Color, large: bool| {
            for below in [Color::BLACK, Color::WHITE] {
                out.push((what.to_string(), text, over(ground, below), large));
            }
        };
        for (name, text) in [("white", Color::WHITE), ("gold", GOLD), ("muted", MUTED)] {
            for (gname, ground) in [("screen", PANEL), ("HUD bar", bar), ("tutorial", PANEL_BG)] {
                add(&format!("{name} on the {gname}"), text, ground, false);
            }
        }
        for (name, text) in [("warning", WARN), ("notice", NOTICE)] {
            add(&format!("{name} on a screen"), text, PANEL, false);
            add(&format!("{name} on the HUD bar"), text, bar, false);
        }
        add("a button's text", Color::WHITE, BUTTON, false);
        add("a hovered button's text", Color::WHITE, BUTTON_HOVER, false);
        add("a greyed button's text", MUTED, DISABLED, false);
        add("why a button is greyed", WHY, DISABLED, false);
        add("mod problems", PROBLEMS_TEXT, PROBLEMS, false);
        // Descriptions and costs on cards and boxes.
        let rich = [
            ("body", BODY),
            ("a statistic's name", LABEL),
            ("a value", VALUE),
            ("production", PRODUCTION),
            ("an unknown tag", UNKNOWN),
            ("an added line", ADDED),
            ("materials", MATERIALS),
            ("energy", ENERGY),
            ("fuel", FUEL),
            ("hull", HULL),
            ("a better value", p.better),
            ("a worse value", p.worse),
            ("muted", MUTED),
            ("white", Color::WHITE),
        ];
        for (name, text) in rich {
            add(&format!("{name} on a card"), text, CARD, false);
        }
        // A card's head and the blueprint menu: names and costs on the kind's ground.
        for kind in kinds {
            let ground = p.ground(kind);
            add(&format!("a name on {kind:?}"), Color::WHITE, ground, false);
            add(
                &format!("an unaffordable cost on {kind:?}"),
                WARN,
                ground,
                false,
            );
        }
        // The run's map: room names, barriers' and keys' chips, in the ink that reads there.
        for kind in ROOM_KINDS {
            let room = kind_colour(kind);
            add(
                &format!("a {kind:?} room's name"),
                ink_on(room),
                room,
                false,
            );
        }
        for key in 0..8 {
            let chip = p.key(Key(key));
            add(&format!("key {key}'s chip"), ink_on(chip), chip, false);
        }
        out
    }

    #[test]
    fn text_contrasts_with_its_background_as_wcag_aa_asks() {
        for (name, p) in [
            ("standard", Palette::standard()),
            ("colour-blind", Palette::colour_blind()),
        ] {
            let failing: Vec<String> = pairs(&p)
                .into_iter()
                .filter_map(|(what, text, ground, large)| {
                    let ratio = contrast(text, ground);
                    let needed = if large { 3.0 } else { 4.5 };
                    (ratio < needed).then(|| format!("{what}: {ratio:.2} (needs {needed})"))
                })
                .collect();
            assert!(failing.is_empty(), "{name}:\n{}", failing.join("\n"));
        }
    }

    #[test]
    fn contrast_is_as_wcag_defines_it() {
        assert!((contrast(Color::BLACK, Color::WHITE) - 21.0).abs() < 1e-3);
        let gold = Color::srgb(0.95, 0.8, 0.35);
        assert!((contrast(gold, gold) - 1.0).abs() < 1e-6);
        // WCAG's own example: #777 on white is 4.48, just short of AA.
        let grey = Color::srgb_u8(0x77, 0x77, 0x77);
        assert!((contrast(grey, Color::WHITE) - 4.48).abs() < 0.01);
        assert_eq!(ink_on(Color::srgb(0.9, 0.8, 0.2)), Color::BLACK);
        assert_eq!(ink_on(Color::srgb(0.3, 0.1, 0.1)), Color::WHITE);
    }

    #[test]
    fn sections_take_their_power_of_ten() {
        let p = Palette::standard();
        assert_eq!(p.section(1.0), p.sections[0]);
        assert_eq!(p.section(100.0), p.sections[2]);
        assert_eq!(p.section(1e6), p.sections[4]);
    }
}
