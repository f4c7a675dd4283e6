//! Descriptions rendered for the info panel: the tag language turned into structured rich text.
//!
//! Each tag becomes a span: plain text, an icon, a stat's name, or a value. A value carries how
//! it compares with the unmodified blueprint or attacker type ([`Quality`]), so the client can
//! colour a range that a Radar raised green and an interval a debuff lengthened red. Description
//! lines that the unmodified content does not have are marked as added. Unknown tags stay as
//! text, marked.

use std::collections::BTreeMap;

use super::Param;
use super::attacker::AttackerType;
use super::blueprint::{Blueprint, Cost};
use super::damage::DamageTypes;
use super::description::{
    self, AttackerStat, BlueprintStat, Context, Icon, ParamFormat, Segment, Tag,
};

/// How a shown value compares with the unmodified one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quality {
    /// Changed for the better (green).
    Better,
    /// Changed for the worse (red).
    Worse,
    /// Unchanged.
    Unchanged,
}

/// A piece of a rendered line.
#[derive(Clone, Debug, PartialEq)]
pub enum Span {
    /// Plain text.
    Text(String),
    /// An icon.
    Icon(Icon),
    /// A statistic's name, from a `$` tag ("Range").
    Label(&'static str),
    /// A value, formatted, with how it compares with the unmodified content.
    Value {
        /// The formatted value ("2.9", "0.8s", "3 waves").
        text: String,
        /// Better, worse or unchanged.
        quality: Quality,
    },
    /// Text in brackets that is not a tag here; shown as written, marked.
    Unknown(String),
}

/// One line of a rendered description.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Its pieces, in order.
    pub spans: Vec<Span>,
    /// Whether the unmodified content does not have this line.
    pub added: bool,
    /// Whether a paragraph break (`[BRK]`) precedes the line.
    pub gap_before: bool,
}

/// A rendered description.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RichText {
    /// Its lines.
    pub lines: Vec<Line>,
}

impl RichText {
    /// Every value shown, in order, with how it compares with the unmodified content.
    pub fn values(&self) -> impl Iterator<Item = (&str, Quality)> {
        self.lines
            .iter()
            .flat_map(|l| &l.spans)
            .filter_map(|s| match s {
                Span::Value { text, quality } => Some((text.as_str(), *quality)),
                _ => None,
            })
    }

    /// The text without styling (icons as `[#…]`), one line per line; handy for logs and tests.
    pub fn plain(&self) -> String {
        let mut out = String::new();
        for (i, line) in self.lines.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            for span in &line.spans {
                match span {
                    Span::Text(t) | Span::Unknown(t) => out.push_str(t),
                    Span::Label(l) => {
                        out.push_str(l);
                        out.push(' ');
                    }
                    Span::Value { text, .. } => out.push_str(text),
                    Span::Icon(icon) => out.push_str(&format!("[{icon:?}]")),
                }
            }
        }
        out
    }
}

/// The current statistics of a blueprint (after modifiers) next to which a blueprint is shown.
#[derive(Clone, Debug, PartialEq)]
pub struct BlueprintNow {
    /// What using it costs now.
    pub cost: Cost,
    /// Range.
    pub range: Option<f64>,
    /// Radius.
    pub radius: Option<f64>,
    /// Damage per hit.
    pub damage: Option<f64>,
    /// Damage types.
    pub damage_type: DamageTypes,
    /// Interval in ticks.
    pub interval: Option<f64>,
    /// Delay in ticks.
    pub delay: Option<f64>,
    /// Duration in ticks.
    pub duration_ticks: Option<f64>,
    /// Duration in waves.
    pub duration_waves: Option<f64>,
    /// Fuel per wave.
    pub fuel_production: Option<f64>,
    /// Materials per wave.
    pub material_production: Option<f64>,
    /// Energy per wave.
    pub energy_production: Option<f64>,
    /// Cooldown in waves.
    pub cooldown: f64,
    /// Starting cooldown in waves.
    pub starting_cooldown: f64,
    /// Description lines now (something may have added some).
    pub descriptions: Vec<String>,
}

