//! Hot reload's world rules (`level::WorldSetup::regenerate`, `TerrainType::same_worlds`): an
//! edit of colours only keeps the world as it is; an edit that changes the world makes it again
//! from the level's own seeds, so undoing the edit gives back exactly the world the level began
//! with, and the attackers' paths stay where they were.

use std::sync::Arc;

use crate::common::Mods;
use rampart_core::content::ContentDb;
use rampart_core::level::WorldSetup;
use rampart_core::rng::Seed;
use rampart_core::worldgen::WorldParams;

const CORE_PLATEAUS: &str = include_str!("../../../../mods/core/terrain/plateaus.terrain");

/// Core and a mod `t` whose terrain type `t:plateaus` is core's plateaus as `text` says.
fn with_plateaus(text: &str) -> Arc<ContentDb> {
    let mods = Mods::new();
    mods.manifest("t", &["core"])
        .file("t/terrain/plateaus.terrain", text);
    let (content, diagnostics) = mods.load_after_core();
    assert!(!diagnostics.has_errors(), "{diagnostics:?}");
    content
}

#[test]
fn undoing_a_terrain_edit_gives_back_the_same_world() {
    let original = with_plateaus(CORE_PLATEAUS);
    let setup =
        WorldSetup::generate(&original, "t:plateaus", &WorldParams::default(), Seed(5)).unwrap();
    let first = setup.build(&original).unwrap();
    let terrain = |c: &ContentDb| c.terrain("t:plateaus").unwrap().clone();

    // New colours: the same worlds, nothing to regenerate.
    let recoloured = with_plateaus(&CORE_PLATEAUS.replacen("R a39a8c", "R 5c6573", 1));
    assert!(terrain(&original).same_worlds(&terrain(&recoloured)));

    // Other module weights: other worlds; the level's world is made again under its paths.
    let reweighted = with_plateaus(&CORE_PLATEAUS.replacen("weight 12", "weight 1", 1));
    assert!(!terrain(&original).same_worlds(&terrain(&reweighted)));
    let edited = setup.regenerate(&reweighted, &first).unwrap();
    assert_ne!(edited, first, "the edit changes the world");
    assert_eq!(edited.hub, first.hub);
    assert_eq!(edited.network, first.network, "the attackers' paths stay");

    // The edit undone: exactly the world the level began with.
    assert_eq!(setup.regenerate(&original, &edited).unwrap(), first);
}
