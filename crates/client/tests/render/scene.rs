//! The scripted scene the render test plays: the game the way a new
//! player meets it. The first start offers the tutorial; the scene walks its first steps, leaves
//! it and sees the menu offer to continue. Then it starts a run with a fixed seed, enters a
//! battle room on the map with the room's button, places towers where they cover the most path (after showing a refused placement), runs the first wave at 2×
//! with a pause in which it selects a tower (its range on the ground, the attackers it can hit
//! highlighted), opens the pause screen (P and 1 pressed behind it must do nothing) and the
//! settings screen over it, deletes a building, goes back to the menu and continues the saved run (the
//! battle must come back exactly), edits the level's terrain file (the world is drawn in the new
//! colours while the run goes on), saves a broken one (its error shows, the world stays), throws
//! an ability into the second wave, sees a test mod's script error reach the player, and lets
//! the autopilot play the level to its end and the reward cards, and takes a reward: the map
//! shows again, with the room won behind. Last, a gallery of every core blueprint's and
//! attacker type's model, as the icons made from them ([`GALLERY`]).
//!
//! It acts through the same actions as the mouse and keyboard (buttons' and keys' [`Action`]s,
//! selecting a blueprint, pointing at a tile, placing), so the real client is what gets drawn. A screenshot of each step goes into DIR, and what each step saw, with the
//! HUD's texts, into `DIR/hud.txt`. The game's mods are a copy in `DIR/mods` (made by the test
//! before the game starts), so the terrain file it edits is that copy's.

use std::path::PathBuf;

use bevy::ecs::system::SystemParam;
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput, NativeKey};
use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use bevy::ui::UiGlobalTransform;
use bevy::window::PrimaryWindow;

use rampart_autopilot::Autopilot;
use rampart_client::actions::{Act, battle_action, first_battle, start_run};
use rampart_client::bindings::Control;
use rampart_client::camera::Rig;
use rampart_client::highlight::{Mark, marks};
use rampart_client::hud::{HudText, TopBar};
use rampart_client::input::{Layer, Layers};
use rampart_client::models::icons::icon;
use rampart_client::placing::{Cursor, DeleteButton, place_at_cursor};
use rampart_client::reload::Watch;
use rampart_client::rich::Icons;
use rampart_client::session::{Game, Session, Thing, shown_blueprints};
use rampart_client::settings::Settings;
use rampart_client::tutorial::Guide;
use rampart_client::ui::{Action, label};
use rampart_client::{Content, Screen};
use rampart_core::TICKS_PER_SECOND;
use rampart_core::battle::preview::RangeOf;
use rampart_core::battle::{EntityId, Phase};
use rampart_core::content::BlueprintKind;
use rampart_core::run::{Difficulty, RunConfig};
use rampart_core::worldgen::Pos;

/// The speed the autopilot plays the rest of the level at: a scene's speed, not one the player
/// is offered.
const FAST_FORWARD: u32 = 8;

/// The run seed of the scene.
pub const SEED: u64 = 7;
/// How many towers the scene places.
const TOWERS: usize = 3;
/// Seconds a step may wait for what it waits for (a wave's end, a reload) before the scene fails.
const PATIENCE: f32 = 240.0;

/// The gallery's grid: its first cell's top left corner, a cell's width and height, the cells
/// in a row, and the side of the icon at the top of each cell (centred in its width), in
/// pixels of the 1280×720 window.
pub struct Grid {
    /// The first cell's top left corner.
    pub origin: (usize, usize),
    /// A cell's width and height.
    pub cell: (usize, usize),
    /// Cells in a row.
    pub columns: usize,
    /// The icon's side.
    pub icon: usize,
}

/// The gallery the scene shows last.
pub const GALLERY: Grid = Grid {
    origin: (8, 8),
    cell: (104, 118),
    columns: 12,
    icon: 84,
};

/// The gallery's background, in sRGB bytes.
pub const GALLERY_RGB: [u8; 3] = [28, 30, 38];

/// The gallery, over every other screen.
#[derive(Component)]
struct Gallery;

