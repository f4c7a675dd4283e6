//! The script API on a real world: tiles, rotation, attackers and buildings nearby, effects,
//! damage dealt, spawning where another attacker is, removing, and what is refused.

use std::sync::Arc;

use crate::common::arena::{Arena, STRAIGHT};
use crate::common::{Mods, REFUSED, attacker, blueprint, documented_file, wave};
use rampart_core::battle::{
    Battle, BattleConfig, EntityId, LogKind, Phase, PlayerCommand, Position,
};
use rampart_core::content::ContentDb;
use rampart_core::rng::Seed;
use rampart_core::worldgen::World;

/// A straight path along y = 1 to the Hub; a fuel deposit south of it (the last line is y = 0).
const LAYOUT: &str = "
    0. 0. 0. 0. 0. 0.
    0> 0> 0> 0> 0> 0H
    0. 0. 0f 0. 0. 0.
";

/// A building that reports what it stands on in its description, freezes and stings each
/// attacker that comes near once, and dismantles itself when the wave is over.
const PROBE: &str = r#"
return {
    on_placed = function(self, game)
        local x, y = self:tile()
        local t = game:tile(x, y)
        self.seen = string.format("at %d,%d turned %d: level %d, obstacle %s, path %s, slant %s",
            x, y, self:rotation(), t.level, tostring(t.obstacle), tostring(t.path), tostring(t.slant))
        self.stung = {}
        self.refusal = "none"
        self:modify("descriptions", -1, function(lines)
            table.insert(lines, self.seen)
            table.insert(lines, "refused: " .. self.refusal)
            return lines
        end)
        game:react("wave_finished", 1, function()
            game:remove(self)
        end)
        game:react("attacker_killed", 1, function(event)
            if event.entity:type() == "a:splitter" then
                game:spawn("a:walker", event.entity)
            end
        end)
    end,
    on_tick = function(self, game)
        local x, y = self:position()
        for _, attacker in game:attackers_near(x, y, self:query("range")) do
            if not self.stung[attacker] then
                self.stung[attacker] = true
                game:apply_effect(attacker, "freezing", { ticks = 40, magnitude = 0.5, source = self.entity })
                game:command("damage", { target = attacker, amount = 1, types = { "energy" }, source = self.entity })
                local ok, err = pcall(function() game:remove(attacker) end)
                if not ok then
                    self.refusal = tostring(err)
                end
            end
        end
    end,
}
"#;

fn content() -> (Mods, Arc<ContentDb>) {
    let mods = Mods::new();
    mods.manifest("a", &["core"]);
    mods.file("a/attackers/walker.ron", &attacker("Walker", 10.0, 1.0, ""));
    mods.file(
        "a/attackers/splitter.ron",
        &attacker("Splitter", 1.0, 1.0, ""),
    );
    mods.file("a/scripts/probe.lua", PROBE);
    mods.file(
        "a/blueprints/probe.ron",
        &blueprint(
            "Probe",
            "Special",
            r#"range: 1.5, script: "scripts/probe.lua",
               placement: Tile(small_obstacles: true, rotatable: true)"#,
        ),
    );
    let content = mods.load_with_core();
    (mods, content)
}

fn battle(content: &Arc<ContentDb>, attackers: &[(u32, &str)]) -> Battle {
    let mut config = BattleConfig::new(Seed(5));
    config.world = Some(Arc::new(World::from_layout(LAYOUT).unwrap()));
    config.start.hub = Some("core:hub".into());
    config.start.waves = vec![wave(attackers)];
    config.start.materials = 100.0;
    Battle::new(content.clone(), config)
}

fn errors(b: &Battle) -> Vec<String> {
    b.script_errors().map(|e| e.to_string()).collect()
}

fn place_probe(b: &mut Battle) -> EntityId {
    b.submit(PlayerCommand::Place {
        blueprint: "a:probe".into(),
        position: Position { x: 2.0, y: 0.0 },
        rotation: 1,
    });
    b.step();
    b.entities()
        .find(|(_, e)| e.kind.name() == "building" && e.tile.is_some_and(|t| t.y == 0))
        .map(|(id, _)| id)
        .expect("the probe stands")
}

