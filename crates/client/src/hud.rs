//! The heads-up display of a battle (thesis 2.5.1–2.5.6): the wave and the waves left, time
//! controls (start wave, pause, 1×/2×), fuel with its production and preview marks, hull, the
//! preview of the current and next waves, materials and energy with production and cap, the
//! blueprint menu (colour by kind, cost red when unaffordable, cooldown overlay, the keys that
//! select them), the boss's name and HP bar in a boss room's battle, the banner that says the
//! clock is paused, the Menu button and its pause screen (Resume, Settings, Back to menu), and
//! the victory and defeat overlays.

use bevy::prelude::*;

use super::bindings::Control;
use super::camera::Bar;
use super::input::{Layer, Layers};
use super::models::icons::icon;
use super::palette::Palette;
use super::rich::{self, Icons};
use super::session::{Game, Session, shown_blueprints};
use super::settings::Settings;
use super::ui::{
    Action, GOLD, NOTICE, OwnColour, WARN, button, cover, label, scroll_area, show_if,
};
use super::wave_preview::{self, WavePreview};
use super::{ClientSet, Screen};
use rampart_core::battle::{EntityKind, Phase};
use rampart_core::content::{Blueprint, BlueprintId, Size};
use rampart_core::run::LevelKind;

/// Builds and updates the HUD.
pub struct HudPlugin;

