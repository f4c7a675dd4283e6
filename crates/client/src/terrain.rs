//! The world as meshes: tile tops from the WFC result (flat tiles and ramps), cliff walls
//! wherever neighbouring tiles meet at different heights, skirts around the edge, surface
//! colours from the terrain type (each tile a little lighter or darker, by a hash of its place,
//! walls darker), moving water on the type's water surfaces, the path network lighter than the
//! ground under it with a dark edge and arrows toward the Hub, rings on the tiles rich in fuel
//! and minerals, the scatterer's instances drawn with their terrain type's looks, and a sun that
//! casts shadows so heights read at the isometric angle. Built again whenever the battle's world
//! is replaced (hot reload).

use std::sync::Arc;

use bevy::asset::RenderAssetUsages;
use bevy::light::CascadeShadowConfigBuilder;
use bevy::mesh::PrimitiveTopology;
use bevy::prelude::*;

use super::palette::Palette;
use super::session::Game;
use super::{ClientSet, Content, Screen, to_bevy};
use rampart_core::content::ContentDb;
use rampart_core::terrain::{LookPart, LookShape, ObstacleKind, TerrainType};
use rampart_core::worldgen::{LEVEL_HEIGHT, Pos, World, level_within, surface_color};

/// How far below level 0 the world's skirt reaches.
const BASE: f64 = -0.6;

/// Builds and rebuilds the world's meshes.
pub struct TerrainPlugin;

