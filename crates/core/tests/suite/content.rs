//! Loading content: overrides across mods, and the checks that point at the field at fault.

use crate::common::{Located, Mods, blueprint, located, row};
use rampart_core::content::{Param, Placement, ScriptRef};
use rampart_core::diagnostics::{Diagnostic, Severity};

/// A diagnostic as text with `/` between folders, as on Unix systems, so that the same
/// expectations hold on Windows.
fn slashed(d: &Diagnostic) -> String {
    d.to_string().replace('\\', "/")
}

fn find<'a>(diagnostics: &'a [Diagnostic], phrase: &str) -> &'a Diagnostic {
    diagnostics
        .iter()
        .find(|d| d.message.contains(phrase))
        .unwrap_or_else(|| {
            panic!(
                "no diagnostic with `{phrase}` in {:#?}",
                diagnostics
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
            )
        })
}

fn load(
    mods: &Mods,
) -> (
    std::sync::Arc<rampart_core::content::ContentDb>,
    Vec<Diagnostic>,
) {
    let (db, d) = mods.load();
    (db, d.into_iter().collect())
}

#[test]
fn an_override_changes_only_the_fields_it_names() {
    let mods = Mods::new();
    mods.manifest("base", &[]);
    mods.file(
        "base/blueprints/sentry.ron",
        &blueprint(
            "Sentry",
            "Tower",
            "cost: (materials: 10), range: 2.9, damage: 2, damage_type: [Physical], interval: 16",
        ),
    );
    mods.manifest("frost", &["base"]);
    mods.file(
        "frost/blueprints/icy_sentry.ron",
        "(overrides: \"base:sentry\", range: 3.5, script: \"scripts/icy.lua\")",
    );
    mods.file("frost/scripts/icy.lua", "return {}");
    let content = mods.load_clean();
    let sentry = content.blueprint(content.blueprint_id("base:sentry").unwrap());
    assert_eq!(sentry.range, Some(3.5));
    assert_eq!(sentry.damage, Some(2.0));
    assert_eq!(sentry.cost.materials, 10.0);
    assert_eq!(sentry.overrides, None);
    assert_eq!(
        sentry.script_ref,
        Some(ScriptRef {
            mod_id: "frost".into(),
            path: "scripts/icy.lua".into()
        }),
        "the script belongs to the mod that set it"
    );
    assert!(
        content.blueprint_id("frost:icy_sentry").is_none(),
        "an override defines nothing new"
    );
    assert_eq!(content.overrides.len(), 1);
    assert_eq!(content.overrides[0].by_mod, "frost");
}

#[test]
fn overrides_are_checked_like_definitions() {
    let mods = Mods::new();
    mods.manifest("base", &[]);
    mods.file(
        "base/blueprints/sentry.ron",
        &blueprint("Sentry", "Tower", "range: 2.9"),
    );
    mods.manifest("stranger", &[]);
    mods.file(
        "stranger/blueprints/patch.ron",
        "(\n  overrides: \"base:sentry\",\n  range: 0,\n)",
    );
    mods.file(
        "stranger/blueprints/typed.ron",
        "(\n  overrides: \"base:sentry\",\n  range: \"long\",\n)",
    );
    let (content, d) = load(&mods);
    let warning = find(&d, "not among the mod's dependencies");
    assert_eq!(warning.severity, Severity::Warning);
    assert!(
        slashed(warning).contains("stranger/blueprints/patch.ron:2:14"),
        "{warning}"
    );
    let zero = find(&d, "`range` is 0");
    assert!(
        slashed(zero).contains("stranger/blueprints/patch.ron:3:3"),
        "{zero}"
    );
    let typed = find(&d, "`range` must be a number");
    assert!(
        slashed(typed).contains("stranger/blueprints/typed.ron:3:10"),
        "{typed}"
    );
    assert!(
        content.blueprint_id("base:sentry").is_none(),
        "the broken result is left out"
    );
}

