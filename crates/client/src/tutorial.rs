//! The tutorial (thesis 4.1.1, 4.2.10): a guided first battle whose steps are content
//! (`tutorial.ron`, see [`Tutorial`]). A panel shows the step's text; a pulsing outline or ring
//! points at the button, blueprint, bar or place it is about; the step ends when the player has
//! done what it asks ([`done`]), or is skipped. A step that needs the clock to run while the
//! game is paused says so and points at the Pause button instead. The tutorial can be left at
//! any time, and the battle goes on as an ordinary first level.

use bevy::prelude::*;

use super::bindings::Control;
use super::camera::Rig;
use super::hud::{FuelBar, HullBar};
use super::session::{Game, Session, Thing, kind_index, shown_blueprints};
use super::settings::Settings;
use super::ui::{Action, BUTTON, GOLD, MUTED, button, label};
use super::{ClientSet, Screen, to_bevy};
use rampart_core::battle::{EntityKind, Phase};
use rampart_core::content::BlueprintKind;
use rampart_core::content::tutorial::{Pointer, Step, Wait};
use rampart_core::worldgen::Pos;

/// The tutorial panel's background.
pub(crate) const PANEL_BG: Color = Color::srgba(0.08, 0.1, 0.16, 0.94);
/// Runs the tutorial while one is being played.
pub struct TutorialPlugin;

impl Plugin for TutorialPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Guide>()
            .add_systems(OnEnter(Screen::Battle), spawn_panel)
            .add_systems(
                Update,
                (advance, show, point)
                    .chain()
                    .in_set(ClientSet::Present)
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// The tutorial being played, if any.
#[derive(Resource, Default)]
pub struct Guide(pub Option<Progress>);

/// Where the player is in the tutorial.
pub struct Progress {
    /// The steps.
    pub steps: Vec<Step>,
    /// The current step.
    pub index: usize,
    /// What things looked like when the step began.
    since: Option<Observed>,
}

impl Progress {
    /// The tutorial from its first step.
    pub fn new(steps: Vec<Step>) -> Progress {
        Progress {
            steps,
            index: 0,
            since: None,
        }
    }

    /// The step being shown, if the tutorial is not over.
    pub fn step(&self) -> Option<&Step> {
        self.steps.get(self.index)
    }

    /// Goes on to the next step.
    pub fn next(&mut self) {
        self.index += 1;
        self.since = None;
    }
}

/// What the tutorial watches for a step's end.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observed {
    /// Where the camera looks, how far it is zoomed and how it is turned.
    pub camera: (Vec3, f32, i32),
    /// The kind of the blueprint selected for placing.
    pub blueprint: Option<BlueprintKind>,
    /// The kind of the building selected in the world.
    pub building: Option<BlueprintKind>,
    /// Buildings placed and abilities used so far, by kind ([`kind_index`]).
    pub placed: [u32; 4],
    /// The battle's phase and wave.
    pub phase: Option<Phase>,
    /// The current or last wave.
    pub wave: u32,
    /// Whether the clock stands.
    pub paused: bool,
    /// 1× or 2×.
    pub speed: u32,
}

/// Whether the player has done what `wait` asks, between `since` (when the step began) and
/// `now`. [`Wait::Next`] waits for its button.
pub fn done(wait: Wait, since: &Observed, now: &Observed) -> bool {
    match wait {
        Wait::Next => false,
        Wait::Camera => {
            let (a, za, ta) = since.camera;
            let (b, zb, tb) = now.camera;
            a.distance(b) > 0.5 || (za - zb).abs() > za * 0.05 || ta != tb
        }
        Wait::SelectBlueprint(kind) => now.blueprint == Some(kind),
        Wait::Place(kind) => now.placed[kind_index(kind)] > since.placed[kind_index(kind)],
        Wait::SelectBuilding(kind) => now.building == Some(kind),
        Wait::WaveStarted => now.phase == Some(Phase::Wave) || now.wave > since.wave,
        Wait::WaveEnded => matches!(now.phase, Some(Phase::Build | Phase::Won | Phase::Lost)),
        Wait::Paused => now.paused,
        // Double speed is for watching the towers work: the step asks to play on, too.
        Wait::FastForward => now.speed == 2 && !now.paused,
    }
}

/// Whether a step waiting for `wait` cannot end while the clock stands: the player must
/// unpause, and is told so.
pub fn needs_clock(wait: Wait) -> bool {
    matches!(wait, Wait::WaveEnded | Wait::FastForward)
}

