//! A model's parts made into meshes and materials. Meshes are made once per shape and kept in
//! unit size (the part's `size` is its transform's scale), materials once per colour, finish and
//! glow, so that a crowd of one attacker type shares every handle and Bevy draws it in batches.

use std::collections::HashMap;
use std::f32::consts::FRAC_PI_2;
use std::path::Path;

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::super::units::tinted;
use super::anim::{Animated, Pivot};
use super::gltf::spawn_gltf;
use rampart_core::content::colour::Rgb;
use rampart_core::content::model::{Finish, Model, Part, PartShape};

/// A mesh as it is shared: the shape, with its parameter in hundredths where it has one
/// (a frustum's top, a torus's ring, a capsule's height over its width).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum MeshKey {
    Box,
    Sphere,
    Cylinder,
    Cone,
    Frustum(u16),
    Capsule(u16),
    Torus(u16),
    Wedge,
}

/// A part's surface: what its material is made from. `tint` is a mod's effect colour the part
/// is drawn halfway toward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Component)]
pub struct Look {
    /// Its colour.
    pub rgb: Rgb,
    /// Its finish: 0 matte, 1 metal, 2 gloss, 3 glass.
    finish: u8,
    /// Its glow in thousandths.
    glow: u16,
    /// The effect colour it is tinted toward, if any.
    pub tint: Option<Rgb>,
}

impl Look {
    /// The look of `part`, untinted.
    pub fn of(part: &Part) -> Look {
        Look {
            rgb: part.rgb,
            finish: match part.finish {
                Finish::Matte => 0,
                Finish::Metal => 1,
                Finish::Gloss => 2,
                Finish::Glass => 3,
            },
            glow: (part.glow.clamp(0.0, 1.0) * 1000.0).round() as u16,
            tint: None,
        }
    }
}

/// Hundredths of `x`, in `0..=max`.
fn hundredths(x: f32, max: f32) -> u16 {
    (x.clamp(0.0, max) * 100.0).round() as u16
}

/// The shared meshes and materials of every model drawn.
#[derive(Resource, Default)]
pub struct Kit {
    meshes: HashMap<MeshKey, Handle<Mesh>>,
    materials: HashMap<Look, Handle<StandardMaterial>>,
}

/// What spawning a model needs: the shared kit, the asset stores and the asset server (glTF).
#[derive(SystemParam)]
pub struct Builder<'w> {
    kit: ResMut<'w, Kit>,
    meshes: ResMut<'w, Assets<Mesh>>,
    materials: ResMut<'w, Assets<StandardMaterial>>,
    assets: Res<'w, AssetServer>,
}

impl Builder<'_> {
    /// The material of `look`, made the first time it is asked for.
    pub fn material(&mut self, look: Look) -> Handle<StandardMaterial> {
        cached(&mut self.kit.materials, &mut self.materials, look, material)
    }

    fn mesh(&mut self, key: MeshKey) -> Handle<Mesh> {
        cached(&mut self.kit.meshes, &mut self.meshes, key, mesh)
    }

    /// Spawns `model` as children of `root`: its parts (the aiming ones under one [`Pivot`]), or
    /// its glTF file, found in the mod folder `folder`.
    pub fn spawn(&mut self, commands: &mut Commands, root: Entity, model: &Model, folder: &Path) {
        match model {
            Model::Gltf(g) => spawn_gltf(commands, &self.assets, root, g, folder),
            Model::Parts(parts) => {
                let pivot = parts.iter().any(|p| p.aim).then(|| {
                    commands
                        .spawn((
                            Pivot,
                            Transform::default(),
                            Visibility::default(),
                            ChildOf(root),
                        ))
                        .id()
                });
                for part in parts {
                    let parent = if part.aim {
                        pivot.unwrap_or(root)
                    } else {
                        root
                    };
                    self.spawn_part(commands, parent, root, part);
                }
            }
        }
    }

    fn spawn_part(&mut self, commands: &mut Commands, parent: Entity, root: Entity, part: &Part) {
        let (key, scale) = mesh_of(part);
        let look = Look::of(part);
        let transform = Transform {
            translation: Vec3::from(part.at),
            rotation: turn(part.turn),
            scale,
        };
        let mut e = commands.spawn((
            Mesh3d(self.mesh(key)),
            MeshMaterial3d(self.material(look)),
            look,
            transform,
            ChildOf(parent),
        ));
        if !part.anim.is_empty() {
            e.insert(Animated::new(part, transform, root));
        }
    }
}

/// The asset kept under `key` in `kept`, made by `make` and added to `assets` the first time.
fn cached<K: Copy + Eq + std::hash::Hash, A: Asset>(
    kept: &mut HashMap<K, Handle<A>>,
    assets: &mut Assets<A>,
    key: K,
    make: impl FnOnce(K) -> A,
) -> Handle<A> {
    kept.entry(key)
        .or_insert_with(|| assets.add(make(key)))
        .clone()
}

