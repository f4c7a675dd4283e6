//! The render test: the real game client, under a virtual X display (Xvfb), plays its scripted
//! scene ([`scene`]): the first start's tutorial offer and
//! the tutorial's first steps, a battle room entered on a fixed seed's map, towers placed and a
//! refused placement, the first wave at 2× with a pause and a selected tower's highlights, the
//! pause screen (keys pressed behind it do nothing) and the settings screen over it, a tower
//! deleted, the run left and continued, the level's terrain file edited and then broken
//! (its error shows, the world stays), an ability and a test mod's script error in the second
//! wave, the rest of the level to its win, the reward cards and the map again, and a gallery of
//! every core blueprint's and attacker type's model (each of its cells must show a picture, and
//! the gallery many colours). Every screenshot
//! must show something (not one flat colour), each must differ from the one before, the
//! battle's must show the HUD's top bar, and what the scene saw (`hud.txt`) must include every
//! step and the HUD's texts.
//!
//! The test runs itself twice: started by `cargo test --test render`, it starts itself again under
//! `xvfb-run` with [`SCENE_DIR`] set, and that process opens the game with the scene added to
//! it, on the main thread as a window needs; then the first checks what the scene left behind.
//! The scene lives here, not in the game: a player's build has no scripted scene.
//!
//! Needs `xvfb-run` and a Vulkan driver that renders in software (Mesa's lavapipe); `.ci/run`
//! installs both. Set `RAMPART_UPDATE_SCREENSHOTS=1` to copy the screenshots into
//! `docs/screenshots/`.

mod frames;
mod scene;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// The screenshots the scene saves, in order.
const SHOTS: [&str; 17] = [
    "01-menu.png",
    "02-tutorial.png",
    "03-tutorial-place.png",
    "04-battle.png",
    "05-placing.png",
    "06-refused.png",
    "07-highlights.png",
    "08-continued.png",
    "09-reloaded.png",
    "10-broken.png",
    "11-problems.png",
    "12-wave.png",
    "13-won.png",
    "14-reward.png",
    "15-map.png",
    "16-settings.png",
    "17-gallery.png",
];
/// The screenshots of the battle screen, with the HUD.
const BATTLE: std::ops::Range<usize> = 1..13;

/// The HUD's top bar colour (`client::hud::BAR_RGB`).
const BAR_RGB: [u8; 3] = [13, 15, 20];

struct Picture {
    width: usize,
    height: usize,
    /// RGB bytes, rows from the top.
    rgb: Vec<u8>,
}

impl Picture {
    fn load(path: &Path) -> Picture {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
        decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let channels = info.color_type.samples();
        let rgb = buf[..info.buffer_size()]
            .chunks(channels)
            .flat_map(|px| [px[0], px[1 % channels], px[2 % channels]])
            .collect();
        Picture {
            width: info.width as usize,
            height: info.height as usize,
            rgb,
        }
    }

    fn pixel(&self, x: usize, y: usize) -> [u8; 3] {
        let i = (y * self.width + x) * 3;
        [self.rgb[i], self.rgb[i + 1], self.rgb[i + 2]]
    }

    /// How many distinct colours (quantised to 5 bits a channel) the picture has.
    fn colours(&self) -> usize {
        let mut seen = std::collections::HashSet::new();
        for px in self.rgb.chunks(3) {
            seen.insert((px[0] >> 3, px[1] >> 3, px[2] >> 3));
        }
        seen.len()
    }

    /// The share of pixels that differ noticeably from `other`'s.
    fn changed(&self, other: &Picture) -> f64 {
        if (self.width, self.height) != (other.width, other.height) {
            return 1.0;
        }
        let differ = self
            .rgb
            .chunks(3)
            .zip(other.rgb.chunks(3))
            .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
            .count();
        differ as f64 / (self.width * self.height) as f64
    }
}

/// Set in the process that plays the scene: where its screenshots and `hud.txt` go.
const SCENE_DIR: &str = "RAMPART_RENDER_SCENE";

