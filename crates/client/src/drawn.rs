//! What scripts draw (`game:draw_line`, `game:draw_ring`, `game:flash`), read from the battle's
//! log: lines as thin bars just above the ground, rings as flat bands on it, flashes as glowing
//! spheres that grow and fade. Each shows for its ticks of game time — it stays while the game
//! is paused — and goes when they are over, when the mods are loaded again or when the battle is
//! left.

use std::collections::HashMap;

use bevy::prelude::*;

use super::session::Game;
use super::settings::Settings;
use super::{ClientSet, Content, Screen, to_bevy};
use rampart_core::battle::{Battle, Figure, LogKind, Visual};
use rampart_core::content::colour::Rgb;

/// Draws what scripts drew.
pub struct DrawnPlugin;

impl Plugin for DrawnPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, make_looks).add_systems(
            Update,
            (
                forget.run_if(resource_changed::<Content>),
                (spawn, age).chain().run_if(in_state(Screen::Battle)),
            )
                .chain()
                .in_set(ClientSet::Present),
        );
    }
}

/// How high above the ground a line is drawn, in tiles: over the ground, under the units.
const LINE_HEIGHT: f32 = 0.15;

/// How high above the ground a ring lies, in tiles.
const RING_HEIGHT: f32 = 0.04;

/// How high above the ground a flash is centred, in tiles.
const FLASH_HEIGHT: f32 = 0.3;

/// A visual on screen: the tick it was drawn at and how many it lasts.
#[derive(Component)]
struct Shown {
    drawn_at: u64,
    ticks: u32,
    /// A flash's full radius, which it grows to, and its opacity at first, which it fades from.
    flash: Option<(f32, f32)>,
}

/// Whether a visual drawn at tick `drawn_at` for `ticks` ticks shows when the battle's next tick
/// is `now`. The tick that drew it has run once `now` is past it; it then shows for `ticks` more
/// ticks. A `now` not past it is another battle's (one continued from a save, say).
pub fn shows(drawn_at: u64, ticks: u32, now: u64) -> bool {
    drawn_at < now && now <= drawn_at + u64::from(ticks)
}

/// How far through its life a visual is, 0 to 1, at `now` plus `between` (the share of the
/// next tick that has passed).
pub fn progress(drawn_at: u64, ticks: u32, now: u64, between: f32) -> f32 {
    let lived = now.saturating_sub(drawn_at + 1) as f32 + between;
    (lived / ticks.max(1) as f32).clamp(0.0, 1.0)
}

/// A flash's size and opacity as shares of its full radius and alpha, `t` through its life: it
/// grows fast to its full size and fades out.
pub fn flash_at(t: f32) -> (f32, f32) {
    let t = t.clamp(0.0, 1.0);
    (0.3 + 0.7 * (1.0 - (1.0 - t).powi(3)), 1.0 - t)
}

/// The shared meshes, and a material per colour and opacity for lines and rings.
#[derive(Resource)]
struct Looks {
    cube: Handle<Mesh>,
    sphere: Handle<Mesh>,
    materials: HashMap<(Rgb, u8), Handle<StandardMaterial>>,
}

fn make_looks(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>) {
    commands.insert_resource(Looks {
        cube: meshes.add(Cuboid::new(1.0, 1.0, 1.0)),
        sphere: meshes.add(Sphere::new(1.0).mesh().uv(24, 12)),
        materials: HashMap::new(),
    });
}

/// A glowing material of `colour` at `alpha`, seen from both sides.
fn material(colour: Rgb, alpha: f32) -> StandardMaterial {
    let [r, g, b] = colour.unit();
    let color = Color::srgba(r, g, b, alpha);
    StandardMaterial {
        base_color: color,
        emissive: color.to_linear() * 1.5,
        unlit: true,
        alpha_mode: if alpha < 1.0 {
            AlphaMode::Blend
        } else {
            AlphaMode::Opaque
        },
        cull_mode: None,
        ..default()
    }
}

impl Looks {
    /// The shared material of `colour` at `alpha` (in hundredths, so that a few stand for all).
    fn shared(
        &mut self,
        materials: &mut Assets<StandardMaterial>,
        colour: Rgb,
        alpha: f64,
    ) -> Handle<StandardMaterial> {
        let hundredths = (alpha.clamp(0.0, 1.0) * 100.0).round() as u8;
        self.materials
            .entry((colour, hundredths))
            .or_insert_with(|| materials.add(material(colour, f32::from(hundredths) / 100.0)))
            .clone()
    }

