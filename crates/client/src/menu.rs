//! The screens around the battle: the main menu (Continue when there is a save, Start, Tutorial,
//! Custom Run, Mods, Settings, Exit, and on the first start the offer of the tutorial; starting a
//! new run over a saved one asks first), the run settings
//! (seed, difficulty, ascension level and starting blueprints), the reward screen after a won
//! battle or an event that gave a blueprint (the offers, the collection, replacing one when it is
//! full), and the run's end, won or lost. Their buttons' actions are carried out in
//! [`actions`](super::actions).

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

use super::bindings::Control;
use super::cards::{Card, CardLooks, collection_cards, spawn_card, spawn_collection};
use super::input::{Layer, Layers};
use super::palette::Palette;
use super::rich::Icons;
use super::saving::{PlayerProfile, SaveFile, saved_summary};
use super::session::{Game, NoticeLine};
use super::settings::{Settings, SettingsFile};
use super::stops::{augment_card, augment_text};
use super::ui::{
    Action, GOLD, MUTED, NOTICE, WARN, button, choice_button, dialog, info_box, label, scroll_area,
    spawn_screen, wrapping_row,
};
use super::{ClientSet, Content, Screen};
use rampart_core::content::Blueprint;
use rampart_core::content::acts::NodeKind;
use rampart_core::run::profile::ascension_levels;
use rampart_core::run::{Difficulty, Run, RunConfig, RunPhase, startable_blueprints};

/// Builds the screens around the battle.
pub struct MenuPlugin;

impl Plugin for MenuPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<RunSetup>()
            .add_systems(OnEnter(Screen::Menu), spawn_menu)
            .add_systems(OnEnter(Screen::RunSettings), spawn_settings)
            .add_systems(OnEnter(Screen::Reward), spawn_reward)
            .add_systems(OnEnter(Screen::RunEnd), spawn_run_end)
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
            )
            .add_systems(
                Update,
                (ask, show_settings_notice).in_set(ClientSet::Present),
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
    /// The difficulty setting chosen.
    pub difficulty: Difficulty,
    /// The ascension level chosen (0: none).
    pub ascension: u32,
    /// Why the last run did not start.
    pub error: Option<String>,
    /// The reward offer chosen, waiting for the slot it replaces.
    pub offer: Option<usize>,
}

/// Marks the seed text and the error line on the settings screen.
#[derive(Component)]
pub(crate) struct SeedText;

/// Marks the text that explains the chosen difficulty and ascension level.
#[derive(Component)]
pub(crate) struct SettingText;

/// The difficulty settings in the order the settings screen shows them.
pub const DIFFICULTIES: [Difficulty; 4] = [
    Difficulty::Auto,
    Difficulty::Easy,
    Difficulty::Normal,
    Difficulty::Hard,
];

/// What a difficulty setting means, for the player.
pub fn difficulty_text(difficulty: Difficulty) -> &'static str {
    match difficulty {
        Difficulty::Auto => {
            "Auto: attackers grow stronger while the hull holds, weaker when it suffers"
        }
        Difficulty::Easy => "Easy: attackers are weaker",
        Difficulty::Normal => "Normal: attackers as the levels are made",
        Difficulty::Hard => "Hard: attackers are stronger",
    }
}

/// The ascension levels' descriptions, from level 1, as the level setter has them.
fn ascension_descriptions(content: &Content) -> Vec<String> {
    content.db.levels.as_ref().map_or(Vec::new(), |l| {
        l.ascension.iter().map(|a| a.description.clone()).collect()
    })
}

/// What ascension level `level` changes: its own change, and every lower level's too.
pub fn ascension_text(descriptions: &[String], level: u32) -> String {
    match level {
        0 => "Ascension 0: the run as the levels are made".into(),
        n => {
            let own = descriptions.get(n as usize - 1).map_or("", String::as_str);
            let below = if n > 1 {
                format!(" (and the changes of levels 1 to {})", n - 1)
            } else {
                String::new()
            };
            format!("Ascension {n}: {own}{below}")
        }
    }
}

