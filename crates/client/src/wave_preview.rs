//! The wave preview of the HUD (thesis 2.5.3): the wave running, then every wave still to come,
//! one row each, every batch as the attacker's icon, its count, name and spacing. The rows live
//! in a scroll area the wheel moves; they are built again only when the wave changes.

use bevy::prelude::*;

use super::models::icons::icon;
use super::rich::Icons;
use super::session::Game;
use super::ui::label;
use super::{ClientSet, Screen};
use rampart_core::battle::{Battle, Phase};

/// Fills the wave preview.
pub struct WavePreviewPlugin;

impl Plugin for WavePreviewPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            rebuild
                .in_set(ClientSet::Present)
                .run_if(in_state(Screen::Battle)),
        );
    }
}

/// The column the preview's rows go in, and the wave and phase they were built for.
#[derive(Component, Default)]
pub struct WavePreview {
    shown: Option<(u32, Phase, u64)>,
}

/// One kind of attacker in a wave.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch {
    /// The attacker type's id.
    pub attacker: String,
    /// Its display name.
    pub name: String,
    /// How many come.
    pub count: usize,
    /// Seconds between two of them, when more than one comes.
    pub spacing: Option<f64>,
}

/// The batches of wave `wave` (0-based), in the order they first appear.
pub fn batches(battle: &Battle, wave: usize) -> Option<Vec<Batch>> {
    let spawns = &battle.config().start.waves.get(wave)?.spawns;
    let mut groups: Vec<(String, Vec<u32>)> = Vec::new();
    for s in spawns {
        match groups.iter_mut().find(|(a, _)| *a == s.attacker) {
            Some((_, delays)) => delays.push(s.delay),
            None => groups.push((s.attacker.clone(), vec![s.delay])),
        }
    }
    let content = battle.content();
    Some(
        groups
            .into_iter()
            .map(|(attacker, mut delays)| {
                let name = content
                    .attacker_id(&attacker)
                    .map_or(attacker.clone(), |a| content.attacker(a).name.clone());
                delays.sort_unstable();
                let spacing = (delays.len() > 1).then(|| {
                    let span = f64::from(delays[delays.len() - 1] - delays[0]);
                    span / (delays.len() - 1) as f64 / rampart_core::TICKS_PER_SECOND as f64
                });
                Batch {
                    attacker,
                    name,
                    count: delays.len(),
                    spacing,
                }
            })
            .collect(),
    )
}

/// A batch as text: `15 Space Jellyfish, every 1.0 s`, or `2 Space Jellyfish at once`.
pub fn batch_text(b: &Batch) -> String {
    match b.spacing {
        // Closer than the tenth of a second shown: they come together.
        Some(s) if s < 0.05 => format!("{} {} at once", b.count, b.name),
        Some(s) => format!("{} {}, every {s:.1} s", b.count, b.name),
        None => format!("{} {}", b.count, b.name),
    }
}

/// The height of a wave's row (its icons' size): the HUD shows a whole number of rows, so that
/// none is cut at the bottom as if it were the last.
pub const ROW: f32 = 22.0;

pub(crate) fn rebuild(
    mut commands: Commands,
    game: NonSend<Game>,
    icons: Res<Icons>,
    mut previews: Query<(Entity, &mut WavePreview)>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let battle = &session.battle;
    let (wave, phase) = (battle.wave(), battle.phase());
    // The run's seed and level tell a continued or next level's preview from this one.
    let key = (
        wave,
        phase,
        session.run.seed() ^ u64::from(session.run.level()),
    );
    for (column, mut preview) in &mut previews {
        // New icons (a model changed on reload) draw the rows again too.
        if preview.shown == Some(key) && !icons.is_changed() {
            continue;
        }
        preview.shown = Some(key);
        commands.entity(column).despawn_related::<Children>();
        let total = battle.config().start.waves.len();
        let running = phase == Phase::Wave;
        let first = if running {
            (wave as usize).saturating_sub(1)
        } else {
            wave as usize
        };
        commands.entity(column).with_children(|rows| {
            for w in first..total {
                let Some(batches) = batches(battle, w) else {
                    continue;
                };
                let mark = if running && w + 1 == wave as usize {
                    "Now "
                } else if w == wave as usize {
                    "Next"
                } else {
                    "    "
                };
                // The wave's label, then its batches; a wave with more batches than fit wraps
                // under its first batch, never under the label, so it cannot pass for a wave of
                // its own, and a batch's icon stays with its text.
                rows.spawn(Node {
                    column_gap: Val::Px(5.0),
                    align_items: AlignItems::FlexStart,
                    ..default()
                })
                .with_children(|row| {
                    let color = Color::srgb(0.85, 0.85, 0.9);
                    row.spawn((
                        label(format!("{mark} Wave {}:", w + 1), 13.0, color),
                        Node {
                            flex_shrink: 0.0,
                            ..default()
                        },
                    ));
                    row.spawn(Node {
                        column_gap: Val::Px(8.0),
                        flex_wrap: FlexWrap::Wrap,
                        flex_shrink: 1.0,
                        // Allowed narrower than its batches in a row, so it wraps them.
                        min_width: Val::Px(0.0),
                        ..default()
                    })
                    .with_children(|list| {
                        for b in &batches {
                            list.spawn(Node {
                                column_gap: Val::Px(5.0),
                                align_items: AlignItems::Center,
                                ..default()
                            })
                            .with_children(|batch| {
                                spawn_icon(batch, &icons, &b.attacker);
                                batch.spawn(label(batch_text(b), 13.0, color));
                            });
                        }
                    });
                });
            }
        });
    }
}

/// The attacker type's icon: its `icon` file, else the picture of its model (`models/icons.rs`);
/// an empty space for a type the content does not have.
fn spawn_icon(row: &mut ChildSpawnerCommands, icons: &Icons, attacker: &str) {
    row.spawn(icon(icons.get(&Icons::attacker(attacker)), ROW));
}
