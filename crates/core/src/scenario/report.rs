//! What a scenario's battle did: the report `rampart try` prints, and writes as JSON with
//! `--json` (its shape is documented in `docs/modding/scenarios.md`). Maps are sorted, so the
//! same battle gives the same report, byte for byte, unless the scripts' wall time was measured.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;

use super::format::Stat;
use crate::battle::CostReport;
use crate::battle::Storage;
use crate::content::describe::number;

/// Scripts the text report lists by cost (the JSON has them all).
const SCRIPTS_SHOWN: usize = 5;

/// Everything a scenario's battle did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// The scenario's name.
    pub scenario: String,
    /// Ticks run.
    pub ticks: u64,
    /// Why it stopped.
    pub end: End,
    /// Waves planned, started and ended.
    pub waves: Waves,
    /// Hull at the start and the end.
    pub hull: Hull,
    /// The player's resources at the end.
    pub resources: Resources,
    /// Every building and ability that appeared (the Hub aside), in the order they did.
    pub buildings: Vec<BuildingReport>,
    /// Every attacker type that came, by id.
    pub attackers: Vec<AttackerReport>,
    /// Actions that were not carried out, with the reason.
    pub refused: Vec<Refused>,
    /// Actions whose time never came.
    pub not_done: Vec<String>,
    /// Every script error, once each with how many times it happened.
    pub script_errors: Vec<ScriptErrorReport>,
    /// Scripts switched off for too many errors, as the battle said it.
    pub scripts_switched_off: Vec<String>,
    /// What each mod has in its storage at the end, by mod id.
    pub storage: BTreeMap<String, Storage>,
    /// What the scripts cost: every mod and every script that was called, most instructions
    /// first (wall times are 0 unless they were measured).
    pub script_cost: CostReport,
    /// The scenario's expectations, checked.
    pub expectations: Vec<Checked>,
    /// Whether every expectation holds.
    pub passed: bool,
}

/// The most characters of a mod's storage the text report shows.
const SHOWN_STORAGE: usize = 300;

/// Why a scenario's battle stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// Every wave ended and every timed action was done.
    WavesDone,
    /// The fuel goal was reached.
    Won,
    /// The hull ran out.
    Lost,
    /// It ran as many ticks as it may.
    TimeUp,
}

/// Waves planned, started and ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Waves {
    /// In the scenario.
    pub planned: u32,
    /// Started.
    pub started: u32,
    /// Ended.
    pub ended: u32,
}

/// Hull at the start and the end.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Hull {
    /// At the start.
    pub start: f64,
    /// At the end.
    pub end: f64,
}

/// An amount of each resource.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Resources {
    /// Materials.
    pub materials: f64,
    /// Energy.
    pub energy: f64,
    /// Fuel.
    pub fuel: f64,
}

/// What one building or ability did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BuildingReport {
    /// Its blueprint, `mod:name`.
    pub blueprint: String,
    /// `"building"` or `"ability"`.
    pub kind: &'static str,
    /// The tile a building stood on.
    pub tile: Option<[i32; 2]>,
    /// Where it stood or was used.
    pub position: [f64; 2],
    /// The tick it appeared.
    pub from_tick: u64,
    /// The first tick it was gone, if it went.
    pub until_tick: Option<u64>,
    /// Times it fired (`tower_fired`).
    pub shots: u32,
    /// Hits that dealt damage.
    pub hits: u32,
    /// Attackers its hits killed.
    pub kills: u32,
    /// Damage dealt, all types.
    pub damage: f64,
    /// Damage dealt by hits carrying each type (a hit of two types counts for both).
    pub damage_by_type: BTreeMap<String, f64>,
    /// Hit points it gave back.
    pub healing: f64,
    /// Resources it produced.
    pub produced: Resources,
    /// Effects it applied, by name.
    pub effects: BTreeMap<String, Applied>,
    /// Its statistics as queried, by query name.
    pub stats: BTreeMap<String, StatReport>,
}

/// One effect applied, added up over its applications.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Applied {
    /// Applications.
    pub times: u32,
    /// Ticks given, over the applications lasting ticks.
    pub ticks: u64,
    /// Waves given, over those lasting waves.
    pub waves: u64,
    /// Shots given, over those lasting shots.
    pub shots: u64,
}

/// A statistic as queried through its chain while the building stood.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct StatReport {
    /// Just after it was placed.
    pub start: f64,
    /// At the end, or last before it went.
    pub end: f64,
    /// The lowest it was.
    pub lowest: f64,
    /// The highest it was.
    pub highest: f64,
}

/// What one attacker type did and had done to it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackerReport {
    /// The type, `mod:name`.
    pub attacker: String,
    /// How many came.
    pub came: u32,
    /// How many were killed.
    pub killed: u32,
    /// How many reached the Hub.
    pub leaked: u32,
    /// How many were alive at the end.
    pub alive: u32,
    /// How many were taken away when their wave stalled.
    pub taken_away: u32,
    /// Hull they took.
    pub hull_taken: f64,
    /// Damage they took.
    pub damage_taken: f64,
    /// Their speed, in tiles per second.
    pub speed: Speed,
    /// Effects put on them, by name.
    pub effects: BTreeMap<String, Received>,
}

