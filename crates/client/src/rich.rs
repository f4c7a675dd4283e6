//! Descriptions on screen (thesis 2.5.7, 3.11.2): a [`RichText`] becomes rows of words and icons.
//! Values are coloured by how they compare with the unmodified content (green better, red
//! worse, or the colour-blind palette's pair), statistic names are muted, lines something added are orange, and icons are the
//! pictures of the mods' `icons/` folders (a word in their colour where a mod has none).

use std::collections::HashMap;
use std::path::Path;

use bevy::image::{CompressedImageFormats, ImageSampler, ImageType};
use bevy::prelude::*;

use super::palette::Palette;
use super::{ClientSet, Content};
use rampart_core::content::describe::{RichText, Span};
use rampart_core::content::description::Icon;

/// Loads the mods' icons, again whenever the content is replaced (hot reload, a mod switched).
pub struct IconsPlugin;

impl Plugin for IconsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Icons>().add_systems(
            Update,
            load_icons
                .in_set(ClientSet::Simulate)
                .run_if(resource_changed::<Content>),
        );
    }
}

/// The icons of every loaded mod by name (`icons/fuel.png` is `fuel`; a later mod's replaces
/// an earlier one's), the blueprints' and attacker types' own icons (their `icon` field) and the
/// icons `effects.ron` gives mods' own effects.
#[derive(Resource, Default)]
pub struct Icons(pub HashMap<String, Handle<Image>>);

impl Icons {
    /// The picture of `name`, if a mod has one.
    pub fn get(&self, name: &str) -> Option<Handle<Image>> {
        self.0.get(name).cloned()
    }

    /// The name a blueprint's own `icon` is kept under.
    pub fn blueprint(id: &str) -> String {
        format!("blueprint {id}")
    }

    /// The name an attacker type's own `icon` is kept under.
    pub fn attacker(id: &str) -> String {
        format!("attacker {id}")
    }

    /// The picture of status effect `name`'s badge: the icon its mod's `effects.ron` declares,
    /// else the `effect-<name>` of the icons folders (a colon written `-`).
    pub fn of_effect(&self, name: &str) -> Option<Handle<Image>> {
        self.get(&Icons::effect(name))
            .or_else(|| self.get(&format!("effect-{}", name.replace(':', "-"))))
    }

    /// The name an effect's icon declared in `effects.ron` is kept under.
    fn effect(name: &str) -> String {
        format!("effect {name}")
    }
}

fn load_icons(content: Res<Content>, mut icons: ResMut<Icons>, mut images: ResMut<Assets<Image>>) {
    let db = &content.db;
    // A mod switched off takes its pictures with it; pictures still on screen stay until
    // their nodes go (they hold their own handles).
    icons.0.clear();
    let mut add = |name: String, mod_id: &str, path: &Path| match read_png(path) {
        Ok(image) => {
            icons.0.insert(name, images.add(image));
        }
        Err(why) => warn!("[{mod_id}] {}: {why}", path.display()),
    };
    for m in &db.mods {
        let Ok(files) = std::fs::read_dir(m.root.join("icons")) else {
            continue;
        };
        let mut files: Vec<_> = files.filter_map(Result::ok).map(|e| e.path()).collect();
        files.sort();
        for path in files {
            if path.extension().is_some_and(|e| e == "png")
                && let Some(name) = path.file_stem().map(|s| s.to_string_lossy().into_owned())
            {
                add(name, &m.id, &path);
            }
        }
    }
    // A blueprint's or attacker type's own `icon`, a path inside the mod that names it, and
    // the icons of `effects.ron`, inside the mod that declares them.
    let owned = db
        .blueprints
        .iter()
        .map(|b| (Icons::blueprint(&b.id), &b.id, &b.icon))
        .chain(
            db.attackers
                .iter()
                .map(|a| (Icons::attacker(&a.id), &a.id, &a.icon)),
        )
        .filter_map(|(name, id, icon)| Some((name, id.split_once(':')?.0, icon)))
        .chain(
            db.effect_looks
                .iter()
                .map(|l| (Icons::effect(&l.name), l.mod_id.as_str(), &l.icon)),
        );
    for (name, mod_id, icon) in owned {
        let Some(icon) = icon else {
            continue;
        };
        if let Some(m) = db.mods.iter().find(|m| m.id == mod_id) {
            add(name, mod_id, &m.root.join(icon));
        }
    }
}

