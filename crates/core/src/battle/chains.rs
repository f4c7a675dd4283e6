//! The battle's named chains. Content (Rust behaviours and Lua scripts alike) changes the game
//! only through these.
//!
//! The table in [`with_chains!`] is the single list of chains: each chain's name, kind, payload
//! and, for a query, its value, the domain scripts must keep it in, and the method of
//! [`BaseValues`] that provides its base value. From it this file makes [`ChainSet`], the
//! chains themselves, and `scripting/chains.rs` makes what scripts see of them (`Chains::ALL`)
//! and the dispatch from a name to the typed chain. The chains are generic over the context
//! they run on (the battle), which is what lets the battle keep them without this file knowing
//! the battle.

use super::entity::EntityId;
use super::mod_chains::DeclaredChains;
use super::payloads::{Damage, EntityEvent, Gain, Heal, HullDamage, Signal, StatOf, Wave};
use super::state::Owner;
use crate::chain::{self, RegistrationId};
use crate::content::{ContentDb, Cost};

/// What a chain is, for scripts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainKind {
    /// Modifiers, one handler, reactions.
    Command,
    /// A provider and modifiers.
    Query,
    /// Reactions only.
    Event,
}

impl ChainKind {
    /// The kind in words, with its article: `a command`, `a query`, `an event`.
    pub fn noun(self) -> &'static str {
        match self {
            ChainKind::Command => "a command",
            ChainKind::Query => "a query",
            ChainKind::Event => "an event",
        }
    }
}

/// Calls the macro `$callback` with the table of every chain of the battle (see the module
/// docs): `commands { name: Payload }`, `queries { name: Input => Value where DOMAIN =
/// provider }`, `events { name: Payload }`, each with its doc.
macro_rules! with_chains {
    ($callback:ident) => {
        $callback! {
            commands {
                /// Damage an entity.
                damage: Damage,
                /// Heal an entity.
                heal: Heal,
                /// Gain materials.
                add_materials: Gain,
                /// Gain energy (up to the cap).
                add_energy: Gain,
                /// Gain fuel toward the level's goal.
                add_fuel: Gain,
                /// Lose hull.
                damage_hull: HullDamage,
                /// Start the next wave; cancelled when the battle is over.
                start_wave: Wave,
            }
            queries {
                /// An attacker's speed in tiles per second.
                speed: EntityId => f64 where NonNegative = base_speed,
                /// A blueprint's range.
                range: StatOf => f64 where NonNegative = base_range,
                /// A blueprint's effect radius.
                radius: StatOf => f64 where NonNegative = base_radius,
                /// A blueprint's damage per hit.
                hit_damage: StatOf => f64 where NonNegative = base_hit_damage,
                /// A blueprint's interval in ticks.
                interval: StatOf => f64 where Positive = base_interval,
                /// A blueprint's delay in ticks.
                delay: StatOf => f64 where NonNegative = base_delay,
                /// How long a blueprint's effect lasts, in ticks.
                duration_ticks: StatOf => f64 where NonNegative = base_duration_ticks,
                /// How long a blueprint's effect lasts, in waves.
                duration_waves: StatOf => f64 where NonNegative = base_duration_waves,
                /// Fuel a blueprint produces after every wave.
                fuel_production: StatOf => f64 where Finite = base_fuel_production,
                /// Materials a blueprint produces after every wave.
                material_production: StatOf => f64 where Finite = base_material_production,
                /// Energy a blueprint produces after every wave.
                energy_production: StatOf => f64 where Finite = base_energy_production,
                /// Waves to wait after using a blueprint.
                cooldown: StatOf => f64 where NonNegative = base_cooldown,
                /// Waves before a blueprint can first be used in a level.
                starting_cooldown: StatOf => f64 where NonNegative = base_starting_cooldown,
                /// What a blueprint costs to use now.
                blueprint_cost: StatOf => Cost = base_cost,
                /// A blueprint's description lines (an upgrade may add one).
                descriptions: StatOf => Vec<String> = base_descriptions,
                /// The most energy the player can hold.
                energy_cap: () => f64 where NonNegative = base_energy_cap,
            }
            events {
                /// A wave began.
                wave_started: Wave,
                /// A wave ended: everything spawned and nothing left alive.
                wave_finished: Wave,
                /// An attacker appeared.
                attacker_spawned: EntityEvent,
                /// An attacker died; `other` is the killer if known.
                attacker_killed: EntityEvent,
                /// An attacker reached the Hub.
                attacker_reached_hub: EntityEvent,
                /// A building was placed.
                building_placed: EntityEvent,
                /// A building was removed.
                building_removed: EntityEvent,
                /// An ability was used.
                ability_used: EntityEvent,
                /// A tower fired; `other` is its first target.
                tower_fired: EntityEvent,
                /// The level's fuel goal was reached.
                level_won: Signal,
                /// The hull ran out.
                defeat: Signal,
            }
        }
    };
}
pub(crate) use with_chains;

