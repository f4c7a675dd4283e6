//! Events and queries mods declare in their `chains.ron`: the documented example (the example
//! mod `frost` declares them, a second mod reacts and modifies), who may use a declared chain,
//! payloads checked field by field at the call, bad declarations reported where they are
//! written, and battles with declared chains as deterministic as any.

use rampart_core::battle::Phase;
use rampart_lua::ScriptError;

use crate::common::arena::{Arena, STRAIGHT};
use crate::common::{Mods, blueprint, documented_file, hashes_from_child};

/// The declarations of the test mod `ice`: an event and a query about a block.
const ICE_CHAINS: &str = r#"(
    events: [
        (
            name: "ice:cracked",
            doc: "A block cracked.",
            about: "block",
            fields: [
                (name: "block", type: Entity, doc: "The block."),
                (name: "depth", type: Number),
                (name: "count", type: Integer, optional: true),
                (name: "note", type: String, optional: true),
                (name: "extra", type: Table, optional: true),
            ],
        ),
        (name: "ice:thawed"),
    ],
    queries: [
        (
            name: "ice:thickness",
            about: "block",
            input: [(name: "block", type: Entity)],
            value: Number,
            base: 2,
        ),
        (name: "ice:weather", value: String, base: "clear"),
    ],
)"#;

/// Mods `ice` (declaring its chains; its block runs `block`), `snow` (depending on `ice`,
/// running `snow` at its top level) and `rain` (running `rain`, depending on core only).
fn mods(block: &str, snow: &str, rain: &str) -> Mods {
    let mods = Mods::new();
    mods.manifest("ice", &["core"]);
    mods.file("ice/chains.ron", ICE_CHAINS);
    mods.file("ice/scripts/block.lua", block);
    mods.file(
        "ice/blueprints/block.ron",
        &blueprint("Block", "Special", "script: \"scripts/block.lua\","),
    );
    mods.manifest("snow", &["core", "ice"]);
    mods.file("snow/scripts/snow.lua", snow);
    mods.manifest("rain", &["core"]);
    mods.file("rain/scripts/rain.lua", rain);
    mods
}

fn arena(block: &str, snow: &str, rain: &str) -> Arena {
    Arena::with_mods(mods(block, snow, rain), STRAIGHT)
}

/// The one script error of the battle, or a failed test.
fn one_error(arena: &Arena) -> ScriptError {
    let errors: Vec<&ScriptError> = arena.battle.script_errors().collect();
    match errors.as_slice() {
        [one] => (*one).clone(),
        other => panic!("expected one script error, got {other:#?}"),
    }
}

/// The magnitude of the effect `name` on `entity`, if it has it.
fn marked(arena: &Arena, entity: rampart_core::battle::EntityId, name: &str) -> Option<f64> {
    arena.battle.effect(entity, name).map(|e| e.magnitude)
}

#[test]
fn the_documented_winter_mod_modifies_and_reacts_to_the_chains_of_frost() {
    let mods = Mods::new();
    mods.file("winter/mod.ron", &documented_file("winter/mod.ron"));
    mods.file(
        "winter/scripts/winter.lua",
        &documented_file("winter/scripts/winter.lua"),
    );
    let mut arena = Arena::with_content(mods.load_after_repo_with(&["frost"]), STRAIGHT);
    let spire = arena.place("frost:icicle_spire", 7.0, 6.0);
    arena.wave();
    let target = arena.standing("core:black_skeleton", 7.0, 4.0);
    let materials = arena.battle.player().materials;
    arena.run(60);
    arena.no_script_errors();
    // Winter's modifier makes the spire chill half again as hard: 0.3 × 1.5.
    let chill = arena.battle.effect(target, "freezing").unwrap();
    assert!(
        (chill.magnitude - 0.45).abs() < 1e-12,
        "{}",
        chill.magnitude
    );
    // The second and third hits shatter; winter pays a material for each.
    let shattered = arena.fired("frost:shattered");
    assert!(shattered.iter().all(|(_, about)| *about == Some(spire)));
    assert_eq!(shattered.len(), 2, "in the log like the game's events");
    assert_eq!(
        arena.gains_from(spire, rampart_core::battle::Resource::Materials),
        [1.0, 1.0]
    );
    assert_eq!(arena.battle.player().materials, materials + 2.0);
    // Winter's calls are counted as any script's: its top level, a modifier call for each of
    // the three chills, a reaction for each of the two shatters.
    let cost = arena
        .battle
        .script_costs()
        .get("winter", "scripts/winter.lua")
        .unwrap();
    assert_eq!(cost.calls, 1 + 3 + 2);
    assert!(cost.instructions > 0);
}

