//! The modding docs hold: their Lua examples compile, and the chain tables of `lua-api.md`
//! list every chain once, in the table of its kind, with its payload's fields (names, order,
//! which a modifier may change ✎, which the game sets), the entity it is about, and a query's
//! input and value as scripts see them; and its table of checked values gives every number of a
//! chain that has a domain, with that domain; its table of deprecated names is the game's.

use std::collections::BTreeMap;
use std::path::Path;

use rampart_core::battle::{Access, ChainInfo, ChainKind, Chains, DEPRECATED, Domain, LuaShape};

fn docs() -> Vec<(String, String)> {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("docs/modding");
    let mut pages: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    pages.sort();
    pages
}

fn lua_api() -> String {
    docs()
        .into_iter()
        .find(|(p, _)| p.ends_with("lua-api.md"))
        .unwrap()
        .1
}

#[test]
fn every_lua_example_compiles() {
    let mut count = 0;
    for (page, text) in docs() {
        for block in text.split("```lua").skip(1) {
            let code = block.split("```").next().unwrap();
            if let Err((line, message)) = rampart_lua::compile(code) {
                panic!("{page}: example does not compile (line {line:?}: {message}):\n{code}");
            }
            count += 1;
        }
    }
    assert!(count >= 15, "only {count} examples found");
}

