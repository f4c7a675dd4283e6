//! Shooting: which attackers a tower can hit and which it prefers, towers firing, shots in
//! flight, slams and blasts that land later, and barriers that stop flying shots from outside.
//!
//! Where a tower can hit is worked out once from the ground (`coverage.rs`). Each tick the
//! attackers are bucketed by segment, and a tower only looks at attackers on the segments it
//! covers.
//!
//! Barriers are circles on the ground that stop flying shots fired from outside them (the bubble
//! a Protector leaves behind). Shots that fly — straight, homing and ballistic projectiles —
//! cannot hit attackers inside a barrier unless they were fired from inside it too; a straight or
//! homing shot stops where it enters. Hits that do not fly (instant hits, beams, slams, chains)
//! and abilities are not stopped.

use glam::{DVec2, DVec3};

use super::core::Battle;
use super::coverage::{Coverage, can_hit, target_point};
use super::entity::{Entity, EntityId, EntityKind, Position, TowerState};
use super::field::Field;
use super::log::LogKind;
use super::payloads::{Damage, EntityEvent, StatOf};
use super::shape::Frame;
use super::spatial::AttackerGrid;
use super::state::{Barrier, Delayed, Shot, ShotKind};
use crate::content::{
    Behaviour, DamageType, DamageTypes, Priority, Projectile, Shooter, Size, Targets,
};

/// How far from an attacker's target point a flying shot hits it, for small and large ones.
const HIT_RADIUS: [f64; 2] = [0.2, 0.35];
/// Longest step of a straight shot between hit tests, in tiles.
const SHOT_STEP: f64 = 0.1;

fn size_of(b: &Battle, id: EntityId) -> Option<Size> {
    match b.state.entities.get(id)?.kind {
        EntityKind::Attacker(a) => Some(b.content.attacker(a).size),
        _ => None,
    }
}

fn size_slot(size: Size) -> usize {
    match size {
        Size::Small => 0,
        Size::Large | Size::Boss => 1,
    }
}

/// Attackers on each path segment, built once per tick for all towers.
pub(super) struct Buckets {
    on_segment: Vec<Vec<EntityId>>,
    off_path: Vec<EntityId>,
}

impl Buckets {
    pub(super) fn new(b: &Battle) -> Buckets {
        let segments = b.field.as_ref().map_or(0, |f| f.segment_count());
        let mut buckets = Buckets {
            on_segment: vec![Vec::new(); segments],
            off_path: Vec::new(),
        };
        for (id, e) in b.state.entities.iter() {
            if !matches!(e.kind, EntityKind::Attacker(_)) || b.untargetable(id) {
                continue;
            }
            match e.route {
                Some(r) if r.segment < segments => buckets.on_segment[r.segment].push(id),
                _ => buckets.off_path.push(id),
            }
        }
        buckets
    }
}

impl Battle {
    /// The shooter behaviour of an entity, if it has one.
    fn shooter_of(&self, id: EntityId) -> Option<Shooter> {
        let bp = self.state.entities.get(id)?.kind.blueprint()?;
        match &self.content.blueprint(bp).behaviour {
            Some(Behaviour::Shooter(s)) => Some(s.clone()),
            _ => None,
        }
    }

    /// Gives a new tower its firing state.
    pub(super) fn arm(&mut self, id: EntityId) {
        if let Some(s) = self.shooter_of(id)
            && let Some(e) = self.state.entities.get_mut(id)
        {
            e.tower = Some(TowerState {
                ready_in: 0,
                priority: s.priority,
                aiming_at: None,
                focus: None,
            });
        }
    }

    /// The firing state of tower `id`, if it is a tower.
    fn tower_mut(&mut self, id: EntityId) -> Option<&mut TowerState> {
        self.state
            .entities
            .get_mut(id)
            .and_then(|e| e.tower.as_mut())
    }

