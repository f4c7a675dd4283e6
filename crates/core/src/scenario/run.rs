//! Playing a scenario: its battle tick by tick, the waves started and the player's actions given
//! when they are due, and what happened gathered as it happens — from the battle's log (hits,
//! kills, shots, effects, heals, production, refusals) and from its queries (statistics and
//! speeds as the chains give them, so a buff or a slow shows as a number).
//!
//! The runner only submits [`PlayerCommand`]s and asks questions (`look`), as a player would: the
//! battle plays exactly as the game would play those commands.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::battle::{
    Battle, BattleConfig, EntityId, EntityKind, Lasting, LogEntry, LogKind, Phase, PlayerCommand,
    Position, Qry, Resource, StatOf,
};
use crate::content::{AttackerId, BlueprintId, BlueprintKind, ContentDb};
use crate::worldgen::Pos;

use super::format::{Act, Action, DEFAULT_TICKS, NEAR, Scenario, Stat};
use super::report::{
    Applied, AttackerReport, BuildingReport, End, Hull, Refused, Report, Resources,
    ScriptErrorReport, Speed, StatReport, Waves,
};

/// Plays `scenario` in a battle made from `config` (what [`Scenario::prepare`] set up) and
/// reports what happened, its expectations checked. With `time_scripts`, the report's script
/// costs also hold the wall time each script took, which differs from run to run; without, the
/// same scenario gives the same report every time.
pub fn play(
    content: &Arc<ContentDb>,
    scenario: &Scenario,
    config: BattleConfig,
    time_scripts: bool,
) -> Report {
    let mut battle = Battle::new(content.clone(), config);
    battle.time_scripts(time_scripts);
    let mut plan = Plan::new(scenario);
    let mut seen = Observer::new(&battle);
    let limit = scenario.ticks.unwrap_or(DEFAULT_TICKS);
    let mut end = End::TimeUp;
    while battle.tick() < limit {
        if battle.tick() > 0
            && let Some(e) = plan.finished(&battle)
        {
            end = e;
            break;
        }
        plan.give(&mut battle, &mut seen);
        let before = battle.phase();
        battle.step();
        if before == Phase::Wave && battle.phase() == Phase::Build {
            plan.build_since = battle.tick();
        }
        seen.observe(&mut battle);
    }
    if end == End::TimeUp
        && let Some(e) = plan.finished(&battle)
    {
        end = e;
    }
    let not_done = plan.not_done(&battle);
    let mut report = seen.report(&battle, scenario, end, not_done);
    report.expectations = scenario.expect.iter().map(|e| e.check(&report)).collect();
    report.passed = report.expectations.iter().all(|c| c.passed);
    report
}

/// When the scenario's waves start and its actions are given.
struct Plan<'a> {
    scenario: &'a Scenario,
    /// Actions not given yet, by index, in the file's order.
    pending: Vec<usize>,
    /// The tick each wave was started at, for the waves started so far.
    started: Vec<u64>,
    /// The tick the current build phase began.
    build_since: u64,
}

