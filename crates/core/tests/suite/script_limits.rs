//! What scripts do at run time is checked and bounded: values out of their chain's domain fall
//! back with a script error, `game:spawn` refuses points outside the world, a stalled wave ends,
//! a mod's registrations and instructions per tick are limited, a script failing again and
//! again is switched off alone, its repeated error counted once, and effect names close to a
//! built-in one get a hint.

use crate::common::arena::{Arena, STRAIGHT};
use crate::common::{Mods, attacker, wave};
use rampart_core::battle::effects::BUILT_IN_EFFECTS;
use rampart_core::battle::scripting::MAX_SCRIPT_FAILURES;
use rampart_core::battle::scripting::limits::{MAX_REGISTRATIONS_PER_TICK, TICK_INSTRUCTIONS};
use rampart_core::battle::{LogKind, Phase, PlayerCommand, StatOf};
use rampart_core::diagnostics::{SIMILAR_LEGAL, did_you_mean_above};
use rampart_lua::ScriptErrorKind;

/// A mod `hostile` (after core) whose one top-level script is `source`, plus other files.
fn hostile(source: &str, files: &[(&str, &str)]) -> Mods {
    let mods = Mods::new();
    mods.manifest("hostile", &["core"])
        .file("hostile/scripts/main.lua", source);
    for (path, text) in files {
        mods.file(&format!("hostile/{path}"), text);
    }
    mods
}

/// A battle of core and `mods` whose one wave sends a Red Slime at once.
fn one_slime(mods: Mods) -> Arena {
    let mut arena = Arena::with_mods(mods, STRAIGHT);
    arena.battle = Arena::battle(
        &arena.content,
        STRAIGHT,
        vec![wave(&[(0, "core:red_slime")])],
    );
    arena
}

/// The script errors of the battle, as printed.
fn errors(arena: &Arena) -> Vec<String> {
    arena
        .battle
        .script_errors()
        .map(|e| e.to_string())
        .collect()
}

fn start_wave(arena: &mut Arena) {
    arena.battle.submit(PlayerCommand::StartWave);
    arena.battle.step();
    assert_eq!(arena.battle.phase(), Phase::Wave);
}

#[test]
fn a_query_value_out_of_its_domain_keeps_the_value_before_it() {
    let mut arena = one_slime(hostile(
        r#"
game:modify("speed", -3, function(speed) return speed * 2 end)
game:modify("speed", -2, function(speed)
    return 0 / 0
end)
game:modify("speed", -1, function(speed) return -speed end)
"#,
        &[],
    ));
    let slime = arena.walking("core:red_slime", 0);
    let speed = arena.battle.query(|b| &b.chains.speed, &slime);
    assert_eq!(
        speed, 2.0,
        "NaN and a negative speed are refused; the doubled speed stays"
    );
    let errors = errors(&arena);
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[0].starts_with("[hostile] scripts/main.lua:3: the `speed` modifier returned"),
        "{}",
        errors[0]
    );
    assert!(errors[0].contains("got NaN"), "{}", errors[0]);
    assert!(
        errors[1].starts_with("[hostile] scripts/main.lua:6:") && errors[1].contains("≥ 0"),
        "{}",
        errors[1]
    );
    // The slime walks on at the speed kept.
    let before = arena.battle.entity(slime).unwrap().position.x;
    arena.run(10);
    assert!(arena.battle.entity(slime).unwrap().position.x > before);
}

#[test]
fn an_interval_of_zero_is_refused_but_one_that_was_zero_stays() {
    let mut arena = one_slime(hostile(
        r#"game:modify("interval", -1, function(interval) return interval * 0 end)"#,
        &[],
    ));
    let stat = |arena: &Arena, id: &str| StatOf {
        blueprint: arena.content.blueprint_id(id).unwrap(),
        entity: None,
    };
    let (sniper, amplifier) = (stat(&arena, "core:sniper"), stat(&arena, "core:amplifier"));
    let interval = arena.battle.query(|b| &b.chains.interval, &sniper);
    assert!(interval > 0.0, "the sniper keeps its interval");
    assert_eq!(errors(&arena).len(), 1, "{:#?}", errors(&arena));
    assert_eq!(arena.battle.query(|b| &b.chains.interval, &amplifier), 0.0);
    assert_eq!(
        errors(&arena).len(),
        1,
        "a modifier giving back the 0 it got is not at fault"
    );
}

