//! The run being played and its current battle, entering the map's rooms and taking a finished
//! battle into the run, and the clock that drives the battle: 20 ticks per second of game time
//! at 1× or 2×, paused or not. Speed only changes how many ticks run per frame, never what a tick
//! does, so the result is the same at every speed. The clock follows Bevy's virtual time, which
//! this plugin lets run up to a second a frame: a slow frame (a software renderer draws a few a
//! second) runs the ticks it owes, within a budget of wall time, so the battle keeps its 20 ticks
//! a second whenever the simulation itself can, and everything else timed by that clock
//! (animations, notices, the render test's script) keeps in step with the battle.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use bevy::prelude::*;

use super::camera::CameraView;
use super::input::Layers;
use super::{ClientSet, Screen};
use rampart_core::TICKS_PER_SECOND;
use rampart_core::battle::{
    Battle, EntityId, EntityKind, LogEntry, LogKind, Phase, PlayerCommand, Position, Resource,
};
use rampart_core::content::acts::NodeKind;
use rampart_core::content::{BlueprintId, BlueprintKind, ContentDb};
use rampart_core::mapgen::NodeId;
use rampart_core::run::{LevelPlan, Run, RunConfig, RunError, RunPhase};
use rampart_core::worldgen::{Pos, World};

/// The most game time one frame catches up, in seconds at 1× (times the speed): longer frames
/// (a stall, a window dragged) slow the clock rather than jump the battle ahead. Bevy's default
/// is a quarter of a second, which slowed the battle on a renderer drawing under four frames a
/// second.
const MAX_CATCH_UP: Duration = Duration::from_secs(1);

/// The wall time one frame may spend on ticks. When ticks themselves are slow, running all that
/// is owed would make the next frame slower still and snowball; past this budget the rest of
/// the owed time is dropped and the clock runs slow instead.
const TICK_BUDGET: Duration = Duration::from_millis(120);

/// The session being played, if any. Kept on the main thread: a battle holds its scripts' Lua
/// state, which never leaves the thread that made it.
#[derive(Default)]
pub struct Game(pub Option<Session>);

impl Game {
    /// The world of the battle being played: none without a session or before its battle has a
    /// field.
    pub fn world(&self) -> Option<&Arc<World>> {
        Some(self.0.as_ref()?.battle.field()?.world())
    }
}

/// The run, and the level and battle of its current battle (on the map, the next battle's, not
/// played yet).
pub struct Session {
    /// The run.
    pub run: Run,
    /// What the current level was built from.
    pub plan: LevelPlan,
    /// The current level's battle.
    pub battle: Battle,
    /// Game speed: 1 or 2 (the scripted scene plays a level out at more).
    pub speed: u32,
    /// Whether the clock stands still.
    pub paused: bool,
    /// Game time not yet turned into ticks, in ticks (whole seconds of it stay exact).
    carry: f32,
    /// Where each entity stood before the last tick, for drawing in between.
    before: HashMap<EntityId, Position>,
    /// Short messages for the player (placement refused, reload applied), newest last.
    pub notices: Vec<Notice>,
    /// What the player has selected.
    pub selection: Selection,
    /// Where the camera of this level's battle looks, once it has framed the world: kept with
    /// the save, so that Continue looks from where the player left.
    pub camera: Option<CameraView>,
    /// Whether the list of script errors is open.
    pub problems_open: bool,
    /// What went wrong in mods' scripts this level, the same error once with a count.
    pub problems: Problems,
    /// What the battle logged since the last frame (drained once a frame, read by the
    /// presenting systems).
    pub frame_log: Vec<LogEntry>,
    /// What each building did this level, for the info panel.
    pub stats: BTreeMap<EntityId, Deeds>,
    /// Buildings placed and abilities used this level, by kind (tower, economic, special,
    /// ability), for the tutorial.
    pub placed: [u32; 4],
    /// Ticks run and the wall time they took since the debug overlay last took them.
    pub tick_time: (u32, Duration),
}

/// What a building has done this level (its damage is the battle's `damage_dealt`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Deeds {
    /// Attackers it dealt the fatal hit to.
    pub kills: u32,
    /// Fuel, materials and energy it produced.
    pub produced: [f64; 3],
}

/// Script errors and scripts switched off during a level, for the player (and the modder
/// watching). The same error is kept once, with how often it happened (the battle counts it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Problems {
    /// The problems in the order they first happened: what makes two the same, the text, the
    /// count.
    pub list: Vec<(String, String, u32)>,
}

impl Problems {
    /// Notes that the problem `key` saying `text` has happened `count` times; returns whether
    /// that is news (a new problem, or a new count).
    pub fn set(&mut self, key: String, text: String, count: u32) -> bool {
        match self.list.iter_mut().find(|(k, _, _)| *k == key) {
            Some((_, _, n)) if *n == count => false,
            Some((_, t, n)) => {
                *t = text;
                *n = count;
                true
            }
            None => {
                self.list.push((key, text, count));
                true
            }
        }
    }

