//! A Luau VM that behaves the same in every process: its memory comes from a deterministic
//! arena (`arena.rs`) and its garbage collector runs only at points the scripts' own operations
//! decide.
//!
//! Luau paces its incremental collector by measured time (it estimates the allocation rate with a
//! clock), so left alone it frees objects at moments that differ between runs, and the arena would
//! hand out different addresses afterwards. Here the automatic collector stays stopped and
//! [`Vm::collect_if_due`] runs a full collection when the VM's memory has grown past a threshold
//! set by the last collection: the amount of memory is a function of the script's operations, and
//! the host checks it at interrupts (calls, returns, loop back-edges), which are too.

use std::cell::Cell;
use std::ffi::c_void;
use std::mem::ManuallyDrop;
use std::rc::Rc;

use mlua::{Lua, Value, ffi};

use super::arena::{self, Memory};

/// The least growth between two collections, so that small VMs are not collected constantly.
const MIN_GROWTH: usize = 1 << 20;

/// A Luau VM on its own arena. Dropping it closes the VM and gives the arena back.
pub(super) struct Vm {
    /// The only handle this code keeps; dropped before the state is closed (see `Drop`).
    lua: ManuallyDrop<Lua>,
    state: *mut ffi::lua_State,
    memory: Box<Memory>,
    collector: Rc<Collector>,
}

/// When the VM's garbage is collected; shared with the interrupt that asks for it.
pub(super) struct Collector {
    /// Collect when the VM uses more than this many bytes.
    collect_at: Cell<usize>,
    limit: usize,
}

impl Vm {
    /// Makes a VM with the base library, whose memory is capped at `limit` bytes.
    pub(super) fn new(limit: usize) -> mlua::Result<Vm> {
        // Room for the size classes' rounding and for fragmentation: the limit counts what Luau
        // asked for, the arena what it was given. Untouched arena pages cost nothing.
        let mut memory = Memory::new(limit.saturating_mul(4)).map_err(|e| {
            mlua::Error::runtime(format!("cannot reserve memory for a script VM: {e}"))
        })?;
        let ud: *mut c_void = (&mut *memory as *mut Memory).cast();
        // SAFETY: `ud` points to a `Memory` that lives in a box until after the state is closed,
        // which is what `arena::allocate` expects. The base library is opened as mlua opens it
        // for its own VMs (without a limit, so it cannot fail for lack of memory). mlua then
        // takes the state as one it does not own: `Drop` below closes it.
        let (lua, state) = unsafe {
            let state = ffi::lua_newstate(arena::allocate, ud);
            if state.is_null() {
                return Err(mlua::Error::runtime("cannot create a script VM"));
            }
            ffi::luaL_requiref(state, c"_G".as_ptr(), ffi::luaopen_base, 1);
            ffi::lua_pop(state, 1);
            (Lua::get_or_init_from_ptr(state).clone(), state)
        };
        lua.gc_stop();
        lua.set_memory_limit(limit)?;
        Ok(Vm {
            lua: ManuallyDrop::new(lua),
            state,
            memory,
            collector: Rc::new(Collector {
                collect_at: Cell::new(MIN_GROWTH),
                limit,
            }),
        })
    }

    /// The VM.
    pub(super) fn lua(&self) -> &Lua {
        &self.lua
    }

    /// Decides when the VM's garbage is collected.
    pub(super) fn collector(&self) -> &Rc<Collector> {
        &self.collector
    }

    /// Where the arena starts, for [`identity`].
    pub(super) fn base(&self) -> usize {
        self.memory.base()
    }
}

impl Collector {
    /// Runs a full collection if the VM has grown past the threshold the last one set.
    pub(super) fn collect_if_due(&self, lua: &Lua) {
        if lua.used_memory() > self.collect_at.get() {
            self.collect(lua);
        }
    }

    /// Runs a full collection now and sets the next threshold: twice what is left, at least
    /// [`MIN_GROWTH`] more, but never past halfway to the limit, so that garbage alone does not
    /// reach it.
    pub(super) fn collect(&self, lua: &Lua) {
        // A failed collection (only possible if a finaliser fails) leaves the threshold as it was.
        if lua.gc_collect().is_ok() {
            let used = lua.used_memory();
            let next = (used * 2).max(used + MIN_GROWTH);
            self.collect_at
                .set(next.min(used + self.limit.saturating_sub(used) / 2));
        }
        // A full collection turns the automatic collector back on; it stays off.
        lua.gc_stop();
    }
}

/// A value's identity as the same number in every process: its offset in the arena that starts
/// at `base`, for tables, functions, threads, userdata and buffers; `None` for other values.
pub(super) fn identity(value: &Value, base: usize) -> Option<usize> {
    match value {
        Value::Table(_)
        | Value::Function(_)
        | Value::Thread(_)
        | Value::UserData(_)
        | Value::Buffer(_) => Some((value.to_pointer() as usize).wrapping_sub(base)),
        _ => None,
    }
}

impl Drop for Vm {
    fn drop(&mut self) {
        // SAFETY: the state was made by `new` and is closed once, here. Our handle goes first:
        // then the only strong reference to mlua's side of the VM is the one its registry
        // holds, which `lua_close` releases, so every value handle (they hold weak references)
        // becomes inert instead of reaching into a closed VM. A value handle dropped while
        // `lua_close` runs can still write into the VM's memory, which stays mapped until the
        // arena is released after this body.
        unsafe {
            self.lua.remove_interrupt();
            ManuallyDrop::drop(&mut self.lua);
            (*ffi::lua_callbacks(self.state)).interrupt = None;
            (*ffi::lua_callbacks(self.state)).userthread = None;
            ffi::lua_close(self.state);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mlua_sees_the_accounts() {
        let vm = Vm::new(1 << 20).unwrap();
        let lua = vm.lua();
        assert_eq!(lua.set_memory_limit(2 << 20).unwrap(), 1 << 20);
        // What mlua reports is what the arena counted: a 1 MB string shows (Luau may give back
        // a few small blocks meanwhile).
        let before = lua.used_memory();
        let _s = lua.create_string(vec![b'x'; 1_000_000]).unwrap();
        let after = lua.used_memory();
        assert!(after >= before + 950_000, "{before} → {after}");
        lua.load_std_libs(mlua::StdLib::STRING).unwrap();
        let big = lua
            .load("return string.rep('x', 4 * 1024 * 1024)")
            .eval::<Value>();
        assert!(
            matches!(big, Err(mlua::Error::MemoryError(_))),
            "the limit holds: {big:?}"
        );
    }

    #[test]
    fn garbage_is_collected_at_thresholds() {
        let vm = Vm::new(8 << 20).unwrap();
        let lua = vm.lua();
        let churn = lua
            .load("local t = {} for i = 1, 2000 do t = { i, tostring(i) } end return t")
            .into_function()
            .unwrap();
        let mut peak = 0;
        for _ in 0..200 {
            churn.call::<Value>(()).unwrap();
            vm.collector().collect_if_due(lua);
            peak = peak.max(lua.used_memory());
        }
        assert!(
            peak < 4 << 20,
            "peak {peak} bytes: garbage was never collected"
        );
    }

    #[test]
    fn identities_are_arena_offsets() {
        let vm = Vm::new(1 << 20).unwrap();
        let t = Value::Table(vm.lua().create_table().unwrap());
        let id = identity(&t, vm.base()).unwrap();
        assert!(id < 4 << 20);
        assert_eq!(identity(&Value::Integer(3), vm.base()), None);
    }
}
