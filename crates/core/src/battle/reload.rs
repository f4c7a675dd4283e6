//! Changing a battle's world or content between waves, for hot reload while playing: a modder
//! saves a terrain file and the level's world is generated again under the same paths, or saves
//! a blueprint, an attacker type or a script and the battle continues with the new content.
//!
//! Both only happen in the build phase, so no wave is ever interrupted. Buildings that can no
//! longer stand where they are go back to the player, who gets their cost back. Everything else
//! — resources, hull, wave number, cooldowns, the random generators — carries over. A battle
//! changed this way no longer follows from its level setup and commands alone, so its record
//! cannot be replayed (see `docs/client.md`).

use std::sync::Arc;

use super::core::Battle;
use super::entity::{EntityId, EntityKind};
use super::field::Field;
use super::payloads::StatOf;
use super::state::Phase;
use crate::content::{BlueprintId, ContentDb, Cost};
use crate::worldgen::{Pos, World};

/// A building taken down by a reload, its cost given back.
#[derive(Clone, Debug, PartialEq)]
pub struct Refund {
    /// The blueprint's name.
    pub name: String,
    /// The tile it stood on.
    pub tile: Option<Pos>,
    /// What the player got back.
    pub cost: Cost,
    /// Why it had to go.
    pub reason: String,
}

impl Battle {
    /// Puts the battle on `world`, which must have the same grid, hub and path network (see
    /// [`crate::worldgen::regenerate_terrain`]). Only between waves. Buildings whose tile no
    /// longer allows them are removed and refunded.
    pub fn replace_world(&mut self, world: Arc<World>) -> Result<Vec<Refund>, String> {
        self.require_build_phase()?;
        let old = self
            .field
            .as_ref()
            .ok_or("this battle has no world to replace")?
            .world();
        if old.grid != world.grid || old.hub != world.hub || old.network != world.network {
            return Err("the new world's paths differ from the battle's".into());
        }
        self.field = Some(Arc::new(Field::new(world.clone())));
        self.config.world = Some(world);
        // Where towers can hit depends on the ground; it is worked out again when next needed.
        self.coverage.clear();
        let buildings: Vec<(EntityId, BlueprintId, Pos)> = self
            .state
            .entities
            .iter()
            .filter_map(|(id, e)| match (e.kind, e.tile) {
                (EntityKind::Building(bp), Some(tile)) => Some((id, bp, tile)),
                _ => None,
            })
            .collect();
        let mut refunds = Vec::new();
        for (id, blueprint, tile) in buildings {
            let bp = self.content.blueprint(blueprint);
            if bp.placed_by_game() {
                continue;
            }
            let placement = bp.placement();
            if let Err(reason) = self.check_ground(blueprint, &placement, tile) {
                let cost = self.preview(|b| {
                    b.query(
                        |b| &b.chains.blueprint_cost,
                        &StatOf {
                            blueprint,
                            entity: Some(id),
                        },
                    )
                });
                self.remove(id);
                refunds.push(self.give_back(blueprint, Some(tile), cost, reason));
            }
        }
        Ok(refunds)
    }

