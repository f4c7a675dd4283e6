//! Same content, seed and stamped commands give the same state hash — in another process too,
//! and however the ticks are batched.

use std::sync::Arc;

use crate::common::{Mods, attacker, blueprint, hashes_from_child};
use rampart_core::battle::{Battle, BattleConfig, PlayerCommand, Position, SpawnAt};
use rampart_core::content::ContentDb;
use rampart_core::rng::Seed;

const CHILD: &str = "RAMPART_DETERMINISM_CHILD";

fn content() -> (Mods, Arc<ContentDb>) {
    let mods = Mods::new();
    mods.manifest("d", &["core"]);
    mods.file(
        "d/attackers/dice.ron",
        &attacker("Dice", 30.0, 1.0, "script: \"scripts/dice.lua\","),
    );
    mods.file(
        "d/blueprints/tax.ron",
        &blueprint(
            "Tax",
            "Economic",
            "cost: (materials: 5), script: \"scripts/tax.lua\",",
        ),
    );
    mods.file(
        "d/scripts/dice.lua",
        r#"
-- Hurts itself by a random amount each tick and moves a random step.
return {
    on_tick = function(self, game)
        local x, y = self:position()
        game:command("damage", { target = self.entity, amount = math.random(0, 3), types = { "hp_loss" } })
        if self:alive() then
            game:command("add_energy", { amount = math.random() })
        end
    end,
}
"#,
    );
    mods.file(
        "d/scripts/tax.lua",
        r#"
-- Takes a tenth of every material gain as fuel.
return {
    on_placed = function(self, game)
        game:modify("add_materials", -1, function(gain)
            local tithe = gain.amount / 10
            gain.amount -= tithe
            game:command("add_fuel", { amount = tithe, source = self.entity })
        end)
    end,
}
"#,
    );
    let content = mods.load_with_core();
    (mods, content)
}

/// A scripted battle: hashes after each phase, and at the end.
fn scenario(content: &Arc<ContentDb>, batches: &[u64]) -> Vec<u64> {
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(20261121)));
    let dice = content.attacker_id("d:dice").unwrap();
    let armored = content.attacker_id("core:armored_skeleton").unwrap();
    b.schedule(0, PlayerCommand::place("d:tax", 2.0, 2.0))
        .unwrap();
    b.schedule(3, PlayerCommand::StartWave).unwrap();
    for i in 0..12 {
        b.schedule_spawn(
            4 + i * 3,
            if i % 3 == 0 { armored } else { dice },
            SpawnAt::Point(Position {
                x: i as f64,
                y: 0.0,
            }),
        );
    }
    b.schedule(90, PlayerCommand::place("core:grenade", 0.0, 0.0))
        .unwrap();
    let mut hashes = Vec::new();
    for &n in batches {
        b.run_ticks(n);
        hashes.push(b.state_hash());
    }
    b.command(
        |b| &b.chains.add_materials,
        rampart_core::battle::Gain {
            amount: 50.0,
            source: None,
        },
    );
    hashes.push(b.state_hash());
    assert_eq!(
        b.script_errors().count(),
        0,
        "{:?}",
        b.script_errors().collect::<Vec<_>>()
    );
    hashes
}

/// The hashes after 50, 100 and 200 ticks and at the end.
fn reference(content: &Arc<ContentDb>) -> Vec<u64> {
    scenario(content, &[50, 50, 100])
}

#[test]
fn same_commands_same_hash_in_two_processes() {
    let (_mods, content) = content();
    let here = reference(&content);
    let child = || hashes_from_child("determinism::print_reference_hashes", CHILD);
    let expected = format!("{here:?}");
    assert_eq!(child(), expected);
    assert_eq!(child(), expected);
}

/// Run by `same_commands_same_hash_in_two_processes` in a child process.
#[test]
#[ignore = "runs as a child process of same_commands_same_hash_in_two_processes"]
fn print_reference_hashes() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let (_mods, content) = content();
    println!("HASHES {:?}", reference(&content));
}

#[test]
fn tick_batching_does_not_change_the_outcome() {
    let (_mods, content) = content();
    let one_batch = scenario(&content, &[200]);
    let small_batches = scenario(&content, &[1; 200]);
    let uneven = scenario(&content, &[7, 13, 1, 179]);
    assert_eq!(one_batch.last(), small_batches.last());
    assert_eq!(one_batch.last(), uneven.last());
    assert_eq!(reference(&content), reference(&content));
}

#[test]
fn the_hash_sees_the_state() {
    let (_mods, content) = content();
    let a = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
    let c = Battle::new(content.clone(), BattleConfig::new(Seed(2)));
    assert_eq!(a.state_hash(), b.state_hash());
    assert_ne!(
        a.state_hash(),
        c.state_hash(),
        "the seed is part of the state"
    );
    b.submit(PlayerCommand::StartWave);
    assert_eq!(
        a.state_hash(),
        b.state_hash(),
        "a command not yet applied is input, not state"
    );
    b.step();
    assert_ne!(a.state_hash(), b.state_hash());
}
