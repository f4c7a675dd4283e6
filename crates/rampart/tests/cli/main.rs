//! The `rampart` binary's tests, as one test binary: its commands run as processes, as a player
//! or modder runs them, and what they print and write checked. The core's own tests are
//! `crates/core/tests/suite/`, whose helpers for writing mods these share.
//!
//! Run one area with a filter, e.g. `cargo test -p rampart --test cli scenario_cli`.

mod bin;
#[expect(dead_code, reason = "these tests use some of the core suite's helpers")]
#[path = "../../../core/tests/suite/common/mod.rs"]
mod common;

mod api_defs;
mod balance;
mod cli;
mod cli_hardening;
// A Unix target's archive is a `.tar.gz`, which the test unpacks.
#[cfg(unix)]
mod dist;
mod game_dir;
mod generate_cli;
mod hexgen_invariants;
mod hexmap_cli;
mod new_mod_cli;
mod replay;
mod run_cli;
mod run_map;
mod scenario_cli;
