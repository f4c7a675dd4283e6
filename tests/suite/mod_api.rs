//! What the game promises mods across versions: a mod's `game` requirement is held against the
//! game's version, and a deprecated name of the `game` object still works.

use std::sync::Arc;

use crate::common::{Mods, blueprint};
use rampart::battle::{Battle, BattleConfig, DEPRECATED, PlayerCommand, Position};
use rampart::content::ContentDb;
use rampart::rng::Seed;
use rampart::worldgen::World;

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
        World::from_layout(rampart::worldgen::STRAIGHT_PATH).unwrap(),
    ));
    config.start.hub = Some("core:hub".into());
    config.start.materials = 100.0;
    Battle::new(content.clone(), config)
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
    b.submit(PlayerCommand::Place {
        blueprint: "old:raiser".into(),
        position: Position { x: 2.0, y: 1.0 },
        rotation: 0,
    });
    b.step();
    let errors: Vec<String> = b.script_errors().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let radii: Vec<f64> = b.barriers().iter().map(|x| x.radius).collect();
    assert_eq!(radii, [1.0, 2.0, 3.0]);
}
