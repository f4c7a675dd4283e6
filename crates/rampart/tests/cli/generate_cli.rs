//! `rampart generate`: JSON, PNG, errors, and `--watch` through a broken and a fixed save.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn rampart(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rampart"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .env("RAMPART_HOME", home)
        .output()
        .expect("the rampart binary runs")
}

#[test]
fn json_follows_the_contract_and_is_byte_identical() {
    let home = tempfile::tempdir().unwrap();
    let args = [
        "generate",
        "--seed",
        "11",
        "--terrain",
        "core:plateaus",
        "--lengths",
        "20,24",
        "--json",
        "-",
    ];
    let a = rampart(home.path(), &args);
    let b = rampart(home.path(), &args);
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    assert_eq!(a.stdout, b.stdout);
    let json: serde_json::Value = serde_json::from_slice(&a.stdout).unwrap();
    assert_eq!(json["seed"], 11);
    assert_eq!(json["terrain"], "core:plateaus");
    assert_eq!(
        (json["width"].as_u64(), json["height"].as_u64()),
        (Some(15), Some(15))
    );
    assert_eq!(json["tiles"].as_array().unwrap().len(), 225);
    let starts = json["path_starts"].as_array().unwrap();
    let lengths: Vec<u64> = starts
        .iter()
        .map(|s| s["length"].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [20, 24]);
    for key in ["hub", "path_segments", "path_distance", "blocked_edges"] {
        assert!(json.get(key).is_some(), "{key} missing");
    }
}

#[test]
fn png_is_written_and_bad_arguments_are_explained() {
    let home = tempfile::tempdir().unwrap();
    let png = home.path().join("world.png");
    let out = rampart(
        home.path(),
        &["generate", "--seed", "3", "--png", png.to_str().unwrap()],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("world 3 on core:hills"));
    assert_eq!(&std::fs::read(&png).unwrap()[1..4], b"PNG");
    let out = rampart(
        home.path(),
        &[
            "generate",
            "--seed",
            "3",
            "--paths",
            "3",
            "--lengths",
            "20,22",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--paths 3 does not match the 2 --lengths")
    );
    let out = rampart(
        home.path(),
        &["generate", "--seed", "3", "--terrain", "core:swamp"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no terrain type `core:swamp`"));
}

/// Lines from a child's pipe, readable with a timeout.
fn lines(pipe: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

fn wait_for(rx: &mpsc::Receiver<String>, needle: &str) -> String {
    let mut seen = Vec::new();
    loop {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(line) if line.contains(needle) => return line,
            Ok(line) => seen.push(line),
            Err(_) => panic!("no line with `{needle}`; saw {seen:#?}"),
        }
    }
}

#[test]
fn watch_reports_a_broken_save_and_regenerates_after_the_fix() {
    let home = tempfile::tempdir().unwrap();
    let mods = tempfile::tempdir().unwrap();
    let hills = std::fs::read_to_string(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("mods/core/terrain/hills.terrain"),
    )
    .unwrap();
    let terrain = mods.path().join("w/terrain/mine.terrain");
    std::fs::create_dir_all(terrain.parent().unwrap()).unwrap();
    std::fs::write(
        mods.path().join("w/mod.ron"),
        r#"(id: "w", name: "W", version: "0.1.0")"#,
    )
    .unwrap();
    std::fs::write(&terrain, &hills).unwrap();

    let mut child = Command::new(env!("CARGO_BIN_EXE_rampart"))
        .args([
            "generate",
            "--seed",
            "5",
            "--terrain",
            "w:mine",
            "--watch",
            "--mods-dir",
        ])
        .arg(mods.path())
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .env("RAMPART_HOME", home.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = lines(child.stdout.take().unwrap());
    let err = lines(child.stderr.take().unwrap());
    let first = wait_for(&out, "world 5 on w:mine");
    wait_for(&err, "watching");

    std::fs::write(&terrain, hills.replacen("max_height", "max_heigth", 1)).unwrap();
    wait_for(&err, "mine.terrain:");
    wait_for(&err, "kept the last good version");

    // Fixing the file regenerates the world with the same seed.
    std::fs::write(&terrain, &hills).unwrap();
    wait_for(&err, "reloaded w:mine");
    let again = wait_for(&out, "world 5 on w:mine");
    assert_eq!(first, again, "same file, same seed, same world");
    child.kill().unwrap();
    child.wait().unwrap();
}
