//! What the player sees of every hit: shots in flight by damage type ([`projectiles`]), beams,
//! slams and lightning for hits that do not fly, a flash on the attacker hit, a burst in its
//! colour when it dies, blasts drawn for their time, status effects on the units they hold
//! ([`status`]), the Hub flashing, the hull bar shaking and the camera shaking on a leak or a big
//! blast ([`shake`]), and damage and production as numbers that rise and fade. All of it is read
//! from the battle's log (`Session::frame_log`) and its state, never from a rule of its own; the
//! particles are bounded ([`particles`]).

pub mod particles;
pub mod projectiles;
pub mod shake;
pub mod status;

use std::collections::HashMap;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::camera::Rig;
use super::models::attacker_color;
use super::session::{Game, Session};
use super::settings::Settings;
use super::ui::label;
use super::units::Follow;
use super::{ClientSet, Screen, to_bevy};
use particles::{Burst, Particles};
use projectiles::{Shells, look_of};
use rampart_core::battle::{Battle, EntityId, EntityKind, LogKind, Position, Resource as Gain};
use rampart_core::content::colour::Rgb;
use rampart_core::content::model::Model;
use rampart_core::content::{AttackerId, Behaviour, ContentDb, DamageTypes, Projectile, Targets};
use shake::Shake;

/// Draws the feedback of the battle.
pub struct FeedbackPlugin;

impl Plugin for FeedbackPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Particles>()
            .init_resource::<Shake>()
            .init_resource::<Memory>()
            .init_resource::<Shells>()
            .init_resource::<status::Marks>()
            .add_systems(Startup, make_fx)
            .add_systems(OnExit(Screen::Battle), forget)
            .add_systems(
                Update,
                (
                    cap_particles,
                    react,
                    projectiles::draw_shots,
                    status::mark,
                    pulse,
                    fade,
                    particles::draw,
                    shake::settle,
                )
                    .chain()
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// Keeps the particles' cap at what the quality setting allows: fewer in low quality.
fn cap_particles(settings: Res<Settings>, mut particles: ResMut<Particles>) {
    if settings.is_changed() {
        particles.set_cap(settings.particles(particles::MAX_PARTICLES));
    }
}

/// The most damage and production numbers on screen at once: in a crowd more would be clutter
/// (and text is dear to lay out).
const MAX_POP_UPS: usize = 48;

/// How a feedback material reflects light.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Finish {
    /// Gives off light, added to what is behind; the number is its brightness in quarters (0 to
    /// 4), so that a glow can fade in a few steps with a few shared materials.
    Glow(u8),
    /// Lit like a solid.
    Solid,
    /// See-through, lit.
    Glass,
}

/// Meshes and materials shared by every piece of feedback.
#[derive(Resource)]
pub(crate) struct Fx {
    sphere: Handle<Mesh>,
    cube: Handle<Mesh>,
    ring: Handle<Mesh>,
    cone: Handle<Mesh>,
    materials: HashMap<(Rgb, Finish), Handle<StandardMaterial>>,
}

fn make_fx(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>) {
    commands.insert_resource(Fx {
        sphere: meshes.add(
            Sphere::new(0.5)
                .mesh()
                .ico(1)
                .unwrap_or_else(|_| Sphere::new(0.5).mesh().build()),
        ),
        cube: meshes.add(Cuboid::new(1.0, 1.0, 1.0)),
        ring: meshes.add(Torus::new(0.9, 1.0)),
        cone: meshes.add(Cone {
            radius: 0.5,
            height: 1.0,
        }),
        materials: HashMap::new(),
    });
}

impl Fx {
    /// The shared material of `colour`, glowing at full brightness or lit like a solid.
    fn material(
        &mut self,
        materials: &mut Assets<StandardMaterial>,
        colour: Rgb,
        glow: bool,
    ) -> Handle<StandardMaterial> {
        let finish = if glow { Finish::Glow(4) } else { Finish::Solid };
        self.finished(materials, colour, finish)
    }

