//! Deterministic memory for one Luau VM.
//!
//! Luau places a table key that is a table, function, thread or userdata by a hash of the low 32
//! bits of its address. With the system allocator those addresses differ from process to process
//! (address space layout randomisation, other threads' allocations), so the order of `pairs`,
//! `next` and `for k, v in t` over such keys differs too, and a battle whose scripts key a table by
//! entity handles would not replay. Each VM therefore takes its memory from its own arena: a
//! region whose start is a multiple of 4 GiB, handed out by a size-class allocator whose answers
//! depend only on the sequence of requests. The same script operations then give the same low 32
//! address bits in every process, so the same hash order.
//!
//! The arena keeps the accounting mlua expects of a Luau allocator (used bytes, a limit, and the
//! flags mlua sets around its own allocations), so `Lua::set_memory_limit` and
//! `Lua::used_memory` keep working on a VM made here.

use std::ffi::c_void;
use std::ptr;

/// Arena starts are multiples of this, so the low 32 bits of an address are its offset.
const ALIGNMENT: usize = 1 << 32;

/// Block sizes up to this grow in steps of [`GRANULE`]; larger ones are powers of two.
const SMALL_LIMIT: usize = 1024;
/// The smallest block, and the alignment Luau expects of every block.
const GRANULE: usize = 16;
/// Size classes: the small steps, then powers of two from 2 KiB up to the largest arena (4 GiB).
const CLASSES: usize = SMALL_LIMIT / GRANULE + 22;
/// The arena asks the system to back it with memory in steps of this many bytes (a multiple of
/// every page size), as it grows: a VM uses a few hundred kilobytes of its reserved gigabytes.
const COMMIT_STEP: usize = 1 << 16;

/// Mirrors mlua's private allocator state for Luau (`mlua::memory::MemoryState`, mlua 0.12.2):
/// mlua reads and writes these fields through the allocator's user data pointer, so this must be
/// the first field of [`Memory`], with the same layout. `tests::mlua_sees_the_accounts` checks it
/// through mlua's public API; `Cargo.toml` pins the mlua version.
#[repr(C)]
#[derive(Default)]
struct Accounts {
    used: isize,
    limit: isize,
    ignore_limit: bool,
    limit_reached: bool,
}

/// A VM's memory: mlua's accounts, then the arena they are spent from.
#[repr(C)]
pub(super) struct Memory {
    accounts: Accounts,
    arena: Arena,
}

/// One reserved, 4 GiB-aligned region and a size-class allocator over it.
struct Arena {
    base: *mut u8,
    capacity: usize,
    /// Bytes from `base` handed out at least once; beyond it the region is untouched.
    top: usize,
    /// Bytes from `base` the system has been asked to back with memory (see [`region::commit`]).
    committed: usize,
    /// Per size class, the last freed block; each free block starts with the next one's address.
    free: [*mut u8; CLASSES],
}

impl Memory {
    /// Reserves an arena of `capacity` bytes (at most 4 GiB; untouched pages cost no memory).
    pub(super) fn new(capacity: usize) -> std::io::Result<Memory> {
        let capacity = capacity
            .clamp(GRANULE, ALIGNMENT)
            .next_multiple_of(page_size());
        let base = region::reserve(capacity)?;
        Ok(Memory {
            accounts: Accounts::default(),
            arena: Arena {
                base,
                capacity,
                top: 0,
                committed: 0,
                free: [ptr::null_mut(); CLASSES],
            },
        })
    }

    /// Bytes the VM uses now (what `Lua::used_memory` reports, read without a lock).
    pub(super) fn used(&self) -> usize {
        self.accounts.used.max(0) as usize
    }

    /// Where the arena starts: addresses minus this are the same in every process.
    pub(super) fn base(&self) -> usize {
        self.arena.base as usize
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        // SAFETY: `base` and `capacity` are the region `reserve` returned, and the VM that used
        // it has been closed (see `Vm::drop`).
        unsafe { region::release(self.arena.base, self.arena.capacity) };
    }
}

