//! A host of Rampart's battles other than the game: it depends on `rampart-core` alone, loads the
//! game's mods, starts a run, enters its first battle room and plays the level with a simple
//! rule of its own — before each wave, place the first tower of the collection it can pay for on
//! the tile where it covers the most path — then prints how the level went and the battle's
//! state hash, the same on every run with the same seed.
//!
//! `cargo run -p rampart-core --example host -- [MODS_FOLDER] [SEED]` (from the repository's root:
//! the folder defaults to `mods`, the seed to 1).

use std::path::PathBuf;
use std::sync::Arc;

use rampart_core::battle::{Battle, Phase, PlayerCommand, Position};
use rampart_core::content::acts::NodeKind;
use rampart_core::content::{BlueprintId, BlueprintKind, ContentDb};
use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};
use rampart_core::run::{Run, RunConfig};

/// A wave still running after this many ticks is taken as stuck.
const MAX_WAVE_TICKS: u64 = 20 * 60 * rampart_core::TICKS_PER_SECOND;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let folder = PathBuf::from(args.next().unwrap_or_else(|| "mods".into()));
    let seed: u64 = args.next().map_or(Ok(1), |s| s.parse())?;

    // The mods of one folder, with every default the player has not changed.
    let dirs = [ModDir {
        path: folder,
        origin: Origin::Game,
    }];
    let set = ModSet::discover(&dirs, &ModSettings::default());
    let (content, diagnostics) = ContentDb::load(&set);
    for d in diagnostics.iter().chain(set.diagnostics.iter()) {
        eprintln!("{d}");
    }
    let content = Arc::new(content);

    // A run on its first act's map; the first battle room open.
    let mut run = Run::new(&content, RunConfig::new(seed))?;
    let map = run.map();
    let room = run
        .choices()
        .into_iter()
        .find(|&id| map.node(id).is_some_and(|n| n.kind == NodeKind::Battle))
        .ok_or("the map opens no battle room")?;
    run.enter(&content, room)?;
    let mut battle = run.plan(&content)?.start(&content)?;

    while matches!(battle.phase(), Phase::Build) {
        build(&mut battle);
        battle.submit(PlayerCommand::StartWave);
        let started = battle.tick();
        battle.step();
        while battle.phase() == Phase::Wave && battle.tick() - started < MAX_WAVE_TICKS {
            battle.step();
        }
        if battle.phase() == Phase::Wave {
            return Err("a wave did not end".into());
        }
    }
    let player = battle.player();
    println!(
        "level {:?} after {} waves and {} ticks: fuel {:.0} / {:.0}, hull {:.0}, state hash {:016x}",
        battle.phase(),
        battle.wave(),
        battle.tick(),
        player.fuel,
        player.fuel_goal,
        player.hull,
        battle.state_hash()
    );
    Ok(())
}

/// Places towers while one can be paid for: each on the tile where it covers the most path,
/// as the battle itself previews it.
fn build(battle: &mut Battle) {
    loop {
        let content = battle.content().clone();
        let towers: Vec<BlueprintId> = battle
            .collection()
            .iter()
            .copied()
            .filter(|&id| content.blueprint(id).kind == BlueprintKind::Tower)
            .collect();
        let Some(tower) = towers.into_iter().find(|&id| {
            let cost = battle.cost(id);
            battle.payment(cost).is_ok()
        }) else {
            return;
        };
        let best = battle
            .valid_locations(tower)
            .into_iter()
            .map(|tile| {
                let covered: f64 = battle
                    .coverage_preview(tower, tile, 0)
                    .iter()
                    .map(|c| c.small)
                    .sum();
                (covered, tile)
            })
            .filter(|&(covered, _)| covered > 0.0)
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let Some((_, tile)) = best else {
            return;
        };
        let standing = battle.entities().count();
        battle.submit(PlayerCommand::Place {
            blueprint: content.blueprint(tower).id.clone(),
            // A tile's centre: positions are in tiles, tile (x, y) around the point (x, y).
            position: Position {
                x: f64::from(tile.x),
                y: f64::from(tile.y),
            },
            rotation: 0,
        });
        // A command is carried out at the next tick; a refused one builds nothing.
        battle.step();
        if battle.entities().count() == standing {
            return;
        }
    }
}
