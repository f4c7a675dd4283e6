//! The global `game` object and the battle's `math.random`.

use mlua::{Function, Lua, Table, Value, Variadic};

use glam::DVec2;

use super::deprecated;
use super::handles::{damage_types_to_lua, entity_from_lua, entity_to_lua};
use super::{changing_battle, locate, query, register, too_deep, with_battle};
use crate::battle::effects::BUILT_IN_EFFECTS;
use crate::battle::scripting::HostLink;
use crate::battle::scripting::register::RegistrationKind;
use crate::battle::{
    Barrier, Battle, Effect, EntityId, EntityKind, Lasting, MAX_ENTITIES, Phase, Stacking, chains,
};
use crate::diagnostics::{SIMILAR_LEGAL, did_you_mean_above};
use crate::lua::{Fault, ScriptError, ScriptErrorKind, caller_location};

/// Installs `game` and `math.random`.
pub(super) fn install(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let game = lua.create_table()?;
    game.raw_set(
        "modify",
        lua.create_function(
            |lua, (_, chain, priority, f): (Value, String, f64, Function)| {
                register(lua, RegistrationKind::Modify, None, chain, priority, f)
            },
        )?,
    )?;
    game.raw_set(
        "react",
        lua.create_function(
            |lua, (_, chain, priority, f): (Value, String, f64, Function)| {
                register(lua, RegistrationKind::React, None, chain, priority, f)
            },
        )?,
    )?;
    game.raw_set(
        "after",
        lua.create_function(|lua, (_, ticks, f): (Value, f64, Function)| {
            if ticks.fract() != 0.0 || !(1.0..=f64::from(u32::MAX)).contains(&ticks) {
                return Err(Fault::here(
                    lua,
                    ScriptErrorKind::Runtime,
                    format!("game:after: ticks must be a whole number of at least 1, not {ticks}"),
                ));
            }
            HostLink::get(lua)?
                .after(ticks as u64, f)
                .map_err(|message| Fault::here(lua, ScriptErrorKind::Runtime, message))
        })?,
    )?;
    game.raw_set(
        "query",
        lua.create_function(|lua, (_, name, input): (Value, String, Value)| {
            query(lua, &name, input)
        })?,
    )?;
    game.raw_set(
        "command",
        lua.create_function(|lua, (_, name, payload): (Value, String, Value)| {
            changing_battle(lua, "game:command", |b| {
                if !b.can_nest() {
                    return Err(too_deep(lua, &name));
                }
                chains::lua_command(b, lua, &name, &payload).map_err(|e| locate(lua, e))
            })
        })?,
    )?;
    game.raw_set(
        "tick",
        lua.create_function(|lua, _: Value| with_battle(lua, "game:tick", |b| Ok(b.tick())))?,
    )?;
    game.raw_set(
        "wave",
        lua.create_function(|lua, _: Value| with_battle(lua, "game:wave", |b| Ok(b.wave())))?,
    )?;
    game.raw_set(
        "phase",
        lua.create_function(|lua, _: Value| {
            with_battle(lua, "game:phase", |b| {
                Ok(match b.phase() {
                    Phase::Build => "build",
                    Phase::Wave => "wave",
                    Phase::Won => "won",
                    Phase::Lost => "lost",
                })
            })
        })?,
    )?;
    game.raw_set(
        "resources",
        lua.create_function(|lua, _: Value| {
            with_battle(lua, "game:resources", |b| {
                let p = b.player();
                let t = lua.create_table()?;
                t.set("materials", p.materials)?;
                t.set("energy", p.energy)?;
                t.set("fuel", p.fuel)?;
                t.set("fuel_goal", p.fuel_goal)?;
                t.set("hull", p.hull)?;
                Ok(t)
            })
        })?,
    )?;
    game.raw_set(
        "entities",
        lua.create_function(|lua, (_, kind): (Value, Option<String>)| {
            with_battle(lua, "game:entities", |b| {
                let ids: Vec<EntityId> = b
                    .entities()
                    .filter(|(_, e)| kind.as_deref().is_none_or(|k| e.kind.name() == k))
                    .map(|(id, _)| id)
                    .collect();
                entities_to_lua(lua, ids)
            })
        })?,
    )?;
    game.raw_set(
        "spawn",
        lua.create_function(
            |lua, (_, attacker, at, y): (Value, String, Value, Option<f64>)| {
                changing_battle(lua, "game:spawn", |b| {
                    let id = b.content().attacker_id(&attacker).ok_or_else(|| {
                        Fault::here(
                            lua,
                            ScriptErrorKind::Runtime,
                            format!("there is no attacker type `{attacker}`"),
                        )
                    })?;
                    if !b.can_nest() {
                        return Err(too_deep(lua, "attacker_spawned"));
                    }
                    // A point is checked before anything is made: it must be in the world.
                    let spawn_at = |b: &mut Battle, x: f64, y: f64| {
                        let at = b.spawn_point(x, y).map_err(|why| {
                            Fault::here(lua, ScriptErrorKind::Runtime, format!("game:spawn: {why}"))
                        })?;
                        Ok::<_, mlua::Error>(b.spawn_attacker(id, at))
                    };
                    if !b.room_for_attacker() {
                        return Err(Fault::here(
                            lua,
                            ScriptErrorKind::Runtime,
                            format!(
                                "game:spawn: the battle already holds {MAX_ENTITIES} attackers and buildings, the most it may"
                            ),
                        ));
                    }
                    let entity = match (&at, y) {
                        // Where another entity is, walking on from there if it walks a path.
                        (Value::UserData(_) | Value::Table(_), None) => {
                            let from = entity_from_lua(&at, b).map_err(|e| locate(lua, e))?;
                            let e = b.entity(from).expect("checked alive");
                            let (position, route) = (e.position, e.route);
                            b.spawn_attacker_at(id, position, route)
                        }
                        (Value::Number(x), Some(y)) => spawn_at(b, *x, y)?,
                        (Value::Integer(x), Some(y)) => spawn_at(b, *x as f64, y)?,
                        _ => {
                            return Err(Fault::here(
                                lua,
                                ScriptErrorKind::Runtime,
                                "game:spawn takes an attacker id and an entity, or x and y",
                            ));
                        }
                    };
                    entity_to_lua(lua, entity)
                })
            },
        )?,
    )?;
    game.raw_set(
        "remove",
        lua.create_function(|lua, (_, e): (Value, Value)| {
            changing_battle(lua, "game:remove", |b| {
                let id = entity_from_lua(&e, b).map_err(|e| locate(lua, e))?;
                if matches!(b.entity(id).map(|e| e.kind), Some(EntityKind::Attacker(_))) {
                    return Err(Fault::here(
                        lua,
                        ScriptErrorKind::Runtime,
                        "attackers leave the battle by dying or reaching the Hub; damage them instead",
                    ));
                }
                b.remove(id);
                Ok(())
            })
        })?,
    )?;
    game.raw_set(
        "attackers_near",
        lua.create_function(|lua, (_, x, y, radius): (Value, f64, f64, f64)| {
            let (center, radius) = area(lua, "game:attackers_near", x, y, radius)?;
            with_battle(lua, "game:attackers_near", |b| {
                entities_to_lua(lua, b.attackers_near(center, radius, None))
            })
        })?,
    )?;
    game.raw_set(
        "buildings_near",
        lua.create_function(|lua, (_, x, y, radius): (Value, f64, f64, f64)| {
            let (center, radius) = area(lua, "game:buildings_near", x, y, radius)?;
            with_battle(lua, "game:buildings_near", |b| {
                entities_to_lua(lua, b.buildings_near(center, radius))
            })
        })?,
    )?;
    game.raw_set(
        "building_at",
        lua.create_function(|lua, (_, x, y): (Value, f64, f64)| {
            let at = point(lua, "game:building_at", x, y)?;
            let tile = crate::worldgen::Pos::new(at.x.round() as i32, at.y.round() as i32);
            with_battle(lua, "game:building_at", |b| match b.building_at(tile) {
                Some(id) => entity_to_lua(lua, id),
                None => Ok(Value::Nil),
            })
        })?,
    )?;
    game.raw_set(
        "apply_effect",
        lua.create_function(
            |lua, (_, target, name, opts): (Value, Value, String, Option<Table>)| {
                changing_battle(lua, "game:apply_effect", |b| {
                    let target = entity_from_lua(&target, b).map_err(|e| locate(lua, e))?;
                    let (effect, stacking) = effect_from(lua, name, opts)?;
                    warn_if_misspelt(lua, b, &effect.name)?;
                    b.apply_effect(target, effect, stacking);
                    Ok(())
                })
            },
        )?,
    )?;
    game.raw_set(
        "remove_effect",
        lua.create_function(|lua, (_, target, name): (Value, Value, String)| {
            changing_battle(lua, "game:remove_effect", |b| {
                let target = entity_from_lua(&target, b).map_err(|e| locate(lua, e))?;
                warn_if_misspelt(lua, b, &name)?;
                b.remove_effect(target, &name);
                Ok(())
            })
        })?,
    )?;
    game.raw_set(
        "tile",
        lua.create_function(|lua, (_, x, y): (Value, f64, f64)| {
            with_battle(lua, "game:tile", |b| {
                let Some(field) = b.field().cloned() else {
                    return Ok(Value::Nil);
                };
                let world = field.world();
                let p = crate::worldgen::Pos::new(x.round() as i32, y.round() as i32);
                if !world.grid.contains(p) {
                    return Ok(Value::Nil);
                }
                let tile = world.tile(p);
                let t = lua.create_table()?;
                t.set("level", tile.level)?;
                t.set("height", field.ground(f64::from(p.x), f64::from(p.y)))?;
                t.set("slant", tile.slant.map(|d| d.name()))?;
                t.set("surface", tile.surface.to_string())?;
                t.set("water", world.blocked_surface[world.grid.index(p)])?;
                t.set("obstacle", world.obstacle(p).map(|o| o.kind.name()))?;
                t.set("path", field.on_path(p))?;
                Ok(Value::Table(t))
            })
        })?,
    )?;
    game.raw_set(
        "blueprint",
        lua.create_function(|lua, (_, id): (Value, String)| {
            with_battle(lua, "game:blueprint", |b| {
                let Some(bp) = b.content().blueprint_id(&id) else {
                    return Ok(Value::Nil);
                };
                let bp = b.content().blueprint(bp);
                let t = lua.create_table()?;
                t.set("id", bp.id.as_str())?;
                t.set("name", bp.name.as_str())?;
                t.set("kind", bp.kind.name())?;
                t.set("rarity", bp.rarity.name())?;
                t.set("damage_type", damage_types_to_lua(lua, bp.damage_type)?)?;
                Ok(Value::Table(t))
            })
        })?,
    )?;
    game.raw_set(
        "raise_barrier",
        lua.create_function(
            |lua, (_, x, y, radius, ticks): (Value, f64, f64, f64, u32)| {
                changing_battle(lua, "game:raise_barrier", |b| {
                    b.add_barrier(Barrier {
                        center: DVec2::new(x, y),
                        radius,
                        ticks_left: ticks,
                    });
                    Ok(())
                })
            },
        )?,
    )?;
    game.raw_set(
        "entity",
        lua.create_function(|lua, (_, bits): (Value, f64)| {
            entity_to_lua(lua, EntityId::from_bits(bits as u64))
        })?,
    )?;
    deprecated::install(lua, &game)?;
    globals.raw_set("game", game)?;

    let math: Table = globals.get("math")?;
    math.raw_set("random", lua.create_function(random)?)?;
    Ok(())
}

