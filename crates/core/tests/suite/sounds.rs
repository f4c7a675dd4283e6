//! Sounds as content (`docs/modding/sounds.md`): the documented sounds of each kind and the
//! references to them from blueprints, attacker types, effects and the soundscape; each
//! mistake at its line and column; overrides of sounds and the soundscape's order; and
//! `game:sound` — logged with its place, bounded per tick, outside the state hash, silent
//! while the battle is only looked at, refusing ids it cannot play. Also the log entry of a
//! blast landing, and sounds kept through a content reload.

use std::path::Path;

use crate::common::arena::{Arena, PATH_Y, STRAIGHT};
use crate::common::{Mods, REFUSED, attacker, blueprint, documented_file, documented_in};
use rampart_core::battle::scripting::limits::MAX_SOUNDS_PER_TICK;
use rampart_core::battle::{LogKind, Position};
use rampart_core::content::{BlueprintSounds, DamageType, SoundSource};
use rampart_core::diagnostics::{Diagnostic, Diagnostics};

/// The files of the documented mod `chime` in `sounds.md`.
const CHIME: [&str; 12] = [
    "sounds/shot.ron",
    "sounds/explosion.ron",
    "sounds/pickup.ron",
    "sounds/hit.ron",
    "sounds/alarm.ron",
    "sounds/boom.ron",
    "sounds/theme.ron",
    "blueprints/bell_tower.ron",
    "attackers/bell_ringer.ron",
    "effects.ron",
    "soundscape.ron",
    "scripts/bell.lua",
];

/// A real Ogg Vorbis file: a second of a tone.
fn ogg() -> Vec<u8> {
    std::fs::read(crate::common::repo().join("tests/fixtures/sound/tone.ogg")).unwrap()
}

/// A real WAV file: 20 ms of silence.
fn wav() -> Vec<u8> {
    rampart_sound::wav_bytes(&[0.0; 1920]).unwrap()
}