    /// Makes tower `id` aim at attacker `target` whenever it can hit it, or (`None`) lets go;
    /// whether `id` is a tower.
    pub(super) fn set_focus(&mut self, id: EntityId, target: Option<EntityId>) -> bool {
        self.tower_mut(id).map(|t| t.focus = target).is_some()
    }

    /// Changes a tower's targeting priority.
    pub(super) fn set_priority(&mut self, id: EntityId, priority: Priority) -> Result<(), String> {
        let tower = self
            .tower_mut(id)
            .ok_or("only towers have a targeting priority")?;
        tower.priority = priority;
        Ok(())
    }

    /// Deals damage from `source` to `target` through the `damage` command, as something other
    /// than the source's own hit (a test, a rule); returns what was dealt (the handler adds it to
    /// the source's tally).
    pub fn deal(
        &mut self,
        source: Option<EntityId>,
        target: EntityId,
        amount: f64,
        types: DamageTypes,
    ) -> f64 {
        self.damage(source, target, amount, types, false)
    }

    /// Deals the own hit of `source` — a tower's shot, an ability's blast — to `target`; the
    /// payload's `own_hit` tells scripts so.
    fn own_hit(&mut self, source: EntityId, target: EntityId, amount: f64, types: DamageTypes) {
        self.damage(Some(source), target, amount, types, true);
    }

    fn damage(
        &mut self,
        source: Option<EntityId>,
        target: EntityId,
        amount: f64,
        types: DamageTypes,
        own_hit: bool,
    ) -> f64 {
        let damage = Damage {
            target,
            amount,
            types,
            source,
            own_hit,
            dealt: 0.0,
        };
        self.command(|b| &b.chains.damage, damage)
            .applied()
            .map_or(0.0, |d| d.dealt)
    }

    /// Every tower that is ready and has a target fires; the others count down.
    pub(super) fn run_towers(&mut self) {
        let towers: Vec<EntityId> = self
            .state
            .entities
            .iter()
            .filter(|(_, e)| e.tower.is_some())
            .map(|(id, _)| id)
            .collect();
        if towers.is_empty() {
            return;
        }
        let buckets = Buckets::new(self);
        for id in towers {
            let (Some(shooter), Some(state)) = (
                self.shooter_of(id),
                self.state.entities.get(id).and_then(|e| e.tower.clone()),
            ) else {
                continue;
            };
            if self.paralyzed(id) {
                continue;
            }
            let limit = match shooter.targets {
                Targets::Best(n) => Some(n as usize),
                Targets::All => None,
            };
            let focus = state.focus.filter(|f| self.state.entities.contains_key(*f));
            let targets = match focus {
                Some(focus) => {
                    // Every candidate, to see whether the focus is among them.
                    let mut all = self.pick_targets(id, &shooter, state.priority, &buckets, None);
                    if let Some(at) = all.iter().position(|t| *t == focus) {
                        all[..=at].rotate_right(1);
                    }
                    all.truncate(limit.unwrap_or(usize::MAX));
                    all
                }
                _ => self.pick_targets(id, &shooter, state.priority, &buckets, limit),
            };
            // Counting down first, so that a tower fires every `interval` ticks exactly.
            let ready = state.ready_in <= 1;
            if let Some(t) = self.tower_mut(id) {
                t.aiming_at = targets.first().copied();
                t.ready_in = t.ready_in.saturating_sub(1);
                // A dead focus is let go.
                t.focus = focus;
            }
            if !ready || targets.is_empty() {
                continue;
            }
            let Some(blueprint) = self.state.entities.get(id).and_then(|e| e.kind.blueprint())
            else {
                continue;
            };
            let stat = StatOf {
                blueprint,
                entity: Some(id),
            };
            let delay = self.query(|b| &b.chains.delay, &stat).round();
            if delay >= 1.0 {
                self.state.delayed.push(Delayed {
                    at: self.state.tick + delay as u64,
                    source: id,
                });
            } else {
                self.fire(id, &shooter, &targets);
            }
            self.emit(
                |b| &b.chains.tower_fired,
                &EntityEvent {
                    entity: id,
                    other: targets.first().copied(),
                },
            );
            self.shot_effects(id);
            let interval = self.query(|b| &b.chains.interval, &stat).round().max(1.0) as u32;
            if let Some(t) = self.tower_mut(id) {
                t.ready_in = interval;
            }
        }
    }

