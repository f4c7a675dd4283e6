//! Rampart's integration tests, as one test binary so the library is linked once: each module
//! below was a test file of its own. The client's render test is `tests/render.rs`.
//!
//! Run one area with a filter, e.g. `cargo test --no-default-features --test suite battle_combat`.

mod common;
mod waves_common;

mod access_repair;
mod api_defs;
mod architecture;
mod autopilot;
mod balance;
mod battle_combat;
mod battle_describe;
mod battle_lua_api;
mod battle_reload;
mod battle_scripts;
mod battle_world;
mod chain_examples;
mod cli;
mod cli_hardening;
mod content;
mod core_attackers;
mod core_blueprints;
mod core_bosses;
mod determinism;
mod determinism_probes;
mod docs;
mod example_frost;
mod fuzz;
mod generate_cli;
mod hexgen_invariants;
mod hexmap_cli;
mod hostile;
mod lattice_paths;
mod layered_terrain;
mod level_regenerate;
mod levels;
mod limits_data;
mod mod_api;
mod mod_chains;
mod mod_list;
mod new_mod_cli;
mod replay;
mod run_augments;
mod run_cli;
mod run_events;
mod run_map;
mod runs;
mod saves;
mod scenario_cli;
mod scenarios;
mod script_cost;
mod script_limits;
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
