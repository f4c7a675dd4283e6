//! What happens in the battle, drawn: attackers as primitive models by type (shape and colour
//! from the type, size from its size class), moving smoothly between ticks and facing where they
//! walk (their HP indicators are `hp.rs`'s); buildings by kind, towers turning
//! toward their target; abilities as discs of their reach; attackers under a mod's own effect
//! with a tint (`effects.ron`) tinted halfway toward it; screen-space labels over the world.
//! Shots, hits, deaths and the numbers that pop up are `feedback`'s.

use std::collections::HashMap;

use bevy::prelude::*;

use super::palette::Palette;
use super::session::Game;
use super::{ClientSet, Screen, to_bevy};
use rampart_core::battle::{Effect, EntityId, EntityKind, LogKind};
use rampart_core::content::colour::Rgb;
use rampart_core::content::{BlueprintKind, ContentDb, Size};

/// Draws the battle's entities.
pub struct UnitsPlugin;

impl Plugin for UnitsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Shown>()
            .add_systems(Startup, make_looks)
            .add_systems(OnExit(Screen::Battle), forget)
            .add_systems(
                Update,
                (sync, tint_attackers, move_units, aim_turrets, place_labels)
                    .chain()
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// The scene entity drawing each battle entity.
#[derive(Resource, Default)]
struct Shown(HashMap<EntityId, Entity>);

/// A scene entity drawing battle entity `.0`.
#[derive(Component)]
pub struct Unit(pub EntityId);

/// The tint an attacker is drawn with now (from a mod's own effect on it), if any.
#[derive(Component, Default)]
struct Tint(Option<Rgb>);

/// The part of a tower that turns toward its target.
#[derive(Component)]
struct Turret;

/// A screen-space label following a point of the world or a unit: HP bars, pop-ups. A label
/// following a unit goes when the unit does.
#[derive(Component)]
pub struct Follow {
    /// The world point, when not following a unit.
    at: Vec3,
    /// The unit followed, if any.
    unit: Option<EntityId>,
    /// Pixels to shift by.
    offset: Vec2,
}

impl Follow {
    /// A label over unit `id`, shifted by `offset` pixels.
    pub fn unit(id: EntityId, offset: Vec2) -> Follow {
        Follow {
            at: Vec3::ZERO,
            unit: Some(id),
            offset,
        }
    }

    /// A label over the world point `at`, shifted by `offset` pixels.
    pub fn point(at: Vec3, offset: Vec2) -> Follow {
        Follow {
            at,
            unit: None,
            offset,
        }
    }

    /// Shifts the label by `by` pixels more.
    pub fn shift(&mut self, by: Vec2) {
        self.offset += by;
    }
}

/// Meshes and materials shared by many entities.
#[derive(Resource)]
struct Looks {
    sphere: Handle<Mesh>,
    cube: Handle<Mesh>,
    cone: Handle<Mesh>,
    cylinder: Handle<Mesh>,
    disc: Handle<Mesh>,
    by_name: HashMap<String, Handle<StandardMaterial>>,
}

fn make_looks(mut commands: Commands, mut meshes: ResMut<Assets<Mesh>>) {
    commands.insert_resource(Looks {
        sphere: meshes.add(
            Sphere::new(0.5)
                .mesh()
                .ico(2)
                .unwrap_or_else(|_| Sphere::new(0.5).mesh().build()),
        ),
        cube: meshes.add(Cuboid::new(1.0, 1.0, 1.0)),
        cone: meshes.add(Cone {
            radius: 0.5,
            height: 1.0,
        }),
        cylinder: meshes.add(Cylinder::new(0.5, 1.0)),
        disc: meshes.add(Cylinder::new(1.0, 0.04)),
        by_name: HashMap::new(),
    });
}

fn forget(mut shown: ResMut<Shown>) {
    shown.0.clear();
}

/// A stable number from a name, to pick shapes and colours.
fn hash(name: &str) -> u32 {
    name.bytes().fold(2_166_136_261u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(16_777_619)
    })
}

