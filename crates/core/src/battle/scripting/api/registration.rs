//! Registering scripts' callbacks: `game:modify`, `game:react`, `self:modify`, `self:react` and
//! `game:after`, checked against the chain's kind, the priority and the mods that may use it,
//! then kept on the chain (or among the timers) until removed; and the handle scripts get
//! back, whose `:remove()` takes the callback off again.

use std::rc::Rc;

use mlua::{AnyUserData, Function, MetaMethod, UserData, UserDataMethods, Value};

use super::super::chains::{self, Use, chain_kind};
use super::super::lend::HostLink;
use super::super::register::{LuaCallback, LuaRegistration};
use super::handles::{entity_to_lua, tables};
use super::types::{Class, LuaType, LuaTyped, api_functions};
use crate::battle::chains::ChainKind;
use crate::battle::core::Battle;
use crate::battle::entity::EntityId;
use crate::battle::state::{Owner, Scope};
use crate::chain::RegistrationId;
use crate::content::ContentDb;
use rampart_lua::Sandbox;

impl HostLink {
    /// Registers a script callback on the chain `chain`. `self_entity` is set for `self:modify`
    /// and `self:react` (owned by and scoped to that entity); otherwise the registration is global
    /// and owned by whatever the script is running for.
    pub(crate) fn register(
        self: &Rc<Self>,
        kind: RegistrationKind,
        chain: &str,
        priority: i32,
        scope: Scope,
        self_entity: Option<EntityId>,
        function: Function,
    ) -> Result<Registration, String> {
        check_registration(
            &self.shared.content,
            self.mod_index,
            chain,
            kind,
            priority,
            self_entity.is_some(),
        )?;
        let owner = match self_entity {
            Some(e) => Owner::Entity(e),
            None => self.current_owner(),
        };
        let sandbox = self.sandbox()?;
        let lua = sandbox.lua();
        let subject = match scope {
            Scope::Subject(e) => match entity_to_lua(lua, e).map_err(|e| e.to_string())? {
                Value::UserData(handle) => Some((e, handle)),
                _ => None,
            },
            Scope::Global => None,
        };
        let reg = LuaRegistration {
            owner,
            scope,
            priority,
            callback: LuaCallback::new(self.clone(), sandbox, function, owner, subject),
        };
        let name = chain.to_string();
        self.shared.with_battle(|battle| match battle {
            // Under `rampart check` there is no battle: the registration is checked, not kept.
            None => Ok(Registration { kept: None }),
            Some(b) if b.in_query() => Err(format!(
                "a query modifier must not register on `{chain}`: it only computes a value"
            )),
            Some(b) => {
                self.shared.limits.register(self.mod_index)?;
                let id = match kind {
                    RegistrationKind::Modify => chains::lua_modify(b, chain, reg),
                    RegistrationKind::React => chains::lua_react(b, chain, reg),
                }?;
                Ok(Registration {
                    kept: Some(Kept::Chain(name, id)),
                })
            }
        })
    }

    /// Sets a timer: `function` is called once, `ticks` (at least 1) ticks from now, unless
    /// its owner — whatever the script is running for — is removed first.
    pub(crate) fn after(
        self: &Rc<Self>,
        ticks: u64,
        function: Function,
    ) -> Result<Registration, String> {
        let owner = self.current_owner();
        let sandbox = self.sandbox()?;
        let callback = LuaCallback::new(self.clone(), sandbox, function, owner, None);
        self.shared.with_battle(|battle| match battle {
            None => Ok(Registration { kept: None }),
            Some(b) if b.in_query() => {
                Err("a query modifier must not set timers: it only computes a value".to_string())
            }
            Some(b) => {
                self.shared.limits.register(self.mod_index)?;
                let due = b.tick() + ticks;
                let id = b.timers.add(
                    due,
                    owner,
                    Box::new(move |b: &mut Battle| {
                        callback.call::<(), 0>(b, |_, _| Ok([]));
                    }),
                );
                Ok(Registration {
                    kept: Some(Kept::Timer(id)),
                })
            }
        })
    }

    /// Who owns what the script registers now: the entity or mod it is running for.
    fn current_owner(&self) -> Owner {
        self.shared
            .owner()
            .unwrap_or(Owner::Mod(self.mod_index as u32))
    }

    fn sandbox(&self) -> Result<Rc<Sandbox>, String> {
        self.sandbox
            .borrow()
            .upgrade()
            .ok_or_else(|| "the mod's VM is gone".to_string())
    }
}

/// Modify or react.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RegistrationKind {
    Modify,
    React,
}

/// Checks a registration of a script of mod `user` against the chain's kind before anything is
/// built; a chain a mod declared must also be open to `user` ([`chains::usable`]).
fn check_registration(
    content: &ContentDb,
    user: usize,
    chain: &str,
    kind: RegistrationKind,
    priority: i32,
    self_scoped: bool,
) -> Result<(), String> {
    let Some(chain_kind) = chain_kind(chain) else {
        let how = match kind {
            RegistrationKind::Modify => Use::Modify,
            RegistrationKind::React => Use::React,
        };
        return chains::usable(content, user, chain, how, self_scoped).map(|_| ());
    };
    match (chain_kind, kind) {
        (ChainKind::Event, RegistrationKind::Modify) => {
            Err(format!("`{chain}` is an event: use react, not modify"))
        }
        (ChainKind::Query, RegistrationKind::React) => Err(format!(
            "`{chain}` is a query: queries have no reactions, use modify"
        )),
        (ChainKind::Command, RegistrationKind::Modify) if priority >= 0 => Err(format!(
            "command modifiers run before the handler (priority 0), so their priority must be negative, not {priority}"
        )),
        (ChainKind::Command, RegistrationKind::React) if priority <= 0 => Err(format!(
            "command reactions run after the handler (priority 0), so their priority must be positive, not {priority}"
        )),
        _ => Ok(()),
    }
}

/// A registration handle returned to scripts; `:remove()` takes the callback off its chain or
/// cancels the timer.
pub(crate) struct Registration {
    /// What was registered; `None` where nothing is kept (under `rampart check`).
    kept: Option<Kept>,
}

/// Where a registration is kept.
enum Kept {
    Chain(String, RegistrationId),
    Timer(u64),
}

impl UserData for Registration {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        // Its functions come from the API's description, as the entity functions do.
        methods.add_meta_function(
            MetaMethod::Index,
            |lua, (_, key): (AnyUserData, String)| -> mlua::Result<Value> {
                tables(lua)?.registration_api.raw_get(key)
            },
        );
    }
}

impl LuaTyped for Registration {
    const TYPE: LuaType = LuaType::Class(Class::Registration);
}

api_functions! {
    /// The functions of registrations.
    pub(crate) const REGISTRATION = [
        /// Takes the callback off its chain, or cancels the timer; gives whether it was still
        /// there.
        fn remove(lua, this: AnyUserData) -> bool {
            let this = this.borrow::<Registration>()?;
            let Some(kept) = &this.kept else {
                return Ok(false);
            };
            let link = HostLink::get(lua)?;
            link.shared.with_battle(|b| match b {
                Some(b) if b.in_query() => Err(mlua::Error::runtime(
                    "a query modifier must not remove registrations: it only computes a value",
                )),
                Some(b) => Ok(match kept {
                    Kept::Chain(chain, id) => b.chains.remove(chain, *id),
                    Kept::Timer(id) => b.timers.remove(*id),
                }),
                None => Ok(false),
            })
        }
    ];
}
