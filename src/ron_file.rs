//! Reading RON files into typed values, with errors that point into the file.
//!
//! Deserialisation errors come from ron with a line and column. Checks made after
//! deserialisation (a dangling reference, a negative cost) need the position of a field or a
//! string in the text; [`find_field`] and [`find_string`] locate them with a small scanner that
//! skips strings and comments.

use ron::extensions::Extensions;
use serde::de::DeserializeOwned;

use crate::diagnostics::{Diagnostic, SourceFile, did_you_mean};

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

/// Parses the whole file as a `T`.
pub fn parse<T: DeserializeOwned>(file: &SourceFile) -> Result<T, Diagnostic> {
    options().from_str(&file.text).map_err(|e| {
        let start = e.span.start;
        let end = e.span.end;
        let from = file.offset_of(start.line.max(1), start.col.max(1));
        let to = file.offset_of(end.line.max(1), end.col.max(1));
        let field = field_before(&file.text, from);
        // ron's span may start on the whitespace before the offending value.
        let rest = &file.text[from..];
        let blank = &rest[..rest.len() - rest.trim_start().len()];
        let from = if blank.contains('\n') {
            from
        } else {
            from + blank.len()
        };
        if let Some(d) = fraction(file, from) {
            return d;
        }
        let d = Diagnostic::error(describe(&e.code, field)).at(
            file,
            from,
            to.saturating_sub(from).max(1),
        );
        match &e.code {
            ron::Error::NoSuchStructField {
                expected, found, ..
            }
            | ron::Error::NoSuchEnumVariant {
                expected, found, ..
            } => match did_you_mean(found, expected.iter().copied()) {
                Some(hint) => d.help(hint),
                None => d.help(format!("expected one of: {}", expected.join(", "))),
            },
            _ => d,
        }
    })
}

/// Fields counted in ticks, which modders sometimes write as seconds.
const TICK_FIELDS: [&str; 4] = ["interval", "delay", "duration_ticks", "stall_ticks"];

/// The error for a number with a fraction where a whole one is expected, if that is what stopped
/// ron at `at`: it reads `1.5` as `1` and then trips over `.5` with a message about commas.
fn fraction(file: &SourceFile, at: usize) -> Option<Diagnostic> {
    let text = &file.text;
    let bytes = text.as_bytes();
    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    if bytes.get(at) != Some(&b'.') || at == 0 || !digit(at - 1) || !digit(at + 1) {
        return None;
    }
    let number = |c: char| c.is_ascii_digit() || c == '_';
    let start = after_last(&text[..at], |c| !number(c));
    let end = text[at + 1..]
        .find(|c| !number(c))
        .map_or(text.len(), |i| at + 1 + i);
    let literal = &text[start..end];
    let field = field_before(text, start);
    let ticks = field.is_some_and(|f| TICK_FIELDS.contains(&f));
    let message = match field {
        Some(f) if ticks => format!("`{f}` must be a whole number of ticks, not `{literal}`"),
        Some(f) => format!("`{f}` must be a whole number, not `{literal}`"),
        None => format!("expected a whole number, not `{literal}`"),
    };
    let help = match (field, literal.replace('_', "").parse::<f64>()) {
        (Some(f), Ok(seconds)) if ticks => format!(
            "`{f}` counts ticks, {} to a second: {literal} seconds would be {}",
            crate::TICKS_PER_SECOND,
            (seconds * crate::TICKS_PER_SECOND as f64).round()
        ),
        _ => "this number counts whole things: leave out the fraction".into(),
    };
    Some(
        Diagnostic::error(message)
            .at(file, start, end - start)
            .help(help),
    )
}

/// The name of the field whose value starts at (or contains) `offset`, on the same line.
fn field_before(text: &str, offset: usize) -> Option<&str> {
    let line_start = text[..offset.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let before = text[line_start..offset.min(text.len())].trim_end();
    let before = before.strip_suffix(':')?.trim_end();
    let start = after_last(before, |c| !(c.is_ascii_alphanumeric() || c == '_'));
    let name = &before[start..];
    (!name.is_empty()).then_some(name)
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
        other => other,
    }
}

/// Rewords ron's messages where they are terse or name Rust types.
fn describe(error: &ron::Error, field: Option<&str>) -> String {
    let expected = |what: &str| match field {
        Some(f) => format!("`{f}` must be {what}"),
        None => format!("expected {what}"),
    };
    match error {
        ron::Error::MissingStructField { field, outer } => match outer {
            Some(outer) => format!("missing required field `{field}` in {}", noun(outer)),
            None => format!("missing required field `{field}`"),
        },
        ron::Error::NoSuchStructField { found, outer, .. } => match outer {
            Some(outer) => format!("unknown field `{found}` in {}", noun(outer)),
            None => format!("unknown field `{found}`"),
        },
        ron::Error::ExpectedFloat => expected("a number"),
        ron::Error::ExpectedInteger => expected("a whole number"),
        ron::Error::ExpectedString => expected("a string in double quotes"),
        ron::Error::ExpectedBoolean => expected("true or false"),
        ron::Error::ExpectedArray => expected("a list in [brackets]"),
        ron::Error::ExpectedMap => expected("a map in {braces}"),
        other => match field {
            Some(f) => format!("`{f}`: {other}"),
            None => other.to_string(),
        },
    }
}

/// The byte offset of the first `name:` field key in the file.
pub fn find_field(file: &SourceFile, name: &str) -> Option<usize> {
    let mut found = None;
    scan(&file.text, |token, offset, rest| {
        if token == name && rest.trim_start().starts_with(':') {
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

/// The byte offset of the opening quote of the first string literal whose text is `value`.
pub fn find_string(file: &SourceFile, value: &str) -> Option<usize> {
    let quoted = format!("\"{value}\"");
    let mut found = None;
    scan(&file.text, |token, offset, _| {
        if token == quoted {
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

/// Calls `visit(token, offset, rest_of_text)` for every identifier and string literal outside
/// comments, until it returns `false`.
fn scan(text: &str, mut visit: impl FnMut(&str, usize, &str) -> bool) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i = text[i + 2..]
                .find("*/")
                .map_or(bytes.len(), |n| i + 2 + n + 2);
        } else if c == b'"' {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
            if !visit(&text[start..i], start, &text[i..]) {
                return;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            if !visit(&text[start..i], start, &text[i..]) {
                return;
            }
        } else {
            i += 1;
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
        #[allow(dead_code)]
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
        #[allow(dead_code)]
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
}
