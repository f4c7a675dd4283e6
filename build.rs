//! Builds and links the Luau VM: mlua runs in its `module` mode (so that it accepts the VMs
//! `src/lua/vm.rs` creates with their own allocator), which leaves compiling Luau to us.
fn main() {
    luau0_src::Build::new()
        .set_max_cstack_size(1_000_000)
        .set_vector_size(3)
        .build()
        .print_cargo_metadata();
}
