//! Values that cross between Rust and scripts: entity handles, damage types, and the typed
//! wrappers API functions take and give.

use std::cell::RefCell;

use mlua::{
    AnyUserData, FromLua, Function, IntoLua, Lua, MetaMethod, Table, UserData, UserDataMethods,
    Value,
};
use slotmap::SecondaryMap;

use super::types::{ChainPart, Class, ENTITY_LIKE, LuaType, LuaTyped, TableField};
use crate::battle::core::Battle;
use crate::battle::entity::EntityId;
use crate::content::{DamageType, DamageTypes};

/// Values an API function takes or gives as mlua converts them, typed for the definitions.
macro_rules! typed_values {
    ($( $(#[doc = $doc:literal])* $name:ident($inner:ty) => $ty:expr; )*) => {$(
        $(#[doc = $doc])*
        pub(crate) struct $name(pub $inner);

        impl FromLua for $name {
            fn from_lua(value: Value, lua: &Lua) -> mlua::Result<Self> {
                <$inner>::from_lua(value, lua).map($name)
            }
        }

        impl IntoLua for $name {
            fn into_lua(self, lua: &Lua) -> mlua::Result<Value> {
                self.0.into_lua(lua)
            }
        }

        impl LuaTyped for $name {
            const TYPE: LuaType = $ty;
        }
    )*};
}

typed_values! {
    /// The name of a chain.
    ChainName(String) => LuaType::Chain;
    /// A modifier for the chain named beside it.
    Modifier(Function) => LuaType::OfChain(ChainPart::Modifier);
    /// A reaction for the chain named beside it.
    Reaction(Function) => LuaType::OfChain(ChainPart::Reaction);
    /// The input of the query named beside it.
    QueryInput(Value) => LuaType::OfChain(ChainPart::QueryInput);
    /// The value of the query named beside it.
    QueryValue(Value) => LuaType::OfChain(ChainPart::QueryValue);
    /// The payload of the command named beside it.
    CommandPayload(Value) => LuaType::OfChain(ChainPart::CommandPayload);
    /// The final payload of the command named beside it, or `nil`.
    CommandResult(Value) => LuaType::OfChain(ChainPart::CommandResult);
    /// The payload of the event named beside it, which the calling mod declared.
    EventPayload(Value) => LuaType::OfChain(ChainPart::EventPayload);
    /// A function called later with nothing.
    Callback(Function) => LuaType::Function(&[], &[]);
    /// An entity a script passes: a handle or `self` (checked where it is used, in the battle).
    EntityValue(Value) => ENTITY_LIKE;
    /// Where `game:spawn` puts an attacker: an entity, or the x of a point.
    SpawnAt(Value) => LuaType::Union(&[ENTITY_LIKE, LuaType::Number]);
    /// A value from the content's `params`.
    ParamValue(Value) => LuaType::Union(&[LuaType::Number, LuaType::String]);
}

/// An entity as a function gives it: its handle.
pub(crate) struct Handle(pub EntityId);

impl IntoLua for Handle {
    fn into_lua(self, lua: &Lua) -> mlua::Result<Value> {
        entity_to_lua(lua, self.0)
    }
}

impl LuaTyped for Handle {
    const TYPE: LuaType = LuaType::Class(Class::Entity);
}

/// The key of a handle's entity number (`handle.id`).
const ID: &str = "id";

/// The key of the handle in an instance table (`self.entity`).
pub(crate) const ENTITY: &str = "entity";

/// The fields of an entity handle.
pub(super) const HANDLE_FIELDS: &[TableField] = &[TableField::read(
    ID,
    "The entity's number, the same for as long as the battle lasts (`game:entity(id)` gives the handle back).",
    LuaType::Number,
)];

/// The fields of an instance table (`self`), besides those the script stores.
pub(super) const INSTANCE_FIELDS: &[TableField] = &[TableField::read(
    ENTITY,
    "The handle of the entity this instance belongs to.",
    LuaType::Class(Class::Entity),
)];

/// One argument of a call from the host into a script.
pub(crate) enum Arg {
    /// A value made beforehand.
    Value(Value),
    /// An entity, passed as its handle.
    Entity(EntityId),
}

/// The handles of one VM that the host has passed to its callbacks, kept on the Rust side: a
/// callback called about many entities (a global modifier) finds each entity's handle here
/// instead of in the VM's handle table, whose lookup by a numeric key cost more than the rest of
/// the call (about 250 of the call's 1 850 instructions). Holding a handle keeps it alive as long
/// as its entity's slot is not reused, which bounds the cache by the entities alive at once; the
/// handle is the one in the handle table, so scripts still see one handle per entity.
#[derive(Default)]
pub(crate) struct HandleCache(RefCell<SecondaryMap<EntityId, AnyUserData>>);

impl HandleCache {
    /// Makes sure the cache holds the handle of `id`.
    pub(crate) fn ensure(&self, lua: &Lua, id: EntityId) -> mlua::Result<()> {
        if self.0.borrow().contains_key(id) {
            return Ok(());
        }
        if let Value::UserData(handle) = entity_to_lua(lua, id)? {
            self.0.borrow_mut().insert(id, handle);
        }
        Ok(())
    }
}

/// The arguments of a call from the host into a script, pushed straight onto the VM's stack:
/// making a `Value` of each first takes several trips through mlua's registry references, which
/// cost more than the call. Every entity among them must be in `cache` ([`HandleCache::ensure`])
/// or be `known`.
pub(crate) struct CallArgs<'a, const N: usize> {
    pub cache: &'a HandleCache,
    /// An entity whose handle the caller holds already (a callback scoped to an entity is
    /// mostly called about that entity).
    pub known: Option<(EntityId, &'a AnyUserData)>,
    pub args: [Arg; N],
}

impl<const N: usize> mlua::IntoLuaMulti for CallArgs<'_, N> {
    fn into_lua_multi(self, lua: &Lua) -> mlua::Result<mlua::MultiValue> {
        self.args
            .into_iter()
            .map(|arg| match arg {
                Arg::Value(v) => Ok(v),
                Arg::Entity(id) => entity_to_lua(lua, id),
            })
            .collect()
    }

    unsafe fn push_into_stack_multi(self, raw: &mlua::state::RawLua) -> mlua::Result<i32> {
        // SAFETY: for the whole block, mlua calls this with its lock held, on the state's own
        // thread, before the call it prepares; the stack is checked for room first.
        unsafe {
            if mlua::ffi::lua_checkstack(raw.state(), N as i32) == 0 {
                return Err(mlua::Error::StackError);
            }
            let cached = self.cache.0.borrow();
            for arg in self.args {
                match (arg, self.known) {
                    (Arg::Value(v), _) => raw.push_value(&v)?,
                    (Arg::Entity(id), Some((known, handle))) if known == id => raw.push(handle)?,
                    (Arg::Entity(id), _) => match cached.get(id) {
                        Some(handle) => raw.push(handle)?,
                        None => {
                            return Err(mlua::Error::runtime(
                                "internal: an entity's handle was not prepared for the call",
                            ));
                        }
                    },
                }
            }
        }
        Ok(N as i32)
    }
}

/// What a script's callback returned first (`nil` for nothing), a number read straight off the
/// stack: the usual answer of a query modifier, which a `Value` would take longer to make.
pub(crate) struct Returned(pub Value);

impl mlua::FromLuaMulti for Returned {
    fn from_lua_multi(values: mlua::MultiValue, lua: &Lua) -> mlua::Result<Self> {
        Value::from_lua_multi(values, lua).map(Returned)
    }

    unsafe fn from_stack_multi(nvals: i32, raw: &mlua::state::RawLua) -> mlua::Result<Self> {
        use mlua::ffi;
        let state = raw.state();
        // SAFETY: mlua calls this with its lock held and `nvals` results on top of the stack.
        unsafe {
            if nvals > 0 && ffi::lua_type(state, -nvals) == ffi::LUA_TNUMBER {
                return Ok(Returned(Value::Number(ffi::lua_tonumber(state, -nvals))));
            }
            Value::from_stack_multi(nvals, raw).map(Returned)
        }
    }
}

/// The key of an entity's handle in the handle table.
fn handle_key(id: EntityId) -> f64 {
    id.to_bits() as f64
}

/// A handle to an entity, as scripts hold it. Handles of dead entities stay valid values;
/// `alive()` tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EntityRef(pub EntityId);

impl UserData for EntityRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Eq, |_, this, other: AnyUserData| {
            Ok(other
                .borrow::<EntityRef>()
                .map(|o| *o == *this)
                .unwrap_or(false))
        });
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| {
            Ok(format!("entity#{}", this.0.to_bits()))
        });
        methods.add_meta_function(
            MetaMethod::Index,
            |lua, (this, key): (AnyUserData, String)| -> mlua::Result<Value> {
                if key == ID {
                    let e = this.borrow::<EntityRef>()?;
                    return Ok(Value::Number(e.0.to_bits() as f64));
                }
                let api = tables(lua)?.entity_api.clone();
                api.raw_get(key)
            },
        );
    }
}

