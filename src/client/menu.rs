//! The screens around the battle: the main menu (Start, Custom Run, Exit), the run settings
//! (seed and starting blueprints), and the reward screen after a won level (three offers, the
//! collection, replacing one when it is full). Buttons everywhere carry an [`Action`], handled
//! in one place.

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

use super::session::{Game, Session, finish_level};
use super::{Content, Screen, label};
use crate::content::{Placement, Rarity};
use crate::run::{RunConfig, RunError, RunPhase};

/// Builds the menus and handles every button.
pub struct MenuPlugin;

impl Plugin for MenuPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<RunSetup>()
            .add_systems(OnEnter(Screen::Menu), spawn_menu)
            .add_systems(OnEnter(Screen::RunSettings), spawn_settings)
            .add_systems(OnEnter(Screen::Reward), spawn_reward)
            .add_systems(
                Update,
                (
                    press,
                    hover,
                    type_seed.run_if(in_state(Screen::RunSettings)),
                    refresh_settings.run_if(in_state(Screen::RunSettings)),
                ),
            );
    }
}

/// What a button does.
#[derive(Component, Clone, Debug, PartialEq)]
pub enum Action {
    /// Start a run with a random seed and the starter blueprints.
    Start,
    /// Open the run settings.
    CustomRun,
    /// Quit the game.
    Exit,
    /// Start the run set up on the settings screen.
    Begin,
    /// Back to the main menu (from anywhere; a run in progress is left).
    ToMenu,
    /// Take or leave a blueprint in the starting collection.
    Toggle(String),
    /// Take reward offer `n` (then choose what it replaces if the collection is full).
    Offer(usize),
    /// Give up collection slot `n` for the chosen offer.
    Replace(usize),
    /// Take no reward.
    Skip,
    /// Open the settings (pause) screen.
    Settings,
    /// Leave the pause screen.
    Resume,
    /// After a level's end: on to the reward, the next level or the menu.
    Continue,
    /// Start the next wave.
    StartWave,
    /// Pause or go on.
    Pause,
    /// Switch between 1× and 2×.
    Speed,
    /// Select blueprint `n` of the collection.
    Blueprint(usize),
    /// Remove the selected building.
    Delete,
}

/// The run being set up on the settings screen, and what the last attempt to start said.
#[derive(Resource, Default)]
pub struct RunSetup {
    /// The seed as typed.
    pub seed: String,
    /// The starting blueprints chosen, or `None` for the starters.
    pub blueprints: Option<Vec<String>>,
    /// Why the last run did not start.
    pub error: Option<String>,
    /// The reward offer chosen, waiting for the slot it replaces.
    pub offer: Option<usize>,
}

/// Marks the seed text and the error line on the settings screen.
#[derive(Component)]
struct SeedText;

/// Marks a blueprint toggle's background.
#[derive(Component)]
struct ToggleOf(String);

const PANEL: Color = Color::srgba(0.1, 0.11, 0.14, 0.92);
const BUTTON: Color = Color::srgb(0.2, 0.24, 0.32);
const BUTTON_HOVER: Color = Color::srgb(0.3, 0.36, 0.48);
const CHOSEN: Color = Color::srgb(0.22, 0.45, 0.3);

/// A button with a text on it.
pub fn button(text: impl Into<String>, action: Action) -> impl Bundle {
    (
        Button,
        action,
        Node {
            padding: UiRect::axes(Val::Px(18.0), Val::Px(8.0)),
            margin: UiRect::all(Val::Px(4.0)),
            justify_content: JustifyContent::Center,
            ..default()
        },
        BackgroundColor(BUTTON),
        children![label(text, 20.0, Color::WHITE)],
    )
}

/// A row of buttons that wraps onto more lines, centred.
fn wrapping_row() -> Node {
    Node {
        flex_wrap: FlexWrap::Wrap,
        justify_content: JustifyContent::Center,
        max_width: Val::Px(900.0),
        ..default()
    }
}

/// A full-screen column, centred.
fn screen_root(screen: Screen) -> impl Bundle {
    (
        Node {
            width: Val::Percent(100.0),
            height: Val::Percent(100.0),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            row_gap: Val::Px(6.0),
            ..default()
        },
        BackgroundColor(PANEL),
        DespawnOnExit(screen),
    )
}

fn spawn_menu(mut commands: Commands) {
    commands.spawn((
        screen_root(Screen::Menu),
        children![
            label("RAMPART", 64.0, Color::srgb(0.95, 0.8, 0.3)),
            label(
                "a roguelike tower defense",
                18.0,
                Color::srgb(0.7, 0.7, 0.75)
            ),
            (Node {
                height: Val::Px(24.0),
                ..default()
            }),
            button("Start", Action::Start),
            button("Custom Run", Action::CustomRun),
            button("Exit", Action::Exit),
        ],
    ));
}

