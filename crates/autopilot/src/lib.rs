//! A deterministic bot that plays battles and runs through the player's interface only: it reads
//! the battle and submits [`PlayerCommand`]s, like the client does.
//!
//! It knows no blueprint or attacker by name. It sorts the collection by what the data says —
//! kind, behaviour, cost, damage, interval, range, production — through the same stat queries
//! the battle uses, so it plays whatever content is loaded:
//!
//! - **Between waves**, one command a tick: while the next wave looks stronger than the defence
//!   on some path (the thesis's model, [`estimate`]), the tower placement that adds the most
//!   damage where it is missing per material; otherwise an economic building that pays for itself
//!   in under half of the waves left; otherwise any tower that covers some path with what is
//!   left; then it starts the wave.
//! - **During a wave**, every few ticks: an area ability where it hurts at least two attackers'
//!   worth, or any attacker about to reach the Hub, or anything when energy is about to overflow.
//! - **After a won level**, the reward that improves its collection most ([`choose_reward`]).
//! - **On the run map**, a rest when the hull is low, a shop with money to spend, then battles,
//!   events, and the boss when nothing better is open ([`choose_room`]); in a shop a repair when
//!   low, else the best blueprint it can pay for ([`choose_purchase`]); at an event the choice
//!   whose outcomes are worth most ([`choose_event`]).
//!
//! `docs/runs.md` has the details and `docs/balance.md` how far it gets.

pub mod estimate;
mod play;
mod rewards;
mod route;

use std::collections::{BTreeMap, BTreeSet};

use rampart_core::battle::{
    Battle, EntityId, EntityKind, LogKind, Phase, PlayerCommand, Position, Route, SegmentCover,
    StatOf,
};
use rampart_core::content::{Behaviour, BlueprintId, BlueprintKind, Placement};
use rampart_core::waves::model::Tower;
use rampart_core::worldgen::Pos;

pub use play::{
    LevelReport, LevelResult, RunReport, play_level, play_level_with, play_run, play_run_with,
};
pub use rewards::choose_reward;
pub use route::{choose_event, choose_purchase, choose_room};

/// The autopilot builds until its capacity on each path is this many times the next wave's
/// value there: the model ignores misses, overkill and time spent turning, so it flatters.
pub const MARGIN: f64 = 1.6;
/// Ticks between two looks at a running wave (a fifth of a second).
const LOOK_EVERY: u64 = 4;
/// Buildings placed between two waves at most, so that a placement the battle keeps accepting
/// but undoing cannot hold the game up.
const MAX_BUILD_ACTIONS: u32 = 200;
/// An attacker this close to the Hub (tiles along the path) is worth an ability on its own.
const URGENT_DISTANCE: f64 = 3.0;

/// The bot. One per battle (it caches what it learned about the battle's world).
#[derive(Debug)]
pub struct Autopilot {
    /// The share of its materials it may spend between two waves ([`Autopilot::with_budget`]).
    budget: f64,
    /// Materials it keeps back in this build phase.
    reserve: Option<f64>,
    traffic: Option<Vec<Vec<f64>>>,
    covers: BTreeMap<(BlueprintId, Pos, u8), Vec<SegmentCover>>,
    far_from_path: Option<Vec<(i32, Pos)>>,
    /// Placements the battle refused (something the data did not tell): not tried again.
    refused: BTreeSet<(String, Pos)>,
    /// How much of the battle's log has been read.
    seen_log: usize,
    /// Commands given since the last wave ended.
    build_actions: u32,
}

/// An attacker as the autopilot sees it when aiming an ability.
struct Seen {
    position: Position,
    hp: f64,
    /// Path left to the Hub, tiles.
    remaining: f64,
    route: Option<Route>,
    /// Tiles walked per tick.
    step: f64,
}

/// A placement the autopilot considers.
struct Choice {
    blueprint: BlueprintId,
    tile: Pos,
    rotation: u8,
    score: f64,
}

impl Default for Autopilot {
    fn default() -> Self {
        Autopilot::new()
    }
}

