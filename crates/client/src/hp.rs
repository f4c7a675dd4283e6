//! Attackers' HP indicators (thesis 2.6): a bar divided into sections of a power of ten of HP,
//! the fill coloured by that power (in the player's palette), one size for small attackers and a bigger one for large ones
//! and bosses; a shield drawn over the bar; the status effects below it as small badges with the
//! time they have left. A small attacker's bar shows only once there is something to read on it
//! (it is hurt, shielded or under an effect), so that a crowd walking in unhurt is not a pile
//! of full bars; of a crowd's bars at most [`MAX_BARS`] draw, the most urgent first (bosses,
//! then the nearest to the selected building, else the most hurt), a bar that would lie on a
//! more urgent one fades ([`crowd`]), and bars shrink at far zoom ([`bar_scale`]).

use bevy::prelude::*;

use super::camera::Rig;
use super::palette::Palette;
use super::rich::Icons;
use super::session::{Game, Session, Thing};
use super::ui::{label, show_if};
use super::units::Follow;
use super::{ClientSet, Screen};
use rampart_core::TICKS_PER_SECOND;
use rampart_core::battle::{Battle, Effect, EntityId, EntityKind, Lasting, Position};
use rampart_core::content::Size;
use rampart_core::content::colour::Rgb;
use std::collections::HashMap;

/// Keeps the HP indicators of attackers up to date.
pub struct HpPlugin;

impl Plugin for HpPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(
            Update,
            (spawn_bars, update_bars)
                .chain()
                .in_set(ClientSet::Present)
                .run_if(in_state(Screen::Battle)),
        );
    }
}

/// How an HP bar is divided: each whole section holds `size` HP; there are `count` sections, the
/// last one shorter when the maximum is not a multiple of `size`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sections {
    /// HP per section: a power of ten.
    pub size: f64,
    /// Sections, 2 to 10 (1 only for an attacker with no HP to speak of).
    pub count: u32,
}

/// The largest power of ten that still divides `max_hp` into more than one section.
pub fn sections(max_hp: f64) -> Sections {
    if !(max_hp.is_finite() && max_hp > 0.0) {
        return Sections {
            size: 1.0,
            count: 1,
        };
    }
    let mut size = 10f64.powf(max_hp.log10().floor());
    // A maximum that is itself a power of ten would be one section: take the next size down.
    if max_hp / size <= 1.0 + 1e-9 {
        size /= 10.0;
    }
    Sections {
        size,
        count: (max_hp / size - 1e-9).ceil().max(1.0) as u32,
    }
}

/// The bar's size in pixels for an attacker of `size`.
pub fn bar_size(size: Size) -> Vec2 {
    match size {
        Size::Small => Vec2::new(30.0, 4.0),
        Size::Large => Vec2::new(48.0, 7.0),
        Size::Boss => Vec2::new(72.0, 9.0),
    }
}

/// A status effect's badge: a letter (where no icon is drawn), its colour — for a mod's own
/// effect its `tint` from `effects.ron`, if it has one — and the time it has left (`3s`, `2w`,
/// `5×`).
pub fn badge(effect: &Effect, tint: Option<Rgb>) -> (String, Color, String) {
    let (letter, color) = match effect.name.as_str() {
        "burning" => ("B", Color::srgb(1.0, 0.45, 0.1)),
        "freezing" => ("F", Color::srgb(0.55, 0.85, 1.0)),
        "shield" => ("S", Color::srgb(0.9, 0.95, 1.0)),
        "stealth" => ("H", Color::srgb(0.6, 0.6, 0.65)),
        "overclocked" => ("O", Color::srgb(1.0, 0.9, 0.3)),
        "paralyzed" => ("P", Color::srgb(0.7, 0.45, 1.0)),
        "electrified" => ("E", Color::srgb(0.4, 1.0, 1.0)),
        other => {
            let first = other.chars().next().unwrap_or('?').to_ascii_uppercase();
            let color = tint.map_or(Color::srgb(0.85, 0.85, 0.85), |t| {
                let [r, g, b] = t.unit();
                Color::srgb(r, g, b)
            });
            return (first.to_string(), color, left(effect));
        }
    };
    (letter.to_string(), color, left(effect))
}

