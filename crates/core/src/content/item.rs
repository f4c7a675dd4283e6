//! What every content item read from a mod's RON file shares: the id the loader gives it from
//! the file's name, the `overrides` marker of a file that changes another mod's item, and its
//! override form, in which every field is optional. [`content_item!`] declares all three, so
//! that an item's file starts with its own fields.

/// An item the loader names and lets later mods override ([`content_item!`] implements it).
pub(crate) trait Identified: Sized {
    /// Its override form: every field optional.
    type Patch: serde::de::DeserializeOwned;
    /// What to call it in messages ("attacker type").
    const NOUN: &'static str;
    /// The id the loader gave it.
    fn id(&self) -> &str;
    /// Sets the loader-assigned id.
    fn set_id(&mut self, id: String);
    /// Forgets the `overrides` marker an applied patch copies onto it.
    fn clear_overrides(&mut self);
    /// What an override file says it changes.
    fn overrides_of(patch: &Self::Patch) -> Option<&str>;
}

/// Declares a content item: the struct with its fields after `id` and `overrides`, read with
/// unknown fields refused; its override form `$patch` (made by `struct_patch`); and
/// [`Identified`]. `$noun` names the item in messages and docs.
///
/// ```ignore
/// content_item! {
///     /// An attacker type.
///     pub struct AttackerType, overridden by AttackerTypePatch, "attacker type" {
///         /// The name shown to players.
///         pub name: String,
///     }
/// }
/// ```
macro_rules! content_item {
    (
        $(#[$attr:meta])*
        pub struct $name:ident, overridden by $patch:ident, $noun:literal {
            $($fields:tt)*
        }
    ) => {
        $(#[$attr])*
        #[derive(
            Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, struct_patch::Patch,
        )]
        #[patch(attribute(derive(Debug, Default, serde::Deserialize)))]
        #[patch(attribute(serde(deny_unknown_fields)))]
        #[patch(attribute(doc = concat!("An override file of a ", $noun, ": the fields it changes.")))]
        #[patch(attribute(expect(missing_docs, reason = "its fields are the item's, documented there")))]
        #[serde(deny_unknown_fields)]
        pub struct $name {
            /// The id, `mod:name` from the file's name; set by the loader, not written in the file.
            #[serde(skip)]
            #[patch(skip)]
            pub id: String,
            #[doc = concat!("Only in override files: the id of the ", $noun, " this file changes.")]
            #[serde(default, skip_serializing)]
            #[patch(skip_wrap)]
            pub overrides: Option<String>,
            $($fields)*
        }

        impl $crate::content::item::Identified for $name {
            type Patch = $patch;
            const NOUN: &'static str = $noun;
            fn id(&self) -> &str {
                &self.id
            }
            fn set_id(&mut self, id: String) {
                self.id = id;
            }
            fn clear_overrides(&mut self) {
                self.overrides = None;
            }
            fn overrides_of(patch: &$patch) -> Option<&str> {
                patch.overrides.as_deref()
            }
        }
    };
}
pub(crate) use content_item;
