//! Chain payloads as scripts see them: tables built from one list of fields per payload.
//!
//! The [`payload!`] macro takes a payload's fields once, each marked with what scripts may do
//! with it, and makes the struct, its Lua table both ways, and the field list
//! ([`LuaShape::Table`]) that `tests/suite/docs.rs` holds against the payload tables of
//! `docs/modding/lua-api.md`:
//!
//! - `read`: given by whoever runs the chain; modifiers read it;
//! - `write`: given, and a command modifier may change it (✎ in the docs);
//! - `result`: set by the game's handler (a script running the chain leaves it out).

use mlua::{Lua, Value};

use super::super::{Battle, EntityId};
use super::api::{
    damage_types_from_lua, damage_types_to_lua, entity_from_lua, entity_to_lua,
    opt_entity_from_lua, opt_entity_to_lua,
};
use crate::content::{Cost, DamageTypes};

/// What scripts may do with a field of a payload table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Given by whoever runs the chain; read-only to modifiers.
    Read,
    /// Given, and command modifiers may change it.
    Write,
    /// Set by the game's handler.
    Result,
}

/// A field of a payload table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PayloadField {
    /// Its key in the table.
    pub name: &'static str,
    /// What scripts may do with it.
    pub access: Access,
}

/// How a payload, a query's input or a query's value looks to a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LuaShape {
    /// A table with these fields.
    Table(&'static [PayloadField]),
    /// An entity handle.
    Entity,
    /// A number.
    Number,
    /// A list of strings.
    Strings,
    /// Nothing (`nil`).
    Nil,
}

/// Converts chain payloads between Rust and the values scripts see.
pub(crate) trait LuaPayload: Sized + 'static {
    /// How scripts see it.
    const SHAPE: LuaShape;
    /// The field naming the entity it is about, if any (what scoped registrations match).
    const ABOUT: Option<&'static str> = None;
    /// The table (or value) a script receives.
    fn to_lua(&self, lua: &Lua, battle: &Battle) -> mlua::Result<Value>;
    /// Reads back what a command modifier may change. Payloads of queries and events never call it.
    fn update_from_lua(&mut self, _value: &Value, _battle: &Battle) -> mlua::Result<()> {
        Ok(())
    }
    /// Builds a payload from what a script passed to `game:command` or `game:query`.
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self>;
}

/// A value that can be a field of a payload table.
pub(crate) trait LuaField: Sized {
    /// The value scripts see.
    fn to_lua(&self, lua: &Lua) -> mlua::Result<Value>;
    /// Reads it back; the error says what was expected, in words for the modder.
    fn from_lua(value: &Value, battle: &Battle) -> Result<Self, String>;
}

/// The message of an API error, without mlua's prefix.
fn message(e: mlua::Error) -> String {
    match e {
        mlua::Error::RuntimeError(m) => m,
        other => other.to_string(),
    }
}

impl LuaField for f64 {
    fn to_lua(&self, _: &Lua) -> mlua::Result<Value> {
        Ok(Value::Number(*self))
    }
    fn from_lua(value: &Value, _: &Battle) -> Result<Self, String> {
        match value {
            Value::Number(n) => Ok(*n),
            Value::Integer(i) => Ok(*i as f64),
            other => Err(format!("expected a number, got {}", other.type_name())),
        }
    }
}

impl LuaField for u32 {
    fn to_lua(&self, _: &Lua) -> mlua::Result<Value> {
        Ok(Value::Number(f64::from(*self)))
    }
    fn from_lua(value: &Value, battle: &Battle) -> Result<Self, String> {
        let n = <f64 as LuaField>::from_lua(value, battle)?;
        if n.fract() == 0.0 && (0.0..=f64::from(u32::MAX)).contains(&n) {
            Ok(n as u32)
        } else {
            Err(format!("expected a whole number ≥ 0, got {n}"))
        }
    }
}

impl LuaField for EntityId {
    fn to_lua(&self, lua: &Lua) -> mlua::Result<Value> {
        entity_to_lua(lua, *self)
    }
    fn from_lua(value: &Value, battle: &Battle) -> Result<Self, String> {
        entity_from_lua(value, battle).map_err(message)
    }
}

impl LuaField for Option<EntityId> {
    fn to_lua(&self, lua: &Lua) -> mlua::Result<Value> {
        opt_entity_to_lua(lua, *self)
    }
    fn from_lua(value: &Value, battle: &Battle) -> Result<Self, String> {
        opt_entity_from_lua(value, battle).map_err(message)
    }
}

impl LuaField for DamageTypes {
    fn to_lua(&self, lua: &Lua) -> mlua::Result<Value> {
        damage_types_to_lua(lua, *self)
    }
    fn from_lua(value: &Value, _: &Battle) -> Result<Self, String> {
        damage_types_from_lua(value).map_err(message)
    }
}

/// Field `name` of the table `value`, converted.
pub(crate) fn read_field<T: LuaField>(
    value: &Value,
    name: &str,
    battle: &Battle,
) -> mlua::Result<T> {
    let Value::Table(t) = value else {
        return Err(mlua::Error::runtime(format!(
            "expected a table, got {}",
            value.type_name()
        )));
    };
    let field: Value = t.get(name)?;
    T::from_lua(&field, battle)
        .map_err(|why| mlua::Error::runtime(format!("field `{name}`: {why}")))
}

/// The entity a payload is about, from the field that names it.
pub(crate) trait AsSubject {
    /// The entity, if any.
    fn as_subject(&self) -> Option<EntityId>;
}

impl AsSubject for EntityId {
    fn as_subject(&self) -> Option<EntityId> {
        Some(*self)
    }
}

