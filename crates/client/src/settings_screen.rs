//! The settings screen, opened from the main menu and from a battle's pause screen: the
//! volumes and muting without the focus, the window's mode and size, the UI's scale, reduced
//! motion and the colour-blind palette, and every control's keys. A click on a key waits for
//! the key to bind ("press a key"); a key another control has is refused with its name. Every
//! change is saved and applied at once ([`settings`](super::settings)).

use bevy::prelude::*;
use bevy::window::Monitor;

use super::bindings::{Chord, Control, KEYS_PER_CONTROL};
use super::input::{Layer, Layers};
use super::settings::{
    Change, Channel, Settings, SettingsFile, UI_SCALES, WindowChoice, resolutions,
};
use super::ui::{
    Action, GOLD, MUTED, PANEL, ScrollArea, WARN, button, dialog, label, scroll_screen,
    sized_choice_button,
};
use super::{ClientSet, Screen};

/// Shows the settings screen while it is open.
pub struct SettingsScreenPlugin;

impl Plugin for SettingsScreenPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<SettingsView>()
            .add_systems(Update, show.in_set(ClientSet::Present));
    }
}

/// What the settings screen says besides the settings: the last key bound, or why a key was
/// refused.
#[derive(Resource, Default, Debug)]
pub struct SettingsView {
    /// The message, if any.
    pub message: Option<String>,
}

/// How a key pressed while a control waits for one ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Captured {
    /// The key is bound: the capture is over and the settings changed.
    Bound,
    /// The Back key (for another control than Back): the capture is over, nothing changed.
    Cancelled,
    /// Another control has the key: the capture goes on, and the screen says why.
    Refused,
}

/// Takes `chord`, pressed while key `slot` of `control` waits for one.
pub fn capture(
    settings: &mut Settings,
    view: &mut SettingsView,
    control: Control,
    slot: usize,
    chord: Chord,
) -> Captured {
    if control != Control::Back && settings.keys.control_of(chord) == Some(Control::Back) {
        view.message = None;
        return Captured::Cancelled;
    }
    match settings.keys.bind(control, slot, chord) {
        Ok(()) => {
            view.message = Some(format!(
                "{}: {}",
                control.name(),
                settings.keys.describe(control)
            ));
            Captured::Bound
        }
        Err(why) => {
            view.message = Some(why);
            Captured::Refused
        }
    }
}

/// The screen's root.
#[derive(Component)]
pub(crate) struct SettingsRoot;

/// The list of controls, whose scroll position outlives the screen being drawn again.
#[derive(Component)]
pub(crate) struct KeyList;

/// Draws the screen again whenever the settings, the layers or the message change, keeping
/// where the list of keys was scrolled to.
pub(crate) fn show(
    mut commands: Commands,
    settings: Res<Settings>,
    file: Res<SettingsFile>,
    view: Res<SettingsView>,
    layers: Res<Layers>,
    screen: Res<State<Screen>>,
    scale: Res<UiScale>,
    monitors: Query<&Monitor>,
    roots: Query<Entity, With<SettingsRoot>>,
    lists: Query<&ScrollPosition, With<KeyList>>,
    pages: Query<&ScrollPosition, With<SettingsRoot>>,
) {
    let open = layers.has(&Layer::Settings);
    let stale = settings.is_changed()
        || scale.is_changed()
        || file.is_changed()
        || view.is_changed()
        || layers.is_changed()
        || screen.is_changed();
    let shown = !roots.is_empty();
    if !stale && open == shown {
        return;
    }
    let scrolled = lists.iter().next().cloned().unwrap_or_default();
    let page = pages.iter().next().cloned().unwrap_or_default();
    for root in &roots {
        commands.entity(root).despawn();
    }
    if !open {
        return;
    }
    let largest = monitors
        .iter()
        .map(|m| UVec2::new(m.physical_width, m.physical_height))
        .max_by_key(|s| s.x * s.y);
    let capturing = match layers.top() {
        Some(&Layer::Capture { control, slot }) => Some((control, slot)),
        _ => None,
    };
    // Taller than a small window: the screen scrolls (from where it was, when it is drawn
    // again after a change), its column centred while it is shorter.
    let root = commands
        .spawn((
            SettingsRoot,
            scroll_screen(),
            BackgroundColor(PANEL.with_alpha(1.0)),
            GlobalZIndex(20),
        ))
        .insert(page)
        .id();
    if let Some((control, _)) = capturing {
        commands
            .entity(root)
            .with_child(capture_box(control, &settings, view.message.as_deref()));
    }
    let page = commands
        .spawn((
            Node {
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                margin: UiRect::vertical(Val::Auto),
                padding: UiRect::vertical(Val::Px(8.0)),
                row_gap: Val::Px(6.0),
                ..default()
            },
            ChildOf(root),
        ))
        .id();
    commands.entity(page).with_children(|c| {
        c.spawn(label("Settings", 30.0, Color::WHITE));
        c.spawn(Node {
            column_gap: Val::Px(32.0),
            align_items: AlignItems::FlexStart,
            ..default()
        })
        .with_children(|columns| {
            columns
                .spawn(column(540.0))
                .with_children(|left| general(left, &settings, largest, scale.0));
            columns
                .spawn(column(450.0))
                .with_children(|right| keys(right, &settings, capturing, scrolled));
        });
        let notice = file.notice.as_ref().or(view.message.as_ref());
        if let Some(notice) = notice.filter(|_| capturing.is_none()) {
            let colour = if file.notice.is_some() { WARN } else { GOLD };
            c.spawn(label(notice.clone(), 14.0, colour));
        }
        if let Some(path) = &file.path {
            c.spawn(label(format!("Saved in {}", path.display()), 12.0, MUTED));
        }
        c.spawn(button("Back", Action::Close));
    });
}

