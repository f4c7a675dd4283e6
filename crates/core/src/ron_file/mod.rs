//! Reading RON files into typed values, with errors that point into the file.
//!
//! Deserialisation errors come from ron with a line and column; [`parse_all`] goes on past the
//! first to find the others, and names each by its place in the value
//! (`behaviour.projectile.speed`), both with the help of the text's bracket structure
//! (`outline.rs`). Checks made after deserialisation (a dangling reference, a negative cost)
//! need the position of a field or a string in the text; [`find_field`] and [`find_string`]
//! locate them with the same tokens, which skip strings and comments.

mod outline;

use ron::extensions::Extensions;
use serde::de::DeserializeOwned;

use crate::diagnostics::{
    Diagnostic, SHOWN_PER_FILE, SourceFile, closest, did_you_mean, floor_char_boundary,
};
use outline::{FieldPath, Outline, Tok};

/// The RON dialect of mod files: `Option` fields may be written without `Some(...)`.
pub fn options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME | Extensions::UNWRAP_NEWTYPES)
}

/// Writes `value` as pretty RON in the same dialect [`parse`] reads (newtypes unwrapped,
/// `Some` implicit), so that what the game writes it can read back.
pub fn to_string<T: serde::Serialize>(value: &T) -> ron::Result<String> {
    options().to_string_pretty(value, ron::ser::PrettyConfig::default())
}

/// Parses the whole file as a `T`; on failure, its first error.
pub fn parse<T: DeserializeOwned>(file: &SourceFile) -> Result<T, Diagnostic> {
    parse_up_to(file, 1).map_err(|mut found| found.swap_remove(0))
}

/// Parses the whole file as a `T`; on failure, every error that can be told apart, in the
/// order of the file: at most [`SHOWN_PER_FILE`], the last of them then saying that the file
/// may have more.
///
/// ron stops at the first error, so after each one the part of the file at fault (the field,
/// list element or map entry, as the [`Outline`] of the text finds it) is blanked out and the
/// file read again. What a blanked part leaves behind — a required field now missing, a
/// struct now incomplete — is not reported, and a struct that cannot be read without the part
/// goes next, from its parent. Brackets that do not pair up stop the search at the first
/// error: the parts of the file cannot be told apart.
pub fn parse_all<T: DeserializeOwned>(file: &SourceFile) -> Result<T, Vec<Diagnostic>> {
    parse_up_to(file, SHOWN_PER_FILE)
}

/// How many times [`parse_all`] reads a file at most: each attempt reads it again up to the next
/// error, and one error may take a few (a blanked field, then the struct it leaves incomplete).
const ATTEMPTS: usize = 4 * SHOWN_PER_FILE;

fn parse_up_to<T: DeserializeOwned>(file: &SourceFile, limit: usize) -> Result<T, Vec<Diagnostic>> {
    let mut error = match options().from_str::<T>(&file.text) {
        Ok(value) => return Ok(value),
        Err(e) => e,
    };
    let mut outline = Outline::of(&file.text);
    let mut text = file.text.to_string();
    // The text as last read, for ron's lines and columns (which count characters, and
    // blanking may have turned one character into several spaces).
    let mut read = file.clone();
    let mut found = Vec::new();
    for _ in 0..ATTEMPTS {
        // Offsets in the text read are offsets in the file, but a blank may have stood for a
        // character of several bytes.
        let (from, to) = span_of(&read, &error);
        let (from, to) = (
            floor_char_boundary(&file.text, from),
            floor_char_boundary(&file.text, to),
        );
        // ron may start a span on the blanks before the value, even across lines and over a
        // blanked part: the part at fault is the one of the next thing written.
        let rest = &read.text[from..];
        let place = outline.place(from + rest.len() - rest.trim_start().len());
        let left_behind = match place {
            Some((c, None)) if outline.changed(c) => match &error.code {
                ron::Error::MissingStructField { field, .. } => outline
                    .blanked_keys(&file.text, c)
                    .any(|key| key == *field || closest(key, [*field]).is_some()),
                _ => true,
            },
            _ => false,
        };
        if !left_behind {
            if found.len() + 1 == limit && limit > 1 {
                found.push(more_errors(file, limit - 1));
                return Err(found);
            }
            found.push(diagnose(file, &outline, &error.code, from, to));
            if found.len() == limit {
                return Err(found);
            }
        }
        let Some((c, part)) = place else {
            return Err(found);
        };
        if !outline.blank(&mut text, c, part) {
            return Err(found);
        }
        read = SourceFile::new(file.path.clone(), text.as_str());
        match options().from_str::<T>(&read.text) {
            Ok(_) => return Err(found),
            Err(e) => error = e,
        }
    }
    found.push(more_errors(file, found.len()));
    Err(found)
}

