//! Checks on loaded content that types alone cannot express, each reported at the file and
//! position of the field at fault.

use std::collections::BTreeMap;

use super::augments::Augment;
use super::description::{self, BlueprintStat, Context, ParamFormat, Segment, Tag};
use super::events::{self, Event, Outcome};
use super::load::Item;
use super::model::{self, Looks};
use super::sounds::Known;
use super::{
    AttackerType, Behaviour, Blueprint, Param, Placement, Projectile, Rarity, ScriptRef, Shape,
    Targets,
};
use crate::diagnostics::{Diagnostic, Diagnostics, closest, did_you_mean};

/// The largest number a content file may give a cost, health, speed or other amount: far beyond
/// any balance (a finite 1e308 would overflow the sums the battle makes with it).
pub const MAX_NUMBER: f64 = 1e9;

/// The most attackers one entry of `spawns_on_death` may release.
pub const MAX_SPAWN_COUNT: u32 = 100;

/// Collects the problems of one item.
pub(super) struct Checker<'a, T> {
    /// The item checked.
    pub item: &'a Item<T>,
    diagnostics: &'a mut Diagnostics,
    /// The errors reported so far (warnings are not counted).
    pub errors: usize,
}

impl<'a, T> Checker<'a, T> {
    pub(super) fn new(item: &'a Item<T>, diagnostics: &'a mut Diagnostics) -> Self {
        Checker {
            item,
            diagnostics,
            errors: 0,
        }
    }

    pub(super) fn report(&mut self, d: Diagnostic) {
        if d.is_error() {
            self.errors += 1;
        }
        self.diagnostics.push(d);
    }

    /// An error at the field `field` of whichever file set it last.
    fn field_error(&mut self, field: &str, message: String, help: Option<String>) {
        let (source, at) = self.item.locate(field);
        let mut d = Diagnostic::error(message)
            .at(&source.file, at, field.len())
            .for_mod(source.mod_id.clone());
        if let Some(h) = help {
            d = d.help(h);
        }
        self.report(d);
    }

    /// An error at the field at `path` (`tune.voices[1].notes`) of whichever file has it last.
    pub(super) fn path_error(&mut self, path: &str, message: String) {
        let (source, at) = self.item.locate_path(path);
        let len = path.rsplit(['.', ']']).next().map_or(1, str::len);
        let d = Diagnostic::error(message)
            .at(&source.file, at, len)
            .for_mod(source.mod_id.clone());
        self.report(d);
    }

    /// Resolves the sounds of an item's `sounds` in place, each named by its field there and
    /// written by the mod of the file that has it; one that is not there to play becomes
    /// `None`, each problem reported.
    fn sounds<const N: usize>(&mut self, slots: [(&str, &mut Option<String>); N], known: Known) {
        for (field, slot) in slots {
            let Some(reference) = slot.take() else {
                continue;
            };
            let (source, at) = self.item.locate_value(field, &reference);
            match known.reference(&reference, &source.mod_id, &source.file, at) {
                Ok(id) => *slot = id,
                Err(d) => self.report(d),
            }
        }
    }

    /// A warning at the field `field` of whichever file set it last.
    fn field_warning(&mut self, field: &str, message: String) {
        let (source, at) = self.item.locate(field);
        let d = Diagnostic::warning(message)
            .at(&source.file, at, field.len())
            .for_mod(source.mod_id.clone());
        self.report(d);
    }

    /// An error at the string `value` written for `field`.
    fn value_error(&mut self, field: &str, value: &str, message: String, help: Option<String>) {
        let (source, at) = self.item.locate_value(field, value);
        let mut d = Diagnostic::error(message)
            .at(&source.file, at, value.len() + 2)
            .for_mod(source.mod_id.clone());
        if let Some(h) = help {
            d = d.help(h);
        }
        self.report(d);
    }

