//! Mutation fuzzing of every kind of file a mod or a player can hand the game: terrain types,
//! content RON files, mod manifests and battle records. Each input is the corpus (the files of
//! `mods/core` and the test fixtures) mutated at byte and token level, fed through the entry
//! point the game uses, and must end — with a result or an error — without a panic and within a
//! time bound.
//!
//! `cargo test` runs a short, fixed set of cases (seeded, the same every run). A longer run:
//! `RAMPART_FUZZ_SECONDS=600 RAMPART_FUZZ_SEED=<n> cargo test --release -p rampart-core
//! --test suite fuzz -- --nocapture` (see docs/fuzzing.md). Failing inputs are written to
//! `fuzz-failures/` in Cargo's temporary folder for tests (`target/tmp`), to be kept as regression cases in `tests/fixtures/fuzz/`, which
//! every run replays first.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::{Mods, load_dirs};
use rampart_core::content::ContentDb;
use rampart_core::diagnostics::{Diagnostic, SourceFile};
use rampart_core::level::replay::Replay;
use rampart_core::modding::Manifest;
use rampart_core::rng::{Rng, Seed};
use rampart_core::terrain::parse_terrain;

/// How long one input may take before it counts as a hang (debug builds are slow).
const HANG: Duration = Duration::from_secs(20);
/// Rounds over the kinds in the default (CI) run.
const DEFAULT_ROUNDS: usize = 200;

/// A kind of file and how the game reads it.
#[derive(Clone, Copy, Debug)]
enum Kind {
    Terrain,
    /// A content file at this path inside a mod (`attackers/x.ron`, `levels.ron`…).
    Content(&'static str),
    Manifest,
    Record,
}

impl Kind {
    fn name(self) -> String {
        match self {
            Kind::Terrain => "terrain".into(),
            Kind::Content(path) => path.replace(['/', '.'], "_"),
            Kind::Manifest => "manifest".into(),
            Kind::Record => "record".into(),
        }
    }

    /// Reads `input` as the game would and renders what it reports as `rampart check` does;
    /// only panics and hangs count.
    fn run(self, input: &[u8], replay_content: &Arc<ContentDb>) {
        let text = String::from_utf8_lossy(input);
        let render = |d: &Diagnostic| drop(d.render(false));
        match self {
            Kind::Terrain => {
                let file = SourceFile::new("fuzz.terrain", text.into_owned());
                if let Err(diagnostics) = parse_terrain("fuzz:terrain", &file) {
                    diagnostics.iter().for_each(render);
                }
            }
            Kind::Content(path) => {
                let mods = Mods::new();
                mods.manifest("f", &[]);
                write_bytes(&mods.path().join("f").join(path), input);
                mods.load().1.iter().for_each(render);
            }
            Kind::Manifest => {
                let mods = Mods::new();
                write_bytes(&mods.path().join("f/mod.ron"), input);
                if let Err(d) = Manifest::load(&mods.path().join("f")) {
                    render(&d);
                }
                mods.load().1.iter().for_each(render);
            }
            Kind::Record => {
                if let Ok(record) = serde_json::from_str::<Replay>(&text) {
                    let _ = record.verify(replay_content);
                }
            }
        }
    }
}

fn write_bytes(path: &Path, bytes: &[u8]) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

fn repo() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Every file of `dir` (recursively) whose name ends with `suffix`.
fn files(dir: &Path, suffix: &str) -> Vec<Vec<u8>> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && e.path().to_string_lossy().ends_with(suffix))
        .map(|e| (e.path().to_path_buf(), std::fs::read(e.path()).unwrap()))
        .collect();
    out.sort();
    out.into_iter().map(|(_, bytes)| bytes).collect()
}

