//! Functions of entity handles (and of instance tables, which hold one).

use mlua::{Lua, Table, Value};

use super::handles::{EntityArg, entity_to_lua, opt_entity_to_lua};
use super::{query, with_battle};
use crate::battle::{Effect, EntityKind, Lasting};
use crate::content::Param;

/// Builds the entity functions shared by handles and instance tables.
pub(super) fn api(lua: &Lua) -> mlua::Result<Table> {
    let api = lua.create_table()?;
    api.raw_set(
        "alive",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "alive()", |b| Ok(b.entity(e.0).is_some()))
        })?,
    )?;
    api.raw_set(
        "kind",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "kind()", |b| Ok(b.entity(e.0).map(|e| e.kind.name())))
        })?,
    )?;
    api.raw_set(
        "type",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "type()", |b| {
                Ok(b.entity(e.0).map(|ent| match ent.kind {
                    EntityKind::Attacker(a) => b.content().attacker(a).id.clone(),
                    EntityKind::Building(bp) | EntityKind::Ability(bp) => {
                        b.content().blueprint(bp).id.clone()
                    }
                }))
            })
        })?,
    )?;
    api.raw_set(
        "param",
        lua.create_function(|lua, (e, name): (EntityArg, String)| {
            with_battle(lua, "param()", |b| {
                let Some(kind) = b.entity(e.0).map(|e| e.kind) else {
                    return Ok(Value::Nil);
                };
                let content = b.content();
                let params = match kind {
                    EntityKind::Attacker(a) => &content.attacker(a).params,
                    EntityKind::Building(bp) | EntityKind::Ability(bp) => {
                        &content.blueprint(bp).params
                    }
                };
                Ok(match params.get(&name) {
                    Some(Param::Number(n)) => Value::Number(*n),
                    Some(Param::Text(t)) => Value::String(lua.create_string(t)?),
                    None => Value::Nil,
                })
            })
        })?,
    )?;
    api.raw_set(
        "hp",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "hp()", |b| Ok(b.entity(e.0).map(|e| e.hp)))
        })?,
    )?;
    api.raw_set(
        "max_hp",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "max_hp()", |b| Ok(b.entity(e.0).map(|e| e.max_hp)))
        })?,
    )?;
    api.raw_set(
        "position",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "position()", |b| {
                Ok(match b.entity(e.0) {
                    Some(e) => (Value::Number(e.position.x), Value::Number(e.position.y)),
                    None => (Value::Nil, Value::Nil),
                })
            })
        })?,
    )?;
    api.raw_set(
        "query",
        lua.create_function(|lua, (e, name): (EntityArg, String)| {
            let input = entity_to_lua(lua, e.0)?;
            query(lua, &name, input)
        })?,
    )?;
    api.raw_set(
        "tile",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "tile()", |b| {
                Ok(match b.entity(e.0).and_then(|e| e.tile) {
                    Some(t) => (Value::Integer(t.x.into()), Value::Integer(t.y.into())),
                    None => (Value::Nil, Value::Nil),
                })
            })
        })?,
    )?;
    api.raw_set(
        "size",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "size()", |b| {
                Ok(b.entity(e.0)
                    .and_then(|e| e.kind.attacker())
                    .map(|a| b.content().attacker(a).size.name()))
            })
        })?,
    )?;
    api.raw_set(
        "target",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "target()", |b| {
                let target = b
                    .entity(e.0)
                    .and_then(|e| e.tower.as_ref())
                    .and_then(|t| t.aiming_at)
                    .filter(|t| b.entity(*t).is_some());
                opt_entity_to_lua(lua, target)
            })
        })?,
    )?;
    api.raw_set(
        "rotation",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "rotation()", |b| Ok(b.entity(e.0).map(|e| e.rotation)))
        })?,
    )?;
    api.raw_set(
        "damage_dealt",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "damage_dealt()", |b| {
                Ok(b.entity(e.0).map(|e| e.damage_dealt))
            })
        })?,
    )?;
    api.raw_set(
        "effect",
        lua.create_function(|lua, (e, name): (EntityArg, String)| {
            with_battle(lua, "effect()", |b| match b.effect(e.0, &name) {
                Some(x) => Ok(Value::Table(effect_table(lua, x)?)),
                None => Ok(Value::Nil),
            })
        })?,
    )?;
    api.raw_set(
        "effects",
        lua.create_function(|lua, e: EntityArg| {
            with_battle(lua, "effects()", |b| {
                let list = lua.create_table()?;
                for x in b.entity(e.0).map_or(&[][..], |e| &e.effects) {
                    list.raw_push(effect_table(lua, x)?)?;
                }
                Ok(list)
            })
        })?,
    )?;
    Ok(api)
}

/// An effect as scripts see it: `{ name, magnitude, ticks | waves | shots, source }`.
fn effect_table(lua: &Lua, x: &Effect) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.set("name", x.name.as_str())?;
    t.set("magnitude", x.magnitude)?;
    match x.lasting {
        Lasting::Ticks(n) => t.set("ticks", n)?,
        Lasting::Waves(n) => t.set("waves", n)?,
        Lasting::Shots(n) => t.set("shots", n)?,
    }
    t.set("source", opt_entity_to_lua(lua, x.source)?)?;
    Ok(t)
}
