//! Descriptions computed from a running battle: values through the queries, compared with the
//! unmodified blueprint, and looking never changes the battle.

use std::sync::Arc;

use crate::common::{Mods, attacker, blueprint};
use rampart_core::battle::{Battle, BattleConfig, Position};
use rampart_core::content::ContentDb;
use rampart_core::content::describe::{Quality, RichText};
use rampart_core::rng::Seed;

fn content(booster: &str) -> (Mods, Arc<ContentDb>) {
    let mods = Mods::new();
    mods.manifest("t", &[]);
    mods.file(
        "t/blueprints/sentry.ron",
        &blueprint(
            "Sentry",
            "Tower",
            r#"cost: (materials: 10), range: 2.9, damage: 2, damage_type: [Physical], interval: 16,
               stats_to_display: ["$RNG", "$DMG", "$INT"],
               descriptions: ["Fires at attackers it can see."]"#,
        ),
    );
    mods.file(
        "t/attackers/blob.ron",
        &attacker(
            "Blob",
            10.0,
            1.0,
            r#"descriptions: ["[HP/M] HP, moves at [SPD]."], script: "scripts/blob.lua""#,
        ),
    );
    mods.file(
        "t/scripts/blob.lua",
        "return { on_spawn = function(self, game) self:modify(\"speed\", -1, function(s) return s / 2 end) end }",
    );
    mods.file("t/scripts/booster.lua", booster);
    mods.file(
        "t/blueprints/booster.ron",
        &blueprint(
            "Booster",
            "Economic",
            r#"script: "scripts/booster.lua", descriptions: ["Boosts."]"#,
        ),
    );
    let content = mods.load_clean();
    (mods, content)
}

const BOOSTER: &str = r#"
game:modify("range", -1, function(range) return range + 1 end)
game:modify("interval", -1, function(interval) return interval * 2 end)
game:modify("blueprint_cost", -1, function(cost)
    return { materials = cost.materials - 2, energy = cost.energy }
end)
game:modify("descriptions", -1, function(lines, stat)
    if stat.blueprint == "t:sentry" then
        table.insert(lines, "Boosted by a [$RNG] bonus.")
        return lines
    end
end)
return {}
"#;

fn value_quality(text: &RichText, needle: &str) -> Quality {
    text.values()
        .find(|v| v.0 == needle)
        .unwrap_or_else(|| panic!("no value {needle} in {}", text.plain()))
        .1
}

#[test]
fn descriptions_show_modified_values_marked_against_the_blueprint() {
    let (_mods, content) = content(BOOSTER);
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
    let sentry = content.blueprint_id("t:sentry").unwrap();
    let view = b.describe_blueprint(sentry, None);
    let text = &view.text;
    assert_eq!(value_quality(text, "3.9"), Quality::Better, "range 2.9 + 1");
    assert_eq!(
        value_quality(text, "1.6s"),
        Quality::Worse,
        "interval doubled"
    );
    assert_eq!(value_quality(text, "2"), Quality::Unchanged, "damage");
    assert_eq!(view.cost.materials, 8.0, "cost 10 - 2");
    assert_eq!(view.cost_quality, Quality::Better);
    let last = text.lines.last().unwrap();
    assert!(last.added, "{}", text.plain());
    assert!(
        text.plain()
            .ends_with("Boosted by a Range [Range]3.9 bonus."),
        "{}",
        text.plain()
    );
    assert!(!text.lines[text.lines.len() - 2].added);
}

#[test]
fn attackers_are_described_with_their_current_speed() {
    let (_mods, content) = content("return {}");
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
    let blob = b.spawn_attacker(content.attacker_id("t:blob").unwrap(), Position::default());
    let text = b.describe_attacker(blob).unwrap();
    assert_eq!(
        value_quality(&text, "0.5"),
        Quality::Worse,
        "{}",
        text.plain()
    );
}

/// A query modifier that tries to change the battle while it is looked at.
const MEDDLER: &str = r#"
game:modify("range", -1, function(range)
    game:command("add_materials", { amount = 5 })
    return range + 1
end)
game:modify("hit_damage", -1, function(damage)
    return damage + math.random()
end)
return {}
"#;