    /// The shared material of `colour` with `finish`.
    fn finished(
        &mut self,
        materials: &mut Assets<StandardMaterial>,
        colour: Rgb,
        finish: Finish,
    ) -> Handle<StandardMaterial> {
        self.materials
            .entry((colour, finish))
            .or_insert_with(|| {
                let [r, g, b] = colour.unit();
                materials.add(match finish {
                    Finish::Glow(quarters) => {
                        let alpha = f32::from(quarters.min(4)) / 4.0;
                        StandardMaterial {
                            base_color: Color::srgba(r, g, b, alpha),
                            emissive: Color::srgb(r, g, b).to_linear() * 2.0 * alpha,
                            unlit: true,
                            alpha_mode: AlphaMode::Add,
                            ..default()
                        }
                    }
                    Finish::Solid => StandardMaterial {
                        base_color: Color::srgb(r, g, b),
                        perceptual_roughness: 0.7,
                        ..default()
                    },
                    Finish::Glass => StandardMaterial {
                        base_color: Color::srgba(r, g, b, 0.28),
                        alpha_mode: AlphaMode::Blend,
                        perceptual_roughness: 0.2,
                        ..default()
                    },
                })
            })
            .clone()
    }
}

/// What the camera shows: a point of the world is on the screen if it projects inside the view
/// (with a small margin, so that what flies in from the edge is not cut). Without a camera whose
/// projection is known, everything counts as shown.
pub struct View(Option<Mat4>);

impl View {
    /// The view of the game's camera.
    pub fn of(cameras: &Query<(&Camera, &GlobalTransform), With<Rig>>) -> View {
        View(
            cameras
                .iter()
                .next()
                .map(|(camera, at)| camera.clip_from_view() * at.affine().inverse()),
        )
    }

    /// A view that shows everything.
    pub fn everywhere() -> View {
        View(None)
    }

    /// Whether `at` is on the screen.
    pub fn shows(&self, at: Vec3) -> bool {
        let Some(clip_from_world) = self.0 else {
            return true;
        };
        let p = clip_from_world.project_point3(at);
        !p.is_finite() || (p.x.abs() <= 1.1 && p.y.abs() <= 1.1)
    }
}

/// What each entity of the battle was and where it stood at the end of the last frame: an
/// attacker that died, or a building removed, is gone from the battle by the time its log entry
/// is read. Also the flash on each attacker being flashed, so a second hit renews it.
#[derive(Resource, Default)]
struct Memory {
    seen: HashMap<EntityId, (EntityKind, Position)>,
    /// The battle's tick and number of entities when `seen` was taken: while they stay, so
    /// does the battle (most frames run no tick), and `seen` is not taken again.
    seen_at: Option<(u64, usize)>,
    flashes: HashMap<EntityId, Entity>,
}

/// Something that grows from one scale to another and goes: flashes, rings, beams. One that
/// follows a unit moves with it, and goes with it.
#[derive(Component)]
struct Pulse {
    age: f32,
    life: f32,
    from: Vec3,
    to: Vec3,
    /// The unit followed, and how high over its feet.
    follow: Option<(EntityId, f32)>,
    /// Its colour: it fades in quarter steps of brightness.
    colour: Rgb,
    /// The brightness drawn last, in quarters.
    shown: u8,
}

impl Pulse {
    fn new(life: f32, from: Vec3, to: Vec3, colour: Rgb) -> Pulse {
        Pulse {
            age: 0.0,
            life,
            from,
            to,
            follow: None,
            colour,
            shown: 4,
        }
    }
}

/// Something that rises and goes after a while: damage and production numbers.
#[derive(Component)]
struct Fading {
    age: f32,
    life: f32,
    /// Pixels a second it rises.
    rise: f32,
}

/// Forgets what was seen: the battle is left (its scene entities go with the screen).
fn forget(
    mut memory: ResMut<Memory>,
    mut particles: ResMut<Particles>,
    mut shells: ResMut<Shells>,
    mut shake: ResMut<Shake>,
    mut marks: ResMut<status::Marks>,
) {
    memory.seen.clear();
    memory.seen_at = None;
    memory.flashes.clear();
    particles.clear();
    shells.clear();
    marks.clear();
    *shake = Shake::default();
}

/// The point on the ground under battle point `p`.
fn ground(battle: &Battle, p: Position) -> Vec3 {
    to_bevy(p.x, p.y, battle.field().map_or(0.0, |f| f.ground(p.x, p.y)))
}

