//! What the autopilot believes about a battle, in the thesis's own terms (§3.6): each tower's
//! damage rate `d_t` and the path length `l_t` it covers give the defence's capacity and rate on
//! every path, and the wave model turns the next wave's attackers into the value that capacity
//! has to beat.

use rampart_core::battle::{Battle, EntityId, Field, SegmentCover, StatOf, WaveSpawns};
use rampart_core::content::{Behaviour, BlueprintId, Projectile, Shooter, Size, Targets};
use rampart_core::waves::model::{self, BatchShape, Collateral, Tower};

/// For each path start, the share of its attackers that walks each segment: 1 along a single
/// route, split evenly where the path splits (attackers alternate branches), added where
/// branches meet.
pub fn traffic(field: &Field) -> Vec<Vec<f64>> {
    let n = field.segment_count();
    let mut order: Vec<usize> = (0..n).collect();
    // Farther from the Hub first: a tile's inflow is complete before its segments are visited.
    order.sort_by(|&a, &b| {
        let (sa, sb) = (field.segment(a), field.segment(b));
        sb.remaining_after
            .total_cmp(&sa.remaining_after)
            .then(a.cmp(&b))
    });
    (0..field.paths())
        .map(|path| {
            let mut flow = vec![0.0; n];
            let Some(entry) = field.entry(path) else {
                return flow;
            };
            let mut into = std::collections::BTreeMap::new();
            flow[entry] = 1.0;
            *into.entry(field.segment(entry).to).or_insert(0.0) += 1.0;
            for &i in &order {
                let s = *field.segment(i);
                let inflow = into.get(&s.from).copied().unwrap_or(0.0);
                if i == entry || inflow == 0.0 {
                    continue;
                }
                flow[i] = inflow / field.next(s.from).len() as f64;
                *into.entry(s.to).or_insert(0.0) += flow[i];
            }
            flow
        })
        .collect()
}

/// The path length a tower covers on each path start's route, in tiles: the covered share of
/// each segment weighted by the share of that path's attackers walking it. `large` is the share
/// of large attackers expected.
pub fn covered(traffic: &[Vec<f64>], covers: &[SegmentCover], large: f64) -> Vec<f64> {
    traffic
        .iter()
        .map(|flow| {
            covers
                .iter()
                .map(|c| flow[c.segment] * (c.small * (1.0 - large) + c.large * large))
                .sum()
        })
        .collect()
}

/// A tower's damage per second against the first attacker it fights, `d_t`, from the stat
/// queries (modifiers included). `None` for blueprints that do not shoot.
pub fn damage_rate(
    battle: &mut Battle,
    blueprint: BlueprintId,
    entity: Option<EntityId>,
) -> Option<f64> {
    let Some(Behaviour::Shooter(shooter)) = battle.content().blueprint(blueprint).behaviour.clone()
    else {
        return None;
    };
    let stat = StatOf { blueprint, entity };
    let damage = battle.look(|b| &b.chains.hit_damage, &stat);
    let interval = battle.look(|b| &b.chains.interval, &stat);
    let radius = battle.look(|b| &b.chains.radius, &stat);
    Some(shot_rate(&shooter, damage, interval, radius))
}

/// Damage per second of a shooter dealing `damage` every `interval` ticks, counting the extra
/// attackers one shot may hurt — several targets, a chain's jumps, a shell's blast of `radius` —
/// at half, since attackers are rarely packed tightly enough for more.
pub fn shot_rate(shooter: &Shooter, damage: f64, interval: f64, radius: f64) -> f64 {
    let seconds = interval.max(1.0) / rampart_core::TICKS_PER_SECOND as f64;
    let targets = match shooter.targets {
        Targets::Best(n) => 1.0 + (f64::from(n.max(1)) - 1.0).min(2.0) * 0.5,
        Targets::All => 2.0,
    };
    let spread = match shooter.projectile {
        Projectile::Chain { jumps, falloff } => 1.0 + f64::from(jumps) * falloff * 0.5,
        Projectile::Ballistic { .. } => 1.0 + radius.min(2.0) * 0.5,
        Projectile::Straight { .. } | Projectile::Homing { .. } | Projectile::Instant => 1.0,
    };
    damage.max(0.0) * targets * spread / seconds
}

/// One batch of a wave on one path, as the model sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathBatch {
    /// The batch's shape.
    pub shape: BatchShape,
    /// Whether its attackers are large (aimed at higher).
    pub large: bool,
}

/// The batches a wave sends down path `path`: runs of spawns of one attacker type, in order.
pub fn batches(battle: &Battle, wave: &WaveSpawns, path: usize) -> Vec<PathBatch> {
    let content = battle.content();
    let mut spawns: Vec<(u32, &str)> = wave
        .spawns
        .iter()
        .filter(|s| s.path == path)
        .map(|s| (s.delay, s.attacker.as_str()))
        .collect();
    spawns.sort();
    let mut out: Vec<(PathBatch, &str, u32)> = Vec::new();
    for (delay, id) in spawns {
        let Some(a) = content.attacker_id(id).map(|a| content.attacker(a)) else {
            continue;
        };
        match out.last_mut() {
            Some((batch, last_id, last_delay)) if *last_id == id => {
                if batch.shape.count == 1 {
                    batch.shape.spacing =
                        f64::from(delay - *last_delay) / rampart_core::TICKS_PER_SECOND as f64;
                }
                batch.shape.count += 1;
                *last_delay = delay;
            }
            _ => out.push((
                PathBatch {
                    shape: BatchShape {
                        value: a.value,
                        speed: a.speed,
                        spacing: 1.0,
                        count: 1,
                    },
                    large: a.size != Size::Small,
                },
                id,
                delay,
            )),
        }
    }
    out.into_iter().map(|(b, _, _)| b).collect()
}

/// The value a path's defence must beat (eq. 3.17 per batch, 3.20 for the wave) given the
/// towers covering it; no collateral damage is assumed, which errs on the safe side.
pub fn threat(batches: &[PathBatch], towers: &[Tower]) -> f64 {
    let values = batches.iter().map(|b| {
        let rate = model::damage_rate(towers, b.shape.speed, b.shape.spacing);
        (
            model::batch_value(b.shape, rate, Collateral::NONE),
            b.shape.speed,
            rate,
        )
    });
    values
        .enumerate()
        .map(|(i, (value, speed, rate))| model::batch_term(i, value, speed, rate))
        .sum()
}