/// Makes [`ChainSet`] and [`BaseValues`] from the table of [`with_chains!`].
macro_rules! declare_chains {
    (
        commands { $( $(#[doc = $cdoc:literal])* $c:ident : $ct:ty ),* $(,)? }
        queries { $( $(#[doc = $qdoc:literal])* $q:ident : $qi:ty => $qo:ty $(where $qd:ident)? = $provider:ident ),* $(,)? }
        events { $( $(#[doc = $edoc:literal])* $e:ident : $et:ty ),* $(,)? }
    ) => {
        /// Every chain of a battle, over the context `C` they run on (the battle: see
        /// `Chains` in `core.rs`).
        pub struct ChainSet<C> {
            $( $(#[doc = $cdoc])* pub $c: chain::Command<C, EntityId, $ct>, )*
            $( $(#[doc = $qdoc])* pub $q: chain::Query<C, EntityId, $qi, $qo>, )*
            $( $(#[doc = $edoc])* pub $e: chain::Event<C, EntityId, $et>, )*
            /// The events and queries mods declare.
            pub(crate) declared: DeclaredChains<C>,
        }

        /// The base values of the queries, which the engine's rules provide (`rules.rs`): one
        /// method per query, named in the chain table.
        pub(crate) trait BaseValues {
            $( $(#[doc = $qdoc])* fn $provider(&mut self, input: &$qi) -> $qo; )*
        }

        impl<C> ChainSet<C> {
            /// Every chain with nothing registered but the providers of the queries.
            pub(super) fn new(content: &ContentDb) -> ChainSet<C>
            where
                C: BaseValues + 'static,
            {
                ChainSet {
                    $( $c: chain::Command::new(stringify!($c)), )*
                    $( $q: chain::Query::new(stringify!($q), C::$provider), )*
                    $( $e: chain::Event::new(stringify!($e)), )*
                    declared: DeclaredChains::new(content),
                }
            }

            /// Removes everything `owner` registered, on every chain.
            pub fn remove_owner(&mut self, owner: Owner) {
                $( self.$c.remove_owner(owner); )*
                $( self.$q.remove_owner(owner); )*
                $( self.$e.remove_owner(owner); )*
                self.declared.remove_owner(owner);
            }

            /// Removes every registration scoped to `subject`, on every chain.
            pub fn remove_subject(&mut self, subject: EntityId) {
                $( self.$c.remove_subject(subject); )*
                $( self.$q.remove_subject(subject); )*
                $( self.$e.remove_subject(subject); )*
                self.declared.remove_subject(subject);
            }

            /// Removes one registration of the chain `name`.
            pub fn remove(&mut self, name: &str, id: RegistrationId) -> bool {
                match name {
                    $( stringify!($c) => self.$c.remove(id), )*
                    $( stringify!($q) => self.$q.remove(id), )*
                    $( stringify!($e) => self.$e.remove(id), )*
                    _ => self.declared.remove(name, id),
                }
            }
        }
    };
}

with_chains!(declare_chains);
