//! Dependency resolution: which enabled mods can load, and in which order.
//!
//! A mod loads after everything it depends on; mods with no order between them load by id, so
//! the order never depends on the file system. A mod that needs another version of the game, or
//! whose dependency is missing, disabled, of a wrong version, failed, or part of a cycle does not
//! load, and neither does anything that needs it; every other mod still loads.

use std::collections::{BTreeMap, BTreeSet};

use semver::Version;

use super::manifest::Manifest;

/// Why an enabled mod cannot load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The running game's version is not one the mod's `game` requirement accepts.
    Game {
        /// What the mod asks for.
        required: String,
        /// The running game's version.
        found: String,
    },
    /// A required dependency is not installed.
    Missing {
        /// The dependency's id.
        dependency: String,
    },
    /// A dependency is installed but switched off.
    Disabled {
        /// The dependency's id.
        dependency: String,
    },
    /// A dependency is installed in a version the mod does not accept.
    Version {
        /// The dependency's id.
        dependency: String,
        /// What the mod asks for.
        required: String,
        /// What is installed.
        found: String,
    },
    /// A dependency cannot load itself.
    DependencyFailed {
        /// The dependency's id.
        dependency: String,
    },
    /// The mod is part of a dependency cycle, listed in order (first id repeated at the end).
    Cycle {
        /// The ids around the cycle.
        cycle: Vec<String>,
    },
}

impl Failure {
    /// The dependency the failure is about (for pointing at it in the manifest).
    pub fn dependency(&self) -> Option<&str> {
        match self {
            Failure::Missing { dependency }
            | Failure::Disabled { dependency }
            | Failure::Version { dependency, .. }
            | Failure::DependencyFailed { dependency } => Some(dependency),
            Failure::Cycle { cycle } => cycle.get(1).map(String::as_str),
            Failure::Game { .. } => None,
        }
    }

    /// A sentence saying what is wrong with mod `id`.
    pub fn describe(&self, id: &str) -> String {
        match self {
            Failure::Game { required, found } => {
                format!(
                    "mod `{id}` needs the game in version {required}, but this is version {found}"
                )
            }
            Failure::Missing { dependency } => {
                format!("mod `{id}` needs mod `{dependency}`, which is not installed")
            }
            Failure::Disabled { dependency } => {
                format!("mod `{id}` needs mod `{dependency}`, which is disabled")
            }
            Failure::Version {
                dependency,
                required,
                found,
            } => format!(
                "mod `{id}` needs `{dependency}` {required}, but version {found} is installed"
            ),
            Failure::DependencyFailed { dependency } => {
                format!(
                    "mod `{id}` cannot load because its dependency `{dependency}` failed to load"
                )
            }
            Failure::Cycle { cycle } => format!(
                "mods depend on each other in a cycle: {}",
                cycle.join(" → ")
            ),
        }
    }
}

/// The outcome of resolving a set of mods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resolution {
    /// Indices of the mods that load, in load order.
    pub order: Vec<usize>,
    /// Indices of enabled mods that cannot load, with why.
    pub failed: Vec<(usize, Failure)>,
}