#[test]
fn scripts_read_tiles_find_attackers_apply_effects_and_count_damage() {
    let (_mods, content) = content();
    let mut b = battle(&content, &[(0, "a:walker"), (10, "a:walker")]);
    let probe = place_probe(&mut b);
    let probe_bp = content.blueprint_id("a:probe").unwrap();
    let text = b.describe_blueprint(probe_bp, Some(probe)).text.plain();
    assert!(
        text.contains("at 2,0 turned 1: level 0, obstacle fuel, path false, slant nil"),
        "{text}"
    );

    b.submit(PlayerCommand::StartWave);
    b.step();
    let mut frozen = Vec::new();
    while b.phase() == Phase::Wave && b.tick() < 2000 {
        b.step();
        for (id, e) in b.entities() {
            if let Some(effect) = e.effects.iter().find(|x| x.name == "freezing")
                && !frozen.contains(&id)
            {
                assert_eq!(effect.magnitude, 0.5);
                assert_eq!(effect.source, Some(probe));
                frozen.push(id);
            }
        }
        if let Some(&first) = frozen.first()
            && b.entity(first).is_some_and(|e| !e.effects.is_empty())
        {
            assert_eq!(
                b.query(|b| &b.chains.speed, &first),
                0.5,
                "frozen: half speed"
            );
        }
    }
    assert!(errors(&b).is_empty(), "{:?}", errors(&b));
    assert_eq!(frozen.len(), 2, "both walkers came within 1.5 tiles");
    assert_eq!(
        b.entity(probe),
        None,
        "removed itself when the wave finished"
    );
    assert!(
        b.log()
            .iter()
            .any(|l| matches!(&l.kind, LogKind::Event { chain: "building_removed", entity } if *entity == Some(probe)))
    );
}

#[test]
fn damage_dealt_counts_and_attackers_cannot_be_removed() {
    let (_mods, content) = content();
    let mut b = battle(&content, &[(0, "a:walker"), (10, "a:walker")]);
    let probe = place_probe(&mut b);
    let probe_bp = content.blueprint_id("a:probe").unwrap();
    b.submit(PlayerCommand::StartWave);
    // Until both walkers have been stung, but before the wave ends and the probe goes.
    while b.entity(probe).is_some_and(|e| e.damage_dealt < 2.0) && b.tick() < 2000 {
        b.step();
    }
    assert_eq!(b.entity(probe).unwrap().damage_dealt, 2.0);
    let text = b.describe_blueprint(probe_bp, Some(probe)).text.plain();
    assert!(
        text.contains("refused: scripts/probe.lua:31: attackers leave the battle by dying or reaching the Hub; damage them instead"),
        "{text}"
    );
}

#[test]
fn an_attacker_spawned_where_another_died_walks_on_from_there() {
    let (_mods, content) = content();
    let mut b = battle(&content, &[(0, "a:splitter")]);
    place_probe(&mut b);
    b.submit(PlayerCommand::StartWave);
    b.step();
    let walker = content.attacker_id("a:walker").unwrap();
    // The probe's sting (1 damage) kills the splitter; a walker takes its place.
    let (died_at, route) = loop {
        let splitter = b
            .entities()
            .find(|(_, e)| e.kind.name() == "attacker")
            .map(|(id, e)| (id, e.position, e.route));
        b.step();
        if let Some((id, position, route)) = splitter
            && b.entity(id).is_none()
        {
            break (position, route.unwrap());
        }
        assert!(b.tick() < 2000, "the splitter never died");
    };
    let (_, child) = b
        .entities()
        .find(|(_, e)| e.kind.attacker() == Some(walker))
        .expect("a walker took the splitter's place");
    let child_route = child.route.unwrap();
    assert_eq!(child_route.segment, route.segment);
    assert!(
        (child.position.x - died_at.x).abs() <= 0.1,
        "{:?}",
        child.position
    );
    assert!(errors(&b).is_empty(), "{:?}", errors(&b));
    // It walks on to the Hub (and is stung and frozen too, as it is new).
    let hull = b.player().hull;
    while b.phase() == Phase::Wave {
        b.step();
    }
    assert!(b.player().hull < hull, "the walker reached the Hub");
}

