//! The map screen between battles: the act's rooms as rectangles scaled to fit the window,
//! coloured and named by kind, doors as connectors between rooms that share one, a barrier on the
//! room it bars (its kind and key, in the key's colour), a key drop on the room that yields it,
//! the rooms entered numbered in the order they were entered, the current room outlined in
//! white and the rooms open now (`Run::choices`) outlined in gold and clickable. A header says
//! the act, level, hull, money and keys held; hovering a room says what it holds.

use bevy::prelude::*;

use super::palette::{Palette, ink_on};
use super::session::{Game, NoticeLine};
use super::ui::{Action, GOLD, MUTED, NOTICE, OwnColour, PANEL, button, label};
use super::{ClientSet, Content, Screen};
use rampart_core::content::acts::NodeKind;
use rampart_core::mapgen::{self, ActMap, BarrierKind, Node as Room, NodeId, Rect};
use rampart_core::run::Run;

/// Builds and keeps the map screen.
pub struct RunMapPlugin;

impl Plugin for RunMapPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnEnter(Screen::Map), spawn_map)
            .add_systems(
                Update,
                (draw_rooms, show_room_info)
                    .chain()
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::Map)),
            );
    }
}

/// The area the rooms are drawn in, and the size (logical pixels) they were drawn for: drawn
/// again when the window's size changes it.
#[derive(Component)]
pub(crate) struct Canvas {
    drawn_for: Vec2,
}

/// What hovering a room says about it.
#[derive(Component)]
struct RoomInfo(String);

/// The line under the map that says what the hovered room holds.
#[derive(Component)]
struct InfoLine;

/// What the info line says while no room is hovered.
const HINT: &str = "Click a room outlined in gold to enter it; hover a room to see what it holds";
/// The most pixels a base room unit takes, so a small map is not drawn huge.
const MAX_UNIT: f32 = 110.0;
/// The walls between rooms and the doors' colour when nobody went through them.
const DOOR: Color = Color::srgb(0.78, 0.78, 0.74);

/// Every kind of room, in the legend's order.
pub(crate) const ROOM_KINDS: [NodeKind; 7] = [
    NodeKind::Start,
    NodeKind::Battle,
    NodeKind::Elite,
    NodeKind::Shop,
    NodeKind::Event,
    NodeKind::Rest,
    NodeKind::Boss,
];

/// A kind's colour on the map: the one `rampart map --png` draws it in.
pub fn kind_colour(kind: NodeKind) -> Color {
    let [r, g, b] = mapgen::kind_colour(kind);
    Color::srgb_u8(r, g, b)
}

/// A kind's name as the map writes it: `Battle`, `Elite`, …
fn kind_name(kind: NodeKind) -> String {
    format!("{kind:?}")
}

/// A barrier kind's name with a capital: `Locked`, `Guarded`, `Puzzle`.
fn barrier_name(kind: BarrierKind) -> String {
    format!("{kind:?}")
}

/// The middle of the wall rooms `a` and `b` share, in base units, if they share one.
fn door_point(a: &Rect, b: &Rect) -> Option<Vec2> {
    a.door_point(b).map(|(x, y)| Vec2::new(x as f32, y as f32))
}

/// How the map's base units fall on a canvas: the top-left unit, the pixels per unit and where
/// the map's top-left corner is drawn, so the map is centred and fits.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// The map's top-left corner, in base units.
    pub origin: IVec2,
    /// Pixels per base unit.
    pub unit: f32,
    /// Where the corner is drawn, in pixels from the canvas's top left.
    pub offset: Vec2,
}

impl Fit {
    /// The fit of `rects` on a canvas of `size` pixels.
    pub fn new(rects: &[Rect], size: Vec2) -> Fit {
        let lo = IVec2::new(
            rects.iter().map(|r| r.x).min().unwrap_or(0),
            rects.iter().map(|r| r.y).min().unwrap_or(0),
        );
        let hi = IVec2::new(
            rects.iter().map(|r| r.x + r.w).max().unwrap_or(1),
            rects.iter().map(|r| r.y + r.h).max().unwrap_or(1),
        );
        let span = (hi - lo).max(IVec2::ONE).as_vec2();
        let unit = (size.x / span.x).min(size.y / span.y).min(MAX_UNIT);
        Fit {
            origin: lo,
            unit,
            offset: (size - span * unit) / 2.0,
        }
    }

    /// A point in base units, in pixels on the canvas.
    pub fn point(&self, at: Vec2) -> Vec2 {
        self.offset + (at - self.origin.as_vec2()) * self.unit
    }
}