impl Plugin for HudPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnEnter(Screen::Battle), spawn_hud)
            .add_systems(
                Update,
                (
                    update_texts,
                    update_problems,
                    update_fuel,
                    update_boss,
                    show_paused,
                    rebuild_menu,
                    update_menu,
                    overlays,
                )
                    .chain()
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// The texts of the HUD, each updated from the battle every frame.
#[derive(Component, Clone, Copy, PartialEq, Eq, Debug)]
pub enum HudText {
    /// The wave number.
    Wave,
    /// Waves left at the current fuel production.
    WavesLeft,
    /// Fuel, goal and production.
    Fuel,
    /// Hull.
    Hull,
    /// Materials and their production.
    Materials,
    /// Energy, cap and production.
    Energy,
    /// Pause or play, on its button.
    Pause,
    /// 1× or 2×, on its button.
    Speed,
    /// Notices for the player.
    Notices,
    /// How many script problems there were, on the button that lists them.
    Problems,
    /// The list of script problems.
    ProblemList,
    /// The boss's name and HP, in a boss room's battle once the boss is on the field.
    Boss,
    /// What the paused banner says.
    Paused,
}

/// The top bar, which the render test looks for.
#[derive(Component)]
pub struct TopBar;

/// The button that opens the list of script problems, shown once there is one.
#[derive(Component)]
struct ProblemsButton;

/// The list of script problems.
#[derive(Component)]
struct ProblemsPanel;

/// The fuel bar (the tutorial points at it).
#[derive(Component)]
pub struct FuelBar;

/// The hull bar (the tutorial points at it).
#[derive(Component)]
pub struct HullBar;

#[derive(Component)]
struct FuelFill;

/// The boss's name and HP bar, shown while the boss is on the field.
#[derive(Component)]
struct BossBar;

#[derive(Component)]
struct BossFill;

#[derive(Component)]
struct HullFill;

/// Where the fuel will be after the `n`th next wave.
#[derive(Component)]
struct FuelMark(u32);

/// The banner over the world while the clock stands (not the pause screen: the player's own
/// pause, or a continued battle).
#[derive(Component)]
struct PausedBanner;

/// The blueprint menu's row and what it shows: the blueprints, in the palette, with the keys.
#[derive(Component)]
struct MenuRow(Vec<BlueprintId>, Palette, Vec<String>);

/// One blueprint of the menu: its cost text and cooldown overlay.
#[derive(Component)]
struct CostText(BlueprintId);

#[derive(Component)]
struct CooldownShade(BlueprintId);

/// The pause (settings) screen and the end-of-level overlay.
#[derive(Component)]
pub(crate) enum Overlay {
    Pause,
    End,
}

const BAR: Color = Color::srgba(0.05, 0.06, 0.08, 0.85);
/// The HUD's background colour in sRGB bytes (the render test looks for it).
pub const BAR_RGB: [u8; 3] = [13, 15, 20];

fn text(kind: HudText, size: f32, color: Color) -> impl Bundle {
    (kind, label("", size, color))
}

/// The height of the HUD's top bar: fixed, so that what hangs below it (the info panel, the
/// tutorial, the problems) is placed clear of it.
pub const TOP_BAR_HEIGHT: f32 = 176.0;

/// A button whose text the HUD keeps up to date, `width` pixels wide whatever the text says
/// (Play and Pause, 1× and 2×), so that nothing beside it moves when it changes.
fn live_button(kind: HudText, action: Action, width: f32) -> impl Bundle {
    (
        Button,
        action,
        Node {
            width: Val::Px(width),
            padding: UiRect::axes(Val::Px(8.0), Val::Px(8.0)),
            margin: UiRect::all(Val::Px(4.0)),
            justify_content: JustifyContent::Center,
            ..default()
        },
        BackgroundColor(Color::srgb(0.2, 0.24, 0.32)),
        children![text(kind, 18.0, Color::WHITE)],
    )
}

pub(crate) fn spawn_hud(mut commands: Commands) {
    let root = commands
        .spawn((
            Node {
                width: Val::Percent(100.0),
                height: Val::Percent(100.0),
                flex_direction: FlexDirection::Column,
                justify_content: JustifyContent::SpaceBetween,
                ..default()
            },
            // The root only lays the bars out: the world stays clickable between them.
            Pickable::IGNORE,
            DespawnOnExit(Screen::Battle),
        ))
        .id();
    commands.entity(root).with_children(|c| {
        // Top: wave and time controls, fuel and hull, wave preview, settings.
        c.spawn((
            TopBar,
            Bar,
            Node {
                width: Val::Percent(100.0),
                height: Val::Px(TOP_BAR_HEIGHT),
                padding: UiRect::all(Val::Px(8.0)),
                column_gap: Val::Px(12.0),
                align_items: AlignItems::FlexStart,
                ..default()
            },
            BackgroundColor(Color::srgb_u8(BAR_RGB[0], BAR_RGB[1], BAR_RGB[2]).with_alpha(0.9)),
        ))
        .with_children(|top| {
            // A fixed width: the columns beside it stay put as its texts change.
            top.spawn(Node {
                flex_direction: FlexDirection::Column,
                width: Val::Px(350.0),
                flex_shrink: 0.0,
                ..default()
            })
            .with_children(|col| {
                col.spawn(text(HudText::WavesLeft, 14.0, Color::srgb(0.5, 0.95, 0.5)));
                col.spawn(text(HudText::Wave, 30.0, Color::WHITE));
                col.spawn(Node::default()).with_children(|row| {
                    row.spawn(button("Start wave", Action::StartWave));
                    row.spawn(live_button(HudText::Pause, Action::Pause, 84.0));
                    row.spawn(live_button(HudText::Speed, Action::Speed, 84.0));
                });
            });
            top.spawn(Node {
                flex_direction: FlexDirection::Column,
                row_gap: Val::Px(2.0),
                width: Val::Px(330.0),
                ..default()
            })
            .with_children(|col| {
                col.spawn(text(HudText::Fuel, 15.0, Color::WHITE));
                col.spawn((
                    FuelBar,
                    Node {
                        width: Val::Percent(100.0),
                        height: Val::Px(12.0),
                        ..default()
                    },
                    BackgroundColor(Color::srgb(0.1, 0.2, 0.1)),
                ))
                .with_children(|bar| {
                    bar.spawn((
                        FuelFill,
                        Node {
                            height: Val::Percent(100.0),
                            ..default()
                        },
                        BackgroundColor(Color::srgb(0.2, 0.75, 0.25)),
                    ));
                    for n in 1..=6 {
                        bar.spawn((
                            FuelMark(n),
                            Node {
                                position_type: PositionType::Absolute,
                                width: Val::Px(2.0),
                                height: Val::Percent(100.0),
                                ..default()
                            },
                            BackgroundColor(Color::srgb(0.6, 1.0, 0.6)),
                        ));
                    }
                });
                col.spawn(text(HudText::Hull, 15.0, Color::WHITE));
                col.spawn((
                    HullBar,
                    Node {
                        width: Val::Percent(100.0),
                        height: Val::Px(8.0),
                        ..default()
                    },
                    BackgroundColor(Color::srgb(0.25, 0.08, 0.08)),
                    children![(
                        HullFill,
                        Node {
                            height: Val::Percent(100.0),
                            ..default()
                        },
                        BackgroundColor(Color::srgb(0.85, 0.2, 0.2)),
                    )],
                ));
                // Every wave still to come, four rows at a time; the wheel scrolls through them.
                col.spawn(scroll_area(4.0 * wave_preview::ROW))
                    .with_children(|area| {
                        area.spawn((
                            WavePreview::default(),
                            Node {
                                align_self: AlignSelf::FlexStart,
                                flex_direction: FlexDirection::Column,
                                // As wide as the column: a long wave wraps instead of running on.
                                width: Val::Percent(100.0),
                                ..default()
                            },
                        ));
                    });
            });
            top.spawn((
                BossBar,
                Node {
                    flex_direction: FlexDirection::Column,
                    row_gap: Val::Px(4.0),
                    width: Val::Px(240.0),
                    display: Display::None,
                    ..default()
                },
            ))
            .with_children(|col| {
                col.spawn(text(HudText::Boss, 17.0, Color::srgb(1.0, 0.55, 0.5)));
                col.spawn((
                    Node {
                        width: Val::Percent(100.0),
                        height: Val::Px(14.0),
                        border: UiRect::all(Val::Px(1.0)),
                        ..default()
                    },
                    BackgroundColor(Color::srgb(0.25, 0.05, 0.05)),
                    BorderColor::all(Color::BLACK),
                    children![(
                        BossFill,
                        Node {
                            height: Val::Percent(100.0),
                            ..default()
                        },
                        BackgroundColor(Color::srgb(0.85, 0.1, 0.1)),
                    )],
                ));
            });
            top.spawn(Node {
                flex_grow: 1.0,
                ..default()
            });
            top.spawn((
                ProblemsButton,
                live_button(HudText::Problems, Action::Problems, 170.0),
            ));
            top.spawn(button("Menu", Action::PauseMenu));
        });
        // Below the top bar, at the right: the script problems, when opened.
        c.spawn((
            ProblemsPanel,
            Node {
                position_type: PositionType::Absolute,
                right: Val::Px(8.0),
                top: Val::Px(TOP_BAR_HEIGHT + 8.0),
                max_width: Val::Px(640.0),
                padding: UiRect::all(Val::Px(10.0)),
                display: Display::None,
                ..default()
            },
            BackgroundColor(Color::srgba(0.25, 0.05, 0.05, 0.92)),
            GlobalZIndex(6),
            children![text(
                HudText::ProblemList,
                13.0,
                Color::srgb(1.0, 0.85, 0.85)
            )],
        ));
        c.spawn((
            Node {
                width: Val::Percent(100.0),
                flex_direction: FlexDirection::Column,
                row_gap: Val::Px(8.0),
                ..default()
            },
            Pickable::IGNORE,
        ))
        .with_children(|low| {
            // The paused banner and notices, which the cursor passes through, in one place: just
            // above the bottom bar, growing upwards, never over the middle of the map.
            low.spawn((
                Node {
                    width: Val::Percent(100.0),
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    row_gap: Val::Px(8.0),
                    ..default()
                },
                Pickable::IGNORE,
            ))
            .with_children(|mid| {
                mid.spawn((
                    PausedBanner,
                    Node {
                        padding: UiRect::axes(Val::Px(16.0), Val::Px(6.0)),
                        border: UiRect::all(Val::Px(2.0)),
                        display: Display::None,
                        ..default()
                    },
                    BackgroundColor(Color::srgba(0.05, 0.06, 0.08, 0.85)),
                    BorderColor::all(GOLD),
                    Pickable::IGNORE,
                    // Over the HP bars, which are laid over the world.
                    GlobalZIndex(4),
                    children![(text(HudText::Paused, 24.0, GOLD), Pickable::IGNORE)],
                ));
                mid.spawn((text(HudText::Notices, 16.0, NOTICE), Pickable::IGNORE));
            });
            // Bottom: materials and energy, the blueprint menu.
            low.spawn((
                Bar,
                Node {
                    width: Val::Percent(100.0),
                    padding: UiRect::all(Val::Px(8.0)),
                    column_gap: Val::Px(16.0),
                    align_items: AlignItems::Center,
                    ..default()
                },
                BackgroundColor(BAR),
            ))
            .with_children(|bottom| {
                bottom
                    .spawn(Node {
                        flex_direction: FlexDirection::Column,
                        // Fixed: the menu beside it stays put as the numbers grow.
                        width: Val::Px(210.0),
                        flex_shrink: 0.0,
                        ..default()
                    })
                    .with_children(|col| {
                        col.spawn(text(HudText::Materials, 17.0, rich::MATERIALS));
                        col.spawn(text(HudText::Energy, 17.0, rich::ENERGY));
                    });
                bottom.spawn((
                    MenuRow(Vec::new(), Palette::standard(), Vec::new()),
                    Node {
                        column_gap: Val::Px(6.0),
                        ..default()
                    },
                ));
            });
        });
    });
}

/// The boss of a boss room's battle, once it is on the field: its name, HP and maximum HP.
fn boss(session: &Session) -> Option<(String, f64, f64)> {
    if !matches!(session.run.level_kind(), LevelKind::Boss(_)) {
        return None;
    }
    let content = session.battle.content();
    session.battle.entities().find_map(|(_, e)| match e.kind {
        EntityKind::Attacker(a) if content.attacker(a).size == Size::Boss => {
            Some((content.attacker(a).name.clone(), e.hp, e.max_hp))
        }
        _ => None,
    })
}

/// The most hull the run can have (the bar's length): the run's starting hull, which a battle
/// that starts after a loss does not show.
fn max_hull(session: &Session) -> f64 {
    let start = session.battle.config().start.hull;
    session
        .run
        .max_hull(session.battle.content())
        .map_or(start, |m| m.max(start))
}

fn update_texts(
    mut game: NonSendMut<Game>,
    settings: Res<Settings>,
    mut texts: Query<(&HudText, &mut Text)>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let boss = boss(session);
    let max_hull = max_hull(session);
    let production = session.battle.production();
    let cap = session.battle.energy_cap();
    let battle = &session.battle;
    let p = battle.player().clone();
    let total = battle.config().start.waves.len();
    let wave = battle.wave() as usize;
    let phase = battle.phase();
    for (kind, mut text) in &mut texts {
        let value = match kind {
            HudText::Wave => format!("Wave {wave} / {total}"),
            HudText::WavesLeft => {
                let need = (p.fuel_goal - p.fuel).max(0.0);
                if production.fuel > 0.0 {
                    format!(
                        "{:.0} more waves at this fuel rate",
                        (need / production.fuel).ceil()
                    )
                } else {
                    "no fuel production yet".into()
                }
            }
            HudText::Fuel => format!(
                "Fuel {:.0} / {:.0}  (+{:.0} per wave)",
                p.fuel, p.fuel_goal, production.fuel
            ),
            HudText::Hull => format!("Hull {:.0} / {max_hull:.0}", p.hull),
            HudText::Materials => format!(
                "Materials {:.0}  (+{:.0})",
                p.materials, production.materials
            ),
            HudText::Energy => format!(
                "Energy {:.0} / {:.0}  (+{:.0})",
                p.energy, cap, production.energy
            ),
            HudText::Pause => {
                if session.paused || phase != Phase::Wave {
                    "Play".into()
                } else {
                    "Pause".into()
                }
            }
            HudText::Speed => match session.speed {
                1 => "▶ 1×".into(),
                n => format!("▶▶ {n}×"),
            },
            HudText::Notices => session
                .notices
                .iter()
                .map(|n| n.text.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            HudText::Problems => format!("Problems ({})", session.problems.len()),
            HudText::Paused => format!(
                "PAUSED: press {} or Play to go on",
                settings.keys.describe(Control::Pause)
            ),
            HudText::Boss => boss.as_ref().map_or(String::new(), |(name, hp, max)| {
                format!("{name}  {:.0} / {max:.0}", hp.max(0.0))
            }),
            HudText::ProblemList => {
                let mut lines = vec![
                    "Script problems this level (the mods' authors can fix them):".to_string(),
                ];
                lines.extend(session.problems.lines());
                lines.join("\n")
            }
        };
        if text.0 != value {
            text.0 = value;
        }
    }
}

/// Shows the problems button once there is a problem, and the list while it is open.
fn update_problems(
    game: NonSend<Game>,
    mut buttons: Query<&mut Node, (With<ProblemsButton>, Without<ProblemsPanel>)>,
    mut panels: Query<&mut Node, (With<ProblemsPanel>, Without<ProblemsButton>)>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    for mut node in &mut buttons {
        show_if(&mut node, !session.problems.is_empty());
    }
    for mut node in &mut panels {
        show_if(
            &mut node,
            session.problems_open && !session.problems.is_empty(),
        );
    }
}

fn update_fuel(
    mut game: NonSendMut<Game>,
    mut fuel: Query<&mut Node, (With<FuelFill>, Without<FuelMark>, Without<HullFill>)>,
    mut marks: Query<(&FuelMark, &mut Node), (Without<FuelFill>, Without<HullFill>)>,
    mut hull: Query<&mut Node, (With<HullFill>, Without<FuelFill>, Without<FuelMark>)>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let production = session.battle.production();
    let p = session.battle.player().clone();
    let goal = p.fuel_goal.max(1.0);
    let share = |v: f64| ((v / goal).clamp(0.0, 1.0) * 100.0) as f32;
    for mut node in &mut fuel {
        node.width = Val::Percent(share(p.fuel));
    }
    for (mark, mut node) in &mut marks {
        let at = p.fuel + production.fuel * f64::from(mark.0);
        node.display = if production.fuel > 0.0 && at < goal {
            Display::Flex
        } else {
            Display::None
        };
        node.left = Val::Percent(share(at));
    }
    let max_hull = max_hull(session).max(1.0);
    for mut node in &mut hull {
        node.width = Val::Percent(((p.hull / max_hull).clamp(0.0, 1.0) * 100.0) as f32);
    }
}

/// Shows the boss bar while the boss is on the field, filled as far as its HP is.
fn update_boss(
    game: NonSend<Game>,
    mut bars: Query<&mut Node, (With<BossBar>, Without<BossFill>)>,
    mut fills: Query<&mut Node, (With<BossFill>, Without<BossBar>)>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let boss = boss(session);
    for mut node in &mut bars {
        show_if(&mut node, boss.is_some());
    }
    if let Some((_, hp, max)) = boss {
        let share = ((hp / max.max(1e-9)).clamp(0.0, 1.0) * 100.0) as f32;
        for mut node in &mut fills {
            node.width = Val::Percent(share);
        }
    }
}

/// Shows the paused banner while the player's pause holds the clock in a level still going,
/// with nothing over the battle.
fn show_paused(
    game: NonSend<Game>,
    layers: Res<Layers>,
    mut banners: Query<&mut Node, With<PausedBanner>>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let going = !matches!(session.battle.phase(), Phase::Won | Phase::Lost);
    for mut node in &mut banners {
        show_if(&mut node, session.paused && going && layers.is_empty());
    }
}

/// Rebuilds the blueprint menu when what it should show changes (the phase flips between
/// buildings and abilities, the content was reloaded, the palette or the keys changed).
fn rebuild_menu(
    mut commands: Commands,
    game: NonSend<Game>,
    palette: Res<Palette>,
    settings: Res<Settings>,
    icons: Res<Icons>,
    mut rows: Query<(Entity, &mut MenuRow)>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let shown = shown_blueprints(session);
    let keys: Vec<String> = (0..shown.len().min(9))
        .map(
            |i| match settings.keys.keys(Control::Blueprint(i as u8)).first() {
                Some(chord) => format!("{chord} "),
                None => String::new(),
            },
        )
        .collect();
    let Ok((row, mut menu)) = rows.single_mut() else {
        return;
    };
    // New icons (reloaded content, a model changed) draw it again too.
    if menu.0 == shown && menu.1 == *palette && menu.2 == keys && !icons.is_changed() {
        return;
    }
    *menu = MenuRow(shown.clone(), palette.clone(), keys.clone());
    commands.entity(row).despawn_related::<Children>();
    let content = session.battle.content().clone();
    commands.entity(row).with_children(|r| {
        for (i, &b) in shown.iter().enumerate().take(9) {
            let bp = content.blueprint(b);
            let image = icons.get(&Icons::blueprint(&bp.id));
            menu_card(r, i, &keys[i], b, bp, image, &palette);
        }
    });
}

/// Blueprint `b` as card `i` of the blueprint menu, its key named `key` before its name.
fn menu_card(
    r: &mut ChildSpawnerCommands,
    i: usize,
    key: &str,
    b: BlueprintId,
    bp: &Blueprint,
    image: Option<Handle<Image>>,
    palette: &Palette,
) {
    r.spawn((
        Button,
        Action::Blueprint(i),
        OwnColour,
        Node {
            flex_direction: FlexDirection::Column,
            // Nine fit beside the resources at 1280 pixels. Long names wrap; the card grows
            // rather than cutting the cost off.
            width: Val::Px(104.0),
            min_height: Val::Px(58.0),
            padding: UiRect::all(Val::Px(4.0)),
            border: UiRect::all(Val::Px(2.0)),
            ..default()
        },
        // White text on the kind's colour darkened; the colour itself is the border's.
        BackgroundColor(palette.ground(bp.kind)),
        BorderColor::all(palette.kind(bp.kind)),
    ))
    .with_children(|card| {
        // The blueprint's icon beside its name (its file, or its model's picture).
        card.spawn(Node {
            column_gap: Val::Px(4.0),
            align_items: AlignItems::Center,
            ..default()
        })
        .with_children(|head| {
            if let Some(image) = image {
                head.spawn(icon(Some(image), 22.0));
            }
            head.spawn(label(format!("{key}{}", bp.name), 13.0, Color::WHITE));
        });
        card.spawn((CostText(b), label("", 13.0, Color::WHITE)));
        card.spawn((
            CooldownShade(b),
            Node {
                position_type: PositionType::Absolute,
                left: Val::Px(0.0),
                bottom: Val::Px(0.0),
                width: Val::Percent(100.0),
                height: Val::Percent(0.0),
                ..default()
            },
            BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.55)),
        ));
    });
}

