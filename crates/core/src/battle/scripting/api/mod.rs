//! What scripts see of a battle: the global `game` object, entity handles, and the tables that
//! carry chain payloads. Documented for modders in `docs/modding/lua-api.md`; every object and
//! its functions are described once ([`CLASSES`], [`types`]), and the runtime installs them
//! from that description.

mod call;
mod deprecated;
mod draw;
mod entity;
mod game;
pub(super) mod handles;
mod registration;
mod sound;
mod storage;
pub(super) mod types;

use mlua::{Lua, Table};

use call::register;
use registration::{REGISTRATION, Registration, RegistrationKind};

pub use deprecated::{DEPRECATED, Deprecated};
pub(crate) use handles::ENTITY;
use handles::{
    ApiTables, ChainName, EntityArg, HANDLE_FIELDS, INSTANCE_FIELDS, Modifier, Reaction,
};
pub(crate) use handles::{HandleCache, entity_to_lua, tables};
pub use types::{
    Access, ApiFunction, ChainPart, Class, ENTITY_LIKE, LuaType, Param, Record, TableField,
};
use types::{api_functions, install_functions};

/// An object of the API as the definitions declare it.
#[derive(Clone, Copy, Debug)]
pub struct ClassDef {
    /// Which object.
    pub class: Class,
    /// What it is.
    pub doc: &'static str,
    /// The object whose fields and functions it has too.
    pub extends: Option<Class>,
    /// Its fields.
    pub fields: &'static [TableField],
    /// Its functions, called with `:`.
    pub functions: &'static [ApiFunction],
    /// The keys scripts may index it with beyond its fields, to values of any type: `self`
    /// keeps fields of the script's own, a storage table the mod's data. `None` for objects
    /// that hold only what is declared.
    pub indexer: Option<LuaType>,
}

/// Every object scripts hold, with the functions the runtime installs on it.
pub const CLASSES: &[ClassDef] = &[
    ClassDef {
        class: Class::Game,
        doc: "The battle as scripts see it: the global `game`, also passed to every hook.",
        extends: None,
        fields: &[],
        functions: game::GAME,
        indexer: None,
    },
    ClassDef {
        class: Class::EntityBase,
        doc: "What entity handles and `self` have in common: the entity functions.",
        extends: None,
        fields: &[],
        functions: entity::ENTITY,
        indexer: None,
    },
    ClassDef {
        class: Class::Entity,
        doc: "An entity handle: one per entity, so handles compare with `==` and work as table keys. A handle of an entity that is gone stays valid.",
        extends: Some(Class::EntityBase),
        fields: HANDLE_FIELDS,
        functions: &[],
        indexer: None,
    },
    ClassDef {
        class: Class::Instance,
        doc: "`self` in a behaviour script: one per entity and script, for the script to keep what the entity needs to remember; the entity functions work on it directly.",
        extends: Some(Class::EntityBase),
        fields: INSTANCE_FIELDS,
        functions: INSTANCE,
        indexer: Some(LuaType::String),
    },
    ClassDef {
        class: Class::Registration,
        doc: "A callback on a chain or a timer, as registering or setting it returned it.",
        extends: None,
        fields: &[],
        functions: REGISTRATION,
        indexer: None,
    },
    ClassDef {
        class: Class::Storage,
        doc: "A table of the mod's storage, from `game:storage()` or read out of it: what the mod keeps from battle to battle of a run. It holds booleans, finite numbers, strings and tables of them, keyed by strings or whole numbers; iterate it with `for key, value in t do`.",
        extends: None,
        fields: &[],
        functions: &[],
        indexer: Some(STORAGE_KEYS),
    },
];

/// The keys of a storage table: strings and whole numbers.
const STORAGE_KEYS: LuaType = LuaType::Union(&[LuaType::String, LuaType::Integer]);

api_functions! {
    /// The functions of instance tables (`self` in hooks), on top of the entity functions.
    pub(super) const INSTANCE = [
        /// Registers a modifier that only runs for payloads about this entity (the target of
        /// `damage`, the attacker of `speed`, the source of `add_materials`…); it goes with the
        /// entity.
        fn modify(lua, this: EntityArg, chain: ChainName, priority: f64, modifier: Modifier) -> Registration {
            register(lua, RegistrationKind::Modify, Some(this.0), chain.0, priority, modifier.0)
        }
        /// Registers a reaction that only runs for payloads about this entity; it goes with the
        /// entity.
        fn react(lua, this: EntityArg, chain: ChainName, priority: f64, reaction: Reaction) -> Registration {
            register(lua, RegistrationKind::React, Some(this.0), chain.0, priority, reaction.0)
        }
    ];
}

/// The metatable of instance tables (`self` in hooks): their functions, then the entity
/// functions.
pub(crate) fn instance_meta(lua: &Lua) -> mlua::Result<Table> {
    let methods = lua.create_table()?;
    install_functions(lua, &methods, INSTANCE)?;
    let fallback = lua.create_table()?;
    fallback.raw_set("__index", tables(lua)?.entity_api.clone())?;
    methods.set_metatable(Some(fallback))?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", methods)?;
    Ok(meta)
}

/// Installs `game`, the entity functions and the battle's `math.random` into a sandbox.
pub(crate) fn install(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let handles = lua.create_table()?;
    let weak = lua.create_table()?;
    weak.raw_set("__mode", "v")?;
    handles.set_metatable(Some(weak))?;
    let entity_api = lua.create_table()?;
    install_functions(lua, &entity_api, entity::ENTITY)?;
    let registration_api = lua.create_table()?;
    install_functions(lua, &registration_api, REGISTRATION)?;
    let (storage_top, storage_next) = storage::objects(lua)?;
    lua.set_app_data(ApiTables {
        entity_api,
        registration_api,
        handles,
        storage_top,
        storage_next,
    });
    game::install(lua, globals)?;

    Ok(())
}
