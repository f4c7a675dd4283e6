//! A scenario's expectations checked against its report: each measure is a number the report
//! holds, named in words for the failure messages.

use std::fmt;

use super::format::{Expectation, Measure, Of, Stat, Who};
use super::report::{AttackerReport, BuildingReport, Checked, Report};
use crate::battle::CostRow;
use crate::content::describe::number;

impl Expectation {
    /// The measure it bounds, if it bounds one.
    pub fn measure(&self) -> Option<&Measure> {
        match self {
            Expectation::AtLeast(m, _) | Expectation::AtMost(m, _) => Some(m),
            _ => None,
        }
    }

    /// Checks the expectation against `report`.
    pub fn check(&self, report: &Report) -> Checked {
        let expectation = self.to_string();
        let checked = |measured: f64, passed: bool, problem: Option<String>| Checked {
            expectation: expectation.clone(),
            measured: Some(measured),
            problem: problem.filter(|_| !passed),
            passed,
        };
        match self {
            Expectation::AtLeast(m, bound) | Expectation::AtMost(m, bound) => {
                match m.measure(report) {
                    Ok(v) => {
                        // Within a billionth: 2.9 × 1.3 is 3.7699999999999996 in floating point,
                        // and "at least 3.77" must hold for it.
                        let slack = 1e-9 * bound.abs().max(1.0);
                        let passed = match self {
                            Expectation::AtLeast(..) => v >= bound - slack,
                            _ => v <= bound + slack,
                        };
                        checked(v, passed, None)
                    }
                    Err(problem) => Checked {
                        expectation,
                        measured: None,
                        problem: Some(problem),
                        passed: false,
                    },
                }
            }
            Expectation::AllAttackersDead => {
                let came: u32 = report.attackers.iter().map(|a| a.came).sum();
                let killed: u32 = report.attackers.iter().map(|a| a.killed).sum();
                let left = came - killed.min(came);
                checked(
                    f64::from(left),
                    left == 0,
                    Some(format!("{left} of {came} were not killed")),
                )
            }
            Expectation::NoScriptErrors => {
                let errors: u32 = report.script_errors.iter().map(|e| e.times).sum();
                checked(
                    f64::from(errors),
                    errors == 0,
                    Some(format!("{errors} script errors (listed above)")),
                )
            }
            Expectation::NothingRefused => {
                let refused = report.refused.len();
                checked(
                    refused as f64,
                    refused == 0,
                    Some(format!("{refused} actions refused (listed above)")),
                )
            }
        }
    }
}

impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expectation::AtLeast(m, n) => write!(f, "{m} at least {}", number(*n)),
            Expectation::AtMost(m, n) => write!(f, "{m} at most {}", number(*n)),
            Expectation::AllAttackersDead => f.write_str("every attacker killed"),
            Expectation::NoScriptErrors => f.write_str("no script errors"),
            Expectation::NothingRefused => f.write_str("nothing refused"),
        }
    }
}

impl Measure {
    /// The buildings it is about, if it is about buildings.
    pub fn of(&self) -> Option<&Of> {
        use Measure::*;
        match self {
            Damage(o)
            | DamageOfType(o, _)
            | Hits(o)
            | Kills(o)
            | Shots(o)
            | Healing(o)
            | Materials(o)
            | Energy(o)
            | Fuel(o)
            | EffectsApplied(o, _)
            | EffectTicks(o, _)
            | StartStat(o, _)
            | EndStat(o, _) => Some(o),
            _ => None,
        }
    }

    /// The attackers it is about, if it is about attackers.
    pub fn who(&self) -> Option<&Who> {
        use Measure::*;
        match self {
            Came(w)
            | Killed(w)
            | Leaked(w)
            | Alive(w)
            | SlowestSpeed(w)
            | AverageSpeed(w)
            | EffectTicksOn(w, _) => Some(w),
            _ => None,
        }
    }