/// What entity `id` is and where it is drawn, or was when last seen.
fn find(session: &Session, memory: &Memory, id: EntityId) -> Option<(EntityKind, Vec3)> {
    let (kind, p) = match session.battle.entity(id) {
        Some(e) => (e.kind, session.drawn_at(id, e.position)),
        None => *memory.seen.get(&id)?,
    };
    Some((kind, ground(&session.battle, p)))
}

/// The colour an attacker type is drawn in: its model's largest part's, or the colour the units
/// give a type without a model.
pub fn attacker_colour(content: &ContentDb, attacker: AttackerId) -> Rgb {
    let kind = content.attacker(attacker);
    let largest = match &kind.model {
        Some(Model::Parts(parts)) => parts
            .iter()
            .max_by(|a, b| {
                let volume = |s: (f32, f32, f32)| s.0 * s.1 * s.2;
                volume(a.size).total_cmp(&volume(b.size))
            })
            .map(|p| p.rgb),
        _ => None,
    };
    largest.unwrap_or_else(|| {
        let c = attacker_color(&kind.id).to_srgba();
        let byte = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round() as u8;
        Rgb(byte(c.red), byte(c.green), byte(c.blue))
    })
}

/// How high over an attacker's feet its middle is, by its size.
fn middle(content: &ContentDb, kind: EntityKind) -> f32 {
    match kind {
        EntityKind::Attacker(a) => status::radius(content.attacker(a).size),
        _ => 0.5,
    }
}

/// Everything that makes a blast: a ring of its reach, a flash, debris and sparks, and for a big
/// one a shake of the camera.
struct Blast {
    at: Vec3,
    radius: f32,
    colour: Rgb,
}

/// A blast as large as the core's largest area hits (a meteor) shakes the camera fully.
const BIG_BLAST: f32 = 1.4;

/// What the systems that spawn feedback share: commands, the shared looks, the particles, the
/// shake and the camera.
#[derive(SystemParam)]
struct Paints<'w, 's> {
    commands: Commands<'w, 's>,
    fx: ResMut<'w, Fx>,
    materials: ResMut<'w, Assets<StandardMaterial>>,
    particles: ResMut<'w, Particles>,
    shake: ResMut<'w, Shake>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform), With<Rig>>,
}

impl<'w, 's> Paints<'w, 's> {
    /// A painter over these, its particle patterns varied by `seed`.
    fn painter(&mut self, seed: u32) -> Painter<'_, 'w, 's> {
        Painter {
            commands: &mut self.commands,
            fx: &mut self.fx,
            materials: &mut self.materials,
            particles: &mut self.particles,
            shake: &mut self.shake,
            view: View::of(&self.cameras),
            seed,
        }
    }
}

/// The spawning side of feedback: commands, the shared looks, the particles and the shake.
struct Painter<'a, 'w, 's> {
    commands: &'a mut Commands<'w, 's>,
    fx: &'a mut Fx,
    materials: &'a mut Assets<StandardMaterial>,
    particles: &'a mut Particles,
    shake: &'a mut Shake,
    view: View,
    /// Varies particle patterns from burst to burst.
    seed: u32,
}