pub(crate) fn spawn_map(
    mut commands: Commands,
    game: NonSend<Game>,
    content: Res<Content>,
    palette: Res<Palette>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let run = &session.run;
    let acts = Run::acts(&content.db).unwrap_or(run.act());
    let max_hull = run.max_hull(&content.db).unwrap_or(run.hull());
    let root = commands
        .spawn((
            Node {
                width: Val::Percent(100.0),
                height: Val::Percent(100.0),
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(Val::Px(10.0)),
                row_gap: Val::Px(6.0),
                ..default()
            },
            BackgroundColor(PANEL),
            DespawnOnExit(Screen::Map),
        ))
        .id();
    commands.entity(root).with_children(|c| {
        c.spawn(Node {
            align_items: AlignItems::Center,
            column_gap: Val::Px(22.0),
            ..default()
        })
        .with_children(|head| {
            head.spawn(label(format!("Act {} of {acts}", run.act()), 30.0, GOLD));
            head.spawn(label(format!("Level {}", run.level()), 20.0, Color::WHITE));
            head.spawn(label(
                format!("Hull {:.0} / {max_hull:.0}", run.hull()),
                20.0,
                Color::srgb(1.0, 0.55, 0.5),
            ));
            head.spawn(label(format!("Money {}", run.money()), 20.0, GOLD));
            head.spawn(label(
                format!("{:?}, ascension {}", run.difficulty(), run.ascension()),
                16.0,
                MUTED,
            ));
            head.spawn(Node {
                align_items: AlignItems::Center,
                column_gap: Val::Px(6.0),
                ..default()
            })
            .with_children(|keys| {
                keys.spawn(label("Keys", 20.0, Color::WHITE));
                if run.map().held().is_empty() {
                    keys.spawn(label("none", 16.0, MUTED));
                }
                for &key in run.map().held() {
                    keys.spawn(chip(key.to_string(), palette.key(key), 14.0, false));
                }
            });
            head.spawn(Node {
                flex_grow: 1.0,
                ..default()
            });
            head.spawn(button("Menu", Action::ToMenu));
        });
        c.spawn((
            Canvas {
                drawn_for: Vec2::ZERO,
            },
            Node {
                width: Val::Percent(100.0),
                flex_grow: 1.0,
                ..default()
            },
        ));
        // Lines of fixed height: a notice coming or going does not redraw the map.
        let line = || Node {
            height: Val::Px(22.0),
            ..default()
        };
        c.spawn((InfoLine, label(HINT, 16.0, Color::WHITE), line()));
        c.spawn((NoticeLine, label("", 16.0, NOTICE), line()));
        c.spawn(Node {
            align_items: AlignItems::Center,
            column_gap: Val::Px(10.0),
            ..default()
        })
        .with_children(|legend| {
            for kind in ROOM_KINDS {
                legend.spawn((
                    Node {
                        width: Val::Px(14.0),
                        height: Val::Px(14.0),
                        ..default()
                    },
                    BackgroundColor(kind_colour(kind)),
                ));
                legend.spawn(label(kind_name(kind), 14.0, MUTED));
            }
            legend.spawn(label(
                "   #n: entered n-th   white: you are here   gold: open   dim: barred",
                14.0,
                MUTED,
            ));
        });
    });
}

/// Draws the rooms and doors into the canvas once its size is known, and again when it changes.
pub(crate) fn draw_rooms(
    mut commands: Commands,
    game: NonSend<Game>,
    content: Res<Content>,
    palette: Res<Palette>,
    mut canvases: Query<(Entity, &mut Canvas, &ComputedNode)>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    for (entity, mut canvas, computed) in &mut canvases {
        let size = computed.size() * computed.inverse_scale_factor();
        if size.x < 1.0 || size.y < 1.0 || (size - canvas.drawn_for).abs().max_element() < 1.0 {
            continue;
        }
        canvas.drawn_for = size;
        commands.entity(entity).despawn_related::<Children>();
        let map = session.run.map();
        let rects: Vec<Rect> = map.nodes().iter().map(|n| n.rect).collect();
        let fit = Fit::new(&rects, size);
        let choices = session.run.choices();
        commands.entity(entity).with_children(|c| {
            for room in map.nodes() {
                let open = choices.contains(&room.id);
                let info = room_info(map, room, open, &content);
                spawn_room(c, room, map.current(), open, info, &fit, &palette);
            }
            // Doors after the rooms, so they are drawn over the walls.
            for room in map.nodes() {
                for &other in room.doors.iter().filter(|&&d| d > room.id) {
                    if let Some(other) = map.node(other) {
                        spawn_door(c, room, other, &fit, &palette);
                    }
                }
            }
        });
    }
}