/// An attacker type's speed: as written, and as queried every tick they were alive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Speed {
    /// The type's speed as written.
    pub base: f64,
    /// The lowest queried.
    pub slowest: f64,
    /// The average over every tick of every one of them.
    pub average: f64,
}

/// An effect put on an attacker type.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Received {
    /// Applications.
    pub times: u32,
    /// Ticks they spent under it, added up over the attackers.
    pub ticks: u64,
}

/// An action that was not carried out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Refused {
    /// The tick it was refused at.
    pub tick: u64,
    /// The action in words.
    pub action: String,
    /// Why, in the battle's words.
    pub reason: String,
}

/// A script error, with where it happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScriptErrorReport {
    /// The mod whose script failed.
    pub mod_id: String,
    /// The script, relative to its mod's folder, if known.
    pub file: Option<String>,
    /// The line, if known.
    pub line: Option<usize>,
    /// What went wrong.
    pub message: String,
    /// How many times it happened.
    pub times: u32,
    /// All of it in one line, as the game shows it.
    pub text: String,
}

/// An expectation, checked.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Checked {
    /// The expectation in words.
    pub expectation: String,
    /// The number measured, if the expectation measures one.
    pub measured: Option<f64>,
    /// Why nothing could be measured, if so (the expectation then fails).
    pub problem: Option<String>,
    /// Whether it holds.
    pub passed: bool,
}

impl Report {
    /// The expectations that do not hold.
    pub fn failures(&self) -> impl Iterator<Item = &Checked> {
        self.expectations.iter().filter(|c| !c.passed)
    }

    /// The report as JSON, for tools.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report serialises")
    }

    /// The report for a terminal, a few lines per building and attacker type.
    pub fn text(&self) -> String {
        let mut out = format!("{}\n", self.scenario);
        let end = match self.end {
            End::WavesDone => "every wave ended",
            End::Won => "the battle was won",
            End::Lost => "the battle was lost",
            End::TimeUp => "the time was up",
        };
        let waves = match self.end {
            End::WavesDone => String::new(),
            _ => format!(
                ", {} of {} waves ended",
                self.waves.ended, self.waves.planned
            ),
        };
        let _ = writeln!(
            out,
            "{end} after {} s ({} ticks){waves}; hull {} → {}",
            number(self.ticks as f64 / crate::TICKS_PER_SECOND as f64),
            self.ticks,
            number(self.hull.start),
            number(self.hull.end),
        );
        for b in &self.buildings {
            building_text(&mut out, b);
        }
        for a in &self.attackers {
            attacker_text(&mut out, a);
        }
        for r in &self.refused {
            let _ = writeln!(
                out,
                "refused at tick {}: {}: {}",
                r.tick, r.action, r.reason
            );
        }
        for n in &self.not_done {
            let _ = writeln!(out, "not done: {n}");
        }
        errors_text(&mut out, self);
        for (mod_id, storage) in &self.storage {
            let mut shown = storage.to_string();
            if let Some((cut, _)) = shown.char_indices().nth(SHOWN_STORAGE) {
                shown.truncate(cut);
                let _ = write!(shown, "… ({} bytes; --json has it all)", storage.size());
            }
            let _ = writeln!(out, "storage of `{mod_id}` at the end: {shown}");
        }
        let mut cost = self.script_cost.clone();
        cost.more_scripts += cost.scripts.len().saturating_sub(SCRIPTS_SHOWN);
        cost.scripts.truncate(SCRIPTS_SHOWN);
        let _ = writeln!(out, "{cost}");
        for c in &self.expectations {
            let _ = writeln!(out, "{}", c.line());
        }
        out
    }
}

impl Checked {
    /// `ok: …` or `FAILED: …`, with the number measured.
    pub fn line(&self) -> String {
        let verdict = if self.passed { "ok" } else { "FAILED" };
        match (&self.problem, self.measured) {
            (Some(p), _) => format!("{verdict}: {}: {p}", self.expectation),
            (None, Some(m)) => format!("{verdict}: {} (measured {})", self.expectation, number(m)),
            (None, None) => format!("{verdict}: {}", self.expectation),
        }
    }
}

/// "1 shot", "2 shots".
fn count(n: impl Into<f64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{} {}", number(n), if n == 1.0 { one } else { many })
}

