//! The camera: orthographic at the isometric angle, looking at a point on the world. The wheel
//! and T/G zoom, right-drag and WASD pan, Q/E and middle-drag turn it in quarter turns; close in,
//! it tilts toward looking straight down.

use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};

use bevy::camera::ScalingMode;
use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
use bevy::prelude::*;

use super::session::Game;
use super::{Screen, to_bevy};

/// The most and least world units shown from the top of the screen to the bottom.
const ZOOM_OUT: f32 = 40.0;
const ZOOM_IN: f32 = 5.0;
/// The isometric pitch (the angle whose tangent is 1/√2) and the tilt near full zoom.
const ISO_PITCH: f32 = 0.615_479_7;
const TOP_PITCH: f32 = 1.25;

/// Sets up and steers the camera.
pub struct CameraPlugin;

impl Plugin for CameraPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, spawn)
            .add_systems(OnEnter(Screen::Battle), frame_world)
            .add_systems(
                Update,
                (steer, place).chain().run_if(in_state(Screen::Battle)),
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
}

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
        Rig {
            focus: Vec3::ZERO,
            turns: 0,
            yaw: FRAC_PI_4,
            zoom: 20.0,
            drag: 0.0,
        },
        Transform::default(),
    ));
}

/// Centres the camera on the world of a new level, showing all of it.
fn frame_world(game: NonSend<Game>, mut rigs: Query<&mut Rig>) {
    let (Some(session), Ok(mut rig)) = (game.0.as_ref(), rigs.single_mut()) else {
        return;
    };
    let Some(field) = session.battle.field() else {
        return;
    };
    let grid = field.world().grid;
    let (cx, cy) = (
        f64::from(grid.width - 1) / 2.0,
        f64::from(grid.height - 1) / 2.0,
    );
    rig.focus = to_bevy(cx, cy, 0.5);
    rig.zoom = (grid.width.max(grid.height) as f32 * 0.75).clamp(ZOOM_IN, ZOOM_OUT);
}

fn steer(
    keys: Res<ButtonInput<KeyCode>>,
    mouse: Res<ButtonInput<MouseButton>>,
    scroll: Res<AccumulatedMouseScroll>,
    motion: Res<AccumulatedMouseMotion>,
    windows: Query<&Window>,
    time: Res<Time>,
    mut rigs: Query<&mut Rig>,
) {
    let Ok(mut rig) = rigs.single_mut() else {
        return;
    };
    let dt = time.delta_secs();
    let height = windows.iter().next().map_or(720.0, |w| w.height().max(1.0));
    // Zoom: the wheel in steps, T and G held.
    let mut zoom = rig.zoom * (1.0 - 0.12 * scroll.delta.y.clamp(-5.0, 5.0));
    if keys.pressed(KeyCode::KeyT) {
        zoom *= 1.0 - 1.5 * dt;
    }
    if keys.pressed(KeyCode::KeyG) {
        zoom *= 1.0 + 1.5 * dt;
    }
    rig.zoom = zoom.clamp(ZOOM_IN, ZOOM_OUT);
    // Pan in the screen's directions, whichever way the camera is turned.
    let forward = Quat::from_rotation_y(rig.yaw) * Vec3::NEG_Z;
    let right = Quat::from_rotation_y(rig.yaw) * Vec3::X;
    let mut pan = Vec2::ZERO;
    for (key, dir) in [
        (KeyCode::KeyW, Vec2::Y),
        (KeyCode::KeyS, Vec2::NEG_Y),
        (KeyCode::KeyA, Vec2::NEG_X),
        (KeyCode::KeyD, Vec2::X),
    ] {
        if keys.pressed(key) {
            pan += dir * rig.zoom * 0.8 * dt;
        }
    }
    if mouse.pressed(MouseButton::Right) {
        // World units per pixel; dragging moves the world with the cursor.
        let per_pixel = rig.zoom / height;
        pan += Vec2::new(-motion.delta.x, motion.delta.y / ISO_PITCH.sin()) * per_pixel;
    }
    rig.focus += right * pan.x + forward * pan.y;
    // Quarter turns: Q and E, or a long enough middle-drag.
    if keys.just_pressed(KeyCode::KeyQ) {
        rig.turns -= 1;
    }
    if keys.just_pressed(KeyCode::KeyE) {
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
    let target = FRAC_PI_4 + rig.turns as f32 * FRAC_PI_2;
    rig.yaw += (target - rig.yaw) * (10.0 * dt).min(1.0);
}

/// Puts the camera where the rig says.
fn place(mut cameras: Query<(&Rig, &mut Transform, &mut Projection)>) {
    let Ok((rig, mut transform, mut projection)) = cameras.single_mut() else {
        return;
    };
    // Tilt toward top-down over the closest third of the zoom range.
    let near = ((ZOOM_IN * 2.0 - rig.zoom) / ZOOM_IN).clamp(0.0, 1.0);
    let pitch = ISO_PITCH + (TOP_PITCH - ISO_PITCH) * near;
    let back = Quat::from_rotation_y(rig.yaw) * Quat::from_rotation_x(-pitch) * Vec3::Z;
    *transform =
        Transform::from_translation(rig.focus + back * 60.0).looking_at(rig.focus, Vec3::Y);
    if let Projection::Orthographic(ortho) = &mut *projection {
        ortho.scaling_mode = ScalingMode::FixedVertical {
            viewport_height: rig.zoom,
        };
    }
}
