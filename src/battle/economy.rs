//! Paying for blueprints, their cooldowns, and what buildings produce after every wave.

use super::Battle;
use super::chains::{Gain, StatOf};
use super::entity::{EntityId, EntityKind};
use crate::content::{BlueprintId, Cost};

impl Battle {
    /// Pays a cost: materials, and energy of which any shortfall is paid with materials.
    pub(super) fn pay(&mut self, cost: Cost) -> Result<(), String> {
        let (energy, materials) = self.split_cost(cost)?;
        let p = &mut self.state.player;
        p.energy -= energy;
        p.materials -= materials;
        Ok(())
    }

    /// How a cost would be paid now: the energy and the materials taken, or why it cannot be.
    pub(super) fn split_cost(&self, cost: Cost) -> Result<(f64, f64), String> {
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
        Ok((from_energy, materials))
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
                self.state.cooldowns.insert(id, waves as u32);
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
            self.state.cooldowns.insert(id, waves as u32);
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
            let [fuel, materials, energy] = self.production_of(id, blueprint);
            let source = Some(id);
            if fuel > 0.0 {
                self.command(
                    |b| &b.chains.add_fuel,
                    Gain {
                        amount: fuel,
                        source,
                    },
                );
            }
            if materials > 0.0 {
                self.command(
                    |b| &b.chains.add_materials,
                    Gain {
                        amount: materials,
                        source,
                    },
                );
            }
            if energy > 0.0 {
                self.command(
                    |b| &b.chains.add_energy,
                    Gain {
                        amount: energy,
                        source,
                    },
                );
            }
        }
        self.wave_effects();
        self.wave_abilities();
    }
}

impl Battle {
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

fn num(v: f64) -> String {
    crate::content::describe::number(v)
}
