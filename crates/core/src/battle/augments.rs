//! Augments in battle (`content::augments`): the engine's changes to augmented blueprints,
//! registered once when the battle starts as modifiers of the stat queries and of `damage`,
//! so every value a player sees or a rule uses goes through them. Their scripts, if any, are
//! attached to each entity by the script host like a blueprint's own.

use super::core::{Battle, Qry};
use super::entity::EntityKind;
use super::payloads::{Damage, StatOf};
use crate::chain::{Flow, Owner, Scope};
use crate::content::augments::Change;
use crate::content::{BlueprintId, Cost};

/// Where augments sit among modifiers: before content's (priority 0 and up), so a script's
/// "+5 range" adds to the augmented value.
const PRIORITY: i32 = -100;

/// Registers the changes of every augment named in the battle's `Start::augments`. Unknown
/// blueprints or augments are skipped: the run checked them when it set the level up.
pub(super) fn install(b: &mut Battle) {
    let content = b.content.clone();
    let start = b.config.start.augments.clone();
    for (blueprint, augments) in &start {
        let Some(bp) = content.blueprint_id(blueprint) else {
            continue;
        };
        for change in augments
            .iter()
            .filter_map(|id| content.augment(id))
            .flat_map(|a| a.changes.iter().copied())
        {
            register(b, bp, change);
        }
        // Each augment says what it does under the blueprint's own lines, so the info panel and
        // the cards show it (as added lines) whether its change is a number or a script.
        let lines: Vec<String> = augments
            .iter()
            .filter_map(|id| content.augment(id))
            .map(|a| format!("{}: {}", a.name, a.description))
            .collect();
        b.chains.descriptions.modify(
            Owner::Engine,
            Scope::Global,
            PRIORITY,
            Box::new(move |_: &mut Battle, s: &StatOf, d: &mut Vec<String>| {
                if s.blueprint == bp {
                    d.extend(lines.iter().cloned());
                }
            }),
        );
    }
}

/// The augmented blueprints' scripts to attach to entities of `bp`, in the order the augments
/// were taken.
pub(super) fn scripts(b: &Battle, bp: BlueprintId) -> Vec<crate::content::ScriptRef> {
    let content = &b.content;
    let id = &content.blueprint(bp).id;
    b.config
        .start
        .augments
        .get(id)
        .into_iter()
        .flatten()
        .filter_map(|a| content.augment(a)?.script_ref.clone())
        .collect()
}

fn register(b: &mut Battle, bp: BlueprintId, change: Change) {
    let scale = |chain: &mut Qry<StatOf, f64>, f: f64| {
        chain.modify(
            Owner::Engine,
            Scope::Global,
            PRIORITY,
            Box::new(move |_: &mut Battle, s: &StatOf, v: &mut f64| {
                if s.blueprint == bp {
                    *v *= f;
                }
            }),
        );
    };
    let c = &mut b.chains;
    match change {
        Change::Damage(f) => scale(&mut c.hit_damage, f),
        Change::Range(f) => scale(&mut c.range, f),
        Change::Radius(f) => scale(&mut c.radius, f),
        Change::Interval(f) => scale(&mut c.interval, f),
        Change::Cooldown(f) => scale(&mut c.cooldown, f),
        Change::Production(f) => {
            scale(&mut c.fuel_production, f);
            scale(&mut c.material_production, f);
            scale(&mut c.energy_production, f);
        }
        Change::Cost(f) => {
            c.blueprint_cost.modify(
                Owner::Engine,
                Scope::Global,
                PRIORITY,
                Box::new(move |_: &mut Battle, s: &StatOf, cost: &mut Cost| {
                    if s.blueprint == bp {
                        cost.materials *= f;
                        cost.energy *= f;
                    }
                }),
            );
        }
        Change::DamageType(t) => {
            let added = c.damage.modify(
                Owner::Engine,
                Scope::Global,
                PRIORITY,
                Box::new(move |b: &mut Battle, d: &mut Damage| {
                    let from_bp = d.source.and_then(|s| b.entity(s)).is_some_and(|e| {
                        matches!(e.kind, EntityKind::Building(x) | EntityKind::Ability(x) if x == bp)
                    });
                    if from_bp {
                        d.types.insert(t);
                    }
                    Flow::Continue
                }),
            );
            debug_assert!(added.is_ok(), "a negative priority is allowed for commands");
        }
    }
}
