//! Helpers shared by the integration tests: small mods written to a temporary folder.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rampart_core::battle::{WaveSpawn, WaveSpawns};
use rampart_core::content::ContentDb;
use rampart_core::diagnostics::{Diagnostic, Diagnostics};
use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};

pub mod arena;

/// The repository's root folder (the workspace's), where `mods/`, `docs/` and `tests/fixtures/`
/// are.
pub fn repo() -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir.ancestors().nth(2).unwrap().to_path_buf()
}

/// A temporary mods folder that tests fill with files.
pub struct Mods {
    pub dir: tempfile::TempDir,
}

impl Mods {
    pub fn new() -> Mods {
        Mods {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `text` to `rel` (e.g. `frost/mod.ron`), creating folders.
    pub fn file(&self, rel: &str, text: &str) -> &Mods {
        let path = self.dir.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
        self
    }

    /// Writes a manifest for `id` depending on `deps`.
    pub fn manifest(&self, id: &str, deps: &[&str]) -> &Mods {
        let deps: Vec<String> = deps.iter().map(|d| format!("(id: \"{d}\")")).collect();
        self.file(
            &format!("{id}/mod.ron"),
            &format!(
                "(id: \"{id}\", name: \"{id}\", version: \"0.1.0\", dependencies: [{}])",
                deps.join(", ")
            ),
        )
    }

    /// Loads these mods only (not the repository's).
    pub fn load(&self) -> (Arc<ContentDb>, Diagnostics) {
        self.load_from(&[])
    }

    /// Loads these mods after the repository's `mods` folder (core).
    pub fn load_with_core(&self) -> Arc<ContentDb> {
        without_errors(self.load_from(&[repo_mods()]))
    }

    /// Loads these mods after the repository's `mods` folder, with whatever diagnostics come.
    pub fn load_after_core(&self) -> (Arc<ContentDb>, Diagnostics) {
        self.load_from(&[repo_mods()])
    }

    /// Loads these mods after the repository's `mods` folder with the repository's mods in
    /// `enabled` switched on; fails the test on any error.
    pub fn load_after_repo_with(&self, enabled: &[&str]) -> Arc<ContentDb> {
        let mut settings = ModSettings::default();
        for id in enabled {
            settings.set_enabled(id, true);
        }
        without_errors(self.load_with_settings(&[repo_mods()], &settings))
    }

    fn load_from(&self, before: &[PathBuf]) -> (Arc<ContentDb>, Diagnostics) {
        self.load_with_settings(before, &ModSettings::default())
    }

    fn load_with_settings(
        &self,
        before: &[PathBuf],
        settings: &ModSettings,
    ) -> (Arc<ContentDb>, Diagnostics) {
        let mut dirs: Vec<ModDir> = before
            .iter()
            .map(|p| ModDir {
                path: p.clone(),
                origin: Origin::Game,
            })
            .collect();
        dirs.push(ModDir {
            path: self.path().to_path_buf(),
            origin: Origin::Extra,
        });
        let set = ModSet::discover(&dirs, settings);
        let mut diagnostics = set.diagnostics.clone();
        let (db, d) = ContentDb::load(&set);
        diagnostics.extend(d);
        (Arc::new(db), diagnostics)
    }

    /// Loads core and the `armed` fixture mod (`tests/fixtures/run/armed`), whose starter
    /// blueprints shoot, then these mods; for tests that play whole levels whatever state the
    /// core content is in.
    pub fn load_armed(&self) -> Arc<ContentDb> {
        let fixtures = repo().join("tests/fixtures/run");
        without_errors(self.load_from(&[repo_mods(), fixtures]))
    }

    /// Loads and fails the test on any error.
    pub fn load_clean(&self) -> Arc<ContentDb> {
        without_errors(self.load())
    }
}

/// Loads the mods in the given folders, in order; fails the test on any error.
pub fn load_dirs(dirs: &[PathBuf]) -> Arc<ContentDb> {
    let dirs: Vec<ModDir> = dirs
        .iter()
        .map(|p| ModDir {
            path: p.clone(),
            origin: Origin::Extra,
        })
        .collect();
    let set = ModSet::discover(&dirs, &ModSettings::default());
    let mut diagnostics = set.diagnostics.clone();
    let (db, d) = ContentDb::load(&set);
    diagnostics.extend(d);
    without_errors((Arc::new(db), diagnostics))
}

/// Loads the repository's `mods` folder with the mods in `enabled` switched on (as a player
/// would with `rampart mods --enable`); fails the test on any error.
pub fn load_repo_with(enabled: &[&str]) -> Arc<ContentDb> {
    let mut settings = ModSettings::default();
    for id in enabled {
        settings.set_enabled(id, true);
    }
    let dirs = [ModDir {
        path: repo_mods(),
        origin: Origin::Game,
    }];
    let set = ModSet::discover(&dirs, &settings);
    let mut diagnostics = set.diagnostics.clone();
    let (db, d) = ContentDb::load(&set);
    diagnostics.extend(d);
    without_errors((Arc::new(db), diagnostics))
}

/// The content, after failing the test on any error.
fn without_errors((db, diagnostics): (Arc<ContentDb>, Diagnostics)) -> Arc<ContentDb> {
    let errors: Vec<String> = diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.to_string())
        .collect();
    assert!(errors.is_empty(), "unexpected errors: {errors:#?}");
    db
}

/// The repository's `mods` folder.
pub fn repo_mods() -> PathBuf {
    repo().join("mods")
}

/// The folder of the hostile fixture mod (`tests/fixtures/hostile/hostile`): attacker types whose
/// scripts misbehave at run time.
pub fn hostile_mods() -> PathBuf {
    repo().join("tests/fixtures/hostile")
}

/// An attacker type file.
pub fn attacker(name: &str, hp: f64, speed: f64, extra: &str) -> String {
    format!(
        "(name: \"{name}\", size: Small, max_health: {hp}, speed: {speed}, min_spacing: 0.5, value: {hp}, {extra})"
    )
}

/// A blueprint file.
pub fn blueprint(name: &str, kind: &str, extra: &str) -> String {
    format!("(name: \"{name}\", kind: {kind}, rarity: Common, {extra})")
}

/// The code block of `docs/modding/lua-api.md` whose first line is a comment naming `file` under
/// `mods/`: documented examples are tested as they are written.
pub fn documented_file(file: &str) -> String {
    documented_in("lua-api.md", file)
}

/// The code block of `docs/modding/<page>` whose first line is a comment naming `file` under
/// `mods/` (the comment kept, so that line numbers are the page's).
pub fn documented_in(page: &str, file: &str) -> String {
    let text = std::fs::read_to_string(repo().join("docs/modding").join(page)).unwrap();
    let block = text
        .split("```")
        .skip(1)
        .step_by(2)
        .find(|b| {
            b.lines()
                .nth(1)
                .is_some_and(|l| l.ends_with(&format!(" mods/{file}")))
        })
        .unwrap_or_else(|| panic!("{page} has no block of mods/{file}"));
    block.split_once('\n').unwrap().1.to_string()
}

/// Put before a test script: `refused(f, words)` fails unless calling `f` is an error whose
/// message holds `words`.
pub const REFUSED: &str = r#"local function refused(f, words)
    local ok, err = pcall(f)
    if ok or not string.find(tostring(err), words, 1, true) then
        error("not refused with `" .. words .. "`: " .. tostring(err))
    end
end
"#;

/// A wave on path 0: `(ticks after the wave starts, attacker id)` pairs.
pub fn wave(list: &[(u32, &str)]) -> WaveSpawns {
    WaveSpawns {
        spawns: list
            .iter()
            .map(|&(delay, attacker)| WaveSpawn {
                delay,
                path: 0,
                attacker: attacker.into(),
            })
            .collect(),
    }
}

/// Runs the ignored test `test` (its full path in this binary) in a child process with `env`
/// set, and returns what it printed after `HASHES `: how determinism is checked across processes.
pub fn hashes_from_child(test: &str, env: &str) -> String {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            test,
            "--nocapture",
            "--include-ignored",
            "--test-threads=1",
        ])
        .env(env, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .find_map(|l| l.split_once("HASHES ").map(|(_, h)| h.to_string()))
        .expect("child printed its hashes")
}

