//! The thesis's two motivating examples for modifiable chains (§3.12), as numbers, with Rust
//! callbacks and with Lua callbacks through real mod loading.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use crate::common::{Mods, attacker, blueprint};
use rampart_core::battle::{
    Battle, BattleConfig, EntityId, Gain, Owner, PlayerCommand, Position, Scope, StatOf,
};
use rampart_core::chain::{Flow, Outcome};
use rampart_core::content::ContentDb;
use rampart_core::rng::Seed;

/// Content with a runner (1 tile/s, 10 HP) and a frost tower (range 2), optionally scripted.
fn example_a_content(scripted: bool) -> Arc<ContentDb> {
    let mods = Mods::new();
    mods.manifest("ex", &[]);
    let runner_script = if scripted {
        "script: \"scripts/runner.lua\","
    } else {
        ""
    };
    let frost_script = if scripted {
        "script: \"scripts/frost.lua\","
    } else {
        ""
    };
    mods.file(
        "ex/attackers/runner.ron",
        &attacker("Runner", 10.0, 1.0, runner_script),
    );
    mods.file(
        "ex/blueprints/frost.ron",
        &blueprint("Frost", "Special", &format!("range: 2.0, {frost_script}")),
    );
    mods.file(
        "ex/scripts/runner.lua",
        r#"
-- Gains 1 tile/s below half HP: an additive change, applied early.
return {
    on_spawn = function(self, game)
        self:modify("speed", -20, function(speed)
            if self:hp() < self:max_hp() / 2 then
                return speed + 1
            end
        end)
    end,
}
"#,
    );
    mods.file(
        "ex/scripts/frost.lua",
        r#"
-- Slows every attacker in range by 25 %: a multiplicative change, applied after additive ones.
return {
    on_placed = function(self, game)
        game:modify("speed", -10, function(speed, attacker)
            local ax, ay = attacker:position()
            local bx, by = self:position()
            if math.sqrt((ax - bx) ^ 2 + (ay - by) ^ 2) <= self:query("range") then
                return speed * 0.75
            end
        end)
    end,
}
"#,
    );
    mods.load_clean()
}

fn speed(b: &mut Battle, e: EntityId) -> f64 {
    b.query(|b| &b.chains.speed, &e)
}

/// Registers the example's two modifiers as Rust closures, in the given order.
fn rust_modifiers(b: &mut Battle, runner: EntityId, frost: EntityId, slow_first: bool) {
    let speed_up = |b: &mut Battle| {
        b.chains.speed.modify(
            Owner::Entity(runner),
            Scope::Subject(runner),
            -20,
            Box::new(|b: &mut Battle, e: &EntityId, v: &mut f64| {
                let e = b.entity(*e).unwrap();
                if e.hp < e.max_hp / 2.0 {
                    *v += 1.0;
                }
            }),
        );
    };
    let slow = |b: &mut Battle| {
        b.chains.speed.modify(
            Owner::Entity(frost),
            Scope::Global,
            -10,
            Box::new(move |b: &mut Battle, e: &EntityId, v: &mut f64| {
                let blueprint = b.entity(frost).unwrap().kind.blueprint().unwrap();
                let range = b.query(
                    |b| &b.chains.range,
                    &StatOf {
                        blueprint,
                        entity: Some(frost),
                    },
                );
                let tower = b.entity(frost).unwrap().position;
                if b.entity(*e).unwrap().position.distance(tower) <= range {
                    *v *= 0.75;
                }
            }),
        );
    };
    if slow_first {
        slow(b);
        speed_up(b);
    } else {
        speed_up(b);
        slow(b);
    }
}

#[derive(Clone, Copy, Debug)]
enum Step {
    EnterRange,
    DropBelowHalf,
    LeaveRange,
}

/// Runs one order of events and checks the speed after each against what the state implies.
fn check_order(scripted: bool, slow_first: bool, order: &[Step]) {
    let content = example_a_content(scripted);
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
    let frost = b
        .place("ex:frost", Position { x: 10.0, y: 0.0 }, 0)
        .unwrap();
    let runner = b.spawn_attacker(
        content.attacker_id("ex:runner").unwrap(),
        Position { x: 0.0, y: 0.0 },
    );
    if !scripted {
        rust_modifiers(&mut b, runner, frost, slow_first);
    }
    assert_eq!(b.script_errors().count(), 0, "{:?}", b.log());
    assert_eq!(speed(&mut b, runner), 1.0);
    let (mut in_range, mut hurt) = (false, false);
    for step in order {
        match step {
            Step::EnterRange => {
                b.set_position(runner, Position { x: 9.0, y: 0.5 });
                in_range = true;
            }
            Step::LeaveRange => {
                b.set_position(runner, Position { x: 20.0, y: 0.0 });
                in_range = false;
            }
            Step::DropBelowHalf => {
                let outcome = b.command(
                    |b| &b.chains.damage,
                    rampart_core::battle::Damage {
                        target: runner,
                        amount: 6.0,
                        types: [rampart_core::content::DamageType::Physical]
                            .into_iter()
                            .collect(),
                        source: None,
                        own_hit: false,
                        dealt: 0.0,
                    },
                );
                assert_eq!(outcome.applied().unwrap().dealt, 6.0);
                hurt = true;
            }
        }
        let expected = match (in_range, hurt) {
            (false, false) => 1.0,
            (true, false) => 0.75,
            (true, true) => 1.5,
            (false, true) => 2.0,
        };
        assert_eq!(
            speed(&mut b, runner),
            expected,
            "after {step:?} in {order:?} (scripted: {scripted})"
        );
    }
    assert_eq!(b.script_errors().count(), 0, "{:?}", b.log());
}