    /// The mesh, material and place of `visual` in the world.
    fn bundle(
        &mut self,
        battle: &Battle,
        visual: &Visual,
        meshes: &mut Assets<Mesh>,
        materials: &mut Assets<StandardMaterial>,
    ) -> (Mesh3d, MeshMaterial3d<StandardMaterial>, Transform) {
        let ground = |x: f64, y: f64, above: f32| {
            let h = battle.field().map_or(0.0, |f| f.ground(x, y));
            to_bevy(x, y, h) + Vec3::Y * above
        };
        match visual.figure {
            Figure::Line { from, to, width } => {
                let (a, b) = (
                    ground(from.x, from.y, LINE_HEIGHT),
                    ground(to.x, to.y, LINE_HEIGHT),
                );
                let length = a.distance(b).max(1e-3);
                let width = width as f32;
                let mut at = Transform::from_translation((a + b) / 2.0);
                if a.distance(b) > 1e-3 {
                    at = at.looking_at(b, Vec3::Y);
                }
                (
                    Mesh3d(self.cube.clone()),
                    MeshMaterial3d(self.shared(materials, visual.colour, visual.alpha)),
                    at.with_scale(Vec3::new(width, width.min(0.05), length)),
                )
            }
            Figure::Ring {
                center,
                radius,
                width,
            } => {
                let outer = radius as f32 + width as f32 / 2.0;
                let inner = (radius as f32 - width as f32 / 2.0).max(0.0);
                (
                    Mesh3d(meshes.add(Annulus::new(inner, outer))),
                    MeshMaterial3d(self.shared(materials, visual.colour, visual.alpha)),
                    // The annulus lies in the XY plane; laid flat it faces up.
                    Transform::from_translation(ground(center.x, center.y, RING_HEIGHT))
                        .with_rotation(Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)),
                )
            }
            // Each flash fades on its own, so it has its own material.
            Figure::Flash { at, radius } => (
                Mesh3d(self.sphere.clone()),
                // Blended from the start, as it will fade.
                MeshMaterial3d(
                    materials.add(material(visual.colour, (visual.alpha as f32).min(0.99))),
                ),
                Transform::from_translation(ground(at.x, at.y, FLASH_HEIGHT))
                    .with_scale(Vec3::splat(radius as f32 * flash_at(0.0).0)),
            ),
        }
    }
}

/// Takes every visual away: the content changed (hot reload, mods switched), so the scripts
/// that drew them start afresh.
fn forget(mut commands: Commands, shown: Query<Entity, With<Shown>>) {
    for e in &shown {
        commands.entity(e).despawn();
    }
}

/// Puts what the last ticks drew on screen.
fn spawn(
    mut commands: Commands,
    game: NonSend<Game>,
    mut looks: ResMut<Looks>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let now = session.battle.tick();
    for entry in &session.frame_log {
        let LogKind::Drawn(visual) = &entry.kind else {
            continue;
        };
        // A battle brought back from a save logs again everything it drew; only what would
        // still show now is drawn.
        if !shows(entry.tick, visual.ticks, now) {
            continue;
        }
        let bundle = looks.bundle(&session.battle, visual, &mut meshes, &mut materials);
        commands.spawn((
            Shown {
                drawn_at: entry.tick,
                ticks: visual.ticks,
                flash: match visual.figure {
                    Figure::Flash { radius, .. } => Some((radius as f32, visual.alpha as f32)),
                    _ => None,
                },
            },
            bundle,
            DespawnOnExit(Screen::Battle),
        ));
    }
}

/// Grows and fades flashes (with reduced motion they only fade, at their full size), and takes
/// away what has shown its ticks.
fn age(
    mut commands: Commands,
    game: NonSend<Game>,
    settings: Res<Settings>,
    mut shown: Query<(
        Entity,
        &Shown,
        &mut Transform,
        &MeshMaterial3d<StandardMaterial>,
    )>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let now = session.battle.tick();
    let between = session.between_ticks();
    for (e, s, mut transform, material) in &mut shown {
        if !shows(s.drawn_at, s.ticks, now) {
            commands.entity(e).despawn();
            continue;
        }
        let Some((radius, alpha)) = s.flash else {
            continue;
        };
        let (size, opacity) = flash_at(progress(s.drawn_at, s.ticks, now, between));
        let size = if settings.reduced_motion { 1.0 } else { size };
        transform.scale = Vec3::splat(radius * size);
        if let Some(mut m) = materials.get_mut(&material.0) {
            m.base_color.set_alpha(alpha * opacity);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_visual_shows_for_its_ticks_after_the_tick_that_drew_it() {
        // Drawn during tick 10 for 3 ticks: shown once tick 10 has run (the next is 11), until
        // ticks 11, 12 and 13 have run too.
        let when: Vec<u64> = (5..20).filter(|&now| shows(10, 3, now)).collect();
        assert_eq!(when, [11, 12, 13]);
        // A battle at an earlier tick is another one: nothing of this one shows there.
        assert!(!shows(100, 10, 5));
        assert!(shows(0, 1, 1));
        assert!(!shows(0, 1, 2));
    }

    #[test]
    fn a_flash_grows_and_fades_over_its_life() {
        assert_eq!(progress(10, 4, 11, 0.0), 0.0);
        assert_eq!(progress(10, 4, 12, 0.5), 0.375);
        assert_eq!(progress(10, 4, 14, 1.0), 1.0);
        let steps: Vec<(f32, f32)> = (0..=10).map(|i| flash_at(i as f32 / 10.0)).collect();
        assert_eq!(steps[0], (0.3, 1.0));
        assert_eq!(steps[10], (1.0, 0.0));
        assert!(
            steps
                .windows(2)
                .all(|w| w[1].0 >= w[0].0 && w[1].1 < w[0].1)
        );
    }
}
