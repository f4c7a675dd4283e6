//! Icons made from models: each blueprint and attacker type without a PNG `icon` of its own has
//! its model photographed off-screen — on a stage far from the world, by a camera rendering a
//! fixed three-quarter view into a 128×128 image with a transparent background, on a render
//! layer of its own with its own lights — for a few frames, and the image is kept under the name
//! the mods' own icons use ([`Icons::blueprint`], [`Icons::attacker`]), so every place that
//! shows an item's icon shows it. Photographed again, for the items whose model changed, when
//! the content is reloaded or the palette (a default model's colours) changes.

use std::collections::HashMap;

use bevy::app::Propagate;
use bevy::asset::LoadState;
use bevy::camera::visibility::RenderLayers;
use bevy::camera::{RenderTarget, ScalingMode};
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use bevy::world_serialization::WorldAssetRoot;

use super::super::palette::Palette;
use super::super::rich::Icons;
use super::super::{ClientSet, Content};
use super::build::Builder;
use super::{attacker_model, blueprint_model, bounds, folder};
use rampart_core::content::model::Model;

/// The render layer of icon stages: no other camera sees them, and their lights light nothing
/// else.
pub const LAYER: usize = 7;
/// An icon's width and height in pixels.
pub const SIZE: u32 = 128;
/// Frames a stage is photographed, once its model is there, before it goes.
const FRAMES: u32 = 6;
/// Frames a stage waits for a glTF file before giving up on it.
const PATIENCE: u32 = 600;
/// Where the stages stand: far below the world, a grid of them apart.
const STAGES_AT: Vec3 = Vec3::new(0.0, -1000.0, 0.0);
const STAGE_SPACING: f32 = 20.0;

/// Photographs models into icons.
pub struct IconsPlugin;

impl Plugin for IconsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Photographed>()
            .add_systems(Startup, light)
            .add_systems(
                Update,
                (
                    // The mods' icons are read again after a content change, in a frame of
                    // their own: these join them again then.
                    photograph.run_if(
                        resource_changed::<Content>
                            .or_else(resource_changed::<Palette>)
                            .or_else(resource_changed::<Icons>),
                    ),
                    retire,
                )
                    .chain()
                    .in_set(ClientSet::Present),
            );
    }
}

/// The icons photographed, by icon name: the model each shows, and its image.
#[derive(Resource, Default)]
pub struct Photographed {
    icons: HashMap<String, (Model, Handle<Image>)>,
    /// Stages set up so far, to give each its own place.
    stages: u32,
}

/// A model being photographed, with its camera; frames photographed and waited.
#[derive(Component)]
struct Stage {
    frames: u32,
    waited: u32,
}

/// The icon stages' light: a key light from the front left above and a dim fill from behind.
fn light(mut commands: Commands) {
    let layer = RenderLayers::layer(LAYER);
    commands.spawn((
        DirectionalLight {
            illuminance: 9000.0,
            ..default()
        },
        Transform::default().looking_to(Vec3::new(0.4, -0.8, -0.6), Vec3::Y),
        layer.clone(),
    ));
    commands.spawn((
        DirectionalLight {
            illuminance: 2500.0,
            ..default()
        },
        Transform::default().looking_to(Vec3::new(-0.5, -0.3, 0.8), Vec3::Y),
        layer,
    ));
}

/// The icon names and models of every item without an icon file of its own.
fn wanted(content: &Content, palette: &Palette) -> Vec<(String, String, Model)> {
    let db = &content.db;
    let blueprints = db.blueprints.iter().filter(|b| b.icon.is_none()).map(|b| {
        let model = blueprint_model(b, b.placed_by_game(), palette);
        (Icons::blueprint(&b.id), b.id.clone(), model)
    });
    let attackers = db
        .attackers
        .iter()
        .filter(|a| a.icon.is_none())
        .map(|a| (Icons::attacker(&a.id), a.id.clone(), attacker_model(a)));
    blueprints.chain(attackers).collect()
}

/// Photographs the models of the items that have no icon file, where the model is new.
fn photograph(
    mut commands: Commands,
    content: Res<Content>,
    palette: Res<Palette>,
    mut icons: ResMut<Icons>,
    mut photographed: ResMut<Photographed>,
    mut images: ResMut<Assets<Image>>,
    mut builder: Builder,
) {
    let mut kept = HashMap::new();
    for (name, id, model) in wanted(&content, &palette) {
        let image = match photographed.icons.remove(&name) {
            Some((old, image)) if old == model => image,
            _ => {
                let image = images.add(Image::new_target_texture(
                    SIZE,
                    SIZE,
                    TextureFormat::Rgba8Unorm,
                    Some(TextureFormat::Rgba8UnormSrgb),
                ));
                let n = photographed.stages;
                photographed.stages += 1;
                let folder = folder(&content.db, &id);
                stage(
                    &mut commands,
                    &mut builder,
                    &model,
                    &folder,
                    image.clone(),
                    n,
                );
                image
            }
        };
        // Only a new picture changes the icons: this system runs when they change.
        if icons.0.get(&name) != Some(&image) {
            icons.0.insert(name.clone(), image.clone());
        }
        kept.insert(name, (model, image));
    }
    photographed.icons = kept;
}

