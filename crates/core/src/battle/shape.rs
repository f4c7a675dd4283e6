//! Range shapes in the world: which points a tower's range contains.

use glam::{DVec2, DVec3};

use crate::content::Shape;

/// Where a tower stands and looks, and how far its range reaches.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// The muzzle: the point shots leave from and sight lines start at.
    pub muzzle: DVec3,
    /// The horizontal direction the tower faces (unit length).
    pub facing: DVec2,
    /// The `range` statistic now.
    pub range: f64,
}

impl Frame {
    /// The facing of a rotation: quarter turns clockwise from north.
    pub fn facing_of(rotation: u8) -> DVec2 {
        match rotation % 4 {
            0 => DVec2::Y,
            1 => DVec2::X,
            2 => DVec2::NEG_Y,
            _ => DVec2::NEG_X,
        }
    }
}

/// Whether `shape`, placed at `frame`, contains the point `p`.
pub fn contains(shape: &Shape, frame: &Frame, p: DVec3) -> bool {
    let d = p - frame.muzzle;
    let flat = d.truncate();
    // Distance ahead along the facing, and to the side of it.
    let ahead = flat.dot(frame.facing);
    let aside = flat.perp_dot(frame.facing).abs();
    match shape {
        Shape::Cylinder { radius, height } => {
            flat.length() <= radius * frame.range && height.is_none_or(|h| d.z.abs() <= h)
        }
        Shape::Box {
            forward,
            back,
            side,
        } => ahead <= forward * frame.range && ahead >= -back * frame.range && aside <= *side,
        Shape::Ray { width } => (0.0..=frame.range).contains(&ahead) && aside <= width / 2.0,
        Shape::Union(parts) => parts.iter().any(|s| contains(s, frame, p)),
        Shape::Intersection(parts) => parts.iter().all(|s| contains(s, frame, p)),
        Shape::Difference(a, b) => contains(a, frame, p) && !contains(b, frame, p),
    }
}

/// The farthest horizontal distance from the muzzle any point of the shape can be.
pub fn reach(shape: &Shape, range: f64) -> f64 {
    match shape {
        Shape::Cylinder { radius, .. } => radius * range,
        Shape::Box {
            forward,
            back,
            side,
        } => forward.abs().max(back.abs()) * range + side,
        Shape::Ray { width } => range + width,
        Shape::Union(parts) | Shape::Intersection(parts) => {
            parts.iter().map(|s| reach(s, range)).fold(0.0, f64::max)
        }
        Shape::Difference(a, _) => reach(a, range),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(rotation: u8) -> Frame {
        Frame {
            muzzle: DVec3::new(0.0, 0.0, 1.0),
            facing: Frame::facing_of(rotation),
            range: 2.0,
        }
    }

    #[test]
    fn cylinders_boxes_rays_and_set_operations() {
        let cyl = Shape::Cylinder {
            radius: 1.0,
            height: None,
        };
        assert!(contains(&cyl, &frame(0), DVec3::new(1.9, 0.0, -5.0)));
        assert!(!contains(&cyl, &frame(0), DVec3::new(1.5, 1.5, 1.0)));
        let short = Shape::Cylinder {
            radius: 1.0,
            height: Some(0.5),
        };
        assert!(!contains(&short, &frame(0), DVec3::new(0.5, 0.0, 0.2)));
        let ray = Shape::Ray { width: 0.4 };
        assert!(
            contains(&ray, &frame(1), DVec3::new(1.9, 0.1, 0.0)),
            "facing east"
        );
        assert!(
            !contains(&ray, &frame(1), DVec3::new(-0.5, 0.0, 0.0)),
            "not behind"
        );
        assert!(
            !contains(&ray, &frame(0), DVec3::new(1.9, 0.1, 0.0)),
            "facing north"
        );
        let boxed = Shape::Box {
            forward: 1.0,
            back: 0.5,
            side: 0.5,
        };
        assert!(contains(&boxed, &frame(2), DVec3::new(0.3, -1.9, 0.0)));
        assert!(contains(&boxed, &frame(2), DVec3::new(0.0, 0.9, 0.0)));
        assert!(!contains(&boxed, &frame(2), DVec3::new(0.0, 1.1, 0.0)));
        let ring = Shape::Difference(
            Box::new(cyl.clone()),
            Box::new(Shape::Cylinder {
                radius: 0.5,
                height: None,
            }),
        );
        assert!(!contains(&ring, &frame(0), DVec3::new(0.5, 0.0, 0.0)));
        assert!(contains(&ring, &frame(0), DVec3::new(1.5, 0.0, 0.0)));
        let both = Shape::Intersection(vec![cyl.clone(), ray.clone()]);
        assert!(contains(&both, &frame(1), DVec3::new(1.0, 0.0, 0.0)));
        assert!(!contains(&both, &frame(1), DVec3::new(0.0, 1.0, 0.0)));
        let either = Shape::Union(vec![
            ray,
            Shape::Cylinder {
                radius: 0.25,
                height: None,
            },
        ]);
        assert!(contains(&either, &frame(0), DVec3::new(0.0, -0.4, 0.0)));
        assert_eq!(reach(&ring, 2.0), 2.0);
    }
}
