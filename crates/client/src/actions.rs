//! Every [`Action`] is carried out here, whether a button or a key asked for it: the key
//! bindings are the table [`BINDINGS`], the buttons carry their action as a component.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::menu::RunSetup;
use super::mods::{self, ModsView};
use super::saving::{PlayerProfile, SaveFile, continue_saved, save};
use super::session::{Game, Session, Thing, enter_room, finish_level, screen_of, shown_blueprints};
use super::stops::{self, Stop};
use super::tutorial::{Guide, Progress};
use super::ui::Action;
use super::{ClientSet, Content, Screen};
use rampart_core::battle::{Phase, PlayerCommand};
use rampart_core::content::acts::NodeKind;
use rampart_core::run::{Difficulty, Run, RunConfig, RunError, RunPhase};

/// Carries out actions.
pub struct ActionsPlugin;

impl Plugin for ActionsPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<Act>().add_systems(
            Update,
            (press, keys, carry_out).chain().in_set(ClientSet::Input),
        );
    }
}

/// An action asked for this frame, by a button, a key or the scripted scene.
#[derive(Message, Clone, Debug)]
pub struct Act(pub Action);

/// The keys of the main menu and what they do.
pub const MENU_BINDINGS: &[(KeyCode, Action)] = &[(KeyCode::KeyM, Action::Mods)];

/// The keys of the Mods screen and what they do.
pub const MODS_BINDINGS: &[(KeyCode, Action)] = &[(KeyCode::Escape, Action::ToMenu)];

/// The keys of a battle and what they do (the camera's keys are the camera's: `camera.rs`).
pub const BINDINGS: &[(KeyCode, Action)] = &[
    (KeyCode::Space, Action::StartWave),
    (KeyCode::KeyP, Action::Pause),
    (KeyCode::KeyF, Action::Speed),
    (KeyCode::KeyR, Action::Rotate),
    (KeyCode::Delete, Action::Delete),
    (KeyCode::Escape, Action::Back),
    (KeyCode::Digit1, Action::Blueprint(0)),
    (KeyCode::Digit2, Action::Blueprint(1)),
    (KeyCode::Digit3, Action::Blueprint(2)),
    (KeyCode::Digit4, Action::Blueprint(3)),
    (KeyCode::Digit5, Action::Blueprint(4)),
    (KeyCode::Digit6, Action::Blueprint(5)),
    (KeyCode::Digit7, Action::Blueprint(6)),
    (KeyCode::Digit8, Action::Blueprint(7)),
    (KeyCode::Digit9, Action::Blueprint(8)),
];

/// The key bindings of `screen`.
pub fn bindings(screen: Screen) -> &'static [(KeyCode, Action)] {
    match screen {
        Screen::Battle => BINDINGS,
        Screen::Menu => MENU_BINDINGS,
        Screen::Mods => MODS_BINDINGS,
        _ => &[],
    }
}

/// The actions the keys pressed this frame ask for on `screen`: its bindings, and in a battle
/// Tab (with Ctrl: back) for the targeting priority.
pub fn actions_of_keys(keys: &ButtonInput<KeyCode>, screen: Screen) -> Vec<Action> {
    let mut out: Vec<Action> = bindings(screen)
        .iter()
        .filter(|(key, _)| keys.just_pressed(*key))
        .map(|(_, action)| action.clone())
        .collect();
    if screen == Screen::Battle && keys.just_pressed(KeyCode::Tab) {
        let back = keys.pressed(KeyCode::ControlLeft) || keys.pressed(KeyCode::ControlRight);
        out.push(Action::Priority(if back { -1 } else { 1 }));
    }
    out
}

fn keys(keys: Res<ButtonInput<KeyCode>>, screen: Res<State<Screen>>, mut acts: MessageWriter<Act>) {
    for action in actions_of_keys(&keys, *screen.get()) {
        acts.write(Act(action));
    }
}

fn press(
    buttons: Query<(&Interaction, &Action), Changed<Interaction>>,
    mut acts: MessageWriter<Act>,
) {
    for (interaction, action) in &buttons {
        if *interaction == Interaction::Pressed {
            acts.write(Act(action.clone()));
        }
    }
}

/// Everything carrying out an action may touch.
#[derive(SystemParam)]
pub struct Acting<'w> {
    content: ResMut<'w, Content>,
    setup: ResMut<'w, RunSetup>,
    game: NonSendMut<'w, Game>,
    screen: Res<'w, State<Screen>>,
    next: ResMut<'w, NextState<Screen>>,
    exit: MessageWriter<'w, AppExit>,
    file: Res<'w, SaveFile>,
    profile: ResMut<'w, PlayerProfile>,
    guide: ResMut<'w, Guide>,
    stop: ResMut<'w, Stop>,
    mods: ResMut<'w, ModsView>,
}

