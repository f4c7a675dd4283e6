//! Output through a PulseAudio server (or PipeWire's pipewire-pulse): the protocol spoken over
//! the server's Unix socket with the `pulseaudio` crate's synchronous API, no C library.
//!
//! One playback stream of 48 kHz stereo f32, asking the server for 50 ms of latency in all
//! (`adjust_latency`) and requests of at least 10 ms. The server clocks the stream: the audio
//! thread waits for its requests and answers each with that many bytes from the mixer.

use std::ffi::CString;
use std::io::{BufReader, Cursor, Read};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use pulseaudio::protocol::{self, Command};

use super::{OutputError, lock};
use crate::{Mixer, SAMPLE_RATE};

/// Bytes in a frame: two f32 samples.
const FRAME_BYTES: u32 = 8;
/// The latency asked for, server and buffer together.
const TARGET_LATENCY: Duration = Duration::from_millis(50);
/// The smallest request asked for: how often at most the thread wakes.
const MIN_REQUEST: Duration = Duration::from_millis(10);
/// How long setting up may wait for the server.
const SETUP_TIMEOUT: Duration = Duration::from_secs(3);
/// The longest message taken from the server; a larger one is a broken server.
const MAX_MESSAGE: u32 = 1 << 20;
/// The tag of our commands: replies are matched by it.
const SETUP_TAG: u32 = 0;