#[test]
fn the_documented_chains_file_is_the_example_mods() {
    let documented = documented_file("example-frost/chains.ron");
    let (_, documented) = documented.split_once('\n').unwrap();
    let real = std::fs::read_to_string(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("mods/example-frost/chains.ron"),
    )
    .unwrap();
    assert_eq!(documented, real);
}

/// A block that fires `ice:cracked` about itself when placed, with `depth` its thickness, and
/// marks itself with what it hears of cracks about itself.
const BLOCK: &str = r#"
return {
    on_placed = function(self, game)
        self:react("ice:cracked", 5, function(crack)
            game:apply_effect(self, "heard", { waves = 1, magnitude = crack.depth, stacking = "add" })
        end)
        game:event("ice:cracked", { block = self.entity, depth = self:query("ice:thickness"), note = "hi" })
    end,
}
"#;

#[test]
fn the_declaring_mod_fires_and_asks_and_sees_what_a_dependent_mod_changed() {
    let snow = r#"
game:modify("ice:thickness", 1, function(thickness, input)
    assert(input.block:type() == "ice:block")
    return thickness * 10
end)
game:modify("ice:thickness", -1, function(thickness)
    return thickness + 1
end)
game:modify("ice:weather", 1, function(weather)
    return weather .. ", snowing"
end)
game:react("ice:cracked", 10, function(crack)
    assert(game:query("ice:weather") == "clear, snowing")
    game:apply_effect(crack.block, "snowed", { waves = 1, magnitude = crack.depth })
    assert(crack.note == "hi" and crack.count == nil)
    assert(not pcall(function() crack.depth = 0 end), "a payload is read-only")
end)
"#;
    let mut arena = arena(BLOCK, snow, "");
    let a = arena.place("ice:block", 2.0, 1.0);
    let b = arena.place("ice:block", 4.0, 1.0);
    arena.no_script_errors();
    // (2 + 1) × 10: added to first, then multiplied, by priority.
    assert_eq!(marked(&arena, a, "snowed"), Some(30.0));
    // Each block's own reaction hears only the crack about itself.
    assert_eq!(marked(&arena, a, "heard"), Some(30.0));
    assert_eq!(marked(&arena, b, "heard"), Some(30.0));
    let cracks = arena.fired("ice:cracked");
    assert_eq!(
        cracks.iter().map(|(_, about)| *about).collect::<Vec<_>>(),
        [Some(a), Some(b)]
    );
}

#[test]
fn equal_priorities_run_in_registration_order_across_mods() {
    // `ice` loads before `snow`, so its top-level registration comes first.
    let block = r#"
game:modify("ice:thickness", 0, function(t) return t * 3 end)
return {
    on_placed = function(self, game)
        game:apply_effect(self, "thick", { waves = 1, magnitude = self:query("ice:thickness") })
    end,
}
"#;
    let snow = r#"game:modify("ice:thickness", 0, function(t) return t + 1 end)"#;
    let mut arena = arena(block, snow, "");
    let a = arena.place("ice:block", 2.0, 1.0);
    arena.no_script_errors();
    assert_eq!(marked(&arena, a, "thick"), Some(7.0));
}

/// Runs `code` from a block's `on_placed` in mod `ice`, and gives the error it raised.
fn error_of(code: &str) -> ScriptError {
    let block = format!("return {{ on_placed = function(self, game)\n{code}\nend }}");
    let mut arena = arena(&block, "", "");
    arena.place("ice:block", 2.0, 1.0);
    let error = one_error(&arena);
    assert_eq!(error.mod_id, "ice");
    assert_eq!(error.file.as_deref(), Some("scripts/block.lua"));
    assert_eq!(error.line, Some(2), "the line of the call: {error}");
    error
}

