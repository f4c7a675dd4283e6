//! Entities coming and going: attackers appearing, walking the path network from tile centre to
//! tile centre at their `speed` to the Hub, and dying; buildings built and removed; abilities
//! used; and waves — starting them, sending their attackers in at the path starts, and ending
//! them when everything has been sent and nothing is left alive, or when they make no progress
//! for the level's `stall_ticks`, so that no wave runs forever.

use std::ops::Range;

use slotmap::Key;

use super::core::{Battle, Hook};
use super::entity::{Entity, EntityId, EntityKind, Position, Route};
use super::field::Field;
use super::log::LogKind;
use super::payloads::{EntityEvent, HullDamage, StatOf, Wave};
use super::state::{MAX_ENTITIES, Owner, Phase, PlayerCommand, SpawnAt};
use crate::chain::Outcome;
use crate::content::{AttackerId, BlueprintId, BlueprintKind, Cost, Placement, Size};
use crate::worldgen::Pos;

/// How far from the origin a point may be in a battle without a world, in tiles.
const OFF_WORLD_REACH: f64 = 1024.0;

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

    /// Spreads attackers over the path network, as benchmarks and tests fill a battle: the
    /// `n`th of `numbers` is of type `types[n % types.len()]` and walks on from
    /// `(n / segments) × spacing` of the way (wrapped into 0 to 1) along segment `n % segments`,
    /// so consecutive numbers go to different segments and a range carries on where the last
    /// one stopped. A battle without paths, or an empty `types`, gets none.
    pub fn spread_attackers(&mut self, types: &[AttackerId], numbers: Range<usize>, spacing: f64) {
        let Some(field) = self.field.clone() else {
            return;
        };
        let segments = field.segment_count();
        if segments == 0 || types.is_empty() {
            return;
        }
        for n in numbers {
            let segment = n % segments;
            let progress = (n / segments) as f64 * spacing % 1.0;
            let p = field.along_flat(segment, progress);
            self.spawn_attacker_at(
                types[n % types.len()],
                Position { x: p.x, y: p.y },
                Some(Route { segment, progress }),
            );
        }
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

    /// Checks a point a script asked to spawn an attacker at: finite, and in the world (or, in
    /// a battle without one, within [`OFF_WORLD_REACH`] tiles of the origin).
    pub(crate) fn spawn_point(&self, x: f64, y: f64) -> Result<Position, String> {
        if !x.is_finite() || !y.is_finite() {
            return Err(format!("the point ({x}, {y}) is not a finite position"));
        }
        let (lo, hi) = match &self.field {
            // Tile centres are whole numbers; a tile reaches half a tile around its centre.
            Some(field) => {
                let grid = field.world().grid;
                (
                    (-0.5, -0.5),
                    (f64::from(grid.width) - 0.5, f64::from(grid.height) - 0.5),
                )
            }
            None => (
                (-OFF_WORLD_REACH, -OFF_WORLD_REACH),
                (OFF_WORLD_REACH, OFF_WORLD_REACH),
            ),
        };
        if x < lo.0 || x > hi.0 || y < lo.1 || y > hi.1 {
            return Err(format!(
                "the point ({x}, {y}) is outside the world (x from {} to {}, y from {} to {})",
                lo.0, hi.0, lo.1, hi.1
            ));
        }
        Ok(Position { x, y })
    }

    /// Starts the next wave through the `start_wave` command (which content may cancel).
    pub(super) fn start_wave(&mut self) -> Result<(), String> {
        if self.state.phase == Phase::Build
            && self.state.wave as usize >= self.config.start.waves.len()
            && !self.config.start.waves.is_empty()
        {
            return Err("there are no more waves".into());
        }
        let wave = Wave {
            wave: self.state.wave + 1,
        };
        match self.command(|b| &b.chains.start_wave, wave) {
            Outcome::Applied(_) => Ok(()),
            Outcome::Cancelled => Err(match self.state.phase {
                Phase::Wave => "a wave is already running".into(),
                Phase::Won | Phase::Lost => "the battle is over".into(),
                Phase::Build => "the wave was held back".into(),
            }),
        }
    }

    /// Queues the attackers of wave `number` (from 1), relative to the current tick.
    pub(super) fn queue_wave(&mut self, number: u32) {
        let Some(wave) = self.config.start.waves.get(number as usize - 1).cloned() else {
            return;
        };
        let now = self.state.tick;
        for spawn in wave.spawns {
            match self.content.attacker_id(&spawn.attacker) {
                Some(id) => {
                    self.schedule_spawn(now + u64::from(spawn.delay), id, SpawnAt::Path(spawn.path))
                }
                None => self.push_log(LogKind::Refused {
                    command: PlayerCommand::StartWave,
                    reason: format!(
                        "wave {number} names an unknown attacker type `{}`",
                        spawn.attacker
                    ),
                }),
            }
        }
    }

    /// Ends the running wave when everything has been sent and no attacker is left.
    pub(super) fn end_wave_if_over(&mut self) {
        let anyone = self
            .state
            .entities
            .values()
            .any(|e| matches!(e.kind, EntityKind::Attacker(_)));
        if self.state.phase == Phase::Wave && self.state.spawns.is_empty() && !anyone {
            self.finish_wave();
        }
    }

    /// Ends the running wave if its attackers have made no progress for the level's
    /// `stall_ticks`: none appeared, died, left, moved closer or was damaged. Attackers waiting
    /// for a wave's next spawn with none alive are not stalled. The attackers left are taken
    /// away, queued ones dropped, and the log says so.
    pub(super) fn end_wave_if_stalled(&mut self) {
        let progressed = std::mem::take(&mut self.progressed);
        let roster = self
            .state
            .entities
            .iter()
            .filter(|(_, e)| matches!(e.kind, EntityKind::Attacker(_)))
            .fold((0usize, 0u64), |(n, sum), (id, _)| {
                (n + 1, sum.wrapping_add(id.data().as_ffi()))
            });
        let changed = std::mem::replace(&mut self.roster, roster) != roster;
        if self.state.phase != Phase::Wave || roster.0 == 0 || progressed || changed {
            self.stalled_for = 0;
            return;
        }
        self.stalled_for += 1;
        let limit = self
            .content
            .levels
            .as_ref()
            .map_or(crate::content::levels::DEFAULT_STALL_TICKS, |l| {
                l.stall_ticks
            })
            .max(1);
        if self.stalled_for < limit {
            return;
        }
        let attackers: Vec<EntityId> = self
            .state
            .entities
            .iter()
            .filter(|(_, e)| matches!(e.kind, EntityKind::Attacker(_)))
            .map(|(id, _)| id)
            .collect();
        self.push_log(LogKind::WaveStalled {
            wave: self.state.wave,
            ticks: self.stalled_for,
            attackers: attackers.len(),
        });
        for id in attackers {
            self.destroy(id);
        }
        self.state.spawns.clear();
        self.stalled_for = 0;
        self.finish_wave();
    }

    /// Ends the running wave: back to building, and `wave_finished` fires (production and
    /// cooldowns react to it).
    pub fn finish_wave(&mut self) {
        if self.state.phase != Phase::Wave {
            return;
        }
        self.state.phase = Phase::Build;
        self.wave_ended = true;
        let wave = Wave {
            wave: self.state.wave,
        };
        self.emit(|b| &b.chains.wave_finished, &wave);
    }

    /// Brings a queued attacker in.
    pub(super) fn spawn(&mut self, attacker: AttackerId, at: SpawnAt) -> Option<EntityId> {
        if !self.room_for_attacker() {
            return None;
        }
        match at {
            SpawnAt::Point(p) => Some(self.spawn_attacker(attacker, p)),
            SpawnAt::Route(route) => {
                let p = self
                    .field
                    .as_ref()?
                    .along_flat(route.segment, route.progress);
                Some(self.spawn_attacker_at(attacker, Position { x: p.x, y: p.y }, Some(route)))
            }
            SpawnAt::Path(n) => {
                let field = self.field.clone()?;
                let segment = field.entry(n)?;
                let p = field.along_flat(segment, 0.0);
                let route = Route {
                    segment,
                    progress: 0.0,
                };
                Some(self.spawn_attacker_at(attacker, Position { x: p.x, y: p.y }, Some(route)))
            }
        }
    }

    /// Moves every walking attacker one tick along its route; at a split successive attackers
    /// take the branches in turn; an attacker arriving at the Hub costs hull.
    pub(super) fn move_attackers(&mut self) {
        let Some(field) = self.field.clone() else {
            return;
        };
        let walkers: Vec<EntityId> = self
            .state
            .entities
            .iter()
            .filter(|(_, e)| e.route.is_some())
            .map(|(id, _)| id)
            .collect();
        for id in walkers {
            let Some(route) = self.state.entities.get(id).and_then(|e| e.route) else {
                continue;
            };
            let speed = self.query(|b| &b.chains.speed, &id);
            let step = speed.max(0.0) / crate::TICKS_PER_SECOND as f64;
            // Walking is progress for the wave: every path leads to the Hub.
            self.progressed |= step > 0.0;
            let (route, arrived) = self.advance(&field, route, step);
            let p = field.along_flat(route.segment, route.progress);
            if let Some(e) = self.state.entities.get_mut(id) {
                e.route = Some(route);
                e.position = Position { x: p.x, y: p.y };
            }
            if arrived {
                self.reach_hub(id);
            }
        }
    }

    /// Walks `distance` tiles from `route`; returns where it ends and whether it reached the Hub.
    fn advance(&mut self, field: &Field, mut route: Route, mut distance: f64) -> (Route, bool) {
        loop {
            let left = 1.0 - route.progress;
            if distance < left {
                route.progress += distance;
                return (route, false);
            }
            distance -= left;
            let tile = field.segment(route.segment).to;
            let next = field.next(tile);
            if tile == field.hub() || next.is_empty() {
                route.progress = 1.0;
                return (route, true);
            }
            let choice = if next.len() == 1 {
                next[0]
            } else {
                let passed = self.state.splits.entry(tile).or_insert(0);
                let branch = next[*passed as usize % next.len()];
                *passed += 1;
                branch
            };
            route = Route {
                segment: choice,
                progress: 0.0,
            };
        }
    }

    /// An attacker reached the Hub: `attacker_reached_hub` fires, the player loses hull by its
    /// size (small 1, large 3, a boss all of it) through `damage_hull`, and it leaves the battle.
    fn reach_hub(&mut self, id: EntityId) {
        let Some(EntityKind::Attacker(a)) = self.state.entities.get(id).map(|e| e.kind) else {
            return;
        };
        self.emit(
            |b| &b.chains.attacker_reached_hub,
            &EntityEvent {
                entity: id,
                other: None,
            },
        );
        let amount = match self.content.attacker(a).size {
            Size::Small => 1.0,
            Size::Large => 3.0,
            Size::Boss => self.state.player.hull,
        };
        self.command(
            |b| &b.chains.damage_hull,
            HullDamage {
                amount,
                attacker: Some(id),
            },
        );
        self.destroy(id);
    }
}
