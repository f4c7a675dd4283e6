//! Sandboxed Luau for mod scripts.
//!
//! Each mod gets its own Luau VM ([`Sandbox`]) so no mod can see another's globals or exhaust
//! another's memory. The VM has no file, OS, debug or bytecode-loading access, a memory cap, and
//! an instruction budget per call from the host; anything a script does wrong comes back as a
//! [`ScriptError`] naming the mod, the file and the line, and the host carries on.
//!
//! This crate knows nothing of the game: the core's battle binds its API into a sandbox when it
//! creates one (`battle::scripting` in `rampart-core`). It is the one place Luau is built and
//! `mlua` pinned, and it holds most of the workspace's `unsafe` code (`docs/architecture.md`).

mod arena;
mod budget;
mod maths;
mod sandbox;
mod vm;

pub mod text;

use std::fmt;

use crate::text::{escape_controls, hide_addresses};

pub use budget::{Budget, BudgetGuard};
pub use sandbox::{Library, Limits, ModScripts, Sandbox};

/// What kind of thing went wrong in a script.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScriptErrorKind {
    /// The script does not compile.
    Syntax,
    /// A Lua error raised while running.
    Runtime,
    /// The script reached for something the sandbox forbids (files, the OS, the debug library…).
    Forbidden,
    /// The call used up its instruction budget (an endless loop, or far too much work).
    Budget,
    /// The mod's VM hit its memory cap.
    Memory,
}