    /// How many different problems there were.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether nothing went wrong.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The list as lines, a count after those that happened more than once.
    pub fn lines(&self) -> Vec<String> {
        self.list
            .iter()
            .map(|(_, text, n)| counted(text, *n))
            .collect()
    }
}

/// A problem's text with how often it happened, when more than once.
fn counted(text: &str, n: u32) -> String {
    match n {
        1 => text.to_string(),
        n => format!("{text} (x{n})"),
    }
}

/// What the player has selected.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selection {
    /// The blueprint about to be placed.
    pub blueprint: Option<BlueprintId>,
    /// Its quarter turns.
    pub rotation: u8,
    /// A tile or an entity of the world.
    pub thing: Option<Thing>,
}

/// Something in the world that can be hovered or selected.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Thing {
    /// A tile.
    Tile(Pos),
    /// A building, attacker or ability.
    Entity(EntityId),
}

/// The index of a blueprint kind in per-kind counts: tower, economic, special, ability.
pub fn kind_index(kind: BlueprintKind) -> usize {
    match kind {
        BlueprintKind::Tower => 0,
        BlueprintKind::Economic => 1,
        BlueprintKind::Special => 2,
        BlueprintKind::Ability => 3,
    }
}

/// A message shown for a few seconds.
#[derive(Clone, Debug)]
pub struct Notice {
    /// What it says.
    pub text: String,
    /// Seconds left on screen.
    pub ttl: f32,
}

impl Session {
    /// Starts a run: on act 1's map, with the next battle's level set up behind it (a session
    /// always has a level and a battle; this one is not played until a battle room is entered).
    pub fn start(content: &Arc<ContentDb>, config: RunConfig) -> Result<Session, RunError> {
        let run = Run::new(content, config)?;
        let plan = run.plan_of_level(content)?;
        let battle = plan.start(content)?;
        Ok(Session::resume(run, plan, battle))
    }

    /// A session of `run` whose current level is `plan`, its battle `battle` as it stands (a
    /// saved game brought back).
    pub fn resume(run: Run, plan: LevelPlan, battle: Battle) -> Session {
        Session {
            run,
            plan,
            battle,
            speed: 1,
            paused: false,
            carry: 0.0,
            before: HashMap::new(),
            notices: Vec::new(),
            selection: Selection::default(),
            camera: None,
            problems_open: false,
            problems: Problems::default(),
            frame_log: Vec::new(),
            stats: BTreeMap::new(),
            placed: [0; 4],
            tick_time: (0, Duration::ZERO),
        }
    }

    /// Starts the battle of the battle room the run has just entered.
    pub fn start_battle(&mut self, content: &Arc<ContentDb>) -> Result<(), RunError> {
        self.plan = self.run.plan(content)?;
        self.battle = self.plan.start(content)?;
        self.before.clear();
        self.carry = 0.0;
        self.paused = false;
        self.camera = None;
        self.selection = Selection::default();
        self.problems = Problems::default();
        self.frame_log.clear();
        self.stats.clear();
        self.placed = [0; 4];
        Ok(())
    }

    /// How far the clock is between the last tick and the next, 0 to 1.
    pub fn between_ticks(&self) -> f32 {
        self.carry.clamp(0.0, 1.0)
    }

    /// Where entity `id` is drawn now: between where it stood before the last tick and where
    /// it stands.
    pub fn drawn_at(&self, id: EntityId, now: Position) -> Position {
        let Some(before) = self.before.get(&id) else {
            return now;
        };
        // A jump (a split, a teleport) is drawn as one.
        if before.distance(now) > 1.5 {
            return now;
        }
        let t = f64::from(self.between_ticks());
        Position {
            x: before.x + (now.x - before.x) * t,
            y: before.y + (now.y - before.y) * t,
        }
    }

    /// The direction entity `id` moved in during the last tick, if it moved.
    pub fn heading(&self, id: EntityId, now: Position) -> Option<(f64, f64)> {
        let before = self.before.get(&id)?;
        let (dx, dy) = (now.x - before.x, now.y - before.y);
        (dx.hypot(dy) > 1e-6).then_some((dx, dy))
    }

    /// Submits a player command for the next tick. While paused that tick runs at once, so
    /// that placing and removing answer immediately.
    pub fn submit(&mut self, command: PlayerCommand) {
        self.battle.submit(command);
        if self.paused {
            self.step();
        }
    }

    /// Runs one tick, remembering where everything stood before it, and how long it took.
    fn step(&mut self) {
        self.before = self
            .battle
            .entities()
            .map(|(id, e)| (id, e.position))
            .collect();
        let started = Instant::now();
        self.battle.step();
        self.tick_time.0 += 1;
        self.tick_time.1 += started.elapsed();
    }