impl Painter<'_, '_, '_> {
    /// A glowing pulse of `mesh`.
    fn pulse(&mut self, mesh: Handle<Mesh>, at: Transform, pulse: Pulse) -> Entity {
        let material = self.fx.material(self.materials, pulse.colour, true);
        self.commands
            .spawn((
                Mesh3d(mesh),
                MeshMaterial3d(material),
                at.with_scale(pulse.from),
                pulse,
                DespawnOnExit(Screen::Battle),
            ))
            .id()
    }

    /// A beam of `colour` from `from` to `to`, thinning away in `life` seconds.
    fn beam(&mut self, from: Vec3, to: Vec3, width: f32, colour: Rgb, life: f32) {
        let length = from.distance(to);
        if length < 1e-3 || !(self.view.shows(from) || self.view.shows(to)) {
            return;
        }
        let at = Transform::from_translation((from + to) / 2.0).looking_at(to, Vec3::Y);
        let pulse = Pulse::new(
            life,
            Vec3::new(width, width, length),
            Vec3::new(width * 0.2, width * 0.2, length),
            colour,
        );
        self.pulse(self.fx.cube.clone(), at, pulse);
    }

    /// `look` thrown out from `at`, if it is on the screen.
    fn burst(&mut self, at: Vec3, look: Burst) {
        if self.view.shows(at) {
            self.seed = self.seed.wrapping_add(0x9e37_79b9);
            self.particles.burst(at, look, self.seed);
        }
    }

    /// A ring on the ground at `at` growing to `radius`.
    fn ring(&mut self, at: Vec3, radius: f32, colour: Rgb, life: f32) {
        if !self.view.shows(at) {
            return;
        }
        let pulse = Pulse::new(
            life,
            Vec3::new(radius * 0.3, 1.0, radius * 0.3),
            Vec3::new(radius, 1.5, radius),
            colour,
        );
        let at = Transform::from_translation(at + Vec3::Y * 0.08);
        self.pulse(self.fx.ring.clone(), at, pulse);
    }

    /// A blast: its reach as a ring, a flash, debris and sparks; a big one shakes the camera.
    fn blast(&mut self, blast: Blast) {
        let Blast { at, radius, colour } = blast;
        if radius >= BIG_BLAST * 0.99 {
            self.shake.kick(0.35 * radius / BIG_BLAST);
        }
        if !self.view.shows(at) {
            return;
        }
        self.ring(at, radius, colour, 0.45);
        let flash = Pulse::new(
            0.3,
            Vec3::splat(radius * 0.4),
            Vec3::splat(radius * 1.1),
            Rgb(255, 214, 140),
        );
        self.pulse(
            self.fx.sphere.clone(),
            Transform::from_translation(at + Vec3::Y * 0.2),
            flash,
        );
        let count = (10.0 + 8.0 * radius) as u32;
        self.burst(
            at + Vec3::Y * 0.1,
            Burst {
                count,
                colour,
                glow: true,
                speed: 2.5 * radius,
                size: 0.12,
                life: 0.45,
                weight: 0.5,
            },
        );
        self.burst(
            at + Vec3::Y * 0.1,
            Burst {
                count: count / 2,
                colour: Rgb(70, 62, 55),
                glow: false,
                speed: 2.0 * radius,
                size: 0.1,
                life: 0.7,
                weight: 1.0,
            },
        );
    }
}