/// The note that ends a file's list of errors when the search stopped before the end.
fn more_errors(file: &SourceFile, shown: usize) -> Diagnostic {
    Diagnostic::error(format!(
        "this file may have more errors than the {shown} above: fix those and check again"
    ))
    .in_file(&file.path)
}

/// The byte range ron's error covers in the text it read, starting at the value rather than
/// at the blanks before it on the same line.
fn span_of(read: &SourceFile, e: &ron::error::SpannedError) -> (usize, usize) {
    let (start, end) = (&e.span.start, &e.span.end);
    let from = read.offset_of(start.line.max(1), start.col.max(1));
    let to = read.offset_of(end.line.max(1), end.col.max(1));
    let rest = &read.text[from..];
    let blank = &rest[..rest.len() - rest.trim_start().len()];
    let from = if blank.contains('\n') {
        from
    } else {
        from + blank.len()
    };
    (from, to.max(from))
}

/// The diagnostic for ron's error `code` at bytes `from..to` of `file`.
fn diagnose(
    file: &SourceFile,
    outline: &Outline,
    code: &ron::Error,
    from: usize,
    to: usize,
) -> Diagnostic {
    // ron points past the sign of a negative number it cannot take.
    let from = match code {
        ron::Error::IntegerOutOfBounds if file.text[..from].ends_with('-') => from - 1,
        _ => from,
    };
    let path = outline.path(&file.text, from);
    if let Some(d) = fraction(file, code, from, &path) {
        return d;
    }
    let d = Diagnostic::error(describe(code, &path)).at(file, from, (to - from).max(1));
    match code {
        ron::Error::NoSuchStructField {
            expected, found, ..
        } => match did_you_mean(found, expected.iter().copied()) {
            Some(hint) => d.help(hint),
            None => d.help(format!("expected one of: {}", expected.join(", "))),
        },
        // A kind is one of a few names, so they are all listed, the likely one first.
        ron::Error::NoSuchEnumVariant {
            expected, found, ..
        } => match did_you_mean(found, expected.iter().copied()) {
            Some(hint) => d.help(format!("{hint} It may be one of: {}", expected.join(", "))),
            None => d.help(format!("expected one of: {}", expected.join(", "))),
        },
        _ => d,
    }
}

/// Fields counted in ticks, which modders sometimes write as seconds.
const TICK_FIELDS: [&str; 5] = [
    "interval",
    "delay",
    "duration_ticks",
    "stall_ticks",
    "flight",
];

/// Whether `path` ends in a field counted in ticks.
fn counts_ticks(path: &FieldPath) -> bool {
    path.last_field().is_some_and(|f| TICK_FIELDS.contains(&f))
}