/// Writes `bytes` to `rel` in `mods`.
fn write(mods: &Mods, rel: &str, bytes: &[u8]) {
    let path = mods.path().join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// The documented mod `chime` (on core), with the files its sounds name.
fn chime() -> Mods {
    let mods = Mods::new();
    mods.manifest("chime", &["core"]);
    for file in CHIME {
        let text = match file {
            "scripts/bell.lua" => documented_file("chime/scripts/bell.lua"),
            _ => documented_in("sounds.md", &format!("chime/{file}")),
        };
        mods.file(&format!("chime/{file}"), &text);
    }
    write(&mods, "chime/sounds/boom.ogg", &ogg());
    mods
}

#[test]
fn the_documented_sounds_load_with_every_reference_resolved() {
    let mods = chime();
    let content = mods.load_with_core();
    let ids: Vec<&str> = content
        .sounds
        .keys()
        .filter(|id| id.starts_with("chime:"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        ids,
        [
            "chime:alarm",
            "chime:boom",
            "chime:explosion",
            "chime:hit",
            "chime:pickup",
            "chime:shot",
            "chime:theme"
        ]
    );
    let shot = content.sound("chime:shot").unwrap();
    assert_eq!(
        (shot.mod_id.as_str(), shot.volume, shot.voices),
        ("chime", 0.6, 6)
    );
    let SoundSource::Synth(synth) = &shot.source else {
        panic!("{shot:?}")
    };
    assert_eq!(
        (synth.frequency, synth.slide, synth.high_pass.cutoff),
        (880.0, -6.0, 200.0)
    );
    let pickup = content.sound("chime:pickup").unwrap();
    assert_eq!(
        (pickup.volume, pickup.voices),
        (0.7, 4),
        "voices default to 4"
    );
    let explosion = content.sound("chime:explosion").unwrap();
    assert_eq!(
        (explosion.volume, explosion.voices),
        (1.0, 3),
        "volume to 1"
    );

    let boom = content.sound("chime:boom").unwrap();
    let SoundSource::File(path) = &boom.source else {
        panic!("{boom:?}")
    };
    assert!(
        path.is_absolute() && path.ends_with("chime/sounds/boom.ogg"),
        "{path:?}"
    );
    assert_eq!(std::fs::read(path).unwrap(), ogg());

    let SoundSource::Tune(tune) = &content.sound("chime:theme").unwrap().source else {
        panic!("a tune")
    };
    assert_eq!((tune.tempo, tune.voices.len()), (96.0, 2));
    assert_eq!(tune.voices[1].volume, Some(0.6));

    let tower = content.blueprint(content.blueprint_id("chime:bell_tower").unwrap());
    assert_eq!(
        tower.sounds,
        BlueprintSounds {
            place: Some("chime:pickup".into()),
            fire: Some("chime:shot".into()),
            ability: None,
            removed: Some("chime:explosion".into()),
        }
    );
    let ringer = content.attacker(content.attacker_id("chime:bell_ringer").unwrap());
    assert_eq!(ringer.sounds.spawn.as_deref(), Some("chime:alarm"));
    assert_eq!(ringer.sounds.death.as_deref(), Some("chime:explosion"));
    assert_eq!(ringer.sounds.hit.as_deref(), Some("chime:hit"));
    assert_eq!(ringer.sounds.leak, None);

    let scape = &content.soundscape;
    assert_eq!(scape.ui_click.as_deref(), Some("chime:pickup"));
    assert_eq!(scape.wave_start.as_deref(), Some("chime:alarm"));
    assert_eq!(scape.leak.as_deref(), Some("chime:explosion"));
    // What chime names replaces core's; the rest stays core's.
    assert_eq!(scape.ui_back.as_deref(), Some("core:ui_back"));
    assert_eq!(
        scape.hits.get(&DamageType::Physical).map(String::as_str),
        Some("chime:hit")
    );
    assert_eq!(
        scape.hits.get(&DamageType::Explosive).map(String::as_str),
        Some("chime:explosion")
    );
    assert_eq!(
        scape.hits.get(&DamageType::Energy).map(String::as_str),
        Some("core:hit_energy")
    );
    assert_eq!(scape.effects["burning"], "chime:hit");
    assert_eq!(scape.effects["rung"], "chime:pickup", "from effects.ron");
    assert_eq!(scape.music.build.as_deref(), Some("chime:theme"));
    assert_eq!(scape.music.wave.as_deref(), Some("chime:theme"));
    assert_eq!(scape.music.boss.as_deref(), Some("core:music_boss"));
}

#[test]
fn the_format_the_page_opens_with_is_a_sound() {
    let page =
        std::fs::read_to_string(crate::common::repo().join("docs/modding/sounds.md")).unwrap();
    let (_, after) = page.split_once("```ron\n(").expect("a RON block");
    let (block, _) = after.split_once("```").unwrap();
    let mods = Mods::new();
    mods.manifest("format", &[]);
    mods.file("format/sounds/example.ron", &format!("({block}"));
    let content = mods.load_clean();
    let sound = content.sound("format:example").unwrap();
    assert_eq!((sound.volume, sound.voices), (0.8, 4));
    assert!(matches!(&sound.source, SoundSource::Synth(s) if s.frequency == 900.0));
}

#[test]
fn a_sound_override_replaces_the_source_and_a_later_soundscape_only_what_it_names() {
    let mods = chime();
    mods.manifest("louder", &["chime"]);
    for file in ["sounds/deeper_shot.ron", "soundscape.ron"] {
        let text = documented_in("sounds.md", &format!("louder/{file}"));
        mods.file(&format!("louder/{file}"), &text);
    }
    write(&mods, "louder/sounds/shot.wav", &wav());
    let content = mods.load_with_core();
    let shot = content.sound("chime:shot").unwrap();
    let SoundSource::File(path) = &shot.source else {
        panic!("the file replaced the synthesiser: {shot:?}")
    };
    assert!(path.ends_with("louder/sounds/shot.wav"), "{path:?}");
    assert_eq!((shot.volume, shot.voices), (0.9, 6), "voices kept");
    assert!(content.sound("louder:deeper_shot").is_none());
    // louder names only the wave's music, which it takes from chime.
    assert_eq!(
        content.soundscape.music.wave.as_deref(),
        Some("chime:theme")
    );
    assert_eq!(
        content.soundscape.music.build.as_deref(),
        Some("chime:theme")
    );
    assert_eq!(
        content.soundscape.wave_start.as_deref(),
        Some("chime:alarm")
    );
}

#[test]
fn soundscapes_apply_in_load_order_field_by_field_and_key_by_key() {
    let mods = Mods::new();
    let ping = "(synth: ())";
    mods.manifest("a", &[]);
    for name in ["click", "build", "wave", "thud"] {
        mods.file(&format!("a/sounds/{name}.ron"), ping);
    }
    mods.file(
        "a/soundscape.ron",
        r#"(ui_click: "click", hits: { Physical: "thud" }, music: (build: "build", wave: "wave"))"#,
    );
    mods.manifest("b", &["a"]);
    mods.file("b/sounds/theme.ron", ping);
    mods.file("b/sounds/boom.ron", ping);
    mods.file(
        "b/soundscape.ron",
        r#"(ui_click: "a:wave", hits: { Explosive: "boom" }, music: (wave: "theme"))"#,
    );
    // c loads after b but may not name b's sounds; its mistakes leave what was there.
    mods.manifest("c", &["a", "b"]);
    mods.manifest("d", &["a", "c"]);
    mods.file(
        "d/soundscape.ron",
        "(\n    ui_click: \"b:theme\",\n    ui_back: \"a:clik\",\n    effects: { \"burnign\": \"a:thud\", \"freezing\": \"a:thud\" },\n)",
    );
    let (content, diagnostics) = mods.load();
    let scape = &content.soundscape;
    assert_eq!(
        scape.ui_click.as_deref(),
        Some("a:wave"),
        "b's, d's refused"
    );
    assert_eq!(scape.ui_back, None);
    assert_eq!(scape.music.build.as_deref(), Some("a:build"), "a's stays");
    assert_eq!(
        scape.music.wave.as_deref(),
        Some("b:theme"),
        "b's replaced a's"
    );
    assert_eq!(scape.hits[&DamageType::Physical], "a:thud");
    assert_eq!(scape.hits[&DamageType::Explosive], "b:boom");
    assert_eq!(scape.effects.len(), 1);
    assert_eq!(scape.effects["freezing"], "a:thud");
    let text = std::fs::read_to_string(mods.path().join("d/soundscape.ron")).unwrap();
    assert_eq!(
        located(&diagnostics),
        [
            (
                at(&text, "\"b:theme\""),
                "`b:theme` is a sound of `b`, which is not a dependency of `d`".into(),
                Some("add (id: \"b\") to `dependencies` in mod.ron".into()),
            ),
            (
                at(&text, "\"a:clik\""),
                "there is no sound `a:clik`".into(),
                Some("did you mean `a:click`?".into()),
            ),
            (
                at(&text, "\"burnign\""),
                "`burnign` is not a built-in effect".into(),
                Some("did you mean `burning`?".into()),
            ),
        ]
    );
}

/// The line and column of the first `needle` in `text`.
fn at(text: &str, needle: &str) -> (u32, u32) {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` in {text}"));
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = offset - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    (line as u32, column as u32)
}

/// Each problem's line and column, message and help, in the order reported.
fn located(diagnostics: &Diagnostics) -> Vec<((u32, u32), String, Option<String>)> {
    diagnostics
        .iter()
        .map(|d: &Diagnostic| {
            let p = d.position.expect("located");
            ((p.line, p.column), d.message.clone(), d.help.clone())
        })
        .collect()
}

/// The problems reported in the file `rel` of the mods folder.
fn problems_in(diagnostics: &Diagnostics, mods: &Mods, rel: &str) -> Diagnostics {
    let path = mods.path().join(rel);
    let mut found = Diagnostics::new();
    found.extend(
        diagnostics
            .iter()
            .filter(|d| d.file.as_deref() == Some(path.as_path()))
            .cloned(),
    );
    found
}

/// The mistakes expected in a file: each the text it points at, and its message.
type Expected = &'static [(&'static str, &'static str)];

/// A sound file's name and text, and the mistakes in it.
const MISTAKES: &[(&str, &str, Expected)] = &[
    (
        "double",
        "(\n    synth: (),\n    file: \"sounds/x.wav\",\n)",
        &[(
            "file:",
            "a sound has exactly one source, and this file gives `synth` and `file`",
        )],
    ),
    (
        "unsaid",
        "(volume: 2, file: None)",
        &[
            ("volume", "`volume` must be from 0 to 1, not 2"),
            ("file", "`file` names no source"),
        ],
    ),
    (
        "none",
        "(volume: 0.5)",
        &[("(", "a sound needs a source: `synth`, `file` or `tune`")],
    ),
    (
        "missing",
        "(file: \"sounds/nowhere.ogg\")",
        &[(
            "\"sounds/",
            "the sound file `sounds/nowhere.ogg` is not a file of the mod",
        )],
    ),
    (
        "outside",
        "(file: \"../chime/sounds/boom.ogg\")",
        &[(
            "\"../",
            "the sound file `../chime/sounds/boom.ogg` must be a path inside the mod's folder",
        )],
    ),
    (
        "text",
        "(file: \"sounds/notes.txt\")",
        &[(
            "\"sounds/",
            "the sound file `sounds/notes.txt` must be a WAV (`.wav`) or Ogg Vorbis (`.ogg`) file",
        )],
    ),
    (
        "disguised",
        "(file: \"sounds/disguised.wav\")",
        &[(
            "\"sounds/",
            "the sound file `sounds/disguised.wav` is not a WAV file: its first bytes say otherwise",
        )],
    ),
    (
        "cut",
        "(file: \"sounds/cut.wav\")",
        &[(
            "\"sounds/",
            "the sound file `sounds/cut.wav` cannot be played: damaged WAV file: Failed to read enough bytes.",
        )],
    ),
    (
        "loud",
        "(\n    synth: (wave: Sine, decay: 90, low_pass: (resonance: 2)),\n    volume: 1.5,\n    voices: 0,\n)",
        &[
            ("volume: 1.5", "`volume` must be from 0 to 1, not 1.5"),
            ("voices: 0", "`voices` must be from 1 to 32, not 0"),
            (
                "decay: 90",
                "`synth.decay` must be from 0 s to 60 s, not 90",
            ),
            (
                "resonance",
                "`synth.low_pass.resonance` must be from 0 to 1, not 2",
            ),
        ],
    ),
    (
        "silent",
        "(synth: (sustain: 0, decay: 0))",
        &[(
            "sustain",
            "`synth` is silent: its `attack`, `sustain` and `decay` are all 0",
        )],
    ),
    (
        "song",
        "(\n    tune: (\n        tempo: 5,\n        voices: [\n            (notes: \"C4 E4\"),\n            (instrument: (decay: -1), notes: \"C4:2 E4 H4 G4\"),\n        ],\n    ),\n)",
        &[
            (
                "tempo",
                "`tune.tempo` must be from 20 to 600 beats per minute, not 5",
            ),
            (
                "decay",
                "`tune.voices[1].instrument.decay` must be from 0 s to 60 s, not -1",
            ),
            (
                "H4",
                "`tune.voices[1].notes`: `H4` is not a note: write a letter A–G, an optional # or b, and an octave 0–8 (`C4`, `F#3`, `Bb2`), or `-` for a rest",
            ),
        ],
    ),
];

