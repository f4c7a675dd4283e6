//! The run map: rooms made online, never overlapping, joined by doors on shared walls; barriers
//! whose keys always come first (checked on thousands of seeds by agents that take any open
//! door, and by a solver that reads only `rampart map`'s JSON); the act's shape from
//! `levels.ron`, changed by a mod.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use crate::common::Mods;
use rampart_core::content::acts::NodeKind;
use rampart_core::mapgen::{ActMap, Node, explore_all, explore_randomly};
use rampart_core::rng::Seed;
use rampart_core::run::map::act_map;

fn core() -> std::sync::Arc<rampart_core::content::ContentDb> {
    Mods::new().load_with_core()
}

/// Everything that must hold of a map at any moment.
fn check_map(map: &ActMap) {
    let nodes = map.nodes();
    for (i, a) in nodes.iter().enumerate() {
        assert_eq!(a.id as usize, i);
        for b in &nodes[i + 1..] {
            assert!(!a.rect.overlaps(&b.rect), "{a:?} overlaps {b:?}");
        }
        for &d in &a.doors {
            let b = &nodes[d as usize];
            assert!(b.doors.contains(&a.id), "doors go both ways");
            assert!(
                a.rect.shared_wall(&b.rect).is_some(),
                "a door joins rooms that share a wall: {a:?} {b:?}"
            );
        }
        assert!(a.doors.len() <= 4 || map.passages() > 0, "{a:?}");
        if let Some(p) = a.parent {
            assert!(p < a.id, "a room is made from an earlier one");
            assert!(
                nodes[p as usize].entered.is_some(),
                "rooms are made only behind doors of entered rooms"
            );
        }
        if let Some(b) = &a.barrier {
            assert_ne!(a.kind, NodeKind::Boss, "the boss's door is never barred");
            let holder = nodes
                .iter()
                .find(|h| h.key_drop == Some(b.key))
                .expect("every barrier's key lies somewhere");
            assert!(
                !behind(nodes, holder, a.id),
                "room {}'s key lies behind its own barrier",
                a.id
            );
        }
    }
    let keys: Vec<_> = nodes.iter().filter_map(|n| n.key_drop).collect();
    assert_eq!(
        keys.len(),
        keys.iter().collect::<BTreeSet<_>>().len(),
        "keys are unique"
    );
    assert_eq!(
        keys.len(),
        nodes.iter().filter(|n| n.barrier.is_some()).count(),
        "one key per barrier"
    );
    assert!(nodes.len() <= map.shape().rooms as usize);
    assert_no_cycle(nodes);
}

/// Whether `node` lies behind room `barred` (is it, or made from a room behind it).
fn behind(nodes: &[Node], node: &Node, barred: u32) -> bool {
    let mut at = Some(node.id);
    while let Some(id) = at {
        if id == barred {
            return true;
        }
        at = nodes[id as usize].parent;
    }
    false
}

/// To enter a room one needs its parent entered and its key's holder cleared: that relation has
/// no cycle.
fn assert_no_cycle(nodes: &[Node]) {
    let needs = |n: &Node| -> Vec<u32> {
        let mut v: Vec<u32> = n.parent.into_iter().collect();
        if let Some(b) = &n.barrier {
            v.extend(
                nodes
                    .iter()
                    .filter(|h| h.key_drop == Some(b.key))
                    .map(|h| h.id),
            );
        }
        v
    };
    // Depth-first search with colours.
    let mut state = vec![0u8; nodes.len()];
    fn visit(i: usize, nodes: &[Node], state: &mut [u8], needs: &dyn Fn(&Node) -> Vec<u32>) {
        state[i] = 1;
        for j in needs(&nodes[i]) {
            let j = j as usize;
            assert_ne!(state[j], 1, "a cycle of keys through room {j}");
            if state[j] == 0 {
                visit(j, nodes, state, needs);
            }
        }
        state[i] = 2;
    }
    for i in 0..nodes.len() {
        if state[i] == 0 {
            visit(i, nodes, &mut state, &needs);
        }
    }
}

