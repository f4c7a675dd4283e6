//! Text from mods made safe to print: control characters escaped so that no escape sequence
//! reaches the terminal, and heap addresses hidden.

use std::borrow::Cow;
use std::fmt::Write;

/// Whether `c` is escaped by [`escape_controls`]: the C0 controls but newline and tab, DEL, and
/// the C1 controls.
fn is_escaped(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// `text` with every control character but newline and tab written as a Rust escape
/// (`\u{1b}`), so that printing it cannot move the cursor, change colours or the terminal's
/// title. Escaping twice changes nothing more.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_escaped) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_escaped(&mut out, c);
    }
    Cow::Owned(out)
}

/// Appends `c` to `out` as [`escape_controls`] writes it.
fn push_escaped(out: &mut String, c: char) {
    if is_escaped(c) {
        // Writing to a String cannot fail.
        let _ = write!(out, "{}", c.escape_unicode());
    } else {
        out.push(c);
    }
}

/// What a heap address is replaced with by [`hide_addresses`].
pub const ADDRESS: &str = "<address>";

/// The fewest hex digits after `0x` that [`hide_addresses`] takes for an address.
const ADDRESS_DIGITS: usize = 6;

/// `text` with every heap address (`0x` and six or more hex digits, as in `table: 0x55d0c2a1b3c8`)
/// replaced by [`ADDRESS`]: where memory happens to be differs between processes, and says
/// nothing to a modder.
pub fn hide_addresses(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut i = 0;
    while i + 1 < bytes.len() {
        let starts_word = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if starts_word && bytes[i] == b'0' && matches!(bytes[i + 1], b'x' | b'X') {
            let digits = bytes[i + 2..]
                .iter()
                .take_while(|b| b.is_ascii_hexdigit())
                .count();
            if digits >= ADDRESS_DIGITS {
                out.push_str(&text[copied..i]);
                out.push_str(ADDRESS);
                i += 2 + digits;
                copied = i;
                continue;
            }
        }
        i += 1;
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_but_newlines_and_tabs_kept() {
        assert_eq!(
            escape_controls("a\x1b[31mred\x07\r\u{9b}2J\n\tb"),
            "a\\u{1b}[31mred\\u{7}\\u{d}\\u{9b}2J\n\tb"
        );
        assert!(matches!(escape_controls("plain é"), Cow::Borrowed(_)));
        let once = escape_controls("\x1b").into_owned();
        assert_eq!(escape_controls(&once), once);
    }

    #[test]
    fn addresses_are_hidden() {
        assert_eq!(
            hide_addresses("table: 0x55d0c2a1b3c8 and userdata: 0X00007f00aa11"),
            "table: <address> and userdata: <address>"
        );
        // Short hex numbers, hex inside a word and the VM's own ids are left alone.
        for kept in [
            "0xff",
            "0x12345",
            "a0x1234567",
            "table: 0001a2c0",
            "0x",
            "x0",
        ] {
            assert_eq!(hide_addresses(kept), kept);
        }
    }
}
