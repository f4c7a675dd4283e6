//! What scripts draw (`game:draw_line`, `game:draw_ring`, `game:flash`): the log entries and
//! their values, the documented tracer, defaults and caps, bad arguments, the per-tick limit,
//! looking without drawing, and that drawing leaves the battle's state as it was; and the looks
//! of mods' own effects in `effects.ron`.

use crate::common::arena::{Arena, PATH_Y, STRAIGHT};
use crate::common::{Mods, REFUSED, attacker, blueprint, documented_file, documented_in};
use rampart_core::battle::scripting::limits::MAX_VISUALS_PER_TICK;
use rampart_core::battle::visuals::MAX_VISUAL_TICKS;
use rampart_core::battle::{EntityId, Figure, LogKind, Position, Visual};
use rampart_core::content::colour::Rgb;

/// A mod `beacon` with a tower `beacon:<name>` running `script`, a building `beacon:<name>_plain`
/// with the same script, and a dummy attacker that stands and takes hits.
fn beacon(name: &str, script: &str) -> Mods {
    let mods = Mods::new();
    mods.manifest("beacon", &["core"]);
    mods.file(&format!("beacon/scripts/{name}.lua"), script);
    mods.file(
        &format!("beacon/blueprints/{name}.ron"),
        &blueprint(
            name,
            "Tower",
            &format!(
                "range: 3, damage: 10, interval: 20, damage_type: [Physical], behaviour: Shooter(()), script: \"scripts/{name}.lua\","
            ),
        ),
    );
    mods.file(
        &format!("beacon/blueprints/{name}_plain.ron"),
        &blueprint(name, "Special", &format!("script: \"scripts/{name}.lua\",")),
    );
    mods.file(
        "beacon/attackers/dummy.ron",
        &attacker("Dummy", 1000.0, 1.0, ""),
    );
    mods
}

/// Every visual in the log so far, with the tick it was drawn at.
fn drawn(arena: &Arena) -> Vec<(u64, Visual)> {
    arena
        .battle
        .log()
        .iter()
        .filter_map(|l| match &l.kind {
            LogKind::Drawn(v) => Some((l.tick, v.clone())),
            _ => None,
        })
        .collect()
}

/// The documented tracer at (5, 2) with a dummy standing on the path in its range, run `ticks`.
fn tracer(ticks: u64) -> (Arena, EntityId, EntityId) {
    let script = documented_file("beacon/scripts/tracer.lua");
    let mut arena = Arena::with_mods(beacon("tracer", &script), STRAIGHT);
    let tower = arena.place("beacon:tracer", 5.0, 2.0);
    let dummy = arena.standing("beacon:dummy", 6.0, PATH_Y);
    arena.run(ticks);
    (arena, tower, dummy)
}

#[test]
fn the_documented_tracer_flashes_once_draws_a_line_each_tick_and_a_ring_on_each_hit() {
    let (arena, tower, _) = tracer(60);
    arena.no_script_errors();
    let visuals = drawn(&arena);
    let flashes: Vec<_> = visuals
        .iter()
        .filter(|(_, v)| matches!(v.figure, Figure::Flash { .. }))
        .collect();
    assert_eq!(flashes.len(), 1, "{visuals:#?}");
    assert_eq!(
        flashes[0].1,
        Visual {
            figure: Figure::Flash {
                at: Position { x: 5.0, y: 2.0 },
                radius: 1.0,
            },
            colour: Rgb(60, 220, 230),
            alpha: 1.0,
            ticks: 20,
        }
    );
    let to_dummy = Visual {
        figure: Figure::Line {
            from: Position { x: 5.0, y: 2.0 },
            to: Position { x: 6.0, y: PATH_Y },
            width: 0.08,
        },
        colour: Rgb(0xff, 0x40, 0x40),
        alpha: 0.6,
        ticks: 1,
    };
    let lines: Vec<u64> = visuals
        .iter()
        .filter(|(_, v)| matches!(v.figure, Figure::Line { .. }))
        .map(|(tick, v)| {
            assert_eq!(*v, to_dummy);
            *tick
        })
        .collect();
    // One line a tick from the tick the tower first aimed at the dummy.
    assert!(lines.len() >= 50, "{lines:?}");
    assert!(lines.windows(2).all(|w| w[1] == w[0] + 1), "{lines:?}");
    let rings: Vec<u64> = visuals
        .iter()
        .filter(|(_, v)| matches!(v.figure, Figure::Ring { .. }))
        .map(|(tick, v)| {
            assert_eq!(
                *v,
                Visual {
                    figure: Figure::Ring {
                        center: Position { x: 6.0, y: PATH_Y },
                        radius: 0.4,
                        width: 0.08,
                    },
                    colour: Rgb(255, 150, 30),
                    alpha: 1.0,
                    ticks: 8,
                }
            );
            *tick
        })
        .collect();
    let hits: Vec<u64> = arena.hits_by(tower).into_iter().map(|(t, _)| t).collect();
    assert!(hits.len() >= 2, "the tower fires every 20 ticks: {hits:?}");
    assert_eq!(rings, hits, "a ring where and when each hit landed");
}