/// The blueprints a run may start with.
fn startable(content: &Content) -> Vec<(String, String, bool)> {
    content
        .db
        .blueprints
        .iter()
        .filter(|b| b.placement() != Placement::Fixed)
        .map(|b| (b.id.clone(), b.name.clone(), b.rarity == Rarity::Starter))
        .collect()
}

fn spawn_settings(mut commands: Commands, content: Res<Content>, mut setup: ResMut<RunSetup>) {
    if setup.seed.is_empty() {
        setup.seed = (RunConfig::random_seed() % 1_000_000).to_string();
    }
    let all = startable(&content);
    if setup.blueprints.is_none() {
        setup.blueprints = Some(all.iter().filter(|b| b.2).map(|b| b.0.clone()).collect());
    }
    let root = commands.spawn(screen_root(Screen::RunSettings)).id();
    commands.entity(root).with_children(|c| {
        c.spawn(label("Custom run", 40.0, Color::WHITE));
        c.spawn(label(
            "Seed (type digits, Backspace to erase)",
            16.0,
            Color::srgb(0.7, 0.7, 0.75),
        ));
        c.spawn((SeedText, label("", 28.0, Color::srgb(0.95, 0.8, 0.3))));
        c.spawn(label(
            "Starting blueprints (click to choose)",
            16.0,
            Color::srgb(0.7, 0.7, 0.75),
        ));
        c.spawn(wrapping_row()).with_children(|row| {
            for (id, name, _) in &all {
                row.spawn((
                    button(name.clone(), Action::Toggle(id.clone())),
                    ToggleOf(id.clone()),
                ));
            }
        });
        c.spawn(Node {
            column_gap: Val::Px(8.0),
            ..default()
        })
        .with_children(|row| {
            row.spawn(button("Back", Action::ToMenu));
            row.spawn(button("Begin", Action::Begin));
        });
    });
}

/// Digits and Backspace edit the seed.
fn type_seed(mut keys: MessageReader<KeyboardInput>, mut setup: ResMut<RunSetup>) {
    for key in keys.read() {
        if key.state != ButtonState::Pressed {
            continue;
        }
        match &key.logical_key {
            Key::Character(c) if c.chars().all(|c| c.is_ascii_digit()) && setup.seed.len() < 19 => {
                setup.seed.push_str(c);
            }
            Key::Backspace => {
                setup.seed.pop();
            }
            _ => {}
        }
    }
}

fn refresh_settings(
    setup: Res<RunSetup>,
    mut seed: Query<&mut Text, With<SeedText>>,
    mut toggles: Query<(&ToggleOf, &mut BackgroundColor)>,
) {
    if !setup.is_changed() {
        return;
    }
    for mut text in &mut seed {
        text.0 = match &setup.error {
            Some(e) => format!("{}\n{e}", setup.seed),
            None => setup.seed.clone(),
        };
    }
    let chosen = setup.blueprints.clone().unwrap_or_default();
    for (toggle, mut bg) in &mut toggles {
        bg.0 = if chosen.contains(&toggle.0) {
            CHOSEN
        } else {
            BUTTON
        };
    }
}

fn spawn_reward(
    mut commands: Commands,
    game: NonSend<Game>,
    content: Res<Content>,
    setup: Res<RunSetup>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let RunPhase::Reward { offers } = session.run.phase() else {
        return;
    };
    let name = |id: &str| {
        content
            .db
            .blueprint_id(id)
            .map_or(id.to_string(), |b| content.db.blueprint(b).name.clone())
    };
    let full = session.run.collection().len() >= session.run.collection_limit();
    let root = commands.spawn(screen_root(Screen::Reward)).id();
    commands.entity(root).with_children(|c| {
        c.spawn(label(
            format!("Level {} won: choose a blueprint", session.run.level()),
            36.0,
            Color::srgb(0.95, 0.8, 0.3),
        ));
        c.spawn(Node::default()).with_children(|row| {
            for (i, id) in offers.iter().enumerate() {
                row.spawn(button(name(id), Action::Offer(i)));
            }
            row.spawn(button("Skip", Action::Skip));
        });
        let hint = match (setup.offer, full) {
            (Some(i), _) => format!(
                "The collection is full: click the blueprint {} replaces",
                name(&offers[i.min(offers.len() - 1)])
            ),
            (None, true) => "The collection is full: a new blueprint replaces one of these".into(),
            (None, false) => format!(
                "Collection ({} of {})",
                session.run.collection().len(),
                session.run.collection_limit()
            ),
        };
        c.spawn(label(hint, 16.0, Color::srgb(0.7, 0.7, 0.75)));
        c.spawn(wrapping_row()).with_children(|row| {
            for (i, id) in session.run.collection().iter().enumerate() {
                row.spawn(button(name(id), Action::Replace(i)));
            }
        });
    });
}

