//! Problems found in mods, reported the same way everywhere: a message, the file, the line and
//! column, and a caret under the offending text (rendered by miette).
//!
//! Also the one reader of the files mods are made of ([`SourceFile::read`]), which bounds their
//! size and locates invalid UTF-8.

use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents,
    SourceCode, SourceSpan, SpanContents,
};

/// The most bytes [`SourceFile::read`] reads from a file: 1 MiB, hundreds of times the largest
/// file of the base game. A larger file is left out with an error.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// How bad a problem is. Errors make `rampart check` fail; warnings do not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    /// Worth a look, but the content still works.
    Warning,
    /// The content cannot be used as written.
    Error,
}

/// The text of a file a diagnostic points into.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// Where the file is, as shown to the user.
    pub path: PathBuf,
    /// Its full text.
    pub text: Arc<str>,
    /// Byte offsets where lines start, built on first use: a file with thousands of
    /// diagnostics is not scanned from its start for each.
    line_starts: Arc<OnceLock<Vec<usize>>>,
}

impl SourceFile {
    /// Wraps already-read text.
    pub fn new(path: impl Into<PathBuf>, text: impl Into<Arc<str>>) -> Self {
        SourceFile {
            path: path.into(),
            text: text.into(),
            line_starts: Arc::default(),
        }
    }

    fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        })
    }

    /// The byte range of a 0-based line, without its line break.
    fn line_range(&self, line: usize) -> std::ops::Range<usize> {
        let starts = self.line_starts();
        let start = starts[line];
        let end = starts
            .get(line + 1)
            .map_or(self.text.len(), |next| next - 1);
        start..end.max(start)
    }

    /// Reads a file of at most [`MAX_FILE_BYTES`] bytes (never more than one byte beyond), as
    /// UTF-8. A file that cannot be read, is too large or is not UTF-8 becomes a diagnostic
    /// naming it (and for invalid UTF-8 the line and column of the first bad byte).
    pub fn read(path: &Path) -> Result<SourceFile, Diagnostic> {
        let cannot =
            |e: std::io::Error| Diagnostic::error(format!("cannot read {}: {e}", path.display()));
        let mut bytes = Vec::new();
        let size = std::fs::File::open(path)
            .and_then(|file| {
                let size = file.metadata()?.len();
                file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
                Ok(size)
            })
            .map_err(|e| cannot(e).in_file(path))?;
        if bytes.len() as u64 > MAX_FILE_BYTES {
            let size = if size > MAX_FILE_BYTES {
                format!("{size} bytes")
            } else {
                format!("more than {MAX_FILE_BYTES} bytes")
            };
            return Err(Diagnostic::error(format!(
                "the file is {size}, over the limit of {MAX_FILE_BYTES} bytes (1 MiB) for a file; it was left out"
            ))
            .in_file(path)
            .help("split it into smaller files"));
        }
        match String::from_utf8(bytes) {
            Ok(text) => Ok(SourceFile::new(path, text)),
            Err(e) => Err(invalid_utf8(path, e)),
        }
    }

    /// The byte offset of a 1-based line and column (columns count characters).
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        if line == 0 || line > self.line_starts().len() {
            return self.text.len();
        }
        let range = self.line_range(line - 1);
        let in_line: usize = self.text[range.clone()]
            .chars()
            .take(column.saturating_sub(1))
            .map(char::len_utf8)
            .sum();
        range.start + in_line
    }

    /// The 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(&self.text, offset.min(self.text.len()));
        let line = self.line_starts().partition_point(|&start| start <= offset) - 1;
        let start = self.line_starts()[line];
        (line + 1, self.text[start..offset].chars().count() + 1)
    }
}

