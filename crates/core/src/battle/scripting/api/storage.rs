//! `game:storage()` and the storage tables scripts hold: windows onto a table of the running
//! mod's storage in the battle (`battle/storage.rs`), by the keys that lead to it. Reading one
//! reads the battle's storage as it is now; writing one converts the value, checks it and
//! stores it at once, so a write the storage cannot take is an error at the line that made it
//! and changes nothing.
//!
//! A window is a userdata rather than a table, so that `pairs`, `rawset` or `table.insert` on
//! one fail where they are called instead of quietly working on an empty stand-in table: it is
//! indexed, assigned, measured with `#` and iterated with `for key, value in t do`.

use std::ops::Bound;
use std::rc::Rc;

use mlua::{
    AnyUserData, Function, IntoLua, Lua, MetaMethod, UserData, UserDataFields, UserDataMethods,
    Value,
};

use super::call::{changing_battle, with_battle};
use super::handles::{entity_id_of, tables};
use super::types::{Class, LuaType, LuaTyped};
use crate::battle::core::Battle;
use crate::battle::scripting::lend::HostLink;
use crate::battle::storage::{
    Key, MAX_KEY, STORAGE_DEPTH, STORAGE_LIMIT, StorageError, Stored, Table, key_size, place,
    value_size,
};
use rampart_lua::{Fault, ScriptErrorKind};

/// A table of the running mod's storage: the keys from the top that lead to it (none for the
/// top, which `game:storage()` gives). Every VM is one mod's, so a window can only ever show
/// that mod's storage.
#[derive(Clone)]
struct View {
    path: Rc<[Key]>,
}

impl View {
    /// The table under `key` of this one.
    fn child(&self, key: &Key) -> View {
        View {
            path: self.path.iter().chain([key]).cloned().collect(),
        }
    }
}

/// The window onto the whole storage, as `game:storage()` gives it: made once per VM and kept
/// with the API's tables, so that asking for it makes nothing new (and it is the same value
/// every time).
pub(super) struct Top(AnyUserData);

impl Top {
    /// The VM's window onto its mod's storage.
    pub(super) fn get(lua: &Lua) -> mlua::Result<Top> {
        Ok(Top(tables(lua)?.storage_top.clone()))
    }
}

impl IntoLua for Top {
    fn into_lua(self, _: &Lua) -> mlua::Result<Value> {
        Ok(Value::UserData(self.0))
    }
}

impl LuaTyped for Top {
    const TYPE: LuaType = LuaType::Class(Class::Storage);
}

impl UserData for View {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        // The name errors and `typeof` give, that of the definitions' class.
        fields.add_meta_field(MetaMethod::Type, Class::Storage.name());
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Index, |lua, view, key: Value| {
            read(lua, view, &key)
        });
        methods.add_meta_method(
            MetaMethod::NewIndex,
            |lua, view, (key, value): (Value, Value)| write(lua, view, &key, &value),
        );
        methods.add_meta_method(MetaMethod::Len, |lua, view, ()| length(lua, view));
        methods.add_meta_function(MetaMethod::Iter, |lua, this: AnyUserData| {
            let next = tables(lua)?.storage_next.clone();
            Ok((next, this, Value::Nil))
        });
        methods.add_meta_method(MetaMethod::ToString, |_, view, ()| Ok(place(&view.path)));
        methods.add_meta_method(MetaMethod::Eq, |_, view, other: AnyUserData| {
            Ok(other.borrow::<View>().is_ok_and(|o| o.path == view.path))
        });
    }
}

/// The VM's window onto its storage, and the function that steps through storage tables in
/// key order, for the API's tables.
pub(super) fn objects(lua: &Lua) -> mlua::Result<(AnyUserData, Function)> {
    let top = lua.create_userdata(View { path: Rc::from([]) })?;
    Ok((top, lua.create_function(next)?))
}

/// A runtime error at the script line running now.
fn fail(lua: &Lua, message: impl Into<String>) -> mlua::Error {
    Fault::here(lua, ScriptErrorKind::Runtime, message)
}

/// The table `view` shows in the battle's storage of the running mod.
fn table_of<'b>(lua: &Lua, battle: &'b Battle, view: &View) -> mlua::Result<&'b Table> {
    let mod_index = HostLink::get(lua)?.mod_index;
    battle
        .stored_table(mod_index, &view.path)
        .ok_or_else(|| gone(lua, &view.path))
}