/// `math.random` drawing from the battle's generator for this mod, with Lua's usual forms:
/// `()` a float in [0, 1), `(m)` an integer in [1, m], `(m, n)` an integer in [m, n].
fn random(lua: &Lua, args: Variadic<f64>) -> mlua::Result<f64> {
    let mod_index = HostLink::get(lua)?.mod_index;
    let (low, high) = match args.as_slice() {
        [] => (None, None),
        [m] => (Some(1.0), Some(*m)),
        [m, n, ..] => (Some(*m), Some(*n)),
    };
    changing_battle(lua, "math.random", |b| {
        let rng = b
            .script_rng(mod_index)
            .ok_or_else(|| mlua::Error::runtime("no random generator for this mod"))?;
        match (low, high) {
            (Some(l), Some(h)) => {
                let (l, h) = (l.floor() as i64, h.floor() as i64);
                if l > h {
                    return Err(Fault::here(
                        lua,
                        ScriptErrorKind::Runtime,
                        format!("math.random: empty interval [{l}, {h}]"),
                    ));
                }
                Ok(rng.range_i64(l, h) as f64)
            }
            _ => Ok(rng.unit()),
        }
    })
}

/// A list of entity handles, in the order given.
fn entities_to_lua(lua: &Lua, ids: Vec<EntityId>) -> mlua::Result<Table> {
    let list = lua.create_table()?;
    for id in ids {
        list.raw_push(entity_to_lua(lua, id)?)?;
    }
    Ok(list)
}

