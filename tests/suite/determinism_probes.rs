//! Legal scripts that would expose memory layout cannot make a battle differ between processes:
//! tables keyed by entity handles, tables and functions are iterated (with `pairs`, `next` and
//! `for k, v in t`) in the same order everywhere, and `tostring` or `string.format("%*")` of a
//! table or function gives the same text. Each probe feeds what it sees into the battle, so any difference changes the hash.

use std::sync::Arc;

use crate::common::{Mods, attacker, hashes_from_child};
use rampart::battle::{Battle, BattleConfig, PlayerCommand, Position, SpawnAt};
use rampart::content::ContentDb;
use rampart::rng::Seed;

const CHILD: &str = "RAMPART_PROBES_CHILD";

/// One script shared by every probe attacker (one VM per mod, so one `seen` table for all).
const PROBE: &str = r#"
local seen = {}            -- keyed by entity handles
local bag = {}             -- keyed by tables and functions
for i = 1, 40 do
    bag[{}] = i
    bag[function() return i end] = 100 + i
end

-- A number that depends on the order in which the keys come.
local function order_of(t, iterate)
    local h = 0
    for _, v in iterate(t) do
        h = (h * 31 + v) % 1000003
    end
    return h
end

local function with_next(t)
    return next, t, nil
end

local function generalized(t)
    local co = coroutine.wrap(function()
        for k, v in t do coroutine.yield(k, v) end
    end)
    return co
end

return {
    on_tick = function(self, game)
        seen[self.entity] = game:tick()
        -- The first living attacker in `seen`'s order takes a hit.
        for e, _ in pairs(seen) do
            if e:alive() then
                game:command("damage", { target = e, amount = 1, types = { "hp_loss" } })
                break
            end
        end
        if game:tick() % 10 == 0 then
            local h = order_of(bag, pairs) + order_of(bag, with_next) + order_of(bag, generalized)
            local text = tostring({}) .. tostring(print) .. string.format("%*", bag)
            for i = 1, #text do
                h = h + string.byte(text, i) * i
            end
            game:command("add_energy", { amount = h % 97 })
            -- New keys now and then, so the tables grow and rehash during the battle.
            bag[{}] = game:tick()
        end
    end,
}
"#;

fn content() -> (Mods, Arc<ContentDb>) {
    let mods = Mods::new();
    mods.manifest("p", &["core"]);
    mods.file(
        "p/attackers/probe.ron",
        &attacker("Probe", 400.0, 0.5, "script: \"scripts/probe.lua\","),
    );
    mods.file("p/scripts/probe.lua", PROBE);
    let content = mods.load_with_core();
    (mods, content)
}

/// The state hash every 40 ticks of a battle with 16 probe attackers.
fn hashes(content: &Arc<ContentDb>) -> Vec<u64> {
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(7)));
    let probe = content.attacker_id("p:probe").unwrap();
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
    let (_mods, content) = content();
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
    let (_mods, content) = content();
    println!("HASHES {:?}", hashes(&content));
}
