//! One mod's Luau VM, locked down.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use mlua::chunk::ChunkMode;
use mlua::{FromLuaMulti, Function, IntoLuaMulti, Lua, StdLib, Table, Value, VmState};

use super::budget::{Budget, Exhausted};
use super::vm::{self, Vm};
use super::{Fault, ScriptError, ScriptErrorKind, caller_location, chunk_name};

/// What a mod's scripts may use.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Memory cap of the mod's VM, in bytes.
    pub memory: usize,
    /// Interrupts (calls, returns, loop iterations) allowed per host call into a callback or hook.
    pub call_instructions: u64,
    /// Interrupts allowed while a script's top-level chunk runs.
    pub load_instructions: u64,
    /// Wall-clock ceiling per host call, a backstop for slow built-ins between interrupts.
    pub wall_clock: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory: 64 << 20,
            call_instructions: 2_000_000,
            load_instructions: 20_000_000,
            wall_clock: Duration::from_secs(2),
        }
    }
}

/// The compiled scripts a mod's VM may load: its own, and those of the mods it depends on.
#[derive(Clone, Debug, Default)]
pub struct ModScripts {
    /// The mod's id.
    pub mod_id: String,
    /// The scripts of the mod and of every loaded mod it depends on (directly or through
    /// others), by mod id.
    pub mods: BTreeMap<String, Library>,
}

/// One mod's scripts, as `require` finds them.
#[derive(Clone, Debug, Default)]
pub struct Library {
    /// Bytecode by path inside the mod folder (`scripts/tower.lua`).
    pub scripts: BTreeMap<String, Arc<[u8]>>,
    /// The mods it declares as dependencies: the only ones whose scripts it may require.
    pub dependencies: Vec<String>,
}

impl ModScripts {
    /// The mod's own scripts, by path.
    fn own(&self) -> impl Iterator<Item = &String> {
        self.mods
            .get(&self.mod_id)
            .into_iter()
            .flat_map(|l| l.scripts.keys())
    }
}

/// Per-VM data reachable from Rust functions called by scripts.
struct SandboxData {
    scripts: Rc<ModScripts>,
    /// Where the VM's arena starts: identities printed by `tostring` are offsets from it.
    base: usize,
    /// The modules whose top-level chunk is running, outermost first (to catch require cycles).
    loading: RefCell<Vec<String>>,
}

/// Registry key of the module cache.
const LOADED: &str = "rampart.loaded";

/// A mod's own Luau VM with the sandbox in place.
pub struct Sandbox {
    vm: Vm,
    scripts: Rc<ModScripts>,
    budget: Rc<Budget>,
    limits: Limits,
}

impl Sandbox {
    /// Creates the VM. `install` runs before the global environment is frozen and adds the host's
    /// API (for example a `game` object and a deterministic `math.random`).
    pub fn new(
        scripts: Rc<ModScripts>,
        limits: Limits,
        budget: Rc<Budget>,
        install: impl FnOnce(&Lua, &Table) -> mlua::Result<()>,
    ) -> mlua::Result<Sandbox> {
        let libs = StdLib::STRING
            | StdLib::TABLE
            | StdLib::MATH
            | StdLib::BIT
            | StdLib::UTF8
            | StdLib::BUFFER
            | StdLib::COROUTINE;
        let mut vm = Vm::new(limits.memory)?;
        let lua = vm.lua();
        lua.load_std_libs(libs)?;
        lua.set_app_data(SandboxData {
            scripts: scripts.clone(),
            base: vm.base(),
            loading: RefCell::new(Vec::new()),
        });
        let globals = lua.globals();

        lock_down(lua, &globals)?;
        super::maths::install(lua, globals.get("math")?)?;
        globals.raw_set("print", lua.create_function(print)?)?;
        globals.raw_set("require", lua.create_function(require)?)?;
        install_identities(lua, &globals)?;
        lua.set_named_registry_value(LOADED, lua.create_table()?)?;
        install(lua, &globals)?;

        // Freeze the libraries and the shared globals; each mod writes into its own layer.
        lua.sandbox(true)?;
        make_globals_strict(lua)?;

        let interrupt_budget = budget.clone();
        let collector = vm.collector().clone();
        vm.set_interrupt(budget.clone(), move |lua| match interrupt_budget.spend() {
            Ok(()) => {
                collector.collect_if_due(lua);
                Ok(VmState::Continue)
            }
            Err(Exhausted::Instructions) => Err(Fault::here(
                lua,
                ScriptErrorKind::Budget,
                "the script ran too long and was stopped (is there an endless loop?)",
            )),
            Err(Exhausted::Time) => Err(Fault::here(
                lua,
                ScriptErrorKind::Budget,
                "the script ran past its time limit and was stopped",
            )),
        });
        Ok(Sandbox {
            vm,
            scripts,
            budget,
            limits,
        })
    }

