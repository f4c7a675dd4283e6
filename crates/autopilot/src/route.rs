//! How the autopilot walks a run's map: which room to enter, what to buy in a shop, which
//! choice of an event to take. Like the rest of the autopilot it judges by what the player sees
//! — room kinds, the hull, money, prices, what an event's choices say they do.

use super::rewards::best_blueprint;
use rampart_core::content::ContentDb;
use rampart_core::content::Rarity;
use rampart_core::content::acts::NodeKind;
use rampart_core::content::events::Outcome;
use rampart_core::mapgen::NodeId;
use rampart_core::run::{Run, RunPhase, Ware};

/// Below this share of the starting hull, a rest or a repair comes first.
const LOW_HULL: f64 = 0.6;
/// From this share of the starting hull on, an elite battle is worth its risk.
const HIGH_HULL: f64 = 0.8;

/// The room to enter next, among the open ones: a rest when the hull is low, a shop with money
/// to spend, then battles (rewards make the collection grow), events, and the boss once nothing
/// better is open. `None` when nothing is open.
pub fn choose_room(content: &ContentDb, run: &Run) -> Option<NodeId> {
    let share = hull_share(content, run);
    let map = run.map();
    let score = |kind: NodeKind| -> f64 {
        match kind {
            NodeKind::Rest if share < LOW_HULL => 10.0,
            NodeKind::Shop if run.money() >= 60 => 8.0,
            NodeKind::Elite if share >= HIGH_HULL => 6.0,
            NodeKind::Battle => 5.0,
            NodeKind::Event => 4.0,
            NodeKind::Boss => 3.0,
            NodeKind::Rest | NodeKind::Shop | NodeKind::Elite => 2.0,
            NodeKind::Start => 0.0,
        }
    };
    run.choices()
        .into_iter()
        .filter_map(|id| Some((id, score(map.node(id)?.kind))))
        // The first made wins a tie: the order is the map's, so the choice is deterministic.
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(id, _)| id)
}

/// One purchase in the shop the run is in: a repair while the hull is low, else the blueprint
/// that improves the collection most among those it can pay for, else an augment it can pay
/// for. `(offer, slot)` for [`Run::buy`]; `None` to leave.
pub fn choose_purchase(content: &ContentDb, run: &Run) -> Option<(usize, Option<usize>)> {
    let RunPhase::Shop(shop) = run.phase() else {
        return None;
    };
    let share = hull_share(content, run);
    let affordable = |i: usize| {
        let o = &shop.offers[i];
        !o.sold && o.price <= run.money()
    };
    if share < LOW_HULL
        && let Some(i) =
            (0..shop.offers.len()).find(|&i| shop.offers[i].ware == Ware::Repair && affordable(i))
    {
        return Some((i, None));
    }
    let blueprints: Vec<(usize, String)> = (0..shop.offers.len())
        .filter(|&i| affordable(i))
        .filter_map(|i| match &shop.offers[i].ware {
            Ware::Blueprint(id) => Some((i, id.clone())),
            _ => None,
        })
        .collect();
    let ids: Vec<String> = blueprints.iter().map(|(_, id)| id.clone()).collect();
    match best_blueprint(content, run, &ids) {
        (Some(k), slot) => Some((blueprints[k].0, slot)),
        (None, _) => (0..shop.offers.len())
            .find(|&i| affordable(i) && matches!(shop.offers[i].ware, Ware::Augment(_)))
            .map(|i| (i, None)),
    }
}

/// The choice of the event the run is at worth most by what its outcomes say: money and hull
/// at face value (hull more when low), blueprints by rarity, a chance weighting both ways.
pub fn choose_event(content: &ContentDb, run: &Run) -> Option<usize> {
    let (event, states) = run.event_choices(content).ok()?;
    let share = hull_share(content, run);
    let hull_worth = if share < LOW_HULL { 8.0 } else { 3.0 };
    let value = |outcomes: &[Outcome]| -> f64 {
        outcomes
            .iter()
            .map(|o| match o {
                Outcome::Money(m) => f64::from(*m) * 0.4,
                Outcome::Hull(h) => h * hull_worth,
                Outcome::Blueprint(Rarity::Legendary) => 40.0,
                Outcome::Blueprint(Rarity::Rare | Rarity::Special) => 25.0,
                Outcome::Blueprint(_) | Outcome::GiveBlueprint(_) => 15.0,
                Outcome::LoseBlueprint => -20.0,
            })
            .sum()
    };
    event
        .choices
        .iter()
        .enumerate()
        .filter(|(i, _)| states[*i].blocked.is_none())
        .map(|(i, c)| {
            let p = c.chance.clamp(0.0, 1.0);
            (i, p * value(&c.outcomes) + (1.0 - p) * value(&c.otherwise))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(i, _)| i)
}

/// The run's hull as a share of its starting hull.
fn hull_share(content: &ContentDb, run: &Run) -> f64 {
    run.max_hull(content).map_or(1.0, |most| run.hull() / most)
}
