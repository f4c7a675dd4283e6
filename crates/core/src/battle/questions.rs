//! Questions a player (or the autopilot, or the client) may ask before acting, answered without
//! changing the battle: where blueprints may be placed, with the reason when they may not; which
//! stretches of path a tower there would cover, where it could hit attackers and what it acts
//! on; what the buildings will produce after the wave, and the energy cap; and what the info
//! panel shows about a blueprint or an attacker right now — its description with the values the
//! queries give, so every modifier (a Radar's range bonus, a discount, an upgrade's extra line)
//! shows, compared with the unmodified content. Values come through the query chains in preview
//! mode, so content modifiers show and looking leaves no trace (see
//! [`Battle::describe_blueprint`]). What the answers are made of — range maps and their sampler,
//! path covered, production — is in `preview.rs`.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::DVec3;

use super::core::{Battle, Qry};
use super::coverage::{Coverage, can_hit, target_point};
use super::entity::{Entity, EntityId, EntityKind, Position};
use super::payloads::StatOf;
use super::preview::{Production, RangeMap, RangeOf, RangeSampler, RangeTest, SegmentCover};
use super::shape::{Frame, reach};
use super::state::{BattleConfig, Start};
use crate::content::describe::{self, AttackerNow, BlueprintNow, Quality, RichText};
use crate::content::{
    Affects, Behaviour, Blueprint, BlueprintId, BlueprintKind, ContentDb, Cost, Deposit, Placement,
    Size,
};
use crate::rng::Seed;
use crate::terrain::{Direction, ObstacleKind};
use crate::worldgen::Pos;

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
    /// Checks a placement and returns the tile a building goes on (`None` for surface
    /// placements), or why it cannot go there.
    pub(super) fn check_placement(
        &self,
        id: BlueprintId,
        placement: &Placement,
        position: Position,
    ) -> Result<Option<Pos>, String> {
        let name = &self.content.blueprint(id).name;
        match *placement {
            Placement::Fixed => Err(format!("the {name} is placed by the game")),
            Placement::Surface { .. } => {
                if let Some(field) = &self.field {
                    let grid = field.world().grid;
                    let inside = |v: f64, n: i32| (-0.5..f64::from(n) - 0.5).contains(&v);
                    if !inside(position.x, grid.width) || !inside(position.y, grid.height) {
                        return Err("that is outside the world".into());
                    }
                }
                Ok(None)
            }
            Placement::Tile {
                not_adjacent_to_same,
                ..
            } => {
                let tile = Pos::new(position.x.round() as i32, position.y.round() as i32);
                self.check_ground(id, placement, tile)?;
                if self.building_on(tile).is_some() {
                    return Err("there is already a building here".into());
                }
                if not_adjacent_to_same {
                    let next_to_same = Direction::ALL.into_iter().any(|d| {
                        self.building_on(tile.step(d))
                            .is_some_and(|k| k == EntityKind::Building(id))
                    });
                    if next_to_same {
                        return Err(format!("the {name} cannot be built next to another {name}"));
                    }
                }
                Ok(Some(tile))
            }
        }
    }

    /// Checks what the ground of `tile` says about building blueprint `id` there: inside the
    /// world, off the paths, a free surface, the deposit it needs, no obstacle in its way, no
    /// slope it cannot stand on. Other buildings are not considered.
    pub(super) fn check_ground(
        &self,
        id: BlueprintId,
        placement: &Placement,
        tile: Pos,
    ) -> Result<(), String> {
        let name = &self.content.blueprint(id).name;
        let Placement::Tile {
            slants,
            small_obstacles,
            deposit,
            ..
        } = *placement
        else {
            return Ok(());
        };
        if let Some(field) = &self.field {
            let world = field.world();
            if !world.grid.contains(tile) {
                return Err("that is outside the world".into());
            }
            if field.on_path(tile) {
                return Err("attackers walk there; nothing can be built on a path".into());
            }
            if world.blocked_surface[world.grid.index(tile)] {
                return Err("nothing can be built on this ground".into());
            }
            if world.build_near_paths && !world.near_path(tile) {
                return Err(
                    "on this terrain buildings stand only next to or diagonal to a path".into(),
                );
            }
            let obstacle = world.obstacle(tile).map(|o| o.kind);
            let rich = |wanted: Deposit| {
                matches!(
                    (wanted, obstacle),
                    (
                        Deposit::Fuel | Deposit::FuelOrMinerals,
                        Some(ObstacleKind::Fuel)
                    ) | (
                        Deposit::Minerals | Deposit::FuelOrMinerals,
                        Some(ObstacleKind::Minerals)
                    )
                )
            };
            if let Some(wanted) = deposit
                && !rich(wanted)
            {
                return Err(match wanted {
                    Deposit::Fuel => {
                        format!("the {name} must be built on a tile rich in fuel")
                    }
                    Deposit::Minerals => {
                        format!("the {name} must be built on a tile rich in minerals")
                    }
                    Deposit::FuelOrMinerals => {
                        format!("the {name} must be built on a tile rich in fuel or minerals")
                    }
                });
            }
            match obstacle {
                Some(ObstacleKind::Large) => {
                    return Err("a large obstacle is in the way".into());
                }
                Some(_) if deposit.is_none() && !small_obstacles => {
                    return Err(format!(
                        "an obstacle is in the way (the {name} cannot stand on small obstacles)"
                    ));
                }
                _ => {}
            }
            if !slants && world.tile(tile).slant.is_some() {
                return Err(format!("the {name} cannot be built on a slope"));
            }
        }
        Ok(())
    }

    /// The kind of what stands on `tile`, if anything: a building, or an ability placed on the
    /// tile (a conjured tower holds its tile while it lasts).
    fn building_on(&self, tile: Pos) -> Option<EntityKind> {
        self.holder_of(tile).map(|(_, e)| e.kind)
    }

    /// The building standing on `tile`, if any (not an ability holding it).
    pub fn building_at(&self, tile: Pos) -> Option<EntityId> {
        self.holder_of(tile)
            .filter(|(_, e)| matches!(e.kind, EntityKind::Building(_)))
            .map(|(id, _)| id)
    }

    /// The entity holding `tile`: placement keeps it to one.
    fn holder_of(&self, tile: Pos) -> Option<(EntityId, &Entity)> {
        self.state
            .entities
            .iter()
            .find(|(_, e)| e.tile == Some(tile))
    }

    /// Whether blueprint `id` may be placed at `position` as far as the place goes (the tile,
    /// obstacles, paths, other buildings), ignoring the phase, cost and cooldown; the tile a
    /// building would take, or why not.
    pub fn check_location(
        &self,
        id: BlueprintId,
        position: Position,
    ) -> Result<Option<Pos>, String> {
        self.check_placement(id, &self.content.blueprint(id).placement(), position)
    }

    /// The path a tower of blueprint `id` would cover standing on `tile`, turned `rotation`
    /// quarter turns: every segment it could hit attackers on, with the share covered. Uses the
    /// blueprint's current range (modifiers included) and its range shape, aim and line of sight.
    /// Empty for blueprints that do not shoot and in battles without a world.
    pub fn coverage_preview(
        &mut self,
        id: BlueprintId,
        tile: Pos,
        rotation: u8,
    ) -> Vec<SegmentCover> {
        let Some(Behaviour::Shooter(shooter)) = self.content.blueprint(id).behaviour.clone() else {
            return Vec::new();
        };
        let Some(field) = self.field.clone() else {
            return Vec::new();
        };
        let stat = StatOf {
            blueprint: id,
            entity: None,
        };
        let range = self.preview(|b| b.query(|b| &b.chains.range, &stat));
        let (x, y) = (f64::from(tile.x), f64::from(tile.y));
        let frame = Frame {
            muzzle: DVec3::new(x, y, field.ground(x, y) + shooter.muzzle_height),
            facing: Frame::facing_of(rotation),
            range,
        };
        Coverage::new(&field, &shooter, &frame)
            .shares()
            .map(|(segment, small, large)| SegmentCover {
                segment,
                small,
                large,
            })
            .collect()
    }

    /// Whether `blueprint` could be placed at `position` now, and if not, why — everything
    /// [`Battle::place`] checks, without placing or paying.
    pub fn check_place(&mut self, blueprint: &str, position: Position) -> Result<(), String> {
        self.preview(|b| b.vet_placement(blueprint, position).map(|_| ()))
    }

    /// What every building will produce after the current wave, as things stand.
    pub fn production(&mut self) -> Production {
        let producers: Vec<(EntityId, BlueprintId)> = self
            .state
            .entities
            .iter()
            .filter_map(|(id, e)| match e.kind {
                EntityKind::Building(bp) if !self.paralyzed(id) => Some((id, bp)),
                _ => None,
            })
            .collect();
        self.preview(|b| {
            let mut total = Production::default();
            for (id, blueprint) in producers {
                let [fuel, materials, energy] = b.production_of(id, blueprint);
                total.fuel += fuel;
                total.materials += materials;
                total.energy += energy;
            }
            total
        })
    }

    /// The most energy the player can hold now.
    pub fn energy_cap(&mut self) -> f64 {
        self.preview(|b| b.query(|b| &b.chains.energy_cap, &()))
    }

    /// Where a tower could hit attackers (range shape, aim and line of sight, for small and large
    /// attackers), or where an ability with a radius reaches, sampled `per_tile` × `per_tile`
    /// times per tile. `None` for things that reach nowhere or a battle without a world.
    pub fn range_map(&mut self, of: RangeOf, per_tile: u32) -> Option<RangeMap> {
        let mut sampler = self.range_sampler(of, per_tile)?;
        while !sampler.refine(usize::MAX) {}
        Some(sampler.into_map())
    }

    /// The same map as [`Battle::range_map`], worked out a few points at a time so that a
    /// frame never waits for all of it: coarse first, finer with every [`RangeSampler::refine`].
    /// It owns what it needs, so the battle can go on meanwhile.
    pub fn range_sampler(&mut self, of: RangeOf, per_tile: u32) -> Option<RangeSampler> {
        let field = self.field.clone()?;
        let (blueprint, entity, position, rotation) = self.resolve(of)?;
        let content = self.content.clone();
        let bp = content.blueprint(blueprint);
        let stat = StatOf { blueprint, entity };
        // What decides whether a point is hit, and how far from `position` anything can be.
        let (test, reach): (RangeTest, f64) = match &bp.behaviour {
            Some(Behaviour::Shooter(shooter)) => {
                let range = self.look(|b| &b.chains.range, &stat);
                let ground = field.ground(position.x, position.y);
                let frame = Frame {
                    muzzle: DVec3::new(position.x, position.y, ground + shooter.muzzle_height),
                    facing: Frame::facing_of(rotation),
                    range,
                };
                let shooter = shooter.clone();
                let field = field.clone();
                let reach = reach(&shooter.shape, range);
                let test = Box::new(move |ground: DVec3| {
                    let mut bits = 0;
                    for (size, bit) in [
                        (Size::Small, RangeMap::SMALL),
                        (Size::Large, RangeMap::LARGE),
                    ] {
                        if can_hit(Some(&field), &shooter, &frame, target_point(ground, size)) {
                            bits |= bit;
                        }
                    }
                    bits
                });
                (test, reach)
            }
            _ if bp.radius.is_some() => {
                let radius = self.look(|b| &b.chains.radius, &stat);
                let test = Box::new(move |ground: DVec3| {
                    let d = libm::hypot(ground.x - position.x, ground.y - position.y);
                    if d <= radius {
                        RangeMap::SMALL | RangeMap::LARGE
                    } else {
                        0
                    }
                });
                (test, radius)
            }
            _ => return None,
        };
        Some(RangeSampler::new(
            field,
            test,
            (position.x, position.y),
            reach,
            per_tile,
        ))
    }

    /// The blueprint, placed entity, position (a building's on its tile's centre) and rotation
    /// `of` stands for.
    fn resolve(&self, of: RangeOf) -> Option<(BlueprintId, Option<EntityId>, Position, u8)> {
        Some(match of {
            RangeOf::Placed(id) => {
                let e = self.state.entities.get(id)?;
                (e.kind.blueprint()?, Some(id), e.position, e.rotation)
            }
            RangeOf::Planned {
                blueprint,
                position,
                rotation,
            } => {
                let bp = self.content.blueprint(blueprint);
                let position = match bp.placement() {
                    Placement::Tile { .. } => Position {
                        x: position.x.round(),
                        y: position.y.round(),
                    },
                    _ => position,
                };
                (blueprint, None, position, rotation)
            }
        })
    }

    /// What a tower, building or ability acts on now, for highlighting (thesis 2.7): a tower the
    /// attackers it can hit; something with a radius or range the attackers within it; and what
    /// the blueprint's `affects` names instead (its towers or buildings in range, its
    /// neighbours). In entity order; never the thing itself.
    pub fn affected(&mut self, of: RangeOf) -> Vec<EntityId> {
        let Some((blueprint, entity, position, rotation)) = self.resolve(of) else {
            return Vec::new();
        };
        let content = self.content.clone();
        let bp = content.blueprint(blueprint);
        let stat = StatOf { blueprint, entity };
        let reach = if bp.radius.is_some() {
            self.look(|b| &b.chains.radius, &stat)
        } else if bp.range.is_some() {
            self.look(|b| &b.chains.range, &stat)
        } else {
            0.0
        };
        let near = |p: Position| p.distance(position) <= reach + 1e-9;
        let field = self.field.clone();
        let tile = Pos::new(position.x.round() as i32, position.y.round() as i32);
        let others = self
            .state
            .entities
            .iter()
            .filter(|(id, _)| Some(*id) != entity);
        match (bp.affects, &bp.behaviour) {
            (Some(Affects::Towers | Affects::Buildings), _) => {
                let towers_only = bp.affects == Some(Affects::Towers);
                others
                    .filter(|(_, e)| match e.kind {
                        EntityKind::Building(b) => {
                            !towers_only || content.blueprint(b).kind == BlueprintKind::Tower
                        }
                        _ => false,
                    })
                    .filter(|(_, e)| near(e.position))
                    .map(|(id, _)| id)
                    .collect()
            }
            (Some(Affects::Adjacent), _) => others
                .filter(|(_, e)| matches!(e.kind, EntityKind::Building(_)))
                .filter(|(_, e)| e.tile.is_some_and(|t| t.manhattan(tile) == 1))
                .map(|(id, _)| id)
                .collect(),
            (None, Some(Behaviour::Shooter(shooter))) => {
                let Some(field) = field else {
                    return Vec::new();
                };
                let frame = Frame {
                    muzzle: DVec3::new(
                        position.x,
                        position.y,
                        field.ground(position.x, position.y) + shooter.muzzle_height,
                    ),
                    facing: Frame::facing_of(rotation),
                    range: reach,
                };
                others
                    .filter_map(|(id, e)| match e.kind {
                        EntityKind::Attacker(a) => {
                            let ground = field.on_ground(e.position.x, e.position.y);
                            let at = target_point(ground, content.attacker(a).size);
                            can_hit(Some(&field), shooter, &frame, at).then_some(id)
                        }
                        _ => None,
                    })
                    .collect()
            }
            (Some(Affects::Attackers) | None, _) if reach > 0.0 => others
                .filter(|(_, e)| matches!(e.kind, EntityKind::Attacker(_)))
                .filter(|(_, e)| near(e.position))
                .map(|(id, _)| id)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The tiles a building of `blueprint` could go on now, cost and phase included.
    pub fn valid_tiles(&mut self, blueprint: &str) -> Vec<Pos> {
        self.tiles_where(|b, at| b.check_place(blueprint, at).is_ok())
    }

    /// The tiles whose place would take blueprint `id` ([`check_location`](Self::check_location):
    /// not asking about cost or phase); the client tints them while it is selected.
    pub fn valid_locations(&mut self, id: BlueprintId) -> Vec<Pos> {
        self.tiles_where(|b, at| b.check_location(id, at).is_ok())
    }

    fn tiles_where(&mut self, mut ok: impl FnMut(&mut Battle, Position) -> bool) -> Vec<Pos> {
        let Some(field) = self.field.clone() else {
            return Vec::new();
        };
        field
            .world()
            .grid
            .tiles()
            .filter(|p| {
                let at = Position {
                    x: f64::from(p.x),
                    y: f64::from(p.y),
                };
                ok(self, at)
            })
            .collect()
    }

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