fn left(effect: &Effect) -> String {
    match effect.lasting {
        Lasting::Ticks(t) => format!("{}s", t.div_ceil(TICKS_PER_SECOND as u32)),
        Lasting::Waves(w) => format!("{w}w"),
        Lasting::Shots(s) => format!("{s}×"),
    }
}

/// Whether an attacker's bar shows: always for large attackers and bosses, for a small one only
/// while it is hurt, shielded or under an effect.
pub fn shown(size: Size, hp: f64, max_hp: f64, effects: usize) -> bool {
    size != Size::Small || hp < max_hp || effects > 0
}

/// The colour of a bar's empty part.
const BAR_BACK: Color = Color::srgb(0.2, 0.2, 0.22);

/// The most attackers' bars drawn at once: past a couple of dozen, a crowd's bars stop being
/// read one by one and only hide the attackers.
pub const MAX_BARS: usize = 24;

/// Attackers closer than this (in tiles) have their bars drawn on each other: the less urgent
/// one fades.
pub const CROWDED: f64 = 0.9;

/// A bar's scale when the camera sees `zoom` world units from the bottom of the view to the
/// top: full size up to 15 units, shrinking to 60% at the farthest zoom (40), where the
/// attackers are small and full-size bars would cover them.
pub fn bar_scale(zoom: f32) -> f32 {
    const NEAR: f32 = 15.0;
    const FAR: f32 = 40.0;
    1.0 - 0.4 * ((zoom - NEAR) / (FAR - NEAR)).clamp(0.0, 1.0)
}

/// How much of its colour a faded bar keeps.
const FADED: f32 = 0.3;

/// How an attacker's bar is drawn in a crowd.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Drawn as it is.
    Full,
    /// Drawn faint: a more urgent attacker's bar is beside it.
    Faded,
}

/// The bars of `battle`'s attackers that draw, and how: only those [`shown`] says have something
/// to read, at most [`MAX_BARS`] of them, the most urgent first — bosses, then the nearest to
/// `focus` (the selected building) when there is one, else the most hurt, a large attacker
/// before an as urgent small one — and a bar within [`CROWDED`] of a more urgent full one
/// faded. An attacker missing from the map draws no bar.
pub fn crowd(battle: &Battle, focus: Option<Position>) -> HashMap<EntityId, Look> {
    let content = battle.content();
    let mut wanted: Vec<(EntityId, Size, f64, Position)> = battle
        .entities()
        .filter_map(|(id, e)| {
            let EntityKind::Attacker(a) = e.kind else {
                return None;
            };
            let size = content.attacker(a).size;
            shown(size, e.hp, e.max_hp, e.effects.len()).then(|| {
                let urgency = match focus {
                    Some(f) => distance(e.position, f),
                    None => e.hp / e.max_hp.max(1e-9),
                };
                (id, size, urgency, e.position)
            })
        })
        .collect();
    // Bosses first; the rest by urgency, a large attacker before a small one as urgent.
    let rank = |size: Size| match size {
        Size::Boss => 0,
        Size::Large => 1,
        Size::Small => 2,
    };
    wanted.sort_by(|a, b| {
        (a.1 != Size::Boss)
            .cmp(&(b.1 != Size::Boss))
            .then(a.2.total_cmp(&b.2))
            .then(rank(a.1).cmp(&rank(b.1)))
            .then(a.0.cmp(&b.0))
    });
    let mut full: Vec<Position> = Vec::new();
    wanted
        .into_iter()
        .take(MAX_BARS)
        .map(|(id, _, _, at)| {
            let look = if full.iter().any(|&f| distance(f, at) < CROWDED) {
                Look::Faded
            } else {
                full.push(at);
                Look::Full
            };
            (id, look)
        })
        .collect()
}

fn distance(a: Position, b: Position) -> f64 {
    (a.x - b.x).hypot(a.y - b.y)
}