impl Autopilot {
    /// A bot for a new battle.
    pub fn new() -> Autopilot {
        Autopilot::with_budget(1.0)
    }

    /// A weaker bot that spends at most `share` (0 to 1) of the materials it has at the start of
    /// each build phase and keeps the rest: the second bot that ratings are checked against.
    pub fn with_budget(share: f64) -> Autopilot {
        Autopilot {
            budget: share.clamp(0.0, 1.0),
            reserve: None,
            traffic: None,
            covers: BTreeMap::new(),
            far_from_path: None,
            refused: BTreeSet::new(),
            seen_log: 0,
            build_actions: 0,
        }
    }

    /// Looks at the battle and submits what it wants done at the next tick, if anything.
    /// Returns whether it submitted a command.
    pub fn act(&mut self, battle: &mut Battle) -> bool {
        self.read_log(battle);
        let command = match battle.phase() {
            Phase::Build if self.build_actions >= MAX_BUILD_ACTIONS => {
                Some(PlayerCommand::StartWave)
            }
            Phase::Build => self.build(battle),
            Phase::Wave if battle.tick().is_multiple_of(LOOK_EVERY) => self.use_ability(battle),
            _ => None,
        };
        match (battle.phase(), &command) {
            (Phase::Build, Some(PlayerCommand::StartWave)) => {
                self.build_actions = 0;
                self.reserve = None;
            }
            (Phase::Build, Some(_)) => self.build_actions += 1,
            _ => {}
        }
        match command {
            Some(c) => {
                battle.submit(c);
                true
            }
            None => false,
        }
    }

    /// Remembers the placements the battle refused since the last look.
    fn read_log(&mut self, battle: &Battle) {
        let log = battle.log();
        for entry in &log[self.seen_log.min(log.len())..] {
            if let LogKind::Refused {
                command:
                    PlayerCommand::Place {
                        blueprint,
                        position,
                        ..
                    },
                ..
            } = &entry.kind
            {
                let tile = Pos::new(position.x.round() as i32, position.y.round() as i32);
                self.refused.insert((blueprint.clone(), tile));
            }
        }
        self.seen_log = log.len();
    }

    /// What building `bp` costs, materials and energy together, if the battle would take the
    /// payment and it leaves the materials kept back in this build phase.
    fn affordable(&self, battle: &mut Battle, bp: BlueprintId) -> Option<f64> {
        let left = battle.player().materials - battle.cost(bp).materials;
        let price = affordable(battle, bp)?;
        (left >= self.reserve.unwrap_or(0.0)).then_some(price)
    }

    /// Whether `bp` may be tried on `tile`: the battle would take it there and never refused it.
    fn fits(&self, battle: &Battle, bp: BlueprintId, tile: Pos) -> bool {
        let id = &battle.content().blueprint(bp).id;
        battle.check_location(bp, centre(tile)).is_ok()
            && !self.refused.contains(&(id.clone(), tile))
    }

