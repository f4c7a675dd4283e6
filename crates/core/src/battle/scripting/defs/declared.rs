//! The chains a mod may use besides the game's — its own and those of the mods it depends on
//! directly, as their `chains.ron` declare them —, described as the game's chains are, so that
//! definitions written for that mod (`rampart api --mod DIR`) type them too.

use std::collections::BTreeSet;

use super::super::api::types::{Access, Class, ENTITY_LIKE, LuaType, Record, TableField};
use super::super::payload::{Domain, LuaShape};
use super::model::{ModChains, type_names};
use crate::battle::chains::ChainKind;
use crate::battle::mod_chains::intern;
use crate::battle::scripting::chains::ChainInfo;
use crate::content::ContentDb;
use crate::content::chains::{ChainDecl, DeclaredKind, FieldType};

impl ModChains {
    /// The chains the scripts of `mod_id` may use: those it declares and those its direct
    /// dependencies declare, in load order.
    ///
    /// The descriptions the definitions are written from are `'static`, as the game's own
    /// chains are compiled in; those of declared chains are made here and kept for the rest of
    /// the process (their texts interned), which writes definitions once.
    pub fn of(content: &ContentDb, mod_id: &str) -> ModChains {
        let Some(user) = content.mods.iter().find(|m| m.id == mod_id) else {
            return ModChains::none();
        };
        let mut taken = type_names();
        let chains = content
            .chains
            .iter()
            .filter(|d| d.mod_id == user.id || user.dependencies.contains(&d.mod_id))
            .map(|d| describe(d, &mut taken))
            .collect();
        ModChains {
            chains,
            own: Some(intern(mod_id)),
        }
    }

    /// The chains, as the definitions describe them.
    pub fn chains(&self) -> &[ChainInfo] {
        &self.chains
    }
}

/// A declared chain as the definitions see a chain.
fn describe(decl: &ChainDecl, taken: &mut BTreeSet<String>) -> ChainInfo {
    let fields: Vec<TableField> = decl
        .fields
        .iter()
        .map(|f| {
            let (ty, input) = lua_types(f.ty);
            TableField {
                name: intern(&f.name),
                doc: intern(&f.doc),
                ty: optional(ty, f.optional),
                input: optional(input, f.optional),
                access: Access::Read,
                domain: matches!(f.ty, FieldType::Number | FieldType::Integer)
                    .then_some(Domain::Finite),
            }
        })
        .collect();
    let record: &'static Record = Box::leak(Box::new(Record {
        name: intern(&type_name(&decl.name, taken)),
        doc: intern(&decl.doc),
        fields: Box::leak(fields.into_boxed_slice()),
    }));
    let payload = LuaShape::Table(record);
    let (kind, value, domain) = match &decl.kind {
        DeclaredKind::Event => (ChainKind::Event, None, None),
        DeclaredKind::Query { value, .. } => {
            let (shape, domain) = match value {
                FieldType::Integer => (LuaShape::Integer, Some(Domain::Finite)),
                FieldType::String => (LuaShape::String, None),
                FieldType::Boolean => (LuaShape::Boolean, None),
                _ => (LuaShape::Number, Some(Domain::Finite)),
            };
            (ChainKind::Query, Some(shape), domain)
        }
    };
    let accepts = match (kind, &decl.about) {
        // A query about an entity may be asked for the entity alone.
        (ChainKind::Query, Some(_)) => {
            LuaType::Union(Box::leak(Box::new([payload.input_type(), ENTITY_LIKE])))
        }
        _ => payload.input_type(),
    };
    ChainInfo {
        name: intern(&decl.name),
        doc: intern(&decl.doc),
        kind,
        payload,
        accepts,
        value,
        domain,
        about: decl.about.as_deref().map(intern),
        declared_by: Some(intern(&decl.mod_id)),
    }
}

/// A field's Lua type as scripts read it and as they may give it.
fn lua_types(ty: FieldType) -> (LuaType, LuaType) {
    match ty {
        FieldType::Number => (LuaType::Number, LuaType::Number),
        FieldType::Integer => (LuaType::Integer, LuaType::Integer),
        FieldType::String => (LuaType::String, LuaType::String),
        FieldType::Boolean => (LuaType::Boolean, LuaType::Boolean),
        FieldType::Entity => (LuaType::Class(Class::Entity), ENTITY_LIKE),
        FieldType::Table => (LuaType::Any, LuaType::Any),
    }
}

/// `ty`, or `nil` when `optional`.
fn optional(ty: LuaType, optional: bool) -> LuaType {
    if !optional {
        return ty;
    }
    LuaType::Optional(Box::leak(Box::new(ty)))
}

/// The name of a declared chain's table type: `frost:chill_power` is `FrostChillPower`, with a
/// number after it if a type in `taken` has that name already; the name is added to `taken`.
fn type_name(chain: &str, taken: &mut BTreeSet<String>) -> String {
    let base: String = chain
        .split([':', '_', '-'])
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect();
    let mut name = base.clone();
    let mut n = 1;
    while taken.contains(&name) {
        n += 1;
        name = format!("{base}{n}");
    }
    taken.insert(name.clone());
    name
}