/// The tracer with its drawing calls made into calls of a function that does nothing.
fn tracer_without_drawing() -> String {
    let script = documented_file("beacon/scripts/tracer.lua");
    let quiet = script
        .replace("game:flash(", "nothing(")
        .replace("game:draw_ring(", "nothing(")
        .replace("game:draw_line(", "nothing(");
    assert_ne!(quiet, script);
    format!("local function nothing(...) end\n{quiet}")
}

#[test]
fn drawing_leaves_the_battle_as_it_would_be_without_it() {
    let mut hashes = Vec::new();
    for script in [
        documented_file("beacon/scripts/tracer.lua"),
        tracer_without_drawing(),
    ] {
        let mut arena = Arena::with_mods(beacon("tracer", &script), STRAIGHT);
        arena.place("beacon:tracer", 5.0, 2.0);
        arena.standing("beacon:dummy", 6.0, PATH_Y);
        arena.wave();
        arena.run(100);
        arena.no_script_errors();
        hashes.push((arena.battle.state_hash(), drawn(&arena).len()));
    }
    assert!(hashes[0].1 > 0, "the tracer drew");
    assert_eq!(hashes[1].1, 0, "the quiet one did not");
    assert_eq!(hashes[0].0, hashes[1].0);
}

/// Draws `count` flashes every tick, with defaults but a long life.
fn spammer(count: u32) -> String {
    format!(
        r#"return {{
    on_tick = function(self, game)
        for i = 1, {count} do
            game:flash(i, 1, {{ ticks = 5000 }})
        end
        game:draw_ring(1, 1, 2)
    end,
}}"#
    )
}

#[test]
fn a_mod_draws_at_most_its_allowance_per_tick_and_past_it_nothing_fails() {
    let mut arena = Arena::with_mods(beacon("spam", &spammer(100)), STRAIGHT);
    arena.place("beacon:spam_plain", 5.0, 1.0);
    arena.run(3);
    arena.no_script_errors();
    let visuals = drawn(&arena);
    for tick in arena.battle.tick() - 3..arena.battle.tick() {
        let that_tick: Vec<_> = visuals.iter().filter(|(t, _)| *t == tick).collect();
        assert_eq!(
            that_tick.len(),
            MAX_VISUALS_PER_TICK as usize,
            "tick {tick}"
        );
        // The first of the tick are shown: the flashes 1 to 64, not the ring.
        assert!(
            that_tick.iter().all(|(_, v)| v.ticks == MAX_VISUAL_TICKS),
            "ticks above the cap are the cap"
        );
        assert_eq!(
            that_tick.last().unwrap().1.figure,
            Figure::Flash {
                at: Position {
                    x: f64::from(MAX_VISUALS_PER_TICK),
                    y: 1.0
                },
                radius: 0.5
            }
        );
    }
    // Under the allowance, everything shows, with the defaults.
    let mut calm = Arena::with_mods(beacon("calm", &spammer(2)), STRAIGHT);
    calm.place("beacon:calm_plain", 5.0, 1.0);
    calm.run(1);
    let visuals = drawn(&calm);
    assert_eq!(visuals.len(), 3);
    assert_eq!(
        visuals[2].1,
        Visual {
            figure: Figure::Ring {
                center: Position { x: 1.0, y: 1.0 },
                radius: 2.0,
                width: 0.08
            },
            colour: Rgb(255, 255, 255),
            alpha: 1.0,
            ticks: 10,
        }
    );
}