    /// The next command between waves: a building, or the next wave.
    fn build(&mut self, battle: &mut Battle) -> Option<PlayerCommand> {
        let budget = self.budget;
        self.reserve
            .get_or_insert_with(|| (1.0 - budget) * battle.player().materials);
        let next = battle.wave() as usize + 1;
        let wave = battle.config().start.waves.get(next - 1)?.clone();
        let traffic = self.traffic(battle).to_vec();
        let total = wave.spawns.len().max(1) as f64;
        let large = wave
            .spawns
            .iter()
            .filter(|s| {
                let c = battle.content();
                c.attacker_id(&s.attacker)
                    .is_some_and(|a| c.attacker(a).size != rampart_core::content::Size::Small)
            })
            .count() as f64
            / total;

        // The defence now, per path, as the model's towers.
        let mut towers: Vec<Vec<Tower>> = vec![Vec::new(); traffic.len()];
        let built: Vec<(EntityId, BlueprintId, Pos, u8)> = battle
            .entities()
            .filter_map(|(id, e)| match (e.kind, e.tile) {
                (EntityKind::Building(bp), Some(tile)) => Some((id, bp, tile, e.rotation)),
                _ => None,
            })
            .collect();
        for (id, bp, tile, rotation) in built {
            let Some(damage) = estimate::damage_rate(battle, bp, Some(id)) else {
                continue;
            };
            let covers = self.covers(battle, bp, tile, rotation).to_vec();
            for (p, l) in estimate::covered(&traffic, &covers, large)
                .into_iter()
                .enumerate()
            {
                towers[p].push(Tower {
                    damage,
                    coverage: l,
                });
            }
        }
        let deficits: Vec<f64> = (0..traffic.len())
            .map(|p| {
                let batches = estimate::batches(battle, &wave, p);
                let need = MARGIN * estimate::threat(&batches, &towers[p]);
                (need - rampart_core::waves::model::damage_capacity(&towers[p])).max(0.0)
            })
            .collect();

        let short = deficits.iter().any(|&d| d > 0.0);
        let tower = self.best_tower(battle, &traffic, &deficits, large, short);
        if short {
            if let Some(t) = tower {
                return Some(place(battle, &t));
            }
        } else if let Some(e) = self.best_economy(battle) {
            return Some(place(battle, &e));
        } else if let Some(t) = tower {
            return Some(place(battle, &t));
        }
        Some(PlayerCommand::StartWave)
    }

    /// The tower placement with the most useful damage per material: where the next wave is
    /// stronger than the defence (`only_deficit`), or anywhere.
    fn best_tower(
        &mut self,
        battle: &mut Battle,
        traffic: &[Vec<f64>],
        deficits: &[f64],
        large: f64,
        only_deficit: bool,
    ) -> Option<Choice> {
        let mut best: Option<Choice> = None;
        for bp in usable(battle, |k| k.is_building()) {
            let Some(damage) = estimate::damage_rate(battle, bp, None) else {
                continue;
            };
            let Some(price) = self.affordable(battle, bp) else {
                continue;
            };
            for tile in tiles(battle) {
                if !self.fits(battle, bp, tile) {
                    continue;
                }
                for rotation in rotations(battle, bp) {
                    let covers = self.covers(battle, bp, tile, rotation).to_vec();
                    let lengths = estimate::covered(traffic, &covers, large);
                    let fills: f64 = lengths
                        .iter()
                        .zip(deficits)
                        .map(|(l, d)| (damage * l).min(*d))
                        .sum();
                    let reach: f64 = lengths.iter().map(|l| damage * l).sum();
                    if reach <= 0.0 || only_deficit && fills <= 0.0 {
                        continue;
                    }
                    // Filling the gap counts fully; the rest helps later waves, at a quarter.
                    let score = (fills + 0.25 * reach) / price;
                    if best.as_ref().is_none_or(|b| score > b.score) {
                        best = Some(Choice {
                            blueprint: bp,
                            tile,
                            rotation,
                            score,
                        });
                    }
                }
            }
        }
        best
    }

