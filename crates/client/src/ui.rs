//! The pieces every screen is built from: the palette, text, buttons and the [`Action`] each
//! button (or key, see [`actions`](super::actions)) carries, and the layouts the screens share.

use std::ops::DerefMut;
use std::path::PathBuf;

use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::picking::hover::HoverMap;
use bevy::picking::pointer::PointerId;
use bevy::prelude::*;

use super::bindings::Control;
use super::fonts;
use super::settings::Change;
use super::{ClientSet, Screen};
use rampart_core::diagnostics::Diagnostic;
use rampart_core::mapgen::NodeId;
use rampart_core::run::Difficulty;

/// The game's fonts; colours buttons as the cursor moves over them and scrolls scroll areas.
pub struct UiPlugin;

impl Plugin for UiPlugin {
    fn build(&self, app: &mut App) {
        super::fonts::install(app);
        app.add_systems(Update, scroll.in_set(ClientSet::Input))
            .add_systems(Update, (hover, scroll_thumbs).in_set(ClientSet::Present));
    }
}

/// What a button or key does.
#[derive(Component, Clone, Debug, PartialEq)]
pub enum Action {
    /// Start a run with a random seed and the starter blueprints.
    Start,
    /// Go on with the saved run.
    Continue,
    /// Start the tutorial.
    Tutorial,
    /// Leave the tutorial's offer on the first start for now and for good.
    TutorialDecline,
    /// The tutorial step that waits for the player to read it is read.
    TutorialNext,
    /// Stop the tutorial; the battle goes on without it.
    TutorialLeave,
    /// Open the run settings.
    CustomRun,
    /// Open the Mods screen.
    Mods,
    /// Show the details of the mod in this folder on the Mods screen.
    ModInfo(PathBuf),
    /// Switch mod `id` on or off (and load the mods again).
    SwitchMod {
        /// The mod's id.
        id: String,
        /// On (`true`) or off.
        on: bool,
    },
    /// Quit the game.
    Exit,
    /// Start the run set up on the settings screen.
    Begin,
    /// Back to the main menu (from anywhere; a run in progress is saved and left).
    ToMenu,
    /// Take or leave a blueprint in the starting collection.
    Toggle(String),
    /// Set the custom run's difficulty.
    Difficulty(Difficulty),
    /// Set the custom run's ascension level.
    Ascension(u32),
    /// Enter room `n` of the run's map.
    Enter(NodeId),
    /// Take reward offer `n` (then choose what it replaces if the collection is full).
    Offer(usize),
    /// Take the augment a reward offers instead of a blueprint.
    TakeAugment,
    /// Give up collection slot `n` for the chosen reward offer, or for the shop's offer waiting
    /// for one (the blueprint it replaces, or the blueprint a removal takes out).
    Replace(usize),
    /// Buy shop offer `n` (again: no longer wait for the slot it needs).
    Buy(usize),
    /// Leave the shop, back to the map.
    LeaveShop,
    /// Take choice `n` of the event.
    Choose(usize),
    /// After an event's outcome: on to its reward or back to the map.
    EventDone,
    /// Take no reward.
    Skip,
    /// Open the pause screen of a battle.
    PauseMenu,
    /// Leave the pause screen; the clock runs.
    Resume,
    /// Open the settings screen.
    Settings,
    /// Change a setting (and save the settings).
    Setting(Change),
    /// Wait for the key to bind as key `slot` of `control`.
    Rebind {
        /// The control.
        control: Control,
        /// Which of its keys.
        slot: usize,
    },
    /// Take the key being rebound off its control.
    Unbind,
    /// Close the layer on top: the settings screen, a key capture, a question.
    Close,
    /// Answer yes to the question on top, carrying out what it asked about.
    Confirm,
    /// After a level's end: on to the reward, the next level or the menu.
    Proceed,
    /// Open or close the list of problems the mods had.
    Problems,
    /// Start the next wave.
    StartWave,
    /// Pause or go on.
    Pause,
    /// Switch between 1× and 2×.
    Speed,
    /// Select shown blueprint `n`.
    Blueprint(usize),
    /// Remove the selected building.
    Delete,
    /// Turn the building about to be placed a quarter.
    Rotate,
    /// Step the selected tower's targeting priority forwards (1) or back (−1).
    Priority(i32),
    /// Clear the selection, or open the pause screen when nothing is selected.
    Back,
}

