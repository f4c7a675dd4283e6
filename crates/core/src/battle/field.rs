//! The generated world as the battle uses it: ground heights, line of sight, and the path
//! network as a graph attackers walk on.

use std::collections::BTreeMap;
use std::sync::Arc;

use glam::DVec3;

use crate::terrain::ObstacleKind;
use crate::worldgen::{Pos, World};

/// How high a large obstacle stands above its tile's ground, in world units; it fills the tile
/// but for a thin margin. Small obstacles block nothing but building.
pub const LARGE_OBSTACLE_HEIGHT: f64 = 0.6;
/// The margin of a tile a large obstacle leaves free on each side.
const OBSTACLE_MARGIN: f64 = 0.05;
/// Line-of-sight samples per tile of horizontal distance.
const LOS_SAMPLES_PER_TILE: f64 = 16.0;

/// A directed path segment, from the centre of one tile to the centre of the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// The tile it starts on (outside the world for an entry segment).
    pub from: Pos,
    /// The tile it ends on.
    pub to: Pos,
    /// Path distance from `to` to the Hub, in segments.
    pub remaining_after: f64,
}

/// The battle's view of its world.
#[derive(Clone, Debug)]
pub struct Field {
    world: Arc<World>,
    segments: Vec<Segment>,
    /// Outgoing segments of each tile with any, in the network's order.
    next: BTreeMap<Pos, Vec<usize>>,
    /// The entry segment of each path start, in the order of the starts.
    entries: Vec<usize>,
}

impl Field {
    /// Builds the graph of the world's path network.
    pub fn new(world: Arc<World>) -> Field {
        let grid = world.grid;
        let distance = |p: Pos| -> f64 {
            if grid.contains(p) {
                world.network.distance[grid.index(p)].map_or(0.0, f64::from)
            } else {
                world
                    .network
                    .starts
                    .iter()
                    .find(|s| s.outside == p)
                    .map_or(0.0, |s| f64::from(s.length))
            }
        };
        let segments: Vec<Segment> = world
            .network
            .segments
            .iter()
            .map(|&(from, to)| Segment {
                from,
                to,
                remaining_after: distance(to),
            })
            .collect();
        let mut next: BTreeMap<Pos, Vec<usize>> = BTreeMap::new();
        for (i, s) in segments.iter().enumerate() {
            next.entry(s.from).or_default().push(i);
        }
        let entries = world
            .network
            .starts
            .iter()
            .map(|s| {
                segments
                    .iter()
                    .position(|seg| seg.from == s.outside && seg.to == s.entry)
                    .expect("every path start has its entry segment")
            })
            .collect();
        Field {
            world,
            segments,
            next,
            entries,
        }
    }

    /// The generated world.
    pub fn world(&self) -> &Arc<World> {
        &self.world
    }

    /// The Hub's tile.
    pub fn hub(&self) -> Pos {
        self.world.hub
    }

    /// A segment of the path network.
    pub fn segment(&self, i: usize) -> &Segment {
        &self.segments[i]
    }

    /// How many segments the network has.
    pub fn segment_count(&self) -> usize {
        self.segments.len()
    }

    /// The segments leaving `tile`.
    pub fn next(&self, tile: Pos) -> &[usize] {
        self.next.get(&tile).map_or(&[], Vec::as_slice)
    }

    /// The entry segment of path start `path`.
    pub fn entry(&self, path: usize) -> Option<usize> {
        self.entries.get(path).copied()
    }

    /// How many path starts there are.
    pub fn paths(&self) -> usize {
        self.entries.len()
    }

    /// Whether attackers walk through `tile`.
    pub fn on_path(&self, tile: Pos) -> bool {
        let grid = self.world.grid;
        grid.contains(tile) && self.world.network.distance[grid.index(tile)].is_some()
    }

    /// The ground's height at a point.
    pub fn ground(&self, x: f64, y: f64) -> f64 {
        self.world.ground_height(x, y)
    }

    /// A point on the ground.
    pub fn on_ground(&self, x: f64, y: f64) -> DVec3 {
        DVec3::new(x, y, self.ground(x, y))
    }

    /// The ground point `progress` (0 to 1) of the way along segment `seg`.
    pub fn along(&self, seg: usize, progress: f64) -> DVec3 {
        let p = self.along_flat(seg, progress);
        self.on_ground(p.x, p.y)
    }

    /// Where `progress` (0 to 1) of the way along segment `seg` is on the ground plane.
    pub fn along_flat(&self, seg: usize, progress: f64) -> glam::DVec2 {
        let s = &self.segments[seg];
        glam::DVec2::new(
            f64::from(s.from.x) + f64::from(s.to.x - s.from.x) * progress,
            f64::from(s.from.y) + f64::from(s.to.y - s.from.y) * progress,
        )
    }

    /// Path distance to the Hub from `progress` along segment `seg`.
    pub fn remaining(&self, seg: usize, progress: f64) -> f64 {
        self.segments[seg].remaining_after + (1.0 - progress)
    }

    /// Whether a large obstacle stands at this point (below its top).
    fn in_large_obstacle(&self, p: DVec3) -> bool {
        let grid = self.world.grid;
        let tile = Pos::new(p.x.round() as i32, p.y.round() as i32);
        if !grid.contains(tile) {
            return false;
        }
        let large = self
            .world
            .obstacle(tile)
            .is_some_and(|o| o.kind == ObstacleKind::Large);
        let inside = (p.x - f64::from(tile.x)).abs() < 0.5 - OBSTACLE_MARGIN
            && (p.y - f64::from(tile.y)).abs() < 0.5 - OBSTACLE_MARGIN;
        large && inside && p.z < self.ground(p.x, p.y) + LARGE_OBSTACLE_HEIGHT
    }

    /// Whether the straight line from `a` to `b` clears the ground (hills, cliffs) and large
    /// obstacles. The end points themselves are not tested.
    pub fn line_of_sight(&self, a: DVec3, b: DVec3) -> bool {
        let d = b - a;
        let steps = (d.truncate().length() * LOS_SAMPLES_PER_TILE)
            .ceil()
            .max(1.0) as usize;
        (1..steps).all(|i| {
            let p = a + d * (i as f64 / steps as f64);
            p.z >= self.ground(p.x, p.y) - 1e-9 && !self.in_large_obstacle(p)
        })
    }
}
