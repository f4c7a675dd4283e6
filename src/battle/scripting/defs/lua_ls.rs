//! The API as annotations for the Lua Language Server: a `---@meta` file of `---@class`,
//! `---@field`, `---@param`, `---@return` and `---@overload` comments on empty stubs, which is
//! itself a Lua chunk that runs.

use super::{
    Api, BEHAVIOUR, BEHAVIOUR_DOC, Declared, GAME_DOC, REQUIRE_DOC, Signature, Ty, field_doc,
    hooks, made_by, one_paragraph, wrap,
};
use crate::battle::scripting::api::{Access, Class, Record};

/// The script API as Lua Language Server annotations.
pub fn lua_ls() -> String {
    let api = Api::new();
    let mut out = String::from("---@meta rampart\n\n");
    doc(&mut out, &made_by("--lua-ls"));
    for class in &api.classes {
        out.push('\n');
        let def = class.def;
        let name = def.class.name();
        doc(&mut out, def.doc);
        match def.extends {
            Some(base) => out.push_str(&format!("---@class {name}: {}\n", base.name())),
            None => out.push_str(&format!("---@class {name}\n")),
        }
        for field in def.fields {
            let t = Ty::of(field.ty, None, &[]).expect("a field is no chain part");
            out.push_str(&format!(
                "---@field {} {} {}\n",
                field.name,
                ty(&t),
                one_paragraph(field.doc)
            ));
        }
        if def.open {
            out.push_str("---@field [string] any\n");
        }
        out.push_str(&format!("local {name} = {{}}\n"));
        for f in &class.functions {
            out.push('\n');
            function(&mut out, def.class, f);
        }
    }
    for record in &api.records {
        out.push('\n');
        doc(&mut out, record.doc);
        out.push_str(&format!("---@class {}\n", record.name));
        for field in record.fields {
            let t = Ty::of(field.ty, None, &[]).expect("a field is no chain part");
            out.push_str(&format!(
                "---@field {} {} {}\n",
                optional_name(field.name, &t),
                ty(bare(&t)),
                field_doc(field.doc, field.access)
            ));
        }
    }
    out.push('\n');
    doc(&mut out, BEHAVIOUR_DOC);
    out.push_str(&format!("---@class {BEHAVIOUR}\n"));
    for (name, hook_doc, t) in hooks() {
        out.push_str(&format!("---@field {name}? {} {hook_doc}\n", ty(&t)));
    }
    out.push_str("---@field [string] any\n\n");
    doc(&mut out, GAME_DOC);
    out.push_str(&format!("---@type {0}\ngame = {0}\n\n", Class::Game.name()));
    doc(&mut out, REQUIRE_DOC);
    out.push_str("---@param name string\n---@return any\nfunction require(name) end\n");
    out
}

/// A function of a class as an annotated stub; one `---@overload` per chain it fits.
fn function(out: &mut String, class: Class, f: &Declared) {
    doc(out, &f.doc);
    if f.deprecated {
        out.push_str("---@deprecated\n");
    }
    for (name, t) in &f.general.params {
        out.push_str(&format!("---@param {}\n", param(name, t)));
    }
    for t in &f.general.returns {
        out.push_str(&format!("---@return {}\n", ty(t)));
    }
    for overload in &f.overloads {
        out.push_str(&format!("---@overload {}\n", method_type(class, overload)));
    }
    let names: Vec<&str> = f.general.params.iter().map(|(name, _)| *name).collect();
    out.push_str(&format!(
        "function {}:{}({}) end\n",
        class.name(),
        f.name,
        names.join(", ")
    ));
}

/// A signature as a function type whose first parameter is the object it is called on.
fn method_type(class: Class, signature: &Signature) -> String {
    let params: Vec<String> = std::iter::once(format!("self: {}", class.name()))
        .chain(
            signature
                .params
                .iter()
                .map(|(name, t)| format!("{}: {}", optional_name(name, t), grouped(bare(t)))),
        )
        .collect();
    format!("fun({}){}", params.join(", "), results(&signature.returns))
}

/// `name type` of a `---@param`, with `name?` for one that may be left out.
fn param(name: &str, t: &Ty) -> String {
    format!("{} {}", optional_name(name, t), ty(bare(t)))
}

/// The name, marked `?` when the parameter may be left out.
fn optional_name(name: &str, t: &Ty) -> String {
    if t.omissible() {
        format!("{name}?")
    } else {
        name.to_string()
    }
}

/// The type without its outer option (said by the `?` of the name instead).
fn bare(t: &Ty) -> &Ty {
    match t {
        Ty::Optional(inner) => inner,
        other => other,
    }
}

/// `: A, B` after a function type; nothing for no results.
fn results(types: &[Ty]) -> String {
    if types.is_empty() {
        return String::new();
    }
    format!(
        ": {}",
        types.iter().map(grouped).collect::<Vec<_>>().join(", ")
    )
}

/// A type in the Lua Language Server's syntax.
fn ty(t: &Ty) -> String {
    match t {
        Ty::Any => "any".into(),
        Ty::Nil => "nil".into(),
        Ty::Boolean => "boolean".into(),
        Ty::Number => "number".into(),
        Ty::Integer => "integer".into(),
        Ty::String => "string".into(),
        Ty::AnyFunction => "function".into(),
        Ty::Literals(words) => words
            .iter()
            .map(|w| format!("\"{w}\""))
            .collect::<Vec<_>>()
            .join("|"),
        Ty::Class(class) => class.name().into(),
        Ty::Record(record) => record.name.into(),
        Ty::Args(record) => args(record),
        Ty::Optional(inner) => format!("{}?", grouped(inner)),
        Ty::List(inner) => format!("{}[]", grouped(inner)),
        Ty::Union(members) => members.iter().map(grouped).collect::<Vec<_>>().join("|"),
        Ty::Function(params, returns) => format!(
            "fun({}){}",
            params
                .iter()
                .map(|(name, t)| format!("{name}: {}", grouped(t)))
                .collect::<Vec<_>>()
                .join(", "),
            results(returns)
        ),
    }
}

/// A type that may sit next to `?`, `[]`, `|` or `,`: unions, options and functions in
/// parentheses.
fn grouped(t: &Ty) -> String {
    match t {
        Ty::Union(_) | Ty::Function(..) => format!("({})", ty(t)),
        Ty::Literals(words) if words.len() > 1 => format!("({})", ty(t)),
        _ => ty(t),
    }
}

/// A record's fields as a script gives them: those the game sets left out, entities as handles
/// or `self`.
fn args(record: &Record) -> String {
    let fields: Vec<String> = record
        .fields
        .iter()
        .filter(|f| f.access != Access::Result)
        .map(|f| {
            let t = Ty::of(f.input, None, &[]).expect("a field is no chain part");
            format!("{}: {}", optional_name(f.name, &t), ty(bare(&t)))
        })
        .collect();
    format!("{{ {} }}", fields.join(", "))
}

/// `text` as `---` comment lines: the description of what follows.
fn doc(out: &mut String, text: &str) {
    for line in wrap(text, 96) {
        out.push_str(&format!("---{line}\n"));
    }
}
