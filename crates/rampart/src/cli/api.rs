//! `rampart api`: the script API as type definitions for editors.

use std::path::PathBuf;

use clap::Args;

use rampart_core::battle::scripting::defs::{self, ModChains};

use super::{Context, Failure};

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
    /// Also declare the events and queries the mod in DIR and the mods it depends on declare
    /// (their chains.ron), as that mod's scripts may use them.
    #[arg(long = "mod", value_name = "DIR")]
    pub for_mod: Option<PathBuf>,
}

/// Runs the command.
pub fn run(context: &Context, args: &ApiArgs) -> Result<(), Failure> {
    let declared = match &args.for_mod {
        Some(dir) => {
            let (content, id) = context.load_mod(dir)?;
            ModChains::of(&content, &id)
        }
        None => ModChains::none(),
    };
    let outputs = [
        (
            args.luau_defs.as_deref(),
            "Luau definitions",
            defs::luau as fn(&ModChains) -> String,
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
            Some("-") => out!("{}", write(&declared).trim_end()),
            Some(path) => {
                std::fs::write(path, write(&declared))
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