/// The words in backticks of a table cell, in order.
fn ticked(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// A cell split at its top-level commas (not those inside parentheses, braces or `<…>`).
fn items(cell: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in cell.char_indices() {
        match c {
            '(' | '{' | '<' => depth += 1,
            ')' | '}' | '>' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cell[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(cell[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

/// The fields a payload cell lists: name and access, from `` `name` ✎ `` and
/// `` `name` (set by the game) ``; `(empty)` lists none.
fn payload_fields(cell: &str) -> Vec<(String, Access)> {
    if cell.trim() == "(empty)" {
        return Vec::new();
    }
    items(cell)
        .into_iter()
        .map(|item| {
            let name = ticked(item).first().copied().unwrap_or("").to_string();
            let outside = item.split('(').next().unwrap_or("");
            let access = if item.contains("(set by the game)") {
                Access::Result
            } else if outside.contains('✎') {
                Access::Write
            } else {
                Access::Read
            };
            (name, access)
        })
        .collect()
}

/// The shape a query's input or value cell describes.
fn shape_of(cell: &str) -> Result<Shape, String> {
    let cell = cell.trim().trim_start_matches('`');
    if let Some(table) = cell.strip_prefix('{') {
        let keys = items(table.split('}').next().unwrap_or(""))
            .into_iter()
            .map(|kv| kv.split('=').next().unwrap_or("").trim().to_string())
            .collect();
        return Ok(Shape::Table(keys));
    }
    for (start, shape) in [
        ("a number", Shape::Number),
        ("a whole number", Shape::Integer),
        ("a list of strings", Shape::Strings),
        ("a string", Shape::String),
        ("a boolean", Shape::Boolean),
        ("an attacker (entity)", Shape::Entity),
        ("an entity", Shape::Entity),
        ("nil", Shape::Nil),
    ] {
        if cell.starts_with(start) {
            return Ok(shape);
        }
    }
    Err(format!("cannot tell what `{cell}` describes"))
}

#[derive(Clone, Debug, PartialEq)]
enum Shape {
    Table(Vec<String>),
    Entity,
    Number,
    Integer,
    String,
    Boolean,
    Strings,
    Nil,
}

impl From<LuaShape> for Shape {
    fn from(shape: LuaShape) -> Shape {
        match shape {
            LuaShape::Table(record) => {
                Shape::Table(record.fields.iter().map(|f| f.name.to_string()).collect())
            }
            LuaShape::Entity => Shape::Entity,
            LuaShape::Number => Shape::Number,
            LuaShape::Integer => Shape::Integer,
            LuaShape::String => Shape::String,
            LuaShape::Boolean => Shape::Boolean,
            LuaShape::Strings => Shape::Strings,
            LuaShape::Nil => Shape::Nil,
        }
    }
}

/// The rows of the table that follows `heading` in `text`, as cells (header and rule skipped).
fn table_after<'a>(text: &'a str, heading: &str) -> Vec<Vec<&'a str>> {
    let start = text
        .find(heading)
        .unwrap_or_else(|| panic!("lua-api.md has no `{heading}`"));
    text[start..]
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| l.trim_matches('|').split(" | ").map(str::trim).collect())
        .collect()
}

#[test]
fn every_chain_is_documented_with_its_payload() {
    let api = lua_api();
    let tables = [
        (ChainKind::Command, "Commands (modifiers may change"),
        (ChainKind::Query, "Queries (`input` → value)"),
        (ChainKind::Event, "Events:"),
    ];
    let chains: BTreeMap<&str, &ChainInfo> = Chains::ALL.iter().map(|c| (c.name, c)).collect();
    let mut documented: BTreeMap<&str, usize> = BTreeMap::new();
    for (kind, heading) in tables {
        let mut previous_input = None;
        for row in table_after(&api, heading) {
            assert_eq!(row.len(), 3, "{heading}: a row needs three cells: {row:?}");
            for name in ticked(row[0]) {
                *documented.entry(name).or_default() += 1;
                let Some(chain) = chains.get(name) else {
                    panic!("lua-api.md lists `{name}`, which is no chain");
                };
                assert_eq!(chain.kind, kind, "`{name}` is listed among the wrong kind");
                if kind == ChainKind::Query {
                    let input = match row[1] {
                        "as above" => previous_input.clone().expect("a row above"),
                        cell => shape_of(cell).unwrap(),
                    };
                    assert_eq!(input, Shape::from(chain.payload), "input of `{name}`");
                    let value = shape_of(row[2]).unwrap();
                    assert_eq!(
                        Some(value),
                        chain.value.map(Shape::from),
                        "value of `{name}`"
                    );
                    previous_input = Some(input);
                    continue;
                }
                let LuaShape::Table(record) = chain.payload else {
                    panic!("`{name}`'s payload is not a table");
                };
                let want: Vec<(String, Access)> = record
                    .fields
                    .iter()
                    .map(|f| (f.name.to_string(), f.access))
                    .collect();
                assert_eq!(payload_fields(row[1]), want, "payload of `{name}`");
                let about = ticked(row[2]).first().copied();
                assert_eq!(about, chain.about, "what `{name}` is about");
            }
        }
    }
    for chain in Chains::ALL {
        assert_eq!(
            documented.get(chain.name),
            Some(&1),
            "`{}` must be listed once in the chain tables of lua-api.md",
            chain.name
        );
    }
}

/// The check above reads the tables the way a modder does: a wrong mark is caught.
#[test]
fn the_payload_reader_sees_marks_and_results() {
    assert_eq!(
        payload_fields(
            "`target`, `amount` ✎, `types` ✎ (list of `\"a\"`, `\"b\"`), `dealt` (set by the game)"
        ),
        vec![
            ("target".to_string(), Access::Read),
            ("amount".to_string(), Access::Write),
            ("types".to_string(), Access::Write),
            ("dealt".to_string(), Access::Result),
        ]
    );
    assert_eq!(
        shape_of("`{ blueprint = \"mod:name\", entity = <x, or nil> }`"),
        Ok(Shape::Table(vec!["blueprint".into(), "entity".into()]))
    );
    assert!(shape_of("tiles per second").is_err());
}

/// The domain a "must be" cell of the table of checked values names.
fn domain_of(cell: &str) -> Domain {
    if cell.contains("> 0") {
        Domain::Positive
    } else if cell.contains("≥ 0") {
        Domain::NonNegative
    } else if cell.starts_with("any finite") {
        Domain::Finite
    } else {
        panic!("cannot tell the domain `{cell}` names")
    }
}

#[test]
fn every_checked_value_is_documented_with_its_domain() {
    let mut documented = Vec::new();
    for row in table_after(&lua_api(), "### Values are checked") {
        assert_eq!(row.len(), 3, "a row needs three cells: {row:?}");
        let numbers = match row[1] {
            "the value" => vec!["value"],
            cell => ticked(cell),
        };
        for chain in ticked(row[0]) {
            for number in &numbers {
                documented.push((chain.to_string(), number.to_string(), domain_of(row[2])));
            }
        }
    }
    let fields = |shape: Option<LuaShape>| match shape {
        Some(LuaShape::Table(record)) => record.fields.to_vec(),
        _ => Vec::new(),
    };
    let mut declared = Vec::new();
    for chain in Chains::ALL {
        let numbers = fields(Some(chain.payload))
            .into_iter()
            .chain(fields(chain.value))
            .filter_map(|f| Some((f.name, f.domain?)))
            .chain(chain.domain.map(|d| ("value", d)));
        for (number, domain) in numbers {
            declared.push((chain.name.to_string(), number.to_string(), domain));
        }
    }
    documented.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    declared.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    assert_eq!(documented, declared);
}

#[test]
fn every_deprecated_name_is_documented() {
    let text = lua_api();
    let rows: Vec<Vec<String>> = table_after(&text, "### Deprecated names")
        .into_iter()
        .map(|row| row.into_iter().map(str::to_string).collect())
        .collect();
    let expected: Vec<Vec<String>> = DEPRECATED
        .iter()
        .map(|d| {
            vec![
                format!("`game:{}`", d.old),
                format!("`game:{}`", d.replacement),
                d.since.to_string(),
            ]
        })
        .collect();
    assert_eq!(rows, expected);
}