/// One room: its rectangle in its kind's colour, its name, its barrier and key drop, the order
/// it was entered in; a button when it is open.
pub(crate) fn spawn_room(
    parent: &mut ChildSpawnerCommands,
    room: &Room,
    current: NodeId,
    open: bool,
    info: String,
    fit: &Fit,
    palette: &Palette,
) {
    let r = room.rect;
    let gap = (fit.unit * 0.07).max(2.0);
    let at = fit.point(Vec2::new(r.x as f32, r.y as f32));
    let size = Vec2::new(r.w as f32, r.h as f32) * fit.unit - 2.0 * gap;
    let text = (fit.unit * 0.2).clamp(10.0, 18.0);
    let small = (fit.unit * 0.14).clamp(9.0, 13.0);
    let barred = room.entered.is_none() && !open;
    let colour = kind_colour(room.kind);
    let border = if room.id == current {
        Color::WHITE
    } else if open {
        GOLD
    } else {
        Color::NONE
    };
    let mut node = parent.spawn((
        Button,
        OwnColour,
        RoomInfo(info),
        Node {
            position_type: PositionType::Absolute,
            left: Val::Px(at.x + gap),
            top: Val::Px(at.y + gap),
            width: Val::Px(size.x),
            height: Val::Px(size.y),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            row_gap: Val::Px(2.0),
            border: UiRect::all(Val::Px(3.0)),
            // What still does not fit a tiny room is cut at its walls, not drawn over others.
            overflow: Overflow::clip(),
            ..default()
        },
        // A room that cannot be entered yet is drawn dim.
        BackgroundColor(if barred {
            colour.with_alpha(0.35)
        } else {
            colour
        }),
        BorderColor::all(border),
    ));
    if open {
        node.insert(Action::Enter(room.id));
    }
    // Dark text on light rooms, white on dark ones; a barred room is drawn dim, over the panel.
    let ink = ink_on(if barred { PANEL } else { colour });
    // The name (with the order it was entered in) fits the room's width on one line where it
    // can: its size shrinks with a narrow room, and what still does not fit wraps.
    let name = match room.entered.filter(|&o| o > 0) {
        Some(order) => format!("{} #{order}", kind_name(room.kind)),
        None => kind_name(room.kind),
    };
    let text = text
        .min(size.x / (name.chars().count() as f32 * 0.62))
        .max(8.0);
    node.with_children(|inside| {
        inside.spawn((
            label(name, text, ink),
            TextLayout::justify(Justify::Center),
            Pickable::IGNORE,
        ));
        if let Some(barrier) = &room.barrier {
            let words = format!("{} {}", barrier_name(barrier.kind), barrier.key);
            inside.spawn(chip(words, palette.key(barrier.key), small, false));
        }
        if let Some(key) = room.key_drop {
            inside.spawn(chip(format!("key {key}"), palette.key(key), small, true));
        }
    });
}

/// A chip of `colour` with `words` on it in the ink that reads there, wrapping in a narrow
/// room rather than spilling out; `framed` ones (the key a room gives) have a white frame.
fn chip(words: String, colour: Color, size: f32, framed: bool) -> impl Bundle {
    (
        Node {
            max_width: Val::Percent(100.0),
            padding: UiRect::axes(Val::Px(3.0), Val::Px(1.0)),
            border: UiRect::all(Val::Px(if framed { 2.0 } else { 0.0 })),
            ..default()
        },
        BackgroundColor(colour),
        BorderColor::all(Color::WHITE),
        Pickable::IGNORE,
        children![(
            label(words, size, ink_on(colour)),
            TextLayout::justify(Justify::Center),
            Pickable::IGNORE
        )],
    )
}