/// A rotation of `(x, y, z)` degrees about `x`, then `y`, then `z`.
pub fn turn((x, y, z): (f32, f32, f32)) -> Quat {
    Quat::from_euler(
        EulerRot::ZYX,
        z.to_radians(),
        y.to_radians(),
        x.to_radians(),
    )
}

/// The shared mesh of `part` and the scale that makes it the part's size.
fn mesh_of(part: &Part) -> (MeshKey, Vec3) {
    // A zero size would make a singular transform; a hair is as invisible.
    let size = Vec3::from(part.size).max(Vec3::splat(1e-3));
    match part.shape {
        PartShape::Box => (MeshKey::Box, size),
        PartShape::Sphere => (MeshKey::Sphere, size),
        PartShape::Cylinder => (MeshKey::Cylinder, size),
        PartShape::Cone => (MeshKey::Cone, size),
        PartShape::Frustum { top } => (MeshKey::Frustum(hundredths(top, 1.0)), size),
        PartShape::Torus { ring } => (MeshKey::Torus(hundredths(ring, 1.0).max(1)), size),
        PartShape::Wedge => (MeshKey::Wedge, size),
        PartShape::Capsule => {
            // Round ends stay round: the mesh is made as tall, in widths, as the part.
            let width = size.x.max(size.z);
            let q = hundredths(size.y / width, 20.0);
            let tall = (f32::from(q) / 100.0).max(1.0);
            (
                MeshKey::Capsule(q),
                Vec3::new(size.x, size.y / tall, size.z),
            )
        }
    }
}

/// The mesh of `key`, filling the box from −0.5 to 0.5 on each axis (a capsule: as many
/// widths tall as its key says).
fn mesh(key: MeshKey) -> Mesh {
    let ratio = |q: u16| f32::from(q) / 100.0;
    match key {
        MeshKey::Box => Cuboid::new(1.0, 1.0, 1.0).mesh().build(),
        MeshKey::Sphere => Sphere::new(0.5).mesh().uv(24, 16),
        MeshKey::Cylinder => Cylinder::new(0.5, 1.0).mesh().resolution(24).build(),
        MeshKey::Cone => Cone::new(0.5, 1.0).mesh().resolution(24).build(),
        MeshKey::Frustum(top) => ConicalFrustum {
            radius_top: 0.5 * ratio(top),
            radius_bottom: 0.5,
            height: 1.0,
        }
        .mesh()
        .resolution(24)
        .build(),
        MeshKey::Capsule(q) => Capsule3d::new(0.5, (ratio(q) - 1.0).max(0.0))
            .mesh()
            .longitudes(24)
            .build(),
        MeshKey::Torus(ring) => {
            // The tube is `ring` of the outer radius thick; stretched to fill the height.
            let minor = 0.25 * ratio(ring);
            Torus::new(0.5 - 2.0 * minor, 0.5)
                .mesh()
                .build()
                .scaled_by(Vec3::new(1.0, 0.5 / minor, 1.0))
        }
        MeshKey::Wedge => {
            // A right triangle across (z, y) — tall at the back, a point at the front —
            // extruded along x.
            let triangle = Triangle2d::new(
                Vec2::new(-0.5, -0.5),
                Vec2::new(0.5, -0.5),
                Vec2::new(-0.5, 0.5),
            );
            Extrusion::new(triangle, 1.0)
                .mesh()
                .build()
                .rotated_by(Quat::from_rotation_y(-FRAC_PI_2))
        }
    }
}

/// The material of a look: its colour (tinted halfway toward the tint), its finish and glow.
fn material(look: Look) -> StandardMaterial {
    let [r, g, b] = look.rgb.unit();
    let colour = look
        .tint
        .map_or(Color::srgb(r, g, b), |t| tinted(Color::srgb(r, g, b), t));
    let glow = f32::from(look.glow) / 1000.0;
    let light = LinearRgba::from(colour);
    let emissive = LinearRgba::rgb(light.red * glow, light.green * glow, light.blue * glow);
    let base = StandardMaterial {
        base_color: colour,
        emissive,
        ..default()
    };
    match look.finish {
        1 => StandardMaterial {
            metallic: 0.9,
            perceptual_roughness: 0.35,
            ..base
        },
        2 => StandardMaterial {
            perceptual_roughness: 0.2,
            reflectance: 0.6,
            ..base
        },
        3 => StandardMaterial {
            base_color: colour.with_alpha(0.45),
            alpha_mode: AlphaMode::Blend,
            perceptual_roughness: 0.1,
            ..base
        },
        _ => StandardMaterial {
            perceptual_roughness: 0.85,
            ..base
        },
    }
}

#[cfg(test)]
mod tests {
    use super::super::part;
    use super::*;
    use bevy::camera::primitives::Aabb;
    use bevy::camera::primitives::MeshAabb;

    fn bounds(key: MeshKey) -> (Vec3, Vec3) {
        let aabb: Aabb = mesh(key).compute_aabb().unwrap();
        (aabb.min().into(), aabb.max().into())
    }

