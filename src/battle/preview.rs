//! Questions a player (or the autopilot, or the client) may ask before acting, answered without
//! changing the battle: could this blueprint go there and if not why, which stretches of path a
//! tower there would cover, where it could hit attackers, what the buildings will produce after
//! the wave, and the energy cap. Values come through the query chains in preview mode, so
//! content modifiers show and looking leaves no trace (see [`Battle::describe_blueprint`]).

use glam::DVec3;

use super::Battle;
use super::chains::StatOf;
use super::entity::{EntityId, EntityKind, Position};
use super::shape::{Frame, reach};
use super::targeting::{Coverage, can_hit, target_point};
use crate::content::{Behaviour, BlueprintId, Placement, Size};
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
        let field = self.field.clone()?;
        let (blueprint, entity, position, rotation) = match of {
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
        };
        let content = self.content.clone();
        let bp = content.blueprint(blueprint);
        let stat = StatOf { blueprint, entity };
        let grid = field.world().grid;
        let step = 1.0 / f64::from(per_tile.max(1));
        let columns = (f64::from(grid.width) / step).round() as usize;
        let rows = (f64::from(grid.height) / step).round() as usize;
        let origin = (-0.5 + step / 2.0, -0.5 + step / 2.0);
        let mut map = RangeMap {
            origin,
            step,
            columns,
            rows,
            cells: vec![0; columns * rows],
        };
        // What decides whether a point is hit, and how far from `position` anything can be.
        let test: Box<dyn Fn(DVec3) -> u8> = match &bp.behaviour {
            Some(Behaviour::Shooter(shooter)) => {
                let range = self.preview(|b| b.query(|b| &b.chains.range, &stat));
                let ground = field.ground(position.x, position.y);
                let frame = Frame {
                    muzzle: DVec3::new(position.x, position.y, ground + shooter.muzzle_height),
                    facing: Frame::facing_of(rotation),
                    range,
                };
                let shooter = shooter.clone();
                let field = field.clone();
                let reach = reach(&shooter.shape, range);
                Box::new(move |ground: DVec3| {
                    if (ground - frame.muzzle).truncate().length() > reach {
                        return 0;
                    }
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
                })
            }
            _ if bp.radius.is_some() => {
                let radius = self.preview(|b| b.query(|b| &b.chains.radius, &stat));
                Box::new(move |ground: DVec3| {
                    let d = (ground.x - position.x).hypot(ground.y - position.y);
                    if d <= radius {
                        RangeMap::SMALL | RangeMap::LARGE
                    } else {
                        0
                    }
                })
            }
            _ => return None,
        };
        for row in 0..rows {
            for column in 0..columns {
                let (x, y) = map.center(column, row);
                map.cells[row * columns + column] = test(field.on_ground(x, y));
            }
        }
        Some(map)
    }

    /// The tiles a building of `blueprint` could go on now (the client tints them).
    pub fn valid_tiles(&mut self, blueprint: &str) -> Vec<Pos> {
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
                self.check_place(blueprint, at).is_ok()
            })
            .collect()
    }
}