impl<'a> Plan<'a> {
    fn new(scenario: &'a Scenario) -> Plan<'a> {
        Plan {
            scenario,
            pending: (0..scenario.actions.len()).collect(),
            started: Vec::new(),
            build_since: 0,
        }
    }

    /// Submits what is due at the battle's next tick, in order: the buildings (at the first
    /// tick), actions timed by tick or by a wave already running, then — when the next wave is
    /// due — the actions before it, its start, and its own actions due at once.
    fn give(&mut self, battle: &mut Battle, seen: &mut Observer) {
        let now = battle.tick();
        if now == 0 {
            for b in &self.scenario.buildings {
                battle.submit(PlayerCommand::Place {
                    blueprint: b.blueprint.clone(),
                    position: tile_point(b.tile),
                    rotation: b.rotation,
                });
            }
        }
        self.give_due(battle, seen, None);
        let next = self.started.len();
        let Some(wave) = self.scenario.waves.get(next) else {
            return;
        };
        if battle.phase() != Phase::Build || now < self.build_since + u64::from(wave.pause) {
            return;
        }
        let number = next as u32 + 1;
        self.give_due(battle, seen, Some(number));
        battle.submit(PlayerCommand::StartWave);
        self.started.push(now);
        self.give_due(battle, seen, None);
    }

    /// Gives every pending action that is due: those before wave `starting` when that wave
    /// is about to start, else those whose time has come.
    fn give_due(&mut self, battle: &mut Battle, seen: &mut Observer, starting: Option<u32>) {
        let now = battle.tick();
        let due: Vec<usize> = self
            .pending
            .iter()
            .copied()
            .filter(|&i| {
                let a = &self.scenario.actions[i];
                match starting {
                    Some(w) => a.before_wave == Some(w),
                    None => {
                        self.time_come(a, now) && a.near.is_none_or(|p| attacker_near(battle, p))
                    }
                }
            })
            .collect();
        self.pending.retain(|i| !due.contains(i));
        for i in due {
            let act = &self.scenario.actions[i].act;
            match command(battle, act) {
                Ok(command) => battle.submit(command),
                Err(reason) => seen.refused.push(Refused {
                    tick: now,
                    action: describe_act(act),
                    reason,
                }),
            }
        }
    }

    /// Whether the tick an action waits for has come (its `near` aside). An action before a
    /// wave comes with that wave's start, never by itself.
    fn time_come(&self, a: &Action, now: u64) -> bool {
        match (a.wave, a.before_wave) {
            (Some(w), _) => (w as usize)
                .checked_sub(1)
                .and_then(|i| self.started.get(i))
                .is_some_and(|&s| now >= s + a.tick),
            (None, Some(_)) => false,
            (None, None) => now >= a.tick,
        }
    }

    /// Why the battle is over, if it is: won, lost, or every wave started and ended with no
    /// action at a fixed time still to come (one waiting for an attacker to come near may wait
    /// for ever).
    fn finished(&self, battle: &Battle) -> Option<End> {
        match battle.phase() {
            Phase::Won => Some(End::Won),
            Phase::Lost => Some(End::Lost),
            Phase::Wave => None,
            Phase::Build => {
                let waiting = self
                    .pending
                    .iter()
                    .any(|&i| self.scenario.actions[i].near.is_none());
                (self.started.len() == self.scenario.waves.len() && !waiting)
                    .then_some(End::WavesDone)
            }
        }
    }

    /// The actions never given, each with why.
    fn not_done(&self, battle: &Battle) -> Vec<String> {
        self.pending
            .iter()
            .map(|&i| {
                let a = &self.scenario.actions[i];
                let why = match a.near {
                    Some((x, y)) if self.time_come(a, battle.tick()) => format!(
                        "no attacker came within {NEAR} tiles of ({}, {})",
                        number(x),
                        number(y)
                    ),
                    _ => "the battle ended before its time".to_string(),
                };
                format!("{} {}: {why}", describe_act(&a.act), describe_time(a))
            })
            .collect()
    }
}

/// The command an act is, or why there is none (no building on the tile it names).
fn command(battle: &Battle, act: &Act) -> Result<PlayerCommand, String> {
    let building = |&(x, y): &(i32, i32)| {
        battle
            .building_at(Pos::new(x, y))
            .ok_or_else(|| format!("there is no building on ({x}, {y})"))
    };
    Ok(match act {
        Act::Place {
            blueprint,
            tile,
            rotation,
        } => PlayerCommand::Place {
            blueprint: blueprint.clone(),
            position: tile_point(*tile),
            rotation: *rotation,
        },
        Act::Use {
            blueprint,
            at: (x, y),
            rotation,
        } => PlayerCommand::Place {
            blueprint: blueprint.clone(),
            position: Position { x: *x, y: *y },
            rotation: *rotation,
        },
        Act::Remove { tile } => PlayerCommand::Remove {
            entity: building(tile)?,
        },
        Act::Priority { tile, priority } => PlayerCommand::SetPriority {
            entity: building(tile)?,
            priority: *priority,
        },
    })
}

fn tile_point((x, y): (i32, i32)) -> Position {
    Position {
        x: f64::from(x),
        y: f64::from(y),
    }
}

/// Whether an attacker is within [`NEAR`] of `(x, y)`.
fn attacker_near(battle: &Battle, (x, y): (f64, f64)) -> bool {
    let at = Position { x, y };
    battle
        .entities()
        .any(|(_, e)| e.kind.attacker().is_some() && e.position.distance(at) <= NEAR)
}

/// The act in words: "place core:radar on (8, 5)".
fn describe_act(act: &Act) -> String {
    match act {
        Act::Place {
            blueprint,
            tile: (x, y),
            ..
        } => format!("place {blueprint} on ({x}, {y})"),
        Act::Use {
            blueprint,
            at: (x, y),
            ..
        } => format!("use {blueprint} at ({}, {})", number(*x), number(*y)),
        Act::Remove { tile: (x, y) } => format!("remove the building on ({x}, {y})"),
        Act::Priority {
            tile: (x, y),
            priority,
        } => format!("set the priority of the tower on ({x}, {y}) to {priority:?}"),
    }
}

/// When an action was to happen, in words: "at tick 40", "40 ticks into wave 2".
fn describe_time(a: &Action) -> String {
    let when = match (a.wave, a.before_wave) {
        (Some(w), _) => format!("{} ticks into wave {w}", a.tick),
        (None, Some(w)) => format!("before wave {w}"),
        (None, None) => format!("at tick {}", a.tick),
    };
    match a.near {
        Some((x, y)) => format!(
            "{when}, once an attacker is near ({}, {})",
            number(x),
            number(y)
        ),
        None => when,
    }
}

fn number(v: f64) -> String {
    crate::content::describe::number(v)
}

/// What an entity the battle logged was.
#[derive(Clone, Copy)]
enum Known {
    /// A building or ability, by its index in [`Observer::buildings`].
    Building(usize),
    /// An attacker of this type.
    Attacker(AttackerId),
}

/// A building or ability being followed.
struct Followed {
    id: EntityId,
    blueprint: BlueprintId,
    report: BuildingReport,
}

/// An attacker type being followed: the report so far, and the speeds queried.
struct Type {
    report: AttackerReport,
    speeds: f64,
    samples: u64,
}

/// What the battle did so far, read from its log after every tick and from its queries.
struct Observer {
    content: Arc<ContentDb>,
    hub: Option<EntityId>,
    /// How much of the log has been read.
    read: usize,
    known: BTreeMap<EntityId, Known>,
    buildings: Vec<Followed>,
    attackers: BTreeMap<AttackerId, Type>,
    refused: Vec<Refused>,
    waves_ended: u32,
    switched_off: Vec<String>,
}

impl Observer {
    fn new(battle: &Battle) -> Observer {
        Observer {
            content: battle.content().clone(),
            hub: battle.state().hub,
            read: 0,
            known: BTreeMap::new(),
            buildings: Vec::new(),
            attackers: BTreeMap::new(),
            refused: Vec::new(),
            waves_ended: 0,
            switched_off: Vec::new(),
        }
    }