/// The panels behind screens.
pub const PANEL: Color = Color::srgba(0.1, 0.11, 0.14, 0.92);
/// A button at rest.
pub const BUTTON: Color = Color::srgb(0.2, 0.24, 0.32);
/// A button under the cursor.
pub const BUTTON_HOVER: Color = Color::srgb(0.3, 0.36, 0.48);
/// Titles and what the eye should find first.
pub const GOLD: Color = Color::srgb(0.95, 0.8, 0.35);
/// Hints and secondary text.
pub const MUTED: Color = Color::srgb(0.7, 0.72, 0.78);
/// A button that cannot be pressed now.
pub const DISABLED: Color = Color::srgb(0.16, 0.16, 0.18);
/// Errors and refusals.
pub const WARN: Color = Color::srgb(1.0, 0.5, 0.45);
/// What just happened: a notice, a purchase, a refusal's outcome.
pub const NOTICE: Color = Color::srgb(1.0, 0.85, 0.5);
/// Under a card's or a box's text.
pub const CARD: Color = Color::srgb(0.12, 0.13, 0.17);
/// Why a button cannot be pressed, under it.
pub(crate) const WHY: Color = Color::srgb(1.0, 0.6, 0.5);
/// The box of mod problems, and its text.
pub const PROBLEMS: Color = Color::srgba(0.25, 0.02, 0.02, 0.9);
/// The text of mod problems.
pub const PROBLEMS_TEXT: Color = Color::srgb(1.0, 0.85, 0.85);

/// Marks a button that keeps its own colour when hovered (cards, the blueprint menu): its
/// border says it is hovered or chosen instead.
#[derive(Component)]
pub struct OwnColour;

/// Text this large or larger is a title, set in bold.
pub const TITLE_SIZE: f32 = 24.0;

/// A text of `size` pixels in `color`: the game's font, bold from [`TITLE_SIZE`] up.
pub fn label(text: impl Into<String>, size: f32, color: Color) -> impl Bundle {
    (Text::new(text), font(size), TextColor(color))
}

/// The game's font at `size` pixels, bold from [`TITLE_SIZE`] up.
pub fn font(size: f32) -> TextFont {
    let font = TextFont::from_font_size(size);
    if size >= TITLE_SIZE {
        font.with_font(fonts::BOLD)
    } else {
        font
    }
}

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

/// A button of a group of which one is chosen: the chosen one has a gold border (kept up to
/// date by the screen that shows the group).
pub fn choice_button(text: impl Into<String>, action: Action, chosen: bool) -> impl Bundle {
    sized_choice_button(text, action, chosen, 17.0)
}

/// A [`choice_button`] with text of `size` pixels, padded in proportion.
pub fn sized_choice_button(
    text: impl Into<String>,
    action: Action,
    chosen: bool,
    size: f32,
) -> impl Bundle {
    // 17-pixel text: 12 by 6 pixels of padding, 3 of margin.
    let em = size / 17.0;
    (
        Button,
        action,
        Node {
            padding: UiRect::axes(Val::Px(12.0 * em), Val::Px(6.0 * em)),
            margin: UiRect::all(Val::Px(3.0 * em)),
            border: UiRect::all(Val::Px(2.0)),
            justify_content: JustifyContent::Center,
            ..default()
        },
        BackgroundColor(BUTTON),
        BorderColor::all(if chosen { GOLD } else { Color::NONE }),
        children![label(text, size, Color::WHITE)],
    )
}

