//! `rampart waves` and `rampart simulate` as tools call them: their JSON checked from the outside,
//! the same output from separate processes, a sweep's progress and distribution, and the scripts'
//! cost table of `--profile`.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn rampart(home: &Path, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_rampart"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .env("RAMPART_HOME", home)
        .env_remove("RUST_LOG")
        .output()
        .expect("the rampart binary runs");
    assert!(
        out.status.success(),
        "rampart {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("JSON on standard output")
}

/// The `armed` fixture mod makes the core starters shoot, so the autopilot has something to play.
const ARMED: [&str; 2] = ["--mods-dir", "tests/fixtures/run"];

/// Checks one level's waves JSON against the brief's contract and the thesis's limits, using
/// nothing but the JSON.
fn check_waves(level: &Value) -> Result<(), String> {
    let limits = &level["limits"];
    let max_duration = limits["max_duration_s"]
        .as_f64()
        .ok_or("no max_duration_s")?;
    let max_attackers = limits["max_attackers"].as_u64().ok_or("no max_attackers")?;
    let paths = level["paths"].as_u64().ok_or("no paths")?;
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for (i, w) in level["waves"]
        .as_array()
        .ok_or("no waves")?
        .iter()
        .enumerate()
    {
        let number = w["number"].as_u64().ok_or("no number")?;
        let fail = |m: String| Err(format!("wave {number}: {m}"));
        if number != i as u64 + 1 {
            return fail("out of order".into());
        }
        let (value, capacity) = (w["value"].as_f64(), w["capacity"].as_f64());
        let (Some(value), Some(capacity)) = (value, capacity) else {
            return fail("value or capacity missing".into());
        };
        if !(0.0..=capacity).contains(&value) {
            return fail(format!("value {value} over capacity {capacity}"));
        }
        let kind = w["kind"].as_str().unwrap_or_default();
        if kind != "sequential" && kind != "parallel" {
            return fail(format!("kind `{kind}`"));
        }
        let batches = w["batches"].as_array().ok_or("no batches")?;
        let most = match number {
            1 | 2 => 1,
            3 | 4 => 2,
            _ => usize::MAX,
        };
        if batches.is_empty() || batches.len() > most {
            return fail(format!("{} batches", batches.len()));
        }
        let (mut count, mut duration) = (0u64, 0.0);
        let mut types: BTreeSet<String> = BTreeSet::new();
        for b in batches {
            let n = b["count"].as_u64().ok_or("no count")?;
            let spacing = b["spacing_s"].as_f64().ok_or("no spacing")?;
            let per_path = b["per_path"].as_array().ok_or("no per_path")?;
            if n == 0 || spacing <= 0.0 || per_path.is_empty() {
                return fail(format!("batch of {n}, spacing {spacing}"));
            }
            for p in per_path {
                if p["path"].as_u64().is_none_or(|p| p >= paths) {
                    return fail(format!("path {}", p["path"]));
                }
                types.insert(p["attacker"].as_str().ok_or("no attacker")?.to_string());
            }
            count += n * per_path.len() as u64;
            duration += (n - 1) as f64 * spacing;
        }
        // One second between batches (thesis §2.3.1).
        duration += (batches.len() - 1) as f64;
        if w["attacker_count"].as_u64() != Some(count) || count > max_attackers {
            return fail(format!(
                "{count} attackers, reported {}",
                w["attacker_count"]
            ));
        }
        let reported = w["duration_s"].as_f64().ok_or("no duration")?;
        if (reported - duration).abs() > 1e-6 || reported > max_duration + 1e-9 {
            return fail(format!("duration {reported}, recomputed {duration}"));
        }
        let new: Vec<&String> = types.iter().filter(|t| !seen.contains(*t)).collect();
        if new.len() > 1 {
            return fail(format!("new attacker types {new:?}"));
        }
        seen.extend(types);
    }
    Ok(())
}

#[test]
fn waves_json_keeps_every_limit_over_seeds_and_levels() {
    let home = tempfile::tempdir().unwrap();
    let mut used = Vec::new();
    for seed in [0u64, 1, 7, 42, 1234, u64::MAX] {
        for level in [1, 2, 3, 5, 6, 9, 10, 14] {
            let args = [
                "waves",
                "--seed",
                &seed.to_string(),
                "--level",
                &level.to_string(),
            ];
            let out = rampart(home.path(), &[&args[..], &["--json", "-"]].concat());
            let doc = json(&out);
            assert_eq!(doc["seed"].as_u64(), Some(seed));
            assert_eq!(doc["level"].as_u64(), Some(level));
            if let Err(e) = check_waves(&doc) {
                panic!("seed {seed} level {level}: {e}");
            }
            for w in doc["waves"].as_array().unwrap() {
                used.push(w["value"].as_f64().unwrap() / w["capacity"].as_f64().unwrap());
            }
            // The table is made from the same waves.
            let table = String::from_utf8(rampart(home.path(), &args).stdout).unwrap();
            let waves = doc["waves"].as_array().unwrap().len();
            assert!(table.contains(&format!("{waves} waves")), "{table}");
        }
    }
    // Close to the capacity, not merely under it.
    let mean = used.iter().sum::<f64>() / used.len() as f64;
    assert!(mean > 0.9, "mean share of capacity used {mean}");
}