/// Whether the step waiting for `wait` is held up by the player's pause now.
fn held_up(wait: Wait, session: &Session) -> bool {
    session.paused && needs_clock(wait)
}

/// What a session and the camera look like now.
fn observe(session: &Session, rig: Option<&Rig>) -> Observed {
    let content = session.battle.content();
    let kind_of_blueprint = |b| content.blueprint(b).kind;
    Observed {
        camera: rig.map_or((Vec3::ZERO, 0.0, 0), |r| (r.focus, r.zoom, r.turns)),
        blueprint: session.selection.blueprint.map(kind_of_blueprint),
        building: match session.selection.thing {
            Some(Thing::Entity(id)) => match session.battle.entity(id).map(|e| e.kind) {
                Some(EntityKind::Building(b)) => Some(kind_of_blueprint(b)),
                _ => None,
            },
            _ => None,
        },
        placed: session.placed,
        phase: Some(session.battle.phase()),
        wave: session.battle.wave(),
        paused: session.paused,
        speed: session.speed,
    }
}

/// Ends steps whose wait is done.
fn advance(game: NonSend<Game>, mut guide: ResMut<Guide>, rigs: Query<&Rig>) {
    let (Some(session), Some(progress)) = (game.0.as_ref(), guide.0.as_mut()) else {
        return;
    };
    let now = observe(session, rigs.iter().next());
    let Some(step) = progress.step() else {
        return;
    };
    let wait = step.wait;
    match &progress.since {
        None => progress.since = Some(now),
        Some(since) if done(wait, since, &now) => progress.next(),
        Some(_) => {}
    }
}

/// The tutorial's panel.
#[derive(Component)]
pub(crate) struct Panel;

/// The panel's texts.
#[derive(Component, PartialEq)]
pub(crate) enum PanelText {
    Count,
    Title,
    Body,
}

/// The panel's main button: Next for a step that waits for it (`true`), else Skip step. Both
/// stand in the same place, and Leave stands apart at the top, so a hurried second click on
/// Next never leaves the tutorial.
#[derive(Component)]
pub(crate) struct MainButton(bool);

pub(crate) fn spawn_panel(mut commands: Commands) {
    commands
        .spawn((
            Panel,
            Node {
                position_type: PositionType::Absolute,
                left: Val::Px(8.0),
                top: Val::Px(super::hud::TOP_BAR_HEIGHT + 8.0),
                width: Val::Px(330.0),
                padding: UiRect::all(Val::Px(12.0)),
                flex_direction: FlexDirection::Column,
                row_gap: Val::Px(6.0),
                display: Display::None,
                border: UiRect::all(Val::Px(2.0)),
                ..default()
            },
            BackgroundColor(PANEL_BG),
            BorderColor::all(GOLD),
            GlobalZIndex(8),
            DespawnOnExit(Screen::Battle),
        ))
        .with_children(|c| {
            c.spawn(Node {
                justify_content: JustifyContent::SpaceBetween,
                align_items: AlignItems::Center,
                ..default()
            })
            .with_children(|head| {
                head.spawn((PanelText::Count, label("", 13.0, MUTED)));
                head.spawn((
                    Button,
                    Action::TutorialLeave,
                    Node {
                        padding: UiRect::axes(Val::Px(8.0), Val::Px(3.0)),
                        ..default()
                    },
                    BackgroundColor(BUTTON),
                    children![label("Leave tutorial", 13.0, Color::WHITE)],
                ));
            });
            c.spawn((PanelText::Title, label("", 20.0, GOLD)));
            c.spawn((PanelText::Body, label("", 15.0, Color::WHITE)));
            c.spawn(Node::default()).with_children(|row| {
                row.spawn((MainButton(true), button("Next", Action::TutorialNext)));
                row.spawn((MainButton(false), button("Skip step", Action::TutorialNext)));
            });
        });
}