/// The error for a number with a fraction or an exponent where a whole one is expected, if
/// that is what ron's error `code` at `at` (at `path` in the value) is about: ron reads `1.5`
/// as `1` and then trips over `.5` with a message about commas, and stops at the start of
/// `1e3` with one about digits.
fn fraction(
    file: &SourceFile,
    code: &ron::Error,
    at: usize,
    path: &FieldPath,
) -> Option<Diagnostic> {
    let text = &file.text;
    let bytes = text.as_bytes();
    let after_digit = at.checked_sub(1).is_some_and(|i| bytes[i].is_ascii_digit());
    let tripped = matches!(bytes.get(at), Some(b'.' | b'e' | b'E')) && after_digit;
    if !tripped && !matches!(code, ron::Error::InvalidIntegerDigit { .. }) {
        return None;
    }
    let number = |c: u8| c.is_ascii_digit() || c == b'_';
    let start = after_last(&text[..at], |c| !(c.is_ascii_digit() || c == '_'));
    let (mut end, mut point, mut exponent) = (start, false, false);
    while let Some(&c) = bytes.get(end) {
        let digits = end > start;
        let new_point = c == b'.' && digits && !point && !exponent;
        let new_exponent = matches!(c, b'e' | b'E') && digits && !exponent;
        let sign = matches!(c, b'+' | b'-') && matches!(bytes[end - 1], b'e' | b'E');
        if !(number(c) || new_point || new_exponent || sign) {
            break;
        }
        point |= new_point;
        exponent |= new_exponent;
        end += 1;
    }
    if !(point || exponent) {
        return None;
    }
    let literal = &text[start..end];
    let value = literal.replace('_', "").parse::<f64>().ok()?;
    let ticks = counts_ticks(path);
    let message = match path.is_empty() {
        false if ticks => format!("`{path}` must be a whole number of ticks, not `{literal}`"),
        false => format!("`{path}` must be a whole number, not `{literal}`"),
        true => format!("expected a whole number, not `{literal}`"),
    };
    let help = match path.last_field() {
        Some(f) if ticks => format!(
            "`{f}` counts ticks, {} to a second: {literal} seconds would be {}",
            crate::TICKS_PER_SECOND,
            (value * crate::TICKS_PER_SECOND as f64).round()
        ),
        _ if value.fract() == 0.0 && value.abs() < 1e15 => {
            format!("write it without a point or an exponent: {value}")
        }
        _ => "this number counts whole things: leave out the fraction".into(),
    };
    Some(
        Diagnostic::error(message)
            .at(file, start, end - start)
            .help(help),
    )
}

/// The byte offset just after the last character of `text` that is `wanted` (0 if none).
fn after_last(text: &str, wanted: impl Fn(char) -> bool) -> usize {
    text.char_indices()
        .rev()
        .find(|&(_, c)| wanted(c))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

/// What a Rust type is called in messages to modders.
fn noun(outer: &str) -> &str {
    match outer {
        "AttackerType" | "AttackerTypePatch" => "an attacker type",
        "Blueprint" | "BlueprintPatch" => "a blueprint",
        "Augment" | "AugmentPatch" => "an augment",
        "Event" | "EventPatch" => "an event",
        "Choice" => "a choice",
        "Manifest" => "mod.ron",
        "Dependency" => "a dependency",
        "Cost" => "a cost",
        "Spawn" => "a spawn",
        "LevelSetter" | "LevelSetterPatch" => "levels.ron",
        "LevelRule" => "a level rule",
        "PoolRule" => "an attacker pool",
        "RarityOdds" => "rarity odds",
        "PerLevel" => "a per-level number",
        "Scenario" => "a scenario",
        "Building" => "a building",
        "WaveSpec" => "a wave",
        "Group" => "a group of attackers",
        "Action" => "an action",
        "EffectEntry" => "an effect's look",
        other => other,
    }
}

/// Rewords ron's messages where they are terse or name Rust types; `path` is where in the
/// value the error is.
fn describe(error: &ron::Error, path: &FieldPath) -> String {
    let expected = |what: &str| match path.is_empty() {
        false => format!("`{path}` must be {what}"),
        true => format!("expected {what}"),
    };
    // The path to a field ron names, where the path ends in it (the outline may not know).
    let named = |field: &str| match path.last_field() {
        Some(last) if last == field => path.to_string(),
        _ => field.to_string(),
    };
    let within = |outer: &Option<String>| match outer {
        Some(outer) => format!(" in {}", noun(outer)),
        None => String::new(),
    };
    match error {
        ron::Error::MissingStructField { field, outer } => {
            format!(
                "missing required field `{}`{}",
                path.then(field),
                within(outer)
            )
        }
        ron::Error::NoSuchStructField { found, outer, .. } => {
            format!("unknown field `{}`{}", named(found), within(outer))
        }
        ron::Error::DuplicateStructField { field, outer } => {
            format!("`{}` is set twice{}", named(field), within(outer))
        }
        ron::Error::NoSuchEnumVariant { found, .. } => match path.is_empty() {
            false => format!("unknown variant `{found}` at `{path}`"),
            true => format!("unknown variant `{found}`"),
        },
        ron::Error::IntegerOutOfBounds => match path.is_empty() {
            false => format!("`{path}` is out of range for this field"),
            true => "the number is out of range here".into(),
        },
        ron::Error::ExpectedInteger if counts_ticks(path) => expected("a whole number of ticks"),
        ron::Error::ExpectedFloat => expected("a number"),
        ron::Error::ExpectedInteger => expected("a whole number"),
        ron::Error::ExpectedString => expected("a string in double quotes"),
        ron::Error::ExpectedBoolean => expected("true or false"),
        ron::Error::ExpectedArray => expected("a list in [brackets]"),
        ron::Error::ExpectedMap => expected("a map in {braces}"),
        other => match path.is_empty() {
            false => format!("`{path}`: {other}"),
            true => other.to_string(),
        },
    }
}

/// The byte offset of the first `name:` field key in the file.
pub fn find_field(file: &SourceFile, name: &str) -> Option<usize> {
    find_field_from(file, name, 0)
}

/// The byte offset of the first `name:` field key at or after byte `from`: a field of one of
/// several items of a file, looked for after the item's start.
pub fn find_field_from(file: &SourceFile, name: &str, from: usize) -> Option<usize> {
    let mut found = None;
    scan(&file.text, |token, offset, rest| {
        if offset >= from && token == name && rest.trim_start().starts_with(':') {
            found = Some(offset);
            return false;
        }
        true
    });
    found
}

/// The byte offsets of every `name:` field key in the file, in order.
pub fn find_fields(file: &SourceFile, name: &str) -> Vec<usize> {
    let mut found = Vec::new();
    scan(&file.text, |token, offset, rest| {
        if token == name && rest.trim_start().starts_with(':') {
            found.push(offset);
        }
        true
    });
    found
}

/// The byte offset and length (quotes included) of the string literal that is the value of the
/// first `name:` field key, if that value is a string.
pub fn find_field_string(file: &SourceFile, name: &str) -> Option<(usize, usize)> {
    let mut key = false;
    let mut found = None;
    scan(&file.text, |token, offset, rest| {
        if key {
            found = token.starts_with('"').then_some((offset, token.len()));
            return false;
        }
        key = token == name && rest.trim_start().starts_with(':');
        true
    });
    found
}

/// The byte offset of the first `name:` field key whose value is written as `value` (a number
/// as it stands in the file, `2` or `0.5`): for pointing at one of several fields of one name
/// that a check found at fault by its value.
pub fn find_field_valued(file: &SourceFile, name: &str, value: &str) -> Option<usize> {
    find_fields(file, name).into_iter().find(|&at| {
        let rest = file.text[at + name.len()..].trim_start();
        let rest = rest.strip_prefix(':').unwrap_or(rest).trim_start();
        rest.strip_prefix(value).is_some_and(|after| {
            !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '.' || c == '_')
        })
    })
}

