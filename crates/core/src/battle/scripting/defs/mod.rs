//! Type definitions of the script API for editors, written from the description the runtime
//! installs the API from — the objects and their functions ([`CLASSES`]), the chains and their
//! payloads ([`Chains::ALL`]), the hooks ([`Hook`]) — so they cannot say other than the game:
//! a definitions file for luau-lsp ([`luau`]) and annotations for the Lua Language Server
//! ([`lua_ls`]). `rampart api` writes them; `docs/modding/editor.md` says how to use them.
//!
//! What both formats need is resolved once, in `model.rs`: a function that takes a chain name is
//! declared once per chain it fits, with its callback, input and result typed for that chain;
//! the tables scripts see are gathered from every signature, each declared once.

mod declared;
mod lua_ls;
mod luau;
mod model;

pub use lua_ls::lua_ls;
pub use luau::luau;
pub use model::ModChains;
