//! Models moving: a part's animations (spin, bob, pulse always; recoil when its building fires,
//! squash when its attacker is hit, a walk cycle from the distance its unit walked) set its
//! transform from the pose it was built in, and a tower's aiming parts turn together toward its
//! target.

use std::collections::HashSet;
use std::f32::consts::TAU;

use bevy::prelude::*;

use super::super::session::Game;
use super::super::to_bevy;
use super::super::units::Unit;
use rampart_core::battle::{EntityId, LogKind};
use rampart_core::content::model::{Anim, Part};

/// Seconds a recoil takes to come back, and a squash to spring back.
const KICK_SECONDS: f32 = 0.25;

/// The parent of a model's aiming parts: it turns about the model's vertical axis.
#[derive(Component)]
pub struct Pivot;

/// A part with animations: the pose it was built in, what moves it, and the unit it belongs to.
#[derive(Component)]
pub struct Animated {
    rest: Transform,
    anims: Vec<Anim>,
    /// The part's height, for walking (it swings about its top).
    height: f32,
    /// The model's root entity (a unit's, or an icon's stage).
    root: Entity,
}

impl Animated {
    /// `part`, built with the transform `rest`, in the model under `root`.
    pub fn new(part: &Part, rest: Transform, root: Entity) -> Animated {
        Animated {
            rest,
            anims: part.anim.clone(),
            height: part.size.1,
            root,
        }
    }
}

/// What happened to a unit that its model shows: when it last fired or was hit (in seconds of
/// [`Time`]), how far it has walked, and where it stood last frame.
#[derive(Component, Default)]
pub struct Kicks {
    fired: Option<f32>,
    hit: Option<f32>,
    walked: f32,
    last: Option<Vec3>,
    /// A shift of its cycles, so that a crowd does not bob in step.
    phase: f32,
}

impl Kicks {
    /// The kicks of a unit whose cycles are shifted by `phase` (0 to 1).
    pub fn with_phase(phase: f32) -> Kicks {
        Kicks { phase, ..default() }
    }
}

/// Notes the shots fired and the hits taken this frame, from the battle's log, and how far each
/// unit walked.
pub fn kick(
    game: NonSend<Game>,
    time: Res<Time>,
    mut units: Query<(&Unit, &Transform, &mut Kicks)>,
    // Kept from frame to frame, so that a frame allocates nothing; sets, as every unit asks.
    mut noted: Local<(HashSet<EntityId>, HashSet<EntityId>)>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let now = time.elapsed_secs();
    let (fired, hit) = &mut *noted;
    fired.clear();
    hit.clear();
    for entry in &session.frame_log {
        match entry.kind {
            LogKind::Event {
                chain: "tower_fired",
                entity: Some(id),
            } => {
                fired.insert(id);
            }
            LogKind::Damaged { target, amount, .. } if amount > 0.0 => {
                hit.insert(target);
            }
            _ => {}
        }
    }
    for (unit, t, mut kicks) in &mut units {
        if fired.contains(&unit.0) {
            kicks.fired = Some(now);
        }
        if hit.contains(&unit.0) {
            kicks.hit = Some(now);
        }
        if let Some(last) = kicks.last {
            kicks.walked += last.distance(t.translation);
        }
        if kicks.last != Some(t.translation) {
            kicks.last = Some(t.translation);
        }
    }
}

/// How strongly a kick `age` seconds old still shows: 1 at once, easing to 0.
fn fading(age: Option<f32>) -> f32 {
    match age {
        Some(a) if (0.0..KICK_SECONDS).contains(&a) => {
            let left = 1.0 - a / KICK_SECONDS;
            left * left
        }
        _ => 0.0,
    }
}

/// What a unit's model shows now: seconds since start, shifted by its phase; the kicks'
/// strengths; tiles walked.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Moment {
    /// Seconds, shifted by the unit's phase.
    pub time: f32,
    /// How strongly the last shot's recoil shows, 0 to 1.
    pub recoil: f32,
    /// How strongly the last hit's squash shows, 0 to 1.
    pub squash: f32,
    /// Tiles walked.
    pub walked: f32,
}

/// The transform of a part at rest in `rest`, `height` tall, animated by `anims` at `m`.
pub fn pose(rest: Transform, height: f32, anims: &[Anim], m: Moment) -> Transform {
    let mut t = rest;
    // A wave from 0 to 1 and back over `period` seconds.
    let wave = |period: f32| 0.5 - 0.5 * (TAU * m.time / period.max(0.05)).cos();
    for anim in anims {
        match *anim {
            Anim::Spin { turns } => {
                t.rotation *= Quat::from_rotation_y(TAU * turns * m.time);
            }
            Anim::Bob { height, period } => t.translation.y += height * wave(period),
            Anim::Pulse { amount, period } => t.scale *= 1.0 + amount * wave(period),
            Anim::Recoil { distance } => {
                t.translation.z -= distance * m.recoil;
            }
            Anim::Squash { amount } => {
                // Flatter and wider, its centre lowered with it, so it stays on what it stood on.
                let s = amount.clamp(0.0, 0.9) * m.squash;
                t.scale *= Vec3::new(1.0 + s / 2.0, 1.0 - s, 1.0 + s / 2.0);
                t.translation.y *= 1.0 - s;
            }
            Anim::Walk { swing, phase } => {
                // About the part's top: one step for each tile walked.
                let angle = swing.to_radians() * (TAU * (m.walked + phase)).sin();
                let top = t.translation + t.rotation * Vec3::Y * (height / 2.0);
                // Negative about x: the foot swings forward (+z) first.
                let swing = Quat::from_rotation_x(-angle);
                t.translation = top + swing * (t.translation - top);
                t.rotation = swing * t.rotation;
            }
        }
    }
    t
}

