//! Chains a mod declares for itself: its own events and queries, which the mods depending on it
//! react to and modify as they do the game's chains. One file per mod, `chains.ron` at its root,
//! lists them all (the mod's interface to other mods, read in one place); each is named
//! `<mod>:<name>` in the declaring mod's namespace, with the fields of its payload (an event's)
//! or input (a query's), each with a type, and for a query the type of its value and the base
//! value its modifiers start from. `docs/modding/lua-api.md` (*Events and queries of your own*)
//! documents the file; the battle runs the chains (`battle::mod_chains`).

use serde::Deserialize;

use super::load::{Loading, Source};
use crate::diagnostics::{Diagnostic, did_you_mean};
use crate::modding::ModInfo;
use crate::ron_file;

/// The file of a mod that declares its chains.
pub const FILE: &str = "chains.ron";

/// The largest magnitude any number of a chain may have, the game's chains and declared ones
/// alike. Sums of such numbers stay finite, and no quantity of the game comes near it.
pub const MAX_MAGNITUDE: f64 = 1e15;

/// What a field of a declared payload holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
pub enum FieldType {
    /// A finite number (at most 1e15 either way).
    Number,
    /// A whole number (at most 1e15 either way).
    Integer,
    /// A text.
    String,
    /// `true` or `false`.
    Boolean,
    /// An entity: a handle, or `self` (which is sent as its handle).
    Entity,
    /// A table of numbers, texts, booleans, entities and tables of those, keyed by texts or whole
    /// numbers; only its size is checked.
    Table,
}

impl FieldType {
    /// The type in words, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            FieldType::Number => "a number",
            FieldType::Integer => "a whole number",
            FieldType::String => "a string",
            FieldType::Boolean => "a boolean",
            FieldType::Entity => "an entity (a handle or `self`)",
            FieldType::Table => "a table",
        }
    }
}

/// One field of a declared payload or query input.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldDecl {
    /// Its key in the table scripts see.
    pub name: String,
    /// What it holds.
    #[serde(rename = "type")]
    pub ty: FieldType,
    /// Whether it may be left out (`nil`).
    #[serde(default)]
    pub optional: bool,
    /// What it means, for the modders of other mods.
    #[serde(default)]
    pub doc: String,
}

/// A base value of a declared query, as `chains.ron` writes it: a number, a text in quotes, or
/// `true` / `false`.
#[derive(Clone, Debug, PartialEq)]
pub enum Scalar {
    /// A number.
    Number(f64),
    /// A text.
    Text(String),
    /// A boolean.
    Boolean(bool),
}

impl super::Scalar for Scalar {
    const EXPECTING: &'static str = "a number, a text in quotes, true or false";
    fn number(n: f64) -> Scalar {
        Scalar::Number(n)
    }
    fn text(t: String) -> Scalar {
        Scalar::Text(t)
    }
    fn boolean(b: bool) -> Option<Scalar> {
        Some(Scalar::Boolean(b))
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Scalar, D::Error> {
        deserializer.deserialize_any(super::ScalarVisitor(std::marker::PhantomData))
    }
}

/// What a declared chain is.
#[derive(Clone, Debug, PartialEq)]
pub enum DeclaredKind {
    /// An event: the declaring mod fires it, reactions see it.
    Event,
    /// A query: it starts from `base`, modifiers change it, and the answer is of type `value`.
    Query {
        /// The type of the value: a number, a whole number, a string or a boolean.
        value: FieldType,
        /// The value before any modifier.
        base: Scalar,
    },
}

/// A chain a mod declared, checked.
#[derive(Clone, Debug, PartialEq)]
pub struct ChainDecl {
    /// `<mod>:<name>`.
    pub name: String,
    /// The declaring mod.
    pub mod_id: String,
    /// What it is for.
    pub doc: String,
    /// Event or query.
    pub kind: DeclaredKind,
    /// The fields of an event's payload or a query's input, in the order declared.
    pub fields: Vec<FieldDecl>,
    /// The field naming the entity the chain is about (registrations of `self:react` and
    /// `self:modify` see only payloads about their entity); always of type `Entity`.
    pub about: Option<String>,
}

impl ChainDecl {
    /// The declared field called `name`.
    pub fn field(&self, name: &str) -> Option<&FieldDecl> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// `chains.ron` as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChainsFile {
    #[serde(default)]
    events: Vec<EventFile>,
    #[serde(default)]
    queries: Vec<QueryFile>,
}

/// An event as `chains.ron` declares it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EventFile {
    name: String,
    #[serde(default)]
    doc: String,
    #[serde(default)]
    about: Option<String>,
    #[serde(default)]
    fields: Vec<FieldDecl>,
}

/// A query as `chains.ron` declares it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QueryFile {
    name: String,
    #[serde(default)]
    doc: String,
    #[serde(default)]
    about: Option<String>,
    #[serde(default)]
    input: Vec<FieldDecl>,
    value: FieldType,
    base: Scalar,
}

