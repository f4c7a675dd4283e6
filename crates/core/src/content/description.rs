//! The tag language of descriptions (thesis §5.2.5): `[DMG]` becomes a blueprint's damage,
//! `[#MAT]` the materials icon, `[$RNG]` "Range" followed by the range, `[BRK]` a paragraph break,
//! `[P%:bonus]` the item's parameter `bonus` as a percentage.
//!
//! This module parses descriptions into [`Segment`]s and knows which tags exist and which stats
//! they need. Turning segments into text with current values is the info panel's job.

use pest::Parser;

use self::grammar::{DescriptionParser, Rule};
use super::damage::DamageType;

/// The parser pest makes from the grammar, and its `Rule`s, kept out of the public API.
mod grammar {
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/description.pest"]
    pub(super) struct DescriptionParser;
}

/// Where a description is shown; attacker and blueprint tags differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Context {
    /// An attacker type's description.
    Attacker,
    /// A blueprint's description.
    Blueprint,
}

/// An icon a description can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    /// Fuel.
    Fuel,
    /// Materials.
    Materials,
    /// Energy.
    Energy,
    /// Hull.
    Hull,
    /// Range.
    Range,
    /// Damage.
    Damage,
    /// Interval between shots.
    Interval,
    /// Duration.
    Duration,
    /// Hit points.
    Hp,
    /// Radius.
    Radius,
    /// The "+" of production.
    Production,
    /// A damage type.
    DamageType(DamageType),
}

/// A blueprint statistic a tag shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlueprintStat {
    /// `[NAM]` the blueprint's name.
    Name,
    /// `[RNG]` range.
    Range,
    /// `[DMG]` damage per hit.
    Damage,
    /// `[DTL]` damage types as words.
    DamageTypes,
    /// `[DTI]` damage types as icons.
    DamageTypeIcons,
    /// `[INT]` interval.
    Interval,
    /// `[DPS]` damage per second, from damage and interval.
    DamagePerSecond,
    /// `[RAD]` radius.
    Radius,
    /// `[DEL]` delay.
    Delay,
    /// `[DUR]` duration, in ticks or waves, whichever is set.
    Duration,
    /// `[PRO]` all production (fuel, materials, energy).
    Production,
    /// `[SCD]` starting cooldown.
    StartingCooldown,
    /// `[CD]` cooldown.
    Cooldown,
    /// `[+CD]` "/ N waves" when the cooldown is positive.
    CooldownSuffix,
    /// `[FUE]` fuel production.
    FuelProduction,
    /// `[MAT]` material production.
    MaterialProduction,
    /// `[ENE]` energy production.
    EnergyProduction,
}

/// An attacker statistic a tag shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttackerStat {
    /// `[SIZ]` size.
    Size,
    /// `[SPD]` speed.
    Speed,
    /// `[HP]` current hit points.
    Hp,
    /// `[MHP]` maximum hit points.
    MaxHp,
    /// `[HP/M]` "current / maximum".
    HpOfMax,
}

/// How a parameter tag shows its number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamFormat {
    /// `[P:name]` the number as it is.
    Plain,
    /// `[P%:name]` a share as a percentage: 0.3 shows as 30%.
    Percent,
    /// `[Ps:name]` a count of ticks in seconds: 36 shows as 1.8s.
    Seconds,
}

/// A recognised tag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tag {
    /// `[BRK]` a line break with extra spacing.
    Break,
    /// `[#…]` an icon.
    Icon(Icon),
    /// A blueprint statistic; `named` when written with `$` ("Range 3.4" instead of "3.4").
    Blueprint {
        /// Which statistic.
        stat: BlueprintStat,
        /// Whether the stat's name precedes the value.
        named: bool,
    },
    /// An attacker statistic; `named` as for blueprints.
    Attacker {
        /// Which statistic.
        stat: AttackerStat,
        /// Whether the stat's name precedes the value.
        named: bool,
    },
    /// One of the item's `params`, so a description shows the value the item has even when a
    /// mod overrides it.
    Param {
        /// The parameter's name.
        name: String,
        /// How its number is shown.
        format: ParamFormat,
    },
}

