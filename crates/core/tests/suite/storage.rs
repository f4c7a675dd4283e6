//! Storage that lasts the run (`game:storage()`): the documented kill tally counted through two
//! battles of a run and brought back from its saves with the same hashes; the documented
//! veteran reading it in a query; the size limit and everything storage refuses, each an error
//! at its line that changes nothing; mods kept apart; storage tables read like tables; the state
//! hash covering storage whatever order its tables were built in, in another process too; a
//! scenario's starting storage.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::common::{Mods, blueprint, documented_file, enter_battle, hashes_from_child};
use rampart_autopilot::{Autopilot, play_level};
use rampart_core::battle::storage::{Key, Stored, Table};
use rampart_core::battle::{
    Battle, BattleConfig, LogKind, Phase, Position, STORAGE_LIMIT, StatOf, Storage,
};
use rampart_core::content::ContentDb;
use rampart_core::rng::Seed;
use rampart_core::run::save::{Resumed, SavedGame};
use rampart_core::run::{Run, RunConfig, RunPhase};
use rampart_core::scenario::Scenario;

const CHILD: &str = "RAMPART_STORAGE_CHILD";

/// The documented tally mod: the kill counter, and the veteran tower with its script.
fn tally() -> Mods {
    let mods = Mods::new();
    mods.manifest("tally", &["core"])
        .file(
            "tally/scripts/tally.lua",
            &documented_file("tally/scripts/tally.lua"),
        )
        .file(
            "tally/scripts/veteran.lua",
            &documented_file("tally/scripts/veteran.lua"),
        )
        .file(
            "tally/blueprints/veteran.ron",
            &blueprint(
                "Veteran",
                "Tower",
                "range: 3, damage: 10, interval: 20, damage_type: [Physical], behaviour: Shooter(()), script: \"scripts/veteran.lua\",",
            ),
        );
    mods
}

fn text(t: &str) -> Key {
    Key::Text(t.to_string())
}

/// What `mod_id` keeps under `key`, at the top of its storage.
fn stored<'a>(
    storage: &'a BTreeMap<String, Storage>,
    mod_id: &str,
    key: &str,
) -> Option<&'a Stored> {
    storage.get(mod_id)?.table().get(&text(key))
}

/// The tally's count of kills.
fn kills(storage: &BTreeMap<String, Storage>) -> f64 {
    match stored(storage, "tally", "kills") {
        Some(Stored::Number(n)) => *n,
        None => 0.0,
        other => panic!("kills is {other:?}"),
    }
}

/// The attackers killed in a battle, by its log.
fn killed(battle: &Battle) -> f64 {
    battle
        .log()
        .iter()
        .filter(|l| matches!(l.kind, LogKind::Killed { .. }))
        .count() as f64
}