#[test]
fn every_mistake_of_a_sound_or_a_reference_is_reported_at_its_line_and_column() {
    let mods = chime();
    mods.manifest("oops", &["core"]);
    for (name, text, _) in MISTAKES {
        mods.file(&format!("oops/sounds/{name}.ron"), text);
    }
    mods.file("oops/sounds/ok.ron", "(synth: ())");
    mods.file("oops/sounds/notes.txt", "not a sound");
    write(&mods, "oops/sounds/disguised.wav", &ogg());
    // A WAV cut short: its header, but not the samples it announces.
    write(&mods, "oops/sounds/cut.wav", &wav()[..40]);
    let tower = |sounds: &str| {
        blueprint(
            "Tower",
            "Tower",
            &format!(
                "range: 3, damage: 1, damage_type: [Physical], interval: 20, behaviour: Shooter(()),\n    sounds: ({sounds}),\n"
            ),
        )
    };
    let references = [
        (
            "blueprints/misspelt.ron",
            tower("place: \"ok\", fire: \"okk\""),
        ),
        ("blueprints/foreign.ron", tower("fire: \"chime:shot\"")),
        ("blueprints/to_broken.ron", tower("fire: \"loud\"")),
        (
            "blueprints/unplayed.ron",
            blueprint(
                "Wall",
                "Special",
                "sounds: (fire: \"ok\", ability: \"ok\"),",
            ),
        ),
        (
            "attackers/ghost.ron",
            attacker("Ghost", 5.0, 1.0, "sounds: (death: \"core:nothing\")"),
        ),
    ];
    for (file, text) in &references {
        mods.file(&format!("oops/{file}"), text);
    }
    let (content, diagnostics) = mods.load_after_core();

    for (name, text, expected) in MISTAKES {
        let found = located(&problems_in(
            &diagnostics,
            &mods,
            &format!("oops/sounds/{name}.ron"),
        ));
        let expected: Vec<((u32, u32), String)> = expected
            .iter()
            .map(|(needle, message)| (at(text, needle), message.to_string()))
            .collect();
        let found: Vec<((u32, u32), String)> = found.into_iter().map(|(p, m, _)| (p, m)).collect();
        assert_eq!(found, expected, "sounds/{name}.ron");
        assert!(
            content.sound(&format!("oops:{name}")).is_none(),
            "{name} is left out"
        );
    }
    assert!(content.sound("oops:ok").is_some());

    let reference = |file: &str| {
        let text = &references.iter().find(|(f, _)| *f == file).unwrap().1;
        (
            text.clone(),
            located(&problems_in(&diagnostics, &mods, &format!("oops/{file}"))),
        )
    };
    let (text, found) = reference("blueprints/misspelt.ron");
    assert_eq!(
        found,
        [(
            at(&text, "\"okk\""),
            "there is no sound `oops:okk`".into(),
            Some("did you mean `oops:ok`?".into())
        )]
    );
    let (text, found) = reference("blueprints/foreign.ron");
    assert_eq!(
        found,
        [(
            at(&text, "\"chime:shot\""),
            "`chime:shot` is a sound of `chime`, which is not a dependency of `oops`".into(),
            Some("add (id: \"chime\") to `dependencies` in mod.ron".into()),
        )]
    );
    let (text, found) = reference("attackers/ghost.ron");
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, at(&text, "\"core:nothing\""));
    assert_eq!(found[0].1, "there is no sound `core:nothing`");
    // A sound left out for its own errors is not reported again where it is named.
    assert_eq!(reference("blueprints/to_broken.ron").1, []);
    let (text, found) = reference("blueprints/unplayed.ron");
    assert_eq!(
        found
            .iter()
            .map(|(p, m, _)| (*p, m.as_str()))
            .collect::<Vec<_>>(),
        [
            (
                at(&text, "fire"),
                "`sounds.fire` never plays for this blueprint: only a `Shooter` fires, and only a `Blast` lands"
            ),
            (
                at(&text, "ability"),
                "`sounds.ability` never plays for this blueprint: only abilities are used"
            ),
        ]
    );
    let warned = problems_in(&diagnostics, &mods, "oops/blueprints/unplayed.ron");
    assert!(warned.iter().all(|d| !d.is_error()));

    // Items with errors are left out; the others load, a broken sound leaving a silence.
    assert!(content.blueprint_id("oops:misspelt").is_none());
    assert!(content.blueprint_id("oops:foreign").is_none());
    assert!(content.attacker_id("oops:ghost").is_none());
    let to_broken = content.blueprint(content.blueprint_id("oops:to_broken").unwrap());
    assert_eq!(to_broken.sounds, BlueprintSounds::default());
    let unplayed = content.blueprint(content.blueprint_id("oops:unplayed").unwrap());
    assert_eq!(unplayed.sounds.fire.as_deref(), Some("oops:ok"));
}

