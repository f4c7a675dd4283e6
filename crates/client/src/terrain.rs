//! The world as meshes: tile tops from the WFC result (flat tiles and ramps), cliff walls
//! wherever neighbouring tiles meet at different heights, skirts around the edge, surface
//! colours from the terrain type, the path network with arrows toward the Hub, low-poly models
//! at the scatterer's instances, and a sun that casts shadows so heights read at the isometric
//! angle. Built again whenever the battle's world is replaced (hot reload).

use std::sync::Arc;

use bevy::asset::RenderAssetUsages;
use bevy::light::CascadeShadowConfigBuilder;
use bevy::mesh::PrimitiveTopology;
use bevy::prelude::*;

use super::session::Game;
use super::{ClientSet, Content, Screen, to_bevy};
use rampart_core::content::ContentDb;
use rampart_core::terrain::TerrainType;
use rampart_core::worldgen::{LEVEL_HEIGHT, Pos, World, level_within, surface_color};

/// How far below level 0 the world's skirt reaches.
const BASE: f64 = -0.6;

/// Builds and rebuilds the world's meshes.
pub struct TerrainPlugin;

impl Plugin for TerrainPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Built>()
            .insert_resource(GlobalAmbientLight {
                color: Color::srgb(0.75, 0.8, 1.0),
                brightness: 300.0,
                affects_lightmapped_meshes: true,
            })
            .add_systems(OnEnter(Screen::Battle), spawn_sun)
            .add_systems(OnExit(Screen::Battle), forget)
            .add_systems(
                Update,
                rebuild
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// The world whose meshes are in the scene, and the content (colours) they were drawn with.
#[derive(Resource, Default)]
struct Built(Option<(Arc<World>, Arc<ContentDb>)>);

/// Marks every entity that belongs to the world's meshes.
#[derive(Component)]
pub struct TerrainPart;

fn spawn_sun(mut commands: Commands) {
    commands.spawn((
        // With the camera's default exposure, this lights level ground at about its own colour
        // (the sun's 3500 lx at 45° plus the ambient light); brighter washes the surfaces out.
        DirectionalLight {
            illuminance: 3_500.0,
            shadow_maps_enabled: true,
            ..default()
        },
        // Low from the south-west, so cliffs facing the camera are lit and drops cast shadows.
        Transform::from_xyz(-30.0, 40.0, 25.0).looking_at(Vec3::ZERO, Vec3::Y),
        CascadeShadowConfigBuilder {
            maximum_distance: 120.0,
            ..default()
        }
        .build(),
        DespawnOnExit(Screen::Battle),
    ));
}

fn forget(mut built: ResMut<Built>) {
    built.0 = None;
}

fn rebuild(
    mut commands: Commands,
    game: NonSend<Game>,
    content: Res<Content>,
    mut built: ResMut<Built>,
    parts: Query<Entity, With<TerrainPart>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(world) = game.world() else {
        return;
    };
    if built
        .0
        .as_ref()
        .is_some_and(|(w, c)| Arc::ptr_eq(w, world) && Arc::ptr_eq(c, &content.db))
    {
        return;
    }
    let Some(terrain) = content.db.terrain(&world.terrain) else {
        return;
    };
    for e in &parts {
        commands.entity(e).despawn();
    }
    built.0 = Some((world.clone(), content.db.clone()));
    // Colours come per vertex; the material only sets how light falls on them.
    let ground = materials.add(StandardMaterial {
        base_color: Color::WHITE,
        perceptual_roughness: 0.95,
        double_sided: true,
        cull_mode: None,
        ..default()
    });
    commands.spawn((
        Mesh3d(meshes.add(ground_mesh(world, terrain))),
        MeshMaterial3d(ground.clone()),
        TerrainPart,
        DespawnOnExit(Screen::Battle),
    ));
    commands.spawn((
        Mesh3d(meshes.add(path_mesh(world))),
        MeshMaterial3d(ground),
        TerrainPart,
        DespawnOnExit(Screen::Battle),
    ));
    spawn_models(&mut commands, world, &mut meshes, &mut materials);
}

/// Triangles with one colour each, gathered into a mesh with flat normals.
#[derive(Default)]
struct Triangles {
    positions: Vec<[f32; 3]>,
    colors: Vec<[f32; 4]>,
}

impl Triangles {
    fn triangle(&mut self, points: [Vec3; 3], color: [f32; 4]) {
        for p in points {
            self.positions.push(p.to_array());
            self.colors.push(color);
        }
    }

    /// A quad `a b c d`, counter-clockwise seen from its front.
    fn quad(&mut self, [a, b, c, d]: [Vec3; 4], color: [f32; 4]) {
        self.triangle([a, b, c], color);
        self.triangle([a, c, d], color);
    }

    fn into_mesh(self) -> Mesh {
        let mut mesh = Mesh::new(
            PrimitiveTopology::TriangleList,
            RenderAssetUsages::default(),
        )
        .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, self.positions)
        .with_inserted_attribute(Mesh::ATTRIBUTE_COLOR, self.colors);
        mesh.compute_flat_normals();
        mesh
    }
}

