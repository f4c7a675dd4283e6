//! Models as content (`docs/modding/models.md`): the example mod's tower of parts and attacker of
//! a GLB file, each mistake in a model or a palette located in its file, models dropped while
//! their items load, glTF files held to the mod's folder, overrides, and reloading.

use std::path::Path;

use crate::common::{
    Located, Mods, attacker, blueprint, documented_in, load_dirs, located, repo, repo_mods, row,
};
use rampart_core::content::ContentDb;
use rampart_core::content::colour::Rgb;
use rampart_core::content::model::{Anim, MAX_GLTF_BYTES, Model, PartShape};
use rampart_core::diagnostics::Diagnostic;

/// The example mod of the page, `tests/fixtures/models/showcase`.
fn showcase() -> std::path::PathBuf {
    repo().join("tests/fixtures/models")
}

/// The 1-based line and column of the first `needle` in `text`.
fn place(text: &str, needle: &str) -> (u32, u32) {
    let at = text.find(needle).unwrap_or_else(|| panic!("no `{needle}`"));
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |n| n + 1);
    let line = before.matches('\n').count() + 1;
    (line as u32, before[line_start..].chars().count() as u32 + 1)
}

/// A located error at the first `needle` of `text`.
fn at(text: &str, needle: &str, message: &str, help: Option<&str>) -> Located {
    let (line, column) = place(text, needle);
    row(line, column, message, help)
}

/// Loads mod `m` with a blueprint `m:tower` written as `text`, alone.
fn tower(text: &str) -> (std::sync::Arc<ContentDb>, Vec<Diagnostic>) {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file("m/blueprints/tower.ron", text);
    let (db, d) = mods.load();
    (db, d.into_iter().collect())
}

/// A special building `name` whose model is one box of `colour`.
fn one_box(name: &str, colour: &str) -> String {
    let model = format!("model: Parts([(shape: Box, size: (1, 1, 1), colour: \"{colour}\")])");
    blueprint(name, "Special", &model)
}

/// The model of blueprint `id`.
fn model_of<'a>(db: &'a ContentDb, id: &str) -> Option<&'a Model> {
    db.blueprint(db.blueprint_id(id).expect(id)).model.as_ref()
}

#[test]
fn the_example_mod_loads_its_models_with_the_palettes_colours() {
    let db = load_dirs(&[repo_mods(), showcase()]);
    let Some(Model::Parts(parts)) = model_of(&db, "showcase:lantern") else {
        panic!("the lantern has no parts");
    };
    assert_eq!(parts.len(), 6);
    // Core's palette, the mod's own, a colour name.
    assert_eq!(parts[0].rgb, db.palette.get("stone").unwrap());
    assert_eq!(parts[0].rgb, Rgb(0x8c, 0x85, 0x77));
    assert_eq!(parts[4].rgb, Rgb(0xff, 0xe9, 0xa8));
    assert_eq!(parts[0].shape, PartShape::Frustum { top: 0.7 });
    assert!(parts[2].aim && parts[3].aim && !parts[4].aim);
    assert_eq!(parts[5].anim, [Anim::Spin { turns: 0.5 }]);
    let shard = db.attacker(db.attacker_id("showcase:shard").unwrap());
    let Some(Model::Gltf(gltf)) = &shard.model else {
        panic!("the shard has no glTF model");
    };
    assert_eq!(
        (gltf.file.as_str(), gltf.scale),
        ("models/triangle.glb", 0.8)
    );
    // The committed file is a real GLB that the gltf crate reads: one triangle, one material.
    let bytes = std::fs::read(showcase().join("showcase/models/triangle.glb")).unwrap();
    let file = gltf::Gltf::from_slice(&bytes).unwrap();
    assert_eq!((file.meshes().len(), file.materials().len()), (1, 1));
}

#[test]
fn the_pages_examples_are_the_example_mods_files() {
    for file in [
        "palette.ron",
        "blueprints/lantern.ron",
        "attackers/shard.ron",
    ] {
        let documented = documented_in("models.md", &format!("showcase/{file}"));
        let shipped = std::fs::read_to_string(showcase().join("showcase").join(file)).unwrap();
        assert_eq!(documented, shipped, "{file}");
    }
}