    /// The VM, for the host to create values and functions in.
    pub fn lua(&self) -> &Lua {
        self.vm.lua()
    }

    /// The mod this sandbox belongs to.
    pub fn mod_id(&self) -> &str {
        &self.scripts.mod_id
    }

    /// The paths of the mod's scripts, sorted.
    pub fn script_paths(&self) -> impl Iterator<Item = &str> {
        self.scripts.own().map(String::as_str)
    }

    /// Runs a script's top-level chunk once (later calls return the cached result), as
    /// `require` does, with the load budget.
    pub fn load_script(&self, path: &str) -> Result<Value, ScriptError> {
        let _guard = self
            .budget
            .enter(self.limits.load_instructions, self.limits.wall_clock);
        load_module(self.lua(), path).map_err(|e| self.error(&e, Some((path.to_string(), None))))
    }

    /// Calls `f` with the call budget. On failure the error is located in the script.
    pub fn call<R: FromLuaMulti>(
        &self,
        f: &Function,
        args: impl IntoLuaMulti,
    ) -> Result<R, ScriptError> {
        let _guard = self
            .budget
            .enter(self.limits.call_instructions, self.limits.wall_clock);
        f.call(args).map_err(|e| {
            let info = f.info();
            let fallback = info.short_src.map(|src| (src, info.line_defined));
            self.error(&e, fallback)
        })
    }

    fn error(&self, e: &mlua::Error, fallback: Option<(String, Option<usize>)>) -> ScriptError {
        let error = ScriptError::from_lua(self.mod_id(), e, fallback);
        if error.kind == ScriptErrorKind::Memory {
            // Give back whatever the failed call left unreachable.
            self.vm.collector().collect(self.lua());
        }
        error
    }
}

/// Removes everything that reaches outside the sandbox and puts explanatory stand-ins in its
/// place, so a script that tries gets a clear error at the line that tried.
fn lock_down(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    let libraries = [
        ("io", "mods cannot read or write files"),
        (
            "os",
            "mods cannot run programs or read the clock; use game:tick() for time",
        ),
        ("debug", "the debug library could reach outside the sandbox"),
        (
            "package",
            "use require(\"name\") to load another script of the same mod, require(\"mod:name\") one of a dependency",
        ),
        ("ffi", "mods cannot call native code"),
    ];
    for (name, why) in libraries {
        globals.raw_set(name, forbidden_library(lua, name, why)?)?;
    }
    let functions = [
        ("load", "mods cannot compile code at run time"),
        ("loadstring", "mods cannot compile code at run time"),
        ("loadfile", "mods cannot read files"),
        ("dofile", "mods cannot read files"),
        ("getfenv", "environments belong to the sandbox"),
        ("setfenv", "environments belong to the sandbox"),
        ("newproxy", "it is not needed by mods"),
        ("gcinfo", "use collectgarbage(\"count\")"),
    ];
    for (name, why) in functions {
        globals.raw_set(name, forbidden_function(lua, name, why)?)?;
    }
    let string: Table = globals.get("string")?;
    string.raw_set(
        "dump",
        forbidden_function(lua, "string.dump", "mods cannot handle bytecode")?,
    )?;
    let math: Table = globals.get("math")?;
    math.raw_set(
        "randomseed",
        forbidden_function(
            lua,
            "math.randomseed",
            "math.random is seeded by the game so battles replay exactly",
        )?,
    )?;
    Ok(())
}

