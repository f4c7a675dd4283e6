//! Attackers bucketed by tile, so that "who is near this point" looks at a few tiles instead of
//! every attacker. Built when needed, from the state; never part of it.

use glam::DVec2;

use super::core::Battle;
use super::entity::{EntityId, EntityKind};

/// The most cells the grid spans on each axis. Attackers stand in the world, a few dozen tiles
/// across; one standing farther out (a script may put it anywhere) is bucketed in the edge cell
/// nearest to it, which keeps every lookup right and the grid small.
const MAX_SPAN: i64 = 512;

/// Attackers by the tile they stand on.
pub(super) struct AttackerGrid {
    min: (i64, i64),
    size: (i64, i64),
    cells: Vec<Vec<(EntityId, DVec2)>>,
}

/// The tile a coordinate is on; any `f64` (NaN reads as 0, infinities saturate).
fn tile(c: f64) -> i64 {
    c.round() as i64
}

impl AttackerGrid {
    /// Buckets every attacker of the battle.
    pub(super) fn new(b: &Battle) -> AttackerGrid {
        let attackers: Vec<(EntityId, DVec2)> = b
            .state
            .entities
            .iter()
            .filter(|(_, e)| matches!(e.kind, EntityKind::Attacker(_)))
            .map(|(id, e)| (id, DVec2::new(e.position.x, e.position.y)))
            .collect();
        let Some(&(_, first)) = attackers.first() else {
            return AttackerGrid {
                min: (0, 0),
                size: (0, 0),
                cells: Vec::new(),
            };
        };
        let start = (tile(first.x), tile(first.y));
        let (mut lo, mut hi) = (start, start);
        for &(_, p) in &attackers {
            let (x, y) = (tile(p.x), tile(p.y));
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
        let span = |lo: i64, hi: i64| hi.saturating_sub(lo).saturating_add(1).min(MAX_SPAN);
        let size = (span(lo.0, hi.0), span(lo.1, hi.1));
        let mut grid = AttackerGrid {
            min: lo,
            size,
            cells: vec![Vec::new(); (size.0 * size.1) as usize],
        };
        for (id, p) in attackers {
            let (x, y) = (grid.cell(p.x, 0), grid.cell(p.y, 1));
            grid.cells[(y * size.0 + x) as usize].push((id, p));
        }
        grid
    }

    /// The cell index on `axis` (0 = x, 1 = y) of coordinate `c`, clamped into the grid.
    fn cell(&self, c: f64, axis: usize) -> i64 {
        let (lo, n) = [(self.min.0, self.size.0), (self.min.1, self.size.1)][axis];
        tile(c).saturating_sub(lo).clamp(0, n - 1)
    }

    /// Attackers within `radius` of `center` (ground distance), in no particular order.
    pub(super) fn near(&self, center: DVec2, radius: f64) -> impl Iterator<Item = EntityId> + '_ {
        // Clamped like the buckets, so a cell holding attackers from beyond the edge is looked
        // at whenever the circle reaches past that edge.
        let span = |c: f64, lo: i64, n: i64| {
            if n == 0 {
                return 0..0;
            }
            let a = tile(c - radius).saturating_sub(lo).clamp(0, n - 1);
            let b = tile(c + radius)
                .saturating_sub(lo)
                .saturating_add(1)
                .clamp(1, n);
            a..b
        };
        let xs = span(center.x, self.min.0, self.size.0);
        let ys = span(center.y, self.min.1, self.size.1);
        ys.flat_map(move |y| xs.clone().map(move |x| (x, y)))
            .flat_map(move |(x, y)| self.cells[(y * self.size.0 + x) as usize].iter())
            .filter(move |(_, p)| p.distance(center) <= radius)
            .map(|(id, _)| *id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battle::entity::Position;
    use crate::battle::state::BattleConfig;
    use crate::content::ContentDb;
    use crate::modding::{ModDir, ModSet, ModSettings, Origin};
    use crate::rng::Seed;
    use std::sync::Arc;

    #[test]
    fn finds_attackers_by_distance_across_tiles() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("t/attackers")).unwrap();
        std::fs::write(
            dir.path().join("t/mod.ron"),
            r#"(id: "t", name: "T", version: "0.1.0")"#,
        )
        .unwrap();
        std::fs::write(
            dir.path().join("t/attackers/a.ron"),
            r#"(name: "A", size: Small, max_health: 1, speed: 1, min_spacing: 1, value: 1)"#,
        )
        .unwrap();
        let dirs = [ModDir {
            path: dir.path().to_path_buf(),
            origin: Origin::Extra,
        }];
        let (content, _) = ContentDb::load(&ModSet::discover(&dirs, &ModSettings::default()));
        let mut b = Battle::new(Arc::new(content), BattleConfig::new(Seed(1)));
        let kind = crate::content::AttackerId(0);
        let near = b.spawn_attacker(kind, Position { x: 2.4, y: 0.0 });
        let far = b.spawn_attacker(kind, Position { x: 4.0, y: 0.0 });
        let west = b.spawn_attacker(kind, Position { x: -1.6, y: 0.0 });
        let grid = AttackerGrid::new(&b);
        let mut found: Vec<EntityId> = grid.near(DVec2::new(1.0, 0.0), 2.7).collect();
        found.sort();
        let mut expected = vec![near, west];
        expected.sort();
        assert_eq!(found, expected);
        assert_eq!(
            grid.near(DVec2::new(4.0, 0.1), 0.2).collect::<Vec<_>>(),
            vec![far]
        );
        assert_eq!(grid.near(DVec2::new(40.0, 0.0), 1.0).count(), 0);

        // Attackers anywhere, even where no tile could be, keep the grid small and right.
        let odd = [
            (1e300, -1e300),
            (f64::INFINITY, f64::NEG_INFINITY),
            (f64::NAN, 3.0),
            (-2e9, 2e9),
        ];
        let ids: Vec<EntityId> = odd
            .iter()
            .map(|&(x, y)| b.spawn_attacker(kind, Position { x, y }))
            .collect();
        let grid = AttackerGrid::new(&b);
        assert!(grid.cells.len() as i64 <= MAX_SPAN * MAX_SPAN);
        let mut found: Vec<EntityId> = grid.near(DVec2::new(1.0, 0.0), 2.7).collect();
        found.sort();
        assert_eq!(found, expected);
        assert_eq!(
            grid.near(DVec2::new(-2e9, 2e9), 1.0).collect::<Vec<_>>(),
            vec![ids[3]]
        );
        assert_eq!(
            grid.near(DVec2::new(1e300, -1e300), 1.0)
                .collect::<Vec<_>>(),
            vec![ids[0]]
        );
        assert_eq!(grid.near(DVec2::new(f64::NAN, 0.0), f64::NAN).count(), 0);
    }
}