pub(crate) fn spawn_menu(
    mut commands: Commands,
    settings: Res<Settings>,
    file: Res<SaveFile>,
    setup: Res<RunSetup>,
    profile: Res<PlayerProfile>,
    content: Res<Content>,
) {
    let tutorial = content.db.tutorial.is_some();
    let root = spawn_screen(&mut commands, Screen::Menu);
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
        c.spawn(button(
            format!("Mods ({})", settings.keys.describe(Control::Mods)),
            Action::Mods,
        ));
        // Mods that did not load as they should are news: the Mods screen says why.
        let troubled = content
            .mods
            .entries
            .iter()
            .filter(|e| e.error_count() > 0)
            .count();
        if troubled > 0 {
            let mods = if troubled == 1 {
                "mod has"
            } else {
                "mods have"
            };
            c.spawn(label(
                format!("{troubled} {mods} problems: Mods shows them"),
                15.0,
                WARN,
            ));
        }
        c.spawn(button("Settings", Action::Settings));
        c.spawn(button("Exit", Action::Exit));
        if let Some(error) = &setup.error {
            c.spawn(label(error.clone(), 16.0, WARN));
        }
        c.spawn((SettingsNotice, label("", 14.0, WARN)));
    });
}

/// The line under the main menu that says why the settings file was not used.
#[derive(Component)]
pub(crate) struct SettingsNotice;

pub(crate) fn show_settings_notice(
    file: Res<SettingsFile>,
    mut lines: Query<&mut Text, With<SettingsNotice>>,
) {
    let wanted = file.notice.clone().unwrap_or_default();
    for mut text in &mut lines {
        if text.0 != wanted {
            text.0 = wanted.clone();
        }
    }
}

/// The question over the menu before a new run replaces the saved one.
#[derive(Component)]
struct Question;

/// Asks whether the new run may replace the saved one, while that question is the top layer.
fn ask(
    mut commands: Commands,
    layers: Res<Layers>,
    file: Res<SaveFile>,
    questions: Query<Entity, With<Question>>,
) {
    let asked = matches!(layers.top(), Some(Layer::Confirm(_)));
    if asked != questions.is_empty() {
        return;
    }
    for question in &questions {
        commands.entity(question).despawn();
    }
    if !asked {
        return;
    }
    let saved = saved_summary(&file);
    commands.spawn((
        Question,
        dialog(
            15,
            children![
                label("Start a new run?", 28.0, GOLD),
                label(
                    format!("A run is saved ({saved}). The new run replaces it for good."),
                    16.0,
                    Color::WHITE
                ),
                (
                    Node::default(),
                    children![
                        button("Start a new run", Action::Confirm),
                        button("Keep the saved run", Action::Close)
                    ]
                ),
            ],
        ),
    ));
}