/// The seed corpus of each kind.
fn corpus() -> Vec<(Kind, Vec<Vec<u8>>)> {
    let core = repo().join("mods/core");
    let fixtures = repo().join("tests/fixtures");
    let mut terrain = files(&repo().join("mods"), ".terrain");
    terrain.extend(files(&fixtures.join("terrain"), ".terrain"));
    let mut manifests = files(&repo().join("mods"), "mod.ron");
    manifests.extend(files(&fixtures, "mod.ron"));
    // Core's items and the models example's, whose models have every shape and animation.
    let showcase = fixtures.join("models/showcase");
    let items = |folder: &str| {
        let mut found = files(&core.join(folder), ".ron");
        found.extend(files(&showcase.join(folder), ".ron"));
        found
    };
    let mut palettes = files(&core, "palette.ron");
    palettes.extend(files(&showcase, "palette.ron"));
    vec![
        (Kind::Terrain, terrain),
        (Kind::Content("attackers/x.ron"), items("attackers")),
        (Kind::Content("blueprints/x.ron"), items("blueprints")),
        (Kind::Content("palette.ron"), palettes),
        (Kind::Content("levels.ron"), files(&core, "levels.ron")),
        (Kind::Content("tutorial.ron"), files(&core, "tutorial.ron")),
        (Kind::Manifest, manifests),
        (Kind::Record, files(&fixtures.join("replay"), "record.json")),
    ]
}

/// Values that break careless number handling.
const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "1e308",
    "-1e308",
    "NaN",
    "inf",
    "-inf",
    "4294967295",
    "18446744073709551615",
    "99999999999999999999999",
    "0.0000001",
    "\"\"",
];

/// Mutates `input` with one to four random edits, some borrowing from `corpus`.
fn mutate(rng: &mut Rng, input: &[u8], corpus: &[Vec<u8>]) -> Vec<u8> {
    let mut out = input.to_vec();
    let pick = |rng: &mut Rng, n: usize| (rng.next_u64() % n.max(1) as u64) as usize;
    for _ in 0..1 + pick(rng, 4) {
        let len = out.len();
        match pick(rng, 8) {
            // Flip a bit.
            0 if len > 0 => {
                let i = pick(rng, len);
                out[i] ^= 1 << pick(rng, 8);
            }
            // Any byte, invalid UTF-8 and control characters included.
            1 if len > 0 => {
                let i = pick(rng, len);
                out[i] = rng.next_u64() as u8;
            }
            // Delete a range.
            2 if len > 0 => {
                let start = pick(rng, len);
                let end = (start + 1 + pick(rng, 64)).min(len);
                out.drain(start..end);
            }
            // Repeat a range many times (deep nesting, huge lists, long lines).
            3 if len > 0 => {
                let start = pick(rng, len);
                let end = (start + 1 + pick(rng, 32)).min(len);
                let piece = out[start..end].to_vec();
                let times = [2, 16, 256, 4096][pick(rng, 4)];
                let repeated: Vec<u8> = piece
                    .iter()
                    .copied()
                    .cycle()
                    .take(piece.len() * times)
                    .collect();
                out.splice(start..start, repeated);
            }
            // Splice in part of another file of the same kind.
            4 => {
                let other = &corpus[pick(rng, corpus.len())];
                if !other.is_empty() {
                    let start = pick(rng, other.len());
                    let end = (start + 1 + pick(rng, 128)).min(other.len());
                    let at = pick(rng, len + 1);
                    out.splice(at..at, other[start..end].iter().copied());
                }
            }
            // Truncate.
            5 if len > 0 => out.truncate(pick(rng, len)),
            // Replace a number (or insert one) with an extreme value.
            _ => {
                let extreme = EXTREMES[pick(rng, EXTREMES.len())].as_bytes();
                let digits: Vec<usize> = (0..len).filter(|&i| out[i].is_ascii_digit()).collect();
                if digits.is_empty() {
                    let at = pick(rng, len + 1);
                    out.splice(at..at, extreme.iter().copied());
                } else {
                    let mut start = digits[pick(rng, digits.len())];
                    while start > 0 && (out[start - 1].is_ascii_digit() || out[start - 1] == b'.') {
                        start -= 1;
                    }
                    let mut end = start;
                    while end < len && (out[end].is_ascii_digit() || out[end] == b'.') {
                        end += 1;
                    }
                    out.splice(start..end, extreme.iter().copied());
                }
            }
        }
    }
    out
}

