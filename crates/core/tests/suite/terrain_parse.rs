//! The terrain-type parser: the thesis's own examples, every core terrain type, one precise
//! diagnostic per kind of mistake, and arbitrary input that must never panic.

use proptest::prelude::*;
use rampart_core::diagnostics::{Diagnostic, SourceFile};
use rampart_core::terrain::{
    Direction, Generator, LookShape, NoiseExpr, ObstacleKind, PathSolver, TerrainType,
    parse_terrain,
};

fn parse(text: &str) -> Result<TerrainType, Vec<Diagnostic>> {
    parse_terrain("test:t", &SourceFile::new("t.terrain", text.to_string()))
}

/// A small valid file; tests splice mistakes into it.
const BASE: &str = "display_name Base
free_surfaces G
blocked_surfaces W
free_edges A
blocked_edges C
max_height 2
modules {
    * Flat {
        weight 2
        shape { G0x A G0x  A A  G0x A G0x }
    }
    * Cliff {
        weight 1
        variants f4
        shape {
            G1x A G1x
            C C
            G0x A G0x
        }
    }
}
obstacles {
    phases {
        Rocks
    }
    * Rocks {
        type small
        base_probability 0.1
    }
}
scatterer {
    * Rock {
        prefab rock
        tries_per_tile 4
        placement_radius 0.1
        persistent_radius 0.1
        value { obstacle Rocks 1 -1 }
    }
}
";

/// Parses `text`, expects exactly one error, and checks its message, position and caret.
fn one_error(text: &str, message: &str, line: u32, column: u32) -> Diagnostic {
    let errors = parse(text).expect_err("the file should be rejected");
    let found: Vec<String> = errors.iter().map(|d| d.to_string()).collect();
    assert_eq!(errors.len(), 1, "{found:#?}");
    let d = &errors[0];
    assert!(
        d.message.contains(message),
        "{:?} does not contain {message:?}",
        d.message
    );
    let p = d.position.expect("a position");
    assert_eq!((p.line, p.column), (line, column), "{}", d.render(false));
    let rendered = d.render(false);
    assert!(
        rendered.contains(&format!("t.terrain:{line}:{column}")),
        "{rendered}"
    );
    d.clone()
}

#[test]
fn the_thesis_examples_parse_verbatim() {
    let path = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/tests/fixtures/terrain/thesis_examples.terrain"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let t = parse_terrain("test:thesis", &SourceFile::new(path, text.clone())).unwrap();
    for example in [
        "* CornerCliffSlantUp {",
        "* Minerals {\n    type m",
        "prefab Terrain/obstacles/Minerals",
    ] {
        assert!(text.contains(example));
    }
    let m = &t.modules[1];
    assert_eq!(m.name, "CornerCliffSlantUp");
    assert_eq!(m.weight, 32.0);
    assert!(m.variants.reflect && m.variants.rotations == 4);
    assert_eq!(m.collision.as_deref(), Some("Terrain/CornerSlantUp"));
    assert_eq!(m.height_offset, 1.0);
    assert_eq!(m.shape.corners[1].slant, Some(Direction::South));
    assert_eq!(m.shape.edges, ['X', 'X', '0', '0']);
    // It spans two levels, so with levels 0..3 it can sit at 0, 1 and 2 (thesis 3.4.3).
    assert_eq!(m.heights, vec![0, 1, 2]);
    let minerals = &t.obstacles[0];
    assert_eq!(
        (minerals.kind, minerals.min, minerals.max),
        (ObstacleKind::Minerals, 6, Some(8))
    );
    assert_eq!(minerals.base_probability, 0.3);
    assert!(!minerals.on_slants);
    assert_eq!(minerals.affinities, vec![-1.5, 0.3]);
    assert_eq!(t.phases, vec![vec![0], vec![1]]);
    let s = &t.scatter[0];
    assert_eq!(
        (s.tries_per_tile, s.size_gain, s.radius_gain, s.angle_spread),
        (50, 2.0, -0.5, 25.0)
    );
    let NoiseExpr::Clamp(lo, hi, children) = &s.value[0] else {
        panic!("{:?}", s.value)
    };
    assert_eq!((*lo, *hi, children.len()), (-3.0, 0.7, 3));
    assert!(matches!(
        children[0],
        NoiseExpr::Obstacle {
            obstacle: 0,
            inside: 1.0,
            outside: -1.0
        }
    ));
    let NoiseExpr::Fractal(f) = &children[1] else {
        panic!()
    };
    assert_eq!(
        (f.octaves, f.amplitude_mult, f.frequency_mult),
        (2, 0.777, 2.137)
    );
    assert!(matches!(
        children[2],
        NoiseExpr::Path {
            inside: -3.0,
            outside: 0.0
        }
    ));
}