#[test]
fn simulate_gives_the_same_output_in_every_process() {
    let home = tempfile::tempdir().unwrap();
    let args = [&ARMED[..], &["simulate", "--seed", "11", "--levels", "2"]].concat();
    let first = rampart(home.path(), &args);
    let second = rampart(home.path(), &args);
    assert_eq!(first.stdout, second.stdout);
    let table = String::from_utf8(first.stdout).unwrap();
    assert!(table.starts_with("run 11 (ascension 0)\n"), "{table}");
    assert!(table.contains("result: "), "{table}");

    let with_json = [&args[..], &["--json", "-"]].concat();
    let (a, b) = (
        rampart(home.path(), &with_json),
        rampart(home.path(), &with_json),
    );
    assert_eq!(a.stdout, b.stdout);
    let report = json(&a);
    assert_eq!(report["seed"].as_u64(), Some(11));
    for field in ["acts_reached", "acts_won", "rooms", "money", "money_spent"] {
        assert!(report[field].is_u64(), "{field} in {report}");
    }
    let levels = report["levels"].as_array().unwrap();
    assert_eq!(
        report["levels_reached"].as_u64(),
        levels.last().and_then(|l| l["level"].as_u64())
    );
    for l in levels {
        for field in [
            "act",
            "waves_survived",
            "hull",
            "fuel",
            "materials",
            "towers",
        ] {
            assert!(l[field].is_number(), "{field} in {l}");
        }
        assert_eq!(l["state_hash"].as_str().map(str::len), Some(16), "{l}");
    }
    // Another seed plays another game.
    let other = rampart(
        home.path(),
        &[
            &ARMED[..],
            &["simulate", "--seed", "12", "--levels", "2", "--json", "-"],
        ]
        .concat(),
    );
    assert_ne!(
        json(&other)["levels"][0]["state_hash"],
        levels[0]["state_hash"]
    );
}

