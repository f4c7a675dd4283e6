//! The module variants the WFC works with: every allowed rotation and reflection of every module
//! at every allowed base height (thesis 3.4.3), with identical copies merged, and the "faces"
//! by which two neighbouring slots agree.
//!
//! Slots sit at tile corners, so a slot covers a quarter of four tiles. Two slots side by side
//! share two tiles and the edge between them; two diagonal slots share one tile. Each of those
//! shared parts, seen from one side, is a *face*; two variants fit side by side exactly when
//! their facing faces are equal.

use std::hash::Hash;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::terrain::{
    CornerTile, Direction, EDGE_E, EDGE_N, EDGE_S, EDGE_W, NE, NW, SE, SW, Shape, TerrainType,
};

/// One tile as the generator sees it: surface, absolute level and ramp direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TileState {
    /// Surface key.
    pub surface: char,
    /// Absolute height level (the high side of a ramp).
    pub level: u8,
    /// Downhill direction of a ramp.
    pub slant: Option<Direction>,
}

/// A module turned, maybe mirrored, and placed at a base level.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// Index into [`TerrainType::modules`].
    pub module: usize,
    /// Quarter turns clockwise, applied after mirroring.
    pub rotation: u8,
    /// Whether the module was mirrored east–west first.
    pub mirrored: bool,
    /// The module's base level.
    pub base: u8,
    /// Tile-state ids of the north-west, north-east, south-west and south-east tiles.
    pub corners: [u16; 4],
    /// Edge keys on the north, west, east and south edges.
    pub edges: [char; 4],
    /// Collapse weight.
    pub weight: f64,
}

/// The four side neighbours of a slot, clockwise from north: `(dx, dy)`.
///
/// A slot also shares one tile with each diagonal neighbour, but that agreement needs no
/// constraint of its own: the tile is shared with the two side neighbours in between too, and
/// their side faces carry it across, so arc consistency over the sides already implies it.
pub const SIDES: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// The index of the opposite side in [`SIDES`].
pub const fn opposite(d: usize) -> usize {
    (d + 2) % 4
}

/// All variants of a terrain type and the face tables the WFC propagates with.
#[derive(Clone, Debug)]
pub struct ModuleSet {
    /// The variants.
    pub variants: Vec<Variant>,
    /// Tile states by id.
    pub states: Vec<TileState>,
    /// `faces[d][v]`: the face id variant `v` shows towards [`SIDES`]`[d]`.
    pub faces: [Vec<u16>; 4],
    /// Number of distinct face ids per side.
    pub face_counts: [usize; 4],
}

fn rotate(shape: &Shape) -> Shape {
    let c = shape.corners;
    let e = shape.edges;
    let turn = |t: CornerTile| CornerTile {
        slant: t.slant.map(Direction::clockwise),
        ..t
    };
    let mut corners = [c[0]; 4];
    corners[NE] = turn(c[NW]);
    corners[SE] = turn(c[NE]);
    corners[SW] = turn(c[SE]);
    corners[NW] = turn(c[SW]);
    let mut edges = e;
    edges[EDGE_E] = e[EDGE_N];
    edges[EDGE_S] = e[EDGE_E];
    edges[EDGE_W] = e[EDGE_S];
    edges[EDGE_N] = e[EDGE_W];
    Shape { corners, edges }
}

fn mirror(shape: &Shape) -> Shape {
    let c = shape.corners;
    let e = shape.edges;
    let flip = |t: CornerTile| CornerTile {
        slant: t.slant.map(Direction::mirrored),
        ..t
    };
    let mut edges = e;
    edges[EDGE_W] = e[EDGE_E];
    edges[EDGE_E] = e[EDGE_W];
    Shape {
        corners: [flip(c[NE]), flip(c[NW]), flip(c[SE]), flip(c[SW])],
        edges,
    }
}

/// Interns values into dense ids in order of first appearance.
/// The maps are only looked up, never iterated, so their order cannot leak into the output.
struct Interner<T: Hash + Eq + Clone> {
    ids: FxHashMap<T, u16>,
    values: Vec<T>,
}