/// Shows every core blueprint and attacker type, its icon over its name, in the cells of
/// [`GALLERY`]; returns how many.
fn spawn_gallery(commands: &mut Commands, content: &Content, icons: &Icons) -> usize {
    let db = &content.db;
    let items: Vec<(String, String)> = db
        .blueprints
        .iter()
        .filter(|b| b.id.starts_with("core:"))
        .map(|b| (b.name.clone(), Icons::blueprint(&b.id)))
        .chain(
            db.attackers
                .iter()
                .filter(|a| a.id.starts_with("core:"))
                .map(|a| (a.name.clone(), Icons::attacker(&a.id))),
        )
        .collect();
    let [r, g, b] = GALLERY_RGB;
    let px = |n: usize| Val::Px(n as f32);
    commands
        .spawn((
            Gallery,
            Node {
                position_type: PositionType::Absolute,
                left: px(0),
                top: px(0),
                width: Val::Percent(100.0),
                height: Val::Percent(100.0),
                padding: UiRect {
                    left: px(GALLERY.origin.0),
                    top: px(GALLERY.origin.1),
                    ..default()
                },
                flex_wrap: FlexWrap::Wrap,
                align_content: AlignContent::FlexStart,
                ..default()
            },
            BackgroundColor(Color::srgb_u8(r, g, b)),
            GlobalZIndex(100),
        ))
        .with_children(|grid| {
            for (name, picture) in &items {
                grid.spawn(Node {
                    width: px(GALLERY.cell.0),
                    height: px(GALLERY.cell.1),
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    overflow: Overflow::clip(),
                    ..default()
                })
                .with_children(|cell| {
                    // A missing icon leaves its cell empty, for the test to find.
                    cell.spawn(icon(icons.get(picture), GALLERY.icon as f32));
                    cell.spawn((
                        label(name.clone(), 11.0, Color::WHITE),
                        TextLayout::justify(Justify::Center),
                    ));
                });
            }
        });
    items.len()
}

/// Plays the scripted scene.
pub struct ScenePlugin {
    /// Where the screenshots go.
    pub dir: PathBuf,
}

impl Plugin for ScenePlugin {
    fn build(&self, app: &mut App) {
        app.insert_resource(Script {
            dir: self.dir.clone(),
            step: 0,
            waited: 0.0,
            shots: Vec::new(),
            towers: Vec::new(),
            seen: Vec::new(),
            mark: 0,
            materials: 0.0,
            hash: 0,
            saved_at: None,
            terrain: None,
            error_notice: None,
            pilot: Autopilot::new(),
        })
        // Before the actions are carried out, so that an action the scene asks for is carried out
        // in the frame it asks (the order was open, and which came first changed with unrelated
        // systems: twice a step saw the frame before its own action).
        .add_systems(
            Update,
            play.in_set(rampart_client::ClientSet::Input)
                .before(rampart_client::actions::carry_out),
        );
    }
}

/// Where the scene is.
#[derive(Resource)]
struct Script {
    dir: PathBuf,
    step: usize,
    waited: f32,
    shots: Vec<PathBuf>,
    towers: Vec<Pos>,
    /// What the steps saw, for `hud.txt`.
    seen: Vec<String>,
    /// A number a step remembers for the next (a tick, a count).
    mark: u64,
    /// The materials before a deletion.
    materials: f64,
    /// The state hash when the run was left.
    hash: u64,
    /// When the terrain file was saved.
    saved_at: Option<std::time::Instant>,
    /// The level's terrain file and what it said before the scene edited it.
    terrain: Option<(PathBuf, String)>,
    /// The first notice of a script error, kept from the frame it showed: it may be gone by
    /// the step that reports it.
    error_notice: Option<String>,
    /// Plays the rest of the level.
    pilot: Autopilot,
}

impl Script {
    fn shoot(&mut self, commands: &mut Commands, name: &str) {
        let path = self.dir.join(name);
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path.clone()));
        self.shots.push(path);
    }

    fn saw(&mut self, what: String) {
        info!("scripted scene: {what}");
        self.seen.push(what);
    }
}

