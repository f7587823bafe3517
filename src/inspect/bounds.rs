//! Bounding boxes of a humanoid at a pose: joint centres, deformed skin points, and the rigid geometry of
//! segments, sites and joints (Coordinate points and primitive extents) placed by their joint.

use glam::{Mat4, Vec3};

use crate::hanim::{Humanoid, SiteParent};
use crate::pose::{self, Pose};
use crate::x3d::{NodeId, Scene, X3dError};

/// An axis-aligned box; empty until a point is added.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Aabb {
    pub min: Vec3,
    pub max: Vec3,
}

impl Default for Aabb {
    fn default() -> Self {
        Self { min: Vec3::splat(f32::INFINITY), max: Vec3::splat(f32::NEG_INFINITY) }
    }
}

impl Aabb {
    pub fn is_empty(&self) -> bool {
        self.min.x > self.max.x
    }

    pub fn add(&mut self, p: Vec3) {
        if p.is_finite() {
            self.min = self.min.min(p);
            self.max = self.max.max(p);
        }
    }

    pub fn size(&self) -> Vec3 {
        if self.is_empty() { Vec3::ZERO } else { self.max - self.min }
    }

    pub fn center(&self) -> Vec3 {
        (self.min + self.max) * 0.5
    }
}

/// Local-space points that bound the geometry under `root` (grouping transforms applied), iteratively.
fn geometry_points(scene: &Scene, root: NodeId, out: &mut Vec<Vec3>) -> Result<(), X3dError> {
    let mut stack = vec![(root, Mat4::IDENTITY)];
    let mut visits = 0usize;
    while let Some((id, m)) = stack.pop() {
        visits += 1;
        if visits > 1_000_000 {
            break;
        }
        let node = scene.node(id);
        match node.type_name.as_str() {
            "Transform" | "HAnimSite" => {
                let mut ignored = Vec::new();
                let local = crate::hanim::build::transform_fields(scene, id, &mut ignored)?.matrix();
                let m = m * local;
                stack.extend(node.children.iter().filter(|c| c.field == "children").map(|c| (c.node, m)));
            }
            "Shape" => stack.extend(node.children.iter().filter(|c| c.field == "geometry").map(|c| (c.node, m))),
            "Box" => {
                let half = Vec3::from(scene.sf_length3(id, "size", [2.0; 3])?) * 0.5;
                for corner in [-1.0f32, 1.0] {
                    out.push(m.transform_point3(half * corner));
                }
            }
            "Sphere" => {
                let r = scene.sf_float(id, "radius", 1.0)? * scene.units_of(id).length as f32;
                out.push(m.transform_point3(Vec3::splat(-r)));
                out.push(m.transform_point3(Vec3::splat(r)));
            }
            "Cylinder" | "Cone" => {
                let k = scene.units_of(id).length as f32;
                let default_r = if node.type_name == "Cone" { "bottomRadius" } else { "radius" };
                let r = scene.sf_float(id, default_r, 1.0)? * k;
                let h = scene.sf_float(id, "height", 2.0)? * k * 0.5;
                out.push(m.transform_point3(Vec3::new(-r, -h, -r)));
                out.push(m.transform_point3(Vec3::new(r, h, r)));
            }
            t if t.starts_with("HAnim") => {}
            _ => {
                for child in &node.children {
                    let child_node = scene.node(child.node);
                    if child.field == "coord" && child_node.type_name.starts_with("Coordinate") {
                        out.extend(
                            scene.mf_length3(child.node, "point")?.into_iter().map(|p| m.transform_point3(p.into())),
                        );
                    } else if matches!(child.field.as_str(), "children" | "choice" | "level") {
                        stack.push((child.node, m));
                    }
                }
            }
        }
    }
    Ok(())
}

/// World-space bounds of the humanoid at `pose`.
pub fn humanoid_bounds(scene: &Scene, h: &Humanoid, pose: &Pose) -> Result<Aabb, X3dError> {
    let world_from_humanoid = h.world_from_humanoid();
    let g = pose::humanoid_from_joint(h, pose);
    let mut bounds = Aabb::default();
    for (j, joint) in h.joints.iter().enumerate() {
        bounds.add(world_from_humanoid.transform_point3(g[j].transform_point3(joint.rest.center)));
    }
    if let Some(skin) = pose::deform_skin(h, pose) {
        for p in skin.points {
            bounds.add(world_from_humanoid.transform_point3(p));
        }
    }
    let mut local = Vec::new();
    let mut add_rigid = |matrix: Mat4, roots: &[NodeId], bounds: &mut Aabb| -> Result<(), X3dError> {
        local.clear();
        for &root in roots {
            geometry_points(scene, root, &mut local)?;
        }
        let m = world_from_humanoid * matrix;
        for p in &local {
            bounds.add(m.transform_point3(*p));
        }
        Ok(())
    };
    for (s, segment) in h.segments.iter().enumerate() {
        let m = segment.joint.map(|j| g[j]).unwrap_or(Mat4::IDENTITY);
        add_rigid(m, &segment.geometry, &mut bounds)?;
        let q = pose::deform_segment(h, s, pose);
        for p in q {
            bounds.add((world_from_humanoid * m).transform_point3(p));
        }
    }
    for (j, joint) in h.joints.iter().enumerate() {
        add_rigid(g[j], &joint.extra_children, &mut bounds)?;
    }
    for site in &h.sites {
        let holder = match site.parent {
            SiteParent::Segment(s) => h.segments[s].joint.map(|j| g[j]).unwrap_or(Mat4::IDENTITY),
            SiteParent::Joint(j) => g[j],
            SiteParent::Humanoid => Mat4::IDENTITY,
        };
        add_rigid(holder * site.offset * site.transform.matrix(), &site.geometry, &mut bounds)?;
    }
    Ok(bounds)
}