/// The size class of a request and the block size it gets; `None` past the largest arena.
fn class_of(size: usize) -> Option<(usize, usize)> {
    if size <= SMALL_LIMIT {
        let block = size.max(1).next_multiple_of(GRANULE);
        Some((block / GRANULE - 1, block))
    } else if size <= ALIGNMENT {
        let block = size.next_power_of_two();
        let step = (block.trailing_zeros() - SMALL_LIMIT.trailing_zeros()) as usize;
        Some((SMALL_LIMIT / GRANULE - 1 + step, block))
    } else {
        None
    }
}

impl Arena {
    fn allocate(&mut self, size: usize) -> *mut u8 {
        let Some((class, block)) = class_of(size) else {
            return ptr::null_mut();
        };
        let head = self.free[class];
        if !head.is_null() {
            // SAFETY: a free block of this class is at least 16 bytes and starts with the next
            // free block's address, written by `release`.
            self.free[class] = unsafe { head.cast::<*mut u8>().read() };
            return head;
        }
        if block > self.capacity - self.top {
            return ptr::null_mut();
        }
        let end = self.top + block;
        if end > self.committed {
            let to = end.next_multiple_of(COMMIT_STEP).min(self.capacity);
            // SAFETY: `committed..to` lies within the region `reserve` returned.
            if !unsafe { region::commit(self.base, self.committed, to) } {
                return ptr::null_mut();
            }
            self.committed = to;
        }
        // SAFETY: `top + block` is within the reserved region, and committed.
        let fresh = unsafe { self.base.add(self.top) };
        self.top += block;
        fresh
    }

    /// Gives back a block handed out for a request of `size` bytes.
    ///
    /// # Safety
    /// `block` came from `allocate` on this arena with a request of `size` bytes and is not used
    /// afterwards.
    unsafe fn release(&mut self, block: *mut u8, size: usize) {
        // Every block handed out has a class (the contract), so nothing is dropped here.
        let Some((class, _)) = class_of(size) else {
            return;
        };
        // SAFETY: the block is at least 16 bytes, 16-aligned and no longer in use (the contract).
        unsafe { block.cast::<*mut u8>().write(self.free[class]) };
        self.free[class] = block;
    }
}

/// The VM's allocator, with mlua's semantics: `nsize == 0` frees, a null `ptr` allocates,
/// anything else resizes; a request past the limit fails unless mlua asked to ignore it, and
/// failures leave the old block as it was.
///
/// # Safety
/// `ud` is the `Memory` the VM was created with, and `ptr`/`osize` describe a block this
/// allocator handed out (Luau's contract for `lua_Alloc`).
pub(super) unsafe extern "C" fn allocate(
    ud: *mut c_void,
    ptr: *mut c_void,
    osize: usize,
    nsize: usize,
) -> *mut c_void {
    // SAFETY: Luau passes back the user data the VM was created with: a live `Memory`.
    let memory = unsafe { &mut *ud.cast::<Memory>() };
    let accounts = &mut memory.accounts;
    accounts.limit_reached = false;
    let old = ptr.cast::<u8>();
    if nsize == 0 {
        if !old.is_null() {
            // SAFETY: Luau frees only blocks it got from here, with their size.
            unsafe { memory.arena.release(old, osize) };
            accounts.used -= osize as isize;
        }
        return ptr::null_mut();
    }
    let grows_by = nsize as isize - if old.is_null() { 0 } else { osize as isize };
    if grows_by > 0
        && accounts.limit > 0
        && accounts.used + grows_by > accounts.limit
        && !accounts.ignore_limit
    {
        accounts.limit_reached = true;
        return ptr::null_mut();
    }
    if !old.is_null() && class_of(osize).map(|c| c.0) == class_of(nsize).map(|c| c.0) {
        accounts.used += grows_by;
        return ptr;
    }
    let new = memory.arena.allocate(nsize);
    if new.is_null() {
        // The arena itself is full (fragmentation): a memory error like the limit's.
        memory.accounts.limit_reached = true;
        return ptr::null_mut();
    }
    if !old.is_null() {
        // SAFETY: both blocks are live, distinct, and at least `min(osize, nsize)` long.
        unsafe {
            ptr::copy_nonoverlapping(old, new, osize.min(nsize));
            memory.arena.release(old, osize);
        }
    }
    memory.accounts.used += grows_by;
    new.cast()
}

