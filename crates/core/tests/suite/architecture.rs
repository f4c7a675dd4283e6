//! `docs/code-map.md` holds: every source file of every crate is named in it, and the imports
//! between the core's top-level modules and the other crates are exactly the ones its table
//! *Layers* allows.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::repo;

fn map() -> String {
    std::fs::read_to_string(repo().join("docs/code-map.md")).unwrap()
}

/// Every `.rs` file below a crate's `src/`, as `crates/<crate>/src/…` with `/` separators,
/// sorted.
fn sources() -> Vec<String> {
    let root = repo();
    let mut files: Vec<String> = walkdir::WalkDir::new(root.join("crates"))
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.path().extension().is_some_and(|x| x == "rs"))
        .filter(|e| e.path().components().any(|c| c.as_os_str() == "src"))
        .map(|e| {
            let rel = e.path().strip_prefix(&root).unwrap();
            rel.components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect();
    files.sort();
    files
}

/// The paragraphs of the code map, keyed by the heading that names their folder or files.
fn sections(doc: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    for line in doc.lines() {
        if let Some(heading) = line.strip_prefix("### ") {
            out.push((heading.to_string(), String::new()));
        } else if line.starts_with("## ") {
            out.push((String::new(), String::new()));
        } else if let Some((_, text)) = out.last_mut() {
            text.push_str(line);
            text.push('\n');
        }
    }
    out
}

/// Whether `file` is named: in the section whose heading names its folder
/// (`crates/core/src/battle/`), as its path inside that folder (`` `scripting/lend.rs` ``), or
/// anywhere by its full path.
fn named(file: &str, doc: &str, sections: &[(String, String)]) -> bool {
    if doc.contains(&format!("`{file}`")) {
        return true;
    }
    let parts: Vec<&str> = file.split('/').collect();
    (2..parts.len()).any(|depth| {
        let folder = format!("`{}/`", parts[..depth].join("/"));
        let inside = format!("`{}`", parts[depth..].join("/"));
        sections
            .iter()
            .any(|(heading, text)| heading.contains(&folder) && text.contains(&inside))
    })
}

#[test]
fn every_source_file_is_named_in_the_code_map() {
    let doc = map();
    let sections = sections(&doc);
    let missing: Vec<String> = sources()
        .into_iter()
        .filter(|f| !named(f, &doc, &sections))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/code-map.md does not name {missing:?}"
    );
}

/// The crate a source file belongs to (`crates/client/src/ui.rs` → `client`) and its path inside
/// the crate's `src/`.
fn crate_of(file: &str) -> (&str, &str) {
    let rest = file.strip_prefix("crates/").unwrap();
    rest.split_once("/src/").unwrap()
}

/// The layer a source file belongs to: inside the core crate its top-level module
/// (`crates/core/src/battle/chains.rs` → `battle`), elsewhere its crate (`client`, `lua`; the
/// binary's is `cli`). The core's `lib.rs`, which declares the modules, is `lib` and takes no
/// part in the layers.
fn module_of(file: &str) -> String {
    match crate_of(file) {
        ("core", path) => path
            .split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string(),
        ("rampart", _) => "cli".to_string(),
        (krate, _) => krate.to_string(),
    }
}

/// Code without comments, string and character literals, and `#[cfg(test)]` items.
fn code(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let chars: Vec<char> = line.chars().collect();
        let mut in_string = false;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if in_string {
                match c {
                    '\\' => i += 1,
                    '"' => in_string = false,
                    _ => {}
                }
            } else if c == '"' {
                in_string = true;
            } else if c == '/' && chars.get(i + 1) == Some(&'/') {
                break;
            } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
                i += 2;
            } else if c == '\'' && chars.get(i + 1) == Some(&'\\') {
                // An escaped character literal: skip to its closing quote.
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
            } else {
                out.push(c);
            }
            i += 1;
        }
        out.push('\n');
    }
    without_test_items(&out)
}

/// `code` without the items marked `#[cfg(test)]` (a test module's imports are not the
/// module's).
fn without_test_items(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let item = &rest[at..];
        let Some(open) = item.find(['{', ';']) else {
            return out;
        };
        if item.as_bytes()[open] == b';' {
            rest = &item[open + 1..];
            continue;
        }
        let mut depth = 0;
        let mut end = item.len();
        for (i, c) in item[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// The layers a file's code names: the core's modules as `crate::m` inside the core (or
/// `$crate::m` in its macros) and `rampart_core::m` elsewhere — in use declarations, grouped
/// ones (`rampart_core::{a, b::c}`) and paths alike — and the other crates by name
/// (`rampart_lua`: `lua`). `in_core` says whether the file is the core's.
fn imports(code: &str, in_core: bool) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let prefixes: &[&str] = if in_core {
        &["crate::"]
    } else {
        &["rampart_core::"]
    };
    for &prefix in prefixes {
        for (at, _) in code.match_indices(prefix) {
            if !starts_a_path(code, at) {
                continue;
            }
            let rest = &code[at + prefix.len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for item in group.split(',') {
                    let name = item.trim().split("::").next().unwrap_or("");
                    if !name.is_empty() {
                        found.insert(name.to_string());
                    }
                }
            } else {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    found.insert(name);
                }
            }
        }
    }
    for krate in ["lua", "sound", "autopilot", "balance", "client"] {
        let name = format!("rampart_{krate}");
        if code.match_indices(&name).any(|(at, _)| {
            starts_a_path(code, at)
                && !code[at + name.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        }) {
            found.insert(krate.to_string());
        }
    }
    found
}

/// Whether a name found at `at` starts a path rather than ending another name.
fn starts_a_path(code: &str, at: usize) -> bool {
    let before = code[..at].chars().next_back().unwrap_or(' ');
    !(before.is_alphanumeric() || before == '_')
}

/// The top-level modules of the layers (every one but the crate root).
fn modules() -> BTreeSet<String> {
    sources()
        .iter()
        .map(|f| module_of(f))
        .filter(|m| m != "lib")
        .collect()
}

/// The edges between top-level modules that the code has, with one file for each.
fn edges() -> BTreeMap<(String, String), String> {
    let modules = modules();
    let mut edges = BTreeMap::new();
    for file in sources() {
        let from = module_of(&file);
        if from == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(repo().join(&file)).unwrap();
        for to in imports(&code(&text), crate_of(&file).0 == "core") {
            if to != from && modules.contains(&to) {
                edges.entry((from.clone(), to)).or_insert(file.clone());
            }
        }
    }
    edges
}

/// The table *Layers*: module → the modules it may use.
fn allowed(doc: &str) -> BTreeMap<String, BTreeSet<String>> {
    let start = doc
        .find("## Layers")
        .expect("docs/code-map.md has ## Layers");
    doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|row| {
            let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
            let uses = cells[1]
                .split(',')
                .map(|m| m.trim().trim_matches('`').to_string())
                .filter(|m| !m.is_empty() && m != "—")
                .collect();
            (cells[0].trim_matches('`').to_string(), uses)
        })
        .collect()
}