#[test]
fn a_misspelt_payload_field_is_named_with_the_field_meant() {
    let mut arena = one_slime(hostile(
        r#"
game:react("wave_started", 1, function()
    game:command("add_fuel", { amout = 5 })
end)
"#,
        &[],
    ));
    let fuel = arena.battle.player().fuel;
    start_wave(&mut arena);
    assert_eq!(arena.battle.player().fuel, fuel, "nothing was added");
    let errors = errors(&arena);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].contains(
            "field `amount`: expected a number, got nil (the table has `amout`: did you mean `amount`?)"
        ),
        "{}",
        errors[0]
    );
}

#[test]
fn a_cancelled_command_is_dropped_without_reading_its_payload() {
    // As the core's armoured skeletons do with a hit they block whole: the amount goes below
    // zero, and the modifier cancels.
    let mut arena = one_slime(hostile(
        r#"
game:modify("add_fuel", -1, function(gain)
    gain.amount -= 1000
    if gain.amount <= 0 then return false end
end)
game:react("wave_started", 1, function()
    game:command("add_fuel", { amount = 5 })
end)
"#,
        &[],
    ));
    let fuel = arena.battle.player().fuel;
    start_wave(&mut arena);
    assert_eq!(arena.battle.player().fuel, fuel, "cancelled");
    assert_eq!(errors(&arena), Vec::<String>::new());
}

#[test]
fn command_amounts_out_of_their_domain_are_refused() {
    let mut arena = one_slime(hostile(
        r#"
game:modify("add_materials", -1, function(gain) gain.amount = math.huge end)
game:modify("damage_hull", -1, function(hull) hull.amount = 0 / 0 end)
game:react("wave_started", 1, function()
    game:command("add_fuel", { amount = 0 / 0 })
end)
"#,
        &[],
    ));
    let materials = arena.battle.player().materials;
    let hull = arena.battle.player().hull;
    arena.battle.command(|b| &b.chains.add_materials, gain(5.0));
    assert_eq!(arena.battle.player().materials, materials + 5.0);
    arena.battle.command(
        |b| &b.chains.damage_hull,
        rampart_core::battle::HullDamage {
            amount: 1.0,
            attacker: None,
        },
    );
    assert_eq!(arena.battle.player().hull, hull - 1.0);
    start_wave(&mut arena);
    assert!(arena.battle.player().fuel.is_finite());
    let errors = errors(&arena);
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(errors[0].contains("field `amount`"), "{}", errors[0]);
    assert!(
        errors[0].contains("the payload before this modifier is kept"),
        "{}",
        errors[0]
    );
    assert!(
        errors[2].starts_with("[hostile] scripts/main.lua:5:"),
        "{}",
        errors[2]
    );
}

fn gain(amount: f64) -> rampart_core::battle::Gain {
    rampart_core::battle::Gain {
        amount,
        source: None,
    }
}

#[test]
fn game_spawn_refuses_points_outside_the_world() {
    let mut arena = one_slime(hostile(
        r#"
local points = { { 1e308, -1e308 }, { 0 / 0, 1 }, { math.huge, 0 }, { -5, 3 }, { 2, 3 } }
for i, p in points do
    game:react("wave_started", i, function()
        game:spawn("core:red_slime", p[1], p[2])
    end)
end
"#,
        &[],
    ));
    start_wave(&mut arena);
    arena.run(5);
    let errors = errors(&arena);
    assert_eq!(errors.len(), 4, "{errors:#?}");
    for e in &errors {
        assert!(e.contains("game:spawn: the point"), "{e}");
    }
    assert!(errors[0].contains("outside the world"), "{}", errors[0]);
    assert!(errors[1].contains("not a finite position"), "{}", errors[1]);
    // The one point in the world got its slime (besides the wave's own).
    assert_eq!(arena.attackers().len(), 2);
}