fn page_size() -> usize {
    region::page_size()
}

/// Reserving and releasing address space from the operating system.
#[cfg(unix)]
mod region {
    use super::ALIGNMENT;

    pub(super) fn page_size() -> usize {
        // SAFETY: sysconf has no preconditions.
        let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        usize::try_from(size).unwrap_or(4096)
    }

    /// Maps `capacity` readable, writable bytes at a multiple of [`ALIGNMENT`]. Pages are only
    /// backed by memory once touched, and not charged up front (`MAP_NORESERVE`).
    pub(super) fn reserve(capacity: usize) -> std::io::Result<*mut u8> {
        let span = capacity + ALIGNMENT;
        // SAFETY: an anonymous private mapping with no address hint touches no existing memory.
        let start = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                span,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if start == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        let start = start as usize;
        let base = start.next_multiple_of(ALIGNMENT);
        // SAFETY: both trimmed pieces lie inside the mapping just made and are page-aligned
        // (`base` is, and `capacity` is a multiple of the page size); the kept piece is made
        // readable and writable.
        unsafe {
            if base > start {
                libc::munmap(start as *mut _, base - start);
            }
            let end = start + span;
            if end > base + capacity {
                libc::munmap((base + capacity) as *mut _, end - base - capacity);
            }
            if libc::mprotect(base as *mut _, capacity, libc::PROT_READ | libc::PROT_WRITE) != 0 {
                let error = std::io::Error::last_os_error();
                libc::munmap(base as *mut _, capacity);
                return Err(error);
            }
        }
        Ok(base as *mut u8)
    }

    /// Nothing to do: the mapping is readable and writable already, and the system backs each
    /// page with memory when it is first touched.
    ///
    /// # Safety
    /// None needed here; the signature is the one every system's `commit` has.
    pub(super) unsafe fn commit(_base: *mut u8, _from: usize, _to: usize) -> bool {
        true
    }

    /// Unmaps a region made by [`reserve`].
    ///
    /// # Safety
    /// Nothing uses the region any more.
    pub(super) unsafe fn release(base: *mut u8, capacity: usize) {
        // SAFETY: the caller's contract.
        unsafe { libc::munmap(base.cast(), capacity) };
    }
}

/// Windows reserves address space and backs it with memory as separate steps: the region is
/// reserved whole (nothing is charged for it) and committed piece by piece as the arena grows.
#[cfg(windows)]
mod region {
    use super::ALIGNMENT;
    use std::ffi::c_void;
    use windows_sys::Win32::System::Memory::{
        MEM_COMMIT, MEM_RELEASE, MEM_RESERVE, PAGE_NOACCESS, PAGE_READWRITE, VirtualAlloc,
        VirtualFree,
    };
    use windows_sys::Win32::System::SystemInformation::{GetSystemInfo, SYSTEM_INFO};

    pub(super) fn page_size() -> usize {
        let mut info = SYSTEM_INFO::default();
        // SAFETY: GetSystemInfo fills the structure it is given and has no other effect.
        unsafe { GetSystemInfo(&mut info) };
        info.dwPageSize as usize
    }

    /// Reserves `capacity` bytes at a multiple of [`ALIGNMENT`], without backing them. A
    /// reservation can only be released whole, so an oversized one shows where an aligned start
    /// is free; it is released and the aligned part reserved in its place. Another thread may
    /// take that space in between, so this tries a few times.
    pub(super) fn reserve(capacity: usize) -> std::io::Result<*mut u8> {
        for _ in 0..8 {
            // SAFETY: a reservation with no address hint touches no existing memory.
            let probe = unsafe {
                VirtualAlloc(
                    std::ptr::null(),
                    capacity + ALIGNMENT,
                    MEM_RESERVE,
                    PAGE_NOACCESS,
                )
            };
            if probe.is_null() {
                return Err(std::io::Error::last_os_error());
            }
            let base = (probe as usize).next_multiple_of(ALIGNMENT);
            // SAFETY: `probe` is the start of the reservation just made, released whole.
            unsafe { VirtualFree(probe, 0, MEM_RELEASE) };
            // SAFETY: as above; at a given address the call fails if the space is taken.
            let region = unsafe {
                VirtualAlloc(base as *const c_void, capacity, MEM_RESERVE, PAGE_NOACCESS)
            };
            if !region.is_null() {
                return Ok(region.cast());
            }
        }
        Err(std::io::Error::last_os_error())
    }

