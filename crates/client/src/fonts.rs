//! The game's fonts, built into the program: DejaVu Sans for all text, its bold for titles, and
//! DejaVu Sans Mono where columns must line up (the carets under a mod's problem). They cover
//! Latin with its extensions, Greek, Cyrillic, the symbols descriptions use (× ≥ ≤ → … • ✓) and
//! box drawing, so that translations and modders' texts show no boxes for missing glyphs.
//!
//! Embedded rather than read from the installed game: a player's install then cannot lose them,
//! and the packaged build has nothing more to find. Their licence is
//! `crates/client/fonts/DejaVu-LICENSE.txt`, which `cargo xtask dist` ships in `LICENSES.txt`.
//! DejaVu Sans's digits all have the same advance, so numbers that change do not shift the text
//! around them.

use bevy::asset::uuid_handle;
use bevy::prelude::*;

/// DejaVu Sans, the text of every label.
pub const REGULAR_DATA: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
/// DejaVu Sans Bold.
pub const BOLD_DATA: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");
/// DejaVu Sans Mono.
pub const MONO_DATA: &[u8] = include_bytes!("../fonts/DejaVuSansMono.ttf");

/// The bold face, for titles.
pub const BOLD: Handle<Font> = uuid_handle!("6f1d8a43-2b7e-4c1a-9e55-0d3f6b2a8c71");
/// The monospaced face, for text framed in characters.
pub const MONO: Handle<Font> = uuid_handle!("a4c9e2d7-5f18-4b36-8d0e-7c2b91f4e653");

/// Puts the game's fonts in place: DejaVu Sans as the default font (the asset every
/// [`TextFont`] without a font of its own uses, Bevy's built-in one until now), [`BOLD`] and
/// [`MONO`]. Added by the UI plugin, after Bevy's text plugin.
pub fn install(app: &mut App) {
    let mut fonts = app.world_mut().resource_mut::<Assets<Font>>();
    for (id, data) in [
        (AssetId::default(), REGULAR_DATA),
        (BOLD.id(), BOLD_DATA),
        (MONO.id(), MONO_DATA),
    ] {
        // Only fails for an id of another kind of asset, and these are uuid ids.
        fonts
            .insert(id, Font::from_bytes(data.to_vec()))
            .expect("a font's asset id is a uuid");
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use super::*;

    /// What every face must draw beyond the texts that exist: the letters of the languages a
    /// translation or a mod may be written in, and the symbols descriptions use.
    fn required() -> BTreeSet<char> {
        let ranges = [
            ' '..='~',               // ASCII
            '\u{a0}'..='\u{ff}',     // Latin-1 Supplement
            '\u{100}'..='\u{17f}',   // Latin Extended-A
            '\u{391}'..='\u{3a1}',   // Greek capitals (no U+03A2)
            '\u{3a3}'..='\u{3c9}',   // Greek capitals and small letters
            '\u{400}'..='\u{45f}',   // Cyrillic
            '\u{2500}'..='\u{257f}', // Box Drawing
        ];
        let symbols = "×≥≤→←↑↓…•✓✗−–—≈±°·";
        ranges
            .into_iter()
            .flatten()
            .chain(symbols.chars())
            .collect()
    }

    /// Every character in the text files below `dir` (RON, Lua, terrain types, Rust sources).
    fn characters_below(dir: &Path, out: &mut BTreeSet<char>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                characters_below(&path, out);
            } else if path
                .extension()
                .is_some_and(|e| ["ron", "lua", "terrain", "rs"].contains(&e.to_str().unwrap()))
            {
                let text = std::fs::read_to_string(&path).unwrap();
                out.extend(text.chars().filter(|c| !c.is_control()));
            }
        }
    }

    #[test]
    fn every_face_draws_every_character_the_game_shows() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut shown = required();
        // Core's texts (its descriptions, events, the tutorial) and the client's own strings.
        characters_below(&root.join("../../mods/core"), &mut shown);
        characters_below(&root.join("src"), &mut shown);
        for (name, data) in [
            ("DejaVuSans", REGULAR_DATA),
            ("DejaVuSans-Bold", BOLD_DATA),
            ("DejaVuSansMono", MONO_DATA),
        ] {
            let face = ttf_parser::Face::parse(data, 0).unwrap();
            let missing: String = shown
                .iter()
                .filter(|&&c| c != ' ' && face.glyph_index(c).is_none())
                .collect();
            assert!(missing.is_empty(), "{name} has no glyph for {missing:?}");
        }
    }

    #[test]
    fn digits_have_one_width() {
        let face = ttf_parser::Face::parse(REGULAR_DATA, 0).unwrap();
        let widths: BTreeSet<u16> = ('0'..='9')
            .map(|c| {
                face.glyph_hor_advance(face.glyph_index(c).unwrap())
                    .unwrap()
            })
            .collect();
        assert_eq!(widths.len(), 1, "{widths:?}");
    }
}
