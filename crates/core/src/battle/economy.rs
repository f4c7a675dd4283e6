//! Paying for blueprints, their cooldowns, and what buildings produce after every wave.
//!
//! The payment rule ([`Battle::payment`]) and a blueprint's current cost and cooldown
//! ([`Battle::cost`], [`Battle::cooldown`]) are asked of the battle by the client and the
//! autopilot, never worked out again there.

use super::core::{Battle, Cmd};
use super::entity::{EntityId, EntityKind};
use super::payloads::{Gain, StatOf};
use crate::content::{BlueprintId, Cost};

/// How a cost is paid: what is taken of each resource.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Payment {
    /// Energy taken.
    pub energy: f64,
    /// Materials taken: the cost's materials and any energy the player lacks.
    pub materials: f64,
}

impl Battle {
    /// Pays a cost: materials, and energy of which any shortfall is paid with materials.
    pub(super) fn pay(&mut self, cost: Cost) -> Result<(), String> {
        let paid = self.payment(cost)?;
        let p = &mut self.state.player;
        p.energy -= paid.energy;
        p.materials -= paid.materials;
        Ok(())
    }

    /// The payment rule: how `cost` would be paid now — energy first, what energy lacks in
    /// materials — or why the player cannot pay it, in words for the player.
    pub fn payment(&self, cost: Cost) -> Result<Payment, String> {
        let p = &self.state.player;
        let from_energy = cost.energy.min(p.energy).max(0.0);
        let materials = cost.materials + (cost.energy - from_energy).max(0.0);
        if materials > p.materials + 1e-9 {
            if cost.materials <= p.materials + 1e-9 {
                // Missing energy is paid with materials, so both fall short.
                return Err(format!(
                    "not enough energy: {} needed, {} available (and {} materials to make up \
                     the rest)",
                    num(cost.energy),
                    num(p.energy),
                    num(p.materials - cost.materials)
                ));
            }
            return Err(format!(
                "not enough materials: {} needed, {} available",
                num(materials),
                num(p.materials)
            ));
        }
        Ok(Payment {
            energy: from_energy,
            materials,
        })
    }

    /// What using blueprint `id` costs now, modifiers included. Computed for display: it leaves
    /// the battle as it was.
    pub fn cost(&mut self, id: BlueprintId) -> Cost {
        self.look(
            |b| &b.chains.blueprint_cost,
            &StatOf {
                blueprint: id,
                entity: None,
            },
        )
    }

    /// The waves blueprint `id` waits after a use now, modifiers included (whole waves, as the
    /// battle counts them). Computed for display: it leaves the battle as it was.
    pub fn cooldown(&mut self, id: BlueprintId) -> u32 {
        let waves = self.look(
            |b| &b.chains.cooldown,
            &StatOf {
                blueprint: id,
                entity: None,
            },
        );
        whole_waves(waves)
    }

    /// Puts every blueprint of the collection on its starting cooldown.
    pub(super) fn start_cooldowns(&mut self) {
        for id in self.collection.clone() {
            let waves = self.query(
                |b| &b.chains.starting_cooldown,
                &StatOf {
                    blueprint: id,
                    entity: None,
                },
            );
            if waves >= 1.0 {
                self.state.cooldowns.insert(id, whole_waves(waves));
            }
        }
    }

    /// After a use: the blueprint waits its cooldown (in waves) before the next.
    pub(super) fn start_cooldown(&mut self, id: BlueprintId) {
        let waves = self.query(
            |b| &b.chains.cooldown,
            &StatOf {
                blueprint: id,
                entity: None,
            },
        );
        if waves >= 1.0 {
            self.state.cooldowns.insert(id, whole_waves(waves));
        }
    }

    /// Waves blueprint `id` must still wait before it can be used.
    pub fn cooldown_left(&self, id: BlueprintId) -> u32 {
        self.state.cooldowns.get(&id).copied().unwrap_or(0)
    }

    /// At the end of a wave: every cooldown is one wave shorter, every building that is not
    /// paralyzed produces its fuel, materials and energy, effects and abilities measured in
    /// waves count down, and abilities that last no longer end.
    pub(super) fn after_wave(&mut self) {
        self.state.cooldowns.retain(|_, waves| {
            *waves -= 1;
            *waves > 0
        });
        let producers: Vec<(EntityId, BlueprintId)> = self
            .state
            .entities
            .iter()
            .filter_map(|(id, e)| match e.kind {
                EntityKind::Building(bp) => Some((id, bp)),
                _ => None,
            })
            .collect();
        for (id, blueprint) in producers {
            if self.state.entities.get(id).is_none() || self.paralyzed(id) {
                continue;
            }
            // In the order of `production_of`: fuel, materials, energy.
            let chains: [fn(&Battle) -> &Cmd<Gain>; 3] = [
                |b| &b.chains.add_fuel,
                |b| &b.chains.add_materials,
                |b| &b.chains.add_energy,
            ];
            for (chain, amount) in chains.into_iter().zip(self.production_of(id, blueprint)) {
                if amount > 0.0 {
                    let source = Some(id);
                    self.command(chain, Gain { amount, source });
                }
            }
        }
        self.wave_effects();
        self.wave_abilities();
    }

    /// What building `id` (made from `blueprint`) produces after a wave: fuel, materials, energy.
    pub(super) fn production_of(&mut self, id: EntityId, blueprint: BlueprintId) -> [f64; 3] {
        let stat = StatOf {
            blueprint,
            entity: Some(id),
        };
        [
            self.query(|b| &b.chains.fuel_production, &stat),
            self.query(|b| &b.chains.material_production, &stat),
            self.query(|b| &b.chains.energy_production, &stat),
        ]
    }
}

/// A cooldown as whole waves: fractions are dropped, nonsense (negative, NaN) is none.
fn whole_waves(waves: f64) -> u32 {
    waves as u32
}

fn num(v: f64) -> String {
    crate::content::describe::number(v)
}