    /// The mod or script it is about, if it is about scripts.
    pub fn scripts(&self) -> Option<&str> {
        match self {
            Measure::ScriptInstructions(s) | Measure::ScriptCalls(s) => Some(s),
            _ => None,
        }
    }

    /// The number in `report`, or why there is none (nothing stood where the measure looks).
    pub fn measure(&self, report: &Report) -> Result<f64, String> {
        use Measure::*;
        if let Some(of) = self.of() {
            let built = buildings(report, of)?;
            let sum = |f: &dyn Fn(&BuildingReport) -> f64| built.iter().map(|b| f(b)).sum();
            return Ok(match self {
                Damage(_) => sum(&|b| b.damage),
                DamageOfType(_, t) => {
                    sum(&|b| b.damage_by_type.get(t.name()).copied().unwrap_or(0.0))
                }
                Hits(_) => sum(&|b| f64::from(b.hits)),
                Kills(_) => sum(&|b| f64::from(b.kills)),
                Shots(_) => sum(&|b| f64::from(b.shots)),
                Healing(_) => sum(&|b| b.healing),
                Materials(_) => sum(&|b| b.produced.materials),
                Energy(_) => sum(&|b| b.produced.energy),
                Fuel(_) => sum(&|b| b.produced.fuel),
                EffectsApplied(_, name) => {
                    sum(&|b| b.effects.get(name).map_or(0.0, |a| f64::from(a.times)))
                }
                EffectTicks(_, name) => {
                    sum(&|b| b.effects.get(name).map_or(0.0, |a| a.ticks as f64))
                }
                StartStat(_, stat) | EndStat(_, stat) => {
                    let first = built[0];
                    let s = first
                        .stats
                        .get(stat.name())
                        .ok_or_else(|| format!("{} was never seen standing", first.blueprint))?;
                    if matches!(self, StartStat(..)) {
                        s.start
                    } else {
                        s.end
                    }
                }
                _ => unreachable!("every measure of buildings is above"),
            });
        }
        if let Some(who) = self.who() {
            let of = attackers(report, who);
            let sum = |f: &dyn Fn(&AttackerReport) -> u32| {
                f64::from(of.iter().map(|a| f(a)).sum::<u32>())
            };
            let none = || format!("no {who} came");
            return Ok(match self {
                Came(_) => sum(&|a| a.came),
                Killed(_) => sum(&|a| a.killed),
                Leaked(_) => sum(&|a| a.leaked),
                Alive(_) => sum(&|a| a.alive),
                SlowestSpeed(_) => of
                    .iter()
                    .map(|a| a.speed.slowest)
                    .min_by(f64::total_cmp)
                    .ok_or_else(none)?,
                AverageSpeed(_) => {
                    // Weighted by attackers: every type's average counts as often as it came.
                    let came: u32 = of.iter().map(|a| a.came).sum();
                    if came == 0 {
                        return Err(none());
                    }
                    of.iter()
                        .map(|a| a.speed.average * f64::from(a.came))
                        .sum::<f64>()
                        / f64::from(came)
                }
                EffectTicksOn(_, name) => of
                    .iter()
                    .map(|a| a.effects.get(name).map_or(0, |r| r.ticks))
                    .sum::<u64>() as f64,
                _ => unreachable!("every measure of attackers is above"),
            });
        }
        Ok(match self {
            HullLost => report.hull.start - report.hull.end,
            ScriptErrors => f64::from(report.script_errors.iter().map(|e| e.times).sum::<u32>()),
            Refused => report.refused.len() as f64,
            WavesEnded => f64::from(report.waves.ended),
            ScriptInstructions(scripts) => {
                script_row(report, scripts).map_or(0, |r| r.instructions) as f64
            }
            ScriptCalls(scripts) => script_row(report, scripts).map_or(0, |r| r.calls) as f64,
            _ => unreachable!("every other measure is about buildings or attackers"),
        })
    }
}

