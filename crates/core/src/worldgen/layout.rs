//! Worlds drawn by hand in a small text layout, for tests and tutorials where a generated world
//! would hide what is being shown.
//!
//! Rows run from north (first line) to south; cells are separated by spaces. A cell is a height
//! level, a thing, and optionally a ramp:
//!
//! | thing | meaning |
//! |---|---|
//! | `.` | open ground |
//! | `^` `v` `<` `>` | a path leaving this tile north, south, west or east |
//! | `H` | the Hub |
//! | `#` | a large obstacle |
//! | `o` | a small obstacle |
//! | `f` / `m` | a small obstacle that makes the tile rich in fuel / minerals |
//! | `~` | water (a surface nothing can use) |
//!
//! A path tile may leave in several directions (`0>v`): the path splits there. A ramp letter
//! `N`, `E`, `S` or `W` at the end makes the tile slope down toward that side (the level given is
//! its high side). A path tile that no path leads into is a path start: its attackers come in
//! straight from outside the world, against the (first) direction it leaves in.
//!
//! ```
//! use rampart_core::worldgen::World;
//! let world = World::from_layout("
//!     0. 0. 0.
//!     0> 0> 0H
//!     0. 0# 0.
//! ").unwrap();
//! assert_eq!(world.path_starts()[0].outside.pair(), [-1, 1]);
//! ```

use std::collections::BTreeMap;

use super::final_paths::{PathNetwork, PathStart};
use super::grid::{Grid, Pos};
use super::modules::TileState;
use super::world::{GenStats, ObstacleInfo, World};
use crate::rng::Seed;
use crate::terrain::{Direction, ObstacleKind};

/// Open ground 15 tiles by 7 around one straight path along the middle row (y = 3), from the
/// west edge to the Hub in the east: where `rampart try` and the content tests put blueprints.
pub const STRAIGHT_PATH: &str = "
    0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0.
    0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0.
    0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0.
    0> 0> 0> 0> 0> 0> 0> 0> 0> 0> 0> 0> 0> 0> 0H
    0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0.
    0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0.
    0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0. 0.
";

impl World {
    /// Builds a world from a text layout (see the module documentation).
    pub fn from_layout(text: &str) -> Result<World, String> {
        let rows: Vec<Vec<&str>> = text
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let height = rows.len() as i32;
        let width = rows.first().map_or(0, |r| r.len()) as i32;
        if width == 0 || rows.iter().any(|r| r.len() as i32 != width) {
            return Err("every row of a layout needs the same, non-zero number of cells".into());
        }
        let grid = Grid::new(width, height);
        let kinds = [
            ("large", ObstacleKind::Large, '#'),
            ("small", ObstacleKind::Small, 'o'),
            ("fuel", ObstacleKind::Fuel, 'f'),
            ("minerals", ObstacleKind::Minerals, 'm'),
        ];
        let mut tiles = vec![
            TileState {
                surface: 'G',
                level: 0,
                slant: None
            };
            grid.len()
        ];
        let mut blocked_surface = vec![false; grid.len()];
        let mut obstacles = vec![None; grid.len()];
        let mut leaving: BTreeMap<Pos, Vec<Direction>> = BTreeMap::new();
        let mut hub = None;
        for (row, cells) in rows.iter().enumerate() {
            for (col, cell) in cells.iter().enumerate() {
                let p = Pos::new(col as i32, height - 1 - row as i32);
                let i = grid.index(p);
                let mut chars = cell.chars().peekable();
                let level = chars
                    .next()
                    .and_then(|c| c.to_digit(10))
                    .ok_or_else(|| format!("cell `{cell}` must start with a level digit"))?;
                let mut slant = None;
                let mut things = 0;
                for c in chars {
                    things += 1;
                    let arrow = match c {
                        '^' => Some(Direction::North),
                        'v' => Some(Direction::South),
                        '<' => Some(Direction::West),
                        '>' => Some(Direction::East),
                        _ => None,
                    };
                    match (c, arrow) {
                        (_, Some(d)) => leaving.entry(p).or_default().push(d),
                        ('N', _) => slant = Some(Direction::North),
                        ('E', _) => slant = Some(Direction::East),
                        ('S', _) => slant = Some(Direction::South),
                        ('W', _) => slant = Some(Direction::West),
                        ('.', _) => {}
                        ('~', _) => blocked_surface[i] = true,
                        ('H', _) => hub = Some(p),
                        (c, _) => match kinds.iter().position(|k| k.2 == c) {
                            Some(k) => obstacles[i] = Some(k as u16),
                            None => {
                                return Err(format!(
                                    "`{c}` in `{cell}` is not a thing of the layout"
                                ));
                            }
                        },
                    }
                }
                if things == 0 {
                    return Err(format!("cell `{cell}` needs a thing after its level"));
                }
                tiles[i] = TileState {
                    surface: if blocked_surface[i] { 'W' } else { 'G' },
                    level: level as u8,
                    slant,
                };
            }
        }
        let hub = hub.ok_or("a layout needs a Hub (`H`)")?;
        let network = network(grid, hub, &leaving)?;
        Ok(World {
            seed: Seed(0),
            terrain: "layout".into(),
            grid,
            hub,
            tiles,
            blocked_surface,
            obstacles,
            obstacle_types: kinds
                .iter()
                .map(|(name, kind, _)| ObstacleInfo {
                    name: (*name).to_string(),
                    kind: *kind,
                })
                .collect(),
            blocked_edges: Vec::new(),
            main_paths: Vec::new(),
            network,
            slots: Vec::new(),
            models: Vec::new(),
            model_types: Vec::new(),
            stats: GenStats::default(),
            build_near_paths: false,
        })
    }
}