    /// Shows `text` to the player for a few seconds.
    pub fn notify(&mut self, text: impl Into<String>) {
        self.notices.push(Notice {
            text: text.into(),
            ttl: 5.0,
        });
        if self.notices.len() > 4 {
            self.notices.remove(0);
        }
    }

    /// Takes what the battle logged since the last frame, and its script errors: script errors
    /// and switched-off scripts become problems and notices (a repeated error updates its
    /// notice's count instead of adding one); the rest stays in `frame_log` for the presenting
    /// systems.
    pub fn take_log(&mut self) {
        self.frame_log = self.battle.drain_log();
        for entry in &self.frame_log {
            match entry.kind {
                LogKind::Killed {
                    killer: Some(killer),
                    ..
                } => self.stats.entry(killer).or_default().kills += 1,
                LogKind::Gained {
                    resource,
                    amount,
                    source: Some(source),
                } => {
                    let i = match resource {
                        Resource::Fuel => 0,
                        Resource::Materials => 1,
                        Resource::Energy => 2,
                    };
                    self.stats.entry(source).or_default().produced[i] += amount;
                }
                LogKind::Event {
                    chain: "ability_used",
                    ..
                } => self.placed[3] += 1,
                LogKind::Event {
                    chain: "building_placed",
                    entity: Some(id),
                } => {
                    if let Some(EntityKind::Building(b)) = self.battle.entity(id).map(|e| e.kind) {
                        self.placed[kind_index(self.battle.content().blueprint(b).kind)] += 1;
                    }
                }
                _ => {}
            }
        }
        // The battle logs an error once and counts its repeats, so the counts are read from it.
        let errors = self.battle.script_error_counts().iter().map(|r| {
            let text = format!("Script error {}", r.error);
            (r.error.to_string(), text, r.times)
        });
        let off = self.frame_log.iter().filter_map(|entry| match &entry.kind {
            LogKind::ScriptDisabled(off) => Some((
                format!("[{}] {} off", off.mod_id, off.file),
                format!(
                    "[{}] {} made too many script errors: it is off for this level",
                    off.mod_id, off.file
                ),
                1,
            )),
            _ => None,
        });
        let found: Vec<(String, String, u32)> = errors.chain(off).collect();
        for (key, text, count) in found {
            if !self.problems.set(key, text.clone(), count) {
                continue;
            }
            let shown = counted(&text, count);
            match self.notices.iter_mut().find(|n| n.text.starts_with(&text)) {
                Some(notice) => {
                    notice.text = shown;
                    notice.ttl = 5.0;
                }
                None => self.notify(shown),
            }
        }
    }

    /// Runs the ticks that `seconds` of game time make at the current speed, within the frame's
    /// bounds ([`MAX_CATCH_UP`], [`TICK_BUDGET`]); returns how many ran.
    fn advance(&mut self, seconds: f32) -> u32 {
        if self.paused || matches!(self.battle.phase(), Phase::Won | Phase::Lost) {
            return 0;
        }
        let speed = self.speed as f32;
        self.carry += seconds.min(MAX_CATCH_UP.as_secs_f32()) * speed * TICKS_PER_SECOND as f32;
        let started = Instant::now();
        let mut ran = 0;
        while self.carry >= 1.0 && started.elapsed() < TICK_BUDGET {
            self.step();
            self.carry -= 1.0;
            ran += 1;
        }
        self.carry = self.carry.min(1.0);
        ran
    }
}

/// Runs the battle clock and what follows a finished level.
pub struct SessionPlugin;

impl Plugin for SessionPlugin {
    fn build(&self, app: &mut App) {
        app.insert_non_send(Game::default())
            .add_systems(Startup, catch_up_slow_frames)
            .add_systems(
                Update,
                tick.in_set(ClientSet::Simulate)
                    .run_if(in_state(Screen::Battle)),
            )
            // Notices age on every screen: a shop's refusal goes as a battle's does.
            .add_systems(Update, age_notices.in_set(ClientSet::Simulate))
            .add_systems(Update, show_notices.in_set(ClientSet::Present));
    }
}

/// Lets the virtual clock run up to [`MAX_CATCH_UP`] a frame.
fn catch_up_slow_frames(mut time: ResMut<Time<Virtual>>) {
    time.set_max_delta(MAX_CATCH_UP);
}

fn tick(mut game: NonSendMut<Game>, time: Res<Time>, layers: Res<Layers>) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    // The clock stands while a screen lies over the battle (the pause screen, the settings).
    if layers.is_empty() {
        session.advance(time.delta_secs());
    }
    session.take_log();
    // An ability selected in a wave is not held into the build phase, when the menu no longer
    // shows it (nor a building into a wave).
    if let Some(b) = session.selection.blueprint
        && !shown_blueprints(session).contains(&b)
    {
        session.selection.blueprint = None;
    }
}

