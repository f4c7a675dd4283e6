//! The scripted scene the render test plays (`rampart play --scene DIR`): the main menu, a run
//! with a fixed seed, towers chosen and placed where they cover the most path, a wave at 2×
//! with an ability thrown into it,
//! with a screenshot of each step saved into DIR and the HUD's texts written to
//! `DIR/hud.txt`. It acts through the same functions as the mouse and keyboard (starting a
//! run, selecting a blueprint, pointing at a tile, placing), so the real client is what gets
//! drawn.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

use super::hud::{HudText, TopBar, shown_blueprints};
use super::menu::start_run;
use super::placing::{Cursor, place_at_cursor};
use super::session::{Game, Session};
use super::{Content, Screen};
use crate::battle::{Phase, PlayerCommand};
use crate::content::BlueprintKind;
use crate::run::RunConfig;
use crate::worldgen::Pos;

/// The run seed of the scene.
pub const SEED: u64 = 7;
/// How many towers the scene places.
const TOWERS: usize = 3;

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
        })
        .add_systems(Update, play);
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
}

impl Script {
    fn shoot(&mut self, commands: &mut Commands, name: &str) {
        let path = self.dir.join(name);
        commands
            .spawn(Screenshot::primary_window())
            .observe(save_to_disk(path.clone()));
        self.shots.push(path);
    }
}

/// The tiles where a tower of the first tower blueprint covers the most path, best first.
fn best_tiles(session: &mut Session) -> Result<(String, Vec<Pos>), String> {
    let battle = &mut session.battle;
    let tower = shown_blueprints(battle)
        .into_iter()
        .find(|&b| battle.content().blueprint(b).kind == BlueprintKind::Tower)
        .ok_or("the collection has no tower")?;
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

fn fail(script: &Script, exit: &mut MessageWriter<AppExit>, why: &str) {
    error!("scripted scene: {why}");
    let _ = std::fs::write(script.dir.join("hud.txt"), format!("error: {why}\n"));
    exit.write(AppExit::error());
}

fn play(
    mut commands: Commands,
    mut script: ResMut<Script>,
    time: Res<Time>,
    content: Res<Content>,
    mut game: NonSendMut<Game>,
    mut cursor: ResMut<Cursor>,
    mut next: ResMut<NextState<Screen>>,
    screen: Res<State<Screen>>,
    texts: Query<(&HudText, &Text)>,
    bars: Query<(), With<TopBar>>,
    mut exit: MessageWriter<AppExit>,
) {
    script.waited += time.delta_secs();
    let waited = script.waited;
    let mut advance = true;
    match script.step {
        0 if waited > 2.0 => script.shoot(&mut commands, "01-menu.png"),
        1 if waited > 1.0 => {
            let config = RunConfig {
                seed: SEED,
                starting_blueprints: None,
            };
            if let Err(e) = start_run(&mut game, &content, config, &mut next) {
                return fail(&script, &mut exit, &e);
            }
        }
        2 if waited > 4.0 && *screen.get() == Screen::Battle => {
            script.shoot(&mut commands, "02-battle.png");
        }
        3 if waited > 1.0 => {
            let Some(session) = game.0.as_mut() else {
                return fail(&script, &mut exit, "no battle after starting the run");
            };
            let (id, tiles) = match best_tiles(session) {
                Ok(found) => found,
                Err(e) => return fail(&script, &mut exit, &e),
            };
            if tiles.is_empty() {
                return fail(&script, &mut exit, "no tile takes a tower");
            }
            session.selection.blueprint = session.battle.content().blueprint_id(&id);
            cursor.scripted = true;
            cursor.point = Some((f64::from(tiles[0].x), f64::from(tiles[0].y)));
            script.towers = tiles;
        }
        4 if waited > 1.5 => script.shoot(&mut commands, "03-placing.png"),
        5 if waited > 1.0 => {
            let Some(session) = game.0.as_mut() else {
                return fail(&script, &mut exit, "the battle is gone");
            };
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
        6 if waited > 1.5 => script.shoot(&mut commands, "04-refused.png"),
        7 if waited > 1.0 => {
            let Some(session) = game.0.as_mut() else {
                return fail(&script, &mut exit, "the battle is gone");
            };
            session.selection.blueprint = None;
            cursor.point = None;
            session.submit(PlayerCommand::StartWave);
            session.speed = 2;
        }
        8 if waited > 6.0 => {
            let Some(session) = game.0.as_mut() else {
                return fail(&script, &mut exit, "the battle is gone");
            };
            if session.battle.phase() == Phase::Build {
                return fail(&script, &mut exit, "the wave did not start");
            }
            // An ability thrown at the oldest attacker (the farthest along); it stays selected.
            let ability = shown_blueprints(&session.battle).first().copied();
            let target = session
                .battle
                .entities()
                .filter(|(_, e)| e.route.is_some())
                .min_by_key(|(_, e)| e.created_at)
                .map(|(_, e)| (e.position.x, e.position.y));
            if let (Some(ability), Some(point)) = (ability, target) {
                session.selection.blueprint = Some(ability);
                cursor.point = Some(point);
                place_at_cursor(session, &cursor);
            }
        }
        9 if waited > 1.0 => script.shoot(&mut commands, "05-wave.png"),
        10 if waited > 0.5 => {
            let mut lines: Vec<String> = texts
                .iter()
                .map(|(kind, text)| format!("{kind:?}: {}", text.0.replace('\n', " | ")))
                .collect();
            lines.sort();
            lines.insert(0, format!("top bar: {}", bars.iter().count()));
            if let Some(s) = game.0.as_ref() {
                lines.push(format!(
                    "placed towers: {}",
                    s.battle
                        .entities()
                        .filter(|(_, e)| e.tower.is_some())
                        .count()
                ));
                lines.push(format!("tick: {}", s.battle.tick()));
            }
            if let Err(e) = std::fs::write(script.dir.join("hud.txt"), lines.join("\n") + "\n") {
                return fail(&script, &mut exit, &e.to_string());
            }
        }
        // Screenshots are saved a few frames after they are asked for.
        11 => {
            if script.shots.iter().all(|p| p.exists()) && waited > 1.0 {
                exit.write(AppExit::Success);
            } else if waited > 30.0 {
                return fail(&script, &mut exit, "screenshots were not saved");
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
