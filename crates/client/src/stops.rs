//! The map's rooms that are not battles, each a screen: a shop (its offers as cards and boxes
//! with their prices, buying, the collection when a purchase needs a slot, leaving) and an event
//! (its text, its choices — a blocked one greyed with why — and then what happened). Every rule
//! is the run's: the client asks it for the offers, prices and blocked choices and calls
//! `Run::buy`, `Run::leave_shop` and `Run::choose_event`; a refusal shows as a notice.

use bevy::prelude::*;

use super::Content;
use super::Screen;
use super::cards::{Card, CardLooks, collection_cards, spawn_card, spawn_collection};
use super::palette::Palette;
use super::rich::Icons;
use super::session::{Game, NoticeLine, Session};
use super::ui::{
    Action, GOLD, MUTED, NOTICE, button, disabled_button, info_box, label, spawn_screen,
};
use rampart_core::content::events::Outcome;
use rampart_core::content::{Blueprint, Event};
use rampart_core::run::{AugmentOffer, Run, RunError, RunPhase, Ware};

/// Builds the shop and event screens.
pub struct StopsPlugin;

impl Plugin for StopsPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Stop>()
            .add_systems(OnEnter(Screen::Shop), spawn_shop)
            .add_systems(OnEnter(Screen::Event), spawn_event);
    }
}

/// The width of a shop's offer, so that six fit the window side by side.
pub(crate) const OFFER_WIDTH: f32 = 196.0;

/// What the shop or event screen remembers between its redraws.
#[derive(Resource, Default)]
pub struct Stop {
    /// The shop offer waiting for the collection slot it needs: the blueprint a new one
    /// replaces in a full collection, or the blueprint a removal takes out.
    pub pending: Option<usize>,
    /// The event just decided and what came of it, shown until the player goes on.
    pub happened: Option<Happened>,
}

/// An event decided: its title and text, the choice taken, and what happened, in words.
pub struct Happened {
    /// The event's title.
    pub title: String,
    /// The event's text.
    pub text: String,
    /// The choice taken.
    pub chosen: String,
    /// What happened, a line each.
    pub lines: Vec<String>,
}

/// A blueprint of the loaded content by id.
fn blueprint(content: &Content, id: &str) -> Option<Blueprint> {
    content
        .db
        .blueprint_id(id)
        .map(|b| content.db.blueprint(b).clone())
}

/// A blueprint's name, or its id when no loaded mod has it.
pub fn name(content: &Content, id: &str) -> String {
    blueprint(content, id).map_or(id.to_string(), |b| b.name)
}

/// An augment on offer as a title (`Augment: name for blueprint`) and its description.
pub fn augment_text(content: &Content, offer: &AugmentOffer) -> (String, String) {
    let blueprint = name(content, &offer.blueprint);
    match content.db.augment(&offer.augment) {
        Some(a) => (
            format!("Augment: {} for {blueprint}", a.name),
            a.description.clone(),
        ),
        None => (
            format!("Augment {} for {blueprint}", offer.augment),
            String::new(),
        ),
    }
}

/// The blueprint an augment on offer goes on, as a card with that augment on top of those it
/// carries (what the player would get), or only with those it carries once `taken`.
pub fn augment_card(
    content: &Content,
    run: &Run,
    offer: &AugmentOffer,
    taken: bool,
) -> Option<Card> {
    let augments = if taken {
        run.augments_of(&offer.blueprint).to_vec()
    } else {
        run.augments_with(offer)
    };
    Card::of(&content.db, &offer.blueprint, &augments)
}