    /// An error at the first place `text` is written in the last file that has it (or at the
    /// start of the item's file).
    fn text_error(&mut self, text: &str, message: String) {
        let sources = &self.item.sources;
        let (source, at) = sources
            .iter()
            .rev()
            .find_map(|s| s.file.text.find(text).map(|at| (s, at)))
            .unwrap_or((&sources[0], 0));
        let d = Diagnostic::error(message)
            .at(&source.file, at, text.len())
            .for_mod(source.mod_id.clone());
        self.report(d);
    }

    fn positive(&mut self, field: &str, value: f64) {
        if value > MAX_NUMBER {
            self.too_large(field, value);
        } else if !(value.is_finite() && value > 0.0) {
            self.field_error(
                field,
                format!("`{field}` must be a positive number, not {value}"),
                None,
            );
        }
    }

    fn too_large(&mut self, field: &str, value: f64) {
        self.field_error(
            field,
            format!("`{field}` is {value}, more than the largest number content may use"),
            Some(format!("at most {MAX_NUMBER}")),
        );
    }

    fn non_negative(&mut self, field: &str, value: f64) {
        if value > MAX_NUMBER {
            self.too_large(field, value);
        } else if !(value.is_finite() && value >= 0.0) {
            self.field_error(
                field,
                format!("`{field}` cannot be negative ({value})"),
                None,
            );
        }
    }

    fn positive_opt(&mut self, field: &str, value: Option<f64>) {
        if let Some(v) = value {
            if v == 0.0 {
                self.field_error(
                    field,
                    format!(
                        "`{field}` is 0; leave the field out when the blueprint does not use it"
                    ),
                    None,
                );
            } else {
                self.positive(field, v);
            }
        }
    }

    fn name(&mut self, name: &str) {
        if name.trim().is_empty() {
            self.field_error("name", "`name` cannot be empty".into(), None);
        }
    }

    /// Resolves the script path to the mod of the file that set it, and checks it exists.
    fn script(
        &mut self,
        path: Option<&str>,
        exists: &dyn Fn(&ScriptRef) -> bool,
    ) -> Option<ScriptRef> {
        let path = path?;
        let (source, _) = self.item.locate("script");
        let script = ScriptRef {
            mod_id: source.mod_id.clone(),
            path: path.to_string(),
        };
        let inside = path.starts_with("scripts/")
            && path.ends_with(".lua")
            && !path.split('/').any(|s| s == ".." || s.is_empty());
        if !inside {
            self.value_error(
                "script",
                path,
                format!("`{path}` is not a script path"),
                Some(
                    "scripts live in the mod's scripts/ folder: write \"scripts/name.lua\"".into(),
                ),
            );
        } else if !exists(&script) {
            self.value_error(
                "script",
                path,
                format!("mod `{}` has no script `{path}`", script.mod_id),
                None,
            );
        }
        Some(script)
    }

    /// Checks the tags of every description; `has` tells whether a tag's statistic exists.
    fn descriptions(
        &mut self,
        field: &str,
        descriptions: &[String],
        context: Context,
        has: &dyn Fn(&Tag) -> Result<(), Missing>,
    ) {
        for text in descriptions {
            for segment in description::parse(text, context) {
                let (tag_text, offset, problem) = match &segment {
                    Segment::Unknown { text: tag, offset } => (tag.clone(), *offset, None),
                    Segment::Tag { tag, offset } => match has(tag) {
                        Ok(()) => continue,
                        Err(missing) => (
                            text[*offset..]
                                .split_inclusive(']')
                                .next()
                                .unwrap_or("")
                                .to_string(),
                            *offset,
                            Some(missing),
                        ),
                    },
                    Segment::Text(_) => continue,
                };
                let (source, at) = self.item.locate_value(field, text);
                let d = match problem {
                    None => Diagnostic::warning(format!(
                        "unknown description tag {tag_text}; it will show as plain text"
                    ))
                    .help(known_tag_hint(&tag_text, context)),
                    Some(missing) => {
                        let d = Diagnostic::error(format!(
                            "{tag_text} shows the {}, which this {} does not have",
                            missing.what,
                            context_noun(context)
                        ));
                        match missing.help {
                            Some(help) => d.help(help),
                            None => d,
                        }
                    }
                };
                let d = d
                    .at(&source.file, at + 1 + offset, tag_text.len())
                    .for_mod(source.mod_id.clone());
                self.report(d);
            }
        }
    }
}

