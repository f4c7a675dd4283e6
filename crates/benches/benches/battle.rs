//! One battle tick with many attackers and towers, against the goal of 5 000 attackers and 300
//! towers in under 5 ms.
//!
//! The world is a 41×41 hand-drawn field with a snaking path; attackers stand on it spread over
//! every segment (speed 0 and endless HP keep the state the same from one tick to the next, so
//! every iteration measures the same work: movement queries, targeting, firing, shots and
//! hooks). A tenth of the towers run a Lua `on_tick` hook and react to their own shots.
//!
//! Run with `cargo bench -p rampart-benches --bench battle`; results go in docs/benchmarks.md.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rampart_core::battle::{
    Battle, BattleConfig, Damage, EntityKind, Gain, Owner, PlayerCommand, Position, Scope,
    WaveSpawn, WaveSpawns,
};
use rampart_core::content::{BlueprintKind, ContentDb, DamageType};
use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};
use rampart_core::rng::Seed;
use rampart_core::worldgen::{Pos, World};

const SIZE: i32 = 41;

/// A snake: east along row 1, up three rows at the east end, west along row 4, up, and so on;
/// the Hub ends it.
fn layout() -> String {
    let mut cells = vec![vec!["0.".to_string(); SIZE as usize]; SIZE as usize];
    let rows: Vec<i32> = (1..SIZE - 1).step_by(3).collect();
    let mut last = Pos::new(0, 1);
    for (i, &y) in rows.iter().enumerate() {
        let east = i % 2 == 0;
        let xs: Vec<i32> = if east {
            (1..SIZE - 1).collect()
        } else {
            (1..SIZE - 1).rev().collect()
        };
        for &x in &xs {
            cells[y as usize][x as usize] = if east { "0>" } else { "0<" }.into();
        }
        let end = *xs.last().unwrap();
        if i + 1 < rows.len() {
            cells[y as usize][end as usize] = "0^".into();
            cells[(y + 1) as usize][end as usize] = "0^".into();
            cells[(y + 2) as usize][end as usize] = "0^".into();
        }
        last = Pos::new(end, y);
    }
    cells[last.y as usize][last.x as usize] = "0H".into();
    // Rows in the text run from north to south.
    cells
        .iter()
        .rev()
        .map(|row| row.join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn content(dir: &Path) -> Arc<ContentDb> {
    let write = |rel: &str, text: &str| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("b/mod.ron", r#"(id: "b", name: "Bench", version: "0.1.0")"#);
    write(
        "b/attackers/blob.ron",
        r#"(name: "Blob", size: Small, max_health: 1e9, speed: 0.0001, min_spacing: 0.5, value: 1)"#,
    );
    let tower = |name: &str, extra: &str| {
        format!(
            r#"(name: "{name}", kind: Tower, rarity: Common, range: 3, damage: 1, damage_type: [Physical], interval: 10, {extra})"#
        )
    };
    write(
        "b/blueprints/gun.ron",
        &tower("Gun", "behaviour: Shooter(())"),
    );
    write(
        "b/blueprints/bolt.ron",
        &tower(
            "Bolt",
            "behaviour: Shooter((projectile: Straight(speed: 6)))",
        ),
    );
    write(
        "b/blueprints/smart.ron",
        &tower(
            "Smart",
            "behaviour: Shooter(()), script: \"scripts/smart.lua\"",
        ),
    );
    write(
        "b/scripts/smart.lua",
        r#"
return {
    on_placed = function(self, game)
        self.shots = 0
        self:react("tower_fired", 10, function() self.shots += 1 end)
    end,
    on_tick = function(self, game)
        self.ticks = (self.ticks or 0) + 1
    end,
}
"#,
    );
    let dirs = [ModDir {
        path: dir.to_path_buf(),
        origin: Origin::Extra,
    }];
    let (db, diagnostics) = ContentDb::load(&ModSet::discover(&dirs, &ModSettings::default()));
    assert!(
        !diagnostics.has_errors(),
        "{:?}",
        diagnostics
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
    );
    Arc::new(db)
}

/// A battle on the snake with plenty to build with, whose one wave sends `holding` only when
/// no benchmark is looking, so the wave runs while the benchmark places its own attackers.
fn on_the_snake(content: &Arc<ContentDb>, holding: &str) -> Battle {
    let mut config = BattleConfig::new(Seed(1));
    config.world = Some(Arc::new(World::from_layout(&layout()).unwrap()));
    config.start.materials = 1e9;
    config.start.energy = 1e9;
    config.start.waves = vec![WaveSpawns {
        spawns: vec![WaveSpawn {
            delay: u32::MAX,
            path: 0,
            attacker: holding.into(),
        }],
    }];
    Battle::new(content.clone(), config)
}

/// A battle in its wave with `attackers` on the path and `towers` beside it.
fn battle(content: &Arc<ContentDb>, attackers: usize, towers: usize) -> Battle {
    let mut b = on_the_snake(content, "b:blob");
    let field = b.field().unwrap().clone();
    let spots: Vec<Pos> = (0..SIZE)
        .flat_map(|y| (0..SIZE).map(move |x| Pos::new(x, y)))
        .filter(|&p| {
            !field.on_path(p)
                && [(0, 1), (0, -1)]
                    .iter()
                    .any(|(dx, dy)| field.on_path(Pos::new(p.x + dx, p.y + dy)))
        })
        .collect();
    assert!(spots.len() >= towers, "{} spots", spots.len());
    for (i, p) in spots.iter().take(towers).enumerate() {
        let blueprint = match i % 10 {
            0 => "b:smart",
            1..=3 => "b:bolt",
            _ => "b:gun",
        };
        b.place(
            blueprint,
            Position {
                x: f64::from(p.x),
                y: f64::from(p.y),
            },
            0,
        )
        .unwrap();
    }
    b.submit(PlayerCommand::StartWave);
    b.step();
    let blob = content.attacker_id("b:blob").unwrap();
    b.spread_attackers(&[blob], 0..attackers, 0.1);
    // Let every tower work out its coverage and get into its firing rhythm.
    b.run_ticks(20);
    b
}

fn ticks(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let content = content(dir.path());
    let mut group = c.benchmark_group("tick");
    group.sample_size(30);
    for (attackers, towers) in [(1000, 100), (1000, 300), (5000, 100), (5000, 300)] {
        let mut b = battle(&content, attackers, towers);
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{attackers}x{towers}")),
            &(),
            |bench, _| {
                bench.iter(|| {
                    b.step();
                    // The client takes the log every frame.
                    black_box(b.drain_log().len())
                })
            },
        );
    }
    group.finish();
}

/// The core mod as the game loads it.
fn core_content() -> Arc<ContentDb> {
    let dirs = [ModDir {
        path: Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("mods"),
        origin: Origin::Game,
    }];
    let (db, diagnostics) = ContentDb::load(&ModSet::discover(&dirs, &ModSettings::default()));
    assert!(!diagnostics.has_errors());
    Arc::new(db)
}

/// A battle of real core content on the snake: `towers` of core's towers (every kind in turn,
/// with their scripts) beside the path, and `attackers` of core's scripted attacker types
/// (resistances, shields, coffins, druids, slimes that split…) spread over the path, walking.
fn core_battle(content: &Arc<ContentDb>, attackers: usize, towers: usize) -> Battle {
    let mut b = on_the_snake(content, "core:skeleton");
    let field = b.field().unwrap().clone();
    let kinds: Vec<&str> = content
        .blueprints
        .iter()
        .filter(|bp| bp.kind == BlueprintKind::Tower)
        .map(|bp| bp.id.as_str())
        .collect();
    let spots: Vec<Pos> = (0..SIZE)
        .flat_map(|y| (0..SIZE).map(move |x| Pos::new(x, y)))
        .filter(|&p| !field.on_path(p))
        .collect();
    let mut placed = 0;
    for (i, p) in spots.iter().enumerate() {
        if placed == towers {
            break;
        }
        let at = Position {
            x: f64::from(p.x),
            y: f64::from(p.y),
        };
        if b.place(kinds[i % kinds.len()], at, 0).is_ok() {
            placed += 1;
        }
    }
    assert_eq!(placed, towers, "room for the towers");
    b.submit(PlayerCommand::StartWave);
    b.step();
    let scripted: Vec<_> = content
        .attackers
        .iter()
        .filter(|a| a.script.is_some())
        .map(|a| content.attacker_id(&a.id).unwrap())
        .collect();
    b.spread_attackers(&scripted, 0..attackers, 0.1);
    b
}

/// The 50th and 99th percentile of `times`.
fn percentiles(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

/// Real core content at scale: the tick time of 2 000 scripted attackers against 150 towers
/// (p50 and p99 over the first 200 ticks, while the towers fight them down), and the tick in
/// which 1 000 attackers die at once. Printed, as criterion reports means.
fn core_at_scale(_: &mut Criterion) {
    let content = core_content();
    let mut b = core_battle(&content, 2000, 150);
    let alive = |b: &Battle| {
        b.entities()
            .filter(|(_, e)| matches!(e.kind, EntityKind::Attacker(_)))
            .count()
    };
    let before = alive(&b);
    let times: Vec<Duration> = (0..200)
        .map(|_| {
            let start = Instant::now();
            b.step();
            black_box(b.drain_log().len());
            start.elapsed()
        })
        .collect();
    let (p50, p99) = percentiles(times);
    println!(
        "core at scale: {before} attackers (scripted core types) x 150 core towers: tick p50 {:.2} ms, p99 {:.2} ms over 200 ticks ({} attackers left)",
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        alive(&b)
    );

    // A thousand attackers die inside one outer command (a blow dealt from a reaction), so
    // their deaths resolve together when it ends: the killed events, on_death hooks, coffins'
    // and slimes' spawns, all at once.
    let mut times = Vec::new();
    for round in 0..5 {
        let mut b = core_battle(&content, 1000, 0);
        let ids: Vec<_> = b
            .entities()
            .filter(|(_, e)| matches!(e.kind, EntityKind::Attacker(_)))
            .map(|(id, _)| id)
            .collect();
        let victims = ids.clone();
        b.chains
            .add_energy
            .react(
                Owner::Engine,
                Scope::Global,
                1,
                Box::new(move |b: &mut Battle, _: &Gain| {
                    for &target in &victims {
                        b.command(
                            |b| &b.chains.damage,
                            Damage {
                                target,
                                amount: 1e12,
                                types: [DamageType::HpLoss].into_iter().collect(),
                                source: None,
                                own_hit: false,
                                dealt: 0.0,
                            },
                        );
                    }
                }),
            )
            .unwrap();
        let start = Instant::now();
        b.command(
            |b| &b.chains.add_energy,
            Gain {
                amount: 1.0,
                source: None,
            },
        );
        times.push(start.elapsed());
        let left = ids.iter().filter(|&&id| b.entity(id).is_some()).count();
        assert_eq!(left, 0, "round {round}: all died");
    }
    let (p50, worst) = (percentiles(times.clone()).0, *times.iter().max().unwrap());
    println!(
        "core at scale: 1000 attackers dying at once: median {:.2} ms, slowest {:.2} ms over 5 rounds",
        p50.as_secs_f64() * 1e3,
        worst.as_secs_f64() * 1e3
    );
}

criterion_group!(benches, ticks, core_at_scale);
criterion_main!(benches);
