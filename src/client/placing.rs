//! Selecting and placing (thesis 4.2.2–4.2.3): the cursor's ray meets the terrain; the tile,
//! building or attacker under it is hovered and a click selects it; a selected blueprint shows
//! a preview there — blue where it can go, red with the reason where it cannot — with its range
//! drawn on the ground; R turns it, a click places and pays, abilities stay selected after use;
//! right click or Esc deselects, Delete (the key or the info panel's button) removes a building,
//! Tab and Ctrl+Tab change a tower's targeting priority. The info panel shows the selected (or
//! hovered) thing's name and description.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::PrimitiveTopology;
use bevy::prelude::*;

use super::menu::{Action, button};
use super::rich::{self, Piece, Shown};
use super::session::{Game, Session};
use super::{Screen, label, to_bevy};
use crate::battle::preview::{RangeMap, RangeOf};
use crate::battle::{EntityId, EntityKind, PlayerCommand, Position};
use crate::content::{BlueprintId, BlueprintKind, Placement};
use crate::worldgen::{LEVEL_HEIGHT, Pos};

/// Hovering, selecting and placing.
pub struct PlacingPlugin;

impl Plugin for PlacingPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Cursor>()
            .add_systems(OnEnter(Screen::Battle), spawn_panel)
            .add_systems(
                Update,
                (aim, keys, click, preview, info)
                    .chain()
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// What the player has selected.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selection {
    /// The blueprint about to be placed.
    pub blueprint: Option<BlueprintId>,
    /// Its quarter turns.
    pub rotation: u8,
    /// A tile or an entity of the world.
    pub thing: Option<Thing>,
}

/// Something in the world that can be hovered or selected.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Thing {
    /// A tile.
    Tile(Pos),
    /// A building, attacker or ability.
    Entity(EntityId),
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

/// The ghost of the blueprint being placed, and the range drawn with it.
#[derive(Component)]
struct Ghost;

#[derive(Component)]
struct RangeDrawing {
    /// What the drawn range is of, to draw it again only when that changes.
    of: Option<(RangeOf, Pos)>,
}

/// The info panel and its two texts.
#[derive(Component)]
struct InfoPanel;

/// The row holding the info panel's Delete button, shown while a removable building is
/// selected.
#[derive(Component)]
pub struct DeleteButton;

#[derive(Component, PartialEq)]
enum InfoText {
    Title,
    Body,
}

fn spawn_panel(
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
                top: Val::Px(150.0),
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
            c.spawn((
                InfoText::Title,
                label("", 20.0, Color::srgb(0.95, 0.8, 0.3)),
            ));
            c.spawn((
                InfoText::Body,
                Shown::default(),
                label("", BODY_SIZE, rich::BODY),
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
    // The ghost and the range are see-through, unlit overlays, hidden until needed.
    let mut overlay = |mesh: Mesh, color: Color| {
        (
            Mesh3d(meshes.add(mesh)),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color: color,
                alpha_mode: AlphaMode::Blend,
                unlit: true,
                ..default()
            })),
            Transform::default(),
            Visibility::Hidden,
            DespawnOnExit(Screen::Battle),
        )
    };
    let ghost = overlay(
        Cuboid::new(0.8, 0.5, 0.8).into(),
        Color::srgba(0.3, 0.5, 1.0, 0.5),
    );
    let range = overlay(
        Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::default(),
        ),
        Color::srgba(0.4, 0.8, 1.0, 0.3),
    );
    commands.spawn((Ghost, ghost));
    commands.spawn((RangeDrawing { of: None }, range));
}

/// Finds where the cursor's ray meets the ground, and what stands there.
fn aim(
    mut cursor: ResMut<Cursor>,
    game: NonSend<Game>,
    windows: Query<&Window>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    buttons: Query<&Interaction, With<Button>>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    cursor.over_ui = buttons.iter().any(|i| *i != Interaction::None);
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

fn keys(keys: Res<ButtonInput<KeyCode>>, mut game: NonSendMut<Game>) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    if keys.just_pressed(KeyCode::Escape) {
        let s = &mut session.selection;
        if s.blueprint.is_some() || s.thing.is_some() {
            s.blueprint = None;
            s.thing = None;
        } else if session.settings_open {
            session.settings_open = false;
            session.paused = false;
        } else {
            session.settings_open = true;
            session.paused = true;
        }
    }
    if keys.just_pressed(KeyCode::KeyR) {
        session.selection.rotation = (session.selection.rotation + 1) % 4;
    }
    let Some(Thing::Entity(id)) = session.selection.thing else {
        return;
    };
    if keys.just_pressed(KeyCode::Delete) {
        remove_selected(session);
    }
    if keys.just_pressed(KeyCode::Tab) {
        let back = keys.pressed(KeyCode::ControlLeft) || keys.pressed(KeyCode::ControlRight);
        if let Some(priority) = session
            .battle
            .entity(id)
            .and_then(|e| e.tower.as_ref())
            .map(|t| t.priority.cycle(if back { -1 } else { 1 }))
        {
            session.submit(PlayerCommand::SetPriority {
                entity: id,
                priority,
            });
        }
    }
}

