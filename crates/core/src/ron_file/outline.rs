//! The bracket structure of a RON text, read without knowing the type it holds: its containers
//! (`(…)`, `[…]`, `{…}`), the parts of each between commas, and the key before a part's colon.
//!
//! [`super::parse_all`] asks it where an error lies (`behaviour.projectile.speed`) and blanks
//! out the part at fault, so that the next attempt to read the file reaches the errors after
//! it. Blanking writes spaces over the part and keeps its line breaks, so every byte offset,
//! line and column of the rest of the text stays what it was.

use std::fmt;
use std::ops::Range;

/// A token of RON text, as far as its structure goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    /// `(`, `[` or `{`.
    Open(u8),
    /// `)`, `]` or `}`.
    Close(u8),
    Comma,
    Colon,
    /// A name: a field, an enum variant, `true`.
    Ident,
    /// A string literal in any of its forms, quotes included.
    Str,
    /// A number, a character literal or other punctuation.
    Other,
    /// A string, character literal or block comment that the text ends inside.
    Unclosed,
}

/// A token and its byte range.
#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub kind: Tok,
    pub start: usize,
    pub end: usize,
}

/// The tokens of `text`, without comments and whitespace. Strings are read as ron reads them
/// (escapes, raw strings with any number of `#`, byte strings), and block comments nest.
pub(super) fn tokens(text: &str) -> impl Iterator<Item = Token> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
                at += 1;
            }
            let start = at;
            let &b = bytes.get(at)?;
            let next = bytes.get(at + 1).copied();
            let (kind, end) = match (b, next) {
                (b'/', Some(b'/')) => {
                    at = text[at..].find('\n').map_or(bytes.len(), |n| at + n);
                    continue;
                }
                (b'/', Some(b'*')) => match block_comment_end(bytes, at) {
                    Some(end) => {
                        at = end;
                        continue;
                    }
                    None => (Tok::Unclosed, bytes.len()),
                },
                (b'"', _) => quoted(bytes, at + 1, b'"', Tok::Str),
                (b'\'', _) => quoted(bytes, at + 1, b'\'', Tok::Other),
                (b'b', Some(b'"')) => quoted(bytes, at + 2, b'"', Tok::Str),
                (b'b', Some(b'\'')) => quoted(bytes, at + 2, b'\'', Tok::Other),
                (b'b', Some(b'r')) => raw(bytes, at + 1),
                (b'r', _) => raw(bytes, at),
                (b'(' | b'[' | b'{', _) => (Tok::Open(b), at + 1),
                (b')' | b']' | b'}', _) => (Tok::Close(b), at + 1),
                (b',', _) => (Tok::Comma, at + 1),
                (b':', _) => (Tok::Colon, at + 1),
                _ if b.is_ascii_alphabetic() || b == b'_' => (Tok::Ident, word_end(bytes, at)),
                _ if b.is_ascii_digit() => (Tok::Other, word_end(bytes, at)),
                // One whole character, so that every token starts on a character boundary.
                _ => (
                    Tok::Other,
                    at + text[at..].chars().next().map_or(1, char::len_utf8),
                ),
            };
            at = end;
            return Some(Token { kind, start, end });
        }
    })
}

/// Where the block comment starting at `at` ends (comments nest), if it does.
fn block_comment_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = at;
    while i + 1 < bytes.len() {
        match (bytes[i], bytes[i + 1]) {
            (b'/', b'*') => {
                depth += 1;
                i += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => i += 1,
        }
    }
    None
}

/// A literal whose text starts at `from` and ends at the next unescaped `quote`.
fn quoted(bytes: &[u8], from: usize, quote: u8, kind: Tok) -> (Tok, usize) {
    let mut i = from;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            c if c == quote => return (kind, i + 1),
            _ => i += 1,
        }
    }
    (Tok::Unclosed, bytes.len())
}

/// At an `r`: a raw string (`r"…"`, `r#"…"#`), a raw name (`r#type`) or a plain name.
fn raw(bytes: &[u8], r: usize) -> (Tok, usize) {
    let hashes = bytes[r + 1..].iter().take_while(|&&c| c == b'#').count();
    let quote = r + 1 + hashes;
    if bytes.get(quote) == Some(&b'"') {
        let close: Vec<u8> = std::iter::once(b'"')
            .chain(std::iter::repeat_n(b'#', hashes))
            .collect();
        return match bytes[quote + 1..]
            .windows(close.len())
            .position(|w| w == close.as_slice())
        {
            Some(i) => (Tok::Str, quote + 1 + i + close.len()),
            None => (Tok::Unclosed, bytes.len()),
        };
    }
    let name = if hashes == 1 { r + 2 } else { r };
    (Tok::Ident, word_end(bytes, name).max(r + 1))
}

