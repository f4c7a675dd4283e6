//! Which attackers a tower can hit, and which it prefers.
//!
//! Paths never move, so where a tower can hit attackers is worked out once (and again only when
//! its range changes): for every path segment within reach, a few points along it are tested —
//! inside the range shape, within the tower's aim, in line of sight — for a small and for a
//! large attacker's target height. Each tick the attackers are bucketed by segment, and a tower
//! only looks at attackers on the segments it covers.

use std::collections::BTreeMap;

use glam::DVec3;

use super::Battle;
use super::entity::{Entity, EntityId, EntityKind};
use super::field::Field;
use super::shape::{Frame, contains, reach};
use crate::content::{Aim, Priority, Shooter, Size};

/// Points tested along each segment (both ends included).
const SAMPLES: usize = 17;

/// Where a tower can hit attackers on the path network.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Coverage {
    /// The range it was worked out for.
    range: f64,
    /// Covered segments with a bit per sample point, for small and for large targets.
    segments: Vec<(usize, [u32; 2])>,
}

fn size_index(size: Size) -> usize {
    match size {
        Size::Small => 0,
        Size::Large | Size::Boss => 1,
    }
}

/// The point towers aim at on an attacker standing at `ground`.
pub(super) fn target_point(ground: DVec3, size: Size) -> DVec3 {
    ground + DVec3::Z * size.target_height()
}

/// Whether a tower at `frame` can hit a target at `p`.
pub(super) fn can_hit(field: Option<&Field>, shooter: &Shooter, frame: &Frame, p: DVec3) -> bool {
    let aim_ok = match shooter.aim {
        Aim::Any => true,
        Aim::NotUp => p.z <= frame.muzzle.z + 1e-9,
        Aim::NotDown => p.z >= frame.muzzle.z - 1e-9,
    };
    aim_ok
        && contains(&shooter.shape, frame, p)
        && (!shooter.line_of_sight || field.is_none_or(|f| f.line_of_sight(frame.muzzle, p)))
}

impl Coverage {
    /// Works out the coverage of a tower at `frame`.
    pub(super) fn new(field: &Field, shooter: &Shooter, frame: &Frame) -> Coverage {
        let reach = reach(&shooter.shape, frame.range) + 1.0;
        let mut segments = Vec::new();
        for seg in 0..field.segment_count() {
            let s = field.segment(seg);
            let near = [s.from, s.to].iter().any(|t| {
                (DVec3::new(f64::from(t.x), f64::from(t.y), 0.0) - frame.muzzle)
                    .truncate()
                    .length()
                    <= reach
            });
            if !near {
                continue;
            }
            let mut bits = [0u32; 2];
            for i in 0..SAMPLES {
                let ground = field.along(seg, i as f64 / (SAMPLES - 1) as f64);
                for size in [Size::Small, Size::Large] {
                    if can_hit(Some(field), shooter, frame, target_point(ground, size)) {
                        bits[size_index(size)] |= 1 << i;
                    }
                }
            }
            if bits != [0, 0] {
                segments.push((seg, bits));
            }
        }
        Coverage {
            range: frame.range,
            segments,
        }
    }

    /// Each covered segment with the share of its sample points covered for small and for large
    /// targets.
    pub(super) fn shares(&self) -> impl Iterator<Item = (usize, f64, f64)> + '_ {
        let share = |bits: u32| f64::from(bits.count_ones()) / SAMPLES as f64;
        self.segments
            .iter()
            .map(move |&(seg, bits)| (seg, share(bits[0]), share(bits[1])))
    }

    fn covers(bits: [u32; 2], size: Size, progress: f64) -> bool {
        let i = (progress.clamp(0.0, 1.0) * (SAMPLES - 1) as f64).round() as u32;
        bits[size_index(size)] & (1 << i) != 0
    }
}

/// Attackers on each path segment, built once per tick for all towers.
pub(super) struct Buckets {
    on_segment: Vec<Vec<EntityId>>,
    off_path: Vec<EntityId>,
}

impl Buckets {
    pub(super) fn new(b: &Battle) -> Buckets {
        let segments = b.field.as_ref().map_or(0, |f| f.segment_count());
        let mut buckets = Buckets {
            on_segment: vec![Vec::new(); segments],
            off_path: Vec::new(),
        };
        for (id, e) in b.state.entities.iter() {
            if !matches!(e.kind, EntityKind::Attacker(_)) || b.untargetable(id) {
                continue;
            }
            match e.route {
                Some(r) if r.segment < segments => buckets.on_segment[r.segment].push(id),
                _ => buckets.off_path.push(id),
            }
        }
        buckets
    }
}

