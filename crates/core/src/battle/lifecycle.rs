//! Entities coming and going: attackers appearing and dying, buildings built and removed,
//! abilities used.

use super::core::{Battle, Hook};
use super::entity::{Entity, EntityId, EntityKind, Position, Route};
use super::log::LogKind;
use super::payloads::{EntityEvent, StatOf};
use super::state::{MAX_ENTITIES, Owner, Phase, PlayerCommand};
use crate::content::{AttackerId, BlueprintId, BlueprintKind, Cost, Placement};
use crate::worldgen::Pos;

impl Battle {
    /// Whether another attacker may appear. The first time it may not, the battle logs
    /// [`LogKind::EntityLimit`].
    pub(crate) fn room_for_attacker(&mut self) -> bool {
        if self.state.entities.len() < MAX_ENTITIES {
            return true;
        }
        if !self.entity_limit_logged {
            self.entity_limit_logged = true;
            self.push_log(LogKind::EntityLimit {
                limit: MAX_ENTITIES,
            });
        }
        false
    }

    /// Brings an attacker into the battle at `position`, walking `route` if given;
    /// `attacker_spawned` fires and its script's `on_spawn` runs.
    pub fn spawn_attacker_at(
        &mut self,
        attacker: AttackerId,
        position: Position,
        route: Option<Route>,
    ) -> EntityId {
        let kind = self.content.attacker(attacker);
        let strength = self.config.start.strength.get(&kind.id).copied();
        let max_hp = kind.max_health * strength.unwrap_or(1.0);
        let mut e = Entity::new(
            EntityKind::Attacker(attacker),
            position,
            max_hp,
            self.state.tick,
        );
        e.route = route;
        let entity = self.state.entities.insert(e);
        self.push_log(LogKind::Appeared {
            entity,
            kind: EntityKind::Attacker(attacker),
            position,
        });
        if let Some(host) = self.scripts.clone() {
            host.attach(self, entity);
        }
        self.emit(
            |b| &b.chains.attacker_spawned,
            &EntityEvent {
                entity,
                other: None,
            },
        );
        if let Some(host) = self.scripts.clone() {
            host.call_hook(self, entity, Hook::Spawn);
        }
        entity
    }

    /// Brings an attacker into the battle standing at `position`, off the path network.
    pub fn spawn_attacker(&mut self, attacker: AttackerId, position: Position) -> EntityId {
        self.spawn_attacker_at(attacker, position, None)
    }

    /// Builds a building or uses an ability: checks the phase, the collection, the cooldown and
    /// where it goes, pays its cost (through the `blueprint_cost` query), and puts it in the
    /// world. Every refusal says why.
    pub fn place(
        &mut self,
        blueprint: &str,
        position: Position,
        rotation: u8,
    ) -> Result<EntityId, String> {
        let (id, tile, cost) = self.vet_placement(blueprint, position)?;
        self.pay(cost)?;
        self.start_cooldown(id);
        let bp = self.content.blueprint(id);
        let (kind, placement) = (bp.kind, bp.placement());

        let rotatable = matches!(
            placement,
            Placement::Tile {
                rotatable: true,
                ..
            } | Placement::Surface { rotatable: true }
        );
        let position = match tile {
            Some(t) => Position {
                x: f64::from(t.x),
                y: f64::from(t.y),
            },
            None => position,
        };
        let entity_kind = if kind == BlueprintKind::Ability {
            EntityKind::Ability(id)
        } else {
            EntityKind::Building(id)
        };
        let mut e = Entity::new(entity_kind, position, 0.0, self.state.tick);
        e.tile = tile;
        e.rotation = if rotatable { rotation % 4 } else { 0 };
        let entity = self.state.entities.insert(e);
        if kind == BlueprintKind::Ability {
            let stat = StatOf {
                blueprint: id,
                entity: Some(entity),
            };
            let waves = self.query(|b| &b.chains.duration_waves, &stat);
            let ticks = self.query(|b| &b.chains.duration_ticks, &stat);
            if let Some(e) = self.state.entities.get_mut(entity) {
                e.waves_left = (waves >= 1.0).then_some(waves as u32);
                e.ticks_left = (ticks >= 1.0).then_some(ticks as u32);
            }
        }
        self.finish_placing(entity, kind);
        self.prime_blast(entity);
        Ok(entity)
    }

