//! Playing whole levels and runs headless with the autopilot, and what they came to.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::rewards::take_augment;
use super::route::{choose_event, choose_purchase, choose_room};
use super::{Autopilot, choose_reward};
use rampart_core::battle::{Battle, EntityKind, Phase};
use rampart_core::content::{Behaviour, ContentDb};
use rampart_core::run::{LevelPlan, Run, RunConfig, RunError, RunPhase};

/// A wave still running after this many ticks (20 minutes of game time) is taken as stuck.
pub const MAX_WAVE_TICKS: u64 = 20 * 60 * rampart_core::TICKS_PER_SECOND;

/// How a level ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LevelResult {
    /// The fuel goal was reached.
    Won,
    /// The hull ran out.
    Lost,
    /// Neither, and nothing moves it on: no wave left to start, or a wave that never ends.
    Stalled,
}

/// One level of a simulated run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LevelReport {
    /// The level number.
    pub level: u32,
    /// The act it was played in.
    pub act: u32,
    /// Its room's kind: `battle`, `elite` or `boss`.
    pub kind: String,
    /// The terrain type.
    pub terrain: String,
    /// How many paths.
    pub paths: usize,
    /// How it ended.
    pub result: LevelResult,
    /// Waves the level has.
    pub waves: u32,
    /// Waves finished with hull left.
    pub waves_survived: u32,
    /// Hull at the end.
    pub hull: f64,
    /// Fuel gathered.
    pub fuel: f64,
    /// Fuel needed.
    pub fuel_goal: f64,
    /// Materials left.
    pub materials: f64,
    /// Towers standing at the end.
    pub towers: u32,
    /// Other buildings standing at the end (the Hub not counted).
    pub buildings: u32,
    /// Ticks played.
    pub ticks: u64,
    /// The battle's final state hash, 16 hex digits.
    pub state_hash: String,
    /// The blueprint taken as the reward, if any.
    pub reward: Option<String>,
}

/// A simulated run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// The run seed.
    pub seed: u64,
    /// The ascension level it was played at.
    pub ascension: u32,
    /// Whether the last act's boss was beaten.
    pub won: bool,
    /// The act reached.
    pub acts_reached: u32,
    /// Acts whose boss was beaten.
    pub acts_won: u32,
    /// Rooms entered over the run, start rooms not counted.
    pub rooms: u32,
    /// Money at the end.
    pub money: u32,
    /// Money spent in shops and events.
    pub money_spent: u32,
    /// The highest level played.
    pub levels_reached: u32,
    /// Levels won.
    pub levels_won: u32,
    /// How the last level played ended.
    pub result: LevelResult,
    /// Hull at the end.
    pub hull: f64,
    /// The collection at the end.
    pub collection: Vec<String>,
    /// Every level played.
    pub levels: Vec<LevelReport>,
}

/// Plays a battle to its end with a new autopilot.
pub fn play_level(battle: &mut Battle) -> LevelResult {
    play_level_with(battle, Autopilot::new())
}

/// Plays a battle to its end with `pilot`, a bot new to this battle.
pub fn play_level_with(battle: &mut Battle, mut pilot: Autopilot) -> LevelResult {
    let mut wave_start = battle.tick();
    loop {
        match battle.phase() {
            Phase::Won => return LevelResult::Won,
            Phase::Lost => return LevelResult::Lost,
            Phase::Build => {
                if !pilot.act(battle) {
                    return LevelResult::Stalled;
                }
                wave_start = battle.tick();
            }
            Phase::Wave => {
                if battle.tick() - wave_start > MAX_WAVE_TICKS {
                    return LevelResult::Stalled;
                }
                pilot.act(battle);
            }
        }
        battle.step();
    }
}

/// Plays a run with the autopilot — rooms chosen, shops used, events decided, battles played —
/// until it is won or lost, or `max_levels` battles were played. `on_level` sees every level's
/// plan and finished battle (to record it, say).
pub fn play_run(
    content: &Arc<ContentDb>,
    config: RunConfig,
    max_levels: u32,
    on_level: impl FnMut(&LevelPlan, &Battle),
) -> Result<RunReport, RunError> {
    play_run_with(content, config, max_levels, |_| {}, on_level)
}

