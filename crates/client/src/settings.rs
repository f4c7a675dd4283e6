//! The player's settings: volumes, the window, the UI's scale, low quality for slow renderers,
//! the keys, reduced motion and the colour-blind palette. They are kept in `settings.ron` beside the player's profile, written
//! atomically (the previous file stays as `settings.ron.bak`) whenever one changes, and applied
//! at once. A file that cannot be read, or binds a key twice, gives way to the defaults with a
//! notice naming its file, line and column; the game never stops for it.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use bevy::window::{MonitorSelection, PrimaryWindow, VideoModeSelection, WindowMode};
use serde::{Deserialize, Serialize};

use super::bindings::Bindings;
use super::palette::Palette;
use rampart_core::diagnostics::{Diagnostic, SourceFile};
use rampart_core::{files, ron_file};

/// The name of the settings file, in the folder of the player's profile.
pub const FILE_NAME: &str = "settings.ron";

/// The least and most UI scale.
pub const UI_SCALE: (f32, f32) = (0.75, 1.5);
/// The window the UI is laid out for, in the window's pixels: a UI scale above 1 takes effect
/// only as far as the window has room for it (the HUD and the screens need this much).
pub const UI_ROOM: Vec2 = Vec2::new(1280.0, 720.0);
/// The UI scales the settings screen offers.
pub const UI_SCALES: [f32; 6] = [0.75, 0.9, 1.0, 1.1, 1.25, 1.5];
/// The smallest and largest window, in pixels.
const RESOLUTION: ((u32, u32), (u32, u32)) = ((640, 360), (7680, 4320));
/// Window sizes the settings screen offers, those that fit the screen.
pub const RESOLUTIONS: [(u32, u32); 7] = [
    (1280, 720),
    (1366, 768),
    (1600, 900),
    (1920, 1080),
    (2560, 1440),
    (3200, 1800),
    (3840, 2160),
];

/// What the player chose. Every field has a default, so a file that lacks one (written by an
/// older game) reads with it.
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// Every sound's volume, 0 to 1.
    pub master_volume: f32,
    /// The music's volume, 0 to 1 (times the master volume).
    pub music_volume: f32,
    /// The sound effects' volume, 0 to 1 (times the master volume).
    pub effects_volume: f32,
    /// Whether the game is silent while its window does not have the focus.
    pub mute_when_unfocused: bool,
    /// Windowed, borderless or fullscreen.
    pub window_mode: WindowChoice,
    /// The window's size in windowed mode, and the screen's in fullscreen, in pixels.
    pub resolution: (u32, u32),
    /// The size of the UI's text and panels: 1 is as designed.
    pub ui_scale: f32,
    /// Cheaper drawing for slow renderers: no shadows, no edge smoothing, fewer particles
    /// ([`Settings::particles`]).
    pub low_quality: bool,
    /// The keys of every control.
    pub keys: Bindings,
    /// Fewer things move: the camera turns at once, pop-ups and flashes stay where they
    /// appear, the tutorial's pointer does not pulse.
    pub reduced_motion: bool,
    /// The colours that carry meaning come from a palette people with a colour vision
    /// deficiency tell apart.
    pub colour_blind: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            master_volume: 0.8,
            music_volume: 0.7,
            effects_volume: 0.8,
            mute_when_unfocused: true,
            window_mode: WindowChoice::Windowed,
            resolution: (1280, 720),
            ui_scale: 1.0,
            low_quality: false,
            keys: Bindings::default(),
            reduced_motion: false,
            colour_blind: false,
        }
    }
}

/// How the window is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WindowChoice {
    /// A window of the chosen size.
    #[default]
    Windowed,
    /// A window without a border that covers the screen, at the screen's own resolution.
    Borderless,
    /// The screen is switched to the chosen resolution and the game has it alone.
    Fullscreen,
}

impl WindowChoice {
    /// Every choice, as the settings screen offers them.
    pub const ALL: [WindowChoice; 3] = [
        WindowChoice::Windowed,
        WindowChoice::Borderless,
        WindowChoice::Fullscreen,
    ];

    /// Its name on the settings screen.
    pub fn name(self) -> &'static str {
        match self {
            WindowChoice::Windowed => "Windowed",
            WindowChoice::Borderless => "Borderless",
            WindowChoice::Fullscreen => "Fullscreen",
        }
    }
}