impl BlueprintNow {
    /// The blueprint's own values, unmodified.
    pub fn unmodified(bp: &Blueprint) -> BlueprintNow {
        let ticks = |v: Option<u32>| v.map(f64::from);
        BlueprintNow {
            cost: bp.cost,
            range: bp.range,
            radius: bp.radius,
            damage: bp.damage,
            damage_type: bp.damage_type,
            interval: ticks(bp.interval),
            delay: ticks(bp.delay),
            duration_ticks: ticks(bp.duration_ticks),
            duration_waves: ticks(bp.duration_waves),
            fuel_production: bp.fuel_production,
            material_production: bp.material_production,
            energy_production: bp.energy_production,
            cooldown: f64::from(bp.cooldown),
            starting_cooldown: f64::from(bp.starting_cooldown),
            descriptions: bp.descriptions.clone(),
        }
    }
}

/// The current state of an attacker next to which its type is shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttackerNow {
    /// Hit points now.
    pub hp: f64,
    /// Maximum hit points now.
    pub max_hp: f64,
    /// Speed now, tiles per second.
    pub speed: f64,
}

impl AttackerNow {
    /// A fresh attacker of the type.
    pub fn unmodified(a: &AttackerType) -> AttackerNow {
        AttackerNow {
            hp: a.max_health,
            max_hp: a.max_health,
            speed: a.speed,
        }
    }
}

/// Which way is better for a statistic.
#[derive(Clone, Copy, Debug)]
pub enum Better {
    /// More is better (range, damage).
    Higher,
    /// Less is better (interval, cost).
    Lower,
}

/// How `now` compares with `base` for a statistic where `better` says which way is better.
pub fn quality(now: f64, base: f64, better: Better) -> Quality {
    if (now - base).abs() < 1e-9 {
        return Quality::Unchanged;
    }
    match (now > base, better) {
        (true, Better::Higher) | (false, Better::Lower) => Quality::Better,
        _ => Quality::Worse,
    }
}