/// [`play_run`], with `on_start` seeing every battle before it is played (to switch on the
/// timing of its scripts, say).
pub fn play_run_with(
    content: &Arc<ContentDb>,
    config: RunConfig,
    max_levels: u32,
    mut on_start: impl FnMut(&mut Battle),
    mut on_level: impl FnMut(&LevelPlan, &Battle),
) -> Result<RunReport, RunError> {
    let ascension = config.ascension;
    let mut run = Run::new(content, config)?;
    let mut levels: Vec<LevelReport> = Vec::new();
    let mut result = LevelResult::Won;
    let (mut rooms, mut acts_won, mut spent) = (0, 0, 0);
    // Whether the reward being chosen was won in the last battle (not given by an event).
    let mut battle_reward = false;
    loop {
        let money = run.money();
        match run.phase().clone() {
            RunPhase::Map => {
                let Some(room) = choose_room(content, &run) else {
                    break;
                };
                run.enter(content, room)?;
                rooms += 1;
            }
            RunPhase::Battle => {
                if levels.len() as u32 >= max_levels {
                    break;
                }
                let plan = run.plan(content)?;
                let kind = run.map().node(run.map().current()).map(|n| n.kind.name());
                let mut battle = plan.start(content)?;
                on_start(&mut battle);
                result = play_level(&mut battle);
                on_level(&plan, &battle);
                let mut level = report(&plan, &battle, result);
                level.act = run.act();
                level.kind = kind.unwrap_or("battle").to_string();
                levels.push(level);
                if result == LevelResult::Stalled {
                    break;
                }
                run.finish_battle(&battle);
                battle_reward = true;
                if kind == Some("boss") && result == LevelResult::Won {
                    acts_won += 1;
                }
            }
            RunPhase::Reward { .. } if take_augment(content, &run) => {
                run.take_reward_augment(content)?;
                battle_reward = false;
            }
            RunPhase::Reward { offers, .. } => {
                let (offer, replace) = choose_reward(content, &run);
                run.choose_reward(content, offer, replace)?;
                if let (Some(last), Some(i), true) = (levels.last_mut(), offer, battle_reward) {
                    last.reward = Some(offers[i].clone());
                }
                battle_reward = false;
            }
            RunPhase::Shop(_) => match choose_purchase(content, &run) {
                Some((offer, slot)) => run.buy(content, offer, slot)?,
                None => run.leave_shop()?,
            },
            RunPhase::Event(_) => {
                let choice = choose_event(content, &run).unwrap_or(0);
                run.choose_event(content, choice)?;
                battle_reward = false;
            }
            RunPhase::Over { .. } | RunPhase::Won { .. } => break,
        }
        spent += money.saturating_sub(run.money());
    }
    Ok(RunReport {
        seed: run.seed(),
        ascension,
        won: matches!(run.phase(), RunPhase::Won { .. }),
        acts_reached: run.act(),
        acts_won,
        rooms,
        money: run.money(),
        money_spent: spent,
        levels_reached: levels.last().map_or(0, |l| l.level),
        levels_won: levels
            .iter()
            .filter(|l| l.result == LevelResult::Won)
            .count() as u32,
        result,
        hull: run.hull(),
        collection: run.collection().to_vec(),
        levels,
    })
}

fn report(plan: &LevelPlan, battle: &Battle, result: LevelResult) -> LevelReport {
    let content = battle.content();
    let (mut towers, mut buildings) = (0, 0);
    for (id, e) in battle.entities() {
        if let EntityKind::Building(bp) = e.kind
            && Some(id) != battle.state().hub
        {
            match content.blueprint(bp).behaviour {
                Some(Behaviour::Shooter(_)) => towers += 1,
                _ => buildings += 1,
            }
        }
    }
    let p = battle.player();
    let finished = match battle.phase() {
        Phase::Wave | Phase::Lost => battle.wave().saturating_sub(1),
        Phase::Build | Phase::Won => battle.wave(),
    };
    LevelReport {
        level: plan.level,
        act: 1,
        kind: "battle".into(),
        terrain: plan.setup.world.terrain().to_string(),
        paths: plan.waves.paths,
        result,
        waves: plan.waves.waves.len() as u32,
        waves_survived: finished,
        hull: p.hull,
        fuel: p.fuel,
        fuel_goal: p.fuel_goal,
        materials: p.materials,
        towers,
        buildings,
        ticks: battle.tick(),
        state_hash: format!("{:016x}", battle.state_hash()),
        reward: None,
    }
}
