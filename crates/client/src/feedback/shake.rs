//! Shaking: the camera on a big blast or a leak, the hull bar on a leak. Both are off with
//! reduced motion (the Hub's flash still tells of a leak).

use bevy::prelude::*;

use crate::hud::HullBar;
use crate::settings::Settings;

/// How far the camera shakes at full strength, in shares of the view's height.
const CAMERA_REACH: f32 = 0.012;

/// How far the hull bar shakes at full strength, in pixels.
const HULL_REACH: f32 = 7.0;

/// How much shaking is left, each part falling to nothing in about [`SETTLE`] seconds.
#[derive(Resource, Debug, Default)]
pub struct Shake {
    /// The camera's shaking, 0 to 1; it is felt squared, so small kicks stay small.
    camera: f32,
    /// The hull bar's.
    hull: f32,
    /// Seconds shaken, which the wobble follows.
    time: f32,
    /// Whether shaking is off (reduced motion).
    still: bool,
}

/// Seconds for a full shake to settle.
const SETTLE: f32 = 0.6;

impl Shake {
    /// Shakes the camera by `amount` more (1 the most it shakes).
    pub fn kick(&mut self, amount: f32) {
        if !self.still {
            self.camera = (self.camera + amount).min(1.0);
        }
    }

    /// An attacker got through: the hull bar shakes, the camera a little.
    pub fn leak(&mut self) {
        if !self.still {
            self.hull = 1.0;
        }
        self.kick(0.15);
    }

    /// Lets the shaking settle for `dt` seconds; with `still`, it stops at once.
    pub fn settle(&mut self, dt: f32, still: bool) {
        self.still = still;
        if still {
            self.camera = 0.0;
            self.hull = 0.0;
            return;
        }
        self.time += dt;
        self.camera = (self.camera - dt / SETTLE).max(0.0);
        self.hull = (self.hull - dt / SETTLE).max(0.0);
    }

    /// Where the camera is moved to now, in shares of the view's height (right, up).
    pub fn camera(&self) -> Vec2 {
        let t = self.time;
        let strength = self.camera * self.camera * CAMERA_REACH;
        Vec2::new((t * 47.0).sin(), (t * 37.0 + 1.3).sin()) * strength
    }

    /// How far the hull bar is moved to the right now, in pixels.
    pub fn hull(&self) -> f32 {
        self.hull * HULL_REACH * (self.time * 60.0).sin()
    }
}

/// Lets the shaking settle and moves the hull bar by its part.
pub(super) fn settle(
    time: Res<Time>,
    settings: Res<Settings>,
    mut shake: ResMut<Shake>,
    mut bars: Query<&mut UiTransform, With<HullBar>>,
) {
    shake.settle(time.delta_secs(), settings.reduced_motion);
    let x = shake.hull();
    for mut t in &mut bars {
        let moved = Val2::px(x, 0.0);
        if t.translation != moved {
            t.translation = moved;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kick_shakes_and_settles() {
        let mut shake = Shake::default();
        shake.kick(0.8);
        shake.settle(0.01, false);
        assert!(shake.camera().length() > 0.0);
        shake.settle(SETTLE, false);
        assert_eq!(shake.camera(), Vec2::ZERO);
    }

    #[test]
    fn a_leak_shakes_the_hull_bar() {
        let mut shake = Shake::default();
        shake.leak();
        shake.settle(0.02, false);
        assert!(shake.hull().abs() > 0.0);
        assert!(shake.hull().abs() <= HULL_REACH);
        shake.settle(SETTLE, false);
        assert_eq!(shake.hull(), 0.0);
    }

    #[test]
    fn nothing_shakes_with_reduced_motion() {
        let mut shake = Shake::default();
        shake.kick(1.0);
        shake.leak();
        shake.settle(0.02, true);
        assert_eq!(shake.camera(), Vec2::ZERO);
        assert_eq!(shake.hull(), 0.0);
        // Kicks while still are not kept for later.
        shake.kick(1.0);
        shake.leak();
        assert_eq!(shake.camera(), Vec2::ZERO);
        assert_eq!(shake.hull(), 0.0);
    }
}