/// Buys shop offer `i`: a removal first asks which blueprint goes, and a blueprint that does not
/// fit the collection which one it replaces. Buying the offer that waits for a slot again stops
/// waiting.
pub fn buy(
    session: &mut Session,
    content: &Content,
    stop: &mut Stop,
    i: usize,
    next: &mut NextState<Screen>,
) {
    if stop.pending == Some(i) {
        stop.pending = None;
        next.set(Screen::Shop);
        return;
    }
    let RunPhase::Shop(shop) = session.run.phase() else {
        return;
    };
    let Some(offer) = shop.offers.get(i).cloned() else {
        return;
    };
    if offer.ware == Ware::Removal && !offer.sold && offer.price <= session.run.money() {
        stop.pending = Some(i);
        next.set(Screen::Shop);
        return;
    }
    let hull = session.run.hull();
    match session.run.buy(&content.db, i, None) {
        Ok(()) => {
            let text = match &offer.ware {
                Ware::Blueprint(id) => format!("Bought {}", name(content, id)),
                Ware::Augment(augment) => format!("Bought {}", augment_text(content, augment).0),
                Ware::Repair | Ware::Removal => {
                    format!("Repaired: hull {hull:.0} -> {:.0}", session.run.hull())
                }
            };
            session.notify(format!("{text} for {} money", offer.price));
            next.set(Screen::Shop);
        }
        Err(RunError::CollectionFull(_)) => {
            stop.pending = Some(i);
            next.set(Screen::Shop);
        }
        Err(e) => session.notify(format!("Not bought: {e}")),
    }
}

/// Buys the offer waiting for a slot with collection slot `slot`: the blueprint it replaces, or
/// the one a removal takes out.
pub fn buy_into(
    session: &mut Session,
    content: &Content,
    stop: &mut Stop,
    slot: usize,
    next: &mut NextState<Screen>,
) {
    let Some(i) = stop.pending.take() else {
        return;
    };
    let offer = match session.run.phase() {
        RunPhase::Shop(shop) => shop.offers.get(i).cloned(),
        _ => None,
    };
    let gone = session
        .run
        .collection()
        .get(slot)
        .map(|id| name(content, id));
    match (session.run.buy(&content.db, i, Some(slot)), offer) {
        (Ok(()), Some(offer)) => {
            let gone = gone.unwrap_or_default();
            let text = match &offer.ware {
                Ware::Blueprint(id) => format!("Bought {} in place of {gone}", name(content, id)),
                _ => format!("Took {gone} out of the collection"),
            };
            session.notify(format!("{text} for {} money", offer.price));
        }
        (Ok(()), None) => {}
        (Err(e), _) => session.notify(format!("Not bought: {e}")),
    }
    next.set(Screen::Shop);
}

/// Leaves the shop, back to the map.
pub fn leave(session: &mut Session, stop: &mut Stop, next: &mut NextState<Screen>) {
    match session.run.leave_shop() {
        Ok(()) => {
            stop.pending = None;
            next.set(Screen::Map);
        }
        Err(e) => session.notify(e.to_string()),
    }
}

/// Takes choice `i` of the event and shows what came of it.
pub fn choose(
    session: &mut Session,
    content: &Content,
    stop: &mut Stop,
    i: usize,
    next: &mut NextState<Screen>,
) {
    let Ok((event, choices)) = session.run.event_choices(&content.db) else {
        return;
    };
    let (title, text) = (event.title.clone(), event.text.clone());
    let chosen = choices.get(i).map_or(String::new(), |c| c.text.clone());
    let before = Before {
        money: session.run.money(),
        hull: session.run.hull(),
        collection: session.run.collection().to_vec(),
    };
    match session.run.choose_event(&content.db, i) {
        Ok(outcomes) => {
            let lines = outcome_lines(&outcomes, &before, session, content);
            stop.happened = Some(Happened {
                title,
                text,
                chosen,
                lines,
            });
            next.set(Screen::Event);
        }
        Err(e) => session.notify(e.to_string()),
    }
}

/// The run before an event's choice, to tell what the outcomes did.
struct Before {
    money: u32,
    hull: f64,
    collection: Vec<String>,
}

/// What an event's outcomes did, a line each: money and hull as they were and are (an event's
/// hull is capped), blueprints found, given and lost.
fn outcome_lines(
    outcomes: &[Outcome],
    before: &Before,
    session: &Session,
    content: &Content,
) -> Vec<String> {
    let run = &session.run;
    let mut lines: Vec<String> = Vec::new();
    for outcome in outcomes {
        let line = match outcome {
            Outcome::Money(_) => format!("Money {} -> {}", before.money, run.money()),
            Outcome::Hull(_) => format!("Hull {:.0} -> {:.0}", before.hull, run.hull()),
            Outcome::Blueprint(rarity) => format!("A {} blueprint is found", rarity.name()),
            Outcome::GiveBlueprint(id) => format!("{} is offered", name(content, id)),
            Outcome::LoseBlueprint => {
                let lost: Vec<String> = before
                    .collection
                    .iter()
                    .filter(|id| !run.collection().contains(id))
                    .map(|id| name(content, id))
                    .collect();
                match lost.is_empty() {
                    true => "No blueprint is lost".into(),
                    false => format!("Lost from the collection: {}", lost.join(", ")),
                }
            }
        };
        if !lines.contains(&line) {
            lines.push(line);
        }
    }
    if lines.is_empty() {
        lines.push("Nothing happens".into());
    }
    lines
}