/// Shows `node` when `on`, else hides it (touching it only when that changes, so that the
/// layout is not worked out again for nothing: a `Mut<Node>` is read without being marked
/// changed, which a `&mut Node` taken from it would be).
pub fn show_if(node: &mut impl DerefMut<Target = Node>, on: bool) {
    let display = if on { Display::Flex } else { Display::None };
    if node.display != display {
        node.display = display;
    }
}

/// A node over the whole window, its children in a centred column: a screen laid over another.
pub fn cover() -> Node {
    Node {
        position_type: PositionType::Absolute,
        width: Val::Percent(100.0),
        height: Val::Percent(100.0),
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        justify_content: JustifyContent::Center,
        ..default()
    }
}

/// A framed box in the middle of the window over the dimmed screen, `z` above the rest: a
/// question, a key being waited for. `content` is its children (`children![…]`), in a column.
pub fn dialog(z: i32, content: impl Bundle) -> impl Bundle {
    (
        cover(),
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.65)),
        GlobalZIndex(z),
        children![(
            Node {
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                row_gap: Val::Px(8.0),
                padding: UiRect::all(Val::Px(20.0)),
                border: UiRect::all(Val::Px(2.0)),
                ..default()
            },
            BackgroundColor(PANEL.with_alpha(1.0)),
            BorderColor::all(GOLD),
            content,
        )],
    )
}

/// A button that cannot be pressed now, greyed, with why under it.
pub fn disabled_button(text: impl Into<String>, why: impl Into<String>) -> impl Bundle {
    (
        Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            padding: UiRect::axes(Val::Px(18.0), Val::Px(8.0)),
            margin: UiRect::all(Val::Px(4.0)),
            ..default()
        },
        BackgroundColor(DISABLED),
        children![label(text, 20.0, MUTED), label(why, 13.0, WHY)],
    )
}

/// A box the size of a card for what is not a blueprint (a repair, a removal, an augment): a
/// title and a text.
pub fn info_box(title: impl Into<String>, text: impl Into<String>) -> impl Bundle {
    (
        Node {
            width: Val::Px(196.0),
            min_height: Val::Px(110.0),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(Val::Px(8.0)),
            row_gap: Val::Px(6.0),
            border: UiRect::all(Val::Px(2.0)),
            ..default()
        },
        BackgroundColor(CARD),
        BorderColor::all(Color::srgb(0.35, 0.6, 0.45)),
        children![label(title, 18.0, Color::WHITE), label(text, 14.0, MUTED)],
    )
}

/// A row of buttons or cards that wraps onto more lines, centred.
pub fn wrapping_row() -> Node {
    Node {
        flex_wrap: FlexWrap::Wrap,
        justify_content: JustifyContent::Center,
        max_width: Val::Px(1000.0),
        column_gap: Val::Px(6.0),
        row_gap: Val::Px(6.0),
        ..default()
    }
}