    /// Fires one shot of a tower at `targets`.
    fn fire(&mut self, tower: EntityId, shooter: &Shooter, targets: &[EntityId]) {
        let Some(blueprint) = self
            .state
            .entities
            .get(tower)
            .and_then(|e| e.kind.blueprint())
        else {
            return;
        };
        let stat = StatOf {
            blueprint,
            entity: Some(tower),
        };
        let damage = self.query(|b| &b.chains.hit_damage, &stat);
        let types = self.content.blueprint(blueprint).damage_type;
        let extra = self.effect(tower, "electrified").map(|x| x.magnitude);
        let Some(frame) = self.frame_of(tower, shooter) else {
            return;
        };
        let field = self.field.clone();
        for &target in targets {
            let Some(size) = size_of(self, target) else {
                continue;
            };
            let Some(ground) = self.ground_at(target) else {
                continue;
            };
            match shooter.projectile {
                Projectile::Instant => self.hit(tower, target, damage, types, extra),
                Projectile::Chain { jumps, falloff } => {
                    self.hit(tower, target, damage, types, extra);
                    let reach = self.query(|b| &b.chains.radius, &stat);
                    for next in self
                        .attackers_near(ground.truncate(), reach, Some(target))
                        .into_iter()
                        .take(jumps as usize)
                    {
                        self.hit(tower, next, damage * falloff, types, extra);
                    }
                }
                Projectile::Straight { speed } => {
                    let aim = target_point(ground, size) - frame.muzzle;
                    let velocity = aim.normalize_or_zero() * speed / crate::TICKS_PER_SECOND as f64;
                    self.state.shots.push(Shot {
                        source: tower,
                        origin: frame.muzzle,
                        position: frame.muzzle,
                        kind: ShotKind::Straight {
                            velocity,
                            left: frame.range * 1.5 + 1.0,
                        },
                        damage,
                        types,
                        extra,
                    });
                }
                Projectile::Homing { speed } => self.state.shots.push(Shot {
                    source: tower,
                    origin: frame.muzzle,
                    position: frame.muzzle,
                    kind: ShotKind::Homing {
                        target,
                        step: speed / crate::TICKS_PER_SECOND as f64,
                    },
                    damage,
                    types,
                    extra,
                }),
                Projectile::Ballistic { flight } => {
                    let to = self
                        .predicted_ground(target, flight, field.as_deref())
                        .unwrap_or(ground);
                    let radius = self.query(|b| &b.chains.radius, &stat);
                    self.state.shots.push(Shot {
                        source: tower,
                        origin: frame.muzzle,
                        position: frame.muzzle,
                        kind: ShotKind::Ballistic {
                            from: frame.muzzle,
                            to,
                            elapsed: 0,
                            flight,
                            radius,
                        },
                        damage,
                        types,
                        extra,
                    });
                }
            }
        }
    }

    /// One hit: the damage, and an electrified tower's extra energy damage.
    fn hit(
        &mut self,
        tower: EntityId,
        target: EntityId,
        damage: f64,
        types: DamageTypes,
        extra: Option<f64>,
    ) {
        self.own_hit(tower, target, damage, types);
        if let Some(extra) = extra
            && self.state.entities.contains_key(target)
        {
            self.own_hit(
                tower,
                target,
                extra,
                [DamageType::Energy].into_iter().collect(),
            );
        }
    }