/// A point a script names, which must be finite: NaN would silently match nothing and an
/// infinity everything, hiding the script's mistake.
fn point(lua: &Lua, function: &str, x: f64, y: f64) -> mlua::Result<DVec2> {
    if !(x.is_finite() && y.is_finite()) {
        return Err(Fault::here(
            lua,
            ScriptErrorKind::Runtime,
            format!("{function}: x and y must be finite numbers, not {x} and {y}"),
        ));
    }
    Ok(DVec2::new(x, y))
}

/// A circle a script names: a finite centre and a finite radius of at least 0.
fn area(lua: &Lua, function: &str, x: f64, y: f64, radius: f64) -> mlua::Result<(DVec2, f64)> {
    let center = point(lua, function, x, y)?;
    if !(radius.is_finite() && radius >= 0.0) {
        return Err(Fault::here(
            lua,
            ScriptErrorKind::Runtime,
            format!("{function}: the radius must be a finite number of at least 0, not {radius}"),
        ));
    }
    Ok((center, radius))
}

/// Warns, once per battle and place, about an effect name that is not built in but close to
/// one: most likely a typo, but a mod may name its own effects as it likes, so only a warning.
fn warn_if_misspelt(lua: &Lua, b: &Battle, name: &str) -> mlua::Result<()> {
    if BUILT_IN_EFFECTS.contains(&name) {
        return Ok(());
    }
    let Some(hint) = did_you_mean_above(name, BUILT_IN_EFFECTS, SIMILAR_LEGAL) else {
        return Ok(());
    };
    let link = HostLink::get(lua)?;
    let (file, line) = caller_location(lua).unzip();
    // Located and printed as script errors are, though nothing failed.
    let warning = ScriptError {
        mod_id: b.content.mods[link.mod_index].id.clone(),
        file,
        line,
        kind: ScriptErrorKind::Runtime,
        message: format!(
            "`{name}` is not a built-in effect; {hint} (an effect of the mod's own is fine: it \
             does what the mod's scripts make of it)"
        ),
    };
    let text = warning.to_string();
    link.shared.warn_once(text.clone(), text);
    Ok(())
}