fn forbidden_function(lua: &Lua, name: &'static str, why: &'static str) -> mlua::Result<Function> {
    lua.create_function(move |lua, _: mlua::MultiValue| -> mlua::Result<()> {
        Err(Fault::here(
            lua,
            ScriptErrorKind::Forbidden,
            format!("`{name}` is not available to mod scripts: {why}"),
        ))
    })
}

fn forbidden_library(lua: &Lua, name: &'static str, why: &'static str) -> mlua::Result<Table> {
    let table = lua.create_table()?;
    let meta = lua.create_table()?;
    let access = move |lua: &Lua, key: String| -> mlua::Error {
        Fault::here(
            lua,
            ScriptErrorKind::Forbidden,
            format!("`{name}.{key}` is not available to mod scripts: {why}"),
        )
    };
    meta.raw_set(
        "__index",
        lua.create_function(move |lua, (_, key): (Value, Value)| -> mlua::Result<()> {
            Err(access(lua, key_text(&key)))
        })?,
    )?;
    meta.raw_set(
        "__newindex",
        lua.create_function(
            move |lua, (_, key, _): (Value, Value, Value)| -> mlua::Result<()> {
                Err(access(lua, key_text(&key)))
            },
        )?,
    )?;
    meta.raw_set("__metatable", false)?;
    table.set_metatable(Some(meta))?;
    Ok(table)
}

fn key_text(key: &Value) -> String {
    match key {
        Value::String(s) => s.to_string_lossy(),
        other => other.type_name().to_string(),
    }
}

/// Reading a global that was never set is an error (it is almost always a typo), and it is how
/// a mod learns that another mod's globals are out of its reach.
fn make_globals_strict(lua: &Lua) -> mlua::Result<()> {
    let env = lua.globals();
    let Some(meta) = env.metatable() else {
        return Ok(());
    };
    let shared: Table = meta.raw_get("__index")?;
    let strict = lua.create_function(
        move |lua, (_, key): (Value, Value)| -> mlua::Result<Value> {
            let value: Value = shared.raw_get(key.clone())?;
            if value.is_nil() {
                return Err(Fault::here(
                    lua,
                    ScriptErrorKind::Runtime,
                    format!(
                        "`{}` is not defined (globals of other mods are not visible)",
                        key_text(&key)
                    ),
                ));
            }
            Ok(value)
        },
    )?;
    meta.set_readonly(false);
    meta.raw_set("__index", strict)?;
    meta.set_readonly(true);
    // Imports are resolved through the metatable only when the environment is not "safe".
    env.set_safeenv(false);
    Ok(())
}

fn print(lua: &Lua, args: mlua::MultiValue) -> mlua::Result<()> {
    let text: Vec<String> = args
        .iter()
        .map(|v| match v {
            Value::String(s) => s.to_string_lossy(),
            other => text_of(lua, other).unwrap_or_else(|_| other.type_name().to_string()),
        })
        .collect();
    let mod_id = lua
        .app_data_ref::<SandboxData>()
        .map(|d| d.scripts.mod_id.clone())
        .unwrap_or_default();
    let at = super::caller_location(lua)
        .map(|(f, l)| format!("{f}:{l}"))
        .unwrap_or_default();
    tracing::info!(target: "rampart::script", "[{mod_id}] {at}: {}", text.join("\t"));
    Ok(())
}

