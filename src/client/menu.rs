//! The screens around the battle: the main menu (Continue when there is a save, Start, Tutorial,
//! Custom Run, Exit, and on the first start the offer of the tutorial), the run settings
//! (seed and starting blueprints), and the reward screen after a won level (three offers, the
//! collection, replacing one when it is full). Their buttons' actions are carried out in
//! [`actions`](super::actions).

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

use super::cards::spawn_card;
use super::rich::Icons;
use super::saving::{Profile, SaveFile};
use super::session::Game;
use super::ui::{
    Action, GOLD, MUTED, button, kind_color, label, screen_root, scroll_area, wrapping_row,
};
use super::{ClientSet, Content, Screen};
use crate::content::{Blueprint, Placement, Rarity};
use crate::run::{RunConfig, RunPhase};

/// Builds the screens around the battle.
pub struct MenuPlugin;

impl Plugin for MenuPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<RunSetup>()
            .add_systems(OnEnter(Screen::Menu), spawn_menu)
            .add_systems(OnEnter(Screen::RunSettings), spawn_settings)
            .add_systems(OnEnter(Screen::Reward), spawn_reward)
            .add_systems(
                Update,
                type_seed
                    .in_set(ClientSet::Input)
                    .run_if(in_state(Screen::RunSettings)),
            )
            .add_systems(
                Update,
                refresh_settings
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::RunSettings)),
            );
    }
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

fn spawn_menu(
    mut commands: Commands,
    file: Res<SaveFile>,
    setup: Res<RunSetup>,
    profile: Res<Profile>,
    content: Res<Content>,
) {
    let tutorial = content.db.tutorial.is_some();
    let root = commands.spawn(screen_root(Screen::Menu)).id();
    commands.entity(root).with_children(|c| {
        c.spawn(label("RAMPART", 64.0, GOLD));
        c.spawn(label("a roguelike tower defense", 18.0, MUTED));
        c.spawn(Node {
            height: Val::Px(24.0),
            ..default()
        });
        // The first start offers the tutorial, once.
        if tutorial && !profile.tutorial_offered {
            c.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    padding: UiRect::all(Val::Px(12.0)),
                    margin: UiRect::bottom(Val::Px(12.0)),
                    border: UiRect::all(Val::Px(2.0)),
                    ..default()
                },
                BorderColor::all(GOLD),
            ))
            .with_children(|offer| {
                offer.spawn(label(
                    "New to Rampart? The tutorial plays a first battle with you, step by step.",
                    17.0,
                    Color::WHITE,
                ));
                offer.spawn(Node::default()).with_children(|row| {
                    row.spawn(button("Play the tutorial", Action::Tutorial));
                    row.spawn(button("Not now", Action::TutorialDecline));
                });
            });
        }
        if file.exists() {
            c.spawn(button("Continue", Action::Continue));
        }
        c.spawn(button("Start", Action::Start));
        if tutorial {
            c.spawn(button("Tutorial", Action::Tutorial));
        }
        c.spawn(button("Custom Run", Action::CustomRun));
        c.spawn(button("Exit", Action::Exit));
        if let Some(error) = &setup.error {
            c.spawn(label(error.clone(), 16.0, Color::srgb(1.0, 0.5, 0.45)));
        }
    });
}

/// The blueprints a run may start with, and whether each is a starter.
fn startable(content: &Content) -> Vec<(Blueprint, bool)> {
    content
        .db
        .blueprints
        .iter()
        .filter(|b| b.placement() != Placement::Fixed)
        .map(|b| (b.clone(), b.rarity == Rarity::Starter))
        .collect()
}

fn spawn_settings(
    mut commands: Commands,
    content: Res<Content>,
    mut setup: ResMut<RunSetup>,
    mut images: ResMut<Assets<Image>>,
    icons: Res<Icons>,
) {
    if setup.seed.is_empty() {
        setup.seed = (RunConfig::random_seed() % 1_000_000).to_string();
    }
    let all = startable(&content);
    if setup.blueprints.is_none() {
        setup.blueprints = Some(all.iter().filter(|b| b.1).map(|b| b.0.id.clone()).collect());
    }
    let chosen = setup.blueprints.clone().unwrap_or_default();
    let root = commands.spawn(screen_root(Screen::RunSettings)).id();
    commands.entity(root).with_children(|c| {
        c.spawn(label("Custom run", 36.0, Color::WHITE));
        c.spawn(label("Seed (type digits, Backspace to erase)", 16.0, MUTED));
        c.spawn((SeedText, label("", 26.0, GOLD)));
        c.spawn(label(
            "Starting blueprints (click to choose; the wheel scrolls)",
            16.0,
            MUTED,
        ));
        c.spawn(scroll_area(430.0)).with_children(|area| {
            area.spawn(wrapping_row()).with_children(|row| {
                for (bp, _) in &all {
                    let on = chosen.contains(&bp.id);
                    let toggle = Action::Toggle(bp.id.clone());
                    spawn_card(row, &mut images, &icons, bp, toggle, on, 200.0);
                }
            });
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
    mut cards: Query<(&Action, &mut BorderColor)>,
    content: Res<Content>,
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
    for (action, mut border) in &mut cards {
        let Action::Toggle(id) = action else {
            continue;
        };
        let kind = content
            .db
            .blueprint_id(id)
            .map(|b| content.db.blueprint(b).kind);
        *border = BorderColor::all(if chosen.contains(id) {
            Color::WHITE
        } else {
            kind.map_or(Color::NONE, kind_color)
        });
    }
}

fn spawn_reward(
    mut commands: Commands,
    game: NonSend<Game>,
    content: Res<Content>,
    setup: Res<RunSetup>,
    mut images: ResMut<Assets<Image>>,
    icons: Res<Icons>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let RunPhase::Reward { offers } = session.run.phase() else {
        return;
    };
    let blueprint = |id: &str| {
        content
            .db
            .blueprint_id(id)
            .map(|b| content.db.blueprint(b).clone())
    };
    let full = session.run.collection().len() >= session.run.collection_limit();
    let root = commands.spawn(screen_root(Screen::Reward)).id();
    commands.entity(root).with_children(|c| {
        c.spawn(label(
            format!("Level {} won: choose a blueprint", session.run.level()),
            32.0,
            GOLD,
        ));
        c.spawn(Node {
            column_gap: Val::Px(10.0),
            align_items: AlignItems::FlexStart,
            ..default()
        })
        .with_children(|row| {
            for (i, id) in offers.iter().enumerate() {
                if let Some(bp) = blueprint(id) {
                    let on = setup.offer == Some(i);
                    spawn_card(row, &mut images, &icons, &bp, Action::Offer(i), on, 250.0);
                }
            }
            row.spawn(button("Skip", Action::Skip));
        });
        let name = |id: &str| blueprint(id).map_or(id.to_string(), |b| b.name);
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
        c.spawn(label(hint, 16.0, MUTED));
        c.spawn(scroll_area(230.0)).with_children(|area| {
            area.spawn(wrapping_row()).with_children(|row| {
                for (i, id) in session.run.collection().iter().enumerate() {
                    if let Some(bp) = blueprint(id) {
                        let replace = Action::Replace(i);
                        spawn_card(row, &mut images, &icons, &bp, replace, false, 180.0);
                    }
                }
            });
        });
    });
}