/// The blueprints the menu shows now: buildings between waves, abilities during a wave.
pub fn shown_blueprints(session: &Session) -> Vec<BlueprintId> {
    let battle = &session.battle;
    let wave = battle.phase() == Phase::Wave;
    battle
        .collection()
        .iter()
        .copied()
        .filter(|&b| battle.content().blueprint(b).kind.is_building() != wave)
        .collect()
}

fn age_notices(mut game: NonSendMut<Game>, time: Res<Time>) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let dt = time.delta_secs();
    session.notices.retain_mut(|n| {
        n.ttl -= dt;
        n.ttl > 0.0
    });
}

/// Takes the finished battle into the run and says which screen follows: the reward, the map
/// (nothing was left to offer), or the run's end.
pub fn finish_level(session: &mut Session) -> Screen {
    session.run.finish_battle(&session.battle);
    screen_of(session.run.phase())
}

/// The screen that shows where the run stands.
pub fn screen_of(phase: &RunPhase) -> Screen {
    match phase {
        RunPhase::Map => Screen::Map,
        RunPhase::Battle => Screen::Battle,
        RunPhase::Reward { .. } => Screen::Reward,
        RunPhase::Shop(_) => Screen::Shop,
        RunPhase::Event(_) => Screen::Event,
        RunPhase::Over { .. } | RunPhase::Won { .. } => Screen::RunEnd,
    }
}

/// Enters room `room` of the run's map and says which screen follows: a battle room's battle
/// starts; a shop or an event opens its screen; a rest (its hull is back at once) or an event
/// room without an event stays on the map, with a notice of what happened.
pub fn enter_room(
    session: &mut Session,
    content: &Arc<ContentDb>,
    room: NodeId,
) -> Result<Screen, RunError> {
    let hull = session.run.hull();
    session.run.enter(content, room)?;
    if *session.run.phase() == RunPhase::Battle {
        session.start_battle(content)?;
    }
    if *session.run.phase() == RunPhase::Map {
        let kind = session.run.map().node(room).map(|n| n.kind);
        let now = session.run.hull();
        session.notify(match kind {
            Some(NodeKind::Rest) => {
                format!(
                    "Rested: {:+.0} hull (hull {hull:.0} -> {now:.0})",
                    now - hull
                )
            }
            _ => "The room is empty: nothing happens here".into(),
        });
    }
    Ok(screen_of(session.run.phase()))
}

/// Marks a text that shows the session's notices on a screen around the battle (the HUD has its
/// own).
#[derive(Component)]
pub struct NoticeLine;

/// The session's notices, newest last, in every [`NoticeLine`].
fn show_notices(game: NonSend<Game>, mut lines: Query<&mut Text, With<NoticeLine>>) {
    let shown = game.0.as_ref().map_or(String::new(), |s| {
        let texts: Vec<&str> = s.notices.iter().map(|n| n.text.as_str()).collect();
        texts.join("\n")
    });
    for mut text in &mut lines {
        if text.0 != shown {
            text.0 = shown.clone();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};

    fn session() -> Session {
        let dirs = [ModDir {
            path: std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("mods"),
            origin: Origin::Game,
        }];
        let (db, _) = ContentDb::load(&ModSet::discover(&dirs, &ModSettings::default()));
        Session::start(&Arc::new(db), RunConfig::new(1)).unwrap()
    }

    #[test]
    fn a_slow_frame_runs_every_tick_it_owes_up_to_a_second() {
        let mut s = session();
        // One frame a second still plays 20 ticks a second (the bound of 8 a frame, or the
        // virtual clock's quarter second, would have played 8 or 5).
        assert_eq!(s.advance(1.0), TICKS_PER_SECOND as u32);
        assert_eq!(s.advance(0.25), TICKS_PER_SECOND as u32 / 4);
        // A stall of five seconds catches up one.
        assert_eq!(s.advance(5.0), TICKS_PER_SECOND as u32);
        s.speed = 2;
        assert_eq!(s.advance(0.5), TICKS_PER_SECOND as u32);
        s.paused = true;
        assert_eq!(s.advance(1.0), 0);
    }

    #[test]
    fn the_same_problem_is_kept_once_with_a_count() {
        let mut p = Problems::default();
        assert!(p.set("a:3".into(), "fails".into(), 1));
        assert!(p.set("b:9".into(), "other".into(), 1));
        assert!(!p.set("a:3".into(), "fails".into(), 1), "nothing new");
        assert!(p.set("a:3".into(), "fails".into(), 2));
        assert_eq!(p.len(), 2);
        assert_eq!(p.lines(), ["fails (x2)", "other"]);
    }
}
