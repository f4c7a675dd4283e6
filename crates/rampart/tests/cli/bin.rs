//! Running the `rampart` binary as a modder does.

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The `rampart` binary run with `args` from the repository's root, as a modder runs it, with
/// `home` as its user data folder.
pub fn rampart(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rampart"))
        .args(args)
        .current_dir(crate::common::repo())
        .env("RAMPART_HOME", home)
        .env_remove("RUST_LOG")
        .stdin(Stdio::null())
        .output()
        .expect("the rampart binary runs")
}

/// Output of the binary as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