/// Reads a PNG file into an image.
fn read_png(path: &Path) -> Result<Image, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    Image::from_buffer(
        &bytes,
        ImageType::Extension("png"),
        CompressedImageFormats::NONE,
        true,
        ImageSampler::linear(),
        bevy::asset::RenderAssetUsages::default(),
    )
    .map_err(|e| format!("not a PNG image ({e})"))
}

/// The icon file name of a description icon.
pub fn icon_name(icon: Icon) -> String {
    match icon {
        Icon::Fuel => "fuel".into(),
        Icon::Materials => "materials".into(),
        Icon::Energy => "energy".into(),
        Icon::Hull => "hull".into(),
        Icon::Range => "range".into(),
        Icon::Damage => "damage".into(),
        Icon::Interval => "interval".into(),
        Icon::Duration => "duration".into(),
        Icon::Hp => "hp".into(),
        Icon::Radius => "radius".into(),
        Icon::Production => "production".into(),
        Icon::DamageType(d) => format!("damage-{}", d.name()),
    }
}

/// A piece of a description: text in a colour, an icon, or the end of a line.
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// Text in a colour.
    Text(String, Color),
    /// An icon (a word in its colour where no mod has its picture).
    Icon(Icon),
    /// The end of a line; `true` leaves a gap before the next.
    Break(bool),
}

/// Text without colours of its own.
pub fn plain(text: impl Into<String>) -> Piece {
    Piece::Text(text.into(), BODY)
}

/// The body text's colour.
pub const BODY: Color = Color::srgb(0.9, 0.9, 0.92);
pub(crate) const LABEL: Color = Color::srgb(0.6, 0.66, 0.78);
pub(crate) const VALUE: Color = Color::srgb(1.0, 0.95, 0.75);
/// The sign of production where no mod has its icon.
pub(crate) const PRODUCTION: Color = Color::srgb(0.45, 0.95, 0.45);
pub(crate) const UNKNOWN: Color = Color::srgb(1.0, 0.6, 0.2);
/// A description line something added (an upgrade, a neighbour's bonus), thesis 2.5.7.
pub const ADDED: Color = Color::srgb(1.0, 0.62, 0.2);
/// Materials' colour, here and in the HUD.
pub const MATERIALS: Color = Color::srgb(1.0, 0.7, 0.35);
/// Energy's colour, here and in the HUD.
pub const ENERGY: Color = Color::srgb(0.45, 0.7, 1.0);
pub(crate) const FUEL: Color = Color::srgb(0.95, 0.85, 0.4);
pub(crate) const HULL: Color = Color::srgb(0.95, 0.35, 0.3);

/// The pieces that show `text`, values in `palette`'s better and worse colours.
pub fn pieces(text: &RichText, palette: &Palette) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    for (i, line) in text.lines.iter().enumerate() {
        if i > 0 {
            out.push(Piece::Break(line.gap_before));
        }
        let body = if line.added { ADDED } else { BODY };
        for span in &line.spans {
            out.push(match span {
                Span::Text(t) => Piece::Text(t.clone(), body),
                Span::Unknown(t) => Piece::Text(t.clone(), UNKNOWN),
                Span::Label(l) => Piece::Text(format!("{l} "), LABEL),
                Span::Value { text, quality } => {
                    Piece::Text(text.clone(), palette.quality(*quality, VALUE))
                }
                Span::Icon(icon) => Piece::Icon(*icon),
            });
        }
    }
    out
}

/// An icon as a word in its colour, where no mod has its picture.
fn icon_word(icon: Icon) -> (String, Color) {
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
        Icon::Production => ("+", PRODUCTION),
        Icon::DamageType(d) => return (format!("{d} "), UNKNOWN),
    };
    (word.into(), colour)
}

/// Marks a description whose content [`show`] replaces.
#[derive(Component, Default, PartialEq)]
pub struct Shown(pub Vec<Piece>);

/// A column node that holds a description: give it [`Shown`] and call [`show`].
pub fn column() -> Node {
    Node {
        flex_direction: FlexDirection::Column,
        row_gap: Val::Px(2.0),
        ..default()
    }
}