fn no_errors(battle: &Battle) {
    let errors: Vec<String> = battle.script_errors().map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// A battle of `content` without a world, starting with `storage`.
fn bare(content: &Arc<ContentDb>, storage: BTreeMap<String, Storage>) -> Battle {
    let mut config = BattleConfig::new(Seed(3));
    config.start.storage = storage;
    Battle::new(content.clone(), config)
}

/// A mod `id` whose blueprint `id:probe` runs `on_placed` with `self` and `game`.
fn probe(mods: &Mods, id: &str, on_placed: &str) {
    mods.manifest(id, &[]);
    mods.file(
        &format!("{id}/scripts/probe.lua"),
        &format!("return {{\n    on_placed = function(self, game)\n{on_placed}\n    end,\n}}\n"),
    );
    mods.file(
        &format!("{id}/blueprints/probe.ron"),
        &blueprint("Probe", "Special", "script: \"scripts/probe.lua\","),
    );
}

/// The script errors after placing `id:probe` once (beside what stands already), as printed.
fn placed(battle: &mut Battle, id: &str) -> Vec<String> {
    let x = battle.entities().count() as f64;
    battle
        .place(&format!("{id}:probe"), Position { x, y: 0.0 }, 0)
        .unwrap();
    battle.script_errors().map(|e| e.to_string()).collect()
}

#[test]
fn kills_counted_in_storage_last_through_two_battles_of_a_run_and_its_saves() {
    let content = tally().load_armed();
    let mut run = Run::new(&content, RunConfig::new(11)).unwrap();

    enter_battle(&mut run, &content);
    let plan = run.plan(&content).unwrap();
    assert!(plan.setup.start.storage.is_empty(), "a run starts empty");
    let mut first = plan.start(&content).unwrap();
    play_level(&mut first);
    no_errors(&first);
    assert_eq!(first.phase(), Phase::Won);
    let after_first = killed(&first);
    assert!(after_first > 5.0, "{after_first} kills");
    assert_eq!(kills(first.storage()), after_first);
    let by_type = match stored(first.storage(), "tally", "by_type") {
        Some(Stored::Table(t)) => t.clone(),
        other => panic!("by_type is {other:?}"),
    };
    let sum: f64 = by_type
        .values()
        .map(|v| match v {
            Stored::Number(n) => *n,
            other => panic!("{other:?}"),
        })
        .sum();
    assert_eq!(sum, after_first, "{by_type:?}");
    run.finish_battle(&first);
    assert_eq!(run.storage(), first.storage());

    // Between battles the run's save keeps it.
    if let RunPhase::Reward { .. } = run.phase() {
        let between = SavedGame::new(&run, None);
        let read = SavedGame::from_ron(&between.to_ron()).unwrap();
        assert_eq!(read.run.storage(), run.storage());
        run.choose_reward(&content, None, None).unwrap();
    }
    let read = Run::from_ron(&run.to_ron()).unwrap();
    assert_eq!(read, run);

    enter_battle(&mut run, &content);
    let plan = run.plan(&content).unwrap();
    assert_eq!(&plan.setup.start.storage, run.storage());
    let mut second = plan.start(&content).unwrap();
    assert_eq!(
        kills(second.storage()),
        after_first,
        "the second battle starts with it"
    );
    let mut pilot = Autopilot::new();
    while killed(&second) < 3.0 {
        assert!(
            second.tick() < 20_000,
            "the autopilot kills in the second battle"
        );
        pilot.act(&mut second);
        second.step();
    }
    // Saved mid-battle: the save holds the run and the battle's record, which brings the
    // battle back with its storage, hash for hash.
    let saved = SavedGame::new(&run, Some((&second, &plan)));
    let text = saved.to_ron();
    assert!(
        text.contains("\"kills\""),
        "the run's storage is in the save"
    );
    match SavedGame::from_ron(&text)
        .unwrap()
        .resume(&content)
        .unwrap()
    {
        Resumed::Battle(_, back) => {
            assert_eq!(back.state_hash(), second.state_hash());
            assert_eq!(back.storage(), second.storage());
            assert_eq!(kills(back.storage()), after_first + killed(&second));
        }
        _ => panic!("the battle should come back as it was"),
    }
    while !matches!(second.phase(), Phase::Won | Phase::Lost) {
        pilot.act(&mut second);
        second.step();
    }
    no_errors(&second);
    assert_eq!(kills(second.storage()), after_first + killed(&second));
    run.finish_battle(&second);
    assert_eq!(kills(run.storage()), after_first + killed(&second));
    let text = run.to_ron();
    let read = Run::from_ron(&text).unwrap();
    assert_eq!(read.storage(), run.storage());
    // A save whose storage no game could have written is refused, naming the mod.
    let key = text.find("\"kills\"").unwrap();
    let number = key + text[key..].find(|c: char| c.is_ascii_digit()).unwrap();
    let end = number
        + text[number..]
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap();
    let bad = format!("{}inf{}", &text[..number], &text[end..]);
    let err = Run::from_ron(&bad).unwrap_err().to_string();
    assert!(
        err.contains(
            "the storage of mod `tally` holds a number that is not finite at storage.kills"
        ),
        "{err}"
    );
}

#[test]
fn a_save_without_storage_reads_as_before() {
    // A run that never stored anything writes no `storage` at all: the shape of a save made
    // before storage existed, which reads back as a run with empty storage.
    let content = Mods::new().load_armed();
    let mut run = Run::new(&content, RunConfig::new(5)).unwrap();
    enter_battle(&mut run, &content);
    let plan = run.plan(&content).unwrap();
    let mut battle = plan.start(&content).unwrap();
    battle.run_ticks(20);
    let text = SavedGame::new(&run, Some((&battle, &plan))).to_ron();
    assert!(!text.contains("storage"), "{text}");
    let read = SavedGame::from_ron(&text).unwrap();
    assert!(read.run.storage().is_empty());
    assert!(matches!(
        read.resume(&content).unwrap(),
        Resumed::Battle(..)
    ));
}

#[test]
fn the_documented_veteran_hits_harder_with_the_kills_in_storage() {
    let mods = tally();
    let content = mods.load_with_core();
    let veteran = content.blueprint_id("tally:veteran").unwrap();
    let damage = |kills: f64| {
        let storage = BTreeMap::from([(
            "tally".to_string(),
            Storage::new(Table::from([(text("kills"), Stored::Number(kills))])),
        )]);
        let mut battle = bare(&content, storage);
        let entity = battle
            .place("tally:veteran", Position::default(), 0)
            .unwrap();
        let hit = battle.look(
            |b| &b.chains.hit_damage,
            &StatOf {
                blueprint: veteran,
                entity: Some(entity),
            },
        );
        no_errors(&battle);
        hit
    };
    assert_eq!(damage(0.0), 10.0);
    assert_eq!(damage(50.0), 15.0);
    assert_eq!(damage(400.0), 20.0, "at most twice its own");
}

#[test]
fn a_write_past_the_limit_is_an_error_at_its_line_and_changes_nothing() {
    // The error lua-api.md shows, made by the write it describes.
    let page = std::fs::read_to_string(
        std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("docs/modding/lua-api.md"),
    )
    .unwrap();
    let documented = page
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("[tally] scripts/hoard.lua:3:"))
        .expect("lua-api.md shows the error");
    let mods = Mods::new();
    mods.manifest("tally", &[]).file(
        "tally/scripts/hoard.lua",
        "return {\n    on_placed = function(self, game)\n        game:storage().hoard = string.rep(\"x\", 70000)\n    end,\n}\n",
    );
    mods.file(
        "tally/blueprints/probe.ron",
        &blueprint("Probe", "Special", "script: \"scripts/hoard.lua\","),
    );
    let content = mods.load_clean();
    let mut battle = bare(&content, BTreeMap::new());
    assert_eq!(placed(&mut battle, "tally"), [documented]);
    assert!(battle.storage().is_empty());

    let mods = Mods::new();
    probe(
        &mods,
        "hoard",
        r#"        local store = game:storage()
        store.kept = string.rep("k", 1000)
        store.hoard = string.rep("x", 70000)"#,
    );
    let content = mods.load_clean();
    let mut battle = bare(&content, BTreeMap::new());
    let errors = placed(&mut battle, "hoard");
    let bytes = 1 + (1 + 1 + 4) + (1 + 2 + 1000) + (1 + 1 + 5) + (1 + 3 + 70000);
    assert_eq!(
        errors,
        [format!(
            "[hoard] scripts/probe.lua:5: this would make the storage of mod `hoard` {bytes} bytes, over its limit of {STORAGE_LIMIT}; the storage is unchanged"
        )]
    );
    // The error stopped the hook there; storage is as the line before left it.
    let storage = battle.storage()["hoard"].clone();
    assert_eq!(storage.table().len(), 1);
    assert_eq!(storage.size(), 1 + (1 + 1 + 4) + (1 + 2 + 1000));

    // Writes that fit go on; the one that does not fit is refused where it is made.
    let mods = Mods::new();
    probe(
        &mods,
        "fill",
        r#"        local store = game:storage()
        store.list = {}
        local ok, err = pcall(function()
            for i = 1, 10000 do store.list[i] = i end
        end)
        local n = #store.list
        store.list = nil
        store.stopped_at = n
        store.why = tostring(err)"#,
    );
    let content = mods.load_clean();
    let mut battle = bare(&content, BTreeMap::new());
    let errors = placed(&mut battle, "fill");
    assert!(errors.is_empty(), "{errors:#?}");
    let storage = &battle.storage()["fill"];
    let Some(Stored::Number(n)) = storage.table().get(&text("stopped_at")) else {
        panic!("{storage:?}");
    };
    assert!((5000.0..7000.0).contains(n), "{n} numbers fit");
    let Some(Stored::Text(why)) = storage.table().get(&text("why")) else {
        panic!("{storage:?}");
    };
    assert!(
        why.contains("scripts/probe.lua:6:") && why.contains("over its limit of 65536"),
        "{why}"
    );
    assert_eq!(storage.table().len(), 2, "the list is gone");
}