#[test]
fn simulate_runs_shows_progress_and_the_distribution() {
    let home = tempfile::tempdir().unwrap();
    let sweep = [
        &ARMED[..],
        &["simulate", "--seed", "5", "--levels", "1", "--runs", "4"],
    ]
    .concat();
    let out = rampart(home.path(), &sweep);
    let (stdout, stderr) = (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    );
    // Not a terminal here, so the progress comes as lines on standard error.
    assert_eq!(stderr, "1/4 runs\n2/4 runs\n3/4 runs\n4/4 runs\n");
    assert!(stdout.contains("4 runs (seeds 5–8)"), "{stdout}");
    assert!(
        stdout.contains("ascension 0: levels won  runs  share"),
        "{stdout}"
    );
    assert!(stdout.contains("act 1 reached/won"), "{stdout}");

    let out = rampart(home.path(), &[&sweep[..], &["--json", "-"]].concat());
    let doc = json(&out);
    let summary = &doc["ascensions"][0];
    assert_eq!(summary["runs"].as_u64(), Some(4));
    assert_eq!(
        summary["acts_reached"][0].as_u64(),
        Some(4),
        "every run is in act 1"
    );
    let distribution: Vec<u64> = summary["distribution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect();
    assert!(distribution.len() <= 2, "0 or 1 level won");
    assert_eq!(distribution.iter().sum::<u64>(), 4);
    let reports = doc["reports"].as_array().unwrap();
    let seeds: Vec<u64> = reports
        .iter()
        .map(|r| r["seed"].as_u64().unwrap())
        .collect();
    assert_eq!(seeds, [5, 6, 7, 8]);
    let won = reports
        .iter()
        .filter(|r| r["levels_won"].as_u64() == Some(1))
        .count() as u64;
    assert_eq!(distribution.get(1).copied().unwrap_or(0), won);
}

#[test]
fn simulate_takes_an_ascension_level_and_a_difficulty_and_refuses_what_does_not_exist() {
    let home = tempfile::tempdir().unwrap();
    let out = rampart(
        home.path(),
        &[
            "simulate",
            "--seed",
            "2",
            "--runs",
            "2",
            "--levels",
            "1",
            "--ascension",
            "3",
            "--difficulty",
            "hard",
            "--json",
            "-",
        ],
    );
    let sweep = json(&out);
    assert_eq!(
        (&sweep["ascensions"][0]["ascension"], &sweep["difficulty"]),
        (&Value::from(3), &Value::from("Hard"))
    );
    for (args, needle) in [
        (["--ascension", "99"], "there is no ascension level 99"),
        (["--difficulty", "brutal"], "is not a difficulty"),
        (["--ascension", "5-2"], "the range must go up"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_rampart"))
            .args(["simulate", "--seed", "1"])
            .args(args)
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .env("RAMPART_HOME", home.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(needle), "{stderr}");
    }
}

/// Runs `rampart` expecting it to fail with exit 2 (an error, not a finding); gives its
/// standard error.
fn refused(home: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rampart"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .env("RAMPART_HOME", home)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    stderr
}

#[test]
fn simulate_gives_the_same_bytes_on_one_thread_or_two_and_merges_split_sweeps() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path();
    let sweep = |seed: &str, runs: &str, extra: &[&str]| -> Vec<u8> {
        let args = [
            &ARMED[..],
            &["simulate", "--seed", seed, "--runs", runs, "--levels", "1"],
            &["--ascension", "0-1", "--json", "-"],
            extra,
        ]
        .concat();
        rampart(dir, &args).stdout
    };
    let one = sweep("3", "4", &["--jobs", "1"]);
    assert_eq!(one, sweep("3", "4", &["--jobs", "3"]));

    // The same seeds played as three parts, given to --merge in any order.
    let parts = [("3", "1"), ("4", "1"), ("5", "2")];
    let mut files = Vec::new();
    for (i, (seed, runs)) in parts.iter().enumerate() {
        let file = dir.join(format!("part{i}.json"));
        std::fs::write(&file, sweep(seed, runs, &[])).unwrap();
        files.push(file.to_str().unwrap().to_string());
    }
    let merge = |names: &[&String]| {
        let args: Vec<&str> = ["simulate", "--json", "-", "--merge"]
            .into_iter()
            .chain(names.iter().map(|s| s.as_str()))
            .collect();
        rampart(dir, &args).stdout
    };
    assert_eq!(merge(&[&files[2], &files[0], &files[1]]), one);
    let doc: Value = serde_json::from_slice(&one).unwrap();
    assert_eq!(doc["first_seed"].as_u64(), Some(3));
    assert_eq!(doc["reports"].as_array().unwrap().len(), 8);

    // Parts that overlap, leave a gap, or were played otherwise are refused by name.
    let gap = refused(dir, &["simulate", "--merge", &files[0], &files[2]]);
    assert!(
        gap.contains("leave a gap") && gap.contains("part0.json"),
        "{gap}"
    );
    let twice = refused(dir, &["simulate", "--merge", &files[0], &files[0]]);
    assert!(twice.contains("overlap"), "{twice}");
    let other = dir.join("other.json");
    let args = [
        &ARMED[..],
        &["simulate", "--seed", "4", "--runs", "2", "--levels", "1"],
        &["--ascension", "0-1", "--difficulty", "hard"],
        &["--json", other.to_str().unwrap()],
    ]
    .concat();
    rampart(dir, &args);
    let settings = refused(
        dir,
        &["simulate", "--merge", &files[0], other.to_str().unwrap()],
    );
    assert!(settings.contains("other settings"), "{settings}");
    std::fs::write(&other, "{\"first_seed\": 1}").unwrap();
    let broken = refused(dir, &["simulate", "--merge", other.to_str().unwrap()]);
    assert!(broken.contains("is not a sweep written by"), "{broken}");
}

/// The rows of a printed cost table without their last column (wall time varies).
fn counted_rows(table: &str) -> Vec<String> {
    table
        .lines()
        .filter(|l| l.contains("scripts/") || l.starts_with("script cost:"))
        .map(|l| match l.starts_with("script cost:") {
            true => l.split(" instructions").next().unwrap().to_string(),
            false => {
                let mut words: Vec<&str> = l.split_whitespace().collect();
                words.pop();
                words.join(" ")
            }
        })
        .collect()
}

#[test]
fn simulate_profile_prints_the_table_after_its_output() {
    let home = tempfile::tempdir().unwrap();
    let args = [
        &ARMED[..],
        &[
            "simulate",
            "--seed",
            "4",
            "--levels",
            "1",
            "--runs",
            "2",
            "--profile",
        ],
    ]
    .concat();
    let out = rampart(home.path(), &args);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let (usual, table) = stdout
        .split_once("script cost:")
        .expect("the table follows the usual output");
    assert!(usual.contains("win rate"), "{usual}");
    let table = format!("script cost:{table}");
    let rows = counted_rows(&table);
    assert!(
        rows.iter()
            .any(|r| r.starts_with("scripts/") && r.contains(" core ")),
        "{table}"
    );
    assert!(
        table.contains("share") && table.contains("wall ms"),
        "{table}"
    );

    // The same counts on one thread as on two; with the JSON on standard output, the table
    // goes to standard error.
    let one = rampart(home.path(), &[&args[..], &["--jobs", "1"]].concat());
    assert_eq!(counted_rows(&String::from_utf8_lossy(&one.stdout)), rows);
    let json = rampart(home.path(), &[&args[..], &["--json", "-"]].concat());
    let _: serde_json::Value = serde_json::from_slice(&json.stdout).expect("only JSON on stdout");
    let stderr = String::from_utf8_lossy(&json.stderr);
    assert_eq!(counted_rows(&stderr), rows, "{stderr}");
}
