//! A level's difficulty, measured: the autopilot plays the level on several seeds, and each play
//! scores 1 when lost and the share of hull lost when won.
//!
//! Why this measure: it is 0 for a level won without a scratch and 1 for one always lost, it
//! rises with the loss rate (every loss weighs more than any win) and, where every play is won,
//! it still tells an easy level from a close one by the hull the bot had to give up. It is the
//! mean of independent plays, so its standard error is the plays' standard deviation over √K.

use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use rampart_autopilot::{Autopilot, LevelResult, play_level_with};
use rampart_core::content::{ContentDb, LevelDesign};
use rampart_core::run::{LevelSpec, Player, RunError, starting_collection};

/// The share of its materials the frugal bot spends per build phase.
pub const FRUGAL_BUDGET: f64 = 0.75;

/// Which bot plays the level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Bot {
    /// The autopilot, spending all it has.
    #[default]
    Autopilot,
    /// The autopilot keeping half its materials back each build phase: a weaker player.
    Frugal,
}

impl Bot {
    fn pilot(self) -> Autopilot {
        match self {
            Bot::Autopilot => Autopilot::new(),
            Bot::Frugal => Autopilot::with_budget(FRUGAL_BUDGET),
        }
    }
}

/// One play of a level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Play {
    /// The run seed it was played with (world, waves and battle branch from it).
    pub seed: u64,
    /// How it ended.
    pub result: LevelResult,
    /// The share of the starting hull lost.
    pub hull_lost: f64,
    /// 1 unless won; when won, `hull_lost`.
    pub score: f64,
}

/// A level's measured difficulty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The mean score of the plays, in [0, 1].
    pub difficulty: f64,
    /// Its standard error.
    pub std_error: f64,
    /// The bot that played.
    pub bot: Bot,
    /// Plays won.
    pub won: usize,
    /// Every play, by seed.
    pub plays: Vec<Play>,
}

impl Rating {
    /// The rating of these plays.
    pub fn of(bot: Bot, plays: Vec<Play>) -> Rating {
        let n = plays.len().max(1) as f64;
        let mean = plays.iter().map(|p| p.score).sum::<f64>() / n;
        let variance = match plays.len() {
            0 | 1 => 0.0,
            k => {
                plays
                    .iter()
                    .map(|p| (p.score - mean) * (p.score - mean))
                    .sum::<f64>()
                    / (k - 1) as f64
            }
        };
        Rating {
            difficulty: mean,
            std_error: (variance / n).sqrt(),
            bot,
            won: plays
                .iter()
                .filter(|p| p.result == LevelResult::Won)
                .count(),
            plays,
        }
    }
}

/// Plays `design` with `bot` once for each run seed in `seeds` and rates it.
pub fn rate(
    content: &Arc<ContentDb>,
    design: &LevelDesign,
    bot: Bot,
    seeds: Range<u64>,
) -> Result<Rating, RunError> {
    rate_many(content, std::slice::from_ref(design), bot, seeds)
        .pop()
        .expect("one rating per design")
}

/// Rates every design of `designs` on the same seeds; all their plays share the thread pool.
pub fn rate_many(
    content: &Arc<ContentDb>,
    designs: &[LevelDesign],
    bot: Bot,
    seeds: Range<u64>,
) -> Vec<Result<Rating, RunError>> {
    let games: Vec<(usize, u64)> = (0..designs.len())
        .flat_map(|d| seeds.clone().map(move |s| (d, s)))
        .collect();
    let mut played: Vec<Result<Play, RunError>> = games
        .par_iter()
        .map(|&(d, seed)| {
            let design = &designs[d];
            let collection = design.collection.clone();
            play(
                content,
                LevelSpec::of_design(content, design)?,
                collection,
                bot,
                seed,
            )
        })
        .collect();
    let per_design = seeds.end.saturating_sub(seeds.start) as usize;
    let mut ratings = Vec::with_capacity(designs.len());
    for _ in designs {
        let rest = played.split_off(per_design.min(played.len()));
        let plays: Result<Vec<Play>, RunError> = played.into_iter().collect();
        ratings.push(plays.map(|p| Rating::of(bot, p)));
        played = rest;
    }
    ratings
}

/// Rates level `level` as the level setter's rules make it for each run seed of `seeds` (its
/// designs left aside): terrain type and attacker types drawn anew with every seed, as runs
/// meet the level.
pub fn rate_setter(
    content: &Arc<ContentDb>,
    level: u32,
    bot: Bot,
    seeds: Range<u64>,
) -> Result<Rating, RunError> {
    let seeds: Vec<u64> = seeds.collect();
    let plays = seeds
        .par_iter()
        .map(|&seed| {
            play(
                content,
                LevelSpec::drawn(content, seed, level)?,
                None,
                bot,
                seed,
            )
        })
        .collect::<Result<Vec<Play>, RunError>>()?;
    Ok(Rating::of(bot, plays))
}

/// One play of `spec` by `bot` with run seed `seed`, from the setter's starting hull, with
/// `collection` (by default the game's starting blueprints).
fn play(
    content: &Arc<ContentDb>,
    spec: LevelSpec,
    collection: Option<Vec<String>>,
    bot: Bot,
    seed: u64,
) -> Result<Play, RunError> {
    let setter = rampart_core::run::setter::setter(content)?;
    let player = Player {
        collection: collection.unwrap_or_else(|| starting_collection(content)),
        hull: setter.hull,
        materials: spec.materials,
        ..Player::default()
    };
    let plan = spec.plan(content, seed, player)?;
    let mut battle = plan.start(content)?;
    let result = play_level_with(&mut battle, bot.pilot());
    let hull_lost = ((setter.hull - battle.player().hull) / setter.hull).clamp(0.0, 1.0);
    Ok(Play {
        seed,
        result,
        hull_lost,
        score: match result {
            LevelResult::Won => hull_lost,
            LevelResult::Lost | LevelResult::Stalled => 1.0,
        },
    })
}
