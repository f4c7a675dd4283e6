//! Checking that text fits (tests only): UI built by the game's own functions and systems, laid
//! out by Bevy's UI layout and text layout at 1280×720 in an app without a window or a renderer,
//! and every node checked — inside its parent (or reachable by scrolling it), beside and never
//! over its neighbours, its text inside its box, no line made of a lone full stop, no line of
//! text cut at the bottom of a box that scrolls, no panel over the HUD's bars or off the window.
//! The tests here lay out every screen with core's content: cards, the reward, shop, event and
//! custom-run screens, the main and pause menus, the Mods and settings screens, the run's map,
//! the tutorial's panel over the HUD, the wave preview (the HUD itself in `hud.rs`).

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
use super::camera::Bar;
use super::cards::{Card, CardLooks, spawn_card};
use super::input::Layers;
use super::menu::RunSetup;
use super::menu::{RewardView, reward_screen};
use super::mods::ModsView;
use super::palette::Palette;
use super::rich::Icons;
use super::saving::{PlayerProfile, SaveFile};
use super::session::{Game, Session};
use super::settings::{Settings, SettingsFile};
use super::settings_screen::SettingsView;
use super::stops::Stop;
use super::stops::event_screen;
use super::tutorial::Guide;
use super::ui::{Action, scroll_screen, spawn_screen, wrapping_row};
use super::{Content, Loaded};
use bevy::ecs::system::RunSystemOnce;
use rampart_core::TICKS_PER_SECOND;
use rampart_core::battle::{Battle, Phase, PlayerCommand, Position, Route};
use rampart_core::content::{ContentDb, Size};
use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};
use rampart_core::run::RunConfig;
use rampart_core::run::profile::Profile;

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
    let bars: Vec<(Entity, Rect)> = laid
        .iter()
        .filter(|(e, _)| world.get::<Bar>(**e).is_some())
        .map(|(e, l)| (*e, l.rect))
        .collect();
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
        // A panel over the world (not a screen over the whole window) stays off the HUD's bars.
        if l.rect.size() != window.size() {
            for (bar, at) in &bars {
                let overlap = l.rect.intersect(*at);
                if overlap.width() > SLACK && overlap.height() > SLACK {
                    out.push(format!(
                        "{} at {:?} lies over the HUD's bar {} at {at:?}",
                        name(world, &laid, root),
                        l.rect,
                        name(world, &laid, *bar)
                    ));
                }
            }
        }
        stack.push(root);
    }
    while let Some(parent) = stack.pop() {
        let p = &laid[&parent];
        // A box that scrolls inside a screen shows whole lines: a line cut at its edge reads as
        // the end of what is there (a whole-window screen scrolls from its own edge, which
        // every screen's scrolling starts at).
        if p.node.overflow.y == OverflowAxis::Scroll && p.rect.size() != window.size() {
            for text in texts_under(world, &laid, parent, false) {
                let t = &laid[&text];
                if t.rect.min.y < p.rect.max.y - SLACK && t.rect.max.y > p.rect.max.y + SLACK {
                    out.push(format!(
                        "the text {:?} is cut at the bottom of its scrolling box at {:?}",
                        t.text.unwrap_or_default(),
                        p.rect
                    ));
                }
            }
        }
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
                // Both edges of a box are rounded to whole pixels, its text's width is not.
                && (size.x > c.content.width() + 2.0 * SLACK
                    || size.y > c.content.height() + SLACK)
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

/// The shown texts inside `entity`, but for those on buttons unless `buttons`: a button cut at
/// a scrolling box's edge (a card) asks to be scrolled to, where a cut line of text reads as
/// the last one.
fn texts_under(
    world: &World,
    laid: &std::collections::HashMap<Entity, Laid>,
    entity: Entity,
    buttons: bool,
) -> Vec<Entity> {
    let mut found = Vec::new();
    let mut at = vec![entity];
    while let Some(e) = at.pop() {
        let Some(l) = laid.get(&e).filter(|l| l.node.display != Display::None) else {
            continue;
        };
        if !buttons && world.get::<Button>(e).is_some() {
            continue;
        }
        if l.text.is_some_and(|t| !t.is_empty()) {
            found.push(e);
        }
        if let Some(children) = world.get::<Children>(e) {
            at.extend(children.iter());
        }
    }
    found
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
    content().db
}

/// The game's own mods as the client holds them: their content and the list of mods.
pub fn content() -> Content {
    let dirs = [ModDir {
        path: std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods"),
        origin: Origin::Game,
    }];
    let set = ModSet::discover(&dirs, &ModSettings::default());
    let (db, diagnostics) = ContentDb::load(&set);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let mods = set.list(diagnostics.iter());
    Content::new(Loaded { db, mods }, Vec::new())
}

/// An [`app`] with what the screens read: core's content, the standard settings and palette, no
/// icons, no layers open, no save, a player who has not been offered the tutorial, and `session`
/// as the game.
pub fn screens(session: Option<Session>) -> App {
    let mut app = app();
    let settings = Settings::default();
    app.insert_resource(content())
        .insert_resource(Palette::of(&settings))
        .insert_resource(settings)
        .insert_resource(PlayerProfile(Profile::default()))
        .insert_resource(SaveFile(None))
        .insert_resource(State::new(Screen::Menu))
        .init_resource::<Icons>()
        .init_resource::<Layers>()
        .init_resource::<SettingsFile>()
        .init_resource::<SettingsView>()
        .init_resource::<ModsView>()
        .init_resource::<RunSetup>()
        .init_resource::<Stop>()
        .init_resource::<Guide>()
        .insert_non_send(Game(session));
    app
}

/// A run of core's content started with `seed`, on act 1's map.
pub fn session(seed: u64) -> Session {
    Session::start(&core(), RunConfig::new(seed)).expect("core starts a run")
}

/// A run's first level crowded: the towers the bot builds with plenty of money, a wave
/// started, 200 more attackers of every type but the bosses along the paths, twenty times as
/// strong as on the first level (as late levels make them, so that they live to be hurt), and
/// ten seconds of shooting.
// The whole module is built for tests only; the mark tells the layers check, which reads each
// file alone, that the bot it plays with is a test's.
#[cfg(test)]
pub fn crowded() -> Session {
    let mut session = session(7);
    let content = session.battle.content().clone();
    let mut config = session.plan.setup.config(&content).expect("a config");
    config.start.strength = content
        .attackers
        .iter()
        .map(|a| (a.id.clone(), 20.0))
        .collect();
    // Money for as many towers as the bot would build over a run.
    config.start.materials = 1e6;
    config.start.energy = 1e6;
    config.start.energy_cap = 1e6;
    let mut battle = Battle::new(content.clone(), config);
    let mut pilot = rampart_autopilot::Autopilot::new();
    while battle.phase() == Phase::Build && pilot.act(&mut battle) {
        battle.step();
    }
    if battle.phase() == Phase::Build {
        battle.submit(PlayerCommand::StartWave);
        battle.step();
    }
    let types: Vec<_> = content
        .attackers
        .iter()
        .filter(|a| a.size != Size::Boss)
        .filter_map(|a| content.attacker_id(&a.id))
        .collect();
    let field = battle.field().expect("a field").clone();
    for i in 0..200 {
        let segment = i % field.segment_count();
        let progress = (i as f64 * 0.618).fract() * 0.6;
        let at = field.along(segment, progress);
        battle.spawn_attacker_at(
            types[i % types.len()],
            Position { x: at.x, y: at.y },
            Some(Route { segment, progress }),
        );
    }
    battle.run_ticks(10 * TICKS_PER_SECOND);
    session.battle = battle;
    session
}

/// Runs `system` (a screen's builder, or what fills it in) once in `app`.
pub fn run<M>(app: &mut App, system: impl IntoSystem<(), (), M>) {
    app.world_mut()
        .run_system_once(system)
        .expect("the screen's system runs");
}

/// Runs `system` once in `app`, then says what does not fit.
pub fn shown<M>(app: &mut App, system: impl IntoSystem<(), (), M>) -> Vec<String> {
    run(app, system);
    problems(app)
}

/// Takes every UI node out of `app`, for the next screen.
pub fn clear(app: &mut App) {
    let mut roots = app
        .world_mut()
        .query_filtered::<Entity, (With<Node>, Without<ChildOf>)>();
    let roots: Vec<Entity> = roots.iter(app.world()).collect();
    for root in roots {
        app.world_mut().entity_mut(root).despawn();
    }
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
        clear(&mut app);
    }
}

