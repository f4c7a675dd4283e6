//! Money and shops (thesis §2.9.4): a won battle pays by its kind, less for the hull lost in it;
//! a shop stocks blueprints from the reward pool, a hull repair and the removal of a blueprint
//! from the collection, at the level setter's prices.

use serde::{Deserialize, Serialize};

use super::rewards;
use super::setter::{LevelKind, setter};
use super::{Run, RunError, RunPhase};
use crate::content::money::Money;
use crate::content::{ContentDb, Rarity};
use crate::rng::Seed;

/// What a won battle of `kind` pays when `hull_lost` hull was lost in it.
pub fn pay(money: &Money, kind: &LevelKind, hull_lost: f64) -> u32 {
    let base = match kind {
        LevelKind::Normal => money.battle,
        LevelKind::Elite => money.elite,
        LevelKind::Boss(_) => money.boss,
    };
    let penalty = (money.per_hull_lost * hull_lost.max(0.0)).round();
    (f64::from(base) - penalty).max(0.0) as u32
}

/// Something a shop sells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ware {
    /// A blueprint for the collection (`mod:name`).
    Blueprint(String),
    /// An augment for a blueprint of the collection.
    Augment(super::AugmentOffer),
    /// Hull back (the level setter's `repair`).
    Repair,
    /// Taking a blueprint out of the collection.
    Removal,
}

/// One offer of a shop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Offer {
    /// What it is.
    pub ware: Ware,
    /// What it costs.
    pub price: u32,
    /// Whether it was bought (a blueprint and a removal sell once, a repair as often as paid),
    /// or, for an augment, whether its blueprint has left the collection.
    pub sold: bool,
}

/// A shop's offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shop {
    /// The offers, blueprints first.
    pub offers: Vec<Offer>,
}

impl Shop {
    /// The shop `seed` stocks for `run`: `shop_blueprints` blueprints drawn like rewards (the
    /// odds of the run's level, none the run has held), the level setter's `augments.shop`
    /// augments for blueprints of the collection, then a repair and a removal.
    pub fn stock(content: &ContentDb, run: &Run, seed: Seed) -> Result<Shop, RunError> {
        let setter = setter(content)?;
        let money = &setter.money;
        let mut rng = seed.rng();
        let count = money.shop_blueprints;
        let blueprints = rewards::draw_n(content, setter, run.level, &run.picked, count, &mut rng);
        let price = |rarity: Option<Rarity>| match rarity {
            Some(Rarity::Rare) => money.prices.rare,
            Some(Rarity::Legendary) => money.prices.legendary,
            _ => money.prices.common,
        };
        let rarity_of = |id: &str| {
            content
                .blueprint_id(id)
                .map(|b| content.blueprint(b).rarity)
        };
        let mut offers: Vec<Offer> = blueprints
            .into_iter()
            .map(|id| Offer {
                price: price(rarity_of(&id)),
                ware: Ware::Blueprint(id),
                sold: false,
            })
            .collect();
        let targets = super::augments::targets(&run.collection, &run.augments);
        let mut seen = Vec::new();
        for _ in 0..setter.augments.shop {
            let Some(offer) = super::augments::draw(content, setter, run.level, &targets, &mut rng)
            else {
                break;
            };
            if seen.contains(&offer) {
                continue;
            }
            seen.push(offer.clone());
            offers.push(Offer {
                price: price(content.augment(&offer.augment).map(|a| a.rarity)),
                ware: Ware::Augment(offer),
                sold: false,
            });
        }
        for (ware, price) in [
            (Ware::Repair, money.prices.repair),
            (Ware::Removal, money.prices.removal),
        ] {
            offers.push(Offer {
                ware,
                price,
                sold: false,
            });
        }
        Ok(Shop { offers })
    }
}

impl Run {
    /// Money the run has.
    pub fn money(&self) -> u32 {
        self.money
    }

    /// Buys offer `index` of the shop the run is in. A blueprint goes into the collection (into slot `slot`
    /// instead when given, which a full collection needs); a removal takes the blueprint in
    /// `slot` out (one must stay); a repair gives hull back up to the run's starting hull.
    pub fn buy(
        &mut self,
        content: &ContentDb,
        index: usize,
        slot: Option<usize>,
    ) -> Result<(), RunError> {
        let setter = setter(content)?;
        let RunPhase::Shop(shop) = &self.phase else {
            return Err(RunError::WrongPhase {
                needs: "a shop",
                is: self.phase.name(),
            });
        };
        let offer = shop
            .offers
            .get(index)
            .ok_or(RunError::NoSuchOffer {
                offers: shop.offers.len(),
                index,
            })?
            .clone();
        if offer.sold {
            return Err(RunError::Sold);
        }
        if offer.price > self.money {
            return Err(RunError::TooPoor {
                price: offer.price,
                money: self.money,
            });
        }
        let bad_slot = |len: usize, index: usize| RunError::NoSuchSlot { len, index };
        match &offer.ware {
            Ware::Blueprint(id) => self.add_blueprint(id, slot)?,
            Ware::Augment(augment) => self.apply_augment(content, augment)?,
            Ware::Removal => match slot {
                Some(j) if j < self.collection.len() && self.collection.len() > 1 => {
                    self.collection.remove(j);
                    self.drop_stray_augments();
                }
                Some(_) if self.collection.len() <= 1 => return Err(RunError::LastBlueprint),
                j => return Err(bad_slot(self.collection.len(), j.unwrap_or(usize::MAX))),
            },
            Ware::Repair => {
                let most = self.max_hull(content)?;
                if self.hull >= most {
                    return Err(RunError::HullFull);
                }
                self.hull = (self.hull + setter.money.repair).min(most);
            }
        }
        self.money -= offer.price;
        let collection = &self.collection;
        if let RunPhase::Shop(shop) = &mut self.phase {
            if offer.ware != Ware::Repair {
                shop.offers[index].sold = true;
            }
            // An augment for a blueprint that just left the collection (given up for a bought
            // one, or removed) has nothing left to go on: it is gone from the shop too.
            for o in &mut shop.offers {
                if let Ware::Augment(a) = &o.ware
                    && !collection.contains(&a.blueprint)
                {
                    o.sold = true;
                }
            }
        }
        Ok(())
    }
}