#[test]
fn imports_between_modules_are_exactly_the_layers() {
    let doc = map();
    let allowed = allowed(&doc);
    for m in &modules() {
        assert!(
            allowed.contains_key(m),
            "the table Layers in docs/code-map.md has no row for `{m}`"
        );
    }
    let edges = edges();
    let forbidden: Vec<String> = edges
        .iter()
        .filter(|((from, to), _)| !allowed[from].contains(to))
        .map(|((from, to), file)| format!("{from} → {to} ({file})"))
        .collect();
    assert!(
        forbidden.is_empty(),
        "imports the layers of docs/code-map.md do not allow: {forbidden:?}"
    );
    let unused: Vec<String> = allowed
        .iter()
        .flat_map(|(from, uses)| uses.iter().map(move |to| (from.clone(), to.clone())))
        .filter(|edge| !edges.contains_key(edge))
        .map(|(from, to)| format!("{from} → {to}"))
        .collect();
    assert!(
        unused.is_empty(),
        "the layers allow imports no code makes any more (remove them from the table): {unused:?}"
    );
}

/// Every arrow of the table points down: no module may use one listed after it.
#[test]
fn the_layers_have_no_backward_arrow() {
    let doc = map();
    let start = doc.find("## Layers").unwrap();
    let order: Vec<String> = doc[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|row| {
            row.trim_matches('|')
                .split('|')
                .next()
                .unwrap()
                .trim()
                .trim_matches('`')
                .to_string()
        })
        .collect();
    for (from, uses) in allowed(&doc) {
        let at = order.iter().position(|m| *m == from).unwrap();
        for to in uses {
            let there = order.iter().position(|m| *m == to);
            assert!(
                there.is_some_and(|t| t < at),
                "`{from}` may use `{to}`, which is not a layer below it"
            );
        }
    }
}

/// The reader sees every form an import takes, and nothing in comments or strings.
#[test]
fn imports_are_read_in_every_form() {
    let core = "use crate::{rng::Seed, worldgen};\n\
                use crate::battle::Battle; // crate::client\n\
                let x = $crate::chain::Owner::Engine;\n\
                tracing::info!(target: \"rampart::script\", \"x\");\n\
                use rampart_lua as lua;\n\
                fn f() -> notcrate::modding::X { let c = '{'; }\n\
                #[cfg(test)]\n\
                mod tests { use crate::mapgen::ModSet; fn g() { let b = '}'; } }\n\
                use crate::waves::Wave;\n";
    let found: Vec<String> = imports(&code(core), true).into_iter().collect();
    assert_eq!(
        found,
        ["battle", "chain", "lua", "rng", "waves", "worldgen"]
    );
    let client = "use crate::ui::Action;\n\
                  use rampart_core::{content::ContentDb, run::Run};\n\
                  let p = rampart_autopilot::Autopilot::new();\n\
                  use rampart_core::level::replay::Replay;\n\
                  use my_rampart_balance::X; // rampart_client\n";
    let found: Vec<String> = imports(&code(client), false).into_iter().collect();
    assert_eq!(found, ["autopilot", "content", "level", "run"]);
}

/// The `disallowed-methods` list of a crate's clippy.toml.
fn disallowed_methods(krate: &str) -> String {
    let path = repo().join("crates").join(krate).join("clippy.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let at = text.find("disallowed-methods").expect("a list of methods");
    text[at..].to_string()
}

/// The autopilot's choices are game state too: its clippy.toml forbids the same float methods
/// as the core's (`docs/determinism.md`, *The same bits on every system*).
#[test]
fn the_autopilot_forbids_the_cores_float_methods() {
    assert_eq!(disallowed_methods("autopilot"), disallowed_methods("core"));
}

/// Sounds are the same samples on every system: the sound crate's clippy.toml forbids the
/// core's float methods, all but glam's, which it does not use.
#[test]
fn the_sound_crate_forbids_the_cores_float_methods() {
    let without_glam = |list: String| {
        list.lines()
            .filter(|line| !line.contains("glam::"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        without_glam(disallowed_methods("sound")),
        without_glam(disallowed_methods("core"))
    );
}