/// The repository's root folder (the workspace's), where `mods/` and `tests/fixtures/` are.
fn repo() -> PathBuf {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    crate_dir.ancestors().nth(2).unwrap().to_path_buf()
}

fn main() -> ExitCode {
    match std::env::var_os(SCENE_DIR) {
        Some(dir) => play_scene(Path::new(&dir)),
        None => {
            print!("test scripted_scene_renders_every_step ... ");
            scripted_scene_renders_every_step();
            println!("ok");
            ExitCode::SUCCESS
        }
    }
}

/// Runs this test again under `xvfb-run` to play the scene into `out`, and waits for it.
fn run_scene(out: &Path, home: &Path) {
    let mut child = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(std::env::current_exe().unwrap())
        .env(SCENE_DIR, out)
        .env("RAMPART_HOME", home)
        // Software Vulkan; no real GPU is needed or used.
        .env("WGPU_BACKEND", "vulkan")
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("xvfb-run must be installed (.ci/run installs it)");
    // A whole level under a software renderer takes minutes.
    let deadline = Instant::now() + Duration::from_secs(1800);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let hud = std::fs::read_to_string(out.join("hud.txt")).unwrap_or_default();
            assert!(status.success(), "the client failed: {status}\n{hud}");
            return;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("the scripted scene did not finish in 30 minutes");
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Plays the scene into `dir` (in the process under Xvfb): the game with the core's mods copied
/// into `dir/mods` — the scene edits a terrain file to show hot reload — and, as an extra mods
/// folder, a mod whose script fails from tick 300, whose error must reach the player.
fn play_scene(dir: &Path) -> ExitCode {
    let dir = prepare(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let extra = vec![repo().join("tests/fixtures/client")];
    let loaded = rampart_client::load(&extra);
    // The player's folders, as `rampart play` finds them: in `RAMPART_HOME`, set by the test.
    let user = rampart_core::modding::UserDirs::detect();
    let options = rampart_client::ClientOptions {
        loaded,
        mods_dirs: extra,
        save_file: user.as_ref().map(|u| u.save_file()),
        profile_file: user.as_ref().map(|u| u.profile_file()),
        // The scene is looked at, not heard.
        audio: false,
    };
    let outcome = rampart_client::app(options).and_then(|mut app| {
        app.add_plugins(frames::FramesPlugin { dir: dir.clone() });
        app.add_plugins(scene::ScenePlugin { dir });
        rampart_client::play(app)
    });
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Makes `dir` with a fresh copy of the repository's `mods` folder in it, and makes it the
/// working folder, where the game finds its mods. Returns `dir` as an absolute path.
fn prepare(dir: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let dir = dir.canonicalize()?;
    let copy = dir.join("mods");
    if copy.exists() {
        std::fs::remove_dir_all(&copy)?;
    }
    let game = repo().join("mods");
    for entry in walkdir::WalkDir::new(&game) {
        let entry = entry?;
        let to = copy.join(entry.path().strip_prefix(&game).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to)?;
        } else {
            std::fs::copy(entry.path(), &to)?;
        }
    }
    std::env::set_current_dir(&dir)?;
    Ok(dir)
}

/// Checks the gallery: as many cells as `hud.txt` says it showed, each with a picture on the
/// gallery's background, and many colours among them.
fn check_gallery(p: &Picture, hud: &str) {
    let shown: usize = hud
        .lines()
        .find_map(|l| {
            l.strip_prefix("gallery: ")?
                .strip_suffix(" models")?
                .parse()
                .ok()
        })
        .unwrap_or_else(|| panic!("the scene showed no gallery:\n{hud}"));
    // Core has 28 blueprints and 29 attacker types.
    assert!(shown >= 50, "the gallery shows only {shown} models");
    let g = &scene::GALLERY;
    for i in 0..shown {
        let left = g.origin.0 + (i % g.columns) * g.cell.0 + (g.cell.0 - g.icon) / 2;
        let top = g.origin.1 + (i / g.columns) * g.cell.1;
        let drawn = (top..top + g.icon)
            .flat_map(|y| (left..left + g.icon).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let px = p.pixel(x, y);
                px.iter()
                    .zip(scene::GALLERY_RGB)
                    .any(|(a, b)| a.abs_diff(b) > 24)
            })
            .count();
        // A model covers a good part of its square.
        assert!(
            drawn * 20 > g.icon * g.icon,
            "gallery cell {i} is empty ({drawn} pixels drawn)"
        );
    }
    assert!(p.colours() > 400, "the gallery has {} colours", p.colours());
}

/// Plays the scene and checks what it left behind.
fn scripted_scene_renders_every_step() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("shots");
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    run_scene(&out, &home);

    let pictures: Vec<Picture> = SHOTS.iter().map(|s| Picture::load(&out.join(s))).collect();
    for (name, p) in SHOTS.iter().zip(&pictures) {
        assert!(
            p.colours() > 40,
            "{name} is blank ({} colours)",
            p.colours()
        );
    }
    for (pair, names) in pictures.windows(2).zip(SHOTS.windows(2)) {
        let changed = pair[1].changed(&pair[0]);
        assert!(
            changed > 0.002,
            "{} is unchanged from {} ({:.4} of pixels differ)",
            names[1],
            names[0],
            changed
        );
    }
    // The top bar spans the window's top edge in every battle screenshot.
    for (name, p) in SHOTS[BATTLE].iter().zip(&pictures[BATTLE]) {
        let near = (0..p.width)
            .step_by(8)
            .filter(|&x| {
                let px = p.pixel(x, 2);
                px.iter().zip(BAR_RGB).all(|(a, b)| a.abs_diff(b) < 30)
            })
            .count();
        assert!(near * 8 > p.width / 2, "{name}: no HUD bar at the top");
    }
    let frames = std::fs::read_to_string(out.join(frames::FILE)).unwrap();
    assert!(!frames.starts_with("0 frames"), "no battle frames timed");
    print!("(battle screen: {}) ", frames.trim());
    let hud = std::fs::read_to_string(out.join("hud.txt")).unwrap();
    check_gallery(&pictures[SHOTS.len() - 1], &hud);
    for needle in [
        "the first start offers the tutorial",
        "tutorial walked to step 4: Place a tower",
        "the menu offers Continue after leaving a run",
        "map screen: act 1, level 1",
        "placed towers: 3",
        "highlights: the selected tower (1)",
        "continued the saved run at tick",
        "paused banner: PAUSED: press P or Play to go on",
        "script error notice: Script error [faults] scripts/faults.lua:4",
        "problems list: Script error [faults]",
        "paused: the clock stood at tick",
        "wave 1 over",
        "behind the pause screen, P and 1 did nothing",
        "settings screen: master volume",
        "resumed: the world has the input again",
        "the info panel offers Delete",
        "deleted a tower: towers 3 -> 2",
        "terrain reloaded: first tile colour",
        "broken terrain file: the overlay shows",
        "terrain/plateaus.terrain:",
        "terrain file restored",
        "used in wave 2",
        "top bar: 1",
        "Wave: Wave 2",
        "Fuel: Fuel",
        "Materials: Materials",
        "Speed: ▶▶ 2×",
        "level won",
        "reward screen: 3 offers",
        "map after the reward: level 2, 2 rooms entered",
    ] {
        assert!(hud.contains(needle), "the scene lacks `{needle}`:\n{hud}");
    }
    // The edits went to the scene's copy of the mods, and the copy was put back as it was.
    let game = repo().join("mods/core/terrain");
    for entry in std::fs::read_dir(&game).unwrap() {
        let path = entry.unwrap().path();
        let copy = out
            .join("mods/core/terrain")
            .join(path.file_name().unwrap());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            std::fs::read_to_string(&copy).unwrap(),
            "{} was not restored",
            copy.display()
        );
    }

    if std::env::var_os("RAMPART_UPDATE_SCREENSHOTS").is_some() {
        let docs = repo().join("docs/screenshots");
        std::fs::create_dir_all(&docs).unwrap();
        for s in SHOTS {
            std::fs::copy(out.join(s), docs.join(s)).unwrap();
        }
    }
}
