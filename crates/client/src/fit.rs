//! Checking that text fits (tests only): UI built by the game's own functions, laid out by Bevy's
//! UI layout and text layout at 1280×720 in an app without a window or a renderer, and every
//! node checked — inside its parent (or reachable by scrolling it), beside and never over its
//! neighbours, its text inside its box, no line made of a lone full stop.

use bevy::app::{HierarchyPropagatePlugin, PropagateSet, TaskPoolPlugin};
use bevy::asset::AssetPlugin;
use bevy::camera::{ComputedCameraValues, RenderTargetInfo, Viewport};
use bevy::prelude::*;
use bevy::text::{TextLayoutInfo, TextPlugin, detect_text_needs_rerender};
use bevy::ui::ui_surface::UiSurface;
use bevy::ui::update::propagate_ui_target_cameras;
use bevy::ui::widget::{measure_text_system, text_system};
use bevy::ui::{ComputedUiRenderTargetInfo, ComputedUiTargetCamera, ui_layout_system};
use std::sync::Arc;

use super::Screen;
use super::cards::{Card, CardLooks, spawn_card};
use super::menu::{RewardView, reward_screen};
use super::palette::Palette;
use super::rich::Icons;
use super::stops::event_screen;
use super::ui::{Action, scroll_screen, spawn_screen, wrapping_row};
use rampart_core::content::ContentDb;
use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};

/// The window the layout is checked in: the smallest the game is played at.
pub const WINDOW: UVec2 = UVec2::new(1280, 720);

/// Half a pixel: what rounding may move an edge.
const SLACK: f32 = 0.5;

/// An app that lays out UI and its text as the game does, with the game's fonts, for a window of
/// [`WINDOW`]'s size and nothing drawn.
pub fn app() -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        AssetPlugin::default(),
        TextPlugin,
    ))
    .init_asset::<Image>()
    .init_asset::<TextureAtlasLayout>()
    .add_plugins((
        HierarchyPropagatePlugin::<ComputedUiTargetCamera>::new(PostUpdate),
        HierarchyPropagatePlugin::<ComputedUiRenderTargetInfo>::new(PostUpdate),
    ))
    .init_resource::<UiScale>()
    .init_resource::<UiSurface>()
    .add_systems(
        PostUpdate,
        (
            ApplyDeferred,
            propagate_ui_target_cameras,
            measure_text_system,
            ui_layout_system,
            text_system,
        )
            .chain()
            .after(detect_text_needs_rerender),
    )
    .configure_sets(
        PostUpdate,
        (
            PropagateSet::<ComputedUiTargetCamera>::default(),
            PropagateSet::<ComputedUiRenderTargetInfo>::default(),
        )
            .after(propagate_ui_target_cameras)
            .before(measure_text_system),
    );
    super::fonts::install(&mut app);
    app.world_mut().spawn((
        Camera2d,
        Camera {
            computed: ComputedCameraValues {
                target_info: Some(RenderTargetInfo {
                    physical_size: WINDOW,
                    scale_factor: 1.0,
                }),
                ..default()
            },
            viewport: Some(Viewport {
                physical_size: WINDOW,
                ..default()
            }),
            ..default()
        },
    ));
    app
}

/// A node as laid out: its box on screen and how it is placed.
struct Laid<'a> {
    rect: Rect,
    node: &'a Node,
    text: Option<&'a str>,
    /// The size its text's glyphs take, for a text node: as wide as their ink reaches (a line's
    /// trailing space, which hangs past the box, takes none), as high as its lines.
    text_size: Option<Vec2>,
    content: Rect,
}

