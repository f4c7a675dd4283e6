//! The editor definitions of `rampart api` hold to the game: every function a real VM has on
//! `game`, on entity handles and on `self`, and every field of every chain's payload, is in
//! both files, with its type; the Lua Language Server file runs as Lua and the Luau file has the
//! shape luau-lsp reads, with every type in it accepted by Luau's own parser. Definitions
//! written for a mod (`--mod`) hold the same for the chains it and its dependencies declare.

use std::collections::{BTreeMap, BTreeSet};
use std::process::{Command, Output};

use rampart_core::battle::scripting::api::{LuaType, Record};
use rampart_core::battle::scripting::defs::{self, ModChains};
use rampart_core::battle::{
    Battle, BattleConfig, ChainInfo, ChainKind, Chains, LuaShape, Position,
};
use rampart_core::rng::Seed;

use crate::common::{Mods, blueprint, documented_file};

/// The Luau definitions of the game's API.
fn luau() -> String {
    defs::luau(&ModChains::none())
}

/// The Lua Language Server annotations of the game's API.
fn lua_ls() -> String {
    defs::lua_ls(&ModChains::none())
}

/// The chains definitions are written with for the example mod `frost` (which declares an
/// event and a query) and for the documented mod `winter` (which depends on `frost`).
fn for_mods() -> Vec<(&'static str, ModChains)> {
    let mods = Mods::new();
    mods.file("winter/mod.ron", &documented_file("winter/mod.ron"));
    mods.file(
        "winter/scripts/winter.lua",
        &documented_file("winter/scripts/winter.lua"),
    );
    let content = mods.load_after_repo_with(&["frost"]);
    ["frost", "winter"]
        .into_iter()
        .map(|id| (id, ModChains::of(&content, id)))
        .collect()
}

/// Every file to hold to the shape of its format: for the game's API alone, and for each mod of
/// [`for_mods`].
fn every_luau() -> Vec<String> {
    let mods = for_mods().into_iter().map(|(_, m)| defs::luau(&m));
    std::iter::once(luau()).chain(mods).collect()
}

/// As [`every_luau`], for the Lua Language Server.
fn every_lua_ls() -> Vec<String> {
    let mods = for_mods().into_iter().map(|(_, m)| defs::lua_ls(&m));
    std::iter::once(lua_ls()).chain(mods).collect()
}

/// A building whose script lists, when placed, the functions the VM has on `game`, on `self`
/// and on entity handles (reached as the real metatables reach them), and the fields of a
/// handle and of `self`, and raises them as its error so the test can read them.
const LISTER: &str = r#"
local function functions(t, into, prefix)
    for name, value in t do
        if type(value) == "function" then
            table.insert(into, prefix .. name)
        end
    end
end

return {
    on_placed = function(self, game)
        local found = {}
        functions(game, found, "game.")
        local methods = getmetatable(self).__index
        functions(methods, found, "instance.")
        local shared = getmetatable(methods).__index
        functions(shared, found, "entity.")
        for name in shared do
            assert(type(self.entity[name]) == "function", "a handle lacks " .. name)
        end
        if type(self.entity.id) == "number" then
            table.insert(found, "handle.id")
        end
        if self.entity ~= nil then
            table.insert(found, "instance.entity")
        end
        if type(require) == "function" then
            table.insert(found, "global.require")
        end
        table.sort(found)
        error("found: " .. table.concat(found, " "))
    end,
}
"#;

/// What the VM has, as `"<table>.<name>"`.
fn live_api() -> BTreeSet<String> {
    let mods = Mods::new();
    mods.manifest("t", &[]);
    mods.file("t/scripts/lister.lua", LISTER);
    mods.file(
        "t/blueprints/lister.ron",
        &blueprint("Lister", "Special", "script: \"scripts/lister.lua\","),
    );
    let content = mods.load_clean();
    let mut battle = Battle::new(content, BattleConfig::new(Seed(1)));
    battle.place("t:lister", Position::default(), 0).unwrap();
    let errors: Vec<String> = battle.script_errors().map(|e| e.message.clone()).collect();
    let [listed] = errors.as_slice() else {
        panic!("expected the lister's one error, got {errors:#?}");
    };
    let names: BTreeSet<String> = listed
        .strip_prefix("found: ")
        .unwrap_or_else(|| panic!("{listed}"))
        .split(' ')
        .map(str::to_string)
        .collect();
    assert!(
        names.contains("game.modify")
            && names.contains("entity.hp")
            && names.contains("instance.react"),
        "the lister found too little: {names:?}"
    );
    names
}

