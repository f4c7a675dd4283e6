//! What mods keep through a run (`game:storage()`): per mod, one table of plain data —
//! booleans, finite numbers, text, and tables of them keyed by text or whole numbers.
//!
//! The battle holds every mod's storage in its state (`BattleState::storage`), so it is
//! in the state hash; a run hands it from one battle to the next and keeps it in its save, and a
//! battle starts from the run's (`Start::storage`). Scripts change it one write at a
//! time through `scripting/api/storage.rs`, and every write is checked here — the size of the
//! canonical form against [`STORAGE_LIMIT`], the nesting against [`STORAGE_DEPTH`] — before it is
//! made, so a storage is never over its limits and a refused write changes nothing.
//!
//! # Canonical form
//! Tables are sorted maps (whole-number keys first, in order, then text in byte order), so the
//! same contents serialise the same way however a script built them. Saves and records (RON,
//! JSON) write a table as a list of `[key, value]` entries, since JSON cannot tell a key `1` from
//! a key `"1"`; the state hash reads a compact binary form (postcard) with a one-byte tag per key
//! and value, whose length is what [`STORAGE_LIMIT`] bounds ([`Storage::size`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};

/// The most bytes one mod's storage may take in its canonical binary form: 64 KiB.
pub const STORAGE_LIMIT: usize = 64 * 1024;

/// The most tables nested in each other in one mod's storage, counting the storage itself.
pub const STORAGE_DEPTH: usize = 32;

/// The largest whole-number key, either way: a Lua number holds every whole number up to 2^53
/// exactly.
pub const MAX_KEY: i64 = 1 << 53;

/// A key of a stored table: a whole number or a text.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    /// A whole number within ±[`MAX_KEY`].
    Int(i64),
    /// A text.
    Text(String),
}

/// A value in storage.
#[derive(Clone, Debug, PartialEq)]
pub enum Stored {
    /// `true` or `false`.
    Bool(bool),
    /// A finite number.
    Number(f64),
    /// A text.
    Text(String),
    /// A table.
    Table(Table),
}

/// A stored table: its entries, sorted by key.
pub type Table = BTreeMap<Key, Stored>;

/// One mod's storage: its table, and the size of the table's canonical form.
#[derive(Clone, Debug, PartialEq)]
pub struct Storage {
    table: Table,
    size: usize,
}

impl Default for Storage {
    fn default() -> Storage {
        Storage::new(Table::new())
    }
}

/// Why a write to storage was refused; the storage is as it was.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum StorageError {
    /// The write would make the storage bigger than [`STORAGE_LIMIT`].
    #[error(
        "this would make the storage of mod `{mod_id}` {size} bytes, over its limit of {STORAGE_LIMIT}; the storage is unchanged"
    )]
    TooBig {
        /// The mod.
        mod_id: String,
        /// Its size had the write been made.
        size: usize,
    },
    /// The write would nest tables deeper than [`STORAGE_DEPTH`].
    #[error(
        "this would nest tables in storage more than {STORAGE_DEPTH} deep (does a table hold itself?); the storage is unchanged"
    )]
    TooDeep,
    /// The table written to is no longer in storage.
    #[error("{0} is no longer a table in storage (it was replaced or removed)")]
    Gone(String),
}

impl Storage {
    /// A storage holding `table`.
    pub fn new(table: Table) -> Storage {
        let size = table_size(&table);
        Storage { table, size }
    }

    /// The stored table.
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    /// The length of the canonical binary form in bytes, the size [`STORAGE_LIMIT`] bounds.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The table at `path` (keys from the top), if there is one.
    pub fn table_at(&self, path: &[Key]) -> Option<&Table> {
        path.iter()
            .try_fold(&self.table, |table, key| match table.get(key) {
                Some(Stored::Table(t)) => Some(t),
                _ => None,
            })
    }