pub(crate) fn spawn_shop(
    mut commands: Commands,
    game: NonSend<Game>,
    content: Res<Content>,
    stop: Res<Stop>,
    mut images: ResMut<Assets<Image>>,
    icons: Res<Icons>,
    palette: Res<Palette>,
) {
    let mut looks = CardLooks {
        images: &mut images,
        icons: &icons,
        palette: &palette,
    };
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let run = &session.run;
    let RunPhase::Shop(shop) = run.phase() else {
        return;
    };
    let money = run.money();
    let max_hull = run.max_hull(&content.db).unwrap_or(run.hull());
    let repair = content.db.levels.as_ref().map_or(0.0, |l| l.money.repair);
    let root = spawn_screen(&mut commands, Screen::Shop);
    commands.entity(root).with_children(|c| {
        c.spawn(label("Shop", 36.0, GOLD));
        c.spawn(label(
            format!(
                "Money {money}   Hull {:.0} / {max_hull:.0}   Collection {} of {}",
                run.hull(),
                run.collection().len(),
                run.collection_limit()
            ),
            18.0,
            Color::WHITE,
        ));
        // Every offer a column of the same height: what it is on top, its price and Buy button
        // at the bottom, in line with the others'.
        c.spawn(Node {
            flex_wrap: FlexWrap::Wrap,
            justify_content: JustifyContent::Center,
            max_width: Val::Px(1240.0),
            column_gap: Val::Px(8.0),
            row_gap: Val::Px(8.0),
            ..default()
        })
        .with_children(|row| {
            for (i, offer) in shop.offers.iter().enumerate() {
                row.spawn(Node {
                    width: Val::Px(OFFER_WIDTH),
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    justify_content: JustifyContent::SpaceBetween,
                    row_gap: Val::Px(4.0),
                    ..default()
                })
                .with_children(|col| {
                    let waiting = stop.pending == Some(i);
                    // A blueprint as its card; an augment as the card of the blueprint it goes
                    // on, under its title.
                    let card = match &offer.ware {
                        Ware::Blueprint(id) => Card::of(&content.db, id, &[]).map(|c| (None, c)),
                        Ware::Augment(ware) => augment_card(&content, run, ware, offer.sold)
                            .map(|c| (Some(augment_text(&content, ware).0), c)),
                        Ware::Repair | Ware::Removal => None,
                    };
                    let shown = card.is_some();
                    if let Some((title, card)) = card {
                        if let Some(title) = title {
                            col.spawn(label(title, 15.0, GOLD));
                        }
                        let buy = Action::Buy(i);
                        spawn_card(col, &mut looks, &card, buy, waiting, OFFER_WIDTH);
                    }
                    match &offer.ware {
                        // An augment for a blueprint no loaded mod has: its words alone.
                        Ware::Augment(ware) if !shown => {
                            let (title, text) = augment_text(&content, ware);
                            col.spawn(info_box(title, text));
                        }
                        Ware::Repair => {
                            col.spawn(info_box(
                                "Repair",
                                format!("{repair:+.0} hull, up to {max_hull:.0}"),
                            ));
                        }
                        Ware::Removal => {
                            col.spawn(info_box(
                                "Removal",
                                "Takes a blueprint out of the collection",
                            ));
                        }
                        Ware::Blueprint(_) | Ware::Augment(_) => {}
                    }
                    // As tall as its tallest form (a greyed button says why under it), so that
                    // the prices stay in line whatever the buttons are.
                    col.spawn(Node {
                        flex_direction: FlexDirection::Column,
                        align_items: AlignItems::Center,
                        min_height: Val::Px(96.0),
                        ..default()
                    })
                    .with_children(|foot| {
                        foot.spawn(label(format!("{} money", offer.price), 17.0, GOLD));
                        if offer.sold {
                            foot.spawn(disabled_button("Buy", "sold"));
                        } else if offer.price > money {
                            foot.spawn(disabled_button("Buy", "too poor"));
                        } else if waiting {
                            foot.spawn(button("Cancel", Action::Buy(i)));
                        } else {
                            foot.spawn(button("Buy", Action::Buy(i)));
                        }
                    });
                });
            }
        });
        if let Some(i) = stop.pending {
            let hint = match shop.offers.get(i).map(|o| &o.ware) {
                Some(Ware::Blueprint(id)) => format!(
                    "The collection is full: click the blueprint {} replaces",
                    name(&content, id)
                ),
                _ => "Click the blueprint to take out of the collection".into(),
            };
            c.spawn(label(hint, 16.0, GOLD));
            spawn_collection(c, &mut looks, &collection_cards(&content.db, run));
        }
        c.spawn((NoticeLine, label("", 16.0, NOTICE)));
        c.spawn(button("Leave the shop", Action::LeaveShop));
    });
}