#[test]
fn agents_taking_any_open_door_always_reach_the_boss() {
    let content = core();
    let mut barriers = 0;
    let mut multi_level = 0;
    let mut passages = 0;
    let seeds = 1500;
    for seed in 0..seeds {
        for act in 1..=3 {
            let mut map = act_map(&content, seed, act).unwrap();
            let mut rng = Seed(seed).branch("agent").index(u64::from(act)).rng();
            explore_randomly(&mut map, &mut rng)
                .unwrap_or_else(|e| panic!("seed {seed} act {act}: {e}\n{:#?}", map.nodes()));
            assert!(map.is_over());
            check_map(&map);
            let nodes = map.nodes();
            barriers += nodes.iter().filter(|n| n.barrier.is_some()).count();
            multi_level += nodes
                .iter()
                .filter(|n| n.key_drop.is_some() && n.barrier.is_some())
                .count();
            passages += map.passages();
        }
    }
    // The guarantee is tested on maps that actually have barriers, keys behind barriers among
    // them.
    assert!(barriers > seeds as usize, "{barriers} barriers");
    assert!(
        multi_level > 100,
        "{multi_level} keys behind other barriers"
    );
    eprintln!("{barriers} barriers, {multi_level} multi-level, {passages} passages");
}

#[test]
fn exploring_everything_makes_the_whole_act_online() {
    let content = core();
    for seed in 0..300 {
        for act in 1..=3 {
            let mut map = act_map(&content, seed, act).unwrap();
            let limit = map.shape().rooms as usize;
            // Step by step: entering a room makes rooms behind its doors only.
            loop {
                map.clear_current();
                if map.is_over() {
                    break;
                }
                let before = map.nodes().len();
                let choices = map.choices();
                let next = choices
                    .iter()
                    .copied()
                    .find(|&c| map.node(c).unwrap().kind != NodeKind::Boss)
                    .unwrap_or(choices[0]);
                map.enter(next).unwrap();
                for n in &map.nodes()[before..] {
                    assert!(
                        n.parent == Some(next) || map.passages() > 0,
                        "seed {seed} act {act}: room {} made away from room {next}",
                        n.id
                    );
                }
                check_map(&map);
            }
            let nodes = map.nodes();
            assert_eq!(nodes.len(), limit, "seed {seed} act {act}: every room made");
            assert!(nodes.iter().all(|n| n.entered.is_some()));
            assert_eq!(
                map.boss(),
                Some(limit as u32 - 1),
                "the last room is the boss's"
            );
        }
    }
}

#[test]
fn the_same_seed_and_choices_give_the_same_map() {
    let content = core();
    for seed in [0, 7, 123_456] {
        let mut a = act_map(&content, seed, 2).unwrap();
        let mut b = act_map(&content, seed, 2).unwrap();
        explore_all(&mut a).unwrap();
        explore_all(&mut b).unwrap();
        assert_eq!(a, b);
    }
    let a = act_map(&content, 1, 1).unwrap();
    let b = act_map(&content, 2, 1).unwrap();
    assert_ne!(a.nodes(), b.nodes(), "seeds differ");
}

#[test]
fn barred_rooms_cannot_be_entered_without_their_key() {
    let content = core();
    let (mut map, barred) = (0..200)
        .find_map(|seed| {
            let map = act_map(&content, seed, 3).unwrap();
            let barred = map
                .nodes()
                .iter()
                .find(|n| n.barrier.is_some() && n.entered.is_none())?
                .id;
            Some((map, barred))
        })
        .expect("some start room has a barred door");
    let err = map.enter(barred).unwrap_err().to_string();
    assert!(err.contains("barrier") && err.contains("key"), "{err}");
    assert!(!map.choices().contains(&barred));
}

/// The example of `docs/modding/runs.md`, as a modder would copy it.
fn documented_example() -> String {
    let doc = std::fs::read_to_string(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("docs/modding/runs.md"),
    )
    .unwrap();
    let start = doc.find("```ron\n").expect("the page has a RON example") + 7;
    let end = start + doc[start..].find("```").unwrap();
    doc[start..end].to_string()
}

#[test]
fn an_act_shape_comes_from_levels_ron_and_a_mod_changes_it() {
    let mods = Mods::new();
    mods.manifest("m", &["core"])
        .file("m/levels.ron", &documented_example());
    let content = mods.load_with_core();
    let mut map = act_map(&content, 3, 1).unwrap();
    explore_all(&mut map).unwrap();
    let kinds: Vec<_> = map.nodes().iter().map(|n| n.kind).collect();
    assert_eq!(kinds.len(), 7);
    assert_eq!(kinds[0], NodeKind::Start);
    assert_eq!(kinds[6], NodeKind::Boss);
    assert!(
        kinds[1..6]
            .iter()
            .all(|k| matches!(k, NodeKind::Event | NodeKind::Battle | NodeKind::Rest))
    );
    assert!(map.nodes().iter().all(|n| n.barrier.is_none()));
    assert!(
        map.nodes().iter().all(|n| n.rect.h == 1),
        "Small and Wide only"
    );
    let last = act_map(&content, 3, 2).unwrap();
    assert_eq!(last.shape().boss, "core:void_leviathan");
    let err = act_map(&content, 3, 3).unwrap_err().to_string();
    assert!(err.contains("there is no act 3"), "{err}");
}