pub(crate) fn spawn_settings(
    mut commands: Commands,
    content: Res<Content>,
    mut setup: ResMut<RunSetup>,
    profile: Res<PlayerProfile>,
    mut images: ResMut<Assets<Image>>,
    icons: Res<Icons>,
    palette: Res<Palette>,
) {
    let mut looks = CardLooks {
        images: &mut images,
        icons: &icons,
        palette: &palette,
    };
    if setup.seed.is_empty() {
        setup.seed = (RunConfig::random_seed() % 1_000_000).to_string();
    }
    let all: Vec<(Blueprint, bool)> = startable_blueprints(&content.db)
        .map(|(b, starter)| (b.clone(), starter))
        .collect();
    if setup.blueprints.is_none() {
        setup.blueprints = Some(all.iter().filter(|b| b.1).map(|b| b.0.id.clone()).collect());
    }
    let chosen = setup.blueprints.clone().unwrap_or_default();
    // Only levels a won run has opened can be chosen.
    let open = profile.ascension_open(&content.db);
    setup.ascension = setup.ascension.min(open);
    let root = spawn_screen(&mut commands, Screen::RunSettings);
    commands.entity(root).with_children(|c| {
        c.spawn(label("Custom run", 36.0, Color::WHITE));
        c.spawn(label("Seed (type digits, Backspace to erase)", 16.0, MUTED));
        c.spawn((SeedText, label("", 26.0, GOLD)));
        c.spawn(Node {
            align_items: AlignItems::Center,
            ..default()
        })
        .with_children(|row| {
            row.spawn(label("Difficulty", 16.0, MUTED));
            for d in DIFFICULTIES {
                let name = format!("{d:?}");
                row.spawn(choice_button(
                    name,
                    Action::Difficulty(d),
                    setup.difficulty == d,
                ));
            }
            row.spawn(Node {
                width: Val::Px(24.0),
                ..default()
            });
            row.spawn(label("Ascension", 16.0, MUTED));
            for n in 0..=open {
                let on = setup.ascension == n;
                row.spawn(choice_button(n.to_string(), Action::Ascension(n), on));
            }
        });
        if open < ascension_levels(&content.db) {
            c.spawn(label(
                format!("Win a run at ascension {open} to open level {}", open + 1),
                13.0,
                MUTED,
            ));
        }
        c.spawn((SettingText, label("", 15.0, Color::WHITE)));
        c.spawn(label(
            "Starting blueprints (click to choose; the wheel scrolls)",
            16.0,
            MUTED,
        ));
        c.spawn(scroll_area(330.0)).with_children(|area| {
            area.spawn(wrapping_row()).with_children(|row| {
                for (bp, _) in &all {
                    let on = chosen.contains(&bp.id);
                    let toggle = Action::Toggle(bp.id.clone());
                    spawn_card(row, &mut looks, &Card::plain(bp), toggle, on, 200.0);
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

/// Digits and Backspace edit the seed, while the screen has the input (not under a question).
fn type_seed(
    mut keys: MessageReader<KeyboardInput>,
    mut setup: ResMut<RunSetup>,
    layers: Res<Layers>,
) {
    for key in keys.read() {
        if key.state != ButtonState::Pressed || !layers.is_empty() {
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

pub(crate) fn refresh_settings(
    setup: Res<RunSetup>,
    mut seed: Query<&mut Text, (With<SeedText>, Without<SettingText>)>,
    mut explained: Query<&mut Text, (With<SettingText>, Without<SeedText>)>,
    mut cards: Query<(&Action, &mut BorderColor)>,
    content: Res<Content>,
    palette: Res<Palette>,
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
    let levels = ascension_descriptions(&content);
    for mut text in &mut explained {
        text.0 = format!(
            "{}\n{}",
            difficulty_text(setup.difficulty),
            ascension_text(&levels, setup.ascension)
        );
    }
    let chosen = setup.blueprints.clone().unwrap_or_default();
    for (action, mut border) in &mut cards {
        let colour = match action {
            Action::Toggle(id) => {
                let kind = content
                    .db
                    .blueprint_id(id)
                    .map(|b| content.db.blueprint(b).kind);
                if chosen.contains(id) {
                    Color::WHITE
                } else {
                    kind.map_or(Color::NONE, |k| palette.kind(k))
                }
            }
            Action::Difficulty(d) if *d == setup.difficulty => GOLD,
            Action::Ascension(n) if *n == setup.ascension => GOLD,
            Action::Difficulty(_) | Action::Ascension(_) => Color::NONE,
            _ => continue,
        };
        *border = BorderColor::all(colour);
    }
}

fn spawn_reward(
    mut commands: Commands,
    game: NonSend<Game>,
    content: Res<Content>,
    setup: Res<RunSetup>,
    mut images: ResMut<Assets<Image>>,
    icons: Res<Icons>,
    palette: Res<Palette>,
) {
    let mut looks = CardLooks {
        images: &mut images,
        icons: &icons,
        palette: &palette,
    };
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let RunPhase::Reward {
        offers,
        augmented,
        augment,
    } = session.run.phase()
    else {
        return;
    };
    let blueprint = |id: &str| {
        content
            .db
            .blueprint_id(id)
            .map(|b| content.db.blueprint(b).clone())
    };
    let full = session.run.collection().len() >= session.run.collection_limit();
    let shown_offers = offers
        .iter()
        .enumerate()
        .filter_map(|(i, id)| {
            // An offer that comes with an augment shows its values with it, and says which.
            let with: Vec<String> = augmented.get(i).cloned().flatten().into_iter().collect();
            let card = Card::of(&content.db, id, &with)?;
            let name = with.first().map(|with| {
                content
                    .db
                    .augment(with)
                    .map_or(with.clone(), |a| a.name.clone())
            });
            Some((i, card, name))
        })
        .collect();
    let augment = augment.as_ref().map(|offer| {
        let (title, text) = augment_text(&content, offer);
        (
            title,
            text,
            augment_card(&content, &session.run, offer, false),
        )
    });
    let name = |id: &str| blueprint(id).map_or(id.to_string(), |b| b.name);
    let hint = match (setup.offer.and_then(|i| offers.get(i)), full) {
        (Some(id), _) => format!(
            "The collection is full: click the blueprint {} replaces",
            name(id)
        ),
        (None, true) => "The collection is full: a new blueprint replaces one of these".into(),
        (None, false) => format!(
            "Collection ({} of {})",
            session.run.collection().len(),
            session.run.collection_limit()
        ),
    };
    let view = RewardView {
        title: format!("{}: choose a blueprint", reward_title(&session.run)),
        offers: shown_offers,
        augment,
        chosen: setup.offer,
        hint,
        collection: collection_cards(&content.db, &session.run),
    };
    let root = spawn_screen(&mut commands, Screen::Reward);
    commands
        .entity(root)
        .with_children(|c| reward_screen(c, &mut looks, &view));
}

/// What the reward screen shows.
pub struct RewardView {
    /// The title: what the reward is for.
    pub title: String,
    /// The blueprints offered: each offer's number, its card, and the name of the augment it
    /// comes with.
    pub offers: Vec<(usize, Card, Option<String>)>,
    /// The augment offered instead of a blueprint: its title and text, and the card of the
    /// blueprint it would go on.
    pub augment: Option<(String, String, Option<Card>)>,
    /// The offer chosen, waiting for the blueprint it replaces.
    pub chosen: Option<usize>,
    /// The line over the collection.
    pub hint: String,
    /// The collection's cards, each with its slot.
    pub collection: Vec<(usize, Card)>,
}

/// The column of one offer: as wide as its card, so that the words over and under the card wrap
/// rather than widen the row past the window.
fn offer_column() -> Node {
    Node {
        width: Val::Px(250.0),
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        ..default()
    }
}

/// The reward screen's content under `c`, its column.
pub fn reward_screen(c: &mut ChildSpawnerCommands, looks: &mut CardLooks, view: &RewardView) {
    c.spawn(label(view.title.clone(), 32.0, GOLD));
    c.spawn(Node {
        column_gap: Val::Px(10.0),
        align_items: AlignItems::FlexStart,
        ..default()
    })
    .with_children(|row| {
        for (i, card, with) in &view.offers {
            row.spawn(offer_column()).with_children(|col| {
                let on = view.chosen == Some(*i);
                spawn_card(col, looks, card, Action::Offer(*i), on, 250.0);
                if let Some(name) = with {
                    col.spawn(label(format!("with the augment {name}"), 15.0, GOLD));
                }
            });
        }
        if let Some((title, text, card)) = &view.augment {
            row.spawn(offer_column()).with_children(|col| {
                match card {
                    Some(card) => {
                        col.spawn(label(title.clone(), 15.0, GOLD));
                        spawn_card(col, looks, card, Action::TakeAugment, false, 250.0);
                    }
                    None => {
                        col.spawn(info_box(title.clone(), text.clone()));
                    }
                }
                col.spawn(button("Take the augment", Action::TakeAugment));
            });
        }
        row.spawn(button("Skip", Action::Skip));
    });
    c.spawn(label(view.hint.clone(), 16.0, MUTED));
    c.spawn((NoticeLine, label("", 16.0, NOTICE)));
    spawn_collection(c, looks, &view.collection);
}

/// What the reward is for: the kind of the room it was won in.
pub fn reward_title(run: &Run) -> String {
    let kind = run.map().node(run.map().current()).map(|n| n.kind);
    match kind {
        Some(NodeKind::Event) => "Event reward".into(),
        Some(NodeKind::Elite) => format!("Level {}: elite battle won", run.level()),
        Some(NodeKind::Boss) => format!("Level {}: boss beaten", run.level()),
        _ => format!("Level {} won", run.level()),
    }
}

/// The run's end: won (every act's boss beaten) or lost (the hull ran out), and back to the menu.
pub(crate) fn spawn_run_end(
    mut commands: Commands,
    game: NonSend<Game>,
    content: Res<Content>,
    profile: Res<PlayerProfile>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let run = &session.run;
    let acts = Run::acts(&content.db).unwrap_or(run.act());
    let (title, color, text) = match run.phase() {
        RunPhase::Won { levels_won } => (
            "Run won",
            GOLD,
            format!(
                "Every boss of {acts} acts is beaten: {levels_won} battles won at ascension {}, \
                 {:.0} hull left",
                run.ascension(),
                run.hull()
            ),
        ),
        RunPhase::Over { levels_won } => (
            "Run lost",
            WARN,
            format!(
                "The hull gave out in act {} of {acts}, level {}: {levels_won} battles won",
                run.act(),
                run.level()
            ),
        ),
        _ => return,
    };
    let root = spawn_screen(&mut commands, Screen::RunEnd);
    commands.entity(root).with_children(|c| {
        c.spawn(label(title, 56.0, color));
        c.spawn(label(text, 20.0, Color::WHITE));
        if matches!(run.phase(), RunPhase::Won { .. }) && profile.ascension_unlocked > 0 {
            c.spawn(label(
                format!(
                    "Custom Run offers ascension levels up to {}",
                    profile.ascension_unlocked
                ),
                18.0,
                GOLD,
            ));
        }
        c.spawn((NoticeLine, label("", 16.0, MUTED)));
        c.spawn(button("Back to menu", Action::ToMenu));
    });
}
