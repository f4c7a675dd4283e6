//! Augments in a run: which augment a reward, a shop or a pre-augmented blueprint offers, and
//! applying one to a blueprint of the collection (at most
//! [`MAX_PER_BLUEPRINT`](crate::content::augments::MAX_PER_BLUEPRINT) each). The augments are
//! content (`content::augments`); the battle applies them (`battle::augments`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Run, RunError, RunPhase};
use crate::content::augments::MAX_PER_BLUEPRINT;
use crate::content::{Augment, ContentDb, LevelSetter, Rarity};
use crate::rng::Rng;

/// An augment for a blueprint of the collection, as offered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AugmentOffer {
    /// The augment, `mod:name`.
    pub augment: String,
    /// The blueprint of the collection it would go on, `mod:name`.
    pub blueprint: String,
}

/// The rarities augments come in, in the order of the odds' weights.
const RARITIES: [Rarity; 3] = [Rarity::Common, Rarity::Rare, Rarity::Legendary];

/// Whether `augment` may go on `blueprint`, which already carries `held`.
pub fn may_apply(content: &ContentDb, augment: &Augment, blueprint: &str, held: &[String]) -> bool {
    let fits = content
        .blueprint_id(blueprint)
        .is_some_and(|b| augment.fits(content.blueprint(b)));
    fits && held.len() < MAX_PER_BLUEPRINT && !held.contains(&augment.id)
}

/// Draws an augment with the odds of level `level` among those that fit one of `blueprints`
/// (each with the augments it holds), then one of the blueprints it fits; `None` when none fits.
pub fn draw(
    content: &ContentDb,
    setter: &LevelSetter,
    level: u32,
    blueprints: &[(&str, &[String])],
    rng: &mut Rng,
) -> Option<AugmentOffer> {
    let targets = |a: &Augment| -> Vec<&str> {
        blueprints
            .iter()
            .filter(|(b, held)| may_apply(content, a, b, held))
            .map(|(b, _)| *b)
            .collect()
    };
    let mut left: [Vec<&Augment>; 3] = Default::default();
    for a in &content.augments {
        if let Some(r) = RARITIES.iter().position(|&r| r == a.rarity)
            && !targets(a).is_empty()
        {
            left[r].push(a);
        }
    }
    let odds = setter.odds(level);
    let weights: Vec<f64> = (0..3)
        .map(|r| if left[r].is_empty() { 0.0 } else { odds[r] })
        .collect();
    let r = rng
        .weighted_index(&weights)
        .or_else(|| (0..3).find(|&r| !left[r].is_empty()))?;
    let augment = left[r][rng.index(left[r].len())];
    let fits = targets(augment);
    let blueprint = fits[rng.index(fits.len())];
    Some(AugmentOffer {
        augment: augment.id.clone(),
        blueprint: blueprint.to_string(),
    })
}

/// The blueprints of `collection` with the augments each carries in `augments`, for [`draw`].
pub(super) fn targets<'a>(
    collection: &'a [String],
    augments: &'a BTreeMap<String, Vec<String>>,
) -> Vec<(&'a str, &'a [String])> {
    collection
        .iter()
        .map(|b| (b.as_str(), augments.get(b).map_or(&[][..], Vec::as_slice)))
        .collect()
}

impl Run {
    /// The augments of the collection's blueprints: blueprint → its augments, in the order taken.
    pub fn augments(&self) -> &BTreeMap<String, Vec<String>> {
        &self.augments
    }

    /// The augments `blueprint` carries.
    pub fn augments_of(&self, blueprint: &str) -> &[String] {
        self.augments.get(blueprint).map_or(&[], Vec::as_slice)
    }

    /// The augments `offer`'s blueprint would carry once the offer is taken: those it has, then
    /// the offered one, in the order they apply.
    pub fn augments_with(&self, offer: &AugmentOffer) -> Vec<String> {
        let mut augments = self.augments_of(&offer.blueprint).to_vec();
        augments.push(offer.augment.clone());
        augments
    }

    /// Puts `augment` on `blueprint`, if it may go there.
    pub(super) fn apply_augment(
        &mut self,
        content: &ContentDb,
        offer: &AugmentOffer,
    ) -> Result<(), RunError> {
        let augment = content
            .augment(&offer.augment)
            .ok_or_else(|| RunError::NoAugment(offer.augment.clone()))?;
        if !self.collection.contains(&offer.blueprint) {
            return Err(RunError::AugmentTarget(format!(
                "`{}` is not in the collection",
                offer.blueprint
            )));
        }
        if !may_apply(
            content,
            augment,
            &offer.blueprint,
            self.augments_of(&offer.blueprint),
        ) {
            return Err(RunError::AugmentTarget(format!(
                "`{}` does not fit `{}`, already has it, or has {MAX_PER_BLUEPRINT} augments",
                offer.augment, offer.blueprint
            )));
        }
        self.augments
            .entry(offer.blueprint.clone())
            .or_default()
            .push(offer.augment.clone());
        Ok(())
    }

    /// Takes the augment a reward offers instead of a blueprint, and moves on as
    /// [`Run::choose_reward`] does.
    pub fn take_reward_augment(&mut self, content: &ContentDb) -> Result<(), RunError> {
        let RunPhase::Reward {
            augment: Some(offer),
            ..
        } = &self.phase
        else {
            return Err(RunError::NoReward);
        };
        let offer = offer.clone();
        self.apply_augment(content, &offer)?;
        self.after_reward(content);
        Ok(())
    }

    /// Forgets the augments of blueprints that left the collection.
    pub(super) fn drop_stray_augments(&mut self) {
        let collection = &self.collection;
        self.augments.retain(|b, _| collection.contains(b));
    }
}
