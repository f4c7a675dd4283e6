//! The mixer on the system's sound output: a thread (the sound server's or the system's) pulls
//! rendered frames from a shared [`Mixer`] as the device needs them.
//!
//! Built without any system development package. On Linux and the BSDs the PulseAudio protocol
//! over its Unix socket, spoken by the pure-Rust `pulseaudio` crate (`pulse.rs`), which PipeWire
//! desktops answer through pipewire-pulse; on Windows and macOS `cpal`, over WASAPI and
//! CoreAudio (`cpal_stream.rs`). No server or device is an [`OutputError`] whose message is one
//! line, for the game to log before it plays on in silence.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::Mixer;

#[cfg(all(
    unix,
    not(any(target_os = "macos", target_os = "ios", target_os = "android"))
))]
#[path = "pulse.rs"]
mod backend;
#[cfg(any(windows, target_os = "macos"))]
#[path = "cpal_stream.rs"]
mod backend;
#[cfg(any(not(any(windows, unix)), target_os = "ios", target_os = "android"))]
compile_error!(
    "the `device` feature plays sound on Linux, the BSDs, Windows and macOS: build \
     rampart-sound without it elsewhere"
);

/// Why there is no sound, in one line for the log.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OutputError {
    /// No sound server or output device was found.
    #[error("no sound output: {0}")]
    Unavailable(String),
    /// The server or device was found but would not play.
    #[error("sound output failed: {0}")]
    Failed(String),
}

/// The mixer playing on the system's output until dropped; dropping it stops the audio thread
/// and closes the stream.
pub struct Output {
    /// Kept for its `Drop`, which stops the playback.
    _stream: backend::Stream,
    description: String,
    failure: Arc<Mutex<Option<OutputError>>>,
}

impl std::fmt::Debug for Output {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Output")
            .field("description", &self.description)
            .finish_non_exhaustive()
    }
}

impl Output {
    /// Starts playing `mixer` on the default output: its `render` is called from the audio
    /// thread, so the game plays sounds by locking it briefly.
    pub fn open(mixer: Arc<Mutex<Mixer>>) -> Result<Output, OutputError> {
        let failure = Arc::new(Mutex::new(None));
        let (stream, description) = backend::open(mixer, Arc::clone(&failure))?;
        Ok(Output {
            _stream: stream,
            description,
            failure,
        })
    }

    /// What plays, in one line: the server or device, the format, the latency asked and given.
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Why the output stopped, if it has (the server went away, the device was unplugged): the
    /// game plays on in silence.
    pub fn failure(&self) -> Option<OutputError> {
        lock(&self.failure).clone()
    }
}

/// The mutex's value even if a thread panicked holding it: the mixer and the failure slot stay
/// usable, and sound is not worth a second panic.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
