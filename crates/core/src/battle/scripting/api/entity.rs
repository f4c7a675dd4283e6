//! Functions of entity handles (and of instance tables, which hold one).

use mlua::Value;

use super::call::{changing_battle, locate, query, with_battle};
use super::handles::{
    ChainName, EntityArg, EntityValue, Handle, ParamValue, QueryValue, entity_from_lua,
    entity_to_lua,
};
use super::types::{Word, api_functions, record};
use crate::battle::entity::{Effect, EntityKind, Lasting};
use crate::content::{Param, Size};
use rampart_lua::{Fault, ScriptErrorKind};

api_functions! {
    /// The functions shared by entity handles and instance tables (`self`). On the handle of an
    /// entity that is gone, `alive()` is `false` and the others give `nil`.
    pub(super) const ENTITY = [
        /// Whether the entity still exists.
        fn alive(lua, e: EntityArg) -> bool {
            with_battle(lua, "alive()", |b| Ok(b.entity(e.0).is_some()))
        }
        /// What the entity is.
        fn kind(lua, e: EntityArg) -> Option<Word<EntityKind>> {
            with_battle(lua, "kind()", |b| Ok(b.entity(e.0).map(|e| Word(e.kind))))
        }
        /// Its content id, e.g. `"core:blue_slime"`.
        fn r#type(lua, e: EntityArg) -> Option<String> {
            with_battle(lua, "type()", |b| {
                Ok(b.entity(e.0).map(|ent| match ent.kind {
                    EntityKind::Attacker(a) => b.content().attacker(a).id.clone(),
                    EntityKind::Building(bp) | EntityKind::Ability(bp) => {
                        b.content().blueprint(bp).id.clone()
                    }
                }))
            })
        }
        /// A value from its content's `params`: a number or a text (`nil` if it is not there).
        fn param(lua, e: EntityArg, name: String) -> Option<ParamValue> {
            with_battle(lua, "param()", |b| {
                let Some(kind) = b.entity(e.0).map(|e| e.kind) else {
                    return Ok(None);
                };
                let content = b.content();
                let params = match kind {
                    EntityKind::Attacker(a) => &content.attacker(a).params,
                    EntityKind::Building(bp) | EntityKind::Ability(bp) => {
                        &content.blueprint(bp).params
                    }
                };
                Ok(match params.get(&name) {
                    Some(Param::Number(n)) => Some(ParamValue(Value::Number(*n))),
                    Some(Param::Text(t)) => Some(ParamValue(Value::String(lua.create_string(t)?))),
                    None => None,
                })
            })
        }
        /// Its hit points.
        fn hp(lua, e: EntityArg) -> Option<f64> {
            with_battle(lua, "hp()", |b| Ok(b.entity(e.0).map(|e| e.hp)))
        }
        /// Its most hit points.
        fn max_hp(lua, e: EntityArg) -> Option<f64> {
            with_battle(lua, "max_hp()", |b| Ok(b.entity(e.0).map(|e| e.max_hp)))
        }
        /// Where it is: `x, y` in tiles.
        fn position(lua, e: EntityArg) -> (Option<f64>, Option<f64>) {
            with_battle(lua, "position()", |b| {
                Ok(b.entity(e.0).map(|e| (e.position.x, e.position.y)).unzip())
            })
        }
        /// A query about this entity, with every modifier applied.
        fn query(lua, e: EntityArg, chain: ChainName) -> QueryValue {
            let input = entity_to_lua(lua, e.0)?;
            query(lua, &chain.0, input).map(QueryValue)
        }
        /// The tile `x, y` of a building or ability (`nil` for attackers).
        fn tile(lua, e: EntityArg) -> (Option<i32>, Option<i32>) {
            with_battle(lua, "tile()", |b| {
                Ok(b.entity(e.0).and_then(|e| e.tile).map(|t| (t.x, t.y)).unzip())
            })
        }
        /// An attacker's size (`nil` for others).
        fn size(lua, e: EntityArg) -> Option<Word<Size>> {
            with_battle(lua, "size()", |b| {
                Ok(b.entity(e.0)
                    .and_then(|e| e.kind.attacker())
                    .map(|a| Word(b.content().attacker(a).size)))
            })
        }
        /// What a tower aims at now, or `nil`.
        fn target(lua, e: EntityArg) -> Option<Handle> {
            with_battle(lua, "target()", |b| {
                Ok(b.entity(e.0)
                    .and_then(|e| e.tower.as_ref())
                    .and_then(|t| t.aiming_at)
                    .filter(|t| b.entity(*t).is_some())
                    .map(Handle))
            })
        }
        /// Makes a tower aim at this attacker whenever it can hit it, before the one its
        /// priority would choose; its priority chooses while it cannot, and again once the
        /// attacker is dead or `nil` is given. Whether the entity is a tower (others have no
        /// target to set).
        fn set_target(lua, e: EntityArg, attacker: Option<EntityValue>) -> bool {
            changing_battle(lua, "set_target()", |b| {
                let target = match &attacker {
                    Some(a) => Some(entity_from_lua(&a.0, b).map_err(|err| locate(lua, err))?),
                    None => None,
                };
                if let Some(t) = target
                    && b.entity(t).and_then(|t| t.kind.attacker()).is_none()
                {
                    return Err(Fault::here(
                        lua,
                        ScriptErrorKind::Runtime,
                        "set_target(): towers aim at attackers; that entity is not one",
                    ));
                }
                Ok(b.set_focus(e.0, target))
            })
        }
        /// A building's rotation in quarter turns clockwise from north (0–3).
        fn rotation(lua, e: EntityArg) -> Option<u8> {
            with_battle(lua, "rotation()", |b| Ok(b.entity(e.0).map(|e| e.rotation)))
        }
        /// All the damage it has dealt so far.
        fn damage_dealt(lua, e: EntityArg) -> Option<f64> {
            with_battle(lua, "damage_dealt()", |b| {
                Ok(b.entity(e.0).map(|e| e.damage_dealt))
            })
        }
        /// The effect of that name on it, or `nil`.
        fn effect(lua, e: EntityArg, name: String) -> Option<EffectInfo> {
            with_battle(lua, "effect()", |b| Ok(b.effect(e.0, &name).map(EffectInfo::of)))
        }
        /// All its effects.
        fn effects(lua, e: EntityArg) -> Vec<EffectInfo> {
            with_battle(lua, "effects()", |b| {
                Ok(b.entity(e.0)
                    .map_or(&[][..], |e| &e.effects)
                    .iter()
                    .map(EffectInfo::of)
                    .collect())
            })
        }
    ];
}

record! {
    /// A status effect on an entity, from `entity:effect(name)` and `entity:effects()`.
    pub(super) struct EffectInfo: IntoLua {
        /// Its name.
        name: String,
        /// How strong it is.
        magnitude: f64,
        /// Ticks left, if it lasts ticks.
        ticks: Option<u32>,
        /// Waves left, if it lasts waves.
        waves: Option<u32>,
        /// Shots left, if it lasts a tower's shots.
        shots: Option<u32>,
        /// Who applied it, if anyone.
        source: Option<Handle>,
    }
}

impl EffectInfo {
    /// An effect as scripts see it.
    fn of(x: &Effect) -> EffectInfo {
        let (mut ticks, mut waves, mut shots) = (None, None, None);
        match x.lasting {
            Lasting::Ticks(n) => ticks = Some(n),
            Lasting::Waves(n) => waves = Some(n),
            Lasting::Shots(n) => shots = Some(n),
        }
        EffectInfo {
            name: x.name.clone(),
            magnitude: x.magnitude,
            ticks,
            waves,
            shots,
            source: x.source.map(Handle),
        }
    }
}
