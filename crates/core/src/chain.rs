//! Modifiable commands, modifiable queries and event reaction chains (thesis §3.12).
//!
//! A chain is an ordered list of callbacks that something in the game runs through:
//!
//! * a [`Command`] carries a payload through its *modifiers* (negative priority, ascending), which
//!   may change it or cancel it, then to its single *handler* (priority 0), which applies it, and
//!   finally to its *reactions* (positive priority), which see the final payload read-only;
//! * a [`Query`] computes a value: its *provider* gives the base value from the input and its
//!   modifiers adjust it in priority order. Queries cannot be cancelled and have no reactions;
//! * an [`Event`] only has reactions, run in priority order.
//!
//! Every registration has an [`Owner`] and a [`Scope`]. A scoped registration only runs when the
//! payload is about its subject (see [`Subject`]). Removing an owner removes everything it
//! registered, on every chain, so nothing outlives the thing that registered it.
//!
//! The chains are generic over the context `C` their callbacks receive (the battle) and the
//! subject key `S` (an entity id), so this module knows nothing about either. Callbacks get
//! `&mut C` while the chain itself lives inside `C`: a run therefore first takes a cheap snapshot
//! of the registrations (reference-counted lists), then calls them. Registrations added during a
//! run take part from the next run on; registrations removed during a run are skipped at once.
//! Equal priorities run in registration order.

use std::cell::Cell;
use std::fmt;
use std::hash::Hash;
use std::rc::Rc;

use rustc_hash::FxHashMap;

/// The order of a callback within its chain. Lower runs earlier.
pub type Priority = i32;

/// Who registered a callback. Removing the owner removes the callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Owner<S> {
    /// The game itself; lives as long as the chain.
    Engine,
    /// A mod, by its position in the load order (registrations made while a script loads).
    Mod(u32),
    /// An entity of the battle.
    Entity(S),
}

/// Which payloads a callback sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope<S> {
    /// Every payload that goes through the chain.
    Global,
    /// Only payloads whose [`Subject::subject`] is this key.
    Subject(S),
}

/// Tells which entity a payload (or query input) is about, for scoped registrations.
pub trait Subject<S> {
    /// The entity this payload concerns, if any.
    fn subject(&self) -> Option<S>;

    /// Whether this payload goes straight to the handler, past every modifier (damage that is
    /// HP loss, for example). Reactions still see it.
    fn bypasses_modifiers(&self) -> bool {
        false
    }
}

/// What a command modifier decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Pass the (possibly changed) payload on.
    Continue,
    /// Stop the command: no further modifiers, no handler, no reactions.
    Cancel,
}

/// The result of running a command.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome<T> {
    /// The handler applied this final payload and the reactions saw it.
    Applied(T),
    /// A modifier cancelled the command.
    Cancelled,
}

impl<T> Outcome<T> {
    /// The applied payload, if the command was not cancelled.
    pub fn applied(self) -> Option<T> {
        match self {
            Outcome::Applied(t) => Some(t),
            Outcome::Cancelled => None,
        }
    }

    /// Whether a modifier cancelled the command.
    pub fn is_cancelled(&self) -> bool {
        matches!(self, Outcome::Cancelled)
    }
}

/// A registration refused by a chain.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ChainError {
    /// Command modifiers run before the handler, so their priority must be negative.
    #[error("a command modifier needs a negative priority (the handler is 0), got {0}")]
    ModifierPriority(Priority),
    /// Command reactions run after the handler, so their priority must be positive.
    #[error("a command reaction needs a positive priority (the handler is 0), got {0}")]
    ReactionPriority(Priority),
    /// A command has exactly one handler.
    #[error("this command already has a handler; change it with a modifier instead")]
    HandlerTaken,
}

/// Identifies one registration within its chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RegistrationId(u64);

struct Entry<S, F: ?Sized> {
    id: u64,
    priority: Priority,
    owner: Owner<S>,
    scope: Scope<S>,
    alive: Cell<bool>,
    callback: Box<F>,
}

type List<S, F> = Rc<Vec<Rc<Entry<S, F>>>>;

/// The registrations of one kind (modifiers or reactions) of one chain, split into a global list
/// and one list per subject so a run only looks at what can apply to its payload. Chains hold
/// them; only this module makes and reads them.
pub struct Registry<S, F: ?Sized> {
    global: List<S, F>,
    scoped: FxHashMap<S, List<S, F>>,
    /// Where each owner's registrations are, for removal with the owner.
    by_owner: FxHashMap<Owner<S>, Vec<(Scope<S>, u64)>>,
    next_id: u64,
}