/// A failure in a mod's script, located as precisely as the VM allows.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ScriptError {
    /// The mod whose script failed.
    pub mod_id: String,
    /// The script, relative to the mod folder (`scripts/tower.lua`), if known.
    pub file: Option<String>,
    /// The line, if known.
    pub line: Option<usize>,
    /// What kind of failure.
    pub kind: ScriptErrorKind,
    /// What went wrong, without the location prefix.
    pub message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] ", self.mod_id)?;
        match (&self.file, self.line) {
            (Some(file), Some(line)) => write!(f, "{file}:{line}: ")?,
            (Some(file), None) => write!(f, "{file}: ")?,
            _ => {}
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for ScriptError {}

/// A failure raised on purpose by the sandbox or the host API, carrying the script location of
/// the Lua code that caused it. It travels through Lua as an external error.
#[derive(Clone, Debug)]
pub struct Fault {
    /// What kind of failure.
    pub kind: ScriptErrorKind,
    /// The script and line of the offending Lua code, if it could be found.
    pub location: Option<(String, usize)>,
    /// The message.
    pub message: String,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some((file, line)) => write!(f, "{file}:{line}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for Fault {}

impl Fault {
    /// A fault at the innermost Lua code running in `lua`.
    pub fn here(lua: &mlua::Lua, kind: ScriptErrorKind, message: impl Into<String>) -> mlua::Error {
        mlua::Error::external(Fault {
            kind,
            location: caller_location(lua),
            message: message.into(),
        })
    }
}

/// The chunk name a script is loaded under; Luau prefixes error messages with it.
pub(crate) fn chunk_name(path: &str) -> String {
    format!("={path}")
}

/// The script and line of the innermost Lua function on the stack (skipping Rust functions).
pub fn caller_location(lua: &mlua::Lua) -> Option<(String, usize)> {
    (0..32).find_map(|level| {
        lua.inspect_stack(level, |d| {
            let source = d.source();
            let src = source.short_src.as_deref()?;
            let line = d.current_line()?;
            (source.what != "C").then(|| (src.to_string(), line))
        })
        .flatten()
    })
}

/// Compiles a script to Luau bytecode. A syntax error comes back with its line.
pub fn compile(source: &str) -> Result<Vec<u8>, (Option<usize>, String)> {
    // `math` mutable: the compiler would otherwise compute `math.sin(1)` itself with the C
    // library (a script may ask for `--!optimize 2`) instead of calling the sandbox's libm
    // functions (`maths.rs`). Its `disabled_builtins` cannot be relied on: a global named like
    // the function (`sin = …`) switches the disabling off.
    let compiler = mlua::chunk::Compiler::new()
        .set_optimization_level(1)
        .set_debug_level(1)
        .set_mutable_globals(["math"]);
    compiler.compile(source).map_err(|e| match e {
        // Luau reports "<line>: <message>".
        mlua::Error::SyntaxError { message, .. } => match message.split_once(": ") {
            Some((line, text)) if line.parse::<usize>().is_ok() => {
                (line.parse().ok(), text.to_string())
            }
            _ => (None, message),
        },
        other => (None, other.to_string()),
    })
}

/// Splits `"<prefix>:<line>: message"` (the prefix may be empty) into its parts.
fn split_location(text: &str) -> Option<(&str, usize, String)> {
    // Scan for ":<digits>:" and take the last prefix that looks like a chunk name.
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b':' {
            let digits = bytes[i + 1..]
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if digits > 0 && bytes.get(i + 1 + digits) == Some(&b':') {
                let prefix = &text[..i];
                // A chunk name has no spaces; this filters out ordinary prose.
                let prefix = prefix
                    .rsplit(|c: char| c.is_whitespace())
                    .next()
                    .unwrap_or("");
                let line = text[i + 1..i + 1 + digits].parse().ok()?;
                let message = text[i + 2 + digits..].trim_start().to_string();
                return Some((prefix, line, message));
            }
        }
        i += 1;
    }
    None
}

impl ScriptError {
    /// Turns an mlua error from running code of `mod_id` into a located script error.
    /// `fallback` is where to point when the VM gives no position: the script, and the line
    /// of the function called if known. The message is made safe to show: a script chooses
    /// its error's text (escape sequences included) and mlua may print a heap address into it
    /// (`error({})`), so control characters are escaped and addresses hidden.
    pub fn from_lua(
        mod_id: &str,
        error: &mlua::Error,
        fallback: Option<(String, Option<usize>)>,
    ) -> ScriptError {
        let (kind, location, message) = classify(error);
        let (file, line) = match location {
            Some((file, line)) => (Some(file), Some(line)),
            None => fallback.map_or((None, None), |(file, line)| (Some(file), line)),
        };
        ScriptError {
            mod_id: mod_id.to_string(),
            file: file.map(|f| printable(&f)),
            line,
            kind,
            message: printable(&message),
        }
    }
}

/// `text` with heap addresses hidden and control characters escaped.
fn printable(text: &str) -> String {
    escape_controls(&hide_addresses(text)).into_owned()
}

fn classify(error: &mlua::Error) -> (ScriptErrorKind, Option<(String, usize)>, String) {
    match error {
        mlua::Error::ExternalError(e) => {
            if let Some(fault) = e.downcast_ref::<Fault>() {
                return (fault.kind, fault.location.clone(), fault.message.clone());
            }
            if let Some(inner) = e.downcast_ref::<mlua::Error>() {
                return classify(inner);
            }
            (ScriptErrorKind::Runtime, None, e.to_string())
        }
        mlua::Error::CallbackError { traceback, cause } => {
            let (kind, location, message) = classify(cause);
            let location = location.or_else(|| traceback_location(traceback));
            (kind, location, message)
        }
        mlua::Error::WithContext { cause, .. } => classify(cause),
        // mlua would print its cause's kind too ("runtime error: …"): only the message says
        // what was wrong with the argument.
        mlua::Error::BadArgument {
            to,
            pos,
            name,
            cause,
        } => {
            let (kind, location, message) = match mismatch(cause) {
                Some(message) => (ScriptErrorKind::Runtime, None, message),
                None => classify(cause),
            };
            let which = name
                .as_ref()
                .map_or_else(|| format!("#{pos}"), |n| format!("`{n}`"));
            let function = to.as_ref().map(|f| format!("{f}: ")).unwrap_or_default();
            (
                kind,
                location,
                format!("{function}bad argument {which}: {message}"),
            )
        }
        mlua::Error::MemoryError(_) => (
            ScriptErrorKind::Memory,
            None,
            "the mod's scripts ran out of memory (the sandbox caps each mod's memory)".to_string(),
        ),
        mlua::Error::SyntaxError { message, .. } => located(ScriptErrorKind::Syntax, message),
        mlua::Error::RuntimeError(message) => located(ScriptErrorKind::Runtime, message),
        other => located(ScriptErrorKind::Runtime, &other.to_string()),
    }
}

/// A Lua type as a message names what a script gave: "nil", "a string", "a table".
pub fn a_value_of(type_name: &str) -> String {
    match type_name {
        "nil" => "nil".to_string(),
        other => format!("a {other}"),
    }
}

/// "expected a number, got a string" for a value of the wrong Lua type; `None` for any other
/// error, and for a number out of a type's range, whose own message says more.
fn mismatch(error: &mlua::Error) -> Option<String> {
    let mlua::Error::FromLuaConversionError { from, to, .. } = error else {
        return None;
    };
    if matches!(*from, "number" | "integer") {
        return None;
    }
    let expected = expected(to)?;
    Some(format!("expected {expected}, got {}", a_value_of(from)))
}

/// What a script must give for a Rust type mlua failed to convert to, in Lua's words.
fn expected(rust_type: &str) -> Option<&'static str> {
    Some(match rust_type {
        "f32" | "f64" | "i8" | "i16" | "i32" | "i64" | "u8" | "u16" | "u32" | "u64" | "usize"
        | "isize" => "a number",
        "String" | "BString" | "string" => "a string",
        "bool" | "boolean" => "a boolean",
        "Function" | "function" => "a function",
        "Table" | "table" => "a table",
        _ => return None,
    })
}

fn located(
    kind: ScriptErrorKind,
    message: &str,
) -> (ScriptErrorKind, Option<(String, usize)>, String) {
    let first_line = message.lines().next().unwrap_or("");
    match split_location(first_line) {
        Some((chunk, line, text)) if !chunk.is_empty() => {
            (kind, Some((chunk.to_string(), line)), text)
        }
        _ => (kind, None, first_line.to_string()),
    }
}

/// The first frame of a traceback that is in a script.
fn traceback_location(traceback: &str) -> Option<(String, usize)> {
    traceback.lines().find_map(|l| {
        let (chunk, line, _) = split_location(l.trim())?;
        (!chunk.is_empty() && chunk != "[C]").then(|| (chunk.to_string(), line))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_carry_their_line() {
        let (line, message) = compile("local x = 1\nlocal = 2\n").unwrap_err();
        assert_eq!(line, Some(2));
        assert!(!message.is_empty());
        assert!(compile("return 1").is_ok());
    }

    #[test]
    fn messages_are_shown_without_addresses_or_control_characters() {
        let error = mlua::Error::RuntimeError(
            "scripts/b.lua:3: \x1b[2Jbad value table: 0x55d0c2a1b3c8\x07".into(),
        );
        let e = ScriptError::from_lua("m", &error, None);
        assert_eq!(e.message, "\\u{1b}[2Jbad value table: <address>\\u{7}");
        assert_eq!(e.line, Some(3));
        let fault = Fault {
            kind: ScriptErrorKind::Runtime,
            location: Some(("scripts/\x1bc.lua".into(), 1)),
            message: "userdata: 0x7f00aa11bb22".into(),
        };
        let e = ScriptError::from_lua("m", &mlua::Error::external(fault), None);
        assert_eq!(e.message, "userdata: <address>");
        assert_eq!(e.file.as_deref(), Some("scripts/\\u{1b}c.lua"));
    }

    #[test]
    fn errors_raised_with_any_value_show_no_address() {
        let lua = mlua::Lua::new();
        for raised in [
            "error({})",
            "error(function() end)",
            "error(coroutine.create(print))",
        ] {
            let error = lua
                .load(raised)
                .set_name("=scripts/a.lua")
                .exec()
                .unwrap_err();
            let e = ScriptError::from_lua("m", &error, None);
            assert!(!e.message.contains("0x"), "{raised}: {}", e.message);
        }
    }

    #[test]
    fn locations_are_split_from_messages() {
        assert_eq!(
            split_location("scripts/a.lua:12: boom"),
            Some(("scripts/a.lua", 12, "boom".to_string()))
        );
        assert_eq!(split_location("no location here"), None);
        let (kind, loc, msg) = classify(&mlua::Error::RuntimeError(
            "scripts/b.lua:3: attempt to call a nil value".into(),
        ));
        assert_eq!(kind, ScriptErrorKind::Runtime);
        assert_eq!(loc, Some(("scripts/b.lua".to_string(), 3)));
        assert_eq!(msg, "attempt to call a nil value");
    }
}