/// The error of a window whose place no longer holds a table.
fn gone(lua: &Lua, path: &[Key]) -> mlua::Error {
    fail(lua, StorageError::Gone(place(path)).to_string())
}

/// `t[key]`: a value as it is stored, a table as a window onto it, `nil` if there is none.
fn read(lua: &Lua, view: &View, key: &Value) -> mlua::Result<Value> {
    let Ok(key) = key_of(key) else {
        return Ok(Value::Nil);
    };
    with_battle(lua, "reading storage", |b| {
        let table = table_of(lua, b, view)?;
        match table.get(&key) {
            Some(value) => to_lua(lua, view, &key, value),
            None => Ok(Value::Nil),
        }
    })
}

/// `t[key] = value`: stored now, or an error and nothing changed.
fn write(lua: &Lua, view: &View, key: &Value, value: &Value) -> mlua::Result<()> {
    let key = key_of(key).map_err(|why| fail(lua, why))?;
    let mod_index = HostLink::get(lua)?.mod_index;
    changing_battle(lua, "writing storage", |b| {
        let value = match value {
            Value::Nil => None,
            value => {
                let mut convert = Convert {
                    battle: b,
                    mod_index,
                    to: &view.path,
                    key: &key,
                    inside: Vec::new(),
                    bytes: 0,
                };
                let stored = convert.value(value).map_err(|why| fail(lua, why))?;
                Some(stored)
            }
        };
        b.store(mod_index, &view.path, key, value)
            .map_err(|e| fail(lua, e.to_string()))
    })
}

/// `#t`: a border, as Luau finds one in a table: 0 without `t[1]`, else an n with `t[n]` set
/// and `t[n + 1]` not — the length, for a list without holes. Found by doubling and halving,
/// so `t[#t + 1] = v` in a loop stays cheap.
fn length(lua: &Lua, view: &View) -> mlua::Result<i64> {
    with_battle(lua, "reading storage", |b| {
        let table = table_of(lua, b, view)?;
        let has = |n: i64| table.contains_key(&Key::Int(n));
        if !has(1) {
            return Ok(0);
        }
        let (mut set, mut unset) = (1, 2);
        while unset <= MAX_KEY && has(unset) {
            set = unset;
            unset *= 2;
        }
        while unset - set > 1 {
            let middle = set + (unset - set) / 2;
            if has(middle) {
                set = middle;
            } else {
                unset = middle;
            }
        }
        Ok(set)
    })
}

/// The entry after `key` (the first after `nil`) of a storage table, in key order: whole
/// numbers first, in order, then strings. Stepping by key rather than by position keeps a
/// loop right when it changes the table as it goes.
fn next(lua: &Lua, (this, key): (AnyUserData, Value)) -> mlua::Result<(Value, Value)> {
    let view = this.borrow::<View>()?.clone();
    let after = match &key {
        Value::Nil => None,
        k => Some(key_of(k).map_err(|why| fail(lua, why))?),
    };
    with_battle(lua, "reading storage", |b| {
        let table = table_of(lua, b, &view)?;
        let entry = match &after {
            None => table.iter().next(),
            Some(k) => table.range((Bound::Excluded(k), Bound::Unbounded)).next(),
        };
        match entry {
            Some((k, v)) => Ok((key_to_lua(lua, k)?, to_lua(lua, &view, k, v)?)),
            None => Ok((Value::Nil, Value::Nil)),
        }
    })
}

/// A stored value as scripts see it; a table is a window onto it.
fn to_lua(lua: &Lua, view: &View, key: &Key, value: &Stored) -> mlua::Result<Value> {
    Ok(match value {
        Stored::Bool(b) => Value::Boolean(*b),
        Stored::Number(n) => Value::Number(*n),
        Stored::Text(t) => Value::String(lua.create_string(t)?),
        Stored::Table(_) => Value::UserData(lua.create_userdata(view.child(key))?),
    })
}

fn key_to_lua(lua: &Lua, key: &Key) -> mlua::Result<Value> {
    Ok(match key {
        Key::Int(i) => Value::Number(*i as f64),
        Key::Text(t) => Value::String(lua.create_string(t)?),
    })
}

/// The key a Lua value is, or why it cannot be one.
fn key_of(value: &Value) -> Result<Key, String> {
    let whole = |n: f64| {
        if n.fract() == 0.0 && n.abs() <= MAX_KEY as f64 {
            Ok(Key::Int(n as i64))
        } else {
            Err(format!(
                "a number key in storage must be a whole number from -2^53 to 2^53, not {n}"
            ))
        }
    };
    match value {
        Value::String(s) => s
            .to_str()
            .map(|t| Key::Text(t.to_string()))
            .map_err(|_| "a string key in storage must be UTF-8 text".to_string()),
        Value::Integer(i) => whole(*i as f64),
        Value::Number(n) => whole(*n),
        other => Err(format!(
            "storage keys are strings or whole numbers, not {}",
            other.type_name()
        )),
    }
}

