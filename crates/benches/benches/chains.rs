//! Chain dispatch and Lua callback costs, against the brief's budgets: a Rust-only chain
//! dispatch at most 50 ns per registration, a Lua hook call at most 1 µs.
//!
//! Run with `cargo bench -p rampart-benches --bench chains`; results go in
//! docs/benchmarks.md.

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rampart_core::battle::{Battle, BattleConfig, EntityId, Gain, Owner, Position, Scope};
use rampart_core::chain::Flow;
use rampart_core::content::ContentDb;
use rampart_core::modding::{ModDir, ModSet, ModSettings, Origin};
use rampart_core::rng::Seed;

/// A mod with one plain attacker, one attacker whose script modifies its own speed, one whose
/// script modifies every attacker's speed (a global registration), one whose script has an
/// `on_tick` hook, and one whose `on_tick` adds 1 to a number in the mod's storage.
fn content(dir: &Path) -> Arc<ContentDb> {
    let write = |rel: &str, text: &str| {
        let path = dir.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    };
    write("b/mod.ron", r#"(id: "b", name: "Bench", version: "0.1.0")"#);
    let attacker = |name: &str, script: &str| {
        format!(
            "(name: \"{name}\", size: Small, max_health: 10, speed: 1.0, min_spacing: 0.5, value: 10, {script})"
        )
    };
    write("b/attackers/plain.ron", &attacker("Plain", ""));
    write(
        "b/attackers/hasty.ron",
        &attacker("Hasty", "script: \"scripts/hasty.lua\","),
    );
    write(
        "b/attackers/herald.ron",
        &attacker("Herald", "script: \"scripts/herald.lua\","),
    );
    write(
        "b/attackers/ticking.ron",
        &attacker("Ticking", "script: \"scripts/ticking.lua\","),
    );
    write(
        "b/scripts/hasty.lua",
        "return { on_spawn = function(self, game) self:modify(\"speed\", -1, function(s) return s * 1.5 end) end }",
    );
    write(
        "b/scripts/herald.lua",
        "return { on_spawn = function(self, game) game:modify(\"speed\", -1, function(s, a) return s * 1.25 end) end }",
    );
    write(
        "b/scripts/ticking.lua",
        "return { on_tick = function(self, game) self.n = (self.n or 0) + 1 end }",
    );
    write(
        "b/attackers/keeping.ron",
        &attacker("Keeping", "script: \"scripts/keeping.lua\","),
    );
    write(
        "b/scripts/keeping.lua",
        "return { on_tick = function(self, game) local s = game:storage() s.n = (s.n or 0) + 1 end }",
    );
    let dirs = [ModDir {
        path: dir.to_path_buf(),
        origin: Origin::Extra,
    }];
    let (db, diagnostics) = ContentDb::load(&ModSet::discover(&dirs, &ModSettings::default()));
    assert!(!diagnostics.has_errors());
    Arc::new(db)
}

fn rust_dispatch(c: &mut Criterion, content: &Arc<ContentDb>) {
    let mut group = c.benchmark_group("rust_command_dispatch");
    for n in [1usize, 10, 100] {
        let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
        for _ in 0..n {
            b.chains
                .add_materials
                .modify(
                    Owner::Engine,
                    Scope::Global,
                    -1,
                    Box::new(|_: &mut Battle, g: &mut Gain| {
                        g.amount *= 1.0001;
                        Flow::Continue
                    }),
                )
                .unwrap();
        }
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |bench, _| {
            bench.iter(|| {
                let outcome = b.command(
                    |b| &b.chains.add_materials,
                    black_box(Gain {
                        amount: 1.0,
                        source: None,
                    }),
                );
                // Every gain is logged; the client takes the log each frame. Left to grow over
                // millions of iterations (800 MB of 104-byte entries) the log's reallocations
                // were most of what this measured (320 ns instead of 30).
                if b.log().len() >= 4096 {
                    b.drain_log();
                }
                outcome
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("rust_query_dispatch");
    for n in [1usize, 10, 100] {
        let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
        let e = b.spawn_attacker(content.attacker_id("b:plain").unwrap(), Position::default());
        for i in 0..n {
            // Half global, half scoped to the attacker: both lists are merged on each query.
            let scope = if i % 2 == 0 {
                Scope::Global
            } else {
                Scope::Subject(e)
            };
            b.chains.speed.modify(
                Owner::Engine,
                scope,
                -1,
                Box::new(|_: &mut Battle, _: &EntityId, v: &mut f64| *v *= 1.0001),
            );
        }
        group.bench_with_input(BenchmarkId::from_parameter(n), &n, |bench, _| {
            bench.iter(|| b.query(|b| &b.chains.speed, black_box(&e)))
        });
    }
    group.finish();
}

fn lua_calls(c: &mut Criterion, content: &Arc<ContentDb>) {
    let mut group = c.benchmark_group("lua");
    // The anchor: a bare mlua call of a Luau function with one number in and one out, on a
    // plain VM (mlua's own allocator, no sandbox, no budget), measured in the same run.
    let bare = mlua::Lua::new();
    let scale: mlua::Function = bare
        .load("return function(s) return s * 1.5 end")
        .eval()
        .unwrap();
    group.bench_function("bare_mlua_call", |bench| {
        bench.iter(|| scale.call::<f64>(black_box(1.0)).unwrap())
    });
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
    let plain = b.spawn_attacker(content.attacker_id("b:plain").unwrap(), Position::default());
    let hasty = b.spawn_attacker(content.attacker_id("b:hasty").unwrap(), Position::default());
    assert_eq!(b.query(|b| &b.chains.speed, &hasty), 1.5);
    group.bench_function("speed_query_without_lua", |bench| {
        bench.iter(|| b.query(|b| &b.chains.speed, black_box(&plain)))
    });
    // Scripts may spend a bounded number of instructions per tick: a tick goes by every
    // 10 000 queries (about 0.1 ns each), or the mod would be stopped for the rest of the tick
    // and this would measure the query without its modifier.
    let mut calls = 0u32;
    group.bench_function("speed_query_with_one_lua_modifier", |bench| {
        bench.iter(|| {
            calls += 1;
            if calls.is_multiple_of(10_000) {
                b.step();
            }
            b.query(|b| &b.chains.speed, black_box(&hasty))
        })
    });
    assert_eq!(
        b.query(|b| &b.chains.speed, &hasty),
        1.5,
        "the Lua modifier still ran at the end: {:?}",
        b.script_errors().collect::<Vec<_>>()
    );

    // A global modifier is called about any attacker: it finds the attacker's handle in the
    // VM's handle table, where a modifier scoped to its own entity holds that handle already.
    let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
    let plain = b.spawn_attacker(content.attacker_id("b:plain").unwrap(), Position::default());
    b.spawn_attacker(
        content.attacker_id("b:herald").unwrap(),
        Position::default(),
    );
    assert_eq!(b.query(|b| &b.chains.speed, &plain), 1.25);
    let mut calls = 0u32;
    group.bench_function("speed_query_with_one_global_lua_modifier", |bench| {
        bench.iter(|| {
            calls += 1;
            if calls.is_multiple_of(10_000) {
                b.step();
            }
            b.query(|b| &b.chains.speed, black_box(&plain))
        })
    });
    assert_eq!(b.query(|b| &b.chains.speed, &plain), 1.25);

    // A tick with 100 entities whose script has an on_tick hook, against one without, and one
    // whose hook reads and writes the mod's storage instead of `self`.
    let ticking = content.attacker_id("b:ticking").unwrap();
    let idle = content.attacker_id("b:plain").unwrap();
    let keeping = content.attacker_id("b:keeping").unwrap();
    for (name, kind) in [
        ("tick_100_entities_without_hooks", idle),
        ("tick_100_entities_with_on_tick", ticking),
        ("tick_100_entities_with_on_tick_storing", keeping),
    ] {
        let mut b = Battle::new(content.clone(), BattleConfig::new(Seed(1)));
        for i in 0..100 {
            b.spawn_attacker(
                kind,
                Position {
                    x: i as f64,
                    y: 0.0,
                },
            );
        }
        group.bench_function(name, |bench| bench.iter(|| b.step()));
        assert_eq!(b.script_errors().count(), 0, "{name}");
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let content = content(dir.path());
    rust_dispatch(c, &content);
    lua_calls(c, &content);
}

criterion_group!(chains, benches);
criterion_main!(chains);
