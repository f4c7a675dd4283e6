//! The camera: orthographic at the isometric angle, looking at a point on the world. The wheel
//! and the zoom keys (T/G) zoom, right-drag and the pan keys (WASD) pan, the turn keys (Q/E) and
//! middle-drag turn it in quarter turns (the keys are the player's bindings); close in, it tilts
//! until, at the closest zoom, it looks straight down (thesis 2.8). A new level opens with the
//! whole world framed in the space the HUD's bars leave free; a continued one where the player
//! left it. It is steered only while the world has the input.

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};

use bevy::camera::ScalingMode;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::picking::hover::HoverMap;
use bevy::picking::pointer::PointerId;
use bevy::prelude::*;

use serde::{Deserialize, Serialize};

use super::bindings::Control;
use super::feedback::shake::Shake;
use super::input::Layers;
use super::session::Game;
use super::settings::Settings;
use super::{ClientSet, Screen, to_bevy};
use rampart_core::worldgen::LEVEL_HEIGHT;

/// The most and least world units shown from the top of the screen to the bottom.
const ZOOM_OUT: f32 = 40.0;
const ZOOM_IN: f32 = 5.0;
/// The isometric pitch (the angle whose tangent is 1/√2) and the tilt at full zoom: straight down.
const ISO_PITCH: f32 = 0.615_479_7;
const TOP_PITCH: f32 = FRAC_PI_2;

/// Sets up and steers the camera.
pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, spawn)
            .add_systems(OnEnter(Screen::Battle), unframe)
            .add_systems(
                Update,
                frame_world
                    .in_set(ClientSet::Present)
                    .before(place)
                    .run_if(in_state(Screen::Battle)),
            )
            .add_systems(
                Update,
                steer
                    .in_set(ClientSet::Input)
                    .run_if(in_state(Screen::Battle)),
            )
            .add_systems(
                Update,
                place
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// Where the camera looks and from how far.
#[derive(Component, Debug)]
pub struct Rig {
    /// The point looked at.
    pub focus: Vec3,
    /// Quarter turns around the focus.
    pub turns: i32,
    /// The drawn heading, easing toward `turns`.
    yaw: f32,
    /// World units from the bottom of the view to the top.
    pub zoom: f32,
    /// Middle-drag distance not yet turned into a quarter turn.
    drag: f32,
    /// The world this rig framed last (its seed and size), so a new level is framed once.
    framed: Option<(u64, i32, i32)>,
}

/// Where the camera looks, as a save keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CameraView {
    /// The point looked at, in Bevy's space.
    pub focus: [f32; 3],
    /// World units from the bottom of the view to the top.
    pub zoom: f32,
    /// Quarter turns.
    pub turns: i32,
}

impl Default for Rig {
    /// Looking at the origin from the first heading, before a world is framed.
    fn default() -> Self {
        Rig {
            focus: Vec3::ZERO,
            turns: 0,
            yaw: FRAC_PI_4,
            zoom: 20.0,
            drag: 0.0,
            framed: None,
        }
    }
}

impl Rig {
    /// Where the rig looks.
    pub fn view(&self) -> CameraView {
        CameraView {
            focus: self.focus.to_array(),
            zoom: self.zoom,
            turns: self.turns,
        }
    }

    /// Looks as `view` says, at once.
    fn look(&mut self, view: CameraView) {
        self.focus = Vec3::from_array(view.focus);
        self.zoom = view.zoom.clamp(ZOOM_IN, ZOOM_OUT);
        self.turns = view.turns;
        self.yaw = yaw_of(view.turns);
    }
}

/// The heading of `turns` quarter turns.
fn yaw_of(turns: i32) -> f32 {
    FRAC_PI_4 + turns as f32 * FRAC_PI_2
}

/// Marks the HUD's bars, whose height the framing leaves free.
#[derive(Component)]
pub struct Bar;

fn spawn(mut commands: Commands) {
    commands.spawn((
        Camera3d::default(),
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::FixedVertical {
                viewport_height: 20.0,
            },
            near: -200.0,
            far: 400.0,
            ..OrthographicProjection::default_3d()
        }),
        Rig::default(),
        Transform::default(),
    ));
}