    #[test]
    fn every_shape_fills_the_unit_box() {
        for key in [
            MeshKey::Box,
            MeshKey::Sphere,
            MeshKey::Cylinder,
            MeshKey::Cone,
            MeshKey::Frustum(40),
            MeshKey::Torus(30),
            MeshKey::Torus(100),
            MeshKey::Wedge,
            MeshKey::Capsule(100),
        ] {
            let (min, max) = bounds(key);
            assert!(
                min.abs_diff_eq(Vec3::splat(-0.5), 1e-3) && max.abs_diff_eq(Vec3::splat(0.5), 1e-3),
                "{key:?}: {min} to {max}"
            );
        }
    }

    #[test]
    fn a_tall_capsule_keeps_round_ends() {
        let (key, scale) = mesh_of(&part(
            PartShape::Capsule,
            (0.2, 0.8, 0.2),
            Rgb(0, 0, 0),
            0.4,
        ));
        assert_eq!(key, MeshKey::Capsule(400));
        let (min, max) = bounds(key);
        // Four widths tall; scaled by the width on every axis, so the ends stay round.
        assert!((max.y - min.y - 4.0).abs() < 1e-3, "{min} to {max}");
        assert!(scale.abs_diff_eq(Vec3::splat(0.2), 1e-6), "{scale}");
    }

    #[test]
    fn the_wedge_is_tall_at_the_back_and_low_at_the_front() {
        let m = mesh(MeshKey::Wedge);
        let positions = m
            .attribute(Mesh::ATTRIBUTE_POSITION)
            .and_then(|a| a.as_float3())
            .unwrap();
        for p in positions {
            // The slope runs from the top at the back (z −0.5) to the bottom at the front.
            assert!(p[1] <= -p[2] + 1e-4, "{p:?} above the slope");
        }
        assert!(positions.iter().any(|p| p[2] < -0.49 && p[1] > 0.49));
    }

    fn plain(shape: PartShape, rgb: Rgb, aim: bool) -> Part {
        Part {
            aim,
            ..part(shape, (0.3, 0.3, 0.3), rgb, 0.2)
        }
    }

    #[test]
    fn units_that_look_alike_share_meshes_and_materials() {
        use bevy::ecs::system::RunSystemOnce;
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, AssetPlugin::default()))
            .init_asset::<Mesh>()
            .init_asset::<StandardMaterial>()
            .init_resource::<Kit>();
        let model = Model::Parts(vec![
            plain(PartShape::Box, Rgb(200, 0, 0), false),
            plain(PartShape::Box, Rgb(0, 0, 200), true),
            plain(PartShape::Sphere, Rgb(200, 0, 0), true),
        ]);
        let spawn = move |mut commands: Commands, mut builder: Builder| {
            for _ in 0..3 {
                let root = commands.spawn(Transform::default()).id();
                builder.spawn(&mut commands, root, &model, Path::new(""));
            }
        };
        app.world_mut().run_system_once(spawn).unwrap();
        let world = app.world_mut();
        let parts: Vec<(AssetId<Mesh>, AssetId<StandardMaterial>)> = world
            .query::<(&Mesh3d, &MeshMaterial3d<StandardMaterial>)>()
            .iter(world)
            .map(|(m, s)| (m.0.id(), s.0.id()))
            .collect();
        assert_eq!(parts.len(), 9);
        let meshes: std::collections::HashSet<_> = parts.iter().map(|p| p.0).collect();
        let materials: std::collections::HashSet<_> = parts.iter().map(|p| p.1).collect();
        assert_eq!((meshes.len(), materials.len()), (2, 2));
        // The two aiming parts of each model turn on one pivot.
        let pivots: Vec<&Children> = world
            .query_filtered::<&Children, With<Pivot>>()
            .iter(world)
            .collect();
        assert_eq!(pivots.len(), 3);
        assert!(pivots.iter().all(|c| c.len() == 2));
    }

    #[test]
    fn turns_apply_about_x_then_y_then_z() {
        // 90° about x takes +y to +z; 90° about y then takes +z to +x.
        let q = turn((90.0, 90.0, 0.0));
        assert!((q * Vec3::Y).abs_diff_eq(Vec3::X, 1e-5), "{}", q * Vec3::Y);
    }

    #[test]
    fn finishes_make_their_materials() {
        let look = |finish: Finish, glow: f32| {
            material(Look::of(&Part {
                finish,
                glow,
                ..part(PartShape::Box, (1.0, 1.0, 1.0), Rgb(200, 100, 50), 0.5)
            }))
        };
        assert!(look(Finish::Metal, 0.0).metallic > 0.8);
        assert_eq!(look(Finish::Glass, 0.0).alpha_mode, AlphaMode::Blend);
        assert!(look(Finish::Gloss, 0.0).perceptual_roughness < 0.3);
        assert!(look(Finish::Matte, 0.0).perceptual_roughness > 0.8);
        assert_eq!(look(Finish::Matte, 0.0).emissive, LinearRgba::BLACK);
        assert!(look(Finish::Matte, 1.0).emissive.red > 0.5);
    }
}
