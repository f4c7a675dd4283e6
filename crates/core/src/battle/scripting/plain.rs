//! Plain data between mods' VMs, read from Lua and made again in it: the payloads, inputs and
//! values of the chains mods declare.
//!
//! Every mod has its own Luau VM, so a table one mod's script gives cannot be handed to
//! another's: it is read into a [`Plain`] value (`battle/plain.rs`), which belongs to no VM, and made again as a new
//! table in each VM it reaches. Only data crosses — numbers, strings, booleans, entity handles
//! and tables of those —, never a function, so no mod ever runs another mod's code. Reading
//! checks the fields against the chain's declaration (names, types, finite numbers) and bounds
//! the size of what crosses ([`MAX_DEPTH`], [`MAX_VALUES`], [`MAX_BYTES`]), so that one call
//! cannot make every reacting VM copy without end.

use std::collections::BTreeMap;
use std::rc::Rc;

use mlua::{Lua, Value};

use super::super::payloads::Domain;
use super::api::handles::{entity_id_of, entity_to_lua};
use crate::content::chains::{ChainDecl, FieldType};

pub use super::super::plain::{Key, Plain};
use crate::diagnostics::did_you_mean;

/// How deeply tables may be nested in what crosses (the payload's own table is the first level).
pub const MAX_DEPTH: usize = 8;
/// How many values (table entries included) one payload or input may hold.
pub const MAX_VALUES: usize = 1000;
/// How many bytes of strings, keys included, one payload or input may hold.
pub const MAX_BYTES: usize = 64 * 1024;

impl Plain {
    /// The value made in the VM `lua`: tables new and read-only (what a callback receives it
    /// may read, not change), entities as that VM's handles.
    pub(crate) fn to_lua(&self, lua: &Lua) -> mlua::Result<Value> {
        Ok(match self {
            Plain::Boolean(b) => Value::Boolean(*b),
            Plain::Number(n) => Value::Number(*n),
            Plain::String(s) => Value::String(lua.create_string(&s[..])?),
            Plain::Entity(id) => entity_to_lua(lua, *id)?,
            Plain::Table(entries) => {
                let table = lua.create_table_with_capacity(0, entries.len())?;
                for (key, value) in entries.iter() {
                    let value = value.to_lua(lua)?;
                    match key {
                        Key::Index(i) => table.raw_set(*i, value)?,
                        Key::Name(name) => table.raw_set(lua.create_string(&name[..])?, value)?,
                    }
                }
                table.set_readonly(true);
                Value::Table(table)
            }
        })
    }
}

/// The payload of an event or the input of a query, read from the table a script gave and
/// checked against `decl`: every key a declared field, every field there unless optional and of
/// its type. The error names the field (and the field probably meant by an unknown key).
pub(crate) fn fields_from_lua(decl: &ChainDecl, value: &Value) -> Result<Plain, String> {
    let table = match value {
        Value::Nil => None,
        Value::Table(t) if t.metatable().is_none() => Some(t),
        other => {
            return Err(format!(
                "expected a table of the fields of `{}`, got {}",
                decl.name,
                what(other)
            ));
        }
    };
    if let Some(table) = table {
        let mut keys = Vec::new();
        for pair in table.pairs::<Value, Value>() {
            let (key, _) = pair.map_err(|e| e.to_string())?;
            match key {
                Value::String(s) => keys.push(s.to_string_lossy()),
                other => {
                    return Err(format!(
                        "the fields of `{}` are named; the table has a {} key",
                        decl.name,
                        other.type_name()
                    ));
                }
            }
        }
        // Sorted, so that the field named first does not depend on the table's order.
        keys.sort();
        if let Some(unknown) = keys.iter().find(|k| decl.field(k).is_none()) {
            let names = decl.fields.iter().map(|f| f.name.as_str());
            let hint = match did_you_mean(unknown, names.clone()) {
                Some(hint) => format!("; {hint}"),
                None => String::new(),
            };
            let all: Vec<&str> = names.collect();
            let listed = match all.as_slice() {
                [] => "it has none".to_string(),
                some => format!("its fields are {}", some.join(", ")),
            };
            return Err(format!(
                "`{}` has no field `{unknown}`{hint} ({listed})",
                decl.name
            ));
        }
    }
    let mut reader = Reader::default();
    let mut fields = BTreeMap::new();
    for field in &decl.fields {
        let value: Value = match table {
            Some(t) => t.raw_get(field.name.as_str()).map_err(|e| e.to_string())?,
            None => Value::Nil,
        };
        if value.is_nil() && field.optional {
            continue;
        }
        let mut path = field.name.clone();
        let plain = reader
            .typed(field.ty, &value, &mut path)
            .map_err(|why| format!("field `{path}`: {why}"))?;
        fields.insert(Key::Name(Rc::from(field.name.as_bytes())), plain);
    }
    Ok(Plain::Table(Rc::new(fields)))
}

/// A query's value as a modifier returned it, which must be of the declared type.
pub(crate) fn value_from_lua(ty: FieldType, value: &Value) -> Result<Plain, String> {
    Reader::default().typed(ty, value, &mut String::new())
}