/// Asserts that `problems` is empty, naming the screen.
fn fits(screen: &str, problems: &[String]) {
    assert!(problems.is_empty(), "{screen}:\n{}", problems.join("\n"));
}

#[test]
fn the_main_menu_fits_with_everything_it_can_say() {
    let save = tempfile::NamedTempFile::new().expect("a temporary file");
    let mut app = screens(None);
    // A first start with a save to continue, a run that could not start and a settings file
    // that could not be read: every line the menu has.
    app.insert_resource(SaveFile(Some(save.path().to_path_buf())));
    app.world_mut().resource_mut::<RunSetup>().error = Some(
        "the level cannot start: the world generator found no path from a spawn to the Hub \
         after 200 attempts"
            .into(),
    );
    app.world_mut().resource_mut::<SettingsFile>().notice = Some(
        "settings.ron:12:5: expected one of `volume`, `keys`, `colour_blind`; the defaults are \
         used"
            .into(),
    );
    run(&mut app, super::menu::show_settings_notice);
    fits("main menu", &shown(&mut app, super::menu::spawn_menu));
}

#[test]
fn the_pause_menu_fits_over_the_hud() {
    let mut app = screens(Some(session(1)));
    app.world_mut()
        .resource_mut::<Layers>()
        .open(super::input::Layer::Pause);
    run(&mut app, super::hud::spawn_hud);
    fits("pause menu", &shown(&mut app, super::hud::overlays));
}