/// Replaces `tostring` and `string.format`'s `%*` so that a table, function, thread, userdata or
/// buffer without a `__tostring` reads as its type and its offset in the VM's arena
/// (`table: 0001a2c0`), the same in every process, instead of a heap address. `print` uses the
/// same text.
fn install_identities(lua: &Lua, globals: &Table) -> mlua::Result<()> {
    globals.raw_set(
        "tostring",
        lua.create_function(|lua, value: Value| text_of(lua, &value))?,
    )?;
    let string: Table = globals.get("string")?;
    let format: Function = string.raw_get("format")?;
    string.raw_set(
        "format",
        lua.create_function(move |lua, (pattern, args): (Value, mlua::MultiValue)| {
            let anything = match &pattern {
                Value::String(p) => any_value_items(&p.as_bytes()),
                _ => Vec::new(),
            };
            let args = args
                .into_iter()
                .enumerate()
                .map(|(i, arg)| match vm::identity(&arg, 0) {
                    Some(_) if anything.contains(&i) => {
                        Ok(Value::String(lua.create_string(text_of(lua, &arg)?)?))
                    }
                    _ => Ok(arg),
                })
                .collect::<mlua::Result<mlua::MultiValue>>()?;
            format.call::<Value>((pattern, args))
        })?,
    )?;
    Ok(())
}

/// Which of a format string's arguments (counted from 0) a `%*` item prints: Luau prints those
/// with their address. Other items are skipped as Luau reads them (`%%`, then `%` with flags,
/// width and precision before one letter).
fn any_value_items(pattern: &[u8]) -> Vec<usize> {
    let mut items = Vec::new();
    let mut arg = 0;
    let mut rest = pattern.iter().skip_while(|&&c| c != b'%').peekable();
    while rest.next().is_some() {
        match rest.peek() {
            Some(b'%') => {
                rest.next();
            }
            Some(b'*') => {
                items.push(arg);
                arg += 1;
            }
            Some(_) => arg += 1,
            None => break,
        }
        while rest.next_if(|&&c| c != b'%').is_some() {}
    }
    items
}

/// What `tostring` shows for `value`.
fn text_of(lua: &Lua, value: &Value) -> mlua::Result<String> {
    let base = lua
        .app_data_ref::<SandboxData>()
        .map(|d| d.base)
        .unwrap_or_default();
    match vm::identity(value, base) {
        Some(offset) if !has_tostring(value) => Ok(format!("{}: {offset:08x}", value.type_name())),
        _ => value.to_string(),
    }
}

/// Whether a value's metatable gives it its own text.
fn has_tostring(value: &Value) -> bool {
    match value {
        Value::Table(t) => t
            .metatable()
            .is_some_and(|m| m.raw_get::<Value>("__tostring").is_ok_and(|f| !f.is_nil())),
        Value::UserData(u) => u
            .metatable()
            .is_ok_and(|m| m.contains("__tostring").unwrap_or(false)),
        _ => false,
    }
}

/// `require("name")` loads `scripts/name.lua` of the mod whose script calls it, and
/// `require("other:name")` that of mod `other`, which the calling mod must depend on; each
/// module once per VM. A dependency's module runs in this VM like one of its own.
fn require(lua: &Lua, name: String) -> mlua::Result<Value> {
    let refuse = |message: String| Fault::here(lua, ScriptErrorKind::Forbidden, message);
    let (wanted, module) = match name.split_once(':') {
        Some((m, module)) => (Some(m), module),
        None => (None, name.as_str()),
    };
    let path = module_path(module).ok_or_else(|| {
        refuse(format!("require(\"{name}\"): only scripts in a mod's scripts/ folder can be required, by a name like \"util\" or \"lib/math\" (\"othermod:lib/math\" for a dependency's)"))
    })?;
    let key = {
        let data = sandbox_data(lua)?;
        let scripts = &data.scripts;
        // Who requires: a dependency's module runs under a chunk name that starts with its mod.
        let caller = caller_location(lua)
            .and_then(|(file, _)| Some(split_key(&file)?.0.to_string()))
            .unwrap_or_else(|| scripts.mod_id.clone());
        let target = wanted.unwrap_or(&caller);
        if target != caller {
            let declared = scripts
                .mods
                .get(&caller)
                .is_some_and(|l| l.dependencies.iter().any(|d| d == target));
            if !declared {
                return Err(refuse(format!(
                    "require(\"{name}\"): `{target}` is not a dependency of `{caller}`; add it to mod.ron's dependencies"
                )));
            }
            if !scripts.mods.contains_key(target) {
                return Err(refuse(format!(
                    "require(\"{name}\"): mod `{target}` is not loaded"
                )));
            }
        }
        // The mod's own modules keep their plain paths, which is how its errors name them.
        if target == scripts.mod_id {
            path
        } else {
            format!("{target}:{path}")
        }
    };
    load_module(lua, &key)
}

