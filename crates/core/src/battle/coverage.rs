//! Where a tower can hit attackers on the path network, worked out from the ground alone.
//!
//! Paths never move, so where a tower can hit attackers is worked out once (and again only when
//! its range changes): for every path segment within reach, a few points along it are tested —
//! inside the range shape, within the tower's aim, in line of sight — for a small and for a
//! large attacker's target height. `combat.rs` picks targets from it every tick.

use std::collections::BTreeMap;

use glam::DVec3;

use super::entity::EntityId;
use super::field::Field;
use super::shape::{Frame, contains, reach};
use crate::content::{Aim, Shooter, Size};

/// Points tested along each segment (both ends included).
const SAMPLES: usize = 17;

/// Where a tower can hit attackers on the path network.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Coverage {
    /// The range it was worked out for.
    pub(super) range: f64,
    /// Covered segments with a bit per sample point, for small and for large targets.
    pub(super) segments: Vec<(usize, [u32; 2])>,
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

    pub(super) fn covers(bits: [u32; 2], size: Size, progress: f64) -> bool {
        let i = (progress.clamp(0.0, 1.0) * (SAMPLES - 1) as f64).round() as u32;
        bits[size_index(size)] & (1 << i) != 0
    }
}

/// Tower coverages by tower, kept outside the battle state: they follow from it.
pub(super) type Coverages = BTreeMap<EntityId, Coverage>;