#[test]
fn the_custom_run_screen_fits_every_core_blueprint() {
    let mut app = screens(None);
    run(&mut app, super::menu::spawn_settings);
    fits(
        "custom run",
        &shown(&mut app, super::menu::refresh_settings),
    );
}

#[test]
fn the_mods_screen_fits_and_keeps_still_whichever_mod_is_picked() {
    let mut app = screens(None);
    let roots: Vec<_> = app
        .world()
        .resource::<Content>()
        .mods
        .entries
        .iter()
        .map(|e| e.root.clone())
        .collect();
    assert!(!roots.is_empty());
    let mut list_at = None;
    for root in roots {
        app.world_mut().resource_mut::<ModsView>().selected = Some(root.clone());
        fits(
            &format!("mods screen with {} picked", root.display()),
            &shown(&mut app, super::mods::spawn_mods),
        );
        let mut lists = app
            .world_mut()
            .query_filtered::<&UiGlobalTransform, With<super::mods::ModRows>>();
        let at = lists.single(app.world()).expect("one list").translation;
        assert_eq!(*list_at.get_or_insert(at), at, "the list moved");
        clear(&mut app);
    }
}

#[test]
fn the_settings_screen_fits_on_the_menu_and_while_a_key_is_asked_for() {
    use super::bindings::Control;
    use super::input::Layer;
    let mut app = screens(None);
    app.world_mut()
        .resource_mut::<Layers>()
        .open(Layer::Settings);
    fits("settings", &shown(&mut app, super::settings_screen::show));
    app.world_mut()
        .resource_mut::<Layers>()
        .open(Layer::Capture {
            control: Control::Pause,
            slot: 1,
        });
    fits(
        "settings asking for a key",
        &shown(&mut app, super::settings_screen::show),
    );
}

#[test]
fn the_run_map_fits_its_rooms_labels() {
    for seed in 1..=4 {
        let mut app = screens(Some(session(seed)));
        run(&mut app, super::run_map::spawn_map);
        // The rooms are drawn once the canvas has its size.
        app.update();
        let problems = shown(&mut app, super::run_map::draw_rooms);
        fits(&format!("run map of seed {seed}"), &problems);
    }
}