/// An effect from `game:apply_effect`'s name and options (`ticks`, `waves` or `shots`,
/// `magnitude`, `stacking`).
fn effect_from(lua: &Lua, name: String, opts: Option<Table>) -> mlua::Result<(Effect, Stacking)> {
    let opts = match opts {
        Some(t) => t,
        None => lua.create_table()?,
    };
    let count = |key: &str| -> mlua::Result<Option<u32>> { opts.get(key) };
    let lasting = match (count("ticks")?, count("waves")?, count("shots")?) {
        (Some(n), None, None) => Lasting::Ticks(n),
        (None, Some(n), None) => Lasting::Waves(n),
        (None, None, Some(n)) => Lasting::Shots(n),
        _ => {
            return Err(Fault::here(
                lua,
                ScriptErrorKind::Runtime,
                "an effect lasts either `ticks`, `waves` or `shots` (give exactly one)",
            ));
        }
    };
    let stacking = match opts.get::<Option<String>>("stacking")?.as_deref() {
        None | Some("refresh") => Stacking::Refresh,
        Some("add") => Stacking::Add,
        Some("replace") => Stacking::Replace,
        Some(other) => {
            return Err(Fault::here(
                lua,
                ScriptErrorKind::Runtime,
                format!("stacking `{other}` is not refresh, add or replace"),
            ));
        }
    };
    let source = match opts.get::<Value>("source")? {
        Value::Nil => None,
        v => Some(super::handles::entity_id_of(&v)?),
    };
    let effect = Effect {
        name,
        lasting,
        magnitude: opts.get::<Option<f64>>("magnitude")?.unwrap_or(0.0),
        source,
        age: 0,
    };
    Ok((effect, stacking))
}
