//! The game client: a Bevy host over the core. It reads the battle's state and submits
//! [`PlayerCommand`](rampart_core::battle::PlayerCommand)s; it never changes the battle any other way.
//!
//! One plugin per concern: the shared UI pieces ([`ui`]) with the game's fonts ([`fonts`]), every button's and key's action
//! ([`actions`]) for whoever has the input ([`input`]), the player's settings ([`settings`],
//! [`settings_screen`]) with the keys ([`bindings`]) and the colours ([`palette`]), the screens
//! around the battle ([`menu`]), the run's map ([`run_map`]), its
//! shops and events ([`stops`]), the running level and its clock
//! ([`session`]), the world's meshes ([`terrain`]), the camera ([`camera`]), what happens in the
//! battle ([`units`]) with the blueprints' and attackers' models and the icons made from
//! them ([`models`]) and the feedback of every hit ([`feedback`]), the heads-up display
//! ([`hud`]), selecting and placing ([`placing`]) with
//! descriptions drawn in colour ([`rich`]), hot reload of mod files ([`reload`]), the debug
//! overlay on F3 ([`debug`]). Each frame runs [`ClientSet::Input`],
//! then [`ClientSet::Simulate`], then [`ClientSet::Present`].
//! `docs/client.md` lists the controls.

#![expect(
    clippy::too_many_arguments,
    clippy::type_complexity,
    reason = "Bevy systems receive what they work on as parameters, so long parameter lists and \
              nested query types are the norm here"
)]

pub mod actions;
pub mod audio;
pub mod bindings;
pub mod camera;
pub mod cards;
pub mod debug;
pub mod drawn;
pub mod feedback;
#[cfg(test)]
mod fit;
pub mod fonts;
pub mod highlight;
pub mod hp;
pub mod hud;
pub mod input;
pub mod menu;
pub mod models;
pub mod mods;
pub mod overlay;
pub mod palette;
pub mod placing;
pub mod reload;
pub mod render_scale;
pub mod rich;
pub mod run_map;
pub mod saving;
pub mod session;
pub mod settings;
pub mod settings_screen;
pub mod stops;
pub mod terrain;
pub mod tutorial;
pub mod ui;
pub mod units;
pub mod wave_preview;

use std::path::PathBuf;
use std::sync::Arc;

use bevy::app::PluginGroupBuilder;
use bevy::asset::UnapprovedPathMode;
use bevy::prelude::*;
use bevy::window::WindowResolution;

use rampart_core::content::ContentDb;
use rampart_core::modding::{ModList, find_mods};
use settings::{Settings, SettingsFile};

/// The mods as loaded: their content, and the list of every mod found with its state and
/// problems.
pub struct Loaded {
    /// The content of the mods that load.
    pub db: ContentDb,
    /// Every mod found, with the problems of finding and loading it.
    pub mods: ModList,
}

/// Finds the mods (in `./mods`, the player's mods folder and the `extra` folders, with the
/// player's choices) and loads their content.
pub fn load(extra: &[PathBuf]) -> Loaded {
    let found = find_mods(extra);
    let (db, diagnostics) = ContentDb::load(&found.mods);
    let mods = found.mods.list(diagnostics.iter());
    Loaded { db, mods }
}

/// What the client starts with.
pub struct ClientOptions {
    /// The mods as loaded before the window opened.
    pub loaded: Loaded,
    /// The extra mods folders (`--mods-dir`), looked in again whenever the mods are loaded
    /// again: hot reload, the Mods screen.
    pub mods_dirs: Vec<PathBuf>,
    /// Where the run in progress is saved; `None` saves nothing.
    pub save_file: Option<PathBuf>,
    /// Where what the game remembers of the player is kept (whether the tutorial was offered);
    /// the player's settings are kept beside it.
    pub profile_file: Option<PathBuf>,
    /// Whether to play sound (`--no-audio` says no): without, no sound output is opened.
    pub audio: bool,
}

/// The screens of the game.
#[derive(States, Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Screen {
    /// Start, Custom Run, Mods, Exit.
    #[default]
    Menu,
    /// The installed mods: switching them on and off, their problems.
    Mods,
    /// The seed, starting blueprints, difficulty and ascension of a custom run.
    RunSettings,
    /// The act's map: choosing the next room.
    Map,
    /// A level being played.
    Battle,
    /// Choosing a blueprint after a won level (or an event that gave one).
    Reward,
    /// A shop room: buying, then back to the map.
    Shop,
    /// An event room: its text, choices and what came of the choice.
    Event,
    /// The run is over, won or lost.
    RunEnd,
}

/// The order of a frame: what the player did, then the battle's clock and hot reload, then
/// everything drawn from the result.
#[derive(SystemSet, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientSet {
    /// Keys, buttons, the cursor and the camera's steering.
    Input,
    /// Ticks of the battle; reloaded content applied.
    Simulate,
    /// The world, units, HUD and panels drawn from the battle as it is now.
    Present,
}

/// The loaded content, shared by every screen.
#[derive(Resource, Clone)]
pub struct Content {
    /// The content in use (replaced by hot reload and by switching mods).
    pub db: Arc<ContentDb>,
    /// Every mod found when `db` was loaded, with its state and problems.
    pub mods: Arc<ModList>,
    /// The extra mods folders, for loading again.
    dirs: Arc<[PathBuf]>,
}

impl Content {
    /// The content of `loaded`, which was loaded with the extra mods folders `dirs`.
    pub fn new(loaded: Loaded, dirs: Vec<PathBuf>) -> Content {
        Content {
            db: Arc::new(loaded.db),
            mods: Arc::new(loaded.mods),
            dirs: dirs.into(),
        }
    }