/// Where a blueprint would go for a cursor at `(x, y)`: the tile's centre for buildings.
fn spot(session: &Session, blueprint: BlueprintId, (x, y): (f64, f64)) -> Position {
    match session.battle.content().blueprint(blueprint).placement() {
        Placement::Tile { .. } => Position {
            x: x.round(),
            y: y.round(),
        },
        _ => Position { x, y },
    }
}

/// Removes the selected building (the Delete key or button).
pub fn remove_selected(session: &mut Session) {
    if let Some(Thing::Entity(id)) = session.selection.thing.take() {
        session.submit(PlayerCommand::Remove { entity: id });
    }
}

/// Places the selected blueprint at the cursor; refused placements say why.
pub fn place_at_cursor(session: &mut Session, cursor: &Cursor) {
    let (Some(blueprint), Some(point)) = (session.selection.blueprint, cursor.point) else {
        return;
    };
    let at = spot(session, blueprint, point);
    let bp = session.battle.content().blueprint(blueprint).clone();
    match session.battle.check_place(&bp.id, at) {
        Ok(()) => {
            session.submit(PlayerCommand::Place {
                blueprint: bp.id.clone(),
                position: at,
                rotation: session.selection.rotation,
            });
            if bp.kind != BlueprintKind::Ability {
                session.selection.blueprint = None;
            }
        }
        Err(reason) => session.notify(reason),
    }
}

fn click(
    mouse: Res<ButtonInput<MouseButton>>,
    cursor: Res<Cursor>,
    mut game: NonSendMut<Game>,
    mut dragged: Local<f32>,
    motion: Res<bevy::input::mouse::AccumulatedMouseMotion>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
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
    if !mouse.just_pressed(MouseButton::Left) || cursor.over_ui || session.settings_open {
        return;
    }
    if session.selection.blueprint.is_some() {
        place_at_cursor(session, &cursor);
    } else {
        session.selection.thing = cursor.hovered;
    }
}

/// Moves the ghost to the cursor, tints it by whether the placement would work, shows why not,
/// and draws the range of what is being placed or the selected tower.
fn preview(
    mut game: NonSendMut<Game>,
    cursor: Res<Cursor>,
    mut ghosts: Query<
        (
            &mut Transform,
            &mut Visibility,
            &MeshMaterial3d<StandardMaterial>,
        ),
        (With<Ghost>, Without<RangeDrawing>),
    >,
    mut ranges: Query<(&mut RangeDrawing, &Mesh3d, &mut Visibility), Without<Ghost>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut reason: Local<Option<String>>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let Ok((mut t, mut visible, material)) = ghosts.single_mut() else {
        return;
    };
    let planned = match (session.selection.blueprint, cursor.point) {
        (Some(b), Some(point)) => Some((b, spot(session, b, point))),
        _ => None,
    };
    let mut range_of = None;
    match planned {
        Some((blueprint, at)) => {
            let id = session.battle.content().blueprint(blueprint).id.clone();
            let check = session.battle.check_place(&id, at);
            let ground = session.battle.field().map_or(0.0, |f| f.ground(at.x, at.y));
            t.translation = to_bevy(at.x, at.y, ground + 0.25);
            t.rotation = Quat::from_rotation_y(
                -f32::from(session.selection.rotation) * std::f32::consts::FRAC_PI_2,
            );
            *visible = Visibility::Visible;
            if let Some(mut m) = materials.get_mut(&material.0) {
                m.base_color = if check.is_ok() {
                    Color::srgba(0.3, 0.5, 1.0, 0.55)
                } else {
                    Color::srgba(1.0, 0.25, 0.2, 0.55)
                };
            }
            let why = check.err();
            if why != *reason {
                if let Some(why) = &why {
                    session.notify(format!("Cannot place here: {why}"));
                }
                *reason = why;
            }
            let tile = Pos::new(at.x.round() as i32, at.y.round() as i32);
            range_of = Some((
                RangeOf::Planned {
                    blueprint,
                    position: at,
                    rotation: session.selection.rotation,
                },
                tile,
            ));
        }
        None => {
            *visible = Visibility::Hidden;
            *reason = None;
            if let Some(Thing::Entity(id)) = session.selection.thing
                && let Some(e) = session.battle.entity(id)
                && e.kind.blueprint().is_some()
            {
                range_of = Some((RangeOf::Placed(id), e.tile.unwrap_or(Pos::new(0, 0))));
            }
        }
    }
    let Ok((mut drawing, mesh, mut range_visible)) = ranges.single_mut() else {
        return;
    };
    if drawing.of != range_of {
        drawing.of = range_of;
        let map = range_of.and_then(|(of, _)| session.battle.range_map(of, 2));
        if let (Some(map), Some(field), Some(mut m)) =
            (map, session.battle.field(), meshes.get_mut(&mesh.0))
        {
            *m = range_mesh(&map, |x, y| field.ground(x, y));
        }
    }
    *range_visible = if drawing.of.is_some() {
        Visibility::Visible
    } else {
        Visibility::Hidden
    };
}

