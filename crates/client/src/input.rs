//! Who has the input: the one source of truth for every click and key handler. A screen has
//! the input (in a battle: the world) unless a layer lies over it — the pause screen, the
//! settings screen, a key being captured, a question to confirm — and then the top layer alone
//! has it. Layers stack: the settings opened from the pause screen go back to it when closed.

use bevy::prelude::*;

use super::Screen;
use super::bindings::Control;
use super::ui::Action;

/// A screen laid over the current one that takes the input while it is open.
#[derive(Clone, Debug, PartialEq)]
pub enum Layer {
    /// The pause screen of a battle: Resume, Settings, Back to menu.
    Pause,
    /// The settings screen.
    Settings,
    /// The settings screen waits for the key to bind as key `slot` of `control`.
    Capture {
        /// The control being given a key.
        control: Control,
        /// Which of its keys.
        slot: usize,
    },
    /// A question: carry out this action (which loses something) or not.
    Confirm(Action),
}

/// The layers open now, the top last.
#[derive(Resource, Default, Debug)]
pub struct Layers(Vec<Layer>);

impl Layers {
    /// The layer that has the input, if any.
    pub fn top(&self) -> Option<&Layer> {
        self.0.last()
    }

    /// Whether `layer` is open, on top or under another.
    pub fn has(&self, layer: &Layer) -> bool {
        self.0.contains(layer)
    }

    /// Whether no layer is open: the screen has the input.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Opens `layer` on top.
    pub fn open(&mut self, layer: Layer) {
        self.0.push(layer);
    }

    /// Closes the top layer and says which it was.
    pub fn close(&mut self) -> Option<Layer> {
        self.0.pop()
    }

    /// Closes every layer (the screen changes under them).
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// Whether the battle's world has the input: on the battle screen with no layer over it.
    pub fn world(&self, screen: Screen) -> bool {
        screen == Screen::Battle && self.is_empty()
    }
}

/// A layer belongs to the screen it was opened over: a new screen starts with none (a screen
/// drawn again, such as the menu with a message, keeps them).
pub fn forget_layers(
    mut changed: MessageReader<StateTransitionEvent<Screen>>,
    mut layers: ResMut<Layers>,
) {
    if changed.read().any(|t| t.exited != t.entered) {
        layers.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_top_layer_has_the_input_and_closing_goes_back_to_the_one_under() {
        let mut layers = Layers::default();
        assert!(layers.world(Screen::Battle));
        assert!(!layers.world(Screen::Menu));
        layers.open(Layer::Pause);
        layers.open(Layer::Settings);
        assert!(!layers.world(Screen::Battle));
        assert_eq!(layers.top(), Some(&Layer::Settings));
        assert!(layers.has(&Layer::Pause));
        assert_eq!(layers.close(), Some(Layer::Settings));
        assert_eq!(layers.top(), Some(&Layer::Pause));
        layers.clear();
        assert!(layers.world(Screen::Battle));
    }
}