#[test]
fn the_run_map_fits_two_digit_marks_in_every_room() {
    use super::run_map::{Canvas, Fit, spawn_room};
    for seed in 1..=4 {
        let game = session(seed);
        let map = game.run.map().clone();
        let mut app = screens(Some(game));
        run(&mut app, super::run_map::spawn_map);
        app.update();
        // Every room drawn as entered late in the act: its name with a mark like "#12".
        let mut canvases = app
            .world_mut()
            .query_filtered::<(Entity, &ComputedNode), With<Canvas>>();
        let (canvas, size) = canvases
            .iter(app.world())
            .map(|(e, c)| (e, c.size()))
            .next()
            .expect("a canvas");
        let rects: Vec<_> = map.nodes().iter().map(|n| n.rect).collect();
        let fit = Fit::new(&rects, size);
        let palette = Palette::standard();
        let world = app.world_mut();
        world.commands().entity(canvas).with_children(|c| {
            for (i, room) in map.nodes().iter().enumerate() {
                let mut room = room.clone();
                room.entered = Some(10 + i as u32);
                spawn_room(
                    c,
                    &room,
                    map.current(),
                    false,
                    String::new(),
                    &fit,
                    &palette,
                );
            }
        });
        world.flush();
        fits(
            &format!("run map of seed {seed}, marked"),
            &problems(&mut app),
        );
    }
}

#[test]
fn the_shop_fits_with_its_collection_and_prices_in_line() {
    use rampart_core::run::RunPhase;
    use rampart_core::run::shop::Ware;
    let content = core();
    let game = at_a_shop(&content);
    let RunPhase::Shop(shop) = game.run.phase().clone() else {
        unreachable!()
    };
    let pending = shop
        .offers
        .iter()
        .position(|o| matches!(o.ware, Ware::Blueprint(_)));
    let mut app = screens(Some(game));
    // Waiting for a blueprint to replace: the collection shows under the offers.
    app.world_mut().resource_mut::<Stop>().pending = pending;
    fits("shop", &shown(&mut app, super::stops::spawn_shop));
    // Every price at the same height, whichever button is under it.
    let mut texts = app.world_mut().query::<(&Text, &UiGlobalTransform)>();
    let prices: Vec<f32> = texts
        .iter(app.world())
        .filter(|(t, _)| t.0.ends_with(" money"))
        .map(|(_, at)| at.translation.y)
        .collect();
    assert_eq!(prices.len(), shop.offers.len());
    for y in &prices {
        assert!((y - prices[0]).abs() < SLACK, "prices at {prices:?}");
    }
}

#[test]
fn the_tutorial_panel_fits_every_step_clear_of_the_bars() {
    use super::tutorial::Progress;
    let content = core();
    let steps = content
        .tutorial
        .as_ref()
        .expect("core has a tutorial")
        .steps
        .clone();
    let mut app = screens(Some(session(1)));
    run(&mut app, super::hud::spawn_hud);
    run(&mut app, super::tutorial::spawn_panel);
    for index in 0..steps.len() {
        let mut progress = Progress::new(steps.clone());
        progress.index = index;
        app.insert_resource(Guide(Some(progress)));
        let problems = shown(&mut app, super::tutorial::show);
        fits(&format!("tutorial step {}", index + 1), &problems);
    }
}

#[test]
fn the_wave_preview_shows_whole_rows_of_every_core_wave() {
    for seed in 1..=4 {
        let mut app = screens(Some(session(seed)));
        run(&mut app, super::hud::spawn_hud);
        let problems = shown(&mut app, super::wave_preview::rebuild);
        fits(&format!("wave preview of seed {seed}"), &problems);
    }
}

/// A run of core's content walked (its battles played by the bot, rewards skipped) into the
/// first shop it can reach.
#[cfg(test)]
fn at_a_shop(content: &Arc<ContentDb>) -> Session {
    use rampart_core::run::RunPhase;
    let mut game = session(1);
    for _ in 0..30 {
        let run = &mut game.run;
        match run.phase().clone() {
            RunPhase::Shop(_) => return game,
            RunPhase::Map => {
                // A shop if one is open, else the first room.
                let choices = run.choices();
                let shop = choices.iter().copied().find(|&room| {
                    let mut tried = run.clone();
                    tried.enter(content, room).is_ok() && matches!(tried.phase(), RunPhase::Shop(_))
                });
                let room = shop.or(choices.first().copied()).expect("a room to enter");
                run.enter(content, room).expect("enters");
            }
            RunPhase::Battle => {
                let mut battle = run
                    .plan(content)
                    .and_then(|p| p.start(content))
                    .expect("starts");
                rampart_autopilot::play_level(&mut battle);
                run.finish_battle(&battle);
            }
            RunPhase::Reward { .. } => run.choose_reward(content, None, None).expect("skips"),
            RunPhase::Event(_) => {
                let choice = rampart_autopilot::choose_event(content, run).unwrap_or(0);
                run.choose_event(content, choice).expect("chooses");
            }
            RunPhase::Over { .. } | RunPhase::Won { .. } => break,
        }
    }
    panic!("no shop reached");
}