/// The diagnostic for a file that is not UTF-8, pointing at its first bad byte.
fn invalid_utf8(path: &Path, error: std::string::FromUtf8Error) -> Diagnostic {
    let good = error.utf8_error().valid_up_to();
    let bad = error.as_bytes()[good];
    // The text up to the bad byte is kept as it is, so offsets into it stay true.
    let file = SourceFile::new(path, String::from_utf8_lossy(error.as_bytes()).into_owned());
    Diagnostic::error(format!(
        "the file is not valid UTF-8: byte 0x{bad:02x} cannot start or continue a character"
    ))
    .at(&file, good, 1)
    .label("here")
    .help("save the file as UTF-8")
}

/// The largest offset at most `i` that starts a character of `s` (`i` itself if it does).
pub fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    /// Line, from 1.
    pub line: u32,
    /// Column in characters, from 1.
    pub column: u32,
}

/// One problem, with where it is.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The file concerned, if any.
    pub file: Option<PathBuf>,
    /// Where in the file, if known.
    pub position: Option<Position>,
    /// The mod concerned, if any.
    pub mod_id: Option<String>,
    /// How to fix it, if we can tell.
    pub help: Option<String>,
    excerpt: Option<Box<Excerpt>>,
}

/// The part of the file shown under a diagnostic: the line of the caret and one line either
/// side, each cut to [`SHOWN_LINE`] characters around the caret. The rest of the file is not
/// kept, so rendering costs the same in a small file and in a huge one, and a column far to
/// the right (which the renderer cannot pad to) is shown as a window of its line.
#[derive(Clone, Debug)]
struct Excerpt {
    source: Snippet,
    /// The underlined text, in `source.text`.
    span: SourceSpan,
    label: Option<String>,
}

/// At most this many characters of a line are shown.
const SHOWN_LINE: usize = 160;
/// What stands for the cut part of a line (ASCII: the game's overlay font has no ellipsis).
const CUT: &str = "...";
/// Of those, this many come before the caret when a line has to be cut.
const SHOWN_BEFORE: usize = 60;

/// Lines of a file, as miette reads them, with their true line and column numbers.
#[derive(Clone, Debug)]
struct Snippet {
    name: String,
    text: String,
    /// The 0-based line of the file that `text` starts with.
    first_line: usize,
    /// Which line of `text` is the caret's, and how many characters were cut from its start.
    caret_line: usize,
    cut: usize,
}

impl Snippet {
    /// The lines around `offset`, cut to the shown width; returns the snippet and where
    /// `offset` is in it.
    fn around(file: &SourceFile, offset: usize) -> (Snippet, usize) {
        let offset = floor_char_boundary(&file.text, offset.min(file.text.len()));
        let (line, column) = file.line_col(offset);
        let line = line - 1;
        let last = file.line_starts().len() - 1;
        let first_line = line.saturating_sub(1);
        // Characters cut from the start of the caret's line (more than `CUT` is long, or none).
        let skip = (column - 1).saturating_sub(SHOWN_BEFORE);
        let skip = if skip > CUT.len() { skip } else { 0 };
        let mut text = String::new();
        let mut at = 0;
        for l in first_line..=(line + 1).min(last) {
            let range = file.line_range(l);
            let whole = &file.text[range.clone()];
            // Where the shown part starts: `SHOWN_BEFORE` characters before the caret when cut.
            let from = if l == line && skip > 0 {
                let caret = offset - range.start;
                whole[..caret]
                    .char_indices()
                    .rev()
                    .nth(SHOWN_BEFORE - 1)
                    .map_or(0, |(i, _)| i)
            } else {
                0
            };
            if from > 0 {
                text.push_str(CUT);
            }
            let shown = &whole[from..];
            let to = shown
                .char_indices()
                .nth(SHOWN_LINE)
                .map_or(shown.len(), |(i, _)| i);
            let start = text.len();
            // Control characters (an escape sequence in a file) are shown as `?`, one byte and
            // one column like the character they stand for, so they never reach the terminal.
            text.extend(shown[..to].chars().map(
                |c| {
                    if c.is_control() && c != '\t' { '?' } else { c }
                },
            ));
            if l == line {
                let before = shown[..offset - range.start - from].chars().count();
                at = start
                    + text[start..]
                        .char_indices()
                        .nth(before)
                        .map_or(text.len() - start, |(i, _)| i);
            }
            if to < shown.len() {
                text.push_str(CUT);
            }
            text.push('\n');
        }
        let snippet = Snippet {
            name: file.path.display().to_string(),
            text,
            first_line,
            caret_line: line - first_line,
            cut: if skip > 0 { skip - CUT.len() } else { 0 },
        };
        (snippet, at)
    }
}

