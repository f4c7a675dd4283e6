//! The API as a Luau definitions file, the format luau-lsp reads with `--definitions`: the
//! objects as `declare class`, the tables as `export type`, the globals as `declare`.

use super::model::{
    Api, BEHAVIOUR, BEHAVIOUR_DOC, Declared, GAME_DOC, ModChains, REQUIRE_DOC, Signature, Syntax,
    Ty, field_doc, hooks, made_by, wrap,
};
use crate::battle::scripting::api::types::Class;

/// The script API as a Luau definitions file, with the chains `declared` for one mod.
pub fn luau(declared: &ModChains) -> String {
    let api = Api::new(declared);
    let mut out = String::new();
    doc(&mut out, "", &made_by("--luau-defs"));
    for class in &api.classes {
        out.push('\n');
        let def = class.def;
        doc(&mut out, "", def.doc);
        match def.extends {
            Some(base) => out.push_str(&format!(
                "declare class {} extends {}\n",
                def.class.name(),
                base.name()
            )),
            None => out.push_str(&format!("declare class {}\n", def.class.name())),
        }
        for field in def.fields {
            doc(&mut out, "    ", field.doc);
            let t = Ty::of(field.ty, None, &[]).expect("a field is no chain part");
            out.push_str(&format!("    {}: {}\n", field.name, ty(&t)));
        }
        for f in &class.functions {
            function(&mut out, def.class, f);
        }
        if let Some(keys) = def.indexer {
            let t = Ty::of(keys, None, &[]).expect("keys are no chain part");
            out.push_str(&format!("    [{}]: any\n", ty(&t)));
        }
        out.push_str("end\n");
    }
    for record in &api.records {
        out.push('\n');
        doc(&mut out, "", record.doc);
        out.push_str(&format!("export type {} = {{\n", record.name));
        for field in record.fields {
            doc(&mut out, "    ", &field_doc(field.doc, field.access));
            let t = Ty::of(field.ty, None, &[]).expect("a field is no chain part");
            out.push_str(&format!("    {}: {},\n", field.name, ty(&t)));
        }
        out.push_str("}\n");
    }
    out.push('\n');
    doc(&mut out, "", BEHAVIOUR_DOC);
    out.push_str(&format!("export type {BEHAVIOUR} = {{\n"));
    for (name, hook_doc, t) in hooks() {
        doc(&mut out, "    ", hook_doc);
        out.push_str(&format!("    {name}: {}?,\n", grouped(&t)));
    }
    out.push_str("    [string]: any,\n}\n\n");
    doc(&mut out, "", GAME_DOC);
    out.push_str(&format!("declare game: {}\n\n", Class::Game.name()));
    doc(&mut out, "", REQUIRE_DOC);
    out.push_str("declare function require(name: string): any\n");
    out
}

/// A function of a class: a method, or, when it is declared per chain, a property whose type
/// is the intersection of its overloads (the way luau-lsp's own definitions overload).
fn function(out: &mut String, class: Class, f: &Declared) {
    doc(out, "    ", &f.doc);
    if f.overloads.is_empty() {
        let params: Vec<String> = std::iter::once("self".to_string())
            .chain(f.general.params.iter().map(|(name, t)| param(name, t)))
            .collect();
        out.push_str(&format!(
            "    function {}({}): {}\n",
            f.name,
            params.join(", "),
            returns(&f.general.returns)
        ));
        return;
    }
    // No general form besides: it would take any payload or callback under any name and so
    // hide every mistake the forms per chain catch (a chain name in a variable needs `:: any`).
    let forms: Vec<String> = f
        .overloads
        .iter()
        .map(|s| format!("({})", method_type(class, s)))
        .collect();
    out.push_str(&format!("    {}: {}\n", f.name, forms.join("\n        & ")));
}

/// A signature as a function type whose first parameter is the object it is called on.
fn method_type(class: Class, signature: &Signature) -> String {
    let params: Vec<String> = std::iter::once(format!("self: {}", class.name()))
        .chain(signature.params.iter().map(|(name, t)| param(name, t)))
        .collect();
    format!("({}) -> {}", params.join(", "), returns(&signature.returns))
}

fn param(name: &str, t: &Ty) -> String {
    format!("{name}: {}", grouped(t))
}

/// Results: `()`, one type, or a list in parentheses.
fn returns(types: &[Ty]) -> String {
    match types {
        [] => "()".to_string(),
        [one] => grouped(one),
        many => format!("({})", many.iter().map(ty).collect::<Vec<_>>().join(", ")),
    }
}

/// Luau's syntax of types.
struct Luau;

impl Syntax for Luau {
    const INTEGER: &'static str = "number";
    const ANY_FUNCTION: &'static str = "(...any) -> ...any";
    const OR: &'static str = " | ";

    fn list(item: &Ty) -> String {
        format!("{{{}}}", ty(item))
    }

    fn function(params: &[(&'static str, Ty)], results: &[Ty]) -> String {
        let params: Vec<String> = params.iter().map(|(name, t)| param(name, t)).collect();
        format!("({}) -> {}", params.join(", "), returns(results))
    }

    fn field(name: &str, t: &Ty) -> String {
        format!("{name}: {}", ty(t))
    }
}

fn ty(t: &Ty) -> String {
    super::model::ty::<Luau>(t)
}

fn grouped(t: &Ty) -> String {
    super::model::grouped::<Luau>(t)
}

/// `text` as `---` comment lines, indented.
fn doc(out: &mut String, indent: &str, text: &str) {
    for line in wrap(text, 96) {
        out.push_str(&format!("{indent}--- {line}\n"));
    }
}
