//! The Mods screen, opened from the main menu (its button, or M): every mod found with its name,
//! id, version, the folder it came from and its state; a mod's details and the problems the
//! loader found in its files; switching a mod on or off. The list and the states are the
//! modding layer's ([`ModList`](rampart_core::modding::ModList)); a switch is written to the player's
//! settings exactly as `rampart mods --enable/--disable` writes it
//! ([`Found::switch`](rampart_core::modding::Found::switch)), and the mods are loaded again at once,
//! as they are when the screen opens. The screen is only reached from the main menu, where no
//! run is in memory, so the new content simply replaces the old.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bevy::prelude::*;

use super::ui::{
    Action, BUTTON, GOLD, MUTED, WARN, button, label, problems_box, problems_text, scroll_area,
    spawn_screen_placed,
};
use super::{ClientSet, Content, Loaded, Screen};
use rampart_core::modding::{BASE_GAME, ModEntry, ModList, ModState, Origin, find_mods};

/// Builds the Mods screen.
pub struct ModsPlugin;

impl Plugin for ModsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ModsView>()
            .add_systems(OnEnter(Screen::Mods), spawn_mods)
            .add_systems(
                Update,
                remember_scroll
                    .in_set(ClientSet::Input)
                    .run_if(in_state(Screen::Mods)),
            );
    }
}

/// What the Mods screen keeps between its redraws (it is drawn again after every switch).
#[derive(Resource, Default)]
pub struct ModsView {
    /// The folder of the mod whose details show.
    pub selected: Option<PathBuf>,
    /// What the last switch did, and whether it went wrong.
    pub notice: Option<(String, bool)>,
    /// How far the list is scrolled.
    scroll: f32,
}

/// The width of the list of mods, and of the details beside it: both fit 1280 pixels.
const LIST_WIDTH: f32 = 500.0;
const DETAILS_WIDTH: f32 = 700.0;
/// The width of the list's Enable and Disable buttons, so that the rows line up.
const SWITCH_WIDTH: f32 = 120.0;

/// Marks the scrolling list of mods.
#[derive(Component)]
pub(crate) struct ModRows;

/// Where a mods folder is, for the player: in a sentence, and in the list's few words.
pub fn origin_text(origin: Origin) -> (&'static str, &'static str) {
    match origin {
        Origin::Game => ("the game's mods folder", "the game"),
        Origin::User => ("your mods folder", "your mods folder"),
        Origin::Extra => ("a folder given with --mods-dir", "--mods-dir"),
    }
}

/// The colour a mod's state is shown in: loaded green, off grey, not loaded or with errors red.
fn state_color(entry: &ModEntry) -> Color {
    match entry.state {
        _ if entry.error_count() > 0 => WARN,
        ModState::Loaded => Color::srgb(0.45, 0.85, 0.45),
        ModState::DisabledByPlayer | ModState::DisabledByDefault => MUTED,
        ModState::Failed(_) | ModState::Rejected => WARN,
    }
}

/// `n` things, `1 thing` or `2 things`.
fn count(n: usize, thing: &str) -> String {
    match n {
        1 => format!("1 {thing}"),
        n => format!("{n} {thing}s"),
    }
}

/// A mod's state in a sentence.
pub fn state_sentence(entry: &ModEntry) -> String {
    match &entry.state {
        ModState::Loaded if entry.error_count() > 0 => {
            "On and loaded, but the content with errors (below) is left out.".into()
        }
        ModState::Loaded => "On and loaded.".into(),
        ModState::DisabledByPlayer => "Off: you switched it off. Its folder is kept.".into(),
        ModState::DisabledByDefault => {
            "Off until you switch it on: the mod comes switched off.".into()
        }
        ModState::Failed(failure) => {
            format!("On, but not loaded: {}.", failure.describe(&entry.id))
        }
        ModState::Rejected => {
            "Not loaded: this folder is not a mod the game can load (see below).".into()
        }
    }
}

/// The short line under a mod's name in the list: its state, and its errors when it has any.
pub fn state_line(entry: &ModEntry) -> String {
    match entry.error_count() {
        0 => entry.state.label().to_string(),
        n => format!("{} - {}", entry.state.label(), count(n, "error")),
    }
}