/// A volume of the settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Channel {
    /// Every sound.
    Master,
    /// The music.
    Music,
    /// The sound effects.
    Effects,
}

impl Channel {
    /// Every volume, as the settings screen lists them.
    pub const ALL: [Channel; 3] = [Channel::Master, Channel::Music, Channel::Effects];

    /// Its name on the settings screen.
    pub fn name(self) -> &'static str {
        match self {
            Channel::Master => "Master volume",
            Channel::Music => "Music",
            Channel::Effects => "Effects",
        }
    }
}

/// A change the settings screen makes.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A volume up (positive) or down by this many tenths.
    Volume(Channel, i32),
    /// Silent while the window does not have the focus, or not.
    MuteUnfocused(bool),
    /// Windowed, borderless or fullscreen.
    WindowMode(WindowChoice),
    /// The window's (or the fullscreen's) size.
    Resolution(u32, u32),
    /// The UI's scale.
    UiScale(f32),
    /// Low quality on or off.
    LowQuality(bool),
    /// Reduced motion on or off.
    ReducedMotion(bool),
    /// The colour-blind palette on or off.
    ColourBlind(bool),
    /// Every key back to the default.
    ResetKeys,
}

/// `value` within `lo..=hi`, or `fallback` when it is no number.
fn within(value: f32, lo: f32, hi: f32, fallback: f32) -> f32 {
    if value.is_finite() {
        value.clamp(lo, hi)
    } else {
        fallback
    }
}

impl Settings {
    /// The volume of `channel`.
    pub fn volume(&self, channel: Channel) -> f32 {
        match channel {
            Channel::Master => self.master_volume,
            Channel::Music => self.music_volume,
            Channel::Effects => self.effects_volume,
        }
    }

    fn volume_mut(&mut self, channel: Channel) -> &mut f32 {
        match channel {
            Channel::Master => &mut self.master_volume,
            Channel::Music => &mut self.music_volume,
            Channel::Effects => &mut self.effects_volume,
        }
    }

    /// The settings with every number in its range: volumes 0 to 1, the UI scale within
    /// [`UI_SCALE`], the resolution within what a window can be; numbers that are no numbers
    /// take the default's.
    pub fn clamped(mut self) -> Settings {
        let default = Settings::default();
        for channel in Channel::ALL {
            let v = self.volume(channel);
            *self.volume_mut(channel) = within(v, 0.0, 1.0, default.volume(channel));
        }
        self.ui_scale = within(self.ui_scale, UI_SCALE.0, UI_SCALE.1, default.ui_scale);
        let ((w0, h0), (w1, h1)) = RESOLUTION;
        self.resolution = (
            self.resolution.0.clamp(w0, w1),
            self.resolution.1.clamp(h0, h1),
        );
        self
    }

    /// How many of `full` live particles to keep: all of them, or a third in low quality (at
    /// least one, so an effect still shows).
    pub fn particles(&self, full: usize) -> usize {
        if self.low_quality {
            full.div_ceil(3)
        } else {
            full
        }
    }

    /// Makes `change`.
    pub fn change(&mut self, change: &Change) {
        match *change {
            Change::Volume(channel, tenths) => {
                let v = self.volume(channel) + tenths as f32 / 10.0;
                // Kept to whole percents, so that steps land on tenths again.
                *self.volume_mut(channel) = (v.clamp(0.0, 1.0) * 100.0).round() / 100.0;
            }
            Change::MuteUnfocused(on) => self.mute_when_unfocused = on,
            Change::WindowMode(mode) => self.window_mode = mode,
            Change::Resolution(w, h) => self.resolution = (w, h),
            Change::UiScale(scale) => self.ui_scale = scale,
            Change::LowQuality(on) => self.low_quality = on,
            Change::ReducedMotion(on) => self.reduced_motion = on,
            Change::ColourBlind(on) => self.colour_blind = on,
            Change::ResetKeys => self.keys = Bindings::default(),
        }
        *self = std::mem::take(self).clamped();
    }

    /// Reads the settings in `path`: the defaults when there is no file, and when the file
    /// cannot be used, with why (its file, line and column) for the player.
    pub fn load(path: &Path) -> (Settings, Option<String>) {
        if !path.exists() {
            return (Settings::default(), None);
        }
        match Settings::read(path) {
            Ok(settings) => (settings, None),
            Err(problem) => {
                let notice = format!(
                    "{}. The default settings are used; changing one writes a new file and \
                     keeps the old one as {FILE_NAME}.bak",
                    problem.summary()
                );
                warn!("{notice}");
                (Settings::default(), Some(notice))
            }
        }
    }