/// What a chain does with its registrations whatever their callbacks: remove and count them. A
/// [`Registry`] is one list of them; a command's modifiers and reactions are a pair of lists.
pub trait Registrations {
    /// The key scoped registrations are about (an entity id).
    type Subject;

    /// Removes one registration. Returns whether it existed.
    fn remove(&mut self, id: RegistrationId) -> bool;

    /// Removes everything `owner` registered here; returns how many registrations went.
    fn remove_owner(&mut self, owner: Owner<Self::Subject>) -> usize;

    /// Removes every registration scoped to `subject`.
    fn remove_subject(&mut self, subject: Self::Subject);

    /// The number of registrations.
    fn len(&self) -> usize;

    /// Whether there is no registration.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<S: Copy + Eq + Hash, F: ?Sized> Registry<S, F> {
    fn new() -> Self {
        Registry {
            global: Rc::new(Vec::new()),
            scoped: FxHashMap::default(),
            by_owner: FxHashMap::default(),
            next_id: 0,
        }
    }

    fn add(
        &mut self,
        owner: Owner<S>,
        scope: Scope<S>,
        priority: Priority,
        callback: Box<F>,
    ) -> RegistrationId {
        let id = self.next_id;
        self.next_id += 1;
        let entry = Rc::new(Entry {
            id,
            priority,
            owner,
            scope,
            alive: Cell::new(true),
            callback,
        });
        let list = match scope {
            Scope::Global => &mut self.global,
            Scope::Subject(s) => self.scoped.entry(s).or_default(),
        };
        let list = Rc::make_mut(list);
        // Ids only grow, so the entry goes after every entry of equal priority.
        let at = list.partition_point(|e| e.priority <= priority);
        list.insert(at, entry);
        self.by_owner.entry(owner).or_default().push((scope, id));
        RegistrationId(id)
    }

    fn remove_from_list(&mut self, scope: Scope<S>, id: u64) {
        let list = match scope {
            Scope::Global => &mut self.global,
            Scope::Subject(s) => match self.scoped.get_mut(&s) {
                Some(list) => list,
                None => return,
            },
        };
        if let Some(pos) = list.iter().position(|e| e.id == id) {
            list[pos].alive.set(false);
            Rc::make_mut(list).remove(pos);
        }
        if let Scope::Subject(s) = scope
            && self.scoped.get(&s).is_some_and(|l| l.is_empty())
        {
            self.scoped.remove(&s);
        }
    }

    fn snapshot(&self, subject: Option<S>) -> Snapshot<S, F> {
        Snapshot {
            global: self.global.clone(),
            scoped: subject.and_then(|s| self.scoped.get(&s).cloned()),
        }
    }
}

impl<S: Copy + Eq + Hash, F: ?Sized> Registrations for Registry<S, F> {
    type Subject = S;

    fn remove(&mut self, id: RegistrationId) -> bool {
        let found = self.by_owner.iter().find_map(|(owner, regs)| {
            regs.iter()
                .find(|(_, i)| *i == id.0)
                .map(|(scope, _)| (*owner, *scope))
        });
        let Some((owner, scope)) = found else {
            return false;
        };
        self.remove_from_list(scope, id.0);
        if let Some(regs) = self.by_owner.get_mut(&owner) {
            regs.retain(|(_, i)| *i != id.0);
            if regs.is_empty() {
                self.by_owner.remove(&owner);
            }
        }
        true
    }

    fn remove_owner(&mut self, owner: Owner<S>) -> usize {
        let Some(regs) = self.by_owner.remove(&owner) else {
            return 0;
        };
        for (scope, id) in &regs {
            self.remove_from_list(*scope, *id);
        }
        regs.len()
    }

    fn remove_subject(&mut self, subject: S) {
        let Some(list) = self.scoped.remove(&subject) else {
            return;
        };
        for entry in list.iter() {
            entry.alive.set(false);
            if let Some(regs) = self.by_owner.get_mut(&entry.owner) {
                regs.retain(|(_, i)| *i != entry.id);
                if regs.is_empty() {
                    self.by_owner.remove(&entry.owner);
                }
            }
        }
    }

