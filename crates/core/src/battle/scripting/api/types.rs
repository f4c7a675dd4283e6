//! The description of the script API that the runtime installs and the editor definitions are
//! written from (`scripting/defs.rs`): Lua types, the tables scripts see, and the functions of
//! each object with their parameters, results and docs.
//!
//! A function is declared once, with [`api_functions!`]: its Rust parameters and result give
//! its Lua types (through [`LuaTyped`]), so the definitions cannot say other than what the
//! runtime converts. Tables scripts receive or give are declared with [`record!`] (API values)
//! or `payload!` (chain payloads), which list their fields the same way.

use std::marker::PhantomData;

use mlua::{FromLua, Function, IntoLua, Lua, Value};

use crate::battle::chains::ChainKind;
use crate::battle::entity::{EntityKind, Stacking};
use crate::battle::state::Phase;
use crate::content::{AttackerId, BlueprintId, BlueprintKind, DamageType, Rarity, Size};
use crate::terrain::{Direction, ObstacleKind};

/// A Lua type, as the definitions name it.
#[derive(Clone, Copy, Debug)]
pub enum LuaType {
    /// Any value.
    Any,
    /// `nil`.
    Nil,
    /// `true` or `false`.
    Boolean,
    /// A number.
    Number,
    /// A whole number (a number to Luau, which has no integer type).
    Integer,
    /// A string.
    String,
    /// This one string.
    Literal(&'static str),
    /// One of these strings (a function, so an enum's words are read from the enum).
    Words(fn() -> Vec<&'static str>),
    /// An object of the API.
    Class(Class),
    /// A table with these fields, declared once by its name.
    Record(&'static Record),
    /// What a script gives for a record: its fields but those the game sets, each as a script
    /// may give it (an entity as a handle or `self`).
    Args(&'static Record),
    /// The type, or `nil`.
    Optional(&'static LuaType),
    /// An array of the type.
    List(&'static LuaType),
    /// Any of these.
    Union(&'static [LuaType]),
    /// A function taking these and returning those.
    Function(&'static [LuaType], &'static [LuaType]),
    /// The name of a chain. A function taking one is declared once per chain that fits the
    /// [`ChainPart`]s in its signature, with those parts resolved for that chain.
    Chain,
    /// A part of a signature that depends on the chain named by its [`LuaType::Chain`].
    OfChain(ChainPart),
}

/// An entity as a script may pass it: a handle or `self`.
pub const ENTITY_LIKE: LuaType = LuaType::Union(&[
    LuaType::Class(Class::Entity),
    LuaType::Class(Class::Instance),
]);

/// What of a chain a type stands for (see [`LuaType::OfChain`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainPart {
    /// A modifier of a command (gets the payload, returns `false` to cancel) or of a query
    /// (gets the value and the input, returns the new value or `nil`).
    Modifier,
    /// A reaction of a command or an event: gets the payload.
    Reaction,
    /// What `game:query` accepts as a query's input.
    QueryInput,
    /// A query's value.
    QueryValue,
    /// What `game:command` accepts as a command's payload.
    CommandPayload,
    /// What `game:command` returns: the final payload, or `nil` when cancelled.
    CommandResult,
    /// What `game:event` accepts as the payload of an event: only the events the calling mod
    /// declares have it (the game fires its own).
    EventPayload,
}

impl ChainPart {
    /// Whether a chain of `kind` has this part.
    pub fn fits(self, kind: ChainKind) -> bool {
        match self {
            ChainPart::Modifier => kind != ChainKind::Event,
            ChainPart::Reaction => kind != ChainKind::Query,
            ChainPart::QueryInput | ChainPart::QueryValue => kind == ChainKind::Query,
            ChainPart::CommandPayload | ChainPart::CommandResult => kind == ChainKind::Command,
            ChainPart::EventPayload => kind == ChainKind::Event,
        }
    }
}

/// An object scripts hold, whose functions they call with `:`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The global `game`.
    Game,
    /// The functions shared by entity handles and `self`.
    EntityBase,
    /// An entity handle.
    Entity,
    /// A behaviour script's `self`.
    Instance,
    /// What registering a callback or setting a timer returns.
    Registration,
    /// A table of a mod's storage (`game:storage()`).
    Storage,
}

impl Class {
    /// The name the definitions give it.
    pub fn name(self) -> &'static str {
        match self {
            Class::Game => "Game",
            Class::EntityBase => "EntityBase",
            Class::Entity => "Entity",
            Class::Instance => "Instance",
            Class::Registration => "Registration",
            Class::Storage => "Storage",
        }
    }
}

/// A table type scripts see: a chain payload, or a value an API function takes or gives.
#[derive(Clone, Copy, Debug)]
pub struct Record {
    /// The name the definitions give it (the Rust type's name).
    pub name: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// Its fields, in order.
    pub fields: &'static [TableField],
}

/// What scripts may do with a field of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Given by whoever runs the chain (or by the game); read-only to modifiers.
    Read,
    /// Given, and command modifiers may change it.
    Write,
    /// Set by the game's handler.
    Result,
}

/// A field of a table scripts see.
#[derive(Clone, Copy, Debug)]
pub struct TableField {
    /// Its key.
    pub name: &'static str,
    /// What it holds, in words.
    pub doc: &'static str,
    /// Its type as scripts read it.
    pub ty: LuaType,
    /// Its type as scripts may give it (an entity may be given as `self`).
    pub input: LuaType,
    /// What scripts may do with it.
    pub access: Access,
    /// The values a script may give it, for a number.
    pub domain: Option<crate::battle::payloads::Domain>,
}

impl TableField {
    /// A field scripts only read, of a record that is not a payload.
    pub const fn read(name: &'static str, doc: &'static str, ty: LuaType) -> TableField {
        TableField {
            name,
            doc,
            ty,
            input: ty,
            access: Access::Read,
            domain: None,
        }
    }
}

/// A parameter of an API function.
#[derive(Clone, Copy, Debug)]
pub struct Param {
    /// Its name, as the docs use it.
    pub name: &'static str,
    /// Its type.
    pub ty: LuaType,
}

/// A function scripts call on an object of the API: what the definitions declare, and how the
/// runtime makes it.
#[derive(Clone, Copy, Debug)]
pub struct ApiFunction {
    /// Its name.
    pub name: &'static str,
    /// What it does.
    pub doc: &'static str,
    /// Its parameters after the object it is called on.
    pub params: &'static [Param],
    /// What it returns, in order.
    pub returns: &'static [LuaType],
    /// Makes the function in a VM.
    pub(crate) make: fn(&Lua) -> mlua::Result<Function>,
}

/// A Rust type of the API as scripts see it.
pub(crate) trait LuaTyped {
    /// Its Lua type.
    const TYPE: LuaType;
}

/// What a function returns, as Lua types.
pub(crate) trait LuaReturns {
    /// The types of the values, in order.
    const TYPES: &'static [LuaType];
}

impl LuaReturns for () {
    const TYPES: &'static [LuaType] = &[];
}

impl<T: LuaTyped> LuaReturns for T {
    const TYPES: &'static [LuaType] = &[T::TYPE];
}

impl<A: LuaTyped, B: LuaTyped> LuaReturns for (A, B) {
    const TYPES: &'static [LuaType] = &[A::TYPE, B::TYPE];
}

macro_rules! typed {
    ($($ty:ty => $lua:expr),* $(,)?) => {
        $( impl LuaTyped for $ty { const TYPE: LuaType = $lua; } )*
    };
}

typed! {
    f64 => LuaType::Number,
    u8 => LuaType::Integer,
    i32 => LuaType::Integer,
    u32 => LuaType::Integer,
    u64 => LuaType::Integer,
    bool => LuaType::Boolean,
    String => LuaType::String,
    &str => LuaType::String,
}

impl<T: LuaTyped> LuaTyped for Option<T> {
    const TYPE: LuaType = LuaType::Optional(&T::TYPE);
}

impl<T: LuaTyped> LuaTyped for Vec<T> {
    const TYPE: LuaType = LuaType::List(&T::TYPE);
}

/// An enum scripts see as one of a few words.
pub(crate) trait Words: Sized + Copy + 'static {
    /// One value of each word, in order.
    const ALL: &'static [Self];
    /// The word scripts see.
    fn word(self) -> &'static str;
}

/// Every word of `T`, in order.
fn words<T: Words>() -> Vec<&'static str> {
    T::ALL.iter().map(|w| w.word()).collect()
}

/// A value of an enum, as scripts see it: its word.
pub(crate) struct Word<T>(pub T);

impl<T: Words> IntoLua for Word<T> {
    fn into_lua(self, lua: &Lua) -> mlua::Result<Value> {
        self.0.word().into_lua(lua)
    }
}

impl<T: Words> FromLua for Word<T> {
    fn from_lua(value: Value, lua: &Lua) -> mlua::Result<Self> {
        let text = String::from_lua(value, lua)?;
        T::ALL
            .iter()
            .find(|w| w.word() == text)
            .map(|&w| Word(w))
            .ok_or_else(|| {
                mlua::Error::runtime(format!("`{text}` is not {}", one_of(&words::<T>())))
            })
    }
}

impl<T: Words> LuaTyped for Word<T> {
    const TYPE: LuaType = LuaType::Words(words::<T>);
}

/// `a`, `b` or `c`, in words.
fn one_of(words: &[&str]) -> String {
    match words {
        [] => "anything".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// `Words` for fieldless enums with a `name()`: the match in `word` lists every variant, so a
/// new variant fails to compile until it is listed in `ALL` too.
macro_rules! words {
    ($($ty:ident { $($variant:ident),* $(,)? })*) => {$(
        impl Words for $ty {
            const ALL: &'static [$ty] = &[$($ty::$variant),*];
            fn word(self) -> &'static str {
                match self {
                    $($ty::$variant)|* => self.name(),
                }
            }
        }
    )*};
}

words! {
    Phase { Build, Wave, Won, Lost }
    Stacking { Refresh, Add, Replace }
    Size { Small, Large, Boss }
    BlueprintKind { Tower, Economic, Special, Ability }
    Rarity { Starter, Common, Rare, Legendary, Special }
    Direction { North, East, South, West }
    ObstacleKind { Large, Small, Fuel, Minerals }
    DamageType { Physical, Explosive, Energy, HpLoss }
}

impl Words for EntityKind {
    // One entity of each kind: only the word is read, so the ids are placeholders.
    const ALL: &'static [EntityKind] = &[
        EntityKind::Attacker(AttackerId(0)),
        EntityKind::Building(BlueprintId(0)),
        EntityKind::Ability(BlueprintId(0)),
    ];
    fn word(self) -> &'static str {
        match self {
            EntityKind::Attacker(_) | EntityKind::Building(_) | EntityKind::Ability(_) => {
                self.name()
            }
        }
    }
}