    /// Reads and checks the settings in `path`.
    fn read(path: &Path) -> Result<Settings, Diagnostic> {
        let file = SourceFile::read(path)?;
        let read: Settings = ron_file::parse(&file)?;
        let mut settings = read.clamped();
        settings.keys = settings.keys.completed();
        if let Some((chord, first, second)) = settings.keys.conflict() {
            // Point at the key's second mention, where it is bound again.
            let code = chord.code();
            let at = ron_file::find_string(&file, &code)
                .and_then(|first| ron_file::find_string_from(&file, &code, first + 1))
                .unwrap_or(0);
            return Err(Diagnostic::error(format!(
                "{chord} is bound to both \"{}\" and \"{}\"",
                first.name(),
                second.name()
            ))
            .at(&file, at, code.len() + 2));
        }
        Ok(settings)
    }

    /// Writes the settings to `path` atomically, keeping the previous file as its backup.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = ron_file::to_string(self).map_err(|e| e.to_string())?;
        files::write_atomically(path, (text + "\n").as_bytes())
            .map_err(|e| format!("the settings could not be saved to {}: {e}", path.display()))
    }
}

/// Where the settings are kept, and what the player should hear about them.
#[derive(Resource, Debug, Default)]
pub struct SettingsFile {
    /// The file; `None` keeps the settings for this session only (no user folder).
    pub path: Option<PathBuf>,
    /// Why the file was not used, or could not be written, until the settings are saved.
    pub notice: Option<String>,
}

impl SettingsFile {
    /// Saves `settings`; a failure becomes the notice, a success clears it.
    pub fn save(&mut self, settings: &Settings) {
        let Some(path) = &self.path else {
            return;
        };
        self.notice = settings.save(path).err();
    }
}

/// The settings file beside the profile file `profile`.
pub fn file_beside(profile: &Path) -> PathBuf {
    profile.with_file_name(FILE_NAME)
}

/// Keeps the settings and applies them to the window, the UI's scale and the palette.
pub struct SettingsPlugin {
    /// The settings as read before the window opened.
    pub settings: Settings,
    /// Where they are kept, and why the file was not used.
    pub file: SettingsFile,
}

impl Plugin for SettingsPlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(self.settings.clone())
            .insert_resource(SettingsFile {
                path: self.file.path.clone(),
                notice: self.file.notice.clone(),
            })
            .insert_resource(Palette::of(&self.settings))
            .add_systems(
                Update,
                (apply_display, apply_palette).run_if(resource_changed::<Settings>),
            )
            // Every frame: a battle's sun comes and goes with its screen.
            .add_systems(Update, apply_quality)
            // Every frame: the window may be resized.
            .add_systems(Update, fit_ui_scale);
    }
}

/// The window mode `choice` asks for, at `resolution` in fullscreen when the screen has that
/// mode (else at the screen's own).
pub fn window_mode(
    choice: WindowChoice,
    resolution: (u32, u32),
    monitors: &[&bevy::window::Monitor],
) -> WindowMode {
    match choice {
        WindowChoice::Windowed => WindowMode::Windowed,
        WindowChoice::Borderless => WindowMode::BorderlessFullscreen(MonitorSelection::Current),
        WindowChoice::Fullscreen => {
            let wanted = UVec2::new(resolution.0, resolution.1);
            let video = monitors
                .iter()
                .flat_map(|m| &m.video_modes)
                .filter(|v| v.physical_size == wanted)
                .max_by_key(|v| (v.refresh_rate_millihertz, v.bit_depth))
                .copied();
            WindowMode::Fullscreen(
                MonitorSelection::Current,
                video.map_or(VideoModeSelection::Current, VideoModeSelection::Specific),
            )
        }
    }
}

/// The UI scale shown in a window of `window` pixels when `chosen` is chosen: above 1 only as
/// far as the window has room ([`UI_ROOM`]), so that every screen still fits.
pub fn ui_scale(chosen: f32, window: Vec2) -> f32 {
    let room = (window.x / UI_ROOM.x).min(window.y / UI_ROOM.y).max(1.0);
    chosen.min(room)
}