/// The colour an attacker type is drawn in: a colour word in its id, else one from its id's hash.
pub fn attacker_color(id: &str) -> Color {
    let words = [
        ("red", Color::srgb(0.85, 0.2, 0.2)),
        ("blue", Color::srgb(0.25, 0.4, 0.9)),
        ("green", Color::srgb(0.3, 0.75, 0.3)),
        ("yellow", Color::srgb(0.95, 0.85, 0.2)),
        ("purple", Color::srgb(0.6, 0.3, 0.8)),
        ("black", Color::srgb(0.15, 0.15, 0.18)),
        ("white", Color::srgb(0.92, 0.92, 0.92)),
        ("orange", Color::srgb(0.95, 0.55, 0.15)),
    ];
    words
        .iter()
        .find(|(w, _)| id.contains(w))
        .map(|(_, c)| *c)
        .unwrap_or_else(|| Color::hsl((hash(id) % 360) as f32, 0.65, 0.5))
}

impl Looks {
    fn material(
        &mut self,
        materials: &mut Assets<StandardMaterial>,
        name: &str,
        color: Color,
        translucent: bool,
    ) -> Handle<StandardMaterial> {
        self.by_name
            .entry(name.to_string())
            .or_insert_with(|| {
                materials.add(StandardMaterial {
                    base_color: if translucent {
                        color.with_alpha(0.3)
                    } else {
                        color
                    },
                    alpha_mode: if translucent {
                        AlphaMode::Blend
                    } else {
                        AlphaMode::Opaque
                    },
                    perceptual_roughness: 0.6,
                    ..default()
                })
            })
            .clone()
    }
}

/// One mesh of a unit's model, placed and scaled within the unit.
fn part(
    mesh: Handle<Mesh>,
    material: Handle<StandardMaterial>,
    at: Vec3,
    scale: Vec3,
) -> impl Bundle {
    (
        Mesh3d(mesh),
        MeshMaterial3d(material),
        Transform::from_translation(at).with_scale(scale),
    )
}

