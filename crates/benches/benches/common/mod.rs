//! What several benchmarks share.

use std::path::PathBuf;
use std::sync::Arc;

use rampart_core::content::ContentDb;
use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};

/// The content of the game's own mods (`mods/`), diagnostics dropped.
pub fn game_content() -> Arc<ContentDb> {
    let dirs = [ModDir {
        path: PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("mods"),
        origin: Origin::Game,
    }];
    let (content, _) = ContentDb::load(&ModSet::discover(&dirs, &ModSettings::default()));
    Arc::new(content)
}
