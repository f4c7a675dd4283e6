//! Descriptions on screen: a [`RichText`] becomes coloured text spans. Values are coloured by
//! how they compare with the unmodified content (green better, red worse), statistic names are
//! muted, and icons become the word or sign they stand for, since the UI font has no pictures.

use bevy::prelude::*;

use crate::content::describe::{Quality, RichText, Span};
use crate::content::description::Icon;

/// A piece of text and its colour.
pub type Piece = (String, Color);

/// The body text's colour.
pub const BODY: Color = Color::srgb(0.9, 0.9, 0.92);
const LABEL: Color = Color::srgb(0.6, 0.66, 0.78);
const VALUE: Color = Color::srgb(1.0, 0.95, 0.75);
const BETTER: Color = Color::srgb(0.45, 0.95, 0.45);
const WORSE: Color = Color::srgb(1.0, 0.4, 0.35);
const UNKNOWN: Color = Color::srgb(1.0, 0.6, 0.2);
/// Materials' colour, here and in the HUD.
pub const MATERIALS: Color = Color::srgb(1.0, 0.7, 0.35);
/// Energy's colour, here and in the HUD.
pub const ENERGY: Color = Color::srgb(0.45, 0.7, 1.0);
const FUEL: Color = Color::srgb(0.95, 0.85, 0.4);
const HULL: Color = Color::srgb(0.95, 0.35, 0.3);

/// The pieces that show `text`, lines separated by newlines.
pub fn pieces(text: &RichText) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    for (i, line) in text.lines.iter().enumerate() {
        if i > 0 {
            out.push((if line.gap_before { "\n\n" } else { "\n" }.into(), BODY));
        }
        let mut after_label = false;
        for span in &line.spans {
            let piece = match span {
                Span::Text(t) => (t.clone(), BODY),
                Span::Unknown(t) => (t.clone(), UNKNOWN),
                Span::Label(l) => (format!("{l} "), LABEL),
                Span::Value { text, quality } => (
                    text.clone(),
                    match quality {
                        Quality::Better => BETTER,
                        Quality::Worse => WORSE,
                        Quality::Unchanged => VALUE,
                    },
                ),
                // A statistic's icon right after its name would only repeat it.
                Span::Icon(icon) if after_label && is_stat(*icon) => {
                    after_label = false;
                    continue;
                }
                Span::Icon(icon) => icon_piece(*icon),
            };
            after_label = matches!(span, Span::Label(_));
            out.push(piece);
        }
    }
    out
}

/// Whether `icon` stands for a statistic that has a name label.
fn is_stat(icon: Icon) -> bool {
    matches!(
        icon,
        Icon::Range | Icon::Damage | Icon::Interval | Icon::Duration | Icon::Hp | Icon::Radius
    )
}

/// An icon as a word in its colour.
fn icon_piece(icon: Icon) -> Piece {
    let (word, colour) = match icon {
        Icon::Fuel => ("fuel ", FUEL),
        Icon::Materials => ("materials ", MATERIALS),
        Icon::Energy => ("energy ", ENERGY),
        Icon::Hull => ("hull ", HULL),
        Icon::Range => ("range ", LABEL),
        Icon::Damage => ("damage ", LABEL),
        Icon::Interval => ("interval ", LABEL),
        Icon::Duration => ("duration ", LABEL),
        Icon::Hp => ("HP ", LABEL),
        Icon::Radius => ("radius ", LABEL),
        Icon::Production => ("+", BETTER),
        Icon::DamageType(d) => return (format!("{d} "), UNKNOWN),
    };
    (word.into(), colour)
}

/// Marks a text whose spans [`show`] replaces.
#[derive(Component, Default, PartialEq)]
pub struct Shown(pub Vec<Piece>);

/// Replaces the spans under the text `entity` with `pieces`, if they changed.
pub fn show(
    commands: &mut Commands,
    entity: Entity,
    shown: &mut Shown,
    pieces: Vec<Piece>,
    size: f32,
) {
    if shown.0 == pieces {
        return;
    }
    let mut e = commands.entity(entity);
    e.despawn_children();
    e.with_children(|c| {
        for (text, colour) in &pieces {
            c.spawn((
                TextSpan::new(text.clone()),
                TextFont::from_font_size(size),
                TextColor(*colour),
            ));
        }
    });
    shown.0 = pieces;
}