/// Spawns scene entities for new battle entities and removes those of gone ones.
fn sync(
    mut commands: Commands,
    mut game: NonSendMut<Game>,
    mut shown: ResMut<Shown>,
    mut looks: ResMut<Looks>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    palette: Res<Palette>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    // Buildings are drawn in their kind's colour: a new palette draws them again.
    if palette.is_changed() {
        for (_, e) in shown.0.drain() {
            commands.entity(e).despawn();
        }
    }
    let content = session.battle.content().clone();
    let hub = session.battle.state().hub;
    let gone: Vec<EntityId> = shown
        .0
        .keys()
        .copied()
        .filter(|id| session.battle.entity(*id).is_none())
        .collect();
    for id in gone {
        if let Some(e) = shown.0.remove(&id) {
            commands.entity(e).despawn();
        }
    }
    let new: Vec<(EntityId, EntityKind)> = session
        .battle
        .entities()
        .filter(|(id, _)| !shown.0.contains_key(id))
        .map(|(id, e)| (id, e.kind))
        .collect();
    for (id, kind) in new {
        let root = match kind {
            EntityKind::Attacker(a) => {
                let attacker = content.attacker(a);
                let size = match attacker.size {
                    Size::Small => 0.32,
                    Size::Large => 0.55,
                    Size::Boss => 0.8,
                };
                let shape = match hash(&attacker.id) % 3 {
                    0 => looks.sphere.clone(),
                    1 => looks.cube.clone(),
                    _ => looks.cone.clone(),
                };
                let material = looks.material(
                    &mut materials,
                    &attacker.id,
                    attacker_color(&attacker.id),
                    false,
                );
                commands
                    .spawn((
                        Unit(id),
                        Tint::default(),
                        Transform::default(),
                        Visibility::default(),
                        DespawnOnExit(Screen::Battle),
                        children![part(
                            shape,
                            material,
                            Vec3::new(0.0, size / 2.0, 0.0),
                            Vec3::splat(size)
                        )],
                    ))
                    .id()
            }
            EntityKind::Building(b) | EntityKind::Ability(b) => {
                let bp = content.blueprint(b);
                let is_hub = hub == Some(id);
                let color = if is_hub {
                    Color::srgb(0.95, 0.8, 0.3)
                } else {
                    palette.kind(bp.kind)
                };
                let material = looks.material(
                    &mut materials,
                    &format!("{} {color:?}", bp.id),
                    color,
                    bp.kind == BlueprintKind::Ability,
                );
                let mut e = commands.spawn((
                    Unit(id),
                    Transform::default(),
                    Visibility::default(),
                    DespawnOnExit(Screen::Battle),
                ));
                match bp.kind {
                    _ if is_hub => {
                        e.with_children(|c| {
                            c.spawn(part(
                                looks.cylinder.clone(),
                                material.clone(),
                                Vec3::new(0.0, 0.35, 0.0),
                                Vec3::new(0.9, 0.7, 0.9),
                            ));
                            c.spawn(part(
                                looks.cone.clone(),
                                material,
                                Vec3::new(0.0, 1.0, 0.0),
                                Vec3::new(0.7, 0.6, 0.7),
                            ));
                        });
                    }
                    BlueprintKind::Tower => {
                        e.with_children(|c| {
                            c.spawn(part(
                                looks.cylinder.clone(),
                                material.clone(),
                                Vec3::new(0.0, 0.2, 0.0),
                                Vec3::new(0.6, 0.4, 0.6),
                            ));
                            c.spawn((
                                Turret,
                                Transform::from_xyz(0.0, 0.45, 0.0),
                                Visibility::default(),
                                children![part(
                                    looks.cube.clone(),
                                    material,
                                    Vec3::new(0.0, 0.0, -0.2),
                                    Vec3::new(0.14, 0.14, 0.5)
                                )],
                            ));
                        });
                    }
                    BlueprintKind::Ability => {
                        let radius = bp.radius.unwrap_or(0.5) as f32;
                        e.insert(children![part(
                            looks.disc.clone(),
                            material,
                            Vec3::new(0.0, 0.05, 0.0),
                            Vec3::new(radius, 1.0, radius)
                        )]);
                    }
                    BlueprintKind::Economic | BlueprintKind::Special => {
                        let height = if bp.kind == BlueprintKind::Economic {
                            0.45
                        } else {
                            0.6
                        };
                        e.insert(children![part(
                            looks.cube.clone(),
                            material,
                            Vec3::new(0.0, height / 2.0, 0.0),
                            Vec3::new(0.6, height, 0.6)
                        )]);
                    }
                }
                e.id()
            }
        };
        shown.0.insert(id, root);
    }
    // What the last ticks logged that the player is told in words.
    for entry in session.frame_log.clone() {
        match entry.kind {
            LogKind::Refused { reason, .. } => session.notify(reason),
            LogKind::WaveStalled {
                wave,
                ticks,
                attackers,
            } => session.notify(format!(
                "Wave {wave} made no progress for {} s and was ended ({attackers} attackers taken away)",
                ticks / rampart_core::TICKS_PER_SECOND as u32
            )),
            LogKind::EntityLimit { limit } => session.notify(format!(
                "The battle holds {limit} attackers and buildings, the most it may: no more appear"
            )),
            _ => {}
        }
    }
}

/// The tint of an attacker under `effects`: that of the last of them whose look (`effects.ron`)
/// has one.
pub fn effect_tint(effects: &[Effect], content: &ContentDb) -> Option<Rgb> {
    effects
        .iter()
        .rev()
        .find_map(|e| content.effect_look(&e.name)?.tint)
}

/// `base` taken halfway toward `tint`.
pub fn tinted(base: Color, tint: Rgb) -> Color {
    let [r, g, b] = tint.unit();
    base.mix(&Color::srgb(r, g, b), 0.5)
}

/// Draws each attacker in its type's colour, or tinted by a mod's own effect on it.
fn tint_attackers(
    game: NonSend<Game>,
    mut looks: ResMut<Looks>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut units: Query<(&Unit, &mut Tint, &Children)>,
    mut parts: Query<&mut MeshMaterial3d<StandardMaterial>>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let content = session.battle.content();
    for (unit, mut tint, children) in &mut units {
        let Some(e) = session.battle.entity(unit.0) else {
            continue;
        };
        let EntityKind::Attacker(a) = e.kind else {
            continue;
        };
        let wanted = effect_tint(&e.effects, content);
        if tint.0 == wanted {
            continue;
        }
        tint.0 = wanted;
        let id = &content.attacker(a).id;
        let base = attacker_color(id);
        let material = match wanted {
            None => looks.material(&mut materials, id, base, false),
            Some(t) => looks.material(
                &mut materials,
                &format!("{id} tinted {} {} {}", t.0, t.1, t.2),
                tinted(base, t),
                false,
            ),
        };
        for child in children.iter() {
            if let Ok(mut m) = parts.get_mut(child) {
                m.0 = material.clone();
            }
        }
    }
}

