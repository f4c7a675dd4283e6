//! Attackers bucketed by tile, so that "who is near this point" looks at a few tiles instead of
//! every attacker. Built when needed, from the state; never part of it.

use glam::DVec2;

use super::Battle;
use super::entity::{EntityId, EntityKind};

/// Attackers by the tile they stand on.
pub(super) struct AttackerGrid {
    min: (i32, i32),
    size: (i32, i32),
    cells: Vec<Vec<(EntityId, DVec2)>>,
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
        let tile = |p: DVec2| (p.x.round() as i32, p.y.round() as i32);
        let (mut lo, mut hi) = ((i32::MAX, i32::MAX), (i32::MIN, i32::MIN));
        for &(_, p) in &attackers {
            let (x, y) = tile(p);
            lo = (lo.0.min(x), lo.1.min(y));
            hi = (hi.0.max(x), hi.1.max(y));
        }
        if attackers.is_empty() {
            return AttackerGrid {
                min: (0, 0),
                size: (0, 0),
                cells: Vec::new(),
            };
        }
        let size = (hi.0 - lo.0 + 1, hi.1 - lo.1 + 1);
        let mut cells = vec![Vec::new(); (size.0 * size.1) as usize];
        for (id, p) in attackers {
            let (x, y) = tile(p);
            cells[((y - lo.1) * size.0 + (x - lo.0)) as usize].push((id, p));
        }
        AttackerGrid {
            min: lo,
            size,
            cells,
        }
    }

    /// Attackers within `radius` of `center` (ground distance), in no particular order.
    pub(super) fn near(&self, center: DVec2, radius: f64) -> impl Iterator<Item = EntityId> + '_ {
        let span = |c: f64, lo: i32, n: i32| {
            let a = ((c - radius).round() as i32 - lo).clamp(0, n);
            let b = ((c + radius).round() as i32 - lo + 1).clamp(0, n);
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
    use crate::battle::{BattleConfig, Position};
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
    }
}
