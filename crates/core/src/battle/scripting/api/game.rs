//! The global `game` object and the battle's `math.random`.

use mlua::{Lua, Table, Value, Variadic};

use glam::DVec2;

use super::call::{changing_battle, locate, query, register, too_deep, with_battle};
use super::deprecated;
use super::draw::{self, Options};
use super::handles::{
    Callback, ChainName, CommandPayload, CommandResult, EntityValue, EventPayload, Handle,
    Modifier, QueryInput, QueryValue, Reaction, SpawnAt, entity_from_lua,
};
use super::registration::{Registration, RegistrationKind};
use super::sound;
use super::storage::Top;
use super::types::{Word, api_functions, install_functions, record};
use crate::battle::core::Battle;
use crate::battle::effects::BUILT_IN_EFFECTS;
use crate::battle::entity::{Effect, EntityId, EntityKind, Lasting, Stacking};
use crate::battle::scripting::chains;
use crate::battle::scripting::lend::HostLink;
use crate::battle::state::{Barrier, MAX_ENTITIES, Phase};
use crate::content::{BlueprintKind, DamageType, Rarity};
use crate::diagnostics::{SIMILAR_LEGAL, did_you_mean_above};
use crate::terrain::{Direction, ObstacleKind};
use rampart_lua::{Fault, ScriptErrorKind};