/// Resolves `mods` (each with whether it is enabled) for the game in version `game`. Ids are
/// assumed unique.
pub fn resolve(mods: &[(&Manifest, bool)], game: &Version) -> Resolution {
    let by_id: BTreeMap<&str, usize> = mods
        .iter()
        .enumerate()
        .map(|(i, (m, _))| (m.id.as_str(), i))
        .collect();
    let mut failed: BTreeMap<usize, Failure> = BTreeMap::new();

    // Direct problems with each enabled mod's own requirements: the game's version first.
    for (i, (m, enabled)) in mods.iter().enumerate() {
        if !enabled {
            continue;
        }
        if !m.game.matches(game) {
            failed.insert(
                i,
                Failure::Game {
                    required: m.game.to_string(),
                    found: game.to_string(),
                },
            );
            continue;
        }
        for dep in &m.dependencies {
            let failure = match by_id.get(dep.id.as_str()) {
                None if dep.optional => None,
                None => Some(Failure::Missing {
                    dependency: dep.id.clone(),
                }),
                Some(&j) if !mods[j].1 && !dep.optional => Some(Failure::Disabled {
                    dependency: dep.id.clone(),
                }),
                Some(&j) if mods[j].1 && !dep.version.matches(&mods[j].0.version) => {
                    Some(Failure::Version {
                        dependency: dep.id.clone(),
                        required: dep.version.to_string(),
                        found: mods[j].0.version.to_string(),
                    })
                }
                Some(_) => None,
            };
            if let Some(f) = failure {
                failed.entry(i).or_insert(f);
                break;
            }
        }
    }

    // Edges among enabled mods: dependency → dependent.
    let deps_of = |i: usize| -> Vec<usize> {
        mods[i]
            .0
            .dependencies
            .iter()
            .filter_map(|d| by_id.get(d.id.as_str()).copied())
            .filter(|&j| mods[j].1)
            .collect()
    };

    // Failures spread to dependents until nothing changes.
    loop {
        let mut changed = false;
        for i in 0..mods.len() {
            if !mods[i].1 || failed.contains_key(&i) {
                continue;
            }
            if let Some(j) = deps_of(i).into_iter().find(|j| failed.contains_key(j)) {
                failed.insert(
                    i,
                    Failure::DependencyFailed {
                        dependency: mods[j].0.id.clone(),
                    },
                );
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    // Kahn's algorithm over the rest, always taking the smallest id that is ready.
    let live: Vec<usize> = (0..mods.len())
        .filter(|&i| mods[i].1 && !failed.contains_key(&i))
        .collect();
    let mut waiting: BTreeMap<usize, usize> = live.iter().map(|&i| (i, deps_of(i).len())).collect();
    let mut ready: BTreeSet<(&str, usize)> = waiting
        .iter()
        .filter(|(_, n)| **n == 0)
        .map(|(&i, _)| (mods[i].0.id.as_str(), i))
        .collect();
    let mut order = Vec::new();
    while let Some((_, i)) = ready.pop_first() {
        order.push(i);
        waiting.remove(&i);
        for (&k, n) in waiting.iter_mut() {
            let uses = deps_of(k).iter().filter(|&&d| d == i).count();
            if uses > 0 {
                *n -= uses;
                if *n == 0 {
                    ready.insert((mods[k].0.id.as_str(), k));
                }
            }
        }
    }

    // Whatever is still waiting is in a cycle or depends on one.
    let stuck: BTreeSet<usize> = waiting.keys().copied().collect();
    for &i in &stuck {
        let failure = match find_cycle(i, &stuck, &deps_of) {
            Some(cycle) => Failure::Cycle {
                cycle: cycle.iter().map(|&k| mods[k].0.id.clone()).collect(),
            },
            None => {
                let dependency = deps_of(i)
                    .into_iter()
                    .find(|d| stuck.contains(d))
                    .map_or_else(String::new, |d| mods[d].0.id.clone());
                Failure::DependencyFailed { dependency }
            }
        };
        failed.insert(i, failure);
    }

    Resolution {
        order,
        failed: failed.into_iter().collect(),
    }
}

/// A cycle through `start` among `nodes`, as a path that ends where it starts.
fn find_cycle(
    start: usize,
    nodes: &BTreeSet<usize>,
    deps_of: &dyn Fn(usize) -> Vec<usize>,
) -> Option<Vec<usize>> {
    // Depth-first search for a path from `start` back to itself, in index order.
    let mut stack = vec![(
        start,
        deps_of(start)
            .into_iter()
            .filter(|d| nodes.contains(d))
            .collect::<Vec<_>>(),
    )];
    let mut visited = BTreeSet::from([start]);
    while let Some((_, next)) = stack.last_mut() {
        match next.pop() {
            Some(n) if n == start => {
                let mut path: Vec<usize> = stack.iter().map(|(k, _)| *k).collect();
                path.push(start);
                return Some(path);
            }
            Some(n) if visited.insert(n) => {
                let children = deps_of(n)
                    .into_iter()
                    .filter(|d| nodes.contains(d))
                    .collect();
                stack.push((n, children));
            }
            Some(_) => {}
            None => {
                stack.pop();
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::SourceFile;
    use crate::ron_file;

    fn manifest(id: &str, version: &str, deps: &[(&str, &str, bool)]) -> Manifest {
        let deps: Vec<String> = deps
            .iter()
            .map(|(d, v, o)| format!("(id: \"{d}\", version: \"{v}\", optional: {o})"))
            .collect();
        let text = format!(
            "(id: \"{id}\", name: \"{id}\", version: \"{version}\", dependencies: [{}])",
            deps.join(",")
        );
        ron_file::parse(&SourceFile::new("mod.ron", text)).unwrap()
    }

    fn ids(mods: &[Manifest], r: &Resolution) -> Vec<String> {
        r.order.iter().map(|&i| mods[i].id.clone()).collect()
    }

    fn run(mods: &[Manifest], enabled: &[bool]) -> Resolution {
        let pairs: Vec<(&Manifest, bool)> = mods.iter().zip(enabled.iter().copied()).collect();
        resolve(&pairs, &Version::new(0, 1, 0))
    }

    #[test]
    fn dependencies_first_then_by_id() {
        let mods = vec![
            manifest("zeta", "1.0.0", &[("core", ">=0.1", false)]),
            manifest("alpha", "1.0.0", &[("zeta", "*", false)]),
            manifest("core", "0.1.0", &[]),
            manifest("beta", "1.0.0", &[]),
        ];
        let r = run(&mods, &[true; 4]);
        assert_eq!(ids(&mods, &r), ["beta", "core", "zeta", "alpha"]);
        assert!(r.failed.is_empty());
    }

    #[test]
    fn missing_disabled_and_wrong_version_fail_with_their_dependents() {
        let mods = vec![
            manifest("core", "0.1.0", &[]),
            manifest("a", "1.0.0", &[("nope", "*", false)]),
            manifest("b", "1.0.0", &[("off", "*", false)]),
            manifest("off", "1.0.0", &[]),
            manifest("c", "1.0.0", &[("core", ">=0.2", false)]),
            manifest("d", "1.0.0", &[("a", "*", false)]),
            manifest("e", "1.0.0", &[("nope", "*", true), ("off", "*", true)]),
        ];
        let r = run(&mods, &[true, true, true, false, true, true, true]);
        assert_eq!(ids(&mods, &r), ["core", "e"]);
        let failures: BTreeMap<&str, &Failure> = r
            .failed
            .iter()
            .map(|(i, f)| (mods[*i].id.as_str(), f))
            .collect();
        assert_eq!(
            failures["a"],
            &Failure::Missing {
                dependency: "nope".into()
            }
        );
        assert_eq!(
            failures["b"],
            &Failure::Disabled {
                dependency: "off".into()
            }
        );
        assert!(matches!(failures["c"], Failure::Version { found, .. } if found == "0.1.0"));
        assert_eq!(
            failures["d"],
            &Failure::DependencyFailed {
                dependency: "a".into()
            }
        );
        assert_eq!(failures.len(), 4);
    }

    #[test]
    fn cycles_are_reported_and_the_rest_loads() {
        let mods = vec![
            manifest("a", "1.0.0", &[("b", "*", false)]),
            manifest("b", "1.0.0", &[("c", "*", false)]),
            manifest("c", "1.0.0", &[("a", "*", false)]),
            manifest("d", "1.0.0", &[("a", "*", false)]),
            manifest("core", "1.0.0", &[]),
        ];
        let r = run(&mods, &[true; 5]);
        assert_eq!(ids(&mods, &r), ["core"]);
        let a = r.failed.iter().find(|(i, _)| *i == 0).unwrap();
        assert_eq!(
            a.1,
            Failure::Cycle {
                cycle: vec!["a".into(), "b".into(), "c".into(), "a".into()]
            }
        );
        let d = r.failed.iter().find(|(i, _)| *i == 3).unwrap();
        assert_eq!(
            d.1,
            Failure::DependencyFailed {
                dependency: "a".into()
            }
        );
        assert!(a.1.describe("a").contains("a → b → c → a"));
    }

    #[test]
    fn a_mod_for_another_game_version_fails_with_its_dependents() {
        let mut newer = manifest("newer", "1.0.0", &[]);
        newer.game = semver::VersionReq::parse(">=0.2").unwrap();
        let mut fits = manifest("fits", "1.0.0", &[]);
        fits.game = semver::VersionReq::parse("^0.1").unwrap();
        let mods = vec![
            newer,
            fits,
            manifest("user", "1.0.0", &[("newer", "*", false)]),
        ];
        let r = run(&mods, &[true; 3]);
        assert_eq!(ids(&mods, &r), ["fits"]);
        let game = Failure::Game {
            required: ">=0.2".into(),
            found: "0.1.0".into(),
        };
        assert_eq!(r.failed[0], (0, game.clone()));
        assert_eq!(
            game.describe("newer"),
            "mod `newer` needs the game in version >=0.2, but this is version 0.1.0"
        );
        assert!(
            matches!(&r.failed[1], (2, Failure::DependencyFailed { dependency }) if dependency == "newer")
        );
    }

    #[test]
    fn disabled_mods_neither_load_nor_fail() {
        let mods = vec![manifest("a", "1.0.0", &[("gone", "*", false)])];
        let r = run(&mods, &[false]);
        assert!(r.order.is_empty());
        assert!(r.failed.is_empty());
    }
}