#[test]
fn the_documented_note_mistake_reads_as_the_page_shows_it() {
    let page =
        std::fs::read_to_string(crate::common::repo().join("docs/modding/sounds.md")).unwrap();
    let shown = page
        .lines()
        .find_map(|l| l.strip_prefix("  × [chime] "))
        .expect("the page shows a mistake of the notes");
    let mods = chime();
    let theme = documented_in("sounds.md", "chime/sounds/theme.ron").replacen("E4", "H4", 1);
    mods.file("chime/sounds/theme.ron", &theme);
    let (_, diagnostics) = mods.load_after_core();
    let d = diagnostics.iter().find(|d| d.is_error()).expect("an error");
    assert_eq!(d.message, shown);
    let p = d.position.unwrap();
    assert_eq!((p.line, p.column), at(&theme, "H4"));
}

/// A mod `s` with the sound `s:ping` and a building `s:box` running `script` (with
/// [`REFUSED`]), and a mod `other` it does not depend on, with `other:chill`.
fn pinger(script: &str) -> Mods {
    let mods = Mods::new();
    mods.manifest("s", &["core"]);
    mods.manifest("other", &["core"]);
    mods.file("other/sounds/chill.ron", "(synth: ())");
    mods.file("s/sounds/ping.ron", "(synth: (frequency: 1200))");
    mods.file("s/scripts/box.lua", &format!("{REFUSED}{script}"));
    mods.file(
        "s/blueprints/box.ron",
        &blueprint("Box", "Special", "script: \"scripts/box.lua\","),
    );
    mods
}