    fn len(&self) -> usize {
        self.global.len() + self.scoped.values().map(|l| l.len()).sum::<usize>()
    }
}

/// The registrations that apply to one payload, frozen at the start of a run.
struct Snapshot<S, F: ?Sized> {
    global: List<S, F>,
    scoped: Option<List<S, F>>,
}

impl<S, F: ?Sized> Snapshot<S, F> {
    /// Visits the live entries of both lists merged by (priority, registration order) until `f`
    /// returns `false`.
    fn for_each(&self, mut f: impl FnMut(&Entry<S, F>) -> bool) {
        let empty: &[Rc<Entry<S, F>>] = &[];
        let (a, b) = (
            &self.global[..],
            self.scoped.as_deref().map_or(empty, |l| &l[..]),
        );
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let take_a = j >= b.len()
                || (i < a.len() && (a[i].priority, a[i].id) < (b[j].priority, b[j].id));
            let entry = if take_a {
                i += 1;
                &a[i - 1]
            } else {
                j += 1;
                &b[j - 1]
            };
            if entry.alive.get() && !f(entry) {
                return;
            }
        }
    }
}

/// A command modifier: may change the payload or cancel.
pub type ModifierFn<C, T> = dyn Fn(&mut C, &mut T) -> Flow;
/// The handler of a command: applies the payload (and may record what it did in it).
pub type HandlerFn<C, T> = dyn Fn(&mut C, &mut T);
/// A reaction: sees the final payload, cannot change it.
pub type ReactionFn<C, T> = dyn Fn(&mut C, &T);
/// The provider of a query: computes the base value from the input.
pub type ProviderFn<C, I, O> = dyn Fn(&mut C, &I) -> O;
/// A query modifier: adjusts the value, seeing the input.
pub type QueryModifierFn<C, I, O> = dyn Fn(&mut C, &I, &mut O);

/// One chain: its name, its registrations `R` and what its kind adds, `X`. The kinds are
/// [`Command`], [`Query`] and [`Event`]; what every kind does with its registrations is written
/// here, once.
pub struct Chain<R, X> {
    name: &'static str,
    registrations: R,
    /// A command's handler, a query's provider; nothing for an event.
    own: X,
}

impl<R: Registrations, X> Chain<R, X> {
    /// The chain's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Removes one registration (a modifier or a reaction). Returns whether it existed.
    pub fn remove(&mut self, id: RegistrationId) -> bool {
        self.registrations.remove(id)
    }

    /// Removes everything `owner` registered here; returns how many registrations went.
    pub fn remove_owner(&mut self, owner: Owner<R::Subject>) -> usize {
        self.registrations.remove_owner(owner)
    }

    /// Removes every registration scoped to `subject`.
    pub fn remove_subject(&mut self, subject: R::Subject) {
        self.registrations.remove_subject(subject);
    }

    /// The number of modifiers and reactions (a command's handler and a query's provider not
    /// counted).
    pub fn len(&self) -> usize {
        self.registrations.len()
    }

    /// Whether no modifier or reaction is registered.
    pub fn is_empty(&self) -> bool {
        self.registrations.is_empty()
    }
}

/// A command's modifiers and reactions: one chain's two lists, removed from and counted as one.
impl<A: Registrations, B: Registrations<Subject = A::Subject>> Registrations for (A, B)
where
    A::Subject: Copy,
{
    type Subject = A::Subject;

    fn remove(&mut self, id: RegistrationId) -> bool {
        self.0.remove(id) || self.1.remove(id)
    }

    fn remove_owner(&mut self, owner: Owner<Self::Subject>) -> usize {
        self.0.remove_owner(owner) + self.1.remove_owner(owner)
    }

    fn remove_subject(&mut self, subject: Self::Subject) {
        self.0.remove_subject(subject);
        self.1.remove_subject(subject);
    }

    fn len(&self) -> usize {
        self.0.len() + self.1.len()
    }
}

/// A modifiable command carrying payloads of type `T`: modifiers and reactions, and its handler.
pub type Command<C, S, T> = Chain<
    (Registry<S, ModifierFn<C, T>>, Registry<S, ReactionFn<C, T>>),
    Option<Rc<HandlerFn<C, T>>>,
>;

impl<C, S: Copy + Eq + Hash, T: Subject<S>> Command<C, S, T> {
    /// A command called `name`, with no handler and no registrations.
    pub fn new(name: &'static str) -> Self {
        Chain {
            name,
            registrations: (Registry::new(), Registry::new()),
            own: None,
        }
    }

