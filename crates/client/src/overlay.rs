//! Drawn on the ground (thesis 2.7, 3.10): the tiles a selected building could go on, outlined
//! (a dark edge, a band of blue) and tinted; for a building that needs a deposit, the tiles rich
//! in fuel (yellow, as fuel's icon) and in minerals (orange, as materials'; the colour-blind
//! palette's blue and orange) framed; the range of what is being placed or the selected tower
//! or ability — green where any attacker can be hit, yellow where only large ones can (the
//! colour-blind palette's blue and orange), as a ring with a faint fill — at 8 samples per tile
//! edge, refined over a few frames so that no frame waits for it; and the hovered and selected
//! tiles' outlines. It is one picture laid over the tile tops, updated pixel by pixel.

use std::sync::Arc;

use bevy::asset::RenderAssetUsages;
use bevy::image::ImageSampler;
use bevy::mesh::PrimitiveTopology;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};

use super::palette::Palette;
use super::placing::{Cursor, spot};
use super::session::{Game, Session, Thing};
use super::{ClientSet, Screen, to_bevy};
use rampart_core::battle::EntityKind;
use rampart_core::battle::preview::{RangeMap, RangeOf, RangeSampler};
use rampart_core::content::{BlueprintId, Deposit, Placement};
use rampart_core::terrain::ObstacleKind;
use rampart_core::worldgen::{LEVEL_HEIGHT, Pos, World, level_within};

/// Samples per tile edge of the range picture.
pub const PER_TILE: u32 = 8;

/// Draws the ground overlay.
pub struct OverlayPlugin;

impl Plugin for OverlayPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(OnExit(Screen::Battle), forget).add_systems(
            Update,
            (build, paint)
                .chain()
                .in_set(ClientSet::Present)
                .run_if(in_state(Screen::Battle)),
        );
    }
}

/// The overlay of the current world, and what it shows.
#[derive(Resource)]
struct Overlay {
    world: Arc<World>,
    image: Handle<Image>,
    mesh: Entity,
    /// The range being drawn: what it is of, the tile it stands on, and its sampler.
    range: Option<(RangeOf, RangeSampler)>,
    /// Valid tiles for the selected blueprint, and what they were worked out for.
    valid: Option<(BlueprintId, usize, Vec<Pos>)>,
    /// The deposits the selected blueprint needs, with their colours.
    deposits: Vec<(Pos, [u8; 4])>,
    /// What was painted last, to paint again only when something changed.
    painted: Option<Painted>,
}

/// What a painted picture showed.
#[derive(Clone, PartialEq)]
struct Painted {
    palette: Palette,
    range: Option<(RangeOf, bool)>,
    valid: Option<(BlueprintId, usize)>,
    hovered: Option<Pos>,
    selected: Option<Pos>,
}

fn forget(mut commands: Commands) {
    commands.remove_resource::<Overlay>();
}

/// The overlay's picture and the mesh over the tile tops it is laid on, for a new world.
fn build(
    mut commands: Commands,
    game: NonSend<Game>,
    overlay: Option<Res<Overlay>>,
    mut images: ResMut<Assets<Image>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(world) = game.world() else {
        return;
    };
    if let Some(overlay) = &overlay {
        if Arc::ptr_eq(&overlay.world, world) {
            return;
        }
        commands.entity(overlay.mesh).despawn();
    }
    let (w, h) = (world.grid.width as u32, world.grid.height as u32);
    let mut image = Image::new_fill(
        Extent3d {
            width: w * PER_TILE,
            height: h * PER_TILE,
            depth_or_array_layers: 1,
        },
        TextureDimension::D2,
        &[0, 0, 0, 0],
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    );
    image.sampler = ImageSampler::nearest();
    let image = images.add(image);
    let material = materials.add(StandardMaterial {
        base_color_texture: Some(image.clone()),
        alpha_mode: AlphaMode::Blend,
        unlit: true,
        double_sided: true,
        cull_mode: None,
        ..default()
    });
    let mesh = commands
        .spawn((
            Mesh3d(meshes.add(tops_mesh(world))),
            MeshMaterial3d(material),
            Transform::default(),
            DespawnOnExit(Screen::Battle),
        ))
        .id();
    commands.insert_resource(Overlay {
        world: world.clone(),
        image,
        mesh,
        range: None,
        valid: None,
        deposits: Vec::new(),
        painted: None,
    });
}

/// The tile tops, lifted a little, with the picture laid over them: texture `u` runs east, `v`
/// south, one tile `1/width` by `1/height`.
fn tops_mesh(world: &World) -> Mesh {
    const LIFT: f64 = 0.035;
    let (w, h) = (f64::from(world.grid.width), f64::from(world.grid.height));
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut uvs: Vec<[f32; 2]> = Vec::new();
    for p in world.grid.tiles() {
        let tile = world.tile(p);
        let (x, y) = (f64::from(p.x), f64::from(p.y));
        let corner = |dx: f64, dy: f64| {
            let at = to_bevy(
                x + dx,
                y + dy,
                level_within(tile, dx, dy) * LEVEL_HEIGHT + LIFT,
            );
            let uv = [
                ((x + dx + 0.5) / w) as f32,
                (1.0 - (y + dy + 0.5) / h) as f32,
            ];
            (at.to_array(), uv)
        };
        let quad = [
            corner(-0.5, -0.5),
            corner(0.5, -0.5),
            corner(0.5, 0.5),
            corner(-0.5, 0.5),
        ];
        for i in [0, 1, 2, 0, 2, 3] {
            positions.push(quad[i].0);
            uvs.push(quad[i].1);
        }
    }
    let normals = vec![[0.0, 1.0, 0.0]; positions.len()];
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_attribute(Mesh::ATTRIBUTE_UV_0, uvs)
}

