//! The mod list the game's Mods screen shows: every folder found, its origin and state, and the
//! problems of each mod given to that mod; switching mods in the player's settings.

use rampart_core::content::ContentDb;
use rampart_core::modding::order::Failure;
use rampart_core::modding::{
    Found, ModDir, ModList, ModSet, ModSettings, ModState, Origin, UserDirs,
};

use crate::common::{Mods, blueprint};

/// Three mods folders: the game's, the player's and an extra one.
struct Folders {
    game: Mods,
    user: Mods,
    extra: Mods,
}

impl Folders {
    fn new() -> Folders {
        let folders = Folders {
            game: Mods::new(),
            user: Mods::new(),
            extra: Mods::new(),
        };
        folders.game.manifest("base", &[]);
        folders.game.file(
            "base/blueprints/sentry.ron",
            &blueprint(
                "Sentry",
                "Tower",
                "cost: (materials: 10), range: 2.9, damage: 2, damage_type: [Physical], interval: 16",
            ),
        );
        folders.game.file(
            "sleepy/mod.ron",
            r#"(id: "sleepy", name: "Sleepy", version: "2.0.0", enabled: false)"#,
        );
        folders.user.file(
            "tidy/mod.ron",
            r#"(id: "tidy", name: "Tidy Towers", version: "1.2.3", description: "Neat.",
                dependencies: [(id: "base")])"#,
        );
        folders.user.manifest("switched", &[]);
        // A content error at line 2, column 23 of a blueprint: `ten` is no number.
        folders.extra.manifest("broken", &["base"]);
        folders.extra.file(
            "broken/blueprints/wall.ron",
            "(name: \"Wall\", kind: Special, rarity: Common,\n    cost: (materials: ten))",
        );
        folders.extra.manifest("needy", &["ghost"]);
        folders.extra.file(
            "garbled/mod.ron",
            "(id: \"garbled\", name: \"G\",\n  verison: \"1\")",
        );
        folders.extra.file("loose/readme.txt", "not a mod");
        folders
    }

    fn dirs(&self) -> Vec<ModDir> {
        [
            (&self.game, Origin::Game),
            (&self.user, Origin::User),
            (&self.extra, Origin::Extra),
        ]
        .into_iter()
        .map(|(m, origin)| ModDir {
            path: m.path().to_path_buf(),
            origin,
        })
        .collect()
    }

    fn list(&self, settings: &ModSettings) -> ModList {
        let set = ModSet::discover(&self.dirs(), settings);
        let (_, content) = ContentDb::load(&set);
        set.list(content.iter())
    }
}