#[test]
fn every_core_terrain_type_parses() {
    let dir = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/mods/core/terrain"
    );
    let mut count = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.extension().and_then(|e| e.to_str()) != Some("terrain") {
            continue;
        }
        let stem = path.file_stem().unwrap().to_str().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let result = parse_terrain(&format!("core:{stem}"), &SourceFile::new(&path, text));
        let t = result.unwrap_or_else(|e| panic!("{}", e[0].render(false)));
        assert_eq!(t.id, format!("core:{stem}"));
        assert!(!t.obstacles.is_empty() && !t.scatter.is_empty());
        count += 1;
    }
    assert!(count >= 3, "only {count} terrain types");
}

#[test]
fn base_file_parses_with_defaults() {
    let t = parse(BASE).unwrap();
    assert_eq!(t.display_name, "Base");
    assert_eq!(t.modules[0].variants.rotations, 1);
    assert!(!t.modules[0].variants.reflect);
    assert_eq!(t.modules[0].heights, vec![0, 1, 2]);
    assert_eq!(t.modules[1].heights, vec![0, 1]);
    assert_eq!(t.modules[0].collision, None);
    let rocks = &t.obstacles[0];
    assert_eq!((rocks.min, rocks.max, rocks.on_slants), (0, None, true));
    assert_eq!(rocks.valid_surfaces, None);
}

#[test]
fn properties_come_in_any_order_and_comments_are_whitespace() {
    let text = "% a comment
spanning lines %
max_height 0 # trailing comment
modules { * F { shape { G0x A G0x A A G0x A G0x } weight 1 } }
free_edges A
display_name % inline % Reordered
free_surfaces G";
    let t = parse(text).unwrap();
    assert_eq!(t.display_name, "Reordered");
    assert_eq!(t.max_height, 0);
}

#[test]
fn syntax_errors_say_what_was_expected() {
    let d = one_error(
        &BASE.replace("weight 2", "weight two"),
        "expected a number",
        9,
        16,
    );
    assert!(d.render(false).contains("two"));
    one_error(
        &BASE.replace("max_height 2", "max_hieght 2"),
        "expected",
        6,
        1,
    );
    one_error(
        &BASE.replace("G0x A G0x  A A", "G0x A G0  A A"),
        "expected a tile",
        10,
        23,
    );
    one_error(
        &BASE
            .replace("on_slants", "x")
            .replace("type small", "type small\n on_slants maybe"),
        "`true` or `false`",
        28,
        12,
    );
    one_error(
        &BASE.replace(
            "value { obstacle Rocks 1 -1 }",
            "value { obstacle Rocks 1 }",
        ),
        "expected a number",
        37,
        34,
    );
    one_error(
        &BASE.replace("value { obstacle Rocks 1 -1 }", "value { }"),
        "expected",
        37,
        17,
    );
    let unterminated = format!("{BASE}% never closed");
    assert!(parse(&unterminated).is_err());
}