/// What the range drawn now is of: the blueprint being placed at the cursor, else the selected
/// building or ability.
fn range_of(session: &Session, cursor: &Cursor) -> Option<RangeOf> {
    match (session.selection.blueprint, cursor.point) {
        (Some(blueprint), Some(point)) => Some(RangeOf::Planned {
            blueprint,
            position: spot(session, blueprint, point),
            rotation: session.selection.rotation,
        }),
        (Some(_), None) => None,
        (None, _) => match session.selection.thing {
            Some(Thing::Entity(id)) => {
                let e = session.battle.entity(id)?;
                e.kind.blueprint().map(|_| RangeOf::Placed(id))
            }
            _ => None,
        },
    }
}

/// The tile a thing stands on, for its outline: a tile, or a building's tile.
fn tile_of(session: &Session, thing: Option<Thing>) -> Option<Pos> {
    match thing? {
        Thing::Tile(p) => Some(p),
        Thing::Entity(id) => {
            let e = session.battle.entity(id)?;
            matches!(e.kind, EntityKind::Building(_))
                .then_some(e.tile)
                .flatten()
        }
    }
}

/// Refines the range and paints the picture when what it shows changed.
fn paint(
    mut game: NonSendMut<Game>,
    cursor: Res<Cursor>,
    palette: Res<Palette>,
    overlay: Option<ResMut<Overlay>>,
    mut images: ResMut<Assets<Image>>,
) {
    let (Some(session), Some(mut overlay)) = (game.0.as_mut(), overlay) else {
        return;
    };
    // The range: a new sampler when what it is of changed, refined a frame's worth.
    let wanted = range_of(session, &cursor);
    if overlay.range.as_ref().map(|(of, _)| *of) != wanted {
        overlay.range = wanted.and_then(|of| {
            let sampler = session.battle.range_sampler(of, PER_TILE)?;
            Some((of, sampler))
        });
    }
    if let Some((_, sampler)) = overlay.range.as_mut()
        && !sampler.is_complete()
    {
        sampler.refine(RangeSampler::TESTS_PER_FRAME);
    }
    // Valid tiles of the selected building blueprint, as far as the place goes (not the cost):
    // worked out again when buildings come or go.
    let buildings = session
        .battle
        .entities()
        .filter(|(_, e)| matches!(e.kind, EntityKind::Building(_)))
        .count();
    let building = session.selection.blueprint.filter(|&b| {
        matches!(
            session.battle.content().blueprint(b).placement(),
            Placement::Tile { .. }
        )
    });
    // A new palette works the deposits' colours out again.
    if palette.is_changed() {
        overlay.valid = None;
    }
    match building {
        Some(b) if overlay.valid.as_ref().map(|v| (v.0, v.1)) != Some((b, buildings)) => {
            let tiles = session.battle.valid_locations(b);
            overlay.valid = Some((b, buildings, tiles));
            let deposit = match session.battle.content().blueprint(b).placement() {
                Placement::Tile { deposit, .. } => deposit,
                _ => None,
            };
            overlay.deposits =
                deposit.map_or(Vec::new(), |d| deposits(&overlay.world, d, &palette));
        }
        Some(_) => {}
        None => {
            overlay.valid = None;
            overlay.deposits.clear();
        }
    }
    let painted = Painted {
        palette: palette.clone(),
        range: overlay
            .range
            .as_ref()
            .map(|(of, sampler)| (*of, sampler.is_complete())),
        valid: overlay.valid.as_ref().map(|v| (v.0, v.1)),
        hovered: tile_of(session, cursor.hovered),
        selected: tile_of(session, session.selection.thing),
    };
    let refining = overlay
        .range
        .as_ref()
        .is_some_and(|(_, s)| !s.is_complete());
    if overlay.painted.as_ref() == Some(&painted) && !refining {
        return;
    }
    let Some(mut image) = images.get_mut(&overlay.image) else {
        return;
    };
    draw(
        &mut image,
        &overlay.world,
        &palette,
        overlay.range.as_ref().map(|(_, s)| s.map()),
        overlay.valid.as_ref().map(|v| v.2.as_slice()),
        &overlay.deposits,
        painted.hovered,
        painted.selected,
    );
    overlay.painted = Some(painted);
}

