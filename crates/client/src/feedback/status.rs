//! Status effects shown on the units that have them, in the colour of their badge under the HP
//! bar (`hp.rs`): freezing as a frost ring at the feet, burning as a flickering flame with
//! embers, a shield (and stealth) as a see-through shell, the effects that drive buildings —
//! overclocked, electrified, paralyzed — as a ring round the base (electrified also throwing
//! sparks), and a mod's own effect with a tint (`effects.ron`) as a ring in its tint. Each mark
//! stays as long as the effect does.

use std::collections::HashMap;

use bevy::prelude::*;

use super::particles::{Burst, Particles};
use super::{Fx, View, ground};
use crate::Screen;
use crate::camera::Rig;
use crate::hp::badge;
use crate::session::Game;
use crate::units::effect_tint;
use rampart_core::battle::{Effect, EntityId, EntityKind};
use rampart_core::content::colour::Rgb;
use rampart_core::content::{ContentDb, Size};

/// How an effect is marked on a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A ring lying round its feet.
    Ring,
    /// A flame over it, flickering, throwing embers.
    Flame,
    /// A see-through shell round it.
    Shell,
    /// A ring throwing sparks.
    Sparks,
}

/// How effect `name` is marked, if it is: the built-in effects by what they do, a mod's own
/// only when `effects.ron` gives it a tint (otherwise its badge alone shows it).
pub fn mark_of(name: &str, tinted: bool) -> Option<Mark> {
    match name {
        "freezing" | "overclocked" | "paralyzed" => Some(Mark::Ring),
        "burning" => Some(Mark::Flame),
        "shield" | "stealth" => Some(Mark::Shell),
        "electrified" => Some(Mark::Sparks),
        _ => tinted.then_some(Mark::Ring),
    }
}

/// An attacker's radius in tiles by its size class, which its marks fit round.
pub fn radius(size: Size) -> f32 {
    match size {
        Size::Small => 0.2,
        Size::Large => 0.32,
        Size::Boss => 0.48,
    }
}

/// The mark of each unit's effect, by unit and effect name.
#[derive(Resource, Default)]
pub struct Marks(HashMap<(EntityId, String), Entity>);