/// What a description tag shows that its item does not have, and a hint.
struct Missing {
    what: String,
    help: Option<String>,
}

impl From<&'static str> for Missing {
    fn from(what: &'static str) -> Self {
        Missing {
            what: what.into(),
            help: None,
        }
    }
}

/// Whether a parameter tag names one of the item's `params`, and a number where its format
/// needs one.
fn param_has(
    params: &BTreeMap<String, Param>,
    name: &str,
    format: ParamFormat,
) -> Result<(), Missing> {
    match params.get(name) {
        Some(Param::Text(_)) if format != ParamFormat::Plain => Err(Missing {
            what: format!("parameter `{name}` as a number"),
            help: Some(format!("`{name}` is a text; show it with [P:{name}]")),
        }),
        Some(_) => Ok(()),
        None => Err(Missing {
            what: format!("parameter `{name}`"),
            help: Some(match closest(name, params.keys().map(String::as_str)) {
                Some(best) => format!("did you mean `{best}`? The parameters are its `params`"),
                None if params.is_empty() => "it has no `params`".into(),
                None => format!(
                    "its parameters are {}",
                    params
                        .keys()
                        .map(|k| format!("`{k}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            }),
        }),
    }
}

fn context_noun(context: Context) -> &'static str {
    match context {
        Context::Attacker => "attacker type",
        Context::Blueprint => "blueprint",
    }
}

const BLUEPRINT_TAGS: &[&str] = &[
    "NAM", "RNG", "DMG", "DTL", "DTI", "INT", "DPS", "RAD", "DEL", "DUR", "PRO", "SCD", "CD",
    "+CD", "FUE", "MAT", "ENE",
];
const ATTACKER_TAGS: &[&str] = &["SIZ", "SPD", "HP", "MHP", "HP/M"];
const ICON_TAGS: &[&str] = &[
    "#FUE", "#MAT", "#ENE", "#HUL", "#RNG", "#DMG", "#INT", "#DUR", "#HP", "#RAD", "#+",
    "#DMT-HPL", "#DMT-PHY", "#DMT-ENE", "#DMT-EXP", "BRK",
];

fn known_tag_hint(tag: &str, context: Context) -> String {
    let name = tag.trim_start_matches('[').trim_end_matches(']');
    let stats = match context {
        Context::Attacker => ATTACKER_TAGS,
        Context::Blueprint => BLUEPRINT_TAGS,
    };
    let all = stats.iter().chain(ICON_TAGS).copied();
    match closest(name.trim_start_matches('$'), all) {
        Some(best) => {
            format!("did you mean [{best}]? Tags are listed in docs/modding/descriptions.md")
        }
        None => "tags are listed in docs/modding/descriptions.md".into(),
    }
}

/// Validates an attacker type; returns it (with references resolved) if it has no errors.
pub(super) fn attacker(
    mut item: Item<AttackerType>,
    attacker_ids: &[String],
    script_exists: &dyn Fn(&ScriptRef) -> bool,
    known: Known,
    looks: &Looks,
    diagnostics: &mut Diagnostics,
) -> Option<AttackerType> {
    let v = item.value.clone();
    let mut c = Checker::new(&item, diagnostics);
    c.name(&v.name);
    c.positive("max_health", v.max_health);
    c.positive("speed", v.speed);
    c.positive("min_spacing", v.min_spacing);
    c.positive("value", v.value);
    c.non_negative("weight", v.weight);
    let script = c.script(v.script.as_deref(), script_exists);

    // Spawned attackers: short names belong to the mod of the file that listed them.
    let (spawn_source, _) = c.item.locate("spawns_on_death");
    let spawn_mod = spawn_source.mod_id.clone();
    let mut spawns = v.spawns_on_death.clone();
    for spawn in &mut spawns {
        let full = if spawn.attacker.contains(':') {
            spawn.attacker.clone()
        } else {
            format!("{spawn_mod}:{}", spawn.attacker)
        };
        if !attacker_ids.contains(&full) {
            let help = did_you_mean(&full, attacker_ids.iter().map(String::as_str));
            c.value_error(
                "attacker",
                &spawn.attacker,
                format!("there is no attacker type `{full}`"),
                help,
            );
        }
        if spawn.count == 0 || spawn.count > MAX_SPAWN_COUNT {
            c.field_error(
                "count",
                format!("a spawn `count` must be from 1 to {MAX_SPAWN_COUNT}"),
                None,
            );
        }
        spawn.attacker = full;
    }
    c.descriptions(
        "descriptions",
        &v.descriptions,
        Context::Attacker,
        &|tag| match tag {
            Tag::Param { name, format } => param_has(&v.params, name, *format),
            _ => Ok(()),
        },
    );
    let mut sounds = v.sounds.clone();
    c.sounds(sounds.slots_mut(), known);
    let errors = c.errors;
    if errors > 0 {
        return None;
    }
    item.value.model = model::check(&item, looks, diagnostics);
    item.value.spawns_on_death = spawns;
    item.value.script_ref = script;
    item.value.sounds = sounds;
    Some(item.value)
}

/// Checks an augment: a name and description, an offered rarity, something to change (changes
/// or a script), factors in (0, 10], a script that exists.
pub(super) fn augment(
    mut item: Item<Augment>,
    script_exists: &dyn Fn(&ScriptRef) -> bool,
    diagnostics: &mut Diagnostics,
) -> Option<Augment> {
    let v = item.value.clone();
    let mut c = Checker::new(&item, diagnostics);
    c.name(&v.name);
    if v.description.trim().is_empty() {
        c.field_error(
            "description",
            "`description` must not be empty".into(),
            None,
        );
    }
    if !matches!(v.rarity, Rarity::Common | Rarity::Rare | Rarity::Legendary) {
        c.field_error(
            "rarity",
            format!(
                "an augment is Common, Rare or Legendary, not {:?}",
                v.rarity
            ),
            None,
        );
    }
    if v.changes.is_empty() && v.script.is_none() {
        c.field_error(
            "changes",
            "an augment needs `changes`, a `script`, or both".into(),
            None,
        );
    }
    for change in &v.changes {
        if let Some(f) = change.factor()
            && !(f.is_finite() && f > 0.0 && f <= 10.0)
        {
            c.field_error(
                "changes",
                format!("a change's factor must be above 0 and at most 10, not {f} ({change:?})"),
                None,
            );
        }
    }
    let script = c.script(v.script.as_deref(), script_exists);
    if c.errors > 0 {
        return None;
    }
    item.value.script_ref = script;
    Some(item.value)
}

/// Checks an event: text to show, one to [`MAX_CHOICES`](super::events::MAX_CHOICES) choices,
/// chances from 0 to 1, amounts within bounds, and blueprints that exist and can be held.
pub(super) fn event(
    mut item: Item<Event>,
    blueprint_of: &dyn Fn(&str) -> Option<(Rarity, bool)>,
    blueprint_ids: &[&str],
    script_exists: &dyn Fn(&ScriptRef) -> bool,
    diagnostics: &mut Diagnostics,
) -> Option<Event> {
    let v = item.value.clone();
    let mut c = Checker::new(&item, diagnostics);
    if v.title.trim().is_empty() {
        c.field_error("title", "`title` must not be empty".into(), None);
    }
    if v.text.trim().is_empty() {
        c.field_error("text", "`text` must not be empty".into(), None);
    }
    c.non_negative("weight", v.weight);
    if v.from_act == 0 || v.to_act.is_some_and(|to| to < v.from_act) {
        c.field_error(
            "from_act",
            "acts count from 1, and `to_act` may not come before `from_act`".into(),
            None,
        );
    }
    if v.choices.is_empty() || v.choices.len() > events::MAX_CHOICES {
        c.field_error(
            "choices",
            format!(
                "an event needs from 1 to {} choices, not {}",
                events::MAX_CHOICES,
                v.choices.len()
            ),
            None,
        );
    }
    for choice in &v.choices {
        if choice.text.trim().is_empty() {
            c.field_error("text", "a choice's `text` must not be empty".into(), None);
        }
        if !(0.0..=1.0).contains(&choice.chance) {
            c.field_error(
                "chance",
                format!("`chance` must be from 0 to 1, not {}", choice.chance),
                None,
            );
        }
        for outcome in choice.outcomes.iter().chain(&choice.otherwise) {
            match outcome {
                Outcome::Money(m) if m.unsigned_abs() > 1_000_000 => c.field_error(
                    "Money",
                    format!("`Money` must be from -1000000 to 1000000, not {m}"),
                    None,
                ),
                Outcome::Hull(h) if !(h.is_finite() && h.abs() <= 1000.0) => c.field_error(
                    "Hull",
                    format!("`Hull` must be from -1000 to 1000, not {h}"),
                    None,
                ),
                Outcome::Blueprint(Rarity::Starter) => c.text_error(
                    "Blueprint(Starter)",
                    "starter blueprints are never given: use Common, Rare, Legendary or Special"
                        .into(),
                ),
                Outcome::GiveBlueprint(id) => match blueprint_of(id) {
                    None => c.value_error(
                        "GiveBlueprint",
                        id,
                        format!("there is no blueprint `{id}`"),
                        did_you_mean(id, blueprint_ids.iter().copied()),
                    ),
                    Some((_, true)) => c.value_error(
                        "GiveBlueprint",
                        id,
                        format!("`{id}` is placed by the game and cannot be given"),
                        None,
                    ),
                    Some(_) => {}
                },
                _ => {}
            }
        }
    }
    let script = c.script(v.script.as_deref(), script_exists);
    if c.errors > 0 {
        return None;
    }
    item.value.script_ref = script;
    Some(item.value)
}

/// Whether a blueprint has what a statistic tag shows; `Err` names what is missing.
fn blueprint_has(bp: &Blueprint, stat: BlueprintStat) -> Result<(), &'static str> {
    use BlueprintStat::*;
    let ok = match stat {
        Name | StartingCooldown | Cooldown | CooldownSuffix => true,
        Range => bp.range.is_some(),
        Damage => bp.damage.is_some(),
        DamageTypes | DamageTypeIcons => !bp.damage_type.is_empty(),
        Interval => bp.interval.is_some(),
        DamagePerSecond => bp.damage.is_some() && bp.interval.is_some(),
        Radius => bp.radius.is_some(),
        Delay => bp.delay.is_some(),
        Duration => bp.duration_ticks.is_some() || bp.duration_waves.is_some(),
        Production => {
            bp.fuel_production.is_some()
                || bp.material_production.is_some()
                || bp.energy_production.is_some()
        }
        FuelProduction => bp.fuel_production.is_some(),
        MaterialProduction => bp.material_production.is_some(),
        EnergyProduction => bp.energy_production.is_some(),
    };
    if ok {
        return Ok(());
    }
    Err(match stat {
        Range => "range",
        Damage => "damage",
        DamageTypes | DamageTypeIcons => "damage type",
        Interval => "interval",
        DamagePerSecond => "damage and interval",
        Radius => "radius",
        Delay => "delay",
        Duration => "duration (ticks or waves)",
        Production => "production",
        FuelProduction => "fuel production",
        MaterialProduction => "material production",
        EnergyProduction => "energy production",
        Name | StartingCooldown | Cooldown | CooldownSuffix => "statistic",
    })
}

/// Validates a blueprint; returns it (with references resolved) if it has no errors.
pub(super) fn blueprint(
    mut item: Item<Blueprint>,
    script_exists: &dyn Fn(&ScriptRef) -> bool,
    known: Known,
    looks: &Looks,
    diagnostics: &mut Diagnostics,
) -> Option<Blueprint> {
    let v = item.value.clone();
    let mut c = Checker::new(&item, diagnostics);
    c.name(&v.name);
    c.non_negative("materials", v.cost.materials);
    c.non_negative("energy", v.cost.energy);
    c.positive_opt("range", v.range);
    c.positive_opt("radius", v.radius);
    c.positive_opt("damage", v.damage);
    for (field, ticks) in [
        ("interval", v.interval),
        ("delay", v.delay),
        ("duration_ticks", v.duration_ticks),
        ("duration_waves", v.duration_waves),
    ] {
        c.positive_opt(field, ticks.map(f64::from));
    }
    c.positive_opt("fuel_production", v.fuel_production);
    c.positive_opt("material_production", v.material_production);
    c.positive_opt("energy_production", v.energy_production);
    match (v.damage.is_some(), v.damage_type.is_empty()) {
        (true, true) => c.field_error(
            "damage",
            "a blueprint with `damage` needs a `damage_type`".into(),
            Some("for example `damage_type: [Physical]`".into()),
        ),
        (false, false) => c.field_error(
            "damage_type",
            "`damage_type` is set but there is no `damage`".into(),
            None,
        ),
        _ => {}
    }
    if v.duration_ticks.is_some() && v.duration_waves.is_some() {
        c.field_error(
            "duration_waves",
            "set either `duration_ticks` or `duration_waves`, not both".into(),
            None,
        );
    }
    if v.kind.is_building() && matches!(v.placement, Some(Placement::Surface { .. })) {
        c.field_error(
            "placement",
            "buildings are placed on tiles; `Surface` placement is for abilities".into(),
            Some("use `Tile(...)`".into()),
        );
    }
    for entry in &v.stats_to_display {
        let name = entry.trim_start_matches('[').trim_end_matches(']');
        match description::recognise(name, Context::Blueprint) {
            Some(Tag::Blueprint { stat, .. }) => {
                if let Err(missing) = blueprint_has(&v, stat) {
                    c.value_error(
                        "stats_to_display",
                        entry,
                        format!(
                            "`{entry}` shows the {missing}, which this blueprint does not have"
                        ),
                        None,
                    );
                }
            }
            _ => c.value_error(
                "stats_to_display",
                entry,
                format!("`{entry}` is not a blueprint statistic tag"),
                Some(format!("use one of: ${}", BLUEPRINT_TAGS.join(", $"))),
            ),
        }
    }
    let has = |tag: &Tag| match tag {
        Tag::Blueprint { stat, .. } => blueprint_has(&v, *stat).map_err(Missing::from),
        Tag::Param { name, format } => param_has(&v.params, name, *format),
        _ => Ok(()),
    };
    c.descriptions("descriptions", &v.descriptions, Context::Blueprint, &has);
    if let Some(behaviour) = &v.behaviour {
        check_behaviour(&mut c, behaviour, &v);
    }
    let script = c.script(v.script.as_deref(), script_exists);
    let mut sounds = v.sounds.clone();
    unplayed_sounds(&mut c, &v);
    c.sounds(sounds.slots_mut(), known);
    if c.errors > 0 {
        return None;
    }
    item.value.model = model::check(&item, looks, diagnostics);
    item.value.script_ref = script;
    item.value.sounds = sounds;
    Some(item.value)
}

/// Warns of a blueprint's sounds that nothing it does would play.
fn unplayed_sounds(c: &mut Checker<'_, Blueprint>, bp: &Blueprint) {
    let building = bp.kind.is_building();
    let fires = matches!(bp.behaviour, Some(Behaviour::Shooter(_) | Behaviour::Blast));
    let mut sounds = bp.sounds.clone();
    let plays = [
        (building, "only buildings are placed"),
        (fires, "only a `Shooter` fires, and only a `Blast` lands"),
        (!building, "only abilities are used"),
        (building, "only buildings are sold or destroyed"),
    ];
    for ((field, slot), (played, why)) in sounds.slots_mut().into_iter().zip(plays) {
        if slot.is_some() && !played {
            c.field_warning(
                field,
                format!("`sounds.{field}` never plays for this blueprint: {why}"),
            );
        }
    }
}

/// A behaviour needs the statistics it runs on, and sensible numbers.
fn check_behaviour(c: &mut Checker<'_, Blueprint>, behaviour: &Behaviour, bp: &Blueprint) {
    let mut needs = |stat: &str, present: bool, why: &str| {
        if !present {
            c.field_error(
                "behaviour",
                format!("this behaviour needs `{stat}` ({why})"),
                None,
            );
        }
    };
    match behaviour {
        Behaviour::Blast => {
            needs("radius", bp.radius.is_some(), "how far the blast reaches");
            needs("damage", bp.damage.is_some(), "what the blast deals");
        }
        Behaviour::Shooter(s) => {
            needs("range", bp.range.is_some(), "how far it reaches");
            needs("damage", bp.damage.is_some(), "what each hit deals");
            needs("interval", bp.interval.is_some(), "ticks between shots");
            if matches!(
                s.projectile,
                Projectile::Ballistic { .. } | Projectile::Chain { .. }
            ) {
                needs("radius", bp.radius.is_some(), "the area of its hits");
            }
            let bad = match s.projectile {
                Projectile::Straight { speed } | Projectile::Homing { speed }
                    if !(speed.is_finite() && speed > 0.0) =>
                {
                    Some("a projectile's `speed` must be positive")
                }
                Projectile::Ballistic { flight: 0 } => {
                    Some("a shell's `flight` must be at least one tick")
                }
                Projectile::Chain { falloff, .. } if !(0.0..=1.0).contains(&falloff) => {
                    Some("a chain's `falloff` must be between 0 and 1")
                }
                _ => None,
            };
            let bad = bad.or(match s.targets {
                Targets::Best(0) => Some("`targets` must be at least 1"),
                _ => None,
            });
            let bad = bad.or((!(s.muzzle_height.is_finite() && s.muzzle_height >= 0.0))
                .then_some("`muzzle_height` cannot be negative"));
            let bad = bad.or(shape_problem(&s.shape));
            if let Some(message) = bad {
                c.field_error("behaviour", message.to_string(), None);
            }
        }
    }
}

fn shape_problem(shape: &Shape) -> Option<&'static str> {
    let positive = |v: f64| v.is_finite() && v > 0.0;
    match shape {
        Shape::Cylinder { radius, height } => (!positive(*radius)
            || height.is_some_and(|h| !positive(h)))
        .then_some("a cylinder needs a positive radius and height"),
        Shape::Box {
            forward,
            back,
            side,
        } => {
            (!positive(*side) || !forward.is_finite() || !back.is_finite() || forward + back <= 0.0)
                .then_some("a box needs a positive side and length")
        }
        Shape::Ray { width } => (!positive(*width)).then_some("a ray needs a positive width"),
        Shape::Union(parts) | Shape::Intersection(parts) => {
            if parts.is_empty() {
                Some("a union or intersection needs at least one shape")
            } else {
                parts.iter().find_map(shape_problem)
            }
        }
        Shape::Difference(a, b) => shape_problem(a).or(shape_problem(b)),
    }
}