    /// Everything [`Battle::place`] checks before it pays: the phase, the collection, the
    /// cooldown, where it goes and whether the player can afford it. Returns the blueprint, the
    /// tile a building goes on and the cost.
    pub(super) fn vet_placement(
        &mut self,
        blueprint: &str,
        position: Position,
    ) -> Result<(BlueprintId, Option<Pos>, Cost), String> {
        let id = self
            .content
            .blueprint_id(blueprint)
            .ok_or_else(|| format!("there is no blueprint `{blueprint}`"))?;
        let bp = self.content.blueprint(id);
        let (kind, placement, name) = (bp.kind, bp.placement(), bp.name.clone());
        match (kind.is_building(), self.state.phase) {
            (_, Phase::Won | Phase::Lost) => return Err("the battle is over".into()),
            (true, Phase::Wave) => return Err("buildings can only be placed between waves".into()),
            (false, Phase::Build) => return Err("abilities can only be used during a wave".into()),
            _ => {}
        }
        if !self.collection.contains(&id) {
            return Err(format!("you do not have the {name} blueprint"));
        }
        if let Some(&waves) = self.state.cooldowns.get(&id).filter(|w| **w > 0) {
            let plural = if waves == 1 { "" } else { "s" };
            return Err(format!(
                "{name} is cooling down for {waves} more wave{plural}"
            ));
        }
        let tile = self.check_placement(id, &placement, position)?;
        let cost = self.query(
            |b| &b.chains.blueprint_cost,
            &StatOf {
                blueprint: id,
                entity: None,
            },
        );
        self.payment(cost)?;
        Ok((id, tile, cost))
    }

    /// Abilities that last a number of ticks run out.
    pub(super) fn tick_abilities(&mut self) {
        let mut expired = Vec::new();
        for (id, e) in self.state.entities.iter_mut() {
            if let Some(left) = e.ticks_left.as_mut() {
                *left = left.saturating_sub(1);
                if *left == 0 {
                    expired.push(id);
                }
            }
        }
        for id in expired {
            self.remove(id);
        }
    }

    /// A wave ended: abilities end with it, except those lasting more waves, which count one down.
    pub(super) fn wave_abilities(&mut self) {
        let mut ended = Vec::new();
        for (id, e) in self.state.entities.iter_mut() {
            if !matches!(e.kind, EntityKind::Ability(_))
                || e.ticks_left.is_some() && e.waves_left.is_none()
            {
                continue;
            }
            match e.waves_left.as_mut() {
                Some(left) if *left > 1 => *left -= 1,
                _ => ended.push(id),
            }
        }
        for id in ended {
            self.remove(id);
        }
    }

    /// Arms a new tower, attaches the script of a new building or ability, fires its event and
    /// calls `on_placed`.
    pub(super) fn finish_placing(&mut self, entity: EntityId, kind: BlueprintKind) {
        if let Some(e) = self.state.entities.get(entity) {
            let (kind, position) = (e.kind, e.position);
            self.push_log(LogKind::Appeared {
                entity,
                kind,
                position,
            });
        }
        self.arm(entity);
        if let Some(host) = self.scripts.clone() {
            host.attach(self, entity);
        }
        let event = EntityEvent {
            entity,
            other: None,
        };
        if kind == BlueprintKind::Ability {
            self.emit(|b| &b.chains.ability_used, &event);
        } else {
            self.emit(|b| &b.chains.building_placed, &event);
        }
        if let Some(host) = self.scripts.clone() {
            host.call_hook(self, entity, Hook::Placed);
        }
        self.resolve_deaths();
    }