#[test]
fn a_wave_without_progress_ends_after_the_levels_stall_ticks() {
    let mods = hostile(
        r#"game:modify("speed", -1, function() return 0 end)"#,
        &[(
            "levels.ron",
            r#"(overrides: "core:levels", stall_ticks: 40)"#,
        )],
    );
    let mut arena = one_slime(mods);
    start_wave(&mut arena);
    arena.run(38);
    assert_eq!(arena.battle.phase(), Phase::Wave, "not yet");
    arena.run(3);
    assert_eq!(arena.battle.phase(), Phase::Build, "the frozen wave ended");
    let stalled: Vec<&LogKind> = arena
        .battle
        .log()
        .iter()
        .map(|l| &l.kind)
        .filter(|k| matches!(k, LogKind::WaveStalled { .. }))
        .collect();
    assert_eq!(
        stalled,
        vec![&LogKind::WaveStalled {
            wave: 1,
            ticks: 40,
            attackers: 1
        }]
    );
    assert!(arena.attackers().is_empty());
}

#[test]
fn a_walking_wave_is_not_stalled() {
    let mods = hostile(
        "",
        &[(
            "levels.ron",
            r#"(overrides: "core:levels", stall_ticks: 5)"#,
        )],
    );
    let mut arena = one_slime(mods);
    start_wave(&mut arena);
    arena.run(100);
    assert!(
        !arena
            .battle
            .log()
            .iter()
            .any(|l| matches!(l.kind, LogKind::WaveStalled { .. })),
        "a slime walking to the Hub makes progress every tick"
    );
}

/// A mod whose attacker `hostile:pest` runs `on_tick` from `scripts/pest.lua`.
fn pest(on_tick: &str) -> Arena {
    let mods = hostile(
        "",
        &[
            (
                "attackers/pest.ron",
                &attacker("Pest", 5.0, 1.0, "script: \"scripts/pest.lua\""),
            ),
            (
                "scripts/pest.lua",
                &format!("return {{ on_tick = function(self, game)\n{on_tick}\nend }}"),
            ),
        ],
    );
    Arena::with_mods(mods, STRAIGHT)
}

#[test]
fn registrations_per_tick_are_limited_and_a_flooding_mod_is_switched_off() {
    let mut arena = pest(&format!(
        "for i = 1, {} do game:modify(\"speed\", -1, function(v) return v end) end",
        MAX_REGISTRATIONS_PER_TICK + 100
    ));
    arena.standing("hostile:pest", 2.0, 1.0);
    let before = arena.battle.chains.speed.len();
    arena.run(1);
    assert_eq!(
        arena.battle.chains.speed.len() - before,
        MAX_REGISTRATIONS_PER_TICK as usize,
        "the registrations past the limit were refused"
    );
    let errors = errors(&arena);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(
        errors[0].starts_with("[hostile] scripts/pest.lua:2: the mod registered more than 5000"),
        "{}",
        errors[0]
    );
    arena.run(20);
    assert!(
        arena.battle.log().iter().any(|l| matches!(
            &l.kind,
            LogKind::ScriptDisabled(off) if off.file == "scripts/pest.lua"
        )),
        "ten hits switch the script off like ten script errors"
    );
    let registered = arena.battle.chains.speed.len();
    arena.run(5);
    assert_eq!(arena.battle.chains.speed.len(), registered);
}

#[test]
fn instructions_per_tick_are_limited_across_calls() {
    // Each call stays within its own budget; three of them a tick do not.
    let per_call = TICK_INSTRUCTIONS * 2 / 5;
    let mut arena = pest(&format!("local n = 0\nfor i = 1, {per_call} do n += 1 end"));
    for x in [1.0, 2.0, 3.0] {
        arena.standing("hostile:pest", x, 1.0);
    }
    arena.run(2);
    let found = arena.battle.script_error_counts();
    assert_eq!(found.len(), 1, "the same error: {found:#?}");
    assert_eq!(found[0].times, 2, "one per tick");
    let found = &found[0].error;
    assert_eq!(found.kind, ScriptErrorKind::Budget);
    assert!(
        found
            .to_string()
            .starts_with("[hostile] scripts/pest.lua:3: the mod's scripts used up their 4000000 instructions for this tick"),
        "{found}"
    );
    assert_eq!(arena.battle.tick(), 2, "the battle goes on");
}