/// The UI's scale as the settings say, as far as the window has room.
fn fit_ui_scale(
    settings: Res<Settings>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut scale: ResMut<UiScale>,
) {
    let Ok(window) = windows.single() else {
        return;
    };
    let wanted = ui_scale(settings.ui_scale, window.size());
    if scale.0 != wanted {
        scale.0 = wanted;
    }
}

/// The window as the settings say.
fn apply_display(
    settings: Res<Settings>,
    mut windows: Query<&mut Window, With<PrimaryWindow>>,
    monitors: Query<&bevy::window::Monitor>,
) {
    let monitors: Vec<&bevy::window::Monitor> = monitors.iter().collect();
    for mut window in &mut windows {
        let mode = window_mode(settings.window_mode, settings.resolution, &monitors);
        if window.mode != mode {
            window.mode = mode;
        }
        let (w, h) = settings.resolution;
        if settings.window_mode == WindowChoice::Windowed
            && (
                window.resolution.physical_width(),
                window.resolution.physical_height(),
            ) != (w, h)
        {
            window.resolution.set_physical_resolution(w, h);
        }
    }
}

/// Shadows and edge smoothing as the quality setting says; edge smoothing on every camera, since
/// the UI's draws into the window over the world's and the two must agree.
fn apply_quality(
    settings: Res<Settings>,
    mut lights: Query<&mut DirectionalLight>,
    mut cameras: Query<&mut Msaa, With<Camera>>,
) {
    let full = !settings.low_quality;
    for mut light in &mut lights {
        if light.shadow_maps_enabled != full {
            light.shadow_maps_enabled = full;
        }
    }
    let msaa = if full { Msaa::Sample4 } else { Msaa::Off };
    for mut m in &mut cameras {
        if *m != msaa {
            *m = msaa;
        }
    }
}

fn apply_palette(settings: Res<Settings>, mut palette: ResMut<Palette>) {
    let wanted = Palette::of(&settings);
    if *palette != wanted {
        *palette = wanted;
    }
}