    /// Puts the configured Hub building on the Hub's tile, for free.
    pub(super) fn place_hub(&mut self) {
        let (Some(hub), Some(field)) = (self.config.start.hub.clone(), self.field.clone()) else {
            return;
        };
        let Some(id) = self.content.blueprint_id(&hub) else {
            self.push_log(LogKind::Refused {
                command: PlayerCommand::place(&hub, 0.0, 0.0),
                reason: format!("the Hub blueprint `{hub}` is not loaded"),
            });
            return;
        };
        let tile = field.hub();
        let mut e = Entity::new(
            EntityKind::Building(id),
            Position {
                x: f64::from(tile.x),
                y: f64::from(tile.y),
            },
            0.0,
            self.state.tick,
        );
        e.tile = Some(tile);
        let entity = self.state.entities.insert(e);
        self.state.hub = Some(entity);
        self.finish_placing(entity, self.content.blueprint(id).kind);
    }

    /// Whether the player may remove `entity`, and if not, why: only placed buildings go;
    /// permanent ones (the Hub) stay. Removing refunds nothing.
    pub fn removable(&self, entity: EntityId) -> Result<(), String> {
        let Some(e) = self.state.entities.get(entity) else {
            return Err("that building no longer exists".into());
        };
        let EntityKind::Building(bp) = e.kind else {
            return Err("only buildings can be removed".into());
        };
        let bp = self.content.blueprint(bp);
        if bp.placed_by_game() {
            return Err(format!("the {} cannot be removed", bp.name));
        }
        Ok(())
    }

    /// Removes a building the player no longer wants (see [`Battle::removable`]).
    pub(super) fn remove_building(&mut self, entity: EntityId) -> Result<(), String> {
        self.removable(entity)?;
        self.remove(entity);
        Ok(())
    }

    /// Takes a building or ability out of the world: `building_removed` fires (for buildings)
    /// and its script's `on_removed` runs.
    pub fn remove(&mut self, entity: EntityId) {
        let Some(e) = self.state.entities.get(entity) else {
            return;
        };
        if matches!(e.kind, EntityKind::Building(_)) {
            self.emit(
                |b| &b.chains.building_removed,
                &EntityEvent {
                    entity,
                    other: None,
                },
            );
        }
        if let Some(host) = self.scripts.clone() {
            host.call_hook(self, entity, Hook::Removed);
        }
        self.destroy(entity);
    }

    /// Kills the attackers brought to 0 HP: `attacker_killed` fires, `on_death` runs, what they
    /// spawn on death appears where they fell (walking on from there), and they are removed.
    pub(super) fn resolve_deaths(&mut self) {
        while !self.state.dying.is_empty() {
            let dying = std::mem::take(&mut self.state.dying);
            for (entity, killer) in dying {
                let Some(e) = self.state.entities.get(entity) else {
                    continue;
                };
                let (kind, position, route) = (e.kind, e.position, e.route);
                if let EntityKind::Attacker(a) = kind {
                    self.count(a, 1, 0.0);
                }
                self.push_log(LogKind::Killed {
                    attacker: entity,
                    killer,
                });
                self.emit(
                    |b| &b.chains.attacker_killed,
                    &EntityEvent {
                        entity,
                        other: killer,
                    },
                );
                if let Some(host) = self.scripts.clone() {
                    host.call_hook(self, entity, Hook::Death);
                }
                self.destroy(entity);
                if let EntityKind::Attacker(a) = kind {
                    let content = self.content.clone();
                    for spawn in &content.attacker(a).spawns_on_death {
                        if let Some(child) = content.attacker_id(&spawn.attacker) {
                            for _ in 0..spawn.count {
                                if !self.room_for_attacker() {
                                    break;
                                }
                                self.spawn_attacker_at(child, position, route);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Removes an entity and everything it registered or that was scoped to it.
    pub(super) fn destroy(&mut self, entity: EntityId) {
        self.chains.remove_owner(Owner::Entity(entity));
        self.timers.remove_owner(Owner::Entity(entity));
        self.chains.remove_subject(entity);
        if let Some(host) = self.scripts.clone() {
            host.detach(entity);
        }
        self.state.entities.remove(entity);
    }
}