#[test]
fn what_storage_cannot_keep_is_refused_at_the_line_that_writes_it() {
    let cases = [
        (
            "store.f = function() end",
            "storage keeps booleans, numbers, strings and tables of them, not a function (at storage.f)",
        ),
        (
            "store.t = { list = { 1, 2, coroutine.create(print) } }",
            "not a thread (at storage.t.list[3])",
        ),
        (
            "store.who = self.entity",
            "storage cannot keep an entity handle (at storage.who); keep its number, `handle.id`, and get the handle back with `game:entity(id)`",
        ),
        (
            "store.x = 0/0",
            "storage keeps finite numbers, not NaN (at storage.x)",
        ),
        (
            "store.x = math.huge",
            "storage keeps finite numbers, not inf (at storage.x)",
        ),
        (
            "store.s = setmetatable({}, {})",
            "storage keeps plain tables, and the one for storage.s has a metatable",
        ),
        (
            "local t = {}; t.t = t; store.loop = t",
            "this would nest tables in storage more than 32 deep (does a table hold itself?); the storage is unchanged",
        ),
        (
            "store[true] = 1",
            "storage keys are strings or whole numbers, not boolean",
        ),
        (
            "store[1.5] = 1",
            "a number key in storage must be a whole number from -2^53 to 2^53, not 1.5",
        ),
        (
            "store.t = { [0.5] = 1 }",
            "a number key in storage must be a whole number from -2^53 to 2^53, not 0.5 (in storage.t)",
        ),
        (
            "store.b = '\\255'",
            "storage keeps strings of UTF-8 text, and this one is not (at storage.b)",
        ),
        (
            "store.a = 1; local a = store.a; store.a = nil; store.n = 1; local t = store; store.x = {}; local x = store.x; store.x = 2; x.y = 1",
            "storage.x is no longer a table in storage (it was replaced or removed)",
        ),
        (
            "game:modify('range', 0, function(v) store.seen = v end); game:query('range', self.entity)",
            "writing storage changes the battle, which a query modifier must not do",
        ),
        (
            "for k in pairs(store) do end",
            "invalid argument #1 to 'pairs' (table expected, got Storage)",
        ),
    ];
    for (i, (code, message)) in cases.iter().enumerate() {
        let mods = Mods::new();
        probe(
            &mods,
            "m",
            &format!(
                "        local store = game:storage()\n        store.before = {i}\n        {code}"
            ),
        );
        let content = mods.load_clean();
        let mut battle = bare(&content, BTreeMap::new());
        let errors = placed(&mut battle, "m");
        assert!(
            errors
                .first()
                .is_some_and(|e| e.starts_with("[m] scripts/probe.lua:5:") && e.contains(message)),
            "`{code}`: {errors:#?}"
        );
        // Nothing of the refused write is stored.
        let left: Vec<&Key> = battle.storage()["m"].table().keys().collect();
        assert!(
            left.iter()
                .all(|k| [text("before"), text("n"), text("x")].contains(k)),
            "`{code}` left {left:?}"
        );
    }

    // While the script's top level runs, storage can be kept but not used.
    let mods = Mods::new();
    mods.manifest("early", &[]).file(
        "early/scripts/early.lua",
        "local store = game:storage()\nstore.loaded = true\n",
    );
    let content = mods.load_clean();
    let battle = bare(&content, BTreeMap::new());
    let errors: Vec<String> = battle.script_errors().map(|e| e.to_string()).collect();
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0]
            .starts_with("[early] scripts/early.lua:2: writing storage needs a running battle"),
        "{errors:?}"
    );
    assert!(battle.storage().is_empty());
}