/// Sets up stage number `n`: `model` and a camera photographing it into `image`.
fn stage(
    commands: &mut Commands,
    builder: &mut Builder,
    model: &Model,
    folder: &std::path::Path,
    image: Handle<Image>,
    n: u32,
) {
    let at = STAGES_AT + STAGE_SPACING * Vec3::new((n % 64) as f32, 0.0, (n / 64 % 64) as f32);
    let (eye, extent) = framing(model);
    let root = commands
        .spawn((
            Stage {
                frames: 0,
                waited: 0,
            },
            Transform::from_translation(at),
            Visibility::default(),
            Propagate(RenderLayers::layer(LAYER)),
        ))
        .id();
    builder.spawn(commands, root, model, folder);
    commands.spawn((
        Camera3d::default(),
        Camera {
            // Before the window's camera, which shows the images.
            order: -10,
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
        RenderTarget::Image(image.into()),
        Projection::from(OrthographicProjection {
            scaling_mode: ScalingMode::Fixed {
                width: extent,
                height: extent,
            },
            ..OrthographicProjection::default_3d()
        }),
        eye,
        ChildOf(root),
    ));
}

/// An icon in the UI: `image` in a square of `side` pixels that does not shrink; without an
/// image, the square is left empty.
pub fn icon(image: Option<Handle<Image>>, side: f32) -> impl Bundle {
    let shown = if image.is_some() {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    (
        ImageNode::new(image.unwrap_or_default()),
        Node {
            width: Val::Px(side),
            height: Val::Px(side),
            flex_shrink: 0.0,
            ..default()
        },
        shown,
    )
}

/// Where an icon's camera stands (in the stage's space) to see `model` from the front right
/// above, and the width of the square it sees, which holds the whole model with a margin.
pub fn framing(model: &Model) -> (Transform, f32) {
    let (min, max) = bounds(model);
    let centre = (min + max) / 2.0;
    let eye = Transform::from_translation(centre + Vec3::new(0.55, 0.6, 0.8).normalize() * 10.0)
        .looking_at(centre, Vec3::Y);
    let (right, up) = (eye.right(), eye.up());
    let mut half = 0.05f32;
    for corner in 0..8 {
        let p = Vec3::new(
            if corner & 1 == 0 { min.x } else { max.x },
            if corner & 2 == 0 { min.y } else { max.y },
            if corner & 4 == 0 { min.z } else { max.z },
        ) - centre;
        half = half.max(p.dot(*right).abs()).max(p.dot(*up).abs());
    }
    (eye, 2.0 * half * 1.08)
}

/// Takes stages down once photographed; a glTF model's waits until its file is there.
fn retire(
    mut commands: Commands,
    assets: Res<AssetServer>,
    mut stages: Query<(Entity, &mut Stage, &Children)>,
    scenes: Query<&WorldAssetRoot>,
) {
    for (e, mut stage, children) in &mut stages {
        // A glTF file still loading (a failed one is given up on: it shows nothing).
        let loading = children.iter().filter_map(|c| scenes.get(c).ok()).any(|s| {
            !assets.is_loaded_with_dependencies(&s.0)
                && !matches!(assets.load_state(&s.0), LoadState::Failed(_))
        });
        stage.waited += 1;
        if !loading {
            stage.frames += 1;
        }
        if stage.frames > FRAMES || stage.waited > PATIENCE {
            commands.entity(e).despawn();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::part;
    use super::*;
    use rampart_core::content::colour::Rgb;
    use rampart_core::content::model::PartShape;

    #[test]
    fn the_framing_holds_the_whole_model() {
        let tall = Model::Parts(vec![part(
            PartShape::Box,
            (0.4, 2.0, 0.4),
            Rgb(1, 1, 1),
            1.0,
        )]);
        let (eye, extent) = framing(&tall);
        // Looking at the centre, from the front (+z), right (+x) and above.
        assert!(eye.translation.z > 1.0 && eye.translation.x > 1.0 && eye.translation.y > 2.0);
        let (min, max) = bounds(&tall);
        for corner in [min, max, Vec3::new(min.x, max.y, max.z)] {
            let seen = eye.compute_affine().inverse().transform_point3(corner);
            assert!(seen.x.abs() <= extent / 2.0 && seen.y.abs() <= extent / 2.0);
        }
        // Not much more: the model fills the icon.
        assert!(extent < 2.0 * 1.2, "{extent}");
    }
}
