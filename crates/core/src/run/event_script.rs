//! An event's optional script: when a choice is taken, its `outcomes(run, choice, outcomes)`
//! decides what happens instead of the choice's data. It runs in its mod's sandbox (a VM of its
//! own for the call: no clock, no files, the usual limits) with `math.random` drawing from the
//! event room's seed, so a run played again with the same choices gets the same outcomes.

use std::cell::RefCell;
use std::rc::Rc;

use mlua::{Lua, Table, Value, Variadic};

use crate::content::events::Outcome;
use crate::content::{ContentDb, Event, Rarity};
use crate::rng::Seed;
use rampart_lua::{Budget, Limits, Sandbox, ScriptError, ScriptErrorKind};

/// What a script sees of the run: `money`, `hull`, `max_hull`, `act`, `level`, `ascension` and
/// `collection` (a list of blueprint ids).
pub struct RunView<'a> {
    /// Money.
    pub money: u32,
    /// Hull now.
    pub hull: f64,
    /// The most hull the run can have.
    pub max_hull: f64,
    /// The act.
    pub act: u32,
    /// The next battle's level.
    pub level: u32,
    /// The ascension level.
    pub ascension: u32,
    /// The collection.
    pub collection: &'a [String],
}

/// The outcomes of taking choice `index` (0-based) of `event`: its script's answer, or the
/// choice's own `outcomes` when the event has no script or the script has no `outcomes`.
pub fn outcomes(
    content: &ContentDb,
    event: &Event,
    run: &RunView,
    index: usize,
    own: &[Outcome],
    seed: Seed,
) -> Result<Vec<Outcome>, ScriptError> {
    let Some(script) = &event.script_ref else {
        return Ok(own.to_vec());
    };
    let fail = |message: String| ScriptError {
        kind: ScriptErrorKind::Runtime,
        mod_id: script.mod_id.clone(),
        file: Some(script.path.clone()),
        line: None,
        message,
    };
    let Some(m) = content.mods.iter().find(|m| m.id == script.mod_id) else {
        return Err(fail("its mod is not loaded".into()));
    };
    let scripts = Rc::new(content.scripts_for(m));
    let rng = Rc::new(RefCell::new(seed.branch("script").rng()));
    let sandbox = Sandbox::new(scripts, Limits::default(), Budget::new(), |lua, globals| {
        let math: Table = globals.get("math")?;
        let rng = rng.clone();
        let random = lua.create_function(move |_, args: Variadic<f64>| {
            let mut rng = rng.borrow_mut();
            Ok(match args.as_slice() {
                [] => rng.unit(),
                [m] => rng.range_i64(1, (m.floor() as i64).max(1)) as f64,
                [m, n, ..] => {
                    let (l, h) = (m.floor() as i64, n.floor() as i64);
                    rng.range_i64(l.min(h), h.max(l)) as f64
                }
            })
        })?;
        math.raw_set("random", random)
    })
    .map_err(|e| ScriptError::from_lua(&script.mod_id, &e, None))?;
    let Value::Table(hooks) = sandbox.load_script(&script.path)? else {
        return Err(fail(
            "an event script must return a table (`return { outcomes = function(run, choice, outcomes) … end }`)"
                .into(),
        ));
    };
    let Ok(Value::Function(f)) = hooks.raw_get::<Value>("outcomes") else {
        return Ok(own.to_vec());
    };
    let lua = sandbox.lua();
    let args = (|| -> mlua::Result<_> {
        let view = lua.create_table()?;
        view.raw_set("money", run.money)?;
        view.raw_set("hull", run.hull)?;
        view.raw_set("max_hull", run.max_hull)?;
        view.raw_set("act", run.act)?;
        view.raw_set("level", run.level)?;
        view.raw_set("ascension", run.ascension)?;
        view.raw_set(
            "collection",
            lua.create_sequence_from(run.collection.iter().cloned())?,
        )?;
        let list = lua.create_sequence_from(
            own.iter()
                .map(|o| outcome_to_lua(lua, o))
                .collect::<mlua::Result<Vec<_>>>()?,
        )?;
        Ok((view, index + 1, list))
    })()
    .map_err(|e| ScriptError::from_lua(&script.mod_id, &e, Some((script.path.clone(), None))))?;
    let returned: Value = sandbox.call(&f, args)?;
    let Value::Table(list) = returned else {
        return Err(fail(format!(
            "`outcomes` must return a list of outcomes, not {}",
            returned.type_name()
        )));
    };
    list.sequence_values::<Value>()
        .enumerate()
        .map(|(i, v)| {
            v.ok()
                .and_then(|v| outcome_from_lua(content, &v))
                .ok_or_else(|| fail(format!("outcome {} is not one of {{ money = n }}, {{ hull = x }}, {{ blueprint = \"common\"|\"rare\"|\"legendary\"|\"special\" }}, {{ give_blueprint = \"mod:name\" }}, {{ lose_blueprint = true }}", i + 1)))
        })
        .collect()
}

fn outcome_to_lua(lua: &Lua, o: &Outcome) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    match o {
        Outcome::Money(m) => t.raw_set("money", *m)?,
        Outcome::Hull(h) => t.raw_set("hull", *h)?,
        Outcome::Blueprint(r) => t.raw_set("blueprint", r.name())?,
        Outcome::GiveBlueprint(id) => t.raw_set("give_blueprint", id.as_str())?,
        Outcome::LoseBlueprint => t.raw_set("lose_blueprint", true)?,
    }
    Ok(t)
}

/// An outcome table a script returned, if it is a valid one.
fn outcome_from_lua(content: &ContentDb, v: &Value) -> Option<Outcome> {
    let Value::Table(t) = v else { return None };
    let number = |key: &str| match t.raw_get::<Value>(key).ok()? {
        Value::Integer(i) => Some(i as f64),
        Value::Number(n) if n.is_finite() => Some(n),
        _ => None,
    };
    if let Some(m) = number("money") {
        return (m.abs() <= 1_000_000.0).then_some(Outcome::Money(m.round() as i32));
    }
    if let Some(h) = number("hull") {
        return (h.abs() <= 1000.0).then_some(Outcome::Hull(h));
    }
    if let Ok(rarity) = t.raw_get::<String>("blueprint") {
        let rarity = match rarity.as_str() {
            "common" => Rarity::Common,
            "rare" => Rarity::Rare,
            "legendary" => Rarity::Legendary,
            "special" => Rarity::Special,
            _ => return None,
        };
        return Some(Outcome::Blueprint(rarity));
    }
    if let Ok(id) = t.raw_get::<String>("give_blueprint") {
        return content
            .blueprint_id(&id)
            .is_some()
            .then_some(Outcome::GiveBlueprint(id));
    }
    (t.raw_get::<bool>("lose_blueprint").ok() == Some(true)).then_some(Outcome::LoseBlueprint)
}
