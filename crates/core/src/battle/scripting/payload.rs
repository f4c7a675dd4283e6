//! Chain payloads as scripts see them: tables built from one list of fields per payload.
//!
//! The payloads' fields are listed once, in `payloads.rs`, each marked with what scripts may do
//! with it; that list makes the structs there and, through the [`payload!`] macro, their Lua
//! tables both ways here, and their [`Record`] (the field list with each field's Lua type and
//! doc) that `crates/core/tests/suite/docs.rs` holds against the payload
//! tables of `docs/modding/lua-api.md` and the editor definitions are written from:
//!
//! - `read`: given by whoever runs the chain; modifiers read it;
//! - `write`: given, and a command modifier may change it (✎ in the docs);
//! - `result`: set by the game's handler (a script running the chain leaves it out).
//!
//! A number field may add `where DOMAIN` (a [`Domain`]): what a script gives for it — a command
//! modifier's change, a payload passed to `game:command` — must lie in that domain, or it is
//! refused with a script error and the payload stays as it was. Queries declare the domain of
//! their value the same way, in the chain table of `chains.rs`.

use mlua::{Lua, Value};

use super::super::core::Battle;
use super::super::entity::EntityId;
use super::super::payloads::{
    Damage, EntityEvent, Gain, Heal, HullDamage, Signal, StatOf, Wave, with_payloads,
};
use super::api::handles::{
    Arg, damage_types_from_lua, damage_types_to_lua, entity_from_lua, entity_to_lua,
    opt_entity_from_lua, opt_entity_to_lua,
};
use super::api::types::{
    Access, Class, ENTITY_LIKE, LuaType, LuaTyped, Record, TableField, Word, message,
};
use crate::content::{Cost, DamageType, DamageTypes};

pub use super::super::payloads::Domain;

/// How a payload, a query's input or a query's value looks to a script.
#[derive(Clone, Copy, Debug)]
pub enum LuaShape {
    /// A table with these fields.
    Table(&'static Record),
    /// An entity handle.
    Entity,
    /// A number.
    Number,
    /// A whole number.
    Integer,
    /// A string.
    String,
    /// A boolean.
    Boolean,
    /// A list of strings.
    Strings,
    /// Nothing (`nil`).
    Nil,
}

impl LuaShape {
    /// The Lua type of what scripts receive.
    pub const fn lua_type(self) -> LuaType {
        match self {
            LuaShape::Table(record) => LuaType::Record(record),
            LuaShape::Entity => LuaType::Class(Class::Entity),
            LuaShape::Number => LuaType::Number,
            LuaShape::Integer => LuaType::Integer,
            LuaShape::String => LuaType::String,
            LuaShape::Boolean => LuaType::Boolean,
            LuaShape::Strings => LuaType::List(&LuaType::String),
            LuaShape::Nil => LuaType::Nil,
        }
    }

    /// The Lua type of what scripts may give for it: a table without the fields the game sets,
    /// an entity as a handle or `self`.
    pub const fn input_type(self) -> LuaType {
        match self {
            LuaShape::Table(record) => LuaType::Args(record),
            LuaShape::Entity => ENTITY_LIKE,
            other => other.lua_type(),
        }
    }
}

/// Converts chain payloads between Rust and the values scripts see.
pub(crate) trait LuaPayload: Sized + 'static {
    /// How scripts see it.
    const SHAPE: LuaShape;
    /// What a script may pass for it to `game:command` or `game:query` ([`LuaPayload::from_lua`]).
    const INPUT: LuaType = Self::SHAPE.input_type();
    /// The field naming the entity it is about, if any (what scoped registrations match).
    const ABOUT: Option<&'static str> = None;
    /// The table (or value) a script receives.
    fn to_lua(&self, lua: &Lua, battle: &Battle) -> mlua::Result<Value>;
    /// The same as an argument of a call into a script (an entity is pushed as its handle
    /// without making a `Value` of it).
    fn arg(&self, lua: &Lua, battle: &Battle) -> mlua::Result<Arg> {
        self.to_lua(lua, battle).map(Arg::Value)
    }
    /// Reads back what a command modifier may change. Payloads of queries and events never call it.
    fn update_from_lua(&mut self, _value: &Value, _battle: &Battle) -> mlua::Result<()> {
        Ok(())
    }
    /// Builds a payload from what a script passed to `game:command` or `game:query`.
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self>;
    /// Checks a query's value against the chain's domain; only numbers have one.
    fn check(&self, _domain: Option<Domain>) -> Result<(), String> {
        Ok(())
    }
}