/// Fills the panel with the current step.
pub(crate) fn show(
    guide: Res<Guide>,
    game: NonSend<Game>,
    settings: Res<Settings>,
    mut panels: Query<&mut Node, (With<Panel>, Without<MainButton>)>,
    mut mains: Query<(&MainButton, &mut Node), Without<Panel>>,
    mut texts: Query<(&PanelText, &mut Text)>,
) {
    let step = guide.0.as_ref().and_then(|p| p.step().map(|s| (p, s)));
    for mut node in &mut panels {
        let display = if step.is_some() {
            Display::Flex
        } else {
            Display::None
        };
        if node.display != display {
            node.display = display;
        }
    }
    let Some((progress, step)) = step else {
        return;
    };
    for (main, mut node) in &mut mains {
        let display = if main.0 == (step.wait == Wait::Next) {
            Display::Flex
        } else {
            Display::None
        };
        if node.display != display {
            node.display = display;
        }
    }
    for (kind, mut text) in &mut texts {
        let wanted = match kind {
            PanelText::Count => {
                format!("Tutorial {} / {}", progress.index + 1, progress.steps.len())
            }
            PanelText::Title => step.title.clone(),
            PanelText::Body => match game.0.as_ref() {
                Some(session) if held_up(step.wait, session) => format!(
                    "{}\n\nThe game is paused: press {} or Play to go on.",
                    step.text,
                    settings.keys.describe(Control::Pause)
                ),
                _ => step.text.clone(),
            },
        };
        if text.0 != wanted {
            text.0 = wanted;
        }
    }
}

/// Marks a pointer's ring in the world.
#[derive(Component)]
struct PointerRing;

/// Where the world pointer stood last, to know when to look for the best tile again.
#[derive(Default)]
struct Pointed {
    step: Option<usize>,
    tile: Option<Pos>,
}

/// Points at what the step is about: a pulsing outline on a button, card or bar, or a pulsing
/// ring on a place in the world.
fn point(
    mut commands: Commands,
    mut game: NonSendMut<Game>,
    guide: Res<Guide>,
    time: Res<Time>,
    buttons: Query<(Entity, &Action)>,
    fuel: Query<Entity, With<FuelBar>>,
    hull: Query<Entity, With<HullBar>>,
    outlined: Query<Entity, With<Outline>>,
    mut rings: Query<(Entity, &mut Transform), With<PointerRing>>,
    mut pointed: Local<Pointed>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    settings: Res<Settings>,
) {
    // With reduced motion the pointer is steady.
    let pulse = if settings.reduced_motion {
        1.0
    } else {
        0.55 + 0.45 * (time.elapsed_secs() * 5.0).sin()
    };
    let color = GOLD.with_alpha(pulse);
    let step = guide.0.as_ref().and_then(|p| p.step());
    let index = guide.0.as_ref().map(|p| p.index);
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let pointer = match step {
        // Held up by the pause: the Pause button is what to press.
        Some(step) if held_up(step.wait, session) => Pointer::Pause,
        Some(step) => step.point,
        None => Pointer::Nothing,
    };
    // The UI element pointed at, if any.
    let target = match pointer {
        Pointer::StartWave | Pointer::Pause | Pointer::Speed => {
            let wanted = match pointer {
                Pointer::StartWave => Action::StartWave,
                Pointer::Pause => Action::Pause,
                _ => Action::Speed,
            };
            buttons.iter().find(|(_, a)| **a == wanted).map(|(e, _)| e)
        }
        Pointer::Blueprint(kind) => {
            let shown = shown_blueprints(session);
            let content = session.battle.content();
            let i = shown
                .iter()
                .position(|&b| content.blueprint(b).kind == kind);
            buttons
                .iter()
                .find(|(_, a)| matches!(a, Action::Blueprint(n) if Some(*n) == i))
                .map(|(e, _)| e)
        }
        Pointer::Fuel => fuel.iter().next(),
        Pointer::Hull => hull.iter().next(),
        _ => None,
    };
    for e in &outlined {
        if Some(e) != target {
            commands.entity(e).remove::<Outline>();
        }
    }
    if let Some(e) = target {
        commands
            .entity(e)
            .insert(Outline::new(Val::Px(3.0), Val::Px(2.0), color));
    }
    // The place in the world pointed at, if any.
    if pointed.step != index {
        pointed.step = index;
        pointed.tile = None;
    }
    let place = world_point(session, pointer, &mut pointed);
    match (place, rings.single_mut()) {
        (Some(at), Ok((_, mut t))) => {
            t.translation = at;
            t.scale = Vec3::splat(0.55 + 0.15 * pulse);
        }
        (Some(at), Err(_)) => {
            commands.spawn((
                PointerRing,
                Mesh3d(meshes.add(Torus {
                    minor_radius: 0.08,
                    major_radius: 1.0,
                })),
                MeshMaterial3d(materials.add(StandardMaterial {
                    base_color: GOLD,
                    emissive: GOLD.to_linear() * 3.0,
                    unlit: true,
                    ..default()
                })),
                Transform::from_translation(at).with_scale(Vec3::splat(0.6)),
                DespawnOnExit(Screen::Battle),
            ));
        }
        (None, Ok((e, _))) => commands.entity(e).despawn(),
        (None, Err(_)) => {}
    }
}

