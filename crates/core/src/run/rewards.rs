//! Blueprint rewards (thesis §2.4, §4.3.3): after a won level, a few distinct blueprints the run
//! has not picked yet, each of a rarity drawn with the odds of that point of the run.

use super::augments::{self, AugmentOffer};
use crate::content::{ContentDb, LevelSetter, Rarity};
use crate::rng::Rng;

/// What a won battle offers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Offers {
    /// Blueprints.
    pub offers: Vec<String>,
    /// For each, the augment it comes with, if any (empty: none has one).
    pub augmented: Vec<Option<String>>,
    /// An augment for a blueprint of the collection, in place of the last blueprint.
    pub augment: Option<AugmentOffer>,
}

/// The reward of a battle won with the odds of level `level`: [`draw`]n blueprints; with the
/// level setter's `augments.offer` chance an augment for one of `collection` (blueprint → the
/// augments it holds) in place of the last; each blueprint with the `augments.preapplied` chance
/// an augment that fits it.
pub fn after_battle(
    content: &ContentDb,
    setter: &LevelSetter,
    level: u32,
    picked: &[String],
    collection: &[(&str, &[String])],
    rng: &mut Rng,
) -> Offers {
    let mut offers = draw(content, setter, level, picked, rng);
    let odds = &setter.augments;
    let mut augment = None;
    if rng.unit() < odds.offer {
        augment = augments::draw(content, setter, level, collection, rng);
        if augment.is_some() && offers.len() >= setter.offers {
            offers.pop();
        }
    }
    let none: &[String] = &[];
    let mut augmented: Vec<Option<String>> = offers
        .iter()
        .map(|id| {
            (rng.unit() < odds.preapplied)
                .then(|| augments::draw(content, setter, level, &[(id, none)], rng))
                .flatten()
                .map(|a| a.augment)
        })
        .collect();
    if augmented.iter().all(Option::is_none) {
        augmented.clear();
    }
    Offers {
        offers,
        augmented,
        augment,
    }
}

/// The rarities offered as rewards, in the order of the odds' weights.
const OFFERED: [Rarity; 3] = [Rarity::Common, Rarity::Rare, Rarity::Legendary];

/// Whether a blueprint may ever be offered: not starter or special, and not placed by the game.
pub fn offerable(content: &ContentDb, id: &str) -> bool {
    content.blueprint_id(id).is_some_and(|b| {
        let bp = content.blueprint(b);
        OFFERED.contains(&bp.rarity) && !bp.placed_by_game()
    })
}

/// Draws the offers after level `won`: up to `setter.offers` distinct blueprints, none of them in
/// `picked`. Each slot draws a rarity with the odds of level `won` among the rarities that still
/// have candidates, then a blueprint of that rarity uniformly (load order breaks no tie: the draw
/// is by index). Fewer come when fewer are left.
pub fn draw(
    content: &ContentDb,
    setter: &LevelSetter,
    won: u32,
    picked: &[String],
    rng: &mut Rng,
) -> Vec<String> {
    draw_n(content, setter, won, picked, setter.offers, rng)
}

/// Like [`draw`], for `count` blueprints (a shop's stock).
pub fn draw_n(
    content: &ContentDb,
    setter: &LevelSetter,
    won: u32,
    picked: &[String],
    count: usize,
    rng: &mut Rng,
) -> Vec<String> {
    let mut left: [Vec<&str>; 3] = Default::default();
    for bp in &content.blueprints {
        if picked.contains(&bp.id) || !offerable(content, &bp.id) {
            continue;
        }
        if let Some(r) = OFFERED.iter().position(|&r| r == bp.rarity) {
            left[r].push(&bp.id);
        }
    }
    let odds = setter.odds(won);
    let mut offers = Vec::new();
    while offers.len() < count {
        let weights: Vec<f64> = (0..3)
            .map(|r| if left[r].is_empty() { 0.0 } else { odds[r] })
            .collect();
        // Rarities with candidates but no weight still fill the offer when nothing else is left.
        let rarity = rng
            .weighted_index(&weights)
            .or_else(|| (0..3).find(|&r| !left[r].is_empty()));
        let Some(r) = rarity else {
            break;
        };
        let i = rng.index(left[r].len());
        offers.push(left[r].remove(i).to_string());
    }
    offers
}
