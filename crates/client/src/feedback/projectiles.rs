//! Shots in flight, drawn by their damage type ([`look_of`], the one table of how each type
//! looks): physical a small dark slug with a pale trail, explosive a shell arcing over with a
//! smoke trail that bursts where it lands, energy a bright bolt, hit-point loss a green glob.
//! Hits that do not fly (beams, chains, slams) take the same colours (`feedback`'s `react`). The
//! scene entities drawing shots are kept and reused from frame to frame.

use bevy::prelude::*;
use glam::DVec3;

use super::{Blast, Paints};
use crate::session::Game;
use crate::{Screen, to_bevy};
use rampart_core::battle::{EntityId, ShotKind};
use rampart_core::content::colour::Rgb;
use rampart_core::content::{DamageType, DamageTypes};

/// The shape of a shot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShotShape {
    /// Stretched along its flight: a slug, a bolt.
    Long,
    /// Round: a shell, a glob.
    Round,
}

/// How a shot of a damage type looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShotLook {
    /// Its shape.
    pub shape: ShotShape,
    /// Its colour, also that of its hits, beams and sparks.
    pub colour: Rgb,
    /// Whether it glows (a bolt) or is a lit solid (a slug, a shell).
    pub glow: bool,
    /// Its width, in tiles.
    pub size: f32,
    /// Its trail's colour, if it leaves one.
    pub trail: Option<Rgb>,
}

/// How each damage type's shots look, and in which order a shot of several types picks its look
/// (a meteor's physical and explosive blow looks explosive).
pub const LOOKS: [(DamageType, ShotLook); 4] = [
    (
        DamageType::Explosive,
        ShotLook {
            shape: ShotShape::Round,
            colour: Rgb(255, 150, 50),
            glow: false,
            size: 0.2,
            trail: Some(Rgb(120, 110, 100)),
        },
    ),
    (
        DamageType::Energy,
        ShotLook {
            shape: ShotShape::Long,
            colour: Rgb(110, 230, 255),
            glow: true,
            size: 0.09,
            trail: Some(Rgb(60, 160, 255)),
        },
    ),
    (
        DamageType::HpLoss,
        ShotLook {
            shape: ShotShape::Round,
            colour: Rgb(120, 235, 70),
            glow: true,
            size: 0.14,
            trail: Some(Rgb(60, 150, 40)),
        },
    ),
    (
        DamageType::Physical,
        ShotLook {
            shape: ShotShape::Long,
            colour: Rgb(255, 214, 120),
            glow: false,
            size: 0.07,
            trail: Some(Rgb(230, 220, 200)),
        },
    ),
];

/// The colours of the bodies of shots that do not glow: a physical slug (its look's colour is
/// its sparks' and tracer's) and an explosive shell.
const SLUG: Rgb = Rgb(58, 52, 44);
const SHELL: Rgb = Rgb(40, 38, 36);

/// The look of a shot or hit of `types`.
pub fn look_of(types: DamageTypes) -> ShotLook {
    LOOKS
        .iter()
        .find(|(t, _)| types.contains(*t))
        .map_or(LOOKS[3].1, |(_, look)| *look)
}

/// The colour a shot's body is drawn in.
fn body(look: &ShotLook) -> Rgb {
    match (look.glow, look.shape) {
        (true, _) => look.colour,
        (false, ShotShape::Long) => SLUG,
        (false, ShotShape::Round) => SHELL,
    }
}

/// The shells in the air at the end of the last frame: each that is gone now has landed.
#[derive(Resource, Default)]
pub struct Shells(Vec<Shell>);

/// A shell in the air: who fired it, where it lands, how far its blast reaches, its types.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Shell {
    source: EntityId,
    to: DVec3,
    radius: f64,
    types: DamageTypes,
}

