//! `LICENSES.txt`: every package built into the binary for one target, with its licence and the
//! text of its licence files.
//!
//! Which packages: `cargo tree` of the `rampart` package for the target with the build's
//! features, normal dependencies only and no proc macros (they run in the compiler, nothing of
//! them is linked), and the `*-src` build dependencies of a package that links a native library,
//! whose C or C++ sources its build script compiles into the binary (Luau's, in `luau0-src`).
//! `cargo metadata` alone would list more: it unifies features over the whole workspace and its
//! development dependencies (docs/decisions.md, "Packaged builds"). Each package's licence and
//! folder come from `cargo metadata`.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use cargo_metadata::{DependencyKind, Metadata, MetadataCommand, Package, PackageId};

use crate::{Error, cargo};

/// Names of the files a package's licence is in: at the top of its folder, a file or a folder
/// whose name starts with one of these (in capitals).
const LICENCE_FILES: [&str; 5] = ["LICENSE", "LICENCE", "COPYING", "NOTICE", "UNLICENSE"];

/// The licence file of a build, and the version and repository of the `rampart` package it is
/// for, which the archive's name and README give.
pub(crate) struct Licences {
    pub(crate) version: String,
    pub(crate) repository: String,
    pub(crate) text: String,
}

/// A package shipped in the binary.
struct Shipped<'m> {
    package: &'m Package,
    /// The package whose build script compiles this one's sources in, for a `*-src` package.
    compiled_by: Option<&'m str>,
}

/// The licences of the `rampart` binary built for `target`, with or without its default
/// features, from the workspace at `root`.
pub(crate) fn collect(
    root: &Path,
    target: &str,
    default_features: bool,
) -> Result<Licences, Error> {
    let mut metadata = MetadataCommand::new();
    metadata
        .cargo_path(cargo().get_program())
        .manifest_path(root.join("Cargo.toml"))
        .other_options(["--locked", "--filter-platform", target].map(String::from));
    if !default_features {
        metadata.features(cargo_metadata::CargoOpt::NoDefaultFeatures);
    }
    let metadata = metadata
        .exec()
        .map_err(|e| Error::new(format!("`cargo metadata` failed: {e}")))?;
    let shipped = shipped(&metadata, &linked(root, target, default_features)?)?;
    let rampart = shipped
        .iter()
        .find(|s| s.package.name.as_str() == "rampart")
        .ok_or_else(|| Error::new("`cargo tree -p rampart` did not list rampart"))?
        .package;
    let text = render(&metadata, &shipped, rampart, target, default_features, root)?;
    Ok(Licences {
        version: rampart.version.to_string(),
        repository: rampart.repository.clone().unwrap_or_default(),
        text,
    })
}