/// Diagnostics as the game shows them, one after the other: each with its file, line, column,
/// message and the lines around it, framed in ASCII, shown in the monospaced font so that the
/// carets stand under what they point at.
pub fn problems_text<'a>(diagnostics: impl IntoIterator<Item = &'a Diagnostic>) -> String {
    diagnostics
        .into_iter()
        .map(Diagnostic::render_ascii)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The dark red box that shows mod problems (as [`problems_text`]) in `text`, laid out by
/// `node` (its padding is the box's own).
pub fn problems_box(text: impl Into<String>, node: Node) -> impl Bundle {
    (
        Node {
            padding: UiRect::all(Val::Px(8.0)),
            ..node
        },
        BackgroundColor(PROBLEMS),
        children![(
            Text::new(text),
            TextFont::from_font_size(13.0).with_font(fonts::MONO),
            TextColor(PROBLEMS_TEXT),
        )],
    )
}

/// A full-screen screen that goes when `screen` does: spawns it and returns the column its
/// content goes into, centred, which scrolls with the wheel when it is taller than the window
/// (so that nothing on a screen is ever cut off at a small window).
pub fn spawn_screen(commands: &mut Commands, screen: Screen) -> Entity {
    spawn_screen_placed(commands, screen, true)
}

/// A screen like [`spawn_screen`] whose column starts at the window's top, when `centred` is
/// false: for a screen whose height changes as the player clicks (the Mods screen's details),
/// which would otherwise jump as its centre moves.
pub fn spawn_screen_placed(commands: &mut Commands, screen: Screen, centred: bool) -> Entity {
    let root = commands
        .spawn((
            scroll_screen(),
            BackgroundColor(PANEL),
            DespawnOnExit(screen),
        ))
        .id();
    commands
        .spawn((
            Node {
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                // Auto margins centre the column while it is shorter than the window, and give
                // way (unlike centring the content) when it is taller, so it scrolls from its top.
                margin: if centred {
                    UiRect::vertical(Val::Auto)
                } else {
                    UiRect::bottom(Val::Auto)
                },
                padding: UiRect::vertical(Val::Px(8.0)),
                row_gap: Val::Px(6.0),
                ..default()
            },
            ChildOf(root),
        ))
        .id()
}

/// A node over the whole window whose children scroll with the wheel when they are taller.
pub fn scroll_screen() -> impl Bundle {
    (
        ScrollArea,
        Node {
            width: Val::Percent(100.0),
            height: Val::Percent(100.0),
            flex_direction: FlexDirection::Column,
            overflow: Overflow::scroll_y(),
            ..default()
        },
        ScrollPosition::default(),
    )
}

/// Lightens plain buttons under the cursor.
fn hover(
    mut buttons: Query<
        (&Interaction, &mut BackgroundColor),
        (Changed<Interaction>, With<Button>, Without<OwnColour>),
    >,
) {
    for (interaction, mut bg) in &mut buttons {
        bg.0 = match interaction {
            Interaction::Hovered | Interaction::Pressed => BUTTON_HOVER,
            Interaction::None => BUTTON,
        };
    }
}

/// Marks a node whose children scroll with the wheel while the cursor is over it.
#[derive(Component)]
pub struct ScrollArea;

/// A column that scrolls when its children are taller than `height` pixels.
pub fn scroll_area(height: f32) -> impl Bundle {
    (
        ScrollArea,
        Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            max_height: Val::Px(height),
            overflow: Overflow::scroll_y(),
            ..default()
        },
        ScrollPosition::default(),
    )
}

/// The thumb along a scroll area's right edge: where the view is in what it scrolls, so that
/// what is cut at the area's edge is seen to go on.
#[derive(Component)]
struct ScrollThumb;

/// The thumb of a view `view` pixels high over `content` pixels scrolled down by `scrolled`: its
/// top and height in the view, the view's share of the content; `None` when all of it shows.
pub fn thumb(view: f32, content: f32, scrolled: f32) -> Option<(f32, f32)> {
    if content <= view + 0.5 || view <= 0.0 {
        return None;
    }
    let height = (view * view / content).max(12.0_f32.min(view));
    let room = view - height;
    let travel = (content - view).max(1.0);
    Some(((scrolled / travel).clamp(0.0, 1.0) * room, height))
}