/// Carries out the actions asked for this frame, by buttons, keys or (in the render test) its
/// scripted scene, which runs before it so that its actions are carried out in the same frame.
pub fn carry_out(mut acts: MessageReader<Act>, mut acting: Acting) {
    for Act(action) in acts.read() {
        act(action, &mut acting);
    }
}

/// Starts a run with `config` and opens its map.
pub fn start_run(
    game: &mut Game,
    content: &Content,
    config: RunConfig,
    next: &mut NextState<Screen>,
) -> Result<(), RunError> {
    let session = Session::start(&content.db, config)?;
    game.0 = Some(session);
    next.set(Screen::Map);
    Ok(())
}

/// Starts the tutorial's run with `config` and goes straight into its first battle: the first
/// battle room open next to the start.
fn start_tutorial(
    game: &mut Game,
    content: &Content,
    config: RunConfig,
    next: &mut NextState<Screen>,
) -> Result<(), String> {
    let mut session = Session::start(&content.db, config).map_err(|e| e.to_string())?;
    let room = first_battle(&session.run).ok_or("its seed opens no battle room at the start")?;
    let screen = enter_room(&mut session, &content.db, room).map_err(|e| e.to_string())?;
    game.0 = Some(session);
    next.set(screen);
    Ok(())
}

/// The first open room of the map that is an ordinary battle.
pub fn first_battle(run: &Run) -> Option<rampart_core::mapgen::NodeId> {
    let map = run.map();
    run.choices()
        .into_iter()
        .find(|&id| map.node(id).is_some_and(|n| n.kind == NodeKind::Battle))
}