/// What went wrong with one input.
struct Failure {
    kind: Kind,
    what: String,
    saved: PathBuf,
}

/// Runs `input` on its own thread: `Err` with the panic message, or "hang" past [`HANG`].
fn check(kind: Kind, input: Vec<u8>, replay_content: &Arc<ContentDb>) -> Result<(), String> {
    let (tx, rx) = mpsc::channel();
    let content = replay_content.clone();
    std::thread::spawn(move || {
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| kind.run(&input, &content)));
        let _ = tx.send(result.map_err(|p| {
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into())
        }));
    });
    match rx.recv_timeout(HANG) {
        Ok(result) => result,
        // The thread is left running: the test fails anyway and reports the input.
        Err(_) => Err(format!("no end within {} s", HANG.as_secs())),
    }
}

fn save(kind: Kind, tag: &str, input: &[u8]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-failures");
    let path = dir.join(format!("{}-{tag}", kind.name()));
    write_bytes(&path, input);
    path
}

#[test]
fn mutated_files_never_panic_or_hang() {
    let seconds: Option<u64> = std::env::var("RAMPART_FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok());
    let seed: u64 = std::env::var("RAMPART_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20261124);
    let replay_content = load_dirs(&[
        repo().join("mods"),
        repo().join("tests/fixtures/replay/mods"),
    ]);
    let corpus = corpus();
    let mut failures: Vec<Failure> = Vec::new();

    // Kept regression cases first: `tests/fixtures/fuzz/<kind>-…`.
    for (kind, _) in &corpus {
        let prefix = format!("{}-", kind.name());
        let kept = repo().join("tests/fixtures/fuzz");
        for entry in std::fs::read_dir(&kept).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with(&prefix) {
                let input = std::fs::read(entry.path()).unwrap();
                if let Err(what) = check(*kind, input, &replay_content) {
                    failures.push(Failure {
                        kind: *kind,
                        what,
                        saved: entry.path(),
                    });
                }
            }
        }
    }

    let started = Instant::now();
    let mut rng = Seed(seed).rng();
    let mut cases = 0;
    'run: for round in 0.. {
        for (kind, files) in &corpus {
            assert!(!files.is_empty(), "no corpus for {kind:?}");
            let base = &files[round % files.len()];
            let input = mutate(&mut rng, base, files);
            cases += 1;
            if let Err(what) = check(*kind, input.clone(), &replay_content) {
                let saved = save(*kind, &format!("{seed}-{cases}"), &input);
                failures.push(Failure {
                    kind: *kind,
                    what,
                    saved,
                });
            }
        }
        let done = match seconds {
            Some(s) => started.elapsed() >= Duration::from_secs(s),
            None => round + 1 >= DEFAULT_ROUNDS,
        };
        if done {
            break 'run;
        }
    }
    println!(
        "fuzz: {cases} cases (seed {seed}) in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let report: Vec<String> = failures
        .iter()
        .map(|f| format!("{:?}: {} (input: {})", f.kind, f.what, f.saved.display()))
        .collect();
    assert!(
        report.is_empty(),
        "{} failing inputs:\n{}",
        report.len(),
        report.join("\n")
    );
}

#[test]
fn mutations_are_the_same_for_the_same_seed() {
    let corpus = files(&repo().join("mods/core/attackers"), ".ron");
    let run = || {
        let mut rng = Seed(3).rng();
        (0..50)
            .map(|i| mutate(&mut rng, &corpus[i % corpus.len()], &corpus))
            .collect::<Vec<_>>()
    };
    let first = run();
    assert_eq!(first, run());
    assert!(
        first.iter().zip(corpus.iter().cycle()).any(|(m, c)| m != c),
        "inputs change"
    );
}