/// The list in a line: how many mods load, are off and do not load.
pub fn summary(list: &ModList) -> String {
    let (mut loaded, mut off, mut not) = (0, 0, 0);
    for entry in &list.entries {
        match entry.state {
            ModState::Loaded => loaded += 1,
            ModState::DisabledByPlayer | ModState::DisabledByDefault => off += 1,
            ModState::Failed(_) | ModState::Rejected => not += 1,
        }
    }
    format!(
        "{} found: {loaded} loaded, {off} off, {not} not loaded",
        count(list.entries.len(), "folder")
    )
}

/// `1st`, `2nd`, `3rd`, `4th`, … for the load order.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The entry whose details show: the one chosen, else the first with errors, else the first.
fn shown<'a>(list: &'a ModList, selected: Option<&Path>) -> Option<&'a ModEntry> {
    list.entries
        .iter()
        .find(|e| Some(e.root.as_path()) == selected)
        .or_else(|| list.entries.iter().find(|e| e.error_count() > 0))
        .or_else(|| list.entries.first())
}

/// The button that switches `entry`, if it is a mod that can be switched.
fn switch_button(entry: &ModEntry) -> Option<impl Bundle> {
    let on = entry.switched_on()?;
    let action = Action::SwitchMod {
        id: entry.id.clone(),
        on: !on,
    };
    Some(button(if on { "Disable" } else { "Enable" }, action))
}

pub(crate) fn spawn_mods(mut commands: Commands, content: Res<Content>, view: Res<ModsView>) {
    let list = &content.mods;
    let details = shown(list, view.selected.as_deref());
    // From the top: picking a mod changes the details' height, and the list must not move.
    let root = spawn_screen_placed(&mut commands, Screen::Mods, false);
    commands.entity(root).with_children(|c| {
        c.spawn(label("Mods", 36.0, Color::WHITE));
        c.spawn(label(
            "Click a mod for its details and problems. Enable and Disable load the mods again at \
             once. Esc goes back.",
            15.0,
            MUTED,
        ));
        c.spawn(label(
            format!("{} (the wheel scrolls the list)", summary(list)),
            15.0,
            MUTED,
        ));
        for d in &list.general {
            c.spawn(label(d.summary(), 14.0, WARN));
        }
        c.spawn(Node {
            column_gap: Val::Px(16.0),
            align_items: AlignItems::FlexStart,
            ..default()
        })
        .with_children(|row| {
            row.spawn(Node {
                width: Val::Px(LIST_WIDTH),
                flex_direction: FlexDirection::Column,
                ..default()
            })
            .with_children(|column| {
                if list.entries.is_empty() {
                    column.spawn(label(
                        "No mods found: the game looks in its own mods folder, in yours and in \
                         every --mods-dir.",
                        16.0,
                        WARN,
                    ));
                }
                column
                    .spawn((ModRows, scroll_area(500.0)))
                    .insert(ScrollPosition(Vec2::new(0.0, view.scroll)))
                    .with_children(|rows| {
                        for entry in &list.entries {
                            let chosen = details.is_some_and(|d| d.root == entry.root);
                            spawn_row(rows, entry, chosen);
                        }
                    });
            });
            if let Some(entry) = details {
                row.spawn(Node {
                    width: Val::Px(DETAILS_WIDTH),
                    flex_direction: FlexDirection::Column,
                    row_gap: Val::Px(4.0),
                    ..default()
                })
                .with_children(|panel| spawn_details(panel, entry));
            }
        });
        if let Some((text, warn)) = &view.notice {
            let color = if *warn { WARN } else { GOLD };
            c.spawn((
                label(text.clone(), 16.0, color),
                Node {
                    max_width: Val::Px(LIST_WIDTH + DETAILS_WIDTH),
                    ..default()
                },
            ));
        }
        c.spawn(button("Back", Action::ToMenu));
    });
}