    /// The ground point under an entity.
    fn ground_at(&self, id: EntityId) -> Option<DVec3> {
        let p = self.state.entities.get(id)?.position;
        Some(match &self.field {
            Some(f) => f.on_ground(p.x, p.y),
            None => DVec3::new(p.x, p.y, 0.0),
        })
    }

    /// Where an attacker will stand after `ticks`, if it keeps its current speed.
    fn predicted_ground(
        &mut self,
        id: EntityId,
        ticks: u32,
        field: Option<&Field>,
    ) -> Option<DVec3> {
        let field = field?;
        let route = self.state.entities.get(id)?.route?;
        let speed = self.query(|b| &b.chains.speed, &id);
        let mut distance = speed * f64::from(ticks) / crate::TICKS_PER_SECOND as f64;
        let mut route = route;
        // Walk ahead without taking turns at splits: the shell is aimed at the likeliest branch.
        loop {
            let left = 1.0 - route.progress;
            if distance < left {
                route.progress += distance;
                break;
            }
            distance -= left;
            let tile = field.segment(route.segment).to;
            let next = field.next(tile);
            if tile == field.hub() || next.is_empty() {
                route.progress = 1.0;
                break;
            }
            let passed = self.state.splits.get(&tile).copied().unwrap_or(0);
            route.segment = next[passed as usize % next.len()];
            route.progress = 0.0;
        }
        Some(field.along(route.segment, route.progress))
    }

    /// Attackers whose ground position is within `radius` of `center`, nearest first (then by
    /// id), leaving out `except`.
    pub fn attackers_near(
        &self,
        center: DVec2,
        radius: f64,
        except: Option<EntityId>,
    ) -> Vec<EntityId> {
        self.entities_near(center, radius, |id, e| {
            matches!(e.kind, EntityKind::Attacker(_)) && Some(id) != except
        })
    }

    /// Buildings whose position is within `radius` of `center`, nearest first (then by id).
    pub fn buildings_near(&self, center: DVec2, radius: f64) -> Vec<EntityId> {
        self.entities_near(center, radius, |_, e| {
            matches!(e.kind, EntityKind::Building(_))
        })
    }

    /// The entities `keep` accepts whose ground position is within `radius` of `center`,
    /// nearest first; ties go by id, so that the order never depends on storage.
    fn entities_near(
        &self,
        center: DVec2,
        radius: f64,
        keep: impl Fn(EntityId, &Entity) -> bool,
    ) -> Vec<EntityId> {
        let mut found: Vec<(f64, EntityId)> = self
            .state
            .entities
            .iter()
            .filter(|(id, e)| keep(*id, e))
            .map(|(id, e)| (DVec2::new(e.position.x, e.position.y).distance(center), id))
            .filter(|(d, _)| *d <= radius)
            .collect();
        found.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        found.into_iter().map(|(_, id)| id).collect()
    }