fn column(width: f32) -> Node {
    Node {
        width: Val::Px(width),
        flex_direction: FlexDirection::Column,
        row_gap: Val::Px(2.0),
        ..default()
    }
}

fn heading(text: &str) -> impl Bundle {
    (
        label(text, 19.0, GOLD),
        Node {
            margin: UiRect::top(Val::Px(6.0)),
            ..default()
        },
    )
}

/// A row: its name on the left, then what `fill` puts after it.
fn row(
    parent: &mut ChildSpawnerCommands,
    name: &str,
    fill: impl FnOnce(&mut ChildSpawnerCommands),
) {
    parent
        .spawn(Node {
            align_items: AlignItems::Center,
            flex_wrap: FlexWrap::Wrap,
            ..default()
        })
        .with_children(|r| {
            r.spawn((
                label(name, 15.0, MUTED),
                TextLayout::no_wrap(),
                Node {
                    width: Val::Px(140.0),
                    flex_shrink: 0.0,
                    ..default()
                },
            ));
            fill(r);
        });
}

/// On and Off buttons for a switch.
/// A row with an On/Off switch for a setting that is `on` now, and what it does below it.
fn switch_row(
    c: &mut ChildSpawnerCommands,
    name: &str,
    (on, change): (bool, fn(bool) -> Change),
    explained: &str,
) {
    row(c, name, |r| switch(r, on, change));
    c.spawn(label(explained, 13.0, MUTED));
}

fn switch(r: &mut ChildSpawnerCommands, on: bool, change: fn(bool) -> Change) {
    r.spawn(sized_choice_button(
        "On",
        Action::Setting(change(true)),
        on,
        15.0,
    ));
    r.spawn(sized_choice_button(
        "Off",
        Action::Setting(change(false)),
        !on,
        15.0,
    ));
}

/// Sound, display and accessibility.
fn general(
    c: &mut ChildSpawnerCommands,
    settings: &Settings,
    largest: Option<UVec2>,
    shown_scale: f32,
) {
    c.spawn(heading("Sound"));
    for channel in Channel::ALL {
        row(c, channel.name(), |r| {
            let step = |tenths| Action::Setting(Change::Volume(channel, tenths));
            r.spawn(sized_choice_button("-", step(-1), false, 14.0));
            r.spawn((
                label(
                    format!("{:.0}%", settings.volume(channel) * 100.0),
                    16.0,
                    Color::WHITE,
                ),
                Node {
                    width: Val::Px(52.0),
                    justify_content: JustifyContent::Center,
                    ..default()
                },
            ));
            r.spawn(sized_choice_button("+", step(1), false, 14.0));
        });
    }
    row(c, "Mute unfocused", |r| {
        switch(r, settings.mute_when_unfocused, Change::MuteUnfocused);
    });
    c.spawn(heading("Display"));
    row(c, "Window", |r| {
        for mode in WindowChoice::ALL {
            r.spawn(sized_choice_button(
                mode.name(),
                Action::Setting(Change::WindowMode(mode)),
                settings.window_mode == mode,
                15.0,
            ));
        }
    });
    row(c, "Resolution", |r| {
        for (w, h) in resolutions(largest, settings.resolution) {
            r.spawn(sized_choice_button(
                format!("{w}x{h}"),
                Action::Setting(Change::Resolution(w, h)),
                settings.resolution == (w, h),
                15.0,
            ));
        }
    });
    if settings.window_mode == WindowChoice::Borderless {
        c.spawn(label(
            "Borderless covers the screen at its own resolution.",
            13.0,
            MUTED,
        ));
    }
    row(c, "UI scale", |r| {
        for scale in UI_SCALES {
            r.spawn(sized_choice_button(
                format!("{:.0}%", scale * 100.0),
                Action::Setting(Change::UiScale(scale)),
                (settings.ui_scale - scale).abs() < 0.001,
                15.0,
            ));
        }
    });
    if shown_scale < settings.ui_scale {
        c.spawn(label(
            format!(
                "This window has room for {:.0}%; a larger one shows more.",
                shown_scale * 100.0
            ),
            13.0,
            MUTED,
        ));
    }
    switch_row(
        c,
        "Low quality",
        (settings.low_quality, Change::LowQuality),
        "For slow computers: no shadows, no edge smoothing, fewer particles, the world at half resolution.",
    );
    c.spawn(heading("Accessibility"));
    switch_row(
        c,
        "Reduced motion",
        (settings.reduced_motion, Change::ReducedMotion),
        "The view turns at once; numbers, flashes and pointers do not move or pulse.",
    );
    switch_row(
        c,
        "Colour-blind",
        (settings.colour_blind, Change::ColourBlind),
        "Ranges blue and orange, better and worse values blue and orange, and the kinds, \
         HP bars and map keys in colours that stay apart without red and green.",
    );
}

