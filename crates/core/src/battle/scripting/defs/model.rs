//! The model both definition formats are written from: the script API resolved for editors. A
//! function that takes a chain name is declared once per chain it fits, with its callback,
//! input and result typed for that chain; the tables scripts see are gathered from every
//! signature, each declared once; the hooks, the `game` object and `require` are described.

use crate::battle::chains::ChainKind;
use crate::battle::core::{Chains, Hook};
use crate::battle::scripting::api::types::{
    Access, ApiFunction, ChainPart, Class, LuaType, Record,
};
use crate::battle::scripting::api::{CLASSES, ClassDef, DEPRECATED, Deprecated};
use crate::battle::scripting::chains::ChainInfo;

/// The declared chains definitions are written with, and the mod they are for
/// (`declared.rs` gathers them from a mod's content).
pub struct ModChains {
    /// The chains, described for the definitions.
    pub(super) chains: Vec<ChainInfo>,
    /// The mod whose scripts the definitions are for: it fires its own events.
    pub(super) own: Option<&'static str>,
}

impl ModChains {
    /// No declared chains: definitions of the game's API alone.
    pub fn none() -> ModChains {
        ModChains {
            chains: Vec::new(),
            own: None,
        }
    }
}

/// A Lua type resolved for one signature (a chain's parts made concrete).
#[derive(Clone, Debug)]
pub(super) enum Ty {
    /// A type with nothing to resolve: a primitive (`nil`, `number`…), an object or a record.
    Plain(LuaType),
    /// Any function (the general form of a callback whose chain is not known).
    AnyFunction,
    /// One of these strings.
    Literals(Vec<&'static str>),
    Optional(Box<Ty>),
    List(Box<Ty>),
    Union(Vec<Ty>),
    /// Named parameters and results.
    Function(Vec<(&'static str, Ty)>, Vec<Ty>),
}

/// `nil`, resolved.
pub(super) const NIL: Ty = Ty::Plain(LuaType::Nil);

impl Ty {
    /// `ty` resolved for `chain` (the general form without one); `None` if it is a part the
    /// chain does not have.
    pub(super) fn of(
        ty: LuaType,
        chain: Option<&ChainInfo>,
        chains: &[&'static str],
    ) -> Option<Ty> {
        let of = |t: LuaType| Ty::of(t, chain, chains);
        Some(
            match ty {
                LuaType::Any
                | LuaType::Nil
                | LuaType::Boolean
                | LuaType::Number
                | LuaType::Integer
                | LuaType::String
                | LuaType::Class(_)
                | LuaType::Record(_)
                | LuaType::Args(_) => Ty::Plain(ty),
                LuaType::Literal(word) => Ty::Literals(vec![word]),
                LuaType::Words(words) => Ty::Literals(words()),
                LuaType::Optional(t) => Ty::Optional(Box::new(of(*t)?)),
                LuaType::List(t) => Ty::List(Box::new(of(*t)?)),
                LuaType::Union(ts) => Ty::Union(ts.iter().map(|t| of(*t)).collect::<Option<_>>()?),
                LuaType::Function(params, returns) => Ty::Function(
                    params
                        .iter()
                        .map(|t| Some(("value", of(*t)?)))
                        .collect::<Option<_>>()?,
                    returns.iter().map(|t| of(*t)).collect::<Option<_>>()?,
                ),
                LuaType::Chain => match chain {
                    Some(c) => Ty::Literals(vec![c.name]),
                    // No chain known to fit (`game:event` without declared events): any name,
                    // which the game checks when the script runs.
                    None if chains.is_empty() => Ty::Plain(LuaType::String),
                    None => Ty::Literals(chains.to_vec()),
                },
                LuaType::OfChain(part) => match chain {
                    Some(c) => Ty::part(part, c)?,
                    None => match part {
                        ChainPart::Modifier | ChainPart::Reaction => Ty::AnyFunction,
                        _ => Ty::Plain(LuaType::Any),
                    },
                },
            }
            .normal(),
        )
    }

    /// A part of `chain`'s signature, if the chain has it.
    pub(super) fn part(part: ChainPart, chain: &ChainInfo) -> Option<Ty> {
        if !part.fits(chain.kind) {
            return None;
        }
        let lua = |t: LuaType| Ty::of(t, None, &[]).expect("a chain's shapes have no parts");
        let payload = lua(chain.payload.lua_type());
        let value = chain.value.map(|v| lua(v.lua_type()));
        Some(match (part, chain.kind) {
            (ChainPart::Modifier, ChainKind::Query) => {
                let value = value.expect("a query has a value");
                Ty::Function(
                    vec![("value", value.clone()), ("input", payload)],
                    vec![Ty::Optional(Box::new(value))],
                )
            }
            (ChainPart::Modifier, _) => Ty::Function(
                vec![("payload", payload)],
                vec![Ty::Optional(Box::new(Ty::Plain(LuaType::Boolean)))],
            ),
            (ChainPart::Reaction, _) => Ty::Function(vec![("payload", payload)], vec![]),
            (ChainPart::QueryInput | ChainPart::CommandPayload | ChainPart::EventPayload, _) => {
                lua(chain.accepts)
            }
            (ChainPart::QueryValue, _) => value.expect("a query has a value"),
            (ChainPart::CommandResult, _) => Ty::Optional(Box::new(payload)),
        })
    }

    /// Unions flattened, with `nil` and options taken out to one option around the whole.
    pub(super) fn normal(self) -> Ty {
        match self {
            Ty::Union(members) => {
                let mut flat = Vec::new();
                let mut optional = false;
                let mut push = |t: Ty, flat: &mut Vec<Ty>| match t {
                    Ty::Plain(LuaType::Nil) => optional = true,
                    Ty::Optional(inner) => {
                        optional = true;
                        flat.push(*inner);
                    }
                    other => flat.push(other),
                };
                for member in members {
                    match member.normal() {
                        Ty::Union(inner) => inner.into_iter().for_each(|t| push(t, &mut flat)),
                        Ty::Optional(inner) => match *inner {
                            Ty::Union(inner) => {
                                push(NIL, &mut flat);
                                inner.into_iter().for_each(|t| push(t, &mut flat));
                            }
                            t => push(Ty::Optional(Box::new(t)), &mut flat),
                        },
                        t => push(t, &mut flat),
                    }
                }
                let union = match flat.len() {
                    1 => flat.pop().expect("one"),
                    _ => Ty::Union(flat),
                };
                if optional {
                    Ty::Optional(Box::new(union))
                } else {
                    union
                }
            }
            Ty::Optional(inner) => match inner.normal() {
                already @ Ty::Optional(_) => already,
                Ty::Plain(LuaType::Nil) => NIL,
                t => Ty::Optional(Box::new(t)),
            },
            other => other,
        }
    }

    /// Whether a parameter of this type may be left out.
    pub(super) fn omissible(&self) -> bool {
        matches!(
            self,
            Ty::Optional(_) | Ty::Plain(LuaType::Nil | LuaType::Any)
        )
    }

    /// Calls `f` on every record this type names, outside in.
    pub(super) fn each_record(&self, f: &mut impl FnMut(&'static Record)) {
        match self {
            Ty::Plain(LuaType::Record(record)) => f(record),
            Ty::Plain(LuaType::Args(record)) => {
                for field in record.fields {
                    if let Some(t) = Ty::of(field.input, None, &[]) {
                        t.each_record(f);
                    }
                }
            }
            Ty::Optional(t) | Ty::List(t) => t.each_record(f),
            Ty::Union(ts) => ts.iter().for_each(|t| t.each_record(f)),
            Ty::Function(params, returns) => {
                params.iter().for_each(|(_, t)| t.each_record(f));
                returns.iter().for_each(|t| t.each_record(f));
            }
            _ => {}
        }
    }
}

/// A function's parameters and results, resolved.
#[derive(Clone, Debug)]
pub(super) struct Signature {
    pub(super) params: Vec<(&'static str, Ty)>,
    pub(super) returns: Vec<Ty>,
}

/// A function as the definitions declare it.
#[derive(Clone, Debug)]
pub(super) struct Declared {
    pub(super) name: &'static str,
    pub(super) doc: String,
    pub(super) deprecated: bool,
    /// The general form: any of the chains it fits, their parts untyped. The only form of a
    /// function without a chain; the Lua Language Server's main signature of one with.
    pub(super) general: Signature,
    /// One signature per chain the function fits, for a function that takes a chain name.
    pub(super) overloads: Vec<Signature>,
}

impl Declared {
    /// `f` declared with `chains`; `game:event` only for the events of the mod `own`.
    pub(super) fn new(f: &ApiFunction, chains: &[ChainInfo], own: Option<&str>) -> Declared {
        let types = f
            .params
            .iter()
            .map(|p| p.ty)
            .chain(f.returns.iter().copied());
        let parts: Vec<ChainPart> = types
            .filter_map(|t| match t {
                LuaType::OfChain(part) => Some(part),
                _ => None,
            })
            .collect();
        let takes_chain = f.params.iter().any(|p| matches!(p.ty, LuaType::Chain));
        // A mod fires only the events it declares; the game fires its own.
        let fired = parts.contains(&ChainPart::EventPayload);
        let fitting: Vec<&ChainInfo> = chains
            .iter()
            .filter(|c| takes_chain && parts.iter().all(|p| p.fits(c.kind)))
            .filter(|c| !fired || (c.declared_by.is_some() && c.declared_by == own))
            .collect();
        let names: Vec<&'static str> = fitting.iter().map(|c| c.name).collect();
        let signature = |chain: Option<&ChainInfo>| Signature {
            params: f
                .params
                .iter()
                .map(|p| (p.name, Ty::of(p.ty, chain, &names).expect("the chain fits")))
                .collect(),
            returns: f
                .returns
                .iter()
                .map(|t| Ty::of(*t, chain, &names).expect("the chain fits"))
                .collect(),
        };
        Declared {
            name: f.name,
            doc: one_paragraph(f.doc),
            deprecated: false,
            general: signature(None),
            overloads: fitting.into_iter().map(|c| signature(Some(c))).collect(),
        }
    }

    /// The old name of a function, declared as its replacement.
    pub(super) fn deprecated(old: &Deprecated, replacement: &Declared) -> Declared {
        Declared {
            name: old.old,
            doc: format!(
                "Deprecated since version {}: use `game:{}`, which works the same.",
                old.since, old.replacement
            ),
            deprecated: true,
            ..replacement.clone()
        }
    }
}

/// An object of the API with its functions resolved.
pub(super) struct DeclaredClass {
    pub(super) def: &'static ClassDef,
    pub(super) functions: Vec<Declared>,
}

/// The whole API, resolved for the writers.
pub(super) struct Api {
    pub(super) classes: Vec<DeclaredClass>,
    /// Every record any signature, field or payload names, each once, in first-seen order.
    pub(super) records: Vec<&'static Record>,
}

impl Api {
    /// The API with the game's chains and `declared`.
    pub(super) fn new(declared: &ModChains) -> Api {
        let chains: Vec<ChainInfo> = Chains::ALL
            .iter()
            .chain(&declared.chains)
            .copied()
            .collect();
        let classes: Vec<DeclaredClass> = CLASSES
            .iter()
            .map(|def| {
                let mut functions: Vec<Declared> = def
                    .functions
                    .iter()
                    .map(|f| Declared::new(f, &chains, declared.own))
                    .collect();
                if def.class == Class::Game {
                    for old in DEPRECATED {
                        let replacement = functions
                            .iter()
                            .find(|f| f.name == old.replacement)
                            .expect("a deprecated name's replacement is a function of game");
                        functions.push(Declared::deprecated(old, replacement));
                    }
                }
                DeclaredClass { def, functions }
            })
            .collect();
        let mut types: Vec<Ty> = Vec::new();
        for class in &classes {
            for field in class.def.fields {
                types.extend(Ty::of(field.ty, None, &[]));
            }
            for f in &class.functions {
                for signature in std::iter::once(&f.general).chain(&f.overloads) {
                    types.extend(signature.params.iter().map(|(_, t)| t.clone()));
                    types.extend(signature.returns.iter().cloned());
                }
            }
        }
        for chain in &chains {
            types.extend(Ty::of(chain.payload.lua_type(), None, &[]));
            types.extend(chain.value.and_then(|v| Ty::of(v.lua_type(), None, &[])));
        }
        let mut records: Vec<&'static Record> = Vec::new();
        for t in &types {
            t.each_record(&mut |record| add_record(&mut records, record));
        }
        // Records named only in other records' fields.
        let mut i = 0;
        while i < records.len() {
            let fields = records[i].fields;
            for t in fields.iter().filter_map(|f| Ty::of(f.ty, None, &[])) {
                t.each_record(&mut |record| add_record(&mut records, record));
            }
            i += 1;
        }
        Api { classes, records }
    }
}

/// The names of the types the game's API declares (objects, tables, the hooks' table), which
/// the types of declared chains must not take.
pub(super) fn type_names() -> std::collections::BTreeSet<String> {
    let api = Api::new(&ModChains::none());
    let classes = api.classes.iter().map(|c| c.def.class.name());
    let records = api.records.iter().map(|r| r.name);
    classes
        .chain(records)
        .chain([BEHAVIOUR])
        .map(str::to_string)
        .collect()
}

/// How a format writes what differs between the formats; [`ty`] writes the rest.
pub(super) trait Syntax {
    /// A whole number.
    const INTEGER: &'static str;
    /// Any function.
    const ANY_FUNCTION: &'static str;
    /// Between the members of a union.
    const OR: &'static str;
    /// An array of `item`.
    fn list(item: &Ty) -> String;
    /// A function type.
    fn function(params: &[(&'static str, Ty)], results: &[Ty]) -> String;
    /// A field of an inline table type.
    fn field(name: &str, t: &Ty) -> String;
}

/// A type in the syntax of `S`.
pub(super) fn ty<S: Syntax>(t: &Ty) -> String {
    match t {
        Ty::Plain(plain) => match plain {
            LuaType::Nil => "nil".into(),
            LuaType::Boolean => "boolean".into(),
            LuaType::Number => "number".into(),
            LuaType::Integer => S::INTEGER.into(),
            LuaType::String => "string".into(),
            LuaType::Class(class) => class.name().into(),
            LuaType::Record(record) => record.name.into(),
            LuaType::Args(record) => {
                // What a script gives: the fields the game sets left out, entities as handles
                // or `self`.
                let fields: Vec<String> = record
                    .fields
                    .iter()
                    .filter(|f| f.access != Access::Result)
                    .map(|f| S::field(f.name, &Ty::of(f.input, None, &[]).expect("no chain part")))
                    .collect();
                format!("{{ {} }}", fields.join(", "))
            }
            _ => "any".into(),
        },
        Ty::AnyFunction => S::ANY_FUNCTION.into(),
        Ty::Literals(words) => words
            .iter()
            .map(|w| format!("\"{w}\""))
            .collect::<Vec<_>>()
            .join(S::OR),
        Ty::Optional(inner) => format!("{}?", grouped::<S>(inner)),
        Ty::List(item) => S::list(item),
        Ty::Union(members) => members
            .iter()
            .map(grouped::<S>)
            .collect::<Vec<_>>()
            .join(S::OR),
        Ty::Function(params, results) => S::function(params, results),
    }
}

/// A type that may sit next to `?`, `[]`, `|` or `,`: unions and functions in parentheses.
pub(super) fn grouped<S: Syntax>(t: &Ty) -> String {
    match t {
        Ty::Union(_) | Ty::Function(..) | Ty::AnyFunction => format!("({})", ty::<S>(t)),
        Ty::Literals(words) if words.len() > 1 => format!("({})", ty::<S>(t)),
        _ => ty::<S>(t),
    }
}

/// Adds `record` to `records` unless it is there.
pub(super) fn add_record(records: &mut Vec<&'static Record>, record: &'static Record) {
    if !records.iter().any(|r| r.name == record.name) {
        records.push(record);
    }
}

/// The hooks a behaviour script's table may have, as the record the definitions declare.
pub(super) fn hooks() -> Vec<(&'static str, &'static str, Ty)> {
    Hook::ALL
        .iter()
        .map(|hook| {
            let ty = Ty::Function(
                vec![
                    ("self", Ty::Plain(LuaType::Class(Class::Instance))),
                    ("game", Ty::Plain(LuaType::Class(Class::Game))),
                ],
                vec![],
            );
            (hook.name(), hook.doc(), ty)
        })
        .collect()
}

/// The name of the hooks' table type.
pub(super) const BEHAVIOUR: &str = "Behaviour";

/// What the hooks' table is.
pub(super) const BEHAVIOUR_DOC: &str = "What a behaviour script returns: the hooks it defines, each called \
    with the entity's `self` and `game`. Declare the table with this type to get `self` and \
    `game` typed in the hooks.";

/// What the global `game` is.
pub(super) const GAME_DOC: &str = "The battle: the same object every hook gets as `game`.";

/// What `require` does in a mod's scripts.
pub(super) const REQUIRE_DOC: &str = "Loads `scripts/<name>.lua` of this mod once per battle and gives what \
    it returns; `\"<mod id>:<name>\"` loads a script of a mod this one depends on.";

/// Where the definitions come from, for their first lines.
pub(super) fn made_by(flag: &str) -> String {
    format!(
        "The script API of Rampart {}, made by `rampart api {flag}` from the game's own \
         description of it: make it again after updating the game.",
        env!("CARGO_PKG_VERSION")
    )
}

/// A field's doc, with what a command modifier may do with it.
pub(super) fn field_doc(text: &str, access: Access) -> String {
    let text = one_paragraph(text);
    match access {
        Access::Read => text,
        Access::Write => format!("{text} A command modifier may change it."),
        Access::Result => format!("{text} Set by the game."),
    }
}

/// A doc comment's text as one paragraph (the lines of a `///` comment joined).
pub(super) fn one_paragraph(doc: &str) -> String {
    doc.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` cut into lines of at most `width` characters, at spaces.
pub(super) fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_taking_a_chain_is_declared_per_fitting_chain() {
        let api = Api::new(&ModChains::none());
        let game = api
            .classes
            .iter()
            .find(|c| c.def.class == Class::Game)
            .unwrap();
        let overloads = |name: &str| {
            let f = game.functions.iter().find(|f| f.name == name).unwrap();
            f.overloads.len()
        };
        let count = |kinds: &[ChainKind]| {
            Chains::ALL
                .iter()
                .filter(|c| kinds.contains(&c.kind))
                .count()
        };
        assert_eq!(
            overloads("modify"),
            count(&[ChainKind::Command, ChainKind::Query])
        );
        assert_eq!(
            overloads("react"),
            count(&[ChainKind::Command, ChainKind::Event])
        );
        assert_eq!(overloads("query"), count(&[ChainKind::Query]));
        assert_eq!(overloads("command"), count(&[ChainKind::Command]));
        assert_eq!(overloads("tick"), 0);
        // Scripts fire only their own mod's events, and no mod is named here.
        assert_eq!(overloads("event"), 0);
    }

    #[test]
    fn options_float_out_of_unions() {
        let t = Ty::Union(vec![
            Ty::Plain(LuaType::Number),
            Ty::Optional(Box::new(Ty::Union(vec![
                Ty::Plain(LuaType::String),
                Ty::Plain(LuaType::Boolean),
            ]))),
        ])
        .normal();
        let Ty::Optional(inner) = t else {
            panic!("{t:?}")
        };
        assert!(
            matches!(*inner, Ty::Union(ref m) if m.len() == 3),
            "{inner:?}"
        );
    }

    #[test]
    fn every_record_is_found_once() {
        let api = Api::new(&ModChains::none());
        let names: Vec<&str> = api.records.iter().map(|r| r.name).collect();
        for name in [
            "Damage",
            "StatOf",
            "Cost",
            "Resources",
            "Tile",
            "EffectInfo",
            "EffectOptions",
        ] {
            assert_eq!(
                names.iter().filter(|n| **n == name).count(),
                1,
                "{name} in {names:?}"
            );
        }
    }

    #[test]
    fn docs_wrap_at_spaces() {
        assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
        assert_eq!(wrap("", 5), Vec::<String>::new());
    }
}