impl SourceCode for Snippet {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self.text.as_str().read_span(span, before, after)?;
        let column = if inner.line() == self.caret_line {
            inner.column() + self.cut
        } else {
            inner.column()
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            self.first_line + inner.line(),
            column,
            inner.line_count(),
        )))
    }
}

impl Diagnostic {
    /// A new error with no location yet.
    pub fn error(message: impl Into<String>) -> Self {
        Self::new(Severity::Error, message)
    }

    /// A new warning with no location yet.
    pub fn warning(message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, message)
    }

    fn new(severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            message: message.into(),
            file: None,
            position: None,
            mod_id: None,
            help: None,
            excerpt: None,
        }
    }

    /// Names the file, without a position.
    pub fn in_file(mut self, path: impl Into<PathBuf>) -> Self {
        self.file = Some(path.into());
        self
    }

    /// Points at `len` bytes from byte `offset` of `file`.
    pub fn at(mut self, file: &SourceFile, offset: usize, len: usize) -> Self {
        let offset = floor_char_boundary(&file.text, offset.min(file.text.len()));
        let len = len.min(file.text.len() - offset);
        let (line, column) = file.line_col(offset);
        self.file = Some(file.path.clone());
        self.position = Some(Position {
            line: line as u32,
            column: column as u32,
        });
        let label = self.excerpt.take().and_then(|e| e.label);
        let (source, at) = Snippet::around(file, offset);
        // The underline stays within what is shown of the caret's line.
        let shown = source.text[at..].find('\n').unwrap_or(0);
        let first_line_of_span = file.text.as_bytes()[offset..offset + len]
            .iter()
            .position(|&b| b == b'\n')
            .unwrap_or(len);
        let len = floor_char_boundary(&source.text, at + first_line_of_span.min(shown)) - at;
        self.excerpt = Some(Box::new(Excerpt {
            source,
            span: SourceSpan::new(at.into(), len),
            label,
        }));
        self
    }

    /// Points at a 1-based line and column of `file`, underlining `len` bytes.
    pub fn at_line_col(self, file: &SourceFile, line: usize, column: usize, len: usize) -> Self {
        let offset = file.offset_of(line, column);
        self.at(file, offset, len)
    }

    /// Points at the whole of a 1-based line of `file`.
    pub fn at_line(self, file: &SourceFile, line: usize) -> Self {
        let offset = file.offset_of(line, 1);
        let len = file.text[offset..]
            .find('\n')
            .unwrap_or(file.text.len() - offset);
        self.at(file, offset, len)
    }

    /// Adds a short label under the caret (after [`Diagnostic::at`]).
    pub fn label(mut self, label: impl Into<String>) -> Self {
        if let Some(excerpt) = self.excerpt.as_mut() {
            excerpt.label = Some(label.into());
        }
        self
    }

    /// Adds a hint on how to fix the problem.
    pub fn help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Names the mod the problem belongs to.
    pub fn for_mod(mut self, mod_id: impl Into<String>) -> Self {
        self.mod_id = Some(mod_id.into());
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// `path:line:column` (or as much of it as is known).
    pub fn location(&self) -> Option<String> {
        let file = self.file.as_ref()?;
        Some(match self.position {
            Some(p) => format!("{}:{}:{}", file.display(), p.line, p.column),
            None => file.display().to_string(),
        })
    }

    /// The diagnostic on one line with its help, for a place that shows no excerpt (a menu's
    /// error line, a log): `file:line:col: message (did you mean …?)`.
    pub fn summary(&self) -> String {
        match &self.help {
            Some(help) => format!("{self} ({help})"),
            None => self.to_string(),
        }
    }

    /// Renders the diagnostic with its source excerpt and caret, as `rampart check` prints it.
    /// For a terminal (`color`) long lines are wrapped; otherwise each message stays on one line
    /// so tools can search it.
    pub fn render(&self, color: bool) -> String {
        let handler = if color {
            GraphicalReportHandler::new_themed(GraphicalTheme::unicode()).with_width(100)
        } else {
            GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
                .with_wrap_lines(false)
        };
        self.render_with(handler)
    }

    /// Renders the diagnostic like [`render`](Self::render) without colour, framed in ASCII
    /// instead of box-drawing characters: for the game's overlay, whose font has none.
    pub fn render_ascii(&self) -> String {
        self.render_with(
            GraphicalReportHandler::new_themed(GraphicalTheme::none()).with_wrap_lines(false),
        )
    }

    fn render_with(&self, handler: GraphicalReportHandler) -> String {
        let mut out = String::new();
        if handler.render_report(&mut out, &Excerpted(self)).is_err() {
            out = self.to_string();
        }
        out
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(m) = &self.mod_id {
            write!(f, "[{m}] ")?;
        }
        if let Some(location) = self.location() {
            write!(f, "{location}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// A diagnostic as miette renders it: when the excerpt shows the location, the headline
/// does not repeat it.
struct Excerpted<'a>(&'a Diagnostic);

impl fmt::Debug for Excerpted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl fmt::Display for Excerpted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.excerpt.is_none() {
            return fmt::Display::fmt(self.0, f);
        }
        if let Some(m) = &self.0.mod_id {
            write!(f, "[{m}] ")?;
        }
        f.write_str(&self.0.message)
    }
}

impl std::error::Error for Excerpted<'_> {}

impl miette::Diagnostic for Excerpted<'_> {
    fn severity(&self) -> Option<miette::Severity> {
        self.0.severity()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.0.help()
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.0.source_code()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.0.labels()
    }
}