/// Carries out `action` on `screen`.
pub fn act(action: &Action, acting: &mut Acting) {
    let Acting {
        content,
        setup,
        game,
        screen,
        next,
        exit,
        file,
        profile,
        guide,
        stop,
        mods,
    } = acting;
    let screen = *screen.get();
    match action {
        Action::Tutorial => {
            let Some(tutorial) = content.db.tutorial.clone() else {
                setup.error = Some("no mod has a tutorial".into());
                return;
            };
            offered(profile);
            let config = RunConfig {
                seed: tutorial.seed,
                starting_blueprints: Some(tutorial.blueprints.clone()),
                difficulty: Difficulty::Auto,
                ascension: 0,
            };
            match start_tutorial(game, content, config, next) {
                Ok(()) => {
                    setup.error = None;
                    guide.0 = Some(Progress::new(tutorial.steps));
                }
                Err(e) => setup.error = Some(format!("The tutorial cannot start: {e}")),
            }
        }
        Action::TutorialNext => {
            if let Some(progress) = guide.0.as_mut() {
                progress.next();
                if progress.step().is_none() {
                    guide.0 = None;
                }
            }
        }
        Action::TutorialLeave => guide.0 = None,
        Action::TutorialDecline => {
            offered(profile);
            // Shown again without the offer.
            next.set(Screen::Menu);
        }
        Action::Continue => match continue_saved(file, &content.db) {
            Ok((mut session, message)) => {
                if let Some(message) = message {
                    session.notify(message);
                }
                let screen = screen_of(session.run.phase());
                **stop = Stop::default();
                game.0 = Some(session);
                setup.error = None;
                next.set(screen);
            }
            Err(why) => {
                setup.error = Some(why);
                // Shown again with the reason.
                next.set(Screen::Menu);
            }
        },
        Action::Start => {
            let config = RunConfig::new(RunConfig::random_seed());
            if let Err(e) = start_run(game, content, config, next) {
                setup.error = Some(e.to_string());
                next.set(Screen::RunSettings);
            }
        }
        Action::CustomRun => {
            setup.error = None;
            next.set(Screen::RunSettings);
        }
        Action::Mods => {
            mods::open(content, mods);
            next.set(Screen::Mods);
        }
        Action::ModInfo(root) => {
            mods.selected = Some(root.clone());
            // Drawn again with these details.
            next.set(Screen::Mods);
        }
        Action::SwitchMod { id, on } => {
            mods::switch(content, mods, id, *on);
            next.set(Screen::Mods);
        }
        Action::Exit => {
            exit.write(AppExit::Success);
        }
        Action::Begin => {
            let seed = match setup.seed.parse::<u64>() {
                Ok(seed) => seed,
                Err(_) => {
                    setup.error = Some("the seed must be a whole number".into());
                    return;
                }
            };
            let config = RunConfig {
                seed,
                starting_blueprints: setup.blueprints.clone(),
                difficulty: setup.difficulty,
                ascension: setup.ascension,
            };
            match start_run(game, content, config, next) {
                Ok(()) => setup.error = None,
                Err(e) => setup.error = Some(e.to_string()),
            }
        }
        Action::ToMenu => {
            if let Some(session) = game.0.as_mut() {
                save(session, file);
            }
            game.0 = None;
            guide.0 = None;
            **stop = Stop::default();
            setup.error = None;
            setup.offer = None;
            next.set(Screen::Menu);
        }
        Action::Toggle(id) => {
            let list = setup.blueprints.get_or_insert_with(Vec::new);
            match list.iter().position(|b| b == id) {
                Some(i) => {
                    list.remove(i);
                }
                None => list.push(id.clone()),
            }
        }
        Action::Difficulty(d) => setup.difficulty = *d,
        Action::Ascension(n) => setup.ascension = *n,
        Action::Enter(room) => {
            if let Some(session) = game.0.as_mut() {
                match enter_room(session, &content.db, *room) {
                    Ok(screen) => next.set(screen),
                    // The room was entered but its battle cannot be set up: the run cannot go on.
                    Err(e) if *session.run.phase() == RunPhase::Battle => {
                        setup.error = Some(format!("the level cannot start: {e}"));
                        game.0 = None;
                        next.set(Screen::Menu);
                    }
                    Err(e) => session.notify(e.to_string()),
                }
            }
        }
        Action::Buy(i) => {
            if let Some(session) = game.0.as_mut() {
                stops::buy(session, content, stop, *i, next);
            }
        }
        Action::LeaveShop => {
            if let Some(session) = game.0.as_mut() {
                stops::leave(session, stop, next);
            }
        }
        Action::Choose(i) => {
            if let Some(session) = game.0.as_mut() {
                stops::choose(session, content, stop, *i, next);
            }
        }
        Action::EventDone => {
            if let Some(session) = game.0.as_ref() {
                stop.happened = None;
                next.set(screen_of(session.run.phase()));
            }
        }
        Action::Offer(i) => {
            let Some(session) = game.0.as_mut() else {
                return;
            };
            setup.offer = None;
            match session.run.choose_reward(&content.db, Some(*i), None) {
                Ok(()) => next.set(screen_of(session.run.phase())),
                Err(RunError::CollectionFull(_)) => {
                    setup.offer = Some(*i);
                    // Shown again with the hint to pick what to replace.
                    next.set(Screen::Reward);
                }
                Err(e) => session.notify(e.to_string()),
            }
        }
        Action::Replace(j) => {
            let Some(session) = game.0.as_mut() else {
                return;
            };
            if screen == Screen::Shop {
                stops::buy_into(session, content, stop, *j, next);
            } else if let Some(i) = setup.offer {
                choose(session, content, Some(i), Some(*j), setup, next);
            }
        }
        Action::TakeAugment => {
            if let Some(session) = game.0.as_mut() {
                setup.offer = None;
                match session.run.take_reward_augment(&content.db) {
                    Ok(()) => next.set(screen_of(session.run.phase())),
                    Err(e) => session.notify(e.to_string()),
                }
            }
        }
        Action::Skip => {
            if let Some(session) = game.0.as_mut() {
                choose(session, content, None, None, setup, next);
            }
        }
        Action::Resume => {
            if let Some(session) = game.0.as_mut() {
                session.paused = false;
                session.settings_open = false;
            }
        }
        Action::Proceed => {
            if let Some(session) = game.0.as_mut() {
                // The next screen saves the run (or, at the run's end, removes its save).
                next.set(finish_level(session));
                if let RunPhase::Won { .. } = session.run.phase() {
                    unlock_ascension(profile, session, content);
                }
            }
        }
        Action::Problems => {
            if let Some(session) = game.0.as_mut() {
                session.problems_open = !session.problems_open;
            }
        }
        Action::StartWave
        | Action::Pause
        | Action::Settings
        | Action::Speed
        | Action::Blueprint(_)
        | Action::Delete
        | Action::Rotate
        | Action::Priority(_)
        | Action::Back => {
            if screen == Screen::Battle
                && let Some(session) = game.0.as_mut()
            {
                battle_action(action, session);
            }
        }
    }
}

/// Remembers that the tutorial was offered (chosen or declined), so it is not offered again.
fn offered(profile: &mut PlayerProfile) {
    if !profile.tutorial_offered {
        profile.tutorial_offered = true;
        if let Err(e) = profile.save() {
            warn!("the player's profile could not be saved: {e}");
        }
    }
}