    /// Sets `key` of the table at `path` to `value` (`None` removes it), unless that takes the
    /// storage over [`STORAGE_LIMIT`] or [`STORAGE_DEPTH`]; `mod_id` is for the error.
    pub fn set(
        &mut self,
        mod_id: &str,
        path: &[Key],
        key: Key,
        value: Option<Stored>,
    ) -> Result<(), StorageError> {
        if let Some(v) = &value
            && path.len() + 1 + depth(v) > STORAGE_DEPTH
        {
            return Err(StorageError::TooDeep);
        }
        let Some(table) = table_at_mut(&mut self.table, path) else {
            return Err(StorageError::Gone(place(path)));
        };
        let entry = |v: &Stored| key_size(&key) + value_size(v);
        let before = table.get(&key).map_or(0, entry) + varint_len(table.len() as u64);
        let len =
            table.len() + usize::from(value.is_some()) - usize::from(table.contains_key(&key));
        let after = value.as_ref().map_or(0, entry) + varint_len(len as u64);
        let size = self.size - before + after;
        // A write that does not grow the storage is always allowed, so a storage loaded over the
        // limit can still be cleaned up.
        if size > STORAGE_LIMIT && size > self.size {
            return Err(StorageError::TooBig {
                mod_id: mod_id.to_string(),
                size,
            });
        }
        match value {
            Some(v) => table.insert(key, v),
            None => table.remove(&key),
        };
        self.size = size;
        Ok(())
    }

    /// Whether a storage read from a file is one the game could have written: within
    /// [`STORAGE_LIMIT`] and [`STORAGE_DEPTH`], its numbers finite. Says what is wrong if not.
    pub fn check(&self) -> Result<(), String> {
        if self.size > STORAGE_LIMIT {
            return Err(format!(
                "is {} bytes, over the limit of {STORAGE_LIMIT}",
                self.size
            ));
        }
        if depth_of_table(&self.table) > STORAGE_DEPTH {
            return Err(format!("nests tables more than {STORAGE_DEPTH} deep"));
        }
        match first_infinite(&self.table, &mut Vec::new()) {
            Some(path) => Err(format!("holds a number that is not finite at {path}")),
            None => Ok(()),
        }
    }
}

/// Where `path` leads, as a script would write it: `storage.towers[3]`.
pub fn place(path: &[Key]) -> String {
    let mut out = String::from("storage");
    for key in path {
        match key {
            Key::Text(t) if is_name(t) => out.push_str(&format!(".{t}")),
            key => out.push_str(&format!("[{key}]")),
        }
    }
    out
}

/// A key as Lua writes it inside brackets: `3`, `"a b"`.
impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Key::Int(i) => write!(f, "{i}"),
            Key::Text(t) => write!(f, "{t:?}"),
        }
    }
}

/// A value as a Lua constructor would write it: `{ kills = 12, [1] = "a" }`.
impl fmt::Display for Stored {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Stored::Bool(b) => write!(f, "{b}"),
            // Whole numbers as such, others in their shortest form (`1e300`, not 301 digits).
            Stored::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => write!(f, "{n}"),
            Stored::Number(n) => write!(f, "{n:?}"),
            Stored::Text(t) => write!(f, "{t:?}"),
            Stored::Table(t) => write_table(f, t),
        }
    }
}

/// The storage as a Lua constructor would write it.
impl fmt::Display for Storage {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write_table(f, &self.table)
    }
}

fn write_table(f: &mut fmt::Formatter, table: &Table) -> fmt::Result {
    if table.is_empty() {
        return f.write_str("{}");
    }
    f.write_str("{ ")?;
    for (i, (key, value)) in table.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        match key {
            Key::Text(t) if is_name(t) => write!(f, "{t} = {value}")?,
            key => write!(f, "[{key}] = {value}")?,
        }
    }
    f.write_str(" }")
}

/// Whether `text` can follow a dot in Lua: a name that is not a keyword.
fn is_name(text: &str) -> bool {
    const KEYWORDS: [&str; 22] = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
        "continue",
    ];
    let mut chars = text.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&text)
}