/// A mod with the documented beacon, read from `lua-api.md`, and a plain block to shield.
fn beacon_mods() -> Mods {
    let mods = Mods::new();
    mods.manifest("beacon", &["core"]);
    mods.file(
        "beacon/scripts/beacon.lua",
        &documented_file("beacon/scripts/beacon.lua"),
    );
    mods.file(
        "beacon/blueprints/beacon.ron",
        &blueprint("Beacon", "Special", "script: \"scripts/beacon.lua\","),
    );
    mods.file(
        "beacon/blueprints/block.ron",
        &blueprint("Block", "Special", ""),
    );
    mods
}

/// The beacon mod and a blueprint `beacon:<name>` whose script is `script`, on the straight
/// world.
fn with_script(name: &str, script: &str) -> Arena {
    let mods = beacon_mods();
    mods.file(&format!("beacon/scripts/{name}.lua"), script);
    mods.file(
        &format!("beacon/blueprints/{name}.ron"),
        &blueprint(name, "Special", &format!("script: \"scripts/{name}.lua\",")),
    );
    Arena::with_mods(mods, STRAIGHT)
}

#[test]
fn the_documented_beacon_shields_the_buildings_near_it_and_the_one_east_twice() {
    let mut arena = Arena::with_mods(beacon_mods(), STRAIGHT);
    let west = arena.place("beacon:block", 4.0, 1.0);
    let east = arena.place("beacon:block", 6.0, 1.0);
    let far = arena.place("beacon:block", 9.0, 1.0);
    let beacon = arena.place("beacon:beacon", 5.0, 1.0);
    arena.run(1);
    arena.no_script_errors();
    assert_eq!(effect(&arena, beacon, "shield"), Some(5.0), "itself");
    assert_eq!(effect(&arena, west, "shield"), Some(5.0));
    assert_eq!(
        effect(&arena, east, "shield"),
        Some(10.0),
        "near, and just east"
    );
    assert_eq!(effect(&arena, far, "shield"), None, "4 tiles away");
}

/// Marks the buildings within a tile of itself with their rank in `game:buildings_near`, and the
/// one `game:building_at` finds on its own tile; bad arguments must be refused with these words.
const SURVEYOR: &str = r#"
return {
    on_placed = function(self, game)
        local x, y = self:tile()
        for rank, building in game:buildings_near(x, y, 1) do
            game:apply_effect(building, "rank", { waves = 1, magnitude = rank })
        end
        game:apply_effect(game:building_at(x + 0.3, y - 0.2), "found", { waves = 1 })
        assert(game:building_at(x, y + 1) == nil, "no building north")
        refused(function() game:buildings_near(0 / 0, y, 1) end,
            "game:buildings_near: x and y must be finite numbers, not NaN and 5")
        refused(function() game:buildings_near(x, y, -1) end,
            "game:buildings_near: the radius must be a finite number of at least 0, not -1")
        refused(function() game:buildings_near(x, y, math.huge) end,
            "the radius must be a finite number of at least 0, not inf")
        refused(function() game:attackers_near(x, y, 0 / 0) end,
            "game:attackers_near: the radius must be a finite number of at least 0, not NaN")
        refused(function() game:building_at(x, -math.huge) end,
            "game:building_at: x and y must be finite numbers, not 5 and -inf")
    end,
}
"#;

