//! The key bindings: every control the keyboard reaches ([`Control`]) and the keys bound to it
//! ([`Bindings`], up to [`KEYS_PER_CONTROL`] each), kept in the player's settings. A key is bound
//! to one control at most: binding one already taken is refused with the control that has it.
//! Keys are written in the settings file by Bevy's names for them (`KeyW`, `Digit1`, `Space`,
//! `F3`), with `Ctrl+` before a key that needs Ctrl held (`Ctrl+Tab`).

use std::collections::BTreeMap;
use std::fmt;

use bevy::prelude::*;
use bevy::reflect::FromReflect;
use bevy::reflect::enums::{DynamicEnum, DynamicVariant, Enum};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// How many keys one control may have.
pub const KEYS_PER_CONTROL: usize = 2;

/// Something the player does with a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Control {
    /// Deselect; with nothing selected open the pause screen; close the screen on top.
    Back,
    /// Start the next wave.
    StartWave,
    /// Pause or go on.
    Pause,
    /// 1× or 2×.
    Speed,
    /// Turn the blueprint about to be placed.
    Rotate,
    /// Remove the selected building.
    Delete,
    /// The selected tower's next targeting priority.
    NextPriority,
    /// The selected tower's previous targeting priority.
    PreviousPriority,
    /// Select blueprint `n` (from 0) of the blueprint menu.
    Blueprint(u8),
    /// Move the camera up the screen.
    PanUp,
    /// Move the camera down the screen.
    PanDown,
    /// Move the camera left.
    PanLeft,
    /// Move the camera right.
    PanRight,
    /// Zoom in (held).
    ZoomIn,
    /// Zoom out (held).
    ZoomOut,
    /// Turn the camera a quarter to the left.
    TurnLeft,
    /// Turn the camera a quarter to the right.
    TurnRight,
    /// Show or hide the debug overlay.
    DebugOverlay,
    /// Open the Mods screen from the main menu.
    Mods,
}

/// How many blueprints of the menu have keys.
pub const BLUEPRINT_KEYS: u8 = 9;

impl Control {
    /// Every control, in the order the settings screen lists them.
    pub fn all() -> Vec<Control> {
        let mut all = vec![
            Control::Back,
            Control::StartWave,
            Control::Pause,
            Control::Speed,
            Control::Rotate,
            Control::Delete,
            Control::NextPriority,
            Control::PreviousPriority,
        ];
        all.extend((0..BLUEPRINT_KEYS).map(Control::Blueprint));
        all.extend([
            Control::PanUp,
            Control::PanDown,
            Control::PanLeft,
            Control::PanRight,
            Control::ZoomIn,
            Control::ZoomOut,
            Control::TurnLeft,
            Control::TurnRight,
            Control::DebugOverlay,
            Control::Mods,
        ]);
        all
    }

    /// What it does, for the settings screen and refusals.
    pub fn name(self) -> String {
        match self {
            Control::Back => "Back / pause screen".into(),
            Control::StartWave => "Start the next wave".into(),
            Control::Pause => "Pause / play".into(),
            Control::Speed => "1x / 2x speed".into(),
            Control::Rotate => "Turn the blueprint".into(),
            Control::Delete => "Remove the building".into(),
            Control::NextPriority => "Next targeting priority".into(),
            Control::PreviousPriority => "Previous targeting priority".into(),
            Control::Blueprint(n) => format!("Blueprint {}", u32::from(n) + 1),
            Control::PanUp => "Move the view up".into(),
            Control::PanDown => "Move the view down".into(),
            Control::PanLeft => "Move the view left".into(),
            Control::PanRight => "Move the view right".into(),
            Control::ZoomIn => "Zoom in".into(),
            Control::ZoomOut => "Zoom out".into(),
            Control::TurnLeft => "Turn the view left".into(),
            Control::TurnRight => "Turn the view right".into(),
            Control::DebugOverlay => "Debug overlay".into(),
            Control::Mods => "Mods (main menu)".into(),
        }
    }