impl Plugin for TerrainPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Built>()
            .insert_resource(GlobalAmbientLight {
                // A sky a little cooler than the sun: shaded sides stay coloured, not grey.
                color: Color::srgb(0.86, 0.9, 1.0),
                brightness: 260.0,
                affects_lightmapped_meshes: true,
            })
            .add_systems(OnEnter(Screen::Battle), spawn_sun)
            .add_systems(OnExit(Screen::Battle), forget)
            .add_systems(
                Update,
                (rebuild, wave)
                    .chain()
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// The world whose meshes are in the scene, the content (colours, looks) and the palette
/// (deposit rings) they were drawn with, and its water.
#[derive(Resource, Default)]
struct Built {
    drawn: Option<(Arc<World>, Arc<ContentDb>, Palette)>,
    water: Option<Water>,
}

/// The water's mesh and its surface at rest: each vertex's place and colour.
struct Water {
    mesh: Handle<Mesh>,
    rest: Vec<(Vec3, [f32; 4])>,
}

/// Marks every entity that belongs to the world's meshes.
#[derive(Component)]
pub struct TerrainPart;

fn spawn_sun(mut commands: Commands) {
    commands.spawn((
        // With the camera's default exposure, this lights level ground at about its own colour
        // (the sun's 3500 lx at 45° plus the ambient light); brighter washes the surfaces out.
        DirectionalLight {
            illuminance: 3_800.0,
            // Warm afternoon light against the cooler ambient sky.
            color: Color::srgb(1.0, 0.96, 0.88),
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
    *built = Built::default();
}

fn rebuild(
    mut commands: Commands,
    game: NonSend<Game>,
    content: Res<Content>,
    palette: Res<Palette>,
    mut built: ResMut<Built>,
    parts: Query<Entity, With<TerrainPart>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(world) = game.world() else {
        return;
    };
    if built.drawn.as_ref().is_some_and(|(w, c, p)| {
        Arc::ptr_eq(w, world) && Arc::ptr_eq(c, &content.db) && p == &*palette
    }) {
        return;
    }
    let Some(terrain) = content.db.terrain(&world.terrain) else {
        return;
    };
    for e in &parts {
        commands.entity(e).despawn();
    }
    // Colours come per vertex; the material only sets how light falls on them.
    let ground = materials.add(StandardMaterial {
        base_color: Color::WHITE,
        perceptual_roughness: 0.95,
        double_sided: true,
        cull_mode: None,
        ..default()
    });
    let mut spawn = |mesh: Mesh, material: Handle<StandardMaterial>| {
        let mesh = meshes.add(mesh);
        commands.spawn((
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material),
            TerrainPart,
            DespawnOnExit(Screen::Battle),
        ));
        mesh
    };
    spawn(ground_mesh(world, terrain), ground.clone());
    spawn(path_mesh(world, terrain), ground.clone());
    spawn(deposit_mesh(world, &palette), ground);
    let water = water_surface(world, terrain);
    let water = (!water.is_empty()).then(|| {
        let material = materials.add(StandardMaterial {
            base_color: Color::WHITE,
            perceptual_roughness: 0.2,
            reflectance: 0.6,
            ..default()
        });
        let mesh = spawn(water_mesh(&water, 0.0), material);
        Water { mesh, rest: water }
    });
    spawn_models(&mut commands, world, terrain, &mut meshes, &mut materials);
    *built = Built {
        drawn: Some((world.clone(), content.db.clone(), palette.clone())),
        water,
    };
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

    /// A band from `a` to `b` (on the ground plane), `half` wide to each side, lifted by
    /// `lift`, following the ground.
    fn band(
        &mut self,
        world: &World,
        (a, b): ((f64, f64), (f64, f64)),
        half: f64,
        lift: f64,
        color: [f32; 4],
    ) {
        const STEPS: usize = 4;
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = dx.hypot(dy).max(1e-9);
        let (nx, ny) = (-dy / len * half, dx / len * half);
        let ground = |x: f64, y: f64| to_bevy(x, y, world.ground_height(x, y) + lift);
        for i in 0..STEPS {
            let s0 = i as f64 / STEPS as f64;
            let s1 = (i + 1) as f64 / STEPS as f64;
            let (x0, y0) = (a.0 + dx * s0, a.1 + dy * s0);
            let (x1, y1) = (a.0 + dx * s1, a.1 + dy * s1);
            self.quad(
                [
                    ground(x0 - nx, y0 - ny),
                    ground(x1 - nx, y1 - ny),
                    ground(x1 + nx, y1 + ny),
                    ground(x0 + nx, y0 + ny),
                ],
                color,
            );
        }
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

/// `rgb` moved `amount` (0 to 1) of the way to a warm white.
fn lighter(rgb: [u8; 3], amount: f32) -> [u8; 3] {
    let white = [255.0, 250.0, 238.0];
    std::array::from_fn(|i| {
        let c = f32::from(rgb[i]);
        (c + (white[i] - c) * amount).round() as u8
    })
}

/// A shade of 0.94 to 1.06 that is the same for a tile every time, so that a surface of one
/// colour reads as ground and not as paint.
fn jitter(p: Pos) -> f32 {
    // A multiplicative hash of the tile's place; its top bits are evenly spread.
    let h = (p.x as u32)
        .wrapping_mul(0x9E37_79B1)
        .wrapping_add((p.y as u32).wrapping_mul(0x85EB_CA77));
    let h = (h ^ (h >> 15)).wrapping_mul(0x2C1B_3C6D);
    0.94 + 0.12 * (h >> 24) as f32 / 255.0
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
        // Higher ground is lighter, so levels read even where no shadow falls; water's bed is
        // dark under the moving surface.
        let shade = if terrain.water_surfaces.contains(&tile.surface) {
            0.45
        } else {
            (0.8 + 0.35 * (f64::from(tile.level) * LEVEL_HEIGHT / top) as f32) * jitter(p)
        };
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
        let wall = linear(color, 0.42 * jitter(p));
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

/// The path network: along every segment a band lighter than the ground under it on a darker
/// edge, so it reads on grass and snow alike, with an arrow in the middle pointing the way
/// attackers walk, in the ground's own colour darkened (no colour a unit or tower uses).
fn path_mesh(world: &World, terrain: &TerrainType) -> Mesh {
    const HALF_WIDTH: f64 = 0.17;
    const EDGE: f64 = 0.04;
    const LIFT: f64 = 0.03;
    let mut t = Triangles::default();
    let ground = |x: f64, y: f64, lift: f64| to_bevy(x, y, world.ground_height(x, y) + lift);
    for &(from, to) in &world.network.segments {
        let (ax, ay) = (f64::from(from.x), f64::from(from.y));
        let (bx, by) = (f64::from(to.x), f64::from(to.y));
        // A path starts off the map's edge: the nearest tile on it.
        let under = surface_color(terrain, world.tile(world.tile_at(ax, ay)).surface);
        let ends = ((ax, ay), (bx, by));
        t.band(
            world,
            ends,
            HALF_WIDTH + EDGE,
            LIFT * 0.6,
            linear(under, 0.55),
        );
        t.band(
            world,
            ends,
            HALF_WIDTH,
            LIFT,
            linear(lighter(under, 0.55), 1.0),
        );
        let (dx, dy) = (bx - ax, by - ay);
        let len = dx.hypot(dy).max(1e-9);
        let (ux, uy) = (dx / len, dy / len);
        let (nx, ny) = (-uy * HALF_WIDTH, ux * HALF_WIDTH);
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
        t.triangle([right, tip, left], linear(under, 0.4));
    }
    t.into_mesh()
}

/// A ring on every tile rich in fuel or minerals, in the palette's colours for them (the same
/// the overlay frames them in while a building that needs them is being placed).
fn deposit_mesh(world: &World, palette: &Palette) -> Mesh {
    const SIDES: usize = 12;
    const LIFT: f64 = 0.02;
    let mut t = Triangles::default();
    for p in world.grid.tiles() {
        let colour = match world.obstacle(p).map(|o| o.kind) {
            Some(ObstacleKind::Fuel) => palette.fuel,
            Some(ObstacleKind::Minerals) => palette.minerals,
            _ => continue,
        };
        let colour = linear([colour[0], colour[1], colour[2]], 1.0);
        let (x, y) = (f64::from(p.x), f64::from(p.y));
        let at = |angle: f64, r: f64| {
            let (px, py) = (x + r * angle.cos(), y + r * angle.sin());
            to_bevy(px, py, world.ground_height(px, py) + LIFT)
        };
        for i in 0..SIDES {
            let a0 = i as f64 / SIDES as f64 * std::f64::consts::TAU;
            let a1 = (i + 1) as f64 / SIDES as f64 * std::f64::consts::TAU;
            t.quad(
                [at(a0, 0.36), at(a1, 0.36), at(a1, 0.44), at(a0, 0.44)],
                colour,
            );
        }
    }
    t.into_mesh()
}

/// How far the water's surface stands above its bed, and how high its waves rise.
const WATER_LIFT: f32 = 0.02;
const WAVE: f32 = 0.014;

/// The water surface at rest: each water tile as four quads, their corners' places and
/// colours (a little lighter at the shore-most points by the tile's jitter).
fn water_surface(world: &World, terrain: &TerrainType) -> Vec<(Vec3, [f32; 4])> {
    let mut rest = Vec::new();
    for p in world.grid.tiles() {
        let tile = world.tile(p);
        if !terrain.water_surfaces.contains(&tile.surface) {
            continue;
        }
        let colour = linear(surface_color(terrain, tile.surface), jitter(p));
        let (x, y) = (f64::from(p.x), f64::from(p.y));
        let h = f64::from(tile.level) * LEVEL_HEIGHT;
        let at = |dx: f64, dy: f64| to_bevy(x + dx, y + dy, h) + Vec3::Y * WATER_LIFT;
        for (qx, qy) in [(-0.5, -0.5), (0.0, -0.5), (-0.5, 0.0), (0.0, 0.0)] {
            let quad = [
                at(qx, qy),
                at(qx + 0.5, qy),
                at(qx + 0.5, qy + 0.5),
                at(qx, qy + 0.5),
            ];
            for i in [0, 1, 2, 0, 2, 3] {
                rest.push((quad[i], colour));
            }
        }
    }
    rest
}

/// The water at `seconds`: gentle waves that raise and lighten the surface as they pass.
fn water_mesh(rest: &[(Vec3, [f32; 4])], seconds: f32) -> Mesh {
    let mut t = Triangles::default();
    for (at, colour) in rest {
        let phase = seconds * 1.4 + at.x * 1.7 + at.z * 1.1;
        let swell = phase.sin() * 0.6 + (phase * 0.53 + at.x * 0.8).sin() * 0.4;
        let shade = 1.0 + 0.12 * swell;
        t.positions.push((*at + Vec3::Y * WAVE * swell).to_array());
        t.colors
            .push([colour[0] * shade, colour[1] * shade, colour[2] * shade, 1.0]);
    }
    t.into_mesh()
}

/// Moves the water (it lies still with reduced motion).
fn wave(
    built: Res<Built>,
    time: Res<Time>,
    settings: Res<super::settings::Settings>,
    mut meshes: ResMut<Assets<Mesh>>,
) {
    let Some(water) = &built.water else {
        return;
    };
    if settings.reduced_motion && !built.is_changed() {
        return;
    }
    let seconds = if settings.reduced_motion {
        0.0
    } else {
        time.elapsed_secs()
    };
    if let Some(mut mesh) = meshes.get_mut(&water.mesh) {
        *mesh = water_mesh(&water.rest, seconds);
    }
}

/// The shape of a look's part as a mesh whose bounding box is 1 by 1 by 1 (a capsule's is
/// half as wide, [`unit_width`]).
fn part_mesh(shape: LookShape) -> Mesh {
    match shape {
        LookShape::Box => Cuboid::new(1.0, 1.0, 1.0).mesh().build(),
        LookShape::Sphere => Sphere::new(0.5)
            .mesh()
            .ico(2)
            .unwrap_or_else(|_| Sphere::new(0.5).mesh().build()),
        LookShape::Cylinder => Cylinder::new(0.5, 1.0).mesh().resolution(10).build(),
        LookShape::Cone => Cone {
            radius: 0.5,
            height: 1.0,
        }
        .mesh()
        .resolution(10)
        .build(),
        LookShape::Capsule => Capsule3d::new(0.25, 0.5).mesh().build(),
    }
}

/// The width and depth of a shape's unit mesh ([`part_mesh`]).
fn unit_width(shape: LookShape) -> f32 {
    match shape {
        LookShape::Capsule => 0.5,
        _ => 1.0,
    }
}

/// The look drawn for a scatter model that gives none: a plain grey rock.
fn plain_rock() -> Vec<LookPart> {
    vec![LookPart {
        shape: LookShape::Sphere,
        color: [128, 124, 118],
        size: [0.28, 0.18, 0.26],
        at: [0.0, 0.07, 0.0],
        turn: [0.0; 3],
        glow: 0.0,
    }]
}

/// Each part of a look as a mesh, a material and its place in the model.
type Drawn = Vec<(Handle<Mesh>, Handle<StandardMaterial>, Transform)>;

fn look_parts(
    look: &[LookPart],
    shapes: &mut Vec<(LookShape, Handle<Mesh>)>,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) -> Drawn {
    look.iter()
        .map(|part| {
            let mesh = match shapes.iter().find(|(s, _)| *s == part.shape) {
                Some((_, mesh)) => mesh.clone(),
                None => {
                    let mesh = meshes.add(part_mesh(part.shape));
                    shapes.push((part.shape, mesh.clone()));
                    mesh
                }
            };
            let [r, g, b] = part.color;
            let colour = Color::srgb_u8(r, g, b);
            let material = materials.add(StandardMaterial {
                base_color: colour,
                perceptual_roughness: 0.8,
                emissive: colour.to_linear() * (1.5 * part.glow as f32),
                ..default()
            });
            let [tx, ty, tz] = part.turn.map(|d| (d as f32).to_radians());
            let wide = unit_width(part.shape);
            let [sx, sy, sz] = part.size.map(|v| v as f32);
            let transform = Transform {
                translation: Vec3::from_array(part.at.map(|v| v as f32)),
                rotation: Quat::from_euler(EulerRot::ZYX, tz, ty, tx),
                scale: Vec3::new(sx / wide, sy, sz / wide),
            };
            (mesh, material, transform)
        })
        .collect()
}

fn spawn_models(
    commands: &mut Commands,
    world: &World,
    terrain: &TerrainType,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) {
    let mut shapes = Vec::new();
    let looks: Vec<Drawn> = (0..world.model_types.len())
        .map(|i| {
            let look = terrain
                .scatter
                .get(i)
                .filter(|s| !s.look.is_empty())
                .map_or_else(plain_rock, |s| s.look.clone());
            look_parts(&look, &mut shapes, meshes, materials)
        })
        .collect();
    for m in &world.models {
        let Some(parts) = looks.get(usize::from(m.model)) else {
            continue;
        };
        let ground = world.ground_height(m.x, m.y);
        let scale = m.scale as f32;
        // Headings are counter-clockwise from east seen from above, which is a turn about +Y.
        let heading = Quat::from_rotation_y((m.heading as f32).to_radians());
        let tilt_axis = Quat::from_rotation_y((m.tilt_direction as f32).to_radians()) * Vec3::Z;
        let tilt = Quat::from_axis_angle(tilt_axis, (m.tilt as f32).to_radians());
        commands
            .spawn((
                Transform::from_translation(to_bevy(m.x, m.y, ground))
                    .with_rotation(tilt * heading)
                    .with_scale(Vec3::splat(scale)),
                Visibility::default(),
                TerrainPart,
                DespawnOnExit(Screen::Battle),
            ))
            .with_children(|c| {
                for (mesh, material, transform) in parts {
                    c.spawn((
                        Mesh3d(mesh.clone()),
                        MeshMaterial3d(material.clone()),
                        *transform,
                    ));
                }
            });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_is_shaded_the_same_every_time_and_within_six_percent() {
        let shades: Vec<f32> = (0..40)
            .flat_map(|x| (0..40).map(move |y| jitter(Pos::new(x, y))))
            .collect();
        assert!(shades.iter().all(|s| (0.94..=1.06).contains(s)));
        assert_eq!(jitter(Pos::new(3, 7)), jitter(Pos::new(3, 7)));
        // Neighbours differ: the surface is not one flat colour.
        let distinct = shades
            .iter()
            .map(|s| (s * 1000.0) as i32)
            .collect::<std::collections::BTreeSet<_>>();
        assert!(distinct.len() > 50, "{} shades", distinct.len());
    }

    #[test]
    fn a_path_is_lighter_than_any_ground_under_it() {
        let luma =
            |[r, g, b]: [u8; 3]| 0.3 * f32::from(r) + 0.59 * f32::from(g) + 0.11 * f32::from(b);
        for ground in [
            [93, 165, 68],
            [227, 207, 143],
            [176, 150, 116],
            [238, 243, 247],
        ] {
            assert!(luma(lighter(ground, 0.55)) > luma(ground), "{ground:?}");
        }
    }
}