/// Reads the `chains.ron` of mod `info`, if it has one, and adds the declarations without
/// errors to `into`; each error is reported where it is in the file, and only the declaration
/// at fault is left out.
pub(super) fn load(info: &ModInfo, into: &mut Vec<ChainDecl>, loading: &mut Loading) {
    let Some((parsed, source)) = loading.root_file::<ChainsFile>(info, FILE) else {
        return;
    };
    // Each declaration's problems are looked for after its name, where it is written: the
    // names of each list after the list's key and the name before it.
    let list_start = |key: &str| ron_file::find_field(&source.file, key).unwrap_or(0);
    let (events_at, queries_at) = (list_start("events"), list_start("queries"));
    let events = parsed.events.into_iter().map(|e| ChainDecl {
        name: e.name,
        mod_id: source.mod_id.clone(),
        doc: e.doc,
        kind: DeclaredKind::Event,
        fields: e.fields,
        about: e.about,
    });
    let queries = parsed.queries.into_iter().map(|q| ChainDecl {
        name: q.name,
        mod_id: source.mod_id.clone(),
        doc: q.doc,
        kind: DeclaredKind::Query {
            value: q.value,
            base: q.base,
        },
        fields: q.input,
        about: q.about,
    });
    for (decls, mut from) in [
        (events.collect::<Vec<_>>(), events_at),
        (queries.collect(), queries_at),
    ] {
        for decl in decls {
            let at = ron_file::find_string_from(&source.file, &decl.name, from).unwrap_or(from);
            from = at + 1;
            let problems = check(&decl, into, &source, at);
            if problems.is_empty() {
                into.push(decl);
            }
            loading.diagnostics.extend(problems);
        }
    }
}

/// The problems of one declaration, `at` the offset of its name in the file.
fn check(decl: &ChainDecl, declared: &[ChainDecl], source: &Source, at: usize) -> Vec<Diagnostic> {
    let file = &source.file;
    let mod_id = &source.mod_id;
    let mut problems = Vec::new();
    let mut error = |message: String, offset: usize, len: usize, help: Option<String>| {
        let d = Diagnostic::error(message)
            .at(file, offset, len)
            .for_mod(mod_id.clone());
        problems.push(match help {
            Some(help) => d.help(help),
            None => d,
        });
    };
    let quoted = |text: &str| text.len() + 2;
    match decl.name.split_once(':') {
        None => error(
            format!(
                "a declared chain is named `<mod>:<name>`, not `{}`",
                decl.name
            ),
            at,
            quoted(&decl.name),
            Some(format!(
                "write `{mod_id}:{}`: the game's own chains have plain names",
                decl.name
            )),
        ),
        Some((owner, _)) if owner != mod_id => error(
            format!(
                "`{}` is in the namespace of `{owner}`; a mod declares chains only in its own",
                decl.name
            ),
            at,
            quoted(&decl.name),
            Some(format!(
                "name it `{mod_id}:{}`",
                decl.name.split_once(':').map_or("", |(_, n)| n)
            )),
        ),
        Some((_, name)) if !super::load::valid_name(name) => error(
            format!("`{name}` cannot be the name of a chain"),
            at,
            quoted(&decl.name),
            Some("use lowercase letters, digits, `_` and `-`".into()),
        ),
        Some(_) => {}
    }
    if declared.iter().any(|d| d.name == decl.name) {
        error(
            format!("`{}` is declared twice", decl.name),
            at,
            quoted(&decl.name),
            None,
        );
    }
    let mut field_from = at;
    for (i, field) in decl.fields.iter().enumerate() {
        // Looked for after the field before it, so that a second field of a name is found.
        let field_at = ron_file::find_string_from(file, &field.name, field_from).unwrap_or(at);
        field_from = field_at + 1;
        if !is_lua_name(&field.name) {
            error(
                format!("`{}` cannot be the name of a field", field.name),
                field_at,
                quoted(&field.name),
                Some("scripts read fields as `payload.name`: use letters, digits and `_`, not starting with a digit".into()),
            );
        }
        if decl.fields[..i].iter().any(|f| f.name == field.name) {
            error(
                format!("`{}` has two fields called `{}`", decl.name, field.name),
                field_at,
                quoted(&field.name),
                None,
            );
        }
    }
    if let Some(about) = &decl.about {
        let about_at = ron_file::find_string_from(file, about, at).unwrap_or(at);
        match decl.field(about) {
            Some(f) if f.ty == FieldType::Entity => {}
            Some(f) => error(
                format!(
                    "`about` names the field the chain is about, which must be an `Entity`; `{about}` is a `{:?}`",
                    f.ty
                ),
                about_at,
                quoted(about),
                None,
            ),
            None => error(
                format!("`{}` has no field `{about}` to be about", decl.name),
                about_at,
                quoted(about),
                did_you_mean(about, decl.fields.iter().map(|f| f.name.as_str())),
            ),
        }
    }
    if let DeclaredKind::Query { value, base } = &decl.kind {
        let value_at = ron_file::find_field_from(file, "value", at).unwrap_or(at);
        let fits = match (value, base) {
            (FieldType::Number, Scalar::Number(n)) => n.abs() <= MAX_MAGNITUDE,
            (FieldType::Integer, Scalar::Number(n)) => n.abs() <= MAX_MAGNITUDE && n.fract() == 0.0,
            (FieldType::String, Scalar::Text(_)) | (FieldType::Boolean, Scalar::Boolean(_)) => true,
            _ => false,
        };
        if matches!(value, FieldType::Entity | FieldType::Table) {
            error(
                format!(
                    "a query's value is a `Number`, `Integer`, `String` or `Boolean`, not `{value:?}`"
                ),
                value_at,
                "value".len(),
                None,
            );
        } else if !fits {
            let base_at = ron_file::find_field_from(file, "base", at).unwrap_or(at);
            error(
                format!(
                    "the base value of `{}` must be {}, as its `value` says",
                    decl.name,
                    value.describe()
                ),
                base_at,
                "base".len(),
                None,
            );
        }
    }
    problems
}

/// Whether `name` can be read as `table.name` in Lua.
fn is_lua_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !LUA_KEYWORDS.contains(&name)
}

/// Words Lua reserves: `payload.end` would not parse.
const LUA_KEYWORDS: &[&str] = &[
    "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in", "local",
    "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
];