/// Reads what the last ticks logged and draws its feedback: numbers, hit flashes, beams, slams,
/// bolts from the sky, deaths, blasts, leaks.
fn react(
    game: NonSend<Game>,
    mut paints: Paints,
    mut memory: ResMut<Memory>,
    mut pulses: Query<&mut Pulse>,
    pop_ups: Query<(), With<Fading>>,
    settings: Res<Settings>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let battle = &session.battle;
    let content = battle.content();
    // With reduced motion, numbers stay where they appear.
    let rise = if settings.reduced_motion { 0.0 } else { 30.0 };
    let mut pop_ups = pop_ups.iter().count();
    let mut paint = paints.painter(battle.state().tick as u32);
    // Each slam drawn once a frame, as far as its farthest hit; a chain's hits joined one to
    // the next.
    let mut slams = HashMap::new();
    let mut chained: HashMap<EntityId, Vec3> = HashMap::new();
    for entry in &session.frame_log {
        match &entry.kind {
            LogKind::Damaged {
                target,
                amount,
                source,
                types,
            } if *amount >= 0.5 => {
                let Some((kind, at)) = find(session, &memory, *target) else {
                    continue;
                };
                let lift = middle(content, kind);
                let hit = at + Vec3::Y * lift;
                if pop_ups < MAX_POP_UPS {
                    pop_ups += 1;
                    pop_up(
                        paint.commands,
                        at,
                        format!("{amount:.0}"),
                        Color::srgb(1.0, 0.85, 0.3),
                        rise,
                    );
                }
                let look = look_of(*types);
                flash(&mut paint, &mut memory, &mut pulses, *target, lift);
                paint.burst(
                    hit,
                    Burst {
                        count: 3,
                        colour: look.colour,
                        glow: true,
                        speed: 1.5,
                        size: 0.07,
                        life: 0.25,
                        weight: 0.3,
                    },
                );
                if let Some(source) = source {
                    let from = find(session, &memory, *source);
                    hit_from(
                        &mut paint,
                        content,
                        (*source, from),
                        (hit, *types),
                        &mut slams,
                        &mut chained,
                    );
                }
            }
            LogKind::Gained {
                resource,
                amount,
                source: Some(source),
            } if *amount > 0.0 && pop_ups < MAX_POP_UPS => {
                if let Some(e) = battle.entity(*source) {
                    pop_ups += 1;
                    let (what, color) = match resource {
                        Gain::Fuel => ("fuel", Color::srgb(1.0, 0.6, 0.2)),
                        Gain::Materials => ("mat", Color::srgb(0.7, 0.9, 1.0)),
                        Gain::Energy => ("energy", Color::srgb(0.5, 1.0, 0.6)),
                    };
                    let text = format!("+{amount:.0} {what}");
                    pop_up(
                        paint.commands,
                        ground(battle, e.position),
                        text,
                        color,
                        rise,
                    );
                }
            }
            LogKind::Killed { attacker, .. } => {
                if let Some((EntityKind::Attacker(a), at)) = find(session, &memory, *attacker) {
                    let lift = status::radius(content.attacker(a).size);
                    paint.burst(
                        at + Vec3::Y * lift,
                        Burst {
                            count: 14,
                            colour: attacker_colour(content, a),
                            glow: false,
                            speed: 2.2,
                            size: 0.09 + 0.1 * lift,
                            life: 0.6,
                            weight: 1.0,
                        },
                    );
                }
            }
            LogKind::Blast { blueprint, at, .. } => {
                let bp = content.blueprint(*blueprint);
                paint.blast(Blast {
                    at: ground(battle, *at),
                    radius: bp.radius.unwrap_or(1.0) as f32,
                    colour: look_of(bp.damage_type).colour,
                });
            }
            LogKind::Event {
                chain: "attacker_reached_hub",
                ..
            } => {
                paint.shake.leak();
                let hub = battle.state().hub.and_then(|h| battle.entity(h));
                if let Some(hub) = hub {
                    let at = ground(battle, hub.position) + Vec3::Y * 0.6;
                    let flash =
                        Pulse::new(0.5, Vec3::splat(0.8), Vec3::splat(2.2), Rgb(255, 60, 50));
                    paint.pulse(
                        paint.fx.sphere.clone(),
                        Transform::from_translation(at),
                        flash,
                    );
                }
            }
            LogKind::Event {
                chain: "building_removed",
                entity: Some(id),
            } => {
                if let Some((_, at)) = find(session, &memory, *id) {
                    paint.burst(
                        at + Vec3::Y * 0.2,
                        Burst {
                            count: 16,
                            colour: Rgb(150, 140, 125),
                            glow: false,
                            speed: 1.2,
                            size: 0.16,
                            life: 0.8,
                            weight: -0.1,
                        },
                    );
                }
            }
            _ => {}
        }
    }
    for (at, (reach, colour)) in slams.into_values() {
        paint.ring(at, reach.max(0.6) + 0.3, colour, 0.35);
    }
    let now = (battle.state().tick, battle.state().entities.len());
    if memory.seen_at != Some(now) {
        memory.flashes.retain(|id, _| battle.entity(*id).is_some());
        memory.seen.clear();
        memory
            .seen
            .extend(battle.entities().map(|(id, e)| (id, (e.kind, e.position))));
        memory.seen_at = Some(now);
    }
}

/// The flash on a unit hit: a short glow around it, renewed by another hit.
fn flash(
    paint: &mut Painter,
    memory: &mut Memory,
    pulses: &mut Query<&mut Pulse>,
    target: EntityId,
    lift: f32,
) {
    if let Some(mut pulse) = memory
        .flashes
        .get(&target)
        .and_then(|e| pulses.get_mut(*e).ok())
    {
        pulse.age = 0.0;
        return;
    }
    let mut pulse = Pulse::new(
        0.12,
        Vec3::splat(lift * 2.6),
        Vec3::splat(lift * 2.2),
        Rgb(255, 250, 235),
    );
    pulse.follow = Some((target, lift));
    let e = paint.pulse(paint.fx.sphere.clone(), Transform::default(), pulse);
    memory.flashes.insert(target, e);
}

