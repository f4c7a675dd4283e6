//! How a blueprint or an attacker type looks: a model in its RON file, built from parts
//! (primitive shapes with a size, colour, offset, turn and simple animations) or read from a
//! glTF file in the mod's folder. Only the client draws models; the battle never reads them.
//!
//! Model space: a tile is 1 long, `y` is up, the model stands on `y = 0` centred on its position,
//! and its front faces `+z` (glTF's convention, so a file exported from an editor needs no turn).
//! The client turns a unit's model toward where it walks and a tower's aiming parts toward its
//! target.
//!
//! The loader checks every model ([`check`]): numbers in their bounds, colours that exist, a
//! glTF file inside the mod that parses. A model with errors is reported and dropped, and its
//! blueprint or attacker type loads without one, so the client draws its default look: a
//! mistake in how a tower looks never takes the tower out of the game.

use std::ops::RangeInclusive;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::colour::Rgb;
use super::load::{Item, inside_mod};
use super::palette::Palette;
use super::validate::Checker;
use super::{AttackerType, Blueprint};
use crate::diagnostics::{Diagnostic, Diagnostics};

/// The most parts a model may have: enough for any look, few enough to draw a crowd.
pub const MAX_PARTS: usize = 64;

/// The largest size of a part along each axis, and the farthest a part's centre (or a glTF
/// model's origin) may be from the model's, in tiles: a model stays near its tile.
pub const MAX_EXTENT: f32 = 4.0;

/// The largest glTF file a model may read, and the largest file it names (a buffer, an image).
pub const MAX_GLTF_BYTES: u64 = 32 * 1024 * 1024;

/// The fastest a part may spin, in turns a second: faster only flickers.
pub const MAX_SPIN: f32 = 10.0;

/// The largest swing of a walking leg, in degrees.
pub const MAX_SWING: f32 = 90.0;

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

/// What checking a model needs besides the item: the merged palette, and each mod's folder
/// (where its glTF files are).
pub(super) struct Looks<'a> {
    /// Every mod's palette, merged.
    pub palette: &'a Palette,
    /// The folder of a loaded mod, by id.
    pub root_of: &'a dyn Fn(&str) -> Option<PathBuf>,
}

/// What a model is the look of, which decides what of it ever moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Wearer {
    /// A blueprint: its building fires and aims, and stands still.
    Blueprint,
    /// An attacker type: it walks and is hit, and aims at nothing.
    Attacker,
}

/// Content that may have a model.
pub(super) trait Worn {
    /// What it is, for what of its model ever moves.
    const WEARER: Wearer;
    /// Its model, as read.
    fn model(&self) -> Option<&Model>;
}

impl Worn for AttackerType {
    const WEARER: Wearer = Wearer::Attacker;
    fn model(&self) -> Option<&Model> {
        self.model.as_ref()
    }
}

impl Worn for Blueprint {
    const WEARER: Wearer = Wearer::Blueprint;
    fn model(&self) -> Option<&Model> {
        self.model.as_ref()
    }
}

/// Checks the model of `item` and resolves its colours: the model if it has no errors, `None`
/// (each error reported) otherwise or when it has none.
pub(super) fn check<T: Worn>(
    item: &Item<T>,
    looks: &Looks,
    diagnostics: &mut Diagnostics,
) -> Option<Model> {
    let mut model = item.value.model()?.clone();
    let mut c = Checker::new(item, diagnostics);
    match &mut model {
        Model::Parts(parts) => check_parts(&mut c, parts, T::WEARER, looks.palette),
        Model::Gltf(gltf) => check_gltf(&mut c, gltf, looks),
    }
    (c.errors == 0).then_some(model)
}