impl AsSubject for Option<EntityId> {
    fn as_subject(&self) -> Option<EntityId> {
        *self
    }
}

/// Declares a chain payload from one list of fields (see the module docs):
///
/// ```ignore
/// payload! {
///     /// `heal`: hit points given back.
///     pub struct Heal about target {
///         /// Who is healed.
///         read target: EntityId,
///         /// How much.
///         write amount: f64,
///         /// HP actually restored.
///         result healed: f64,
///     }
/// }
/// ```
///
/// `about FIELD` names the entity the payload concerns (scoped registrations see only theirs);
/// `bypass FN` names a function telling whether the payload skips every modifier. The form
/// `payload! { impl Type { … } }` gives a type defined elsewhere its table form only.
macro_rules! payload {
    (
        $(#[$meta:meta])*
        pub struct $name:ident $(about $subject:ident)? $(bypass $bypass:path)? {
            $( $(#[$fmeta:meta])* $access:ident $field:ident : $ty:ty $(= $default:expr)? ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl $crate::chain::Subject<$crate::battle::EntityId> for $name {
            fn subject(&self) -> Option<$crate::battle::EntityId> {
                payload!(@subject self $($subject)?)
            }
            $(
                fn bypasses_modifiers(&self) -> bool {
                    $bypass(self)
                }
            )?
        }

        payload!(impl $name $(about $subject)? { $( $access $field : $ty $(= $default)? ),* });
    };
    (
        impl $name:ident $(about $subject:ident)?
        { $( $access:ident $field:ident : $ty:ty $(= $default:expr)? ),* $(,)? }
    ) => {
        impl $crate::battle::scripting::payload::LuaPayload for $name {
            $( const ABOUT: Option<&'static str> = Some(stringify!($subject)); )?
            const SHAPE: $crate::battle::scripting::payload::LuaShape =
                $crate::battle::scripting::payload::LuaShape::Table(&[
                    $( $crate::battle::scripting::payload::PayloadField {
                        name: stringify!($field),
                        access: payload!(@access $access),
                    }, )*
                ]);

            fn to_lua(
                &self,
                lua: &mlua::Lua,
                _: &$crate::battle::Battle,
            ) -> mlua::Result<mlua::Value> {
                use $crate::battle::scripting::payload::LuaField;
                let table = lua.create_table()?;
                $( table.set(stringify!($field), LuaField::to_lua(&self.$field, lua)?)?; )*
                Ok(mlua::Value::Table(table))
            }

            #[allow(unused_variables)]
            fn update_from_lua(
                &mut self,
                value: &mlua::Value,
                battle: &$crate::battle::Battle,
            ) -> mlua::Result<()> {
                $( payload!(@update $access self $field value battle); )*
                Ok(())
            }

            #[allow(unused_variables)]
            fn from_lua(
                value: &mlua::Value,
                battle: &$crate::battle::Battle,
            ) -> mlua::Result<Self> {
                Ok(Self {
                    $( $field: payload!(@from $access $field value battle $(= $default)?), )*
                })
            }
        }
    };
    (@access read) => { $crate::battle::scripting::payload::Access::Read };
    (@access write) => { $crate::battle::scripting::payload::Access::Write };
    (@access result) => { $crate::battle::scripting::payload::Access::Result };
    (@update write $this:ident $field:ident $value:ident $battle:ident) => {
        $this.$field =
            $crate::battle::scripting::payload::read_field($value, stringify!($field), $battle)?;
    };
    (@update $access:ident $this:ident $field:ident $value:ident $battle:ident) => {};
    (@from result $field:ident $value:ident $battle:ident = $default:expr) => { $default };
    (@from result $field:ident $value:ident $battle:ident) => { Default::default() };
    (@from $access:ident $field:ident $value:ident $battle:ident) => {
        $crate::battle::scripting::payload::read_field($value, stringify!($field), $battle)?
    };
    (@subject $this:ident) => { None };
    (@subject $this:ident $field:ident) => {
        $crate::battle::scripting::payload::AsSubject::as_subject(&$this.$field)
    };
}
pub(crate) use payload;

payload! {
    impl Cost {
        write materials: f64,
        write energy: f64,
    }
}

impl LuaPayload for EntityId {
    const SHAPE: LuaShape = LuaShape::Entity;
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        entity_to_lua(lua, *self)
    }
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self> {
        entity_from_lua(value, battle)
    }
}

impl LuaPayload for () {
    const SHAPE: LuaShape = LuaShape::Nil;
    fn to_lua(&self, _: &Lua, _: &Battle) -> mlua::Result<Value> {
        Ok(Value::Nil)
    }
    fn from_lua(_: &Value, _: &Battle) -> mlua::Result<Self> {
        Ok(())
    }
}

impl LuaPayload for f64 {
    const SHAPE: LuaShape = LuaShape::Number;
    fn to_lua(&self, _: &Lua, _: &Battle) -> mlua::Result<Value> {
        Ok(Value::Number(*self))
    }
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self> {
        <f64 as LuaField>::from_lua(value, battle).map_err(mlua::Error::runtime)
    }
}

impl LuaPayload for Vec<String> {
    const SHAPE: LuaShape = LuaShape::Strings;
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        Ok(Value::Table(
            lua.create_sequence_from(self.iter().map(String::as_str))?,
        ))
    }
    fn from_lua(value: &Value, _: &Battle) -> mlua::Result<Self> {
        match value {
            Value::Table(t) => t.sequence_values::<String>().collect(),
            other => Err(mlua::Error::runtime(format!(
                "expected a list of strings, got {}",
                other.type_name()
            ))),
        }
    }
}