impl<T: Hash + Eq + Clone> Interner<T> {
    fn new() -> Self {
        Interner {
            ids: FxHashMap::default(),
            values: Vec::new(),
        }
    }

    fn id(&mut self, value: T) -> u16 {
        if let Some(&id) = self.ids.get(&value) {
            return id;
        }
        let id = self.values.len() as u16;
        self.ids.insert(value.clone(), id);
        self.values.push(value);
        id
    }
}

impl ModuleSet {
    /// Expands the modules of `terrain` into variants.
    pub fn new(terrain: &TerrainType) -> ModuleSet {
        let mut states = Interner::new();
        let mut variants: Vec<Variant> = Vec::new();
        let mut seen: FxHashSet<([u16; 4], [char; 4])> = FxHashSet::default();
        for (m, module) in terrain.modules.iter().enumerate() {
            let turns: &[u8] = match module.variants.rotations {
                4 => &[0, 1, 2, 3],
                2 => &[0, 2],
                _ => &[0],
            };
            let mirrors: &[bool] = if module.variants.reflect {
                &[false, true]
            } else {
                &[false]
            };
            for &mirrored in mirrors {
                let mut shape = if mirrored {
                    mirror(&module.shape)
                } else {
                    module.shape
                };
                let mut turned = 0;
                for &rotation in turns {
                    while turned < rotation {
                        shape = rotate(&shape);
                        turned += 1;
                    }
                    for &base in &module.heights {
                        let corners = shape.corners.map(|t| {
                            states.id(TileState {
                                surface: t.surface,
                                level: base + t.height,
                                slant: t.slant,
                            })
                        });
                        // Symmetric modules produce identical copies; keep the first.
                        if !seen.insert((corners, shape.edges)) {
                            continue;
                        }
                        variants.push(Variant {
                            module: m,
                            rotation,
                            mirrored,
                            base,
                            corners,
                            edges: shape.edges,
                            weight: module.weight,
                        });
                    }
                }
            }
        }

        // Faces: a side shares two tiles and the edge between them.
        let mut side_faces: [Interner<(u16, u16, char)>; 2] = [Interner::new(), Interner::new()];
        let mut faces: [Vec<u16>; 4] = Default::default();
        for v in &variants {
            let c = v.corners;
            let e = v.edges;
            // North and south faces list the west tile, the east tile, the edge.
            faces[0].push(side_faces[0].id((c[NW], c[NE], e[EDGE_N])));
            faces[2].push(side_faces[0].id((c[SW], c[SE], e[EDGE_S])));
            // East and west faces list the north tile, the south tile, the edge.
            faces[1].push(side_faces[1].id((c[NE], c[SE], e[EDGE_E])));
            faces[3].push(side_faces[1].id((c[NW], c[SW], e[EDGE_W])));
        }
        let vertical = side_faces[0].values.len();
        let horizontal = side_faces[1].values.len();
        let face_counts = [vertical, horizontal, vertical, horizontal];
        ModuleSet {
            variants,
            states: states.values,
            faces,
            face_counts,
        }
    }

    /// The state of corner `corner` (NW, NE, SW, SE) of variant `v`.
    pub fn corner(&self, v: usize, corner: usize) -> TileState {
        self.states[self.variants[v].corners[corner] as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tile(surface: char, height: u8, slant: Option<Direction>) -> CornerTile {
        CornerTile {
            surface,
            height,
            slant,
        }
    }

    #[test]
    fn four_rotations_return_to_the_start_and_mirroring_twice_too() {
        let shape = Shape {
            corners: [
                tile('D', 1, None),
                tile('D', 1, Some(Direction::South)),
                tile('D', 0, None),
                tile('W', 0, None),
            ],
            edges: ['X', 'Y', '0', 'Z'],
        };
        let turned = rotate(&rotate(&rotate(&rotate(&shape))));
        assert_eq!(turned, shape);
        assert_eq!(mirror(&mirror(&shape)), shape);
        let once = rotate(&shape);
        // The north-west tile moves to the north-east; the ramp that fell south now falls west.
        assert_eq!(once.corners[NE], shape.corners[NW]);
        assert_eq!(once.corners[SE].slant, Some(Direction::West));
        assert_eq!(once.edges[EDGE_E], 'X');
    }
}