/// The cost report's line of a mod (`"frost"`) or of one of its scripts
/// (`"frost:scripts/ice.lua"`); none when it was never called.
fn script_row<'a>(report: &'a Report, scripts: &str) -> Option<&'a CostRow> {
    let cost = &report.script_cost;
    match scripts.split_once(':') {
        None => cost.mods.iter().find(|r| r.mod_id == scripts),
        Some((mod_id, path)) => cost
            .scripts
            .iter()
            .find(|r| r.mod_id == mod_id && r.script.as_deref() == Some(path)),
    }
}

/// The buildings `of` names; none is a mistake worth saying.
fn buildings<'a>(report: &'a Report, of: &Of) -> Result<Vec<&'a BuildingReport>, String> {
    let found: Vec<&BuildingReport> = report
        .buildings
        .iter()
        .filter(|b| match of {
            Of::Tile(x, y) => b.tile == Some([*x, *y]),
            Of::Blueprint(id) => &b.blueprint == id,
        })
        .collect();
    match (found.is_empty(), of) {
        (false, _) => Ok(found),
        (true, Of::Tile(x, y)) => Err(format!("nothing stood on ({x}, {y})")),
        (true, Of::Blueprint(id)) => Err(format!("no {id} was placed or used")),
    }
}

/// The attacker types `who` names.
fn attackers<'a>(report: &'a Report, who: &Who) -> Vec<&'a AttackerReport> {
    report
        .attackers
        .iter()
        .filter(|a| match who {
            Who::Any => true,
            Who::Type(id) => &a.attacker == id,
        })
        .collect()
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Measure::*;
        match self {
            Damage(o) => write!(f, "damage by {o}"),
            DamageOfType(o, t) => write!(f, "{t} damage by {o}"),
            Hits(o) => write!(f, "hits by {o}"),
            Kills(o) => write!(f, "kills by {o}"),
            Shots(o) => write!(f, "shots by {o}"),
            Healing(o) => write!(f, "healing by {o}"),
            Materials(o) => write!(f, "materials produced by {o}"),
            Energy(o) => write!(f, "energy produced by {o}"),
            Fuel(o) => write!(f, "fuel produced by {o}"),
            EffectsApplied(o, name) => write!(f, "`{name}` applied by {o}"),
            EffectTicks(o, name) => write!(f, "ticks of `{name}` applied by {o}"),
            StartStat(o, s) => write!(f, "{s} of {o} at the start"),
            EndStat(o, s) => write!(f, "{s} of {o} at the end"),
            Came(w) => write!(f, "{w} that came"),
            Killed(w) => write!(f, "{w} killed"),
            Leaked(w) => write!(f, "{w} that reached the Hub"),
            Alive(w) => write!(f, "{w} alive at the end"),
            SlowestSpeed(w) => write!(f, "slowest speed of {w}"),
            AverageSpeed(w) => write!(f, "average speed of {w}"),
            EffectTicksOn(w, name) => write!(f, "ticks {w} spent under `{name}`"),
            HullLost => f.write_str("hull lost"),
            ScriptErrors => f.write_str("script errors"),
            Refused => f.write_str("refused actions"),
            WavesEnded => f.write_str("waves ended"),
            ScriptInstructions(s) => write!(f, "instructions run by {}", scripts_named(s)),
            ScriptCalls(s) => write!(f, "calls into {}", scripts_named(s)),
        }
    }
}

/// `frost`'s scripts, or the one script `frost:scripts/ice.lua`, in words.
fn scripts_named(scripts: &str) -> String {
    match scripts.contains(':') {
        true => scripts.to_string(),
        false => format!("{scripts}'s scripts"),
    }
}

impl fmt::Display for Of {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Of::Tile(x, y) => write!(f, "what stood on ({x}, {y})"),
            Of::Blueprint(id) => f.write_str(id),
        }
    }
}

impl fmt::Display for Who {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Who::Any => f.write_str("attackers"),
            Who::Type(id) => f.write_str(id),
        }
    }
}

impl fmt::Display for Stat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