fn update_menu(
    mut game: NonSendMut<Game>,
    mut costs: Query<(&CostText, &mut Text, &mut TextColor)>,
    mut shades: Query<(&CooldownShade, &mut Node)>,
    mut cards: Query<(&Action, &mut BorderColor)>,
    palette: Res<Palette>,
) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    for (cost, mut text, mut color) in &mut costs {
        let view = session.battle.describe_blueprint(cost.0, None);
        let c = view.cost;
        let value = match (c.materials > 0.0, c.energy > 0.0) {
            (true, true) => format!("{:.0} mat {:.0} en", c.materials, c.energy),
            (false, true) => format!("{:.0} energy", c.energy),
            _ => format!("{:.0} materials", c.materials),
        };
        if text.0 != value {
            text.0 = value;
        }
        color.0 = if session.battle.payment(c).is_ok() {
            Color::WHITE
        } else {
            WARN
        };
    }
    for (shade, mut node) in &mut shades {
        // The cooldown as modifiers make it now, not the blueprint's own number.
        let total = session.battle.cooldown(shade.0).max(1);
        let left = session.battle.cooldown_left(shade.0);
        node.height = Val::Percent((left.min(total) as f32 / total as f32) * 100.0);
    }
    let shown = shown_blueprints(session);
    for (action, mut border) in &mut cards {
        if let Action::Blueprint(i) = action {
            let b = shown.get(*i).copied();
            let on = b.is_some() && b == session.selection.blueprint;
            // The chosen one white, the others their kind's colour.
            let kind = b.map(|b| palette.kind(session.battle.content().blueprint(b).kind));
            *border = BorderColor::all(if on {
                Color::WHITE
            } else {
                kind.unwrap_or(Color::NONE)
            });
        }
    }
}