    /// The keys it has when nothing else is chosen.
    fn default_keys(self) -> Vec<Chord> {
        let key = |key| vec![Chord { key, ctrl: false }];
        match self {
            Control::Back => key(KeyCode::Escape),
            Control::StartWave => key(KeyCode::Space),
            Control::Pause => key(KeyCode::KeyP),
            Control::Speed => key(KeyCode::KeyF),
            Control::Rotate => key(KeyCode::KeyR),
            Control::Delete => key(KeyCode::Delete),
            Control::NextPriority => key(KeyCode::Tab),
            Control::PreviousPriority => vec![Chord {
                key: KeyCode::Tab,
                ctrl: true,
            }],
            Control::Blueprint(n) => DIGITS
                .get(usize::from(n))
                .map_or(Vec::new(), |&digit| key(digit)),
            Control::PanUp => key(KeyCode::KeyW),
            Control::PanDown => key(KeyCode::KeyS),
            Control::PanLeft => key(KeyCode::KeyA),
            Control::PanRight => key(KeyCode::KeyD),
            Control::ZoomIn => key(KeyCode::KeyT),
            Control::ZoomOut => key(KeyCode::KeyG),
            Control::TurnLeft => key(KeyCode::KeyQ),
            Control::TurnRight => key(KeyCode::KeyE),
            Control::DebugOverlay => key(KeyCode::F3),
            Control::Mods => key(KeyCode::KeyM),
        }
    }
}

/// The digit keys 1 to 9, the blueprint menu's keys by default.
const DIGITS: [KeyCode; 9] = [
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
    KeyCode::Digit9,
];

/// A key, with Ctrl held or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Chord {
    /// The key.
    pub key: KeyCode,
    /// Whether Ctrl must be held.
    pub ctrl: bool,
}

/// Keys that cannot be bound: Ctrl is what chords are made with, the system keys belong to the
/// system, and an unidentified key cannot be told from another.
fn bindable(key: KeyCode) -> bool {
    !matches!(
        key,
        KeyCode::ControlLeft
            | KeyCode::ControlRight
            | KeyCode::SuperLeft
            | KeyCode::SuperRight
            | KeyCode::Meta
            | KeyCode::Hyper
            | KeyCode::Fn
            | KeyCode::FnLock
            | KeyCode::Unidentified(_)
    )
}

/// Whether a Ctrl key is held.
pub fn ctrl_held(keys: &ButtonInput<KeyCode>) -> bool {
    keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight])
}

impl Chord {
    /// The key pressed this frame, with whether Ctrl is held, if one was pressed that can be
    /// bound.
    pub fn pressed_now(keys: &ButtonInput<KeyCode>) -> Option<Chord> {
        keys.get_just_pressed()
            .copied()
            .filter(|&key| bindable(key))
            .min()
            .map(|key| Chord {
                key,
                ctrl: ctrl_held(keys),
            })
    }

    /// The chord as the settings file has it: `KeyW`, `Ctrl+Tab`.
    pub fn code(self) -> String {
        let name = self.key.variant_name();
        if self.ctrl {
            format!("Ctrl+{name}")
        } else {
            name.to_string()
        }
    }

    /// The chord from the settings file's form.
    pub fn parse(code: &str) -> Result<Chord, String> {
        let (ctrl, name) = match code.strip_prefix("Ctrl+") {
            Some(name) => (true, name),
            None => (false, code),
        };
        let key = KeyCode::from_reflect(&DynamicEnum::new(name, DynamicVariant::Unit))
            .filter(|&key| bindable(key))
            .ok_or_else(|| {
                format!(
                    "`{name}` is not a key that can be bound (keys are named `KeyW`, `Digit1`, \
                     `Space`, `Escape`, `F3`, `ArrowUp`…, with `Ctrl+` before one that needs \
                     Ctrl)"
                )
            })?;
        Ok(Chord { key, ctrl })
    }
}

impl fmt::Display for Chord {
    /// The chord as the player reads it: `W`, `1`, `Esc`, `Ctrl+Tab`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let code = self.key.variant_name();
        let name = match self.key {
            KeyCode::Escape => "Esc",
            KeyCode::ArrowUp => "Up",
            KeyCode::ArrowDown => "Down",
            KeyCode::ArrowLeft => "Left",
            KeyCode::ArrowRight => "Right",
            KeyCode::ShiftLeft => "Left Shift",
            KeyCode::ShiftRight => "Right Shift",
            KeyCode::AltLeft => "Left Alt",
            KeyCode::AltRight => "Right Alt",
            _ => ["Key", "Digit"]
                .iter()
                .find_map(|prefix| code.strip_prefix(prefix))
                .unwrap_or(code),
        };
        if self.ctrl {
            write!(f, "Ctrl+{name}")
        } else {
            f.write_str(name)
        }
    }
}

impl Serialize for Chord {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.code())
    }
}