    /// Moves every shot one tick: straight shots hit the first attacker in their way or end at
    /// the ground, an obstacle or their range; homing shots close in on their target; shells
    /// land and blast. A barrier stops the shots fired from outside it.
    pub(super) fn run_shots(&mut self) {
        if self.state.shots.is_empty() {
            return;
        }
        let shots = std::mem::take(&mut self.state.shots);
        let mut flying = Vec::with_capacity(shots.len());
        let grid = AttackerGrid::new(self);
        for mut shot in shots {
            let origin = shot.origin.truncate();
            let keep = match &mut shot.kind {
                ShotKind::Straight { velocity, left } => {
                    let steps = (velocity.length() / SHOT_STEP).ceil().max(1.0) as u32;
                    let step = *velocity / f64::from(steps);
                    let mut alive = true;
                    for _ in 0..steps {
                        shot.position += step;
                        *left -= step.length();
                        if self.stopped(origin, shot.position.truncate()) {
                            alive = false;
                            break;
                        }
                        // The grid is this tick's: attackers a hit kills are skipped, those it
                        // spawns join next tick.
                        if let Some(target) = self.struck(&grid, shot.position) {
                            self.hit(shot.source, target, shot.damage, shot.types, shot.extra);
                            alive = false;
                            break;
                        }
                        let blocked = self.field.as_ref().is_some_and(|f| {
                            !f.line_of_sight(shot.position - step, shot.position + DVec3::Z * 1e-6)
                                || shot.position.z < f.ground(shot.position.x, shot.position.y)
                        });
                        if blocked || *left <= 0.0 {
                            alive = false;
                            break;
                        }
                    }
                    alive
                }
                ShotKind::Homing { target, step } => {
                    let (target, step) = (*target, *step);
                    self.home(&mut shot, target, step)
                }
                ShotKind::Ballistic {
                    from,
                    to,
                    elapsed,
                    flight,
                    radius,
                } => {
                    *elapsed += 1;
                    let t = f64::from(*elapsed) / f64::from(*flight);
                    let arc = (from.truncate().distance(to.truncate()) / 3.0).max(1.0);
                    shot.position = from.lerp(*to, t) + DVec3::Z * (4.0 * arc * t * (1.0 - t));
                    if *elapsed >= *flight {
                        for target in self.attackers_near(to.truncate(), *radius, None) {
                            if !self.stopped(origin, self.ground_xy(target)) {
                                self.hit(shot.source, target, shot.damage, shot.types, shot.extra);
                            }
                        }
                        false
                    } else {
                        true
                    }
                }
            };
            if keep {
                flying.push(shot);
            }
        }
        // Shots fired while these flew (by reactions) come after the survivors.
        flying.append(&mut self.state.shots);
        self.state.shots = flying;
    }

    /// Moves a homing shot `step` closer to its target; returns whether it still flies.
    fn home(&mut self, shot: &mut Shot, target: EntityId, step: f64) -> bool {
        let (Some(size), Some(ground)) = (size_of(self, target), self.ground_at(target)) else {
            return false;
        };
        let to = target_point(ground, size);
        let origin = shot.origin.truncate();
        let mut left = step;
        // Small steps, so that no barrier on the way is jumped over.
        while left > 0.0 {
            let gap = to - shot.position;
            let d = SHOT_STEP.min(left);
            if gap.length() <= d {
                shot.position = to;
                if self.stopped(origin, to.truncate()) {
                    return false;
                }
                self.hit(shot.source, target, shot.damage, shot.types, shot.extra);
                return false;
            }
            shot.position += gap.normalize() * d;
            left -= d;
            if self.stopped(origin, shot.position.truncate()) {
                return false;
            }
        }
        true
    }

    /// The ground-plane position of an entity (the origin if it is gone).
    fn ground_xy(&self, id: EntityId) -> DVec2 {
        self.state
            .entities
            .get(id)
            .map_or(DVec2::ZERO, |e| DVec2::new(e.position.x, e.position.y))
    }

    /// The attacker a straight shot at `p` strikes, if any: the nearest whose target point is
    /// within its hit radius.
    fn struck(&self, grid: &AttackerGrid, p: DVec3) -> Option<EntityId> {
        let mut best: Option<(f64, EntityId)> = None;
        for id in grid.near(p.truncate(), HIT_RADIUS[1]) {
            let (Some(size), Some(ground)) = (size_of(self, id), self.ground_at(id)) else {
                continue;
            };
            let d = target_point(ground, size).distance(p);
            if d <= HIT_RADIUS[size_slot(size)]
                && best.is_none_or(|(bd, bid)| d < bd || (d == bd && id < bid))
            {
                best = Some((d, id));
            }
        }
        best.map(|(_, id)| id)
    }