impl Battle {
    /// The muzzle, facing and current range of a tower.
    pub(super) fn frame_of(&mut self, tower: EntityId, shooter: &Shooter) -> Option<Frame> {
        let e = self.state.entities.get(tower)?;
        let (position, rotation, blueprint) = (e.position, e.rotation, e.kind.blueprint()?);
        let ground = self
            .field
            .as_ref()
            .map_or(0.0, |f| f.ground(position.x, position.y));
        let range = self.query(
            |b| &b.chains.range,
            &super::StatOf {
                blueprint,
                entity: Some(tower),
            },
        );
        Some(Frame {
            muzzle: DVec3::new(position.x, position.y, ground + shooter.muzzle_height),
            facing: Frame::facing_of(rotation),
            range,
        })
    }

    /// Works the tower's coverage out again if its range changed (or it has none yet).
    fn refresh_coverage(&mut self, tower: EntityId, shooter: &Shooter, frame: &Frame) {
        let Some(field) = self.field.clone() else {
            return;
        };
        if self
            .coverage
            .get(&tower)
            .is_none_or(|c| c.range != frame.range)
        {
            self.coverage
                .insert(tower, Coverage::new(&field, shooter, frame));
        }
    }

    /// The attackers a tower would hit now, best first by `priority`; ties go to the attacker
    /// closest to the Hub, then to the older one.
    pub(super) fn pick_targets(
        &mut self,
        tower: EntityId,
        shooter: &Shooter,
        priority: Priority,
        buckets: &Buckets,
        limit: Option<usize>,
    ) -> Vec<EntityId> {
        let Some(frame) = self.frame_of(tower, shooter) else {
            return Vec::new();
        };
        let mut candidates = std::mem::take(&mut self.scratch);
        candidates.clear();
        let field = self.field.clone();
        // The target point is only worked out for the priorities that need a distance.
        let score = |e: &Entity, p: &dyn Fn() -> DVec3, remaining: f64| -> f64 {
            match priority {
                Priority::First => remaining,
                Priority::Last => -remaining,
                Priority::Closest => (p() - frame.muzzle).length(),
                Priority::Farthest => -(p() - frame.muzzle).length(),
                Priority::Weakest => e.hp,
                Priority::Strongest => -e.hp,
            }
        };
        if let Some(field) = field.as_ref() {
            self.refresh_coverage(tower, shooter, &frame);
            let coverage = &self.coverage[&tower];
            for &(seg, bits) in &coverage.segments {
                for &id in &buckets.on_segment[seg] {
                    let Some(e) = self.state.entities.get(id) else {
                        continue;
                    };
                    let (EntityKind::Attacker(a), Some(route)) = (e.kind, e.route) else {
                        continue;
                    };
                    let size = self.content.attacker(a).size;
                    if !Coverage::covers(bits, size, route.progress) {
                        continue;
                    }
                    let p = || target_point(field.along(seg, route.progress), size);
                    let remaining = field.remaining(seg, route.progress);
                    candidates.push((score(e, &p, remaining), remaining, id));
                }
            }
        }
        for &id in &buckets.off_path {
            let Some(e) = self.state.entities.get(id) else {
                continue;
            };
            let EntityKind::Attacker(a) = e.kind else {
                continue;
            };
            let ground = field
                .as_ref()
                .map_or(DVec3::new(e.position.x, e.position.y, 0.0), |f| {
                    f.on_ground(e.position.x, e.position.y)
                });
            let p = target_point(ground, self.content.attacker(a).size);
            if can_hit(field.as_deref(), shooter, &frame, p) {
                candidates.push((score(e, &|| p, f64::INFINITY), f64::INFINITY, id));
            }
        }
        let order = |a: &(f64, f64, EntityId), b: &(f64, f64, EntityId)| {
            a.0.total_cmp(&b.0)
                .then(a.1.total_cmp(&b.1))
                .then(a.2.cmp(&b.2))
        };
        if let Some(n) = limit.filter(|n| *n < candidates.len()) {
            // Only the best few are needed: partition around the n-th, then sort those.
            if n == 0 {
                candidates.clear();
            } else {
                candidates.select_nth_unstable_by(n - 1, order);
                candidates.truncate(n);
            }
        }
        candidates.sort_by(order);
        let picked = candidates.iter().map(|(_, _, id)| *id).collect();
        self.scratch = candidates;
        picked
    }
}

/// Tower coverages by tower, kept outside the battle state: they follow from it.
pub(super) type Coverages = BTreeMap<EntityId, Coverage>;