/// Replaces the description under `entity` (a [`column`]) with `pieces`, if they changed.
pub fn show(
    commands: &mut Commands,
    entity: Entity,
    shown: &mut Shown,
    pieces: Vec<Piece>,
    size: f32,
    icons: &Icons,
) {
    if shown.0 == pieces {
        return;
    }
    let mut e = commands.entity(entity);
    e.despawn_children();
    e.with_children(|c| spawn_pieces(c, &pieces, size, icons));
    shown.0 = pieces;
}

/// Lays `pieces` out under `parent`: each line a row that wraps between words, words as text,
/// icons as pictures the height of the text.
pub fn spawn_pieces(parent: &mut ChildSpawnerCommands, pieces: &[Piece], size: f32, icons: &Icons) {
    let mut lines: Vec<(bool, Vec<&Piece>)> = vec![(false, Vec::new())];
    for piece in pieces {
        match piece {
            Piece::Break(gap) => lines.push((*gap, Vec::new())),
            p => lines.last_mut().expect("one line at least").1.push(p),
        }
    }
    for (gap, line) in lines {
        let mut row = parent.spawn((
            Node {
                flex_wrap: FlexWrap::Wrap,
                align_items: AlignItems::Center,
                margin: UiRect::top(Val::Px(if gap { size * 0.6 } else { 0.0 })),
                min_height: Val::Px(size),
                ..default()
            },
            Pickable::IGNORE,
        ));
        row.with_children(|r| {
            let mut word = Word::default();
            for piece in line {
                match piece {
                    Piece::Icon(icon) => match icons.get(&icon_name(*icon)) {
                        Some(image) => {
                            word.finish(r, size);
                            r.spawn((
                                ImageNode::new(image),
                                Node {
                                    width: Val::Px(size * 1.15),
                                    height: Val::Px(size * 1.15),
                                    margin: UiRect::right(Val::Px(size * 0.25)),
                                    ..default()
                                },
                                Pickable::IGNORE,
                            ));
                        }
                        None => {
                            let (text, colour) = icon_word(*icon);
                            word.add(r, &text, colour, size);
                        }
                    },
                    Piece::Text(text, colour) => word.add(r, text, *colour, size),
                    Piece::Break(_) => {}
                }
            }
            word.finish(r, size);
        });
    }
}

/// The word being gathered, in its coloured parts: a word may run on from one piece into the
/// next (a value and the full stop after it), and stays one text so that it wraps as one.
/// Punctuation after a space (an icon's word, then ", …") joins the word before it, so that it
/// never starts a line of its own.
#[derive(Default)]
struct Word {
    parts: Vec<(String, Color)>,
    /// A space followed the word: it is done, unless punctuation comes next.
    spaced: bool,
}

impl Word {
    /// Adds `text` in `colour`: each word a space ends is spawned under `parent` once the next
    /// one starts.
    fn add(&mut self, parent: &mut ChildSpawnerCommands, text: &str, colour: Color, size: f32) {
        for (i, part) in text.split(' ').enumerate() {
            if i > 0 {
                self.spaced = !self.parts.is_empty();
            }
            if part.is_empty() {
                continue;
            }
            if self.spaced && !part.chars().all(|c| ".,;:!?)".contains(c)) {
                self.finish(parent, size);
            }
            self.spaced = false;
            self.parts.push((part.to_string(), colour));
        }
    }

    /// Spawns the word gathered so far, if any, with the space after it if one came.
    fn finish(&mut self, parent: &mut ChildSpawnerCommands, size: f32) {
        let space = self.spaced;
        self.spaced = false;
        self.spawn(parent, space, size);
    }

    /// Spawns the word gathered so far as one text, its parts as spans; the space after it, if
    /// `space`, is a margin (text layout would drop it at the end of a node).
    fn spawn(&mut self, parent: &mut ChildSpawnerCommands, space: bool, size: f32) {
        let mut parts = std::mem::take(&mut self.parts).into_iter();
        let Some((first, colour)) = parts.next() else {
            return;
        };
        parent
            .spawn((
                Text::new(first),
                TextFont::from_font_size(size),
                TextColor(colour),
                Node {
                    margin: UiRect::right(Val::Px(if space { size * 0.28 } else { 0.0 })),
                    ..default()
                },
                Pickable::IGNORE,
            ))
            .with_children(|spans| {
                for (text, colour) in parts {
                    spans.spawn((
                        TextSpan::new(text),
                        TextFont::from_font_size(size),
                        TextColor(colour),
                    ));
                }
            });
    }
}