    /// Reads what the last tick logged, then samples what stands and walks.
    fn observe(&mut self, battle: &mut Battle) {
        let log = battle.log();
        for entry in &log[self.read..] {
            self.note(battle, entry);
        }
        self.read = log.len();
        self.sample(battle);
    }

    fn attacker(&mut self, a: AttackerId) -> &mut Type {
        let content = &self.content;
        self.attackers.entry(a).or_insert_with(|| {
            let kind = content.attacker(a);
            Type {
                report: AttackerReport {
                    attacker: kind.id.clone(),
                    came: 0,
                    killed: 0,
                    leaked: 0,
                    alive: 0,
                    taken_away: 0,
                    hull_taken: 0.0,
                    damage_taken: 0.0,
                    speed: Speed {
                        base: kind.speed,
                        slowest: kind.speed,
                        average: kind.speed,
                    },
                    effects: BTreeMap::new(),
                },
                speeds: 0.0,
                samples: 0,
            }
        })
    }

    /// The report of the building or ability `id`, if it is one being followed.
    fn building(&mut self, id: Option<EntityId>) -> Option<&mut BuildingReport> {
        match self.known.get(&id?)? {
            Known::Building(i) => Some(&mut self.buildings[*i].report),
            Known::Attacker(_) => None,
        }
    }

    /// The attacker type of `id`, if it is an attacker.
    fn type_of(&mut self, id: EntityId) -> Option<&mut Type> {
        match *self.known.get(&id)? {
            Known::Attacker(a) => Some(self.attacker(a)),
            Known::Building(_) => None,
        }
    }