    /// Lands the slams and blasts due this tick.
    pub(super) fn run_delayed(&mut self) {
        let now = self.state.tick;
        let (due, later): (Vec<Delayed>, Vec<Delayed>) = std::mem::take(&mut self.state.delayed)
            .into_iter()
            .partition(|d| d.at <= now);
        self.state.delayed = later;
        for d in due {
            let Some(kind) = self.state.entities.get(d.source).map(|e| e.kind) else {
                continue;
            };
            match kind {
                EntityKind::Ability(_) => self.blast(d.source),
                _ => {
                    let Some(shooter) = self.shooter_of(d.source) else {
                        continue;
                    };
                    let Some(priority) = self
                        .state
                        .entities
                        .get(d.source)
                        .and_then(|e| e.tower.as_ref())
                        .map(|t| t.priority)
                    else {
                        continue;
                    };
                    let buckets = Buckets::new(self);
                    let limit = match shooter.targets {
                        Targets::Best(n) => Some(n as usize),
                        Targets::All => None,
                    };
                    let targets = self.pick_targets(d.source, &shooter, priority, &buckets, limit);
                    self.fire(d.source, &shooter, &targets);
                }
            }
        }
    }

    /// A blast ability just placed: it lands now or after its delay.
    pub(super) fn prime_blast(&mut self, id: EntityId) {
        let Some(blueprint) = self.state.entities.get(id).and_then(|e| e.kind.blueprint()) else {
            return;
        };
        if !matches!(
            self.content.blueprint(blueprint).behaviour,
            Some(Behaviour::Blast)
        ) {
            return;
        }
        let delay = self
            .query(
                |b| &b.chains.delay,
                &StatOf {
                    blueprint,
                    entity: Some(id),
                },
            )
            .round();
        if delay >= 1.0 {
            self.state.delayed.push(Delayed {
                at: self.state.tick + delay as u64,
                source: id,
            });
        } else {
            self.blast(id);
        }
    }

    /// A blast: damage to every attacker within the ability's radius, then the ability is gone.
    fn blast(&mut self, id: EntityId) {
        let Some(e) = self.state.entities.get(id) else {
            return;
        };
        let (Some(blueprint), Position { x, y }) = (e.kind.blueprint(), e.position) else {
            return;
        };
        let stat = StatOf {
            blueprint,
            entity: Some(id),
        };
        self.push_log(LogKind::Blast {
            ability: id,
            blueprint,
            at: Position { x, y },
        });
        let radius = self.query(|b| &b.chains.radius, &stat);
        let damage = self.query(|b| &b.chains.hit_damage, &stat);
        let types = self.content.blueprint(blueprint).damage_type;
        for target in self.attackers_near(DVec2::new(x, y), radius, None) {
            self.own_hit(id, target, damage, types);
        }
        self.remove(id);
    }

    /// The muzzle, facing and current range of a tower.
    pub(super) fn frame_of(&mut self, tower: EntityId, shooter: &Shooter) -> Option<Frame> {
        let e = self.state.entities.get(tower)?;
        let (position, rotation, blueprint) = (e.position, e.rotation, e.kind.blueprint()?);
        let ground = self
            .field
            .as_ref()
            .map_or(0.0, |f| f.ground(position.x, position.y));
        let range = self.query(
            |b| &b.chains.range,
            &StatOf {
                blueprint,
                entity: Some(tower),
            },
        );
        Some(Frame {
            muzzle: DVec3::new(position.x, position.y, ground + shooter.muzzle_height),
            facing: Frame::facing_of(rotation),
            range,
        })
    }

    /// Works the tower's coverage out again if its range changed (or it has none yet).
    fn refresh_coverage(&mut self, tower: EntityId, shooter: &Shooter, frame: &Frame) {
        let Some(field) = self.field.clone() else {
            return;
        };
        if self
            .coverage
            .get(&tower)
            .is_none_or(|c| c.range != frame.range)
        {
            self.coverage
                .insert(tower, Coverage::new(&field, shooter, frame));
        }
    }

