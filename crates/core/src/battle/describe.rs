//! What the info panel shows about a blueprint or an attacker right now: its description with the
//! values the queries give, so every modifier (a Radar's range bonus, a discount, an upgrade's
//! extra line) shows, compared with the unmodified content.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::core::{Battle, Qry};
use super::entity::{EntityId, EntityKind};
use super::payloads::StatOf;
use super::state::{BattleConfig, Start};
use crate::content::describe::{self, AttackerNow, BlueprintNow, Quality, RichText};
use crate::content::{Blueprint, BlueprintId, ContentDb, Cost};
use crate::rng::Seed;

/// A blueprint as the info panel and the collection show it now.
#[derive(Clone, Debug, PartialEq)]
pub struct BlueprintView {
    /// Its description with current values.
    pub text: RichText,
    /// What using it costs now.
    pub cost: Cost,
    /// How that cost compares with the blueprint's own (cheaper is better).
    pub cost_quality: Quality,
}

impl BlueprintView {
    /// The blueprint as its content describes it, nothing changed.
    pub fn unmodified(bp: &Blueprint) -> BlueprintView {
        BlueprintView {
            text: describe::blueprint(bp, &BlueprintNow::unmodified(bp)),
            cost: bp.cost,
            cost_quality: Quality::Unchanged,
        }
    }

    /// Blueprint `blueprint` (`mod:name`) as a battle would show it in the collection with
    /// `augments` (`mod:name`, in the order taken) on it: how cards away from a battle (a
    /// reward, a shop, an augment on offer) show augmented values. The values come from the
    /// stat queries of a battle of their own, so they are the ones a battle would use; an
    /// augment's script changes only placed buildings, so it shows in its description alone.
    /// `None` for an unknown blueprint.
    pub fn with_augments(
        content: &Arc<ContentDb>,
        blueprint: &str,
        augments: &[String],
    ) -> Option<BlueprintView> {
        let id = content.blueprint_id(blueprint)?;
        if augments.is_empty() {
            return Some(BlueprintView::unmodified(content.blueprint(id)));
        }
        let start = Start {
            augments: BTreeMap::from([(blueprint.to_string(), augments.to_vec())]),
            ..Start::new(Seed(0))
        };
        let mut battle = Battle::new(content.clone(), BattleConfig::from(start));
        Some(battle.describe_blueprint(id, None))
    }
}

impl Battle {
    /// Describes blueprint `blueprint` as it stands now: in the collection (`entity` none) or as
    /// the placed building or ability `entity`.
    ///
    /// Computing the values runs the query chains, Lua modifiers included, for display only: it
    /// leaves the battle as it was, and script errors meanwhile are neither logged nor counted.
    pub fn describe_blueprint(
        &mut self,
        blueprint: BlueprintId,
        entity: Option<EntityId>,
    ) -> BlueprintView {
        let bp = self.content().clone();
        let bp = bp.blueprint(blueprint);
        let stat = StatOf { blueprint, entity };
        let now = self.preview(|b| {
            // A stat the blueprint does not have stays absent, whatever modifiers say.
            let mut ask = |has: bool, chain: fn(&Battle) -> &Qry<StatOf, f64>| {
                has.then(|| b.query(chain, &stat))
            };
            BlueprintNow {
                range: ask(bp.range.is_some(), |b| &b.chains.range),
                radius: ask(bp.radius.is_some(), |b| &b.chains.radius),
                damage: ask(bp.damage.is_some(), |b| &b.chains.hit_damage),
                interval: ask(bp.interval.is_some(), |b| &b.chains.interval),
                delay: ask(bp.delay.is_some(), |b| &b.chains.delay),
                duration_ticks: ask(bp.duration_ticks.is_some(), |b| &b.chains.duration_ticks),
                duration_waves: ask(bp.duration_waves.is_some(), |b| &b.chains.duration_waves),
                fuel_production: ask(bp.fuel_production.is_some(), |b| &b.chains.fuel_production),
                material_production: ask(bp.material_production.is_some(), |b| {
                    &b.chains.material_production
                }),
                energy_production: ask(bp.energy_production.is_some(), |b| {
                    &b.chains.energy_production
                }),
                cooldown: b.query(|b| &b.chains.cooldown, &stat),
                starting_cooldown: b.query(|b| &b.chains.starting_cooldown, &stat),
                cost: b.query(|b| &b.chains.blueprint_cost, &stat),
                damage_type: bp.damage_type,
                descriptions: b.query(|b| &b.chains.descriptions, &stat),
            }
        });
        let base = bp.cost.materials + bp.cost.energy;
        let total = now.cost.materials + now.cost.energy;
        BlueprintView {
            text: describe::blueprint(bp, &now),
            cost: now.cost,
            cost_quality: describe::quality(total, base, describe::Better::Lower),
        }
    }

    /// Describes attacker `entity` as it is now (its hit points and current speed), or `None` if
    /// it is not a living attacker.
    pub fn describe_attacker(&mut self, entity: EntityId) -> Option<RichText> {
        let e = self.entity(entity)?;
        let EntityKind::Attacker(kind) = e.kind else {
            return None;
        };
        let (hp, max_hp) = (e.hp, e.max_hp);
        let speed = self.preview(|b| b.query(|b| &b.chains.speed, &entity));
        let content = self.content().clone();
        Some(describe::attacker(
            content.attacker(kind),
            &AttackerNow { hp, max_hp, speed },
        ))
    }
}