/// The tiles where a tower of the first tower blueprint covers the most path, best first.
fn best_tiles(session: &mut Session) -> Result<(String, Vec<Pos>), String> {
    let tower = shown_blueprints(session)
        .into_iter()
        .find(|&b| session.battle.content().blueprint(b).kind == BlueprintKind::Tower)
        .ok_or("the collection has no tower")?;
    let battle = &mut session.battle;
    let id = battle.content().blueprint(tower).id.clone();
    let mut scored: Vec<(f64, Pos)> = battle
        .valid_tiles(&id)
        .into_iter()
        .map(|p| {
            let covered: f64 = battle
                .coverage_preview(tower, p, 0)
                .iter()
                .map(|c| c.small)
                .sum();
            (covered, p)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut chosen: Vec<Pos> = Vec::new();
    for (_, p) in scored {
        // Spread out, so each covers path of its own.
        if chosen.iter().all(|c| c.manhattan(p) > 2) {
            chosen.push(p);
        }
        if chosen.len() == TOWERS {
            break;
        }
    }
    Ok((id, chosen))
}

/// The terrain file with every surface colour inverted: an edit anyone sees.
fn recoloured(source: &str) -> String {
    let mut inside = false;
    let mut out = String::new();
    for line in source.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with("surface_colors") {
            inside = true;
        } else if inside && trimmed.starts_with('}') {
            inside = false;
        }
        let words: Vec<&str> = trimmed.split_whitespace().collect();
        match (inside, words.as_slice()) {
            (true, [surface, hex]) if hex.len() == 6 => match u32::from_str_radix(hex, 16) {
                Ok(rgb) => out.push_str(&format!("    {surface} {:06x}", 0xff_ffff - rgb)),
                Err(_) => out.push_str(line),
            },
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// The colour of the world's first tile, as the level's terrain type has it now.
fn first_colour(session: &Session, content: &Content) -> Option<[u8; 3]> {
    let world = session.battle.field()?.world();
    let terrain = content.db.terrain(&world.terrain)?;
    let surface = world.tile(Pos::new(0, 0)).surface;
    terrain.surface_colors.get(&surface).copied()
}

fn fail(script: &Script, exit: &mut MessageWriter<AppExit>, why: &str) {
    error!("scripted scene: {why}");
    let mut text = script.seen.join("\n");
    text.push_str(&format!("\nerror: {why}\n"));
    let _ = std::fs::write(script.dir.join("hud.txt"), text);
    exit.write(AppExit::error());
}

/// What the scene looks at and touches besides the session.
#[derive(SystemParam)]
struct Stage<'w, 's> {
    screen: Res<'w, State<Screen>>,
    next: ResMut<'w, NextState<Screen>>,
    acts: MessageWriter<'w, Act>,
    exit: MessageWriter<'w, AppExit>,
    watch: Option<Res<'w, Watch>>,
    guide: Res<'w, Guide>,
    texts: Query<'w, 's, (&'static HudText, &'static Text)>,
    bars: Query<'w, 's, (), With<TopBar>>,
    buttons: Query<'w, 's, (Entity, &'static Action)>,
    delete: Query<'w, 's, &'static Node, With<DeleteButton>>,
    nodes: Query<'w, 's, (&'static ComputedNode, &'static UiGlobalTransform)>,
    window: Query<'w, 's, &'static mut Window, With<PrimaryWindow>>,
    primary: Query<'w, 's, Entity, With<PrimaryWindow>>,
    rigs: Query<'w, 's, &'static mut Rig>,
    layers: Res<'w, Layers>,
    settings: Res<'w, Settings>,
    icons: Res<'w, Icons>,
    galleries: Query<'w, 's, Entity, With<Gallery>>,
    typed: MessageWriter<'w, KeyboardInput>,
}

impl Stage<'_, '_> {
    fn act(&mut self, action: Action) {
        self.acts.write(Act(action));
    }

    fn has_button(&self, action: &Action) -> bool {
        self.buttons.iter().any(|(_, a)| a == action)
    }

    fn step(&self) -> Option<usize> {
        self.guide.0.as_ref().map(|p| p.index)
    }

    /// Presses or releases `keys` as the window would report them: the game reads them in the
    /// next frame, through its own key handling.
    fn keys(&mut self, keys: &[KeyCode], state: ButtonState) {
        let Ok(window) = self.primary.single() else {
            return;
        };
        for &key_code in keys {
            self.typed.write(KeyboardInput {
                key_code,
                logical_key: Key::Unidentified(NativeKey::Unidentified),
                state,
                text: None,
                repeat: false,
                window,
            });
        }
    }
}

fn play(
    mut commands: Commands,
    mut script: ResMut<Script>,
    time: Res<Time>,
    content: Res<Content>,
    mut game: NonSendMut<Game>,
    mut cursor: ResMut<Cursor>,
    mut stage: Stage,
) {
    script.waited += time.delta_secs();
    let waited = script.waited;
    if waited > PATIENCE {
        let why = format!("step {} waited {PATIENCE} s for what it needs", script.step);
        return fail(&script, &mut stage.exit, &why);
    }
    let step = script.step;
    if script.error_notice.is_none()
        && let Some(session) = game.0.as_ref()
    {
        script.error_notice = session
            .notices
            .iter()
            .find(|n| n.text.starts_with("Script error"))
            .map(|n| n.text.clone());
    }
    let screen = *stage.screen.get();
    let mut advance = true;
    match step {
        // The first start offers the tutorial.
        0 if waited > 2.0 => {
            if !stage.has_button(&Action::TutorialDecline) {
                return fail(
                    &script,
                    &mut stage.exit,
                    "the first start offers no tutorial",
                );
            }
            script.saw("the first start offers the tutorial".into());
            script.shoot(&mut commands, "01-menu.png");
        }
        1 if waited > 1.0 => stage.act(Action::Tutorial),
        2 => {
            advance = screen == Screen::Battle && stage.step() == Some(0) && waited > 4.0;
            if advance {
                script.shoot(&mut commands, "02-tutorial.png");
            }
        }
        3 if waited > 1.0 => stage.act(Action::TutorialNext),
        // The camera step ends when the camera moves. The tutorial notes where the camera is in
        // the first frame of the step, and the action that began it may be carried out before
        // or after this system in a frame, so the camera moves only a moment later.
        4 => {
            advance = stage.step() == Some(1) && waited > 0.5;
            if advance {
                for mut rig in &mut stage.rigs {
                    rig.focus += Vec3::new(1.5, 0.0, -1.0);
                }
            }
        }
        5 => {
            advance = stage.step() == Some(2);
            if advance {
                stage.act(Action::Blueprint(0));
            }
        }
        6 => {
            advance = stage.step() == Some(3) && waited > 2.5;
            if advance {
                let title = stage
                    .guide
                    .0
                    .as_ref()
                    .and_then(|p| p.step())
                    .map_or(String::new(), |s| s.title.clone());
                script.saw(format!("tutorial walked to step 4: {title}"));
                script.shoot(&mut commands, "03-tutorial-place.png");
            }
        }
        7 if waited > 1.0 => {
            stage.act(Action::TutorialLeave);
            stage.act(Action::ToMenu);
        }
        // Leaving saved the tutorial's run: the menu offers to continue it.
        8 => {
            advance = screen == Screen::Menu && waited > 1.5;
            if advance {
                if !stage.has_button(&Action::Continue) {
                    return fail(&script, &mut stage.exit, "no Continue after leaving a run");
                }
                script.saw("the menu offers Continue after leaving a run".into());
                // Normal: the scene's level as it was before adaptive difficulty (Auto starts a
                // tenth harder at full hull), so the scripted defence keeps its margin.
                let config = RunConfig {
                    difficulty: Difficulty::Normal,
                    ..RunConfig::new(SEED)
                };
                if let Err(e) = start_run(&mut game, &content, config, &mut stage.next) {
                    return fail(&script, &mut stage.exit, &e.to_string());
                }
            }
        }
        // The map: the start room is entered, the rooms behind its doors are open. Click the
        // first battle room's button.
        9 => {
            advance = screen == Screen::Map && waited > 2.0;
            if advance {
                let session = game.0.as_ref().expect("the run started");
                let Some(room) = first_battle(&session.run) else {
                    return fail(&script, &mut stage.exit, "the map opens no battle room");
                };
                let Some((button, action)) = stage
                    .buttons
                    .iter()
                    .find(|(_, a)| **a == Action::Enter(room))
                else {
                    return fail(&script, &mut stage.exit, "the battle room has no button");
                };
                let action = action.clone();
                // The real cursor goes onto the room, as a player's would.
                if let Ok((node, at)) = stage.nodes.get(button)
                    && let Ok(mut window) = stage.window.single_mut()
                {
                    window.set_cursor_position(Some(at.translation * node.inverse_scale_factor()));
                }
                let run = &session.run;
                let open = run.choices().len();
                script.saw(format!(
                    "map screen: act {}, level {}, {} rooms made, {open} open; entering room {room}",
                    run.act(),
                    run.level(),
                    run.map().nodes().len()
                ));
                stage.act(action);
            }
        }
        10 if waited > 4.0 && screen == Screen::Battle => {
            script.shoot(&mut commands, "04-battle.png");
        }
        11 if waited > 1.0 => {
            let session = game.0.as_mut().expect("checked above");
            let (id, tiles) = match best_tiles(session) {
                Ok(found) => found,
                Err(e) => return fail(&script, &mut stage.exit, &e),
            };
            if tiles.is_empty() {
                return fail(&script, &mut stage.exit, "no tile takes a tower");
            }
            session.selection.blueprint = session.battle.content().blueprint_id(&id);
            cursor.scripted = true;
            cursor.point = Some((f64::from(tiles[0].x), f64::from(tiles[0].y)));
            script.towers = tiles;
        }
        12 if waited > 2.5 => script.shoot(&mut commands, "05-placing.png"),
        13 if waited > 1.0 => {
            let session = game.0.as_mut().expect("checked above");
            let blueprint = session.selection.blueprint;
            for tile in script.towers.clone() {
                session.selection.blueprint = blueprint;
                cursor.point = Some((f64::from(tile.x), f64::from(tile.y)));
                place_at_cursor(session, &cursor);
            }
            // A path tile shows the refusal and its reason.
            let path_tile = session
                .battle
                .field()
                .and_then(|f| f.world().main_paths.first()?.get(3).copied());
            session.selection.blueprint = blueprint;
            cursor.point = path_tile.map(|p| (f64::from(p.x), f64::from(p.y)));
        }
        14 if waited > 1.5 => script.shoot(&mut commands, "06-refused.png"),
        // The first wave, at 2× through the HUD's buttons.
        15 if waited > 1.0 => {
            let session = game.0.as_mut().expect("checked above");
            let towers = count_towers(session);
            script.saw(format!("placed towers: {towers}"));
            session.selection.blueprint = None;
            cursor.point = None;
            battle_action(&Action::StartWave, session);
            battle_action(&Action::Speed, session);
            script.mark = session.battle.tick();
        }
        // Pause in the middle of the wave, a second of game time in: the clock must stand still.
        // The battle follows real time and the scene's clock does not, so this waits on ticks.
        16 => {
            let session = game.0.as_mut().expect("checked above");
            let (phase, tick) = (session.battle.phase(), session.battle.tick());
            advance = phase == Phase::Wave && tick >= script.mark + TICKS_PER_SECOND;
            if advance {
                battle_action(&Action::Pause, session);
                script.mark = tick;
            } else if waited > 4.0 || (phase != Phase::Wave && tick > script.mark) {
                let why = format!(
                    "the first wave did not start: {phase:?} at tick {tick}, started at {}",
                    script.mark
                );
                return fail(&script, &mut stage.exit, &why);
            }
        }
        17 if waited > 2.0 => {
            let session = game.0.as_mut().expect("checked above");
            let (before, now) = (script.mark, session.battle.tick());
            if before != now {
                return fail(&script, &mut stage.exit, "the clock ran while paused");
            }
            script.saw(format!("paused: the clock stood at tick {now} for 2 s"));
            battle_action(&Action::Pause, session);
        }
        // Select the tower that can hit the most attackers as soon as one can, and pause: its
        // range, the attackers it can hit (yellow) and their HP bars show.
        18 => {
            let session = game.0.as_mut().expect("checked above");
            let best = towers(session)
                .into_iter()
                .map(|id| (session.battle.affected(RangeOf::Placed(id)).len(), id))
                .max();
            advance = match best {
                Some((hits, id)) if hits > 0 || session.battle.phase() != Phase::Wave => {
                    session.selection.thing = Some(Thing::Entity(id));
                    battle_action(&Action::Pause, session);
                    true
                }
                _ => false,
            };
        }
        19 if waited > 2.0 => {
            let session = game.0.as_mut().expect("checked above");
            let marked = marks(session, &cursor);
            let affected = marked.iter().filter(|(_, m)| *m == Mark::Affected).count();
            let selected = marked.iter().filter(|(_, m)| *m == Mark::Selected).count();
            if affected == 0 {
                return fail(
                    &script,
                    &mut stage.exit,
                    "no attacker was ever in a tower's reach",
                );
            }
            script.saw(format!(
                "highlights: the selected tower ({selected}) and {affected} attackers it can hit"
            ));
            script.shoot(&mut commands, "07-highlights.png");
        }
        20 if waited > 0.5 => {
            let session = game.0.as_mut().expect("checked above");
            session.selection.thing = None;
            battle_action(&Action::Pause, session);
        }
        21 => {
            let session = game.0.as_mut().expect("checked above");
            advance = session.battle.phase() == Phase::Build;
            if session.battle.phase() == Phase::Lost {
                return fail(&script, &mut stage.exit, "the first wave was lost");
            }
            if advance {
                script.saw(format!("wave 1 over at tick {}", session.battle.tick()));
            }
        }
        // The pause screen has the input: P and 1 pressed behind it do nothing (the keys as the
        // window delivers them, read by the game's own key handler), and its Settings open the
        // settings screen over it.
        22 if waited > 1.0 => stage.act(Action::PauseMenu),
        23 => {
            advance = stage.layers.top() == Some(&Layer::Pause) && waited > 0.5;
            if advance {
                let session = game.0.as_ref().expect("checked above");
                script.mark = session.battle.tick();
                stage.keys(&[KeyCode::KeyP, KeyCode::Digit1], ButtonState::Pressed);
            }
        }
        24 if waited > 0.5 => {
            stage.keys(&[KeyCode::KeyP, KeyCode::Digit1], ButtonState::Released);
            let session = game.0.as_ref().expect("checked above");
            let tick = session.battle.tick();
            if session.paused || session.selection.blueprint.is_some() || tick != script.mark {
                return fail(
                    &script,
                    &mut stage.exit,
                    "keys reached the battle behind the pause screen",
                );
            }
            script.saw(format!(
                "behind the pause screen, P and 1 did nothing: not paused, nothing selected, \
                 the clock stood at tick {tick}"
            ));
            stage.act(Action::Settings);
        }
        25 => {
            advance = stage.layers.top() == Some(&Layer::Settings) && waited > 1.5;
            if advance {
                let keys = stage.settings.keys.describe(Control::StartWave);
                script.saw(format!(
                    "settings screen: master volume {:.0}%, start the next wave: {keys}",
                    stage.settings.master_volume * 100.0
                ));
                script.shoot(&mut commands, "16-settings.png");
            }
        }
        26 if waited > 1.0 => stage.act(Action::Close),
        27 => {
            advance = stage.layers.top() == Some(&Layer::Pause);
            if advance {
                stage.act(Action::Resume);
            }
        }
        28 => {
            advance = stage.layers.is_empty() && waited > 0.5;
            if advance {
                script.saw("resumed: the world has the input again".into());
            }
        }
        // Select a tower and press the info panel's Delete: it goes (the thesis refunds nothing:
        // deleting makes room for other buildings).
        29 if waited > 1.0 => {
            let session = game.0.as_mut().expect("checked above");
            let Some(id) = first_tower(session) else {
                return fail(&script, &mut stage.exit, "no tower to delete");
            };
            script.mark = count_towers(session) as u64;
            script.materials = session.battle.player().materials;
            session.selection.thing = Some(Thing::Entity(id));
        }
        // The info panel offers its Delete button for the selected tower; press it.
        30 => {
            advance = stage
                .delete
                .iter()
                .any(|node| node.display != Display::None);
            if advance {
                script.saw("the info panel offers Delete for the selected tower".into());
                stage.act(Action::Delete);
            }
        }
        // The removal runs at the next tick.
        31 if waited > 0.5 => {
            let session = game.0.as_mut().expect("checked above");
            let (after, refunded) = (count_towers(session), session.battle.player().materials);
            if after as u64 + 1 != script.mark {
                return fail(&script, &mut stage.exit, "Delete did not remove the tower");
            }
            let seen = format!(
                "deleted a tower: towers {} -> {after}, materials {:.0} -> {refunded:.0}",
                script.mark, script.materials
            );
            script.saw(seen);
        }
        // Back to the menu (the run is saved) and Continue: the battle comes back as it was.
        32 if waited > 1.0 => {
            let session = game.0.as_mut().expect("checked above");
            // Paused, so that no tick passes between the mark and the save.
            session.paused = true;
            script.mark = session.battle.tick();
            script.hash = session.battle.state_hash();
            stage.act(Action::ToMenu);
        }
        33 => {
            advance = screen == Screen::Menu && waited > 1.0;
            if advance {
                stage.act(Action::Continue);
            }
        }
        34 => {
            advance = screen == Screen::Battle && waited > 3.0;
            if advance {
                let Some(session) = game.0.as_mut() else {
                    return fail(&script, &mut stage.exit, "Continue brought no battle back");
                };
                let (tick, hash) = (session.battle.tick(), session.battle.state_hash());
                if (tick, hash) != (script.mark, script.hash) {
                    let why = format!(
                        "the continued battle differs: tick {tick} hash {hash:016x}, saved at \
                         tick {} hash {:016x}",
                        script.mark, script.hash
                    );
                    return fail(&script, &mut stage.exit, &why);
                }
                script.saw(format!(
                    "continued the saved run at tick {tick}: the same state ({hash:016x})"
                ));
                // A continued run comes back paused, and says so: the shot shows the banner.
                if !session.paused {
                    return fail(&script, &mut stage.exit, "the continued battle runs");
                }
                script.saw(format!(
                    "paused banner: {}",
                    hud_text(&stage.texts, HudText::Paused)
                ));
                script.shoot(&mut commands, "08-continued.png");
            }
        }
        // Save the level's terrain file with other colours: the world is drawn again. The game
        // plays on (the shot above was saved meanwhile).
        35 if waited > 1.0 => {
            stage.act(Action::Pause);
            let session = game.0.as_mut().expect("checked above");
            let Some(world) = session.battle.field().map(|f| f.world().terrain.clone()) else {
                return fail(&script, &mut stage.exit, "the battle has no world");
            };
            let Some(path) = content.db.terrain_file(&world).map(PathBuf::from) else {
                return fail(
                    &script,
                    &mut stage.exit,
                    "the level's terrain type has no file",
                );
            };
            let source = match std::fs::read_to_string(&path) {
                Ok(s) => s,
                Err(e) => {
                    let why = format!("{}: {e}", path.display());
                    return fail(&script, &mut stage.exit, &why);
                }
            };
            if let Err(e) = std::fs::write(&path, recoloured(&source)) {
                let why = format!("{}: {e}", path.display());
                return fail(&script, &mut stage.exit, &why);
            }
            script.saved_at = Some(std::time::Instant::now());
            script.mark = first_colour(session, &content).map_or(0, rgb_number);
            script.saw(format!("edited {}", path.display()));
            script.terrain = Some((path, source));
        }
        36 => {
            let session = game.0.as_mut().expect("checked above");
            let now = first_colour(session, &content).map_or(0, rgb_number);
            advance = now != script.mark;
            if advance {
                let after = script
                    .saved_at
                    .take()
                    .map_or(0.0, |t| t.elapsed().as_secs_f64() * 1000.0);
                let applied = stage
                    .watch
                    .as_ref()
                    .and_then(|w| w.last_applied_ms)
                    .unwrap_or(0.0);
                let seen = format!(
                    "terrain reloaded: first tile colour {:06x} -> {now:06x}, {after:.0} ms after \
                     the save ({applied:.0} ms of it applying)",
                    script.mark
                );
                script.saw(seen);
            }
        }
        37 if waited > 2.0 => script.shoot(&mut commands, "09-reloaded.png"),
        // Save a broken terrain file: its error shows and the world stays as it was.
        38 => {
            let session = game.0.as_mut().expect("checked above");
            let Some((path, _)) = script.terrain.clone() else {
                return fail(&script, &mut stage.exit, "the terrain file is unknown");
            };
            let edited = std::fs::read_to_string(&path).unwrap_or_default();
            let broken = edited.replacen("max_height", "max_height_typo", 1);
            if let Err(e) = std::fs::write(&path, broken) {
                let why = format!("{}: {e}", path.display());
                return fail(&script, &mut stage.exit, &why);
            }
            script.mark = first_colour(session, &content).map_or(0, rgb_number);
        }
        39 => {
            let problems = stage
                .watch
                .as_ref()
                .map(|w| w.problems.clone())
                .unwrap_or_default();
            advance = !problems.is_empty();
            if advance {
                let session = game.0.as_mut().expect("checked above");
                let now = first_colour(session, &content).map_or(0, rgb_number);
                if now != script.mark {
                    return fail(
                        &script,
                        &mut stage.exit,
                        "the broken file changed the world",
                    );
                }
                // The diagnostic's headline (after the overlay's own first line) and the line
                // that names file, line and column.
                let mut lines = problems.lines().map(str::trim).filter(|l| !l.is_empty());
                let headline = lines.nth(1).unwrap_or("").to_string();
                let at = lines.find(|l| l.contains(".terrain:")).unwrap_or("");
                script.saw(format!(
                    "broken terrain file: the overlay shows `{headline}` at `{at}`"
                ));
            }
        }
        40 if waited > 2.0 => script.shoot(&mut commands, "10-broken.png"),
        // Put the original back; the overlay goes.
        41 => {
            if let Some((path, source)) = &script.terrain
                && let Err(e) = std::fs::write(path, source)
            {
                let why = format!("{}: {e}", path.display());
                return fail(&script, &mut stage.exit, &why);
            }
        }
        42 => {
            advance = stage.watch.as_ref().is_none_or(|w| w.problems.is_empty());
            if advance {
                script.saw("terrain file restored: the overlay is gone".into());
            }
        }
        // The second wave at 2× (a continued run comes back at the speed it had), with an
        // ability thrown at the attacker farthest along.
        43 if waited > 2.0 => {
            let session = game.0.as_mut().expect("checked above");
            battle_action(&Action::StartWave, session);
            if session.speed == 1 {
                battle_action(&Action::Speed, session);
            }
        }
        44 if waited > 5.0 => {
            let session = game.0.as_mut().expect("checked above");
            let ability = shown_blueprints(session)
                .into_iter()
                .find(|&b| session.battle.content().blueprint(b).kind == BlueprintKind::Ability);
            let target = session
                .battle
                .entities()
                .filter(|(_, e)| e.route.is_some())
                .min_by_key(|(_, e)| e.created_at)
                .map(|(_, e)| (e.position.x, e.position.y));
            let (Some(ability), Some(point)) = (ability, target) else {
                // No attacker out yet.
                return;
            };
            session.selection.blueprint = Some(ability);
            cursor.point = Some(point);
            script.mark = session.battle.player().energy.round() as u64;
            place_at_cursor(session, &cursor);
        }
        // The command runs at the next tick: the energy is spent, the ability stays selected.
        45 if waited > 0.5 => {
            let session = game.0.as_mut().expect("checked above");
            let energy = session.battle.player().energy;
            let Some(ability) = session.selection.blueprint else {
                return fail(
                    &script,
                    &mut stage.exit,
                    "the ability did not stay selected",
                );
            };
            if energy.round() as u64 >= script.mark {
                let why = session.notices.last().map_or("", |n| n.text.as_str());
                let why = format!("the ability was not used: {why}");
                return fail(&script, &mut stage.exit, &why);
            }
            let name = session.battle.content().blueprint(ability).name.clone();
            let seen = format!(
                "ability {name} used in wave 2: energy {} -> {energy:.0}, still selected",
                script.mark
            );
            script.saw(seen);
            session.selection.blueprint = None;
            cursor.point = None;
        }
        // The test mod's script fails from tick 300: the player hears of it.
        46 => {
            let session = game.0.as_mut().expect("checked above");
            advance = !session.problems.is_empty();
            if advance {
                let notice = script.error_notice.clone().unwrap_or_default();
                script.saw(format!("script error notice: {notice}"));
                stage.act(Action::Problems);
            }
        }
        47 if waited > 1.5 => {
            let session = game.0.as_mut().expect("checked above");
            let lines = session.problems.lines();
            script.saw(format!("problems list: {}", lines.join(" | ")));
            script.shoot(&mut commands, "11-problems.png");
        }
        // Closed, and shot a moment later: the action is carried out in this frame or the
        // next (the same ordering as the camera step's), and a sparse wave moves too few pixels
        // to tell a shot with the panel from one without.
        48 if waited > 0.5 => stage.act(Action::Problems),
        49 if waited > 0.5 => {
            script.shoot(&mut commands, "12-wave.png");
            let lines = hud_lines(&stage.texts, &stage.bars);
            script.seen.extend(lines);
        }
        // The autopilot plays the rest of the level, fast, then Continue.
        50 => {
            let Some(session) = game.0.as_mut() else {
                return fail(&script, &mut stage.exit, "the battle is gone");
            };
            session.selection.blueprint = None;
            cursor.point = None;
            match session.battle.phase() {
                Phase::Won => {
                    let wave = session.battle.wave();
                    script.saw(format!("level won after wave {wave}"));
                }
                Phase::Lost => return fail(&script, &mut stage.exit, "the level was lost"),
                _ => {
                    // Playing out the level is the scene's longest step; the player's 2× is
                    // already seen in the waves before.
                    session.speed = FAST_FORWARD;
                    script.pilot.act(&mut session.battle);
                    // A level takes minutes; the patience is per wave.
                    if session.battle.wave() as u64 != script.mark {
                        script.mark = session.battle.wave() as u64;
                        script.waited = 0.0;
                    }
                    advance = false;
                }
            }
        }
        51 if waited > 2.0 => script.shoot(&mut commands, "13-won.png"),
        52 if waited > 1.0 => stage.act(Action::Proceed),
        // The reward screen: three cards; the cursor on the first (its range shows).
        53 => {
            advance = screen == Screen::Reward && waited > 2.0;
            if advance {
                let offers: Vec<Entity> = stage
                    .buttons
                    .iter()
                    .filter(|(_, a)| matches!(a, Action::Offer(_)))
                    .map(|(e, _)| e)
                    .collect();
                // The real cursor goes onto the first card: UI picking hovers it.
                if let Some(&first) = offers.first()
                    && let Ok((node, at)) = stage.nodes.get(first)
                    && let Ok(mut window) = stage.window.single_mut()
                {
                    let centre = at.translation * node.inverse_scale_factor();
                    window.set_cursor_position(Some(centre));
                }
                script.saw(format!("reward screen: {} offers", offers.len()));
            }
        }
        54 if waited > 1.5 => script.shoot(&mut commands, "14-reward.png"),
        // Take the first offer: back on the map, the room won behind.
        55 if waited > 0.5 => stage.act(Action::Offer(0)),
        56 => {
            // A full collection first asks which blueprint the offer replaces: the last.
            if screen == Screen::Reward && stage.has_button(&Action::Replace(0)) && waited > 1.0 {
                let last = game.0.as_ref().map_or(0, |s| s.run.collection().len() - 1);
                stage.act(Action::Replace(last));
                script.waited = 0.0;
            }
            advance = screen == Screen::Map && waited > 2.0;
            if advance {
                let session = game.0.as_ref().expect("the run goes on");
                let run = &session.run;
                let entered = run
                    .map()
                    .nodes()
                    .iter()
                    .filter(|n| n.entered.is_some())
                    .count();
                script.saw(format!(
                    "map after the reward: level {}, {entered} rooms entered, {} open, collection {}",
                    run.level(),
                    run.choices().len(),
                    run.collection().len()
                ));
                script.shoot(&mut commands, "15-map.png");
            }
        }
        // The gallery of every core model, over the map.
        57 if waited > 1.0 => {
            let shown = spawn_gallery(&mut commands, &content, &stage.icons);
            let cells = GALLERY.columns * (720 - GALLERY.origin.1) / GALLERY.cell.1;
            if shown > cells {
                let why = format!("the gallery holds {cells} models, not {shown}");
                return fail(&script, &mut stage.exit, &why);
            }
            script.saw(format!("gallery: {shown} models"));
        }
        58 if waited > 2.0 => script.shoot(&mut commands, "17-gallery.png"),
        59 if waited > 1.0 => {
            for gallery in &stage.galleries {
                commands.entity(gallery).despawn();
            }
        }
        60 if waited > 1.5 => {
            let text = script.seen.join("\n") + "\n";
            if let Err(e) = std::fs::write(script.dir.join("hud.txt"), text) {
                return fail(&script, &mut stage.exit, &e.to_string());
            }
        }
        // Screenshots are saved a few frames after they are asked for.
        61 => {
            if script.shots.iter().all(|p| p.exists()) && waited > 1.0 {
                stage.exit.write(AppExit::Success);
            } else if waited > 30.0 {
                return fail(&script, &mut stage.exit, "screenshots were not saved");
            }
            advance = false;
        }
        _ => advance = false,
    }
    if advance {
        script.step += 1;
        script.waited = 0.0;
    }
}

/// The towers in the world, in the battle's order.
fn towers(session: &Session) -> Vec<EntityId> {
    session
        .battle
        .entities()
        .filter(|(_, e)| e.tower.is_some())
        .map(|(id, _)| id)
        .collect()
}

fn first_tower(session: &Session) -> Option<EntityId> {
    towers(session).first().copied()
}

fn count_towers(session: &Session) -> usize {
    towers(session).len()
}

fn rgb_number([r, g, b]: [u8; 3]) -> u64 {
    (u64::from(r) << 16) | (u64::from(g) << 8) | u64::from(b)
}

/// The HUD's text of `kind`, or nothing when the HUD has none.
fn hud_text(texts: &Query<(&HudText, &Text)>, kind: HudText) -> String {
    texts
        .iter()
        .find(|(k, _)| **k == kind)
        .map_or(String::new(), |(_, text)| text.0.clone())
}

/// The HUD's texts, one line each, and whether its top bar is there.
fn hud_lines(texts: &Query<(&HudText, &Text)>, bars: &Query<(), With<TopBar>>) -> Vec<String> {
    let mut lines: Vec<String> = texts
        .iter()
        .map(|(kind, text)| format!("{kind:?}: {}", text.0.replace('\n', " | ")))
        .collect();
    lines.sort();
    lines.insert(0, format!("top bar: {}", bars.iter().count()));
    lines
}