#[test]
fn each_mod_sees_and_changes_only_its_own_storage() {
    let mods = Mods::new();
    for id in ["a", "b"] {
        probe(
            &mods,
            id,
            &format!(
                r#"        local store = game:storage()
        self.saw = store.who
        store.who = "{id}"
        store.n = (store.n or 0) + 1
        -- naming another mod gives nothing of it: the storage is always this VM's
        local other = game:storage("{other}")
        store.other_saw = tostring(other.who)
        store.same = other == store"#,
                other = if id == "a" { "b" } else { "a" }
            ),
        );
    }
    let content = mods.load_clean();
    let start = BTreeMap::from([(
        "a".to_string(),
        Storage::new(Table::from([(text("n"), Stored::Number(41.0))])),
    )]);
    let mut battle = bare(&content, start);
    assert!(placed(&mut battle, "a").is_empty());
    assert!(placed(&mut battle, "b").is_empty());
    let all = battle.storage();
    assert_eq!(all.keys().collect::<Vec<_>>(), ["a", "b"]);
    for (id, n) in [("a", 42.0), ("b", 1.0)] {
        assert_eq!(stored(all, id, "who"), Some(&Stored::Text(id.into())));
        assert_eq!(stored(all, id, "other_saw"), Some(&Stored::Text(id.into())));
        assert_eq!(stored(all, id, "same"), Some(&Stored::Bool(true)));
        assert_eq!(stored(all, id, "n"), Some(&Stored::Number(n)), "{id}");
    }
}