    /// Takes in one line of the log.
    fn note(&mut self, battle: &Battle, entry: &LogEntry) {
        match &entry.kind {
            LogKind::Appeared {
                entity,
                kind,
                position,
            } => self.appeared(*entity, *kind, *position, entry.tick),
            LogKind::Damaged {
                target,
                amount,
                source,
                types,
            } => {
                if let Some(b) = self.building(*source) {
                    b.hits += 1;
                    b.damage += amount;
                    for t in types.iter() {
                        *b.damage_by_type.entry(t.name().to_string()).or_default() += amount;
                    }
                }
                if let Some(t) = self.type_of(*target) {
                    t.report.damage_taken += amount;
                }
            }
            LogKind::Healed { amount, source, .. } => {
                if let Some(b) = self.building(*source) {
                    b.healing += amount;
                }
            }
            LogKind::Killed { attacker, killer } => {
                if let Some(b) = self.building(*killer) {
                    b.kills += 1;
                }
                if let Some(t) = self.type_of(*attacker) {
                    t.report.killed += 1;
                }
            }
            LogKind::Gained {
                resource,
                amount,
                source,
            } => {
                if let Some(b) = self.building(*source) {
                    let p = &mut b.produced;
                    *match resource {
                        Resource::Materials => &mut p.materials,
                        Resource::Energy => &mut p.energy,
                        Resource::Fuel => &mut p.fuel,
                    } += amount;
                }
            }
            LogKind::EffectApplied {
                target,
                name,
                lasting,
                source,
            } => {
                if let Some(b) = self.building(*source) {
                    let a: &mut Applied = b.effects.entry(name.clone()).or_default();
                    a.times += 1;
                    match *lasting {
                        Lasting::Ticks(n) => a.ticks += u64::from(n),
                        Lasting::Waves(n) => a.waves += u64::from(n),
                        Lasting::Shots(n) => a.shots += u64::from(n),
                    }
                }
                if let Some(t) = self.type_of(*target) {
                    t.report.effects.entry(name.clone()).or_default().times += 1;
                }
            }
            LogKind::Event {
                chain,
                entity: Some(entity),
            } => match *chain {
                "tower_fired" => {
                    if let Some(b) = self.building(Some(*entity)) {
                        b.shots += 1;
                    }
                }
                "attacker_reached_hub" => {
                    if let Some(t) = self.type_of(*entity) {
                        t.report.leaked += 1;
                    }
                }
                _ => {}
            },
            LogKind::Event {
                chain: "wave_finished",
                entity: None,
            } => self.waves_ended += 1,
            LogKind::Refused { command, reason } => {
                let action = self.describe_command(battle, command);
                self.refused.push(Refused {
                    tick: entry.tick,
                    action,
                    reason: reason.clone(),
                });
            }
            LogKind::ScriptDisabled(off) => self.switched_off.push(off.to_string()),
            _ => {}
        }
    }

    fn appeared(&mut self, entity: EntityId, kind: EntityKind, position: Position, tick: u64) {
        match kind {
            EntityKind::Attacker(a) => {
                self.known.insert(entity, Known::Attacker(a));
                self.attacker(a).report.came += 1;
            }
            EntityKind::Building(bp) | EntityKind::Ability(bp) if Some(entity) != self.hub => {
                let building = matches!(kind, EntityKind::Building(_));
                self.known
                    .insert(entity, Known::Building(self.buildings.len()));
                self.buildings.push(Followed {
                    id: entity,
                    blueprint: bp,
                    report: BuildingReport {
                        blueprint: self.content.blueprint(bp).id.clone(),
                        kind: kind.name(),
                        tile: building
                            .then(|| [position.x.round() as i32, position.y.round() as i32]),
                        position: [position.x, position.y],
                        from_tick: tick,
                        until_tick: None,
                        shots: 0,
                        hits: 0,
                        kills: 0,
                        damage: 0.0,
                        damage_by_type: BTreeMap::new(),
                        healing: 0.0,
                        produced: Resources::default(),
                        effects: BTreeMap::new(),
                        stats: BTreeMap::new(),
                    },
                });
            }
            _ => {}
        }
    }

    /// A refused command in words, naming the building it was about.
    fn describe_command(&self, battle: &Battle, command: &PlayerCommand) -> String {
        let about = |entity: &EntityId| match self.known.get(entity) {
            Some(Known::Building(i)) => {
                let b = &self.buildings[*i].report;
                match b.tile {
                    Some([x, y]) => format!("{} on ({x}, {y})", b.blueprint),
                    None => b.blueprint.clone(),
                }
            }
            _ => "a building that is gone".to_string(),
        };
        match command {
            PlayerCommand::Place {
                blueprint,
                position,
                ..
            } => {
                let ability = battle
                    .content()
                    .blueprint_id(blueprint)
                    .is_some_and(|b| battle.content().blueprint(b).kind == BlueprintKind::Ability);
                let (x, y) = (number(position.x), number(position.y));
                match ability {
                    true => format!("use {blueprint} at ({x}, {y})"),
                    false => format!("place {blueprint} on ({x}, {y})"),
                }
            }
            PlayerCommand::Remove { entity } => format!("remove {}", about(entity)),
            PlayerCommand::SetPriority { entity, priority } => {
                format!("set the priority of {} to {priority:?}", about(entity))
            }
            PlayerCommand::StartWave => format!("start wave {}", battle.wave() + 1),
        }
    }