/// The playback: the audio thread and the socket that stops it.
pub(super) struct Stream {
    socket: UnixStream,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Stream {
    fn drop(&mut self) {
        // The thread waits in a read of the socket: shutting it down ends that read at once.
        let _ = self.socket.shutdown(std::net::Shutdown::Both);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Bytes of `duration` of the stream.
fn bytes(duration: Duration) -> u32 {
    (duration.as_secs_f64() * f64::from(SAMPLE_RATE)) as u32 * FRAME_BYTES
}

/// Milliseconds of `bytes` of the stream, for the description.
fn millis(bytes: u32) -> f64 {
    f64::from(bytes / FRAME_BYTES) * 1000.0 / f64::from(SAMPLE_RATE)
}

/// Connects to the server the environment names, creates the stream and starts the thread.
pub(super) fn open(
    mixer: Arc<Mutex<Mixer>>,
    failure: Arc<Mutex<Option<OutputError>>>,
) -> Result<(Stream, String), OutputError> {
    let path = socket_path().ok_or_else(|| {
        OutputError::Unavailable(
            "no PulseAudio or PipeWire sound server (no socket at $PULSE_SERVER, \
             $PULSE_RUNTIME_PATH/native or $XDG_RUNTIME_DIR/pulse/native)"
                .to_string(),
        )
    })?;
    let failed = |what: &str, error: &dyn std::fmt::Display| {
        OutputError::Failed(format!(
            "the sound server at {}: {what}: {error}",
            path.display()
        ))
    };
    let socket = UnixStream::connect(&path).map_err(|e| {
        OutputError::Unavailable(format!(
            "cannot reach the sound server at {}: {e}",
            path.display()
        ))
    })?;
    let cloned = || socket.try_clone().map_err(|e| failed("socket", &e));
    socket
        .set_read_timeout(Some(SETUP_TIMEOUT))
        .map_err(|e| failed("socket", &e))?;
    let mut connection = Connection {
        reader: BufReader::new(cloned()?),
        writer: cloned()?,
        version: protocol::MAX_VERSION,
        body: Vec::new(),
    };
    let reply = connection
        .set_up()
        .map_err(|e| failed("setting up the stream", &e))?;
    socket
        .set_read_timeout(None)
        .map_err(|e| failed("socket", &e))?;
    let description = describe(&path, &reply);

    let thread = std::thread::Builder::new()
        .name("rampart-audio".to_string())
        .spawn(move || {
            if let Err(error) = connection.play(&mixer, &reply) {
                *lock(&failure) = Some(OutputError::Failed(format!(
                    "the sound server stopped the stream: {error}"
                )));
            }
        })
        .map_err(|e| failed("starting the audio thread", &e))?;
    Ok((
        Stream {
            socket,
            thread: Some(thread),
        },
        description,
    ))
}

/// Where the server listens, looked for as libpulse looks: the Unix sockets `$PULSE_SERVER`
/// names (`unix:/path` or `/path`, among its space-separated servers), then
/// `$PULSE_RUNTIME_PATH/native`, then `$XDG_RUNTIME_DIR/pulse/native`; the first that exists.
/// (The `pulseaudio` crate's `socket_path_from_env` looks for `$PULSE_RUNTIME_PATH/pulse/native`,
/// where no server puts its socket, and gives up at the first path missing.)
fn socket_path() -> Option<PathBuf> {
    let var = |name| std::env::var_os(name).map(PathBuf::from);
    let named = std::env::var("PULSE_SERVER").unwrap_or_default();
    let named = named
        .split_whitespace()
        .filter_map(|server| {
            let path = server.strip_prefix("unix:").unwrap_or(server);
            path.starts_with('/').then(|| PathBuf::from(path))
        })
        .collect::<Vec<_>>();
    named
        .into_iter()
        .chain(var("PULSE_RUNTIME_PATH").map(|dir| dir.join("native")))
        .chain(var("XDG_RUNTIME_DIR").map(|dir| dir.join("pulse/native")))
        .find(|path| path.exists())
}

/// What the server gave, in one line.
fn describe(path: &Path, reply: &protocol::CreatePlaybackStreamReply) -> String {
    let sink = reply
        .sink_name
        .as_ref()
        .map_or("the default sink".into(), |name| name.to_string_lossy());
    format!(
        "PulseAudio at {} on {sink}: {} Hz stereo f32, {} ms latency asked, buffer of {:.1} ms \
         given (requests of {:.1} ms), the sink's latency {:.1} ms",
        path.display(),
        reply.sample_spec.sample_rate,
        TARGET_LATENCY.as_millis(),
        millis(reply.buffer_attr.target_length),
        millis(reply.buffer_attr.minimum_request_length),
        reply.stream_latency as f64 / 1000.0,
    )
}

/// The connection to the server.
struct Connection {
    reader: BufReader<UnixStream>,
    writer: UnixStream,
    /// The protocol version both sides speak.
    version: u16,
    /// The body of the last message read, its memory reused.
    body: Vec<u8>,
}

impl Connection {
    /// Authenticates, names the client and creates the playback stream.
    fn set_up(&mut self) -> Result<protocol::CreatePlaybackStreamReply, protocol::ProtocolError> {
        // A server on the same machine with the user's cookie; without one, servers that allow
        // anonymous clients still answer.
        let cookie = pulseaudio::cookie_path_from_env()
            .and_then(|path| std::fs::read(path).ok())
            .unwrap_or_default();
        let auth = protocol::AuthParams {
            version: protocol::MAX_VERSION,
            supports_shm: false,
            supports_memfd: false,
            cookie,
        };
        let command = Command::Auth(auth);
        let reply: protocol::AuthReply = self.ask(&command)?;
        self.version = self.version.min(reply.version);

        let mut props = protocol::Props::new();
        props.set(protocol::Prop::ApplicationName, c"Rampart");
        let _: protocol::SetClientNameReply = self.ask(&Command::SetClientName(props))?;

        let mut props = protocol::Props::new();
        props.set(protocol::Prop::MediaName, c"Rampart");
        props.set(protocol::Prop::MediaRole, c"game");
        let params = protocol::PlaybackStreamParams {
            sample_spec: protocol::SampleSpec {
                format: protocol::SampleFormat::Float32Le,
                channels: 2,
                sample_rate: SAMPLE_RATE,
            },
            channel_map: protocol::ChannelMap::stereo(),
            sink_name: Some(CString::from(protocol::DEFAULT_SINK)),
            buffer_attr: protocol::stream::BufferAttr {
                target_length: bytes(TARGET_LATENCY),
                minimum_request_length: bytes(MIN_REQUEST),
                ..Default::default()
            },
            cvolume: Some(protocol::ChannelVolume::norm(2)),
            props,
            flags: protocol::stream::StreamFlags {
                adjust_latency: true,
                ..Default::default()
            },
            ..Default::default()
        };
        self.ask(&Command::CreatePlaybackStream(params))
    }

    /// Sends a setup command and reads its reply.
    fn ask<R: protocol::CommandReply>(
        &mut self,
        command: &Command,
    ) -> Result<R, protocol::ProtocolError> {
        protocol::write_command_message(&mut self.writer, SETUP_TAG, command, self.version)?;
        let (_, reply) = protocol::read_reply_message(&mut self.reader, self.version)?;
        Ok(reply)
    }

    /// Answers the server's requests with the mixer's frames until the connection ends.
    fn play(
        &mut self,
        mixer: &Mutex<Mixer>,
        stream: &protocol::CreatePlaybackStreamReply,
    ) -> Result<(), protocol::ProtocolError> {
        // Buffers for the largest request the server said it would make, grown if it asks for
        // more.
        let mut samples = vec![0.0f32; (stream.buffer_attr.target_length / 4) as usize];
        let mut bytes = Vec::with_capacity(stream.buffer_attr.target_length as usize);
        let mut write = |length: u32, writer: &mut UnixStream| {
            let wanted = (length / FRAME_BYTES * 2) as usize;
            if samples.len() < wanted {
                samples.resize(wanted, 0.0);
            }
            let samples = &mut samples[..wanted];
            lock(mixer).render(samples);
            bytes.clear();
            bytes.extend(samples.iter().flat_map(|s| s.to_le_bytes()));
            protocol::write_memblock(writer, stream.channel, &bytes, 0)
        };
        // The buffer to fill before playback starts.
        write(stream.requested_bytes, &mut self.writer)?;
        loop {
            match self.next_command()? {
                Some(Command::Request(request)) if request.channel == stream.channel => {
                    write(request.length, &mut self.writer)?;
                }
                Some(Command::PlaybackStreamKilled(channel)) if channel == stream.channel => {
                    return Err(protocol::ProtocolError::Invalid(
                        "the server removed the stream".to_string(),
                    ));
                }
                Some(Command::Error(error)) => {
                    return Err(protocol::ProtocolError::ServerError(error));
                }
                // Started, underflows, suspension, moves to another sink: the stream goes on.
                _ => {}
            }
        }
    }

    /// The next command from the server, whole, so that one this client does not understand
    /// is skipped rather than leaving the rest of its bytes in the way; `None` for such a
    /// command or a memory block.
    fn next_command(&mut self) -> Result<Option<Command>, protocol::ProtocolError> {
        let descriptor = protocol::read_descriptor(&mut self.reader)?;
        if descriptor.length > MAX_MESSAGE {
            return Err(protocol::ProtocolError::Invalid(format!(
                "a message of {} bytes",
                descriptor.length
            )));
        }
        self.body.resize(descriptor.length as usize, 0);
        self.reader.read_exact(&mut self.body)?;
        // Commands travel on channel -1; anything else is a memory block.
        if descriptor.channel != u32::MAX {
            return Ok(None);
        }
        Ok(
            Command::read_tag_prefixed(&mut Cursor::new(&self.body), self.version)
                .ok()
                .map(|(_, command)| command),
        )
    }
}