#[test]
fn meaning_errors_point_at_the_text() {
    one_error(
        &BASE.replace("G0x A G0x  A A", "Q0x A G0x  A A"),
        "surface `Q` is not declared",
        10,
        17,
    );
    one_error(
        &BASE.replace("G0x A G0x  A A", "G0x B G0x  A A"),
        "edge type `B` is not declared",
        10,
        21,
    );
    one_error(
        &BASE.replace("G1x A G1x", "G3x A G1x"),
        "height 3 is above max_height 2",
        16,
        14,
    );
    one_error(
        &BASE.replace("weight 2", "weight 0"),
        "weight 0 is not positive",
        9,
        16,
    );
    one_error(
        &BASE.replace("variants f4", "variants f3"),
        "not a valid variants value",
        14,
        18,
    );
    one_error(
        &BASE.replace("        variants f4", "        heights 02"),
        "does not fit at height 2",
        14,
        18,
    );
    one_error(
        &BASE.replace("        Rocks\n    }", "        Rocks Rock\n    }"),
        "no obstacle is called `Rock`",
        24,
        15,
    );
    one_error(
        &BASE.replace("obstacle Rocks 1 -1", "obstacle Rokcs 1 -1"),
        "no obstacle is called `Rokcs`",
        37,
        26,
    );
    one_error(
        &BASE.replace("type small", "type huge"),
        "unknown obstacle type `huge`",
        27,
        14,
    );
    one_error(
        &BASE.replace("type small", "type small\n        min 5\n        max 2"),
        "min 5 is above max 2",
        28,
        13,
    );
    one_error(
        &BASE.replace("base_probability 0.1", "base_probability 1.5"),
        "not a probability",
        28,
        26,
    );
    one_error(
        &BASE.replace("type small", "type small valid_surfaces W"),
        "surface `W` is blocked",
        27,
        35,
    );
    one_error(
        &BASE.replace("blocked_edges C", "blocked_edges CA"),
        "declared both free and blocked",
        5,
        16,
    );
    one_error(
        &BASE.replace("free_surfaces G", "free_surfaces GG"),
        "listed twice",
        2,
        16,
    );
    one_error(
        &BASE.replace("max_height 2\n", ""),
        "the file has no `max_height`",
        1,
        1,
    );
    one_error(
        &BASE.replace("        weight 1\n", ""),
        "module `Cliff` has no `weight`",
        12,
        7,
    );
    one_error(
        &BASE.replace("weight 2", "weight 2 weight 3"),
        "`weight` is given twice",
        9,
        18,
    );
    one_error(
        &BASE.replace("* Cliff", "* Flat"),
        "two modules called `Flat`",
        12,
        7,
    );
    one_error(
        &BASE.replace("tries_per_tile 4", "tries_per_tile 0"),
        "tries_per_tile 0 is out of range",
        34,
        24,
    );
    one_error(
        &BASE.replace("{ obstacle Rocks 1 -1 }", "{ clamp 2 1 { const 1 } }"),
        "clamp minimum 2 is above its maximum 1",
        37,
        23,
    );
    one_error(
        &BASE.replace(
            "{ obstacle Rocks 1 -1 }",
            "{ fractal_noise { octaves 0 base_amplitude 1 base_frequency 1 } }",
        ),
        "octaves 0 is out of range",
        37,
        41,
    );
    one_error(
        &BASE.replace("type small", "type small affinities 1 2"),
        "more affinities than obstacles",
        27,
        33,
    );
    // A free edge between tiles at different heights would let a path climb a cliff.
    one_error(
        &BASE.replace("C C\n", "A C\n"),
        "joins tiles that do not meet at the same height",
        17,
        13,
    );
}

#[test]
fn absurd_nesting_is_refused_without_recursing() {
    let deep = format!(
        "{BASE}scatterer {{ * X {{ value {{ {} const 1 {} }} }} }}",
        "sum { ".repeat(5000),
        "} ".repeat(5000)
    );
    let errors = parse(&deep).unwrap_err();
    assert!(errors[0].message.contains("nested"), "{}", errors[0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(debug_assertions) { 300 } else { 3000 }))]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,400}") {
        let _ = parse(&text);
    }

    #[test]
    fn mutated_valid_files_never_panic(cut in 0usize..1200, insert in "[{}*%#\\n a-zA-Z0-9.<>^v-]{0,12}") {
        let mut text = BASE.to_string();
        let mut at = cut.min(text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        text.insert_str(at, &insert);
        let _ = parse(&text);
    }

    #[test]
    fn truncated_valid_files_never_panic(len in 0usize..1200) {
        let text: String = BASE.chars().take(len).collect();
        let _ = parse(&text);
    }
}

