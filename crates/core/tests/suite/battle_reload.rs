//! Changing a battle's world and content between waves (hot reload while playing): the same
//! paths on new terrain, buildings that no longer fit refunded, new blueprint numbers and
//! scripts from the next build phase, and nothing of the run lost.

use std::sync::Arc;

use crate::common::{Mods, blueprint, wave};
use rampart_core::battle::{Battle, BattleConfig, EntityKind, Phase, PlayerCommand, Position};
use rampart_core::content::{ContentDb, Priority};
use rampart_core::rng::Seed;
use rampart_core::worldgen::{World, WorldParams, generate_world, regenerate_terrain};

fn core() -> Arc<ContentDb> {
    Mods::new().load_with_core()
}

fn hills_world(content: &ContentDb) -> Arc<World> {
    let hills = content.terrain("core:hills").unwrap();
    Arc::new(generate_world(&WorldParams::default(), hills, Seed(42)).unwrap())
}

fn battle_on(content: &Arc<ContentDb>, world: Arc<World>) -> Battle {
    let mut config = BattleConfig::new(Seed(5));
    config.world = Some(world);
    config.start.hub = Some("core:hub".into());
    config.start.materials = 10_000.0;
    config.start.waves = vec![
        wave(&[(0, "core:red_slime")]),
        wave(&[(0, "core:red_slime")]),
    ];
    Battle::new(content.clone(), config)
}

/// Places a Budget Sentry on every tile that takes one; returns how many.
fn fill_with_sentries(b: &mut Battle, world: &World) -> usize {
    let tiles = b.valid_tiles("core:budget_sentry");
    for p in &tiles {
        b.submit(PlayerCommand::place(
            "core:budget_sentry",
            f64::from(p.x),
            f64::from(p.y),
        ));
    }
    b.step();
    assert_eq!(tiles.len(), sentries(b));
    assert!(world.grid.tiles().count() > tiles.len());
    tiles.len()
}

fn sentries(b: &Battle) -> usize {
    let sentry = b.content().blueprint_id("core:budget_sentry").unwrap();
    b.entities()
        .filter(|(_, e)| e.kind == EntityKind::Building(sentry))
        .count()
}

#[test]
fn new_terrain_keeps_the_paths_and_refunds_what_no_longer_fits() {
    let content = core();
    let world = hills_world(&content);
    let mut b = battle_on(&content, world.clone());
    let placed = fill_with_sentries(&mut b, &world);
    let materials = b.player().materials;
    let islands = content.terrain("core:islands").unwrap();
    let again = Arc::new(regenerate_terrain(&world, islands, 16).unwrap());

    let refunds = b.replace_world(again.clone()).unwrap();

    assert!(!refunds.is_empty(), "islands flood some hill tiles");
    assert_eq!(sentries(&b), placed - refunds.len());
    let refunded: f64 = refunds.iter().map(|r| r.cost.materials).sum();
    assert_eq!(b.player().materials, materials + refunded);
    assert!(
        refunds
            .iter()
            .all(|r| r.name == "Budget Sentry" && r.tile.is_some())
    );
    let field = b.field().unwrap();
    assert_eq!(field.world().terrain, "core:islands");
    assert_eq!(field.world().network, world.network);
    // What is left stands where it may, and the level plays on.
    for (_, e) in b.entities() {
        if let (EntityKind::Building(_), Some(tile)) = (e.kind, e.tile) {
            assert!(again.buildable(tile) || tile == again.hub, "{tile:?}");
        }
    }
    b.submit(PlayerCommand::StartWave);
    b.run_ticks(2000);
    assert_ne!(b.phase(), Phase::Wave, "the wave ends on the new terrain");
}

#[test]
fn the_world_changes_only_between_waves_and_only_under_the_same_paths() {
    let content = core();
    let world = hills_world(&content);
    let mut b = battle_on(&content, world.clone());
    let other = generate_world(
        &WorldParams::default(),
        content.terrain("core:hills").unwrap(),
        Seed(43),
    )
    .unwrap();
    assert!(
        b.replace_world(Arc::new(other))
            .unwrap_err()
            .contains("paths")
    );
    b.submit(PlayerCommand::StartWave);
    b.step();
    assert_eq!(b.phase(), Phase::Wave);
    let err = b.replace_world(world).unwrap_err();
    assert!(err.contains("between waves"), "{err}");
}

