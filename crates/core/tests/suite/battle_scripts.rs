//! The battle skeleton with real mods and real Lua: hooks, commands, failures and guards.

use std::sync::Arc;

use crate::common::{Mods, attacker, blueprint};
use rampart_core::battle::{
    Battle, BattleConfig, Damage, EntityId, Gain, LogKind, Phase, PlayerCommand, Position,
    ScheduleError, SpawnAt,
};
use rampart_core::content::{ContentDb, DamageType};
use rampart_core::rng::Seed;
use rampart_lua::ScriptErrorKind;

fn battle(content: &Arc<ContentDb>, seed: u64) -> Battle {
    Battle::new(content.clone(), BattleConfig::new(Seed(seed)))
}

fn hit(b: &mut Battle, target: EntityId, amount: f64, kind: DamageType) -> f64 {
    let damage = Damage {
        target,
        amount,
        types: [kind].into_iter().collect(),
        source: None,
        own_hit: false,
        dealt: 0.0,
    };
    b.command(|b| &b.chains.damage, damage)
        .applied()
        .map_or(0.0, |d| d.dealt)
}

fn errors(b: &Battle) -> Vec<String> {
    b.script_errors().map(|e| e.to_string()).collect()
}

#[test]
fn armored_skeleton_shield_blocks_then_breaks_and_doubles_speed() {
    let content = Mods::new().load_with_core();
    let mut b = battle(&content, 1);
    let skel = b.spawn_attacker(
        content.attacker_id("core:armored_skeleton").unwrap(),
        Position::default(),
    );
    assert_eq!(b.query(|b| &b.chains.speed, &skel), 0.8);
    assert_eq!(
        hit(&mut b, skel, 5.0, DamageType::Physical),
        4.0,
        "the shield blocks 1"
    );
    assert_eq!(
        hit(&mut b, skel, 1.0, DamageType::Physical),
        0.0,
        "a 1-damage hit is blocked entirely"
    );
    assert_eq!(
        hit(&mut b, skel, 3.0, DamageType::HpLoss),
        3.0,
        "HP loss ignores the shield"
    );
    assert_eq!(b.entity(skel).unwrap().hp, 33.0);
    // 33 → 20 stays at half: still shielded.
    assert_eq!(hit(&mut b, skel, 14.0, DamageType::Explosive), 13.0);
    assert_eq!(b.query(|b| &b.chains.speed, &skel), 0.8);
    // Below half: the shield breaks for good.
    assert_eq!(hit(&mut b, skel, 2.0, DamageType::Physical), 1.0);
    assert_eq!(b.entity(skel).unwrap().hp, 19.0);
    assert_eq!(b.query(|b| &b.chains.speed, &skel), 1.6);
    assert_eq!(hit(&mut b, skel, 5.0, DamageType::Physical), 5.0);
    let healed = b
        .command(
            |b| &b.chains.heal,
            rampart_core::battle::Heal {
                target: skel,
                amount: 100.0,
                source: None,
                healed: 0.0,
            },
        )
        .applied()
        .unwrap()
        .healed;
    assert_eq!(healed, 26.0, "healing stops at max HP");
    assert_eq!(
        hit(&mut b, skel, 5.0, DamageType::Physical),
        5.0,
        "healing does not bring the shield back"
    );
    assert!(errors(&b).is_empty(), "{:?}", errors(&b));
}

#[test]
fn a_dying_slime_leaves_its_child_where_it_fell() {
    let content = Mods::new().load_with_core();
    let mut b = battle(&content, 1);
    let blue = b.spawn_attacker(
        content.attacker_id("core:blue_slime").unwrap(),
        Position { x: 3.0, y: 4.0 },
    );
    let dealt = hit(&mut b, blue, 50.0, DamageType::Physical);
    assert_eq!(dealt, 10.0, "damage beyond the remaining HP is not dealt");
    assert!(b.entity(blue).is_none());
    let alive: Vec<_> = b
        .entities()
        .map(|(_, e)| (e.kind.attacker().unwrap(), e.position))
        .collect();
    assert_eq!(
        alive,
        [(
            content.attacker_id("core:red_slime").unwrap(),
            Position { x: 3.0, y: 4.0 }
        )]
    );
    assert!(b.log().iter().any(|l| l.kind
        == LogKind::Event {
            chain: "attacker_killed",
            entity: Some(blue)
        }));
}

