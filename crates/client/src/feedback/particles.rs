//! Particles: sparks of hits, bursts of deaths and blasts, embers of burning. They live in one
//! bounded list — at most [`MAX_PARTICLES`], the oldest giving way to new ones — and are drawn by
//! a pool of as many scene entities, reused from frame to frame. What is off the screen is
//! neither started nor kept.

use std::collections::VecDeque;

use bevy::prelude::*;

use super::{Fx, View};
use crate::camera::Rig;
use rampart_core::content::colour::Rgb;

/// The most particles alive at once: a crowd dying together stays a few milliseconds of drawing.
pub const MAX_PARTICLES: usize = 600;

/// How fast particles fall, in tiles per second per second.
const GRAVITY: f32 = 6.0;

/// One particle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Particle {
    /// Where it is.
    pub at: Vec3,
    /// Where it goes, in tiles per second.
    pub velocity: Vec3,
    /// Its size at birth, in tiles; it shrinks to nothing over its life.
    pub size: f32,
    /// Its colour.
    pub colour: Rgb,
    /// Whether it glows (sparks, embers) or is lit like a solid (debris, dust).
    pub glow: bool,
    /// How strongly gravity pulls it: 1 for debris, 0 for sparks, below 0 for rising embers.
    pub weight: f32,
    /// Seconds lived.
    pub age: f32,
    /// Seconds it lives.
    pub life: f32,
}

/// The live particles, oldest first, never more than their cap.
#[derive(Resource, Debug)]
pub struct Particles {
    live: VecDeque<Particle>,
    cap: usize,
}

impl Default for Particles {
    fn default() -> Self {
        Particles::with_cap(MAX_PARTICLES)
    }
}

impl Particles {
    /// No particles, at most `cap` of them alive at once.
    pub fn with_cap(cap: usize) -> Particles {
        Particles {
            live: VecDeque::with_capacity(cap),
            cap,
        }
    }

    /// Allows at most `cap` alive from now on, the oldest beyond it giving way at once.
    pub fn set_cap(&mut self, cap: usize) {
        self.cap = cap;
        while self.live.len() > cap {
            self.live.pop_front();
        }
    }

    /// How many are alive.
    pub fn len(&self) -> usize {
        self.live.len()
    }

    /// Whether none are.
    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// Adds `p`; when the list is full the oldest particle, the nearest its end, gives way.
    pub fn add(&mut self, p: Particle) {
        if self.cap == 0 {
            return;
        }
        if self.live.len() >= self.cap {
            self.live.pop_front();
        }
        self.live.push_back(p);
    }

    /// `count` particles of `colour` thrown out from `at` in every direction at about `speed`
    /// tiles per second, each living about `life` seconds; `seed` varies the pattern between
    /// bursts without a random source (drawing never draws from the battle's).
    pub fn burst(&mut self, at: Vec3, look: Burst, seed: u32) {
        for i in 0..look.count {
            let h = spread(seed.wrapping_add(i.wrapping_mul(2_654_435_761)));
            let turn = h.x * std::f32::consts::TAU;
            let up = 0.2 + 0.8 * h.y;
            let flat = (1.0 - up * up).sqrt();
            let dir = Vec3::new(turn.cos() * flat, up, turn.sin() * flat);
            self.add(Particle {
                at,
                velocity: dir * look.speed * (0.5 + h.z),
                size: look.size * (0.7 + 0.6 * h.y),
                colour: look.colour,
                glow: look.glow,
                weight: look.weight,
                age: 0.0,
                life: look.life * (0.7 + 0.6 * h.z),
            });
        }
    }

    /// Moves every particle on by `dt` seconds and forgets the spent ones and those `view` no
    /// longer shows.
    pub fn step(&mut self, dt: f32, view: &View) {
        for p in &mut self.live {
            p.age += dt;
            p.velocity.y -= GRAVITY * p.weight * dt;
            p.at += p.velocity * dt;
        }
        self.live
            .retain(|p| p.age < p.life && p.at.y > -1.0 && view.shows(p.at));
    }

    /// The live particles, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Particle> {
        self.live.iter()
    }

    /// Forgets every particle: the battle is left.
    pub fn clear(&mut self) {
        self.live.clear();
    }
}

/// What a burst of particles looks like.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Burst {
    /// How many.
    pub count: u32,
    /// Their colour.
    pub colour: Rgb,
    /// Whether they glow.
    pub glow: bool,
    /// About how fast they fly out, tiles per second.
    pub speed: f32,
    /// About how big they start, in tiles.
    pub size: f32,
    /// About how long they live, in seconds.
    pub life: f32,
    /// How strongly gravity pulls them (see [`Particle::weight`]).
    pub weight: f32,
}