    /// The attackers a tower would hit now, best first by `priority`; ties go to the attacker
    /// closest to the Hub, then to the older one.
    pub(super) fn pick_targets(
        &mut self,
        tower: EntityId,
        shooter: &Shooter,
        priority: Priority,
        buckets: &Buckets,
        limit: Option<usize>,
    ) -> Vec<EntityId> {
        let Some(frame) = self.frame_of(tower, shooter) else {
            return Vec::new();
        };
        let mut candidates = std::mem::take(&mut self.scratch);
        candidates.clear();
        let field = self.field.clone();
        // The target point is only worked out for the priorities that need a distance.
        let score = |e: &Entity, p: &dyn Fn() -> DVec3, remaining: f64| -> f64 {
            match priority {
                Priority::First => remaining,
                Priority::Last => -remaining,
                Priority::Closest => (p() - frame.muzzle).length(),
                Priority::Farthest => -(p() - frame.muzzle).length(),
                Priority::Weakest => e.hp,
                Priority::Strongest => -e.hp,
            }
        };
        if let Some(field) = field.as_ref() {
            self.refresh_coverage(tower, shooter, &frame);
            let coverage = &self.coverage[&tower];
            for &(seg, bits) in &coverage.segments {
                for &id in &buckets.on_segment[seg] {
                    let Some(e) = self.state.entities.get(id) else {
                        continue;
                    };
                    let (EntityKind::Attacker(a), Some(route)) = (e.kind, e.route) else {
                        continue;
                    };
                    let size = self.content.attacker(a).size;
                    if !Coverage::covers(bits, size, route.progress) {
                        continue;
                    }
                    let p = || target_point(field.along(seg, route.progress), size);
                    let remaining = field.remaining(seg, route.progress);
                    candidates.push((score(e, &p, remaining), remaining, id));
                }
            }
        }
        for &id in &buckets.off_path {
            let Some(e) = self.state.entities.get(id) else {
                continue;
            };
            let EntityKind::Attacker(a) = e.kind else {
                continue;
            };
            let ground = field
                .as_ref()
                .map_or(DVec3::new(e.position.x, e.position.y, 0.0), |f| {
                    f.on_ground(e.position.x, e.position.y)
                });
            let p = target_point(ground, self.content.attacker(a).size);
            if can_hit(field.as_deref(), shooter, &frame, p) {
                candidates.push((score(e, &|| p, f64::INFINITY), f64::INFINITY, id));
            }
        }
        let order = |a: &(f64, f64, EntityId), b: &(f64, f64, EntityId)| {
            a.0.total_cmp(&b.0)
                .then(a.1.total_cmp(&b.1))
                .then(a.2.cmp(&b.2))
        };
        if let Some(n) = limit.filter(|n| *n < candidates.len()) {
            // Only the best few are needed: partition around the n-th, then sort those.
            if n == 0 {
                candidates.clear();
            } else {
                candidates.select_nth_unstable_by(n - 1, order);
                candidates.truncate(n);
            }
        }
        candidates.sort_by(order);
        let picked = candidates.iter().map(|(_, _, id)| *id).collect();
        self.scratch = candidates;
        picked
    }

    /// Raises a barrier that stands for `ticks` ticks.
    pub fn add_barrier(&mut self, barrier: Barrier) {
        if barrier.ticks_left > 0 && barrier.radius > 0.0 {
            self.state.barriers.push(barrier);
        }
    }

    /// The barriers standing now.
    pub fn barriers(&self) -> &[Barrier] {
        &self.state.barriers
    }

    /// Whether a shot fired at `origin` is stopped at `p`: `p` is inside a barrier and `origin`
    /// is not.
    pub(super) fn stopped(&self, origin: DVec2, p: DVec2) -> bool {
        self.state
            .barriers
            .iter()
            .any(|b| b.contains(p) && !b.contains(origin))
    }

    /// Barriers age by a tick; those whose time is up fall.
    pub(super) fn tick_barriers(&mut self) {
        for b in &mut self.state.barriers {
            b.ticks_left -= 1;
        }
        self.state.barriers.retain(|b| b.ticks_left > 0);
    }
}