#[test]
fn core_has_a_palette_of_well_formed_names() {
    let db = load_dirs(&[repo_mods()]);
    let names: Vec<&str> = db.palette.iter().map(|(name, _)| name).collect();
    assert!(names.len() >= 24, "{names:?}");
    for name in [
        "steel",
        "bone",
        "slime_green",
        "energy_cyan",
        "fire_orange",
        "tower_blue",
    ] {
        assert!(names.contains(&name), "{name}");
    }
}

const MISTAKES: &str = r##"(
    name: "Gun",
    kind: Tower,
    rarity: Common,
    model: Parts([
        (shape: Box, size: (1, 0, 1), colour: "grey"),
        (shape: Sphere, size: (1, 1, 1), colour: "purpel", at: (0, 5, 0)),
        (shape: Frustum(top: 1.5), size: (1, 1, 1), colour: "#ff0000", glow: 2),
        (shape: Torus(ring: 0), size: (1, 1, 1), colour: "red", turn: (0, inf, 0)),
        (shape: Cone, size: (1, 1, 1), colour: "red",
         anim: [Bob(height: 0.1, period: 0), Walk(swing: 30, phase: 2), Spin(turns: NaN)]),
        (shape: Capsule, size: (1, 5, 1), colour: "#12345"),
    ]),
)"##;

#[test]
fn each_mistake_in_a_model_is_located_and_the_item_loads_without_it() {
    let (db, d) = tower(MISTAKES);
    let mut found = located(&d, "tower.ron");
    found.sort();
    let t = MISTAKES;
    let mut expected = vec![
        at(
            t,
            "size: (1, 0",
            "`model[0].size` must be above 0 and at most 4 tiles each, not (1, 0, 1)",
            None,
        ),
        at(
            t,
            "\"purpel\"",
            "`purpel` is not a colour: write `#rrggbb`, a colour name or a palette name",
            Some("did you mean `purple`?"),
        ),
        at(
            t,
            "at: (0, 5",
            "`model[1].at` must be from -4 to 4 tiles each, not (0, 5, 0)",
            None,
        ),
        at(
            t,
            "top: 1.5",
            "`model[2].shape.top` must be from 0 to 1, not 1.5",
            None,
        ),
        at(
            t,
            "glow: 2",
            "`model[2].glow` must be from 0 to 1, not 2",
            None,
        ),
        at(
            t,
            "ring: 0",
            "`model[3].shape.ring` must be above 0 and at most 1, not 0",
            None,
        ),
        at(
            t,
            "turn: (0, inf",
            "`model[3].turn` must be three finite angles, not (0, inf, 0)",
            None,
        ),
        // A warning, which keeps no model: the errors drop it.
        at(
            t,
            "anim:",
            "`Walk` never plays here: a blueprint's model never walks",
            None,
        ),
        at(
            t,
            "period: 0",
            "`model[4].anim[0].period` must be above 0, not 0",
            None,
        ),
        at(
            t,
            "phase: 2",
            "`model[4].anim[1].phase` must be from 0 to 1, not 2",
            None,
        ),
        at(
            t,
            "turns: NaN",
            "`model[4].anim[2].turns` must be from -10 to 10, not NaN",
            None,
        ),
        at(
            t,
            "size: (1, 5",
            "`model[5].size` must be above 0 and at most 4 tiles each, not (1, 5, 1)",
            None,
        ),
        at(
            t,
            "\"#12345\"",
            "`#12345` is not a colour: after `#` come six hex digits, two each for red, green and blue (`#ff8800`)",
            Some("for example `#8a97a8`"),
        ),
    ];
    expected.sort();
    assert_eq!(found, expected);
    assert_eq!(d.iter().filter(|d| d.is_error()).count(), 12);
    // The tower is still there, drawn with the default look.
    assert_eq!(model_of(&db, "m:tower"), None);
    assert!(db.blueprint_id("m:tower").is_some());
}