fn table_at_mut<'a>(table: &'a mut Table, path: &[Key]) -> Option<&'a mut Table> {
    path.iter()
        .try_fold(table, |table, key| match table.get_mut(key) {
            Some(Stored::Table(t)) => Some(t),
            _ => None,
        })
}

/// How many tables `value` nests, itself included (0 for a plain value).
pub fn depth(value: &Stored) -> usize {
    match value {
        Stored::Table(t) => depth_of_table(t),
        _ => 0,
    }
}

fn depth_of_table(table: &Table) -> usize {
    1 + table.values().map(depth).max().unwrap_or(0)
}

fn first_infinite(table: &Table, path: &mut Vec<Key>) -> Option<String> {
    for (key, value) in table {
        path.push(key.clone());
        let found = match value {
            Stored::Number(n) if !n.is_finite() => Some(place(path)),
            Stored::Table(t) => first_infinite(t, path),
            _ => None,
        };
        path.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Bytes of `n` as a variable-length integer (7 bits a byte), as postcard writes lengths.
fn varint_len(n: u64) -> usize {
    (u64::BITS - n.leading_zeros()).div_ceil(7).max(1) as usize
}

/// Bytes of a key in the canonical form: a tag, then a zigzag varint or a text.
pub fn key_size(key: &Key) -> usize {
    1 + match key {
        Key::Int(i) => varint_len(((i << 1) ^ (i >> 63)) as u64),
        Key::Text(t) => varint_len(t.len() as u64) + t.len(),
    }
}

/// Bytes of a value in the canonical form: a tag, then the value.
pub fn value_size(value: &Stored) -> usize {
    1 + match value {
        Stored::Bool(_) => 1,
        Stored::Number(_) => 8,
        Stored::Text(t) => varint_len(t.len() as u64) + t.len(),
        Stored::Table(t) => table_size(t),
    }
}

/// Bytes of a table in the canonical form: its length, then each key and value.
pub fn table_size(table: &Table) -> usize {
    varint_len(table.len() as u64)
        + table
            .iter()
            .map(|(k, v)| key_size(k) + value_size(v))
            .sum::<usize>()
}

// Human-readable formats (RON saves, JSON records, scenarios) get keys and values as they are
// and tables as lists of `[key, value]`; the binary form of the state hash tags each key and
// value, so that no two contents serialise alike.

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self, s.is_human_readable()) {
            (Key::Int(i), true) => s.serialize_i64(*i),
            (Key::Text(t), true) => s.serialize_str(t),
            (Key::Int(i), false) => s.serialize_newtype_variant("Key", 0, "Int", i),
            (Key::Text(t), false) => s.serialize_newtype_variant("Key", 1, "Text", t),
        }
    }
}

impl Serialize for Stored {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if s.is_human_readable() {
            return match self {
                Stored::Bool(b) => s.serialize_bool(*b),
                Stored::Number(n) => s.serialize_f64(*n),
                Stored::Text(t) => s.serialize_str(t),
                Stored::Table(t) => serialize_table(t, s),
            };
        }
        match self {
            Stored::Bool(b) => s.serialize_newtype_variant("Stored", 0, "Bool", b),
            Stored::Number(n) => s.serialize_newtype_variant("Stored", 1, "Number", n),
            Stored::Text(t) => s.serialize_newtype_variant("Stored", 2, "Text", t),
            Stored::Table(t) => s.serialize_newtype_variant("Stored", 3, "Table", &Entries(t)),
        }
    }
}

impl Serialize for Storage {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_table(&self.table, s)
    }
}

/// A table as its list of entries.
struct Entries<'a>(&'a Table);

impl Serialize for Entries<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_table(self.0, s)
    }
}

fn serialize_table<S: Serializer>(table: &Table, s: S) -> Result<S::Ok, S::Error> {
    let mut seq = s.serialize_seq(Some(table.len()))?;
    for entry in table {
        seq.serialize_element(&Entry(entry))?;
    }
    seq.end()
}