impl miette::Diagnostic for Diagnostic {
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.excerpt.as_ref().map(|e| &e.source as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let e = self.excerpt.as_ref()?;
        Some(Box::new(std::iter::once(LabeledSpan::new_with_span(
            e.label.clone(),
            e.span,
        ))))
    }
}

/// Diagnostics shown in full per file; the rest of a file's are counted in one line, so a file
/// with thousands of problems (usually one mistake repeated) does not bury the others.
pub const SHOWN_PER_FILE: usize = 50;

/// What to print of a list of diagnostics: the first [`SHOWN_PER_FILE`] of each file in their
/// order, then per file with more, how many were left out.
pub fn shown_per_file<'a>(
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
) -> (Vec<&'a Diagnostic>, Vec<(PathBuf, usize)>) {
    let mut shown = Vec::new();
    let mut per_file: Vec<(Option<&PathBuf>, usize)> = Vec::new();
    for d in diagnostics {
        let count = match per_file.iter_mut().find(|(f, _)| *f == d.file.as_ref()) {
            Some((_, n)) => n,
            None => {
                per_file.push((d.file.as_ref(), 0));
                &mut per_file.last_mut().expect("just pushed").1
            }
        };
        *count += 1;
        if d.file.is_none() || *count <= SHOWN_PER_FILE {
            shown.push(d);
        }
    }
    let left_out = per_file
        .into_iter()
        .filter_map(|(file, n)| Some((file?.clone(), n.checked_sub(SHOWN_PER_FILE)?)))
        .filter(|(_, n)| *n > 0)
        .collect();
    (shown, left_out)
}

/// How similar (Jaro–Winkler, 0 to 1) a name must be to a known one to be suggested.
pub const SIMILAR: f64 = 0.8;

