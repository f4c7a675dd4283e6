//! Writing the player's files so that nothing is lost: a crash or a full disk in the middle of a
//! write never leaves a half-written file. The new text goes to a temporary file next to the
//! old one and is flushed to disk; the old file becomes `<name>.bak`; then the temporary file
//! is renamed into place (a rename within a folder is atomic). The last good version is
//! therefore always either the file or its `.bak`.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The backup of `path`: the version before the last write.
pub fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    path.with_file_name(name)
}

/// Writes `contents` to `path` atomically, keeping the previous version as its backup, and
/// creating the folder if needed.
pub fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
    if let Some(folder) = folder {
        std::fs::create_dir_all(folder)?;
    }
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    let temporary = path.with_file_name(name);
    {
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(contents)?;
        file.sync_all()?;
    }
    if path.exists() {
        std::fs::rename(path, backup_of(path))?;
    }
    std::fs::rename(&temporary, path)?;
    // The rename is only durable once the folder's entry is.
    if let Some(folder) = folder
        && let Ok(dir) = std::fs::File::open(folder)
    {
        let _ = dir.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_version_is_kept_and_no_temporary_file_stays() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deep/save.ron");
        write_atomically(&path, b"one").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        assert!(!backup_of(&path).exists());
        write_atomically(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        assert_eq!(std::fs::read(backup_of(&path)).unwrap(), b"one");
        let names: Vec<String> = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(!names.iter().any(|n| n.ends_with(".tmp")), "{names:?}");
    }
}
