//! What the scripts' `math.sin` and `math.exp` cost now that libm computes them
//! (`crates/lua/src/maths.rs`), against Luau's own, which call the C library. A loop of 1 000
//! iterations, each calling two functions of `math`:
//!
//! - `luau_builtins`: `sin` and `exp` in a plain VM with Luau's `math`, compiled as Luau does by
//!   default, so the calls are fastcalls: what Luau would give;
//! - `luau_functions`: the same VM and `math`, the script compiled as the game compiles (`math`
//!   mutable: no fastcalls), so the calls are ordinary calls of Luau's C functions;
//! - `libm_sandbox`: `sin` and `exp` in a mod's sandbox as the game makes it, calling the libm
//!   functions (with the sandbox's interrupt, which counts every call and loop);
//!   `libm_sandbox_through_math` the same, written `math.sin(…)` in the loop: each access to the
//!   global `math` goes through the sandbox's strict globals;
//! - `abs_plain` and `abs_sandbox`: `abs` twice instead, compiled as the game compiles: what the
//!   calls cost in each VM without any transcendental function.
//!
//! And the functions alone, from Rust: the C library's `sin` and `exp` against libm's, over the
//! loop's 1 000 arguments.
//!
//! Run with `cargo bench -p rampart-benches --bench maths`; results go in docs/benchmarks.md.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use mlua::chunk::ChunkMode;
use rampart_lua::{Budget, Library, Limits, ModScripts, Sandbox};

/// Iterations per call of the loop.
const N: u32 = 1000;

/// The loop calling `math.<f>` and `math.<g>`, taken into locals first as a script that cares
/// for speed does.
fn script(f: &str, g: &str) -> String {
    format!(
        "local f, g = math.{f}, math.{g}\n\
         return function(n)\n\
             local s = 0\n\
             for i = 1, n do s += f(i * 0.001) + g(i * -0.001) end\n\
             return s\n\
         end"
    )
}

/// The loop calling `math.sin` and `math.exp` through `math` on every iteration.
const THROUGH_MATH: &str = "return function(n)\n\
                                local s = 0\n\
                                for i = 1, n do s += math.sin(i * 0.001) + math.exp(i * -0.001) end\n\
                                return s\n\
                            end";

/// A plain VM (mlua's own, with Luau's `math`) and the loop in it: compiled as Luau does by
/// default, or as the game compiles (`rampart_lua::compile`). Luau's sandbox mode is on: only
/// in a "safe" environment do fastcalls take their fast path.
fn plain_vm(source: &str, as_the_game: bool) -> (mlua::Lua, mlua::Function) {
    let lua = mlua::Lua::new();
    lua.sandbox(true).unwrap();
    let run = if as_the_game {
        let code = rampart_lua::compile(source).unwrap();
        lua.load(&code[..]).set_mode(ChunkMode::Binary).eval()
    } else {
        lua.load(source).eval()
    };
    (lua, run.unwrap())
}

/// A mod's sandbox and the loop in it.
fn sandbox(source: &str) -> (Sandbox, mlua::Function) {
    let path = "scripts/maths.lua".to_string();
    let code: Arc<[u8]> = rampart_lua::compile(source).unwrap().into();
    let library = Library {
        scripts: BTreeMap::from([(path.clone(), code)]),
        dependencies: Vec::new(),
    };
    let scripts = Rc::new(ModScripts {
        mod_id: "bench".into(),
        mods: BTreeMap::from([("bench".to_string(), library)]),
    });
    let limits = Limits {
        wall_clock: Duration::from_secs(60),
        ..Limits::default()
    };
    let sandbox = Sandbox::new(scripts, limits, Budget::new(), |_, _| Ok(())).unwrap();
    let run = sandbox.load_script(&path).unwrap();
    let run = run.as_function().unwrap().clone();
    (sandbox, run)
}

fn lua_loops(c: &mut Criterion) {
    let mut group = c.benchmark_group("math_loop_1000");
    let (sin_exp, abs) = (script("sin", "exp"), script("abs", "abs"));
    let (_vm, builtins) = plain_vm(&sin_exp, false);
    group.bench_function("luau_builtins", |bench| {
        bench.iter(|| builtins.call::<f64>(black_box(N)).unwrap())
    });
    let (_vm, functions) = plain_vm(&sin_exp, true);
    group.bench_function("luau_functions", |bench| {
        bench.iter(|| functions.call::<f64>(black_box(N)).unwrap())
    });
    let (_vm, abs_plain) = plain_vm(&abs, true);
    group.bench_function("abs_plain", |bench| {
        bench.iter(|| abs_plain.call::<f64>(black_box(N)).unwrap())
    });
    let (sandboxed, run) = sandbox(&sin_exp);
    group.bench_function("libm_sandbox", |bench| {
        bench.iter(|| sandboxed.call::<f64>(&run, black_box(N)).unwrap())
    });
    let (sandboxed, run) = sandbox(THROUGH_MATH);
    group.bench_function("libm_sandbox_through_math", |bench| {
        bench.iter(|| sandboxed.call::<f64>(&run, black_box(N)).unwrap())
    });
    let (sandboxed, run) = sandbox(&abs);
    group.bench_function("abs_sandbox", |bench| {
        bench.iter(|| sandboxed.call::<f64>(&run, black_box(N)).unwrap())
    });
    group.finish();
}

fn rust_calls(c: &mut Criterion) {
    let mut group = c.benchmark_group("sin_exp_1000_from_rust");
    let sum = |f: fn(f64) -> f64, g: fn(f64) -> f64| {
        (1..=N)
            .map(|i| {
                let x = black_box(f64::from(i));
                f(x * 0.001) + g(x * -0.001)
            })
            .sum::<f64>()
    };
    group.bench_function("c_library", |bench| bench.iter(|| sum(f64::sin, f64::exp)));
    group.bench_function("libm", |bench| bench.iter(|| sum(libm::sin, libm::exp)));
    group.finish();
}

criterion_group!(benches, lua_loops, rust_calls);
criterion_main!(benches);