/// Forgets the framed world, so the next battle's world is framed again.
fn unframe(mut rigs: Query<&mut Rig>) {
    for mut rig in &mut rigs {
        rig.framed = None;
    }
}

/// Frames the world of a new level once the HUD is laid out: the world's outline, seen at the
/// isometric angle, fills the band between the top and bottom bars with a small margin. A
/// battle that knows where its camera looked (a continued one) looks there again instead.
fn frame_world(
    mut game: NonSendMut<Game>,
    mut rigs: Query<&mut Rig>,
    bars: Query<&ComputedNode, With<Bar>>,
    windows: Query<&Window>,
) {
    let (Some(session), Ok(mut rig)) = (game.0.as_mut(), rigs.single_mut()) else {
        return;
    };
    let Some(field) = session.battle.field() else {
        return;
    };
    let world = field.world();
    let key = (world.seed.0, world.grid.width, world.grid.height);
    if rig.framed == Some(key) {
        // Kept for the save.
        session.camera = Some(rig.view());
        return;
    }
    if let Some(view) = session.camera {
        rig.look(view);
        rig.framed = Some(key);
        return;
    }
    let Some(window) = windows.iter().next() else {
        return;
    };
    // The bars are laid out a frame after they are spawned; their heights in the window's
    // pixels (the UI's scale included).
    let heights: Vec<f32> = bars
        .iter()
        .map(|n| n.size().y / window.scale_factor())
        .collect();
    if heights.len() < 2 || heights.iter().any(|h| *h <= 0.0) {
        return;
    }
    let (w, h) = (window.width().max(1.0), window.height().max(1.0));
    let (top, bottom) = (heights[0].max(heights[1]), heights[0].min(heights[1]));
    let free = (h - top - bottom).max(h * 0.3);
    let yaw = yaw_of(rig.turns);
    let view = view_rotation(yaw, ISO_PITCH).inverse();
    // Every tile's corners, on the ground and a level above its top (what stands on it), so
    // a world whose high ground lies in one corner is not framed as if it were high all over.
    let mut min = Vec2::splat(f32::MAX);
    let mut max = Vec2::splat(f32::MIN);
    let mut highest = 0.0f32;
    for p in world.grid.tiles() {
        let (x, y) = (f64::from(p.x), f64::from(p.y));
        let top = (f64::from(world.tile(p).level) + 1.0) * LEVEL_HEIGHT;
        highest = highest.max(top as f32);
        for (dx, dy) in [(-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5)] {
            for z in [0.0, top] {
                let p = view * to_bevy(x + dx, y + dy, z);
                min = min.min(p.truncate());
                max = max.max(p.truncate());
            }
        }
    }
    let top_height = highest;
    let size = (max - min) * 1.04;
    // World units per pixel must fit both the free band's height and the window's width.
    let per_pixel = (size.y / free).max(size.x / w);
    rig.zoom = (per_pixel * h).clamp(ZOOM_IN * 2.0, ZOOM_OUT);
    // Put the outline's centre at the centre of the free band, not of the window.
    let centre = (min + max) / 2.0;
    let shift_pixels = (top - bottom) / 2.0;
    let centre = centre + Vec2::new(0.0, shift_pixels * rig.zoom / h);
    let look = view.inverse() * centre.extend(0.0);
    // Slide along the view direction onto the ground plane of the world's middle height.
    let forward = view_rotation(yaw, ISO_PITCH) * Vec3::NEG_Z;
    let mid = top_height / 2.0;
    let t = (mid - look.y) / forward.y;
    rig.focus = look + forward * t;
    rig.framed = Some(key);
    info!(
        "framed the {}×{} world: a tile is {:.0} pixels",
        world.grid.width,
        world.grid.height,
        h / rig.zoom
    );
}

/// The camera's rotation for a heading and a pitch (0 looks level, π/2 straight down).
fn view_rotation(yaw: f32, pitch: f32) -> Quat {
    Quat::from_rotation_y(yaw) * Quat::from_rotation_x(-pitch)
}