/// Lays the UI of `app` out and says what does not fit, each problem a sentence naming the text
/// concerned; empty when all fits.
pub fn problems(app: &mut App) -> Vec<String> {
    // The fonts are taken in on the first update; text is measured with them on the next.
    app.update();
    app.update();
    let world = app.world_mut();
    let mut children_of = world.query::<&Children>();
    let mut roots = world.query_filtered::<Entity, (With<Node>, Without<ChildOf>)>();
    let mut query = world.query::<(
        Entity,
        &Node,
        &ComputedNode,
        &UiGlobalTransform,
        Option<&Text>,
        Option<&TextLayoutInfo>,
    )>();
    let world: &World = world;
    let laid: std::collections::HashMap<Entity, Laid> = query
        .iter(world)
        .map(|(e, node, computed, at, text, info)| {
            let rect = Rect::from_center_size(at.translation, computed.size());
            let inset = computed.content_inset();
            let content = Rect {
                min: rect.min + Vec2::new(inset.min_inset.x, inset.min_inset.y),
                max: rect.max - Vec2::new(inset.max_inset.x, inset.max_inset.y),
            };
            let laid = Laid {
                rect,
                node,
                text: text.map(|t| t.0.as_str()),
                text_size: info.map(|i| {
                    let right = i
                        .glyphs
                        .iter()
                        .map(|g| g.position.x + g.atlas_info.rect.width() / 2.0)
                        .fold(0.0, f32::max);
                    Vec2::new(right, i.size.y)
                }),
                content,
            };
            (e, laid)
        })
        .collect();
    let roots: Vec<Entity> = roots.iter(world).collect();
    let mut out = Vec::new();
    let window = Rect::new(0.0, 0.0, WINDOW.x as f32, WINDOW.y as f32);
    let mut stack: Vec<Entity> = Vec::new();
    for root in roots {
        let Some(l) = laid.get(&root) else { continue };
        if l.node.display == Display::None {
            continue;
        }
        if !inside(l.rect, window) {
            out.push(format!(
                "{} is out of the window at {:?}",
                name(world, &laid, root),
                l.rect
            ));
        }
        stack.push(root);
    }
    while let Some(parent) = stack.pop() {
        let p = &laid[&parent];
        let shown: Vec<Entity> = children_of
            .get(world, parent)
            .map(|c| c.iter().collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .filter(|c| laid.get(c).is_some_and(|l| l.node.display != Display::None))
            .collect();
        for (i, &child) in shown.iter().enumerate() {
            let c = &laid[&child];
            stack.push(child);
            if let (Some(text), Some(size)) = (c.text, c.text_size)
                && (size.x > c.content.width() + SLACK || size.y > c.content.height() + SLACK)
            {
                out.push(format!(
                    "the text {text:?} takes {size} in a box of {}",
                    c.content.size()
                ));
            }
            if c.text
                .is_some_and(|t| !t.is_empty() && t.chars().all(|ch| ".,;:!?".contains(ch)))
            {
                out.push(format!(
                    "{:?} stands alone and may wrap onto a line of its own",
                    c.text.unwrap_or_default()
                ));
            }
            // Tooltips and badges placed over the rest are not in the flow.
            if c.node.position_type == PositionType::Absolute {
                continue;
            }
            let scrolls = p.node.overflow.y == OverflowAxis::Scroll;
            let fits = if scrolls {
                // Content below the end scrolls into view; above the top it never would.
                c.rect.min.y >= p.rect.min.y - SLACK
                    && c.rect.min.x >= p.rect.min.x - SLACK
                    && c.rect.max.x <= p.rect.max.x + SLACK
            } else {
                inside(c.rect, p.rect)
            };
            if !fits {
                out.push(format!(
                    "{} at {:?} spills out of {} at {:?}",
                    name(world, &laid, child),
                    c.rect,
                    name(world, &laid, parent),
                    p.rect
                ));
            }
            for &other in &shown[i + 1..] {
                let o = &laid[&other];
                if o.node.position_type == PositionType::Absolute {
                    continue;
                }
                let overlap = c.rect.intersect(o.rect);
                if overlap.width() > SLACK && overlap.height() > SLACK {
                    out.push(format!(
                        "{} overlaps {}",
                        name(world, &laid, child),
                        name(world, &laid, other)
                    ));
                }
            }
        }
    }
    out
}

/// Whether `inner` lies inside `outer`, give or take rounding.
fn inside(inner: Rect, outer: Rect) -> bool {
    inner.min.x >= outer.min.x - SLACK
        && inner.min.y >= outer.min.y - SLACK
        && inner.max.x <= outer.max.x + SLACK
        && inner.max.y <= outer.max.y + SLACK
}

/// A node named by its text, or the first text inside it.
fn name(world: &World, laid: &std::collections::HashMap<Entity, Laid>, entity: Entity) -> String {
    let mut at = vec![entity];
    while let Some(e) = at.pop() {
        if let Some(text) = laid.get(&e).and_then(|l| l.text).filter(|t| !t.is_empty()) {
            return if e == entity {
                format!("the text {text:?}")
            } else {
                format!("the box holding {text:?}")
            };
        }
        if let Some(children) = world.get::<Children>(e) {
            at.extend(children.iter().rev());
        }
    }
    format!("an empty box {entity}")
}

/// Spawns UI with `build`, which gets the commands and the card looks (no mod icons, the
/// standard palette).
pub fn spawn(app: &mut App, build: impl FnOnce(&mut Commands, &mut CardLooks)) {
    let world = app.world_mut();
    world.resource_scope::<Assets<Image>, _>(|world, mut images| {
        let icons = Icons::default();
        let palette = Palette::standard();
        let mut looks = CardLooks {
            images: &mut images,
            icons: &icons,
            palette: &palette,
        };
        build(&mut world.commands(), &mut looks);
    });
    world.flush();
}

/// The game's own mods.
pub fn core() -> Arc<ContentDb> {
    let dirs = [ModDir {
        path: std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods"),
        origin: Origin::Game,
    }];
    let (db, diagnostics) = ContentDb::load(&ModSet::discover(&dirs, &ModSettings::default()));
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    Arc::new(db)
}

#[test]
fn every_core_card_fits_at_every_width() {
    let content = core();
    for width in [250.0, 180.0, super::stops::OFFER_WIDTH] {
        let mut app = app();
        spawn(&mut app, |commands, looks| {
            commands.spawn(scroll_screen()).with_children(|c| {
                c.spawn(wrapping_row()).with_children(|row| {
                    for card in core_cards(&content) {
                        spawn_card(row, looks, &card, Action::Skip, false, width);
                    }
                });
            });
        });
        let problems = problems(&mut app);
        assert!(
            problems.is_empty(),
            "cards {width} wide:\n{}",
            problems.join("\n")
        );
    }
}

/// Core's blueprints as plain cards.
fn core_cards(content: &ContentDb) -> Vec<Card> {
    content.blueprints.iter().map(Card::plain).collect()
}

#[test]
fn the_reward_screen_fits_with_every_core_card() {
    let content = core();
    let cards = core_cards(&content);
    let longest = content
        .blueprints
        .iter()
        .map(|b| b.name.clone())
        .max_by_key(String::len)
        .unwrap_or_default();
    // Every card offered once, three at a time, beside the augment with the longest text.
    let augment = content
        .augments
        .iter()
        .max_by_key(|a| a.description.len())
        .expect("core has augments");
    for offers in cards.chunks(3) {
        let bp = &offers[0].bp;
        let view = RewardView {
            title: "Elite battle won: choose a blueprint".into(),
            offers: offers
                .iter()
                .enumerate()
                .map(|(i, c)| (i, Card::plain(&c.bp), Some(augment.name.clone())))
                .collect(),
            augment: Some((
                format!("Augment: {} for {}", augment.name, bp.name),
                augment.description.clone(),
                Card::of(&content, &bp.id, std::slice::from_ref(&augment.id)),
            )),
            chosen: Some(0),
            hint: format!("The collection is full: click the blueprint {longest} replaces"),
            collection: cards
                .iter()
                .take(10)
                .map(|c| Card::plain(&c.bp))
                .enumerate()
                .collect(),
        };
        let mut app = app();
        spawn(&mut app, |commands, looks| {
            let root = spawn_screen(commands, Screen::Reward);
            commands
                .entity(root)
                .with_children(|c| reward_screen(c, looks, &view));
        });
        let problems = problems(&mut app);
        assert!(problems.is_empty(), "{}", problems.join("\n"));
    }
}

#[test]
fn every_core_event_fits() {
    let content = core();
    let mut app = app();
    let status = "Money 9999   Hull 1000 / 1000   Collection 10 of 10";
    for event in &content.events {
        // Every other choice greyed, with the longest reason the run gives.
        let choices: Vec<(String, Option<String>)> = event
            .choices
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let why = (i % 2 == 1).then(|| "needs 9999 money, you have 0".to_string());
                (c.text.clone(), why)
            })
            .collect();
        spawn(&mut app, |commands, _| {
            let root = spawn_screen(commands, Screen::Event);
            commands
                .entity(root)
                .with_children(|c| event_screen(c, event, status, &choices));
        });
        let problems = problems(&mut app);
        assert!(problems.is_empty(), "{}: {}", event.id, problems.join("\n"));
        let mut roots = app
            .world_mut()
            .query_filtered::<Entity, (With<Node>, Without<ChildOf>)>();
        let roots: Vec<Entity> = roots.iter(app.world()).collect();
        for root in roots {
            app.world_mut().entity_mut(root).despawn();
        }
    }
}