/// The point of the world a pointer means, raised a little above the ground.
fn world_point(session: &mut Session, pointer: Pointer, pointed: &mut Pointed) -> Option<Vec3> {
    let field = session.battle.field()?.clone();
    let world = field.world();
    let tile = match pointer {
        Pointer::Hub => Some(world.hub),
        Pointer::PathStart => world.path_starts().first().map(|s| s.entry),
        Pointer::Building(kind) => {
            let content = session.battle.content();
            session
                .battle
                .entities()
                .find(|(_, e)| {
                    matches!(e.kind, EntityKind::Building(b) if content.blueprint(b).kind == kind)
                })
                .and_then(|(_, e)| e.tile)
        }
        Pointer::BestTile => {
            if pointed.tile.is_none() {
                pointed.tile = best_tile(session);
            }
            pointed.tile
        }
        _ => None,
    }?;
    let (x, y) = (f64::from(tile.x), f64::from(tile.y));
    Some(to_bevy(x, y, field.ground(x, y) + 0.1))
}

/// The tile where the held tower (the selected blueprint, else the first tower) would cover the
/// most path.
fn best_tile(session: &mut Session) -> Option<Pos> {
    let content = session.battle.content().clone();
    let tower = session
        .selection
        .blueprint
        .filter(|&b| content.blueprint(b).kind == BlueprintKind::Tower)
        .or_else(|| {
            session
                .battle
                .collection()
                .iter()
                .copied()
                .find(|&b| content.blueprint(b).kind == BlueprintKind::Tower)
        })?;
    let id = content.blueprint(tower).id.clone();
    session
        .battle
        .valid_tiles(&id)
        .into_iter()
        .map(|p| {
            let covered: f64 = session
                .battle
                .coverage_preview(tower, p, 0)
                .iter()
                .map(|c| c.small)
                .sum();
            (covered, p)
        })
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)))
        .map(|(_, p)| p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_wait_ends_when_the_player_does_it() {
        let since = Observed {
            camera: (Vec3::ZERO, 20.0, 0),
            phase: Some(Phase::Build),
            speed: 1,
            ..Observed::default()
        };
        let now = |f: &dyn Fn(&mut Observed)| {
            let mut o = since.clone();
            f(&mut o);
            o
        };
        assert!(!done(Wait::Next, &since, &since));
        assert!(!done(Wait::Camera, &since, &since));
        assert!(done(Wait::Camera, &since, &now(&|o| o.camera.0.x = 2.0)));
        assert!(done(Wait::Camera, &since, &now(&|o| o.camera.1 = 15.0)));
        assert!(done(Wait::Camera, &since, &now(&|o| o.camera.2 = 1)));
        let tower = BlueprintKind::Tower;
        assert!(!done(Wait::SelectBlueprint(tower), &since, &since));
        assert!(done(
            Wait::SelectBlueprint(tower),
            &since,
            &now(&|o| o.blueprint = Some(tower))
        ));
        assert!(!done(
            Wait::Place(BlueprintKind::Economic),
            &since,
            &now(&|o| o.placed[0] = 1)
        ));
        assert!(done(Wait::Place(tower), &since, &now(&|o| o.placed[0] = 1)));
        assert!(done(
            Wait::WaveStarted,
            &since,
            &now(&|o| o.phase = Some(Phase::Wave))
        ));
        assert!(!done(
            Wait::WaveEnded,
            &since,
            &now(&|o| o.phase = Some(Phase::Wave))
        ));
        assert!(done(Wait::WaveEnded, &since, &since));
        assert!(done(Wait::Paused, &since, &now(&|o| o.paused = true)));
        assert!(done(Wait::FastForward, &since, &now(&|o| o.speed = 2)));
        // Double speed while paused is not yet the wave running fast.
        let paused_fast = now(&|o| {
            o.speed = 2;
            o.paused = true;
        });
        assert!(!done(Wait::FastForward, &since, &paused_fast));
        assert!(needs_clock(Wait::WaveEnded) && !needs_clock(Wait::Next));
    }
}
