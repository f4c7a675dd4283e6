//! Every [`Action`] is carried out here, whether a button or a key asked for it. The keys are
//! the player's [`Bindings`]: what a key does depends on who has the input ([`Layers`]) — the
//! world of a battle, the main menu, the Mods screen, or the layer on top (the pause screen, the
//! settings screen, a key being captured, a question) — so no key reaches a screen behind
//! another. Buttons carry their action as a component.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::bindings::{Bindings, Chord, Control};
use super::input::{Layer, Layers, forget_layers};
use super::menu::RunSetup;
use super::mods::{self, ModsView};
use super::saving::{PlayerProfile, SaveFile, continue_saved, save};
use super::session::{Game, Session, Thing, enter_room, finish_level, screen_of, shown_blueprints};
use super::settings::{Settings, SettingsFile};
use super::settings_screen::{self, Captured, SettingsView};
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
        app.add_message::<Act>()
            .init_resource::<Layers>()
            .add_systems(
                Update,
                (forget_layers, press, keys, carry_out)
                    .chain()
                    .in_set(ClientSet::Input),
            );
    }
}

/// An action asked for this frame, by a button, a key or the scripted scene.
#[derive(Message, Clone, Debug)]
pub struct Act(pub Action);

/// What a control does in a battle's world; `None` for the controls other systems read (the
/// camera's, the debug overlay's) and the main menu's.
fn world_action(control: Control) -> Option<Action> {
    Some(match control {
        Control::Back => Action::Back,
        Control::StartWave => Action::StartWave,
        Control::Pause => Action::Pause,
        Control::Speed => Action::Speed,
        Control::Rotate => Action::Rotate,
        Control::Delete => Action::Delete,
        Control::NextPriority => Action::Priority(1),
        Control::PreviousPriority => Action::Priority(-1),
        Control::Blueprint(n) => Action::Blueprint(usize::from(n)),
        _ => return None,
    })
}

/// What `control` does for whoever has the input: the layer on top, else `screen`.
pub fn action_of(control: Control, screen: Screen, top: Option<&Layer>) -> Option<Action> {
    match (top, control) {
        // A key being captured is the capture's (`settings_screen::capture`).
        (Some(Layer::Capture { .. }), _) => None,
        (Some(Layer::Pause), Control::Back) => Some(Action::Resume),
        (Some(Layer::Settings | Layer::Confirm(_)), Control::Back) => Some(Action::Close),
        (Some(_), _) => None,
        (None, control) => match screen {
            Screen::Battle => world_action(control),
            Screen::Menu if control == Control::Mods => Some(Action::Mods),
            Screen::Mods if control == Control::Back => Some(Action::ToMenu),
            _ => None,
        },
    }
}

/// The actions the keys pressed this frame ask for, by `bindings`, of whoever has the input.
pub fn actions_of_keys(
    keys: &ButtonInput<KeyCode>,
    bindings: &Bindings,
    screen: Screen,
    top: Option<&Layer>,
) -> Vec<Action> {
    Control::all()
        .into_iter()
        .filter(|&c| bindings.just_pressed(c, keys))
        .filter_map(|c| action_of(c, screen, top))
        .collect()
}