/// Names and versions of the packages linked into `rampart` for `target`, as `cargo tree` lists
/// them.
fn linked(
    root: &Path,
    target: &str,
    default_features: bool,
) -> Result<Vec<(String, String)>, Error> {
    let mut tree = cargo();
    tree.current_dir(root)
        .args(["tree", "--locked", "-p", "rampart", "--target", target])
        .args([
            "-e",
            "normal,no-proc-macro",
            "--prefix",
            "none",
            "-f",
            "{p}",
        ]);
    if !default_features {
        tree.arg("--no-default-features");
    }
    let out = tree
        .output()
        .map_err(|e| Error::new(format!("cannot run `cargo tree`: {e}")))?;
    if !out.status.success() {
        return Err(Error::new(format!(
            "`cargo tree` failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let mut linked: Vec<(String, String)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(package_of_line)
        .collect();
    linked.sort();
    linked.dedup();
    Ok(linked)
}

/// The package of one line of `cargo tree -f {p}`: `serde v1.0.229`, and for a package from a
/// path or a repeated one the path or `(*)` after it.
fn package_of_line(line: &str) -> Option<(String, String)> {
    let mut words = line.split_whitespace();
    let name = words.next()?;
    let version = words.next()?.strip_prefix('v')?;
    Some((name.to_string(), version.to_string()))
}

/// The packages `linked` names, found in `metadata`, and the sources compiled into them.
fn shipped<'m>(
    metadata: &'m Metadata,
    linked: &[(String, String)],
) -> Result<Vec<Shipped<'m>>, Error> {
    let by_version: HashMap<(&str, String), &Package> = metadata
        .packages
        .iter()
        .map(|p| ((p.name.as_str(), p.version.to_string()), p))
        .collect();
    let by_id: HashMap<&PackageId, &Package> =
        metadata.packages.iter().map(|p| (&p.id, p)).collect();
    let nodes = metadata
        .resolve
        .as_ref()
        .map(|r| {
            r.nodes
                .iter()
                .map(|n| (&n.id, n))
                .collect::<HashMap<_, _>>()
        })
        .unwrap_or_default();
    let mut shipped = Vec::new();
    for (name, version) in linked {
        let package = by_version
            .get(&(name.as_str(), version.clone()))
            .ok_or_else(|| {
                Error::new(format!(
                    "`cargo tree` lists {name} {version}, which `cargo metadata` does not"
                ))
            })?;
        shipped.push(Shipped {
            package,
            compiled_by: None,
        });
        let Some(node) = nodes.get(&package.id).filter(|_| package.links.is_some()) else {
            continue;
        };
        for dep in &node.deps {
            let build = dep
                .dep_kinds
                .iter()
                .any(|k| k.kind == DependencyKind::Build);
            if let Some(source) = by_id
                .get(&dep.pkg)
                .filter(|p| build && p.name.ends_with("-src"))
            {
                shipped.push(Shipped {
                    package: source,
                    compiled_by: Some(package.name.as_str()),
                });
            }
        }
    }
    shipped.sort_by(|a, b| {
        (a.package.name.as_str(), &a.package.version)
            .cmp(&(b.package.name.as_str(), &b.package.version))
    });
    shipped.dedup_by(|a, b| a.package.id == b.package.id);
    Ok(shipped)
}

/// The text of `LICENSES.txt`. A licence text that is the same as one above (many packages ship
/// the same Apache or MIT text) names that one instead of repeating it.
fn render(
    metadata: &Metadata,
    shipped: &[Shipped],
    rampart: &Package,
    target: &str,
    default_features: bool,
    root: &Path,
) -> Result<String, Error> {
    let version = &rampart.version;
    let mut out = String::new();
    let title = format!("Rampart {version} for {target}: what is built into the program");
    let window = if default_features {
        "with the game window"
    } else {
        "without the game window"
    };
    let _ = write!(
        out,
        "{title}\n{}\n\n\
         Built for {target} {window}.\n\n\
         Rampart's own crates (rampart, rampart-*) are licensed {}.\n\
         The program also holds the {} packages listed below, each under its own licence;\n\
         the text of every licence file each package ships follows the list.\n\n\
         Generated by `cargo xtask dist` from the packages cargo builds into the program.\n\n",
        "=".repeat(title.len()),
        rampart.license.as_deref().unwrap_or("(no licence given)"),
        shipped.len(),
    );
    let width = shipped
        .iter()
        .map(|s| s.package.name.len() + s.package.version.to_string().len() + 1)
        .max()
        .unwrap_or(0);
    for s in shipped {
        let id = format!("{} {}", s.package.name, s.package.version);
        let licence = s.package.license.as_deref().unwrap_or("(none given)");
        let _ = writeln!(out, "  {id:width$}  {licence}");
    }
    let mut seen: HashMap<String, String> = HashMap::new();
    // Rampart's own licence texts, at the repository's top, first.
    for name in ["LICENSE-MIT", "LICENSE-APACHE"] {
        let file = root.join(name);
        let bytes = std::fs::read(&file).map_err(Error::io("read", &file))?;
        let text = String::from_utf8_lossy(&bytes).trim_end().to_string();
        let _ = write!(
            out,
            "\n\n{}\nRampart\n\n[{name}]\n\n{text}\n",
            "-".repeat(78)
        );
        seen.insert(text, format!("Rampart's {name}"));
    }
    for s in shipped {
        let package = s.package;
        let folder = package
            .manifest_path
            .parent()
            .map(|p| p.as_std_path().to_path_buf())
            .unwrap_or_default();
        let id = format!("{} {}", package.name, package.version);
        let _ = write!(
            out,
            "\n\n{}\n{id}\nlicence: {}\nfrom: {}\n",
            "-".repeat(78),
            package.license.as_deref().unwrap_or("(none given)"),
            source(package, &folder, root),
        );
        if let Some(by) = s.compiled_by {
            let _ = writeln!(out, "compiled into the program by the build script of {by}");
        }
        let member = metadata.workspace_members.contains(&package.id);
        let files = licence_files(package, &folder, member)?;
        if files.is_empty() {
            out.push_str("(the package has no licence file)\n");
        }
        for file in files {
            let name = file
                .strip_prefix(&folder)
                .unwrap_or(&file)
                .display()
                .to_string();
            let bytes = std::fs::read(&file).map_err(Error::io("read", &file))?;
            let text = String::from_utf8_lossy(&bytes).trim_end().to_string();
            match seen.get(&text) {
                Some(first) => {
                    let _ = writeln!(out, "\n[{name}]: the same text as {first} above");
                }
                None => {
                    let _ = writeln!(out, "\n[{name}]\n\n{text}");
                    seen.insert(text, format!("{id}'s {name}"));
                }
            }
        }
    }
    Ok(out)
}

/// Where a package comes from, for a reader: crates.io, or its folder in this repository.
fn source(package: &Package, folder: &Path, root: &Path) -> String {
    match &package.source {
        Some(source) if source.is_crates_io() => "crates.io".to_string(),
        Some(source) => source.repr.clone(),
        None => match folder.strip_prefix(root) {
            Ok(inside) => format!("this repository, {}", inside.display()),
            Err(_) => folder.display().to_string(),
        },
    }
}

/// The licence files of a package, sorted: those at the top of its folder (and in a licence
/// folder there) and the one its manifest names. For the workspace's own crates also any file
/// named as a licence deeper down, such as the licence of a font they embed.
fn licence_files(package: &Package, folder: &Path, member: bool) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    for entry in read_dir(folder)? {
        let name = file_name(&entry).to_uppercase();
        if LICENCE_FILES.iter().any(|l| name.starts_with(l)) {
            if entry.is_dir() {
                files.extend(read_dir(&entry)?.into_iter().filter(|p| p.is_file()));
            } else {
                files.push(entry);
            }
        } else if member && entry.is_dir() {
            find_named_licences(&entry, &mut files)?;
        }
    }
    if let Some(file) = package.license_file() {
        files.push(file.into_std_path_buf());
    }
    files.sort();
    files.dedup();
    Ok(files)
}

/// Every file below `dir` with LICENSE or LICENCE in its name.
fn find_named_licences(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), Error> {
    for entry in read_dir(dir)? {
        if entry.is_dir() {
            find_named_licences(&entry, files)?;
        } else {
            let name = file_name(&entry).to_uppercase();
            if name.contains("LICENSE") || name.contains("LICENCE") {
                files.push(entry);
            }
        }
    }
    Ok(())
}

fn read_dir(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    std::fs::read_dir(dir)
        .and_then(|entries| entries.map(|e| e.map(|e| e.path())).collect())
        .map_err(Error::io("read the folder", dir))
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cargo_tree_lines_name_a_package_and_its_version() {
        let package = |line| package_of_line(line).map(|(n, v)| format!("{n} {v}"));
        assert_eq!(package("serde v1.0.229"), Some("serde 1.0.229".into()));
        assert_eq!(
            package("mlua v0.12.2 (/src/rampart/vendor/mlua)"),
            Some("mlua 0.12.2".into())
        );
        assert_eq!(package("libc v0.2.191 (*)"), Some("libc 0.2.191".into()));
        assert_eq!(package(""), None);
        assert_eq!(package("warning: something"), None);
    }
}
