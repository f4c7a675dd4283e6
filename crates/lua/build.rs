//! Builds and links the Luau VM: mlua runs in its `module` mode (so that it accepts the VMs
//! `crates/lua/src/vm.rs` creates with their own allocator), which leaves compiling Luau to us.
fn main() {
    // The C++ compiler gets this crate's optimisation level, which is 0 in a debug build: every
    // test that runs scripts would run an unoptimised interpreter (the dependencies' level in
    // `Cargo.toml` does not reach a build script's compiler). A debug build keeps Luau's
    // assertions; it only asks the compiler to optimise.
    if std::env::var("OPT_LEVEL").as_deref() == Ok("0") {
        // SAFETY: a build script runs on one thread, and nothing else reads the environment
        // concurrently.
        unsafe { std::env::set_var("OPT_LEVEL", "2") };
    }
    luau0_src::Build::new()
        .set_max_cstack_size(1_000_000)
        .set_vector_size(3)
        .build()
        .print_cargo_metadata();
}