    /// The economic building that pays for itself soonest, if it does so within half the waves
    /// the level still has, on the free tile farthest from the paths.
    fn best_economy(&mut self, battle: &mut Battle) -> Option<Choice> {
        let waves_left = waves_left(battle);
        let mut best: Option<(BlueprintId, f64)> = None;
        for bp in usable(battle, |k| k.is_building()) {
            if matches!(
                battle.content().blueprint(bp).behaviour,
                Some(Behaviour::Shooter(_))
            ) {
                continue;
            }
            let Some(price) = self.affordable(battle, bp) else {
                continue;
            };
            let per_wave = production(battle, bp, None);
            if per_wave <= 0.0 || price / per_wave > 0.5 * waves_left {
                continue;
            }
            let score = per_wave / price;
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((bp, score));
            }
        }
        let (bp, score) = best?;
        let far = self.far_from_path(battle).to_vec();
        let tile = far
            .iter()
            .map(|&(_, t)| t)
            .find(|&t| self.fits(battle, bp, t))?;
        Some(Choice {
            blueprint: bp,
            tile,
            rotation: 0,
            score,
        })
    }

    /// An area ability where it pays, during a wave.
    fn use_ability(&mut self, battle: &mut Battle) -> Option<PlayerCommand> {
        let field = battle.field()?.clone();
        let walking: Vec<(EntityId, Position, f64, Option<Route>)> = battle
            .entities()
            .filter(|(_, e)| matches!(e.kind, EntityKind::Attacker(_)))
            .map(|(id, e)| (id, e.position, e.hp, e.route))
            .collect();
        let attackers: Vec<Seen> = walking
            .into_iter()
            .map(|(id, position, hp, route)| {
                let speed = battle.look(|b| &b.chains.speed, &id);
                Seen {
                    position,
                    hp,
                    remaining: route
                        .map_or(f64::INFINITY, |r| field.remaining(r.segment, r.progress)),
                    route,
                    step: speed / rampart_core::TICKS_PER_SECOND as f64,
                }
            })
            .collect();
        if attackers.is_empty() {
            return None;
        }
        let energy = battle.player().energy;
        let cap = battle.energy_cap();
        for bp in usable(battle, |k| k == BlueprintKind::Ability) {
            if !matches!(
                battle.content().blueprint(bp).behaviour,
                Some(Behaviour::Blast)
            ) {
                continue;
            }
            let stat = StatOf {
                blueprint: bp,
                entity: None,
            };
            let cost = battle.cost(bp);
            let damage = battle.look(|b| &b.chains.hit_damage, &stat);
            let radius = battle.look(|b| &b.chains.radius, &stat);
            let delay = battle.look(|b| &b.chains.delay, &stat);
            if damage <= 0.0 || radius <= 0.0 {
                continue;
            }
            // Where the attackers will be when the blast lands (along their current segment).
            let landing: Vec<(Position, f64, f64)> = attackers
                .iter()
                .map(|a| match a.route {
                    Some(r) if delay > 0.0 => {
                        let at =
                            field.along_flat(r.segment, (r.progress + a.step * delay).min(1.0));
                        (Position { x: at.x, y: at.y }, a.hp, a.remaining)
                    }
                    _ => (a.position, a.hp, a.remaining),
                })
                .collect();
            let mut best: Option<(f64, bool, Position)> = None;
            for &(centre, _, _) in &landing {
                let (mut worth, mut urgent) = (0.0, false);
                for &(p, hp, remaining) in &landing {
                    if p.distance(centre) <= radius {
                        worth += hp.min(damage);
                        urgent |= remaining <= URGENT_DISTANCE;
                    }
                }
                if best.is_none_or(|(w, u, _)| (urgent, worth) > (u, w)) {
                    best = Some((worth, urgent, centre));
                }
            }
            let Some((worth, urgent, at)) = best else {
                continue;
            };
            // Paid with energy alone, by the battle's payment rule.
            let free = battle.payment(cost).is_ok_and(|p| p.materials <= 0.0);
            let overflowing = energy >= cap - 1e-9;
            let pays = worth >= 2.0 * damage || overflowing && worth >= damage;
            let can_pay = free || urgent && affordable(battle, bp).is_some();
            if can_pay && (pays || urgent) {
                return Some(PlayerCommand::Place {
                    blueprint: battle.content().blueprint(bp).id.clone(),
                    position: at,
                    rotation: 0,
                });
            }
        }
        None
    }

    fn traffic(&mut self, battle: &Battle) -> &[Vec<f64>] {
        self.traffic.get_or_insert_with(|| {
            battle
                .field()
                .map_or_else(Vec::new, |f| estimate::traffic(f))
        })
    }

    fn covers(
        &mut self,
        battle: &mut Battle,
        bp: BlueprintId,
        tile: Pos,
        rotation: u8,
    ) -> &[SegmentCover] {
        self.covers
            .entry((bp, tile, rotation))
            .or_insert_with(|| battle.coverage_preview(bp, tile, rotation))
    }

    /// Every tile, farthest from any path first (Chebyshev distance; ties in tile order).
    fn far_from_path(&mut self, battle: &Battle) -> &[(i32, Pos)] {
        self.far_from_path.get_or_insert_with(|| {
            let Some(field) = battle.field() else {
                return Vec::new();
            };
            let path: Vec<Pos> = tiles(battle)
                .into_iter()
                .filter(|&t| field.on_path(t))
                .collect();
            let mut far: Vec<(i32, Pos)> = tiles(battle)
                .into_iter()
                .map(|t| {
                    let d = path
                        .iter()
                        .map(|p| (p.x - t.x).abs().max((p.y - t.y).abs()))
                        .min()
                        .unwrap_or(i32::MAX);
                    (-d, t)
                })
                .collect();
            far.sort();
            far
        })
    }
}

