//! The engine's own part of the chains: the handlers that apply commands, the providers of base
//! values, and the rule that a finished battle starts no more waves.

use super::chains::BaseValues;
use super::core::Battle;
use super::entity::{EntityId, EntityKind};
use super::log::{LogKind, Resource};
use super::payloads::{Damage, Gain, Heal, HullDamage, Signal, StatOf, Wave};
use super::state::{Owner, Phase, Scope};
use crate::chain::Flow;
use crate::content::{Blueprint, Cost};

/// Installs the handlers and engine modifiers on a new battle's chains.
pub(super) fn install(b: &mut Battle) {
    super::effects::install(b);
    let c = &mut b.chains;
    let handlers = [
        c.damage.set_handler(apply_damage),
        c.heal.set_handler(apply_heal),
        c.add_materials.set_handler(apply_materials),
        c.add_energy.set_handler(apply_energy),
        c.add_fuel.set_handler(apply_fuel),
        c.damage_hull.set_handler(apply_hull_damage),
        c.start_wave.set_handler(apply_start_wave),
    ];
    debug_assert!(
        handlers.iter().all(Result::is_ok),
        "a fresh battle has no handlers yet"
    );
    // Production and cooldowns come with the end of a wave, between content reacting early
    // (negative priorities) and late (positive ones).
    c.wave_finished.react(
        Owner::Engine,
        Scope::Global,
        0,
        Box::new(|b: &mut Battle, _: &Wave| b.after_wave()),
    );
    // Runs before any content modifier: a wave cannot start while one runs or after the end.
    c.start_wave
        .modify(
            Owner::Engine,
            Scope::Global,
            i32::MIN,
            Box::new(|b: &mut Battle, _: &mut Wave| match b.phase() {
                Phase::Build => Flow::Continue,
                _ => Flow::Cancel,
            }),
        )
        .expect("negative priority");
}

fn apply_damage(b: &mut Battle, d: &mut Damage) {
    let Some(target) = b.state_mut().entities.get_mut(d.target) else {
        return;
    };
    if target.hp <= 0.0 || d.amount <= 0.0 {
        return;
    }
    d.dealt = d.amount.min(target.hp);
    target.hp -= d.dealt;
    let attacker = matches!(target.kind, EntityKind::Attacker(_));
    let dead = target.hp <= 0.0;
    if dead {
        target.hp = 0.0;
        b.mark_dying(d.target, d.source);
    }
    if let Some(e) = d.source.and_then(|s| b.state_mut().entities.get_mut(s)) {
        e.damage_dealt += d.dealt;
    }
    // A damaged attacker is progress for its wave.
    b.progressed |= attacker && d.dealt > 0.0;
    b.push_log(LogKind::Damaged {
        target: d.target,
        amount: d.dealt,
        source: d.source,
        types: d.types,
    });
}

fn gained(b: &mut Battle, resource: Resource, amount: f64, source: Option<EntityId>) {
    if amount > 0.0 {
        b.push_log(LogKind::Gained {
            resource,
            amount,
            source,
        });
    }
}

fn apply_heal(b: &mut Battle, h: &mut Heal) {
    let Some(target) = b.state_mut().entities.get_mut(h.target) else {
        return;
    };
    if target.hp <= 0.0 || h.amount <= 0.0 {
        return;
    }
    h.healed = h.amount.min(target.max_hp - target.hp).max(0.0);
    target.hp += h.healed;
    if h.healed > 0.0 {
        b.push_log(LogKind::Healed {
            target: h.target,
            amount: h.healed,
            source: h.source,
        });
    }
}

fn apply_materials(b: &mut Battle, g: &mut Gain) {
    b.state_mut().player.materials += g.amount;
    gained(b, Resource::Materials, g.amount, g.source);
}

fn apply_energy(b: &mut Battle, g: &mut Gain) {
    let cap = b.query(|b| &b.chains.energy_cap, &());
    let p = &mut b.state_mut().player;
    let before = p.energy;
    p.energy = (p.energy + g.amount).min(cap.max(p.energy));
    let gain = p.energy - before;
    gained(b, Resource::Energy, gain, g.source);
}

