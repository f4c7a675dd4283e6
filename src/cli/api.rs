//! `rampart api`: the script API as type definitions for editors.

use clap::Args;

use rampart::battle::scripting::defs;

use super::Failure;

/// Options of `rampart api`.
#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("output").required(true).multiple(true))]
pub struct ApiArgs {
    /// Write a Luau definitions file for luau-lsp to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE", group = "output")]
    pub luau_defs: Option<String>,
    /// Write annotations for the Lua Language Server to FILE, or to standard output with `-`.
    #[arg(long, value_name = "FILE", group = "output")]
    pub lua_ls: Option<String>,
}

/// Runs the command.
pub fn run(args: &ApiArgs) -> Result<(), Failure> {
    let outputs = [
        (
            args.luau_defs.as_deref(),
            "Luau definitions",
            defs::luau as fn() -> String,
        ),
        (
            args.lua_ls.as_deref(),
            "Lua Language Server annotations",
            defs::lua_ls,
        ),
    ];
    let to_stdout = outputs.iter().filter(|(t, ..)| *t == Some("-")).count();
    if to_stdout > 1 {
        return Err(Failure::error(
            "only one of --luau-defs and --lua-ls can write to standard output (`-`)",
        ));
    }
    for (target, what, write) in outputs {
        match target {
            None => {}
            Some("-") => out!("{}", write().trim_end()),
            Some(path) => {
                std::fs::write(path, write())
                    .map_err(|e| Failure::error(format!("cannot write {path}: {e}")))?;
                // Said on standard error when the other output goes to standard output.
                if to_stdout == 0 {
                    out!("wrote {what} to {path}");
                } else {
                    eprintln!("wrote {what} to {path}");
                }
            }
        }
    }
    Ok(())
}