#[test]
fn blueprint_rules_are_enforced_at_the_field() {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    let cases = [
        ("no_type", "damage: 3", "needs a `damage_type`"),
        (
            "no_damage",
            "damage_type: [Energy]",
            "`damage_type` is set but there is no `damage`",
        ),
        (
            "two_durations",
            "duration_ticks: 20, duration_waves: 2",
            "either `duration_ticks` or `duration_waves`",
        ),
        (
            "surface",
            "placement: Surface()",
            "`Surface` placement is for abilities",
        ),
        (
            "bad_stat",
            "stats_to_display: [\"$RANGE\"]",
            "`$RANGE` is not a blueprint statistic tag",
        ),
        (
            "missing_stat",
            "stats_to_display: [\"$RNG\"]",
            "`$RNG` shows the range",
        ),
        (
            "tag_stat",
            "descriptions: [\"Hits for [DMG].\"]",
            "[DMG] shows the damage",
        ),
        (
            "negative",
            "cost: (materials: -5)",
            "`materials` cannot be negative",
        ),
    ];
    for (name, fields, _) in cases {
        mods.file(
            &format!("m/blueprints/{name}.ron"),
            &blueprint(name, "Tower", fields),
        );
    }
    mods.file("m/blueprints/Bad Name.ron", &blueprint("x", "Tower", ""));
    mods.file(
        "m/blueprints/unknown_tag.ron",
        &blueprint("t", "Tower", "descriptions: [\"Deals [DAMAGE] damage.\"]"),
    );
    let (content, d) = load(&mods);
    for (name, _, phrase) in cases {
        let diagnostic = find(&d, phrase);
        assert!(
            slashed(diagnostic).contains(&format!("m/blueprints/{name}.ron:1:")),
            "{name}: {diagnostic}"
        );
        assert!(
            content.blueprint_id(&format!("m:{name}")).is_none(),
            "{name} should be left out"
        );
    }
    assert!(
        find(&d, "cannot be used as a content name")
            .file
            .as_ref()
            .unwrap()
            .ends_with("Bad Name.ron")
    );
    let unknown = find(&d, "unknown description tag [DAMAGE]");
    assert_eq!(unknown.severity, Severity::Warning);
    assert_eq!(
        unknown.help.as_deref(),
        Some("did you mean [DMG]? Tags are listed in docs/modding/descriptions.md")
    );
    assert!(
        unknown.to_string().contains("unknown_tag.ron:1:"),
        "{unknown}"
    );
    assert!(
        content.blueprint_id("m:unknown_tag").is_some(),
        "an unknown tag is only a warning"
    );
}

#[test]
fn placement_defaults_follow_the_kind() {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file("m/blueprints/wall.ron", &blueprint("Wall", "Special", ""));
    mods.file("m/blueprints/bomb.ron", &blueprint("Bomb", "Ability", ""));
    mods.file(
        "m/blueprints/drill.ron",
        &blueprint(
            "Drill",
            "Economic",
            "placement: Tile(deposit: FuelOrMinerals, slants: true)",
        ),
    );
    let content = mods.load_clean();
    let placement = |id: &str| {
        content
            .blueprint(content.blueprint_id(id).unwrap())
            .placement()
    };
    assert!(matches!(
        placement("m:wall"),
        Placement::Tile { slants: false, .. }
    ));
    assert_eq!(placement("m:bomb"), Placement::Surface { rotatable: false });
    assert!(matches!(
        placement("m:drill"),
        Placement::Tile {
            slants: true,
            deposit: Some(_),
            ..
        }
    ));
}

#[test]
fn script_syntax_errors_point_at_their_line() {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file(
        "m/scripts/broken.lua",
        "local a = 1\nlocal b = = 2\nreturn {}",
    );
    let (content, d) = load(&mods);
    let e = find(&d, "syntax error");
    assert!(slashed(e).contains("m/scripts/broken.lua:2:1"), "{e}");
    assert!(content.mods[0].scripts.is_empty());
}

#[test]
fn params_are_numbers_or_texts_and_anything_else_is_pointed_at() {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file(
        "m/blueprints/good.ron",
        &blueprint(
            "Good",
            "Tower",
            r#"params: {"every": 80, "spawns": "m:bad"}"#,
        ),
    );
    mods.file(
        "m/blueprints/bad.ron",
        &blueprint("Bad", "Tower", "\n    params: {\"every\": true},"),
    );
    let (content, d) = load(&mods);
    let e = find(&d, "Expected a number or a text");
    assert!(slashed(e).contains("m/blueprints/bad.ron:2:23"), "{e}");
    let good = content.blueprint(content.blueprint_id("m:good").unwrap());
    assert_eq!(good.params["every"], Param::Number(80.0));
    assert_eq!(good.params["spawns"], Param::Text("m:bad".into()));
    assert!(content.blueprint_id("m:bad").is_none());
}

