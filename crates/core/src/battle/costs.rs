//! What mod scripts cost a battle, as tables for reports: the calls into Lua, the instructions
//! they ran and the wall time they took, per script and per mod ([`ScriptCosts`]), and the
//! ranked report of them ([`CostReport`]). Counting them is the script host's
//! (`scripting/cost.rs`); this is what the battle keeps and hands out.

use std::collections::BTreeMap;
use std::fmt;
use std::ops::AddAssign;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// What some calls into Lua cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cost {
    /// Calls from the battle into the script: hooks, chain callbacks, timers, its top-level
    /// chunk.
    pub calls: u64,
    /// Instructions (interrupts) those calls ran, not counting calls nested in them.
    pub instructions: u64,
    /// Wall time spent in them, while timing was on.
    pub wall: Duration,
}

impl AddAssign for Cost {
    fn add_assign(&mut self, other: Cost) {
        self.calls += other.calls;
        self.instructions += other.instructions;
        self.wall += other.wall;
    }
}

impl Cost {
    /// What this cost has grown by since `earlier`.
    fn since(self, earlier: Cost) -> Cost {
        Cost {
            calls: self.calls.saturating_sub(earlier.calls),
            instructions: self.instructions.saturating_sub(earlier.instructions),
            wall: self.wall.saturating_sub(earlier.wall),
        }
    }
}

/// A script of a mod, as costs are kept by.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    mod_id: String,
    script: String,
}

/// The cost of each script, by mod and script path: of one battle
/// (`Battle::script_costs`), or added up over several.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ScriptCosts {
    scripts: BTreeMap<Key, Cost>,
}

impl ScriptCosts {
    /// Adds `cost` to script `script` (its path in the mod's folder) of mod `mod_id`.
    pub fn add_script(&mut self, mod_id: &str, script: &str, cost: Cost) {
        let key = Key {
            mod_id: mod_id.to_string(),
            script: script.to_string(),
        };
        *self.scripts.entry(key).or_default() += cost;
    }

    /// Adds every script's cost of `other` to this table (battles added up).
    pub fn add(&mut self, other: &ScriptCosts) {
        for (key, cost) in &other.scripts {
            *self.scripts.entry(key.clone()).or_default() += *cost;
        }
    }

    /// What each script cost since the table `earlier` of the same battle was taken (the last
    /// second, say); scripts that cost nothing since are left out.
    pub fn since(&self, earlier: &ScriptCosts) -> ScriptCosts {
        let scripts = self
            .scripts
            .iter()
            .map(|(key, cost)| {
                let before = earlier.scripts.get(key).copied().unwrap_or_default();
                (key.clone(), cost.since(before))
            })
            .filter(|(_, cost)| *cost != Cost::default())
            .collect();
        ScriptCosts { scripts }
    }

    /// Every script as (mod id, script path, cost), by mod id and then path.
    pub fn scripts(&self) -> impl Iterator<Item = (&str, &str, Cost)> {
        self.scripts
            .iter()
            .map(|(k, c)| (k.mod_id.as_str(), k.script.as_str(), *c))
    }

    /// The cost of one script, if it was called.
    pub fn get(&self, mod_id: &str, script: &str) -> Option<Cost> {
        let key = Key {
            mod_id: mod_id.to_string(),
            script: script.to_string(),
        };
        self.scripts.get(&key).copied()
    }

    /// Each mod's scripts added up, by mod id.
    pub fn per_mod(&self) -> BTreeMap<&str, Cost> {
        let mut mods: BTreeMap<&str, Cost> = BTreeMap::new();
        for (mod_id, _, cost) in self.scripts() {
            *mods.entry(mod_id).or_default() += cost;
        }
        mods
    }

    /// Every script added up.
    pub fn total(&self) -> Cost {
        let mut total = Cost::default();
        for (_, _, cost) in self.scripts() {
            total += cost;
        }
        total
    }

    /// Whether no script was called.
    pub fn is_empty(&self) -> bool {
        self.scripts.is_empty()
    }

    /// The table as data for a report (JSON, text): the total, every mod, and the `top` scripts
    /// that ran the most instructions, most first (ties by mod and path).
    pub fn report(&self, top: usize) -> CostReport {
        let total = self.total();
        let row = |mod_id: &str, script: Option<&str>, cost: Cost| CostRow {
            mod_id: mod_id.to_string(),
            script: script.map(str::to_string),
            calls: cost.calls,
            instructions: cost.instructions,
            share: match total.instructions {
                0 => 0.0,
                all => cost.instructions as f64 / all as f64,
            },
            wall_ms: cost.wall.as_secs_f64() * 1000.0,
        };
        let by_instructions = |a: &CostRow, b: &CostRow| {
            b.instructions
                .cmp(&a.instructions)
                .then(a.key().cmp(&b.key()))
        };
        let mut mods: Vec<CostRow> = self
            .per_mod()
            .into_iter()
            .map(|(mod_id, cost)| row(mod_id, None, cost))
            .collect();
        mods.sort_by(by_instructions);
        let mut scripts: Vec<CostRow> = self
            .scripts()
            .map(|(mod_id, script, cost)| row(mod_id, Some(script), cost))
            .collect();
        scripts.sort_by(by_instructions);
        let more_scripts = scripts.len().saturating_sub(top);
        scripts.truncate(top);
        CostReport {
            calls: total.calls,
            instructions: total.instructions,
            wall_ms: total.wall.as_secs_f64() * 1000.0,
            mods,
            scripts,
            more_scripts,
        }
    }
}