/// The window sizes to offer on a screen of `largest` pixels (any, when the screen is not
/// known), and the one chosen now.
pub fn resolutions(largest: Option<UVec2>, chosen: (u32, u32)) -> Vec<(u32, u32)> {
    let mut offered: Vec<(u32, u32)> = RESOLUTIONS
        .into_iter()
        .filter(|&(w, h)| largest.is_none_or(|l| w <= l.x && h <= l.y))
        .collect();
    if !offered.contains(&chosen) {
        offered.push(chosen);
        offered.sort();
    }
    offered
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::{Chord, Control};

    #[test]
    fn settings_are_written_and_read_back_the_same() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config").join(FILE_NAME);
        let mut settings = Settings::default();
        settings.change(&Change::Volume(Channel::Music, -3));
        settings.change(&Change::WindowMode(WindowChoice::Borderless));
        settings.change(&Change::UiScale(1.25));
        settings.change(&Change::ColourBlind(true));
        settings.change(&Change::LowQuality(true));
        settings
            .keys
            .bind(
                Control::PanUp,
                1,
                Chord {
                    key: KeyCode::ArrowUp,
                    ctrl: false,
                },
            )
            .unwrap();
        settings.save(&path).unwrap();
        assert_eq!(Settings::load(&path), (settings.clone(), None));
        // Written again, the first file stays as the backup.
        settings.change(&Change::ReducedMotion(true));
        settings.save(&path).unwrap();
        assert!(files::backup_of(&path).is_file());
        assert_eq!(Settings::load(&path).0, settings);
    }

    #[test]
    fn low_quality_keeps_a_third_of_the_particles() {
        let mut settings = Settings::default();
        assert_eq!(settings.particles(300), 300);
        settings.change(&Change::LowQuality(true));
        assert_eq!(settings.particles(300), 100);
        assert_eq!(settings.particles(1), 1);
    }

    #[test]
    fn no_file_is_the_defaults_without_a_word() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            Settings::load(&dir.path().join(FILE_NAME)),
            (Settings::default(), None)
        );
    }

    #[test]
    fn a_broken_file_gives_the_defaults_and_says_where_it_broke() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(
            &path,
            "(\n    master_volume: 0.5,\n    music_volume: loud,\n)\n",
        )
        .unwrap();
        let (settings, notice) = Settings::load(&path);
        assert_eq!(settings, Settings::default());
        let notice = notice.unwrap();
        assert!(
            notice.contains(&format!("{}:3:", path.display())),
            "{notice}"
        );
        assert!(notice.contains("default settings are used"), "{notice}");
        // Not even text.
        std::fs::write(&path, [0xff, 0xfe, 0x00]).unwrap();
        let (settings, notice) = Settings::load(&path);
        assert_eq!(settings, Settings::default());
        assert!(notice.unwrap().contains(&path.display().to_string()));
    }

    #[test]
    fn a_file_that_binds_a_key_twice_gives_the_defaults_and_names_both_controls() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        let text = "(\n    keys: {\n        StartWave: [\"Space\"],\n        Pause: [\"KeyP\", \
                    \"Space\"],\n    },\n)\n";
        std::fs::write(&path, text).unwrap();
        let (settings, notice) = Settings::load(&path);
        assert_eq!(settings.keys, Bindings::default());
        let notice = notice.unwrap();
        assert!(
            notice.contains("Space is bound to both \"Start the next wave\" and \"Pause / play\""),
            "{notice}"
        );
        // The second mention: line 4, after `Pause: ["KeyP", `.
        assert!(
            notice.contains(&format!("{}:4:", path.display())),
            "{notice}"
        );
    }

    #[test]
    fn numbers_out_of_range_are_brought_into_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(
            &path,
            "(master_volume: 3.0, effects_volume: -1.0, ui_scale: 9.0, resolution: (10, 99999))",
        )
        .unwrap();
        let (settings, notice) = Settings::load(&path);
        assert_eq!(notice, None);
        assert_eq!(settings.master_volume, 1.0);
        assert_eq!(settings.effects_volume, 0.0);
        assert_eq!(settings.ui_scale, UI_SCALE.1);
        assert_eq!(settings.resolution, (640, 4320));
        // What the file does not name keeps its default.
        assert_eq!(settings.music_volume, Settings::default().music_volume);
        let mut settings = Settings::default();
        settings.change(&Change::Volume(Channel::Master, 5));
        assert_eq!(settings.master_volume, 1.0);
        settings.change(&Change::Volume(Channel::Master, -3));
        assert_eq!(settings.master_volume, 0.7);
        settings.change(&Change::UiScale(f32::NAN));
        assert_eq!(settings.ui_scale, 1.0);
    }

    #[test]
    fn a_large_ui_scale_takes_effect_as_far_as_the_window_has_room() {
        assert_eq!(ui_scale(1.5, Vec2::new(1280.0, 720.0)), 1.0);
        assert_eq!(ui_scale(1.5, Vec2::new(1920.0, 1080.0)), 1.5);
        assert_eq!(ui_scale(1.5, Vec2::new(1600.0, 1080.0)), 1.25);
        // Smaller is always room enough.
        assert_eq!(ui_scale(0.75, Vec2::new(800.0, 600.0)), 0.75);
    }

    #[test]
    fn fullscreen_takes_the_screens_mode_of_the_chosen_size() {
        use bevy::window::{Monitor, VideoMode};
        let mode = |w, h, hz| VideoMode {
            physical_size: UVec2::new(w, h),
            bit_depth: 24,
            refresh_rate_millihertz: hz,
        };
        let monitor = Monitor {
            name: None,
            physical_height: 1440,
            physical_width: 2560,
            physical_position: IVec2::ZERO,
            refresh_rate_millihertz: None,
            scale_factor: 1.0,
            video_modes: vec![mode(1920, 1080, 60_000), mode(1920, 1080, 144_000)],
        };
        assert_eq!(
            window_mode(WindowChoice::Fullscreen, (1920, 1080), &[&monitor]),
            WindowMode::Fullscreen(
                MonitorSelection::Current,
                VideoModeSelection::Specific(mode(1920, 1080, 144_000))
            )
        );
        assert_eq!(
            window_mode(WindowChoice::Fullscreen, (1600, 900), &[&monitor]),
            WindowMode::Fullscreen(MonitorSelection::Current, VideoModeSelection::Current)
        );
        assert_eq!(
            resolutions(Some(UVec2::new(1920, 1080)), (1000, 700)),
            [
                (1000, 700),
                (1280, 720),
                (1366, 768),
                (1600, 900),
                (1920, 1080)
            ]
        );
    }
}
