//! A tower's own hits told from scripted damage (`own_hit`), and a tower's target set by a
//! script (`set_target`): the documented ricochet and spotter, and the rules around them.

use rampart_core::battle::EntityId;
use rampart_core::content::DamageType;

use crate::common::arena::{Arena, STRAIGHT};
use crate::common::{Mods, attacker, blueprint, documented_file};

/// A tower of mod `beacon`: 4 physical damage a shot, every 10 ticks, range 3.
fn tower(name: &str, script: Option<&str>) -> String {
    let script = script.map_or(String::new(), |s| format!("script: \"scripts/{s}.lua\","));
    blueprint(
        name,
        "Tower",
        &format!(
            "cost: (materials: 10), range: 3, damage: 4, damage_type: [Physical], interval: 10, \
             behaviour: Shooter(()), {script}"
        ),
    )
}

/// Mod `beacon` with a gun (a plain tower), a dummy attacker of 1000 HP, and `files` (path under
/// the mod, text).
fn arena(files: &[(&str, String)]) -> Arena {
    let mods = Mods::new();
    mods.manifest("beacon", &["core"])
        .file("beacon/blueprints/gun.ron", &tower("Gun", None))
        .file(
            "beacon/attackers/dummy.ron",
            &attacker("Dummy", 1000.0, 1.0, ""),
        );
    for (path, text) in files {
        mods.file(&format!("beacon/{path}"), text);
    }
    Arena::with_mods(mods, STRAIGHT)
}

#[test]
fn the_documented_ricochet_bounces_its_own_hits_once_and_never_its_bounces() {
    let mut arena = arena(&[
        (
            "blueprints/ricochet.ron",
            tower("Ricochet", Some("ricochet")),
        ),
        (
            "scripts/ricochet.lua",
            documented_file("beacon/scripts/ricochet.lua"),
        ),
    ]);
    let ricochet = arena.place("beacon:ricochet", 5.0, 1.0);
    let first = arena.standing("beacon:dummy", 5.0, 3.0);
    let second = arena.standing("beacon:dummy", 6.0, 3.0);
    arena.run(60);
    arena.no_script_errors();
    let hits = arena.hits_by(ricochet);
    let own = hits.iter().filter(|(_, d)| *d == 4.0).count();
    let bounces = hits.iter().filter(|(_, d)| *d == 2.0).count();
    assert!(own >= 5, "{hits:?}");
    assert_eq!(own, bounces, "one bounce per own hit: {hits:?}");
    assert_eq!(hits.len(), own + bounces, "no bounce of a bounce: {hits:?}");
    // Both took some: the tower shoots one, the bounces land on the other.
    assert!(!arena.hits_on(first).is_empty() && !arena.hits_on(second).is_empty());

    // Damage a script or a test deals is never an own hit, whatever its source.
    let before = arena.hits_by(ricochet).len();
    arena.battle.deal(
        Some(ricochet),
        first,
        4.0,
        [DamageType::Physical].into_iter().collect(),
    );
    assert_eq!(arena.hits_by(ricochet).len(), before + 1, "no bounce");
}

/// Two dummies a gun on (5, 1) reaches; the first spawned is its priority's choice (they tie).
fn two_dummies(arena: &mut Arena) -> (EntityId, EntityId) {
    let first = arena.standing("beacon:dummy", 5.0, 3.0);
    let second = arena.standing("beacon:dummy", 6.0, 3.0);
    (first, second)
}

#[test]
fn the_documented_spotter_turns_nearby_towers_to_the_strongest_attacker() {
    let mut arena = arena(&[
        (
            "blueprints/spotter.ron",
            blueprint("Spotter", "Special", "script: \"scripts/spotter.lua\","),
        ),
        (
            "scripts/spotter.lua",
            documented_file("beacon/scripts/spotter.lua"),
        ),
    ]);
    let gun = arena.place("beacon:gun", 5.0, 1.0);
    let (first, second) = two_dummies(&mut arena);
    // Without the spotter the gun shoots the first.
    arena.run(25);
    assert!(!arena.hits_on(first).is_empty());
    assert!(arena.hits_on(second).is_empty());
    // The second is now the strongest: the spotter turns the gun to it within a second.
    arena.place("beacon:spotter", 4.0, 1.0);
    arena.run(21);
    let turned = arena.battle.tick();
    arena.run(40);
    arena.no_script_errors();
    let aiming = arena.battle.entity(gun).unwrap().tower.as_ref().unwrap();
    assert_eq!(aiming.aiming_at, Some(second));
    assert_eq!(aiming.focus, Some(second));
    assert!(arena.hits_on(second).iter().any(|(t, _)| *t > turned));
    assert!(arena.hits_on(first).iter().all(|(t, _)| *t <= turned));
}

/// Sets the gun's target once, to the dummy its `wanted` parameter names, and checks what
/// `set_target` refuses.
const SETTER: &str = r#"
return {
    on_tick = function(self, game)
        if self.done then
            return
        end
        self.done = true
        local gun = game:building_at(5, 1)
        local wanted = self:param("wanted")
        if wanted == "first" or wanted == "second" then
            local dummies = {}
            for _, a in game:attackers_near(5, 3, 3) do
                table.insert(dummies, a)
            end
            table.sort(dummies, function(a, b) return a.id < b.id end)
            local pick = if wanted == "first" then dummies[1] else dummies[2]
            assert(gun:set_target(pick) == true, "a gun is a tower")
        elseif wanted == "none" then
            assert(gun:set_target(nil) == true)
        end
        assert(self:set_target(nil) == false, "a setter is not a tower")
        local ok, err = pcall(function() gun:set_target(self) end)
        assert(not ok and string.find(tostring(err), "towers aim at attackers", 1, true), tostring(err))
    end,
}
"#;

fn setter(wanted: &str) -> (Arena, EntityId, EntityId, EntityId) {
    let mut arena = arena(&[
        (
            "blueprints/setter.ron",
            blueprint(
                "Setter",
                "Special",
                &format!("script: \"scripts/setter.lua\", params: {{\"wanted\": \"{wanted}\"}},"),
            ),
        ),
        ("scripts/setter.lua", SETTER.to_string()),
    ]);
    let gun = arena.place("beacon:gun", 5.0, 1.0);
    let (first, second) = two_dummies(&mut arena);
    arena.place("beacon:setter", 4.0, 1.0);
    (arena, gun, first, second)
}

#[test]
fn a_target_holds_until_it_dies_or_is_let_go() {
    let (mut arena, gun, first, second) = setter("second");
    arena.run(30);
    arena.no_script_errors();
    // The gun's first shot comes in the tick before the setter's first `on_tick`.
    assert!(
        arena.hits_on(first).len() <= 1,
        "{:?}",
        arena.hits_on(first)
    );
    assert!(!arena.hits_on(second).is_empty());
    // Let go at once: the priority's choice from the start.
    let (mut plain, _, plain_first, plain_second) = setter("none");
    plain.run(30);
    plain.no_script_errors();
    assert!(!plain.hits_on(plain_first).is_empty());
    assert!(plain.hits_on(plain_second).is_empty());
    // Once the target dies the gun's priority chooses again.
    arena.hit(second, 1e9, DamageType::HpLoss);
    arena.run(1);
    let tower = arena.battle.entity(gun).unwrap().tower.as_ref().unwrap();
    assert_eq!(tower.focus, None, "let go");
    arena.run(20);
    assert!(!arena.hits_on(first).is_empty(), "back to its priority");
}