/// The door between rooms `a` and `b`: gold once the room behind it was entered, pale while
/// nobody went through it, and while it is a barrier a larger square of its key's colour with
/// the key's number (so that a gold key's door never looks like one gone through).
fn spawn_door(parent: &mut ChildSpawnerCommands, a: &Room, b: &Room, fit: &Fit, palette: &Palette) {
    let Some(point) = door_point(&a.rect, &b.rect) else {
        return;
    };
    // The door belongs to the room made behind it; that room holds its barrier.
    let behind = if b.parent == Some(a.id) { b } else { a };
    let barrier = behind.barrier.as_ref().filter(|_| behind.entered.is_none());
    let side = (fit.unit * 0.16).clamp(6.0, 16.0) * if barrier.is_some() { 1.6 } else { 1.0 };
    let colour = match (barrier, behind.entered) {
        (Some(barrier), _) => palette.key(barrier.key),
        (None, Some(_)) => GOLD,
        (None, None) => DOOR,
    };
    let at = fit.point(point) - Vec2::splat(side / 2.0);
    let mut door = parent.spawn((
        Node {
            position_type: PositionType::Absolute,
            left: Val::Px(at.x),
            top: Val::Px(at.y),
            width: Val::Px(side),
            height: Val::Px(side),
            border: UiRect::all(Val::Px(if barrier.is_some() { 2.0 } else { 1.0 })),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            ..default()
        },
        BackgroundColor(colour),
        BorderColor::all(Color::BLACK),
        Pickable::IGNORE,
    ));
    if let Some(barrier) = barrier {
        door.with_children(|d| {
            d.spawn((
                label(barrier.key.to_string(), side * 0.6, ink_on(colour)),
                Pickable::IGNORE,
            ));
        });
    }
}

/// An attacker type's name, or its id when no loaded mod has it.
fn attacker_name(content: &Content, id: &str) -> String {
    content
        .db
        .attacker_id(id)
        .map_or(id.to_string(), |a| content.db.attacker(a).name.clone())
}

/// What hovering `room` says: what it holds, its barrier and key, whether and when it was
/// entered, and whether it can be entered now.
fn room_info(map: &ActMap, room: &Room, open: bool, content: &Content) -> String {
    let mut parts = vec![match room.kind {
        NodeKind::Start => "The act's start".to_string(),
        NodeKind::Battle => "A battle".into(),
        NodeKind::Elite => "An elite battle: harder waves, a rarer reward".into(),
        NodeKind::Shop => "A shop: blueprints, a repair and a removal for money".into(),
        NodeKind::Event => "An event".into(),
        NodeKind::Rest => "A rest: the hull is repaired at once".into(),
        NodeKind::Boss => format!(
            "The act's boss, {}: beating it ends the act",
            attacker_name(content, &map.shape().boss)
        ),
    }];
    if let Some(guard) = &room.guard {
        parts.push(format!(
            "{} leads its last wave",
            attacker_name(content, guard)
        ));
    }
    if let Some(barrier) = &room.barrier {
        let held = if map.held().contains(&barrier.key) {
            "held"
        } else {
            "not held"
        };
        let mut text = format!(
            "behind a {} door: key {} ({held})",
            barrier.kind.name(),
            barrier.key
        );
        if let Some(guard) = &barrier.guard {
            text.push_str(&format!(
                ", won in the battle {} leads",
                attacker_name(content, guard)
            ));
        }
        parts.push(text);
    }
    if let Some(key) = room.key_drop {
        parts.push(format!("clearing it gives key {key}"));
    }
    match (room.id == map.current(), room.entered) {
        (true, _) => parts.push("you are here".into()),
        (false, Some(0)) => {}
        (false, Some(order)) => parts.push(format!("entered #{order}")),
        (false, None) if open => parts.push("click to enter".into()),
        (false, None) => {}
    }
    parts.join("; ")
}

/// The info line says what the hovered room holds.
fn show_room_info(
    rooms: Query<(&Interaction, &RoomInfo)>,
    mut lines: Query<&mut Text, With<InfoLine>>,
) {
    let hovered = rooms
        .iter()
        .find(|(i, _)| **i != Interaction::None)
        .map_or(HINT, |(_, info)| info.0.as_str());
    for mut text in &mut lines {
        if text.0 != hovered {
            text.0 = hovered.to_string();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: i32, y: i32, w: i32, h: i32) -> Rect {
        Rect { x, y, w, h }
    }

    #[test]
    fn the_map_is_centred_and_fits_its_canvas() {
        // Three units wide, one high, on a 600 × 400 canvas: 110 px a unit at most.
        let rects = [rect(-1, 0, 1, 1), rect(0, 0, 2, 1)];
        let fit = Fit::new(&rects, Vec2::new(600.0, 400.0));
        assert_eq!(fit.unit, MAX_UNIT);
        assert_eq!(fit.point(Vec2::new(-1.0, 0.0)), Vec2::new(135.0, 145.0));
        // A tall map on a wide canvas fits its height.
        let tall = [rect(0, -4, 1, 8)];
        let fit = Fit::new(&tall, Vec2::new(1000.0, 400.0));
        assert_eq!(fit.unit, 50.0);
        assert_eq!(fit.point(Vec2::new(1.0, 4.0)), Vec2::new(525.0, 400.0));
    }
}