fn steer(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    scroll: Res<AccumulatedMouseScroll>,
    motion: Res<AccumulatedMouseMotion>,
    windows: Query<&Window>,
    time: Res<Time>,
    hovered: Res<HoverMap>,
    nodes: Query<(), With<Node>>,
    layers: Res<Layers>,
    settings: Res<Settings>,
    mut rigs: Query<&mut Rig>,
) {
    let Ok(mut rig) = rigs.single_mut() else {
        return;
    };
    let dt = time.delta_secs();
    // A screen over the battle has the keys and the mouse.
    if !layers.is_empty() {
        rig.drag = 0.0;
        return;
    }
    let keys_of = &settings.keys;
    let held = |control| keys_of.pressed(control, &keys);
    let height = windows.iter().next().map_or(720.0, |w| w.height().max(1.0));
    // Zoom: the wheel in steps (unless it is over the HUD, which may scroll), the zoom keys held.
    let over_ui = hovered
        .get(&PointerId::Mouse)
        .is_some_and(|hits| hits.keys().any(|e| nodes.contains(*e)));
    let wheel = if over_ui { 0.0 } else { scroll.delta.y };
    let mut zoom = rig.zoom * (1.0 - 0.12 * wheel.clamp(-5.0, 5.0));
    if held(Control::ZoomIn) {
        zoom *= 1.0 - 1.5 * dt;
    }
    if held(Control::ZoomOut) {
        zoom *= 1.0 + 1.5 * dt;
    }
    rig.zoom = zoom.clamp(ZOOM_IN, ZOOM_OUT);
    // Pan in the screen's directions, whichever way the camera is turned.
    let forward = Quat::from_rotation_y(rig.yaw) * Vec3::NEG_Z;
    let right = Quat::from_rotation_y(rig.yaw) * Vec3::X;
    let mut pan = Vec2::ZERO;
    for (control, dir) in [
        (Control::PanUp, Vec2::Y),
        (Control::PanDown, Vec2::NEG_Y),
        (Control::PanLeft, Vec2::NEG_X),
        (Control::PanRight, Vec2::X),
    ] {
        if held(control) {
            pan += dir * rig.zoom * 0.8 * dt;
        }
    }
    if mouse.pressed(MouseButton::Right) {
        // World units per pixel; dragging moves the world with the cursor.
        let per_pixel = rig.zoom / height;
        pan += Vec2::new(-motion.delta.x, motion.delta.y / ISO_PITCH.sin()) * per_pixel;
    }
    rig.focus += right * pan.x + forward * pan.y;
    // Quarter turns: the turn keys, or a long enough middle-drag.
    if keys_of.just_pressed(Control::TurnLeft, &keys) {
        rig.turns -= 1;
    }
    if keys_of.just_pressed(Control::TurnRight, &keys) {
        rig.turns += 1;
    }
    if mouse.pressed(MouseButton::Middle) {
        rig.drag += motion.delta.x;
        if rig.drag.abs() > 120.0 {
            rig.turns += rig.drag.signum() as i32;
            rig.drag = 0.0;
        }
    } else {
        rig.drag = 0.0;
    }
}

/// Puts the camera where the rig says, turning it toward its quarter turns (at once with
/// reduced motion), shaken as the feedback says.
fn place(
    mut cameras: Query<(&mut Rig, &mut Transform, &mut Projection)>,
    time: Res<Time>,
    settings: Res<Settings>,
    shake: Res<Shake>,
) {
    let Ok((mut rig, mut transform, mut projection)) = cameras.single_mut() else {
        return;
    };
    let target = yaw_of(rig.turns);
    if settings.reduced_motion {
        rig.yaw = target;
    } else {
        rig.yaw += (target - rig.yaw) * (10.0 * time.delta_secs()).min(1.0);
    }
    // Tilt toward top-down over the closest third of the zoom range.
    let near = ((ZOOM_IN * 2.0 - rig.zoom) / ZOOM_IN).clamp(0.0, 1.0);
    let pitch = ISO_PITCH + (TOP_PITCH - ISO_PITCH) * near;
    let rotation = view_rotation(rig.yaw, pitch);
    // Built from the rotation, not `looking_at`, which has no up direction straight down.
    *transform = Transform {
        translation: rig.focus
            + rotation * (Vec3::Z * 60.0 + shake.camera().extend(0.0) * rig.zoom),
        rotation,
        ..default()
    };
    if let Projection::Orthographic(ortho) = &mut *projection {
        ortho.scaling_mode = ScalingMode::FixedVertical {
            viewport_height: rig.zoom,
        };
    }
}