#[test]
fn a_misspelt_kind_is_located_with_every_name_that_may_be_written() {
    let text = "(name: \"Gun\", kind: Tower, rarity: Common,\n model: Parts([(shape: Cilinder, size: (1, 1, 1), colour: \"red\", finish: Shiny)]))";
    let (_, d) = tower(text);
    let found = located(&d, "tower.ron");
    assert_eq!(
        found[0],
        at(
            text,
            "Cilinder",
            "unknown variant `Cilinder` at `model[0].shape`",
            Some(
                "did you mean `Cylinder`? It may be one of: Box, Sphere, Cylinder, Cone, Frustum, Capsule, Torus, Wedge"
            )
        )
    );
    assert_eq!(
        found[1],
        at(
            text,
            "Shiny",
            "unknown variant `Shiny` at `model[0].finish`",
            Some("expected one of: Matte, Metal, Gloss, Glass")
        )
    );
    let text = "(name: \"Gun\", kind: Tower, rarity: Common,\n model: Parts([(shape: Box, size: (1, 1, 1), colour: \"red\", anim: [Spinn(turns: 1)])]))";
    let (_, d) = tower(text);
    let (_, _, message, help) = &located(&d, "tower.ron")[0];
    assert_eq!(message, "unknown variant `Spinn` at `model[0].anim[0]`");
    assert_eq!(
        help.as_deref(),
        Some("did you mean `Spin`? It may be one of: Spin, Bob, Pulse, Recoil, Squash, Walk")
    );
}

#[test]
fn a_model_has_from_one_to_sixty_four_parts() {
    let part = "(shape: Box, size: (0.1, 0.1, 0.1), colour: \"red\")";
    for (count, ok) in [(0, false), (1, true), (64, true), (65, false)] {
        let parts = vec![part; count].join(", ");
        let text = blueprint("Gun", "Special", &format!("model: Parts([{parts}])"));
        let (db, d) = tower(&text);
        assert_eq!(model_of(&db, "m:tower").is_some(), ok, "{count}");
        if !ok {
            assert_eq!(
                located(&d, "tower.ron"),
                [at(
                    &text,
                    "model",
                    &format!("a model has from 1 to 64 parts, not {count}"),
                    None
                )]
            );
        }
    }
}

#[test]
fn palette_mistakes_are_located_and_leave_out_only_their_entry() {
    let text = "{\n  \"rust\": \"#b7410e\",\n  \"Rust\": \"#000000\",\n  \"red\": \"#ff0000\",\n  \"moss\": \"#zz0000\",\n  \"rust\": \"#000001\",\n}";
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file("m/palette.ron", text);
    mods.file("m/blueprints/tower.ron", &one_box("Tower", "mos"));
    let (db, d) = mods.load();
    let d: Vec<Diagnostic> = d.into_iter().collect();
    assert_eq!(
        located(&d, "palette.ron"),
        [
            at(
                text,
                "\"Rust\"",
                "`Rust` cannot name a palette colour",
                Some("use lowercase letters, digits and `_` between words, like `slime_green`")
            ),
            at(
                text,
                "\"red\"",
                "`red` is a colour name of the game, which a palette cannot change",
                Some("give your colour a name of its own, like `team_red`")
            ),
            at(
                text,
                "\"#zz0000\"",
                "`#zz0000` is not a colour: after `#` come six hex digits, two each for red, green and blue (`#ff8800`)",
                Some("a palette colour is `#rrggbb` or a colour name of the game")
            ),
            row(
                6,
                3,
                "`rust` is in the palette twice",
                Some("keep one of them")
            ),
        ]
    );
    assert_eq!(db.palette.get("rust"), Some(Rgb(0xb7, 0x41, 0x0e)));
    assert_eq!(db.palette.get("moss"), None);
    // A name left out is not offered: the colour names are.
    let (_, _, message, help) = &located(&d, "tower.ron")[0];
    assert!(message.contains("`mos` is not a colour"), "{message}");
    assert!(
        help.as_deref()
            .unwrap()
            .ends_with("; the palette's (palette.ron) are rust"),
        "{help:?}"
    );
}

