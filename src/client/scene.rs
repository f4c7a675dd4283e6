//! The scripted scene the render test plays (`rampart play --scene DIR`): a whole first level
//! the way a new player meets it. From the main menu it starts a run with a fixed seed, places
//! towers where they cover the most path (after showing a refused placement), runs the first
//! wave at 2× with a pause in it, deletes a building, edits the level's terrain file (the world
//! changes while the run goes on), saves a broken one (its error shows, the world stays), throws
//! an ability into the second wave, and then lets the autopilot play the level to its end and
//! the reward screen.
//!
//! It acts through the same functions as the mouse and keyboard (starting a run, selecting a
//! blueprint, pointing at a tile, placing, Delete, the HUD's buttons), so the real client is
//! what gets drawn. A screenshot of each step goes into DIR, and what each step saw, with the
//! HUD's texts, into `DIR/hud.txt`. The game's mods are a copy in `DIR/mods` (see
//! `rampart play --help`), so the terrain file it edits is that copy's.

use std::path::PathBuf;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};

use super::hud::{HudText, TopBar, battle_action, shown_blueprints};
use super::menu::{Action, start_run};
use super::placing::{Cursor, DeleteButton, Thing, place_at_cursor};
use super::reload::Watch;
use super::session::{Game, Session, finish_level};
use super::{Content, Screen};
use crate::autopilot::Autopilot;
use crate::battle::Phase;
use crate::content::BlueprintKind;
use crate::run::RunConfig;
use crate::worldgen::Pos;

/// The run seed of the scene.
pub const SEED: u64 = 7;
/// How many towers the scene places.
const TOWERS: usize = 3;
/// Seconds a step may wait for what it waits for (a wave's end, a reload) before the scene fails.
const PATIENCE: f32 = 240.0;

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
            terrain: None,
            pilot: Autopilot::new(),
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
    /// What the steps saw, for `hud.txt`.
    seen: Vec<String>,
    /// A number a step remembers for the next (a tick, a count).
    mark: u64,
    /// The materials before a deletion.
    materials: f64,
    /// The level's terrain file and what it said before the scene edited it.
    terrain: Option<(PathBuf, String)>,
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

