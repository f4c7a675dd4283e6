//! Battles on hand-drawn worlds with the real core mod, for the tests of its content.

use std::sync::Arc;

use rampart_core::battle::{
    Battle, BattleConfig, EntityId, LogKind, Phase, PlayerCommand, Position, Resource, Route,
    StatOf, WaveSpawn, WaveSpawns,
};
use rampart_core::content::{ContentDb, DamageType};
use rampart_core::rng::Seed;
use rampart_core::worldgen::World;

use super::Mods;

/// Open ground with one straight path along the middle row, west to the Hub in the east.
pub const STRAIGHT: &str = rampart_core::worldgen::STRAIGHT_PATH;

/// The row of [`STRAIGHT`]'s path.
pub const PATH_Y: f64 = 3.0;

/// A battle with the core mod (and whatever `mods` adds) on a hand-drawn world.
pub struct Arena {
    pub content: Arc<ContentDb>,
    pub battle: Battle,
    /// Kept so that the mods' folder outlives the battle.
    _mods: Mods,
}

impl Arena {
    /// Core alone on `layout`, with 1000 materials and the Hub placed.
    pub fn new(layout: &str) -> Arena {
        Arena::with_mods(Mods::new(), layout)
    }

    /// Already loaded `content` on `layout`.
    pub fn with_content(content: Arc<ContentDb>, layout: &str) -> Arena {
        let battle = Arena::battle(&content, layout, Vec::new());
        Arena {
            content,
            battle,
            _mods: Mods::new(),
        }
    }

    /// Core and `mods` on `layout`.
    pub fn with_mods(mods: Mods, layout: &str) -> Arena {
        let content = mods.load_with_core();
        let battle = Arena::battle(&content, layout, Vec::new());
        Arena {
            content,
            battle,
            _mods: mods,
        }
    }

    /// A battle of `content` on `layout`. Without `waves`, each of ten waves only sends a Red Slime
    /// long after any test ends, which keeps it running while the test places its own attackers
    /// (end it with [`Arena::end_wave`]).
    pub fn battle(content: &Arc<ContentDb>, layout: &str, waves: Vec<WaveSpawns>) -> Battle {
        Battle::new(content.clone(), Arena::config(layout, waves))
    }

    /// `content` on `layout` (no waves, as [`Arena::battle`]), with `augments` on the player's
    /// blueprints (blueprint → augment ids).
    pub fn with_augments(
        content: Arc<ContentDb>,
        layout: &str,
        augments: &[(&str, &[&str])],
    ) -> Arena {
        let mut config = Arena::config(layout, Vec::new());
        config.start.augments = augments
            .iter()
            .map(|(b, a)| (b.to_string(), a.iter().map(|s| s.to_string()).collect()))
            .collect();
        Arena {
            battle: Battle::new(content.clone(), config),
            content,
            _mods: Mods::new(),
        }
    }

    /// The configuration [`Arena::battle`] starts from.
    fn config(layout: &str, waves: Vec<WaveSpawns>) -> BattleConfig {
        let mut config = BattleConfig::new(Seed(5));
        config.world = Some(Arc::new(World::from_layout(layout).unwrap()));
        config.start.hub = Some("core:hub".into());
        config.start.materials = 1000.0;
        config.start.waves = if waves.is_empty() {
            let holding = WaveSpawns {
                spawns: vec![WaveSpawn {
                    delay: 1_000_000,
                    path: 0,
                    attacker: "core:red_slime".into(),
                }],
            };
            vec![holding; 10]
        } else {
            waves
        };
        config
    }

    /// Places a blueprint (a building between waves, an ability during one), or fails the test.
    pub fn place(&mut self, blueprint: &str, x: f64, y: f64) -> EntityId {
        self.place_turned(blueprint, x, y, 0)
    }

    /// Like [`Arena::place`], turned `rotation` quarter turns clockwise from north.
    pub fn place_turned(&mut self, blueprint: &str, x: f64, y: f64, rotation: u8) -> EntityId {
        self.battle
            .place(blueprint, Position { x, y }, rotation)
            .unwrap_or_else(|e| panic!("placing {blueprint} at ({x}, {y}): {e}"))
    }

    /// Starts the next wave.
    pub fn wave(&mut self) {
        self.battle.submit(PlayerCommand::StartWave);
        self.battle.step();
        assert_eq!(self.battle.phase(), Phase::Wave);
    }

    /// Ends the running wave as if its last attacker had died: production, cooldowns and
    /// effects measured in waves come with it.
    pub fn end_wave(&mut self) {
        self.battle.finish_wave();
        assert_eq!(self.battle.phase(), Phase::Build);
    }