/// One `[key, value]` entry of a table.
struct Entry<'a>((&'a Key, &'a Stored));

impl Serialize for Entry<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut tuple = s.serialize_tuple(2)?;
        tuple.serialize_element(self.0.0)?;
        tuple.serialize_element(self.0.1)?;
        tuple.end()
    }
}

// Reading is for the human-readable forms only (the binary form is never read back).

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        struct KeyVisitor;
        impl Visitor<'_> for KeyVisitor {
            type Value = Key;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a storage key: a string or a whole number")
            }
            fn visit_i64<E: de::Error>(self, i: i64) -> Result<Key, E> {
                if i.unsigned_abs() > MAX_KEY as u64 {
                    return Err(E::custom(format!(
                        "a storage key must be a whole number from -2^53 to 2^53, not {i}"
                    )));
                }
                Ok(Key::Int(i))
            }
            fn visit_u64<E: de::Error>(self, u: u64) -> Result<Key, E> {
                match i64::try_from(u) {
                    Ok(i) => self.visit_i64(i),
                    Err(_) => Err(E::custom(format!(
                        "a storage key must be a whole number from -2^53 to 2^53, not {u}"
                    ))),
                }
            }
            fn visit_str<E: de::Error>(self, t: &str) -> Result<Key, E> {
                Ok(Key::Text(t.to_string()))
            }
        }
        d.deserialize_any(KeyVisitor)
    }
}

