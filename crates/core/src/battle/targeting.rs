//! Which attackers a tower can hit, and which it prefers.
//!
//! Where a tower can hit is worked out once from the ground (`coverage.rs`). Each tick the
//! attackers are bucketed by segment, and a tower only looks at attackers on the segments it
//! covers.

use glam::DVec3;

use super::core::Battle;
use super::coverage::{Coverage, can_hit, target_point};
use super::entity::{Entity, EntityId, EntityKind};
use super::payloads::StatOf;
use super::shape::Frame;
use crate::content::{Priority, Shooter};

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
            &StatOf {
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