fn linear(rgb: [u8; 3], shade: f32) -> [f32; 4] {
    let c = Color::srgb_u8(rgb[0], rgb[1], rgb[2]).to_linear();
    [c.red * shade, c.green * shade, c.blue * shade, 1.0]
}

/// Height in world units at offset `(dx, dy)` from the centre of tile `p`.
fn corner(world: &World, p: Pos, dx: f64, dy: f64) -> f64 {
    level_within(world.tile(p), dx, dy) * LEVEL_HEIGHT
}

/// Tile tops, cliff walls and the skirt around the world.
fn ground_mesh(world: &World, terrain: &TerrainType) -> Mesh {
    let mut t = Triangles::default();
    let top = f64::from(terrain.max_height.max(1)) * LEVEL_HEIGHT;
    for p in world.grid.tiles() {
        let tile = world.tile(p);
        let (x, y) = (f64::from(p.x), f64::from(p.y));
        let point = |dx: f64, dy: f64| to_bevy(x + dx, y + dy, corner(world, p, dx, dy));
        // Higher ground is lighter, so levels read even where no shadow falls.
        let shade = 0.8 + 0.35 * (f64::from(tile.level) * LEVEL_HEIGHT / top) as f32;
        let color = surface_color(terrain, tile.surface);
        t.quad(
            [
                point(-0.5, -0.5),
                point(0.5, -0.5),
                point(0.5, 0.5),
                point(-0.5, 0.5),
            ],
            linear(color, shade),
        );
        let wall = linear(color, 0.5);
        // The edges shared with the east and north neighbours, or the skirt at the world's edge:
        // (offset of the edge's two ends, the neighbour, offsets of the same ends seen from it).
        let edges = [
            (
                (0.5, -0.5),
                (0.5, 0.5),
                Pos::new(p.x + 1, p.y),
                (-0.5, -0.5),
                (-0.5, 0.5),
            ),
            (
                (-0.5, 0.5),
                (0.5, 0.5),
                Pos::new(p.x, p.y + 1),
                (-0.5, -0.5),
                (0.5, -0.5),
            ),
        ];
        for (a, b, q, qa, qb) in edges {
            let (ha, hb) = (corner(world, p, a.0, a.1), corner(world, p, b.0, b.1));
            let (ga, gb) = if world.grid.contains(q) {
                (corner(world, q, qa.0, qa.1), corner(world, q, qb.0, qb.1))
            } else {
                (BASE, BASE)
            };
            if (ha - ga).abs() > 1e-6 || (hb - gb).abs() > 1e-6 {
                let at = |o: (f64, f64), h: f64| to_bevy(x + o.0, y + o.1, h);
                t.quad([at(a, ga), at(b, gb), at(b, hb), at(a, ha)], wall);
            }
        }
        // The south and west skirts (the north and east ones come from the loop above).
        for (a, b, outside) in [
            ((-0.5, -0.5), (0.5, -0.5), p.y == 0),
            ((-0.5, -0.5), (-0.5, 0.5), p.x == 0),
        ] {
            if outside {
                let (ha, hb) = (corner(world, p, a.0, a.1), corner(world, p, b.0, b.1));
                let at = |o: (f64, f64), h: f64| to_bevy(x + o.0, y + o.1, h);
                t.quad([at(a, BASE), at(b, BASE), at(b, hb), at(a, ha)], wall);
            }
        }
    }
    t.into_mesh()
}

