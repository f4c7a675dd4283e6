//! How a blueprint or an attacker type looks: a model in its RON file, built from parts
//! (primitive shapes with a size, colour, offset, turn and simple animations) or read from a
//! glTF file in the mod's folder. Only the client draws models; the battle never reads them.
//!
//! Model space: a tile is 1 long, `y` is up, the model stands on `y = 0` centred on its position,
//! and its front faces `+z` (glTF's convention, so a file exported from an editor needs no turn).
//! The client turns a unit's model toward where it walks and a tower's aiming parts toward its
//! target.

use serde::{Deserialize, Serialize};

use super::colour::Rgb;

/// A look: `Parts([...])` or `Gltf((file: "models/x.glb"))`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Model {
    /// Primitive shapes, drawn in the order written.
    Parts(Vec<Part>),
    /// A glTF 2.0 file (`.gltf` or `.glb`) of the mod.
    Gltf(GltfModel),
}

/// One primitive shape of a model.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Part {
    /// Which primitive.
    pub shape: PartShape,
    /// Width (`x`), height (`y`) and depth (`z`) of its bounding box, in tiles.
    pub size: (f32, f32, f32),
    /// `"#rrggbb"`, a colour name, or a name of the palette (`palette.ron`); resolved by the
    /// loader into [`Part::rgb`].
    pub colour: String,
    /// The resolved colour; set by the loader.
    #[serde(skip)]
    pub rgb: Rgb,
    /// Where its centre is, in tiles from the model's origin.
    #[serde(default)]
    pub at: (f32, f32, f32),
    /// Its rotation in degrees about `x`, `y` and `z`, applied in that order.
    #[serde(default)]
    pub turn: (f32, f32, f32),
    /// How its surface reflects light.
    #[serde(default)]
    pub finish: Finish,
    /// How much light it gives off itself, 0 (none) to 1 (bright as its colour).
    #[serde(default)]
    pub glow: f32,
    /// Whether it turns (about the model's vertical axis) toward the building's target, like a
    /// turret. Parts that aim turn together.
    #[serde(default)]
    pub aim: bool,
    /// Its animations, combined.
    #[serde(default)]
    pub anim: Vec<Anim>,
}

/// The primitive shapes a part may have, each filling the part's `size`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum PartShape {
    /// A box.
    Box,
    /// A sphere, or an ellipsoid when the size is uneven.
    Sphere,
    /// A cylinder standing along `y`.
    Cylinder,
    /// A cone, point up.
    Cone,
    /// A cylinder whose top has `top` times the radius of its bottom (0 to 1).
    Frustum {
        /// The top's radius over the bottom's.
        top: f32,
    },
    /// A cylinder with round ends, standing along `y`.
    Capsule,
    /// A ring lying flat; `ring` is the tube's thickness over the ring's outer radius (0 to 1).
    Torus {
        /// The tube's thickness over the outer radius.
        ring: f32,
    },
    /// A wedge: a box whose top edge runs along its back, sloping down to its front (`+z`).
    Wedge,
}

/// How a part's surface reflects light.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Finish {
    /// Rough, like stone or cloth.
    #[default]
    Matte,
    /// Smooth and reflective, like steel.
    Metal,
    /// Smooth and shiny, like paint or slime.
    Gloss,
    /// See-through, like glass or a jellyfish.
    Glass,
}

/// An animation of a part. Periods are in seconds; distances in tiles; angles in degrees.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Anim {
    /// Turns about its own vertical axis, `turns` full turns a second (negative: the other way).
    Spin {
        /// Full turns a second.
        turns: f32,
    },
    /// Rises and falls by `height` every `period`.
    Bob {
        /// How far it rises above where it rests.
        height: f32,
        /// Seconds for one rise and fall.
        period: f32,
    },
    /// Grows and shrinks by the fraction `amount` every `period`.
    Pulse {
        /// How much it grows, as a fraction of its size.
        amount: f32,
        /// Seconds for one beat.
        period: f32,
    },
    /// Jumps back by `distance` when the building fires, then returns.
    Recoil {
        /// How far back it jumps.
        distance: f32,
    },
    /// Flattens by the fraction `amount` when the attacker is hit, then springs back.
    Squash {
        /// How much flatter it gets, as a fraction of its height.
        amount: f32,
    },
    /// Swings forward and back by `swing` degrees about the top of the part while the attacker
    /// walks, one step for each tile walked; `phase` (0 to 1) shifts it in the cycle, so legs
    /// with phases 0 and 0.5 step in turn.
    Walk {
        /// The largest angle of the swing.
        swing: f32,
        /// Where in the cycle it starts, 0 to 1.
        phase: f32,
    },
}

/// A model read from a glTF file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GltfModel {
    /// The file, relative to the mod's folder (`models/drake.glb`).
    pub file: String,
    /// Its size: the file's units times `scale` become tiles.
    #[serde(default = "one")]
    pub scale: f32,
    /// Where its origin goes, in tiles from the model's origin.
    #[serde(default)]
    pub at: (f32, f32, f32),
    /// Its rotation in degrees about `x`, `y` and `z`, applied in that order.
    #[serde(default)]
    pub turn: (f32, f32, f32),
}

fn one() -> f32 {
    1.0
}