api_functions! {
    /// The functions of `game`, in the order the definitions list them.
    pub(super) const GAME = [
        /// Registers a modifier that sees every payload of a command or query. Called from a
        /// hook it belongs to that entity and goes with it; called while the script loads it
        /// belongs to the mod for the whole battle.
        fn modify(lua, _: Value, chain: ChainName, priority: f64, modifier: Modifier) -> Registration {
            register(lua, RegistrationKind::Modify, None, chain.0, priority, modifier.0)
        }
        /// Registers a reaction that sees every payload of a command or event (owned as for
        /// `modify`).
        fn react(lua, _: Value, chain: ChainName, priority: f64, reaction: Reaction) -> Registration {
            register(lua, RegistrationKind::React, None, chain.0, priority, reaction.0)
        }
        /// Calls `callback` once, `ticks` ticks from now (a whole number of at least 1), after
        /// that tick's `on_tick` hooks; cancelled with its owner, as a registration.
        fn after(lua, _: Value, ticks: f64, callback: Callback) -> Registration {
            if ticks.fract() != 0.0 || !(1.0..=f64::from(u32::MAX)).contains(&ticks) {
                return Err(Fault::here(
                    lua,
                    ScriptErrorKind::Runtime,
                    format!("game:after: ticks must be a whole number of at least 1, not {ticks}"),
                ));
            }
            HostLink::get(lua)?
                .after(ticks as u64, callback.0)
                .map_err(|message| Fault::here(lua, ScriptErrorKind::Runtime, message))
        }
        /// Computes a query with every modifier applied; a statistic's input may be a placed
        /// building or ability, or a blueprint id.
        fn query(lua, _: Value, chain: ChainName, input: QueryInput) -> QueryValue {
            query(lua, &chain.0, input.0).map(QueryValue)
        }
        /// Runs a command through its modifiers, the game and its reactions; gives the final
        /// payload, or `nil` if a modifier cancelled it.
        fn command(lua, _: Value, chain: ChainName, payload: CommandPayload) -> CommandResult {
            changing_battle(lua, "game:command", |b| {
                if !b.can_nest() {
                    return Err(too_deep(lua, &chain.0));
                }
                chains::lua_command(b, lua, &chain.0, &payload.0)
                    .map(CommandResult)
                    .map_err(|e| locate(lua, e))
            })
        }
        /// Fires an event this mod declared in its `chains.ron` (`"<mod>:<name>"`) with a
        /// payload of the declared fields: its reactions run in priority order, in every mod's
        /// VM that registered one.
        fn event(lua, _: Value, chain: ChainName, payload: EventPayload) {
            changing_battle(lua, "game:event", |b| {
                if !b.can_nest() {
                    return Err(too_deep(lua, &chain.0));
                }
                let user = HostLink::get(lua)?.mod_index;
                chains::lua_event(b, user, &chain.0, &payload.0)
                    .map_err(|message| Fault::here(lua, ScriptErrorKind::Runtime, message))
            })
        }
        /// The current tick (20 per second).
        fn tick(lua, _: Value) -> u64 {
            with_battle(lua, "game:tick", |b| Ok(b.tick()))
        }
        /// The number of the current or last wave.
        fn wave(lua, _: Value) -> u32 {
            with_battle(lua, "game:wave", |b| Ok(b.wave()))
        }
        /// Where the battle stands.
        fn phase(lua, _: Value) -> Word<Phase> {
            with_battle(lua, "game:phase", |b| Ok(Word(b.phase())))
        }
        /// The player's resources now.
        fn resources(lua, _: Value) -> Resources {
            with_battle(lua, "game:resources", |b| {
                let p = b.player();
                Ok(Resources {
                    materials: p.materials,
                    energy: p.energy,
                    fuel: p.fuel,
                    fuel_goal: p.fuel_goal,
                    hull: p.hull,
                })
            })
        }
        /// The entities in id order, only those of one kind (`"attacker"`, `"building"`,
        /// `"ability"`) if `kind` is given.
        fn entities(lua, _: Value, kind: Option<String>) -> Vec<Handle> {
            with_battle(lua, "game:entities", |b| {
                Ok(b.entities()
                    .filter(|(_, e)| kind.as_deref().is_none_or(|k| e.kind.name() == k))
                    .map(|(id, _)| Handle(id))
                    .collect())
            })
        }
        /// Brings a new attacker (`"mod:name"`) into the battle: where an entity is (walking on
        /// along its path, if it walks one), or at the point `at`, `y`.
        fn spawn(lua, _: Value, attacker: String, at: SpawnAt, y: Option<f64>) -> Handle {
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
                let entity = match (&at.0, y) {
                    // Where another entity is, walking on from there if it walks a path.
                    (Value::UserData(_) | Value::Table(_), None) => {
                        let from = entity_from_lua(&at.0, b).map_err(|e| locate(lua, e))?;
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
                Ok(Handle(entity))
            })
        }
        /// Removes a building or ability; attackers leave by dying or reaching the Hub.
        fn remove(lua, _: Value, entity: EntityValue) {
            changing_battle(lua, "game:remove", |b| {
                let id = entity_from_lua(&entity.0, b).map_err(|e| locate(lua, e))?;
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
        }
        /// The attackers within `radius` tiles of a point, nearest first.
        fn attackers_near(lua, _: Value, x: f64, y: f64, radius: f64) -> Vec<Handle> {
            let (center, radius) = area(lua, "game:attackers_near", x, y, radius)?;
            with_battle(lua, "game:attackers_near", |b| {
                Ok(handles(b.attackers_near(center, radius, None)))
            })
        }
        /// The buildings within `radius` tiles of a point, nearest first (equally far ones in
        /// id order).
        fn buildings_near(lua, _: Value, x: f64, y: f64, radius: f64) -> Vec<Handle> {
            let (center, radius) = area(lua, "game:buildings_near", x, y, radius)?;
            with_battle(lua, "game:buildings_near", |b| {
                Ok(handles(b.buildings_near(center, radius)))
            })
        }
        /// The building on the tile at a point, or `nil`.
        fn building_at(lua, _: Value, x: f64, y: f64) -> Option<Handle> {
            let at = point(lua, "game:building_at", x, y)?;
            let tile = crate::worldgen::Pos::new(at.x.round() as i32, at.y.round() as i32);
            with_battle(lua, "game:building_at", |b| Ok(b.building_at(tile).map(Handle)))
        }
        /// Puts a status effect on an attacker or building: how long it lasts (exactly one of
        /// `ticks`, `waves`, `shots`), its magnitude, how it stacks and its source.
        fn apply_effect(lua, _: Value, target: EntityValue, name: String, options: EffectOptions) {
            changing_battle(lua, "game:apply_effect", |b| {
                let target = entity_from_lua(&target.0, b).map_err(|e| locate(lua, e))?;
                let (effect, stacking) = effect_from(lua, name, options)?;
                warn_if_misspelt(lua, &effect.name)?;
                b.apply_effect(target, effect, stacking);
                Ok(())
            })
        }
        /// Takes a status effect off an attacker or building.
        fn remove_effect(lua, _: Value, target: EntityValue, name: String) {
            changing_battle(lua, "game:remove_effect", |b| {
                let target = entity_from_lua(&target.0, b).map_err(|e| locate(lua, e))?;
                warn_if_misspelt(lua, &name)?;
                b.remove_effect(target, &name);
                Ok(())
            })
        }
        /// What is at the tile nearest a point, or `nil` outside the world.
        fn tile(lua, _: Value, x: f64, y: f64) -> Option<Tile> {
            with_battle(lua, "game:tile", |b| {
                let Some(field) = b.field() else {
                    return Ok(None);
                };
                let world = field.world();
                let p = crate::worldgen::Pos::new(x.round() as i32, y.round() as i32);
                if !world.grid.contains(p) {
                    return Ok(None);
                }
                let tile = world.tile(p);
                Ok(Some(Tile {
                    level: tile.level,
                    height: field.ground(f64::from(p.x), f64::from(p.y)),
                    slant: tile.slant.map(Word),
                    surface: tile.surface.to_string(),
                    water: world.blocked_surface[world.grid.index(p)],
                    obstacle: world.obstacle(p).map(|o| Word(o.kind)),
                    path: field.on_path(p),
                }))
            })
        }
        /// What a blueprint (`"mod:name"`) is, or `nil` if there is none with that id.
        fn blueprint(lua, _: Value, id: String) -> Option<BlueprintInfo> {
            with_battle(lua, "game:blueprint", |b| {
                let Some(bp) = b.content().blueprint_id(&id) else {
                    return Ok(None);
                };
                let bp = b.content().blueprint(bp);
                Ok(Some(BlueprintInfo {
                    id: bp.id.clone(),
                    name: bp.name.clone(),
                    kind: Word(bp.kind),
                    rarity: Word(bp.rarity),
                    damage_type: bp.damage_type.iter().map(Word).collect(),
                }))
            })
        }
        /// Raises a barrier for `ticks` ticks: a circle that stops flying projectiles fired
        /// from outside it.
        fn raise_barrier(lua, _: Value, x: f64, y: f64, radius: f64, ticks: u32) {
            changing_battle(lua, "game:raise_barrier", |b| {
                b.add_barrier(Barrier {
                    center: DVec2::new(x, y),
                    radius,
                    ticks_left: ticks,
                });
                Ok(())
            })
        }
        /// Draws a line from (`x1`, `y1`) to (`x2`, `y2`) on the ground for the player to see,
        /// changing nothing in the battle. Options: `colour`, `ticks`, `alpha`, `width`.
        fn draw_line(lua, _: Value, x1: f64, y1: f64, x2: f64, y2: f64, options: Options) {
            draw::line(lua, (x1, y1), (x2, y2), options)
        }
        /// Draws a ring of `radius` tiles around (`x`, `y`) on the ground for the player to
        /// see, changing nothing in the battle. Options: `colour`, `ticks`, `alpha`, `width`.
        fn draw_ring(lua, _: Value, x: f64, y: f64, radius: f64, options: Options) {
            draw::ring(lua, (x, y), radius, options)
        }
        /// Shows a flash of light at (`x`, `y`) that grows and fades, changing nothing in the
        /// battle. Options: `colour`, `ticks`, `alpha`, `radius`.
        fn flash(lua, _: Value, x: f64, y: f64, options: Options) {
            draw::flash(lua, (x, y), options)
        }
        /// Plays a sound (`"name"` for one of the mod's own, `"mod:name"` for one of a mod it
        /// depends on) for the player to hear, at (`x`, `y`) or, without them, alike
        /// everywhere; changes nothing in the battle.
        fn sound(lua, _: Value, id: String, x: Option<f64>, y: Option<f64>) {
            sound::play(lua, id, x, y)
        }
        /// The handle of the entity with a number (`handle.id`).
        fn entity(lua, _: Value, id: f64) -> Handle {
            Ok(Handle(EntityId::from_bits(id as u64)))
        }
        /// The mod's storage: a table that lasts from battle to battle of a run and is saved
        /// with it, holding booleans, finite numbers, strings and tables of them (keys: strings
        /// or whole numbers), at most 64 KiB. Each mod has its own; outside a run it starts
        /// empty.
        fn storage(lua, _: Value) -> Top {
            Top::get(lua)
        }
    ];
}

record! {
    /// The player's resources, from `game:resources()`.
    pub(super) struct Resources: IntoLua {
        /// Materials, spent to build.
        materials: f64,
        /// Energy, spent on abilities.
        energy: f64,
        /// Fuel gathered toward the goal.
        fuel: f64,
        /// The fuel that wins the level.
        fuel_goal: f64,
        /// Hull left; at 0 the battle is lost.
        hull: f64,
    }
}

record! {
    /// What is at a tile, from `game:tile(x, y)`.
    pub(super) struct Tile: IntoLua {
        /// Its level, in half-tile steps.
        level: u8,
        /// The ground height at its centre, in tiles.
        height: f64,
        /// The way a ramp rises, or `nil` on flat ground.
        slant: Option<Word<Direction>>,
        /// The terrain letter.
        surface: String,
        /// Whether it is water.
        water: bool,
        /// The obstacle on it, if any.
        obstacle: Option<Word<ObstacleKind>>,
        /// Whether attackers walk it.
        path: bool,
    }
}

record! {
    /// What a blueprint is, from `game:blueprint(id)`.
    pub(super) struct BlueprintInfo: IntoLua {
        /// Its id, `"mod:name"`.
        id: String,
        /// Its name as the player sees it.
        name: String,
        /// What it makes.
        kind: Word<BlueprintKind>,
        /// How rare it is.
        rarity: Word<Rarity>,
        /// The types of its damage.
        damage_type: Vec<Word<DamageType>>,
    }
}

record! {
    /// The options of `game:apply_effect`: how long the effect lasts (exactly one of `ticks`,
    /// `waves` and `shots`), how strong it is and how it stacks.
    pub(super) struct EffectOptions: FromLua {
        /// Ticks it lasts.
        ticks: Option<u32>,
        /// Waves it lasts: it ends when that many waves have finished.
        waves: Option<u32>,
        /// A tower's shots it lasts.
        shots: Option<u32>,
        /// How strong it is (0 if not given).
        magnitude: Option<f64>,
        /// What happens when the target has it already: `"refresh"` (the default: the longer
        /// duration and the stronger magnitude), `"add"` or `"replace"`.
        stacking: Option<Word<Stacking>>,
        /// Who applied it.
        source: Option<EntityValue>,
    }
}

/// Installs `game` and `math.random`.
pub(super) fn install(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let game = lua.create_table()?;
    install_functions(lua, &game, GAME)?;
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

/// Handles of entities, in the order given.
fn handles(ids: Vec<EntityId>) -> Vec<Handle> {
    ids.into_iter().map(Handle).collect()
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
fn warn_if_misspelt(lua: &Lua, name: &str) -> mlua::Result<()> {
    if BUILT_IN_EFFECTS.contains(&name) {
        return Ok(());
    }
    let Some(hint) = did_you_mean_above(name, BUILT_IN_EFFECTS, SIMILAR_LEGAL) else {
        return Ok(());
    };
    let link = HostLink::get(lua)?;
    let text = link.warning(
        lua,
        format!(
            "`{name}` is not a built-in effect; {hint} (an effect of the mod's own is fine: it \
             does what the mod's scripts make of it)"
        ),
    );
    link.shared.warn_once(text.clone(), text);
    Ok(())
}

/// An effect from `game:apply_effect`'s name and options.
fn effect_from(
    lua: &Lua,
    name: String,
    options: EffectOptions,
) -> mlua::Result<(Effect, Stacking)> {
    let lasting = match (options.ticks, options.waves, options.shots) {
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
    let source = match options.source {
        None => None,
        Some(v) => Some(super::handles::entity_id_of(&v.0)?),
    };
    let effect = Effect {
        name,
        lasting,
        magnitude: options.magnitude.unwrap_or(0.0),
        source,
        age: 0,
    };
    Ok((
        effect,
        options.stacking.map_or(Stacking::default(), |s| s.0),
    ))
}
