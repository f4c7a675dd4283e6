//! Watching mod folders so edits show up while the game or `rampart generate --watch` runs.
//!
//! Editors save in bursts (write a temporary file, rename it, touch metadata), so changes are
//! gathered until the folder has been quiet for a short moment and reported once, as a sorted
//! list of paths.

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

/// How long a folder must stay quiet before a burst of changes is reported.
pub const SETTLE: Duration = Duration::from_millis(80);

/// Watches folders recursively for changed files.
pub struct FileWatcher {
    // Kept alive for as long as events are wanted.
    _watcher: RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
}

impl FileWatcher {
    /// Starts watching every folder in `roots` and everything below it.
    pub fn new(roots: &[PathBuf]) -> notify::Result<FileWatcher> {
        let (tx, events) = channel();
        let mut watcher = notify::recommended_watcher(tx)?;
        for root in roots {
            watcher.watch(root, RecursiveMode::Recursive)?;
        }
        Ok(FileWatcher {
            _watcher: watcher,
            events,
        })
    }

    /// Waits up to `timeout` for a change, then returns every file changed in that burst.
    /// Returns an empty list if nothing changed in time.
    pub fn wait(&self, timeout: Duration) -> Vec<PathBuf> {
        let mut changed = BTreeSet::new();
        let deadline = Instant::now() + timeout;
        // Block until the first relevant change (or the timeout)...
        while changed.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(event) => collect(event, &mut changed),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                    return Vec::new();
                }
            }
        }
        // ...then keep gathering until the burst is over.
        while let Ok(event) = self.events.recv_timeout(SETTLE) {
            collect(event, &mut changed);
        }
        changed.into_iter().collect()
    }

    /// Returns the files changed since the last call, without waiting.
    pub fn poll(&self) -> Vec<PathBuf> {
        let mut changed = BTreeSet::new();
        while let Ok(event) = self.events.try_recv() {
            collect(event, &mut changed);
        }
        changed.into_iter().collect()
    }
}

fn collect(event: notify::Result<notify::Event>, into: &mut BTreeSet<PathBuf>) {
    let Ok(event) = event else { return };
    if matches!(
        event.kind,
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Remove(_)
    ) {
        into.extend(event.paths.into_iter().filter(|p| !p.is_dir()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_a_saved_file_once() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("terrain")).unwrap();
        let watcher = FileWatcher::new(std::slice::from_ref(&root)).unwrap();
        let file = root.join("terrain/hills.terrain");
        std::fs::write(&file, "max_height 3\n").unwrap();
        std::fs::write(&file, "max_height 4\n").unwrap();
        let changed = watcher.wait(Duration::from_secs(10));
        assert_eq!(changed, vec![file]);
        assert!(watcher.poll().is_empty());
    }
}