impl<'de> Deserialize<'de> for Stored {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Stored, D::Error> {
        struct StoredVisitor;
        impl<'de> Visitor<'de> for StoredVisitor {
            type Value = Stored;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "a stored value: a boolean, a number, a string or a table (a list of [key, value] entries)",
                )
            }
            fn visit_bool<E: de::Error>(self, b: bool) -> Result<Stored, E> {
                Ok(Stored::Bool(b))
            }
            fn visit_i64<E: de::Error>(self, i: i64) -> Result<Stored, E> {
                Ok(Stored::Number(i as f64))
            }
            fn visit_u64<E: de::Error>(self, u: u64) -> Result<Stored, E> {
                Ok(Stored::Number(u as f64))
            }
            fn visit_f64<E: de::Error>(self, n: f64) -> Result<Stored, E> {
                Ok(Stored::Number(n))
            }
            fn visit_str<E: de::Error>(self, t: &str) -> Result<Stored, E> {
                Ok(Stored::Text(t.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Stored, A::Error> {
                read_entries(seq).map(Stored::Table)
            }
        }
        d.deserialize_any(StoredVisitor)
    }
}

impl<'de> Deserialize<'de> for Storage {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Storage, D::Error> {
        match Stored::deserialize(d)? {
            Stored::Table(table) => Ok(Storage::new(table)),
            _ => Err(de::Error::custom(
                "a mod's storage is a table: a list of [key, value] entries",
            )),
        }
    }
}

/// A table's `[key, value]` entries; a key given twice is an error.
fn read_entries<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Table, A::Error> {
    let mut table = Table::new();
    while let Some((key, value)) = seq.next_element::<(Key, Stored)>()? {
        if table.contains_key(&key) {
            let key = match key {
                Key::Int(i) => i.to_string(),
                Key::Text(t) => format!("{t:?}"),
            };
            return Err(de::Error::custom(format!(
                "the storage key {key} is given twice"
            )));
        }
        table.insert(key, value);
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(t: &str) -> Key {
        Key::Text(t.to_string())
    }

    /// A storage with every kind of key and value, nested.
    fn sample() -> Storage {
        let mut inner = Table::new();
        inner.insert(Key::Int(-70), Stored::Bool(false));
        inner.insert(Key::Int(1 << 40), Stored::Text("é".repeat(100)));
        let mut table = Table::new();
        table.insert(text("kills"), Stored::Number(12.0));
        table.insert(Key::Int(1), Stored::Text("one".into()));
        table.insert(text("1"), Stored::Number(-0.5));
        table.insert(text("towers"), Stored::Table(inner));
        table.insert(text("empty"), Stored::Table(Table::new()));
        Storage::new(table)
    }

    #[test]
    fn the_size_is_the_length_of_the_binary_form() {
        let storage = sample();
        let bytes = postcard::to_stdvec(&storage).unwrap();
        assert_eq!(storage.size(), bytes.len());
        assert_eq!(Storage::default().size(), 1);
        // The example of docs/modding/limits.md.
        let kills = Table::from([(text("kills"), Stored::Number(12.0))]);
        assert_eq!(Storage::new(kills).size(), 17);
        // Through every write too, up to and past a length of 128 (two bytes of length).
        let mut s = Storage::default();
        for i in 0..200 {
            s.set("m", &[], Key::Int(i), Some(Stored::Number(i as f64)))
                .unwrap();
            assert_eq!(s.size(), postcard::to_stdvec(&s).unwrap().len());
        }
        for i in 0..200 {
            s.set("m", &[], Key::Int(i), None).unwrap();
            assert_eq!(s.size(), postcard::to_stdvec(&s).unwrap().len());
        }
        assert!(s.is_empty());
    }

    #[test]
    fn whole_number_and_text_keys_stay_apart_in_json_and_ron() {
        let storage = sample();
        let json = serde_json::to_string(&storage).unwrap();
        assert!(
            json.starts_with(r#"[[1,"one"],["1",-0.5],["empty",[]]"#),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<Storage>(&json).unwrap(), storage);
        let ron = ron::to_string(&storage).unwrap();
        assert_eq!(ron::from_str::<Storage>(&ron).unwrap(), storage);
    }

    #[test]
    fn a_write_past_the_limits_changes_nothing() {
        let mut s = sample();
        let before = s.clone();
        let big = Stored::Text("x".repeat(STORAGE_LIMIT));
        let err = s.set("m", &[], text("big"), Some(big)).unwrap_err();
        assert!(matches!(err, StorageError::TooBig { size, .. } if size > STORAGE_LIMIT));
        assert_eq!(s, before);
        let mut deep = Stored::Bool(true);
        for _ in 0..STORAGE_DEPTH {
            deep = Stored::Table(Table::from([(Key::Int(1), deep)]));
        }
        assert_eq!(
            s.set("m", &[], text("deep"), Some(deep)),
            Err(StorageError::TooDeep)
        );
        let gone = s.set("m", &[text("kills")], text("x"), Some(Stored::Bool(true)));
        assert_eq!(gone, Err(StorageError::Gone("storage.kills".into())));
        assert_eq!(s, before);
    }

    #[test]
    fn files_are_checked() {
        assert_eq!(sample().check(), Ok(()));
        let nan = ron::from_str::<Storage>(r#"[("a", [(3, NaN)])]"#).unwrap();
        assert_eq!(
            nan.check(),
            Err("holds a number that is not finite at storage.a[3]".into())
        );
        let twice = ron::from_str::<Storage>(r#"[("a", 1), ("a", 2)]"#).unwrap_err();
        assert!(twice.to_string().contains("given twice"), "{twice}");
        let key = serde_json::from_str::<Storage>("[[1.5, 1]]").unwrap_err();
        assert!(
            key.to_string().contains("a string or a whole number"),
            "{key}"
        );
    }

    #[test]
    fn places_and_contents_read_as_lua() {
        let path = [text("towers"), Key::Int(3), text("a b"), text("end")];
        assert_eq!(place(&path), r#"storage.towers[3]["a b"]["end"]"#);
        let shown = sample().to_string();
        assert!(
            shown.starts_with(r#"{ [1] = "one", ["1"] = -0.5, empty = {}, kills = 12, towers = { [-70] = false, [1099511627776] = "éé"#),
            "{shown}"
        );
    }
}