/// Turns a value a script writes into stored data, or says what is wrong and where.
struct Convert<'a> {
    battle: &'a Battle,
    mod_index: usize,
    /// The table written to, and the key written.
    to: &'a [Key],
    key: &'a Key,
    /// The keys from the value written to the part of it being converted.
    inside: Vec<Key>,
    /// About the bytes of the tables converted so far, to stop converting a table that alone
    /// is past the limit (the exact size is checked when it is stored).
    bytes: usize,
}

impl Convert<'_> {
    /// Where the part being converted would be stored.
    fn path(&self) -> Vec<Key> {
        let keys = self.to.iter().chain([self.key]).chain(&self.inside);
        keys.cloned().collect()
    }

    fn value(&mut self, value: &Value) -> Result<Stored, String> {
        let at = || place(&self.path());
        let stored = match value {
            Value::Boolean(b) => Stored::Bool(*b),
            Value::Integer(i) => Stored::Number(*i as f64),
            Value::Number(n) if n.is_finite() => Stored::Number(*n),
            Value::Number(n) => {
                return Err(format!(
                    "storage keeps finite numbers, not {n} (at {})",
                    at()
                ));
            }
            Value::String(s) => match s.to_str() {
                Ok(t) => Stored::Text(t.to_string()),
                Err(_) => {
                    return Err(format!(
                        "storage keeps strings of UTF-8 text, and this one is not (at {})",
                        at()
                    ));
                }
            },
            Value::Table(t) => return self.table(t),
            Value::UserData(ud) if ud.is::<View>() => {
                // A storage table written somewhere is a copy of what it holds now.
                let view = ud.borrow::<View>().map_err(|e| e.to_string())?;
                let copy = self
                    .battle
                    .stored_table(self.mod_index, &view.path)
                    .ok_or_else(|| StorageError::Gone(place(&view.path)).to_string())?
                    .clone();
                Stored::Table(copy)
            }
            Value::UserData(_) if entity_id_of(value).is_ok() => {
                return Err(format!(
                    "storage cannot keep an entity handle (at {}); keep its number, `handle.id`, and get the handle back with `game:entity(id)`",
                    at()
                ));
            }
            other => {
                return Err(format!(
                    "storage keeps booleans, numbers, strings and tables of them, not a {} (at {})",
                    other.type_name(),
                    at()
                ));
            }
        };
        Ok(stored)
    }

    fn table(&mut self, table: &mlua::Table) -> Result<Stored, String> {
        // The top is one table deep, so a table at a path of n keys is n + 1 deep.
        if self.to.len() + 1 + self.inside.len() + 1 > STORAGE_DEPTH {
            return Err(format!(
                "this would nest tables in storage more than {STORAGE_DEPTH} deep (does a table hold itself?); the storage is unchanged"
            ));
        }
        if table.metatable().is_some() {
            return Err(format!(
                "storage keeps plain tables, and the one for {} has a metatable",
                place(&self.path())
            ));
        }
        let mut stored = Table::new();
        for pair in table.pairs::<Value, Value>() {
            let (key, value) = pair.map_err(|e| e.to_string())?;
            let key = key_of(&key).map_err(|why| format!("{why} (in {})", place(&self.path())))?;
            self.inside.push(key.clone());
            let value = self.value(&value)?;
            self.inside.pop();
            // A table's own entries are counted where they are converted.
            let value_bytes = match &value {
                Stored::Table(_) => 2,
                other => value_size(other),
            };
            self.count(key_size(&key) + value_bytes)?;
            stored.insert(key, value);
        }
        Ok(Stored::Table(stored))
    }

    /// Counts `bytes` more, failing once the table alone is past the limit.
    fn count(&mut self, bytes: usize) -> Result<(), String> {
        self.bytes += bytes;
        if self.bytes > STORAGE_LIMIT {
            let mod_id = &self.battle.content().mods[self.mod_index].id;
            return Err(format!(
                "this would make the storage of mod `{mod_id}` more than its limit of {STORAGE_LIMIT} bytes; the storage is unchanged"
            ));
        }
        Ok(())
    }
}
