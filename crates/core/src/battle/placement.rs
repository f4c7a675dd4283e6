//! Where blueprints may be placed, with the reason when they may not.

use super::core::Battle;
use super::entity::{Entity, EntityId, EntityKind, Position};
use crate::content::{BlueprintId, Deposit, Placement};
use crate::terrain::{Direction, ObstacleKind};
use crate::worldgen::Pos;

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
}
