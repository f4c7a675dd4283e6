//! The script API on a real world: tiles, rotation, attackers nearby, effects, damage dealt,
//! spawning where another attacker is, removing, and what is refused.

use std::sync::Arc;

use crate::common::{Mods, attacker, blueprint, wave};
use rampart::battle::{Battle, BattleConfig, EntityId, LogKind, Phase, PlayerCommand, Position};
use rampart::content::ContentDb;
use rampart::rng::Seed;
use rampart::worldgen::World;

/// A straight path along y = 1 to the Hub; a fuel deposit south of it (the last line is y = 0).
const LAYOUT: &str = "
    0. 0. 0. 0. 0. 0.
    0> 0> 0> 0> 0> 0H
    0. 0. 0f 0. 0. 0.
";

/// A building that reports what it stands on in its description, freezes and stings each
/// attacker that comes near once, and dismantles itself when the wave is over.
const PROBE: &str = r#"
return {
    on_placed = function(self, game)
        local x, y = self:tile()
        local t = game:tile(x, y)
        self.seen = string.format("at %d,%d turned %d: level %d, obstacle %s, path %s, slant %s",
            x, y, self:rotation(), t.level, tostring(t.obstacle), tostring(t.path), tostring(t.slant))
        self.stung = {}
        self.refusal = "none"
        self:modify("descriptions", -1, function(lines)
            table.insert(lines, self.seen)
            table.insert(lines, "refused: " .. self.refusal)
            return lines
        end)
        game:react("wave_finished", 1, function()
            game:remove(self)
        end)
        game:react("attacker_killed", 1, function(event)
            if event.entity:type() == "a:splitter" then
                game:spawn("a:walker", event.entity)
            end
        end)
    end,
    on_tick = function(self, game)
        local x, y = self:position()
        for _, attacker in game:attackers_near(x, y, self:query("range")) do
            if not self.stung[attacker] then
                self.stung[attacker] = true
                game:apply_effect(attacker, "freezing", { ticks = 40, magnitude = 0.5, source = self.entity })
                game:command("damage", { target = attacker, amount = 1, types = { "energy" }, source = self.entity })
                local ok, err = pcall(function() game:remove(attacker) end)
                if not ok then
                    self.refusal = tostring(err)
                end
            end
        end
    end,
}
"#;

fn content() -> (Mods, Arc<ContentDb>) {
    let mods = Mods::new();
    mods.manifest("a", &["core"]);
    mods.file("a/attackers/walker.ron", &attacker("Walker", 10.0, 1.0, ""));
    mods.file(
        "a/attackers/splitter.ron",
        &attacker("Splitter", 1.0, 1.0, ""),
    );
    mods.file("a/scripts/probe.lua", PROBE);
    mods.file(
        "a/blueprints/probe.ron",
        &blueprint(
            "Probe",
            "Special",
            r#"range: 1.5, script: "scripts/probe.lua",
               placement: Tile(small_obstacles: true, rotatable: true)"#,
        ),
    );
    let content = mods.load_with_core();
    (mods, content)
}

fn battle(content: &Arc<ContentDb>, attackers: &[(u32, &str)]) -> Battle {
    let mut config = BattleConfig::new(Seed(5));
    config.world = Some(Arc::new(World::from_layout(LAYOUT).unwrap()));
    config.start.hub = Some("core:hub".into());
    config.start.waves = vec![wave(attackers)];
    config.start.materials = 100.0;
    Battle::new(content.clone(), config)
}

fn errors(b: &Battle) -> Vec<String> {
    b.script_errors().map(|e| e.to_string()).collect()
}

fn place_probe(b: &mut Battle) -> EntityId {
    b.submit(PlayerCommand::Place {
        blueprint: "a:probe".into(),
        position: Position { x: 2.0, y: 0.0 },
        rotation: 1,
    });
    b.step();
    b.entities()
        .find(|(_, e)| e.kind.name() == "building" && e.tile.is_some_and(|t| t.y == 0))
        .map(|(id, _)| id)
        .expect("the probe stands")
}

