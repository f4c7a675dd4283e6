//! The two kinds of archive, written through one interface: a gzipped tar for Unix targets (it
//! keeps the binary's executable bit), a zip for Windows, whose file manager opens it.

use std::fs::File;
use std::io::{BufWriter, Read, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use flate2::Compression;
use flate2::write::GzEncoder;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use crate::Error;

/// An archive being written. Entry names use `/` whatever the system.
pub(crate) struct Archive<'a> {
    kind: Kind,
    /// Where it is written, for errors.
    path: &'a Path,
    /// Every entry's modification time: when it was packed, in seconds since 1970 (UTC).
    mtime: u64,
    compression: Compression,
}

enum Kind {
    Tar(tar::Builder<GzEncoder<BufWriter<File>>>),
    // Boxed: a zip writer is kilobytes, a tar builder a few words.
    Zip(Box<ZipWriter<BufWriter<File>>>),
}

impl<'a> Archive<'a> {
    /// Starts a `.zip` (`zip`) or a `.tar.gz` at `path`.
    pub(crate) fn create(
        path: &'a Path,
        zip: bool,
        compression: Compression,
    ) -> Result<Archive<'a>, Error> {
        let file = BufWriter::new(File::create(path).map_err(Error::io("create", path))?);
        let kind = if zip {
            Kind::Zip(Box::new(ZipWriter::new(file)))
        } else {
            Kind::Tar(tar::Builder::new(GzEncoder::new(file, compression)))
        };
        let mtime = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Ok(Archive {
            kind,
            path,
            mtime,
            compression,
        })
    }

    /// Adds the folder `name`.
    pub(crate) fn dir(&mut self, name: &str) -> Result<(), Error> {
        let written = match &mut self.kind {
            Kind::Tar(tar) => {
                let mut header = tar_header(tar::EntryType::Directory, 0o755, 0, self.mtime);
                tar.append_data(&mut header, name, std::io::empty())
            }
            Kind::Zip(zip) => zip
                .add_directory(name, zip_options(0o755, self.mtime, self.compression))
                .map_err(std::io::Error::from),
        };
        written.map_err(self.failed(name))
    }

    /// Adds the file `name` holding `bytes`.
    pub(crate) fn file(&mut self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        self.entry(name, bytes, bytes.len() as u64, false)
            .map_err(self.failed(name))
    }

    /// Adds the file `name` with the contents of the file `from`; `executable` for a program.
    pub(crate) fn file_from_disk(
        &mut self,
        name: &str,
        from: &Path,
        executable: bool,
    ) -> Result<(), Error> {
        let file = File::open(from).map_err(Error::io("read", from))?;
        let size = file.metadata().map_err(Error::io("read", from))?.len();
        self.entry(name, file, size, executable)
            .map_err(self.failed(name))
    }

    /// Adds the folder `name` with everything in the folder `from`, in the order of the names.
    pub(crate) fn tree(&mut self, name: &str, from: &Path) -> Result<(), Error> {
        self.dir(name)?;
        let mut entries = std::fs::read_dir(from)
            .and_then(|dir| dir.collect::<Result<Vec<_>, _>>())
            .map_err(Error::io("read the folder", from))?;
        entries.sort_by_key(|entry| entry.file_name());
        for entry in entries {
            let path = entry.path();
            let inside = format!("{name}/{}", entry.file_name().to_string_lossy());
            if path.is_dir() {
                self.tree(&inside, &path)?;
            } else {
                self.file_from_disk(&inside, &path, false)?;
            }
        }
        Ok(())
    }

    /// Writes the archive's end and flushes it to its file.
    pub(crate) fn finish(self) -> Result<(), Error> {
        let flushed = match self.kind {
            Kind::Tar(tar) => tar
                .into_inner()
                .and_then(GzEncoder::finish)
                .and_then(|mut file| file.flush()),
            Kind::Zip(zip) => zip
                .finish()
                .map_err(std::io::Error::from)
                .and_then(|mut file| file.flush()),
        };
        flushed.map_err(Error::io("write", self.path))
    }

    fn entry(
        &mut self,
        name: &str,
        data: impl Read,
        size: u64,
        executable: bool,
    ) -> std::io::Result<()> {
        let mode = if executable { 0o755 } else { 0o644 };
        match &mut self.kind {
            Kind::Tar(tar) => {
                let mut header = tar_header(tar::EntryType::Regular, mode, size, self.mtime);
                tar.append_data(&mut header, name, data)
            }
            Kind::Zip(zip) => {
                // ZIP64 only for what needs it: the binary of a development build with the
                // client is a quarter of the 4 GiB limit, not past it.
                let options = zip_options(mode, self.mtime, self.compression)
                    .large_file(size >= u64::from(u32::MAX));
                zip.start_file(name, options)?;
                std::io::copy(&mut data.take(size), zip).map(|_| ())
            }
        }
    }

    /// The error of writing the entry `name`.
    fn failed(&self, name: &str) -> impl FnOnce(std::io::Error) -> Error {
        let message = format!("cannot write {name} into {}", self.path.display());
        move |e| Error::new(format!("{message}: {e}"))
    }
}

fn tar_header(kind: tar::EntryType, mode: u32, size: u64, mtime: u64) -> tar::Header {
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(kind);
    header.set_mode(mode);
    header.set_size(size);
    header.set_mtime(mtime);
    header
}

fn zip_options(mode: u32, mtime: u64, compression: Compression) -> SimpleFileOptions {
    SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .compression_level(Some(i64::from(compression.level())))
        .unix_permissions(mode)
        .last_modified_time(zip_time(mtime))
}

/// A time in seconds since 1970 as a zip's date and time (UTC; a zip keeps no time zone), or
/// 1980-01-01, the earliest a zip can hold, for a time it cannot.
fn zip_time(secs: u64) -> DateTime {
    let (days, in_day) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_date(days);
    let time = u16::try_from(year).ok().and_then(|year| {
        // Hours, minutes and seconds of one day fit in a u8.
        let (h, m, s) = (
            (in_day / 3600) as u8,
            (in_day / 60 % 60) as u8,
            (in_day % 60) as u8,
        );
        DateTime::from_date_and_time(year, month, day, h, m, s).ok()
    });
    time.unwrap_or(DateTime::DEFAULT)
}

/// The proleptic Gregorian date of `days` after 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_date(days: u64) -> (u64, u8, u8) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z % 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year, month as u8, day as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_the_calendars() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(civil_date(59), (1970, 3, 1));
        // 2000 was a leap year, 2100 will not be.
        assert_eq!(civil_date(11_016), (2000, 2, 29));
        assert_eq!(civil_date(47_540), (2100, 2, 28));
        assert_eq!(civil_date(47_541), (2100, 3, 1));
        let time = zip_time(1_795_000_000);
        assert_eq!(
            (
                time.year(),
                time.month(),
                time.day(),
                time.hour(),
                time.minute()
            ),
            (2026, 11, 18, 11, 6)
        );
        assert_eq!(zip_time(0), DateTime::DEFAULT);
    }
}