/// The members (fields and functions) of each `declare class` of the Luau definitions.
fn luau_classes(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut classes = BTreeMap::new();
    let mut current: Option<(String, BTreeSet<String>)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("declare class ") {
            let name = rest.split_whitespace().next().unwrap().to_string();
            current = Some((name, BTreeSet::new()));
        } else if line == "end" {
            let (name, members) = current.take().expect("an `end` closes a class");
            classes.insert(name, members);
        } else if let Some((_, members)) = current.as_mut() {
            let line = line.trim_start();
            let member = if let Some(f) = line.strip_prefix("function ") {
                f.split('(').next()
            } else if line.starts_with("---") || line.starts_with('&') || line.starts_with('[') {
                None
            } else {
                line.split(':').next()
            };
            members.extend(member.map(str::to_string));
        }
    }
    assert!(current.is_none(), "a class is not closed");
    classes
}

/// The members of each class of the Lua Language Server file: its `---@field`s and the
/// functions defined on its stub.
fn lua_ls_classes(text: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut classes: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut current = String::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("---@class ") {
            current = rest.split([':', ' ']).next().unwrap().to_string();
            classes.entry(current.clone()).or_default();
        } else if let Some(rest) = line.strip_prefix("---@field ")
            && !rest.starts_with('[')
        {
            let name = rest
                .split_whitespace()
                .next()
                .unwrap()
                .trim_end_matches('?');
            classes.get_mut(&current).unwrap().insert(name.to_string());
        } else if let Some(rest) = line.strip_prefix("function ")
            && let Some((class, method)) = rest.split('(').next().unwrap().split_once(':')
        {
            classes
                .entry(class.to_string())
                .or_default()
                .insert(method.to_string());
        }
    }
    classes
}

/// The class each table of the lister is declared as.
fn class_of(table: &str) -> &'static str {
    match table {
        "game" => "Game",
        "entity" => "EntityBase",
        "instance" => "Instance",
        "handle" => "Entity",
        other => panic!("no class for `{other}`"),
    }
}

#[test]
fn every_function_the_vm_has_is_declared_in_both_files() {
    let live = live_api();
    let expected = |classes: &BTreeMap<String, BTreeSet<String>>, what: &str| {
        for class in ["Game", "EntityBase", "Instance", "Entity"] {
            let runtime: BTreeSet<String> = live
                .iter()
                .filter_map(|n| n.split_once('.'))
                .filter(|(table, _)| *table != "global" && class_of(table) == class)
                .map(|(_, name)| name.to_string())
                .collect();
            assert_eq!(
                classes.get(class),
                Some(&runtime),
                "{what}: the members of `{class}` are not those the VM has"
            );
        }
    };
    expected(&luau_classes(&luau()), "Luau definitions");
    expected(
        &lua_ls_classes(&lua_ls()),
        "Lua Language Server annotations",
    );
    assert!(live.contains("global.require"));
    assert!(luau().contains("\ndeclare function require(name: string): any\n"));
    assert!(lua_ls().contains("\nfunction require(name) end\n"));
    assert!(luau().contains("\ndeclare game: Game\n"));
    assert!(lua_ls().contains("\n---@type Game\ngame = Game\n"));
}

/// The words that must appear in a field's type as a format writes it: the names of numbers,
/// strings, objects and tables, the first of a set of words.
fn type_words(ty: LuaType, integer: &'static str, out: &mut Vec<String>) {
    match ty {
        LuaType::Number => out.push("number".into()),
        LuaType::Integer => out.push(integer.into()),
        LuaType::String => out.push("string".into()),
        LuaType::Boolean => out.push("boolean".into()),
        LuaType::Class(class) => out.push(class.name().into()),
        LuaType::Record(record) => out.push(record.name.into()),
        LuaType::Words(words) => out.push(format!("\"{}\"", words()[0])),
        LuaType::Optional(t) | LuaType::List(t) => type_words(*t, integer, out),
        LuaType::Union(ts) => ts.iter().for_each(|t| type_words(*t, integer, out)),
        other => panic!("a payload field of type {other:?}"),
    }
}