/// The selected building's position, which the bars nearest to draw first.
fn focus(session: &Session) -> Option<Position> {
    match session.selection.thing {
        Some(Thing::Entity(id)) => session
            .battle
            .entity(id)
            .filter(|e| !matches!(e.kind, EntityKind::Attacker(_)))
            .map(|e| e.position),
        _ => None,
    }
}

/// An attacker's HP indicator, made for its maximum HP.
#[derive(Component)]
struct HpBar {
    attacker: EntityId,
    /// The maximum HP the sections were laid out for.
    max_hp: f64,
}

/// The fill of an HP bar.
#[derive(Component)]
struct HpFill;

/// A black line between an HP bar's sections.
#[derive(Component)]
struct SectionLine;

/// The shield over an HP bar.
#[derive(Component)]
struct ShieldFill;

/// The row of effect badges under an HP bar.
#[derive(Component)]
struct Badges {
    /// What the badges show now, to rebuild them only when it changes.
    shown: Vec<(String, String)>,
}

/// Gives every attacker without one its indicator.
fn spawn_bars(
    mut commands: Commands,
    game: NonSend<Game>,
    palette: Res<Palette>,
    bars: Query<&HpBar>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let have: std::collections::BTreeSet<EntityId> = bars.iter().map(|b| b.attacker).collect();
    let content = session.battle.content();
    for (id, e) in session.battle.entities() {
        let EntityKind::Attacker(a) = e.kind else {
            continue;
        };
        if have.contains(&id) {
            continue;
        }
        let px = bar_size(content.attacker(a).size);
        spawn_bar(&mut commands, id, e.max_hp, px, &palette);
    }
}

fn spawn_bar(commands: &mut Commands, id: EntityId, max_hp: f64, px: Vec2, palette: &Palette) {
    let s = sections(max_hp);
    let share = |hp: f64| Val::Percent(((hp / max_hp).clamp(0.0, 1.0) * 100.0) as f32);
    commands
        .spawn((
            HpBar {
                attacker: id,
                max_hp,
            },
            Follow::unit(id, Vec2::new(-px.x / 2.0, -28.0 - px.y * 2.0)),
            Node {
                position_type: PositionType::Absolute,
                width: Val::Px(px.x),
                height: Val::Px(px.y),
                border: UiRect::all(Val::Px(1.0)),
                ..default()
            },
            BackgroundColor(BAR_BACK),
            BorderColor::all(Color::BLACK),
            // Labels over the world never keep the cursor from the world.
            Pickable::IGNORE,
            DespawnOnExit(Screen::Battle),
        ))
        .with_children(|bar| {
            bar.spawn((
                HpFill,
                Node {
                    width: Val::Percent(100.0),
                    height: Val::Percent(100.0),
                    ..default()
                },
                BackgroundColor(palette.section(s.size)),
                Pickable::IGNORE,
            ));
            // Black lines between the sections; the last section is shorter if it must be.
            for i in 1..s.count {
                bar.spawn((
                    SectionLine,
                    Node {
                        position_type: PositionType::Absolute,
                        left: share(s.size * f64::from(i)),
                        width: Val::Px(1.0),
                        height: Val::Percent(100.0),
                        ..default()
                    },
                    BackgroundColor(Color::BLACK),
                    Pickable::IGNORE,
                ));
            }
            bar.spawn((
                ShieldFill,
                Node {
                    position_type: PositionType::Absolute,
                    top: Val::Px(-3.0),
                    height: Val::Px(3.0),
                    width: Val::Percent(0.0),
                    ..default()
                },
                BackgroundColor(Color::srgb(0.75, 0.9, 1.0)),
                Pickable::IGNORE,
            ));
            bar.spawn((
                Badges { shown: Vec::new() },
                Node {
                    position_type: PositionType::Absolute,
                    top: Val::Px(px.y + 2.0),
                    column_gap: Val::Px(2.0),
                    ..default()
                },
                Pickable::IGNORE,
            ));
        });
}

