//! Selecting and placing (thesis 4.2.2–4.2.3): the cursor's ray meets the terrain; the tile,
//! building or attacker under it is hovered and a click selects it; a selected blueprint shows
//! a preview there — solid green where it can go, red with the reason beside it where it cannot
//! ("Cannot use here" for an ability, whose preview stays on the map) — with its range drawn on
//! the ground; R turns it, a click places and pays, abilities stay selected after use;
//! right click or Esc deselects, Delete (the key or the info panel's button) removes a building,
//! Tab and Ctrl+Tab change a tower's targeting priority (the keys are the player's bindings).
//! The info panel shows the selected (or hovered) thing's name and description. The world is
//! hovered and clicked only while it has the input: no click reaches it through a screen over
//! the battle.

use bevy::picking::hover::HoverMap;
use bevy::picking::pointer::PointerId;
use bevy::prelude::*;

use super::actions::carry_out;
use super::bindings::{Bindings, Control};
use super::camera::Rig;
use super::input::Layers;
use super::models::icons::icon;
use super::palette::Palette;
use super::rich::{self, Icons, Piece, Shown, plain};
use super::session::{Game, Session, Thing};
use super::settings::Settings;
use super::ui::{Action, button, label, show_if};
use super::{ClientSet, Screen, to_bevy};
use rampart_core::battle::{EntityKind, PlayerCommand, Position};
use rampart_core::content::{BlueprintId, BlueprintKind, Placement};
use rampart_core::worldgen::LEVEL_HEIGHT;

/// Hovering, selecting and placing.
pub struct PlacingPlugin;

