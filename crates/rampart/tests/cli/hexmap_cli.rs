//! `rampart hexmap` as a tool calls it: its JSON held to the generator's invariants by the
//! outside checker, the same level from separate processes, the picture, and clear refusals.

use std::process::{Command, Output};

use rampart_core::hexgen::HexJson;

use crate::hexgen_invariants::check_json;

fn hexmap(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rampart"))
        .arg("hexmap")
        .args(args)
        .env_remove("RUST_LOG")
        .output()
        .expect("the rampart binary runs")
}

fn level(args: &[&str]) -> (HexJson, String) {
    let out = hexmap(&[args, &["--json", "-"]].concat());
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    (serde_json::from_str(&text).expect("the level's JSON"), text)
}

#[test]
fn every_configuration_writes_a_valid_level() {
    for method in ["random", "natural"] {
        for check in ["preemptive", "corrective"] {
            for impassable in ["1x", "2x"] {
                for (w, h, seed) in [("8", "5", "1"), ("50", "25", "7")] {
                    let args = [
                        "--width",
                        w,
                        "--height",
                        h,
                        "--seed",
                        seed,
                        "--method",
                        method,
                        "--check",
                        check,
                        "--impassable",
                        impassable,
                    ];
                    let (json, _) = level(&args);
                    assert_eq!(
                        (json.width, json.height),
                        (w.parse().unwrap(), h.parse().unwrap())
                    );
                    assert_eq!((json.method.as_str(), json.check.as_str()), (method, check));
                    check_json(&json).unwrap_or_else(|e| panic!("{args:?}: {e}"));
                }
            }
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_level_in_another_process() {
    let args = [
        "--width",
        "30",
        "--height",
        "15",
        "--seed",
        "42",
        "--method",
        "natural",
        "--check",
        "preemptive",
    ];
    let (first, text) = level(&args);
    assert_eq!(level(&args).1, text);
    assert_eq!(first.impassable, "1x");
    let (other, _) = level(&[
        "--width",
        "30",
        "--height",
        "15",
        "--seed",
        "43",
        "--method",
        "natural",
        "--check",
        "preemptive",
    ]);
    assert_ne!(first.rows, other.rows);
}

#[test]
fn the_picture_is_a_png_and_the_summary_shows_the_rows() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("level.png");
    let out = hexmap(&[
        "--width",
        "15",
        "--height",
        "8",
        "--seed",
        "3",
        "--method",
        "random",
        "--check",
        "corrective",
        "--png",
        png.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("hex level 15x8, seed 3"), "{text}");
    assert_eq!(text.lines().count(), 1 + 8, "{text}");
}

#[test]
fn bad_arguments_are_refused_with_what_is_allowed() {
    let base = ["--seed", "1", "--method", "random", "--check", "corrective"];
    for (extra, expected) in [
        (&["--width", "0", "--height", "5"][..], "1 to 200 tiles"),
        (&["--width", "201", "--height", "5"][..], "1 to 200 tiles"),
        (&["--width", "8", "--height", "x"][..], "1 to 200 tiles"),
        (
            &["--width", "8", "--height", "5", "--impassable", "3x"][..],
            "1x, 2x",
        ),
    ] {
        let out = hexmap(&[&base[..], extra].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(stderr.contains(expected), "{extra:?}: {stderr}");
    }
    let out = hexmap(&[
        "--width",
        "8",
        "--height",
        "5",
        "--seed",
        "1",
        "--method",
        "wild",
        "--check",
        "corrective",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("random, natural"));
    let out = hexmap(&[
        "--width", "8", "--height", "5", "--seed", "1", "--method", "random", "--check", "later",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("preemptive, corrective"));
}