    /// Finds and loads the mods again, from the same folders.
    pub fn load(&self) -> Loaded {
        load(&self.dirs)
    }

    /// The extra mods folders.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }
}

/// Why the game cannot open a window here, if it cannot. Only X11 systems (Linux, the BSDs) need
/// a display named in the environment; Windows and macOS always have their own.
fn missing_display() -> Option<String> {
    if !cfg!(all(unix, not(target_os = "macos"))) {
        return None;
    }
    let display = std::env::var("DISPLAY").unwrap_or_default();
    if display.is_empty() {
        return Some(
            "no display: the game needs an X11 display (DISPLAY is not set). \
             On a machine without a screen, run it under `xvfb-run`."
                .into(),
        );
    }
    // A local display `:N` listens on a socket; without it, winit would panic on connecting.
    if let Some(number) = display
        .strip_prefix(':')
        .and_then(|d| d.split('.').next())
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    {
        let socket = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
        if !socket.exists() {
            return Some(format!(
                "no display: DISPLAY is {display}, but no X server listens at {}",
                socket.display()
            ));
        }
    }
    None
}

/// Opens the game window and plays until it is closed.
pub fn run(options: ClientOptions) -> Result<(), ClientError> {
    play(app(options)?)
}

/// The game as a Bevy app, not yet running: every plugin of the game added, so that a host (the
/// render test's scripted scene) may add its own before [`play`].
pub fn app(options: ClientOptions) -> Result<App, ClientError> {
    if let Some(why) = missing_display() {
        return Err(ClientError::NoDisplay(why));
    }
    // The settings first: the window opens as they say.
    let path = options.profile_file.as_deref().map(settings::file_beside);
    let (settings, notice) = path
        .as_deref()
        .map_or((Settings::default(), None), Settings::load);
    let (width, height) = settings.resolution;
    let mut app = App::new();
    app.add_plugins(
        DefaultPlugins
            .set(WindowPlugin {
                primary_window: Some(Window {
                    title: "Rampart".into(),
                    resolution: WindowResolution::new(width, height),
                    mode: settings::window_mode(settings.window_mode, settings.resolution, &[]),
                    ..default()
                }),
                ..default()
            })
            // Mods' glTF models are read from their own folders, outside Bevy's asset folder,
            // by loads that ask for it (`models/gltf.rs`).
            .set(AssetPlugin {
                unapproved_path_mode: UnapprovedPathMode::Deny,
                ..default()
            }),
    )
    .insert_resource(ClearColor(Color::srgb(0.08, 0.09, 0.11)))
    .insert_resource(Content::new(options.loaded, options.mods_dirs))
    .init_state::<Screen>()
    .configure_sets(
        Update,
        (ClientSet::Input, ClientSet::Simulate, ClientSet::Present).chain(),
    )
    .add_plugins((
        settings::SettingsPlugin {
            settings,
            file: SettingsFile { path, notice },
        },
        settings_screen::SettingsScreenPlugin,
    ))
    .add_plugins((
        ui::UiPlugin,
        rich::IconsPlugin,
        actions::ActionsPlugin,
        menu::MenuPlugin,
        mods::ModsPlugin,
        session::SessionPlugin,
        terrain::TerrainPlugin,
        camera::CameraPlugin,
        PresentPlugins,
        placing::PlacingPlugin,
    ))
    .add_plugins((
        render_scale::RenderScalePlugin,
        overlay::OverlayPlugin,
        highlight::HighlightPlugin,
        reload::ReloadPlugin,
        saving::SavingPlugin {
            file: options.save_file,
            profile: options.profile_file,
        },
        tutorial::TutorialPlugin,
        cards::CardsPlugin,
        run_map::RunMapPlugin,
        stops::StopsPlugin,
        debug::DebugOverlayPlugin,
        audio::AudioPlugin {
            enabled: options.audio,
        },
    ));
    Ok(app)
}

/// The plugins that draw a battle from its state each frame: its units with their models, the
/// feedback of every hit, what scripts draw, HP bars, the HUD and the wave preview. The game
/// adds them among the rest; the frame benchmark adds them alone, without a window.
pub struct PresentPlugins;

impl PluginGroup for PresentPlugins {
    fn build(self) -> PluginGroupBuilder {
        PluginGroupBuilder::start::<Self>()
            .add(units::UnitsPlugin)
            .add(models::ModelsPlugin)
            .add(feedback::FeedbackPlugin)
            .add(drawn::DrawnPlugin)
            .add(hp::HpPlugin)
            .add(hud::HudPlugin)
            .add(wave_preview::WavePreviewPlugin)
    }
}

/// Runs `app` (made by [`app`]) until its window is closed.
pub fn play(mut app: App) -> Result<(), ClientError> {
    // A window system that fails anyway (a display that refuses us) ends in a message too.
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || app.run()));
    match outcome {
        Ok(AppExit::Success) => Ok(()),
        Ok(AppExit::Error(code)) => Err(ClientError::Failed(code.get())),
        Err(_) => Err(ClientError::Crashed),
    }
}

/// Why the game ended other than by the player quitting.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// There is no display to open a window on.
    #[error("{0}")]
    NoDisplay(String),
    /// The window system failed, or the game panicked.
    #[error("the game window could not be opened or the game stopped unexpectedly")]
    Crashed,
    /// The game ended with an error code (a plugin asked it to, such as the render test's
    /// scripted scene when a step did not play as written).
    #[error("the game ended with error code {0}")]
    Failed(u8),
}

/// Converts a battle point (east `x`, north `y`, height `h`) to Bevy's space (Y up, north −Z).
pub fn to_bevy(x: f64, y: f64, h: f64) -> Vec3 {
    Vec3::new(x as f32, h as f32, -y as f32)
}
