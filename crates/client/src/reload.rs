//! Hot reload while playing: saving a file of a loaded mod loads the mods again. A terrain type
//! whose colours or name changed redraws the world as it is; any other change to it makes the
//! level's world again from the level's own seeds, so undoing the edit gives back the very same
//! world, or — when the new terrain type would move the paths — new terrain under the same
//! paths (`level::WorldSetup::regenerate`). Changed blueprints, attackers and scripts continue
//! the battle with the new content
//! ([`Battle::reload_content`](rampart_core::battle::Battle::reload_content)). Both wait for the build
//! phase, so no wave is interrupted, and buildings that no longer fit are refunded with a
//! notice. A file with errors shows its diagnostics in an overlay and the game keeps what it had.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bevy::prelude::*;

use super::session::Game;
use super::ui::{problems_box, problems_text};
use super::{ClientSet, Content, Loaded, Screen};
use rampart_core::battle::Phase;
use rampart_core::battle::reload::Refund;
use rampart_core::content::ContentDb;
use rampart_core::modding::ModList;
use rampart_core::modding::watch::FileWatcher;

/// Watches the loaded mods' folders and applies changes.
pub struct ReloadPlugin;

impl Plugin for ReloadPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Watch>()
            .add_systems(OnEnter(Screen::Battle), spawn_overlay)
            .add_systems(
                Update,
                follow
                    .in_set(ClientSet::Simulate)
                    .run_if(resource_changed::<Content>),
            )
            .add_systems(
                Update,
                (
                    (watch, apply).chain().in_set(ClientSet::Simulate),
                    show.in_set(ClientSet::Present),
                )
                    .after(follow)
                    .run_if(in_state(Screen::Battle)),
            );
    }
}

/// The watcher and what it found.
#[derive(Resource, Default)]
pub struct Watch {
    // The receiver inside is not shared between threads; the lock only makes that visible.
    watcher: Option<Mutex<FileWatcher>>,
    /// The folders watched: those of the loaded mods.
    folders: Vec<PathBuf>,
    /// New content and its mod list waiting for the build phase, and whether a terrain file
    /// changed.
    pending: Option<(Arc<ContentDb>, Arc<ModList>, bool)>,
    /// The diagnostics of the last reload that had errors (empty when it was fine).
    pub problems: String,
    /// When the waiting change was noticed.
    noticed: Option<std::time::Instant>,
    /// How long the last change took from being noticed to being applied, in milliseconds.
    pub last_applied_ms: Option<f64>,
}

/// Watches the folders of the mods loaded now: at the start, and again when switching mods
/// on or off changed which mods load.
fn follow(content: Res<Content>, mut watch: ResMut<Watch>) {
    let folders: Vec<PathBuf> = content
        .db
        .mods
        .iter()
        .map(|m| m.root.clone())
        .filter(|f| f.is_dir())
        .collect();
    if watch.watcher.is_some() && folders == watch.folders {
        return;
    }
    watch.watcher = match FileWatcher::new(&folders) {
        Ok(watcher) => Some(Mutex::new(watcher)),
        Err(e) => {
            warn!("hot reload is off: cannot watch the mod folders: {e}");
            None
        }
    };
    watch.folders = folders;
}

/// The overlay with reload diagnostics.
#[derive(Component)]
struct Problems;

fn spawn_overlay(mut commands: Commands) {
    commands.spawn((
        Problems,
        problems_box(
            "",
            Node {
                position_type: PositionType::Absolute,
                left: Val::Px(8.0),
                bottom: Val::Px(90.0),
                max_width: Val::Px(760.0),
                display: Display::None,
                ..default()
            },
        ),
        GlobalZIndex(5),
        DespawnOnExit(Screen::Battle),
    ));
}