fn play(
    mut commands: Commands,
    mut script: ResMut<Script>,
    time: Res<Time>,
    content: Res<Content>,
    mut game: NonSendMut<Game>,
    mut cursor: ResMut<Cursor>,
    mut next: ResMut<NextState<Screen>>,
    screen: Res<State<Screen>>,
    watch: Option<Res<Watch>>,
    texts: Query<(&HudText, &Text)>,
    bars: Query<(), With<TopBar>>,
    buttons: Query<&Action>,
    delete: Query<&Node, With<DeleteButton>>,
    mut exit: MessageWriter<AppExit>,
) {
    script.waited += time.delta_secs();
    let waited = script.waited;
    if waited > PATIENCE {
        let why = format!("step {} waited {PATIENCE} s for what it needs", script.step);
        return fail(&script, &mut exit, &why);
    }
    let step = script.step;
    // Steps before the run starts and after the level ends have no battle.
    if (2..=25).contains(&step) && game.0.is_none() {
        return fail(&script, &mut exit, "the battle is gone");
    }
    let mut advance = true;
    match step {
        0 if waited > 2.0 => script.shoot(&mut commands, "01-menu.png"),
        1 if waited > 1.0 => {
            let config = RunConfig {
                seed: SEED,
                starting_blueprints: None,
            };
            if let Err(e) = start_run(&mut game, &content, config, &mut next) {
                return fail(&script, &mut exit, &e.to_string());
            }
        }
        2 if waited > 4.0 && *screen.get() == Screen::Battle => {
            script.shoot(&mut commands, "02-battle.png");
        }
        3 if waited > 1.0 => {
            let session = game.0.as_mut().expect("checked above");
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
        6 if waited > 1.5 => script.shoot(&mut commands, "04-refused.png"),
        // The first wave, at 2× through the HUD's buttons.
        7 if waited > 1.0 => {
            let session = game.0.as_mut().expect("checked above");
            let towers = count_towers(session);
            script.saw(format!("placed towers: {towers}"));
            session.selection.blueprint = None;
            cursor.point = None;
            battle_action(&Action::StartWave, session, Screen::Battle);
            battle_action(&Action::Speed, session, Screen::Battle);
        }
        // Pause in the middle of the wave: the clock must stand still.
        8 if waited > 4.0 => {
            let session = game.0.as_mut().expect("checked above");
            if session.battle.phase() != Phase::Wave {
                return fail(&script, &mut exit, "the first wave did not start");
            }
            battle_action(&Action::Pause, session, Screen::Battle);
            script.mark = session.battle.tick();
        }
        9 if waited > 2.0 => {
            let session = game.0.as_mut().expect("checked above");
            let (before, now) = (script.mark, session.battle.tick());
            if before != now {
                return fail(&script, &mut exit, "the clock ran while paused");
            }
            script.saw(format!("paused: the clock stood at tick {now} for 2 s"));
            battle_action(&Action::Pause, session, Screen::Battle);
        }
        10 => {
            let session = game.0.as_mut().expect("checked above");
            advance = session.battle.phase() == Phase::Build;
            if session.battle.phase() == Phase::Lost {
                return fail(&script, &mut exit, "the first wave was lost");
            }
            if advance {
                script.saw(format!("wave 1 over at tick {}", session.battle.tick()));
            }
        }
        // Select a tower and press the info panel's Delete: it goes (the thesis refunds nothing:
        // deleting makes room for other buildings).
        11 if waited > 1.0 => {
            let session = game.0.as_mut().expect("checked above");
            let Some(id) = session
                .battle
                .entities()
                .find(|(_, e)| e.tower.is_some())
                .map(|(id, _)| id)
            else {
                return fail(&script, &mut exit, "no tower to delete");
            };
            script.mark = count_towers(session) as u64;
            script.materials = session.battle.player().materials;
            session.selection.thing = Some(Thing::Entity(id));
        }
        // The info panel offers its Delete button for the selected tower; press it.
        12 => {
            advance = delete.iter().any(|node| node.display != Display::None);
            if advance {
                script.saw("the info panel offers Delete for the selected tower".into());
                let session = game.0.as_mut().expect("checked above");
                battle_action(&Action::Delete, session, Screen::Battle);
            }
        }
        // The removal runs at the next tick.
        13 if waited > 0.5 => {
            let session = game.0.as_mut().expect("checked above");
            let (after, refunded) = (count_towers(session), session.battle.player().materials);
            if after as u64 + 1 != script.mark {
                return fail(&script, &mut exit, "Delete did not remove the tower");
            }
            let seen = format!(
                "deleted a tower: towers {} -> {after}, materials {:.0} -> {refunded:.0}",
                script.mark, script.materials
            );
            script.saw(seen);
        }
        // Save the level's terrain file with other colours: the world is rebuilt.
        14 if waited > 1.0 => {
            let session = game.0.as_mut().expect("checked above");
            let Some(world) = session.battle.field().map(|f| f.world().terrain.clone()) else {
                return fail(&script, &mut exit, "the battle has no world");
            };
            let Some(path) = content.db.terrain_file(&world).map(PathBuf::from) else {
                return fail(&script, &mut exit, "the level's terrain type has no file");
            };
            let source = match std::fs::read_to_string(&path) {
                Ok(s) => s,
                Err(e) => return fail(&script, &mut exit, &format!("{}: {e}", path.display())),
            };
            if let Err(e) = std::fs::write(&path, recoloured(&source)) {
                return fail(&script, &mut exit, &format!("{}: {e}", path.display()));
            }
            script.mark = first_colour(session, &content).map_or(0, rgb_number);
            script.saw(format!("edited {}", path.display()));
            script.terrain = Some((path, source));
        }
        15 => {
            let session = game.0.as_mut().expect("checked above");
            let now = first_colour(session, &content).map_or(0, rgb_number);
            advance = now != script.mark;
            if advance {
                let seen = format!(
                    "terrain reloaded: first tile colour {:06x} -> {now:06x}",
                    script.mark
                );
                script.saw(seen);
            }
        }
        16 if waited > 2.0 => script.shoot(&mut commands, "05-reloaded.png"),
        // Save a broken terrain file: its error shows and the world stays as it was.
        17 => {
            let session = game.0.as_mut().expect("checked above");
            let Some((path, _)) = script.terrain.clone() else {
                return fail(&script, &mut exit, "the terrain file is unknown");
            };
            let edited = std::fs::read_to_string(&path).unwrap_or_default();
            let broken = edited.replacen("max_height", "max_height_typo", 1);
            if let Err(e) = std::fs::write(&path, broken) {
                return fail(&script, &mut exit, &format!("{}: {e}", path.display()));
            }
            script.mark = first_colour(session, &content).map_or(0, rgb_number);
        }
        18 => {
            let problems = watch
                .as_ref()
                .map(|w| w.problems.clone())
                .unwrap_or_default();
            advance = !problems.is_empty();
            if advance {
                let session = game.0.as_mut().expect("checked above");
                let now = first_colour(session, &content).map_or(0, rgb_number);
                if now != script.mark {
                    return fail(&script, &mut exit, "the broken file changed the world");
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
        19 if waited > 2.0 => script.shoot(&mut commands, "06-broken.png"),
        // Put the original back; the overlay goes.
        20 => {
            if let Some((path, source)) = &script.terrain
                && let Err(e) = std::fs::write(path, source)
            {
                let why = format!("{}: {e}", path.display());
                return fail(&script, &mut exit, &why);
            }
        }
        21 => {
            advance = watch.as_ref().is_none_or(|w| w.problems.is_empty());
            if advance {
                script.saw("terrain file restored: the overlay is gone".into());
            }
        }
        // The second wave, with an ability thrown at the attacker farthest along.
        22 if waited > 2.0 => {
            let session = game.0.as_mut().expect("checked above");
            battle_action(&Action::StartWave, session, Screen::Battle);
        }
        23 if waited > 5.0 => {
            let session = game.0.as_mut().expect("checked above");
            let ability = shown_blueprints(&session.battle)
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
        24 if waited > 0.5 => {
            let session = game.0.as_mut().expect("checked above");
            let energy = session.battle.player().energy;
            let Some(ability) = session.selection.blueprint else {
                return fail(&script, &mut exit, "the ability did not stay selected");
            };
            if energy.round() as u64 >= script.mark {
                let why = session.notices.last().map_or("", |n| n.text.as_str());
                let why = format!("the ability was not used: {why}");
                return fail(&script, &mut exit, &why);
            }
            let name = session.battle.content().blueprint(ability).name.clone();
            let seen = format!(
                "ability {name} used in wave 2: energy {} -> {energy:.0}, still selected",
                script.mark
            );
            script.saw(seen);
        }
        25 if waited > 0.5 => {
            script.shoot(&mut commands, "07-wave.png");
            let lines = hud_lines(&texts, &bars);
            script.seen.extend(lines);
        }
        // The autopilot plays the rest of the level at 2×, then Continue.
        26 => {
            let Some(session) = game.0.as_mut() else {
                return fail(&script, &mut exit, "the battle is gone");
            };
            session.selection.blueprint = None;
            cursor.point = None;
            match session.battle.phase() {
                Phase::Won => {
                    let wave = session.battle.wave();
                    script.saw(format!("level won after wave {wave}"));
                }
                Phase::Lost => return fail(&script, &mut exit, "the level was lost"),
                _ => {
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
        27 if waited > 2.0 => script.shoot(&mut commands, "08-won.png"),
        28 if waited > 1.0 => {
            let session = game.0.as_mut().expect("the level just ended");
            finish_level(session, &content, &mut next);
        }
        29 if waited > 2.0 && *screen.get() == Screen::Reward => {
            let offers = buttons
                .iter()
                .filter(|a| matches!(a, Action::Offer(_)))
                .count();
            script.saw(format!("reward screen: {offers} offers"));
            script.shoot(&mut commands, "09-reward.png");
        }
        30 if waited > 0.5 => {
            let text = script.seen.join("\n") + "\n";
            if let Err(e) = std::fs::write(script.dir.join("hud.txt"), text) {
                return fail(&script, &mut exit, &e.to_string());
            }
        }
        // Screenshots are saved a few frames after they are asked for.
        31 => {
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

fn count_towers(session: &Session) -> usize {
    session
        .battle
        .entities()
        .filter(|(_, e)| e.tower.is_some())
        .count()
}

fn rgb_number([r, g, b]: [u8; 3]) -> u64 {
    (u64::from(r) << 16) | (u64::from(g) << 8) | u64::from(b)
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