fn hover(
    mut buttons: Query<
        (&Interaction, &mut BackgroundColor, Option<&ToggleOf>),
        (Changed<Interaction>, With<Button>),
    >,
) {
    for (interaction, mut bg, toggle) in &mut buttons {
        // Toggles show whether they are chosen; `refresh_settings` colours them.
        if toggle.is_some() {
            continue;
        }
        bg.0 = match interaction {
            Interaction::Hovered | Interaction::Pressed => BUTTON_HOVER,
            Interaction::None => BUTTON,
        };
    }
}

/// Starts a run with `config` and opens its first level.
pub fn start_run(
    game: &mut Game,
    content: &Content,
    config: RunConfig,
    next: &mut NextState<Screen>,
) -> Result<(), RunError> {
    let session = Session::start(&content.db, config)?;
    game.0 = Some(session);
    next.set(Screen::Battle);
    Ok(())
}

/// Carries out `action`.
pub fn act(
    action: &Action,
    content: &Content,
    setup: &mut RunSetup,
    game: &mut Game,
    screen: Screen,
    next: &mut NextState<Screen>,
    exit: &mut MessageWriter<AppExit>,
) {
    match action {
        Action::Start => {
            let config = RunConfig {
                seed: RunConfig::random_seed(),
                starting_blueprints: None,
            };
            if let Err(e) = start_run(game, content, config, next) {
                setup.error = Some(e.to_string());
                next.set(Screen::RunSettings);
            }
        }
        Action::CustomRun => {
            setup.error = None;
            next.set(Screen::RunSettings);
        }
        Action::Exit => {
            exit.write(AppExit::Success);
        }
        Action::Begin => {
            let seed = match setup.seed.parse::<u64>() {
                Ok(seed) => seed,
                Err(_) => {
                    setup.error = Some("the seed must be a whole number".into());
                    return;
                }
            };
            let config = RunConfig {
                seed,
                starting_blueprints: setup.blueprints.clone(),
            };
            match start_run(game, content, config, next) {
                Ok(()) => setup.error = None,
                Err(e) => setup.error = Some(e.to_string()),
            }
        }
        Action::ToMenu => {
            game.0 = None;
            next.set(Screen::Menu);
        }
        Action::Toggle(id) => {
            let list = setup.blueprints.get_or_insert_with(Vec::new);
            match list.iter().position(|b| b == id) {
                Some(i) => {
                    list.remove(i);
                }
                None => list.push(id.clone()),
            }
        }
        Action::Offer(i) => {
            let Some(session) = game.0.as_mut() else {
                return;
            };
            if session.run.collection().len() >= session.run.collection_limit() {
                setup.offer = Some(*i);
                // Shown again with the hint to pick what to replace.
                next.set(Screen::Reward);
                return;
            }
            choose(session, content, Some(*i), None, setup, next);
        }
        Action::Replace(j) => {
            let Some(session) = game.0.as_mut() else {
                return;
            };
            if let Some(i) = setup.offer {
                choose(session, content, Some(i), Some(*j), setup, next);
            }
        }
        Action::Skip => {
            if let Some(session) = game.0.as_mut() {
                choose(session, content, None, None, setup, next);
            }
        }
        Action::Resume => {
            if let Some(session) = game.0.as_mut() {
                session.paused = false;
                session.settings_open = false;
            }
        }
        Action::Continue => {
            if let Some(session) = game.0.as_mut() {
                finish_level(session, content, next);
            }
        }
        Action::StartWave
        | Action::Pause
        | Action::Settings
        | Action::Speed
        | Action::Blueprint(_)
        | Action::Delete => {
            if let Some(session) = game.0.as_mut() {
                super::hud::battle_action(action, session, screen);
            }
        }
    }
}

fn choose(
    session: &mut Session,
    content: &Content,
    offer: Option<usize>,
    replace: Option<usize>,
    setup: &mut RunSetup,
    next: &mut NextState<Screen>,
) {
    setup.offer = None;
    if let Err(e) = session.run.choose_reward(offer, replace) {
        session.notify(e.to_string());
        return;
    }
    match session.next_level(&content.db) {
        Ok(()) => next.set(Screen::Battle),
        Err(e) => {
            setup.error = Some(format!("the next level cannot start: {e}"));
            next.set(Screen::Menu);
        }
    }
}

fn press(
    buttons: Query<(&Interaction, &Action), Changed<Interaction>>,
    content: Res<Content>,
    mut setup: ResMut<RunSetup>,
    mut game: NonSendMut<Game>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut exit: MessageWriter<AppExit>,
) {
    for (interaction, action) in &buttons {
        if *interaction == Interaction::Pressed {
            act(
                action,
                &content,
                &mut setup,
                &mut game,
                *screen.get(),
                &mut next,
                &mut exit,
            );
        }
    }
}
