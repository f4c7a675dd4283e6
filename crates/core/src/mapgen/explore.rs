//! Agents that walk an act's map through its public moves only, clearing every room they enter:
//! the explorer behind `rampart map`, and the random walker of the solvability tests.

use super::{ActMap, MapError};
use crate::content::acts::NodeKind;
use crate::rng::Rng;

/// Enters every room there is to enter, the lowest id first and the boss's last, so the whole
/// act is generated. Fails only if the map left no open door before the boss was beaten.
pub fn explore_all(map: &mut ActMap) -> Result<(), MapError> {
    walk(map, |map, choices| {
        choices
            .iter()
            .copied()
            .find(|&c| map.node(c).is_some_and(|n| n.kind != NodeKind::Boss))
            .unwrap_or(choices[0])
    })
}

/// Takes any open door at random (the boss's as soon as it is open, if drawn) until the boss is
/// beaten. Fails only if the map left no open door before that.
pub fn explore_randomly(map: &mut ActMap, rng: &mut Rng) -> Result<(), MapError> {
    walk(map, |_, choices| choices[rng.index(choices.len())])
}

/// Clears the current room and enters the one `pick` chooses until the act is over.
fn walk(map: &mut ActMap, mut pick: impl FnMut(&ActMap, &[u32]) -> u32) -> Result<(), MapError> {
    loop {
        map.clear_current();
        if map.is_over() {
            return Ok(());
        }
        let choices = map.choices();
        if choices.is_empty() {
            return Err(MapError::NoWayOn(map.current()));
        }
        let next = pick(map, &choices);
        map.enter(next)?;
    }
}