/// Tables the API needs on every call, kept in the VM's app data so that no lookup by name
/// (which allocates a string) is needed.
pub(crate) struct ApiTables {
    /// Functions shared by entity handles and instance tables.
    pub(crate) entity_api: Table,
    /// Functions of registrations.
    pub(crate) registration_api: Table,
    /// One handle per entity, weakly held.
    pub(crate) handles: Table,
    /// The window onto the mod's storage that `game:storage()` gives.
    pub(crate) storage_top: AnyUserData,
    /// The function that steps through storage tables.
    pub(crate) storage_next: Function,
}

/// The API's tables of the VM `lua`.
pub(crate) fn tables(lua: &Lua) -> mlua::Result<mlua::AppDataRef<'_, ApiTables>> {
    lua.app_data_ref::<ApiTables>()
        .ok_or_else(|| mlua::Error::runtime("the battle API is not installed in this VM"))
}

/// An entity passed to a function: a handle, or an instance table (`self`) holding one.
pub(super) struct EntityArg(pub(super) EntityId);

impl FromLua for EntityArg {
    fn from_lua(value: Value, _: &Lua) -> mlua::Result<Self> {
        entity_id_of(&value).map(EntityArg)
    }
}

/// The entity of a handle or of an instance table (`self`), alive or not.
pub(crate) fn entity_id_of(value: &Value) -> mlua::Result<EntityId> {
    match value {
        Value::UserData(ud) => Ok(ud.borrow::<EntityRef>()?.0),
        Value::Table(t) => {
            let handle: AnyUserData = t
                .raw_get(ENTITY)
                .map_err(|_| mlua::Error::runtime("expected an entity"))?;
            Ok(handle.borrow::<EntityRef>()?.0)
        }
        other => Err(mlua::Error::runtime(format!(
            "expected an entity, got {}",
            other.type_name()
        ))),
    }
}

