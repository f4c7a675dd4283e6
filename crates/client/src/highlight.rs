//! Highlights on things in the world (thesis 2.7): a blue ring under what is selected, a light
//! blue one under what the cursor is on, and yellow ones under what the selected (or hovered, or
//! about-to-be-placed) tower, building or ability acts on — the attackers a tower can hit now,
//! the towers an Amplifier boosts, a Radar's neighbours — as the battle says
//! ([`Battle::affected`](rampart_core::battle::Battle::affected)).

use bevy::prelude::*;

use super::placing::{Cursor, spot};
use super::session::{Game, Session, Thing};
use super::{ClientSet, Screen, to_bevy};
use rampart_core::battle::preview::RangeOf;
use rampart_core::battle::{EntityId, EntityKind};
use rampart_core::content::Size;

/// Rings under highlighted things.
pub struct HighlightPlugin;

impl Plugin for HighlightPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, make_rings).add_systems(
            Update,
            rings
                .in_set(ClientSet::Present)
                .run_if(in_state(Screen::Battle)),
        );
    }
}

/// How a thing is highlighted, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Selected.
    Selected,
    /// Under the cursor.
    Hovered,
    /// Acted on by what is selected, hovered or being placed.
    Affected,
}

impl Mark {
    fn color(self) -> Color {
        match self {
            Mark::Selected => Color::srgb(0.15, 0.45, 1.0),
            Mark::Hovered => Color::srgb(0.65, 0.82, 1.0),
            Mark::Affected => Color::srgb(1.0, 0.85, 0.1),
        }
    }
}

/// The ring mesh and a material per mark.
#[derive(Resource)]
struct RingLooks {
    mesh: Handle<Mesh>,
    materials: [Handle<StandardMaterial>; 3],
}

/// A ring under a highlighted thing.
#[derive(Component)]
struct Ring;

fn make_rings(
    mut commands: Commands,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let material = |mark: Mark| StandardMaterial {
        base_color: mark.color(),
        emissive: mark.color().to_linear() * 2.0,
        unlit: true,
        ..default()
    };
    commands.insert_resource(RingLooks {
        mesh: meshes.add(Torus {
            minor_radius: 0.06,
            major_radius: 1.0,
        }),
        materials: [
            materials.add(material(Mark::Selected)),
            materials.add(material(Mark::Hovered)),
            materials.add(material(Mark::Affected)),
        ],
    });
}

/// What to highlight now, each thing once with its strongest mark, in entity order.
pub fn marks(session: &mut Session, cursor: &Cursor) -> Vec<(EntityId, Mark)> {
    let mut out: Vec<(EntityId, Mark)> = Vec::new();
    let mut mark = |id: EntityId, m: Mark| match out.iter_mut().find(|(e, _)| *e == id) {
        Some((_, old)) => *old = (*old).min(m),
        None => out.push((id, m)),
    };
    let placing = session.selection.blueprint;
    let selected = match session.selection.thing {
        Some(Thing::Entity(id)) => Some(id),
        _ => None,
    };
    // While placing, the cursor points at a place, not at a thing.
    let hovered = match (placing, cursor.hovered) {
        (None, Some(Thing::Entity(id))) => Some(id),
        _ => None,
    };
    let source = match (placing, cursor.point) {
        (Some(blueprint), Some(point)) => Some(RangeOf::Planned {
            blueprint,
            position: spot(session, blueprint, point),
            rotation: session.selection.rotation,
        }),
        _ => selected.or(hovered).and_then(|id| {
            let e = session.battle.entity(id)?;
            e.kind.blueprint().map(|_| RangeOf::Placed(id))
        }),
    };
    if let Some(of) = source {
        for id in session.battle.affected(of) {
            mark(id, Mark::Affected);
        }
    }
    if let Some(id) = hovered {
        mark(id, Mark::Hovered);
    }
    if let Some(id) = selected {
        mark(id, Mark::Selected);
    }
    out.sort_by_key(|(id, _)| *id);
    out
}

/// Puts a ring under every highlighted thing, reusing rings from frame to frame.
fn rings(
    mut commands: Commands,
    mut game: NonSendMut<Game>,
    cursor: Res<Cursor>,
    looks: Res<RingLooks>,
    mut rings: Query<
        (
            &mut Transform,
            &mut Visibility,
            &mut MeshMaterial3d<StandardMaterial>,
        ),
        With<Ring>,
    >,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let wanted = marks(session, &cursor);
    let Some(field) = session.battle.field().cloned() else {
        return;
    };
    let content = session.battle.content().clone();
    let mut placed: Vec<(Vec3, f32, Handle<StandardMaterial>)> = Vec::new();
    for (id, mark) in wanted {
        let Some(e) = session.battle.entity(id) else {
            continue;
        };
        let radius = match e.kind {
            EntityKind::Attacker(a) => match content.attacker(a).size {
                Size::Small => 0.3,
                Size::Large => 0.48,
                Size::Boss => 0.7,
            },
            EntityKind::Building(_) => 0.5,
            EntityKind::Ability(_) => 0.35,
        };
        let p = session.drawn_at(id, e.position);
        let at = to_bevy(p.x, p.y, field.ground(p.x, p.y) + 0.05);
        placed.push((at, radius, looks.materials[mark as usize].clone()));
    }
    let mut existing: Vec<_> = rings.iter_mut().collect();
    for (i, (at, radius, material)) in placed.iter().enumerate() {
        let transform =
            Transform::from_translation(*at).with_scale(Vec3::new(*radius, *radius, *radius));
        match existing.get_mut(i) {
            Some((t, v, m)) => {
                **t = transform;
                **v = Visibility::Visible;
                if m.0 != *material {
                    m.0 = material.clone();
                }
            }
            None => {
                commands.spawn((
                    Ring,
                    Mesh3d(looks.mesh.clone()),
                    MeshMaterial3d(material.clone()),
                    transform,
                    Visibility::Visible,
                    DespawnOnExit(Screen::Battle),
                ));
            }
        }
    }
    for (_, v, _) in existing.iter_mut().skip(placed.len()) {
        **v = Visibility::Hidden;
    }
}