/// The byte offset of the key of the field at `path` from the top of the value, written as
/// errors name it (`tune.voices[1].instrument.decay`): for pointing at one of several fields of
/// one name, each in its own place.
pub fn find_path(file: &SourceFile, path: &str) -> Option<usize> {
    let outline = Outline::of(&file.text);
    let mut found = None;
    scan(&file.text, |token, offset, rest| {
        if path.ends_with(token)
            && rest.trim_start().starts_with(':')
            && outline.path(&file.text, offset).to_string() == path
        {
            found = Some(offset);
            return false;
        }
        true
    });
    found
}

/// The byte offset of the opening quote of the first string literal whose text is `value`.
pub fn find_string(file: &SourceFile, value: &str) -> Option<usize> {
    find_string_from(file, value, 0)
}

/// The byte offset of the opening quote of the first string literal whose text is `value`, at
/// or after byte `from`.
pub fn find_string_from(file: &SourceFile, value: &str, from: usize) -> Option<usize> {
    let quoted = format!("\"{value}\"");
    let mut found = None;
    scan(&file.text, |token, offset, _| {
        if offset >= from && token == quoted {
            found = Some(offset);
            return false;
        }
        true
    });
    found
}

/// The offset of the first string `value` after the field key `field`, or of the field, or 0.
pub fn locate(file: &SourceFile, field: &str, value: Option<&str>) -> usize {
    let after = find_field(file, field);
    if let Some(v) = value {
        let quoted = format!("\"{v}\"");
        let mut found = None;
        scan(&file.text, |token, offset, _| {
            if token == quoted && after.is_none_or(|a| offset > a) {
                found = Some(offset);
                return false;
            }
            true
        });
        if let Some(f) = found {
            return f;
        }
    }
    after.unwrap_or(0)
}