/// Every sound the log has, with its tick.
fn sounds(arena: &Arena) -> Vec<(u64, String, Option<Position>, String)> {
    arena
        .battle
        .log()
        .iter()
        .filter_map(|l| match &l.kind {
            LogKind::Sound { sound, at, by_mod } => {
                Some((l.tick, sound.clone(), *at, by_mod.clone()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn a_script_plays_a_sound_at_a_place_or_everywhere() {
    let script = r#"
return {
    on_placed = function(self, game)
        local x, y = self:position()
        game:sound("ping", x, y)
        game:sound("s:ping")
    end,
}
"#;
    let mut arena = Arena::with_mods(pinger(script), STRAIGHT);
    arena.place("s:box", 5.0, 1.0);
    arena.no_script_errors();
    let tick = arena.battle.tick();
    assert_eq!(
        sounds(&arena),
        [
            (
                tick,
                "s:ping".into(),
                Some(Position { x: 5.0, y: 1.0 }),
                "s".into()
            ),
            (tick, "s:ping".into(), None, "s".into()),
        ]
    );
}

#[test]
fn a_sound_that_cannot_be_played_is_a_script_error_naming_why() {
    let script = r#"
return {
    on_placed = function(self, game)
        refused(function() game:sound("pnig") end,
            "game:sound: there is no sound `s:pnig` (did you mean `s:ping`?)")
        refused(function() game:sound("other:chill") end,
            "game:sound: `other:chill` is a sound of `other`, which is not a dependency of `s` (add (id: \"other\") to `dependencies` in mod.ron)")
        refused(function() game:sound("ping", 1) end,
            "game:sound: give both x and y, or neither for a sound heard everywhere")
        refused(function() game:sound("ping", 0 / 0, 1) end,
            "game:sound: x and y must be finite numbers, not NaN and 1")
        game:sound("ping", 2, 3)
    end,
}
"#;
    let mut arena = Arena::with_mods(pinger(script), STRAIGHT);
    arena.place("s:box", 5.0, 1.0);
    arena.no_script_errors();
    assert_eq!(sounds(&arena).len(), 1, "only the good one");

    let careless = "return {\n    on_placed = function(self, game)\n        game:sound(\"pong\")\n    end,\n}\n";
    let mut arena = Arena::with_mods(pinger(careless), STRAIGHT);
    arena.place("s:box", 5.0, 1.0);
    // REFUSED's own lines come before the script's.
    let line = REFUSED.lines().count() + 3;
    assert_eq!(
        arena.script_errors(),
        [format!(
            "[s] scripts/box.lua:{line}: game:sound: there is no sound `s:pong` (did you mean `s:ping`?)"
        )]
    );
}

/// Plays `count` sounds every tick.
fn noisy(count: u32) -> String {
    format!(
        "return {{\n    on_tick = function(self, game)\n        for i = 1, {count} do\n            game:sound(\"ping\", i, 1)\n        end\n    end,\n}}\n"
    )
}

#[test]
fn a_mod_plays_at_most_its_allowance_per_tick_and_past_it_nothing_fails() {
    let mut arena = Arena::with_mods(pinger(&noisy(40)), STRAIGHT);
    arena.place("s:box", 5.0, 1.0);
    arena.run(3);
    arena.no_script_errors();
    let played = sounds(&arena);
    let now = arena.battle.tick();
    for tick in now - 3..now {
        let that_tick: Vec<_> = played.iter().filter(|s| s.0 == tick).collect();
        assert_eq!(that_tick.len(), MAX_SOUNDS_PER_TICK as usize, "tick {tick}");
        // The first of the tick are played.
        assert_eq!(
            that_tick.last().unwrap().2,
            Some(Position {
                x: f64::from(MAX_SOUNDS_PER_TICK),
                y: 1.0
            })
        );
    }
    let mut calm = Arena::with_mods(pinger(&noisy(3)), STRAIGHT);
    calm.place("s:box", 5.0, 1.0);
    calm.run(2);
    assert_eq!(sounds(&calm).len(), 6);
}

#[test]
fn playing_sounds_leaves_the_battle_as_it_would_be_without_them() {
    let loud = noisy(5);
    let quiet = format!(
        "local function nothing(...) end\n{}",
        loud.replace("game:sound(", "nothing(")
    );
    let mut hashes = Vec::new();
    for script in [loud, quiet] {
        let mut arena = Arena::with_mods(pinger(&script), STRAIGHT);
        arena.place("s:box", 5.0, 1.0);
        arena.standing("core:red_slime", 6.0, PATH_Y);
        arena.wave();
        arena.run(60);
        arena.no_script_errors();
        hashes.push((arena.battle.state_hash(), sounds(&arena).len()));
    }
    assert!(hashes[0].1 > 0 && hashes[1].1 == 0, "{hashes:?}");
    assert_eq!(hashes[0].0, hashes[1].0);
}

#[test]
fn looking_at_the_battle_plays_nothing() {
    let script = r#"
return {
    on_placed = function(self, game)
        self:modify("range", 0, function(range)
            game:sound("ping")
            return range
        end)
    end,
}
"#;
    let mods = pinger(script);
    mods.file(
        "s/blueprints/box.ron",
        &blueprint(
            "Box",
            "Tower",
            "range: 3, damage: 1, damage_type: [Physical], interval: 20, behaviour: Shooter(()), script: \"scripts/box.lua\",",
        ),
    );
    let mut arena = Arena::with_mods(mods, STRAIGHT);
    let tower = arena.place("s:box", 5.0, 2.0);
    assert_eq!(arena.look_at_range(tower), 3.0);
    // The tower asks for its range as it aims: that is the battle's own, and it plays.
    arena.standing("core:red_slime", 6.0, PATH_Y);
    arena.run(2);
    arena.no_script_errors();
    assert!(!sounds(&arena).is_empty());
}

#[test]
fn the_documented_bell_rings_when_built_and_where_its_tower_kills() {
    let mods = chime();
    mods.file(
        "chime/blueprints/bell.ron",
        &blueprint(
            "Bell",
            "Tower",
            "range: 3, damage: 50, damage_type: [Physical], interval: 20, behaviour: Shooter(()), script: \"scripts/bell.lua\",",
        ),
    );
    let mut arena = Arena::with_mods(mods, STRAIGHT);
    arena.place("chime:bell", 5.0, 2.0);
    arena.standing("core:red_slime", 6.0, PATH_Y);
    arena.wave();
    arena.run(40);
    arena.no_script_errors();
    let played: Vec<_> = sounds(&arena)
        .into_iter()
        .map(|(_, sound, at, _)| (sound, at))
        .collect();
    assert_eq!(
        played,
        [
            ("chime:pickup".into(), None),
            (
                "chime:explosion".into(),
                Some(Position { x: 6.0, y: PATH_Y })
            ),
        ]
    );
}

#[test]
fn a_blast_is_logged_where_it_lands_even_when_it_hits_nothing() {
    let mut arena = Arena::new(STRAIGHT);
    arena.wave();
    let grenade = arena.place("core:grenade", 4.0, PATH_Y);
    let blueprint = arena.content.blueprint_id("core:grenade").unwrap();
    arena.run(2);
    let blasts: Vec<_> = arena
        .battle
        .log()
        .iter()
        .filter_map(|l| match l.kind {
            LogKind::Blast {
                ability,
                blueprint,
                at,
            } => Some((ability, blueprint, at)),
            _ => None,
        })
        .collect();
    assert_eq!(
        blasts,
        [(grenade, blueprint, Position { x: 4.0, y: PATH_Y })]
    );
    assert!(arena.battle.entity(grenade).is_none(), "gone after it");
}

#[test]
fn a_content_reload_brings_the_new_sounds_and_scripts_play_them() {
    let mods = pinger(&noisy(1));
    let content = mods.load_with_core();
    let mut battle = Arena::battle(&content, STRAIGHT, Vec::new());
    mods.file(
        "s/sounds/ping.ron",
        "(synth: (frequency: 300), volume: 0.25)",
    );
    mods.file("s/sounds/pong.ron", "(file: \"sounds/pong.wav\")");
    write(&mods, "s/sounds/pong.wav", &wav());
    let reloaded = mods.load_with_core();
    battle.reload_content(reloaded).unwrap();
    assert_eq!(battle.content().sound("s:ping").unwrap().volume, 0.25);
    let pong = &battle.content().sound("s:pong").unwrap().source;
    assert!(matches!(pong, SoundSource::File(p) if p.ends_with(Path::new("s/sounds/pong.wav"))));
    battle
        .place("s:box", Position { x: 5.0, y: 1.0 }, 0)
        .unwrap();
    battle.run_ticks(1);
    let errors: Vec<String> = battle.script_errors().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert!(
        battle
            .log()
            .iter()
            .any(|l| matches!(&l.kind, LogKind::Sound { sound, .. } if sound == "s:ping"))
    );
}