/// Squares lying on the ground wherever the range map says something can be hit.
fn range_mesh(map: &RangeMap, ground: impl Fn(f64, f64) -> f64) -> Mesh {
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let h = map.step / 2.0 * 0.9;
    for row in 0..map.rows {
        for column in 0..map.columns {
            if map.cell(column, row) == 0 {
                continue;
            }
            let (x, y) = map.center(column, row);
            let z = ground(x, y) + 0.06;
            let corners = [(-h, -h), (h, -h), (h, h), (-h, h)];
            let p: Vec<[f32; 3]> = corners
                .iter()
                .map(|(dx, dy)| to_bevy(x + dx, y + dy, z).to_array())
                .collect();
            positions.extend([p[0], p[1], p[2], p[0], p[2], p[3]]);
        }
    }
    let normals = vec![[0.0, 1.0, 0.0]; positions.len()];
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
}

/// The info panel's body text size.
const BODY_SIZE: f32 = 14.0;

/// Body text without colours of its own.
fn plain(text: impl Into<String>) -> Piece {
    (text.into(), rich::BODY)
}

/// Fills the info panel from the selection, or from what is hovered (then half transparent).
fn info(
    mut commands: Commands,
    mut game: NonSendMut<Game>,
    cursor: Res<Cursor>,
    mut panels: Query<(&mut Node, &mut BackgroundColor), (With<InfoPanel>, Without<DeleteButton>)>,
    mut delete: Query<&mut Node, With<DeleteButton>>,
    mut titles: Query<(&InfoText, &mut Text)>,
    mut bodies: Query<(Entity, &mut Shown)>,
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
    let shown = match (session.selection.blueprint, selected, cursor.hovered) {
        (Some(b), _, _) => Some(describe_blueprint(session, b)),
        (None, Some(thing), _) => describe(session, thing),
        (None, None, Some(thing @ Thing::Entity(_))) => describe(session, thing),
        _ => None,
    };
    let Some((title, body)) = shown else {
        node.display = Display::None;
        return;
    };
    node.display = Display::Flex;
    let solid = session.selection.blueprint.is_some() || selected.is_some();
    bg.0 = Color::srgba(0.06, 0.07, 0.1, if solid { 0.9 } else { 0.55 });
    for (kind, mut text) in &mut titles {
        if *kind == InfoText::Title && text.0 != title {
            text.0 = title.clone();
        }
    }
    for (entity, mut shown) in &mut bodies {
        rich::show(&mut commands, entity, &mut shown, body.clone(), BODY_SIZE);
    }
}

fn describe_blueprint(session: &mut Session, b: BlueprintId) -> (String, Vec<Piece>) {
    let bp = session.battle.content().blueprint(b).clone();
    let view = session.battle.describe_blueprint(b, None);
    let mut body = rich::pieces(&view.text);
    if matches!(
        bp.placement(),
        Placement::Tile {
            rotatable: true,
            ..
        } | Placement::Surface { rotatable: true }
    ) {
        body.push(plain("\n\nR turns it."));
    }
    (bp.name, body)
}

fn describe(session: &mut Session, thing: Thing) -> Option<(String, Vec<Piece>)> {
    match thing {
        Thing::Tile(p) => {
            let world = session.battle.field()?.world().clone();
            if !world.grid.contains(p) {
                return None;
            }
            let tile = world.tile(p);
            let mut lines = vec![format!("Surface {}, level {}", tile.surface, tile.level)];
            if let Some(d) = tile.slant {
                lines.push(format!("A ramp down to the {}", d.name()));
            }
            if let Some(o) = world.obstacle(p) {
                lines.push(format!("Obstacle: {} ({})", o.name, o.kind.name()));
            }
            if world.network.distance[world.grid.index(p)].is_some() {
                lines.push("Attackers walk here".into());
            }
            Some((
                format!("Tile {}, {}", p.x, p.y),
                vec![plain(lines.join("\n"))],
            ))
        }
        Thing::Entity(id) => {
            let e = session.battle.entity(id)?.clone();
            match e.kind {
                EntityKind::Attacker(a) => {
                    let name = session.battle.content().attacker(a).name.clone();
                    let text = session.battle.describe_attacker(id)?;
                    Some((name, rich::pieces(&text)))
                }
                EntityKind::Building(b) | EntityKind::Ability(b) => {
                    let name = session.battle.content().blueprint(b).name.clone();
                    let text = session.battle.describe_blueprint(b, Some(id)).text;
                    let mut body = rich::pieces(&text);
                    if let Some(tower) = &e.tower {
                        body.push(plain(format!(
                            "\n\nTargets: {} (Tab / Ctrl+Tab to change)",
                            tower.priority.name()
                        )));
                    }
                    if session.battle.removable(id).is_ok() {
                        body.push(plain("\nDelete removes it (no refund)."));
                    }
                    Some((name, body))
                }
            }
        }
    }
}