#[test]
fn a_later_palette_recolours_earlier_models_and_an_override_replaces_a_model() {
    let palette = "{\"hull\": \"#101010\", \"trim\": \"#202020\"}";
    let mods = Mods::new();
    mods.manifest("base", &[]).file("base/palette.ron", palette);
    mods.file("base/blueprints/tower.ron", &one_box("Tower", "hull"));
    mods.file("base/blueprints/wall.ron", &one_box("Wall", "hull"));
    mods.manifest("theme", &["base"]);
    mods.file("theme/palette.ron", "{\"hull\": \"#303030\"}");
    let wall = "(\n    overrides: \"base:wall\",\n    model: Parts([(shape: Wedge, size: (1, 1, 1), colour: \"trim\"), (shape: Box, size: (1, 9, 1), colour: \"hull\")]),\n)";
    mods.file("theme/blueprints/wall.ron", wall);
    let (db, d) = mods.load();
    let d: Vec<Diagnostic> = d.into_iter().collect();
    let Some(Model::Parts(tower)) = model_of(&db, "base:tower") else {
        panic!("no tower model");
    };
    assert_eq!(tower[0].rgb, Rgb(0x30, 0x30, 0x30));
    // The override's mistake is reported in the override's file, and drops its model.
    assert_eq!(
        located(&d, "theme/blueprints/wall.ron"),
        [at(
            wall,
            "size: (1, 9",
            "`model[1].size` must be above 0 and at most 4 tiles each, not (1, 9, 1)",
            None
        )]
    );
    assert_eq!(model_of(&db, "base:wall"), None);
    mods.file(
        "theme/blueprints/wall.ron",
        &wall.replace("(1, 9, 1)", "(1, 2, 1)"),
    );
    let (db, _) = mods.load();
    let Some(Model::Parts(wall)) = model_of(&db, "base:wall") else {
        panic!("no wall model");
    };
    assert_eq!(wall[0].shape, PartShape::Wedge);
    assert_eq!(
        (wall[0].rgb, wall[1].rgb),
        (Rgb(0x20, 0x20, 0x20), Rgb(0x30, 0x30, 0x30))
    );
}

#[test]
fn a_reload_shows_an_edited_colour_and_a_broken_edit_keeps_the_rest() {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    let tower = |colour: &str| {
        blueprint(
            "Tower",
            "Tower",
            &format!("model: Parts([(shape: Cone, size: (1, 1, 1), colour: \"{colour}\")])"),
        )
    };
    mods.file("m/blueprints/tower.ron", &tower("#112233"));
    mods.file("m/blueprints/wall.ron", &blueprint("Wall", "Special", ""));
    let rgb = |db: &ContentDb| match model_of(db, "m:tower") {
        Some(Model::Parts(parts)) => Some(parts[0].rgb),
        _ => None,
    };
    let first = mods.load_clean();
    assert_eq!(rgb(&first), Some(Rgb(0x11, 0x22, 0x33)));
    // What a content reload does: the whole database read again from the edited files.
    mods.file("m/blueprints/tower.ron", &tower("orange"));
    let edited = mods.load_clean();
    assert_eq!(rgb(&edited), Some(Rgb(255, 150, 30)));
    assert_ne!(first.content_hash(), edited.content_hash());
    mods.file("m/blueprints/tower.ron", &tower("ornage"));
    let (broken, d) = mods.load();
    let d: Vec<Diagnostic> = d.into_iter().collect();
    assert_eq!(rgb(&broken), None);
    assert!(broken.blueprint_id("m:wall").is_some() && broken.blueprint_id("m:tower").is_some());
    let (_, _, message, help) = &located(&d, "tower.ron")[0];
    assert!(message.contains("`ornage` is not a colour"), "{message}");
    assert_eq!(help.as_deref(), Some("did you mean `orange`?"));
}

/// A glTF document of one triangle whose buffer is `uri`.
fn triangle_gltf(uri: &str) -> String {
    format!(
        r#"{{"asset": {{"version": "2.0"}}, "scenes": [{{"nodes": [0]}}], "nodes": [{{"mesh": 0}}],
"meshes": [{{"primitives": [{{"attributes": {{"POSITION": 0}}}}]}}],
"accessors": [{{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]}}],
"bufferViews": [{{"buffer": 0, "byteLength": 36}}],
"buffers": [{{"byteLength": 36, "uri": "{uri}"}}]}}"#
    )
}

/// An attacker type `name` whose model is the glTF file `file`, the model on its second line.
fn gltf_attacker(name: &str, file: &str) -> String {
    attacker(
        name,
        9.0,
        1.0,
        &format!("\n model: Gltf((file: \"{file}\"))"),
    )
}