const ORDERS: [[Step; 3]; 3] = [
    [Step::EnterRange, Step::DropBelowHalf, Step::LeaveRange],
    [Step::DropBelowHalf, Step::EnterRange, Step::LeaveRange],
    [Step::EnterRange, Step::LeaveRange, Step::DropBelowHalf],
];

#[test]
fn example_a_speed_with_rust_modifiers_in_any_order() {
    for order in ORDERS {
        check_order(false, false, &order);
        check_order(false, true, &order);
    }
}

#[test]
fn example_a_speed_with_lua_modifiers_in_any_order() {
    for order in ORDERS {
        check_order(true, false, &order);
    }
}

#[test]
fn example_a_slow_ends_when_the_tower_is_removed() {
    let content = example_a_content(true);
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
    let frost = b.place("ex:frost", Position { x: 0.0, y: 0.0 }, 0).unwrap();
    let runner = b.spawn_attacker(
        content.attacker_id("ex:runner").unwrap(),
        Position { x: 1.0, y: 0.0 },
    );
    assert_eq!(speed(&mut b, runner), 0.75);
    b.submit(PlayerCommand::Remove { entity: frost });
    b.step();
    assert!(b.entity(frost).is_none());
    assert_eq!(speed(&mut b, runner), 1.0);
}

/// Content for example (b): a solar panel and a converter building.
fn example_b_content() -> Arc<ContentDb> {
    let mods = Mods::new();
    mods.manifest("ex", &[]);
    mods.file(
        "ex/blueprints/solar.ron",
        &blueprint("Solar", "Economic", "energy_production: 10"),
    );
    mods.file(
        "ex/blueprints/converter.ron",
        &blueprint("Converter", "Special", "script: \"scripts/converter.lua\","),
    );
    mods.file(
        "ex/blueprints/plain_converter.ron",
        &blueprint("Plain Converter", "Special", ""),
    );
    mods.file(
        "ex/scripts/converter.lua",
        r#"
-- Every energy gain becomes a material gain of the same amount.
return {
    on_placed = function(self, game)
        game:modify("add_energy", -5, function(gain)
            game:command("add_materials", { amount = gain.amount, source = gain.source })
            return false -- cancel the energy gain
        end)
    end,
}
"#,
    );
    mods.load_clean()
}

/// Records the pop-ups a player would see for resource gains, as a Rust reaction.
fn popups(b: &mut Battle) -> Rc<RefCell<Vec<String>>> {
    let seen = Rc::new(RefCell::new(Vec::new()));
    for (resource, materials) in [("materials", true), ("energy", false)] {
        let seen = seen.clone();
        let reaction = Box::new(move |_: &mut Battle, g: &Gain| {
            seen.borrow_mut().push(format!("+{} {resource}", g.amount))
        });
        let chain = if materials {
            &mut b.chains.add_materials
        } else {
            &mut b.chains.add_energy
        };
        chain
            .react(Owner::Engine, Scope::Global, 100, reaction)
            .unwrap();
    }
    seen
}

fn produce_energy(b: &mut Battle, source: EntityId) -> Outcome<Gain> {
    b.command(
        |b| &b.chains.add_energy,
        Gain {
            amount: 10.0,
            source: Some(source),
        },
    )
}

#[test]
fn example_b_energy_becomes_materials_with_a_rust_modifier() {
    let mut b = Battle::new(example_b_content(), BattleConfig::new(Seed(2)));
    let seen = popups(&mut b);
    let solar = b.place("ex:solar", Position::default(), 0).unwrap();
    let converter = b
        .place("ex:plain_converter", Position { x: 1.0, y: 0.0 }, 0)
        .unwrap();
    b.chains
        .add_energy
        .modify(
            Owner::Entity(converter),
            Scope::Global,
            -5,
            Box::new(|b: &mut Battle, g: &mut Gain| {
                b.command(|b| &b.chains.add_materials, g.clone());
                Flow::Cancel
            }),
        )
        .unwrap();
    let (materials, energy) = (b.player().materials, b.player().energy);
    assert!(produce_energy(&mut b, solar).is_cancelled());
    assert_eq!(b.player().materials, materials + 10.0);
    assert_eq!(b.player().energy, energy);
    assert_eq!(*seen.borrow(), ["+10 materials"]);
    // Without the converter, energy is energy again.
    b.submit(PlayerCommand::Remove { entity: converter });
    b.step();
    assert!(!produce_energy(&mut b, solar).is_cancelled());
    assert_eq!(b.player().energy, energy + 10.0);
    assert_eq!(*seen.borrow(), ["+10 materials", "+10 energy"]);
}

#[test]
fn example_b_energy_becomes_materials_with_a_lua_modifier() {
    let mut b = Battle::new(example_b_content(), BattleConfig::new(Seed(2)));
    let seen = popups(&mut b);
    let solar = b.place("ex:solar", Position::default(), 0).unwrap();
    let converter = b
        .place("ex:converter", Position { x: 1.0, y: 0.0 }, 0)
        .unwrap();
    let (materials, energy) = (b.player().materials, b.player().energy);
    assert!(produce_energy(&mut b, solar).is_cancelled());
    assert_eq!(b.script_errors().count(), 0, "{:?}", b.log());
    assert_eq!(b.player().materials, materials + 10.0);
    assert_eq!(b.player().energy, energy);
    assert_eq!(*seen.borrow(), ["+10 materials"]);
    b.submit(PlayerCommand::Remove { entity: converter });
    b.step();
    assert!(!produce_energy(&mut b, solar).is_cancelled());
    assert_eq!(b.player().energy, energy + 10.0);
    assert_eq!(*seen.borrow(), ["+10 materials", "+10 energy"]);
}