#[test]
fn the_generator_is_wfc_unless_the_file_says_layered() {
    assert_eq!(parse(BASE).unwrap().generator, Generator::Wfc);
    let wfc = BASE.replacen("max_height 2\n", "max_height 2\ngenerator wfc\n", 1);
    assert_eq!(parse(&wfc).unwrap().generator, Generator::Wfc);
    // A layered type needs no modules.
    let layered = "display_name Delta\ngenerator layered\nfree_surfaces PBF\n\
                   blocked_surfaces RSM\nfree_edges A\nblocked_edges C\nmax_height 1\n";
    let t = parse(layered).unwrap();
    assert_eq!(t.generator, Generator::Layered);
    assert!(t.modules.is_empty());
}

#[test]
fn generator_mistakes_point_at_the_generator() {
    let typo = BASE.replacen(
        "display_name Base\n",
        "display_name Base\ngenerator layerd\n",
        1,
    );
    let d = one_error(&typo, "unknown generator `layerd`", 2, 11);
    assert!(d.render(false).contains("did you mean `layered`?"));
    // Without modules, the unknown generator is still the only error.
    let start = typo.find("modules {").unwrap();
    let end = typo.find("obstacles {").unwrap();
    let no_modules = format!("{}{}", &typo[..start], &typo[end..]);
    one_error(&no_modules, "unknown generator `layerd`", 2, 11);
    let short = BASE
        .replacen(
            "display_name Base\n",
            "display_name Base\ngenerator layered\n",
            1,
        )
        .replacen("free_surfaces G\n", "free_surfaces GBF\n", 1);
    one_error(
        &short,
        "three blocked surfaces (river, sea, mountain)",
        2,
        11,
    );
    let flat = short
        .replacen("blocked_surfaces W\n", "blocked_surfaces WSM\n", 1)
        .replacen("max_height 2", "max_height 0", 1)
        .replace("G1x", "G0x");
    one_error(&flat, "`max_height` of at least 1", 2, 11);
}

#[test]
fn paths_are_annealed_unless_the_file_says_lattice() {
    let t = parse(BASE).unwrap();
    assert_eq!((t.paths, t.build_near_paths), (PathSolver::Annealed, false));
    let lattice = BASE.replacen(
        "display_name Base\n",
        "display_name Base\npaths lattice\nbuild_near_paths true\n",
        1,
    );
    let t = parse(&lattice).unwrap();
    assert_eq!((t.paths, t.build_near_paths), (PathSolver::Lattice, true));
    let annealed = BASE.replacen(
        "display_name Base\n",
        "display_name Base\npaths annealed\nbuild_near_paths false\n",
        1,
    );
    let t = parse(&annealed).unwrap();
    assert_eq!((t.paths, t.build_near_paths), (PathSolver::Annealed, false));
}

#[test]
fn path_option_mistakes_point_at_the_line_and_column() {
    let with = |extra: &str| {
        BASE.replacen(
            "display_name Base\n",
            &format!("display_name Base\n{extra}"),
            1,
        )
    };
    let d = one_error(
        &with("paths latice\n"),
        "unknown path solver `latice`",
        2,
        7,
    );
    assert!(d.render(false).contains("did you mean `lattice`?"));
    one_error(
        &with("paths lattice\npaths lattice\n"),
        "`paths` is given twice",
        3,
        1,
    );
    one_error(
        &with("build_near_paths true\nbuild_near_paths false\n"),
        "`build_near_paths` is given twice",
        3,
        1,
    );
    one_error(
        &with("build_near_paths yes\n"),
        "expected `true` or `false`, found `yes`",
        2,
        18,
    );
}