/// A test mod with scripts that exercise the API.
fn scripted() -> (Mods, Arc<ContentDb>) {
    let mods = Mods::new();
    mods.manifest("t", &[]);
    mods.file(
        "t/attackers/ticker.ron",
        &attacker("Ticker", 10.0, 1.0, "script: \"scripts/ticker.lua\","),
    );
    mods.file(
        "t/attackers/faulty.ron",
        &attacker("Faulty", 10.0, 1.0, "script: \"scripts/faulty.lua\","),
    );
    mods.file(
        "t/attackers/spinner.ron",
        &attacker("Spinner", 10.0, 1.0, "script: \"scripts/spinner.lua\","),
    );
    mods.file(
        "t/blueprints/echo.ron",
        &blueprint("Echo", "Special", "script: \"scripts/echo.lua\","),
    );
    mods.file(
        "t/blueprints/vandal.ron",
        &blueprint("Vandal", "Special", "script: \"scripts/vandal.lua\","),
    );
    mods.file(
        "t/blueprints/discount.ron",
        &blueprint("Discount", "Special", "script: \"scripts/discount.lua\","),
    );
    mods.file(
        "t/blueprints/pricey.ron",
        &blueprint("Pricey", "Tower", "cost: (materials: 20),"),
    );
    mods.file(
        "t/blueprints/zap.ron",
        &blueprint("Zap", "Ability", "cost: (energy: 5, materials: 1),"),
    );
    mods.file(
        "t/scripts/ticker.lua",
        r#"
return {
    on_spawn = function(self, game)
        self.ticks = 0
        self.rolls = {}
    end,
    on_tick = function(self, game)
        self.ticks += 1
        table.insert(self.rolls, math.random(1, 1000))
        if self.ticks == 3 then
            game:command("add_materials", { amount = #self.rolls + math.random(1, 6) })
        end
    end,
}
"#,
    );
    mods.file(
        "t/scripts/faulty.lua",
        r#"
return {
    on_tick = function(self, game)
        local nothing = nil
        return nothing.field -- fails every tick
    end,
}
"#,
    );
    mods.file(
        "t/scripts/spinner.lua",
        r#"
return {
    on_spawn = function(self, game)
        while true do end
    end,
}
"#,
    );
    mods.file(
        "t/scripts/echo.lua",
        r#"
-- Every material gain triggers another one: runaway recursion the battle must stop.
return {
    on_placed = function(self, game)
        game:react("add_materials", 5, function(gain)
            game:command("add_materials", { amount = gain.amount })
        end)
    end,
}
"#,
    );
    mods.file(
        "t/scripts/vandal.lua",
        r#"
-- Reactions are read-only; this one tries to change what it sees.
return {
    on_placed = function(self, game)
        self.registration = game:react("add_energy", 5, function(gain)
            gain.amount = 0
        end)
    end,
    on_removed = function(self, game)
        self.registration:remove()
    end,
}
"#,
    );
    mods.file(
        "t/scripts/discount.lua",
        r#"
-- Registered while the script loads: owned by the mod, for the whole battle.
game:modify("blueprint_cost", -10, function(cost, blueprint)
    if cost.materials >= 2 then
        return { materials = cost.materials - 2, energy = cost.energy }
    end
end)
return {}
"#,
    );
    let content = mods.load_clean();
    (mods, content)
}

#[test]
fn hooks_run_every_tick_and_math_random_is_the_battle_generator() {
    let (_mods, content) = scripted();
    let run = |seed: u64| {
        let mut b = battle(&content, seed);
        b.spawn_attacker(
            content.attacker_id("t:ticker").unwrap(),
            Position::default(),
        );
        let before = b.player().materials;
        b.run_ticks(5);
        assert!(errors(&b).is_empty(), "{:?}", errors(&b));
        (b.player().materials - before, b.state_hash())
    };
    let (gain, hash) = run(7);
    assert!((4.0..=9.0).contains(&gain), "3 rolls + a die: {gain}");
    assert_eq!(run(7), (gain, hash), "same seed, same result");
    let others: Vec<u64> = (8..14).map(|s| run(s).1).collect();
    assert!(others.iter().any(|h| *h != hash), "the seed matters");
}

#[test]
fn a_failing_script_is_reported_and_switched_off_after_repeated_failures() {
    let (_mods, content) = scripted();
    let mut b = battle(&content, 1);
    b.spawn_attacker(
        content.attacker_id("t:faulty").unwrap(),
        Position::default(),
    );
    let ticker = b.spawn_attacker(
        content.attacker_id("t:ticker").unwrap(),
        Position::default(),
    );
    b.run_ticks(30);
    let errs = b.script_error_counts();
    assert_eq!(errs.len(), 1, "the same error, kept once: {errs:#?}");
    assert_eq!(errs[0].times, 10, "stops after the tenth failure");
    let first = &errs[0].error;
    assert_eq!(first.mod_id, "t");
    assert_eq!(first.file.as_deref(), Some("scripts/faulty.lua"));
    assert_eq!(first.line, Some(5));
    assert!(first.message.contains("attempt to index nil"), "{first}");
    assert!(b.log().iter().any(|l| matches!(
        &l.kind,
        LogKind::ScriptDisabled(off) if off.mod_id == "t" && off.file == "scripts/faulty.lua"
    )));
    assert!(b.entity(ticker).is_some(), "the battle goes on");
}

#[test]
fn an_endless_loop_in_a_hook_is_stopped_and_the_battle_goes_on() {
    let (_mods, content) = scripted();
    let mut b = battle(&content, 1);
    let spinner = b.spawn_attacker(
        content.attacker_id("t:spinner").unwrap(),
        Position::default(),
    );
    let e = b
        .script_errors()
        .next()
        .expect("the loop is reported")
        .clone();
    assert_eq!(e.kind, ScriptErrorKind::Budget);
    assert_eq!(
        (e.file.as_deref(), e.line),
        (Some("scripts/spinner.lua"), Some(4))
    );
    b.run_ticks(2);
    assert!(b.entity(spinner).is_some());
    assert_eq!(b.tick(), 2);
}

#[test]
fn runaway_recursion_through_chains_is_refused() {
    let (_mods, content) = scripted();
    let mut b = battle(&content, 1);
    b.place("t:echo", Position::default(), 0).unwrap();
    let before = b.player().materials;
    b.command(
        |b| &b.chains.add_materials,
        Gain {
            amount: 1.0,
            source: None,
        },
    );
    assert!(b.log().iter().any(
        |l| matches!(l.kind, LogKind::ScriptError(ref e) if e.message.contains("nested too deeply"))
    ));
    let gained = b.player().materials - before;
    assert!(
        gained > 1.0 && gained < 100.0,
        "the chain ran a bounded number of times: {gained}"
    );
}

#[test]
fn reactions_cannot_change_what_they_see_and_registrations_can_be_removed() {
    let (_mods, content) = scripted();
    let mut b = battle(&content, 1);
    let vandal = b.place("t:vandal", Position::default(), 0).unwrap();
    let gain = Gain {
        amount: 4.0,
        source: None,
    };
    let applied = b
        .command(|b| &b.chains.add_energy, gain.clone())
        .applied()
        .unwrap();
    assert_eq!(applied.amount, 4.0);
    assert_eq!(b.player().energy, 4.0);
    let e = b
        .script_errors()
        .next()
        .expect("the write is an error")
        .clone();
    assert!(e.message.contains("readonly"), "{e}");
    assert_eq!(e.line, Some(6));
    b.submit(PlayerCommand::Remove { entity: vandal });
    b.step();
    b.command(|b| &b.chains.add_energy, gain);
    assert_eq!(b.script_errors().count(), 1, "no reaction any more");
}

#[test]
fn costs_go_through_the_blueprint_cost_query_and_are_paid() {
    let (_mods, content) = scripted();
    let mut b = battle(&content, 1);
    assert_eq!(b.player().materials, 30.0);
    b.place("t:pricey", Position::default(), 0).unwrap();
    assert_eq!(
        b.player().materials,
        12.0,
        "20 - 2 discount from a load-time modifier"
    );
    let refused = b
        .place("t:pricey", Position { x: 3.0, y: 0.0 }, 0)
        .unwrap_err();
    assert!(refused.contains("not enough materials"), "{refused}");
    // Abilities only during a wave; energy short falls back to materials.
    assert!(
        b.place("t:zap", Position::default(), 0)
            .unwrap_err()
            .contains("during a wave")
    );
    b.spawn_attacker(
        content.attacker_id("t:ticker").unwrap(),
        Position::default(),
    );
    b.submit(PlayerCommand::StartWave);
    b.step();
    assert_eq!(b.phase(), Phase::Wave);
    b.submit(PlayerCommand::place("t:pricey", 5.0, 0.0));
    b.step();
    assert!(b.log().iter().any(
        |l| matches!(&l.kind, LogKind::Refused { reason, .. } if reason.contains("between waves"))
    ));
    let materials = b.player().materials;
    b.place("t:zap", Position::default(), 0).unwrap();
    assert_eq!(
        b.player().materials,
        materials - 1.0 - 5.0,
        "1 material + 5 energy paid in materials"
    );
}

#[test]
fn a_wave_ends_when_nothing_is_left_and_fires_wave_finished() {
    let content = Mods::new().load_with_core();
    let mut b = battle(&content, 1);
    let red = content.attacker_id("core:red_slime").unwrap();
    b.schedule(0, PlayerCommand::StartWave).unwrap();
    b.schedule_spawn(2, red, SpawnAt::Point(Position::default()));
    b.run_ticks(4);
    assert_eq!(b.phase(), Phase::Wave, "an attacker is still alive");
    let slime = b.entities().next().unwrap().0;
    hit(&mut b, slime, 5.0, DamageType::Physical);
    b.step();
    assert_eq!(b.phase(), Phase::Build);
    assert!(b.log().iter().any(|l| l.kind
        == LogKind::Event {
            chain: "wave_finished",
            entity: None
        }));
    assert_eq!(
        b.schedule(1, PlayerCommand::StartWave),
        Err(ScheduleError::Past { tick: 1, now: 5 })
    );
}

#[test]
fn scripts_cannot_use_the_battle_while_loading_and_misnamed_chains_are_explained() {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file("m/scripts/early.lua", "local t = game:tick()\nreturn {}");
    mods.file(
        "m/scripts/typo.lua",
        "game:react(\"wave_strated\", 1, function() end)\nreturn {}",
    );
    mods.file(
        "m/scripts/wrong_kind.lua",
        "game:modify(\"wave_started\", -1, function() end)\nreturn {}",
    );
    mods.file(
        "m/scripts/wrong_priority.lua",
        "game:modify(\"damage\", 5, function() end)\nreturn {}",
    );
    let content = mods.load_clean();
    let b = battle(&content, 1);
    let messages: Vec<String> = errors(&b);
    assert_eq!(messages.len(), 4, "{messages:#?}");
    assert!(
        messages[0].contains("scripts/early.lua:1: game:tick needs a running battle"),
        "{messages:#?}"
    );
    assert!(
        messages[1].contains(
            "scripts/typo.lua:1: there is no chain `wave_strated`; did you mean `wave_started`?"
        ),
        "{messages:#?}"
    );
    assert!(
        messages[2].contains("`wave_started` is an event: use react"),
        "{messages:#?}"
    );
    assert!(
        messages[3].contains("priority must be negative"),
        "{messages:#?}"
    );
    // The same problems are found without a battle, as `rampart check` does.
    let checked =
        rampart_core::battle::ScriptHost::check(&content, &rampart_lua::Limits::default());
    assert_eq!(checked.len(), 4);
}

#[test]
fn behaviour_scripts_must_look_like_one() {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file(
        "m/attackers/typo.ron",
        &attacker("Typo", 5.0, 1.0, "script: \"scripts/typo.lua\","),
    );
    mods.file(
        "m/attackers/number.ron",
        &attacker("Number", 5.0, 1.0, "script: \"scripts/number.lua\","),
    );
    mods.file(
        "m/attackers/value.ron",
        &attacker("Value", 5.0, 1.0, "script: \"scripts/value.lua\","),
    );
    mods.file(
        "m/scripts/typo.lua",
        "return { on_spwan = function(self, game) end, helper = 1 }",
    );
    mods.file("m/scripts/number.lua", "return 42");
    mods.file("m/scripts/value.lua", "return { on_tick = true }");
    let content = mods.load_clean();
    let checked: Vec<String> =
        rampart_core::battle::ScriptHost::check(&content, &rampart_lua::Limits::default())
            .iter()
            .map(|e| e.to_string())
            .collect();
    assert_eq!(checked.len(), 3, "{checked:#?}");
    assert!(
        checked[0].contains("scripts/number.lua: a behaviour script must return a table of hooks"),
        "{checked:#?}"
    );
    assert!(
        checked[1].contains("`on_spwan` is not a hook"),
        "{checked:#?}"
    );
    assert!(
        checked[2].contains("hook `on_tick` must be a function"),
        "{checked:#?}"
    );
    // In a battle the same problems are reported when such an attacker appears.
    let mut b = battle(&content, 1);
    b.spawn_attacker(content.attacker_id("m:typo").unwrap(), Position::default());
    assert!(
        errors(&b)
            .iter()
            .any(|e| e.contains("`on_spwan` is not a hook"))
    );
}