/// The tiles rich in what `deposit` asks for, in `palette`'s colours.
fn deposits(world: &World, deposit: Deposit, palette: &Palette) -> Vec<(Pos, [u8; 4])> {
    world
        .grid
        .tiles()
        .filter_map(|p| {
            let colour = match (world.obstacle(p)?.kind, deposit) {
                (ObstacleKind::Fuel, Deposit::Fuel | Deposit::FuelOrMinerals) => palette.fuel,
                (ObstacleKind::Minerals, Deposit::Minerals | Deposit::FuelOrMinerals) => {
                    palette.minerals
                }
                _ => return None,
            };
            Some((p, colour))
        })
        .collect()
}

/// The dark outer edge of a valid tile.
const EDGE: [u8; 4] = [12, 18, 32, 220];

/// `rgba` without its transparency.
fn opaque([r, g, b, _]: [u8; 4]) -> [u8; 4] {
    [r, g, b, 255]
}

/// The hovered tile's outline: a lighter blue.
const HOVERED: [u8; 4] = [150, 200, 255, 230];
/// The selected tile's outline.
const SELECTED: [u8; 4] = [40, 110, 255, 255];

/// Paints the picture: tint, deposits, range, outlines.
fn draw(
    image: &mut Image,
    world: &World,
    palette: &Palette,
    range: Option<&RangeMap>,
    valid: Option<&[Pos]>,
    deposits: &[(Pos, [u8; 4])],
    hovered: Option<Pos>,
    selected: Option<Pos>,
) {
    let per = PER_TILE as usize;
    let (w, h) = (
        world.grid.width as usize * per,
        world.grid.height as usize * per,
    );
    let Some(data) = image.data.as_mut() else {
        return;
    };
    // Image rows run from the north (v = 0) to the south.
    let mut put = |column: usize, row_from_south: usize, rgba: [u8; 4]| {
        if column < w && row_from_south < h {
            let i = ((h - 1 - row_from_south) * w + column) * 4;
            data[i..i + 4].copy_from_slice(&rgba);
        }
    };
    for row in 0..h {
        for column in 0..w {
            put(column, row, [0, 0, 0, 0]);
        }
    }
    // The range as a ring with a faint fill: a filled area would tint the ghost and the tiles'
    // outlines under it until valid and refused looked alike. The fill goes under the valid
    // tiles' outlines, the ring over them.
    let reach = |column: usize, row: usize| {
        let bits = range.map_or(0, |map| map.cell(column, row));
        if bits & RangeMap::SMALL != 0 {
            2
        } else if bits & RangeMap::LARGE != 0 {
            1
        } else {
            0
        }
    };
    let range_shown = range.is_some_and(|map| map.columns == w && map.rows == h);
    let colour_of = |reach: u8| {
        if reach == 2 {
            palette.range_any
        } else {
            palette.range_large
        }
    };
    // On the ring where a neighbour reaches less far (the map's edge too).
    let on_ring = |column: usize, row: usize, here: u8| {
        [(0, 1), (2, 1), (1, 0), (1, 2)].iter().any(|&(dc, dr)| {
            match ((column + dc).checked_sub(1), (row + dr).checked_sub(1)) {
                (Some(c), Some(r)) if c < w && r < h => reach(c, r) < here,
                _ => true,
            }
        })
    };
    if range_shown {
        for row in 0..h {
            for column in 0..w {
                let here = reach(column, row);
                if here > 0 {
                    let [r, g, b, a] = colour_of(here);
                    put(column, row, [r, g, b, a / 3]);
                }
            }
        }
    }
    // Valid tiles: a dark edge and a solid band of the valid colour inside it around a light
    // tint, so the outline reads on white snow and grey rock alike.
    for p in valid.unwrap_or_default() {
        for r in 0..per {
            for c in 0..per {
                let rgba = match r.min(c).min(per - 1 - r).min(per - 1 - c) {
                    0 => EDGE,
                    1 => opaque(palette.valid),
                    _ => palette.valid,
                };
                put(p.x as usize * per + c, p.y as usize * per + r, rgba);
            }
        }
    }
    // A frame two samples wide: the valid tint stays visible inside it, and the deposit's
    // scatter model in the tile's middle does not hide it.
    for &(p, colour) in deposits {
        for r in 0..per {
            for c in 0..per {
                let edge = r.min(c).min(per - 1 - r).min(per - 1 - c);
                if edge < 2 {
                    put(p.x as usize * per + c, p.y as usize * per + r, colour);
                }
            }
        }
    }
    if range_shown {
        for row in 0..h {
            for column in 0..w {
                let here = reach(column, row);
                if here > 0 && on_ring(column, row, here) {
                    put(column, row, opaque(colour_of(here)));
                }
            }
        }
    }
    for (tile, rgba) in [(hovered, HOVERED), (selected, SELECTED)] {
        let Some(p) = tile.filter(|p| world.grid.contains(*p)) else {
            continue;
        };
        let (x0, y0) = (p.x as usize * per, p.y as usize * per);
        for i in 0..per {
            put(x0 + i, y0, rgba);
            put(x0 + i, y0 + per - 1, rgba);
            put(x0, y0 + i, rgba);
            put(x0 + per - 1, y0 + i, rgba);
        }
    }
}