fn building_text(out: &mut String, b: &BuildingReport) {
    let place = match b.tile {
        Some([x, y]) => format!("on ({x}, {y})"),
        None => format!("at ({}, {})", number(b.position[0]), number(b.position[1])),
    };
    let used = if b.kind == "ability" {
        "used"
    } else {
        "placed"
    };
    let until = b
        .until_tick
        .map_or(String::new(), |t| format!(", gone at tick {t}"));
    let _ = writeln!(
        out,
        "{} {place}, {used} at tick {}{until}",
        b.blueprint, b.from_tick
    );
    let mut damage = format!(
        "  {}, {}, {}, {} damage",
        count(b.shots, "shot", "shots"),
        count(b.hits, "hit", "hits"),
        count(b.kills, "kill", "kills"),
        number(b.damage)
    );
    if !b.damage_by_type.is_empty() {
        let types: Vec<String> = b
            .damage_by_type
            .iter()
            .map(|(t, d)| format!("{t} {}", number(*d)))
            .collect();
        let _ = write!(damage, " ({})", types.join(", "));
    }
    let _ = writeln!(out, "{damage}");
    if b.healing > 0.0 {
        let _ = writeln!(out, "  healed {} HP", number(b.healing));
    }
    let p = b.produced;
    let produced: Vec<String> = [
        (p.materials, "materials"),
        (p.energy, "energy"),
        (p.fuel, "fuel"),
    ]
    .iter()
    .filter(|(v, _)| *v != 0.0)
    .map(|(v, what)| format!("{} {what}", number(*v)))
    .collect();
    if !produced.is_empty() {
        let _ = writeln!(out, "  produced {}", produced.join(", "));
    }
    if !b.effects.is_empty() {
        let effects: Vec<String> = b
            .effects
            .iter()
            .map(|(name, a)| format!("{name} {}", applied_text(a)))
            .collect();
        let _ = writeln!(out, "  applied {}", effects.join("; "));
    }
    let stats: Vec<String> = Stat::ALL
        .iter()
        .filter_map(|stat| Some((stat.name(), b.stats.get(stat.name())?)))
        .filter(|(_, s)| s.lowest != 0.0 || s.highest != 0.0)
        .map(|(name, s)| stat_text(name, s))
        .collect();
    if !stats.is_empty() {
        let _ = writeln!(out, "  {}", stats.join(", "));
    }
}

/// "×3 (60 ticks)", "×1 (1 wave)".
fn applied_text(a: &Applied) -> String {
    let lengths: Vec<String> = [
        (a.ticks, "tick", "ticks"),
        (a.waves, "wave", "waves"),
        (a.shots, "shot", "shots"),
    ]
    .iter()
    .filter(|(n, _, _)| *n > 0)
    .map(|(n, one, many)| count(*n as f64, one, many))
    .collect();
    match lengths.is_empty() {
        true => format!("×{}", a.times),
        false => format!("×{} ({})", a.times, lengths.join(", ")),
    }
}

/// `range 2.9`, `range 2.9 → 3.77`, and the lowest and highest when they lie outside those.
fn stat_text(name: &str, s: &StatReport) -> String {
    let mut text = match number(s.start) == number(s.end) {
        true => format!("{name} {}", number(s.end)),
        false => format!("{name} {} → {}", number(s.start), number(s.end)),
    };
    let (low, high) = (s.start.min(s.end), s.start.max(s.end));
    if number(s.lowest) != number(low) || number(s.highest) != number(high) {
        let _ = write!(
            text,
            " (between {} and {})",
            number(s.lowest),
            number(s.highest)
        );
    }
    text
}

fn attacker_text(out: &mut String, a: &AttackerReport) {
    let mut line = format!(
        "{}: {} came, {} killed, {} reached the Hub",
        a.attacker, a.came, a.killed, a.leaked
    );
    if a.alive > 0 {
        let _ = write!(line, ", {} still alive", a.alive);
    }
    if a.taken_away > 0 {
        let _ = write!(line, ", {} taken away (the wave stalled)", a.taken_away);
    }
    let _ = writeln!(out, "{line}");
    let s = a.speed;
    let same = |v: f64| number(v) == number(s.base);
    let speed = match same(s.slowest) && same(s.average) {
        true => format!("  speed {}", number(s.base)),
        false => format!(
            "  speed {}: slowest {}, average {}",
            number(s.base),
            number(s.slowest),
            number(s.average)
        ),
    };
    let _ = writeln!(out, "{speed}, took {} damage", number(a.damage_taken));
    if !a.effects.is_empty() {
        let effects: Vec<String> = a
            .effects
            .iter()
            .map(|(name, r)| {
                format!(
                    "{name} ×{} ({})",
                    r.times,
                    count(r.ticks as f64, "tick", "ticks")
                )
            })
            .collect();
        let _ = writeln!(out, "  received {}", effects.join("; "));
    }
}

/// Every script error with mod, file and line, the same one again as a count, then the scripts
/// that were switched off.
fn errors_text(out: &mut String, r: &Report) {
    if r.script_errors.is_empty() {
        out.push_str("no script errors\n");
        return;
    }
    let total: u32 = r.script_errors.iter().map(|e| e.times).sum();
    let _ = writeln!(out, "{}:", count(total, "script error", "script errors"));
    for e in &r.script_errors {
        let _ = writeln!(out, "  {}", e.text);
    }
    for off in &r.scripts_switched_off {
        let _ = writeln!(out, "{off}");
    }
}