/// Enters the first open battle room of the run's map: the run is then in that battle.
pub fn enter_battle(run: &mut rampart_core::run::Run, content: &ContentDb) {
    use rampart_core::content::acts::NodeKind;
    let map = run.map();
    let room = run
        .choices()
        .into_iter()
        .find(|&id| map.node(id).unwrap().kind == NodeKind::Battle)
        .expect("a battle room is open");
    run.enter(content, room).unwrap();
    assert_eq!(run.phase(), &rampart_core::run::RunPhase::Battle);
}

/// A diagnostic as `(line, column, message, help)`.
pub type Located = (u32, u32, String, Option<String>);

/// The diagnostics of the file whose path ends in `file`.
pub fn located(diagnostics: &[Diagnostic], file: &str) -> Vec<Located> {
    diagnostics
        .iter()
        .filter(|d| d.file.as_ref().is_some_and(|f| f.ends_with(file)))
        .map(|d| {
            let at = d.position.unwrap_or_else(|| panic!("no position: {d}"));
            (at.line, at.column, d.message.clone(), d.help.clone())
        })
        .collect()
}

/// A [`Located`] diagnostic, for comparing with [`located`]'s.
pub fn row(line: u32, column: u32, message: &str, help: Option<&str>) -> Located {
    (line, column, message.into(), help.map(Into::into))
}
