//! Questions a player (or the autopilot) may ask before acting, answered without changing the
//! battle: could this blueprint go there, and which stretches of path would a tower there cover.

use glam::DVec3;

use super::Battle;
use super::chains::StatOf;
use super::entity::Position;
use super::shape::Frame;
use super::targeting::Coverage;
use crate::content::{Behaviour, BlueprintId};
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