/// A piece of a parsed description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment {
    /// Plain text.
    Text(String),
    /// A recognised tag; `offset` is its byte position in the description.
    Tag {
        /// The tag.
        tag: Tag,
        /// Byte offset of its `[` in the description.
        offset: usize,
    },
    /// Something tag-shaped that is not a tag in this context; shown as text, marked.
    Unknown {
        /// The text, brackets included.
        text: String,
        /// Byte offset of its `[` in the description.
        offset: usize,
    },
}

/// Splits a description into text and tags.
pub fn parse(description: &str, context: Context) -> Vec<Segment> {
    let Ok(mut pairs) = DescriptionParser::parse(Rule::description, description) else {
        // The grammar accepts every string; keep the text whole if that ever changes.
        return vec![Segment::Text(description.to_string())];
    };
    let mut segments = Vec::new();
    for pair in pairs.next().into_iter().flat_map(|p| p.into_inner()) {
        let offset = pair.as_span().start();
        match pair.as_rule() {
            Rule::text => segments.push(Segment::Text(pair.as_str().to_string())),
            Rule::tag => {
                let name = &pair.as_str()[1..pair.as_str().len() - 1];
                segments.push(match recognise(name, context) {
                    Some(tag) => Segment::Tag { tag, offset },
                    None => Segment::Unknown {
                        text: pair.as_str().to_string(),
                        offset,
                    },
                });
            }
            _ => {}
        }
    }
    segments
}

/// The tag named `name` (without brackets) in `context`, if it exists.
pub fn recognise(name: &str, context: Context) -> Option<Tag> {
    if let Some(icon) = name.strip_prefix('#') {
        return icon_tag(icon).map(Tag::Icon);
    }
    if name == "BRK" {
        return Some(Tag::Break);
    }
    for (prefix, format) in [
        ("P:", ParamFormat::Plain),
        ("P%:", ParamFormat::Percent),
        ("Ps:", ParamFormat::Seconds),
    ] {
        if let Some(param) = name.strip_prefix(prefix) {
            return Some(Tag::Param {
                name: param.to_string(),
                format,
            });
        }
    }
    let (named, stat) = match name.strip_prefix('$') {
        Some(rest) => (true, rest),
        None => (false, name),
    };
    match context {
        Context::Blueprint => blueprint_stat(stat).map(|stat| Tag::Blueprint { stat, named }),
        Context::Attacker => attacker_stat(stat).map(|stat| Tag::Attacker { stat, named }),
    }
}

fn icon_tag(name: &str) -> Option<Icon> {
    Some(match name {
        "FUE" => Icon::Fuel,
        "MAT" => Icon::Materials,
        "ENE" => Icon::Energy,
        "HUL" => Icon::Hull,
        "RNG" => Icon::Range,
        "DMG" => Icon::Damage,
        "INT" => Icon::Interval,
        "DUR" => Icon::Duration,
        "HP" => Icon::Hp,
        "RAD" => Icon::Radius,
        "+" => Icon::Production,
        "DMT-HPL" => Icon::DamageType(DamageType::HpLoss),
        "DMT-PHY" => Icon::DamageType(DamageType::Physical),
        "DMT-ENE" => Icon::DamageType(DamageType::Energy),
        "DMT-EXP" => Icon::DamageType(DamageType::Explosive),
        _ => return None,
    })
}

fn blueprint_stat(name: &str) -> Option<BlueprintStat> {
    use BlueprintStat::*;
    Some(match name {
        "NAM" => Name,
        "RNG" => Range,
        "DMG" => Damage,
        "DTL" => DamageTypes,
        "DTI" => DamageTypeIcons,
        "INT" => Interval,
        "DPS" => DamagePerSecond,
        "RAD" => Radius,
        "DEL" => Delay,
        "DUR" => Duration,
        "PRO" => Production,
        "SCD" => StartingCooldown,
        "CD" => Cooldown,
        "+CD" => CooldownSuffix,
        "FUE" => FuelProduction,
        "MAT" => MaterialProduction,
        "ENE" => EnergyProduction,
        _ => return None,
    })
}

