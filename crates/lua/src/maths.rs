//! The scripts' `math` functions that Luau computes with the C library, computed by the libm
//! crate instead: the C library's `sin`, `exp`, `pow`… differ in the last bit between systems
//! (glibc, MinGW, MSVC, macOS), and a script's numbers decide battles that must replay
//! everywhere (`docs/determinism.md`, *The same bits on every system*).
//!
//! Each replacement is a C function like Luau's own (`lmathlib.cpp`), with its name, so
//! arguments are read and refused exactly as before (a number, or a string that reads as one;
//! `invalid argument #1 to 'sin' (number expected, got table)`). The compiler must also be kept
//! from computing them itself: [`crate::compile`] marks `math` as mutable.

use std::ffi::{CStr, c_int};

use mlua::{Lua, Table, ffi};

/// Defines C functions that read their arguments (by position) as numbers, as
/// `luaL_checknumber` does, and return one number.
macro_rules! numeric {
    ($($name:ident($($arg:ident: $at:literal),+) => $value:expr;)*) => {$(
        unsafe extern "C-unwind" fn $name(state: *mut ffi::lua_State) -> c_int {
            // SAFETY: Luau calls a C function with a valid state and room for at least
            // LUA_MINSTACK values; reading an argument that is not a number raises a Lua error,
            // which unwinds through this frame (it owns nothing to drop), as mlua's own do.
            unsafe {
                $(let $arg = ffi::luaL_checknumber(state, $at);)+
                ffi::lua_pushnumber(state, $value);
            }
            1
        }
    )*};
}

numeric! {
    sin(x: 1) => libm::sin(x);
    cos(x: 1) => libm::cos(x);
    tan(x: 1) => libm::tan(x);
    asin(x: 1) => libm::asin(x);
    acos(x: 1) => libm::acos(x);
    atan(x: 1) => libm::atan(x);
    atan2(y: 1, x: 2) => libm::atan2(y, x);
    sinh(x: 1) => libm::sinh(x);
    cosh(x: 1) => libm::cosh(x);
    tanh(x: 1) => libm::tanh(x);
    exp(x: 1) => libm::exp(x);
    log10(x: 1) => libm::log10(x);
    pow(x: 1, y: 2) => libm::pow(x, y);
}

/// `math.log(x [, base])`, which Luau computes with `log2` and `log10` for those two bases.
unsafe extern "C-unwind" fn log(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: as for the functions above.
    unsafe {
        let x = ffi::luaL_checknumber(state, 1);
        let value = if ffi::lua_isnoneornil(state, 2) != 0 {
            libm::log(x)
        } else {
            let base = ffi::luaL_checknumber(state, 2);
            if base == 2.0 {
                libm::log2(x)
            } else if base == 10.0 {
                libm::log10(x)
            } else {
                libm::log(x) / libm::log(base)
            }
        };
        ffi::lua_pushnumber(state, value);
    }
    1
}

/// The functions of Luau's `math` that call the C library's transcendental functions, with
/// their replacements. Its other functions are exact (`sqrt`, `floor`, `fmod`, `abs`…) or
/// arithmetic of its own (`noise`, `lerp`, `map`).
const REPLACED: [(&CStr, ffi::lua_CFunction); 14] = [
    (c"sin", sin),
    (c"cos", cos),
    (c"tan", tan),
    (c"asin", asin),
    (c"acos", acos),
    (c"atan", atan),
    (c"atan2", atan2),
    (c"sinh", sinh),
    (c"cosh", cosh),
    (c"tanh", tanh),
    (c"exp", exp),
    (c"log", log),
    (c"log10", log10),
    (c"pow", pow),
];

/// Puts the replacements into `math` (before the sandbox freezes it).
pub(crate) fn install(lua: &Lua, math: Table) -> mlua::Result<()> {
    // SAFETY: `exec_raw` runs the closure protected, with `math` at index 1 and room for three
    // more values; each step pushes one function and pops it into the table. The names are
    // static, as a C function's debug name must be.
    unsafe {
        lua.exec_raw::<()>(math, |state| {
            for (name, function) in REPLACED {
                ffi::lua_pushcfunctiond(state, function, name.as_ptr());
                ffi::lua_rawsetfield(state, 1, name.as_ptr());
            }
        })
    }
}