impl Plugin for PlacingPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Cursor>()
            .add_systems(OnEnter(Screen::Battle), spawn_panel)
            // Before the frame's actions: a click that closes a screen over the battle (its
            // Resume) is that screen's, and does not also reach the world under it.
            .add_systems(
                Update,
                (aim, click)
                    .chain()
                    .in_set(ClientSet::Input)
                    .before(carry_out)
                    .run_if(in_state(Screen::Battle)),
            )
            .add_systems(
                Update,
                (preview, info)
                    .chain()
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// Where the cursor points in the world.
#[derive(Resource, Default, Debug)]
pub struct Cursor {
    /// The point of the ground under the cursor, in battle coordinates.
    pub point: Option<(f64, f64)>,
    /// The thing under it.
    pub hovered: Option<Thing>,
    /// Set by the scripted scene, which places the cursor itself.
    pub scripted: bool,
    /// Whether the cursor is over a button of the HUD.
    pub over_ui: bool,
}

/// The ghost of the blueprint being placed.
#[derive(Component)]
struct Ghost;

/// Why the ghost's spot is refused, written beside the ghost.
#[derive(Component)]
struct Refusal;

/// The ghost's colour where it can go, and where it cannot; nearly opaque, so the range drawn
/// under it does not tint the one toward the other.
const GHOST_VALID: Color = Color::srgba(0.2, 0.85, 0.3, 0.85);
const GHOST_REFUSED: Color = Color::srgba(0.95, 0.2, 0.15, 0.85);

/// The info panel and its two texts.
#[derive(Component)]
pub(crate) struct InfoPanel;

/// The row holding the info panel's Delete button, shown while a removable building is
/// selected.
#[derive(Component)]
pub struct DeleteButton;

#[derive(Component, PartialEq)]
pub(crate) enum InfoText {
    Title,
    Body,
    /// The selected tower's targeting priority, between its arrows.
    Priority,
}

/// The row with a selected tower's targeting priority and the arrows that change it.
#[derive(Component)]
pub(crate) struct PriorityRow;

/// The icon beside the info panel's title: the blueprint's or attacker type's.
#[derive(Component)]
pub(crate) struct InfoIcon;

pub(crate) fn spawn_panel(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    commands
        .spawn((
            InfoPanel,
            Node {
                position_type: PositionType::Absolute,
                right: Val::Px(8.0),
                top: Val::Px(super::hud::TOP_BAR_HEIGHT + 8.0),
                width: Val::Px(300.0),
                padding: UiRect::all(Val::Px(10.0)),
                flex_direction: FlexDirection::Column,
                row_gap: Val::Px(6.0),
                display: Display::None,
                ..default()
            },
            BackgroundColor(Color::srgba(0.06, 0.07, 0.1, 0.88)),
            DespawnOnExit(Screen::Battle),
        ))
        .with_children(|c| {
            c.spawn(Node {
                column_gap: Val::Px(8.0),
                align_items: AlignItems::Center,
                ..default()
            })
            .with_children(|head| {
                // Shown, with its picture, by `info`.
                head.spawn((InfoIcon, icon(None, 40.0)));
                head.spawn((
                    InfoText::Title,
                    label("", 20.0, Color::srgb(0.95, 0.8, 0.3)),
                ));
            });
            c.spawn((InfoText::Body, Shown::default(), rich::column()));
            c.spawn((
                PriorityRow,
                Node {
                    display: Display::None,
                    align_items: AlignItems::Center,
                    column_gap: Val::Px(6.0),
                    ..default()
                },
                children![
                    button("<", Action::Priority(-1)),
                    (InfoText::Priority, label("", 16.0, Color::WHITE)),
                    button(">", Action::Priority(1)),
                ],
            ));
            c.spawn((
                DeleteButton,
                Node {
                    display: Display::None,
                    ..default()
                },
                children![button("Delete", Action::Delete)],
            ));
        });
    // The ghost is an unlit box, hidden until a blueprint is being placed, with a dark outline:
    // a larger copy showing only its back faces.
    let block = meshes.add(Cuboid::new(0.8, 0.5, 0.8));
    let ghost = (
        Mesh3d(block.clone()),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: GHOST_VALID,
            alpha_mode: AlphaMode::Blend,
            unlit: true,
            ..default()
        })),
        Transform::default(),
        Visibility::Hidden,
        DespawnOnExit(Screen::Battle),
    );
    let outline = (
        Mesh3d(block),
        MeshMaterial3d(materials.add(StandardMaterial {
            base_color: Color::srgb(0.05, 0.05, 0.08),
            unlit: true,
            cull_mode: Some(bevy::render::render_resource::Face::Front),
            ..default()
        })),
        Transform::from_scale(Vec3::splat(1.12)),
    );
    commands.spawn((Ghost, ghost, children![outline]));
    commands.spawn((
        Refusal,
        Node {
            position_type: PositionType::Absolute,
            padding: UiRect::axes(Val::Px(8.0), Val::Px(4.0)),
            max_width: Val::Px(320.0),
            display: Display::None,
            ..default()
        },
        BackgroundColor(Color::srgba(0.08, 0.02, 0.02, 0.9)),
        // The cursor passes through it: it sits beside the cursor and must not take the world's
        // clicks.
        Pickable::IGNORE,
        DespawnOnExit(Screen::Battle),
        children![(
            label("", 15.0, Color::srgb(1.0, 0.72, 0.68)),
            Pickable::IGNORE
        )],
    ));
}

