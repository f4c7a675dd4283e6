//! The world drawn at a lower resolution in low quality: the world's camera renders into an
//! image of [`LOW_QUALITY_SCALE`] times the window's pixels on each side, shown stretched over
//! the window beneath every other node, so a software renderer shades a quarter of the pixels
//! while the UI, drawn by a camera of its own straight into the window, stays sharp. In full
//! quality the world's camera draws into the window itself and the image goes.
//!
//! The image's scale factor makes its logical size the window's, so the cursor's ray
//! (`placing.rs`) and labels over the world (`units.rs`) need no conversion.

use bevy::camera::{ImageRenderTarget, RenderTarget};
use bevy::prelude::*;
use bevy::render::render_resource::TextureFormat;
use bevy::window::{PrimaryWindow, WindowRef};

use super::camera::Rig;
use super::settings::Settings;

/// The share of the window's width and height the world is drawn at in low quality.
pub const LOW_QUALITY_SCALE: f32 = 0.5;

/// Sets up the UI's camera and draws the world at the quality setting's resolution.
pub struct RenderScalePlugin;

impl Plugin for RenderScalePlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Startup, spawn)
            .add_systems(Update, apply_scale);
    }
}

/// The node showing the world's image in low quality.
#[derive(Component)]
struct WorldImage;

/// The camera that draws the UI into the window, over whatever the world's camera drew there.
fn spawn(mut commands: Commands) {
    commands.spawn((
        Camera2d,
        Camera {
            order: 1,
            clear_color: ClearColorConfig::None,
            ..default()
        },
        IsDefaultUiCamera,
    ));
    commands.spawn((
        WorldImage,
        ImageNode::default(),
        Node {
            position_type: PositionType::Absolute,
            width: Val::Percent(100.0),
            height: Val::Percent(100.0),
            ..default()
        },
        GlobalZIndex(i32::MIN),
        Pickable::IGNORE,
        Visibility::Hidden,
    ));
}

/// The image's size for a window of `physical` pixels at `scale`: at least a pixel a side.
pub fn scaled_size(physical: UVec2, scale: f32) -> UVec2 {
    (physical.as_vec2() * scale)
        .round()
        .as_uvec2()
        .max(UVec2::ONE)
}

/// Points the world's camera at the window, or at an image of the scaled size (made again when
/// the window's size changes), as the quality setting says.
fn apply_scale(
    settings: Res<Settings>,
    windows: Query<&Window, With<PrimaryWindow>>,
    mut images: ResMut<Assets<Image>>,
    mut cameras: Query<&mut RenderTarget, With<Rig>>,
    mut shown: Query<(&mut ImageNode, &mut Visibility), With<WorldImage>>,
) {
    let (Ok(window), Ok(mut target), Ok((mut node, mut visibility))) =
        (windows.single(), cameras.single_mut(), shown.single_mut())
    else {
        return;
    };
    if !settings.low_quality {
        if !matches!(*target, RenderTarget::Window(_)) {
            *target = RenderTarget::Window(WindowRef::Primary);
            *visibility = Visibility::Hidden;
            // The last handle to the image: dropping it frees it.
            node.image = Handle::default();
        }
        return;
    }
    let physical = window.physical_size().max(UVec2::ONE);
    let size = scaled_size(physical, LOW_QUALITY_SCALE);
    let scale_factor = size.x as f32 / physical.x as f32 * window.scale_factor();
    let current = match &*target {
        RenderTarget::Image(image) => images
            .get(&image.handle)
            .map(|i| (i.size(), image.scale_factor)),
        _ => None,
    };
    if current == Some((size, scale_factor)) {
        return;
    }
    // Replacing the handles frees the image of the old size.
    let image = images.add(Image::new_target_texture(
        size.x,
        size.y,
        TextureFormat::Rgba8UnormSrgb,
        None,
    ));
    *target = RenderTarget::Image(ImageRenderTarget {
        handle: image.clone(),
        scale_factor,
    });
    node.image = image;
    *visibility = Visibility::Inherited;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_world_image_is_the_scaled_window_and_never_empty() {
        assert_eq!(
            scaled_size(UVec2::new(1280, 720), 0.5),
            UVec2::new(640, 360)
        );
        assert_eq!(
            scaled_size(UVec2::new(1281, 721), 0.5),
            UVec2::new(641, 361)
        );
        assert_eq!(scaled_size(UVec2::new(1, 1), 0.5), UVec2::ONE);
    }
}
