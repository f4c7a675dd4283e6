//! The core's integration tests, as one test binary so the crate is linked once: each module
//! below was a test file of its own. Tests that run the `rampart` binary are the binary's own
//! (`crates/rampart/tests/cli/`); the client's render test is `crates/client/tests/render/`.
//!
//! Run one area with a filter, e.g. `cargo test -p rampart-core --test suite battle_combat`.

mod common;
mod waves_common;

mod access_repair;
mod architecture;
mod autopilot;
mod battle_combat;
mod battle_describe;
mod battle_lua_api;
mod battle_reload;
mod battle_scripts;
mod battle_world;
mod chain_examples;
mod content;
mod core_attackers;
mod core_blueprints;
mod core_bosses;
mod determinism;
mod determinism_probes;
mod docs;
mod example_frost;
mod fuzz;
mod golden;
mod hostile;
mod lattice_paths;
mod layered_terrain;
mod level_regenerate;
mod levels;
mod limits_data;
mod mod_api;
mod mod_chains;
mod mod_list;
mod models;
mod run_augments;
mod run_events;
mod runs;
mod saves;
mod scenarios;
mod script_cost;
mod script_limits;
mod sounds;
mod storage;
mod terrain_parse;
mod tower_targets;
mod tutorial_data;
mod visuals;
mod waves_balance;
mod waves_generate;
mod waves_model;
mod waves_snapshot;
mod worldgen_invariants;