/// The pause screen while it is open (under the settings, when they are opened from it), and
/// the end overlay after the level.
pub(crate) fn overlays(
    mut commands: Commands,
    game: NonSend<Game>,
    layers: Res<Layers>,
    existing: Query<(Entity, &Overlay)>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let over = matches!(session.battle.phase(), Phase::Won | Phase::Lost);
    let wanted = if over {
        Some(Overlay::End)
    } else if layers.has(&Layer::Pause) {
        Some(Overlay::Pause)
    } else {
        None
    };
    let mut have = None;
    for (e, overlay) in &existing {
        let same = matches!(
            (&wanted, overlay),
            (Some(Overlay::End), Overlay::End) | (Some(Overlay::Pause), Overlay::Pause)
        );
        if same {
            have = Some(e);
        } else {
            commands.entity(e).despawn();
        }
    }
    let Some(wanted) = wanted else { return };
    if have.is_some() {
        return;
    }
    let (title, color, buttons): (String, Color, Vec<(&str, Action)>) =
        match (&wanted, session.battle.phase()) {
            (Overlay::End, Phase::Won) => (
                "Victory! The fuel goal is reached.".into(),
                Color::srgb(0.5, 0.95, 0.5),
                vec![("Continue", Action::Proceed)],
            ),
            (Overlay::End, _) => (
                "Defeat. The hull is breached.".into(),
                Color::srgb(1.0, 0.4, 0.4),
                vec![("Continue", Action::Proceed)],
            ),
            (Overlay::Pause, _) => (
                "Paused".into(),
                Color::WHITE,
                vec![
                    ("Resume", Action::Resume),
                    ("Settings", Action::Settings),
                    ("Back to menu", Action::ToMenu),
                ],
            ),
        };
    commands
        .spawn((
            wanted,
            cover(),
            BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.6)),
            GlobalZIndex(10),
            DespawnOnExit(Screen::Battle),
        ))
        .with_children(|c| {
            c.spawn(label(title, 40.0, color));
            for (text, action) in buttons {
                c.spawn(button(text, action));
            }
        });
}