fn sandbox_data(lua: &Lua) -> mlua::Result<mlua::AppDataRef<'_, SandboxData>> {
    lua.app_data_ref::<SandboxData>()
        .ok_or_else(|| mlua::Error::runtime("this VM is not a sandbox"))
}

/// A dependency's module key (`other:scripts/x.lua`) as its mod and path; `None` for the mod's
/// own (`scripts/x.lua`).
fn split_key(key: &str) -> Option<(&str, &str)> {
    key.split_once(':')
}

/// `name` → `scripts/name.lua`, refusing anything that could leave the folder.
fn module_path(name: &str) -> Option<String> {
    let name = name.strip_suffix(".lua").unwrap_or(name);
    let name = name.strip_prefix("scripts/").unwrap_or(name);
    let valid = !name.is_empty()
        && name.split('/').all(|seg| {
            !seg.is_empty()
                && seg
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        });
    valid.then(|| format!("scripts/{name}.lua"))
}

/// Runs the module `key` (a path of the mod's own, or `other:path`) once and caches its result.
fn load_module(lua: &Lua, key: &str) -> mlua::Result<Value> {
    let loaded: Table = lua.named_registry_value(LOADED)?;
    let cached: Value = loaded.raw_get(key)?;
    if !cached.is_nil() {
        return Ok(cached);
    }
    let bytecode = {
        let data = sandbox_data(lua)?;
        let mut loading = data.loading.borrow_mut();
        if let Some(first) = loading.iter().position(|k| k == key) {
            let cycle: Vec<&str> = loading[first..]
                .iter()
                .map(String::as_str)
                .chain([key])
                .collect();
            return Err(Fault::here(
                lua,
                ScriptErrorKind::Runtime,
                format!("require cycle: {}", cycle.join(" → ")),
            ));
        }
        let scripts = &data.scripts;
        let (mod_id, path) = split_key(key).unwrap_or((&scripts.mod_id, key));
        let Some(bytecode) = scripts
            .mods
            .get(mod_id)
            .and_then(|l| l.scripts.get(path).cloned())
        else {
            let place = if mod_id == scripts.mod_id {
                "this mod".to_string()
            } else {
                format!("mod `{mod_id}`")
            };
            return Err(Fault::here(
                lua,
                ScriptErrorKind::Runtime,
                format!("there is no script {path} in {place}"),
            ));
        };
        loading.push(key.to_string());
        bytecode
    };
    let result = lua
        .load(&bytecode[..])
        .set_name(chunk_name(key))
        .set_mode(ChunkMode::Binary)
        .call::<Value>(());
    sandbox_data(lua)?.loading.borrow_mut().pop();
    let value = result?;
    let value = if value.is_nil() {
        Value::Boolean(true)
    } else {
        value
    };
    loaded.raw_set(key, value.clone())?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile;

    fn sandbox(files: &[(&str, &str)]) -> Sandbox {
        let scripts = files
            .iter()
            .map(|(p, src)| (p.to_string(), Arc::<[u8]>::from(compile(src).unwrap())))
            .collect();
        let scripts = Rc::new(ModScripts {
            mod_id: "test".into(),
            mods: BTreeMap::from([(
                "test".to_string(),
                Library {
                    scripts,
                    dependencies: Vec::new(),
                },
            )]),
        });
        let limits = Limits {
            memory: 8 << 20,
            call_instructions: 100_000,
            load_instructions: 100_000,
            wall_clock: Duration::from_secs(5),
        };
        Sandbox::new(scripts, limits, Budget::new(), |_, _| Ok(())).unwrap()
    }

    fn load_err(src: &str) -> ScriptError {
        sandbox(&[("scripts/a.lua", src)])
            .load_script("scripts/a.lua")
            .unwrap_err()
    }

    #[test]
    fn modules_load_once_and_require_each_other() {
        let sb = sandbox(&[
            (
                "scripts/a.lua",
                "local u = require(\"lib/util\")\nreturn { value = u.double(21) }",
            ),
            (
                "scripts/lib/util.lua",
                "counter = (rawget(_G, 'counter') or 0)\nreturn { double = function(x) return 2 * x end }",
            ),
        ]);
        let a: Table = sb
            .load_script("scripts/a.lua")
            .unwrap()
            .as_table()
            .unwrap()
            .clone();
        assert_eq!(a.get::<i64>("value").unwrap(), 42);
        let again = sb.load_script("scripts/a.lua").unwrap();
        assert_eq!(again.as_table().unwrap().get::<i64>("value").unwrap(), 42);
    }

    #[test]
    fn forbidden_things_are_reported_at_their_line() {
        for (src, needle) in [
            ("local x = 1\nlocal f = io.open('x', 'w')", "`io.open`"),
            ("\n\nos.execute('touch /tmp/pwned')", "`os.execute`"),
            ("debug.traceback()", "`debug.traceback`"),
            ("local f = loadstring('\\27Lua')", "`loadstring`"),
            ("load('return 1')", "`load`"),
            ("string.dump(print)", "`string.dump`"),
            ("getfenv(1)", "`getfenv`"),
            (
                "require('../../etc/passwd')",
                "only scripts in a mod's scripts/",
            ),
            ("math.randomseed(1)", "`math.randomseed`"),
        ] {
            let e = load_err(src);
            assert_eq!(e.kind, ScriptErrorKind::Forbidden, "{src}: {e}");
            assert!(e.message.contains(needle), "{src}: {e}");
            assert_eq!(e.file.as_deref(), Some("scripts/a.lua"), "{src}: {e}");
            assert_eq!(e.line, Some(src.lines().count()), "{src}: {e}");
        }
    }

    #[test]
    fn undefined_globals_are_errors_and_libraries_are_frozen() {
        let e = load_err("local x = 1\nreturn secret_from_another_mod + 1");
        assert!(
            e.message
                .contains("`secret_from_another_mod` is not defined"),
            "{e}"
        );
        assert_eq!(e.line, Some(2));
        let e = load_err("string.upper = nil");
        assert!(e.message.contains("readonly"), "{e}");
        let sb = sandbox(&[("scripts/a.lua", "mine = 5\nreturn mine + math.floor(1.5)")]);
        assert_eq!(sb.load_script("scripts/a.lua").unwrap().as_i64(), Some(6));
    }

    #[test]
    fn endless_loops_are_stopped_even_under_pcall() {
        let e = load_err("local n = 0\nwhile true do n += 1 end");
        assert_eq!(e.kind, ScriptErrorKind::Budget, "{e}");
        assert_eq!(e.line, Some(2), "{e}");
        let e = load_err("while true do pcall(function() while true do end end) end");
        assert_eq!(e.kind, ScriptErrorKind::Budget, "{e}");
    }

    #[test]
    fn memory_bombs_and_stack_overflows_are_stopped() {
        // Distinct strings: equal ones are interned, and garbage is collected.
        let e =
            load_err("local t = {}\nwhile true do t[#t + 1] = string.rep('x', 1000000) .. #t end");
        assert!(
            matches!(e.kind, ScriptErrorKind::Memory | ScriptErrorKind::Budget),
            "{e}"
        );
        assert_eq!(e.kind, ScriptErrorKind::Memory, "{e}");
        let e = load_err("local function f() return 1 + f() end\nf()");
        assert_eq!(e.kind, ScriptErrorKind::Runtime, "{e}");
        assert!(e.message.contains("overflow"), "{e}");
    }

    #[test]
    fn callbacks_run_with_a_budget_and_locate_their_errors() {
        let sb = sandbox(&[(
            "scripts/a.lua",
            "return {\n ok = function(x) return x + 1 end,\n bad = function() local t = nil\n return t.x end,\n spin = function() while true do end end }",
        )]);
        let m: Table = sb
            .load_script("scripts/a.lua")
            .unwrap()
            .as_table()
            .unwrap()
            .clone();
        let ok: Function = m.get("ok").unwrap();
        assert_eq!(sb.call::<i64>(&ok, 1).unwrap(), 2);
        let e = sb.call::<()>(&m.get("bad").unwrap(), ()).unwrap_err();
        assert_eq!(
            (e.file.as_deref(), e.line),
            (Some("scripts/a.lua"), Some(4)),
            "{e}"
        );
        let e = sb.call::<()>(&m.get("spin").unwrap(), ()).unwrap_err();
        assert_eq!(e.kind, ScriptErrorKind::Budget);
        // The VM is still usable afterwards.
        assert_eq!(sb.call::<i64>(&ok, 41).unwrap(), 42);
    }

    #[test]
    fn module_names_stay_inside_the_scripts_folder() {
        assert_eq!(module_path("util").as_deref(), Some("scripts/util.lua"));
        assert_eq!(
            module_path("lib/math.lua").as_deref(),
            Some("scripts/lib/math.lua")
        );
        assert_eq!(module_path("scripts/x").as_deref(), Some("scripts/x.lua"));
        assert_eq!(module_path("../x"), None);
        assert_eq!(module_path("/etc/passwd"), None);
        assert_eq!(module_path("a//b"), None);
        assert_eq!(module_path(""), None);
    }

    #[test]
    fn tostring_shows_arena_offsets_not_addresses() {
        let sb = sandbox(&[(
            "scripts/a.lua",
            "local t = setmetatable({}, { __tostring = function() return 'named' end })\n\
             return tostring({}) .. ' ' .. tostring(print) .. ' ' .. string.format('%% %5.1f %*', 3, {}) .. ' ' .. tostring(t)",
        )]);
        let text: String = match sb.load_script("scripts/a.lua").unwrap() {
            Value::String(s) => s.to_string_lossy(),
            other => panic!("{other:?}"),
        };
        let words: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(words.len(), 9, "{text}");
        assert_eq!(
            (words[0], words[2], words[4], words[5], words[6], words[8]),
            ("table:", "function:", "%", "3.0", "table:", "named"),
            "{text}"
        );
        for offset in [words[1], words[3], words[7]] {
            assert!(
                offset.len() == 8 && u32::from_str_radix(offset, 16).is_ok(),
                "{text}"
            );
        }
    }

    /// Every replaced function with arguments for which glibc 2.36's result differs from libm's
    /// in the last bit, and libm's result.
    fn libm_cases() -> Vec<(&'static str, f64)> {
        vec![
            ("math.sin(0.117)", libm::sin(0.117)),
            ("math.cos(0.24)", libm::cos(0.24)),
            ("math.tan(0.082)", libm::tan(0.082)),
            ("math.asin(0.32)", libm::asin(0.32)),
            ("math.acos(0.05)", libm::acos(0.05)),
            ("math.atan(0.044)", libm::atan(0.044)),
            ("math.atan2(0.047, 2)", libm::atan2(0.047, 2.0)),
            ("math.sinh(0.099)", libm::sinh(0.099)),
            ("math.cosh(0.353)", libm::cosh(0.353)),
            ("math.tanh(0.155)", libm::tanh(0.155)),
            ("math.exp(0.019)", libm::exp(0.019)),
            ("math.log(0.01)", libm::log(0.01)),
            ("math.log(0.165, 2)", libm::log2(0.165)),
            ("math.log(0.001, 3)", libm::log(0.001) / libm::log(3.0)),
            ("math.log10(0.054)", libm::log10(0.054)),
            ("math.pow(0.004, 1.7)", libm::pow(0.004, 1.7)),
        ]
    }

    fn numbers(value: Value) -> Vec<f64> {
        let table = value.as_table().unwrap().clone();
        table.sequence_values::<f64>().map(Result::unwrap).collect()
    }

    #[test]
    fn math_gives_libms_bits_even_for_constants() {
        // At `--!optimize 2` Luau's compiler would compute calls with constant arguments itself,
        // with the C library, also through a local; a global named like a function would
        // switch off the compiler's `disabled_builtins` for it.
        let cases = libm_cases();
        let calls: Vec<&str> = cases.iter().map(|(call, _)| *call).collect();
        let source = format!(
            "--!optimize 2\nsin, exp, pow = 1, 2, 3\nlocal m = math\nreturn {{ {}, {} }}",
            calls.join(", "),
            calls.join(", ").replace("math.", "m.")
        );
        let sb = sandbox(&[("scripts/a.lua", &source)]);
        let found = numbers(sb.load_script("scripts/a.lua").unwrap());
        assert_eq!(found.len(), 2 * cases.len());
        for (i, (call, expected)) in cases.iter().chain(&cases).enumerate() {
            assert_eq!(
                found[i].to_bits(),
                expected.to_bits(),
                "{call}: {}",
                found[i]
            );
        }
    }

    #[test]
    fn math_gives_libms_bits_for_values_computed_at_run_time() {
        let cases = libm_cases();
        // Each argument made at run time: (a + 0) is not a constant to the compiler.
        let calls: Vec<String> = cases
            .iter()
            .map(|(call, _)| {
                let (name, args) = call.split_once('(').unwrap();
                let args: Vec<String> = args
                    .trim_end_matches(')')
                    .split(", ")
                    .map(|a| format!("(zero + {a})"))
                    .collect();
                format!("{name}({})", args.join(", "))
            })
            .collect();
        let source = format!(
            "return function(zero) return {{ {} }} end",
            calls.join(", ")
        );
        let sb = sandbox(&[("scripts/a.lua", &source)]);
        let f = sb.load_script("scripts/a.lua").unwrap();
        let found = numbers(sb.call(f.as_function().unwrap(), 0.0).unwrap());
        for ((call, expected), found) in cases.iter().zip(found) {
            assert_eq!(found.to_bits(), expected.to_bits(), "{call}: {found}");
        }
    }

    #[test]
    fn math_reads_and_refuses_arguments_as_luau_does() {
        let sb = sandbox(&[(
            "scripts/a.lua",
            "return { math.sin('0'), math.log(8, 2), math.log(1000, 10), math.log(1), math.pow(2, 10), math.atan2(0, -1) == math.pi }",
        )]);
        let value = sb.load_script("scripts/a.lua").unwrap();
        let table = value.as_table().unwrap();
        assert_eq!(table.get::<f64>(1).unwrap(), 0.0);
        assert_eq!(table.get::<f64>(2).unwrap(), 3.0);
        assert_eq!(table.get::<f64>(3).unwrap(), 3.0);
        assert_eq!(table.get::<f64>(4).unwrap(), 0.0);
        assert_eq!(table.get::<f64>(5).unwrap(), 1024.0);
        assert!(table.get::<bool>(6).unwrap());
        for (src, message) in [
            (
                "math.sin()",
                "missing argument #1 to 'sin' (number expected)",
            ),
            (
                "math.exp({})",
                "invalid argument #1 to 'exp' (number expected, got table)",
            ),
            (
                "math.atan2(1)",
                "missing argument #2 to 'atan2' (number expected)",
            ),
            (
                "math.log(8, 'two')",
                "invalid argument #2 to 'log' (number expected, got string)",
            ),
            (
                "math.pow(2)",
                "missing argument #2 to 'pow' (number expected)",
            ),
        ] {
            let e = load_err(src);
            assert_eq!(e.kind, ScriptErrorKind::Runtime, "{src}: {e}");
            assert_eq!(e.message, message, "{src}");
        }
    }

    #[test]
    fn print_does_not_fail() {
        let sb = sandbox(&[("scripts/a.lua", "print('hello', 1, nil, {})\nreturn true")]);
        assert!(sb.load_script("scripts/a.lua").is_ok());
    }
}