impl Marks {
    /// Forgets every mark: the battle is left.
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

/// A scene entity marking an effect on a unit.
#[derive(Component)]
pub(super) struct StatusMark {
    mark: Mark,
    /// Shifts its flicker from its neighbours'.
    phase: f32,
    /// Seconds since it last threw a particle.
    since: f32,
}

/// The colour an effect is marked in: its badge's.
fn colour_of(effect: &Effect, content: &ContentDb) -> Rgb {
    let tint = effect_tint(std::slice::from_ref(effect), content);
    let c = badge(effect, tint).1.to_srgba();
    let byte = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
    Rgb(byte(c.red), byte(c.green), byte(c.blue))
}

/// Keeps a mark on every unit for each of its marked effects, where the unit is drawn; removes
/// marks whose effect or unit is gone.
pub(super) fn mark(
    mut commands: Commands,
    game: NonSend<Game>,
    time: Res<Time>,
    mut fx: ResMut<Fx>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut marks: ResMut<Marks>,
    mut particles: ResMut<Particles>,
    cameras: Query<(&Camera, &GlobalTransform), With<Rig>>,
    mut shown: Query<(&mut StatusMark, &mut Transform)>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let battle = &session.battle;
    let content = battle.content();
    let view = View::of(&cameras);
    let dt = time.delta_secs();
    let now = time.elapsed_secs();
    let mut kept: HashMap<(EntityId, String), Entity> = HashMap::with_capacity(marks.0.len());
    for (id, e) in battle.entities() {
        if e.effects.is_empty() {
            continue;
        }
        let size = match e.kind {
            EntityKind::Attacker(a) => radius(content.attacker(a).size),
            _ => 0.42,
        };
        let feet = ground(battle, session.drawn_at(id, e.position));
        for effect in &e.effects {
            let tinted = effect_tint(std::slice::from_ref(effect), content).is_some();
            let Some(kind) = mark_of(&effect.name, tinted) else {
                continue;
            };
            let key = (id, effect.name.clone());
            let existing = marks.0.remove(&key);
            let entity = match existing.and_then(|m| shown.get_mut(m).ok().map(|s| (m, s))) {
                Some((m, (mut mark, mut t))) => {
                    *t = placed(mark.mark, feet, size, now + mark.phase);
                    mark.since += dt;
                    throw(
                        &mut mark,
                        feet,
                        size,
                        effect,
                        content,
                        &view,
                        &mut particles,
                    );
                    m
                }
                None => {
                    let colour = colour_of(effect, content);
                    let (mesh, material) = match kind {
                        Mark::Ring | Mark::Sparks => (
                            fx.ring.clone(),
                            fx.finished(&mut materials, colour, super::Finish::Glow(3)),
                        ),
                        Mark::Flame => (fx.cone.clone(), fx.material(&mut materials, colour, true)),
                        Mark::Shell => (
                            fx.sphere.clone(),
                            fx.finished(&mut materials, colour, super::Finish::Glass),
                        ),
                    };
                    let phase = (id.to_bits() % 17) as f32 * 0.37;
                    commands
                        .spawn((
                            StatusMark {
                                mark: kind,
                                phase,
                                since: 0.0,
                            },
                            Mesh3d(mesh),
                            MeshMaterial3d(material),
                            placed(kind, feet, size, now + phase),
                            DespawnOnExit(Screen::Battle),
                        ))
                        .id()
                }
            };
            kept.insert(key, entity);
        }
    }
    for (_, gone) in marks.0.drain() {
        if let Ok(mut e) = commands.get_entity(gone) {
            e.despawn();
        }
    }
    marks.0 = kept;
}

/// Where and how large a mark is drawn on a unit of radius `size` standing at `feet`, at time
/// `t` (a flame flickers, a ring breathes).
fn placed(mark: Mark, feet: Vec3, size: f32, t: f32) -> Transform {
    match mark {
        Mark::Ring | Mark::Sparks => {
            let r = size * 1.5 * (1.0 + 0.06 * (t * 4.0).sin());
            Transform::from_translation(feet + Vec3::Y * 0.06).with_scale(Vec3::new(r, 2.0, r))
        }
        Mark::Flame => {
            let flicker = 1.0 + 0.25 * (t * 13.0).sin() * (t * 7.3).cos();
            Transform::from_translation(feet + Vec3::Y * (size * 2.3)).with_scale(Vec3::new(
                size * 0.9,
                size * 1.4 * flicker,
                size * 0.9,
            ))
        }
        Mark::Shell => {
            Transform::from_translation(feet + Vec3::Y * size).with_scale(Vec3::splat(size * 2.8))
        }
    }
}

/// A burning unit throws an ember now and then, an electrified one a spark.
fn throw(
    mark: &mut StatusMark,
    feet: Vec3,
    size: f32,
    effect: &Effect,
    content: &ContentDb,
    view: &View,
    particles: &mut Particles,
) {
    let (every, weight, speed) = match mark.mark {
        Mark::Flame => (0.25, -0.15, 0.6),
        Mark::Sparks => (0.4, 0.4, 1.6),
        Mark::Ring | Mark::Shell => return,
    };
    if mark.since < every {
        return;
    }
    mark.since = 0.0;
    let at = feet + Vec3::Y * size * 2.0;
    if !view.shows(at) {
        return;
    }
    let seed = (mark.phase * 1000.0) as u32 ^ particles.len() as u32;
    particles.burst(
        at,
        Burst {
            count: 1,
            colour: colour_of(effect, content),
            glow: true,
            speed,
            size: 0.06,
            life: 0.6,
            weight,
        },
        seed,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use rampart_core::content::effects::BUILT_IN_EFFECTS;

    #[test]
    fn every_built_in_effect_is_marked_and_a_mod_effect_only_with_a_tint() {
        for name in BUILT_IN_EFFECTS {
            assert!(mark_of(name, false).is_some(), "{name}");
        }
        assert_eq!(mark_of("catalyzed", false), None);
        assert_eq!(mark_of("catalyzed", true), Some(Mark::Ring));
        assert_eq!(mark_of("freezing", false), Some(Mark::Ring));
        assert_eq!(mark_of("burning", false), Some(Mark::Flame));
        assert_eq!(mark_of("shield", false), Some(Mark::Shell));
    }

    #[test]
    fn a_flame_flickers_and_a_ring_lies_on_the_ground() {
        let feet = Vec3::new(1.0, 0.5, -2.0);
        let a = placed(Mark::Flame, feet, 0.2, 0.1);
        let b = placed(Mark::Flame, feet, 0.2, 0.2);
        assert_ne!(a.scale.y, b.scale.y);
        assert!(a.translation.y > feet.y);
        let ring = placed(Mark::Ring, feet, 0.2, 0.0);
        assert!((ring.translation.y - feet.y).abs() < 0.1);
        assert!(ring.scale.x > 0.2);
    }
}
