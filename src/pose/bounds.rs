//! Bounding boxes of a humanoid at a pose: joint centres, deformed skin points, and the rigid geometry of
//! segments, sites and joints (Coordinate points, primitive extents and Text glyph boxes) placed by their
//! joint. A Shape whose geometry uses a segment's `coord` node counts that segment's morphed points,
//! placed like its other points by the grouping nodes above the Shape: as it is drawn.

use glam::{Mat4, Vec3};

use crate::hanim::{Humanoid, SiteParent};
use crate::pose::{self, Pose};
use crate::x3d::{NodeId, Scene, X3dError, grouping};

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

/// The points of each segment's `coord` node at the pose (displacers applied), by node: a Shape whose
/// geometry uses one of these nodes draws these points instead of the node's own (`mesh::segments`,
/// the first segment with that node).
struct SegmentCoords(Vec<(NodeId, Vec<Vec3>)>);

impl SegmentCoords {
    fn new(h: &Humanoid, pose: Option<&Pose>) -> Self {
        let coords = h.segments.iter().enumerate().filter_map(|(s, segment)| {
            let points = match pose {
                Some(pose) => pose::deform_segment(h, s, pose),
                None => segment.coord_points.clone(),
            };
            segment.coord.map(|node| (node, points))
        });
        Self(coords.collect())
    }

    fn of(&self, coord: NodeId) -> Option<&[Vec3]> {
        self.0.iter().find(|(node, _)| *node == coord).map(|(_, points)| points.as_slice())
    }
}

/// Local-space points that bound the geometry drawn under `root`, iteratively: through grouping nodes as
/// `x3d::grouping` says they show (so a Switch's hidden choices and an LOD's other levels are not framed)
/// with their matrices applied, to each Shape's geometry. H-Anim nodes met on the way are placed by the
/// skeleton (a site by its own entry), as in `mesh::segments`.
fn geometry_points(
    scene: &Scene,
    root: NodeId,
    segment_coords: &SegmentCoords,
    out: &mut Vec<Vec3>,
) -> Result<(), X3dError> {
    let mut stack = vec![(root, Mat4::IDENTITY)];
    let mut visits = 0usize;
    while let Some((id, m)) = stack.pop() {
        visits += 1;
        if visits > 1_000_000 {
            break;
        }
        let node = scene.node(id);
        match node.type_name.as_str() {
            "Shape" => {
                for geometry in node.children_in("geometry") {
                    shape_geometry_points(scene, geometry, m, segment_coords, out)?;
                }
            }
            t if grouping::is_grouping(t) => {
                let mut ignored = Vec::new();
                let m = m * crate::hanim::build::grouping_matrix(scene, id, &mut ignored)?;
                stack.extend(grouping::shown_children(scene, id)?.into_iter().map(|c| (c, m)));
            }
            _ => {}
        }
    }
    Ok(())
}

/// Points that bound one geometry node placed by `m`: a primitive's extent, or its Coordinate points (a
/// segment's morphed ones where the node is a segment's `coord`).
fn shape_geometry_points(
    scene: &Scene,
    id: NodeId,
    m: Mat4,
    segment_coords: &SegmentCoords,
    out: &mut Vec<Vec3>,
) -> Result<(), X3dError> {
    let node = scene.node(id);
    match node.type_name.as_str() {
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
        "Text" => {
            // The glyph boxes in the node's XY plane (15.4.2); the text itself is flat (z = 0).
            if let Some((lo, hi)) = crate::font::text_bounds(scene, id)? {
                out.push(m.transform_point3(lo.extend(0.0)));
                out.push(m.transform_point3(Vec3::new(hi.x, lo.y, 0.0)));
                out.push(m.transform_point3(Vec3::new(lo.x, hi.y, 0.0)));
                out.push(m.transform_point3(hi.extend(0.0)));
            }
        }
        _ => {
            for coord in node.children_in("coord") {
                if let Some(points) = segment_coords.of(coord) {
                    out.extend(points.iter().map(|&p| m.transform_point3(p)));
                } else if scene.node(coord).type_name.starts_with("Coordinate") {
                    out.extend(scene.mf_length3(coord, "point")?.into_iter().map(|p| m.transform_point3(p.into())));
                }
            }
        }
    }
    Ok(())
}

/// World-space bounds of the humanoid at `pose`.
pub fn humanoid_bounds(scene: &Scene, h: &Humanoid, pose: &Pose) -> Result<Aabb, X3dError> {
    let g = pose::humanoid_from_joint(h, pose);
    part_bounds(scene, h, &g, pose.world_from_humanoid(h), Some(pose), &BoxParts::WHOLE)
}

/// Which parts of a humanoid a box covers.
#[derive(Debug, Clone, Copy)]
pub struct BoxParts<'a> {
    /// Only what moves with these joints (indexed like `Humanoid::joints`): their centres, skin points
    /// whose strongest influence is one of them, and the segments, joint children and sites they hold.
    /// `None`: everything.
    pub joints: Option<&'a [bool]>,
    /// Include the geometry of sites declared in the `viewpoints` field: markers of camera positions,
    /// often metres away from the body.
    pub camera_sites: bool,
    /// Include site geometry that lies far from the body (joint centres, skin, segments and joint
    /// children): beyond [`FAR_SITE_MARGIN`] of the body box's diagonal. Files put labels, markers and
    /// demonstration props on sites metres away (HAnim2SpecificationLOA3Illustrated); framing them
    /// leaves the figure a speck.
    pub far_sites: bool,
}

