//! Blueprints as cards (thesis 2.5.5, 4.3.2–4.3.3), wherever a player chooses one: the reward
//! screen, the run settings' blueprints, the shop and the replace-when-full choice. A card shows
//! the name on the kind's colour, the rarity, the cost, the displayed stats and the description —
//! the same text as the info panel, with a blueprint's augments applied and named, in the
//! better/worse colours — and, while the cursor is on it, the shape of its range from above.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use glam::{DVec2, DVec3};

use super::models::icons::icon;
use super::palette::Palette;
use super::rich::{self, Icons};
use super::ui::{Action, CARD, OwnColour, label, scroll_area, wrapping_row};
use super::{ClientSet, Screen};
use rampart_core::battle::BlueprintView;
use rampart_core::battle::shape::{Frame, contains};
use rampart_core::content::{Behaviour, Blueprint, ContentDb, Cost};
use rampart_core::run::Run;

/// Shows a card's range while the cursor is on it.
pub struct CardsPlugin;

impl Plugin for CardsPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            show_range
                .in_set(ClientSet::Present)
                .run_if(not(in_state(Screen::Battle))),
        );
    }
}

/// A card's range picture, shown while its card is hovered.
#[derive(Component)]
struct RangePicture;

/// Tiles shown on each side of the blueprint in a range picture.
const RANGE_TILES: f64 = 5.0;
/// Pixels per tile of a range picture.
const RANGE_PIXELS: u32 = 10;

/// The cost as words: `10 materials`, `20 energy`, `40 materials, 10 energy`, `free`.
pub fn cost_text(cost: Cost) -> String {
    match (cost.materials > 0.0, cost.energy > 0.0) {
        (true, true) => format!("{:.0} materials, {:.0} energy", cost.materials, cost.energy),
        (true, false) => format!("{:.0} materials", cost.materials),
        (false, true) => format!("{:.0} energy", cost.energy),
        (false, false) => "free".into(),
    }
}

/// A blueprint as a card shows it: its content and its values, augmented or not.
pub struct Card {
    /// The blueprint.
    pub bp: Blueprint,
    /// Its text and cost as the card shows them.
    pub view: BlueprintView,
}

impl Card {
    /// Blueprint `id` with `augments` on it (`mod:name`, in the order taken), values asked of
    /// the battle rules; `None` for a blueprint no loaded mod has.
    pub fn of(content: &std::sync::Arc<ContentDb>, id: &str, augments: &[String]) -> Option<Card> {
        let bp = content.blueprint(content.blueprint_id(id)?).clone();
        let view = BlueprintView::with_augments(content, id, augments)?;
        Some(Card { bp, view })
    }

    /// `bp` as its content describes it.
    pub fn plain(bp: &Blueprint) -> Card {
        Card {
            bp: bp.clone(),
            view: BlueprintView::unmodified(bp),
        }
    }
}

/// What drawing cards takes besides the cards: the images their range pictures go into, the
/// mods' icons and the palette.
pub struct CardLooks<'a> {
    /// Where a card's range picture is added.
    pub images: &'a mut Assets<Image>,
    /// The mods' icons.
    pub icons: &'a Icons,
    /// The colours of kinds and better or worse values.
    pub palette: &'a Palette,
}

/// Spawns `card` under `parent`; clicking it does `action`. A `chosen` card has a white border.
pub fn spawn_card(
    parent: &mut ChildSpawnerCommands,
    looks: &mut CardLooks,
    card: &Card,
    action: Action,
    chosen: bool,
    width: f32,
) {
    let CardLooks {
        images,
        icons,
        palette,
    } = looks;
    let (bp, view) = (&card.bp, &card.view);
    let range = range_picture(bp).map(|i| images.add(i));
    parent
        .spawn((
            Button,
            action,
            OwnColour,
            Node {
                width: Val::Px(width),
                flex_direction: FlexDirection::Column,
                border: UiRect::all(Val::Px(2.0)),
                ..default()
            },
            BackgroundColor(CARD),
            BorderColor::all(if chosen {
                Color::WHITE
            } else {
                palette.kind(bp.kind)
            }),
        ))
        .with_children(|card| {
            card.spawn((
                Node {
                    padding: UiRect::all(Val::Px(6.0)),
                    column_gap: Val::Px(6.0),
                    align_items: AlignItems::Center,
                    ..default()
                },
                BackgroundColor(palette.ground(bp.kind)),
                Pickable::IGNORE,
            ))
            .with_children(|head| {
                // The blueprint's icon: its mod's picture, else its model's (`models/icons.rs`).
                if let Some(image) = icons.get(&Icons::blueprint(&bp.id)) {
                    head.spawn((icon(Some(image), 32.0), Pickable::IGNORE));
                }
                head.spawn((
                    Node {
                        flex_direction: FlexDirection::Column,
                        ..default()
                    },
                    Pickable::IGNORE,
                ))
                .with_children(|names| {
                    names.spawn((label(bp.name.clone(), 17.0, Color::WHITE), Pickable::IGNORE));
                    names.spawn((
                        label(
                            format!("{} {}", bp.rarity.name(), bp.kind.name()),
                            12.0,
                            Color::srgba(1.0, 1.0, 1.0, 0.8),
                        ),
                        Pickable::IGNORE,
                    ));
                });
            });
            card.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    padding: UiRect::all(Val::Px(6.0)),
                    row_gap: Val::Px(4.0),
                    ..default()
                },
                Pickable::IGNORE,
            ))
            .with_children(|body| {
                let cost_colour = palette.quality(view.cost_quality, rich::MATERIALS);
                body.spawn((
                    label(cost_text(view.cost), 14.0, cost_colour),
                    Pickable::IGNORE,
                ));
                body.spawn((rich::column(), Pickable::IGNORE))
                    .with_children(|t| {
                        rich::spawn_pieces(t, &rich::pieces(&view.text, palette), 12.0, icons)
                    });
                if let Some(image) = range {
                    // A tooltip hanging under the card: showing it moves no other card.
                    body.spawn((
                        RangePicture,
                        ImageNode::new(image),
                        Node {
                            position_type: PositionType::Absolute,
                            top: Val::Percent(100.0),
                            left: Val::Px(0.0),
                            width: Val::Px((2.0 * RANGE_TILES) as f32 * RANGE_PIXELS as f32),
                            height: Val::Px((2.0 * RANGE_TILES) as f32 * RANGE_PIXELS as f32),
                            border: UiRect::all(Val::Px(2.0)),
                            display: Display::None,
                            ..default()
                        },
                        BorderColor::all(Color::WHITE),
                        GlobalZIndex(20),
                        Pickable::IGNORE,
                    ));
                }
            });
        });
}