impl<'de> Deserialize<'de> for Chord {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Chord, D::Error> {
        let code = String::deserialize(deserializer)?;
        Chord::parse(&code).map_err(serde::de::Error::custom)
    }
}

/// Which keys each control has. Every control is in the table (perhaps with no key), and no
/// key is bound twice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Bindings(BTreeMap<Control, Vec<Chord>>);

impl Default for Bindings {
    fn default() -> Bindings {
        Bindings(
            Control::all()
                .into_iter()
                .map(|c| (c, c.default_keys()))
                .collect(),
        )
    }
}

impl Bindings {
    /// The keys of `control`.
    pub fn keys(&self, control: Control) -> &[Chord] {
        self.0.get(&control).map_or(&[], Vec::as_slice)
    }

    /// The control `chord` is bound to, if any.
    pub fn control_of(&self, chord: Chord) -> Option<Control> {
        self.0
            .iter()
            .find(|(_, keys)| keys.contains(&chord))
            .map(|(control, _)| *control)
    }

    /// Binds `chord` as key `slot` of `control` (the first free slot when `slot` is past the
    /// keys it has), replacing the key that was there. Refused when another control has the
    /// key, or the slot is past [`KEYS_PER_CONTROL`].
    pub fn bind(&mut self, control: Control, slot: usize, chord: Chord) -> Result<(), String> {
        if slot >= KEYS_PER_CONTROL {
            return Err(format!("a control has at most {KEYS_PER_CONTROL} keys"));
        }
        match self.control_of(chord) {
            Some(other) if other != control => {
                return Err(format!(
                    "{chord} is already bound to \"{}\": choose another key, or give that one \
                     another key first",
                    other.name()
                ));
            }
            _ => {}
        }
        let keys = self.0.entry(control).or_default();
        keys.retain(|&k| k != chord);
        match keys.get_mut(slot) {
            Some(key) => *key = chord,
            None => keys.push(chord),
        }
        Ok(())
    }

    /// Takes key `slot` off `control`.
    pub fn unbind(&mut self, control: Control, slot: usize) {
        if let Some(keys) = self.0.get_mut(&control)
            && slot < keys.len()
        {
            keys.remove(slot);
        }
    }

    /// The first key bound to two controls, with both, if any: what a settings file may hold
    /// that [`bind`](Bindings::bind) never makes.
    pub fn conflict(&self) -> Option<(Chord, Control, Control)> {
        let mut seen: BTreeMap<Chord, Control> = BTreeMap::new();
        for (&control, keys) in &self.0 {
            for &chord in keys {
                if let Some(&first) = seen.get(&chord) {
                    return Some((chord, first, control));
                }
                seen.insert(chord, control);
            }
        }
        None
    }

    /// The table as a settings file written by an older game makes it: controls it does not
    /// name get their default keys (those no control took), and a control with too many keys
    /// keeps its first ones.
    pub fn completed(mut self) -> Bindings {
        for keys in self.0.values_mut() {
            keys.truncate(KEYS_PER_CONTROL);
        }
        for control in Control::all() {
            if self.0.contains_key(&control) {
                continue;
            }
            let free: Vec<Chord> = control
                .default_keys()
                .into_iter()
                .filter(|&k| self.control_of(k).is_none())
                .collect();
            self.0.insert(control, free);
        }
        self
    }

    /// Whether a key of `control` was pressed this frame (with Ctrl held exactly when the key
    /// says so).
    pub fn just_pressed(&self, control: Control, keys: &ButtonInput<KeyCode>) -> bool {
        let ctrl = ctrl_held(keys);
        self.keys(control)
            .iter()
            .any(|c| keys.just_pressed(c.key) && c.ctrl == ctrl)
    }

    /// Whether a key of `control` is held (a key that needs Ctrl, with Ctrl).
    pub fn pressed(&self, control: Control, keys: &ButtonInput<KeyCode>) -> bool {
        let ctrl = ctrl_held(keys);
        self.keys(control)
            .iter()
            .any(|c| keys.pressed(c.key) && (ctrl || !c.ctrl))
    }

    /// The keys of `control` as the player reads them (`Tab`, `W / Up`), or `no key`.
    pub fn describe(&self, control: Control) -> String {
        let keys = self.keys(control);
        if keys.is_empty() {
            return "no key".into();
        }
        keys.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" / ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(key: KeyCode) -> Chord {
        Chord { key, ctrl: false }
    }