#[test]
fn the_list_has_every_folder_with_its_origin_state_and_own_problems() {
    let folders = Folders::new();
    let mut settings = ModSettings::default();
    settings.set_enabled("switched", false);
    let list = folders.list(&settings);

    let rows: Vec<(&str, Option<usize>, Origin, &ModState)> = list
        .entries
        .iter()
        .map(|e| (e.id.as_str(), e.position, e.origin, &e.state))
        .collect();
    let missing = ModState::Failed(Failure::Missing {
        dependency: "ghost".into(),
    });
    assert_eq!(
        rows,
        [
            ("base", Some(1), Origin::Game, &ModState::Loaded),
            ("broken", Some(2), Origin::Extra, &ModState::Loaded),
            ("tidy", Some(3), Origin::User, &ModState::Loaded),
            ("needy", None, Origin::Extra, &missing),
            ("sleepy", None, Origin::Game, &ModState::DisabledByDefault),
            ("switched", None, Origin::User, &ModState::DisabledByPlayer),
            ("garbled", None, Origin::Extra, &ModState::Rejected),
            ("loose", None, Origin::Extra, &ModState::Rejected),
        ]
    );

    let tidy = list.get("tidy").unwrap();
    assert_eq!(tidy.name, "Tidy Towers");
    assert_eq!(tidy.version.as_ref().unwrap().to_string(), "1.2.3");
    assert_eq!(tidy.description, "Neat.");
    assert!(tidy.root.starts_with(folders.user.path()));
    assert!(tidy.diagnostics.is_empty());
    assert_eq!(tidy.switched_on(), Some(true));

    // The content error is the broken mod's, at its file, line and column; no one else's.
    let broken = list.get("broken").unwrap();
    assert_eq!(broken.error_count(), 1, "{:#?}", broken.diagnostics);
    let error = &broken.diagnostics[0];
    assert!(
        error
            .file
            .as_ref()
            .unwrap()
            .ends_with("broken/blueprints/wall.ron")
    );
    let at = error.position.unwrap();
    assert_eq!((at.line, at.column), (2, 23), "{error}");
    for entry in list.entries.iter().filter(|e| e.id != "broken") {
        assert!(
            entry
                .diagnostics
                .iter()
                .all(|d| !d.file.as_ref().is_some_and(|f| f.ends_with("wall.ron"))),
            "{} has the broken mod's error",
            entry.id
        );
    }

    // A missing dependency: the mod is still switched on, and its manifest says why it fails.
    let needy = list.get("needy").unwrap();
    assert_eq!(needy.switched_on(), Some(true));
    assert_eq!(needy.error_count(), 1);
    assert!(
        needy.diagnostics[0]
            .message
            .contains("needs mod `ghost`, which is not installed"),
        "{}",
        needy.diagnostics[0]
    );
    assert!(
        needy.diagnostics[0]
            .file
            .as_ref()
            .unwrap()
            .ends_with("needy/mod.ron")
    );

    assert_eq!(list.get("sleepy").unwrap().switched_on(), Some(false));
    assert_eq!(list.get("switched").unwrap().switched_on(), Some(false));

    // Folders that are not mods have nothing to switch, and say why.
    let garbled = &list.entries[6];
    assert_eq!(garbled.switched_on(), None);
    assert!(garbled.version.is_none());
    assert_eq!(garbled.diagnostics[0].position.unwrap().line, 2);
    let loose = &list.entries[7];
    assert!(loose.diagnostics[0].message.contains("has no mod.ron"));

    // Every problem found has exactly one place in the list.
    let set = ModSet::discover(&folders.dirs(), &settings);
    let (_, content) = ContentDb::load(&set);
    assert_eq!(
        list.diagnostics().count(),
        set.diagnostics.len() + content.len()
    );
}

#[test]
fn a_second_copy_of_a_mod_is_listed_apart_with_its_error() {
    let folders = Folders::new();
    folders.extra.file(
        "base-again/mod.ron",
        r#"(id: "base", name: "Base again", version: "9.0.0")"#,
    );
    let list = folders.list(&ModSettings::default());
    let copies: Vec<(&ModState, usize)> = list
        .entries
        .iter()
        .filter(|e| e.id == "base")
        .map(|e| (&e.state, e.error_count()))
        .collect();
    assert_eq!(copies, [(&ModState::Loaded, 0), (&ModState::Rejected, 1)]);
    assert_eq!(list.get("base").unwrap().position, Some(1));
}

#[test]
fn switching_writes_the_players_settings_and_warns_about_the_base_game() {
    let folders = Folders::new();
    let home = tempfile::tempdir().unwrap();
    let user = UserDirs {
        data: home.path().to_path_buf(),
        config: home.path().to_path_buf(),
    };
    let settings = ModSettings::default();
    let mut found = Found {
        user: Some(user.clone()),
        settings: settings.clone(),
        mods: ModSet::discover(&folders.dirs(), &settings),
    };

    let unknown = found.switch(&["ghost".into()], &[]).unwrap_err();
    assert!(unknown.contains("no mod `ghost`"), "{unknown}");
    assert!(!user.settings_file().exists(), "nothing written");

    let switched = found.switch(&["sleepy".into()], &["tidy".into()]).unwrap();
    assert_eq!(switched.file, user.settings_file());
    assert!(switched.warnings.is_empty());
    let saved = ModSettings::load(&user.settings_file()).unwrap();
    assert_eq!(saved, found.settings);
    let list = folders.list(&saved);
    assert_eq!(list.get("sleepy").unwrap().state, ModState::Loaded);
    assert_eq!(list.get("tidy").unwrap().state, ModState::DisabledByPlayer);

    let switched = found.switch(&[], &["core".into()]);
    assert!(switched.is_err(), "there is no core among these mods");
    found.mods = ModSet::discover(
        &[ModDir {
            path: crate::common::repo_mods(),
            origin: Origin::Game,
        }],
        &saved,
    );
    let switched = found.switch(&[], &["core".into()]).unwrap();
    assert!(switched.warnings[0].contains("`core` is the base game"));

    let mut nowhere = Found {
        user: None,
        ..found
    };
    let refused = nowhere.switch(&["core".into()], &[]).unwrap_err();
    assert!(refused.contains("RAMPART_HOME"), "{refused}");
}