#[test]
fn a_misspelt_chain_name_is_an_error_with_the_name_probably_meant() {
    let e = error_of(r#"game:react("ice:craked", 1, function() end)"#);
    assert_eq!(
        e.message,
        "there is no chain `ice:craked`; did you mean `ice:cracked`?"
    );
    let e = error_of(r#"game:event("ice:thwed", {})"#);
    assert!(e.message.contains("did you mean `ice:thawed`?"), "{e}");
    let e = error_of(r#"game:query("ice:thiknes", self)"#);
    assert!(e.message.contains("did you mean `ice:thickness`?"), "{e}");
    // The game's own names are among those suggested.
    let e = error_of(r#"game:react("wave_startd", 1, function() end)"#);
    assert!(e.message.contains("did you mean `wave_started`?"), "{e}");
}

#[test]
fn a_declared_chain_is_used_as_what_it_is() {
    let e = error_of(r#"game:modify("ice:cracked", 1, function() end)"#);
    assert_eq!(
        e.message,
        "`ice:cracked` is an event: use react, not modify"
    );
    let e = error_of(r#"game:react("ice:thickness", 1, function() end)"#);
    assert_eq!(
        e.message,
        "`ice:thickness` is a query: queries have no reactions, use modify"
    );
    let e = error_of(r#"game:event("ice:thickness", { block = self })"#);
    assert!(e.message.starts_with("`ice:thickness` is a query"), "{e}");
    let e = error_of(r#"game:command("ice:cracked", {})"#);
    assert_eq!(e.message, "`ice:cracked` is an event, not a command");
    let e = error_of(r#"game:event("wave_started", { wave = 1 })"#);
    assert!(
        e.message
            .starts_with("`wave_started` is an event of the game's, which the game runs itself"),
        "{e}"
    );
    let e = error_of(r#"self:react("ice:thawed", 1, function() end)"#);
    assert!(e.message.contains("is about no entity"), "{e}");
    let e = error_of(r#"self:query("ice:weather")"#);
    assert!(
        e.message.starts_with(
            "`ice:weather` is about no entity (its declaration has no `about`): ask it with game:query"
        ),
        "{e}"
    );
    let e = error_of(r#"game:query("ice:thickness", { block = self, depth = 2 })"#);
    assert!(
        e.message
            .starts_with("`ice:thickness` has no field `depth`"),
        "{e}"
    );
}

#[test]
fn only_the_declaring_mod_fires_its_events() {
    let snow = r#"
game:react("wave_started", 1, function()
    game:event("ice:thawed")
end)
"#;
    let mut arena = arena("return {}", snow, "");
    arena.wave();
    let e = one_error(&arena);
    assert_eq!((e.mod_id.as_str(), e.line), ("snow", Some(3)));
    assert!(
        e.message
            .starts_with("`ice:thawed` is an event of `ice`: only its own scripts fire it"),
        "{e}"
    );
}

#[test]
fn using_a_chain_of_a_mod_not_depended_on_is_an_error_naming_the_dependency() {
    let rain = r#"
local ok, why = pcall(function() game:react("ice:cracked", 1, function() end) end)
assert(not ok)
game:react("wave_started", 1, function()
    game:query("ice:thickness", {})
end)
error(why, 0)
"#;
    let mut arena = arena("return {}", "", rain);
    let e = one_error(&arena);
    assert_eq!(e.mod_id, "rain");
    assert!(
        e.message.ends_with(
            "`ice:cracked` is declared by `ice`, which is not a dependency of `rain`; add (id: \"ice\") to the dependencies in rain's mod.ron"
        ),
        "{e}"
    );
    arena.wave();
    let asked: Vec<String> = arena
        .battle
        .script_errors()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(asked.len(), 2, "{asked:#?}");
    assert!(
        asked[1].contains("[rain] scripts/rain.lua:5:")
            && asked[1].contains("which is not a dependency of `rain`"),
        "{}",
        asked[1]
    );
}

#[test]
fn payload_fields_are_checked_at_the_call() {
    let cases = [
        (
            "{ block = self, depht = 1 }",
            "`ice:cracked` has no field `depht`; did you mean `depth`? (its fields are block, depth, count, note, extra)",
        ),
        (
            "{ block = self }",
            "field `depth`: expected a number, got nil",
        ),
        (
            "{ block = self, depth = 0 / 0 }",
            "field `depth`: expected a finite number (at most 1e15 either way), got NaN",
        ),
        (
            "{ block = self, depth = 1, count = 1.5 }",
            "field `count`: expected a whole number, got 1.5",
        ),
        (
            "{ block = 3, depth = 1 }",
            "field `block`: expected an entity (a handle or `self`), got a number",
        ),
        (
            "{ block = self, depth = 1, extra = { parts = { 1, function() end } } }",
            "field `extra.parts[2]`: a function cannot be sent to other mods' scripts",
        ),
        (
            "{ block = self, depth = 1, extra = { owner = self } }",
            "field `extra.owner`: a table with a metatable (such as `self`) cannot be sent",
        ),
        (
            "{ block = self, depth = 1, extra = { [true] = 1 } }",
            "field `extra`: a table sent to other mods is keyed by strings and whole numbers, not by a boolean",
        ),
        (
            "{ block = self, depth = 1, note = string.rep('x', 70000) }",
            "field `note`: more than 65536 bytes of strings",
        ),
        (
            "42",
            "expected a table of the fields of `ice:cracked`, got a number",
        ),
    ];
    for (payload, message) in cases {
        let e = error_of(&format!("game:event(\"ice:cracked\", {payload})"));
        assert!(e.message.starts_with(message), "{payload}: {e}");
    }
    let e = error_of(
        "local t = {}; t.t = t; game:event(\"ice:cracked\", { block = self, depth = 1, extra = t })",
    );
    assert!(e.message.contains("nested more than 8 deep"), "{e}");
    let e = error_of(
        "local t = {}; for i = 1, 1000 do t[i] = i end; game:event(\"ice:cracked\", { block = self, depth = 1, extra = t })",
    );
    assert!(
        e.message
            .ends_with("more than 1000 values; a payload carries at most that many"),
        "{e}"
    );
}

#[test]
fn what_crosses_arrives_whole_in_the_other_mods_vm() {
    let block = r#"
return {
    on_placed = function(self, game)
        game:event("ice:cracked", {
            block = self,
            depth = 1.5,
            count = 3,
            extra = { list = { 10, 20, 30 }, name = "berg", deep = { deeper = { self.entity } }, flag = false },
        })
    end,
}
"#;
    let snow = r#"
game:react("ice:cracked", 1, function(crack)
    local e = crack.extra
    assert(crack.count == 3 and crack.depth == 1.5)
    assert(#e.list == 3 and e.list[3] == 30 and e.name == "berg" and e.flag == false)
    assert(e.deep.deeper[1] == crack.block, "an entity arrives as the same handle")
    assert(crack.block:type() == "ice:block")
    assert(not pcall(function() e.list[1] = 0 end), "nested tables are read-only too")
    game:apply_effect(crack.block, "whole", { waves = 1 })
end)
"#;
    let mut arena = arena(block, snow, "");
    let a = arena.place("ice:block", 2.0, 1.0);
    arena.no_script_errors();
    assert!(arena.battle.effect(a, "whole").is_some());
}

#[test]
fn a_query_modifier_giving_a_value_of_the_wrong_type_is_refused_and_the_value_before_kept() {
    let block = r#"
return {
    on_placed = function(self, game)
        game:apply_effect(self, "thick", { waves = 1, magnitude = self:query("ice:thickness") })
    end,
}
"#;
    let snow = r#"
game:modify("ice:thickness", 1, function(t) return t + 1 end)
game:modify("ice:thickness", 2, function(t) return "thick" end)
game:modify("ice:thickness", 3, function(t) return t * 2 end)
"#;
    let mut arena = arena(block, snow, "");
    let a = arena.place("ice:block", 2.0, 1.0);
    assert_eq!(marked(&arena, a, "thick"), Some(6.0));
    let e = one_error(&arena);
    assert_eq!((e.mod_id.as_str(), e.line), ("snow", Some(3)));
    assert_eq!(
        e.message,
        "the `ice:thickness` modifier returned a value that does not fit (expected a number, got a string); the value before it is kept"
    );
}

#[test]
fn a_query_modifier_only_computes() {
    let block = r#"
return {
    on_placed = function(self, game)
        self:query("ice:thickness")
    end,
}
"#;
    let snow = r#"
game:modify("ice:thickness", 1, function(t, input)
    game:event("ice:thawed")
end)
"#;
    let mut arena = arena(block, snow, "");
    arena.place("ice:block", 2.0, 1.0);
    let e = one_error(&arena);
    assert!(
        e.message
            .starts_with("game:event changes the battle, which a query modifier must not do"),
        "{e}"
    );
}

#[test]
fn an_event_that_fires_itself_is_stopped_at_the_nesting_limit() {
    let block = r#"
return {
    on_placed = function(self, game)
        game:react("ice:thawed", 1, function()
            game:event("ice:thawed")
        end)
        game:event("ice:thawed")
    end,
}
"#;
    let mut arena = arena(block, "", "");
    arena.place("ice:block", 2.0, 1.0);
    let e = one_error(&arena);
    assert!(
        e.message
            .contains("`ice:thawed` was refused: chains are nested too deeply"),
        "{e}"
    );
    assert_eq!(arena.battle.phase(), Phase::Build);
}

#[test]
fn registrations_on_declared_chains_go_with_their_owner() {
    let block = r#"
return {
    on_placed = function(self, game)
        game:modify("ice:thickness", 1, function(t) return t + 5 end)
        game:apply_effect(self, "thick", { waves = 1, magnitude = game:query("ice:thickness", { block = self }) })
    end,
}
"#;
    let mut arena = arena(block, "", "");
    let a = arena.place("ice:block", 2.0, 1.0);
    assert_eq!(marked(&arena, a, "thick"), Some(7.0));
    let b = arena.place("ice:block", 4.0, 1.0);
    assert_eq!(marked(&arena, b, "thick"), Some(12.0));
    arena.battle.remove(a);
    let c = arena.place("ice:block", 6.0, 1.0);
    assert_eq!(
        marked(&arena, c, "thick"),
        Some(12.0),
        "a's modifier went with it"
    );
    arena.no_script_errors();
}

/// A battle where every crack carries random numbers in a table, and the reacting mod walks
/// the table in whatever order its VM gives, changing the battle as it goes.
fn random_cracks() -> Mods {
    let block = r#"
return {
    on_tick = function(self, game)
        if game:tick() % 7 ~= 0 then return end
        local extra = {}
        for i = 1, 20 do
            extra["k" .. math.random(1, 1000)] = math.random()
        end
        game:event("ice:cracked", { block = self, depth = math.random(), extra = extra })
    end,
}
"#;
    let snow = r#"
local total = 0
game:react("ice:cracked", 1, function(crack)
    for key, value in crack.extra do
        total = total * 0.5 + value + #key
    end
    game:command("add_energy", { amount = total % 1 })
end)
"#;
    mods(block, snow, "")
}

fn random_crack_hashes(mods: Mods) -> Vec<u64> {
    let mut arena = Arena::with_mods(mods, STRAIGHT);
    arena.place("ice:block", 2.0, 1.0);
    arena.place("ice:block", 4.0, 1.0);
    let mut hashes = Vec::new();
    for _ in 0..4 {
        arena.run(25);
        hashes.push(arena.battle.state_hash());
    }
    arena.no_script_errors();
    hashes
}

const CHILD: &str = "RAMPART_MOD_CHAINS_CHILD";

#[test]
fn a_battle_with_declared_chains_gives_the_same_hashes_every_time_and_in_another_process() {
    let here = random_crack_hashes(random_cracks());
    assert_eq!(here, random_crack_hashes(random_cracks()));
    let child = hashes_from_child("mod_chains::print_random_crack_hashes", CHILD);
    assert_eq!(child, format!("{here:?}"));
}

/// Run by the test above in a child process.
#[test]
#[ignore = "runs as a child process of a_battle_with_declared_chains_gives_the_same_hashes_every_time_and_in_another_process"]
fn print_random_crack_hashes() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    println!("HASHES {:?}", random_crack_hashes(random_cracks()));
}

/// A `chains.ron` with one mistake of each kind, and one good declaration (the queries written
/// first, as a file may).
const BAD_CHAINS: &str = r#"(
    queries: [
        (name: "ice:text", value: Number, base: "two"),
        (name: "ice:whole", value: Integer, base: 1.5),
        (name: "ice:tables", value: Table, base: 1),
    ],
    events: [
        (name: "cracked"),
        (name: "core:stolen"),
        (name: "ice:Loud"),
        (name: "ice:fine", about: "block", fields: [(name: "block", type: Entity)]),
        (name: "ice:fine"),
        (name: "ice:wrong_about", about: "depth", fields: [(name: "depth", type: Number)]),
        (name: "ice:lost", about: "blok", fields: [(name: "block", type: Entity)]),
        (name: "ice:fields", fields: [(name: "end", type: Number), (name: "a", type: Number), (name: "a", type: String)]),
    ],
)"#;

#[test]
fn bad_declarations_are_reported_where_they_are_written_and_left_out() {
    let mods = Mods::new();
    mods.manifest("ice", &[]);
    mods.file("ice/chains.ron", BAD_CHAINS);
    let (content, diagnostics) = mods.load();
    let declared: Vec<&str> = content.chains.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(declared, ["ice:fine"]);
    let found: Vec<(usize, usize, String, Option<String>)> = diagnostics
        .iter()
        .map(|d| {
            assert!(d.is_error());
            assert_eq!(d.mod_id.as_deref(), Some("ice"));
            assert!(d.file.as_ref().unwrap().ends_with("ice/chains.ron"));
            let at = d.position.unwrap();
            (
                at.line as usize,
                at.column as usize,
                d.message.clone(),
                d.help.clone(),
            )
        })
        .collect();
    let expected: &[(usize, usize, &str, Option<&str>)] = &[
        (
            8,
            16,
            "a declared chain is named `<mod>:<name>`, not `cracked`",
            Some("write `ice:cracked`: the game's own chains have plain names"),
        ),
        (
            9,
            16,
            "`core:stolen` is in the namespace of `core`; a mod declares chains only in its own",
            Some("name it `ice:stolen`"),
        ),
        (
            10,
            16,
            "`Loud` cannot be the name of a chain",
            Some("use lowercase letters, digits, `_` and `-`"),
        ),
        (12, 16, "`ice:fine` is declared twice", None),
        (
            13,
            42,
            "`about` names the field the chain is about, which must be an `Entity`; `depth` is a `Number`",
            None,
        ),
        (
            14,
            35,
            "`ice:lost` has no field `blok` to be about",
            Some("did you mean `block`?"),
        ),
        (
            15,
            46,
            "`end` cannot be the name of a field",
            Some(
                "scripts read fields as `payload.name`: use letters, digits and `_`, not starting with a digit",
            ),
        ),
        (15, 102, "`ice:fields` has two fields called `a`", None),
        (
            3,
            43,
            "the base value of `ice:text` must be a number, as its `value` says",
            None,
        ),
        (
            4,
            45,
            "the base value of `ice:whole` must be a whole number, as its `value` says",
            None,
        ),
        (
            5,
            30,
            "a query's value is a `Number`, `Integer`, `String` or `Boolean`, not `Table`",
            None,
        ),
    ];
    let expected: Vec<(usize, usize, String, Option<String>)> = expected
        .iter()
        .map(|(l, c, m, h)| (*l, *c, m.to_string(), h.map(str::to_string)))
        .collect();
    assert_eq!(found, expected);
}

#[test]
fn a_declaration_that_does_not_read_is_reported_with_its_place_and_the_mod_loads() {
    let mods = Mods::new();
    mods.manifest("ice", &[]);
    mods.file(
        "ice/chains.ron",
        "(events: [(name: \"ice:a\", fields: [(name: \"x\", type: Numbr)])])",
    );
    mods.file("ice/blueprints/wall.ron", &blueprint("Wall", "Special", ""));
    let (content, diagnostics) = mods.load();
    assert!(content.chains.is_empty());
    assert!(content.blueprint_id("ice:wall").is_some());
    let [d] = diagnostics.iter().collect::<Vec<_>>()[..] else {
        panic!("{diagnostics:?}")
    };
    let at = d.position.unwrap();
    assert_eq!((at.line, at.column), (1, 54), "{d}");
    assert!(d.message.contains("Numbr"), "{d}");
}

#[test]
fn check_finds_registrations_on_chains_a_mod_may_not_use_without_a_battle() {
    let rain = r#"
game:react("ice:cracked", 1, function() end)
"#;
    let snow = r#"
game:modify("ice:thicknes", 1, function() end)
"#;
    let content = mods("return {}", snow, rain).load_with_core();
    let errors = rampart_core::battle::ScriptHost::check(&content, &rampart_lua::Limits::default());
    let found: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    // In load order: `rain` and `snow` do not depend on each other, so by id.
    assert_eq!(
        found,
        [
            "[rain] scripts/rain.lua:2: `ice:cracked` is declared by `ice`, which is not a dependency of `rain`; add (id: \"ice\") to the dependencies in rain's mod.ron",
            "[snow] scripts/snow.lua:2: there is no chain `ice:thicknes`; did you mean `ice:thickness`?",
        ]
    );
}

#[test]
fn a_registration_on_a_chain_of_a_mod_that_is_not_loaded_can_be_tried_in_pcall() {
    let snow = r#"
local ok, why = pcall(game.react, game, "hail:fell", 10, function() end)
assert(not ok and string.find(tostring(why), "there is no chain `hail:fell`", 1, true), tostring(why))
"#;
    let arena = arena("return {}", snow, "");
    arena.no_script_errors();
}