impl Shells {
    /// Forgets every shell: the battle is left.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// A scene entity drawing a shot, with its body and trail as children.
#[derive(Component)]
pub(super) struct ShotMark;

/// The body of a shot.
#[derive(Component)]
pub(super) struct Body;

/// The trail of a shot, behind its body.
#[derive(Component)]
pub(super) struct Trail;

/// Which way a shot flies now, if it can be told.
fn heading(kind: &ShotKind, at: DVec3, target: Option<DVec3>) -> Option<Vec3> {
    let d = match kind {
        ShotKind::Straight { velocity, .. } => *velocity,
        ShotKind::Homing { .. } => target? - at,
        ShotKind::Ballistic { from, to, .. } => *to - *from,
    };
    let v = to_bevy(d.x, d.y, d.z);
    (v.length_squared() > 1e-9).then(|| v.normalize())
}

/// Draws the shots in flight, reusing their scene entities, and bursts the shells that landed.
pub(super) fn draw_shots(
    game: NonSend<Game>,
    mut paints: Paints,
    mut shells: ResMut<Shells>,
    mut marks: Query<(&mut Transform, &mut Visibility, &Children), With<ShotMark>>,
    mut parts: Query<
        (
            &mut Transform,
            &mut Visibility,
            &mut MeshMaterial3d<StandardMaterial>,
            Has<Trail>,
        ),
        Without<ShotMark>,
    >,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let battle = &session.battle;
    let shots = &battle.state().shots;
    let Paints {
        commands,
        fx,
        materials,
        ..
    } = &mut paints;
    let mut marks = marks.iter_mut();
    for shot in shots {
        let look = look_of(shot.types);
        let at = to_bevy(shot.position.x, shot.position.y, shot.position.z);
        let target = match shot.kind {
            ShotKind::Homing { target, .. } => battle.entity(target).map(|e| {
                let p = session.drawn_at(target, e.position);
                DVec3::new(p.x, p.y, shot.position.z)
            }),
            _ => None,
        };
        let dir = heading(&shot.kind, shot.position, target).unwrap_or(Vec3::NEG_Z);
        let place = Transform::from_translation(at).looking_to(dir, Vec3::Y);
        let body_size = match look.shape {
            ShotShape::Long => Vec3::new(look.size, look.size, look.size * 3.5),
            ShotShape::Round => Vec3::splat(look.size),
        };
        let trail_length = look.size * 6.0;
        let trail_size = Vec3::new(look.size * 0.45, look.size * 0.45, trail_length);
        let body_material = fx.material(materials, body(&look), look.glow);
        let trail_material = look
            .trail
            .map(|c| fx.finished(materials, c, super::Finish::Glow(2)));
        match marks.next() {
            Some((mut t, mut v, children)) => {
                *t = place;
                v.set_if_neq(Visibility::Visible);
                for child in children.iter() {
                    let Ok((mut t, mut v, mut m, is_trail)) = parts.get_mut(child) else {
                        continue;
                    };
                    let (material, size) = if is_trail {
                        match &trail_material {
                            Some(m) => (m.clone(), trail_size),
                            None => {
                                v.set_if_neq(Visibility::Hidden);
                                continue;
                            }
                        }
                    } else {
                        (body_material.clone(), body_size)
                    };
                    v.set_if_neq(Visibility::Inherited);
                    if m.0 != material {
                        m.0 = material;
                    }
                    t.scale = size;
                    t.translation = if is_trail {
                        Vec3::Z * trail_length / 2.0
                    } else {
                        Vec3::ZERO
                    };
                }
            }
            None => {
                let mut e = commands.spawn((
                    ShotMark,
                    place,
                    Visibility::Visible,
                    DespawnOnExit(Screen::Battle),
                ));
                e.with_children(|c| {
                    c.spawn((
                        Body,
                        Mesh3d(fx.sphere.clone()),
                        MeshMaterial3d(body_material),
                        Transform::from_scale(body_size),
                    ));
                    let (material, visibility) = match trail_material {
                        Some(m) => (m, Visibility::Inherited),
                        None => (
                            fx.material(materials, look.colour, true),
                            Visibility::Hidden,
                        ),
                    };
                    c.spawn((
                        Trail,
                        Mesh3d(fx.cube.clone()),
                        MeshMaterial3d(material),
                        Transform::from_translation(Vec3::Z * trail_length / 2.0)
                            .with_scale(trail_size),
                        visibility,
                    ));
                });
            }
        }
    }
    for (_, mut v, _) in marks {
        v.set_if_neq(Visibility::Hidden);
    }

    // Shells that were in the air and are no more have landed.
    let now: Vec<Shell> = shots
        .iter()
        .filter_map(|s| match s.kind {
            ShotKind::Ballistic { to, radius, .. } => Some(Shell {
                source: s.source,
                to,
                radius,
                types: s.types,
            }),
            _ => None,
        })
        .collect();
    let landed: Vec<Shell> = shells
        .0
        .iter()
        .filter(|old| !now.iter().any(|s| s.source == old.source && s.to == old.to))
        .copied()
        .collect();
    shells.0 = now;
    if landed.is_empty() {
        return;
    }
    let mut paint = paints.painter(battle.state().tick as u32);
    for shell in landed {
        let ground = battle
            .field()
            .map_or(0.0, |f| f.ground(shell.to.x, shell.to.y));
        paint.blast(Blast {
            at: to_bevy(shell.to.x, shell.to.y, ground),
            radius: shell.radius as f32,
            colour: look_of(shell.types).colour,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(types: &[DamageType]) -> ShotLook {
        look_of(types.iter().copied().collect())
    }

    #[test]
    fn every_damage_type_has_a_look_of_its_own() {
        let looks: Vec<ShotLook> = DamageType::ALL.iter().map(|t| of(&[*t])).collect();
        for (i, a) in looks.iter().enumerate() {
            for b in &looks[i + 1..] {
                assert_ne!(a.colour, b.colour);
            }
        }
        assert_eq!(of(&[DamageType::Energy]).shape, ShotShape::Long);
        assert!(of(&[DamageType::Energy]).glow);
        assert_eq!(of(&[DamageType::Explosive]).shape, ShotShape::Round);
    }

    #[test]
    fn a_shot_of_several_types_looks_like_the_first_in_the_table() {
        let meteor = of(&[DamageType::Physical, DamageType::Explosive]);
        assert_eq!(meteor, of(&[DamageType::Explosive]));
        // No type at all (a scripted hit) looks physical.
        assert_eq!(of(&[]), of(&[DamageType::Physical]));
    }

    #[test]
    fn a_slug_is_dark_and_a_bolt_its_own_colour() {
        let slug = of(&[DamageType::Physical]);
        assert_eq!(body(&slug), SLUG);
        let bolt = of(&[DamageType::Energy]);
        assert_eq!(body(&bolt), bolt.colour);
    }
}