#[test]
fn storage_tables_read_like_tables_in_a_fixed_order() {
    let mods = Mods::new();
    probe(
        &mods,
        "m",
        r#"        local store = game:storage()
        store.list = { "a", "b", "c", [5] = "e" }
        store.mixed = { z = 1, [3] = true, a = 2, [-1] = false, [2] = "two" }
        local seen = {}
        for k, v in store.mixed do
            table.insert(seen, tostring(k) .. "=" .. tostring(v))
        end
        store.order = table.concat(seen, " ")
        store.len = #store.list
        local list = store.list
        list[4] = "d"
        store.len_after = #store.list
        store.copy = store.list
        store.list[1] = "changed"
        store.copy_first = store.copy[1]
        store.name = tostring(store.mixed)
        store.nested = { deeper = { deepest = {} } }
        store.nested.deeper.deepest.x = 1
        store.path = tostring(store.nested.deeper.deepest)
        local plain = { 1 }
        store.plain = plain
        table.insert(plain, 2)
        store.plain_len = #store.plain
        store.missing = store.nothing == nil and store[{}] == nil"#,
    );
    let content = mods.load_clean();
    let mut battle = bare(&content, BTreeMap::new());
    assert!(placed(&mut battle, "m").is_empty());
    let all = battle.storage();
    let get = |key: &str| stored(all, "m", key).cloned();
    assert_eq!(
        get("order"),
        Some(Stored::Text("-1=false 2=two 3=true a=2 z=1".into()))
    );
    assert_eq!(get("len"), Some(Stored::Number(3.0)));
    assert_eq!(get("len_after"), Some(Stored::Number(5.0)));
    assert_eq!(get("copy_first"), Some(Stored::Text("a".into())));
    assert_eq!(get("name"), Some(Stored::Text("storage.mixed".into())));
    assert_eq!(
        get("path"),
        Some(Stored::Text("storage.nested.deeper.deepest".into()))
    );
    assert_eq!(get("plain_len"), Some(Stored::Number(1.0)));
    assert_eq!(get("missing"), Some(Stored::Bool(true)));
}

/// A mod whose building stores a table built in the order its param says, and counts the
/// ticks it has stood in storage.
fn builder(order: &str) -> Mods {
    let mods = Mods::new();
    probe(
        &mods,
        "d",
        &format!(
            r#"        local keys = {{ "k1", "k2", "k3", 4, 5, 6, "k7" }}
        local t = {{}}
        if "{order}" == "reversed" then
            for i = #keys, 1, -1 do t[keys[i]] = i end
        else
            for i = 1, #keys do t[keys[i]] = i end
        end
        game:storage().built = t
        game:storage().ticks = 0
        game:after(1, function() game:storage().ticks += 1 end)"#
        ),
    );
    mods
}