/// Every mistake a drawing call can make, each caught and checked, then one good line.
const PICKY: &str = r##"
return {
    on_placed = function(self, game)
        refused(function() game:draw_line(0 / 0, 1, 2, 3) end,
            "game:draw_line: x1 must be a finite number, not NaN")
        refused(function() game:draw_line(0, 1, 2, math.huge) end,
            "game:draw_line: y2 must be a finite number, not inf")
        refused(function() game:draw_ring(1, 1, 0) end,
            "game:draw_ring: radius must be more than 0 and at most 100, not 0")
        refused(function() game:draw_ring(1, 1, 1, { colour = "pinkk" }) end,
            "game:draw_ring: options.colour: `pinkk` is not a colour: write `#rrggbb` or one of white, black")
        refused(function() game:draw_ring(1, 1, 1, { colour = "pinkk" }) end, "did you mean `pink`?")
        refused(function() game:flash(1, 1, { colour = "#12345" }) end, "six hex digits")
        refused(function() game:flash(1, 1, { ticks = -5 }) end,
            "game:flash: options.ticks must be a whole number of at least 1, not -5")
        refused(function() game:flash(1, 1, { ticks = 2.5 }) end, "not 2.5")
        refused(function() game:flash(1, 1, { ticks = 0 }) end, "at least 1, not 0")
        refused(function() game:flash(1, 1, { alpha = 1.5 }) end,
            "game:flash: options.alpha must be from 0 to 1, not 1.5")
        refused(function() game:flash(1, 1, { radius = -1 }) end,
            "game:flash: options.radius must be more than 0 and at most 100, not -1")
        refused(function() game:draw_line(0, 0, 1, 1, { width = 2 }) end,
            "game:draw_line: options.width must be more than 0 and at most 1, not 2")
        refused(function() game:draw_line(0, 0, 1, 1, { radius = 2 }) end,
            "game:draw_line: options.radius means nothing here")
        refused(function() game:flash(0, 0, { width = 2 }) end, "options.width means nothing here")
        refused(function() game:flash(0, 0, { color = "red" }) end,
            "`color` is not an option (did you mean `colour`?); the options are colour, ticks, alpha, width, radius")
        game:draw_line(0, 0, 1, 1, { colour = "#A0b0C0", alpha = 0, width = 1 })
    end,
}
"##;

#[test]
fn bad_arguments_are_refused_naming_the_function_and_the_argument() {
    let mut arena = Arena::with_mods(beacon("picky", &format!("{REFUSED}{PICKY}")), STRAIGHT);
    arena.place("beacon:picky_plain", 5.0, 1.0);
    arena.no_script_errors();
    let visuals = drawn(&arena);
    assert_eq!(visuals.len(), 1, "only the good line: {visuals:#?}");
    assert_eq!(visuals[0].1.colour, Rgb(0xa0, 0xb0, 0xc0));

    // Not caught, a mistake is a script error with the mod, the script and the line; an option
    // that is none is refused while the arguments are read, still naming the function and the
    // argument.
    for (call, error) in [
        (
            "game:draw_ring(1, 1, 1, { ticks = -5 })",
            "game:draw_ring: options.ticks must be a whole number of at least 1, not -5",
        ),
        (
            "game:flash(1, 1, { color = \"red\" })",
            "game:flash: bad argument `options`: `color` is not an option (did you mean `colour`?); the options are colour, ticks, alpha, width, radius",
        ),
    ] {
        let script = format!(
            "return {{\n    on_placed = function(self, game)\n        {call}\n    end,\n}}\n"
        );
        let mut careless = Arena::with_mods(beacon("careless", &script), STRAIGHT);
        careless.place("beacon:careless_plain", 5.0, 1.0);
        assert_eq!(
            careless.script_errors(),
            [format!("[beacon] scripts/careless.lua:3: {error}")]
        );
    }
}