/// One mod in the list: a button that shows its details, and the button that switches it.
fn spawn_row(rows: &mut ChildSpawnerCommands, entry: &ModEntry, chosen: bool) {
    rows.spawn(Node {
        width: Val::Px(LIST_WIDTH - 16.0),
        align_items: AlignItems::Center,
        margin: UiRect::bottom(Val::Px(4.0)),
        ..default()
    })
    .with_children(|row| {
        let version = entry
            .version
            .as_ref()
            .map_or(String::new(), |v| format!(" {v}"));
        row.spawn((
            Button,
            Action::ModInfo(entry.root.clone()),
            Node {
                flex_grow: 1.0,
                flex_direction: FlexDirection::Column,
                padding: UiRect::axes(Val::Px(10.0), Val::Px(4.0)),
                border: UiRect::all(Val::Px(2.0)),
                ..default()
            },
            BackgroundColor(BUTTON),
            BorderColor::all(if chosen { GOLD } else { Color::NONE }),
            children![
                label(format!("{}{version}", entry.name), 18.0, Color::WHITE),
                label(state_line(entry), 14.0, state_color(entry)),
                label(
                    format!("{} - from {}", entry.id, origin_text(entry.origin).1),
                    13.0,
                    MUTED
                ),
            ],
        ));
        row.spawn(Node {
            width: Val::Px(SWITCH_WIDTH),
            justify_content: JustifyContent::Center,
            ..default()
        })
        .with_children(|cell| {
            if let Some(switch) = switch_button(entry) {
                cell.spawn(switch);
            }
        });
    });
}

/// A mod's details: who it is, where it is, its state, its switch and its problems.
fn spawn_details(panel: &mut ChildSpawnerCommands, entry: &ModEntry) {
    panel.spawn(label(entry.name.clone(), 28.0, GOLD));
    // A folder whose `mod.ron` could not be read goes by its folder's name; no id to show.
    let mut facts = Vec::new();
    if entry.id != entry.name || entry.version.is_some() {
        facts.push(format!("id {}", entry.id));
    }
    if let Some(version) = &entry.version {
        facts.push(format!("version {version}"));
    }
    if let Some(n) = entry.position {
        facts.push(format!("{} in the load order", ordinal(n)));
    }
    if !facts.is_empty() {
        panel.spawn(label(facts.join(" - "), 15.0, MUTED));
    }
    panel.spawn(label(
        format!(
            "From {}: {}",
            origin_text(entry.origin).0,
            entry.root.display()
        ),
        14.0,
        MUTED,
    ));
    if !entry.description.is_empty() {
        panel.spawn(label(entry.description.clone(), 16.0, Color::WHITE));
    }
    panel.spawn(label(state_sentence(entry), 16.0, state_color(entry)));
    if entry.id == BASE_GAME && entry.switched_on() == Some(true) {
        panel.spawn(label(
            "This is the base game: with it off, only what other mods bring is there to play.",
            14.0,
            MUTED,
        ));
    }
    if let Some(switch) = switch_button(entry) {
        panel.spawn(Node::default()).with_children(|row| {
            row.spawn(switch);
        });
    }
    if entry.diagnostics.is_empty() {
        panel.spawn(label("No problems found in its files.", 15.0, MUTED));
        return;
    }
    let errors = entry.error_count();
    let warnings = entry.diagnostics.len() - errors;
    panel.spawn(label(
        format!(
            "Problems: {}, {} (the wheel scrolls)",
            count(errors, "error"),
            count(warnings, "warning")
        ),
        15.0,
        Color::WHITE,
    ));
    panel.spawn(scroll_area(280.0)).with_children(|area| {
        area.spawn(problems_box(
            problems_text(&entry.diagnostics),
            Node {
                width: Val::Px(DETAILS_WIDTH - 16.0),
                ..default()
            },
        ));
    });
}

/// Keeps how far the list is scrolled, so that it stays there when the screen is drawn again.
fn remember_scroll(rows: Query<&ScrollPosition, With<ModRows>>, mut view: ResMut<ModsView>) {
    if let Ok(position) = rows.single()
        && view.scroll != position.y
    {
        view.scroll = position.y;
    }
}

/// Opens the screen on the mods as they are on disk now (a mod copied in while the game runs
/// shows up): they are loaded again, and the screen starts afresh.
pub fn open(content: &mut Content, view: &mut ModsView) {
    *view = ModsView::default();
    let loaded = content.load();
    replace(content, loaded);
}

/// The content and mod list of `loaded` in place of the old.
fn replace(content: &mut Content, loaded: Loaded) {
    content.db = Arc::new(loaded.db);
    content.mods = Arc::new(loaded.mods);
}