/// Loads the mods again when files changed.
fn watch(mut watch: ResMut<Watch>, content: Res<Content>, mut game: NonSendMut<Game>) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let changed = match watch.watcher.as_ref().map(Mutex::lock) {
        Some(Ok(w)) => w.poll(),
        _ => return,
    };
    if changed.is_empty() {
        return;
    }
    let Loaded { db, mods } = content.load();
    let errors = problems_text(mods.diagnostics().filter(|d| d.is_error()));
    let terrain = changed
        .iter()
        .any(|p| p.extension().is_some_and(|e| e == "terrain"));
    let world_terrain = session
        .battle
        .field()
        .map(|f| f.world().terrain.clone())
        .unwrap_or_default();
    if !errors.is_empty() {
        watch.problems =
            format!("A changed mod file has errors; the game keeps what it had.\n\n{errors}");
        // The broken file's content is left out; a level whose terrain went missing keeps its
        // world, everything else may still apply.
        if terrain && db.terrain(&world_terrain).is_none() {
            return;
        }
    } else {
        watch.problems.clear();
    }
    let other = changed
        .iter()
        .any(|p| p.extension().is_none_or(|e| e != "terrain"));
    let (terrain, other) = match &watch.pending {
        Some((_, _, t)) => (terrain || *t, other),
        None => (terrain, other),
    };
    if terrain || other {
        watch.pending = Some((Arc::new(db), Arc::new(mods), terrain));
        watch.noticed.get_or_insert_with(std::time::Instant::now);
        if session.battle.phase() == Phase::Wave {
            session.notify("Mod files changed: the changes apply when this wave ends");
        }
    }
}

/// Applies waiting changes in the build phase.
fn apply(mut watch: ResMut<Watch>, mut content: ResMut<Content>, mut game: NonSendMut<Game>) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    if session.battle.phase() != Phase::Build {
        return;
    }
    let Some((db, mods, terrain)) = watch.pending.take() else {
        return;
    };
    let mut refunds: Vec<Refund> = Vec::new();
    let old_terrain = session
        .battle
        .field()
        .and_then(|f| content.db.terrain(&f.world().terrain).cloned());
    match session.battle.reload_content(db.clone()) {
        Ok(r) => refunds.extend(r),
        Err(e) => {
            session.notify(format!("The new content could not be applied: {e}"));
            return;
        }
    }
    content.db = db.clone();
    content.mods = mods;
    if terrain && let Some(world) = session.battle.field().map(|f| f.world().clone()) {
        match (db.terrain(&world.terrain), old_terrain) {
            // Only colours or the name changed: the same world, drawn again in its new colours.
            (Some(new), Some(old)) if new.same_worlds(&old) => {}
            (Some(_), _) => match session.plan.setup.world.regenerate(&db, &world) {
                Ok(new) => match session.battle.replace_world(Arc::new(new)) {
                    Ok(r) => refunds.extend(r),
                    Err(e) => session.notify(format!("The new terrain could not be used: {e}")),
                },
                Err(e) => {
                    watch.problems = format!(
                        "The changed terrain type cannot be generated under this level's paths; \
                         the game keeps the old terrain.\n\n{e}"
                    );
                }
            },
            (None, _) => session.notify("The level's terrain type is no longer loaded"),
        }
    }
    if let Some(at) = watch.noticed.take() {
        let ms = at.elapsed().as_secs_f64() * 1000.0;
        info!("hot reload: applied {ms:.0} ms after the change was noticed");
        watch.last_applied_ms = Some(ms);
    }
    session.notify("Mod changes applied");
    for r in refunds {
        session.notify(format!(
            "{} refunded ({:.0} materials): {}",
            r.name, r.cost.materials, r.reason
        ));
    }
}

fn show(
    watch: Res<Watch>,
    mut overlays: Query<(&mut Node, &Children), With<Problems>>,
    mut texts: Query<&mut Text>,
) {
    if !watch.is_changed() {
        return;
    }
    for (mut node, children) in &mut overlays {
        node.display = if watch.problems.is_empty() {
            Display::None
        } else {
            Display::Flex
        };
        for child in children.iter() {
            if let Ok(mut text) = texts.get_mut(child) {
                text.0 = watch.problems.clone();
            }
        }
    }
}