fn attacker_stat(name: &str) -> Option<AttackerStat> {
    Some(match name {
        "SIZ" => AttackerStat::Size,
        "SPD" => AttackerStat::Speed,
        "HP" => AttackerStat::Hp,
        "MHP" => AttackerStat::MaxHp,
        "HP/M" => AttackerStat::HpOfMax,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_text_and_tags() {
        let segments = parse(
            "Deals [DMG] [#DMG] every [$INT].[BRK]Costs [#MAT].",
            Context::Blueprint,
        );
        assert_eq!(
            segments,
            vec![
                Segment::Text("Deals ".into()),
                Segment::Tag {
                    tag: Tag::Blueprint {
                        stat: BlueprintStat::Damage,
                        named: false
                    },
                    offset: 6
                },
                Segment::Text(" ".into()),
                Segment::Tag {
                    tag: Tag::Icon(Icon::Damage),
                    offset: 12
                },
                Segment::Text(" every ".into()),
                Segment::Tag {
                    tag: Tag::Blueprint {
                        stat: BlueprintStat::Interval,
                        named: true
                    },
                    offset: 25
                },
                Segment::Text(".".into()),
                Segment::Tag {
                    tag: Tag::Break,
                    offset: 32
                },
                Segment::Text("Costs ".into()),
                Segment::Tag {
                    tag: Tag::Icon(Icon::Materials),
                    offset: 43
                },
                Segment::Text(".".into()),
            ]
        );
    }

    #[test]
    fn parameter_tags_name_the_parameter_and_its_format() {
        for context in [Context::Blueprint, Context::Attacker] {
            let segments = parse("by [P%:bonus] for [Ps:idle_time], [P:max]x", context);
            let tags: Vec<Tag> = segments
                .into_iter()
                .filter_map(|s| match s {
                    Segment::Tag { tag, .. } => Some(tag),
                    _ => None,
                })
                .collect();
            let param = |name: &str, format| Tag::Param {
                name: name.into(),
                format,
            };
            assert_eq!(
                tags,
                vec![
                    param("bonus", ParamFormat::Percent),
                    param("idle_time", ParamFormat::Seconds),
                    param("max", ParamFormat::Plain),
                ]
            );
        }
        // Without a name, or with a format that does not exist, it is not a parameter tag.
        for text in ["[P:]", "[Px:bonus]", "[P bonus]"] {
            assert!(
                !parse(text, Context::Blueprint)
                    .iter()
                    .any(|s| matches!(s, Segment::Tag { .. })),
                "{text}"
            );
        }
    }

    #[test]
    fn context_decides_what_is_known() {
        assert!(matches!(
            parse("[HP/M]", Context::Attacker)[0],
            Segment::Tag { .. }
        ));
        assert!(matches!(
            parse("[HP/M]", Context::Blueprint)[0],
            Segment::Unknown { .. }
        ));
        assert!(matches!(
            parse("[+CD]", Context::Blueprint)[0],
            Segment::Tag { .. }
        ));
        assert!(matches!(
            parse("[#DMT-HPL]", Context::Attacker)[0],
            Segment::Tag { .. }
        ));
        assert_eq!(
            parse("[XYZ]", Context::Blueprint),
            vec![Segment::Unknown {
                text: "[XYZ]".into(),
                offset: 0
            }]
        );
    }

    #[test]
    fn brackets_that_are_not_tags_stay_text() {
        assert_eq!(
            parse("a [b c] [", Context::Blueprint),
            vec![Segment::Text("a [b c] [".into())]
        );
        assert!(parse("", Context::Blueprint).is_empty());
    }
}