/// An event's text: wrapped, centred.
fn event_text(text: String, color: Color) -> impl Bundle {
    (
        Node {
            max_width: Val::Px(760.0),
            margin: UiRect::bottom(Val::Px(8.0)),
            ..default()
        },
        children![(
            label(text, 18.0, color),
            TextLayout::justify(Justify::Center)
        )],
    )
}

fn spawn_event(
    mut commands: Commands,
    game: NonSend<Game>,
    content: Res<Content>,
    stop: Res<Stop>,
) {
    let Some(session) = game.0.as_ref() else {
        return;
    };
    let run = &session.run;
    let max_hull = run.max_hull(&content.db).unwrap_or(run.hull());
    // What the choices may cost or give is measured against these.
    let status = format!(
        "Money {}   Hull {:.0} / {max_hull:.0}   Collection {} of {}",
        run.money(),
        run.hull(),
        run.collection().len(),
        run.collection_limit()
    );
    let root = spawn_screen(&mut commands, Screen::Event);
    if let Some(happened) = &stop.happened {
        let next = match run.phase() {
            RunPhase::Reward { .. } => "Continue to the reward",
            _ => "Back to the map",
        };
        commands.entity(root).with_children(|c| {
            c.spawn(label(happened.title.clone(), 34.0, GOLD));
            c.spawn(event_text(happened.text.clone(), MUTED));
            c.spawn(event_text(format!("You chose: {}", happened.chosen), MUTED));
            c.spawn(label("What happened", 20.0, Color::WHITE));
            for line in &happened.lines {
                c.spawn(label(line.clone(), 18.0, GOLD));
            }
            c.spawn(Node {
                height: Val::Px(12.0),
                ..default()
            });
            c.spawn(label(status, 16.0, MUTED));
            c.spawn(button(next, Action::EventDone));
        });
        return;
    }
    let Ok((event, choices)) = run.event_choices(&content.db) else {
        return;
    };
    let choices: Vec<(String, Option<String>)> =
        choices.into_iter().map(|c| (c.text, c.blocked)).collect();
    commands
        .entity(root)
        .with_children(|c| event_screen(c, event, &status, &choices));
}

/// An event's screen under `c`, its column: its title and text, the run's `status`, and its
/// `choices`, each with why it cannot be taken, if it cannot.
pub fn event_screen(
    c: &mut ChildSpawnerCommands,
    event: &Event,
    status: &str,
    choices: &[(String, Option<String>)],
) {
    c.spawn(label(event.title.clone(), 34.0, GOLD));
    c.spawn(event_text(event.text.clone(), Color::WHITE));
    c.spawn(label(status, 16.0, MUTED));
    for (i, (text, blocked)) in choices.iter().enumerate() {
        match blocked {
            Some(why) => c.spawn(disabled_button(text.clone(), why.clone())),
            None => c.spawn(button(text.clone(), Action::Choose(i))),
        };
    }
    c.spawn((NoticeLine, label("", 16.0, NOTICE)));
}
