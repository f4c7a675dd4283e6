//! The colours models are painted with, by name: each mod may have a `palette.ron` at its root,
//! a map from names to colours (`{"steel": "#8a97a8", "slime": "#5fbf3a"}`). The palettes of
//! every mod are merged in load order, a later mod's colour replacing an earlier one of the same
//! name, so a mod can recolour every model that uses a name without touching them.
//! `docs/modding/models.md` (*The palette*) documents the file.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};

use super::colour::{NAMED, Rgb};
use super::load::Loading;
use crate::diagnostics::{Diagnostic, did_you_mean};
use crate::modding::ModInfo;
use crate::ron_file;

/// The file of a mod with its palette.
pub const FILE: &str = "palette.ron";

/// The named colours of every loaded mod's palette, merged in load order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Palette {
    colours: BTreeMap<String, Rgb>,
}

impl Palette {
    /// The colour of palette name `name`.
    pub fn get(&self, name: &str) -> Option<Rgb> {
        self.colours.get(name).copied()
    }

    /// Every name with its colour, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Rgb)> {
        self.colours.iter().map(|(name, rgb)| (name.as_str(), *rgb))
    }

    /// Reads a colour as a model writes it: `"#rrggbb"`, a name of the palette, or a colour
    /// name of [`NAMED`]. The error says what may be written and a hint, with the name
    /// probably meant among both kinds of names.
    pub fn resolve(&self, text: &str) -> Result<Rgb, (String, String)> {
        if let Some(rgb) = self.get(text) {
            return Ok(rgb);
        }
        if text.starts_with('#') || NAMED.iter().any(|(name, _)| *name == text) {
            return Rgb::parse(text).map_err(|why| (why, "for example `#8a97a8`".into()));
        }
        let names = self
            .colours
            .keys()
            .map(String::as_str)
            .chain(NAMED.iter().map(|(name, _)| *name));
        let help = did_you_mean(text, names).unwrap_or_else(|| {
            let builtin: Vec<&str> = NAMED.iter().map(|(name, _)| *name).collect();
            let palette = match self.colours.is_empty() {
                true => format!("the palette ({FILE}) has none"),
                false => format!(
                    "the palette's ({FILE}) are {}",
                    self.colours.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            };
            format!("the colour names are {}; {palette}", builtin.join(", "))
        });
        Err((
            format!("`{text}` is not a colour: write `#rrggbb`, a colour name or a palette name"),
            help,
        ))
    }
}

/// Whether `name` may name a palette colour: lowercase snake case, `steel` or `slime_green`.
fn valid_name(name: &str) -> bool {
    let mut words = name.split('_');
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && words.all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// The entries of a palette file in the order written, duplicates kept so they can be
/// reported (a map type would keep only the last).
struct Entries(Vec<(String, String)>);

impl<'de> Deserialize<'de> for Entries {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EntriesVisitor;
        impl<'de> Visitor<'de> for EntriesVisitor {
            type Value = Entries;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of names to colours, `{\"steel\": \"#8a97a8\"}`")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entries, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    entries.push(entry);
                }
                Ok(Entries(entries))
            }
        }
        deserializer.deserialize_map(EntriesVisitor)
    }
}

/// Reads the `palette.ron` of mod `info`, if it has one, into `palette`; each bad name or colour
/// is reported where it is written and leaves out only its entry.
pub(super) fn load(info: &ModInfo, palette: &mut Palette, loading: &mut Loading) {
    let Some((Entries(entries), source)) = loading.root_file::<Entries>(info, FILE) else {
        return;
    };
    let file = &source.file;
    let mut seen: Vec<&str> = Vec::new();
    let mut from = 0;
    for (name, colour) in &entries {
        let at = ron_file::find_string_from(file, name, from).unwrap_or(from);
        from = at + 1;
        let error = |message: String, offset: usize, text: &str, help: &str| {
            Diagnostic::error(message)
                .at(file, offset, text.len() + 2)
                .help(help)
                .for_mod(source.mod_id.clone())
        };
        if !valid_name(name) {
            loading.diagnostics.push(error(
                format!("`{name}` cannot name a palette colour"),
                at,
                name,
                "use lowercase letters, digits and `_` between words, like `slime_green`",
            ));
            continue;
        }
        if NAMED.iter().any(|(named, _)| named == name) {
            loading.diagnostics.push(error(
                format!("`{name}` is a colour name of the game, which a palette cannot change"),
                at,
                name,
                "give your colour a name of its own, like `team_red`",
            ));
            continue;
        }
        if seen.contains(&name.as_str()) {
            loading.diagnostics.push(error(
                format!("`{name}` is in the palette twice"),
                at,
                name,
                "keep one of them",
            ));
            continue;
        }
        seen.push(name);
        // A palette colour is written plainly, never as another palette name, so that no
        // name's colour depends on the load order of two others.
        let colour_at = ron_file::find_string_from(file, colour, at + 1).unwrap_or(at);
        match Rgb::parse(colour) {
            Ok(rgb) => {
                palette.colours.insert(name.clone(), rgb);
            }
            Err(why) => loading.diagnostics.push(error(
                why,
                colour_at,
                colour,
                "a palette colour is `#rrggbb` or a colour name of the game",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_lowercase_snake_case() {
        for good in ["steel", "slime_green", "team2", "a1_b2"] {
            assert!(valid_name(good), "{good}");
        }
        for bad in [
            "",
            "Steel",
            "slime-green",
            "_steel",
            "steel_",
            "a__b",
            "2team",
            "é",
        ] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    #[test]
    fn resolving_reads_hex_names_and_the_palette_with_hints() {
        let mut palette = Palette::default();
        palette.colours.insert("steel".into(), Rgb(138, 151, 168));
        assert_eq!(palette.resolve("steel"), Ok(Rgb(138, 151, 168)));
        assert_eq!(palette.resolve("cyan"), Ok(Rgb(60, 220, 230)));
        assert_eq!(palette.resolve("#010203"), Ok(Rgb(1, 2, 3)));
        let (message, help) = palette.resolve("steal").unwrap_err();
        assert!(message.contains("`steal` is not a colour"), "{message}");
        assert_eq!(help, "did you mean `steel`?");
        assert_eq!(
            palette.resolve("blu").unwrap_err().1,
            "did you mean `blue`?"
        );
        let (_, help) = palette.resolve("zzz").unwrap_err();
        assert!(
            help.contains("white, black") && help.ends_with("steel"),
            "{help}"
        );
        let (message, _) = palette.resolve("#12345").unwrap_err();
        assert!(message.contains("six hex digits"), "{message}");
    }
}