    /// Continues the battle with `content`: the rules and every mod's scripts start afresh, and
    /// every building and ability is set up again in id order (its script attached, its
    /// placement event fired, its `on_placed` hook run) so that what it registers is registered
    /// under the new content; a tower keeps its priority. Only between waves. Things whose
    /// blueprint or attacker type is gone are removed; buildings among them are refunded at
    /// their old base cost.
    pub fn reload_content(&mut self, content: Arc<ContentDb>) -> Result<Vec<Refund>, String> {
        self.require_build_phase()?;
        let old = self.content.clone();
        let mut state = self.state.clone();
        let mut refunds = Vec::new();
        // Content ids are indices; things are matched by their `mod:name`.
        let ids: Vec<EntityId> = state.entities.keys().collect();
        for id in ids {
            let e = &mut state.entities[id];
            let renamed = match e.kind {
                EntityKind::Attacker(a) => content
                    .attacker_id(&old.attacker(a).id)
                    .map(EntityKind::Attacker),
                EntityKind::Building(b) => content
                    .blueprint_id(&old.blueprint(b).id)
                    .map(EntityKind::Building),
                EntityKind::Ability(b) => content
                    .blueprint_id(&old.blueprint(b).id)
                    .map(EntityKind::Ability),
            };
            match renamed {
                Some(kind) => e.kind = kind,
                None => {
                    let (kind, tile) = (e.kind, e.tile);
                    state.entities.remove(id);
                    if let EntityKind::Building(b) = kind {
                        let bp = old.blueprint(b);
                        refunds.push(Refund {
                            name: bp.name.clone(),
                            tile,
                            cost: bp.cost,
                            reason: format!("the {} blueprint is no longer loaded", bp.name),
                        });
                    }
                }
            }
        }
        state.cooldowns = state
            .cooldowns
            .iter()
            .filter_map(|(b, waves)| Some((content.blueprint_id(&old.blueprint(*b).id)?, *waves)))
            .collect();
        let same_mods = old.mods.len() == content.mods.len()
            && old
                .mods
                .iter()
                .zip(&content.mods)
                .all(|(a, b)| a.id == b.id);

        // A new battle brings the new rules and scripts; the Hub is already in the state.
        let mut config = self.config.clone();
        let hub = config.start.hub.take();
        let mut fresh = Battle::new(content, config);
        fresh.time_scripts(self.timing_scripts);
        fresh.config.start.hub = hub;
        fresh.field = self.field.clone();
        if !same_mods {
            state.script_rngs = fresh.state.script_rngs.clone();
        }
        fresh.state = state.clone();
        let entities: Vec<(EntityId, EntityKind)> = fresh
            .state
            .entities
            .iter()
            .map(|(id, e)| (id, e.kind))
            .collect();
        for (id, kind) in entities {
            match kind {
                EntityKind::Attacker(_) => {
                    if let Some(host) = fresh.scripts.clone() {
                        host.attach(&mut fresh, id);
                    }
                }
                EntityKind::Building(b) | EntityKind::Ability(b) => {
                    let tower = fresh.state.entities.get(id).and_then(|e| e.tower.clone());
                    fresh.finish_placing(id, fresh.content.blueprint(b).kind);
                    if let (Some(kept), Some(e)) = (tower, fresh.state.entities.get_mut(id))
                        && e.tower.is_some()
                    {
                        e.tower = Some(kept);
                    }
                }
            }
        }
        // Setting things up again is not playing: resources, cooldowns and generators stay as
        // they were; only the entities keep what their setup did to them.
        let entities = std::mem::take(&mut fresh.state.entities);
        fresh.state = state;
        fresh.state.entities = entities;
        fresh.queue = std::mem::take(&mut self.queue);
        fresh.history = std::mem::take(&mut self.history);
        fresh.checkpoints = std::mem::take(&mut self.checkpoints);
        let mut log = std::mem::take(&mut self.log);
        log.append(&mut fresh.log);
        fresh.log = log;
        let mut errors = std::mem::take(&mut self.script_errors);
        errors.append(std::mem::take(&mut fresh.script_errors));
        fresh.script_errors = errors;
        // The new host has counted its own loading; what the old one counted is kept too.
        fresh.earlier_costs = self.script_costs();
        *self = fresh;
        for refund in &refunds {
            let p = &mut self.state.player;
            p.materials += refund.cost.materials;
            p.energy += refund.cost.energy;
        }
        Ok(refunds)
    }

    fn require_build_phase(&self) -> Result<(), String> {
        match self.state.phase {
            Phase::Build => Ok(()),
            Phase::Wave => Err("the battle can only change between waves".into()),
            Phase::Won | Phase::Lost => Err("the battle is over".into()),
        }
    }

    /// Gives a removed building's cost back.
    fn give_back(
        &mut self,
        blueprint: BlueprintId,
        tile: Option<Pos>,
        cost: Cost,
        reason: String,
    ) -> Refund {
        let p = &mut self.state.player;
        p.materials += cost.materials;
        p.energy += cost.energy;
        Refund {
            name: self.content.blueprint(blueprint).name.clone(),
            tile,
            cost,
            reason,
        }
    }
}