#[test]
fn a_script_failing_every_tick_is_switched_off_alone_and_its_error_counted_once() {
    let mods = hostile(
        "",
        &[
            (
                "attackers/pest.ron",
                &attacker("Pest", 5.0, 1.0, "script: \"scripts/pest.lua\""),
            ),
            (
                "scripts/pest.lua",
                "return { on_tick = function(self, game)\n    local nothing = nil\n    return nothing.field\nend }",
            ),
            (
                "attackers/worker.ron",
                &attacker("Worker", 5.0, 1.0, "script: \"scripts/worker.lua\""),
            ),
            (
                "scripts/worker.lua",
                "return { on_tick = function(self, game)\n    game:command(\"add_materials\", { amount = 1 })\nend }",
            ),
        ],
    );
    let mut arena = Arena::with_mods(mods, STRAIGHT);
    arena.standing("hostile:pest", 2.0, 1.0);
    arena.standing("hostile:worker", 3.0, 1.0);
    let before = arena.battle.player().materials;
    arena.run(30);
    assert_eq!(
        arena.battle.player().materials - before,
        30.0,
        "the mod's other script worked on every tick, after the failing one was switched off too"
    );

    let counted = arena.battle.script_error_counts();
    assert_eq!(counted.len(), 1, "{counted:#?}");
    assert_eq!(counted[0].times, MAX_SCRIPT_FAILURES);
    assert_eq!(
        counted[0].to_string(),
        "[hostile] scripts/pest.lua:3: attempt to index nil with 'field' … repeated 9 times"
    );
    let logged = |arena: &Arena| {
        let log = arena.battle.log();
        let errors = log
            .iter()
            .filter(|l| matches!(l.kind, LogKind::ScriptError(_)))
            .count();
        let off: Vec<String> = log
            .iter()
            .filter_map(|l| match &l.kind {
                LogKind::ScriptDisabled(off) => Some(format!("{} {off}", l.tick)),
                _ => None,
            })
            .collect();
        (errors, off)
    };
    let (errors, off) = logged(&arena);
    assert_eq!(errors, 1, "the log holds the error once");
    assert_eq!(
        off,
        [
            "9 [hostile] scripts/pest.lua is switched off for the rest of the battle after 10 \
          script errors; the last was: [hostile] scripts/pest.lua:3: attempt to index nil with \
          'field'"
        ]
    );
    arena.run(10);
    assert_eq!(logged(&arena).1.len(), 1, "switched off once");
    assert_eq!(arena.battle.script_error_counts()[0].times, 10);
}

#[test]
fn a_callback_counts_against_the_script_that_defines_its_function() {
    // main.lua registers util.lua's broken modifier and one of its own.
    let mut arena = one_slime(hostile(
        r#"
local util = require("util")
game:modify("speed", -2, util.broken)
game:modify("speed", -1, function(speed) return speed * 2 end)
"#,
        &[(
            "scripts/util.lua",
            "return { broken = function(speed)\n    return speed + nil\nend }",
        )],
    ));
    let slime = arena.walking("core:red_slime", 0);
    for _ in 0..12 {
        arena.battle.query(|b| &b.chains.speed, &slime);
    }
    let counted = arena.battle.script_error_counts();
    assert_eq!(counted.len(), 1, "{counted:#?}");
    assert_eq!(
        counted[0].times, MAX_SCRIPT_FAILURES,
        "none after the tenth"
    );
    assert_eq!(counted[0].error.file.as_deref(), Some("scripts/util.lua"));
    let off: Vec<&str> = arena
        .battle
        .log()
        .iter()
        .filter_map(|l| match &l.kind {
            LogKind::ScriptDisabled(off) => Some(off.file.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        off,
        ["scripts/util.lua"],
        "not main.lua, which registered it"
    );
    assert_eq!(
        arena.battle.query(|b| &b.chains.speed, &slime),
        2.0,
        "main.lua's own modifier still runs"
    );
}

#[test]
fn only_effect_names_very_close_to_a_built_in_one_get_a_hint() {
    // A mod's own effect is legal, so the hint is stricter than for names that must be known.
    let hint = |name| did_you_mean_above(name, BUILT_IN_EFFECTS, SIMILAR_LEGAL);
    assert_eq!(hint("burnin").as_deref(), Some("did you mean `burning`?"));
    assert_eq!(hint("freezng").as_deref(), Some("did you mean `freezing`?"));
    assert_eq!(
        hint("catalyzed"),
        None,
        "core's own effect, 0.85 from `paralyzed`"
    );
    assert_eq!(hint("marked"), None);
}