fn check_parts<T>(c: &mut Checker<'_, T>, parts: &mut [Part], wearer: Wearer, palette: &Palette) {
    if parts.is_empty() || parts.len() > MAX_PARTS {
        c.path_error(
            "model",
            format!(
                "a model has from 1 to {MAX_PARTS} parts, not {}",
                parts.len()
            ),
        );
    }
    for (i, part) in parts.iter_mut().enumerate() {
        let path = |field: &str| format!("model[{i}].{field}");
        if !all3(part.size, |v| v > 0.0 && v <= MAX_EXTENT) {
            c.path_error(
                &path("size"),
                format!(
                    "`{}` must be above 0 and at most {MAX_EXTENT} tiles each, not {}",
                    path("size"),
                    triple(part.size)
                ),
            );
        }
        within3(c, &path("at"), part.at);
        finite3(c, &path("turn"), part.turn);
        within(c, &path("glow"), part.glow, 0.0..=1.0, "");
        match part.shape {
            PartShape::Frustum { top } => within(c, &path("shape.top"), top, 0.0..=1.0, ""),
            PartShape::Torus { ring } if !(ring > 0.0 && ring <= 1.0) => c.path_error(
                &path("shape.ring"),
                format!(
                    "`{}` must be above 0 and at most 1, not {ring}",
                    path("shape.ring")
                ),
            ),
            _ => {}
        }
        if part.aim && wearer == Wearer::Attacker {
            path_warning(
                c,
                &path("aim"),
                "`aim` turns a part toward a building's target: an attacker type's parts never aim"
                    .into(),
            );
        }
        for (n, anim) in part.anim.iter().enumerate() {
            let anim_path = path(&format!("anim[{n}]"));
            check_anim(c, &anim_path, anim);
            let (name, never) = match (anim, wearer) {
                (Anim::Recoil { .. }, Wearer::Attacker) => {
                    ("Recoil", "an attacker type's model never fires")
                }
                (Anim::Squash { .. }, Wearer::Blueprint) => {
                    ("Squash", "a blueprint's model is never hit")
                }
                (Anim::Walk { .. }, Wearer::Blueprint) => {
                    ("Walk", "a blueprint's model never walks")
                }
                _ => continue,
            };
            path_warning(c, &anim_path, format!("`{name}` never plays here: {never}"));
        }
        match palette.resolve(&part.colour) {
            Ok(rgb) => part.rgb = rgb,
            Err((message, help)) => value_error(c, &path("colour"), message, Some(help)),
        }
    }
}

fn check_anim<T>(c: &mut Checker<'_, T>, path: &str, anim: &Anim) {
    let field = |name: &str| format!("{path}.{name}");
    match *anim {
        Anim::Spin { turns } => within(c, &field("turns"), turns, -MAX_SPIN..=MAX_SPIN, ""),
        Anim::Bob { height, period } => {
            let tiles = -MAX_EXTENT..=MAX_EXTENT;
            within(c, &field("height"), height, tiles, " tiles");
            positive(c, &field("period"), period);
        }
        Anim::Pulse { amount, period } => {
            within(c, &field("amount"), amount, 0.0..=1.0, "");
            positive(c, &field("period"), period);
        }
        Anim::Recoil { distance } => {
            within(c, &field("distance"), distance, 0.0..=MAX_EXTENT, " tiles");
        }
        Anim::Squash { amount } => within(c, &field("amount"), amount, 0.0..=1.0, ""),
        Anim::Walk { swing, phase } => {
            let degrees = -MAX_SWING..=MAX_SWING;
            within(c, &field("swing"), swing, degrees, " degrees");
            within(c, &field("phase"), phase, 0.0..=1.0, "");
        }
    }
}

fn check_gltf<T>(c: &mut Checker<'_, T>, gltf: &GltfModel, looks: &Looks) {
    positive(c, "model.scale", gltf.scale);
    within3(c, "model.at", gltf.at);
    finite3(c, "model.turn", gltf.turn);
    // The file is the mod's that named it: an override's file is looked for in its own mod.
    let (source, _) = c.item.locate_path("model.file");
    let mod_id = source.mod_id.clone();
    let problem = match (looks.root_of)(&mod_id) {
        Some(root) => match gltf_file(&root, &gltf.file) {
            Ok(()) => return,
            Err(problem) => problem,
        },
        None => (format!("mod `{mod_id}` is not loaded"), None),
    };
    let (message, help) = problem;
    value_error(c, "model.file", message, help);
}