/// Every control and its keys; the key waiting for a press has a gold border.
fn keys(
    c: &mut ChildSpawnerCommands,
    settings: &Settings,
    capturing: Option<(Control, usize)>,
    scrolled: ScrollPosition,
) {
    c.spawn(heading("Keys"));
    c.spawn(label(
        "Click a key to change it. A key can do one thing only.",
        13.0,
        MUTED,
    ));
    c.spawn((
        KeyList,
        ScrollArea,
        Node {
            flex_direction: FlexDirection::Column,
            max_height: Val::Vh(52.0),
            overflow: Overflow::scroll_y(),
            ..default()
        },
        scrolled,
    ))
    .with_children(|list| {
        for control in Control::all() {
            list.spawn(Node {
                align_items: AlignItems::Center,
                // Rows keep their height in the scrolling list rather than squeeze into it.
                flex_shrink: 0.0,
                ..default()
            })
            .with_children(|r| {
                r.spawn((
                    label(control.name(), 14.0, Color::WHITE),
                    TextLayout::no_wrap(),
                    Node {
                        width: Val::Px(240.0),
                        flex_shrink: 0.0,
                        ..default()
                    },
                ));
                let bound = settings.keys.keys(control);
                for slot in 0..KEYS_PER_CONTROL {
                    let text = bound.get(slot).map_or("-".to_string(), ToString::to_string);
                    let waiting = capturing == Some((control, slot));
                    r.spawn(Node {
                        width: Val::Px(100.0),
                        ..default()
                    })
                    .with_child(sized_choice_button(
                        text,
                        Action::Rebind { control, slot },
                        waiting,
                        15.0,
                    ));
                }
            });
        }
    });
    c.spawn(Node::default()).with_child(sized_choice_button(
        "Reset keys to defaults",
        Action::Setting(Change::ResetKeys),
        false,
        15.0,
    ));
}

/// The question over the screen while a key is waited for.
fn capture_box(control: Control, settings: &Settings, message: Option<&str>) -> impl Bundle {
    let back = settings.keys.describe(Control::Back);
    let hint = if control == Control::Back {
        "Cancel keeps the keys it has.".to_string()
    } else {
        format!("{back} or Cancel keeps the keys it has.")
    };
    dialog(
        21,
        children![
            label(
                format!("Press a key for \"{}\"", control.name()),
                22.0,
                GOLD
            ),
            label(
                format!(
                    "Now: {}. Hold Ctrl for a Ctrl+ key.",
                    settings.keys.describe(control)
                ),
                15.0,
                Color::WHITE
            ),
            label(message.unwrap_or(""), 15.0, WARN),
            label(hint, 13.0, MUTED),
            (
                Node::default(),
                children![
                    button("No key", Action::Unbind),
                    button("Cancel", Action::Close)
                ]
            ),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(key: KeyCode) -> Chord {
        Chord { key, ctrl: false }
    }

    #[test]
    fn a_captured_key_is_bound_refused_or_cancels() {
        let mut settings = Settings::default();
        let mut view = SettingsView::default();
        let got = capture(
            &mut settings,
            &mut view,
            Control::PanUp,
            0,
            key(KeyCode::KeyP),
        );
        assert_eq!(got, Captured::Refused);
        assert!(view.message.as_ref().unwrap().contains("\"Pause / play\""));
        assert_eq!(settings, Settings::default());
        // Esc is Back's: it cancels the capture of another control.
        let got = capture(
            &mut settings,
            &mut view,
            Control::PanUp,
            0,
            key(KeyCode::Escape),
        );
        assert_eq!(got, Captured::Cancelled);
        assert_eq!(settings, Settings::default());
        let got = capture(
            &mut settings,
            &mut view,
            Control::PanUp,
            0,
            key(KeyCode::ArrowUp),
        );
        assert_eq!(got, Captured::Bound);
        assert_eq!(settings.keys.keys(Control::PanUp), [key(KeyCode::ArrowUp)]);
        assert_eq!(view.message.as_deref(), Some("Move the view up: Up"));
        // Back itself can be given another key.
        let got = capture(
            &mut settings,
            &mut view,
            Control::Back,
            1,
            key(KeyCode::Backspace),
        );
        assert_eq!(got, Captured::Bound);
        assert_eq!(settings.keys.describe(Control::Back), "Esc / Backspace");
    }
}