#[cfg(test)]
mod tests {
    use bevy::ecs::system::RunSystemOnce;

    use super::*;
    use crate::fit;

    /// The longest each HUD text gets in a long game.
    fn longest(kind: &HudText) -> &'static str {
        match kind {
            HudText::Wave => "Wave 30 / 30",
            HudText::WavesLeft => "9999 more waves at this fuel rate",
            HudText::Fuel => "Fuel 99999 / 99999  (+9999 per wave)",
            HudText::Hull => "Hull 9999 / 9999",
            HudText::Materials => "Materials 999999  (+9999)",
            HudText::Energy => "Energy 99999 / 99999  (+999)",
            HudText::Pause => "Pause",
            HudText::Speed => "▶▶ 4×",
            // As many as are kept, the longest the game gives.
            HudText::Notices => {
                "Cannot place here: an obstacle is in the way (x3)\nWave 30 is coming\n\
                 Not enough materials: needs 9999, you have 0\nThe level cannot be saved: \
                 permission denied"
            }
            HudText::Problems => "Problems (999)",
            HudText::ProblemList => "Script problems this level (the mods' authors can fix them):",
            HudText::Boss => "The Colossus of the Deep  99999 / 99999",
            HudText::Paused => "PAUSED: press Space or Play to go on",
        }
    }

    #[test]
    fn the_hud_fits_its_longest_texts_and_the_longest_names() {
        let content = fit::core();
        let mut app = fit::app();
        app.world_mut().run_system_once(spawn_hud).unwrap();
        let world = app.world_mut();
        let mut texts = world.query::<(&HudText, &mut Text)>();
        for (kind, mut text) in texts.iter_mut(world) {
            text.0 = longest(kind).into();
        }
        // Everything shown at once: the boss's bar, the banner, the problems.
        let mut hidden = world.query_filtered::<&mut Node, Or<(
            With<BossBar>,
            With<PausedBanner>,
            With<ProblemsButton>,
            With<ProblemsPanel>,
        )>>();
        for mut node in hidden.iter_mut(world) {
            node.display = Display::Flex;
        }
        // The menu with the blueprints of the longest names.
        let mut blueprints: Vec<(BlueprintId, &Blueprint)> = content
            .blueprints
            .iter()
            .enumerate()
            .map(|(i, b)| {
                (
                    content.blueprint_id(&b.id).unwrap_or_else(|| panic!("{i}")),
                    b,
                )
            })
            .collect();
        blueprints.sort_by_key(|(_, b)| std::cmp::Reverse(b.name.len()));
        let mut rows = world.query_filtered::<Entity, With<MenuRow>>();
        let row = rows.single(world).unwrap();
        let palette = Palette::standard();
        world.commands().entity(row).with_children(|r| {
            for (i, (b, bp)) in blueprints.iter().take(9).enumerate() {
                // Every card with an icon, as in the game: its size is what matters here.
                let image = Some(Handle::default());
                menu_card(r, i, &format!("{} ", i + 1), *b, bp, image, &palette);
            }
        });
        world.flush();
        let mut costs = world.query::<(&CostText, &mut Text)>();
        for (_, mut text) in costs.iter_mut(world) {
            text.0 = "9999 mat 999 en".into();
        }
        let problems = fit::problems(&mut app);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}
