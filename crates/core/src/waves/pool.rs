//! The attacker types a level's waves may use, with just the numbers wave generation reads.

use serde::{Deserialize, Serialize};

use super::WaveError;
use crate::content::{AttackerType, ContentDb, Size};

/// One attacker type as the wave generator sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolAttacker {
    /// The content id, `mod:name`, written into the waves.
    pub id: String,
    /// Its wave-generation value `h` (model 7: HP adjusted for abilities).
    pub value: f64,
    /// Tiles per second.
    pub speed: f64,
    /// The smallest spacing a batch of it may use, seconds.
    pub min_spacing: f64,
    /// Relative chance of being picked among valid types; 0 never.
    pub weight: f64,
}

impl From<&AttackerType> for PoolAttacker {
    fn from(t: &AttackerType) -> Self {
        PoolAttacker {
            id: t.id.clone(),
            value: t.value,
            speed: t.speed,
            min_spacing: t.min_spacing,
            weight: t.weight,
        }
    }
}

/// The attacker types of a level, in a fixed order that breaks every tie.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttackerPool {
    attackers: Vec<PoolAttacker>,
}

impl AttackerPool {
    /// A pool of these attackers, in this order. Refuses an empty pool, repeated ids, numbers
    /// that are not positive (weights may be 0) and a pool whose weights are all 0.
    pub fn new(attackers: Vec<PoolAttacker>) -> Result<AttackerPool, WaveError> {
        for (i, a) in attackers.iter().enumerate() {
            let positive = |v: f64| v.is_finite() && v > 0.0;
            if !(positive(a.value) && positive(a.speed) && positive(a.min_spacing)) {
                return Err(WaveError::InvalidAttacker {
                    id: a.id.clone(),
                    reason: "value, speed and min_spacing must be positive".into(),
                });
            }
            if !(a.weight.is_finite() && a.weight >= 0.0) {
                return Err(WaveError::InvalidAttacker {
                    id: a.id.clone(),
                    reason: "weight must be ≥ 0".into(),
                });
            }
            if attackers[..i].iter().any(|b| b.id == a.id) {
                return Err(WaveError::InvalidAttacker {
                    id: a.id.clone(),
                    reason: "listed twice".into(),
                });
            }
        }
        if !attackers.iter().any(|a| a.weight > 0.0) {
            return Err(WaveError::EmptyPool);
        }
        Ok(AttackerPool { attackers })
    }

    /// A pool of these attacker types, in this order.
    pub fn from_types<'a>(
        types: impl IntoIterator<Item = &'a AttackerType>,
    ) -> Result<AttackerPool, WaveError> {
        AttackerPool::new(types.into_iter().map(PoolAttacker::from).collect())
    }

    /// Every loaded attacker type except bosses (they belong to boss levels), in load order.
    pub fn from_content(content: &ContentDb) -> Result<AttackerPool, WaveError> {
        AttackerPool::from_types(content.attackers.iter().filter(|a| a.size != Size::Boss))
    }

    /// The attackers, in pool order.
    pub fn attackers(&self) -> &[PoolAttacker] {
        &self.attackers
    }

    /// The attacker at `index` in pool order.
    pub fn get(&self, index: usize) -> &PoolAttacker {
        &self.attackers[index]
    }

    /// How many attacker types there are.
    pub fn len(&self) -> usize {
        self.attackers.len()
    }

    /// Always false: a pool has at least one attacker type.
    pub fn is_empty(&self) -> bool {
        self.attackers.is_empty()
    }
}