#[test]
fn the_state_hash_covers_storage_whatever_order_its_tables_were_built_in() {
    let hash = |order: &str, storage: BTreeMap<String, Storage>| {
        let content = builder(order).load_clean();
        let mut battle = bare(&content, storage);
        assert!(placed(&mut battle, "d").is_empty());
        battle.run_ticks(5);
        (battle.state_hash(), battle.storage().clone())
    };
    let (forward, stored) = hash("forward", BTreeMap::new());
    let (reversed, stored_reversed) = hash("reversed", BTreeMap::new());
    assert_eq!(stored, stored_reversed);
    assert_eq!(forward, reversed);
    // Storage that a mod does not touch is carried, and is part of the state.
    let other = BTreeMap::from([(
        "gone".to_string(),
        Storage::new(Table::from([(Key::Int(1), Stored::Bool(true))])),
    )]);
    let (carried, stored_carried) = hash("forward", other);
    assert_ne!(carried, forward);
    assert_eq!(
        stored_carried["gone"].table().get(&Key::Int(1)),
        Some(&Stored::Bool(true))
    );
    // An empty storage given at the start is no storage.
    let empty = BTreeMap::from([("d".to_string(), Storage::default())]);
    let mods = Mods::new();
    probe(&mods, "d", "");
    let content = mods.load_clean();
    assert_eq!(
        bare(&content, empty).state_hash(),
        bare(&content, BTreeMap::new()).state_hash()
    );
}

/// Two battles of a tally run: each battle's end hash and the run's save after them.
fn run_hashes() -> String {
    let content = tally().load_armed();
    let mut run = Run::new(&content, RunConfig::new(11)).unwrap();
    let mut hashes = Vec::new();
    for _ in 0..2 {
        if let RunPhase::Reward { .. } = run.phase() {
            run.choose_reward(&content, None, None).unwrap();
        }
        enter_battle(&mut run, &content);
        let mut battle = run.plan(&content).unwrap().start(&content).unwrap();
        play_level(&mut battle);
        hashes.push(format!("{:016x}", battle.state_hash()));
        run.finish_battle(&battle);
    }
    let save = xxhash_rust::xxh3::xxh3_64(run.to_ron().as_bytes());
    format!("{hashes:?} {save:016x} {}", kills(run.storage()))
}

#[test]
fn a_run_with_storage_gives_the_same_hashes_in_another_process() {
    let here = run_hashes();
    assert_eq!(hashes_from_child("storage::print_run_hashes", CHILD), here);
}

/// Run by `a_run_with_storage_gives_the_same_hashes_in_another_process` in a child process.
#[test]
#[ignore = "runs as a child process of a_run_with_storage_gives_the_same_hashes_in_another_process"]
fn print_run_hashes() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    println!("HASHES {}", run_hashes());
}

#[test]
fn a_scenario_gives_starting_storage_and_its_mistakes_are_located() {
    let mods = tally();
    let content = mods.load_with_core();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("veteran.ron");
    std::fs::write(
        &path,
        r#"(
    collection: ["tally:veteran"],
    buildings: [(blueprint: "tally:veteran", tile: (7, 4))],
    storage: {"tally": [("kills", 50), ("by_type", [("core:red_slime", 50)])]},
    waves: [(send: [(attacker: "core:red_slime")])],
)"#,
    )
    .unwrap();
    let (scenario, config) = Scenario::load(&path, &content).unwrap();
    let storage = &config.start.storage["tally"];
    assert_eq!(
        storage.table().get(&text("kills")),
        Some(&Stored::Number(50.0))
    );
    // The tally counts on from there, and the report shows what it has at the end.
    let report = rampart_core::scenario::play(&content, &scenario, config, false);
    assert_eq!(kills(&report.storage), 51.0);
    assert!(
        report.text().contains(
            "storage of `tally` at the end: { by_type = { [\"core:red_slime\"] = 51 }, kills = 51 }\n"
        ),
        "{}",
        report.text()
    );
    assert!(
        report.to_json().contains(r#""kills","#),
        "{}",
        report.to_json()
    );

    std::fs::write(
        &path,
        r#"(
    storage: {"taly": [("kills", 1)], "tally": [("big", "x"), (1, [(1, [(1, inf)])])]},
    waves: [(send: [(attacker: "core:red_slime")])],
)"#,
    )
    .unwrap();
    let problems: Vec<String> = Scenario::load(&path, &content)
        .unwrap_err()
        .iter()
        .map(|d| d.to_string())
        .collect();
    assert_eq!(problems.len(), 2, "{problems:#?}");
    assert!(
        problems
            .iter()
            .any(|p| p.ends_with(":2:15: there is no mod `taly` loaded to give storage to")),
        "{problems:#?}"
    );
    assert!(
        problems.iter().any(|p| p.ends_with(
            ":2:39: the storage of mod `tally` holds a number that is not finite at storage[1][1][1]"
        )),
        "{problems:#?}"
    );
}
