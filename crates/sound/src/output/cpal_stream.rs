//! Output through `cpal` on Windows (WASAPI) and macOS (CoreAudio), whose system libraries
//! need nothing installed to build against. The system's audio thread calls the mixer for
//! each buffer; the stream asks for 48 kHz stereo f32, which WASAPI converts to the device's
//! own format when it differs.

use std::sync::{Arc, Mutex};

use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};

use super::{OutputError, lock};
use crate::{Mixer, SAMPLE_RATE};

/// The playing stream; dropping it stops the system's callbacks.
pub(super) struct Stream {
    _stream: cpal::Stream,
}

/// Opens the default output device and starts the stream.
pub(super) fn open(
    mixer: Arc<Mutex<Mixer>>,
    failure: Arc<Mutex<Option<OutputError>>>,
) -> Result<(Stream, String), OutputError> {
    let host = cpal::default_host();
    let device = host.default_output_device().ok_or_else(|| {
        OutputError::Unavailable(format!("{} has no output device", host.id().name()))
    })?;
    let name = device.description().map_or_else(
        |_| "the default device".to_string(),
        |d| d.name().to_string(),
    );
    let failed = |what: &str, error: cpal::Error| {
        OutputError::Failed(format!("{} on {name}: {what}: {error}", host.id().name()))
    };
    let config = cpal::StreamConfig {
        channels: 2,
        sample_rate: SAMPLE_RATE,
        buffer_size: cpal::BufferSize::Default,
    };
    let stream = device
        .build_output_stream(
            config,
            move |out: &mut [f32], _: &cpal::OutputCallbackInfo| lock(&mixer).render(out),
            move |error| {
                *lock(&failure) = Some(OutputError::Failed(format!(
                    "the sound device stopped: {error}"
                )));
            },
            None,
        )
        .map_err(|e| failed("opening a 48 kHz stereo stream", e))?;
    stream
        .play()
        .map_err(|e| failed("starting the stream", e))?;
    let description = format!(
        "{} on {name}: {SAMPLE_RATE} Hz stereo f32, the system's buffer size",
        host.id().name()
    );
    Ok((Stream { _stream: stream }, description))
}