#[test]
fn the_info_panel_fits_every_core_blueprint_building_and_attacker() {
    use super::placing::{Cursor, info, spawn_panel};
    use super::session::Thing;
    use rampart_core::battle::EntityKind;
    let game = crowded();
    let content = game.battle.content().clone();
    // One of every kind of building and attacker on the field.
    let mut seen = std::collections::BTreeSet::new();
    let things: Vec<_> = game
        .battle
        .entities()
        .filter(|(_, e)| seen.insert(format!("{:?}", e.kind)))
        .filter(|(_, e)| !matches!(e.kind, EntityKind::Ability(_)))
        .map(|(id, _)| id)
        .collect();
    let mut app = screens(Some(game));
    app.init_resource::<Cursor>()
        .init_asset::<Mesh>()
        .init_asset::<StandardMaterial>();
    run(&mut app, super::hud::spawn_hud);
    run(&mut app, spawn_panel);
    let select = |app: &mut App, blueprint, thing| {
        let mut game = app.world_mut().non_send_mut::<Game>();
        let session = game.0.as_mut().expect("a session");
        session.selection.blueprint = blueprint;
        session.selection.thing = thing;
    };
    for (i, bp) in content.blueprints.iter().enumerate() {
        select(&mut app, content.blueprint_id(&bp.id), None);
        fits(
            &format!("info on blueprint {i}, {}", bp.id),
            &shown(&mut app, info),
        );
    }
    assert!(things.len() > 10, "{} kinds on the field", things.len());
    for id in things {
        select(&mut app, None, Some(Thing::Entity(id)));
        fits(&format!("info on {id:?}"), &shown(&mut app, info));
    }
}

/// A run of core's content on its first battle, played to its end by `play` (at most an hour
/// of game time).
#[cfg(test)]
fn ended(play: impl Fn(&mut Battle)) -> Session {
    use rampart_core::run::RunPhase;
    let content = core();
    let mut game = session(1);
    let room = game
        .run
        .choices()
        .into_iter()
        .find(|&room| {
            let mut tried = game.run.clone();
            tried.enter(&content, room).is_ok() && matches!(tried.phase(), RunPhase::Battle)
        })
        .expect("a battle room open at the start");
    game.run.enter(&content, room).expect("enters");
    game.start_battle(&content).expect("starts");
    for _ in 0..3600 * TICKS_PER_SECOND {
        if matches!(game.battle.phase(), Phase::Won | Phase::Lost) {
            return game;
        }
        play(&mut game.battle);
    }
    panic!("the level did not end");
}

/// The bot plays `battle`'s level out.
#[cfg(test)]
fn bot_plays(battle: &mut Battle) {
    rampart_autopilot::play_level(battle);
}

#[test]
fn the_end_of_a_level_and_of_a_run_fit() {
    // Won by the bot, and lost with nothing built: every wave started as soon as it may.
    let won = ended(bot_plays);
    assert_eq!(won.battle.phase(), Phase::Won);
    let lost_session = ended(|b| {
        if b.phase() == Phase::Build {
            b.submit(PlayerCommand::StartWave);
        }
        b.step();
    });
    assert_eq!(lost_session.battle.phase(), Phase::Lost);
    let mut lost = None;
    for (what, session) in [("a won level", won), ("a lost level", lost_session)] {
        let mut app = screens(Some(session));
        run(&mut app, super::hud::spawn_hud);
        fits(
            &format!("the end of {what}"),
            &shown(&mut app, super::hud::overlays),
        );
        lost = app.world_mut().non_send_mut::<Game>().0.take();
    }
    // The lost level ends the run.
    let mut lost = lost.expect("the session back");
    assert_eq!(super::session::finish_level(&mut lost), Screen::RunEnd);
    let mut app = screens(Some(lost));
    fits(
        "the run's end",
        &shown(&mut app, super::menu::spawn_run_end),
    );
}