/// How far outside the body's box a site's geometry may reach and still count for framing, as a fraction
/// of the box's diagonal (a hand-held prop or a hat stays, a label a metre away does not).
pub const FAR_SITE_MARGIN: f32 = 0.25;

impl BoxParts<'_> {
    pub const WHOLE: BoxParts<'static> = BoxParts { joints: None, camera_sites: true, far_sites: true };
    /// The body for framing: everything but the camera-site markers and far-away site geometry.
    pub const FIGURE: BoxParts<'static> = BoxParts { joints: None, camera_sites: false, far_sites: false };

    fn has(&self, joint: Option<usize>) -> bool {
        match (self.joints, joint) {
            (None, _) => true,
            (Some(mask), Some(j)) => mask.get(j).copied().unwrap_or(false),
            (Some(_), None) => false,
        }
    }
}

/// World-space bounds of `parts` of the humanoid with joint matrices `g` (`G_j`). With `pose`, the skin
/// and segment points carry its displacers; without, skin points are skinned from `g` alone and
/// segment points are at rest.
pub fn part_bounds(
    scene: &Scene,
    h: &Humanoid,
    g: &[Mat4],
    world_from_humanoid: Mat4,
    pose: Option<&Pose>,
    parts: &BoxParts,
) -> Result<Aabb, X3dError> {
    let joint_matrix = |j: Option<usize>| j.and_then(|j| g.get(j)).copied().unwrap_or(Mat4::IDENTITY);
    let mut bounds = Aabb::default();
    for (j, joint) in h.joints.iter().enumerate() {
        if parts.has(Some(j)) {
            bounds.add(world_from_humanoid.transform_point3(joint_matrix(Some(j)).transform_point3(joint.rest.center)));
        }
    }
    if let Some(skin) = &h.skin {
        let points = match pose {
            Some(pose) => pose::deform_skin(h, pose).map(|d| d.points).unwrap_or_default(),
            None => {
                let matrices = pose::skin_matrices(h, g);
                let options = pose::SkinOptions::default();
                (0..skin.points.len())
                    .map(|i| {
                        let influences = if i < skin.influences.point_count() { skin.influences.of(i) } else { &[] };
                        pose::skin_point(skin.points[i], influences, &matrices, &options)
                    })
                    .collect()
            }
        };
        for (i, p) in points.into_iter().enumerate() {
            if parts.joints.is_some() {
                let strongest = (i < skin.influences.point_count())
                    .then(|| skin.influences.of(i).iter().max_by(|a, b| a.1.total_cmp(&b.1)).map(|e| e.0 as usize))
                    .flatten();
                if !parts.has(strongest) {
                    continue;
                }
            }
            bounds.add(world_from_humanoid.transform_point3(p));
        }
    }
    let mut local = Vec::new();
    let segment_coords = SegmentCoords::new(h, pose);
    let mut add_rigid = |matrix: Mat4, roots: &[NodeId], bounds: &mut Aabb| -> Result<(), X3dError> {
        local.clear();
        for &root in roots {
            geometry_points(scene, root, &segment_coords, &mut local)?;
        }
        let m = world_from_humanoid * matrix;
        for p in &local {
            bounds.add(m.transform_point3(*p));
        }
        Ok(())
    };
    for segment in &h.segments {
        if parts.has(segment.joint) {
            add_rigid(joint_matrix(segment.joint), &segment.geometry, &mut bounds)?;
        }
    }
    for (j, joint) in h.joints.iter().enumerate() {
        if parts.has(Some(j)) {
            add_rigid(joint_matrix(Some(j)), &joint.extra_children, &mut bounds)?;
        }
    }
    // Sites last: far-away site geometry is measured against the body box built so far.
    let body = bounds;
    let reach = body.size().length() * FAR_SITE_MARGIN;
    let near_body = |p: Vec3| {
        parts.far_sites
            || body.is_empty()
            || (p.cmpge(body.min - Vec3::splat(reach)).all() && p.cmple(body.max + Vec3::splat(reach)).all())
    };
    for site in &h.sites {
        let joint = match site.parent {
            SiteParent::Segment(s) => h.segments.get(s).and_then(|s| s.joint),
            SiteParent::Joint(j) => Some(j),
            SiteParent::Humanoid => None,
        };
        let camera_marker = site.in_viewpoints && site.parent == SiteParent::Humanoid;
        if !parts.has(joint) || (camera_marker && !parts.camera_sites) {
            continue;
        }
        let mut site_box = Aabb::default();
        add_rigid(joint_matrix(joint) * site.offset * site.transform.matrix(), &site.geometry, &mut site_box)?;
        for corner in [site_box.min, site_box.max] {
            if !site_box.is_empty() && near_body(corner) {
                bounds.add(corner);
            }
        }
    }
    Ok(bounds)
}