/// What a hit from `source` looks like besides the shot that brought it: a beam from an instant
/// shooter, a chain's jump from its last target, a bolt from the sky for an energy ability; a
/// slam that hits everything in reach is noted in `slams` (where, how far it reached, its
/// colour), to be drawn once. Shots that fly are drawn in flight.
fn hit_from(
    paint: &mut Painter,
    content: &ContentDb,
    (source, found): (EntityId, Option<(EntityKind, Vec3)>),
    (hit, types): (Vec3, DamageTypes),
    slams: &mut HashMap<EntityId, (Vec3, (f32, Rgb))>,
    chained: &mut HashMap<EntityId, Vec3>,
) {
    let Some((kind, at)) = found else {
        return;
    };
    let colour = look_of(types).colour;
    match kind {
        EntityKind::Building(b) => match &content.blueprint(b).behaviour {
            Some(Behaviour::Shooter(s)) => {
                let muzzle = at + Vec3::Y * s.muzzle_height as f32;
                match s.projectile {
                    Projectile::Instant if s.targets == Targets::All => {
                        let reach = Vec2::new(hit.x - at.x, hit.z - at.z).length();
                        let (_, (farthest, _)) =
                            slams.entry(source).or_insert((at, (reach, colour)));
                        *farthest = farthest.max(reach);
                    }
                    Projectile::Instant => paint.beam(muzzle, hit, 0.07, colour, 0.15),
                    Projectile::Chain { .. } => {
                        let from = chained.insert(source, hit).unwrap_or(muzzle);
                        paint.beam(from, hit, 0.06, colour, 0.2);
                    }
                    _ => {}
                }
            }
            _ => paint.beam(at + Vec3::Y * 0.5, hit, 0.05, colour, 0.15),
        },
        EntityKind::Ability(_) if types.contains(rampart_core::content::DamageType::Energy) => {
            paint.beam(hit + Vec3::new(0.4, 9.0, 0.4), hit, 0.12, colour, 0.25);
        }
        _ => {}
    }
}

/// A number over the world that rises (`rise` pixels a second) and fades.
fn pop_up(commands: &mut Commands, at: Vec3, text: String, color: Color, rise: f32) {
    commands.spawn((
        Follow::point(at, Vec2::new(-8.0, -40.0)),
        Node {
            position_type: PositionType::Absolute,
            ..default()
        },
        label(text, 13.0, color),
        Pickable::IGNORE,
        Fading {
            age: 0.0,
            life: 1.0,
            rise,
        },
        DespawnOnExit(Screen::Battle),
    ));
}

/// Ages pulses: each grows from its first scale to its last, fading in quarter steps, follows
/// its unit, and goes at its end or with its unit.
fn pulse(
    mut commands: Commands,
    time: Res<Time>,
    game: NonSend<Game>,
    mut fx: ResMut<Fx>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut pulses: Query<(
        Entity,
        &mut Pulse,
        &mut Transform,
        &mut MeshMaterial3d<StandardMaterial>,
    )>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let dt = time.delta_secs();
    for (e, mut p, mut t, mut m) in &mut pulses {
        p.age += dt;
        let followed = p.follow.map(|(id, lift)| {
            session
                .battle
                .entity(id)
                .map(|u| ground(&session.battle, session.drawn_at(id, u.position)) + Vec3::Y * lift)
        });
        if p.age >= p.life || followed == Some(None) {
            commands.entity(e).despawn();
            continue;
        }
        if let Some(Some(at)) = followed {
            t.translation = at;
        }
        let share = p.age / p.life;
        let eased = 1.0 - (1.0 - share) * (1.0 - share);
        t.scale = p.from.lerp(p.to, eased);
        let quarters = (4.0 * (1.0 - share)).ceil() as u8;
        if quarters != p.shown {
            p.shown = quarters;
            m.0 = fx.finished(&mut materials, p.colour, Finish::Glow(quarters));
        }
    }
}

/// Ages numbers, raising them and finally removing them.
fn fade(
    mut commands: Commands,
    time: Res<Time>,
    mut fading: Query<(Entity, &mut Fading, &mut Follow)>,
) {
    let dt = time.delta_secs();
    for (e, mut f, mut follow) in &mut fading {
        f.age += dt;
        if f.age >= f.life {
            commands.entity(e).despawn();
            continue;
        }
        follow.shift(Vec2::new(0.0, -f.rise * dt));
    }
}
