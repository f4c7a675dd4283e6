//! What happens in the battle, drawn: attackers and buildings as their models (`models/`: the
//! blueprint's or attacker type's own, or a plain default), rebuilt when a content reload
//! changes them; attackers moving smoothly between ticks and facing where they walk (their HP
//! indicators are `hp.rs`'s), towers' aiming parts turning toward their target; attackers
//! under a mod's own effect with a tint (`effects.ron`) tinted halfway toward it; screen-space
//! labels over the world. Shots, hits, deaths and the numbers that pop up are `feedback`'s.

use std::collections::HashMap;
use std::sync::Arc;

use bevy::prelude::*;

use super::camera::Rig;
use super::models::anim::{self, Kicks};
use super::models::build::{Builder, Look};
use super::models::{attacker_model, blueprint_model, folder};
use super::palette::Palette;
use super::session::Game;
use super::{ClientSet, Screen, to_bevy};
use rampart_core::battle::{Effect, EntityId, EntityKind, LogKind};
use rampart_core::content::ContentDb;
use rampart_core::content::colour::Rgb;
use rampart_core::content::model::Model;

/// Draws the battle's entities.
pub struct UnitsPlugin;

impl Plugin for UnitsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Shown>()
            .add_systems(OnExit(Screen::Battle), forget)
            .add_systems(
                Update,
                (
                    sync,
                    tint_attackers,
                    move_units,
                    anim::kick,
                    anim::animate,
                    anim::aim,
                    place_labels,
                )
                    .chain()
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// The scene entity drawing each battle entity, and the content they were drawn from.
#[derive(Resource, Default)]
struct Shown(HashMap<EntityId, Entity>, Option<Arc<ContentDb>>);

/// The model a unit is drawn with, to see whether reloaded content changed it.
#[derive(Component)]
struct Drawn(Model);

/// A scene entity drawing battle entity `.0`.
#[derive(Component)]
pub struct Unit(pub EntityId);

/// The tint an attacker is drawn with now (from a mod's own effect on it), if any.
#[derive(Component, Default)]
struct Tint(Option<Rgb>);

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

fn forget(mut shown: ResMut<Shown>) {
    shown.0.clear();
}

/// Spawns scene entities for new battle entities and removes those of gone ones.
fn sync(
    mut commands: Commands,
    mut game: NonSendMut<Game>,
    mut shown: ResMut<Shown>,
    mut builder: Builder,
    mut drawn: Query<(&Unit, &mut Drawn, &mut Tint)>,
    palette: Res<Palette>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    // Default buildings are drawn in their kind's colour: a new palette draws them again.
    if palette.is_changed() {
        for (_, e) in shown.0.drain() {
            commands.entity(e).despawn();
        }
    }
    let content = session.battle.content().clone();
    let hub = session.battle.state().hub;
    let model = |kind: EntityKind, id: EntityId| match kind {
        EntityKind::Attacker(a) => {
            let a = content.attacker(a);
            (attacker_model(a), folder(&content, &a.id))
        }
        EntityKind::Building(b) | EntityKind::Ability(b) => {
            let bp = content.blueprint(b);
            let model = blueprint_model(bp, hub == Some(id), &palette);
            (model, folder(&content, &bp.id))
        }
    };
    // Reloaded content: units whose model changed are built again.
    if shown.1.as_ref().is_some_and(|c| !Arc::ptr_eq(c, &content)) {
        for (unit, mut was, mut tint) in &mut drawn {
            let (Some(e), Some(&root)) = (session.battle.entity(unit.0), shown.0.get(&unit.0))
            else {
                continue;
            };
            let (now, folder) = model(e.kind, unit.0);
            if now != was.0 {
                commands.entity(root).despawn_related::<Children>();
                builder.spawn(&mut commands, root, &now, &folder);
                was.0 = now;
                // The new parts are untinted: tinted again as the unit's effects say.
                tint.0 = None;
            }
        }
    }
    shown.1 = Some(content.clone());
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
        let (model, folder) = model(kind, id);
        let root = commands
            .spawn((
                Unit(id),
                Tint::default(),
                Kicks::with_phase(phase(id)),
                Transform::default(),
                Visibility::default(),
                DespawnOnExit(Screen::Battle),
            ))
            .id();
        builder.spawn(&mut commands, root, &model, &folder);
        commands.entity(root).insert(Drawn(model));
        shown.0.insert(id, root);
    }
    // What the last ticks logged that the player is told in words (the log is not copied: a
    // frame of a big battle logs thousands of hits).
    let notices: Vec<String> = session
        .frame_log
        .iter()
        .filter_map(|entry| match &entry.kind {
            LogKind::Refused { reason, .. } => Some(reason.clone()),
            LogKind::WaveStalled {
                wave,
                ticks,
                attackers,
            } => Some(format!(
                "Wave {wave} made no progress for {} s and was ended ({attackers} attackers taken away)",
                ticks / rampart_core::TICKS_PER_SECOND as u32
            )),
            LogKind::EntityLimit { limit } => Some(format!(
                "The battle holds {limit} attackers and buildings, the most it may: no more appear"
            )),
            _ => None,
        })
        .collect();
    for notice in notices {
        session.notify(notice);
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

/// Draws each attacker in its model's colours, or tinted by a mod's own effect on it.
fn tint_attackers(
    game: NonSend<Game>,
    mut builder: Builder,
    mut units: Query<(Entity, &Unit, &mut Tint)>,
    children: Query<&Children>,
    mut parts: Query<(&mut Look, &mut MeshMaterial3d<StandardMaterial>)>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let content = session.battle.content();
    for (root, unit, mut tint) in &mut units {
        let Some(e) = session.battle.entity(unit.0) else {
            continue;
        };
        if !matches!(e.kind, EntityKind::Attacker(_)) {
            continue;
        }
        let wanted = effect_tint(&e.effects, content);
        if tint.0 == wanted {
            continue;
        }
        tint.0 = wanted;
        for part in children.iter_descendants(root) {
            if let Ok((mut look, mut material)) = parts.get_mut(part) {
                look.tint = wanted;
                material.0 = builder.material(*look);
            }
        }
    }
}

/// A number from 0 to 1 for unit `id`, shifting its animations' cycles from its neighbours'.
fn phase(id: EntityId) -> f32 {
    // Fibonacci hashing spreads consecutive ids over the cycle.
    let h = id.to_bits().wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 40) as f32 / (1u64 << 24) as f32
}

/// The tile size, in pixels, at which core's attacker models read by shape as they are. Seen
/// smaller (a level's whole 15×15 world framed at 1280×720 shows a tile as 36 pixels, and a
/// slime is then about 10 pixels across), attackers are drawn larger, at most [`MAX_BOOST`]
/// times, so a slime, a skeleton and a skull stay apart.
const READABLE_TILE_PX: f32 = 64.0;
/// The most an attacker is enlarged: beyond it a crowd would hide the path it walks.
const MAX_BOOST: f32 = 1.8;

/// How much larger than their model attackers are drawn when a tile is `tile_px` pixels.
pub fn attacker_boost(tile_px: f32) -> f32 {
    (READABLE_TILE_PX / tile_px.max(1.0)).clamp(1.0, MAX_BOOST)
}

/// Moves every unit to where it is drawn between ticks and turns attackers toward where they
/// walk; attackers are enlarged as far out as the camera is ([`attacker_boost`]).
fn move_units(
    game: NonSend<Game>,
    rigs: Query<&Rig>,
    windows: Query<&Window>,
    mut units: Query<(&Unit, &mut Transform)>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let Some(field) = session.battle.field() else {
        return;
    };
    let height = windows.iter().next().map_or(720.0, Window::height);
    let boost = rigs
        .single()
        .map_or(1.0, |rig| attacker_boost(height / rig.zoom));
    for (unit, mut t) in &mut units {
        let Some(e) = session.battle.entity(unit.0) else {
            continue;
        };
        let p = session.drawn_at(unit.0, e.position);
        let mut moved = *t;
        moved.translation = to_bevy(p.x, p.y, field.ground(p.x, p.y));
        if matches!(e.kind, EntityKind::Attacker(_)) {
            moved.scale = Vec3::splat(boost);
        }
        if let Some((dx, dy)) = session.heading(unit.0, e.position) {
            // Models face +Z (south); turn that toward the heading (east, north in battle space).
            moved.rotation = Quat::from_rotation_y((dx as f32).atan2(-dy as f32));
        }
        // A unit standing still (every building) is left unchanged, so that its parts'
        // transforms are not propagated again.
        t.set_if_neq(moved);
    }
}

/// Puts screen-space labels over their world points; labels of gone units go too.
fn place_labels(
    mut commands: Commands,
    game: NonSend<Game>,
    // The window's camera (icons are photographed by cameras of their own).
    cameras: Query<(&Camera, &GlobalTransform), With<Rig>>,
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
        let Ok(screen) = camera.world_to_viewport(eye, at) else {
            continue;
        };
        // The viewport's pixels are the window's; the UI's are scaled by the UI scale.
        let screen = screen / scale.0 + follow.offset;
        let (left, top) = (Val::Px(screen.x), Val::Px(screen.y));
        // A label that stays put is left unchanged: a changed node is laid out again.
        if node.left != left || node.top != top {
            node.left = left;
            node.top = top;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rampart_core::battle::Lasting;
    use rampart_core::content::EffectLook;

    #[test]
    fn attackers_are_enlarged_only_while_tiles_look_small() {
        // Close in, models are drawn as they are.
        assert_eq!(attacker_boost(80.0), 1.0);
        assert_eq!(attacker_boost(READABLE_TILE_PX), 1.0);
        // Farther out, more: a whole 15×15 world at 1280×720 (36 pixels a tile) nearly 1.8.
        assert!(attacker_boost(48.0) > 1.3 && attacker_boost(48.0) < 1.4);
        assert!(attacker_boost(36.0) > 1.7 && attacker_boost(36.0) < MAX_BOOST);
        assert_eq!(attacker_boost(20.0), MAX_BOOST);
        assert_eq!(attacker_boost(0.0), MAX_BOOST);
    }

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