#[test]
fn the_content_hash_follows_the_files() {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file("m/blueprints/wall.ron", &blueprint("Wall", "Special", ""));
    let a = mods.load_clean().content_hash();
    assert_eq!(a, mods.load_clean().content_hash());
    mods.file(
        "m/blueprints/wall.ron",
        &blueprint("Wall", "Special", "cost: (materials: 1)"),
    );
    assert_ne!(a, mods.load_clean().content_hash());
}

/// The located diagnostics of `text` as the file `rel` of a mod `m` loaded alone.
fn errors_of(rel: &str, text: &str) -> Vec<Located> {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file(&format!("m/{rel}"), text);
    located(&load(&mods).1, rel)
}

#[test]
fn every_independent_error_of_a_content_file_is_reported_at_its_place() {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    mods.file(
        "m/blueprints/gun.ron",
        "(
    name: \"Gun\",
    kind: Tower,
    rarity: Common,
    cost: (materials: 10, enrgy: 2),
    interval: 0.5,
    damage: 3,
    damage_type: [Physical],
    rnage: 4,
)",
    );
    mods.file(
        "m/attackers/bones.ron",
        "(
    name: \"Bones\",
    size: Small,
    max_health: 10,
    speed: 1,
    min_spacing: 0.5,
    value: 10,
    spawns_on_death: [(attacker: \"m:a\", cont: 2), (attacker: \"m:b\", count: 1.5)],
)",
    );
    mods.file(
        "m/augments/sharp.ron",
        "(
    name: \"Sharp\",
    description: \"+10% damage.\",
    rarity: Common,
    fits: (neds: [Damage]),
    changes: [Damage(1.1), Damage(\"more\")],
)",
    );
    mods.file(
        "m/events/stall.ron",
        "(
    title: \"A Stall\",
    text: \"Things for sale.\",
    choices: [
        (text: \"Buy\", chanse: 0.5, outcomes: [Money(-10)]),
        (text: \"Leave\", outcomes: [Hul(2)]),
    ],
)",
    );
    // The core level setter with three mistakes far apart.
    let levels = std::fs::read_to_string(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("mods/core/levels.ron"),
    )
    .unwrap()
    .replacen("stall_ticks: 1200", "stall_ticks: 60.5", 1)
    .replacen("common: 30, rare: 55", "common: 30, rare: \"55\"", 1)
    .replacen("branches: 1,", "brnaches: 1,", 1);
    mods.file("m/levels.ron", &levels);
    let (content, d) = load(&mods);

    assert_eq!(
        located(&d, "gun.ron"),
        [
            row(
                5,
                27,
                "unknown field `cost.enrgy` in a cost",
                Some("did you mean `energy`?")
            ),
            row(
                6,
                15,
                "`interval` must be a whole number of ticks, not `0.5`",
                Some("`interval` counts ticks, 20 to a second: 0.5 seconds would be 10")
            ),
            row(
                9,
                5,
                "unknown field `rnage` in a blueprint",
                Some("did you mean `range`?")
            ),
        ]
    );
    assert_eq!(
        located(&d, "bones.ron"),
        [
            row(
                8,
                41,
                "unknown field `spawns_on_death[0].cont` in a spawn",
                Some("did you mean `count`?")
            ),
            row(
                8,
                76,
                "`spawns_on_death[1].count` must be a whole number, not `1.5`",
                Some("this number counts whole things: leave out the fraction")
            ),
        ]
    );
    assert_eq!(
        located(&d, "sharp.ron"),
        [
            row(
                5,
                12,
                "unknown field `fits.neds` in Fits",
                Some("did you mean `needs`?")
            ),
            row(6, 35, "`changes[1]` must be a number", None),
        ]
    );
    assert_eq!(
        located(&d, "stall.ron"),
        [
            row(
                5,
                23,
                "unknown field `choices[0].chanse` in a choice",
                Some("did you mean `chance`?")
            ),
            row(
                6,
                36,
                "unknown variant `Hul` at `choices[1].outcomes[0]`",
                Some(
                    "did you mean `Hull`? It may be one of: Money, Hull, Blueprint, GiveBlueprint, LoseBlueprint"
                )
            ),
        ]
    );

    let line_of = |needle: &str| levels[..levels.find(needle).unwrap()].lines().count() as u32;
    let levels = located(&d, "levels.ron");
    assert_eq!(levels.len(), 3, "{levels:#?}");
    assert_eq!(
        (levels[0].0, levels[0].2.as_str()),
        (
            line_of("stall_ticks: 60.5"),
            "`stall_ticks` must be a whole number of ticks, not `60.5`"
        )
    );
    assert_eq!(
        (levels[1].0, levels[1].2.as_str()),
        (
            line_of("rare: \"55\""),
            "`rarity_odds[1].rare` must be a number"
        )
    );
    assert_eq!(
        (levels[2].0, levels[2].2.as_str()),
        (
            line_of("brnaches"),
            "unknown field `levels[1].brnaches` in a level rule"
        )
    );
    assert_eq!(levels[2].3.as_deref(), Some("did you mean `branches`?"));

    assert_eq!(d.len(), 12, "nothing else: {d:#?}");
    assert!(content.blueprints.is_empty() && content.attackers.is_empty());
}

#[test]
fn fractional_ticks_say_so_and_other_counts_want_whole_numbers() {
    assert_eq!(
        errors_of(
            "blueprints/mortar.ron",
            "(
    name: \"Mortar\",
    kind: Tower,
    rarity: Common,
    cooldown: 1.5,
    duration_ticks: 1e2,
    delay: 3.,
    behaviour: Shooter((projectile: Ballistic(flight: 2.5), targets: Best(2.0))),
)"
        ),
        [
            row(
                5,
                15,
                "`cooldown` must be a whole number, not `1.5`",
                Some("this number counts whole things: leave out the fraction")
            ),
            row(
                6,
                21,
                "`duration_ticks` must be a whole number of ticks, not `1e2`",
                Some("`duration_ticks` counts ticks, 20 to a second: 1e2 seconds would be 2000")
            ),
            row(
                7,
                12,
                "`delay` must be a whole number of ticks, not `3.`",
                Some("`delay` counts ticks, 20 to a second: 3. seconds would be 60")
            ),
            row(
                8,
                55,
                "`behaviour.projectile.flight` must be a whole number of ticks, not `2.5`",
                Some("`flight` counts ticks, 20 to a second: 2.5 seconds would be 50")
            ),
            row(
                8,
                75,
                "`behaviour.targets` must be a whole number, not `2.0`",
                Some("write it without a point or an exponent: 2")
            ),
        ]
    );
}

#[test]
fn a_nested_typo_is_named_at_its_place_with_the_fields_of_its_type() {
    assert_eq!(
        errors_of(
            "blueprints/dart.ron",
            "(
    name: \"Dart\",
    kind: Tower,
    rarity: Common,
    behaviour: Shooter((
        shape: Box(forwrd: 2, side: 1),
        projectile: Homing(speeed: 40),
    )),
    placement: Tile(slantss: true),
)"
        ),
        [
            row(
                6,
                20,
                "unknown field `behaviour.shape.forwrd` in Box",
                Some("did you mean `forward`?")
            ),
            row(
                7,
                28,
                "unknown field `behaviour.projectile.speeed` in Homing",
                Some("did you mean `speed`?")
            ),
            row(
                9,
                21,
                "unknown field `placement.slantss` in Tile",
                Some("did you mean `slants`?")
            ),
        ],
        "each typo once, and not as the field it left missing"
    );
}