/// The line of `field` in the declaration of `record` in `text`, found by `start` (the line
/// that opens the declaration) and `field_line` (how a field's line starts).
fn field_line<'a>(text: &'a str, start: &str, record: &Record, field_line: &str) -> &'a str {
    let at = text
        .find(start)
        .unwrap_or_else(|| panic!("`{}` is not declared: no `{start}`", record.name));
    text[at..]
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty() && *l != "}")
        .find(|l| l.trim_start().starts_with(field_line))
        .unwrap_or_else(|| panic!("`{}` has no line `{field_line}`", record.name))
}

#[test]
fn every_payload_field_of_every_chain_is_in_both_files_with_its_type() {
    let fields = payload_fields_declared(&luau(), &lua_ls(), Chains::ALL, None);
    assert!(fields >= 20, "only {fields} payload fields");
}

#[test]
fn definitions_for_a_mod_type_the_chains_it_and_its_dependencies_declare() {
    for (id, declared) in for_mods() {
        let chains: Vec<ChainInfo> = Chains::ALL
            .iter()
            .chain(declared.chains())
            .copied()
            .collect();
        let names: Vec<&str> = declared.chains().iter().map(|c| c.name).collect();
        assert_eq!(names, ["frost:shattered", "frost:chill_power"], "for {id}");
        let (luau, lua_ls) = (defs::luau(&declared), defs::lua_ls(&declared));
        let fields = payload_fields_declared(&luau, &lua_ls, &chains, Some(id));
        let game_fields = payload_fields_declared(&luau, &lua_ls, Chains::ALL, Some(id));
        assert_eq!(fields, game_fields + 4, "for {id}: frost's 3 and 1 fields");
        assert!(luau.contains("export type FrostShattered = {"), "{luau}");
        assert!(luau.contains("    spire: Entity,\n"), "{luau}");
        assert!(
            luau.contains(
                "(self: Game, chain: \"frost:chill_power\", input: ({ spire: Entity | Instance } | Entity | Instance)) -> number"
            ),
            "a query about an entity may be asked for the entity: {luau}"
        );
    }
}

/// Checks that every payload field of `chains` is in both files with its type, and that every
/// function taking a chain's name is declared for each chain it fits; `own` is the mod the
/// files are for, which alone fires its events. Gives the number of fields checked.
fn payload_fields_declared(
    luau: &str,
    lua_ls: &str,
    chains: &[ChainInfo],
    own: Option<&str>,
) -> usize {
    let mut fields = 0;
    for chain in chains {
        for shape in std::iter::once(chain.payload).chain(chain.value) {
            let LuaShape::Table(record) = shape else {
                continue;
            };
            for field in record.fields {
                fields += 1;
                let luau_line = field_line(
                    luau,
                    &format!("export type {} = {{", record.name),
                    record,
                    &format!("{}: ", field.name),
                );
                let lua_ls_line = field_line(
                    lua_ls,
                    &format!("---@class {}\n", record.name),
                    record,
                    &format!("---@field {}", field.name),
                );
                let (mut in_luau, mut in_lua_ls) = (Vec::new(), Vec::new());
                type_words(field.ty, "number", &mut in_luau);
                type_words(field.ty, "integer", &mut in_lua_ls);
                for word in in_luau {
                    assert!(luau_line.contains(&word), "{}: {luau_line}", chain.name);
                }
                for word in in_lua_ls {
                    assert!(lua_ls_line.contains(&word), "{}: {lua_ls_line}", chain.name);
                }
            }
        }
        // Declared once for the chain in each function that takes its kind's name: `modify`
        // (commands, queries) and `react` (commands, events) on `game` and on `self`,
        // `command` on `game`, `query` on `game` and on entities, and `event` on `game` for
        // the events of the mod the files are for.
        let form = format!("chain: \"{}\"", chain.name);
        let fired = chain.declared_by.is_some() && chain.declared_by == own;
        let expected = match chain.kind {
            ChainKind::Command => 5,
            ChainKind::Query => 4,
            ChainKind::Event if fired => 3,
            ChainKind::Event => 2,
        };
        assert_eq!(
            luau.matches(&form).count(),
            expected,
            "{} in Luau",
            chain.name
        );
        assert_eq!(
            lua_ls.matches(&form).count(),
            expected,
            "{} in LuaLS",
            chain.name
        );
    }
    fields
}