    /// What `source` produced of `resource` so far, gain by gain.
    pub fn gains_from(&self, source: EntityId, resource: Resource) -> Vec<f64> {
        self.battle.gains_from(source, resource).collect()
    }

    /// The first tick `tower` fired at.
    pub fn first_shot(&self, tower: EntityId) -> u64 {
        self.fired("tower_fired")
            .into_iter()
            .find(|(_, about)| *about == Some(tower))
            .map(|(tick, _)| tick)
            .expect("the tower fired")
    }

    /// When the event `chain` was fired, and about which entity, as the battle's log has it.
    pub fn fired(&self, chain: &str) -> Vec<(u64, Option<EntityId>)> {
        self.battle
            .log()
            .iter()
            .filter_map(|l| match l.kind {
                LogKind::Event { chain: c, entity } if c == chain => Some((l.tick, entity)),
                _ => None,
            })
            .collect()
    }

    /// An attacker standing still at a point.
    pub fn standing(&mut self, attacker: &str, x: f64, y: f64) -> EntityId {
        let id = self.content.attacker_id(attacker).unwrap();
        self.battle.spawn_attacker(id, Position { x, y })
    }

    /// An attacker walking the path, starting on the tile whose segment starts at column `x`.
    pub fn walking(&mut self, attacker: &str, x: i32) -> EntityId {
        let field = self.battle.field().unwrap().clone();
        let segment = (0..field.segment_count())
            .find(|&s| field.segment(s).from.x == x && field.segment(s).from.y == PATH_Y as i32)
            .unwrap();
        let p = field.along_flat(segment, 0.0);
        let id = self.content.attacker_id(attacker).unwrap();
        self.battle.spawn_attacker_at(
            id,
            Position { x: p.x, y: p.y },
            Some(Route {
                segment,
                progress: 0.0,
            }),
        )
    }

    /// The range of `tower` as the player's window asks for it (a look), after failing the test
    /// if looking added anything to the battle's log.
    pub fn look_at_range(&mut self, tower: EntityId) -> f64 {
        let entity = self.battle.entity(tower).expect("the tower stands");
        let stat = StatOf {
            blueprint: entity.kind.blueprint().expect("a building"),
            entity: Some(tower),
        };
        let before = self.battle.log().len();
        let range = self.battle.look(|b| &b.chains.range, &stat);
        assert_eq!(self.battle.log().len(), before, "looking logged nothing");
        range
    }

    /// Runs `n` ticks.
    pub fn run(&mut self, n: u64) {
        self.battle.run_ticks(n);
    }

    /// An entity's HP (0 once it is gone).
    pub fn hp(&self, id: EntityId) -> f64 {
        self.battle.entity(id).map_or(0.0, |e| e.hp)
    }

    /// Deals `amount` damage of `kind` with no source; returns what was dealt.
    pub fn hit(&mut self, target: EntityId, amount: f64, kind: DamageType) -> f64 {
        self.battle
            .deal(None, target, amount, [kind].into_iter().collect())
    }

    /// The hits `source` dealt, as (tick, HP taken), in order.
    pub fn hits_by(&self, source: EntityId) -> Vec<(u64, f64)> {
        self.battle.hits_by(source).collect()
    }

    /// The hits `target` took, as (tick, HP taken), in order.
    pub fn hits_on(&self, target: EntityId) -> Vec<(u64, f64)> {
        self.battle
            .log()
            .iter()
            .filter_map(|l| match l.kind {
                LogKind::Damaged {
                    amount, target: t, ..
                } if t == target => Some((l.tick, amount)),
                _ => None,
            })
            .collect()
    }

    /// The attackers alive now, by type id, sorted.
    pub fn attackers(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .battle
            .entities()
            .filter_map(|(_, e)| e.kind.attacker())
            .map(|a| self.content.attacker(a).id.clone())
            .collect();
        ids.sort();
        ids
    }

    /// Fails the test if any script failed.
    pub fn no_script_errors(&self) {
        let errors = self.script_errors();
        assert!(errors.is_empty(), "script errors: {errors:#?}");
    }

    /// The battle's script errors as the player reads them.
    pub fn script_errors(&self) -> Vec<String> {
        self.battle.script_errors().map(|e| e.to_string()).collect()
    }
}

/// The gaps between successive ticks.
pub fn gaps(hits: &[(u64, f64)]) -> Vec<u64> {
    hits.windows(2).map(|w| w[1].0 - w[0].0).collect()
}