#[test]
fn scripts_read_tiles_find_attackers_apply_effects_and_count_damage() {
    let (_mods, content) = content();
    let mut b = battle(&content, &[(0, "a:walker"), (10, "a:walker")]);
    let probe = place_probe(&mut b);
    let probe_bp = content.blueprint_id("a:probe").unwrap();
    let text = b.describe_blueprint(probe_bp, Some(probe)).text.plain();
    assert!(
        text.contains("at 2,0 turned 1: level 0, obstacle fuel, path false, slant nil"),
        "{text}"
    );

    b.submit(PlayerCommand::StartWave);
    b.step();
    let mut frozen = Vec::new();
    while b.phase() == Phase::Wave && b.tick() < 2000 {
        b.step();
        for (id, e) in b.entities() {
            if let Some(effect) = e.effects.iter().find(|x| x.name == "freezing")
                && !frozen.contains(&id)
            {
                assert_eq!(effect.magnitude, 0.5);
                assert_eq!(effect.source, Some(probe));
                frozen.push(id);
            }
        }
        if let Some(&first) = frozen.first()
            && b.entity(first).is_some_and(|e| !e.effects.is_empty())
        {
            assert_eq!(
                b.query(|b| &b.chains.speed, &first),
                0.5,
                "frozen: half speed"
            );
        }
    }
    assert!(errors(&b).is_empty(), "{:?}", errors(&b));
    assert_eq!(frozen.len(), 2, "both walkers came within 1.5 tiles");
    assert_eq!(
        b.entity(probe),
        None,
        "removed itself when the wave finished"
    );
    assert!(
        b.log()
            .iter()
            .any(|l| matches!(&l.kind, LogKind::Event { chain: "building_removed", entity } if *entity == Some(probe)))
    );
}

#[test]
fn damage_dealt_counts_and_attackers_cannot_be_removed() {
    let (_mods, content) = content();
    let mut b = battle(&content, &[(0, "a:walker"), (10, "a:walker")]);
    let probe = place_probe(&mut b);
    let probe_bp = content.blueprint_id("a:probe").unwrap();
    b.submit(PlayerCommand::StartWave);
    // Until both walkers have been stung, but before the wave ends and the probe goes.
    while b.entity(probe).is_some_and(|e| e.damage_dealt < 2.0) && b.tick() < 2000 {
        b.step();
    }
    assert_eq!(b.entity(probe).unwrap().damage_dealt, 2.0);
    let text = b.describe_blueprint(probe_bp, Some(probe)).text.plain();
    assert!(
        text.contains("refused: scripts/probe.lua:31: attackers leave the battle by dying or reaching the Hub; damage them instead"),
        "{text}"
    );
}

#[test]
fn an_attacker_spawned_where_another_died_walks_on_from_there() {
    let (_mods, content) = content();
    let mut b = battle(&content, &[(0, "a:splitter")]);
    place_probe(&mut b);
    b.submit(PlayerCommand::StartWave);
    b.step();
    let walker = content.attacker_id("a:walker").unwrap();
    // The probe's sting (1 damage) kills the splitter; a walker takes its place.
    let (died_at, route) = loop {
        let splitter = b
            .entities()
            .find(|(_, e)| e.kind.name() == "attacker")
            .map(|(id, e)| (id, e.position, e.route));
        b.step();
        if let Some((id, position, route)) = splitter
            && b.entity(id).is_none()
        {
            break (position, route.unwrap());
        }
        assert!(b.tick() < 2000, "the splitter never died");
    };
    let (_, child) = b
        .entities()
        .find(|(_, e)| e.kind.attacker() == Some(walker))
        .expect("a walker took the splitter's place");
    let child_route = child.route.unwrap();
    assert_eq!(child_route.segment, route.segment);
    assert!(
        (child.position.x - died_at.x).abs() <= 0.1,
        "{:?}",
        child.position
    );
    assert!(errors(&b).is_empty(), "{:?}", errors(&b));
    // It walks on to the Hub (and is stung and frozen too, as it is new).
    let hull = b.player().hull;
    while b.phase() == Phase::Wave {
        b.step();
    }
    assert!(b.player().hull < hull, "the walker reached the Hub");
}
