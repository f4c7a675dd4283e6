//! The API as annotations for the Lua Language Server: a `---@meta` file of `---@class`,
//! `---@field`, `---@param`, `---@return` and `---@overload` comments on empty stubs, which is
//! itself a Lua chunk that runs.

use super::model::{
    Api, BEHAVIOUR, BEHAVIOUR_DOC, Declared, GAME_DOC, ModChains, REQUIRE_DOC, Signature, Syntax,
    Ty, field_doc, hooks, made_by, one_paragraph, wrap,
};
use crate::battle::scripting::api::types::Class;

/// The script API as Lua Language Server annotations, with the chains `declared` for one mod.
pub fn lua_ls(declared: &ModChains) -> String {
    let api = Api::new(declared);
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
        if let Some(keys) = def.indexer {
            let t = Ty::of(keys, None, &[]).expect("keys are no chain part");
            out.push_str(&format!("---@field [{}] any\n", ty(&t)));
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

/// The Lua Language Server's syntax of types.
struct LuaLs;

impl Syntax for LuaLs {
    const INTEGER: &'static str = "integer";
    const ANY_FUNCTION: &'static str = "function";
    const OR: &'static str = "|";

    fn list(item: &Ty) -> String {
        format!("{}[]", grouped(item))
    }

    fn function(params: &[(&'static str, Ty)], results: &[Ty]) -> String {
        let params: Vec<String> = params
            .iter()
            .map(|(name, t)| format!("{name}: {}", grouped(t)))
            .collect();
        format!("fun({}){}", params.join(", "), self::results(results))
    }

    fn field(name: &str, t: &Ty) -> String {
        format!("{}: {}", optional_name(name, t), ty(bare(t)))
    }
}

fn ty(t: &Ty) -> String {
    super::model::ty::<LuaLs>(t)
}

fn grouped(t: &Ty) -> String {
    super::model::grouped::<LuaLs>(t)
}

/// `text` as `---` comment lines: the description of what follows.
fn doc(out: &mut String, text: &str) {
    for line in wrap(text, 96) {
        out.push_str(&format!("---{line}\n"));
    }
}