/// Three numbers in 0..1 from `seed`, well spread (a 32-bit integer hash, Wellons' "lowbias32").
fn spread(seed: u32) -> Vec3 {
    let mix = |mut x: u32| {
        x ^= x >> 16;
        x = x.wrapping_mul(0x7feb_352d);
        x ^= x >> 15;
        x = x.wrapping_mul(0x846c_a68b);
        x ^ (x >> 16)
    };
    let a = mix(seed);
    let b = mix(a);
    let c = mix(b);
    let unit = |x: u32| (x >> 8) as f32 / (1u32 << 24) as f32;
    Vec3::new(unit(a), unit(b), unit(c))
}

/// A scene entity drawing the particle at its index, reused frame after frame.
#[derive(Component)]
pub(super) struct ParticleMark;

/// Moves the particles on and draws them with the pool, growing it up to the cap and hiding
/// what is not needed this frame.
pub(super) fn draw(
    mut commands: Commands,
    time: Res<Time>,
    cameras: Query<(&Camera, &GlobalTransform), With<Rig>>,
    mut particles: ResMut<Particles>,
    mut fx: ResMut<Fx>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut marks: Query<
        (
            &mut Transform,
            &mut Visibility,
            &mut MeshMaterial3d<StandardMaterial>,
        ),
        With<ParticleMark>,
    >,
) {
    particles.step(time.delta_secs(), &View::of(&cameras));
    let mut live = particles.iter();
    for (mut t, mut v, mut m) in &mut marks {
        match live.next() {
            Some(p) => {
                let material = fx.material(&mut materials, p.colour, p.glow);
                if m.0 != material {
                    m.0 = material;
                }
                *t = Transform::from_translation(p.at).with_scale(Vec3::splat(p.shrunk()));
                v.set_if_neq(Visibility::Visible);
            }
            None => {
                v.set_if_neq(Visibility::Hidden);
            }
        }
    }
    for p in live {
        let material = fx.material(&mut materials, p.colour, p.glow);
        commands.spawn((
            ParticleMark,
            Mesh3d(fx.sphere.clone()),
            MeshMaterial3d(material),
            Transform::from_translation(p.at).with_scale(Vec3::splat(p.shrunk())),
            Visibility::Visible,
        ));
    }
}

impl Particle {
    /// Its drawn size now: shrinking to nothing as it ends.
    fn shrunk(&self) -> f32 {
        self.size * (1.0 - self.age / self.life).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn burst(count: u32) -> Burst {
        Burst {
            count,
            colour: Rgb(200, 40, 40),
            glow: true,
            speed: 2.0,
            size: 0.1,
            life: 1.0,
            weight: 1.0,
        }
    }

    #[test]
    fn spawning_ten_times_the_cap_keeps_at_most_the_cap() {
        let mut particles = Particles::default();
        let n = MAX_PARTICLES as u32;
        for i in 0..10 {
            particles.burst(Vec3::ZERO, burst(n), i);
            assert!(particles.len() <= MAX_PARTICLES, "{}", particles.len());
        }
        assert_eq!(particles.len(), MAX_PARTICLES);
        // The newest burst is what is left.
        particles.step(0.0, &View::everywhere());
        assert_eq!(particles.len(), MAX_PARTICLES);
        particles.set_cap(MAX_PARTICLES / 3);
        assert_eq!(particles.len(), MAX_PARTICLES / 3);
        let mut small = Particles::with_cap(10);
        small.burst(Vec3::ZERO, burst(100), 7);
        assert_eq!(small.len(), 10);
    }

    #[test]
    fn particles_end_with_their_life_and_off_the_screen() {
        let mut particles = Particles::default();
        particles.burst(Vec3::ZERO, burst(20), 1);
        particles.step(0.5, &View::everywhere());
        assert!(!particles.is_empty());
        particles.step(1.5, &View::everywhere());
        assert!(particles.is_empty(), "{}", particles.len());
        particles.burst(Vec3::ZERO, burst(20), 2);
        particles.step(0.01, &View(Some(Mat4::from_translation(Vec3::X * 10.0))));
        assert!(particles.is_empty());
    }

    #[test]
    fn a_burst_flies_out_and_debris_falls() {
        let mut particles = Particles::default();
        particles.burst(Vec3::ZERO, burst(50), 3);
        let first: Vec<Vec3> = particles.iter().map(|p| p.velocity).collect();
        // Not all the same way, and all upward at first.
        assert!(first.iter().any(|v| v.x > 0.0) && first.iter().any(|v| v.x < 0.0));
        assert!(first.iter().all(|v| v.y > 0.0));
        particles.step(0.25, &View::everywhere());
        for (p, v) in particles.iter().zip(&first) {
            assert!(
                (p.velocity.y - (v.y - GRAVITY * 0.25)).abs() < 1e-4,
                "{p:?}"
            );
        }
    }
}