/// The blueprints of the collection of a kind that can be used now (no cooldown left).
fn usable(battle: &Battle, kind: impl Fn(BlueprintKind) -> bool) -> Vec<BlueprintId> {
    battle
        .collection()
        .iter()
        .copied()
        .filter(|&b| {
            let bp = battle.content().blueprint(b);
            kind(bp.kind) && !bp.placed_by_game() && battle.cooldown_left(b) == 0
        })
        .collect()
}

/// What blueprint `bp` costs now, as one number, if the battle says the player can pay it.
fn affordable(battle: &mut Battle, bp: BlueprintId) -> Option<f64> {
    let cost = battle.cost(bp);
    battle
        .payment(cost)
        .is_ok()
        .then_some((cost.materials + cost.energy).max(1.0))
}

/// Resources a building makes per wave, as materials: energy at half (it only pays for
/// abilities), fuel at par (it brings the end of the level closer).
fn production(battle: &mut Battle, bp: BlueprintId, entity: Option<EntityId>) -> f64 {
    let stat = StatOf {
        blueprint: bp,
        entity,
    };
    battle.look(|b| &b.chains.material_production, &stat)
        + 0.5 * battle.look(|b| &b.chains.energy_production, &stat)
        + battle.look(|b| &b.chains.fuel_production, &stat)
}

/// Waves the level probably still has: until the fuel goal at the current fuel income, and no
/// more than the waves left.
fn waves_left(battle: &mut Battle) -> f64 {
    let left = (battle.config().start.waves.len() as f64 - f64::from(battle.wave())).max(0.0);
    let buildings: Vec<(EntityId, BlueprintId)> = battle
        .entities()
        .filter_map(|(id, e)| match e.kind {
            EntityKind::Building(bp) => Some((id, bp)),
            _ => None,
        })
        .collect();
    let income: f64 = buildings
        .into_iter()
        .map(|(id, bp)| {
            let stat = StatOf {
                blueprint: bp,
                entity: Some(id),
            };
            battle.look(|b| &b.chains.fuel_production, &stat)
        })
        .sum();
    let p = battle.player();
    if income > 0.0 {
        left.min(((p.fuel_goal - p.fuel) / income).ceil().max(0.0))
    } else {
        left
    }
}

/// Every tile of the battle's world, in order.
fn tiles(battle: &Battle) -> Vec<Pos> {
    let Some(field) = battle.field() else {
        return Vec::new();
    };
    let grid = field.world().grid;
    (0..grid.height)
        .flat_map(|y| (0..grid.width).map(move |x| Pos::new(x, y)))
        .collect()
}

fn centre(tile: Pos) -> Position {
    Position {
        x: f64::from(tile.x),
        y: f64::from(tile.y),
    }
}

/// The facings worth trying for a blueprint.
fn rotations(battle: &Battle, bp: BlueprintId) -> Vec<u8> {
    match battle.content().blueprint(bp).placement() {
        Placement::Tile {
            rotatable: true, ..
        }
        | Placement::Surface { rotatable: true } => vec![0, 1, 2, 3],
        _ => vec![0],
    }
}

fn place(battle: &Battle, o: &Choice) -> PlayerCommand {
    PlayerCommand::Place {
        blueprint: battle.content().blueprint(o.blueprint).id.clone(),
        position: centre(o.tile),
        rotation: o.rotation,
    }
}