/// Moves every unit to where it is drawn between ticks and turns attackers toward where they
/// walk.
fn move_units(game: NonSend<Game>, mut units: Query<(&Unit, &mut Transform)>) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let Some(field) = session.battle.field() else {
        return;
    };
    for (unit, mut t) in &mut units {
        let Some(e) = session.battle.entity(unit.0) else {
            continue;
        };
        let p = session.drawn_at(unit.0, e.position);
        t.translation = to_bevy(p.x, p.y, field.ground(p.x, p.y));
        if let Some((dx, dy)) = session.heading(unit.0, e.position) {
            // Models face −Z (north); turn that toward the heading (east, north in battle space).
            t.rotation = Quat::from_rotation_y((-dx as f32).atan2(dy as f32));
        }
    }
}

/// Turns each tower's turret toward the attacker it aims at.
fn aim_turrets(
    game: NonSend<Game>,
    towers: Query<(&Unit, &GlobalTransform, &Children)>,
    mut turrets: Query<&mut Transform, With<Turret>>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    for (unit, at, children) in &towers {
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
        let here = at.translation();
        let there = to_bevy(target.x, target.y, 0.0);
        let dir = Vec2::new(there.x - here.x, there.z - here.z);
        if dir.length_squared() < 1e-6 {
            continue;
        }
        for child in children.iter() {
            if let Ok(mut t) = turrets.get_mut(child) {
                t.rotation = Quat::from_rotation_y((-dir.x).atan2(-dir.y));
            }
        }
    }
}

/// Puts screen-space labels over their world points; labels of gone units go too.
fn place_labels(
    mut commands: Commands,
    game: NonSend<Game>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    mut labels: Query<(Entity, &Follow, &mut Node)>,
    scale: Res<UiScale>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let Ok((camera, eye)) = cameras.single() else {
        return;
    };
    let field = session.battle.field();
    for (e, follow, mut node) in &mut labels {
        let at = match follow.unit {
            Some(id) => match session.battle.entity(id) {
                Some(u) => {
                    let p = session.drawn_at(id, u.position);
                    let ground = field.map_or(0.0, |f| f.ground(p.x, p.y));
                    to_bevy(p.x, p.y, ground)
                }
                None => {
                    commands.entity(e).despawn();
                    continue;
                }
            },
            None => follow.at,
        };
        // The viewport's pixels are the window's; the UI's are scaled by the UI scale.
        if let Ok(screen) = camera.world_to_viewport(eye, at) {
            let screen = screen / scale.0;
            node.left = Val::Px(screen.x + follow.offset.x);
            node.top = Val::Px(screen.y + follow.offset.y);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rampart_core::battle::Lasting;
    use rampart_core::content::EffectLook;

    #[test]
    fn an_attacker_takes_the_tint_of_its_last_tinted_effect() {
        let mut content = ContentDb::default();
        let look = |name: &str, tint| EffectLook {
            name: name.into(),
            mod_id: "m".into(),
            tint,
            icon: None,
        };
        content.effect_looks = vec![
            look("dazed", Some(Rgb(255, 0, 0))),
            look("marked", Some(Rgb(0, 0, 255))),
            look("plain", None),
        ];
        let on = |names: &[&str]| -> Vec<Effect> {
            names
                .iter()
                .map(|n| Effect {
                    name: n.to_string(),
                    lasting: Lasting::Ticks(5),
                    magnitude: 0.0,
                    source: None,
                    age: 0,
                })
                .collect()
        };
        assert_eq!(effect_tint(&on(&[]), &content), None);
        assert_eq!(effect_tint(&on(&["burning", "plain"]), &content), None);
        assert_eq!(
            effect_tint(&on(&["dazed", "marked", "plain"]), &content),
            Some(Rgb(0, 0, 255))
        );
        assert_eq!(
            effect_tint(&on(&["marked", "burning", "dazed"]), &content),
            Some(Rgb(255, 0, 0))
        );
        let half = tinted(Color::srgb(0.0, 0.0, 0.0), Rgb(255, 255, 255)).to_srgba();
        assert!((half.red - 0.5).abs() < 1e-6, "{half:?}");
    }
}
