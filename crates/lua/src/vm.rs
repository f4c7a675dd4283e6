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
use super::budget::Budget;

/// An interrupt handler as Luau calls it.
type InterruptFn = unsafe extern "C-unwind" fn(*mut ffi::lua_State, std::ffi::c_int);

/// The least growth between two collections, so that small VMs are not collected constantly.
const MIN_GROWTH: usize = 1 << 20;

/// A Luau VM on its own arena. Dropping it closes the VM and gives the arena back.
pub(super) struct Vm {
    /// The only handle this code keeps; dropped before the state is closed (see `Drop`).
    lua: ManuallyDrop<Lua>,
    state: *mut ffi::lua_State,
    data: Box<VmData>,
    collector: Rc<Collector>,
}

/// What the allocator's user data pointer leads to: the arena first (the allocator reads it as
/// a [`Memory`]), then what the interrupt's quick path needs, so that it finds everything from
/// the state alone.
#[repr(C)]
struct VmData {
    memory: Memory,
    collector: Rc<Collector>,
    /// The budget the interrupt charges, once [`Vm::set_interrupt`] set one.
    budget: Option<Rc<Budget>>,
    /// mlua's interrupt handler, which calls the host's full interrupt.
    full: Option<InterruptFn>,
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
        let memory = Memory::new(limit.saturating_mul(4)).map_err(|e| {
            mlua::Error::runtime(format!("cannot reserve memory for a script VM: {e}"))
        })?;
        let collector = Rc::new(Collector {
            collect_at: Cell::new(MIN_GROWTH),
            limit,
        });
        let mut data = Box::new(VmData {
            memory,
            collector: collector.clone(),
            budget: None,
            full: None,
        });
        let ud: *mut c_void = (&mut *data as *mut VmData).cast();
        // SAFETY: `ud` points to a `VmData`, whose first field is a `Memory` (`repr(C)`), in a
        // box that lives until after the state is closed, which is what `arena::allocate` expects. The base library is opened as mlua opens it
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
            data,
            collector,
        })
    }

    /// Sets the VM's interrupt (Luau calls it at every call, return and loop back-edge). Most
    /// interrupts only spend one unit of `budget` with nothing due: they take a quick path that
    /// reads the budget and the arena directly. The rest — a budget or allowance spent, a clock
    /// check or a collection due — go through mlua to `full`, which must spend the unit itself.
    pub(super) fn set_interrupt(
        &mut self,
        budget: Rc<Budget>,
        full: impl Fn(&Lua) -> mlua::Result<mlua::VmState> + 'static,
    ) {
        self.lua.set_interrupt(full);
        // SAFETY: the state is open; mlua has just installed its handler, which is kept to be
        // called from `quick_interrupt` with the same arguments Luau would pass.
        unsafe {
            let callbacks = ffi::lua_callbacks(self.state);
            self.data.full = (*callbacks).interrupt;
            self.data.budget = Some(budget);
            (*callbacks).interrupt = Some(quick_interrupt);
        }
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
        self.data.memory.base()
    }
}

/// The interrupt Luau calls: spends one unit when nothing else is due, and hands everything
/// else to mlua's handler (which runs the host's full interrupt under mlua's error protection).
unsafe extern "C-unwind" fn quick_interrupt(state: *mut ffi::lua_State, gc: std::ffi::c_int) {
    if gc >= 0 {
        // A collector step: mlua's handler ignores these too.
        return;
    }
    let mut ud: *mut c_void = std::ptr::null_mut();
    // SAFETY: Luau calls this with a live state whose allocator data is the `VmData` that
    // `Vm::new` gave it and that outlives the state; nothing else borrows it mutably during an
    // interrupt (the allocator only touches its `Memory`, and not while this runs).
    let data = unsafe {
        ffi::lua_getallocf(state, &mut ud);
        &*ud.cast::<VmData>()
    };
    let quick = data.memory.used() <= data.collector.collect_at.get()
        && data.budget.as_ref().is_some_and(|b| b.spend_quick());
    if !quick && let Some(full) = data.full {
        // SAFETY: mlua's own handler, called as Luau would have called it.
        unsafe { full(state, gc) }
    }
}

impl Collector {
    /// Runs a full collection if the VM has grown past the threshold the last one set (the
    /// interrupt's quick path checks the same threshold).
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