/// The run's collection as cards, with their augments, each with its slot (a blueprint no loaded
/// mod has is left out).
pub fn collection_cards(content: &std::sync::Arc<ContentDb>, run: &Run) -> Vec<(usize, Card)> {
    run.collection()
        .iter()
        .enumerate()
        .filter_map(|(i, id)| Some((i, Card::of(content, id, run.augments_of(id))?)))
        .collect()
}

/// The run's collection as `cards` under `parent` (in a scrolling, wrapping row): clicking one
/// gives its slot up for what waits for a place (a reward, a shop's blueprint or removal).
pub fn spawn_collection(
    parent: &mut ChildSpawnerCommands,
    looks: &mut CardLooks,
    cards: &[(usize, Card)],
) {
    parent.spawn(scroll_area(230.0)).with_children(|area| {
        area.spawn(wrapping_row()).with_children(|row| {
            for (i, card) in cards {
                spawn_card(row, looks, card, Action::Replace(*i), false, 180.0);
            }
        });
    });
}

/// A picture from above of where `bp` reaches, on flat ground, facing north: the range shape of
/// a tower, the disc of a radius. `None` for blueprints that reach nowhere.
pub fn range_picture(bp: &Blueprint) -> Option<Image> {
    let side = (2.0 * RANGE_TILES) as u32 * RANGE_PIXELS;
    let inside: Box<dyn Fn(DVec2) -> bool> = match &bp.behaviour {
        Some(Behaviour::Shooter(shooter)) => {
            let frame = Frame {
                muzzle: DVec3::new(0.0, 0.0, shooter.muzzle_height),
                facing: Frame::facing_of(0),
                range: bp.range.unwrap_or(0.0),
            };
            let shape = shooter.shape.clone();
            let height = shooter.muzzle_height;
            Box::new(move |p: DVec2| contains(&shape, &frame, p.extend(height)))
        }
        _ => {
            let r = bp.radius.or(bp.range)?;
            Box::new(move |p: DVec2| p.length() <= r)
        }
    };
    let mut data = Vec::with_capacity((side * side * 4) as usize);
    for row in 0..side {
        for column in 0..side {
            let at = |v: u32| (f64::from(v) + 0.5) / f64::from(RANGE_PIXELS) - RANGE_TILES;
            // Rows run from the north (top) down.
            let p = DVec2::new(at(column), -at(row));
            let tile_edge = (column % RANGE_PIXELS == 0) || (row % RANGE_PIXELS == 0);
            let centre = p.x.abs() < 0.5 && p.y.abs() < 0.5;
            let rgba = if centre {
                [70, 110, 220, 255]
            } else if inside(p) {
                [70, 200, 90, 255]
            } else if tile_edge {
                [45, 48, 58, 255]
            } else {
                [28, 30, 38, 255]
            };
            data.extend_from_slice(&rgba);
        }
    }
    Some(Image::new(
        Extent3d {
            width: side,
            height: side,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    ))
}

/// Shows the range picture of the card under the cursor and hides the others.
fn show_range(
    cards: Query<(&Interaction, &Children), (With<Button>, Changed<Interaction>)>,
    bodies: Query<&Children>,
    mut pictures: Query<&mut Node, With<RangePicture>>,
) {
    for (interaction, children) in &cards {
        let display = if *interaction == Interaction::None {
            Display::None
        } else {
            Display::Flex
        };
        for child in children.iter() {
            for grandchild in bodies.get(child).into_iter().flatten() {
                if let Ok(mut node) = pictures.get_mut(*grandchild) {
                    node.display = display;
                }
            }
        }
    }
}