/// The error of attacker `m:drake` whose model is the file `file`, with `files` in mod `m`; `None`
/// when it loads with its model.
fn gltf_error(file: &str, files: &[(&str, &[u8])]) -> Option<(String, Option<String>)> {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    for (rel, bytes) in files {
        let path = mods.path().join("m").join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    let text = gltf_attacker("Drake", file);
    mods.file("m/attackers/drake.ron", &text);
    let (db, d) = mods.load();
    let d: Vec<Diagnostic> = d.into_iter().collect();
    let drake = db.attacker(db.attacker_id("m:drake").expect("the drake loads"));
    let found = located(&d, "drake.ron");
    match found.first() {
        None => {
            assert!(drake.model.is_some());
            None
        }
        Some(first) => {
            // Pointed at the file's name, quotes included.
            let (line, column) = place(&text, &format!("\"{file}\""));
            assert_eq!((first.0, first.1), (line, column), "{first:?}");
            assert!(drake.model.is_none());
            Some((first.2.clone(), first.3.clone()))
        }
    }
}

#[test]
fn a_gltf_model_is_a_real_gltf_file_inside_the_mod() {
    let glb = std::fs::read(showcase().join("showcase/models/triangle.glb")).unwrap();
    let bin = [0u8; 36];
    let inside = triangle_gltf("../data/tri%20angle.bin");
    assert_eq!(
        gltf_error("models/drake.glb", &[("models/drake.glb", &glb)]),
        None
    );
    assert_eq!(
        gltf_error(
            "models/drake.gltf",
            &[
                ("models/drake.gltf", inside.as_bytes()),
                ("data/tri angle.bin", &bin)
            ]
        ),
        None
    );
    let message = |file: &str, files: &[(&str, &[u8])]| gltf_error(file, files).unwrap().0;
    assert_eq!(
        message("models/none.glb", &[]),
        "the model file `models/none.glb` is not a file of the mod"
    );
    assert_eq!(
        message("../drake.glb", &[]),
        "the model file `../drake.glb` must be a path inside the mod's folder"
    );
    assert_eq!(
        message("/tmp/drake.glb", &[]),
        "the model file `/tmp/drake.glb` must be a path inside the mod's folder"
    );
    assert_eq!(
        message("models/drake.obj", &[("models/drake.obj", &glb)]),
        "the model file `models/drake.obj` must be a glTF file (`.gltf` or `.glb`)"
    );
    let garbage = message("models/drake.glb", &[("models/drake.glb", b"glTF, honest")]);
    assert!(
        garbage.starts_with(
            "the model file `models/drake.glb` is not a glTF 2.0 file the game can read: "
        ),
        "{garbage}"
    );
    let truncated = message("models/drake.glb", &[("models/drake.glb", &glb[..100])]);
    assert!(truncated.contains("is not a glTF 2.0 file"), "{truncated}");
    let invalid = triangle_gltf("data:,").replace("\"bufferView\": 0", "\"bufferView\": 7");
    let invalid = message("m.gltf", &[("m.gltf", invalid.as_bytes())]);
    assert!(
        invalid.contains("invalid glTF: accessors[0].bufferView: Index out of bounds"),
        "{invalid}"
    );
    let empty = r#"{"asset": {"version": "2.0"}}"#;
    assert_eq!(
        message("m.gltf", &[("m.gltf", empty.as_bytes())]),
        "the model file `m.gltf` has no mesh to draw"
    );
    // Extensions the client draws may be required, others not.
    let unlit = triangle_gltf("data:,").replace(
        "\"scenes\"",
        "\"extensionsUsed\": [\"KHR_materials_unlit\"], \"extensionsRequired\": [\"KHR_materials_unlit\"], \"scenes\"",
    );
    assert_eq!(gltf_error("m.gltf", &[("m.gltf", unlit.as_bytes())]), None);
    let meshopt = unlit.replace("KHR_materials_unlit", "EXT_meshopt_compression");
    let meshopt = message("m.gltf", &[("m.gltf", meshopt.as_bytes())]);
    assert!(
        meshopt.contains("\"EXT_meshopt_compression\": Unsupported extension"),
        "{meshopt}"
    );
    let out = triangle_gltf("../../outside.bin");
    assert_eq!(
        message("models/m.gltf", &[("models/m.gltf", out.as_bytes())]),
        "the model file `models/m.gltf` names `../../outside.bin`, which is not inside the mod's folder"
    );
    let web = triangle_gltf("https://example.org/m.bin");
    assert!(message("m.gltf", &[("m.gltf", web.as_bytes())]).contains("which is not inside"));
    let missing = triangle_gltf("m.bin");
    assert_eq!(
        message("m.gltf", &[("m.gltf", missing.as_bytes())]),
        "the model file `m.gltf` names `m.bin`, but the file `m.bin` is not a file of the mod"
    );
}

#[test]
fn a_gltf_file_may_be_neither_too_large_nor_a_link_out_of_the_mod() {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file("m/attackers/drake.ron", &gltf_attacker("Drake", "big.glb"));
    mods.file("m/attackers/imp.ron", &gltf_attacker("Imp", "link.glb"));
    // Sparse: the size is checked before anything is read.
    let big = std::fs::File::create(mods.path().join("m/big.glb")).unwrap();
    big.set_len(MAX_GLTF_BYTES + 1).unwrap();
    let outside = tempfile::tempdir().unwrap();
    let glb = outside.path().join("real.glb");
    std::fs::copy(showcase().join("showcase/models/triangle.glb"), &glb).unwrap();
    link(&glb, &mods.path().join("m/link.glb"));
    let (db, d) = mods.load();
    let d: Vec<Diagnostic> = d.into_iter().collect();
    let message = |file: &str| located(&d, file)[0].2.clone();
    assert_eq!(
        message("drake.ron"),
        format!(
            "the model file `big.glb` is {} bytes, more than the {MAX_GLTF_BYTES} a model's file may be",
            MAX_GLTF_BYTES + 1
        )
    );
    if cfg!(unix) {
        assert_eq!(
            message("imp.ron"),
            "the model file `link.glb` is a link that leads out of the mod's folder"
        );
    }
    assert!(db.attackers.iter().all(|a| a.model.is_none()));
}

/// A symbolic link at `at` to `target` (where the system lets a test make one).
fn link(target: &Path, at: &Path) {
    #[cfg(unix)]
    std::os::unix::fs::symlink(target, at).unwrap();
    #[cfg(not(unix))]
    let _ = (target, at);
}

#[test]
fn the_pages_other_examples_load_after_core() {
    let mods = Mods::new();
    mods.manifest("neon", &["core"]);
    for file in ["blueprints/sniper.ron", "attackers/strider.ron"] {
        let text = documented_in("models.md", &format!("neon/{file}"));
        mods.file(&format!("neon/{file}"), &text);
    }
    let db = mods.load_with_core();
    let Some(Model::Parts(sniper)) = model_of(&db, "core:sniper") else {
        panic!("the override gave no model");
    };
    assert_eq!(sniper[0].rgb, db.palette.get("energy_cyan").unwrap());
    let strider = db.attacker(db.attacker_id("neon:strider").unwrap());
    let Some(Model::Parts(legs)) = &strider.model else {
        panic!("the strider has no model");
    };
    assert_eq!(
        legs[1].anim,
        [Anim::Walk {
            swing: 30.0,
            phase: 0.5
        }]
    );
}

#[test]
fn what_never_plays_is_a_warning_and_the_model_stays() {
    let legs = "model: Parts([(shape: Box, size: (1, 1, 1), colour: \"red\", aim: true,\n anim: [Walk(swing: 20, phase: 0), Recoil(distance: 0.1), Squash(amount: 0.2)])])";
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file(
        "m/blueprints/tower.ron",
        &blueprint("Tower", "Special", legs),
    );
    mods.file("m/attackers/imp.ron", &attacker("Imp", 9.0, 1.0, legs));
    let (db, d) = mods.load();
    let d: Vec<Diagnostic> = d.into_iter().collect();
    assert!(d.iter().all(|d| !d.is_error()), "{d:?}");
    let tower = blueprint("Tower", "Special", legs);
    assert_eq!(
        located(&d, "tower.ron"),
        [
            at(
                &tower,
                "anim",
                "`Walk` never plays here: a blueprint's model never walks",
                None
            ),
            at(
                &tower,
                "anim",
                "`Squash` never plays here: a blueprint's model is never hit",
                None
            ),
        ]
    );
    let imp = attacker("Imp", 9.0, 1.0, legs);
    assert_eq!(
        located(&d, "imp.ron"),
        [
            at(
                &imp,
                "aim",
                "`aim` turns a part toward a building's target: an attacker type's parts never aim",
                None
            ),
            at(
                &imp,
                "anim",
                "`Recoil` never plays here: an attacker type's model never fires",
                None
            ),
        ]
    );
    assert!(model_of(&db, "m:tower").is_some());
    assert!(db.attackers[0].model.is_some());
}
