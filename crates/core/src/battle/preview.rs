//! Questions a player (or the autopilot, or the client) may ask before acting, answered without
//! changing the battle: could this blueprint go there and if not why, which stretches of path a
//! tower there would cover, where it could hit attackers, what the buildings will produce after
//! the wave, and the energy cap. Values come through the query chains in preview mode, so
//! content modifiers show and looking leaves no trace (see [`Battle::describe_blueprint`]).

use std::sync::Arc;

use glam::DVec3;

use super::core::Battle;
use super::coverage::{Coverage, can_hit, target_point};
use super::entity::{EntityId, EntityKind, Position};
use super::field::Field;
use super::payloads::StatOf;
use super::shape::{Frame, reach};
use crate::content::{Affects, Behaviour, BlueprintId, BlueprintKind, Placement, Size};
use crate::worldgen::Pos;

/// How much of one path segment a tower would cover.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentCover {
    /// The segment (an index into the battle field's segments).
    pub segment: usize,
    /// The share of the segment where it can hit small attackers, 0 to 1.
    pub small: f64,
    /// The share where it can hit large attackers.
    pub large: f64,
}

impl Battle {
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
}

/// Fuel, materials and energy, per wave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Production {
    /// Fuel.
    pub fuel: f64,
    /// Materials.
    pub materials: f64,
    /// Energy.
    pub energy: f64,
}

/// What a range map is drawn for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RangeOf {
    /// A tower or ability already in the world.
    Placed(EntityId),
    /// A blueprint about to be placed at `position`, turned `rotation` quarter turns.
    Planned {
        /// The blueprint.
        blueprint: BlueprintId,
        /// Where (a building goes on the tile containing it).
        position: Position,
        /// Quarter turns clockwise from north.
        rotation: u8,
    },
}

/// Where something can hit attackers, sampled on a square grid over the world: bit 0 of a cell
/// means a small attacker standing there can be hit, bit 1 a large one.
#[derive(Clone, Debug, PartialEq)]
pub struct RangeMap {
    /// The centre of the first cell (south-west), in tile coordinates.
    pub origin: (f64, f64),
    /// The side of a cell, in tiles.
    pub step: f64,
    /// Cells from west to east.
    pub columns: usize,
    /// Cells from south to north.
    pub rows: usize,
    /// The cells, row by row from the south.
    pub cells: Vec<u8>,
}

impl RangeMap {
    /// Bit set in a cell where a small attacker can be hit.
    pub const SMALL: u8 = 1;
    /// Bit set in a cell where a large attacker can be hit.
    pub const LARGE: u8 = 2;

    /// The centre of cell `(column, row)`.
    pub fn center(&self, column: usize, row: usize) -> (f64, f64) {
        (
            self.origin.0 + column as f64 * self.step,
            self.origin.1 + row as f64 * self.step,
        )
    }

    /// The cell at `(column, row)`.
    pub fn cell(&self, column: usize, row: usize) -> u8 {
        self.cells[row * self.columns + column]
    }
}

impl Battle {
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
        Some(sampler.map)
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
                    let d = (ground.x - position.x).hypot(ground.y - position.y);
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
}

/// The test behind a range map: what a point on the ground is for the thing measured.
type RangeTest = Box<dyn Fn(DVec3) -> u8 + Send + Sync>;

/// A range map worked out progressively (thesis 3.10.1): every refinement halves the size of
/// the squares sampled, so the map is whole — if coarse — after the first call and exact after
/// the last. Cells farther from the centre than the reach are empty without a test.
pub struct RangeSampler {
    test: RangeTest,
    field: Arc<Field>,
    map: RangeMap,
    /// Whether a cell's own centre was tested (its value is exact).
    exact: Vec<bool>,
    centre: (f64, f64),
    reach: f64,
    /// The side, in cells, of the squares the current pass samples (a power of two), and the
    /// next square of that pass.
    block: usize,
    next: usize,
}

impl RangeSampler {
    /// Point tests a frame of the game client spends refining a range map: small enough that a
    /// frame stays well under 16 ms (`benches/range.rs` measures it).
    pub const TESTS_PER_FRAME: usize = 400;

    fn new(
        field: Arc<Field>,
        test: RangeTest,
        centre: (f64, f64),
        reach: f64,
        per_tile: u32,
    ) -> RangeSampler {
        let grid = field.world().grid;
        let per_tile = per_tile.max(1) as usize;
        let step = 1.0 / per_tile as f64;
        let columns = grid.width as usize * per_tile;
        let rows = grid.height as usize * per_tile;
        RangeSampler {
            test,
            field,
            map: RangeMap {
                origin: (-0.5 + step / 2.0, -0.5 + step / 2.0),
                step,
                columns,
                rows,
                cells: vec![0; columns * rows],
            },
            exact: vec![false; columns * rows],
            centre,
            reach,
            block: per_tile.next_power_of_two(),
            next: 0,
        }
    }

    /// The map as far as it is worked out.
    pub fn map(&self) -> &RangeMap {
        &self.map
    }

    /// Whether every cell is exact.
    pub fn is_complete(&self) -> bool {
        self.block == 0
    }

    /// Tests up to `budget` more points (cells out of reach cost nothing) and fills the squares
    /// they stand for. Returns whether the map is complete.
    pub fn refine(&mut self, budget: usize) -> bool {
        let mut spent = 0;
        while self.block > 0 && spent < budget {
            let b = self.block;
            let across = self.map.columns.div_ceil(b);
            let down = self.map.rows.div_ceil(b);
            if self.next >= across * down {
                self.block /= 2;
                self.next = 0;
                continue;
            }
            let (bx, by) = (self.next % across, self.next / across);
            self.next += 1;
            // The square's own sample: the cell at its middle, kept inside the map.
            let column = (bx * b + b / 2).min(self.map.columns - 1);
            let row = (by * b + b / 2).min(self.map.rows - 1);
            let index = row * self.map.columns + column;
            let value = if self.exact[index] {
                self.map.cells[index]
            } else {
                let (x, y) = self.map.center(column, row);
                let near =
                    (x - self.centre.0).hypot(y - self.centre.1) <= self.reach + self.map.step;
                let value = if near {
                    spent += 1;
                    (self.test)(self.field.on_ground(x, y))
                } else {
                    0
                };
                self.exact[index] = true;
                self.map.cells[index] = value;
                value
            };
            // Cells of the square not yet exact take the square's value until their turn.
            for r in by * b..((by + 1) * b).min(self.map.rows) {
                for c in bx * b..((bx + 1) * b).min(self.map.columns) {
                    let i = r * self.map.columns + c;
                    if !self.exact[i] {
                        self.map.cells[i] = value;
                    }
                }
            }
        }
        self.is_complete()
    }
}