/// Fills, shields and badges from the battle.
fn update_bars(
    mut commands: Commands,
    game: NonSend<Game>,
    mut bars: Query<
        (
            Entity,
            &HpBar,
            &Children,
            &mut Node,
            &mut BackgroundColor,
            &mut BorderColor,
            &mut UiTransform,
        ),
        (Without<HpFill>, Without<ShieldFill>, Without<SectionLine>),
    >,
    mut fills: Query<
        (&mut Node, &mut BackgroundColor),
        (
            With<HpFill>,
            Without<ShieldFill>,
            Without<HpBar>,
            Without<SectionLine>,
        ),
    >,
    mut lines: Query<
        &mut BackgroundColor,
        (
            With<SectionLine>,
            Without<HpFill>,
            Without<HpBar>,
            Without<ShieldFill>,
        ),
    >,
    mut shields: Query<
        &mut Node,
        (
            With<ShieldFill>,
            Without<HpFill>,
            Without<HpBar>,
            Without<SectionLine>,
        ),
    >,
    mut badges: Query<(Entity, &mut Badges)>,
    rigs: Query<&Rig>,
    icons: Res<Icons>,
    palette: Res<Palette>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let looks = crowd(&session.battle, focus(session));
    let scale = Vec2::splat(rigs.iter().next().map_or(1.0, |r| bar_scale(r.zoom)));
    for (bar, hp, children, mut node, mut back, mut border, mut transform) in &mut bars {
        let Some(e) = session.battle.entity(hp.attacker) else {
            // `Follow` takes the bar away with its attacker.
            continue;
        };
        if e.max_hp != hp.max_hp {
            // A new maximum needs new sections.
            commands.entity(bar).despawn();
            continue;
        }
        let look = looks.get(&hp.attacker).copied();
        show_if(&mut node, look.is_some());
        if look.is_none() {
            // Hidden (most of a crowd): brought up to date in the frame it shows again.
            continue;
        }
        if transform.scale != scale {
            transform.scale = scale;
        }
        let alpha = if look == Some(Look::Faded) {
            FADED
        } else {
            1.0
        };
        set_colour(&mut back, BAR_BACK.with_alpha(alpha));
        let edge = Color::BLACK.with_alpha(alpha);
        if border.top != edge {
            *border = BorderColor::all(edge);
        }
        // The palette may change while the bar is shown (the colour-blind setting).
        let fill = palette.section(sections(hp.max_hp).size).with_alpha(alpha);
        let content = session.battle.content();
        let share = |v: f64| ((v / e.max_hp.max(1e-9)).clamp(0.0, 1.0) * 100.0) as f32;
        let shield = e
            .effects
            .iter()
            .find(|f| f.name == "shield")
            .map_or(0.0, |f| f.magnitude);
        let tint = |f: &Effect| content.effect_look(&f.name).and_then(|l| l.tint);
        let wanted: Vec<(String, String)> = e
            .effects
            .iter()
            .map(|f| {
                let (letter, _, time) = badge(f, tint(f));
                (letter, time)
            })
            .collect();
        for child in children.iter() {
            if let Ok((mut node, mut colour)) = fills.get_mut(child) {
                set_width(&mut node, share(e.hp));
                set_colour(&mut colour, fill);
            }
            if let Ok(mut colour) = lines.get_mut(child) {
                set_colour(&mut colour, edge);
            }
            if let Ok(mut node) = shields.get_mut(child) {
                set_width(&mut node, share(shield));
            }
            if let Ok((row, mut shown)) = badges.get_mut(child)
                && shown.shown != wanted
            {
                shown.shown = wanted.clone();
                commands.entity(row).despawn_related::<Children>();
                commands.entity(row).with_children(|r| {
                    for f in &e.effects {
                        let (letter, color, time) = badge(f, tint(f));
                        let mut chip = r.spawn((
                            Node {
                                padding: UiRect::horizontal(Val::Px(2.0)),
                                align_items: AlignItems::Center,
                                ..default()
                            },
                            BackgroundColor(color.with_alpha(0.85)),
                            Pickable::IGNORE,
                        ));
                        // The effect's icon where a mod has one, else its letter.
                        let text = match icons.of_effect(&f.name) {
                            Some(image) => {
                                chip.with_child((
                                    ImageNode::new(image),
                                    Node {
                                        width: Val::Px(10.0),
                                        height: Val::Px(10.0),
                                        ..default()
                                    },
                                    Pickable::IGNORE,
                                ));
                                time
                            }
                            None => format!("{letter}{time}"),
                        };
                        chip.with_child((label(text, 9.0, Color::BLACK), Pickable::IGNORE));
                    }
                });
            }
        }
    }
}