#[test]
fn the_lua_ls_file_runs_as_lua_and_its_annotations_are_well_formed() {
    for text in every_lua_ls() {
        lua_ls_is_well_formed(&text);
    }
}

fn lua_ls_is_well_formed(text: &str) {
    let lua = mlua::Lua::new();
    lua.load(text)
        .set_name("=rampart.d.lua")
        .exec()
        .unwrap_or_else(|e| panic!("the file does not run: {e}"));
    let game: mlua::Table = lua.globals().get("game").unwrap();
    let classes = lua_ls_classes(text);
    for name in &classes["Game"] {
        let f: mlua::Value = game.get(name.as_str()).unwrap();
        assert!(f.is_function(), "game.{name} is no function stub");
    }
    let tags = [
        "meta",
        "class",
        "field",
        "param",
        "return",
        "overload",
        "type",
        "deprecated",
    ];
    for (n, line) in text.lines().enumerate() {
        let n = n + 1;
        if let Some(annotation) = line.strip_prefix("---@") {
            let tag = annotation.split_whitespace().next().unwrap_or("");
            assert!(tags.contains(&tag), "line {n}: unknown tag: {line}");
            assert!(balanced(annotation), "line {n}: unbalanced: {line}");
        } else if !(line.is_empty() || line.starts_with("---")) {
            let stub = line.starts_with("local ") && line.ends_with(" = {}")
                || line.starts_with("function ") && line.ends_with(") end")
                || line == "game = Game";
            assert!(stub, "line {n} is neither an annotation nor a stub: {line}");
        }
    }
}

/// Whether brackets pair up and quotes close, outside quotes.
fn balanced(text: &str) -> bool {
    let mut open = Vec::new();
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '"' => quoted = !quoted,
            _ if quoted => {}
            '(' | '[' | '{' => open.push(c),
            ')' | ']' | '}' => {
                let want = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                if open.pop() != Some(want) {
                    return false;
                }
            }
            _ => {}
        }
    }
    open.is_empty() && !quoted
}

/// The types Luau has without a declaration.
const BUILT_IN: [&str; 5] = ["any", "nil", "boolean", "number", "string"];

/// The names of types an expression uses: identifiers that are not names of parameters or
/// fields (followed by `:`), outside string literals.
fn type_names(expr: &str) -> Vec<String> {
    let mut unquoted = String::new();
    for (i, part) in expr.split('"').enumerate() {
        if i % 2 == 0 {
            unquoted.push_str(part);
        }
        unquoted.push(' ');
    }
    let mut names = Vec::new();
    let chars: Vec<char> = unquoted.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_alphabetic() || chars[i] == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let next = chars[i..].iter().find(|c| !c.is_whitespace());
            if next != Some(&':') && word != "self" {
                names.push(word);
            }
        } else {
            i += 1;
        }
    }
    names
}

#[test]
fn the_luau_file_has_the_shape_luau_lsp_reads_and_luau_parses_its_types() {
    for text in every_luau() {
        luau_is_well_formed(&text);
    }
}