/// Opens the next ascension level in the player's profile after a won run.
fn unlock_ascension(profile: &mut PlayerProfile, session: &mut Session, content: &Content) {
    if let Some(level) = profile.run_ended(&session.run, &content.db) {
        if let Err(e) = profile.save() {
            warn!("the player's profile could not be saved: {e}");
        }
        session.notify(format!("Ascension {level} is open: Custom Run offers it"));
    }
}

/// Takes the reward choice and goes back to the map (the next act's after a boss).
fn choose(
    session: &mut Session,
    content: &Content,
    offer: Option<usize>,
    replace: Option<usize>,
    setup: &mut RunSetup,
    next: &mut NextState<Screen>,
) {
    setup.offer = None;
    match session.run.choose_reward(&content.db, offer, replace) {
        Ok(()) => next.set(screen_of(session.run.phase())),
        Err(e) => session.notify(e.to_string()),
    }
}

/// Carries out an action of the battle screen.
pub fn battle_action(action: &Action, session: &mut Session) {
    match action {
        Action::StartWave if session.battle.phase() == Phase::Build => {
            session.selection.blueprint = None;
            session.submit(PlayerCommand::StartWave);
        }
        Action::Pause => {
            session.paused = !session.paused;
        }
        Action::Settings => {
            session.paused = true;
            session.settings_open = true;
        }
        Action::Speed => {
            session.speed = if session.speed == 1 { 2 } else { 1 };
        }
        Action::Delete => remove_selected(session),
        Action::Rotate => {
            session.selection.rotation = (session.selection.rotation + 1) % 4;
        }
        Action::Priority(step) => {
            let Some(Thing::Entity(id)) = session.selection.thing else {
                return;
            };
            if let Some(priority) = session
                .battle
                .entity(id)
                .and_then(|e| e.tower.as_ref())
                .map(|t| t.priority.cycle(*step))
            {
                session.submit(PlayerCommand::SetPriority {
                    entity: id,
                    priority,
                });
            }
        }
        Action::Back => {
            let s = &mut session.selection;
            if s.blueprint.is_some() || s.thing.is_some() {
                s.blueprint = None;
                s.thing = None;
            } else {
                session.settings_open = !session.settings_open;
                session.paused = session.settings_open;
            }
        }
        Action::Blueprint(i) => {
            let shown = shown_blueprints(session);
            if let Some(&b) = shown.get(*i) {
                let selection = &mut session.selection;
                selection.blueprint = (selection.blueprint != Some(b)).then_some(b);
                selection.thing = None;
            }
        }
        _ => {}
    }
}

/// Removes the selected building (the Delete key or button).
pub fn remove_selected(session: &mut Session) {
    if let Some(Thing::Entity(id)) = session.selection.thing.take() {
        session.submit(PlayerCommand::Remove { entity: id });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_ask_for_their_bound_actions() {
        let mut keys = ButtonInput::<KeyCode>::default();
        keys.press(KeyCode::Space);
        keys.press(KeyCode::Digit3);
        assert_eq!(
            actions_of_keys(&keys, Screen::Battle),
            [Action::StartWave, Action::Blueprint(2)]
        );
        let mut keys = ButtonInput::<KeyCode>::default();
        keys.press(KeyCode::ControlLeft);
        keys.press(KeyCode::Tab);
        assert_eq!(
            actions_of_keys(&keys, Screen::Battle),
            [Action::Priority(-1)]
        );
        // Tab steps a tower's priority only in a battle.
        assert!(actions_of_keys(&keys, Screen::Menu).is_empty());
        // Every key is bound once on its screen.
        for screen in [Screen::Battle, Screen::Menu, Screen::Mods] {
            let table = bindings(screen);
            for (i, (key, _)) in table.iter().enumerate() {
                assert!(table[i + 1..].iter().all(|(k, _)| k != key), "{key:?}");
            }
        }
    }

    #[test]
    fn the_menu_opens_the_mods_screen_with_m_and_esc_goes_back() {
        let mut keys = ButtonInput::<KeyCode>::default();
        keys.press(KeyCode::KeyM);
        assert_eq!(actions_of_keys(&keys, Screen::Menu), [Action::Mods]);
        // M means nothing in a battle or on the Mods screen.
        assert!(actions_of_keys(&keys, Screen::Battle).is_empty());
        assert!(actions_of_keys(&keys, Screen::Mods).is_empty());
        let mut keys = ButtonInput::<KeyCode>::default();
        keys.press(KeyCode::Escape);
        assert_eq!(actions_of_keys(&keys, Screen::Mods), [Action::ToMenu]);
        assert!(actions_of_keys(&keys, Screen::Menu).is_empty());
    }
}