/// Sets `node`'s width to `percent` only if it differs, so that an unchanged bar is not laid
/// out again.
fn set_width(node: &mut Mut<Node>, percent: f32) {
    if node.width != Val::Percent(percent) {
        node.width = Val::Percent(percent);
    }
}

/// Sets `colour` to `wanted` only if it differs, so that an unchanged bar is not redrawn (read
/// through the `Mut`, which a `&mut Color` taken from it would mark changed).
fn set_colour(colour: &mut Mut<BackgroundColor>, wanted: Color) {
    if colour.0 != wanted {
        colour.0 = wanted;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_the_largest_power_of_ten_that_gives_more_than_one() {
        // The thesis's figure: 4/5 HP in 1-HP sections, 25/35 HP in three 10s and a half one.
        assert_eq!(
            sections(5.0),
            Sections {
                size: 1.0,
                count: 5
            }
        );
        assert_eq!(
            sections(35.0),
            Sections {
                size: 10.0,
                count: 4
            }
        );
        // A power of ten is ten sections of the next size down, never one section.
        assert_eq!(
            sections(10.0),
            Sections {
                size: 1.0,
                count: 10
            }
        );
        assert_eq!(
            sections(100.0),
            Sections {
                size: 10.0,
                count: 10
            }
        );
        assert_eq!(
            sections(101.0),
            Sections {
                size: 100.0,
                count: 2
            }
        );
        assert_eq!(
            sections(4500.0),
            Sections {
                size: 1000.0,
                count: 5
            }
        );
        for max in [2.0, 7.5, 19.0, 250.0, 999.0, 12_345.0] {
            let s = sections(max);
            assert!((2..=10).contains(&s.count), "{max}: {s:?}");
        }
        assert_eq!(sections(0.0).count, 1);
        assert_eq!(sections(f64::NAN).count, 1);
    }

    #[test]
    fn badges_say_what_is_left() {
        let effect = |name: &str, lasting| Effect {
            name: name.into(),
            lasting,
            magnitude: 1.0,
            source: None,
            age: 0,
        };
        assert_eq!(badge(&effect("burning", Lasting::Ticks(41)), None).2, "3s");
        assert_eq!(badge(&effect("freezing", Lasting::Waves(2)), None).2, "2w");
        assert_eq!(
            badge(&effect("overclocked", Lasting::Shots(5)), None).2,
            "5×"
        );
        let chill = effect("frost:chill", Lasting::Ticks(20));
        assert_eq!(badge(&chill, None).0, "F");
        assert_eq!(badge(&chill, None).1, Color::srgb(0.85, 0.85, 0.85));
        // A mod's own effect takes the colour its `effects.ron` gives it.
        assert_eq!(
            badge(&chill, Some(Rgb(0, 255, 51))).1,
            Color::srgb(0.0, 1.0, 0.2)
        );
        // A built-in one keeps the game's.
        assert_eq!(
            badge(&effect("burning", Lasting::Ticks(1)), Some(Rgb(0, 0, 0))).1,
            Color::srgb(1.0, 0.45, 0.1)
        );
    }

    #[test]
    fn a_crowd_draws_the_most_urgent_bars_and_fades_those_on_others() {
        let battle = crate::fit::crowded().battle;
        let content = battle.content().clone();
        let attackers: Vec<(EntityId, &rampart_core::battle::Entity, Size)> = battle
            .entities()
            .filter_map(|(id, e)| match e.kind {
                EntityKind::Attacker(a) => Some((id, e, content.attacker(a).size)),
                _ => None,
            })
            .collect();
        let readable: Vec<_> = attackers
            .iter()
            .filter(|(_, e, size)| shown(*size, e.hp, e.max_hp, e.effects.len()))
            .collect();
        let looks = crowd(&battle, None);
        let faded = looks.values().filter(|l| **l == Look::Faded).count();
        // The measure docs/client.md quotes.
        println!(
            "{} attackers, {} hurt, {} with something to read, {} bars drawn ({faded} faded)",
            attackers.len(),
            attackers.iter().filter(|(_, e, _)| e.hp < e.max_hp).count(),
            readable.len(),
            looks.len()
        );
        assert!(readable.len() > MAX_BARS, "a crowd: {}", readable.len());
        assert_eq!(looks.len(), MAX_BARS);
        // Only bars with something to read: every boss, then the most hurt.
        let share = |e: &rampart_core::battle::Entity| e.hp / e.max_hp;
        let least_hurt_drawn = readable
            .iter()
            .filter(|(id, _, size)| *size != Size::Boss && looks.contains_key(id))
            .map(|(_, e, _)| share(e))
            .fold(0.0, f64::max);
        let hurt: Vec<_> = attackers
            .iter()
            .filter(|(_, e, _)| e.hp < e.max_hp)
            .collect();
        let hurt_drawn = hurt
            .iter()
            .filter(|(id, _, _)| looks.contains_key(id))
            .count();
        assert_eq!(hurt_drawn, hurt.len().min(MAX_BARS), "hurt attackers first");
        for (id, e, size) in &attackers {
            let drawn = looks.contains_key(id);
            if !shown(*size, e.hp, e.max_hp, e.effects.len()) {
                assert!(!drawn, "{id:?} has nothing to read");
            } else if !drawn {
                assert_ne!(*size, Size::Boss, "a boss's bar is left out");
                assert!(
                    share(e) >= least_hurt_drawn,
                    "{id:?} is more hurt than a drawn one"
                );
            }
        }
        // No two full bars on each other.
        let full: Vec<Position> = attackers
            .iter()
            .filter(|(id, _, _)| looks.get(id) == Some(&Look::Full))
            .map(|(_, e, _)| e.position)
            .collect();
        for (i, a) in full.iter().enumerate() {
            for b in &full[i + 1..] {
                assert!(distance(*a, *b) >= CROWDED, "{a:?} and {b:?}");
            }
        }
        // A selected building draws the bars nearest to it instead.
        let tower = battle
            .entities()
            .find(|(_, e)| matches!(e.kind, EntityKind::Building(_)))
            .map(|(_, e)| e.position)
            .expect("the bot built");
        let near = crowd(&battle, Some(tower));
        let reach = |looks: &HashMap<EntityId, Look>| {
            attackers
                .iter()
                .filter(|(id, _, size)| *size != Size::Boss && looks.contains_key(id))
                .map(|(_, e, _)| distance(e.position, tower))
                .fold(0.0, f64::max)
        };
        assert!(reach(&near) < reach(&looks), "nearer bars first");
    }

    #[test]
    fn bars_shrink_only_at_far_zoom() {
        assert_eq!(bar_scale(10.0), 1.0);
        assert_eq!(bar_scale(15.0), 1.0);
        assert!((bar_scale(27.5) - 0.8).abs() < 1e-6);
        assert!((bar_scale(40.0) - 0.6).abs() < 1e-6);
        assert!((bar_scale(80.0) - 0.6).abs() < 1e-6);
    }

    #[test]
    fn a_crowd_of_unhurt_small_attackers_shows_no_bars() {
        assert!(!shown(Size::Small, 10.0, 10.0, 0));
        assert!(shown(Size::Small, 9.5, 10.0, 0));
        assert!(shown(Size::Small, 10.0, 10.0, 1));
        assert!(shown(Size::Large, 10.0, 10.0, 0));
        assert!(shown(Size::Boss, 10.0, 10.0, 0));
    }
}