/// Checks a glTF file `rel` a model names, against its mod's folder `root`: a `.gltf` or `.glb`
/// file inside the folder (also when links are followed), within [`MAX_GLTF_BYTES`], that
/// parses and validates as glTF 2.0 and has a mesh, whose buffers and images are in the file or
/// in files inside the folder. What is wrong and a hint, otherwise.
fn gltf_file(root: &Path, rel: &str) -> Result<(), (String, Option<String>)> {
    if !inside_mod(rel) {
        return Err((
            format!("the model file `{rel}` must be a path inside the mod's folder"),
            Some("write it relative to the mod's folder, like `models/drake.glb`".into()),
        ));
    }
    let extension = Path::new(rel)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    if !matches!(extension.as_deref(), Some("gltf" | "glb")) {
        return Err((
            format!("the model file `{rel}` must be a glTF file (`.gltf` or `.glb`)"),
            Some("export it from your editor as glTF 2.0".into()),
        ));
    }
    let bytes = mod_file(root, rel).map_err(|why| (format!("the model file {why}"), None))?;
    let gltf = gltf::Gltf::from_slice(&bytes).map_err(|e| {
        (
            format!("the model file `{rel}` is not a glTF 2.0 file the game can read: {e}"),
            Some("export it again as glTF 2.0 (`.glb` or `.gltf`)".into()),
        )
    })?;
    if gltf.meshes().len() == 0 {
        return Err((
            format!("the model file `{rel}` has no mesh to draw"),
            Some("a model's file needs a scene with at least one mesh".into()),
        ));
    }
    let folder = Path::new(rel).parent().unwrap_or(Path::new(""));
    let buffers = gltf.buffers().filter_map(|b| match b.source() {
        gltf::buffer::Source::Uri(uri) => Some(uri),
        gltf::buffer::Source::Bin => None,
    });
    let images = gltf.images().filter_map(|i| match i.source() {
        gltf::image::Source::Uri { uri, .. } => Some(uri),
        gltf::image::Source::View { .. } => None,
    });
    for uri in buffers.chain(images) {
        if uri.starts_with("data:") {
            continue;
        }
        let named = within_mod(folder, uri).ok_or_else(|| {
            (
                format!(
                    "the model file `{rel}` names `{uri}`, which is not inside the mod's folder"
                ),
                Some("keep its buffers and images beside it, inside the mod's folder".into()),
            )
        })?;
        mod_file(root, &named).map_err(|why| {
            (
                format!("the model file `{rel}` names `{uri}`, but the file {why}"),
                None,
            )
        })?;
    }
    Ok(())
}

/// The path inside the mod of `uri`, a relative URI in a glTF file in the mod's folder
/// `folder`: percent-decoded, `..` resolved, `None` if it is not relative or leaves the mod.
fn within_mod(folder: &Path, uri: &str) -> Option<String> {
    if uri.contains(':') || uri.starts_with('/') {
        return None;
    }
    let decoded = percent_encoding::percent_decode_str(uri)
        .decode_utf8()
        .ok()?;
    let mut parts: Vec<String> = Vec::new();
    for component in folder.join(decoded.as_ref()).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(parts.join("/"))
}

/// The bytes of file `rel` of the mod in `root`, or why it cannot be read: not there, a link
/// out of the folder, or above [`MAX_GLTF_BYTES`]. The reason starts with the file's name.
fn mod_file(root: &Path, rel: &str) -> Result<Vec<u8>, String> {
    let path = root.join(rel);
    let missing = || format!("`{rel}` is not a file of the mod");
    let meta = std::fs::metadata(&path).map_err(|_| missing())?;
    if !meta.is_file() {
        return Err(missing());
    }
    let real = path.canonicalize().map_err(|_| missing())?;
    if !root.canonicalize().is_ok_and(|root| real.starts_with(root)) {
        return Err(format!(
            "`{rel}` is a link that leads out of the mod's folder"
        ));
    }
    if meta.len() > MAX_GLTF_BYTES {
        return Err(format!(
            "`{rel}` is {} bytes, more than the {MAX_GLTF_BYTES} a model's file may be",
            meta.len()
        ));
    }
    std::fs::read(&path).map_err(|e| format!("`{rel}` cannot be read: {e}"))
}

/// Whether each of the three numbers is `good`.
fn all3((x, y, z): (f32, f32, f32), good: impl Fn(f32) -> bool) -> bool {
    [x, y, z].into_iter().all(good)
}

/// Three numbers as written: `(1, 0.5, 2)`.
fn triple((x, y, z): (f32, f32, f32)) -> String {
    format!("({x}, {y}, {z})")
}

/// An error unless `value` is in `range` (`unit` after the bounds, ` tiles`).
fn within<T>(
    c: &mut Checker<'_, T>,
    path: &str,
    value: f32,
    range: RangeInclusive<f32>,
    unit: &str,
) {
    if !range.contains(&value) {
        c.path_error(
            path,
            format!(
                "`{path}` must be from {} to {}{unit}, not {value}",
                range.start(),
                range.end()
            ),
        );
    }
}