/// The path network: a band along every segment, following the ground, with an arrow in the
/// middle pointing the way attackers walk.
fn path_mesh(world: &World) -> Mesh {
    const HALF_WIDTH: f64 = 0.16;
    const LIFT: f64 = 0.03;
    const STEPS: usize = 4;
    let band = linear([214, 190, 140], 1.0);
    let arrow = linear([120, 60, 40], 1.0);
    let mut t = Triangles::default();
    let ground = |x: f64, y: f64, lift: f64| to_bevy(x, y, world.ground_height(x, y) + lift);
    for &(from, to) in &world.network.segments {
        let (ax, ay) = (f64::from(from.x), f64::from(from.y));
        let (bx, by) = (f64::from(to.x), f64::from(to.y));
        let (dx, dy) = (bx - ax, by - ay);
        let len = dx.hypot(dy).max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let (nx, ny) = (-uy * HALF_WIDTH, ux * HALF_WIDTH);
        for i in 0..STEPS {
            let s0 = i as f64 / STEPS as f64;
            let s1 = (i + 1) as f64 / STEPS as f64;
            let (x0, y0) = (ax + dx * s0, ay + dy * s0);
            let (x1, y1) = (ax + dx * s1, ay + dy * s1);
            t.quad(
                [
                    ground(x0 - nx, y0 - ny, LIFT),
                    ground(x1 - nx, y1 - ny, LIFT),
                    ground(x1 + nx, y1 + ny, LIFT),
                    ground(x0 + nx, y0 + ny, LIFT),
                ],
                band,
            );
        }
        let (mx, my) = (ax + dx * 0.5, ay + dy * 0.5);
        let tip = ground(mx + ux * 0.15, my + uy * 0.15, LIFT * 2.0);
        let left = ground(
            mx - ux * 0.1 - nx * 0.8,
            my - uy * 0.1 - ny * 0.8,
            LIFT * 2.0,
        );
        let right = ground(
            mx - ux * 0.1 + nx * 0.8,
            my - uy * 0.1 + ny * 0.8,
            LIFT * 2.0,
        );
        t.triangle([right, tip, left], arrow);
    }
    t.into_mesh()
}

/// What a scatter prefab looks like: a low-poly shape, its colour, its size and how high its
/// centre sits above the ground (all before the instance's scale).
fn prefab_look(prefab: &str) -> (Mesh, Color, f32) {
    let name = prefab.rsplit('/').next().unwrap_or(prefab);
    match name {
        "pine" | "tree" => (
            Cone {
                radius: 0.16,
                height: 0.5,
            }
            .mesh()
            .resolution(6)
            .build(),
            Color::srgb(0.16, 0.38, 0.2),
            0.25,
        ),
        "crystal" => (
            Cuboid::new(0.07, 0.3, 0.07).mesh().build(),
            Color::srgb(0.45, 0.85, 0.95),
            0.15,
        ),
        "fuel_vent" => (
            Cylinder::new(0.09, 0.14).mesh().resolution(6).build(),
            Color::srgb(0.35, 0.12, 0.4),
            0.07,
        ),
        _ => (
            Sphere::new(0.14)
                .mesh()
                .ico(1)
                .unwrap_or_else(|_| Sphere::new(0.14).mesh().build()),
            Color::srgb(0.48, 0.46, 0.43),
            0.08,
        ),
    }
}

fn spawn_models(
    commands: &mut Commands,
    world: &World,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) {
    let looks: Vec<(Handle<Mesh>, Handle<StandardMaterial>, f32)> = world
        .model_types
        .iter()
        .map(|(_, prefab)| {
            let (mesh, color, lift) = prefab_look(prefab);
            let material = materials.add(StandardMaterial {
                base_color: color,
                perceptual_roughness: 0.8,
                ..default()
            });
            (meshes.add(mesh), material, lift)
        })
        .collect();
    for m in &world.models {
        let Some((mesh, material, lift)) = looks.get(usize::from(m.model)) else {
            continue;
        };
        let ground = world.ground_height(m.x, m.y);
        let scale = m.scale as f32;
        // Headings are counter-clockwise from east seen from above, which is a turn about +Y.
        let heading = Quat::from_rotation_y((m.heading as f32).to_radians());
        let tilt_axis = Quat::from_rotation_y((m.tilt_direction as f32).to_radians()) * Vec3::Z;
        let tilt = Quat::from_axis_angle(tilt_axis, (m.tilt as f32).to_radians());
        commands.spawn((
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material.clone()),
            Transform::from_translation(to_bevy(m.x, m.y, ground) + Vec3::Y * lift * scale)
                .with_rotation(tilt * heading)
                .with_scale(Vec3::splat(scale)),
            TerrainPart,
            DespawnOnExit(Screen::Battle),
        ));
    }
}
