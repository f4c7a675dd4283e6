//! What the game promises mods across versions and between each other: a mod's `game`
//! requirement is held against the game's version, a deprecated name of the `game` object still
//! works, and a mod's scripts require the libraries of the mods it depends on.

use std::sync::Arc;

use crate::common::arena::{Arena, STRAIGHT};
use crate::common::{Mods, blueprint, documented_file};
use rampart_core::battle::{Battle, BattleConfig, DEPRECATED, PlayerCommand, Position, ScriptHost};
use rampart_core::content::ContentDb;
use rampart_core::rng::Seed;
use rampart_core::worldgen::World;
use rampart_lua::{Limits, ScriptError};

const GAME: &str = env!("CARGO_PKG_VERSION");

#[test]
fn a_mod_for_another_game_version_is_an_error_at_its_requirement() {
    let mods = Mods::new();
    mods.file(
        "newer/mod.ron",
        "(\n    id: \"newer\",\n    name: \"Newer\",\n    version: \"1.0.0\",\n    game: \">=99.0\",\n)",
    )
    .file(
        "fits/mod.ron",
        &format!("(id: \"fits\", name: \"Fits\", version: \"1.0.0\", game: \"={GAME}\")"),
    )
    .manifest("user", &["newer"]);
    let (content, diagnostics) = mods.load();
    let ids: Vec<&str> = content.mods.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, ["fits"], "{diagnostics:?}");
    let errors: Vec<_> = diagnostics.iter().filter(|d| d.is_error()).collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    let newer = errors
        .iter()
        .find(|d| d.mod_id.as_deref() == Some("newer"))
        .unwrap();
    assert_eq!(
        newer.message,
        format!("mod `newer` needs the game in version >=99.0, but this is version {GAME}")
    );
    assert!(newer.file.as_ref().unwrap().ends_with("newer/mod.ron"));
    let at = newer.position.unwrap();
    assert_eq!((at.line, at.column), (5, 11), "at the `game` value");
    let user = errors
        .iter()
        .find(|d| d.mod_id.as_deref() == Some("user"))
        .unwrap();
    assert!(
        user.message.contains("its dependency `newer` failed"),
        "{}",
        user.message
    );
}

/// A building that raises a barrier by the old name and by the new one, from two lines.
const OLD_AND_NEW: &str = r#"
return {
    on_placed = function(self, game)
        local x, y = self:position()
        game:barrier(x, y, 1, 100)
        game:barrier(x, y, 2, 100)
        game:raise_barrier(x, y, 3, 100)
    end,
}
"#;

fn battle(content: &Arc<ContentDb>) -> Battle {
    let mut config = BattleConfig::new(Seed(3));
    config.world = Some(Arc::new(
        World::from_layout(rampart_core::worldgen::STRAIGHT_PATH).unwrap(),
    ));
    config.start.hub = Some("core:hub".into());
    config.start.materials = 100.0;
    Battle::new(content.clone(), config)
}

