//! Events in a run: which event an event room holds, which of its choices can be taken, and
//! what taking one does. The events themselves are content (`content::events`).

use serde::{Deserialize, Serialize};

use super::event_script::{self, RunView};
use super::{Run, RunError, RunPhase, rewards};
use crate::content::events::{Choice, Outcome};
use crate::content::{ContentDb, Rarity};
use crate::rng::Seed;

/// An event room being visited.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventVisit {
    /// The event, `mod:name`.
    pub event: String,
    /// Where its chances are drawn from: the room's branch of the act's seed.
    pub seed: Seed,
}

/// One choice of the event being visited, as the player sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct ChoiceState {
    /// Its text.
    pub text: String,
    /// Why it cannot be taken, if it cannot.
    pub blocked: Option<String>,
}

/// The event an event room of act `act` holds: drawn by weight among the events of that act
/// not `seen` yet in the run (among all of the act's when every one was seen); `None` when no
/// loaded event fits the act.
pub fn draw(content: &ContentDb, act: u32, seen: &[String], seed: Seed) -> Option<EventVisit> {
    let fits: Vec<_> = content.events.iter().filter(|e| e.in_act(act)).collect();
    let fresh: Vec<_> = fits
        .iter()
        .copied()
        .filter(|e| !seen.contains(&e.id))
        .collect();
    let pool = if fresh.iter().any(|e| e.weight > 0.0) {
        fresh
    } else {
        fits
    };
    let weights: Vec<f64> = pool.iter().map(|e| e.weight).collect();
    let mut rng = seed.branch("draw").rng();
    let event = pool[rng.weighted_index(&weights)?];
    Some(EventVisit {
        event: event.id.clone(),
        seed,
    })
}

impl Run {
    /// The event the run is at and its choices, each with why it cannot be taken if it cannot.
    pub fn event_choices<'c>(
        &self,
        content: &'c ContentDb,
    ) -> Result<(&'c crate::content::Event, Vec<ChoiceState>), RunError> {
        let RunPhase::Event(visit) = &self.phase else {
            return Err(self.not_at_event());
        };
        let event = content
            .events
            .iter()
            .find(|e| e.id == visit.event)
            .ok_or_else(|| {
                RunError::ChoiceUnavailable(format!(
                    "no loaded mod has the event `{}`",
                    visit.event
                ))
            })?;
        let states = event
            .choices
            .iter()
            .map(|c| ChoiceState {
                text: c.text.clone(),
                blocked: self.blocked(c),
            })
            .collect();
        Ok((event, states))
    }

    /// Why the run cannot take `choice`, if it cannot.
    fn blocked(&self, choice: &Choice) -> Option<String> {
        let money = choice.money_needed();
        if money > self.money {
            return Some(format!(
                "it needs {money} money and the run has {}",
                self.money
            ));
        }
        if choice.loses_blueprint() && self.collection.len() < 2 {
            return Some("it takes a blueprint, and the last one must stay".into());
        }
        None
    }

    fn not_at_event(&self) -> RunError {
        match &self.phase {
            RunPhase::Over { .. } => RunError::Over,
            phase => RunError::WrongPhase {
                needs: "an event",
                is: phase.name(),
            },
        }
    }

    /// Takes choice `index` of the event the run is at and carries out what happens (drawn
    /// from the room's seed when the choice has a chance). Returns the outcomes that happened.
    /// The room is then cleared (its key, if any, collected) and the run goes back to the map —
    /// or to a reward when the event gave a blueprint.
    pub fn choose_event(
        &mut self,
        content: &ContentDb,
        index: usize,
    ) -> Result<Vec<Outcome>, RunError> {
        let (event, states) = self.event_choices(content)?;
        let choice = event.choices.get(index).ok_or(RunError::NoSuchChoice {
            choices: event.choices.len(),
            index,
        })?;
        if let Some(why) = &states[index].blocked {
            return Err(RunError::ChoiceUnavailable(why.clone()));
        }
        let RunPhase::Event(visit) = &self.phase else {
            unreachable!("event_choices checked the phase");
        };
        let mut rng = visit.seed.branch("choice").rng();
        let drawn = if choice.chance >= 1.0 || rng.unit() < choice.chance {
            &choice.outcomes
        } else {
            &choice.otherwise
        };
        let view = RunView {
            money: self.money,
            hull: self.hull,
            max_hull: self.max_hull(content)?,
            act: self.act,
            level: self.level,
            ascension: self.ascension,
            collection: &self.collection,
        };
        // A broken script must not hold the run up: the choice's own outcomes stand in.
        let happened = match event_script::outcomes(content, event, &view, index, drawn, visit.seed)
        {
            Ok(outcomes) => outcomes,
            Err(e) => {
                tracing::warn!("event `{}`: {e}; its choice's own outcomes apply", event.id);
                drawn.clone()
            }
        };
        let most = self.max_hull(content)?;
        let mut offers = Vec::new();
        for outcome in &happened {
            match outcome {
                Outcome::Money(m) => self.money = self.money.saturating_add_signed(*m),
                Outcome::Hull(h) => {
                    // An event heals up to the starting hull and never takes the last point.
                    let floor = self.hull.min(1.0);
                    self.hull = (self.hull + h).min(most.max(self.hull)).max(floor);
                }
                Outcome::Blueprint(rarity) => {
                    let mut picked = self.picked.clone();
                    picked.extend(offers.iter().cloned());
                    if let Some(id) = draw_blueprint(content, *rarity, &picked, &mut rng) {
                        offers.push(id);
                    }
                }
                Outcome::GiveBlueprint(id) => {
                    if !self.picked.contains(id) && !offers.contains(id) {
                        offers.push(id.clone());
                    }
                }
                Outcome::LoseBlueprint => {
                    if self.collection.len() > 1 {
                        let i = rng.index(self.collection.len());
                        self.collection.remove(i);
                        self.drop_stray_augments();
                    }
                }
            }
        }
        self.map.clear_current();
        self.phase = if offers.is_empty() {
            RunPhase::Map
        } else {
            RunPhase::Reward {
                offers,
                augmented: Vec::new(),
                augment: None,
            }
        };
        Ok(happened)
    }
}

/// A blueprint of `rarity` not in `picked`, drawn uniformly in load order; special-rarity ones
/// only if the game does not place them.
fn draw_blueprint(
    content: &ContentDb,
    rarity: Rarity,
    picked: &[String],
    rng: &mut crate::rng::Rng,
) -> Option<String> {
    let left: Vec<&str> = content
        .blueprints
        .iter()
        .filter(|b| b.rarity == rarity && !picked.contains(&b.id))
        .filter(|b| !b.placed_by_game())
        .filter(|b| rarity == Rarity::Special || rewards::offerable(content, &b.id))
        .map(|b| b.id.as_str())
        .collect();
    (!left.is_empty()).then(|| left[rng.index(left.len())].to_string())
}