/// The end of the run of letters, digits and `_` starting at `at`.
fn word_end(bytes: &[u8], at: usize) -> usize {
    at + bytes[at..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count()
}

/// The containers of a RON text, in the order they open (so a container comes after those
/// around it).
pub(super) struct Outline {
    containers: Vec<Container>,
    /// Whether the brackets do not pair up or the text ends inside a string or comment: then
    /// the outline is a guess, good for naming a field but not for blanking one.
    pub broken: bool,
}

/// One bracketed value.
struct Container {
    /// The offset of its opening bracket.
    open: usize,
    /// The offset of its closing bracket (the end of the text if it has none).
    close: usize,
    bracket: u8,
    parent: Option<usize>,
    /// Its parts that hold anything, in order.
    parts: Vec<Part>,
}

/// What lies between two commas of a container, or between a comma and a bracket.
struct Part {
    /// From just after the comma or bracket before it to its own comma (included) or to the
    /// closing bracket (not included).
    span: Range<usize>,
    /// The token before each colon at this level: `name` in `name: value`.
    keys: Vec<Range<usize>>,
    /// Whether it has been blanked out.
    blank: bool,
}

/// A part being read: the container it is in and where it started.
struct Reading {
    container: usize,
    start: usize,
    content: bool,
    keys: Vec<Range<usize>>,
}

impl Reading {
    fn new(container: usize, start: usize) -> Self {
        Reading {
            container,
            start,
            content: false,
            keys: Vec::new(),
        }
    }

    /// Ends the part at `end`, keeping it if it holds anything.
    fn finish(self, end: usize, containers: &mut [Container]) {
        if self.content {
            containers[self.container].parts.push(Part {
                span: self.start..end,
                keys: self.keys,
                blank: false,
            });
        }
    }
}

impl Outline {
    /// Reads the structure of `text`.
    pub fn of(text: &str) -> Outline {
        let mut containers: Vec<Container> = Vec::new();
        let mut open: Vec<Reading> = Vec::new();
        let mut broken = false;
        let mut previous: Option<Token> = None;
        for token in tokens(text) {
            if let Some(part) = open.last_mut()
                && !matches!(token.kind, Tok::Comma | Tok::Close(_))
            {
                part.content = true;
                if token.kind == Tok::Colon
                    && let Some(key) = previous.filter(|p| {
                        p.start >= part.start
                            && matches!(p.kind, Tok::Ident | Tok::Str | Tok::Other)
                    })
                {
                    part.keys.push(key.start..key.end);
                }
            }
            match token.kind {
                Tok::Unclosed => {
                    broken = true;
                    break;
                }
                Tok::Open(bracket) => {
                    containers.push(Container {
                        open: token.start,
                        close: text.len(),
                        bracket,
                        parent: open.last().map(|r| r.container),
                        parts: Vec::new(),
                    });
                    open.push(Reading::new(containers.len() - 1, token.end));
                }
                Tok::Close(bracket) => {
                    let Some(part) = open.pop() else {
                        broken = true;
                        break;
                    };
                    let c = part.container;
                    broken |= closing(containers[c].bracket) != bracket;
                    containers[c].close = token.start;
                    part.finish(token.start, &mut containers);
                }
                Tok::Comma => {
                    if let Some(part) = open.pop() {
                        let c = part.container;
                        part.finish(token.end, &mut containers);
                        open.push(Reading::new(c, token.end));
                    }
                }
                _ => {}
            }
            previous = Some(token);
        }
        broken |= !open.is_empty();
        while let Some(part) = open.pop() {
            part.finish(text.len(), &mut containers);
        }
        Outline { containers, broken }
    }

    /// Where offset `at` lies: the innermost container around it and which of its parts (none
    /// on its closing bracket, between parts or in a blanked one).
    pub fn place(&self, at: usize) -> Option<(usize, Option<usize>)> {
        let c = self
            .containers
            .iter()
            .rposition(|c| c.open < at && at <= c.close)?;
        let part = self.containers[c]
            .parts
            .iter()
            .position(|p| p.span.contains(&at) && !p.blank);
        Some((c, part))
    }

    /// The path to offset `at` from the top of the text, such as `spawns_on_death[0].count`.
    pub fn path(&self, text: &str, at: usize) -> FieldPath {
        let mut steps = Vec::new();
        let mut place = self.place(at);
        while let Some((c, part)) = place {
            let container = &self.containers[c];
            if let Some(i) = part {
                steps.extend(self.step(text, c, i));
            }
            place = container
                .parent
                .map(|p| (p, self.part_at(p, container.open)));
        }
        steps.reverse();
        FieldPath(steps)
    }

    /// The part of container `c` that holds offset `at`, blanked or not.
    fn part_at(&self, c: usize, at: usize) -> Option<usize> {
        self.containers[c]
            .parts
            .iter()
            .position(|p| p.span.contains(&at))
    }

    /// What part `i` of container `c` adds to a path.
    fn step(&self, text: &str, c: usize, i: usize) -> Option<Step> {
        let container = &self.containers[c];
        let part = &container.parts[i];
        if container.bracket == b'[' {
            return Some(Step::Index(i));
        }
        if let Some(key) = part.keys.first() {
            let key = &text[key.clone()];
            return Some(match key.strip_prefix('"') {
                Some(quoted) => Step::Key(quoted.trim_end_matches('"').to_string()),
                None => Step::Field(key.trim_start_matches("r#").to_string()),
            });
        }
        (container.parts.len() > 1).then_some(Step::Position(i))
    }

    /// Whether container `c` had a part blanked out.
    pub fn changed(&self, c: usize) -> bool {
        self.containers[c].parts.iter().any(|p| p.blank)
    }

    /// The keys of the parts blanked out of container `c`.
    pub fn blanked_keys<'a>(&'a self, text: &'a str, c: usize) -> impl Iterator<Item = &'a str> {
        self.containers[c]
            .parts
            .iter()
            .filter(|p| p.blank)
            .flat_map(|p| p.keys.iter())
            .map(|k| text[k.clone()].trim_matches('"'))
    }

    /// Blanks part `part` of container `c` out of `text` (the text the outline was read from,
    /// with earlier blanks), so that reading it again skips that part. Where that would not
    /// leave a value that can still be read — no part given (the error is the container's
    /// own), or a part of a tuple, whose later parts would move up — the part of the parent
    /// that holds the container goes instead, and so on up. Returns `false` when nothing could
    /// be blanked: the error is the outermost value's own.
    pub fn blank(&mut self, text: &mut String, mut c: usize, mut part: Option<usize>) -> bool {
        if self.broken {
            return false;
        }
        loop {
            let container = &self.containers[c];
            let by_name_or_list =
                container.bracket != b'(' || container.parts.iter().any(|p| !p.keys.is_empty());
            match part {
                Some(_) if by_name_or_list => break,
                _ => {
                    let Some(parent) = container.parent else {
                        return false;
                    };
                    part = self.part_at(parent, container.open);
                    c = parent;
                    if part.is_none() {
                        return false;
                    }
                }
            }
        }
        let Some(i) = part else { return false };
        let p = &mut self.containers[c].parts[i];
        p.blank = true;
        // Spaces over every byte but line breaks: the text stays UTF-8, since a part starts
        // and ends next to ASCII punctuation, and lines keep their numbers.
        let span = p.span.clone();
        let blanked: String = text[span.clone()]
            .chars()
            .flat_map(|ch| {
                let n = if ch == '\n' { 0 } else { ch.len_utf8() };
                std::iter::repeat_n(' ', n).chain((ch == '\n').then_some('\n'))
            })
            .collect();
        text.replace_range(span, &blanked);
        true
    }
}

/// The bracket that closes `open`.
fn closing(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// A place in a RON value, from its top: fields, map keys, list indices, tuple positions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct FieldPath(Vec<Step>);

/// One step of a [`FieldPath`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    /// A struct's field (`.name`).
    Field(String),
    /// A map's key written as a string (`["max"]`).
    Key(String),
    /// A list's element (`[0]`).
    Index(usize),
    /// A tuple's element (`.1`).
    Position(usize),
}

impl FieldPath {
    /// Whether it names nothing (the top of the value).
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The field the path ends in, if it ends in one.
    pub fn last_field(&self) -> Option<&str> {
        match self.0.last() {
            Some(Step::Field(name)) => Some(name),
            _ => None,
        }
    }

    /// The path with a field added.
    pub fn then(&self, field: &str) -> FieldPath {
        let mut steps = self.0.clone();
        steps.push(Step::Field(field.to_string()));
        FieldPath(steps)
    }
}

impl fmt::Display for FieldPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, step) in self.0.iter().enumerate() {
            match step {
                Step::Field(name) if i == 0 => f.write_str(name)?,
                Step::Field(name) => write!(f, ".{name}")?,
                Step::Key(key) => write!(f, "[\"{key}\"]")?,
                Step::Index(n) => write!(f, "[{n}]")?,
                Step::Position(n) if i == 0 => write!(f, "{n}")?,
                Step::Position(n) => write!(f, ".{n}")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "(\n  name: \"a, (b\", // a comment: with ( and ,\n  cost: (materials: 2, energy: 1),\n  spawns: [(attacker: \"x\", count: 2), (attacker: r#\"y\"#, count: 3)],\n  params: {\"max\": 2},\n  shape: Difference(Ray(width: 1), Ray(width: 2)),\n  /* outer /* nested ) */ still comment */ flag: 'c',\n)";

    fn at(text: &str, needle: &str) -> usize {
        text.find(needle).unwrap()
    }

    #[test]
    fn tokens_skip_comments_and_read_strings_whole() {
        let kinds: Vec<Tok> = tokens("a: r##\"x\"# \"##, /* /* */ */ 'x' b\"q\" // (")
            .map(|t| t.kind)
            .collect();
        assert_eq!(
            kinds,
            [
                Tok::Ident,
                Tok::Colon,
                Tok::Str,
                Tok::Comma,
                Tok::Other,
                Tok::Str
            ]
        );
        assert_eq!(tokens("\"open").last().unwrap().kind, Tok::Unclosed);
        assert_eq!(tokens("/* open /* */").last().unwrap().kind, Tok::Unclosed);
        assert_eq!(tokens("r#type").next().unwrap().end, 6);
    }

    #[test]
    fn paths_name_fields_keys_indices_and_positions() {
        let outline = Outline::of(TEXT);
        assert!(!outline.broken);
        let path = |needle: &str| outline.path(TEXT, at(TEXT, needle)).to_string();
        assert_eq!(path("energy"), "cost.energy");
        assert_eq!(path("count: 3"), "spawns[1].count");
        assert_eq!(path("2},"), "params[\"max\"]");
        assert_eq!(path("width: 2"), "shape.1.width");
        assert_eq!(path("flag"), "flag");
        assert_eq!(path("a, (b"), "name");
        assert!(outline.path(TEXT, 0).is_empty());
    }

    #[test]
    fn blanking_keeps_offsets_and_lines() {
        let mut outline = Outline::of(TEXT);
        let mut text = TEXT.to_string();
        let (c, part) = outline.place(at(TEXT, "energy")).unwrap();
        assert!(outline.blank(&mut text, c, part));
        assert_eq!(text.len(), TEXT.len());
        assert!(text.contains("cost: (materials: 2,          ),"), "{text}");
        assert_eq!(
            outline.blanked_keys(TEXT, c).collect::<Vec<_>>(),
            ["energy"]
        );
        assert!(outline.changed(c));
        // The struct's own error (its closing bracket) blanks the field that holds it.
        let (c, part) = outline.place(at(TEXT, "),\n  spawns")).unwrap();
        assert_eq!(part, None);
        assert!(outline.blank(&mut text, c, part));
        assert!(!text.contains("cost"));
        assert_eq!(text.lines().count(), TEXT.lines().count());
        // In a tuple, the whole tuple goes: its later elements would move up.
        let (c, part) = outline.place(at(TEXT, "Ray(width: 1)")).unwrap();
        assert_eq!(part, Some(0));
        assert!(outline.blank(&mut text, c, part));
        assert!(!text.contains("Difference"), "{text}");
        // The outermost value's own error leaves nothing to blank.
        let (c, part) = outline.place(TEXT.len() - 1).unwrap();
        assert_eq!((c, part), (0, None));
        assert!(!outline.blank(&mut text, c, part));
    }

    #[test]
    fn unpaired_brackets_break_the_outline() {
        for text in ["(a: [1, 2)", "(a: 1", "(a: 1))", "(a: \"1)"] {
            let mut outline = Outline::of(text);
            assert!(outline.broken, "{text}");
            let mut copy = text.to_string();
            assert!(!outline.blank(&mut copy, 0, Some(0)), "{text}");
        }
    }
}
