//! Attackers walking the path network, from tile centre to tile centre, at their `speed`.

use super::core::Battle;
use super::entity::{EntityId, EntityKind, Position, Route};
use super::field::Field;
use super::payloads::{EntityEvent, HullDamage};
use crate::content::Size;

impl Battle {
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