/// Calls `visit(token, offset, rest_of_text)` for every name and string literal outside
/// comments, until it returns `false`.
fn scan(text: &str, mut visit: impl FnMut(&str, usize, &str) -> bool) {
    for token in outline::tokens(text) {
        if matches!(token.kind, Tok::Ident | Tok::Str)
            && !visit(
                &text[token.start..token.end],
                token.start,
                &text[token.end..],
            )
        {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "// range: not this\n(\n  name: \"range\", /* range: nor this */\n  range: 2.9,\n  script: \"scripts/a.lua\",\n)";

    #[test]
    fn finds_fields_outside_strings_and_comments() {
        let f = SourceFile::new("x.ron", TEXT);
        let at = find_field(&f, "range").unwrap();
        assert_eq!(f.line_col(at), (4, 3));
        assert_eq!(find_field(&f, "missing"), None);
    }

    #[test]
    fn finds_the_string_value_of_a_field() {
        let f = SourceFile::new("x.ron", TEXT);
        let (at, len) = find_field_string(&f, "script").unwrap();
        assert_eq!((f.line_col(at), len), ((5, 11), "\"scripts/a.lua\"".len()));
        assert_eq!(find_field_string(&f, "range"), None, "a number");
        assert_eq!(find_field_string(&f, "missing"), None);
    }

    #[test]
    fn finds_a_field_by_the_number_it_holds() {
        let f = SourceFile::new("x.ron", "[(path: 0), (path: 10), (path: 1)]");
        assert_eq!(
            f.line_col(find_field_valued(&f, "path", "1").unwrap()),
            (1, 26)
        );
        assert_eq!(
            f.line_col(find_field_valued(&f, "path", "10").unwrap()),
            (1, 14)
        );
        assert_eq!(find_field_valued(&f, "path", "2"), None);
    }

    #[test]
    fn finds_a_field_by_its_path() {
        let f = SourceFile::new(
            "x.ron",
            "(\n  decay: 1,\n  tune: (voices: [\n    (decay: 2),\n    (notes: \"C4\", inner: (decay: 3)),\n  ]),\n)",
        );
        let at = |path| find_path(&f, path).map(|at| f.line_col(at));
        assert_eq!(at("decay"), Some((2, 3)));
        assert_eq!(at("tune.voices[0].decay"), Some((4, 6)));
        assert_eq!(at("tune.voices[1].inner.decay"), Some((5, 27)));
        assert_eq!(at("tune.voices[1].notes"), Some((5, 6)));
        assert_eq!(at("tune.voices[1].decay"), None);
    }

    #[test]
    fn finds_string_literals() {
        let f = SourceFile::new("x.ron", TEXT);
        let at = find_string(&f, "scripts/a.lua").unwrap();
        assert_eq!(f.line_col(at), (5, 11));
        assert_eq!(
            f.line_col(locate(&f, "script", Some("scripts/a.lua"))),
            (5, 11)
        );
        assert_eq!(f.line_col(locate(&f, "script", None)), (5, 3));
    }

    #[test]
    fn parse_errors_point_into_the_file() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[expect(dead_code, reason = "the fields are only read by serde")]
        struct S {
            name: String,
            range: Option<f64>,
        }
        let f = SourceFile::new("x.ron", "(\n  name: \"a\",\n  rnage: 2.0,\n)");
        let err = parse::<S>(&f).unwrap_err();
        assert_eq!(err.position.unwrap().line, 3);
        assert!(
            err.message.contains("unknown field `rnage`"),
            "{}",
            err.message
        );
        assert_eq!(err.help.as_deref(), Some("did you mean `range`?"));
        let ok: S = parse(&SourceFile::new("x.ron", "(name: \"a\", range: 2.0)")).unwrap();
        assert_eq!(ok.range, Some(2.0));
        let err = parse::<S>(&SourceFile::new("x.ron", "(range: 2.0)")).unwrap_err();
        assert!(
            err.message.contains("missing required field `name`"),
            "{}",
            err.message
        );
        let err =
            parse::<S>(&SourceFile::new("x.ron", "(name: \"a\",\n range: \"far\")")).unwrap_err();
        assert_eq!(err.message, "`range` must be a number");
        assert_eq!(err.position.unwrap().line, 2);
    }

    #[test]
    fn a_fraction_where_a_whole_number_belongs_is_named() {
        #[derive(serde::Deserialize, Debug)]
        #[expect(dead_code, reason = "the fields are only read by serde")]
        struct T {
            interval: Option<u32>,
            count: u32,
        }
        let f = SourceFile::new("t.ron", "(\n  count: 2,\n  interval: 1.5,\n)");
        let err = parse::<T>(&f).unwrap_err();
        assert_eq!(
            err.message,
            "`interval` must be a whole number of ticks, not `1.5`"
        );
        let at = err.position.unwrap();
        assert_eq!((at.line, at.column), (3, 13));
        assert_eq!(
            err.help.as_deref(),
            Some("`interval` counts ticks, 20 to a second: 1.5 seconds would be 30")
        );
        // Scanning back stops on a character boundary, whatever the character.
        assert_eq!(after_last("xé12", |c| !c.is_ascii_digit()), 3);
        assert_eq!(after_last("12", |c| !c.is_ascii_digit()), 0);
        // The last field, without a comma after it; another kind of count.
        let err = parse::<T>(&SourceFile::new("t.ron", "(interval: 3, count: 2.25)")).unwrap_err();
        assert_eq!(err.message, "`count` must be a whole number, not `2.25`");
        assert_eq!(
            err.help.as_deref(),
            Some("this number counts whole things: leave out the fraction")
        );
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[expect(dead_code, reason = "the fields are only read by serde")]
    struct Outer {
        name: String,
        #[serde(default)]
        pair: Option<(u32, String)>,
        #[serde(default)]
        inner: Option<Inner>,
        #[serde(default)]
        list: Vec<Inner>,
        #[serde(default)]
        map: std::collections::BTreeMap<String, u32>,
    }

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[expect(dead_code, reason = "the fields are only read by serde")]
    struct Inner {
        speed: f64,
        #[serde(default)]
        count: u32,
    }

    /// Every error `parse_all` finds in `text`, as `line:column message`.
    fn all(text: &str) -> Vec<String> {
        let file = SourceFile::new("o.ron", text);
        parse_all::<Outer>(&file)
            .unwrap_err()
            .iter()
            .map(|d| {
                let at = d.position.unwrap();
                format!("{}:{} {}", at.line, at.column, d.message)
            })
            .collect()
    }

    #[test]
    fn every_error_is_found_and_what_a_blanked_part_leaves_behind_is_not() {
        // A bad field of a nested struct, a list element with two errors, a map entry and a
        // missing field of the outermost value: the struct left without `speed`, the tuple
        // left without its first element are not errors of their own.
        let text = "(\n  pair: (1.5, \"a\"),\n  inner: (sped: 2.0),\n  list: [(speed: 1, count: 2), (speed: \"x\", count: -1)],\n  map: {\"a\": 1, \"b\": \"2\"},\n)";
        assert_eq!(
            all(text),
            [
                "2:10 `pair.0` must be a whole number, not `1.5`",
                "3:11 unknown field `inner.sped` in Inner",
                "4:40 `list[1].speed` must be a number",
                "4:52 `list[1].count` is out of range for this field",
                "5:22 `map[\"b\"]` must be a whole number",
                "6:1 missing required field `name` in Outer",
            ]
        );
        // A required field missing beside a blanked one is still reported.
        assert_eq!(
            all("(name: \"n\", inner: (count: 1.5))"),
            [
                "1:28 `inner.count` must be a whole number, not `1.5`",
                "1:31 missing required field `inner.speed` in Inner",
            ]
        );
        // Blanked text that held characters of several bytes keeps later columns true.
        assert_eq!(
            all("(name: \"ééé\", naem: \"ééé\", list: [(speed: \"ééé\"), (speed: 1, count: 2.5)])"),
            [
                "1:15 unknown field `naem` in Outer",
                "1:43 `list[0].speed` must be a number",
                "1:69 `list[1].count` must be a whole number, not `2.5`",
            ]
        );
        // The same file read as one error stops at the first.
        let first = parse::<Outer>(&SourceFile::new("o.ron", text)).unwrap_err();
        assert_eq!(first.message, "`pair.0` must be a whole number, not `1.5`");
    }
}
