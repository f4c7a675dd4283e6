//! What the battle's log sounds like: each entry that a player should hear becomes a [`Cue`] —
//! a sound of the content and where it happened. Which sound is the content's choice (a
//! blueprint's, an attacker type's, `soundscape.ron`'s); this module only reads the log, so the
//! game window and an offline render hear the same battle alike.

use std::collections::HashMap;

use rampart_core::battle::{Battle, EntityId, EntityKind, LogEntry, LogKind, Position};
use rampart_core::content::{ContentDb, DamageType};

/// A sound to play: a sound's id (`mod:name`) and where in the battle's world, if anywhere.
#[derive(Clone, Debug, PartialEq)]
pub struct Cue {
    /// The sound's id.
    pub sound: String,
    /// Where it happened; `None` for the game's own sounds (a wave starting), heard alike
    /// everywhere.
    pub at: Option<Position>,
}

/// The order in which a hit of several damage types picks its sound.
const HIT_ORDER: [DamageType; 4] = [
    DamageType::Physical,
    DamageType::Explosive,
    DamageType::Energy,
    DamageType::HpLoss,
];

/// Turns a battle's log into cues, frame by frame. It remembers what every entity was and where
/// it stood at the end of the last frame: an attacker that died, or a building removed, is gone
/// from the battle by the time its log entry is heard.
#[derive(Debug, Default)]
pub struct Cues {
    seen: HashMap<EntityId, (EntityKind, Position)>,
}

impl Cues {
    /// Forgets every entity: a new battle begins.
    pub fn reset(&mut self) {
        self.seen.clear();
    }

    /// The cues of `log`, what `battle` logged since the last call.
    pub fn hear(&mut self, battle: &Battle, log: &[LogEntry]) -> Vec<Cue> {
        for entry in log {
            if let LogKind::Appeared {
                entity,
                kind,
                position,
            } = entry.kind
            {
                self.seen.entry(entity).or_insert((kind, position));
            }
        }
        let content = battle.content();
        let mut cues = Vec::new();
        for entry in log {
            if let Some(cue) = self.cue(battle, content, &entry.kind) {
                cues.push(cue);
            }
        }
        self.seen.clear();
        self.seen
            .extend(battle.entities().map(|(id, e)| (id, (e.kind, e.position))));
        cues
    }

    /// What entity `id` is and where it is, or was when last seen.
    fn find(&self, battle: &Battle, id: EntityId) -> Option<(EntityKind, Position)> {
        battle
            .entity(id)
            .map(|e| (e.kind, e.position))
            .or_else(|| self.seen.get(&id).copied())
    }

    /// The cue of one log entry, if it has one.
    fn cue(&self, battle: &Battle, content: &ContentDb, kind: &LogKind) -> Option<Cue> {
        let scape = &content.soundscape;
        let heard = |sound: &Option<String>| sound.clone().map(|sound| Cue { sound, at: None });
        let at = |sound: Option<&String>, position: Position| {
            sound.map(|sound| Cue {
                sound: sound.clone(),
                at: Some(position),
            })
        };
        match kind {
            LogKind::Event { chain, entity } => {
                let found = entity.and_then(|id| self.find(battle, id));
                match (*chain, found) {
                    ("wave_started", _) => heard(&scape.wave_start),
                    ("wave_finished", _) => heard(&scape.wave_end),
                    ("level_won", _) => heard(&scape.level_won),
                    ("defeat", _) => heard(&scape.level_lost),
                    ("tower_fired", Some((EntityKind::Building(b), p))) => {
                        at(content.blueprint(b).sounds.fire.as_ref(), p)
                    }
                    ("ability_used", Some((EntityKind::Ability(b), p))) => {
                        at(content.blueprint(b).sounds.ability.as_ref(), p)
                    }
                    ("building_placed", Some((EntityKind::Building(b), p))) => at(
                        content
                            .blueprint(b)
                            .sounds
                            .place
                            .as_ref()
                            .or(scape.place.as_ref()),
                        p,
                    ),
                    ("building_removed", Some((EntityKind::Building(b), p))) => {
                        at(content.blueprint(b).sounds.removed.as_ref(), p)
                    }
                    ("attacker_spawned", Some((EntityKind::Attacker(a), p))) => {
                        at(content.attacker(a).sounds.spawn.as_ref(), p)
                    }
                    ("attacker_killed", Some((EntityKind::Attacker(a), p))) => {
                        at(content.attacker(a).sounds.death.as_ref(), p)
                    }
                    ("attacker_reached_hub", Some((EntityKind::Attacker(a), p))) => at(
                        content
                            .attacker(a)
                            .sounds
                            .leak
                            .as_ref()
                            .or(scape.leak.as_ref()),
                        p,
                    ),
                    _ => None,
                }
            }
            LogKind::Blast {
                blueprint, at: p, ..
            } => at(content.blueprint(*blueprint).sounds.fire.as_ref(), *p),
            LogKind::Damaged { target, types, .. } => {
                let Some((EntityKind::Attacker(a), p)) = self.find(battle, *target) else {
                    return None;
                };
                let own = content.attacker(a).sounds.hit.as_ref();
                let by_type = || {
                    HIT_ORDER
                        .iter()
                        .filter(|t| types.contains(**t))
                        .find_map(|t| scape.hits.get(t))
                };
                at(own.or_else(by_type), p)
            }
            LogKind::EffectApplied { target, name, .. } => {
                let (_, p) = self.find(battle, *target)?;
                at(scape.effects.get(name), p)
            }
            LogKind::Refused { .. } => heard(&scape.refused),
            LogKind::Sound { sound, at: p, .. } => Some(Cue {
                sound: sound.clone(),
                at: *p,
            }),
            _ => None,
        }
    }
}