/// What has been read so far of one payload, against the limits.
#[derive(Default)]
struct Reader {
    values: usize,
    bytes: usize,
}

impl Reader {
    /// A value of the declared type `ty`; `path` names where it is, and on an error names the
    /// value at fault.
    fn typed(&mut self, ty: FieldType, value: &Value, path: &mut String) -> Result<Plain, String> {
        let expected = || format!("expected {}, got {}", ty.describe(), what(value));
        match (ty, value) {
            (FieldType::Number | FieldType::Integer, Value::Integer(_) | Value::Number(_)) => {
                let n = match value {
                    Value::Integer(i) => *i as f64,
                    Value::Number(n) => *n,
                    _ => unreachable!("matched as a number"),
                };
                Domain::Finite.check(n)?;
                if ty == FieldType::Integer && n.fract() != 0.0 {
                    return Err(format!("expected a whole number, got {n}"));
                }
                self.count(0)?;
                Ok(Plain::Number(n))
            }
            (FieldType::String, Value::String(s)) => {
                let bytes: Rc<[u8]> = Rc::from(&s.as_bytes()[..]);
                self.count(bytes.len())?;
                Ok(Plain::String(bytes))
            }
            (FieldType::Boolean, Value::Boolean(b)) => {
                self.count(0)?;
                Ok(Plain::Boolean(*b))
            }
            (FieldType::Entity, Value::UserData(_) | Value::Table(_)) => {
                let id = entity_id_of(value).map_err(|_| expected())?;
                self.count(0)?;
                Ok(Plain::Entity(id))
            }
            (FieldType::Table, Value::Table(_)) => self.any(value, 2, path),
            _ => Err(expected()),
        }
    }

    /// A value inside a table field, of any plain kind, at nesting level `depth`.
    fn any(&mut self, value: &Value, depth: usize, path: &mut String) -> Result<Plain, String> {
        let plain = match value {
            Value::Boolean(_) => self.typed(FieldType::Boolean, value, path)?,
            Value::Integer(_) | Value::Number(_) => self.typed(FieldType::Number, value, path)?,
            Value::String(_) => self.typed(FieldType::String, value, path)?,
            Value::UserData(_) => self.typed(FieldType::Entity, value, path)?,
            Value::Table(t) if t.metatable().is_some() => {
                return Err(
                    "a table with a metatable (such as `self`) cannot be sent: send `self.entity`, or a plain table"
                        .into(),
                );
            }
            Value::Table(t) => {
                if depth > MAX_DEPTH {
                    return Err(format!(
                        "tables are nested more than {MAX_DEPTH} deep (is a table inside itself?)"
                    ));
                }
                self.count(0)?;
                let mut entries = BTreeMap::new();
                for pair in t.pairs::<Value, Value>() {
                    let (key, item) = pair.map_err(|e| e.to_string())?;
                    let key = self.key(&key)?;
                    let at = path.len();
                    match &key {
                        Key::Index(i) => path.push_str(&format!("[{i}]")),
                        Key::Name(name) => {
                            path.push('.');
                            path.push_str(&String::from_utf8_lossy(name));
                        }
                    }
                    let item = self.any(&item, depth + 1, path)?;
                    path.truncate(at);
                    entries.insert(key, item);
                }
                Plain::Table(Rc::new(entries))
            }
            other => {
                return Err(format!(
                    "{} cannot be sent to other mods' scripts: they receive numbers, strings, booleans, entities and tables of those",
                    what(other)
                ));
            }
        };
        Ok(plain)
    }

    /// A key of a table inside a field: a string or a whole number.
    fn key(&mut self, key: &Value) -> Result<Key, String> {
        match key {
            Value::String(s) => {
                let bytes: Rc<[u8]> = Rc::from(&s.as_bytes()[..]);
                self.count(bytes.len())?;
                Ok(Key::Name(bytes))
            }
            Value::Integer(i) => Ok(Key::Index(*i)),
            // 2⁵³: up to it every whole number is exact.
            Value::Number(n) if n.fract() == 0.0 && n.abs() <= 9_007_199_254_740_992.0 => {
                Ok(Key::Index(*n as i64))
            }
            other => Err(format!(
                "a table sent to other mods is keyed by strings and whole numbers, not by {}",
                what(other)
            )),
        }
    }

    /// Counts one more value and `bytes` more bytes, failing past the limits.
    fn count(&mut self, bytes: usize) -> Result<(), String> {
        self.values += 1;
        self.bytes += bytes;
        if self.values > MAX_VALUES {
            return Err(format!(
                "more than {MAX_VALUES} values; a payload carries at most that many"
            ));
        }
        if self.bytes > MAX_BYTES {
            return Err(format!(
                "more than {MAX_BYTES} bytes of strings; a payload carries at most that many"
            ));
        }
        Ok(())
    }
}

/// A value's kind in words: `nil`, `a function`, `a table`…
fn what(value: &Value) -> String {
    match value {
        Value::Nil => "nil".to_string(),
        Value::Integer(_) | Value::Number(_) => "a number".to_string(),
        other => {
            let name = other.type_name();
            let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            format!("{article} {name}")
        }
    }
}
