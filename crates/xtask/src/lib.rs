//! The project's own tasks, run with `cargo xtask` (an alias in `.cargo/config.toml`).
//!
//! `cargo xtask dist` builds the `rampart` binary as a packaged build and packs it into the
//! archive players download (`main.rs`); the packing is [`pack`], given a binary already built,
//! so that a test can pack the binary it has without running cargo's build.

mod archive;
mod licences;

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;

pub use flate2::Compression;

use archive::Archive;
use licences::Licences;

/// The mods an archive ships, from the repository's `mods/`: the base game and the example mod.
const MODS: [&str; 2] = ["core", "example-frost"];

/// The player's README, with `{{…}}` placeholders filled in by [`readme`].
const README: &str = include_str!("../templates/README.txt");
/// How to start the game and where the user data folder is, on Windows.
const START_WINDOWS: &str = include_str!("../templates/start-windows.txt");
/// The same on Linux and macOS.
const START_UNIX: &str = include_str!("../templates/start-unix.txt");

/// What went wrong, in words for the person who ran the task.
#[derive(Debug)]
pub struct Error(String);

impl Error {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> Error {
        Error(message.into())
    }

    /// An I/O error while doing `what` with `path`, naming both.
    fn io(what: &str, path: &Path) -> impl FnOnce(std::io::Error) -> Error {
        let message = format!("cannot {what} {}", path.display());
        move |e| Error(format!("{message}: {e}"))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// An archive to pack from a binary already built.
#[derive(Clone, Copy, Debug)]
pub struct Pack<'a> {
    /// The built `rampart` (or `rampart.exe`) binary.
    pub binary: &'a Path,
    /// The target triple it was built for, such as `x86_64-unknown-linux-gnu`.
    pub target: &'a str,
    /// Whether it was built with the `rampart` crate's default features (the game window):
    /// which packages were linked into it, for the licences.
    pub default_features: bool,
    /// The repository's root: its `Cargo.toml` and `mods/`.
    pub root: &'a Path,
    /// The folder the archive is written into (made if missing).
    pub out: &'a Path,
    /// How hard to compress.
    pub compression: Compression,
}

/// Packs `rampart-<version>-<target>.tar.gz` (`.zip` for a Windows target) into `pack.out`, with
/// one folder `rampart-<version>-<target>/` holding the binary, the shipped mods, the player's
/// `README.txt` and `LICENSES.txt`, and returns the archive's path.
pub fn pack(pack: &Pack) -> Result<PathBuf, Error> {
    if !pack.binary.is_file() {
        return Err(Error::new(format!(
            "the built binary {} is missing",
            pack.binary.display()
        )));
    }
    for name in MODS {
        let manifest = pack.root.join("mods").join(name).join("mod.ron");
        if !manifest.is_file() {
            return Err(Error::new(format!(
                "{} is missing: the archive ships that mod",
                manifest.display()
            )));
        }
    }
    let licences = licences::collect(pack.root, pack.target, pack.default_features)?;
    let top = format!("rampart-{}-{}", licences.version, pack.target);
    let windows = is_windows(pack.target);
    let name = format!("{top}.{}", if windows { "zip" } else { "tar.gz" });
    std::fs::create_dir_all(pack.out).map_err(Error::io("create the folder", pack.out))?;
    let path = pack.out.join(&name);
    // Written under another name and renamed when complete, so that a failed pack leaves no
    // archive that looks whole.
    let part = pack.out.join(format!("{name}.part"));
    let mut archive = Archive::create(&part, windows, pack.compression)?;
    archive.dir(&top)?;
    archive.file_from_disk(
        &format!("{top}/{}", program(pack.target)),
        pack.binary,
        true,
    )?;
    let readme = readme(&licences, pack.target, pack.default_features);
    archive.file(&format!("{top}/README.txt"), readme.as_bytes())?;
    archive.file(&format!("{top}/LICENSES.txt"), licences.text.as_bytes())?;
    archive.dir(&format!("{top}/mods"))?;
    for name in MODS {
        archive.tree(
            &format!("{top}/mods/{name}"),
            &pack.root.join("mods").join(name),
        )?;
    }
    archive.finish()?;
    std::fs::rename(&part, &path).map_err(Error::io("rename the archive to", &path))?;
    Ok(path)
}

/// The file name of the `rampart` binary on `target`.
pub fn program(target: &str) -> &'static str {
    if is_windows(target) {
        "rampart.exe"
    } else {
        "rampart"
    }
}

/// Whether `target` is a Windows target, whose archive is a `.zip`.
fn is_windows(target: &str) -> bool {
    target.contains("-windows")
}

/// The target triple of the machine's Rust compiler, the one cargo builds for by default.
pub fn host_target() -> Result<String, Error> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(&rustc)
        .arg("-vV")
        .output()
        .map_err(|e| Error::new(format!("cannot run {}: {e}", rustc.display())))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|line| line.strip_prefix("host: "))
        .map(str::to_string)
        .ok_or_else(|| Error::new("`rustc -vV` did not name its host target"))
}

/// The `cargo` that runs this task (cargo sets `$CARGO` for what it runs), else the one on the
/// `PATH`.
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// The player's README for this version and target.
fn readme(licences: &Licences, target: &str, default_features: bool) -> String {
    let windows = is_windows(target);
    let (start, program, user) = if windows {
        (
            START_WINDOWS,
            ".\\rampart.exe",
            "  %APPDATA%\\rampart\\data (such as C:\\Users\\you\\AppData\\Roaming\\rampart\\data)",
        )
    } else if target.contains("-apple-") {
        (
            START_UNIX,
            "./rampart",
            "  ~/Library/Application Support/rampart",
        )
    } else {
        (
            START_UNIX,
            "./rampart",
            "  ~/.local/share/rampart (or $XDG_DATA_HOME/rampart when XDG_DATA_HOME is set)",
        )
    };
    let window = if default_features {
        ""
    } else {
        "This build has no game window (it was built without the `client` feature): it has every\n\
         command but `play`.\n\n"
    };
    README
        .replace("{{start}}", start.trim_end())
        .replace("{{window}}", window)
        .replace("{{user}}", user)
        .replace("{{version}}", &licences.version)
        .replace("{{repository}}", &licences.repository)
        .replace("{{target}}", target)
        .replace("{{program}}", program)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_targets_get_an_exe_and_the_windows_readme() {
        assert_eq!(program("x86_64-pc-windows-gnu"), "rampart.exe");
        assert_eq!(program("aarch64-apple-darwin"), "rampart");
        let licences = Licences {
            version: "1.2.3".into(),
            repository: "https://example.org/rampart".into(),
            text: String::new(),
        };
        let windows = readme(&licences, "x86_64-pc-windows-msvc", true);
        assert!(
            windows.contains("Rampart 1.2.3 (x86_64-pc-windows-msvc)"),
            "{windows}"
        );
        assert!(windows.contains(".\\rampart.exe check"), "{windows}");
        assert!(windows.contains("%APPDATA%"), "{windows}");
        assert!(windows.contains("https://example.org/rampart"), "{windows}");
        assert!(!windows.contains("{{"), "{windows}");
        let linux = readme(&licences, "x86_64-unknown-linux-gnu", false);
        assert!(linux.contains("./rampart check"), "{linux}");
        assert!(linux.contains("~/.local/share/rampart"), "{linux}");
        assert!(linux.contains("no game window"), "{linux}");
        assert!(!linux.contains("{{"), "{linux}");
    }
}