    /// Backs bytes `from..to` of the region with readable, writable memory.
    ///
    /// # Safety
    /// `from..to` lies within a region made by [`reserve`] at `base`.
    pub(super) unsafe fn commit(base: *mut u8, from: usize, to: usize) -> bool {
        // SAFETY: the caller's contract; committing reserved pages touches nothing else.
        let done = unsafe {
            VirtualAlloc(
                base.add(from).cast::<c_void>(),
                to - from,
                MEM_COMMIT,
                PAGE_READWRITE,
            )
        };
        !done.is_null()
    }

    /// Releases a region made by [`reserve`].
    ///
    /// # Safety
    /// Nothing uses the region any more.
    pub(super) unsafe fn release(base: *mut u8, _capacity: usize) {
        // SAFETY: the caller's contract; `base` is the start of the reservation.
        unsafe { VirtualFree(base.cast(), 0, MEM_RELEASE) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_classes_cover_every_request_with_aligned_blocks() {
        for size in [1, 15, 16, 17, 1000, 1024, 1025, 4096, 5000, 1 << 20] {
            let (class, block) = class_of(size).unwrap();
            assert!(block >= size && block % GRANULE == 0, "{size} → {block}");
            assert!(class < CLASSES);
            assert_eq!(
                class_of(block),
                Some((class, block)),
                "a block is its own class"
            );
        }
        assert_eq!(class_of(ALIGNMENT).unwrap().0, CLASSES - 1);
        assert_eq!(class_of(ALIGNMENT + 1), None);
        assert_eq!(class_of(1025), class_of(2048));
    }

    #[test]
    fn the_same_requests_give_the_same_offsets() {
        let run = || {
            let mut memory = Memory::new(1 << 20).unwrap();
            let base = memory.base();
            assert_eq!(base % ALIGNMENT, 0);
            let ud = (&mut memory as *mut Memory).cast();
            let mut offsets = Vec::new();
            // SAFETY: the blocks come from this allocator and are freed once, with their sizes.
            unsafe {
                let a = allocate(ud, ptr::null_mut(), 0, 40);
                let b = allocate(ud, ptr::null_mut(), 0, 3000);
                allocate(ud, a, 40, 0);
                let c = allocate(ud, ptr::null_mut(), 0, 33);
                let b = allocate(ud, b, 3000, 5000);
                for p in [c, b] {
                    offsets.push(p as usize - base);
                }
            }
            (offsets, memory.accounts.used)
        };
        let (offsets, used) = run();
        assert_eq!(run(), (offsets.clone(), used));
        assert_eq!(offsets[0], 0, "a freed block of the same class is reused");
        assert_eq!(used, 33 + 5000);
    }

    #[test]
    fn the_limit_and_the_arena_bound_what_a_vm_gets() {
        let mut memory = Memory::new(1 << 16).unwrap();
        memory.accounts.limit = 1000;
        let ud = (&mut memory as *mut Memory).cast();
        // SAFETY: as above.
        unsafe {
            assert!(allocate(ud, ptr::null_mut(), 0, 2000).is_null());
            assert!(memory.accounts.limit_reached);
            memory.accounts.limit = 0;
            assert!(!allocate(ud, ptr::null_mut(), 0, 40_000).is_null());
            assert!(
                allocate(ud, ptr::null_mut(), 0, 40_000).is_null(),
                "the arena is full"
            );
        }
    }
}