/// The keys of this frame: a key being captured takes the first one pressed; otherwise each
/// bound key asks for its control's action. One system, so that a key that ends a capture is
/// not also read by the settings screen under it.
fn keys(
    keys: Res<ButtonInput<KeyCode>>,
    screen: Res<State<Screen>>,
    mut layers: ResMut<Layers>,
    mut prefs: Prefs,
    mut acts: MessageWriter<Act>,
) {
    if let Some(&Layer::Capture { control, slot }) = layers.top() {
        if let Some(chord) = Chord::pressed_now(&keys) {
            let Prefs {
                settings,
                file,
                view,
            } = &mut prefs;
            match settings_screen::capture(settings, view, control, slot, chord) {
                Captured::Bound => {
                    file.save(settings);
                    layers.close();
                }
                Captured::Cancelled => {
                    layers.close();
                }
                Captured::Refused => {}
            }
        }
        return;
    }
    for action in actions_of_keys(&keys, &prefs.settings.keys, *screen.get(), layers.top()) {
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

/// The player's settings, where they are kept, and what the settings screen says.
#[derive(SystemParam)]
pub struct Prefs<'w> {
    settings: ResMut<'w, Settings>,
    file: ResMut<'w, SettingsFile>,
    view: ResMut<'w, SettingsView>,
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
    layers: ResMut<'w, Layers>,
    prefs: Prefs<'w>,
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

/// Carries out `action` for whoever has the input. Starting a new run while a run is saved
/// asks first (the new run's first save replaces the old one).
pub fn act(action: &Action, acting: &mut Acting) {
    match action {
        Action::Start | Action::Tutorial | Action::Begin
            if acting.file.exists() && starts(action, &acting.setup) =>
        {
            acting.layers.open(Layer::Confirm(action.clone()));
        }
        Action::Confirm => {
            if let Some(Layer::Confirm(asked)) = acting.layers.top().cloned() {
                acting.layers.close();
                carry(&asked, acting);
            }
        }
        _ => carry(action, acting),
    }
}

/// Whether `action` would start a run now: Begin does not with a seed that is no number.
fn starts(action: &Action, setup: &RunSetup) -> bool {
    *action != Action::Begin || setup.seed.parse::<u64>().is_ok()
}

/// Carries out `action`, asked or answered.
fn carry(action: &Action, acting: &mut Acting) {
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
        layers,
        prefs,
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
            layers.clear();
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
        Action::PauseMenu => {
            if layers.world(screen) {
                layers.open(Layer::Pause);
            }
        }
        Action::Resume => {
            if layers.top() == Some(&Layer::Pause) {
                layers.close();
                if let Some(session) = game.0.as_mut() {
                    session.paused = false;
                }
            }
        }
        Action::Settings => {
            prefs.view.message = None;
            layers.open(Layer::Settings);
        }
        Action::Setting(change) => {
            prefs.settings.change(change);
            prefs.file.save(&prefs.settings);
        }
        Action::Rebind { control, slot } => {
            prefs.view.message = None;
            layers.open(Layer::Capture {
                control: *control,
                slot: *slot,
            });
        }
        Action::Unbind => {
            if let Some(&Layer::Capture { control, slot }) = layers.top() {
                prefs.settings.keys.unbind(control, slot);
                prefs.file.save(&prefs.settings);
                prefs.view.message = None;
                layers.close();
            }
        }
        Action::Close => {
            prefs.view.message = None;
            layers.close();
        }
        // Asked and answered in `act`.
        Action::Confirm => {}
        Action::Back => {
            if !layers.world(screen) {
                return;
            }
            let selection = game.0.as_mut().map(|s| &mut s.selection);
            match selection {
                Some(s) if s.blueprint.is_some() || s.thing.is_some() => {
                    s.blueprint = None;
                    s.thing = None;
                }
                _ => layers.open(Layer::Pause),
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
        | Action::Speed
        | Action::Blueprint(_)
        | Action::Delete
        | Action::Rotate
        | Action::Priority(_) => {
            if layers.world(screen)
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
            // Starting a wave means to play it: a battle paused before (a continued one comes
            // back paused) runs.
            session.paused = false;
            session.submit(PlayerCommand::StartWave);
        }
        Action::Pause => {
            session.paused = !session.paused;
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

    fn pressed(keys: &[KeyCode]) -> ButtonInput<KeyCode> {
        let mut input = ButtonInput::<KeyCode>::default();
        for &key in keys {
            input.press(key);
        }
        input
    }

    #[test]
    fn keys_ask_for_their_bound_actions() {
        let b = Bindings::default();
        let keys = pressed(&[KeyCode::Space, KeyCode::Digit3]);
        assert_eq!(
            actions_of_keys(&keys, &b, Screen::Battle, None),
            [Action::StartWave, Action::Blueprint(2)]
        );
        let keys = pressed(&[KeyCode::ControlLeft, KeyCode::Tab]);
        assert_eq!(
            actions_of_keys(&keys, &b, Screen::Battle, None),
            [Action::Priority(-1)]
        );
        // Tab steps a tower's priority only in a battle.
        assert!(actions_of_keys(&keys, &b, Screen::Menu, None).is_empty());
        // The camera's keys are the camera's.
        assert!(actions_of_keys(&pressed(&[KeyCode::KeyW]), &b, Screen::Battle, None).is_empty());
    }

    #[test]
    fn a_rebound_key_does_what_it_was_bound_to() {
        let mut b = Bindings::default();
        let k = |key| Chord { key, ctrl: false };
        b.bind(Control::StartWave, 0, k(KeyCode::Enter)).unwrap();
        let battle = |keys: &[KeyCode]| actions_of_keys(&pressed(keys), &b, Screen::Battle, None);
        assert_eq!(battle(&[KeyCode::Enter]), [Action::StartWave]);
        assert!(battle(&[KeyCode::Space]).is_empty());
    }

    #[test]
    fn the_menu_opens_the_mods_screen_with_m_and_esc_goes_back() {
        let b = Bindings::default();
        let m = pressed(&[KeyCode::KeyM]);
        assert_eq!(actions_of_keys(&m, &b, Screen::Menu, None), [Action::Mods]);
        // M means nothing in a battle or on the Mods screen.
        assert!(actions_of_keys(&m, &b, Screen::Battle, None).is_empty());
        assert!(actions_of_keys(&m, &b, Screen::Mods, None).is_empty());
        let esc = pressed(&[KeyCode::Escape]);
        assert_eq!(
            actions_of_keys(&esc, &b, Screen::Mods, None),
            [Action::ToMenu]
        );
        assert!(actions_of_keys(&esc, &b, Screen::Menu, None).is_empty());
    }

    #[test]
    fn only_the_layer_on_top_hears_the_keys() {
        let b = Bindings::default();
        let keys = |k: &[KeyCode], top: &Layer| {
            actions_of_keys(&pressed(k), &b, Screen::Battle, Some(top))
        };
        // Behind the pause screen, P, Space and the digits do nothing; Esc resumes.
        for key in [
            KeyCode::KeyP,
            KeyCode::Space,
            KeyCode::Digit1,
            KeyCode::KeyF,
        ] {
            assert!(keys(&[key], &Layer::Pause).is_empty(), "{key:?}");
        }
        assert_eq!(keys(&[KeyCode::Escape], &Layer::Pause), [Action::Resume]);
        // Over the settings and a question, Esc closes them; the menu's M does nothing.
        assert_eq!(keys(&[KeyCode::Escape], &Layer::Settings), [Action::Close]);
        let asked = Layer::Confirm(Action::Start);
        assert_eq!(keys(&[KeyCode::Escape], &asked), [Action::Close]);
        let on_menu = actions_of_keys(
            &pressed(&[KeyCode::KeyM]),
            &b,
            Screen::Menu,
            Some(&Layer::Settings),
        );
        assert!(on_menu.is_empty());
        // A key being captured goes to the capture alone.
        let capture = Layer::Capture {
            control: Control::Pause,
            slot: 0,
        };
        assert!(keys(&[KeyCode::Escape], &capture).is_empty());
    }
}