/// How similar a name that is legal as written (a mod's own effect) must be to a known one to
/// be suggested: stricter than [`SIMILAR`], because there a wrong hint questions a correct name
/// (core's `catalyzed` is 0.85 from `paralyzed`; `burnin` is 0.97 from `burning`).
pub const SIMILAR_LEGAL: f64 = 0.9;

/// The known name most similar to `wanted`, if one is similar enough to be what was meant: the
/// one rule behind every "did you mean" hint.
pub fn closest<'a>(wanted: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    closest_above(wanted, known, SIMILAR)
}

/// [`closest`] with the similarity `threshold` a suggestion must exceed.
fn closest_above<'a>(
    wanted: &str,
    known: impl IntoIterator<Item = &'a str>,
    threshold: f64,
) -> Option<&'a str> {
    known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(wanted, k), k))
        .filter(|(score, _)| *score > threshold)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// "did you mean `name`?" for the [`closest`] known name, if there is one.
pub fn did_you_mean<'a>(wanted: &str, known: impl IntoIterator<Item = &'a str>) -> Option<String> {
    did_you_mean_above(wanted, known, SIMILAR)
}

/// [`did_you_mean`] with the similarity `threshold` a suggestion must exceed ([`SIMILAR`] for
/// a name that is wrong unless known, [`SIMILAR_LEGAL`] for one that may be a new name).
pub fn did_you_mean_above<'a>(
    wanted: &str,
    known: impl IntoIterator<Item = &'a str>,
    threshold: f64,
) -> Option<String> {
    closest_above(wanted, known, threshold).map(|k| format!("did you mean `{k}`?"))
}