/// A number without needless decimals: 2.9, 3, 0.75.
pub fn number(v: f64) -> String {
    let rounded = (v * 100.0).round() / 100.0;
    let text = format!("{rounded:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Ticks as seconds: 16 → "0.8s".
fn seconds(ticks: f64) -> String {
    format!("{}s", number(ticks / crate::TICKS_PER_SECOND as f64))
}

fn waves(n: f64) -> String {
    if n == 1.0 {
        "1 wave".into()
    } else {
        format!("{} waves", number(n))
    }
}

fn damage_words(types: DamageTypes) -> String {
    let names: Vec<String> = types.iter().map(|t| t.to_string()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

fn value(text: String, quality: Quality) -> Span {
    Span::Value { text, quality }
}

/// Renders a blueprint's description: its stats to display, one per line, then its description
/// lines, values taken from `now` and compared with the blueprint itself.
pub fn blueprint(bp: &Blueprint, now: &BlueprintNow) -> RichText {
    let base = BlueprintNow::unmodified(bp);
    let mut text = RichText::default();
    for entry in &bp.stats_to_display {
        let tag_text = format!("[{}]", entry.trim_start_matches('[').trim_end_matches(']'));
        push_line(&mut text, &tag_text, Context::Blueprint, false, &|tag| {
            blueprint_spans(tag, bp, now, &base)
        });
    }
    for line in &now.descriptions {
        let added = !bp.descriptions.contains(line);
        push_line(&mut text, line, Context::Blueprint, added, &|tag| {
            blueprint_spans(tag, bp, now, &base)
        });
    }
    text
}

/// Renders an attacker type's description lines with values from `now`.
pub fn attacker(a: &AttackerType, now: &AttackerNow) -> RichText {
    let base = AttackerNow::unmodified(a);
    let mut text = RichText::default();
    for line in &a.descriptions {
        push_line(&mut text, line, Context::Attacker, false, &|tag| {
            attacker_spans(tag, a, now, &base)
        });
    }
    text
}

/// Parses one description entry and appends it (as one or more lines, split at `[BRK]`).
fn push_line(
    text: &mut RichText,
    source: &str,
    context: Context,
    added: bool,
    spans_of: &dyn Fn(Tag) -> Vec<Span>,
) {
    let mut line = Line {
        spans: Vec::new(),
        added,
        gap_before: false,
    };
    for segment in description::parse(source, context) {
        match segment {
            Segment::Text(t) => line.spans.push(Span::Text(t)),
            Segment::Unknown { text: t, .. } => line.spans.push(Span::Unknown(t)),
            Segment::Tag {
                tag: Tag::Break, ..
            } => {
                let next = Line {
                    spans: Vec::new(),
                    added,
                    gap_before: true,
                };
                text.lines.push(std::mem::replace(&mut line, next));
            }
            Segment::Tag { tag, .. } => line.spans.extend(spans_of(tag)),
        }
    }
    text.lines.push(line);
}

fn labelled(
    label: &'static str,
    icon: Option<Icon>,
    named: bool,
    mut spans: Vec<Span>,
) -> Vec<Span> {
    if named {
        let mut head = vec![Span::Label(label)];
        head.extend(icon.map(Span::Icon));
        head.append(&mut spans);
        head
    } else {
        spans
    }
}

/// A parameter tag's value, as the item has it now (a mod's override included).
fn param_spans(params: &BTreeMap<String, Param>, name: &str, format: ParamFormat) -> Vec<Span> {
    let text = match (params.get(name), format) {
        (None, _) => return Vec::new(),
        (Some(Param::Text(t)), _) => t.clone(),
        (Some(Param::Number(n)), ParamFormat::Plain) => number(*n),
        (Some(Param::Number(n)), ParamFormat::Percent) => format!("{}%", number(n * 100.0)),
        (Some(Param::Number(n)), ParamFormat::Seconds) => seconds(*n),
    };
    vec![value(text, Quality::Unchanged)]
}

fn blueprint_spans(tag: Tag, bp: &Blueprint, now: &BlueprintNow, base: &BlueprintNow) -> Vec<Span> {
    let (stat, named) = match tag {
        Tag::Icon(icon) => return vec![Span::Icon(icon)],
        Tag::Blueprint { stat, named } => (stat, named),
        Tag::Param { name, format } => return param_spans(&bp.params, &name, format),
        Tag::Break | Tag::Attacker { .. } => return Vec::new(),
    };
    let num = |now: Option<f64>,
               base: Option<f64>,
               better: Better,
               fmt: fn(f64) -> String|
     -> Vec<Span> {
        match now {
            Some(n) => vec![value(fmt(n), quality(n, base.unwrap_or(n), better))],
            None => Vec::new(),
        }
    };
    use BlueprintStat::*;
    match stat {
        Name => vec![Span::Text(bp.name.clone())],
        Range => labelled(
            "Range",
            Some(Icon::Range),
            named,
            num(now.range, base.range, Better::Higher, number),
        ),
        Radius => labelled(
            "Radius",
            Some(Icon::Radius),
            named,
            num(now.radius, base.radius, Better::Higher, number),
        ),
        Damage => {
            let mut spans = num(now.damage, base.damage, Better::Higher, number);
            if named && !now.damage_type.is_empty() {
                spans.push(Span::Text(format!(" ({})", damage_words(now.damage_type))));
            }
            labelled("Damage", Some(Icon::Damage), named, spans)
        }
        DamageTypes => {
            let q = if now.damage_type == base.damage_type {
                Quality::Unchanged
            } else {
                Quality::Better
            };
            labelled(
                "Damage type",
                None,
                named,
                vec![value(damage_words(now.damage_type), q)],
            )
        }
        DamageTypeIcons => now
            .damage_type
            .iter()
            .map(|t| Span::Icon(Icon::DamageType(t)))
            .collect(),
        Interval => labelled(
            "Interval",
            Some(Icon::Interval),
            named,
            num(now.interval, base.interval, Better::Lower, seconds),
        ),
        DamagePerSecond => {
            let dps =
                |s: &BlueprintNow| Some(s.damage? * crate::TICKS_PER_SECOND as f64 / s.interval?);
            labelled(
                "Damage/s",
                Some(Icon::Damage),
                named,
                num(dps(now), dps(base), Better::Higher, number),
            )
        }
        Delay => labelled(
            "Delay",
            None,
            named,
            num(now.delay, base.delay, Better::Lower, seconds),
        ),
        Duration => {
            let spans = match (now.duration_ticks, now.duration_waves) {
                (Some(t), _) => num(Some(t), base.duration_ticks, Better::Higher, seconds),
                (None, Some(w)) => num(Some(w), base.duration_waves, Better::Higher, waves),
                (None, None) => Vec::new(),
            };
            labelled("Duration", Some(Icon::Duration), named, spans)
        }
        Production => {
            let mut spans = Vec::new();
            for (n, b, icon) in [
                (now.fuel_production, base.fuel_production, Icon::Fuel),
                (
                    now.material_production,
                    base.material_production,
                    Icon::Materials,
                ),
                (now.energy_production, base.energy_production, Icon::Energy),
            ] {
                if let Some(n) = n {
                    if !spans.is_empty() {
                        spans.push(Span::Text(" ".into()));
                    }
                    spans.push(Span::Icon(Icon::Production));
                    spans.push(value(number(n), quality(n, b.unwrap_or(n), Better::Higher)));
                    spans.push(Span::Icon(icon));
                }
            }
            labelled("Production", None, named, spans)
        }
        FuelProduction => labelled(
            "Fuel",
            Some(Icon::Fuel),
            named,
            num(
                now.fuel_production,
                base.fuel_production,
                Better::Higher,
                number,
            ),
        ),
        MaterialProduction => labelled(
            "Materials",
            Some(Icon::Materials),
            named,
            num(
                now.material_production,
                base.material_production,
                Better::Higher,
                number,
            ),
        ),
        EnergyProduction => labelled(
            "Energy",
            Some(Icon::Energy),
            named,
            num(
                now.energy_production,
                base.energy_production,
                Better::Higher,
                number,
            ),
        ),
        StartingCooldown => labelled(
            "Starting cooldown",
            None,
            named,
            vec![value(
                waves(now.starting_cooldown),
                quality(now.starting_cooldown, base.starting_cooldown, Better::Lower),
            )],
        ),
        Cooldown => labelled(
            "Cooldown",
            None,
            named,
            vec![value(
                waves(now.cooldown),
                quality(now.cooldown, base.cooldown, Better::Lower),
            )],
        ),
        CooldownSuffix if now.cooldown > 0.0 => vec![value(
            format!("/ {}", waves(now.cooldown)),
            quality(now.cooldown, base.cooldown, Better::Lower),
        )],
        CooldownSuffix => Vec::new(),
    }
}

fn attacker_spans(tag: Tag, a: &AttackerType, now: &AttackerNow, base: &AttackerNow) -> Vec<Span> {
    let size = a.size;
    let (stat, named) = match tag {
        Tag::Icon(icon) => return vec![Span::Icon(icon)],
        Tag::Attacker { stat, named } => (stat, named),
        Tag::Param { name, format } => return param_spans(&a.params, &name, format),
        Tag::Break | Tag::Blueprint { .. } => return Vec::new(),
    };
    match stat {
        AttackerStat::Size => labelled(
            "Size",
            None,
            named,
            vec![value(format!("{size:?}"), Quality::Unchanged)],
        ),
        AttackerStat::Speed => labelled(
            "Speed",
            None,
            named,
            vec![value(
                number(now.speed),
                quality(now.speed, base.speed, Better::Higher),
            )],
        ),
        AttackerStat::Hp => labelled(
            "HP",
            Some(Icon::Hp),
            named,
            vec![value(number(now.hp), Quality::Unchanged)],
        ),
        AttackerStat::MaxHp => labelled(
            "HP",
            Some(Icon::Hp),
            named,
            vec![value(
                number(now.max_hp),
                quality(now.max_hp, base.max_hp, Better::Higher),
            )],
        ),
        AttackerStat::HpOfMax => labelled(
            "HP",
            Some(Icon::Hp),
            named,
            vec![value(
                format!("{} / {}", number(now.hp), number(now.max_hp)),
                Quality::Unchanged,
            )],
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::damage::DamageType;

    fn sentry() -> Blueprint {
        let text = r#"(name: "Sentry", kind: Tower, rarity: Common, range: 2.9, damage: 2, damage_type: [Physical, Explosive],
            interval: 16, cooldown: 1, stats_to_display: ["$RNG", "$DMG", "$INT"],
            descriptions: ["Deals [DMG] [#DMG] every [INT][+CD].[BRK]Odd [THING] here.", "Fires [DPS] damage/s with [DTL] [DTI]."])"#;
        crate::ron_file::parse(&crate::diagnostics::SourceFile::new("s.ron", text)).unwrap()
    }

    #[test]
    fn unmodified_blueprints_read_as_written() {
        let bp = sentry();
        let text = blueprint(&bp, &BlueprintNow::unmodified(&bp));
        assert_eq!(
            text.plain(),
            "Range [Range]2.9\nDamage [Damage]2 (physical and explosive)\nInterval [Interval]0.8s\n\
             Deals 2 [Damage] every 0.8s/ 1 wave.\nOdd [THING] here.\nFires 2.5 damage/s with physical and explosive [DamageType(Physical)][DamageType(Explosive)]."
        );
        assert!(text.lines[4].gap_before);
        assert!(text.lines.iter().all(|l| !l.added));
        assert!(
            text.lines[4]
                .spans
                .contains(&Span::Unknown("[THING]".into()))
        );
        assert!(text.values().all(|(_, q)| q == Quality::Unchanged));
    }

    #[test]
    fn changed_values_are_marked_by_direction_and_added_lines_are_marked() {
        let bp = sentry();
        let mut now = BlueprintNow::unmodified(&bp);
        now.range = Some(3.77);
        now.interval = Some(32.0);
        now.descriptions.push("Adjacent to a Radar.".into());
        let text = blueprint(&bp, &now);
        let quality_of = |needle: &str| text.values().find(|v| v.0 == needle).unwrap().1;
        assert_eq!(quality_of("3.77"), Quality::Better, "more range is better");
        assert_eq!(
            quality_of("1.6s"),
            Quality::Worse,
            "a longer interval is worse"
        );
        assert_eq!(
            quality_of("1.25"),
            Quality::Worse,
            "damage per second fell with the interval"
        );
        assert_eq!(quality_of("2"), Quality::Unchanged);
        assert!(text.lines.last().unwrap().added);
    }

    #[test]
    fn attackers_show_current_hp() {
        let text = r#"(name: "Blob", size: Large, max_health: 35, speed: 1.0, min_spacing: 1, value: 35,
            descriptions: ["[$SIZ], [HP/M] HP, moves at [SPD]."])"#;
        let a: AttackerType =
            crate::ron_file::parse(&crate::diagnostics::SourceFile::new("a.ron", text)).unwrap();
        let now = AttackerNow {
            hp: 25.0,
            max_hp: 35.0,
            speed: 2.0,
        };
        assert_eq!(
            attacker(&a, &now).plain(),
            "Size Large, 25 / 35 HP, moves at 2."
        );
        assert_eq!(number(0.75), "0.75");
        assert_eq!(number(3.0), "3");
        assert_eq!(
            damage_words([DamageType::HpLoss].into_iter().collect()),
            "HP loss"
        );
    }
}
