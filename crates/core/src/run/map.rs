//! The run's side of the run map (`mapgen`): an act's map made from the level setter's `acts`
//! and the loaded attacker types.

use super::{RunError, setter};
use crate::content::{ContentDb, Size};
use crate::mapgen::ActMap;

/// The map of act `act` (1-based) of the run with seed `run_seed`, as its start room stands.
pub fn act_map(content: &ContentDb, run_seed: u64, act: u32) -> Result<ActMap, RunError> {
    let acts = &setter::setter(content)?.acts;
    let shape = act
        .checked_sub(1)
        .and_then(|i| acts.get(i as usize))
        .ok_or(RunError::NoSuchAct {
            act,
            acts: acts.len(),
        })?;
    Ok(ActMap::new(
        run_seed,
        act,
        shape,
        guards(content, act, acts.len()),
    ))
}

/// The attacker types guarded doors of act `act` of `acts` may name: the non-boss types ordered
/// by wave value (then id) and cut into as many equal parts as there are acts, the act's own
/// part — weak guards early, strong ones late.
pub fn guards(content: &ContentDb, act: u32, acts: usize) -> Vec<String> {
    let mut types: Vec<_> = content
        .attackers
        .iter()
        .filter(|a| a.size != Size::Boss)
        .collect();
    types.sort_by(|a, b| a.value.total_cmp(&b.value).then_with(|| a.id.cmp(&b.id)));
    let acts = acts.max(1);
    let part = (act.max(1) as usize - 1).min(acts - 1);
    let (from, to) = (types.len() * part / acts, types.len() * (part + 1) / acts);
    types[from..to].iter().map(|a| a.id.clone()).collect()
}
