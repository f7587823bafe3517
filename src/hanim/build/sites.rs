//! Sites, viewpoints and lights: the nodes that place cameras and markers on a humanoid or in the scene.
//! A site's viewpoints may sit in grouping nodes around its marker; the humanoid's `viewpoints` field may
//! list sites from the skeleton (USE) or new ones.

use std::collections::HashSet;

use glam::{Mat4, Vec3};

use super::HanimError;
use super::fields::{grouping_matrix, leaves_below, transform_fields};
use super::humanoid::HumanoidBuilder;
use crate::hanim::model::*;
use crate::x3d::grouping::{is_grouping, shown_children};
use crate::x3d::{NodeId, Scene, Warning, X3dError};

pub(super) fn is_viewpoint(type_name: &str) -> bool {
    matches!(type_name, "Viewpoint" | "OrthoViewpoint")
}

pub(crate) fn read_viewpoint(scene: &Scene, id: NodeId) -> Result<Viewpoint, X3dError> {
    let orientation = quat_from_axis_angle(scene.sf_rotation(id, "orientation", [0.0, 0.0, 1.0, 0.0])?);
    let default_fov = std::f32::consts::FRAC_PI_4;
    let fov = scene.sf_angle(id, "fieldOfView", default_fov)?;
    Ok(Viewpoint {
        node: id,
        def: scene.node(id).def.clone(),
        description: scene.string(id, "description").unwrap_or("").to_string(),
        position: Vec3::from(scene.sf_length3(id, "position", [0.0, 0.0, 10.0])?),
        orientation,
        field_of_view: if fov > 0.0 && fov < std::f32::consts::PI { fov } else { default_fov },
        center_of_rotation: Vec3::from(scene.sf_length3(id, "centerOfRotation", [0.0; 3])?),
    })
}

/// A light node that is `on`, in world space; `None` (with a warning for a spot or directional light
/// without a direction) otherwise.
pub(super) fn read_light(
    scene: &Scene,
    id: NodeId,
    world: Mat4,
    scope: Option<NodeId>,
    warnings: &mut Vec<Warning>,
) -> Result<Option<SceneLight>, X3dError> {
    if !scene.sf_bool(id, "on", true)? {
        return Ok(None);
    }
    let type_name = scene.node(id).type_name.as_str();
    let direction = world.transform_vector3(Vec3::from(scene.sf_vec3f(id, "direction", [0.0, 0.0, -1.0])?));
    let location = world.transform_point3(Vec3::from(scene.sf_length3(id, "location", [0.0; 3])?));
    // Radius is a distance: scaled like the world's X axis (uniform scales in practice).
    let scale = world.transform_vector3(Vec3::X).length();
    let radius = scene.sf_float(id, "radius", 100.0)? * scene.units_of(id).length as f32 * scale;
    let attenuation = Vec3::from(scene.sf_vec3f(id, "attenuation", [1.0, 0.0, 0.0])?);
    if type_name != "PointLight" && direction.length_squared() == 0.0 {
        warnings.push(Warning {
            pos: scene.pos(scene.node(id).loc),
            message: format!("{} has a zero direction and lights nothing", scene.describe(id)),
        });
        return Ok(None);
    }
    let direction = direction.normalize_or_zero();
    let kind = match type_name {
        "DirectionalLight" => LightKind::Directional { direction },
        "PointLight" => LightKind::Point { location, radius, attenuation },
        _ => LightKind::Spot {
            location,
            direction,
            radius,
            attenuation,
            beam_width: scene.sf_angle(id, "beamWidth", std::f32::consts::FRAC_PI_2)?,
            cut_off_angle: scene.sf_angle(id, "cutOffAngle", std::f32::consts::FRAC_PI_4)?,
        },
    };
    Ok(Some(SceneLight {
        node: id,
        kind,
        color: scene.sf_color(id, "color", [1.0; 3])?,
        intensity: scene.sf_float(id, "intensity", 1.0)?.max(0.0),
        ambient_intensity: scene.sf_float(id, "ambientIntensity", 0.0)?.clamp(0.0, 1.0),
        scope,
    }))
}