#[test]
fn queries_cannot_change_the_battle_and_looking_leaves_no_trace() {
    let (_mods, content) = content(MEDDLER);
    let sentry = content.blueprint_id("t:sentry").unwrap();
    let mut looked = Battle::new(content.clone(), BattleConfig::new(Seed(3)));
    let untouched = Battle::new(content.clone(), BattleConfig::new(Seed(3)));
    let before = looked.state_hash();
    for _ in 0..20 {
        let text = looked.describe_blueprint(sentry, None).text;
        assert_eq!(
            value_quality(&text, "2.9"),
            Quality::Unchanged,
            "the failing modifier leaves the value as it was"
        );
    }
    assert_eq!(looked.state_hash(), before);
    assert_eq!(looked.state_hash(), untouched.state_hash());
    assert_eq!(looked.player().materials, untouched.player().materials);
    assert_eq!(
        looked.script_errors().count(),
        0,
        "errors while looking are not logged"
    );

    // In the simulation the same modifiers fail with a clear message, and the value stays.
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(3)));
    let stat = rampart_core::battle::StatOf {
        blueprint: sentry,
        entity: None,
    };
    assert_eq!(b.query(|b| &b.chains.range, &stat), 2.9);
    assert_eq!(b.query(|b| &b.chains.hit_damage, &stat), 2.0);
    let errors: Vec<String> = b.script_errors().map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[0].contains("game:command changes the battle")
            && errors[0].contains("booster.lua:3"),
        "{}",
        errors[0]
    );
    assert!(
        errors[1].contains("math.random changes the battle"),
        "{}",
        errors[1]
    );
}

#[test]
fn parameter_tags_show_the_value_a_mod_overrides() {
    let radar_text = |content: &Arc<ContentDb>| {
        let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
        let radar = content.blueprint_id("core:radar").unwrap();
        b.describe_blueprint(radar, None).text.plain()
    };
    let core = Mods::new().load_with_core();
    let text = radar_text(&core);
    assert!(text.contains("by 30%."), "{text}");

    // A mod that changes the parameter changes the description with it.
    let mods = Mods::new();
    mods.manifest("t", &["core"]);
    mods.file(
        "t/blueprints/radar.ron",
        r#"(overrides: "core:radar", params: {"bonus": 0.45})"#,
    );
    let text = radar_text(&mods.load_with_core());
    assert!(text.contains("by 45%."), "{text}");
    let galvanizer = core.blueprint(core.blueprint_id("core:galvanizer").unwrap());
    let text = rampart_core::content::describe::blueprint(
        galvanizer,
        &rampart_core::content::describe::BlueprintNow::unmodified(galvanizer),
    )
    .plain();
    assert!(
        text.contains("When idle for 1.8s"),
        "ticks as seconds: {text}"
    );
}

#[test]
fn a_parameter_tag_must_name_a_parameter_the_item_has() {
    let mods = Mods::new();
    mods.manifest("t", &[]);
    mods.file(
        "t/blueprints/lamp.ron",
        &blueprint(
            "Lamp",
            "Economic",
            r#"params: {"glow": 0.5, "colour": "amber"},
               descriptions: ["Glows [P%:glo] in [P%:colour], [P:colour]."]"#,
        ),
    );
    mods.file(
        "t/attackers/moth.ron",
        &attacker(
            "Moth",
            5.0,
            1.0,
            r#"descriptions: ["Drawn to light [P:pull] tiles away."]"#,
        ),
    );
    let (_, diagnostics) = mods.load();
    let rendered: Vec<String> = diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.render(false))
        .collect();
    assert_eq!(rendered.len(), 3, "{rendered:#?}");
    let all = rendered.join("\n");
    assert!(
        all.contains("[P%:glo] shows the parameter `glo`, which this blueprint does not have")
            && all.contains("did you mean `glow`?"),
        "{all}"
    );
    assert!(
        all.contains("`colour` is a text; show it with [P:colour]"),
        "{all}"
    );
    assert!(
        all.contains("[P:pull] shows the parameter `pull`, which this attacker type does not have")
            && all.contains("it has no `params`"),
        "{all}"
    );
    assert!(
        all.contains("lamp.ron") && all.contains("moth.ron"),
        "{all}"
    );
}