/// Finds where the cursor's ray meets the ground, and what stands there.
fn aim(
    mut cursor: ResMut<Cursor>,
    game: NonSend<Game>,
    windows: Query<&Window>,
    // The window's camera (icons are photographed by cameras of their own).
    cameras: Query<(&Camera, &GlobalTransform), With<Rig>>,
    hovered: Res<HoverMap>,
    nodes: Query<(), With<Node>>,
    layers: Res<Layers>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    // Over any part of the HUD that blocks the cursor (bars, panels, buttons), and under any
    // screen over the battle, the world is out of reach: a click there is the HUD's alone.
    cursor.over_ui = !layers.is_empty()
        || hovered
            .get(&PointerId::Mouse)
            .is_some_and(|hits| hits.keys().any(|e| nodes.contains(*e)));
    if cursor.over_ui && !cursor.scripted {
        cursor.point = None;
        cursor.hovered = None;
        return;
    }
    if !cursor.scripted {
        cursor.point = None;
        let (Some(field), Ok((camera, eye))) = (session.battle.field(), cameras.single()) else {
            return;
        };
        let Some(at) = windows.iter().next().and_then(Window::cursor_position) else {
            return;
        };
        let Ok(ray) = camera.viewport_to_world(eye, at) else {
            return;
        };
        // March down the ray until it goes below the ground, then refine between the last two
        // samples. Orthographic rays are parallel, so this works the same everywhere on screen.
        let highest = field
            .world()
            .tiles
            .iter()
            .map(|t| t.level)
            .max()
            .unwrap_or(0);
        let top = (f32::from(highest) + 1.0) * LEVEL_HEIGHT as f32;
        let dir = *ray.direction;
        if dir.y >= 0.0 {
            return;
        }
        let start = ray.origin + dir * ((ray.origin.y - top) / -dir.y).max(0.0);
        let below = |p: Vec3| f64::from(p.y) <= field.ground(f64::from(p.x), -f64::from(p.z));
        let step = 0.05;
        let mut prev = start;
        for i in 1..4000 {
            let p = start + dir * (i as f32 * step);
            if below(p) {
                let (mut lo, mut hi) = (prev, p);
                for _ in 0..12 {
                    let mid = (lo + hi) / 2.0;
                    if below(mid) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                cursor.point = Some((f64::from(hi.x), -f64::from(hi.z)));
                break;
            }
            if p.y < -5.0 {
                break;
            }
            prev = p;
        }
    }
    cursor.hovered = cursor.point.and_then(|(x, y)| thing_at(session, x, y));
}

/// The attacker, building or tile at a point: attackers first (they are small and move), then
/// what stands on the tile.
fn thing_at(session: &Session, x: f64, y: f64) -> Option<Thing> {
    let field = session.battle.field()?;
    let here = Position { x, y };
    let attacker = session
        .battle
        .entities()
        .filter(|(_, e)| matches!(e.kind, EntityKind::Attacker(_)))
        .map(|(id, e)| (id, session.drawn_at(id, e.position).distance(here)))
        .filter(|(_, d)| *d < 0.45)
        .min_by(|a, b| a.1.total_cmp(&b.1));
    if let Some((id, _)) = attacker {
        return Some(Thing::Entity(id));
    }
    let tile = field.world().tile_at(x, y);
    let building = session
        .battle
        .entities()
        .find(|(_, e)| e.tile == Some(tile) && matches!(e.kind, EntityKind::Building(_)));
    Some(match building {
        Some((id, _)) => Thing::Entity(id),
        None => Thing::Tile(tile),
    })
}

/// Where a blueprint would go for a cursor at `(x, y)`: the tile's centre for buildings; for
/// the rest (abilities) the point, kept on the map.
pub fn spot(session: &Session, blueprint: BlueprintId, (x, y): (f64, f64)) -> Position {
    match session.battle.content().blueprint(blueprint).placement() {
        Placement::Tile { .. } => Position {
            x: x.round(),
            y: y.round(),
        },
        _ => match session.battle.field() {
            Some(field) => {
                let grid = &field.world().grid;
                Position {
                    x: x.clamp(-0.5, f64::from(grid.width) - 0.5),
                    y: y.clamp(-0.5, f64::from(grid.height) - 0.5),
                }
            }
            None => Position { x, y },
        },
    }
}

/// What a refused spot says: "Cannot use here" for an ability, "Cannot place here" for the rest.
fn refusal(kind: BlueprintKind, why: &str) -> String {
    let verb = if kind == BlueprintKind::Ability {
        "use"
    } else {
        "place"
    };
    format!("Cannot {verb} here: {why}")
}

fn click(
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<Cursor>,
    mut game: NonSendMut<Game>,
    mut dragged: Local<f32>,
    motion: Res<bevy::input::mouse::AccumulatedMouseMotion>,
    layers: Res<Layers>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    if !layers.is_empty() {
        *dragged = 0.0;
        return;
    }
    // A right button that was dragged moved the camera; only a plain right click deselects.
    if mouse.pressed(MouseButton::Right) {
        *dragged += motion.delta.length();
    }
    if mouse.just_released(MouseButton::Right) {
        if *dragged < 4.0 {
            session.selection.blueprint = None;
            session.selection.thing = None;
        }
        *dragged = 0.0;
    }
    if !mouse.just_pressed(MouseButton::Left) || cursor.over_ui {
        return;
    }
    if session.selection.blueprint.is_some() {
        place_at_cursor(session, &cursor);
    } else {
        session.selection.thing = cursor.hovered;
    }
}

/// Moves the ghost to the cursor, colours it by whether the placement would work, and writes
/// why not beside it (the range is drawn on the ground: `overlay.rs`).
fn preview(
    mut game: NonSendMut<Game>,
    cursor: Res<Cursor>,
    mut ghosts: Query<
        (
            &mut Transform,
            &mut Visibility,
            &MeshMaterial3d<StandardMaterial>,
        ),
        With<Ghost>,
    >,
    mut refusals: Query<(&mut Node, &Children), With<Refusal>>,
    mut texts: Query<&mut Text>,
    cameras: Query<(&Camera, &GlobalTransform), With<Rig>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let (Ok((mut t, mut visible, material)), Ok((mut node, children))) =
        (ghosts.single_mut(), refusals.single_mut())
    else {
        return;
    };
    let planned = match (session.selection.blueprint, cursor.point) {
        (Some(b), Some(point)) => Some((b, spot(session, b, point))),
        _ => None,
    };
    let Some((blueprint, at)) = planned else {
        *visible = Visibility::Hidden;
        node.display = Display::None;
        return;
    };
    let bp = session.battle.content().blueprint(blueprint);
    let (id, kind) = (bp.id.clone(), bp.kind);
    let check = session.battle.check_place(&id, at);
    let ground = session.battle.field().map_or(0.0, |f| f.ground(at.x, at.y));
    t.translation = to_bevy(at.x, at.y, ground + 0.25);
    t.rotation =
        Quat::from_rotation_y(-f32::from(session.selection.rotation) * std::f32::consts::FRAC_PI_2);
    *visible = Visibility::Visible;
    if let Some(mut m) = materials.get_mut(&material.0) {
        m.base_color = if check.is_ok() {
            GHOST_VALID
        } else {
            GHOST_REFUSED
        };
    }
    // The reason to the right of the ghost, where the cursor does not cover it.
    let beside = cameras
        .single()
        .ok()
        .and_then(|(camera, eye)| camera.world_to_viewport(eye, t.translation).ok());
    match (check, beside) {
        (Err(why), Some(screen)) => {
            node.display = Display::Flex;
            node.left = Val::Px(screen.x + 28.0);
            node.top = Val::Px(screen.y - 12.0);
            let wanted = refusal(kind, &why);
            if let Some(mut text) = children.first().and_then(|c| texts.get_mut(*c).ok())
                && text.0 != wanted
            {
                text.0 = wanted;
            }
        }
        _ => node.display = Display::None,
    }
}

/// The info panel's body text size.
const BODY_SIZE: f32 = 14.0;

/// Fills the info panel from the selection, or from what is hovered (then half transparent).
pub(crate) fn info(
    mut commands: Commands,
    mut game: NonSendMut<Game>,
    cursor: Res<Cursor>,
    mut panels: Query<
        (&mut Node, &mut BackgroundColor),
        (
            With<InfoPanel>,
            Without<DeleteButton>,
            Without<PriorityRow>,
            Without<InfoIcon>,
        ),
    >,
    mut info_icons: Query<
        (&mut ImageNode, &mut Node, &mut Visibility),
        (
            With<InfoIcon>,
            Without<InfoPanel>,
            Without<DeleteButton>,
            Without<PriorityRow>,
        ),
    >,
    mut delete: Query<&mut Node, (With<DeleteButton>, Without<PriorityRow>, Without<InfoIcon>)>,
    mut priority_rows: Query<
        &mut Node,
        (With<PriorityRow>, Without<DeleteButton>, Without<InfoIcon>),
    >,
    mut titles: Query<(&InfoText, &mut Text)>,
    mut bodies: Query<(Entity, &mut Shown)>,
    icons: Res<Icons>,
    palette: Res<Palette>,
    settings: Res<Settings>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let Ok((mut node, mut bg)) = panels.single_mut() else {
        return;
    };
    let selected = session.selection.thing;
    let deletable = matches!(selected, Some(Thing::Entity(id)) if session.battle.removable(id).is_ok())
        && session.selection.blueprint.is_none();
    for mut node in &mut delete {
        let display = if deletable {
            Display::Flex
        } else {
            Display::None
        };
        if node.display != display {
            node.display = display;
        }
    }
    // A selected tower's targeting priority, with arrows to change it (not while hovering:
    // a hovered thing's panel has no buttons).
    let priority = match selected {
        Some(Thing::Entity(id)) if session.selection.blueprint.is_none() => session
            .battle
            .entity(id)
            .and_then(|e| e.tower.as_ref())
            .map(|t| format!("Targets: {}", t.priority.name())),
        _ => None,
    };
    for mut node in &mut priority_rows {
        let display = if priority.is_some() {
            Display::Flex
        } else {
            Display::None
        };
        if node.display != display {
            node.display = display;
        }
    }
    let (palette, keys) = (&*palette, &settings.keys);
    let (shown, thing) = match (session.selection.blueprint, selected, cursor.hovered) {
        (Some(b), _, _) => (Some(describe_blueprint(session, b, palette, keys)), None),
        (None, Some(thing), _) => (describe(session, thing, palette, keys), Some(thing)),
        // What the cursor is on, a tile too, in a see-through panel.
        (None, None, Some(thing)) => (describe(session, thing, palette, keys), Some(thing)),
        _ => (None, None),
    };
    // The icon of the blueprint being placed, or of the building or attacker described.
    let content = session.battle.content();
    let icon = match (session.selection.blueprint, thing) {
        (Some(b), _) => icons.get(&Icons::blueprint(&content.blueprint(b).id)),
        (None, Some(Thing::Entity(id))) => match session.battle.entity(id).map(|e| e.kind) {
            Some(EntityKind::Attacker(a)) => icons.get(&Icons::attacker(&content.attacker(a).id)),
            Some(EntityKind::Building(b) | EntityKind::Ability(b)) => {
                icons.get(&Icons::blueprint(&content.blueprint(b).id))
            }
            None => None,
        },
        _ => None,
    };
    for (mut image, mut node, mut visibility) in &mut info_icons {
        // Without an icon (a tile) the title takes the whole row.
        show_if(&mut node, icon.is_some());
        if let Some(icon) = &icon {
            visibility.set_if_neq(Visibility::Inherited);
            if image.image != *icon {
                image.image = icon.clone();
            }
        }
    }
    let Some((title, body)) = shown else {
        node.display = Display::None;
        return;
    };
    node.display = Display::Flex;
    let solid = session.selection.blueprint.is_some() || selected.is_some();
    bg.0 = Color::srgba(0.06, 0.07, 0.1, if solid { 0.9 } else { 0.55 });
    for (kind, mut text) in &mut titles {
        let wanted = match kind {
            InfoText::Title => &title,
            InfoText::Priority => priority.as_ref().unwrap_or(&title),
            InfoText::Body => continue,
        };
        if text.0 != *wanted {
            text.0 = wanted.clone();
        }
    }
    for (entity, mut shown) in &mut bodies {
        rich::show(
            &mut commands,
            entity,
            &mut shown,
            body.clone(),
            BODY_SIZE,
            &icons,
        );
    }
}

fn describe_blueprint(
    session: &mut Session,
    b: BlueprintId,
    palette: &Palette,
    keys: &Bindings,
) -> (String, Vec<Piece>) {
    let bp = session.battle.content().blueprint(b).clone();
    let view = session.battle.describe_blueprint(b, None);
    let mut body = rich::pieces(&view.text, palette);
    let waiting = session.battle.cooldown_left(b);
    if waiting > 0 {
        body.push(Piece::Break(true));
        body.push(Piece::Text(
            format!(
                "Ready in {waiting} wave{}.",
                if waiting == 1 { "" } else { "s" }
            ),
            rich::ADDED,
        ));
    }
    if matches!(
        bp.placement(),
        Placement::Tile {
            rotatable: true,
            ..
        } | Placement::Surface { rotatable: true }
    ) {
        let key = keys.describe(Control::Rotate);
        body.extend([Piece::Break(true), plain(format!("{key} turns it."))]);
    }
    // Where the deposits it needs are: the overlay marks them.
    if let Placement::Tile {
        deposit: Some(_), ..
    } = bp.placement()
    {
        body.extend([
            Piece::Break(true),
            plain("Marked on the ground: tiles rich in "),
            Piece::Text("fuel".into(), color_of(palette.fuel)),
            plain(" and in "),
            Piece::Text("minerals".into(), color_of(palette.minerals)),
            plain("."),
        ]);
    }
    (bp.name, body)
}

/// An overlay colour as a text colour.
fn color_of([r, g, b, _]: [u8; 4]) -> Color {
    Color::srgb_u8(r, g, b)
}

fn describe(
    session: &mut Session,
    thing: Thing,
    palette: &Palette,
    keys: &Bindings,
) -> Option<(String, Vec<Piece>)> {
    match thing {
        Thing::Tile(p) => {
            let world = session.battle.field()?.world().clone();
            if !world.grid.contains(p) {
                return None;
            }
            let tile = world.tile(p);
            // The terrain type's name for the surface, or its key where the type names none.
            let surface = session
                .battle
                .content()
                .terrain(&world.terrain)
                .and_then(|t| t.surface_names.get(&tile.surface).cloned())
                .unwrap_or_else(|| format!("Surface {}", tile.surface));
            let mut lines = vec![format!("{surface}, level {}", tile.level)];
            if world.blocked_surface[world.grid.index(p)] {
                lines.push("Nothing can be built on this ground".into());
            }
            if let Some(d) = tile.slant {
                lines.push(format!("A ramp down to the {}", d.name()));
            }
            if let Some(o) = world.obstacle(p) {
                lines.push(format!("Obstacle: {} ({})", o.name, o.kind.name()));
            }
            if world.network.distance[world.grid.index(p)].is_some() {
                lines.push("Attackers walk here".into());
            }
            let mut body = Vec::new();
            for (i, line) in lines.into_iter().enumerate() {
                if i > 0 {
                    body.push(Piece::Break(false));
                }
                body.push(plain(line));
            }
            Some((format!("Tile {}, {}", p.x, p.y), body))
        }
        Thing::Entity(id) => {
            let e = session.battle.entity(id)?.clone();
            match e.kind {
                EntityKind::Attacker(a) => {
                    let name = session.battle.content().attacker(a).name.clone();
                    let text = session.battle.describe_attacker(id)?;
                    Some((name, rich::pieces(&text, palette)))
                }
                EntityKind::Building(b) | EntityKind::Ability(b) => {
                    let name = session.battle.content().blueprint(b).name.clone();
                    let text = session.battle.describe_blueprint(b, Some(id)).text;
                    let mut body = rich::pieces(&text, palette);
                    let deeds = session.stats.get(&id).copied().unwrap_or_default();
                    let mut done = Vec::new();
                    if e.damage_dealt > 0.0 || e.tower.is_some() {
                        done.push(format!(
                            "dealt {:.0} damage, {} kill{}",
                            e.damage_dealt,
                            deeds.kills,
                            if deeds.kills == 1 { "" } else { "s" }
                        ));
                    }
                    for (amount, what) in deeds.produced.iter().zip(["fuel", "materials", "energy"])
                    {
                        if *amount > 0.0 {
                            done.push(format!("produced {amount:.0} {what}"));
                        }
                    }
                    if !done.is_empty() {
                        body.push(Piece::Break(true));
                        body.push(plain(format!("This level: {}.", done.join(", "))));
                    }
                    if e.tower.is_some() {
                        body.push(Piece::Break(false));
                        body.push(plain(format!(
                            "{} / {} or the arrows change whom it targets.",
                            keys.describe(Control::NextPriority),
                            keys.describe(Control::PreviousPriority)
                        )));
                    }
                    if session.battle.removable(id).is_ok() {
                        body.push(Piece::Break(false));
                        let key = keys.describe(Control::Delete);
                        body.push(plain(format!("{key} removes it (no refund).")));
                    }
                    Some((name, body))
                }
            }
        }
    }
}

/// Places the selected blueprint at the cursor. A refused spot does nothing: its reason is
/// already written beside the ghost, so clicking again adds no lines anywhere.
pub fn place_at_cursor(session: &mut Session, cursor: &Cursor) {
    let (Some(blueprint), Some(point)) = (session.selection.blueprint, cursor.point) else {
        return;
    };
    let at = spot(session, blueprint, point);
    let bp = session.battle.content().blueprint(blueprint).clone();
    if session.battle.check_place(&bp.id, at).is_ok() {
        session.submit(PlayerCommand::Place {
            blueprint: bp.id.clone(),
            position: at,
            rotation: session.selection.rotation,
        });
        if bp.kind != BlueprintKind::Ability {
            session.selection.blueprint = None;
        }
    }
}