    #[test]
    fn the_defaults_bind_every_control_and_no_key_twice() {
        let b = Bindings::default();
        for control in Control::all() {
            assert!(!b.keys(control).is_empty(), "{control:?}");
        }
        assert_eq!(b.conflict(), None);
        assert_eq!(
            b.control_of(key(KeyCode::Digit3)),
            Some(Control::Blueprint(2))
        );
        assert_eq!(
            b.control_of(Chord {
                key: KeyCode::Tab,
                ctrl: true
            }),
            Some(Control::PreviousPriority)
        );
    }

    #[test]
    fn a_key_another_control_has_is_refused_and_says_which() {
        let mut b = Bindings::default();
        let refused = b.bind(Control::PanUp, 0, key(KeyCode::KeyR)).unwrap_err();
        assert!(
            refused.contains("R is already bound to \"Turn the blueprint\""),
            "{refused}"
        );
        // Nothing changed.
        assert_eq!(b, Bindings::default());
        // A free key is taken, as the first key or a second one.
        b.bind(Control::PanUp, 0, key(KeyCode::ArrowUp)).unwrap();
        b.bind(Control::PanUp, 1, key(KeyCode::KeyI)).unwrap();
        assert_eq!(
            b.keys(Control::PanUp),
            [key(KeyCode::ArrowUp), key(KeyCode::KeyI)]
        );
        assert_eq!(b.describe(Control::PanUp), "Up / I");
        // W is free again and can go to another control.
        b.bind(Control::Speed, 1, key(KeyCode::KeyW)).unwrap();
        // A control's own key given to its other slot moves there: the two swap.
        b.bind(Control::PanUp, 1, key(KeyCode::ArrowUp)).unwrap();
        assert_eq!(
            b.keys(Control::PanUp),
            [key(KeyCode::KeyI), key(KeyCode::ArrowUp)]
        );
        assert!(
            b.bind(Control::PanUp, KEYS_PER_CONTROL, key(KeyCode::KeyO))
                .is_err()
        );
        b.unbind(Control::PanUp, 0);
        b.unbind(Control::PanUp, 0);
        assert_eq!(b.describe(Control::PanUp), "no key");
        assert_eq!(b.conflict(), None);
    }

    #[test]
    fn ctrl_makes_another_chord() {
        let mut keys = ButtonInput::<KeyCode>::default();
        let b = Bindings::default();
        keys.press(KeyCode::Tab);
        assert!(b.just_pressed(Control::NextPriority, &keys));
        assert!(!b.just_pressed(Control::PreviousPriority, &keys));
        keys.press(KeyCode::ControlLeft);
        assert!(!b.just_pressed(Control::NextPriority, &keys));
        assert!(b.just_pressed(Control::PreviousPriority, &keys));
        // Held keys (the camera's) go on with Ctrl held.
        keys.press(KeyCode::KeyW);
        assert!(b.pressed(Control::PanUp, &keys));
        // Ctrl itself is no key to bind: the chord is the other key.
        assert_eq!(
            Chord::pressed_now(&keys),
            Some(Chord {
                key: KeyCode::KeyW,
                ctrl: true
            })
        );
    }

    #[test]
    fn keys_are_written_by_name_and_read_back() {
        for chord in [
            key(KeyCode::KeyW),
            key(KeyCode::F3),
            key(KeyCode::Escape),
            Chord {
                key: KeyCode::Tab,
                ctrl: true,
            },
        ] {
            assert_eq!(Chord::parse(&chord.code()), Ok(chord));
        }
        assert_eq!(key(KeyCode::KeyW).code(), "KeyW");
        assert_eq!(key(KeyCode::Digit1).to_string(), "1");
        assert_eq!(key(KeyCode::Escape).to_string(), "Esc");
        assert!(Chord::parse("Kye").unwrap_err().contains("`Kye`"));
        assert!(Chord::parse("ControlLeft").is_err());
    }

    #[test]
    fn an_older_table_gets_the_new_controls_with_their_free_keys() {
        let mut b = Bindings::default();
        b.0.remove(&Control::DebugOverlay);
        b.0.remove(&Control::Mods);
        // The player gave M to something else: the Mods key is left without it.
        b.0.insert(Control::Speed, vec![key(KeyCode::KeyM)]);
        let b = b.completed();
        assert_eq!(b.keys(Control::DebugOverlay), [key(KeyCode::F3)]);
        assert!(b.keys(Control::Mods).is_empty());
        assert_eq!(b.conflict(), None);
    }
}
