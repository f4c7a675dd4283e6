//! Models drawn: every blueprint's and attacker type's look — its `model` of parts or its glTF
//! file, or a plain default where it has none — built into meshes and materials shared by every
//! unit that looks alike ([`build`]), animated ([`anim`]), read from glTF files ([`gltf`]), and
//! photographed off-screen into the icons of cards, the wave preview, the HUD and the info panel
//! ([`icons`]). The battle's units are spawned with these models by `units.rs`.

pub mod anim;
pub mod build;
pub mod gltf;
pub mod icons;

use std::path::PathBuf;

use bevy::app::HierarchyPropagatePlugin;
use bevy::camera::visibility::RenderLayers;
use bevy::prelude::*;

use super::palette::Palette;
use rampart_core::content::colour::Rgb;
use rampart_core::content::model::{Anim, Finish, Model, Part, PartShape};
use rampart_core::content::{AttackerType, Blueprint, BlueprintKind, ContentDb, Size};

/// Draws models and their icons.
pub struct ModelsPlugin;

impl Plugin for ModelsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<build::Kit>()
            // Icons' stages are on their own render layer, down to the parts a glTF scene
            // spawns.
            .add_plugins(HierarchyPropagatePlugin::<RenderLayers>::new(PostUpdate))
            .add_plugins(icons::IconsPlugin);
    }
}

/// The folder of the mod that gives item `id` (`mod:name`), where its model's files are.
pub fn folder(db: &ContentDb, id: &str) -> PathBuf {
    let mod_id = id.split_once(':').map_or(id, |(m, _)| m);
    db.mods
        .iter()
        .find(|m| m.id == mod_id)
        .map_or_else(PathBuf::new, |m| m.root.clone())
}

/// The model of attacker type `a`: its own, else a plain shape in its colour, sized by its
/// class.
pub fn attacker_model(a: &AttackerType) -> Model {
    a.model
        .clone()
        .unwrap_or_else(|| plain_attacker(&a.id, a.size))
}

/// The default look of attacker type `id` of size class `size`.
fn plain_attacker(id: &str, size: Size) -> Model {
    let size = match size {
        Size::Small => 0.32,
        Size::Large => 0.55,
        Size::Boss => 0.8,
    };
    let shape = match hash(id) % 3 {
        0 => PartShape::Sphere,
        1 => PartShape::Box,
        _ => PartShape::Cone,
    };
    Model::Parts(vec![Part {
        anim: vec![Anim::Squash { amount: 0.3 }],
        ..part(
            shape,
            (size, size, size),
            rgb(attacker_color(id)),
            size / 2.0,
        )
    }])
}

/// The model of blueprint `bp`: its own, else a plain one by its kind in `palette`'s colour
/// for the kind (the Hub's, when `hub`, in gold).
pub fn blueprint_model(bp: &Blueprint, hub: bool, palette: &Palette) -> Model {
    if let Some(model) = &bp.model {
        return model.clone();
    }
    let colour = rgb(palette.kind(bp.kind));
    let parts = match bp.kind {
        _ if hub => {
            let gold = Rgb(242, 204, 77);
            vec![
                part(PartShape::Cylinder, (0.9, 0.7, 0.9), gold, 0.35),
                part(PartShape::Cone, (0.7, 0.6, 0.7), gold, 1.0),
            ]
        }
        BlueprintKind::Tower => vec![
            part(PartShape::Cylinder, (0.6, 0.4, 0.6), colour, 0.2),
            Part {
                at: (0.0, 0.45, 0.2),
                aim: true,
                anim: vec![Anim::Recoil { distance: 0.08 }],
                ..part(PartShape::Box, (0.14, 0.14, 0.5), colour, 0.45)
            },
        ],
        BlueprintKind::Ability => {
            let radius = bp.radius.unwrap_or(0.5) as f32;
            vec![Part {
                finish: Finish::Glass,
                ..part(
                    PartShape::Cylinder,
                    (2.0 * radius, 0.04, 2.0 * radius),
                    colour,
                    0.05,
                )
            }]
        }
        BlueprintKind::Economic => vec![part(PartShape::Box, (0.6, 0.45, 0.6), colour, 0.225)],
        BlueprintKind::Special => vec![part(PartShape::Box, (0.6, 0.6, 0.6), colour, 0.3)],
    };
    Model::Parts(parts)
}

/// A plain part of `shape`, `size` and colour `rgb`, centred `y` above the ground.
pub(crate) fn part(shape: PartShape, size: (f32, f32, f32), rgb: Rgb, y: f32) -> Part {
    Part {
        shape,
        size,
        colour: String::new(),
        rgb,
        at: (0.0, y, 0.0),
        turn: (0.0, 0.0, 0.0),
        finish: Finish::Matte,
        glow: 0.0,
        aim: false,
        anim: Vec::new(),
    }
}

/// A colour as the content writes it.
fn rgb(colour: Color) -> Rgb {
    let c = colour.to_srgba().to_u8_array();
    Rgb(c[0], c[1], c[2])
}

/// A stable number from a name, to pick shapes and colours.
fn hash(name: &str) -> u32 {
    name.bytes().fold(2_166_136_261u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(16_777_619)
    })
}

/// The colour an attacker type without a model is drawn in: a colour word in its id, else one
/// from its id's hash.
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

/// The box a model's parts fill, in model space (a glTF model: a tile's cube, standing on the
/// ground, as its size is not known before it loads).
pub fn bounds(model: &Model) -> (Vec3, Vec3) {
    let Model::Parts(parts) = model else {
        return (Vec3::new(-0.5, 0.0, -0.5), Vec3::new(0.5, 1.0, 0.5));
    };
    let mut min = Vec3::splat(f32::MAX);
    let mut max = Vec3::splat(f32::MIN);
    for p in parts {
        let half = Vec3::from(p.size) / 2.0;
        let turn = build::turn(p.turn);
        for corner in 0..8 {
            let sign = Vec3::new(
                if corner & 1 == 0 { -1.0 } else { 1.0 },
                if corner & 2 == 0 { -1.0 } else { 1.0 },
                if corner & 4 == 0 { -1.0 } else { 1.0 },
            );
            let at = Vec3::from(p.at) + turn * (half * sign);
            min = min.min(at);
            max = max.max(at);
        }
    }
    if parts.is_empty() {
        return (Vec3::ZERO, Vec3::ZERO);
    }
    (min, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_hold_every_part_turned_and_placed() {
        let model = Model::Parts(vec![
            part(PartShape::Box, (1.0, 0.2, 0.2), Rgb(0, 0, 0), 0.1),
            Part {
                turn: (0.0, 0.0, 90.0),
                ..part(PartShape::Box, (1.0, 0.2, 0.2), Rgb(0, 0, 0), 1.0)
            },
        ]);
        let (min, max) = bounds(&model);
        assert!(min.abs_diff_eq(Vec3::new(-0.5, 0.0, -0.1), 1e-5), "{min}");
        assert!(max.abs_diff_eq(Vec3::new(0.5, 1.5, 0.1), 1e-5), "{max}");
    }

    #[test]
    fn an_attacker_without_a_model_gets_a_shape_coloured_and_sized_by_its_type() {
        let Model::Parts(parts) = plain_attacker("m:red_blob", Size::Large) else {
            panic!("a default is made of parts");
        };
        assert_eq!(parts[0].size, (0.55, 0.55, 0.55));
        assert_eq!(parts[0].at.1, 0.275);
        assert_eq!(parts[0].rgb, rgb(Color::srgb(0.85, 0.2, 0.2)));
    }
}