#[test]
fn a_bracket_that_does_not_pair_up_stops_the_file_at_its_first_error() {
    let open = errors_of(
        "blueprints/open.ron",
        "(\n    name: \"Open\",\n    kind: Tower,\n    rarity: Common,\n    rnage: 2,\n    cost: (materials: 1,\n    dmage: 3,\n",
    );
    assert_eq!(open.len(), 1, "{open:#?}");
    assert_eq!((open[0].0, open[0].1), (5, 5));
}

#[test]
fn a_file_of_many_errors_lists_the_first_and_says_there_are_more() {
    let mods = Mods::new();
    mods.manifest("m", &[]);
    let fields = "    rnage: 2,\n".repeat(4096);
    mods.file(
        "m/blueprints/many.ron",
        &format!("(\n    name: \"Many\",\n    kind: Tower,\n    rarity: Common,\n{fields})"),
    );
    let (_, d) = load(&mods);
    let shown = rampart_core::diagnostics::SHOWN_PER_FILE;
    assert_eq!(d.len(), shown);
    for (i, e) in d[..shown - 1].iter().enumerate() {
        assert_eq!(e.message, "unknown field `rnage` in a blueprint");
        assert_eq!(e.position.unwrap().line as usize, 5 + i);
    }
    assert_eq!(
        d[shown - 1].message,
        format!(
            "this file may have more errors than the {} above: fix those and check again",
            shown - 1
        )
    );
}