/// Blocks west and east of (5, 5) and one two tiles east, then the surveyor on (5, 5).
fn survey() -> (Arena, [EntityId; 4]) {
    let mut arena = with_script("surveyor", &format!("{REFUSED}{SURVEYOR}"));
    let west = arena.place("beacon:block", 4.0, 5.0);
    let east = arena.place("beacon:block", 6.0, 5.0);
    let far = arena.place("beacon:block", 7.0, 5.0);
    let surveyor = arena.place("beacon:surveyor", 5.0, 5.0);
    arena.run(1);
    (arena, [surveyor, west, east, far])
}

fn effect(arena: &Arena, id: EntityId, name: &str) -> Option<f64> {
    let e = arena.battle.entity(id).unwrap();
    e.effects
        .iter()
        .find(|x| x.name == name)
        .map(|x| x.magnitude)
}

#[test]
fn buildings_near_come_nearest_first_then_by_id_and_bad_arguments_are_refused() {
    let (arena, [surveyor, west, east, far]) = survey();
    arena.no_script_errors();
    let (first, second) = (west.min(east), west.max(east));
    assert_eq!(effect(&arena, surveyor, "rank"), Some(1.0), "itself, at 0");
    assert_eq!(effect(&arena, first, "rank"), Some(2.0));
    assert_eq!(effect(&arena, second, "rank"), Some(3.0));
    assert_eq!(effect(&arena, far, "rank"), None, "2 tiles away");
    assert!(effect(&arena, surveyor, "found").is_some());
    assert!(effect(&arena, west, "found").is_none());
    let (again, _) = survey();
    assert_eq!(arena.battle.state_hash(), again.battle.state_hash());
}

/// Tries `game:apply_effect` with options that are refused, then applies `shield` twice,
/// adding up.
const PICKY: &str = r#"
return {
    on_placed = function(self, game)
        refused(function() game:apply_effect(self, "shield", { waves = 1, stacking = "stack" }) end,
            "field `stacking`: `stack` is not refresh, add or replace")
        refused(function() game:apply_effect(self, "shield", { waves = "many" }) end,
            "field `waves`")
        refused(function() game:apply_effect(self, "shield", { waves = 1, ticks = 2 }) end,
            "an effect lasts either `ticks`, `waves` or `shots` (give exactly one)")
        refused(function() game:apply_effect(self, "shield") end, "bad argument `options` to `game:apply_effect`: runtime error: expected a table, got nil")
        game:apply_effect(self, "shield", { waves = 2, magnitude = 3, stacking = "add", source = self })
        game:apply_effect(self, "shield", { waves = 2, magnitude = 3, stacking = "add" })
    end,
}
"#;

#[test]
fn effect_options_are_read_by_their_fields_and_bad_ones_refused() {
    let mut arena = with_script("picky", &format!("{REFUSED}{PICKY}"));
    let picky = arena.place("beacon:picky", 5.0, 5.0);
    arena.no_script_errors();
    let shield = arena
        .battle
        .effect(picky, "shield")
        .expect("the shield was applied");
    assert_eq!(shield.magnitude, 6.0, "two shields of 3, added");
    assert_eq!(shield.source, Some(picky), "the first one's source stays");

    // Not caught, the refusal is a script error at the line of the call.
    let mut careless = with_script(
        "careless",
        "return {\n    on_placed = function(self, game)\n        game:apply_effect(self, \"shield\", { ticks = 5, stacking = \"stack\" })\n    end,\n}\n",
    );
    careless.place("beacon:careless", 5.0, 5.0);
    let errors = careless.script_errors();
    assert!(
        matches!(errors.as_slice(), [e] if e.ends_with("scripts/careless.lua:3: game:apply_effect: bad argument `options`: field `stacking`: `stack` is not refresh, add or replace")),
        "{errors:#?}"
    );
}

