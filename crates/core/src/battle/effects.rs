//! Status effects: timed states on attackers and buildings that change how they work, through
//! the same chains as everything else.
//!
//! An effect has a name, how long it lasts (ticks, waves, or a number of shots), a magnitude,
//! and a source. Seven are built in and have engine rules: `burning` (energy damage per second
//! equal to its magnitude), `freezing` (speed × (1 − magnitude)), `shield` (absorbs its magnitude
//! of damage, except HP loss), `stealth` (towers cannot target it), `overclocked` (shoots 50 %
//! faster), `paralyzed` (a building does nothing) and `electrified` (its next shots deal its
//! magnitude of extra energy damage). Mods may apply effects of any other name; they do what the
//! mod's own callbacks make of them (`entity:effect(name)`).

/// The effects with engine rules (see the module's doc). Any other name is a mod's own; one
/// close to these is warned about where a script applies or removes it, as a likely typo.
pub use crate::content::effects::BUILT_IN_EFFECTS;

use super::core::Battle;
use super::entity::{Effect, EntityId, Lasting, Stacking};
use super::log::LogKind;
use super::payloads::{Damage, StatOf};
use super::state::{Owner, Scope};
use crate::chain::Flow;
use crate::content::{DamageType, DamageTypes};

impl Battle {
    /// Applies an effect to an entity, combining it with one of the same name as `stacking` says.
    pub fn apply_effect(&mut self, target: EntityId, effect: Effect, stacking: Stacking) {
        if !self.state.entities.contains_key(target) {
            return;
        }
        self.push_log(LogKind::EffectApplied {
            target,
            name: effect.name.clone(),
            lasting: effect.lasting,
            source: effect.source,
        });
        let Some(e) = self.state.entities.get_mut(target) else {
            return;
        };
        match e.effects.iter_mut().find(|x| x.name == effect.name) {
            None => e.effects.push(effect),
            Some(old) => match stacking {
                Stacking::Replace => *old = effect,
                Stacking::Refresh => {
                    old.lasting = old
                        .lasting
                        .with(old.lasting.amount().max(effect.lasting.amount()));
                    old.magnitude = old.magnitude.max(effect.magnitude);
                }
                Stacking::Add => {
                    old.lasting = old
                        .lasting
                        .with(old.lasting.amount() + effect.lasting.amount());
                    old.magnitude += effect.magnitude;
                }
            },
        }
    }

    /// Ends an effect early.
    pub fn remove_effect(&mut self, target: EntityId, name: &str) {
        if let Some(e) = self.state.entities.get_mut(target) {
            e.effects.retain(|x| x.name != name);
        }
    }

    /// The effect called `name` on an entity, if it has it.
    pub fn effect(&self, target: EntityId, name: &str) -> Option<&Effect> {
        self.state
            .entities
            .get(target)?
            .effects
            .iter()
            .find(|x| x.name == name)
    }

    /// Whether towers cannot target this attacker now.
    pub(super) fn untargetable(&self, id: EntityId) -> bool {
        self.effect(id, "stealth").is_some()
    }

    /// Whether this building is out of order now.
    pub(super) fn paralyzed(&self, id: EntityId) -> bool {
        self.effect(id, "paralyzed").is_some()
    }

    /// Ages every effect by a tick: burning burns, timed effects run out.
    pub(super) fn tick_effects(&mut self) {
        let burning: Vec<(EntityId, f64, Option<EntityId>)> = self
            .state
            .entities
            .iter_mut()
            .flat_map(|(id, e)| {
                e.effects.iter_mut().filter_map(move |x| {
                    x.age += 1;
                    (x.name == "burning" && x.age % crate::TICKS_PER_SECOND as u32 == 0)
                        .then_some((id, x.magnitude, x.source))
                })
            })
            .collect();
        for (target, amount, source) in burning {
            let types: DamageTypes = [DamageType::Energy].into_iter().collect();
            self.command(
                |b| &b.chains.damage,
                Damage {
                    target,
                    amount,
                    types,
                    source,
                    own_hit: false,
                    dealt: 0.0,
                },
            );
        }
        self.expire(|lasting| match lasting {
            Lasting::Ticks(n) => Some(Lasting::Ticks(n.saturating_sub(1))),
            other => Some(other),
        });
    }

    /// A wave ended: effects measured in waves have one less.
    pub(super) fn wave_effects(&mut self) {
        self.expire(|lasting| match lasting {
            Lasting::Waves(n) => Some(Lasting::Waves(n.saturating_sub(1))),
            other => Some(other),
        });
    }

    /// A tower fired a shot: effects measured in shots have one less.
    pub(super) fn shot_effects(&mut self, tower: EntityId) {
        if let Some(e) = self.state.entities.get_mut(tower) {
            for x in &mut e.effects {
                if let Lasting::Shots(n) = x.lasting {
                    x.lasting = Lasting::Shots(n.saturating_sub(1));
                }
            }
            e.effects.retain(|x| x.lasting.amount() > 0);
        }
    }

    fn expire(&mut self, step: impl Fn(Lasting) -> Option<Lasting>) {
        let mut ended = Vec::new();
        for (id, e) in self.state.entities.iter_mut() {
            for x in &mut e.effects {
                x.lasting = step(x.lasting).unwrap_or(x.lasting);
            }
            e.effects.retain(|x| {
                let alive = x.lasting.amount() > 0;
                if !alive {
                    ended.push((id, x.name.clone()));
                }
                alive
            });
        }
        for (entity, name) in ended {
            self.push_log(LogKind::EffectEnded { entity, name });
        }
    }
}

/// Installs the engine rules of the built-in effects.
pub(super) fn install(b: &mut Battle) {
    let engine = Owner::Engine;
    let c = &mut b.chains;
    c.speed.modify(
        engine,
        Scope::Global,
        100,
        Box::new(|b: &mut Battle, e: &EntityId, speed: &mut f64| {
            if let Some(x) = b.effect(*e, "freezing") {
                *speed *= (1.0 - x.magnitude).max(0.0);
            }
        }),
    );
    c.interval.modify(
        engine,
        Scope::Global,
        100,
        Box::new(|b: &mut Battle, s: &StatOf, interval: &mut f64| {
            if s.entity
                .is_some_and(|e| b.effect(e, "overclocked").is_some())
            {
                *interval /= 1.5;
            }
        }),
    );
    c.damage
        .modify(
            engine,
            Scope::Global,
            -1_000,
            Box::new(|b: &mut Battle, d: &mut Damage| {
                let Some(shield) = b
                    .state
                    .entities
                    .get_mut(d.target)
                    .and_then(|e| e.effects.iter_mut().find(|x| x.name == "shield"))
                else {
                    return Flow::Continue;
                };
                let absorbed = shield.magnitude.min(d.amount);
                shield.magnitude -= absorbed;
                d.amount -= absorbed;
                if shield.magnitude <= 0.0 {
                    b.remove_effect(d.target, "shield");
                }
                if d.amount <= 0.0 {
                    Flow::Cancel
                } else {
                    Flow::Continue
                }
            }),
        )
        .expect("negative priority");
}