fn gun_mod(damage: u32, extra_blueprint: bool) -> Mods {
    let mods = Mods::new();
    mods.manifest("g", &["core"]);
    mods.file(
        "g/blueprints/gun.ron",
        &blueprint(
            "Gun",
            "Tower",
            &format!(
                "cost: (materials: 10), range: 3, damage: {damage}, damage_type: [Physical], interval: 10, behaviour: Shooter(())"
            ),
        ),
    );
    // A shop that makes every blueprint 1 material cheaper while it stands: registered by its
    // script when placed, so a reload must register it again, once.
    mods.file(
        "g/blueprints/shop.ron",
        &blueprint(
            "Shop",
            "Special",
            "cost: (materials: 5), script: \"scripts/shop.lua\"",
        ),
    );
    mods.file(
        "g/scripts/shop.lua",
        r#"
return {
    on_placed = function(self, game)
        game:modify("blueprint_cost", -5, function(cost)
            return { materials = cost.materials - 1, energy = cost.energy }
        end)
    end,
}
"#,
    );
    if extra_blueprint {
        mods.file(
            "g/blueprints/hut.ron",
            &blueprint("Hut", "Economic", "cost: (materials: 7)"),
        );
    }
    mods
}

fn load(mods: &Mods) -> Arc<ContentDb> {
    mods.load_with_core()
}

#[test]
fn new_content_applies_and_keeps_the_battle() {
    let old_mods = gun_mod(2, true);
    let content = load(&old_mods);
    let world = hills_world(&content);
    let mut b = battle_on(&content, world.clone());
    let tiles = b.valid_tiles("g:gun");
    let at = |i: usize| Position {
        x: f64::from(tiles[i].x),
        y: f64::from(tiles[i].y),
    };
    for (i, id) in ["g:gun", "g:shop", "g:hut"].iter().enumerate() {
        b.submit(PlayerCommand::Place {
            blueprint: id.to_string(),
            position: at(i * 3),
            rotation: 0,
        });
    }
    b.step();
    let gun = b
        .entities()
        .find(|(_, e)| e.kind.blueprint() == content.blueprint_id("g:gun"))
        .map(|(id, _)| id)
        .unwrap();
    b.submit(PlayerCommand::SetPriority {
        entity: gun,
        priority: Priority::Strongest,
    });
    b.step();
    let gun_bp = content.blueprint_id("g:gun").unwrap();
    assert_eq!(b.describe_blueprint(gun_bp, None).cost.materials, 9.0);
    let (tick, wave, player) = (b.tick(), b.wave(), b.player().clone());

    // The gun hits harder now, and the hut is gone from the mod.
    let new_mods = gun_mod(5, false);
    let new_content = load(&new_mods);
    let refunds = b.reload_content(new_content.clone()).unwrap();

    assert_eq!(refunds.len(), 1);
    assert_eq!(refunds[0].name, "Hut");
    assert_eq!(b.player().materials, player.materials + 7.0);
    assert_eq!(
        (b.tick(), b.wave(), b.player().hull),
        (tick, wave, player.hull)
    );
    let gun_bp = new_content.blueprint_id("g:gun").unwrap();
    let e = b.entity(gun).expect("the gun keeps its id");
    assert_eq!(e.kind, EntityKind::Building(gun_bp));
    assert_eq!(e.tower.as_ref().unwrap().priority, Priority::Strongest);
    assert_eq!(b.content().blueprint(gun_bp).damage, Some(5.0));
    let view = b.describe_blueprint(gun_bp, Some(gun));
    // The shop's discount is registered again, once.
    assert_eq!(view.cost.materials, 9.0);
    assert!(b.entity(b.state().hub.unwrap()).is_some(), "the Hub stays");
    let errors: Vec<_> = b.script_errors().collect();
    assert!(errors.is_empty(), "{errors:?}");
    b.submit(PlayerCommand::StartWave);
    b.run_ticks(2000);
    assert_ne!(b.phase(), Phase::Wave);
    assert!(b.reload_content(new_content).is_ok());
}
