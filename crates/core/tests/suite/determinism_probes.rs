//! Legal scripts that would expose memory layout cannot make a battle differ between processes:
//! tables keyed by entity handles, tables and functions are iterated (with `pairs`, `next` and
//! `for k, v in t`) in the same order everywhere, and `tostring` or `string.format("%*")` of a
//! table or function gives the same text. Each probe feeds what it sees into the battle, so any difference changes the hash.

use std::sync::Arc;

use crate::common::{hashes_from_child, hostile_mods, load_dirs, repo_mods};
use rampart_core::battle::{Battle, BattleConfig, PlayerCommand, Position, SpawnAt};
use rampart_core::content::ContentDb;
use rampart_core::rng::Seed;

const CHILD: &str = "RAMPART_PROBES_CHILD";

/// Core and the hostile fixture mod, whose `hostile:prober` runs `scripts/probe.lua`: one VM
/// per mod, so all probers share its tables.
fn content() -> Arc<ContentDb> {
    load_dirs(&[repo_mods(), hostile_mods()])
}

/// The state hash every 40 ticks of a battle with 16 probe attackers.
fn hashes(content: &Arc<ContentDb>) -> Vec<u64> {
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(7)));
    let probe = content.attacker_id("hostile:probe").unwrap();
    b.schedule(0, PlayerCommand::StartWave).unwrap();
    for i in 0..16u32 {
        let at = Position {
            x: f64::from(i % 4),
            y: f64::from(i / 4),
        };
        b.schedule_spawn(1 + u64::from(i) * 2, probe, SpawnAt::Point(at));
    }
    let mut out = Vec::new();
    for _ in 0..5 {
        b.run_ticks(40);
        out.push(b.state_hash());
    }
    let errors: Vec<_> = b.script_errors().collect();
    assert!(errors.is_empty(), "{errors:?}");
    out
}

#[test]
fn probes_give_the_same_hashes_in_three_processes() {
    let content = content();
    let here = format!("{:?}", hashes(&content));
    let child = || hashes_from_child("determinism_probes::print_probe_hashes", CHILD);
    assert_eq!(child(), here, "a second process");
    assert_eq!(child(), here, "a third process");
}

/// Run by `probes_give_the_same_hashes_in_three_processes` in child processes.
#[test]
#[ignore = "runs as a child process of probes_give_the_same_hashes_in_three_processes"]
fn print_probe_hashes() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let content = content();
    println!("HASHES {:?}", hashes(&content));
}
