//! How the autopilot picks rewards: by what each blueprint's data says it is worth per cost,
//! compared with the best it already has of the same sort.

use rampart_core::battle::shape::reach;
use rampart_core::content::{Behaviour, Blueprint, BlueprintKind, ContentDb};
use rampart_core::run::{Run, RunPhase};

use super::estimate::shot_rate;

/// Waves a level typically lasts, to value production (the core levels have 8–17).
const TYPICAL_WAVES: f64 = 8.0;

/// The sorts of blueprints the autopilot tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sort {
    Tower,
    Economy,
    Blast,
    Other,
}

fn sort(bp: &Blueprint) -> Sort {
    let produces = [
        bp.material_production,
        bp.energy_production,
        bp.fuel_production,
    ]
    .iter()
    .any(|p| p.is_some_and(|v| v > 0.0));
    match (&bp.behaviour, bp.kind) {
        (Some(Behaviour::Shooter(_)), k) if k.is_building() => Sort::Tower,
        (Some(Behaviour::Blast), BlueprintKind::Ability) => Sort::Blast,
        (None, k) if k.is_building() && produces => Sort::Economy,
        _ => Sort::Other,
    }
}

/// What a blueprint is worth per unit of cost, from its own numbers: a tower's damage rate times
/// the path it could cover (twice its reach, a straight path through its range); a building's
/// production over a typical level; a blast's damage over its area. 0 for what the autopilot
/// cannot use.
fn worth(bp: &Blueprint) -> f64 {
    let cost = (bp.cost.materials + bp.cost.energy).max(1.0);
    let radius = bp.radius.unwrap_or(0.0);
    match (sort(bp), &bp.behaviour) {
        (Sort::Tower, Some(Behaviour::Shooter(s))) => {
            let interval = f64::from(bp.interval.unwrap_or(20));
            let rate = shot_rate(s, bp.damage.unwrap_or(0.0), interval, radius);
            rate * 2.0 * reach(&s.shape, bp.range.unwrap_or(0.0)) / cost
        }
        (Sort::Economy, _) => {
            let per_wave = bp.material_production.unwrap_or(0.0)
                + 0.5 * bp.energy_production.unwrap_or(0.0)
                + bp.fuel_production.unwrap_or(0.0);
            per_wave * TYPICAL_WAVES / cost
        }
        (Sort::Blast, _) => bp.damage.unwrap_or(0.0) * (1.0 + 2.0 * radius) / cost,
        _ => 0.0,
    }
}

/// The autopilot's answer to a reward: `(offer, replace)` for [`Run::choose_reward`]. It takes
/// the offer that improves most on the best blueprint of its sort in the collection (a sort it
/// lacks counts as double), if any improves; with a full collection it gives up the weakest of
/// that sort, or else the weakest of a sort it holds two or more of, or skips.
pub fn choose_reward(content: &ContentDb, run: &Run) -> (Option<usize>, Option<usize>) {
    let RunPhase::Reward { offers, .. } = run.phase() else {
        return (None, None);
    };
    best_blueprint(content, run, offers)
}

/// Whether to take a reward's augment: when no blueprint on offer improves the collection.
pub fn take_augment(content: &ContentDb, run: &Run) -> bool {
    matches!(
        run.phase(),
        RunPhase::Reward {
            augment: Some(_),
            ..
        }
    ) && choose_reward(content, run).0.is_none()
}

/// Like [`choose_reward`], among `offers` (blueprint ids): `(offer, replace)`.
pub(super) fn best_blueprint(
    content: &ContentDb,
    run: &Run,
    offers: &[String],
) -> (Option<usize>, Option<usize>) {
    let held: Vec<&Blueprint> = run
        .collection()
        .iter()
        .filter_map(|id| content.blueprint_id(id).map(|b| content.blueprint(b)))
        .collect();
    let best_of = |s: Sort| {
        held.iter()
            .filter(|b| sort(b) == s)
            .map(|b| worth(b))
            .fold(None, |m: Option<f64>, w| Some(m.map_or(w, |m| m.max(w))))
    };
    let mut choice: Option<(usize, f64)> = None;
    for (i, id) in offers.iter().enumerate() {
        let Some(bp) = content.blueprint_id(id).map(|b| content.blueprint(b)) else {
            continue;
        };
        let w = worth(bp);
        if w <= 0.0 {
            continue;
        }
        let gain = best_of(sort(bp)).map_or(2.0, |best| w / best);
        if gain > 1.0 && choice.is_none_or(|(_, g)| gain > g) {
            choice = Some((i, gain));
        }
    }
    let Some((offer, _)) = choice else {
        return (None, None);
    };
    if run.collection().len() < run.collection_limit() {
        return (Some(offer), None);
    }
    let taken = content
        .blueprint_id(&offers[offer])
        .map(|b| sort(content.blueprint(b)));
    let count = |s: Sort| held.iter().filter(|b| sort(b) == s).count();
    let weakest = |pred: &dyn Fn(Sort) -> bool| {
        run.collection()
            .iter()
            .enumerate()
            .filter_map(|(j, id)| content.blueprint_id(id).map(|b| (j, content.blueprint(b))))
            .filter(|(_, b)| pred(sort(b)))
            .min_by(|a, b| worth(a.1).total_cmp(&worth(b.1)).then(a.0.cmp(&b.0)))
            .map(|(j, _)| j)
    };
    let replace = weakest(&|s| Some(s) == taken)
        .or_else(|| weakest(&|s| s == Sort::Other))
        .or_else(|| weakest(&|s| count(s) >= 2));
    match replace {
        Some(j) => (Some(offer), Some(j)),
        None => (None, None),
    }
}