fn luau_is_well_formed(text: &str) {
    let mut declared: BTreeSet<String> = BUILT_IN.iter().map(|s| s.to_string()).collect();
    // Every type expression, and the `export type` blocks, which are Luau code as they stand.
    let mut types: Vec<String> = Vec::new();
    let mut code = String::new();
    let mut lines = text.lines().enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        let n = n + 1;
        if line.is_empty() || line.starts_with("--- ") {
            continue;
        }
        if let Some(rest) = line.strip_prefix("declare class ") {
            let mut words = rest.split_whitespace();
            let name = words.next().unwrap();
            match (words.next(), words.next(), words.next()) {
                (None, None, None) => {}
                (Some("extends"), Some(base), None) => {
                    assert!(
                        declared.contains(base),
                        "line {n}: `{base}` is not declared before"
                    );
                }
                _ => panic!("line {n}: {line}"),
            }
            declared.insert(name.to_string());
            for (m, member) in lines.by_ref() {
                let m = m + 1;
                let member = member.trim_start();
                if member == "end" {
                    break;
                }
                if member.starts_with("--- ")
                    || (member.starts_with('[') && member.ends_with("]: any"))
                {
                    continue;
                }
                if let Some(method) = member.strip_prefix("function ") {
                    let (_, signature) = method.split_once('(').unwrap();
                    let (params, result) = signature
                        .rsplit_once("): ")
                        .unwrap_or_else(|| panic!("line {m}: no result type: {member}"));
                    let params = params
                        .strip_prefix("self")
                        .unwrap_or_else(|| panic!("line {m}: the first parameter is not `self`"));
                    types.push(format!("(self: any{params}) -> {result}"));
                } else if let Some(more) = member.strip_prefix("& ") {
                    let last = types.last_mut().expect("an overload follows a property");
                    last.push_str(" & ");
                    last.push_str(more);
                } else if let Some((_, ty)) = member.split_once(": ") {
                    types.push(ty.to_string());
                } else {
                    panic!("line {m}: not a member: {member}");
                }
            }
        } else if let Some(rest) = line.strip_prefix("export type ") {
            let name = rest
                .strip_suffix(" = {")
                .unwrap_or_else(|| panic!("line {n}: {line}"));
            declared.insert(name.to_string());
            code.push_str(line);
            code.push('\n');
            for (_, field) in lines.by_ref() {
                code.push_str(field);
                code.push('\n');
                if field == "}" {
                    break;
                }
                let field = field.trim_start();
                if let Some((_, ty)) = field.split_once(": ")
                    && !field.starts_with("--- ")
                {
                    types.push(ty.trim_end_matches(',').to_string());
                }
            }
        } else if let Some(rest) = line.strip_prefix("declare function ") {
            let (_, signature) = rest.split_once('(').unwrap();
            let (params, result) = signature.rsplit_once("): ").unwrap();
            types.push(format!("({params}) -> {result}"));
        } else if let Some(rest) = line.strip_prefix("declare ") {
            let (_, ty) = rest
                .split_once(": ")
                .unwrap_or_else(|| panic!("line {n}: {line}"));
            types.push(ty.to_string());
        } else {
            panic!("line {n} is no declaration: {line}");
        }
    }
    for (i, ty) in types.iter().enumerate() {
        code.push_str(&format!("type T{i} = {ty}\n"));
        for name in type_names(ty) {
            assert!(
                declared.contains(&name),
                "`{name}` is not declared (in `{ty}`)"
            );
        }
    }
    if let Err((line, message)) = rampart_lua::compile(&code) {
        let at = line.and_then(|l| code.lines().nth(l - 1)).unwrap_or("");
        panic!("Luau does not parse the types: {message} at line {line:?}: {at}");
    }
    assert!(types.len() > 60, "only {} types found", types.len());
}

fn rampart(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rampart"))
        .args(args)
        .current_dir(crate::common::repo())
        .env_remove("RUST_LOG")
        .output()
        .expect("the rampart binary runs")
}

#[test]
fn rampart_api_writes_both_files_or_one_to_standard_output() {
    let dir = tempfile::tempdir().unwrap();
    let (luau_file, lua_ls_file) = (
        dir.path().join("rampart.d.luau"),
        dir.path().join("rampart.d.lua"),
    );
    let out = rampart(&[
        "api",
        "--luau-defs",
        luau_file.to_str().unwrap(),
        "--lua-ls",
        lua_ls_file.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("wrote Luau definitions to"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&luau_file).unwrap(), luau());
    assert_eq!(std::fs::read_to_string(&lua_ls_file).unwrap(), lua_ls());

    let out = rampart(&["api", "--lua-ls", "-"]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), lua_ls());

    for refused in [
        vec!["api"],
        vec!["api", "--luau-defs", "-", "--lua-ls", "-"],
        vec![
            "api",
            "--lua-ls",
            dir.path().join("no/such/folder/x.lua").to_str().unwrap(),
        ],
    ] {
        let out = rampart(&refused.iter().map(|s| &**s).collect::<Vec<_>>());
        assert_eq!(out.status.code(), Some(2), "{refused:?}");
    }
}

#[test]
fn rampart_api_for_a_mod_writes_the_definitions_for_that_mod() {
    let out = rampart(&["api", "--mod", "mods/example-frost", "--luau-defs", "-"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (_, frost) = for_mods().remove(0);
    let written = String::from_utf8_lossy(&out.stdout);
    assert!(written == defs::luau(&frost), "{written}");
    let out = rampart(&["api", "--mod", "no/such/mod", "--luau-defs", "-"]);
    assert_eq!(out.status.code(), Some(2));
}