/// An error unless `value` is above 0 and finite.
fn positive<T>(c: &mut Checker<'_, T>, path: &str, value: f32) {
    if !(value.is_finite() && value > 0.0) {
        c.path_error(path, format!("`{path}` must be above 0, not {value}"));
    }
}

/// An error unless each of three distances is within [`MAX_EXTENT`] of 0.
fn within3<T>(c: &mut Checker<'_, T>, path: &str, value: (f32, f32, f32)) {
    if !all3(value, |v| (-MAX_EXTENT..=MAX_EXTENT).contains(&v)) {
        c.path_error(
            path,
            format!(
                "`{path}` must be from -{MAX_EXTENT} to {MAX_EXTENT} tiles each, not {}",
                triple(value)
            ),
        );
    }
}

/// An error unless each of three angles is a finite number.
fn finite3<T>(c: &mut Checker<'_, T>, path: &str, value: (f32, f32, f32)) {
    if !all3(value, f32::is_finite) {
        c.path_error(
            path,
            format!(
                "`{path}` must be three finite angles, not {}",
                triple(value)
            ),
        );
    }
}

/// An error at the string value of the field at `path`, in the last file that has it.
fn value_error<T>(c: &mut Checker<'_, T>, path: &str, message: String, help: Option<String>) {
    let (source, key_at) = c.item.locate_path(path);
    let (at, len) = value_span(&source.file.text, key_at);
    let d = Diagnostic::error(message)
        .at(&source.file, at, len)
        .for_mod(source.mod_id.clone());
    c.report(match help {
        Some(help) => d.help(help),
        None => d,
    });
}

/// A warning at the field at `path` (or the nearest field around it that is written), in the
/// last file that has it.
fn path_warning<T>(c: &mut Checker<'_, T>, path: &str, message: String) {
    let (source, at) = c.item.locate_path(path);
    let len = key_len(&source.file.text, at).max(1);
    let d = Diagnostic::warning(message)
        .at(&source.file, at, len)
        .for_mod(source.mod_id.clone());
    c.report(d);
}

/// The length in bytes of the name written at `at` (0 if none is).
fn key_len(text: &str, at: usize) -> usize {
    let key = &text[at..];
    key.find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(key.len())
}

/// The offset and length of the string written after the field key at `key_at`, quotes
/// included (or of the key, when no string follows).
fn value_span(text: &str, key_at: usize) -> (usize, usize) {
    let key_len = key_len(text, key_at);
    let after_key = text[key_at + key_len..].trim_start();
    let value = after_key.strip_prefix(':').map(str::trim_start);
    let at = text.len() - value.map_or(0, str::len);
    match value.and_then(|v| v.strip_prefix('"')?.find('"')) {
        Some(end) => (at, end + 2),
        None => (key_at, key_len.max(1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_found_after_its_key_or_the_key_stands_for_it() {
        let text = "(colour : \"st\u{e9}el\", size: (1, 2, 3))";
        let at = text.find("colour").unwrap();
        // Bytes: the quotes and `stéel`, whose `é` is two.
        assert_eq!(value_span(text, at), (10, 8));
        let at = text.find("size").unwrap();
        assert_eq!(value_span(text, at), (at, 4));
        // No key where the search fell back to: a character of several bytes is not split.
        assert_eq!(value_span("é:", 0), (0, 2));
        assert_eq!(value_span("(é", 0), (0, 1));
        assert_eq!(value_span("", 0), (0, 1));
    }

    #[test]
    fn uris_stay_inside_the_mod_or_are_none() {
        let models = Path::new("models");
        assert_eq!(
            within_mod(models, "../textures/a%20b.png"),
            Some("textures/a b.png".into())
        );
        assert_eq!(
            within_mod(models, "./drake.bin"),
            Some("models/drake.bin".into())
        );
        assert_eq!(within_mod(models, "../../up.bin"), None);
        assert_eq!(within_mod(models, "/etc/passwd"), None);
        assert_eq!(within_mod(models, "file:///etc/passwd"), None);
        assert_eq!(within_mod(models, "%2E%2E/%2E%2E/up.bin"), None);
    }
}