/// The handle for `id`. Each VM keeps one handle per entity (in a weak table), so handles of
/// the same entity are the same value: scripts can compare them with `==` and use them as keys.
pub(crate) fn entity_to_lua(lua: &Lua, id: EntityId) -> mlua::Result<Value> {
    let handles = tables(lua)?.handles.clone();
    let key = handle_key(id);
    if let Value::UserData(ud) = handles.raw_get::<Value>(key)? {
        return Ok(Value::UserData(ud));
    }
    let ud = lua.create_userdata(EntityRef(id))?;
    handles.raw_set(key, &ud)?;
    Ok(Value::UserData(ud))
}

/// A handle for `id`, or `nil`.
pub(crate) fn opt_entity_to_lua(lua: &Lua, id: Option<EntityId>) -> mlua::Result<Value> {
    id.map_or(Ok(Value::Nil), |id| entity_to_lua(lua, id))
}

/// The entity a script passed; it must be alive.
pub(crate) fn entity_from_lua(value: &Value, battle: &Battle) -> mlua::Result<EntityId> {
    let id = entity_id_of(value)?;
    if battle.entity(id).is_none() {
        return Err(mlua::Error::runtime("that entity no longer exists"));
    }
    Ok(id)
}

/// Like [`entity_from_lua`], with `nil` meaning none.
pub(crate) fn opt_entity_from_lua(
    value: &Value,
    battle: &Battle,
) -> mlua::Result<Option<EntityId>> {
    match value {
        Value::Nil => Ok(None),
        v => entity_from_lua(v, battle).map(Some),
    }
}

/// Damage types as an array of names: `{"physical", "explosive"}`.
pub(crate) fn damage_types_to_lua(lua: &Lua, types: DamageTypes) -> mlua::Result<Value> {
    Ok(Value::Table(lua.create_sequence_from(
        types.iter().map(DamageType::name),
    )?))
}

/// Damage types from an array of names (or a single name).
pub(crate) fn damage_types_from_lua(value: &Value) -> mlua::Result<DamageTypes> {
    let parse = |v: Value| -> mlua::Result<DamageType> {
        let name = match &v {
            Value::String(s) => s.to_str()?.to_string(),
            other => {
                return Err(mlua::Error::runtime(format!(
                    "expected a damage type name, got {}",
                    other.type_name()
                )));
            }
        };
        DamageType::from_name(&name).ok_or_else(|| {
            mlua::Error::runtime(format!(
                "unknown damage type `{name}` (use physical, explosive, energy or hp_loss)"
            ))
        })
    };
    match value {
        Value::Table(t) => t.sequence_values::<Value>().map(|v| parse(v?)).collect(),
        Value::Nil => Ok(DamageTypes::NONE),
        other => Ok([parse(other.clone())?].into_iter().collect()),
    }
}