#[test]
fn looking_at_the_battle_draws_nothing() {
    // A range modifier that draws whenever it runs: the battle's own queries log what it draws,
    // a look (the client asking for display) does not.
    let script = r#"return {
    on_placed = function(self, game)
        self:modify("range", 0, function(range)
            game:flash(1, 1)
            return range
        end)
    end,
}"#;
    let mut arena = Arena::with_mods(beacon("looker", script), STRAIGHT);
    let tower = arena.place("beacon:looker", 5.0, 2.0);
    assert_eq!(arena.look_at_range(tower), 3.0);
    // The tower asks for its range as it aims at an attacker: that is the battle's own.
    arena.standing("beacon:dummy", 6.0, PATH_Y);
    arena.run(2);
    assert!(!drawn(&arena).is_empty());
    arena.no_script_errors();
}

#[test]
fn the_documented_effects_file_gives_its_effects_their_looks() {
    let mods = Mods::new();
    mods.manifest("beacon", &["core"]);
    mods.file(
        "beacon/effects.ron",
        &documented_in("content.md", "beacon/effects.ron"),
    );
    mods.file("beacon/icons/marked.png", "a picture");
    let content = mods.load_with_core();
    let marked = content.effect_look("marked").expect("declared");
    assert_eq!(marked.mod_id, "beacon");
    assert_eq!(marked.tint, Some(Rgb(0xb0, 0x60, 0xff)));
    assert_eq!(marked.icon.as_deref(), Some("icons/marked.png"));
    let dazed = content.effect_look("beacon:dazed").expect("declared");
    assert_eq!(dazed.tint, Some(Rgb(255, 225, 50)));
    assert_eq!(dazed.icon, None);
    assert!(content.effect_look("burning").is_none());
}

#[test]
fn mistakes_in_effects_ron_are_located_and_leave_out_only_their_entry() {
    let mods = Mods::new();
    mods.manifest("early", &["core"]);
    mods.file("early/effects.ron", "[(name: \"dazed\", tint: \"red\")]");
    mods.manifest("beacon", &["early"]);
    mods.file("beacon/icons/ok.png", "a picture");
    mods.file(
        "beacon/effects.ron",
        r##"[
    (name: "burning", tint: "red"),
    (name: "dazed", tint: "blue"),
    (name: "sleepy", tint: "purpel"),
    (name: "hidden", icon: "icons/missing.png"),
    (name: "odd", icon: "../early/effects.ron"),
    (name: "fine", tint: "#00ff00", icon: "icons/ok.png"),
]"##,
    );
    // A file that does not read as a list of looks is left out whole, with all its mistakes.
    mods.manifest("typist", &["core"]);
    mods.file(
        "typist/effects.ron",
        "[\n    (name: \"a\", tnt: \"red\"),\n    (name: \"b\", tint: 5),\n]",
    );
    let (content, diagnostics) = mods.load_after_core();
    let errors: Vec<(String, usize)> = diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| (d.summary(), d.position.map_or(0, |p| p.line as usize)))
        .collect();
    let expect = [
        ("`burning` is a built-in effect", 2),
        (
            "the look of effect `dazed` is already declared by mod `early`",
            3,
        ),
        ("`purpel` is not a colour", 4),
        ("the icon `icons/missing.png` is not a file of the mod", 5),
        (
            "the icon `../early/effects.ron` must be a path inside the mod's folder",
            6,
        ),
        (
            "unknown field `[0].tnt` in an effect's look (did you mean `tint`?)",
            2,
        ),
        ("`[1].tint` must be", 3),
    ];
    for (words, line) in expect {
        assert!(
            errors
                .iter()
                .any(|(text, l)| text.contains(words) && *l == line),
            "`{words}` at line {line}: {errors:#?}"
        );
    }
    assert_eq!(errors.len(), expect.len(), "{errors:#?}");
    let looks: Vec<(&str, &str)> = content
        .effect_looks
        .iter()
        .map(|l| (l.name.as_str(), l.mod_id.as_str()))
        .collect();
    // Core's own looks load first.
    assert_eq!(
        looks,
        [
            ("catalyzed", "core"),
            ("dazed", "early"),
            ("fine", "beacon")
        ]
    );
}
