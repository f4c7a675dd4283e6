//! Hot reload while playing: saving a file of a loaded mod loads the mods again. A terrain type
//! whose colours or name changed redraws the world as it is; any other change to it makes the
//! level's world again from the level's own seeds, so undoing the edit gives back the very same
//! world, or — when the new terrain type would move the paths — new terrain under the same
//! paths (`level::WorldSetup::regenerate`). Changed blueprints, attackers and scripts continue
//! the battle with the new content
//! ([`Battle::reload_content`](crate::battle::Battle::reload_content)). Both wait for the build
//! phase, so no wave is interrupted, and buildings that no longer fit are refunded with a
//! notice. A file with errors shows its diagnostics in an overlay and the game keeps what it had.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use bevy::prelude::*;

use super::session::Game;
use super::ui::label;
use super::{ClientSet, Content, Screen};
use crate::battle::Phase;
use crate::battle::reload::Refund;
use crate::content::ContentDb;
use crate::modding::watch::FileWatcher;

/// Watches the mod folders and applies changes.
pub struct ReloadPlugin {
    /// The folders to watch.
    pub folders: Vec<PathBuf>,
}

impl Plugin for ReloadPlugin {
    fn build(&self, app: &mut App) {
        let folders: Vec<PathBuf> = self
            .folders
            .iter()
            .filter(|f| f.is_dir())
            .cloned()
            .collect();
        match FileWatcher::new(&folders) {
            Ok(watcher) => {
                app.insert_resource(Watch {
                    watcher: Mutex::new(watcher),
                    pending: None,
                    problems: String::new(),
                    noticed: None,
                    last_applied_ms: None,
                });
            }
            Err(e) => warn!("hot reload is off: cannot watch the mod folders: {e}"),
        }
        app.add_systems(OnEnter(Screen::Battle), spawn_overlay)
            .add_systems(
                Update,
                (
                    (watch, apply).chain().in_set(ClientSet::Simulate),
                    show.in_set(ClientSet::Present),
                )
                    .run_if(in_state(Screen::Battle).and_then(resource_exists::<Watch>)),
            );
    }
}

/// The watcher and what it found.
#[derive(Resource)]
pub struct Watch {
    // The receiver inside is not shared between threads; the lock only makes that visible.
    watcher: Mutex<FileWatcher>,
    /// New content waiting for the build phase, and whether a terrain file changed.
    pending: Option<(Arc<ContentDb>, bool)>,
    /// The diagnostics of the last reload that had errors (empty when it was fine).
    pub problems: String,
    /// When the waiting change was noticed.
    noticed: Option<std::time::Instant>,
    /// How long the last change took from being noticed to being applied, in milliseconds.
    pub last_applied_ms: Option<f64>,
}

/// The overlay with reload diagnostics.
#[derive(Component)]
struct Problems;

fn spawn_overlay(mut commands: Commands) {
    commands.spawn((
        Problems,
        Node {
            position_type: PositionType::Absolute,
            left: Val::Px(8.0),
            bottom: Val::Px(90.0),
            max_width: Val::Px(760.0),
            padding: UiRect::all(Val::Px(8.0)),
            display: Display::None,
            ..default()
        },
        BackgroundColor(Color::srgba(0.25, 0.02, 0.02, 0.9)),
        GlobalZIndex(5),
        DespawnOnExit(Screen::Battle),
        children![label("", 13.0, Color::srgb(1.0, 0.85, 0.85))],
    ));
}

/// Loads the mods again when files changed.
fn watch(mut watch: ResMut<Watch>, content: Res<Content>, mut game: NonSendMut<Game>) {
    let Some(session) = game.0.as_mut() else {
        return;
    };
    let changed = match watch.watcher.lock() {
        Ok(w) => w.poll(),
        Err(_) => return,
    };
    if changed.is_empty() {
        return;
    }
    let (db, diagnostics) = (content.reload)();
    let errors: Vec<String> = diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.render_ascii())
        .collect();
    let terrain = changed
        .iter()
        .any(|p| p.extension().is_some_and(|e| e == "terrain"));
    let world_terrain = session
        .battle
        .field()
        .map(|f| f.world().terrain.clone())
        .unwrap_or_default();
    if !errors.is_empty() {
        watch.problems = format!(
            "A changed mod file has errors; the game keeps what it had.\n\n{}",
            errors.join("\n")
        );
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
        Some((_, t)) => (terrain || *t, other),
        None => (terrain, other),
    };
    if terrain || other {
        watch.pending = Some((Arc::new(db), terrain));
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
    let Some((db, terrain)) = watch.pending.take() else {
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