/// Keeps every scroll area's thumb in place, and gives one to an area that has none.
fn scroll_thumbs(
    mut commands: Commands,
    areas: Query<(Entity, &ComputedNode, Option<&Children>), With<ScrollArea>>,
    mut thumbs: Query<&mut Node, With<ScrollThumb>>,
) {
    for (area, computed, children) in &areas {
        let scale = computed.inverse_scale_factor();
        let view = computed.size().y * scale;
        let content = computed.content_size.y * scale;
        let scrolled = computed.scroll_position.y * scale;
        let placed = thumb(view, content, scrolled);
        let mine = children.and_then(|c| c.iter().find(|&c| thumbs.contains(c)));
        let Some(mine) = mine else {
            commands.entity(area).with_child((
                ScrollThumb,
                Node {
                    position_type: PositionType::Absolute,
                    right: Val::Px(1.0),
                    width: Val::Px(4.0),
                    display: Display::None,
                    ..default()
                },
                BackgroundColor(MUTED.with_alpha(0.6)),
                Pickable::IGNORE,
            ));
            continue;
        };
        let Ok(mut node) = thumbs.get_mut(mine) else {
            continue;
        };
        show_if(&mut node, placed.is_some());
        if let Some((top, height)) = placed {
            // The thumb is laid out among the content, which the scrolling moves: it moves back.
            let (top, height) = (Val::Px(scrolled + top), Val::Px(height));
            if node.top != top || node.height != height {
                node.top = top;
                node.height = height;
            }
        }
    }
}

/// The wheel scrolls the scroll area under the cursor.
fn scroll(
    mut wheel: MessageReader<MouseWheel>,
    hovered: Res<HoverMap>,
    parents: Query<&ChildOf>,
    mut areas: Query<&mut ScrollPosition, With<ScrollArea>>,
) {
    let lines: f32 = wheel
        .read()
        .map(|w| match w.unit {
            MouseScrollUnit::Line => w.y * 40.0,
            MouseScrollUnit::Pixel => w.y,
        })
        .sum();
    if lines == 0.0 {
        return;
    }
    let Some(hits) = hovered.get(&PointerId::Mouse) else {
        return;
    };
    // The nearest scroll area among the hovered nodes and their ancestors.
    for &hit in hits.keys() {
        let mut at = Some(hit);
        while let Some(e) = at {
            if let Ok(mut position) = areas.get_mut(e) {
                position.y = (position.y - lines).max(0.0);
                return;
            }
            at = parents.get(e).ok().map(ChildOf::parent);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, spawn_collection};
    use crate::fit;

    #[test]
    fn a_list_taller_than_its_area_shows_a_thumb_inside_it() {
        let content = fit::core();
        let cards: Vec<(usize, Card)> = content
            .blueprints
            .iter()
            .map(Card::plain)
            .enumerate()
            .collect();
        let mut app = fit::app();
        fit::spawn(&mut app, |commands, looks| {
            let root = spawn_screen(commands, Screen::Reward);
            commands
                .entity(root)
                .with_children(|c| spawn_collection(c, looks, &cards));
        });
        // Laid out, given its thumb, and laid out again with it.
        assert!(fit::problems(&mut app).is_empty());
        fit::run(&mut app, scroll_thumbs);
        fit::run(&mut app, scroll_thumbs);
        assert!(fit::problems(&mut app).is_empty());
        let world = app.world_mut();
        let mut thumbs = world.query_filtered::<(&Node, &ChildOf), With<ScrollThumb>>();
        let shown: Vec<Entity> = thumbs
            .iter(world)
            .filter(|(n, _)| n.display != Display::None)
            .map(|(_, parent)| parent.parent())
            .collect();
        // The collection's area, not the screen, which fits the window.
        assert_eq!(shown.len(), 1, "{shown:?}");
        let area = world.get::<ComputedNode>(shown[0]).expect("laid out");
        assert!(area.content_size.y > area.size().y);
    }

    #[test]
    fn a_thumb_shows_the_views_share_and_place() {
        assert_eq!(thumb(100.0, 100.0, 0.0), None, "all of it shows");
        assert_eq!(thumb(100.0, 400.0, 0.0), Some((0.0, 25.0)));
        assert_eq!(thumb(100.0, 400.0, 300.0), Some((75.0, 25.0)), "at the end");
        assert_eq!(thumb(100.0, 400.0, 150.0), Some((37.5, 25.0)));
        // A long list still has a thumb big enough to see.
        assert_eq!(thumb(100.0, 100_000.0, 0.0), Some((0.0, 12.0)));
    }
}