    /// Installs the single handler. Fails if one is already installed.
    pub fn set_handler(
        &mut self,
        handler: impl Fn(&mut C, &mut T) + 'static,
    ) -> Result<(), ChainError> {
        if self.own.is_some() {
            return Err(ChainError::HandlerTaken);
        }
        self.own = Some(Rc::new(handler));
        Ok(())
    }

    /// Registers a modifier. `priority` must be negative.
    pub fn modify(
        &mut self,
        owner: Owner<S>,
        scope: Scope<S>,
        priority: Priority,
        f: Box<ModifierFn<C, T>>,
    ) -> Result<RegistrationId, ChainError> {
        if priority >= 0 {
            return Err(ChainError::ModifierPriority(priority));
        }
        let (modifiers, _) = &mut self.registrations;
        Ok(modifiers.add(owner, scope, priority, f))
    }

    /// Registers a reaction. `priority` must be positive.
    pub fn react(
        &mut self,
        owner: Owner<S>,
        scope: Scope<S>,
        priority: Priority,
        f: Box<ReactionFn<C, T>>,
    ) -> Result<RegistrationId, ChainError> {
        if priority <= 0 {
            return Err(ChainError::ReactionPriority(priority));
        }
        let (_, reactions) = &mut self.registrations;
        Ok(reactions.add(owner, scope, priority, f))
    }

    /// Runs `payload` through the command found in `ctx` by `chain`.
    pub fn run(ctx: &mut C, chain: impl Fn(&C) -> &Self, mut payload: T) -> Outcome<T> {
        let subject = payload.subject();
        let (modifiers, handler, reactions) = {
            let command = chain(ctx);
            let (modifiers, reactions) = &command.registrations;
            (
                modifiers.snapshot(subject),
                command.own.clone(),
                reactions.snapshot(subject),
            )
        };
        let mut cancelled = false;
        if !payload.bypasses_modifiers() {
            modifiers.for_each(|entry| {
                cancelled = (entry.callback)(ctx, &mut payload) == Flow::Cancel;
                !cancelled
            });
        }
        if cancelled {
            return Outcome::Cancelled;
        }
        if let Some(handler) = handler {
            handler(ctx, &mut payload);
        }
        reactions.for_each(|entry| {
            (entry.callback)(ctx, &payload);
            true
        });
        Outcome::Applied(payload)
    }
}

/// A modifiable query from inputs `I` to values `O`: modifiers, and the provider of the base
/// value.
pub type Query<C, S, I, O> = Chain<Registry<S, QueryModifierFn<C, I, O>>, Rc<ProviderFn<C, I, O>>>;

impl<C, S: Copy + Eq + Hash, I: Subject<S>, O> Query<C, S, I, O> {
    /// A query called `name` whose base value comes from `provider`.
    pub fn new(name: &'static str, provider: impl Fn(&mut C, &I) -> O + 'static) -> Self {
        Chain {
            name,
            registrations: Registry::new(),
            own: Rc::new(provider),
        }
    }

    /// Registers a modifier. Any priority is allowed; lower runs first.
    pub fn modify(
        &mut self,
        owner: Owner<S>,
        scope: Scope<S>,
        priority: Priority,
        f: Box<QueryModifierFn<C, I, O>>,
    ) -> RegistrationId {
        self.registrations.add(owner, scope, priority, f)
    }

    /// Computes the value of the query found in `ctx` by `chain` for `input`.
    pub fn run(ctx: &mut C, chain: impl Fn(&C) -> &Self, input: &I) -> O {
        let (provider, modifiers) = {
            let query = chain(ctx);
            (
                query.own.clone(),
                query.registrations.snapshot(input.subject()),
            )
        };
        let mut value = provider(ctx, input);
        modifiers.for_each(|entry| {
            (entry.callback)(ctx, input, &mut value);
            true
        });
        value
    }

    /// The provider's base value alone, without modifiers.
    pub fn base(ctx: &mut C, chain: impl Fn(&C) -> &Self, input: &I) -> O {
        let provider = chain(ctx).own.clone();
        provider(ctx, input)
    }
}

/// An event reaction chain for payloads of type `T`: reactions only.
pub type Event<C, S, T> = Chain<Registry<S, ReactionFn<C, T>>, ()>;