impl HumanoidBuilder<'_> {
    pub(super) fn read_site(
        &mut self,
        id: NodeId,
        parent: SiteParent,
        in_viewpoints: bool,
    ) -> Result<usize, HanimError> {
        let scene = self.scene;
        let transform = transform_fields(scene, id, &mut self.warnings)?;
        let mut cameras = Vec::new();
        let mut geometry = Vec::new();
        for child in &scene.node(id).children {
            match scene.node(child.node).type_name.as_str() {
                t if is_viewpoint(t) => cameras
                    .push(HeldViewpoint { viewpoint: read_viewpoint(scene, child.node)?, offset: Mat4::IDENTITY }),
                _ if child.field == "children" => {
                    geometry.push(child.node);
                    // Real files wrap a site's Viewpoint in a Transform with its marker (JoeKick's
                    // RootFront_view): the camera is still the site's.
                    self.viewpoints_below(child.node, &mut cameras)?;
                }
                _ => {}
            }
        }
        let i = self.sites.len();
        self.sites.push(Site {
            name: self.name_of(id),
            def: scene.node(id).def.clone(),
            node: id,
            parent,
            offset: Mat4::IDENTITY,
            transform,
            in_viewpoints,
            cameras,
            geometry,
            description: scene.string(id, "description").unwrap_or("").to_string(),
        });
        self.site_of_node.insert(id, i);
        Ok(i)
    }

    /// Viewpoints under the grouping node `group` (itself included), with the grouping transforms from
    /// `group`'s parent down to each; each node once.
    pub(super) fn viewpoints_below(&mut self, group: NodeId, out: &mut Vec<HeldViewpoint>) -> Result<(), HanimError> {
        let scene = self.scene;
        for (node, offset) in leaves_below(scene, group, &mut self.warnings)? {
            if is_viewpoint(&scene.node(node).type_name) {
                out.push(HeldViewpoint { viewpoint: read_viewpoint(scene, node)?, offset });
            }
        }
        Ok(())
    }

    /// The `viewpoints` field: Sites (declared there or USEd from the skeleton) and bare Viewpoints, with
    /// the transforms of any grouping nodes around them.
    pub(super) fn read_viewpoints_field(&mut self, bare: &mut Vec<HeldViewpoint>) -> Result<(), HanimError> {
        let scene = self.scene;
        let mut stack: Vec<(NodeId, Mat4)> =
            self.children_of(self.id, &["viewpoints"]).into_iter().rev().map(|n| (n, Mat4::IDENTITY)).collect();
        // Each node once: USE can make exponentially many paths to one node.
        let mut seen = HashSet::new();
        while let Some((node, matrix)) = stack.pop() {
            if !seen.insert(node) {
                continue;
            }
            match scene.node(node).type_name.as_str() {
                "HAnimSite" => match self.site_of_node.get(&node) {
                    Some(&i) => {
                        if !self.sites[i].in_viewpoints && self.sites[i].parent != SiteParent::Humanoid {
                            let message = format!(
                                "{} is both in the skeleton and in `viewpoints`; listed once, as a fixed view",
                                scene.describe(node)
                            );
                            self.warn(node, message);
                        }
                        self.sites[i].in_viewpoints = true;
                    }
                    None => {
                        let site = self.read_site(node, SiteParent::Humanoid, true)?;
                        self.sites[site].offset = matrix;
                    }
                },
                t if is_viewpoint(t) => {
                    bare.push(HeldViewpoint { viewpoint: read_viewpoint(scene, node)?, offset: matrix })
                }
                t if is_grouping(t) => {
                    let m = matrix * grouping_matrix(scene, node, &mut self.warnings)?;
                    stack.extend(shown_children(scene, node)?.into_iter().rev().map(|c| (c, m)));
                }
                _ => {}
            }
        }
        Ok(())
    }
}