/// Switches mod `id` on or off in the player's settings, as `rampart mods` does, loads the mods
/// again and says what came of it on the screen, with the mod's details showing.
pub fn switch(content: &mut Content, view: &mut ModsView, id: &str, on: bool) {
    let name = content
        .mods
        .get(id)
        .map_or(id.to_string(), |e| e.name.clone());
    let mut found = find_mods(content.dirs());
    let (enable, disable) = if on {
        (vec![id.to_string()], Vec::new())
    } else {
        (Vec::new(), vec![id.to_string()])
    };
    let switched = match found.switch(&enable, &disable) {
        Ok(switched) => switched,
        Err(why) => {
            view.notice = Some((format!("{name} was not switched: {why}"), true));
            return;
        }
    };
    let loaded = content.load();
    let mut text = match loaded.mods.get(id).map(|e| &e.state) {
        Some(ModState::Loaded) => format!("{name} is on: the mods were loaded again with it."),
        Some(ModState::Failed(failure)) => {
            format!("{name} is on, but cannot load: {}.", failure.describe(id))
        }
        _ if on => format!("{name} is on, but was not loaded."),
        _ => format!("{name} is off: the mods were loaded again without it."),
    };
    let failed = matches!(
        loaded.mods.get(id).map(|e| &e.state),
        Some(ModState::Failed(_))
    );
    let warn = failed || !switched.warnings.is_empty();
    for warning in &switched.warnings {
        text.push_str(&format!(
            "\nWarning: {warning}; Enable switches it back on."
        ));
    }
    info!(
        "mod `{id}` switched {}: {} mods loaded",
        if on { "on" } else { "off" },
        loaded.db.mods.len()
    );
    view.selected = loaded.mods.get(id).map(|e| e.root.clone());
    replace(content, loaded);
    view.notice = Some((text, warn));
}

#[cfg(test)]
mod tests {
    use super::*;
    use rampart_core::diagnostics::Diagnostic;
    use rampart_core::modding::order::Failure;

    fn entry(id: &str, state: ModState) -> ModEntry {
        ModEntry {
            id: id.into(),
            name: id.to_uppercase(),
            version: Some(semver::Version::new(1, 0, 0)),
            description: String::new(),
            origin: Origin::User,
            root: PathBuf::from("mods").join(id),
            position: None,
            state,
            diagnostics: Vec::new(),
        }
    }

    #[test]
    fn states_read_as_sentences_and_switch_the_right_way() {
        let failed = entry(
            "needy",
            ModState::Failed(Failure::Missing {
                dependency: "ghost".into(),
            }),
        );
        assert_eq!(
            state_sentence(&failed),
            "On, but not loaded: mod `needy` needs mod `ghost`, which is not installed."
        );
        // A mod that is on but fails is switched off by its button; one that is off, on.
        let action = |e: &ModEntry| {
            e.switched_on().map(|on| Action::SwitchMod {
                id: e.id.clone(),
                on: !on,
            })
        };
        assert_eq!(
            action(&failed),
            Some(Action::SwitchMod {
                id: "needy".into(),
                on: false
            })
        );
        let off = entry("sleepy", ModState::DisabledByDefault);
        assert_eq!(
            action(&off),
            Some(Action::SwitchMod {
                id: "sleepy".into(),
                on: true
            })
        );
        assert!(switch_button(&entry("junk", ModState::Rejected)).is_none());
    }

    #[test]
    fn the_details_show_the_chosen_mod_else_the_first_with_errors() {
        let mut broken = entry("broken", ModState::Loaded);
        broken
            .diagnostics
            .push(Diagnostic::error("`materials` must be a number"));
        assert_eq!(state_line(&broken), "loaded - 1 error");
        assert_eq!(state_color(&broken), WARN);
        let list = ModList {
            entries: vec![
                entry("core", ModState::Loaded),
                broken,
                entry("sleepy", ModState::DisabledByDefault),
            ],
            general: Vec::new(),
        };
        assert_eq!(
            summary(&list),
            "3 folders found: 2 loaded, 1 off, 0 not loaded"
        );
        assert_eq!(shown(&list, None).unwrap().id, "broken");
        let core = Path::new("mods/core");
        assert_eq!(shown(&list, Some(core)).unwrap().id, "core");
        assert_eq!(shown(&ModList::default(), None).map(|e| &e.id), None);
        assert_eq!(
            [1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map(ordinal),
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"
            ]
        );
    }
}