/// A cost table ready to show: as data (it serialises to JSON) or as text (`Display`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostReport {
    /// Calls of every script.
    pub calls: u64,
    /// Instructions of every script.
    pub instructions: u64,
    /// Wall time of every script, in milliseconds (0 when nothing was timed).
    pub wall_ms: f64,
    /// Each mod, most instructions first.
    pub mods: Vec<CostRow>,
    /// The scripts with the most instructions, most first.
    pub scripts: Vec<CostRow>,
    /// How many scripts were called but left out of `scripts`.
    pub more_scripts: usize,
}

/// One mod's or one script's line of a [`CostReport`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CostRow {
    /// The mod.
    #[serde(rename = "mod")]
    pub mod_id: String,
    /// The script's path in the mod's folder; `None` on a mod's line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub script: Option<String>,
    /// Calls.
    pub calls: u64,
    /// Instructions.
    pub instructions: u64,
    /// Its part of all the instructions, 0 to 1.
    pub share: f64,
    /// Wall time in milliseconds.
    pub wall_ms: f64,
}

impl CostRow {
    fn key(&self) -> (&str, Option<&str>) {
        (&self.mod_id, self.script.as_deref())
    }
}

impl fmt::Display for CostReport {
    /// The report as text: the total, a table of the mods, then one of the top scripts. Wall
    /// times show as `-` when nothing was timed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let timed = self.wall_ms > 0.0;
        let ms = |wall_ms: f64| match timed {
            true => format!("{wall_ms:.2}"),
            false => "-".to_string(),
        };
        write!(
            f,
            "script cost: {} calls, {} instructions, {} ms in Lua",
            self.calls,
            self.instructions,
            ms(self.wall_ms)
        )?;
        if self.mods.is_empty() {
            return write!(f, "\nno script was called");
        }
        let mod_width = width("mod", self.mods.iter().map(|r| r.mod_id.as_str()));
        let numbers = |f: &mut fmt::Formatter<'_>, r: &CostRow| {
            write!(
                f,
                "  {:>10}  {:>13}  {:>5.1}%  {:>9}",
                r.calls,
                r.instructions,
                100.0 * r.share,
                ms(r.wall_ms)
            )
        };
        let header = "       calls   instructions   share    wall ms";
        write!(f, "\n{:<mod_width$}{header}", "mod")?;
        for r in &self.mods {
            write!(f, "\n{:<mod_width$}", r.mod_id)?;
            numbers(f, r)?;
        }
        let paths = self.scripts.iter().filter_map(|r| r.script.as_deref());
        let path_width = width("script", paths);
        let script_mod_width = width("mod", self.scripts.iter().map(|r| r.mod_id.as_str()));
        write!(
            f,
            "\n\n{:<path_width$}  {:<script_mod_width$}{header}",
            "script", "mod"
        )?;
        for r in &self.scripts {
            let path = r.script.as_deref().unwrap_or("");
            write!(f, "\n{path:<path_width$}  {:<script_mod_width$}", r.mod_id)?;
            numbers(f, r)?;
        }
        match self.more_scripts {
            0 => Ok(()),
            1 => write!(f, "\n… and 1 more script"),
            n => write!(f, "\n… and {n} more scripts"),
        }
    }
}

/// The width of a column headed `title` holding `cells`, in characters.
fn width<'a>(title: &str, cells: impl Iterator<Item = &'a str>) -> usize {
    cells
        .map(|c| c.chars().count())
        .fold(title.chars().count(), usize::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cost(calls: u64, instructions: u64, ms: u64) -> Cost {
        Cost {
            calls,
            instructions,
            wall: Duration::from_millis(ms),
        }
    }

    #[test]
    fn tables_add_up_and_take_differences() {
        let mut a = ScriptCosts::default();
        a.add_script("core", "scripts/a.lua", cost(1, 10, 1));
        a.add_script("frost", "scripts/b.lua", cost(2, 30, 2));
        let mut sum = a.clone();
        sum.add(&a);
        assert_eq!(sum.get("core", "scripts/a.lua"), Some(cost(2, 20, 2)));
        assert_eq!(sum.total(), cost(6, 80, 6));
        assert_eq!(sum.per_mod()["frost"], cost(4, 60, 4));
        let later = sum.since(&a);
        assert_eq!(later, a, "what was added since");
        assert!(a.since(&a).is_empty(), "nothing ran since");
    }

    #[test]
    fn a_report_ranks_scripts_by_instructions() {
        let mut t = ScriptCosts::default();
        t.add_script("core", "scripts/a.lua", cost(5, 10, 0));
        t.add_script("core", "scripts/b.lua", cost(1, 70, 0));
        t.add_script("frost", "scripts/c.lua", cost(1, 20, 0));
        let r = t.report(2);
        let names: Vec<_> = r.scripts.iter().map(|s| s.script.as_deref()).collect();
        assert_eq!(names, [Some("scripts/b.lua"), Some("scripts/c.lua")]);
        assert_eq!(r.more_scripts, 1);
        assert_eq!(r.mods[0].mod_id, "core");
        assert_eq!(r.mods[0].share, 0.8);
        let text = r.to_string();
        assert!(text.contains("\nscripts/b.lua  core "), "{text}");
        assert!(text.contains("70.0%"), "{text}");
        assert!(text.ends_with("… and 1 more script"), "{text}");
        assert!(text.contains("       -"), "untimed: no wall time\n{text}");
        let json = serde_json::to_value(&r).unwrap();
        assert_eq!(json["scripts"][0]["mod"], "core");
        assert!(json["mods"][0].get("script").is_none());
    }
}