/// Declares a table type scripts receive from or give to an API function: the struct, its
/// [`Record`] (`RECORD`), its Lua type, and its conversion to a Lua table (`IntoLua`) or from
/// one (`FromLua`), field by field with each field's own conversion.
///
/// ```ignore
/// record! {
///     /// What `game:resources()` gives.
///     pub(crate) struct Resources: IntoLua {
///         /// Materials.
///         materials: f64,
///     }
/// }
/// ```
macro_rules! record {
    (
        $(#[doc = $doc:literal])*
        $vis:vis struct $name:ident: $conversion:ident {
            $( $(#[doc = $fdoc:literal])* $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[doc = $doc])*
        $vis struct $name {
            $( $(#[doc = $fdoc])* pub $field: $ty, )*
        }

        impl $name {
            /// The table's description.
            pub const RECORD: $crate::battle::scripting::api::types::Record =
                $crate::battle::scripting::api::types::Record {
                    name: stringify!($name),
                    doc: concat!($($doc, "\n"),*),
                    fields: &[$(
                        $crate::battle::scripting::api::types::TableField::read(
                            stringify!($field),
                            concat!($($fdoc, "\n"),*),
                            <$ty as $crate::battle::scripting::api::types::LuaTyped>::TYPE,
                        ),
                    )*],
                };
        }

        impl $crate::battle::scripting::api::types::LuaTyped for $name {
            const TYPE: $crate::battle::scripting::api::types::LuaType =
                $crate::battle::scripting::api::types::LuaType::Record(&$name::RECORD);
        }

        record!(@$conversion $name { $($field),* });
    };
    (@IntoLua $name:ident { $($field:ident),* }) => {
        impl mlua::IntoLua for $name {
            fn into_lua(self, lua: &mlua::Lua) -> mlua::Result<mlua::Value> {
                let table = lua.create_table()?;
                $( table.raw_set(stringify!($field), self.$field)?; )*
                Ok(mlua::Value::Table(table))
            }
        }
    };
    (@FromLua $name:ident { $($field:ident),* }) => {
        impl mlua::FromLua for $name {
            fn from_lua(value: mlua::Value, _: &mlua::Lua) -> mlua::Result<Self> {
                let mlua::Value::Table(table) = value else {
                    // The argument or field it is for is named by the caller.
                    return Err(mlua::Error::runtime(format!(
                        "expected a table, got {}",
                        rampart_lua::a_value_of(value.type_name())
                    )));
                };
                Ok($name {
                    $( $field: table.get(stringify!($field)).map_err(|e| {
                        mlua::Error::runtime(format!(
                            "field `{}`: {}",
                            stringify!($field),
                            $crate::battle::scripting::api::types::message(e)
                        ))
                    })?, )*
                })
            }
        }
    };
}
pub(crate) use record;

/// Declares the functions of one object of the API as a table of [`ApiFunction`]s. Each is
/// written once, as the Rust closure the runtime installs: the first parameter is the object it
/// is called on (`game`, or the entity), the others and the result are converted by their Rust
/// types, which also give their Lua types.
///
/// ```ignore
/// api_functions! {
///     /// The functions of `game`.
///     pub(super) const GAME = [
///         /// The current tick.
///         fn tick(lua, _: Value) -> u64 {
///             with_battle(lua, "game:tick", |b| Ok(b.tick()))
///         }
///     ];
/// }
/// ```
macro_rules! api_functions {
    (
        $(#[doc = $tdoc:literal])*
        $vis:vis const $table:ident = [
            $(
                $(#[doc = $doc:literal])*
                fn $name:ident($lua:ident, $this:tt: $this_ty:ty $(, $param:ident: $pty:ty)* $(,)?)
                    $(-> $ret:ty)? { $($body:tt)* }
            )*
        ];
    ) => {
        $(#[doc = $tdoc])*
        $vis const $table: &[$crate::battle::scripting::api::types::ApiFunction] = &[$(
            $crate::battle::scripting::api::types::ApiFunction {
                name: $crate::battle::scripting::api::types::lua_name(stringify!($name)),
                doc: concat!($($doc, "\n"),*),
                params: &[$(
                    $crate::battle::scripting::api::types::Param {
                        name: stringify!($param),
                        ty: <$pty as $crate::battle::scripting::api::types::LuaTyped>::TYPE,
                    },
                )*],
                returns: <api_functions!(@ret $($ret)?)
                    as $crate::battle::scripting::api::types::LuaReturns>::TYPES,
                make: {
                    fn make(lua: &mlua::Lua) -> mlua::Result<mlua::Function> {
                        struct Called;
                        impl $crate::battle::scripting::api::types::Signature for Called {
                            const OBJECT: &'static str = stringify!($table);
                            const NAME: &'static str = stringify!($name);
                            const PARAMS: &'static [&'static str] = &[$(stringify!($param)),*];
                        }
                        lua.create_function(
                            |$lua: &mlua::Lua,
                             $crate::battle::scripting::api::types::Args(($this, $($param,)*), _):
                                $crate::battle::scripting::api::types::Args<($this_ty, $($pty,)*), Called>|
                                -> mlua::Result<api_functions!(@ret $($ret)?)> {
                                    // Not every function reads the VM or each parameter;
                                    // their names are kept for the definitions.
                                    let _ = (&$lua, $(&$param,)*);
                                    $($body)*
                                },
                        )
                    }
                    make
                },
            },
        )*];
    };
    (@ret) => { () };
    (@ret $ret:ty) => { $ret };
}
pub(crate) use api_functions;

/// The names of an API function and its parameters, for the errors of converting its arguments.
pub(crate) trait Signature {
    /// The table of functions it is declared in (`GAME`, `ENTITY`, …).
    const OBJECT: &'static str;
    /// The function as declared.
    const NAME: &'static str;
    /// Its parameters after the object it is called on, as declared.
    const PARAMS: &'static [&'static str];
}

/// The arguments of an API function, converted as mlua converts a tuple; a failure names the
/// function as scripts call it and the parameter by name (mlua alone gives a position that
/// counts the object the method is called on, and no function).
pub(crate) struct Args<T, S>(pub T, pub PhantomData<S>);

impl<T, S: Signature> Args<T, S> {
    fn name(error: mlua::Error) -> mlua::Error {
        let mlua::Error::BadArgument { pos, cause, .. } = error else {
            return error;
        };
        let object = match S::OBJECT {
            "GAME" => "game",
            "INSTANCE" => "self",
            "ENTITY" => "entity",
            "REGISTRATION" => "registration",
            other => other,
        };
        let name = match pos.checked_sub(2) {
            None => "self",
            Some(i) => S::PARAMS.get(i).map_or("…", |p| lua_name(p)),
        };
        mlua::Error::BadArgument {
            to: Some(format!("{object}:{}", lua_name(S::NAME))),
            pos,
            name: Some(name.to_string()),
            cause,
        }
    }
}

impl<T: mlua::FromLuaMulti, S: Signature> mlua::FromLuaMulti for Args<T, S> {
    fn from_lua_multi(values: mlua::MultiValue, lua: &Lua) -> mlua::Result<Self> {
        T::from_lua_args(values, 1, None, lua)
            .map(|args| Args(args, PhantomData))
            .map_err(Self::name)
    }

    unsafe fn from_stack_args(
        nargs: i32,
        i: usize,
        to: Option<&str>,
        raw: &mlua::state::RawLua,
    ) -> mlua::Result<Self> {
        // SAFETY: passed on as mlua gave it, with its lock held and the arguments on the stack.
        unsafe { T::from_stack_args(nargs, i, to, raw) }
            .map(|args| Args(args, PhantomData))
            .map_err(Self::name)
    }
}

/// The name scripts use for a function declared as `name` (`r#type` is `type`).
pub(crate) const fn lua_name(name: &'static str) -> &'static str {
    match name.as_bytes() {
        [b'r', b'#', rest @ ..] => match std::str::from_utf8(rest) {
            Ok(name) => name,
            Err(_) => name,
        },
        _ => name,
    }
}

/// Puts `functions` into `table` by name.
pub(crate) fn install_functions(
    lua: &Lua,
    table: &mlua::Table,
    functions: &[ApiFunction],
) -> mlua::Result<()> {
    for f in functions {
        table.raw_set(f.name, (f.make)(lua)?)?;
    }
    Ok(())
}

/// The message of an API error, without mlua's prefix.
pub(crate) fn message(e: mlua::Error) -> String {
    match e {
        mlua::Error::RuntimeError(m) => m,
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_come_from_the_enums() {
        assert_eq!(words::<Phase>(), ["build", "wave", "won", "lost"]);
        assert_eq!(words::<EntityKind>(), ["attacker", "building", "ability"]);
        assert_eq!(words::<Stacking>(), ["refresh", "add", "replace"]);
    }

    #[test]
    fn a_word_scripts_give_is_checked() {
        let lua = Lua::new();
        let add =
            Word::<Stacking>::from_lua(Value::String(lua.create_string("add").unwrap()), &lua);
        assert_eq!(add.unwrap().0, Stacking::Add);
        let wrong =
            Word::<Stacking>::from_lua(Value::String(lua.create_string("ad").unwrap()), &lua);
        let message = wrong.err().unwrap().to_string();
        assert!(
            message.contains("`ad` is not refresh, add or replace"),
            "{message}"
        );
    }
}