fn apply_fuel(b: &mut Battle, g: &mut Gain) {
    gained(b, Resource::Fuel, g.amount, g.source);
    let p = &mut b.state_mut().player;
    p.fuel += g.amount;
    if p.fuel >= p.fuel_goal && b.phase() != Phase::Won && b.phase() != Phase::Lost {
        b.state_mut().phase = Phase::Won;
        b.emit(|b| &b.chains.level_won, &Signal);
    }
}

fn apply_hull_damage(b: &mut Battle, h: &mut HullDamage) {
    let before = b.player().hull;
    let after = (before - h.amount).max(0.0);
    b.state_mut().player.hull = after;
    let by = h.attacker.and_then(|e| b.entity(e)).map(|e| e.kind);
    if let Some(EntityKind::Attacker(a)) = by {
        b.count(a, 0, (before - after).max(0.0));
    }
    if after <= 0.0 && b.phase() != Phase::Lost {
        b.state_mut().phase = Phase::Lost;
        b.emit(|b| &b.chains.defeat, &Signal);
    }
}

fn apply_start_wave(b: &mut Battle, w: &mut Wave) {
    let state = b.state_mut();
    state.wave = w.wave;
    state.phase = Phase::Wave;
    b.queue_wave(w.wave);
    b.emit(|b| &b.chains.wave_started, w);
}

fn stat(b: &Battle, s: &StatOf, read: impl Fn(&Blueprint) -> Option<f64>) -> f64 {
    read(b.content().blueprint(s.blueprint)).unwrap_or(0.0)
}

impl BaseValues for Battle {
    /// An attacker's speed from its type; 0 for anything else.
    fn base_speed(&mut self, e: &EntityId) -> f64 {
        match self.entity(*e).map(|e| e.kind) {
            Some(EntityKind::Attacker(a)) => self.content().attacker(a).speed,
            _ => 0.0,
        }
    }

    /// A blueprint's range; 0 if it has none.
    fn base_range(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| bp.range)
    }

    /// A blueprint's radius; 0 if it has none.
    fn base_radius(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| bp.radius)
    }

    /// A blueprint's damage per hit; 0 if it deals none.
    fn base_hit_damage(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| bp.damage)
    }

    /// A blueprint's interval in ticks; 0 if it has none.
    fn base_interval(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| bp.interval.map(f64::from))
    }

    /// A blueprint's delay in ticks; 0 if it has none.
    fn base_delay(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| bp.delay.map(f64::from))
    }

    /// A blueprint's duration in ticks; 0 if it has none.
    fn base_duration_ticks(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| bp.duration_ticks.map(f64::from))
    }

    /// A blueprint's duration in waves; 0 if it has none.
    fn base_duration_waves(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| bp.duration_waves.map(f64::from))
    }

    /// A blueprint's fuel production; 0 if it has none.
    fn base_fuel_production(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| bp.fuel_production)
    }

    /// A blueprint's material production; 0 if it has none.
    fn base_material_production(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| bp.material_production)
    }

    /// A blueprint's energy production; 0 if it has none.
    fn base_energy_production(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| bp.energy_production)
    }

    /// A blueprint's cooldown in waves.
    fn base_cooldown(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| Some(f64::from(bp.cooldown)))
    }

    /// A blueprint's starting cooldown in waves.
    fn base_starting_cooldown(&mut self, s: &StatOf) -> f64 {
        stat(self, s, |bp| Some(f64::from(bp.starting_cooldown)))
    }

    /// A blueprint's cost as written.
    fn base_cost(&mut self, s: &StatOf) -> Cost {
        self.content().blueprint(s.blueprint).cost
    }

    /// A blueprint's description lines as written.
    fn base_descriptions(&mut self, s: &StatOf) -> Vec<String> {
        self.content().blueprint(s.blueprint).descriptions.clone()
    }

    /// The energy cap of the battle's configuration.
    fn base_energy_cap(&mut self, _: &()) -> f64 {
        self.config().start.energy_cap
    }
}
