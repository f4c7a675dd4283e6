//! The run being played and its current battle, and the clock that drives the battle: 20 ticks
//! per second of game time at 1× or 2×, paused or not. Speed only changes how many ticks run per
//! frame, never what a tick does, so the result is the same at every speed.

use std::collections::HashMap;
use std::sync::Arc;

use bevy::prelude::*;

use super::placing::Selection;
use super::{Content, Screen};
use crate::TICKS_PER_SECOND;
use crate::battle::{Battle, EntityId, Phase, PlayerCommand, Position};
use crate::content::ContentDb;
use crate::run::{LevelPlan, Run, RunConfig, RunError, RunPhase};

/// The most ticks one frame runs, so a slow frame does not snowball into slower ones.
const MAX_TICKS_PER_FRAME: u32 = 8;

/// The session being played, if any. Kept on the main thread: a battle holds its scripts' Lua
/// state, which never leaves the thread that made it.
#[derive(Default)]
pub struct Game(pub Option<Session>);

/// The run and the battle of its current level.
pub struct Session {
    /// The run.
    pub run: Run,
    /// What the current level was built from.
    pub plan: LevelPlan,
    /// The current level's battle.
    pub battle: Battle,
    /// Game speed: 1 or 2.
    pub speed: u32,
    /// Whether the clock stands still.
    pub paused: bool,
    /// Game time not yet turned into ticks, in seconds.
    carry: f32,
    /// Where each entity stood before the last tick, for drawing in between.
    before: HashMap<EntityId, Position>,
    /// Short messages for the player (placement refused, reload applied), newest last.
    pub notices: Vec<Notice>,
    /// What the player has selected.
    pub selection: Selection,
    /// Whether the settings (pause) screen is open.
    pub settings_open: bool,
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
    /// Starts a run and its first level.
    pub fn start(content: &Arc<ContentDb>, config: RunConfig) -> Result<Session, RunError> {
        let run = Run::new(content, config)?;
        let plan = run.plan(content)?;
        let battle = plan.start(content)?;
        Ok(Session {
            run,
            plan,
            battle,
            speed: 1,
            paused: false,
            carry: 0.0,
            before: HashMap::new(),
            notices: Vec::new(),
            selection: Selection::default(),
            settings_open: false,
        })
    }

    /// Starts the run's current level (after a reward was chosen).
    pub fn next_level(&mut self, content: &Arc<ContentDb>) -> Result<(), RunError> {
        self.plan = self.run.plan(content)?;
        self.battle = self.plan.start(content)?;
        self.before.clear();
        self.carry = 0.0;
        self.paused = false;
        self.selection = Selection::default();
        Ok(())
    }

    /// How far the clock is between the last tick and the next, 0 to 1.
    pub fn between_ticks(&self) -> f32 {
        (self.carry * TICKS_PER_SECOND as f32).clamp(0.0, 1.0)
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

    /// Runs one tick, remembering where everything stood before it.
    fn step(&mut self) {
        self.before = self
            .battle
            .entities()
            .map(|(id, e)| (id, e.position))
            .collect();
        self.battle.step();
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

    /// Runs the ticks that `seconds` of real time make at the current speed.
    fn advance(&mut self, seconds: f32) {
        if self.paused || matches!(self.battle.phase(), Phase::Won | Phase::Lost) {
            return;
        }
        let tick = 1.0 / TICKS_PER_SECOND as f32;
        self.carry += seconds * self.speed as f32;
        let mut ran = 0;
        while self.carry >= tick && ran < MAX_TICKS_PER_FRAME * self.speed {
            self.step();
            self.carry -= tick;
            ran += 1;
        }
        self.carry = self.carry.min(tick);
    }
}

/// Runs the battle clock and what follows a finished level.
pub struct SessionPlugin;

impl Plugin for SessionPlugin {
    fn build(&self, app: &mut App) {
        app.insert_non_send(Game::default())
            .add_systems(Update, (tick, age_notices).run_if(in_state(Screen::Battle)));
    }
}

fn tick(mut game: NonSendMut<Game>, time: Res<Time>) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let dt = time.delta_secs();
    session.advance(dt);
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

/// Takes the finished battle into the run and moves to the reward screen, the next level or
/// back to the menu.
pub fn finish_level(session: &mut Session, content: &Content, next: &mut NextState<Screen>) {
    session.run.finish_battle(&session.battle);
    match session.run.phase().clone() {
        RunPhase::Reward { .. } => next.set(Screen::Reward),
        RunPhase::Battle => match session.next_level(&content.db) {
            Ok(()) => next.set(Screen::Battle),
            Err(e) => {
                session.notify(format!("the next level cannot start: {e}"));
                next.set(Screen::Menu);
            }
        },
        RunPhase::Over { .. } => next.set(Screen::Menu),
    }
}