/// An argument of the wrong type is named as the script wrote it: the function as it is called
/// and the parameter by name, not by a position that counts `game` itself.
#[test]
fn a_wrong_argument_names_the_function_and_the_parameter() {
    let mut arena = with_script(
        "confused",
        "return {\n    on_placed = function(self, game)\n        game:attackers_near(\"here\", 1, 2)\n    end,\n}\n",
    );
    arena.place("beacon:confused", 5.0, 5.0);
    let errors = arena.script_errors();
    assert!(
        matches!(errors.as_slice(), [e] if e.ends_with("scripts/confused.lua:3: game:attackers_near: bad argument `x`: expected a number, got a string")),
        "{errors:#?}"
    );
}

/// The beacon mod with the documented flare, a block east of it and the flare placed.
fn flare() -> (Arena, EntityId, EntityId) {
    let mut arena = with_script("flare", &documented_file("beacon/scripts/flare.lua"));
    let block = arena.place("beacon:block", 6.0, 5.0);
    let flare = arena.place("beacon:flare", 5.0, 5.0);
    (arena, flare, block)
}

#[test]
fn the_documented_flare_shields_after_40_ticks_and_again_40_later() {
    let (mut arena, flare, block) = flare();
    let placed = arena.battle.tick();
    let mut shields = Vec::new();
    for _ in 0..100 {
        arena.run(1);
        let now = (
            effect(&arena, flare, "shield"),
            effect(&arena, block, "shield"),
        );
        if shields.last().is_none_or(|(_, last)| *last != now) {
            shields.push((arena.battle.tick() - 1 - placed, now));
        }
    }
    arena.no_script_errors();
    assert_eq!(
        shields,
        [
            (0, (None, None)),
            (40, (Some(1.0), Some(1.0))),
            (80, (Some(2.0), Some(2.0)))
        ]
    );
}

#[test]
fn a_timer_is_cancelled_with_the_entity_that_set_it() {
    let (mut arena, flare, block) = flare();
    arena.run(10);
    arena.battle.submit(PlayerCommand::Remove { entity: flare });
    arena.run(100);
    assert_eq!(arena.battle.entity(flare), None, "removed");
    arena.no_script_errors();
    assert_eq!(effect(&arena, block, "shield"), None);
}

/// Timers set in `on_placed` and in each other, one removed; at the end the order they fired
/// in must be due tick, then creation. Bad tick counts are refused; a failing timer is reported.
const CLOCK: &str = r#"
return {
    on_placed = function(self, game)
        local order = {}
        local function note(name)
            return function() table.insert(order, name .. "@" .. game:tick()) end
        end
        local start = game:tick()
        game:after(2, note("b"))
        game:after(1, function()
            note("a")()
            game:after(1, note("c"))
        end)
        game:after(2, note("b2"))
        local gone = game:after(1, note("never"))
        assert(gone:remove(), "removed while pending")
        assert(not gone:remove(), "removed once")
        game:after(3, function()
            local got = table.concat(order, " ")
            local want = string.format("a@%d b@%d b2@%d c@%d", start + 1, start + 2, start + 2, start + 2)
            assert(got == want, got)
            game:apply_effect(self, "done", { waves = 1 })
        end)
        game:after(4, function() error("late") end)
        refused(function() game:after(0, note("x")) end,
            "game:after: ticks must be a whole number of at least 1, not 0")
        refused(function() game:after(1.5, note("x")) end, "not 1.5")
        refused(function() game:after(0 / 0, note("x")) end, "not NaN")
    end,
}
"#;

fn clock_arena() -> (Arena, EntityId) {
    let mut arena = with_script("clock", &format!("{REFUSED}{CLOCK}"));
    let clock = arena.place("beacon:clock", 5.0, 5.0);
    arena.run(6);
    (arena, clock)
}

#[test]
fn timers_fire_by_due_tick_then_creation_and_fail_like_callbacks() {
    let (arena, clock) = clock_arena();
    assert!(
        effect(&arena, clock, "done").is_some(),
        "the order was checked"
    );
    let errors = errors(&arena.battle);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains("scripts/clock.lua:30: late"),
        "{errors:?}"
    );
    let (again, _) = clock_arena();
    assert_eq!(arena.battle.state_hash(), again.battle.state_hash());
}
