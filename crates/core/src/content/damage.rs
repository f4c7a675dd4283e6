//! Damage types. A hit can carry several at once (Meteor is physical and explosive); attackers
//! resist or ignore some; HP loss ignores every damage modifier.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One kind of damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum DamageType {
    /// Projectiles, blades, blunt force.
    Physical,
    /// Blasts.
    Explosive,
    /// Electricity, lasers, fire.
    Energy,
    /// Direct loss of hit points; ignores every damage modifier.
    HpLoss,
}

impl DamageType {
    /// Every damage type, in a fixed order.
    pub const ALL: [DamageType; 4] = [
        DamageType::Physical,
        DamageType::Explosive,
        DamageType::Energy,
        DamageType::HpLoss,
    ];

    /// The lowercase name scripts use (`"physical"`, `"hp_loss"`, …).
    pub fn name(self) -> &'static str {
        match self {
            DamageType::Physical => "physical",
            DamageType::Explosive => "explosive",
            DamageType::Energy => "energy",
            DamageType::HpLoss => "hp_loss",
        }
    }

    /// The type with the given script name.
    pub fn from_name(name: &str) -> Option<DamageType> {
        DamageType::ALL.into_iter().find(|t| t.name() == name)
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

impl fmt::Display for DamageType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DamageType::HpLoss => "HP loss",
            other => other.name(),
        })
    }
}

/// A set of damage types. Written in RON as a list: `damage_type: [Physical, Explosive]`.
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DamageTypes(u8);

impl DamageTypes {
    /// No damage type.
    pub const NONE: DamageTypes = DamageTypes(0);

    /// Whether `t` is in the set.
    pub fn contains(self, t: DamageType) -> bool {
        self.0 & t.bit() != 0
    }

    /// Adds `t`.
    pub fn insert(&mut self, t: DamageType) {
        self.0 |= t.bit();
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The types in the set, in [`DamageType::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = DamageType> {
        DamageType::ALL
            .into_iter()
            .filter(move |t| self.contains(*t))
    }
}

impl FromIterator<DamageType> for DamageTypes {
    fn from_iter<I: IntoIterator<Item = DamageType>>(iter: I) -> Self {
        let mut set = DamageTypes::NONE;
        for t in iter {
            set.insert(t);
        }
        set
    }
}

impl fmt::Debug for DamageTypes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl Serialize for DamageTypes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().collect::<Vec<_>>())
    }
}

impl<'de> Deserialize<'de> for DamageTypes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<DamageType>::deserialize(d)?.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations_and_ron_form() {
        let set: DamageTypes = ron::from_str("[Physical, Explosive, Physical]").unwrap();
        assert!(set.contains(DamageType::Physical));
        assert!(set.contains(DamageType::Explosive));
        assert!(!set.contains(DamageType::Energy));
        assert_eq!(set.iter().count(), 2);
        assert_eq!(ron::to_string(&set).unwrap(), "[Physical,Explosive]");
        assert!(DamageTypes::NONE.is_empty());
        assert_eq!(DamageType::from_name("hp_loss"), Some(DamageType::HpLoss));
        assert_eq!(DamageType::HpLoss.to_string(), "HP loss");
    }
}