    /// Queries the statistics of what stands and the speed of every attacker, and counts the
    /// ticks attackers spend under each effect.
    fn sample(&mut self, battle: &mut Battle) {
        let last = battle.tick() - 1;
        for f in &mut self.buildings {
            if f.report.until_tick.is_some() {
                continue;
            }
            if battle.entity(f.id).is_none() {
                f.report.until_tick = Some(last);
                continue;
            }
            for stat in Stat::ALL {
                let input = StatOf {
                    blueprint: f.blueprint,
                    entity: Some(f.id),
                };
                let v = battle.look(stat_chain(stat), &input);
                f.report
                    .stats
                    .entry(stat.name().to_string())
                    .and_modify(|s| {
                        s.end = v;
                        s.lowest = s.lowest.min(v);
                        s.highest = s.highest.max(v);
                    })
                    .or_insert(StatReport {
                        start: v,
                        end: v,
                        lowest: v,
                        highest: v,
                    });
            }
        }
        let walking: Vec<(EntityId, AttackerId, Vec<String>)> = battle
            .entities()
            .filter_map(|(id, e)| {
                let a = e.kind.attacker()?;
                Some((id, a, e.effects.iter().map(|x| x.name.clone()).collect()))
            })
            .collect();
        for (id, a, effects) in walking {
            let speed = battle.look(|b| &b.chains.speed, &id);
            let t = self.attacker(a);
            t.speeds += speed;
            t.samples += 1;
            t.report.speed.slowest = if t.samples == 1 {
                speed
            } else {
                t.report.speed.slowest.min(speed)
            };
            for name in effects {
                t.report.effects.entry(name).or_default().ticks += 1;
            }
        }
    }

    /// The report, from everything seen and the battle as it stands at the end.
    fn report(
        mut self,
        battle: &Battle,
        scenario: &Scenario,
        end: End,
        not_done: Vec<String>,
    ) -> Report {
        for (_, e) in battle.entities() {
            if let Some(a) = e.kind.attacker() {
                self.attacker(a).report.alive += 1;
            }
        }
        let tally = battle.tally();
        let attackers = self
            .attackers
            .into_values()
            .map(|mut t| {
                let r = &mut t.report;
                if t.samples > 0 {
                    r.speed.average = t.speeds / t.samples as f64;
                }
                r.hull_taken = tally.get(&r.attacker).map_or(0.0, |x| x.hull);
                r.taken_away = r.came.saturating_sub(r.killed + r.leaked + r.alive);
                t.report
            })
            .collect();
        let player = battle.player();
        Report {
            scenario: scenario.name.clone(),
            ticks: battle.tick(),
            end,
            waves: Waves {
                planned: scenario.waves.len() as u32,
                started: battle.wave(),
                ended: self.waves_ended,
            },
            hull: Hull {
                start: battle.config().start.hull,
                end: player.hull,
            },
            resources: Resources {
                materials: player.materials,
                energy: player.energy,
                fuel: player.fuel,
            },
            buildings: self.buildings.into_iter().map(|f| f.report).collect(),
            attackers,
            refused: self.refused,
            not_done,
            script_errors: battle
                .script_error_counts()
                .iter()
                .map(|r| ScriptErrorReport {
                    mod_id: r.error.mod_id.clone(),
                    file: r.error.file.clone(),
                    line: r.error.line,
                    message: r.error.message.clone(),
                    times: r.times,
                    text: r.to_string(),
                })
                .collect(),
            scripts_switched_off: self.switched_off,
            storage: battle.storage().clone(),
            script_cost: battle.script_costs().report(usize::MAX),
            expectations: Vec::new(),
            passed: true,
        }
    }
}

/// The query of a statistic.
fn stat_chain(stat: Stat) -> fn(&Battle) -> &Qry<StatOf, f64> {
    match stat {
        Stat::Range => |b| &b.chains.range,
        Stat::Radius => |b| &b.chains.radius,
        Stat::HitDamage => |b| &b.chains.hit_damage,
        Stat::Interval => |b| &b.chains.interval,
    }
}