/// Places `blueprint` at (2, 1) and steps once.
fn place(b: &mut Battle, blueprint: &str) {
    b.submit(PlayerCommand::Place {
        blueprint: blueprint.into(),
        position: Position { x: 2.0, y: 1.0 },
        rotation: 0,
    });
    b.step();
    let errors: Vec<String> = b.script_errors().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn a_deprecated_name_still_works() {
    assert!(
        DEPRECATED
            .iter()
            .any(|d| (d.old, d.replacement) == ("barrier", "raise_barrier")),
        "the documented example"
    );
    let mods = Mods::new();
    mods.manifest("old", &["core"])
        .file("old/scripts/raiser.lua", OLD_AND_NEW)
        .file(
            "old/blueprints/raiser.ron",
            &blueprint("Raiser", "Special", "script: \"scripts/raiser.lua\","),
        );
    let content = mods.load_with_core();
    let mut b = battle(&content);
    place(&mut b, "old:raiser");
    let radii: Vec<f64> = b.barriers().iter().map(|x| x.radius).collect();
    assert_eq!(radii, [1.0, 2.0, 3.0]);
}

/// A library mod: `lib/shapes` uses a module of its own (`lib/numbers`), found in the library's
/// folder though it runs in the VM of the mod that requires it, and one of its own dependency.
fn library(mods: &Mods) {
    mods.manifest("units", &[])
        .file("units/scripts/lib/units.lua", "return { tile = 1 }");
    mods.manifest("shapes", &["units"])
        .file(
            "shapes/scripts/lib/shapes.lua",
            "local numbers = require(\"lib/numbers\")\nlocal units = require(\"units:lib/units\")\n\
             return { bubble = function(r) return numbers.double(r) * units.tile end }",
        )
        .file(
            "shapes/scripts/lib/numbers.lua",
            "loads = (rawget(_G, \"loads\") or 0) + 1\nreturn { double = function(x) return 2 * x end }",
        );
}

/// A mod of `deps` with a building whose script is `script`.
fn user(mods: &Mods, id: &str, deps: &[&str], script: &str) {
    mods.manifest(id, deps)
        .file(&format!("{id}/scripts/user.lua"), script)
        .file(
            &format!("{id}/blueprints/user.ron"),
            &blueprint("User", "Special", "script: \"scripts/user.lua\","),
        );
}

/// The script errors of mod `id` when every script loads, as `rampart check` runs them.
fn check(content: &Arc<ContentDb>, id: &str) -> Vec<ScriptError> {
    ScriptHost::check(content, &Limits::default())
        .into_iter()
        .filter(|e| e.mod_id == id)
        .collect()
}

#[test]
fn a_mod_requires_a_library_of_its_dependency_and_uses_it_in_a_hook() {
    let mods = Mods::new();
    library(&mods);
    user(
        &mods,
        "user",
        &["core", "shapes"],
        r#"local shapes = require("shapes:lib/shapes")
local again = require("shapes:lib/shapes")
assert(shapes == again, "cached per VM")
return {
    on_placed = function(self, game)
        local x, y = self:position()
        game:raise_barrier(x, y, shapes.bubble(1.5), 100)
        game:raise_barrier(x, y, loads, 100)
    end,
}"#,
    );
    let content = mods.load_with_core();
    assert!(check(&content, "user").is_empty());
    let mut b = battle(&content);
    place(&mut b, "user:user");
    let radii: Vec<f64> = b.barriers().iter().map(|x| x.radius).collect();
    assert_eq!(
        radii,
        [3.0, 1.0],
        "the library's module ran once, in the user's VM (its global is the user's)"
    );
}

#[test]
fn requiring_what_is_not_there_or_not_a_dependency_or_a_cycle_is_an_error_at_the_require() {
    let mods = Mods::new();
    library(&mods);
    // Two modules that require each other.
    mods.file(
        "shapes/scripts/lib/ping.lua",
        "return require(\"lib/pong\")",
    )
    .file(
        "shapes/scripts/lib/pong.lua",
        "return require(\"lib/ping\")",
    );
    for (id, deps, name) in [
        ("stranger", &["core"][..], "shapes:lib/shapes"),
        ("missing", &["core", "shapes"][..], "shapes:lib/nope"),
        ("cycle", &["core", "shapes"][..], "shapes:lib/ping"),
    ] {
        user(
            &mods,
            id,
            deps,
            &format!("local x = 1\nlocal lib = require(\"{name}\")\nreturn {{}}"),
        );
    }
    let content = mods.load_with_core();
    let only = |id: &str| {
        let errors = check(&content, id);
        assert_eq!(errors.len(), 1, "{errors:?}");
        errors[0].clone()
    };
    let stranger = only("stranger");
    assert_eq!(
        (stranger.file.as_deref(), stranger.line),
        (Some("scripts/user.lua"), Some(2))
    );
    assert_eq!(
        stranger.message,
        "require(\"shapes:lib/shapes\"): `shapes` is not a dependency of `stranger`; add it to \
         mod.ron's dependencies"
    );
    let missing = only("missing");
    assert_eq!(
        (missing.file.as_deref(), missing.line),
        (Some("scripts/user.lua"), Some(2))
    );
    assert_eq!(
        missing.message,
        "there is no script scripts/lib/nope.lua in mod `shapes`"
    );
    let cycle = only("cycle");
    assert_eq!(
        cycle.to_string(),
        "[cycle] shapes:scripts/lib/pong.lua:1: require cycle: shapes:scripts/lib/ping.lua → \
         shapes:scripts/lib/pong.lua → shapes:scripts/lib/ping.lua"
    );
}

#[test]
fn the_documented_library_example_freezes_what_comes_near() {
    let mods = Mods::new();
    mods.manifest("geometry", &[]);
    for file in [
        "geometry/scripts/lib/geometry.lua",
        "icewall/mod.ron",
        "icewall/scripts/chill.lua",
    ] {
        mods.file(file, &documented_file(file));
    }
    mods.file(
        "icewall/blueprints/chill.ron",
        &blueprint("Chill", "Special", "script: \"scripts/chill.lua\","),
    );
    let mut arena = Arena::with_mods(mods, STRAIGHT);
    arena.place("icewall:chill", 5.0, 1.0);
    let near = arena.standing("core:red_slime", 5.0, 3.0);
    let far = arena.standing("core:red_slime", 9.0, 3.0);
    arena.run(2);
    arena.no_script_errors();
    let frozen = |id| {
        arena
            .battle
            .entity(id)
            .is_some_and(|e| e.effects.iter().any(|x| x.name == "freezing"))
    };
    assert!(frozen(near), "2 tiles away");
    assert!(!frozen(far));
}