/// A list of diagnostics collected while loading or checking.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one.
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    /// Adds all of `other`.
    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        self.items.extend(other);
    }

    /// Whether any of them is an error.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }

    /// How many errors there are.
    pub fn error_count(&self) -> usize {
        self.items.iter().filter(|d| d.is_error()).count()
    }

    /// How many warnings there are.
    pub fn warning_count(&self) -> usize {
        self.items.len() - self.error_count()
    }

    /// All of them, in the order found.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.items.len()
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_and_offset_agree() {
        let f = SourceFile::new("a.ron", "ab\ncdé\nxyz");
        assert_eq!(f.line_col(0), (1, 1));
        assert_eq!(f.line_col(3), (2, 1));
        assert_eq!(f.line_col(8), (3, 1));
        assert_eq!(f.offset_of(2, 3), 5);
        assert_eq!(f.offset_of(3, 2), 9);
        assert_eq!(f.line_col(f.offset_of(3, 2)), (3, 2));
    }

    #[test]
    fn rendering_names_file_line_column_and_shows_a_caret() {
        let f = SourceFile::new("mods/x/blueprints/a.ron", "(\n  name: 5,\n)\n");
        let d = Diagnostic::error("expected a string")
            .at_line_col(&f, 2, 9, 1)
            .label("here");
        let text = d.render(false);
        assert!(text.contains("mods/x/blueprints/a.ron:2:9"), "{text}");
        assert!(text.contains("expected a string"), "{text}");
        assert!(text.contains('^') || text.contains('┬'), "{text}");
        assert_eq!(
            d.to_string(),
            "mods/x/blueprints/a.ron:2:9: expected a string"
        );
    }

    #[test]
    fn ascii_rendering_has_no_box_drawing() {
        let f = SourceFile::new("mods/x/terrain/a.terrain", "max_height 4\nmax_heigt 4\n");
        let d = Diagnostic::error("unknown setting")
            .at_line_col(&f, 2, 1, 9)
            .label("here");
        let text = d.render_ascii();
        assert!(text.is_ascii(), "{text}");
        assert!(text.contains("mods/x/terrain/a.terrain:2:1"), "{text}");
        assert!(
            text.contains("unknown setting") && text.contains("here"),
            "{text}"
        );
    }

    #[test]
    fn location_without_source_is_still_printed() {
        let d = Diagnostic::error("missing").in_file("mods/x/mod.ron");
        assert!(d.render(false).contains("mods/x/mod.ron"));
    }

    #[test]
    fn a_caret_far_into_a_long_line_shows_a_window_of_it() {
        let line = format!(
            "(name: \"x\", {}bogus: 1, {})",
            " ".repeat(100_000),
            "y".repeat(500)
        );
        let f = SourceFile::new("a.ron", format!("(\n{line}\n)\n"));
        let offset = f.text.find("bogus").unwrap();
        let d = Diagnostic::error("unknown field")
            .at(&f, offset, 5)
            .label("here");
        let text = d.render(false);
        assert!(text.contains("a.ron:2:100013"), "{text}");
        assert!(text.contains("...") && text.contains("bogus"), "{text}");
        assert!(text.len() < 2_000, "{} bytes", text.len());
        // The caret sits under the word in the window.
        let shown = text.lines().find(|l| l.contains("bogus")).unwrap();
        let caret = text
            .lines()
            .find(|l| l.contains("──") || l.contains('^'))
            .unwrap();
        let column = |l: &str, at: usize| l[..at].chars().count();
        assert_eq!(
            column(shown, shown.find("bogus").unwrap()),
            column(caret, caret.find(['─', '^']).unwrap())
        );
    }

    #[test]
    fn each_file_shows_its_first_problems_and_counts_the_rest() {
        let a = SourceFile::new("a.ron", "x\n".repeat(200));
        let many: Vec<Diagnostic> = (1..=120)
            .map(|i| Diagnostic::error("bad").at_line(&a, i))
            .chain([
                Diagnostic::error("also bad").in_file("b.ron"),
                Diagnostic::error("loose"),
            ])
            .collect();
        let (shown, left_out) = shown_per_file(&many);
        assert_eq!(shown.len(), SHOWN_PER_FILE + 2);
        assert_eq!(
            left_out,
            vec![(PathBuf::from("a.ron"), 120 - SHOWN_PER_FILE)]
        );
    }

    #[test]
    fn the_line_index_agrees_with_the_text_over_a_long_file() {
        let f = SourceFile::new("big.ron", "abc\n".repeat(20_000));
        for line in (1..=20_000).rev() {
            assert_eq!(f.line_col(f.offset_of(line, 2)), (line, 2));
        }
    }

    #[test]
    fn reading_stops_one_byte_past_the_limit() {
        // An endless file: reading it whole would never end.
        let endless = Path::new("/dev/zero");
        if !endless.exists() {
            return;
        }
        let d = SourceFile::read(endless).unwrap_err();
        assert!(
            d.message
                .contains(&format!("more than {MAX_FILE_BYTES} bytes")),
            "{d}"
        );
        assert_eq!(d.file.as_deref(), Some(endless));
    }

    #[test]
    fn invalid_utf8_points_at_the_first_bad_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ron");
        std::fs::write(&path, b"ok\n  \xc3\xa9\xff rest\n").unwrap();
        let d = SourceFile::read(&path).unwrap_err();
        assert_eq!(d.position, Some(Position { line: 2, column: 4 }), "{d}");
        assert!(d.message.contains("0xff"), "{d}");
    }

    #[test]
    fn control_characters_in_a_file_never_reach_the_terminal() {
        let f = SourceFile::new("a.ron", "(\x1b]0;pwned\x07 name: 5)\n");
        let offset = f.text.find("name").unwrap();
        let text = Diagnostic::error("bad")
            .at(&f, offset, 4)
            .label("here")
            .render(false);
        assert!(!text.contains(['\x1b', '\x07']), "{text:?}");
        assert!(text.contains("a.ron:1:13"), "{text}");
        let shown = text.lines().find(|l| l.contains("name")).unwrap();
        let caret = text
            .lines()
            .find(|l| l.contains('·') && l.contains('─'))
            .unwrap();
        let column = |l: &str, at: usize| l[..at].chars().count();
        assert_eq!(
            column(shown, shown.find("name").unwrap()),
            column(caret, caret.find('─').unwrap())
        );
    }
}