/// Poses every animated part of the battle's units.
pub fn animate(
    time: Res<Time>,
    units: Query<&Kicks>,
    mut parts: Query<(&Animated, &mut Transform)>,
) {
    let now = time.elapsed_secs();
    for (part, mut t) in &mut parts {
        let Ok(kicks) = units.get(part.root) else {
            continue;
        };
        let m = Moment {
            time: now + kicks.phase * 10.0,
            recoil: fading(kicks.fired.map(|f| now - f)),
            squash: fading(kicks.hit.map(|h| now - h)),
            walked: kicks.walked,
        };
        let posed = pose(part.rest, part.height, &part.anims, m);
        if *t != posed {
            *t = posed;
        }
    }
}

/// Turns each tower's aiming parts toward the attacker it aims at.
pub fn aim(
    game: NonSend<Game>,
    units: Query<(&Unit, &GlobalTransform)>,
    mut pivots: Query<(&ChildOf, &mut Transform), With<Pivot>>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    for (parent, mut t) in &mut pivots {
        let Ok((unit, at)) = units.get(parent.parent()) else {
            continue;
        };
        let Some(target) = session
            .battle
            .entity(unit.0)
            .and_then(|e| e.tower.as_ref())
            .and_then(|t| t.aiming_at)
            .and_then(|t| {
                session
                    .battle
                    .entity(t)
                    .map(|e| session.drawn_at(t, e.position))
            })
        else {
            continue;
        };
        // The target in the model's own space: its front is +z.
        let there = at
            .affine()
            .inverse()
            .transform_point3(to_bevy(target.x, target.y, 0.0));
        if there.x * there.x + there.z * there.z < 1e-6 {
            continue;
        }
        let turned = Quat::from_rotation_y(there.x.atan2(there.z));
        // Unchanged, the pivot is left alone: a changed transform is propagated to its parts.
        if t.rotation != turned {
            t.rotation = turned;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(time: f32) -> Moment {
        Moment { time, ..default() }
    }

    #[test]
    fn bob_rises_by_its_height_and_comes_back() {
        let rest = Transform::from_xyz(0.0, 0.5, 0.0);
        let bob = [Anim::Bob {
            height: 0.2,
            period: 2.0,
        }];
        assert_eq!(pose(rest, 1.0, &bob, at(0.0)).translation.y, 0.5);
        assert!((pose(rest, 1.0, &bob, at(1.0)).translation.y - 0.7).abs() < 1e-5);
        assert!((pose(rest, 1.0, &bob, at(2.0)).translation.y - 0.5).abs() < 1e-5);
    }

    #[test]
    fn spin_turns_about_the_vertical_axis() {
        let spin = [Anim::Spin { turns: 0.25 }];
        let t = pose(Transform::default(), 1.0, &spin, at(1.0));
        assert!((t.rotation * Vec3::Z).abs_diff_eq(Vec3::X, 1e-5));
    }

    #[test]
    fn recoil_and_squash_follow_their_kicks() {
        let rest = Transform::from_xyz(0.0, 0.4, 0.2);
        let anims = [Anim::Recoil { distance: 0.1 }, Anim::Squash { amount: 0.5 }];
        assert_eq!(pose(rest, 1.0, &anims, at(3.0)), rest);
        let kicked = Moment {
            recoil: 1.0,
            squash: 1.0,
            ..at(3.0)
        };
        let t = pose(rest, 1.0, &anims, kicked);
        assert!((t.translation.z - 0.1).abs() < 1e-5, "{t:?}");
        assert!((t.scale.y - 0.5).abs() < 1e-5 && t.scale.x > 1.0, "{t:?}");
        assert!((t.translation.y - 0.2).abs() < 1e-5, "{t:?}");
        assert_eq!(fading(Some(0.0)), 1.0);
        assert_eq!(fading(Some(KICK_SECONDS)), 0.0);
        assert_eq!(fading(None), 0.0);
    }

    #[test]
    fn legs_swing_about_their_top_a_step_a_tile() {
        // Built as parts are: a unit mesh scaled to the part's size.
        let rest = Transform::from_xyz(0.1, 0.2, 0.0).with_scale(Vec3::new(0.1, 0.4, 0.1));
        let walk = |phase| [Anim::Walk { swing: 30.0, phase }];
        let walked = |walked| Moment {
            walked,
            ..default()
        };
        // Still at every whole tile; a quarter tile on, swung fully forward about the top.
        assert!(
            pose(rest, 0.4, &walk(0.0), walked(2.0))
                .translation
                .abs_diff_eq(rest.translation, 1e-5)
        );
        let t = pose(rest, 0.4, &walk(0.0), walked(0.25));
        let top = Vec3::new(0.1, 0.4, 0.0);
        let foot = t.transform_point(Vec3::new(0.0, -0.5, 0.0));
        assert!(((top - foot).length() - 0.4).abs() < 1e-4, "{foot}");
        assert!(foot.z > 0.15, "swung forward: {foot}");
        // Half a cycle apart, the other leg swings back.
        let other = pose(rest, 0.4, &walk(0.5), walked(0.25));
        assert!(other.transform_point(Vec3::new(0.0, -0.5, 0.0)).z < -0.15);
    }
}