#[test]
fn a_bad_act_is_an_error_at_its_field() {
    let mods = Mods::new();
    mods.manifest("m", &["core"]).file(
        "m/levels.ron",
        r#"(overrides: "core:levels", acts: [
            (rooms: 12, boss: "core:bone_warden", layouts: [Small], start_doors: 2, doors: 2, kinds: [(kind: Battle, weight: 1)]),
            (rooms: 2, boss: "core:skeleton", layouts: [], start_doors: 2, doors: 5, kinds: [(kind: Boss, weight: 1)]),
        ])"#,
    );
    let (_, diagnostics) = mods.load_after_core();
    let text: String = diagnostics.iter().map(|d| format!("{d}\n")).collect();
    for needle in [
        "act 2: `rooms` must be from 3",
        "act 2: `layouts` needs at least one layout",
        "act 2: `doors` must be from 1 to 3",
        "act 2: `kinds` may weigh Battle",
        "act 2: `core:skeleton` is not a boss",
    ] {
        assert!(text.contains(needle), "{needle}\n{text}");
    }
    // Located at the second act's fields (line 3 of the file).
    assert!(text.contains("levels.ron:3:"), "{text}");
}

/// An independent check of `rampart map`'s JSON: walks the map as a player could — a room may
/// be entered when its parent was and its barrier's key was collected — and must reach the exit.
#[test]
fn rampart_map_json_is_solvable_by_a_separate_solver() {
    for seed in 0..12u64 {
        for act in 1..=3 {
            let out = Command::new(env!("CARGO_BIN_EXE_rampart"))
                .args([
                    "map",
                    "--seed",
                    &seed.to_string(),
                    "--act",
                    &act.to_string(),
                ])
                .args(["--json", "-"])
                .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
                .env("RAMPART_HOME", tempfile::tempdir().unwrap().path())
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            assert_eq!(json["seed"], seed);
            assert_eq!(json["act"], act);
            solve(&json);
        }
    }
}

fn solve(json: &serde_json::Value) {
    let nodes = json["nodes"].as_array().unwrap();
    let by_id: BTreeMap<u64, &serde_json::Value> = nodes
        .iter()
        .map(|n| (n["id"].as_u64().unwrap(), n))
        .collect();
    let rect = |n: &serde_json::Value| -> [i64; 4] {
        let r = n["rect"].as_array().unwrap();
        [0, 1, 2, 3].map(|i| r[i].as_i64().unwrap())
    };
    for (i, a) in nodes.iter().enumerate() {
        for b in &nodes[i + 1..] {
            let ([ax, ay, aw, ah], [bx, by, bw, bh]) = (rect(a), rect(b));
            assert!(
                ax + aw <= bx || bx + bw <= ax || ay + ah <= by || by + bh <= ay,
                "rooms overlap"
            );
        }
    }
    let start = json["start"].as_u64().unwrap();
    let exit = json["exit"].as_u64().unwrap();
    let mut visited = BTreeSet::from([start]);
    let mut keys = BTreeSet::new();
    loop {
        let next = nodes.iter().find(|n| {
            let id = n["id"].as_u64().unwrap();
            let reachable = n["doors"]
                .as_array()
                .unwrap()
                .iter()
                .any(|d| visited.contains(&d.as_u64().unwrap()));
            let open =
                n["barrier"].is_null() || keys.contains(n["barrier"]["key"].as_str().unwrap());
            !visited.contains(&id) && reachable && open
        });
        let Some(n) = next else { break };
        visited.insert(n["id"].as_u64().unwrap());
        if let Some(k) = n["key_drop"].as_str() {
            keys.insert(k.to_string());
        }
    }
    assert!(visited.contains(&exit), "the exit is reachable");
    assert_eq!(visited.len(), by_id.len(), "every room is reachable");
    // Online: every room's parent was entered before it.
    for n in nodes {
        if let Some(p) = n["parent"].as_u64() {
            let entered = |v: &serde_json::Value| v["entered"].as_u64().unwrap();
            assert!(entered(by_id[&p]) < entered(n));
        }
    }
}