impl<C, S: Copy + Eq + Hash, T: Subject<S>> Event<C, S, T> {
    /// An event called `name`, with no reactions.
    pub fn new(name: &'static str) -> Self {
        Chain {
            name,
            registrations: Registry::new(),
            own: (),
        }
    }

    /// Registers a reaction. Any priority is allowed; lower runs first.
    pub fn react(
        &mut self,
        owner: Owner<S>,
        scope: Scope<S>,
        priority: Priority,
        f: Box<ReactionFn<C, T>>,
    ) -> RegistrationId {
        self.registrations.add(owner, scope, priority, f)
    }

    /// Notifies the reactions of the event found in `ctx` by `chain`.
    pub fn emit(ctx: &mut C, chain: impl Fn(&C) -> &Self, payload: &T) {
        let reactions = chain(ctx).registrations.snapshot(payload.subject());
        reactions.for_each(|entry| {
            (entry.callback)(ctx, payload);
            true
        });
    }
}

impl<S: fmt::Debug, F: ?Sized> fmt::Debug for Entry<S, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("id", &self.id)
            .field("priority", &self.priority)
            .field("owner", &self.owner)
            .field("scope", &self.scope)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tiny context: a log of what ran, plus the chains under test.
    struct Ctx {
        log: Vec<String>,
        cmd: Command<Ctx, u32, Payload>,
        ev: Event<Ctx, u32, Payload>,
        total: i64,
    }

    impl Default for Ctx {
        fn default() -> Self {
            Ctx {
                log: Vec::new(),
                cmd: Command::new("cmd"),
                ev: Event::new("ev"),
                total: 0,
            }
        }
    }

    #[derive(Clone, Debug, PartialEq)]
    struct Payload {
        subject: Option<u32>,
        amount: i64,
    }

    impl Subject<u32> for Payload {
        fn subject(&self) -> Option<u32> {
            self.subject
        }
    }

    fn payload(subject: Option<u32>, amount: i64) -> Payload {
        Payload { subject, amount }
    }

    fn with_handler() -> Ctx {
        let mut ctx = Ctx::default();
        ctx.cmd
            .set_handler(|c: &mut Ctx, p: &mut Payload| {
                c.total += p.amount;
                c.log.push(format!("handle {}", p.amount));
            })
            .unwrap();
        ctx
    }

    fn run(ctx: &mut Ctx, p: Payload) -> Outcome<Payload> {
        Command::run(ctx, |c: &Ctx| &c.cmd, p)
    }

    impl Ctx {
        /// Registers a modifier of the engine on every payload of the command.
        fn modifier(
            &mut self,
            priority: Priority,
            f: impl Fn(&mut Ctx, &mut Payload) -> Flow + 'static,
        ) -> RegistrationId {
            self.modifier_of(Owner::Engine, Scope::Global, priority, f)
        }

        /// Registers a modifier of `owner` on the command's payloads in `scope`.
        fn modifier_of(
            &mut self,
            owner: Owner<u32>,
            scope: Scope<u32>,
            priority: Priority,
            f: impl Fn(&mut Ctx, &mut Payload) -> Flow + 'static,
        ) -> RegistrationId {
            self.cmd
                .modify(owner, scope, priority, Box::new(f))
                .unwrap()
        }

        /// Registers a reaction of the engine to every payload of the command.
        fn reaction(
            &mut self,
            priority: Priority,
            f: impl Fn(&mut Ctx, &Payload) + 'static,
        ) -> RegistrationId {
            let f = Box::new(f);
            self.cmd
                .react(Owner::Engine, Scope::Global, priority, f)
                .unwrap()
        }
    }

    #[test]
    fn modifiers_run_by_priority_then_registration_order() {
        let mut ctx = with_handler();
        for (prio, tag) in [(-1, "a"), (-5, "b"), (-1, "c"), (-3, "d")] {
            ctx.modifier(prio, move |c: &mut Ctx, p: &mut Payload| {
                c.log.push(tag.to_string());
                p.amount += 1;
                Flow::Continue
            });
        }
        ctx.reaction(2, |c: &mut Ctx, p: &Payload| {
            c.log.push(format!("saw {}", p.amount))
        });
        let out = run(&mut ctx, payload(None, 10));
        assert_eq!(out, Outcome::Applied(payload(None, 14)));
        assert_eq!(ctx.log, ["b", "d", "a", "c", "handle 14", "saw 14"]);
    }

    #[test]
    fn cancel_stops_handler_and_reactions() {
        let mut ctx = with_handler();
        ctx.modifier(-2, |_: &mut Ctx, _: &mut Payload| Flow::Cancel);
        ctx.modifier(-1, |c: &mut Ctx, _: &mut Payload| {
            c.log.push("late modifier".into());
            Flow::Continue
        });
        ctx.reaction(1, |c: &mut Ctx, _: &Payload| c.log.push("reaction".into()));
        assert!(run(&mut ctx, payload(None, 3)).is_cancelled());
        assert!(ctx.log.is_empty());
        assert_eq!(ctx.total, 0);
    }

    #[test]
    fn priorities_are_checked_and_handler_is_single() {
        let mut ctx = with_handler();
        let m = ctx.cmd.modify(
            Owner::Engine,
            Scope::Global,
            0,
            Box::new(|_: &mut Ctx, _: &mut Payload| Flow::Continue),
        );
        assert_eq!(m.unwrap_err(), ChainError::ModifierPriority(0));
        let r = ctx.cmd.react(
            Owner::Engine,
            Scope::Global,
            -1,
            Box::new(|_: &mut Ctx, _: &Payload| {}),
        );
        assert_eq!(r.unwrap_err(), ChainError::ReactionPriority(-1));
        assert_eq!(
            ctx.cmd.set_handler(|_: &mut Ctx, _: &mut Payload| {}),
            Err(ChainError::HandlerTaken)
        );
    }

    #[test]
    fn scoped_registrations_only_see_their_subject() {
        let mut ctx = with_handler();
        ctx.modifier_of(Owner::Entity(7), Scope::Subject(7), -1, |_, p| {
            p.amount *= 2;
            Flow::Continue
        });
        assert_eq!(
            run(&mut ctx, payload(Some(7), 5)).applied().unwrap().amount,
            10
        );
        assert_eq!(
            run(&mut ctx, payload(Some(8), 5)).applied().unwrap().amount,
            5
        );
        assert_eq!(run(&mut ctx, payload(None, 5)).applied().unwrap().amount, 5);
    }

    #[test]
    fn global_and_scoped_lists_merge_in_priority_order() {
        let mut ctx = with_handler();
        let tag = |t: &'static str| -> Box<ModifierFn<Ctx, Payload>> {
            Box::new(move |c: &mut Ctx, _: &mut Payload| {
                c.log.push(t.into());
                Flow::Continue
            })
        };
        ctx.cmd
            .modify(Owner::Engine, Scope::Global, -10, tag("g-10"))
            .unwrap();
        ctx.cmd
            .modify(Owner::Entity(1), Scope::Subject(1), -20, tag("s-20"))
            .unwrap();
        ctx.cmd
            .modify(Owner::Engine, Scope::Global, -5, tag("g-5"))
            .unwrap();
        ctx.cmd
            .modify(Owner::Entity(1), Scope::Subject(1), -5, tag("s-5"))
            .unwrap();
        run(&mut ctx, payload(Some(1), 0));
        assert_eq!(ctx.log[..4], ["s-20", "g-10", "g-5", "s-5"]);
    }

    #[test]
    fn removing_an_owner_removes_all_its_registrations() {
        let mut ctx = with_handler();
        let double: fn() -> Box<ModifierFn<Ctx, Payload>> = || {
            Box::new(|_: &mut Ctx, p: &mut Payload| {
                p.amount *= 2;
                Flow::Continue
            })
        };
        ctx.cmd
            .modify(Owner::Entity(1), Scope::Global, -1, double())
            .unwrap();
        ctx.cmd
            .modify(Owner::Entity(1), Scope::Subject(2), -1, double())
            .unwrap();
        ctx.cmd
            .modify(Owner::Entity(3), Scope::Global, -1, double())
            .unwrap();
        ctx.ev.react(
            Owner::Entity(1),
            Scope::Global,
            0,
            Box::new(|c: &mut Ctx, _: &Payload| c.log.push("ev".into())),
        );
        assert_eq!(
            run(&mut ctx, payload(Some(2), 1)).applied().unwrap().amount,
            8
        );
        assert_eq!(ctx.cmd.remove_owner(Owner::Entity(1)), 2);
        assert_eq!(ctx.ev.remove_owner(Owner::Entity(1)), 1);
        assert_eq!(
            run(&mut ctx, payload(Some(2), 1)).applied().unwrap().amount,
            2
        );
        assert_eq!(ctx.cmd.len(), 1);
        Event::emit(&mut ctx, |c: &Ctx| &c.ev, &payload(None, 0));
        assert!(!ctx.log.contains(&"ev".to_string()));
        assert_eq!(ctx.cmd.remove_owner(Owner::Entity(1)), 0);
    }

    #[test]
    fn removing_a_subject_drops_its_scoped_list_and_owner_index() {
        let mut ctx = with_handler();
        ctx.modifier_of(Owner::Entity(1), Scope::Subject(2), -1, |_, _| Flow::Cancel);
        ctx.cmd.remove_subject(2);
        assert!(ctx.cmd.is_empty());
        assert!(ctx.cmd.registrations.0.by_owner.is_empty());
        assert!(!run(&mut ctx, payload(Some(2), 1)).is_cancelled());
    }

    #[test]
    fn removal_during_a_run_takes_effect_immediately() {
        let mut ctx = with_handler();
        // The first modifier removes the owner of the second one mid-run.
        ctx.modifier(-2, |c: &mut Ctx, _: &mut Payload| {
            c.cmd.remove_owner(Owner::Entity(9));
            Flow::Continue
        });
        ctx.modifier_of(Owner::Entity(9), Scope::Global, -1, |_, _| Flow::Cancel);
        assert!(!run(&mut ctx, payload(None, 1)).is_cancelled());
    }

    #[test]
    fn registration_during_a_run_applies_from_the_next_run() {
        let mut ctx = with_handler();
        ctx.reaction(1, |c: &mut Ctx, _: &Payload| {
            c.log.push("outer".into());
            if c.log.iter().filter(|l| *l == "outer").count() == 1 {
                c.reaction(2, |c: &mut Ctx, _: &Payload| c.log.push("added".into()));
            }
        });
        run(&mut ctx, payload(None, 1));
        assert!(!ctx.log.contains(&"added".to_string()));
        run(&mut ctx, payload(None, 1));
        assert!(ctx.log.contains(&"added".to_string()));
    }

    #[test]
    fn nested_commands_from_a_modifier() {
        // A modifier that cancels the command and runs it again with another amount, as the
        // energy-to-materials building does with two different commands.
        let mut ctx = with_handler();
        ctx.modifier(-1, |c: &mut Ctx, p: &mut Payload| {
            if p.amount < 0 {
                run(c, payload(None, -p.amount));
                return Flow::Cancel;
            }
            Flow::Continue
        });
        assert!(run(&mut ctx, payload(None, -4)).is_cancelled());
        assert_eq!(ctx.total, 4);
    }

    #[test]
    fn query_provider_then_modifiers() {
        struct Q {
            speed: Query<Q, u32, u32, f64>,
            slowed: bool,
        }
        let mut q = Q {
            speed: Query::new("speed", |_: &mut Q, _: &u32| 1.0),
            slowed: true,
        };
        q.speed.modify(
            Owner::Engine,
            Scope::Global,
            -10,
            Box::new(|q: &mut Q, _: &u32, v: &mut f64| {
                if q.slowed {
                    *v *= 0.75
                }
            }),
        );
        q.speed.modify(
            Owner::Entity(4),
            Scope::Subject(4),
            -20,
            Box::new(|_: &mut Q, _: &u32, v: &mut f64| *v += 1.0),
        );
        assert_eq!(Query::run(&mut q, |q: &Q| &q.speed, &4), 1.5);
        assert_eq!(Query::run(&mut q, |q: &Q| &q.speed, &5), 0.75);
        q.slowed = false;
        assert_eq!(Query::run(&mut q, |q: &Q| &q.speed, &4), 2.0);
        assert_eq!(Query::base(&mut q, |q: &Q| &q.speed, &4), 1.0);
        assert_eq!(q.speed.name(), "speed");
    }

    impl Subject<u32> for u32 {
        fn subject(&self) -> Option<u32> {
            Some(*self)
        }
    }

    #[test]
    fn remove_by_id() {
        let mut ctx = with_handler();
        let id = ctx.modifier(-1, |_: &mut Ctx, _: &mut Payload| Flow::Cancel);
        assert!(ctx.cmd.remove(id));
        assert!(!ctx.cmd.remove(id));
        assert!(!run(&mut ctx, payload(None, 1)).is_cancelled());
    }
}
