//! Loading content: overrides across mods, and the checks that point at the field at fault.

use crate::common::{Mods, blueprint};
use rampart::content::{Param, Placement, ScriptRef};
use rampart::diagnostics::{Diagnostic, Severity};

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

fn load(mods: &Mods) -> (std::sync::Arc<rampart::content::ContentDb>, Vec<Diagnostic>) {
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
        warning
            .to_string()
            .contains("stranger/blueprints/patch.ron:2:14"),
        "{warning}"
    );
    let zero = find(&d, "`range` is 0");
    assert!(
        zero.to_string()
            .contains("stranger/blueprints/patch.ron:3:3"),
        "{zero}"
    );
    let typed = find(&d, "`range` must be a number");
    assert!(
        typed
            .to_string()
            .contains("stranger/blueprints/typed.ron:3:10"),
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
            diagnostic
                .to_string()
                .contains(&format!("m/blueprints/{name}.ron:1:")),
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
    assert!(e.to_string().contains("m/scripts/broken.lua:2:1"), "{e}");
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
    assert!(e.to_string().contains("m/blueprints/bad.ron:2:23"), "{e}");
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