/// The path network of a layout: its segments, distances to the Hub and starts.
fn network(
    grid: Grid,
    hub: Pos,
    leaving: &BTreeMap<Pos, Vec<Direction>>,
) -> Result<PathNetwork, String> {
    let mut segments: Vec<(Pos, Pos)> = leaving
        .iter()
        .flat_map(|(&p, ds)| ds.iter().map(move |&d| (p, p.step(d))))
        .collect();
    if let Some((from, to)) = segments
        .iter()
        .find(|(_, to)| !grid.contains(*to) || (*to != hub && !leaving.contains_key(to)))
    {
        return Err(format!(
            "the path from {:?} leads to {:?}, which is neither a path nor the Hub",
            from.pair(),
            to.pair()
        ));
    }
    // Distances by following the first way out of each tile; every other way must agree (RP7).
    let mut distance = vec![None; grid.len()];
    distance[grid.index(hub)] = Some(0);
    for &start in leaving.keys() {
        let mut steps = 0;
        let mut p = start;
        while p != hub {
            p = p.step(leaving[&p][0]);
            steps += 1;
            if steps > grid.len() as u32 {
                return Err(format!("the path through {:?} loops", start.pair()));
            }
        }
        distance[grid.index(start)] = Some(steps);
    }
    for &(from, to) in &segments {
        let (d_from, d_to) = (distance[grid.index(from)], distance[grid.index(to)]);
        if d_from != d_to.map(|d| d + 1) {
            return Err(format!(
                "the branches through {:?} reach the Hub by different lengths",
                from.pair()
            ));
        }
    }
    let mut starts = Vec::new();
    for (&p, ds) in leaving {
        if segments.iter().any(|(_, to)| *to == p) {
            continue;
        }
        let outside = p.step(opposite(ds[0]));
        let length = distance[grid.index(p)].unwrap_or(0) + 1;
        starts.push(PathStart {
            outside,
            entry: p,
            length,
        });
        segments.push((outside, p));
    }
    Ok(PathNetwork {
        distance,
        segments,
        starts,
        branches: Vec::new(),
        extra_branches: 0,
    })
}

fn opposite(d: Direction) -> Direction {
    match d {
        Direction::North => Direction::South,
        Direction::South => Direction::North,
        Direction::East => Direction::West,
        Direction::West => Direction::East,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_split_layout_has_two_branches_of_equal_length() {
        let w = World::from_layout(
            "
            0. 0> 0v 0.
            0> 0^v 0H 0.
            0. 0> 0^ 0.
            0# 0~ 0o 1.E
            ",
        )
        .unwrap();
        assert_eq!(w.hub, Pos::new(2, 2));
        assert_eq!(w.path_starts().len(), 1);
        assert_eq!(w.path_starts()[0].outside, Pos::new(-1, 2));
        assert_eq!(w.path_starts()[0].length, 5);
        assert_eq!(w.network.distance[w.grid.index(Pos::new(1, 3))], Some(2));
        assert_eq!(w.network.segments.len(), 8);
        assert_eq!(
            w.obstacle(Pos::new(0, 0)).unwrap().kind,
            ObstacleKind::Large
        );
        assert!(w.blocked_surface[w.grid.index(Pos::new(1, 0))]);
        assert_eq!(w.tile(Pos::new(3, 0)).slant, Some(Direction::East));
        assert_eq!(w.ground_height(3.5, 0.0), 0.0);
        assert_eq!(w.ground_height(2.5, 0.0), 0.5);
    }

    #[test]
    fn bad_layouts_are_explained() {
        assert!(
            World::from_layout("0. 0.\n0.")
                .unwrap_err()
                .contains("same")
        );
        assert!(
            World::from_layout("0> 0. 0H")
                .unwrap_err()
                .contains("neither a path nor the Hub")
        );
        assert!(
            World::from_layout("0>v 0H\n0> 0^")
                .unwrap_err()
                .contains("different lengths")
        );
        assert!(World::from_layout("0. 0.").unwrap_err().contains("Hub"));
        assert!(
            World::from_layout("x.")
                .unwrap_err()
                .contains("level digit")
        );
    }
}