/// A value that can be a field of a payload table.
pub(crate) trait LuaField: Sized {
    /// Its Lua type as scripts read it.
    const TYPE: LuaType;
    /// Its Lua type as scripts may give it ([`LuaField::from_lua`]).
    const INPUT: LuaType = Self::TYPE;
    /// The value scripts see.
    fn to_lua(&self, lua: &Lua) -> mlua::Result<Value>;
    /// Reads it back; the error says what was expected, in words for the modder.
    fn from_lua(value: &Value, battle: &Battle) -> Result<Self, String>;
    /// Checks it against the field's domain; only numbers have one.
    fn check(&self, _domain: Domain) -> Result<(), String> {
        Ok(())
    }
}

impl LuaField for f64 {
    const TYPE: LuaType = LuaType::Number;
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
    fn check(&self, domain: Domain) -> Result<(), String> {
        domain.check(*self)
    }
}

impl LuaField for u32 {
    const TYPE: LuaType = LuaType::Integer;
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

impl LuaField for bool {
    const TYPE: LuaType = LuaType::Boolean;
    fn to_lua(&self, _: &Lua) -> mlua::Result<Value> {
        Ok(Value::Boolean(*self))
    }
    fn from_lua(value: &Value, _: &Battle) -> Result<Self, String> {
        match value {
            Value::Boolean(b) => Ok(*b),
            other => Err(format!("expected true or false, got {}", other.type_name())),
        }
    }
}

impl LuaField for EntityId {
    const TYPE: LuaType = LuaType::Class(Class::Entity);
    const INPUT: LuaType = ENTITY_LIKE;
    fn to_lua(&self, lua: &Lua) -> mlua::Result<Value> {
        entity_to_lua(lua, *self)
    }
    fn from_lua(value: &Value, battle: &Battle) -> Result<Self, String> {
        entity_from_lua(value, battle).map_err(message)
    }
}

impl LuaField for Option<EntityId> {
    const TYPE: LuaType = LuaType::Optional(&<EntityId as LuaField>::TYPE);
    const INPUT: LuaType = LuaType::Optional(&ENTITY_LIKE);
    fn to_lua(&self, lua: &Lua) -> mlua::Result<Value> {
        opt_entity_to_lua(lua, *self)
    }
    fn from_lua(value: &Value, battle: &Battle) -> Result<Self, String> {
        opt_entity_from_lua(value, battle).map_err(message)
    }
}

impl LuaField for DamageTypes {
    const TYPE: LuaType = LuaType::List(&DAMAGE_TYPE);
    /// A list of names, one name, or `nil` for none. Plain strings: a type checker infers
    /// `{ "energy" }` in a payload as a list of strings, and the names are checked when given.
    const INPUT: LuaType = LuaType::Optional(&LuaType::Union(&[
        LuaType::List(&LuaType::String),
        LuaType::String,
    ]));
    fn to_lua(&self, lua: &Lua) -> mlua::Result<Value> {
        damage_types_to_lua(lua, *self)
    }
    fn from_lua(value: &Value, _: &Battle) -> Result<Self, String> {
        damage_types_from_lua(value).map_err(message)
    }
}

/// Field `name` of the table `value`, converted and checked against its domain.
pub(crate) fn read_field<T: LuaField>(
    value: &Value,
    name: &str,
    domain: Option<Domain>,
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
        .and_then(|v| domain.map_or(Ok(()), |d| v.check(d)).map(|()| v))
        .map_err(|why| {
            // A missing field is most often a misspelt one: name the key that was meant as it.
            let typo = field.is_nil().then(|| misspelt(t, name)).flatten();
            mlua::Error::runtime(match typo {
                Some(key) => {
                    format!("field `{name}`: {why} (the table has `{key}`: did you mean `{name}`?)")
                }
                None => format!("field `{name}`: {why}"),
            })
        })
}

/// A string key of `table` that looks like a misspelling of `name`, if there is one.
fn misspelt(table: &mlua::Table, name: &str) -> Option<String> {
    let keys: Vec<String> = table
        .pairs::<Value, Value>()
        .filter_map(|pair| match pair {
            Ok((Value::String(k), _)) => k.to_str().ok().map(|k| k.to_string()),
            _ => None,
        })
        .filter(|k| k != name)
        .collect();
    // Sorted, so that the message does not depend on the table's iteration order.
    let mut sorted: Vec<&str> = keys.iter().map(String::as_str).collect();
    sorted.sort_unstable();
    crate::diagnostics::closest(name, sorted).map(str::to_string)
}

/// Gives a type its table form from one list of fields (see the module docs):
///
/// ```ignore
/// payload! {
///     /// `heal`: hit points given back.
///     impl Heal about target {
///         /// Who is healed.
///         read target: EntityId,
///         /// How much.
///         write amount: f64 where NonNegative,
///         /// HP actually restored.
///         result healed: f64,
///     }
/// }
/// ```
///
/// `about FIELD` names the entity the payload concerns (scoped registrations see only theirs);
/// `where DOMAIN` after a number field's type names its [`Domain`]. The chains' payloads get
/// theirs from the field lists of `payloads.rs` ([`lua_payloads!`]).
macro_rules! payload {
    (
        $(#[doc = $doc:literal])*
        impl $name:ident $(about $subject:ident)?
        { $( $(#[doc = $fdoc:literal])* $access:ident $field:ident : $ty:ty
            $(where $domain:ident)? $(= $default:expr)? ),* $(,)? }
    ) => {
        impl $crate::battle::scripting::payload::LuaPayload for $name {
            $( const ABOUT: Option<&'static str> = Some(stringify!($subject)); )?
            const SHAPE: $crate::battle::scripting::payload::LuaShape =
                $crate::battle::scripting::payload::LuaShape::Table(
                    &$crate::battle::scripting::api::types::Record {
                        name: stringify!($name),
                        doc: concat!($($doc, "\n"),*),
                        fields: &[$( $crate::battle::scripting::api::types::TableField {
                            name: stringify!($field),
                            doc: concat!($($fdoc, "\n"),*),
                            ty: <$ty as $crate::battle::scripting::payload::LuaField>::TYPE,
                            input: <$ty as $crate::battle::scripting::payload::LuaField>::INPUT,
                            access: payload!(@access $access),
                            domain: payload!(@domain $($domain)?),
                        }, )*],
                    },
                );

            fn to_lua(
                &self,
                lua: &mlua::Lua,
                _: &$crate::battle::core::Battle,
            ) -> mlua::Result<mlua::Value> {
                use $crate::battle::scripting::payload::LuaField;
                let table = lua.create_table()?;
                $( table.set(stringify!($field), LuaField::to_lua(&self.$field, lua)?)?; )*
                Ok(mlua::Value::Table(table))
            }

            fn update_from_lua(
                &mut self,
                value: &mlua::Value,
                battle: &$crate::battle::core::Battle,
            ) -> mlua::Result<()> {
                // A payload without writable fields reads nothing and changes nothing.
                let _ = (value, battle);
                // All or nothing: a refused field leaves the payload as it was.
                let mut next = self.clone();
                let _ = &mut next;
                $( payload!(@update $access next $field value battle $($domain)?); )*
                *self = next;
                Ok(())
            }

            fn from_lua(
                value: &mlua::Value,
                battle: &$crate::battle::core::Battle,
            ) -> mlua::Result<Self> {
                // A payload without fields reads nothing.
                let _ = (value, battle);
                Ok(Self {
                    $( $field: payload!(@from $access $field value battle [$($domain)?] $(= $default)?), )*
                })
            }
        }
    };
    (@access read) => { $crate::battle::scripting::api::types::Access::Read };
    (@access write) => { $crate::battle::scripting::api::types::Access::Write };
    (@access result) => { $crate::battle::scripting::api::types::Access::Result };
    (@domain) => { None };
    (@domain $domain:ident) => { Some($crate::battle::scripting::payload::Domain::$domain) };
    (@update write $this:ident $field:ident $value:ident $battle:ident $($domain:ident)?) => {
        $this.$field = $crate::battle::scripting::payload::read_field(
            $value,
            stringify!($field),
            payload!(@domain $($domain)?),
            $battle,
        )?;
    };
    (@update $access:ident $this:ident $field:ident $value:ident $battle:ident $($domain:ident)?) => {};
    (@from result $field:ident $value:ident $battle:ident [$($domain:ident)?] = $default:expr) => { $default };
    (@from result $field:ident $value:ident $battle:ident [$($domain:ident)?]) => { Default::default() };
    (@from $access:ident $field:ident $value:ident $battle:ident [$($domain:ident)?]) => {
        $crate::battle::scripting::payload::read_field(
            $value,
            stringify!($field),
            payload!(@domain $($domain)?),
            $battle,
        )?
    };
}
pub(crate) use payload;

/// Gives every payload of `payloads.rs` its table form, from the field list declared there
/// (handed on whole to [`payload!`], which reads it).
macro_rules! lua_payloads {
    ($(
        $(#[doc = $doc:literal])*
        pub struct $name:ident $(about $subject:ident)? $(bypass $bypass:path)? { $($fields:tt)* }
    )*) => {$(
        payload! {
            $(#[doc = $doc])*
            impl $name $(about $subject)? { $($fields)* }
        }
    )*};
}

with_payloads!(lua_payloads);

impl LuaPayload for Signal {
    const SHAPE: LuaShape = LuaShape::Table(&Record {
        name: "Signal",
        doc: "An event of the whole battle, with nothing to carry.",
        fields: &[],
    });
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        Ok(Value::Table(lua.create_table()?))
    }
    fn from_lua(_: &Value, _: &Battle) -> mlua::Result<Self> {
        Ok(Signal)
    }
}

impl LuaPayload for StatOf {
    /// `{ blueprint = "mod:name", entity = <handle or nil> }`.
    const SHAPE: LuaShape = LuaShape::Table(&Record {
        name: "StatOf",
        doc: "The input of a blueprint statistic query.",
        fields: &[
            TableField {
                name: "blueprint",
                doc: "The blueprint's id, `\"mod:name\"`.",
                ty: LuaType::String,
                input: LuaType::String,
                access: Access::Read,
                domain: None,
            },
            TableField {
                name: "entity",
                doc: "The building or ability made from it, if placed.",
                ty: LuaType::Optional(&LuaType::Class(Class::Entity)),
                input: LuaType::Optional(&ENTITY_LIKE),
                access: Access::Read,
                domain: None,
            },
        ],
    });
    /// A blueprint id, a placed building or ability, or the table modifiers receive.
    const INPUT: LuaType = LuaType::Union(&[
        LuaType::String,
        ENTITY_LIKE,
        <StatOf as LuaPayload>::SHAPE.input_type(),
    ]);
    const ABOUT: Option<&'static str> = Some("entity");
    fn to_lua(&self, lua: &Lua, battle: &Battle) -> mlua::Result<Value> {
        let t = lua.create_table()?;
        t.set(
            "blueprint",
            battle.content().blueprint(self.blueprint).id.as_str(),
        )?;
        t.set("entity", opt_entity_to_lua(lua, self.entity)?)?;
        Ok(Value::Table(t))
    }
    /// A placed building or ability (its handle), a blueprint id (`"core:sniper"`), or a table
    /// as modifiers receive it.
    fn from_lua(value: &Value, battle: &Battle) -> mlua::Result<Self> {
        let blueprint_of = |id: &str| {
            battle
                .content()
                .blueprint_id(id)
                .ok_or_else(|| mlua::Error::runtime(format!("there is no blueprint `{id}`")))
        };
        match value {
            Value::String(s) => Ok(StatOf {
                blueprint: blueprint_of(&s.to_str()?)?,
                entity: None,
            }),
            Value::Table(t) if t.contains_key("blueprint")? => {
                let entity = opt_entity_from_lua(&t.get("entity")?, battle)?;
                let id: String = t.get("blueprint")?;
                Ok(StatOf {
                    blueprint: blueprint_of(&id)?,
                    entity,
                })
            }
            other => {
                let entity = entity_from_lua(other, battle)?;
                let blueprint = battle
                    .entity(entity)
                    .and_then(|e| e.kind.blueprint())
                    .ok_or_else(|| {
                        mlua::Error::runtime("expected a building, an ability or a blueprint id")
                    })?;
                Ok(StatOf {
                    blueprint,
                    entity: Some(entity),
                })
            }
        }
    }
}

payload! {
    /// What a blueprint costs to use: the value of the `blueprint_cost` query.
    impl Cost {
        /// Materials.
        write materials: f64 where NonNegative,
        /// Energy.
        write energy: f64 where NonNegative,
    }
}

/// A damage type's name, as payloads carry it.
const DAMAGE_TYPE: LuaType = <Word<DamageType> as LuaTyped>::TYPE;

impl LuaPayload for EntityId {
    const SHAPE: LuaShape = LuaShape::Entity;
    fn to_lua(&self, lua: &Lua, _: &Battle) -> mlua::Result<Value> {
        entity_to_lua(lua, *self)
    }
    fn arg(&self, _: &Lua, _: &Battle) -> mlua::Result<Arg> {
        Ok(Arg::Entity(*self))
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
    fn check(&self, domain: Option<Domain>) -> Result<(), String> {
        domain.map_or(Ok(()), |d| d.check(*self))
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