#[test]
fn surfaces_have_names_for_the_player_and_mistakes_point_at_the_key() {
    let with = |extra: &str| {
        BASE.replacen(
            "display_name Base\n",
            &format!("display_name Base\n{extra}"),
            1,
        )
    };
    let t = parse(&with("surface_names { G Tall_grass W Water }\n")).unwrap();
    assert_eq!(t.surface_names[&'G'], "Tall grass");
    assert_eq!(t.surface_names[&'W'], "Water");
    assert!(parse(BASE).unwrap().surface_names.is_empty());
    // Names change how a world reads, not the world.
    assert!(t.same_worlds(&parse(BASE).unwrap()));
    let d = one_error(
        &with("surface_names { G Grass X Lava }\n"),
        "surface `X` is not declared",
        2,
        25,
    );
    assert!(d.render(false).contains("free_surfaces"));
    one_error(
        &with("surface_names { G Grass G Meadow }\n"),
        "surface `G` has two names",
        2,
        25,
    );
    one_error(
        &with("surface_names { G }\n"),
        "expected a name (no spaces)",
        2,
        19,
    );
    // Every core terrain type names every surface it declares.
    let dir = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/mods/core/terrain"
    );
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        let t = parse_terrain("core:x", &SourceFile::new(&path, text)).unwrap();
        for s in t.free_surfaces.iter().chain(&t.blocked_surfaces) {
            assert!(t.surface_names.contains_key(s), "{}: `{s}`", path.display());
        }
    }
}

#[test]
fn scatter_models_have_looks_and_water_is_listed() {
    let looked = |look: &str| {
        BASE.replacen(
            "        prefab rock\n",
            &format!("        prefab rock\n        look {{\n{look}        }}\n"),
            1,
        )
    };
    let t = parse(&looked(
        "            cone 2f6b3a size 0.3 0.4 0.3 at 0 0.2 0 turn 0 90 0\n            sphere f2b632 size 0.1 0.1 0.1 glow 0.8\n",
    ))
    .unwrap();
    let look = &t.scatter[0].look;
    assert_eq!(look.len(), 2);
    assert_eq!(look[0].shape, LookShape::Cone);
    assert_eq!(look[0].color, [0x2f, 0x6b, 0x3a]);
    assert_eq!(look[0].size, [0.3, 0.4, 0.3]);
    assert_eq!(look[0].at, [0.0, 0.2, 0.0]);
    assert_eq!(look[0].turn, [0.0, 90.0, 0.0]);
    assert_eq!((look[1].at, look[1].glow), ([0.0; 3], 0.8));
    assert!(parse(BASE).unwrap().scatter[0].look.is_empty());
    // A look changes how a world reads, not the world.
    assert!(t.same_worlds(&parse(BASE).unwrap()));
    // Line 35 is the first part's.
    let d = one_error(
        &looked("            cnoe 2f6b3a size 0.3 0.4 0.3\n"),
        "unknown shape `cnoe`",
        35,
        13,
    );
    assert!(d.render(false).contains("cone"), "{}", d.render(false));
    one_error(
        &looked("            box 2f6b3a at 0 0 0\n"),
        "the part has no `size`",
        35,
        13,
    );
    one_error(
        &looked("            box 2f6b3a size 0.3 0 0.3\n"),
        "a part's size is out of range",
        35,
        24,
    );
    one_error(
        &looked("            box 2f6b3a size 0.3 0.3 0.3 glow 2\n"),
        "glow 2 is out of range",
        35,
        46,
    );
    let water = |keys: &str| {
        BASE.replacen(
            "max_height 2\n",
            &format!("max_height 2\nwater_surfaces {keys}\n"),
            1,
        )
    };
    assert_eq!(parse(&water("W")).unwrap().water_surfaces, ['W']);
    one_error(&water("WX"), "surface `X` is not declared", 7, 17);
}
