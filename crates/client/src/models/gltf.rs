//! Models a mod ships as glTF files (`.glb`, or `.gltf` with its buffers beside it), spawned as
//! their first scene. Bevy's asset server reads them: it loads from an asset folder only, and a
//! mod's folder may be anywhere (the game's `mods/`, the player's, `--mods-dir`), so the file's
//! absolute path is loaded with `override_unapproved` — which the game's `AssetPlugin` allows
//! with [`UnapprovedPathMode::Deny`](bevy::asset::UnapprovedPathMode::Deny): only loads that ask
//! for it, as these do, may leave the asset folder. A file that is missing or not glTF is
//! reported in the log by the asset server, and the model stays empty.

use std::path::Path;

use bevy::asset::AssetPath;
use bevy::gltf::GltfAssetLabel;
use bevy::prelude::*;
use bevy::world_serialization::WorldAssetRoot;

use super::build::turn;
use rampart_core::content::model::GltfModel;

/// Spawns the first scene of `model`'s file, in the mod folder `folder`, under `root`: scaled,
/// placed and turned as the model says.
pub fn spawn_gltf(
    commands: &mut Commands,
    assets: &AssetServer,
    root: Entity,
    model: &GltfModel,
    folder: &Path,
) {
    // Absolute: a relative path would be taken as inside Bevy's own `assets` folder.
    let file = folder.join(&model.file);
    let file = std::path::absolute(&file).unwrap_or(file);
    let path = AssetPath::from_path_buf(file).with_label(GltfAssetLabel::Scene(0).to_string());
    let scene = assets.load_builder().override_unapproved().load(path);
    commands.spawn((
        WorldAssetRoot(scene),
        Transform {
            translation: Vec3::from(model.at),
            rotation: turn(model.turn),
            scale: Vec3::splat(model.scale),
        },
        ChildOf(root),
    ));
}
