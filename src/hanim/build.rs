//! Builds the H-Anim model from an X3D scene.
//!
//! Every walk here is iterative (explicit stacks), so a 10,000-deep joint chain neither overflows the
//! stack nor takes quadratic time. The quirks of real files are handled as the semantics note decides and
//! each one is recorded as a warning with the file position of the node that has it.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use glam::{Mat4, Quat, Vec3};

use crate::x3d::{self, LoadOptions, Loc, NodeId, Scene, SourcePos, Warning, X3dError};

use super::model::*;

/// Errors that stop building a humanoid model.
#[derive(Debug, Clone, thiserror::Error)]
pub enum HanimError {
    #[error(transparent)]
    X3d(#[from] X3dError),
    #[error("{pos}: {message}")]
    Model { pos: SourcePos, message: String },
}

/// Upper bound on node instances visited while walking the scene graph. DEF/USE sharing can make a small
/// file describe an exponentially large tree; past this the file is rejected instead of hanging. Every
/// visited Shape is kept with its matrix, so the bound also caps memory (2M × ~70 bytes); a humanoid scene
/// has thousands of node instances, a large instanced scene a few hundred thousand.
const MAX_NODE_VISITS: usize = 2_000_000;

/// Loads a scene file (X3D XML, ClassicVRML or VRML97, gzip-compressed or not) and builds its humanoids.
pub fn load(path: &Path) -> Result<Document, HanimError> {
    let scene = x3d::load_file(path, &LoadOptions::default())?;
    build_document(scene)
}

/// As [`load`], reporting how far it has come to `progress` (parsing the main file, then building).
pub fn load_with_progress(path: &Path, progress: std::sync::Arc<x3d::LoadProgress>) -> Result<Document, HanimError> {
    progress.set_stage(x3d::LoadStage::Reading);
    let options = LoadOptions { progress: Some(progress.clone()), ..LoadOptions::default() };
    let scene = x3d::load_file(path, &options)?;
    progress.set_stage(x3d::LoadStage::Building);
    build_document(scene)
}

/// Loads scene text, XML or classic (told apart by the `#VRML` / `#X3D` header); `path` names it in
/// messages and resolves relative URLs.
pub fn load_str(text: &str, path: &Path) -> Result<Document, HanimError> {
    let scene = x3d::load_str(text, path, &LoadOptions::default())?;
    build_document(scene)
}

pub(crate) fn transform_fields(
    scene: &Scene,
    id: NodeId,
    warnings: &mut Vec<Warning>,
) -> Result<TransformFields, X3dError> {
    let rotation = rotation_field(scene, id, "rotation", warnings)?;
    let scale_orientation = rotation_field(scene, id, "scaleOrientation", warnings)?;
    let mut scale = Vec3::from(scene.sf_vec3f(id, "scale", [1.0; 3])?);
    if scale.cmple(Vec3::ZERO).any() {
        let fixed = Vec3::select(scale.cmpeq(Vec3::ZERO), Vec3::ONE, scale.abs());
        warn_at(
            scene,
            warnings,
            field_loc(scene, id, "scale"),
            format!("{}: scale {} must be > 0; using {}", scene.describe(id), fmt3(scale), fmt3(fixed)),
        );
        scale = fixed;
    }
    Ok(TransformFields {
        translation: Vec3::from(scene.sf_length3(id, "translation", [0.0; 3])?),
        rotation,
        center: Vec3::from(scene.sf_length3(id, "center", [0.0; 3])?),
        scale,
        scale_orientation,
    })
}

fn fmt3(v: Vec3) -> String {
    format!("{} {} {}", v.x, v.y, v.z)
}

fn rotation_field(scene: &Scene, id: NodeId, name: &str, warnings: &mut Vec<Warning>) -> Result<Quat, X3dError> {
    let r = scene.sf_rotation(id, name, [0.0, 0.0, 1.0, 0.0])?;
    if r[3] != 0.0 && r[0] == 0.0 && r[1] == 0.0 && r[2] == 0.0 {
        warn_at(
            scene,
            warnings,
            field_loc(scene, id, name),
            format!("{}: {name} has a zero-length axis; using no rotation", scene.describe(id)),
        );
    }
    Ok(quat_from_axis_angle(r))
}

fn field_loc(scene: &Scene, id: NodeId, name: &str) -> Loc {
    scene.node(id).field(name).map(|f| f.loc).unwrap_or(scene.node(id).loc)
}

fn warn_at(scene: &Scene, warnings: &mut Vec<Warning>, loc: Loc, message: String) {
    warnings.push(Warning { pos: scene.pos(loc), message });
}

fn is_grouping(type_name: &str) -> bool {
    matches!(
        type_name,
        "Group" | "Transform" | "Switch" | "LOD" | "Billboard" | "Collision" | "Anchor" | "StaticGroup" | "Inline"
    )
}

/// The children a grouping node shows: Switch shows its `whichChoice`, LOD its first level.
fn shown_children(scene: &Scene, id: NodeId) -> Result<Vec<NodeId>, X3dError> {
    let node = scene.node(id);
    let kids: Vec<NodeId> = node
        .children
        .iter()
        .filter(|c| matches!(c.field.as_str(), "children" | "choice" | "level"))
        .map(|c| c.node)
        .collect();
    Ok(match node.type_name.as_str() {
        "Switch" => {
            let which = scene.sf_int32(id, "whichChoice", -1)?;
            usize::try_from(which).ok().and_then(|i| kids.get(i).copied()).into_iter().collect()
        }
        "LOD" => kids.into_iter().take(1).collect(),
        _ => kids,
    })
}

/// `L` of a grouping node (identity for all but Transform).
fn grouping_matrix(scene: &Scene, id: NodeId, warnings: &mut Vec<Warning>) -> Result<Mat4, X3dError> {
    if scene.node(id).type_name == "Transform" {
        Ok(transform_fields(scene, id, warnings)?.matrix())
    } else {
        Ok(Mat4::IDENTITY)
    }
}

fn is_viewpoint(type_name: &str) -> bool {
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
fn read_light(
    scene: &Scene,
    id: NodeId,
    world: Mat4,
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
    }))
}

/// Whether a file's version (`4.0`, `3.3`, `VRML97`, …) is X3D 4 or later, where an RGB texture
/// multiplies the diffuse colour instead of replacing it (X3D 4.0, 17.2.2.4 and Table 17.3).
fn is_x3d4_or_later(version: &str) -> bool {
    let major = version.trim().split('.').next().and_then(|m| m.parse::<u32>().ok());
    major.is_some_and(|m| (4..100).contains(&m))
}

/// Walks the scene outside humanoids: finds humanoids with their parent transform, viewpoints, shapes and
/// scene settings.
pub fn build_document(scene: Scene) -> Result<Document, HanimError> {
    let mut warnings = Vec::new();
    let mut humanoid_nodes: Vec<(NodeId, Mat4)> = Vec::new();
    let mut viewpoints = Vec::new();
    let mut other_shapes = Vec::new();
    let mut settings = SceneSettings {
        background: None,
        texture_times_diffuse: is_x3d4_or_later(&scene.version),
        headlight: true,
        navigation_types: Vec::new(),
        lights: Vec::new(),
    };
    let mut settings_seen = (false, false);
    let mut stack: Vec<(NodeId, Mat4)> = scene.roots.iter().rev().map(|&r| (r, Mat4::IDENTITY)).collect();
    let mut visits = 0usize;
    while let Some((id, world_from_parent)) = stack.pop() {
        visits += 1;
        if visits > MAX_NODE_VISITS {
            return Err(HanimError::Model {
                pos: scene.pos(scene.node(id).loc),
                message: format!("the scene graph expands to more than {MAX_NODE_VISITS} node instances through USE"),
            });
        }
        let type_name = scene.node(id).type_name.as_str();
        match type_name {
            "HAnimHumanoid" => humanoid_nodes.push((id, world_from_parent)),
            "Viewpoint" | "OrthoViewpoint" => viewpoints.push((read_viewpoint(&scene, id)?, world_from_parent)),
            "Shape" => other_shapes.push((id, world_from_parent)),
            "Background" | "TextureBackground" if !settings_seen.0 => {
                settings_seen.0 = true;
                settings.background = Some(super::Background::read(&scene, id)?);
            }
            "DirectionalLight" | "PointLight" | "SpotLight" => {
                if let Some(light) = read_light(&scene, id, world_from_parent, &mut warnings)? {
                    settings.lights.push(light);
                }
            }
            "NavigationInfo" if !settings_seen.1 => {
                settings_seen.1 = true;
                settings.headlight = scene.sf_bool(id, "headlight", true)?;
                settings.navigation_types = scene.mf_string(id, "type")?;
            }
            t if is_grouping(t) => {
                let m = world_from_parent * grouping_matrix(&scene, id, &mut warnings)?;
                for child in shown_children(&scene, id)?.into_iter().rev() {
                    stack.push((child, m));
                }
            }
            // H-Anim 1.0 layout: joints outside the humanoid are reached through its `joints` list.
            _ => {}
        }
    }
    let mut humanoids = Vec::new();
    for (id, world_from_parent) in humanoid_nodes {
        humanoids.push(HumanoidBuilder::new(&scene, id, world_from_parent).build()?);
    }
    let mut all_warnings = scene.warnings.clone();
    all_warnings.extend(warnings);
    for h in &humanoids {
        all_warnings.extend(h.warnings.iter().cloned());
    }
    Ok(Document { scene, humanoids, viewpoints, other_shapes, settings, warnings: all_warnings })
}

struct HumanoidBuilder<'s> {
    scene: &'s Scene,
    id: NodeId,
    world_from_parent: Mat4,
    warnings: Vec<Warning>,
    joints: Vec<Joint>,
    segments: Vec<Segment>,
    sites: Vec<Site>,
    displacers: Vec<Displacer>,
    joint_of_node: HashMap<NodeId, usize>,
    segment_of_node: HashMap<NodeId, usize>,
    site_of_node: HashMap<NodeId, usize>,
    joint_viewpoints: Vec<JointViewpoint>,
}

/// What holds a node met during the skeleton walk.
#[derive(Clone, Copy)]
enum Holder {
    Humanoid,
    Joint(usize),
    Segment(usize),
}

impl<'s> HumanoidBuilder<'s> {
    fn new(scene: &'s Scene, id: NodeId, world_from_parent: Mat4) -> Self {
        Self {
            scene,
            id,
            world_from_parent,
            warnings: Vec::new(),
            joints: Vec::new(),
            segments: Vec::new(),
            sites: Vec::new(),
            displacers: Vec::new(),
            joint_of_node: HashMap::new(),
            segment_of_node: HashMap::new(),
            site_of_node: HashMap::new(),
            joint_viewpoints: Vec::new(),
        }
    }

    fn warn(&mut self, node: NodeId, message: String) {
        let pos = self.scene.pos(self.scene.node(node).loc);
        self.warnings.push(Warning { pos, message });
    }

    fn name_of(&self, id: NodeId) -> String {
        let scene = self.scene;
        match scene.string(id, "name").map(str::trim).filter(|n| !n.is_empty()) {
            Some(name) => name.to_string(),
            None => scene.node(id).def.clone().unwrap_or_default(),
        }
    }

    fn children_of(&self, id: NodeId, fields: &[&str]) -> Vec<NodeId> {
        self.scene.node(id).children.iter().filter(|c| fields.contains(&c.field.as_str())).map(|c| c.node).collect()
    }

    fn build(mut self) -> Result<Humanoid, HanimError> {
        let scene = self.scene;
        let id = self.id;
        let is_x3d4 = scene.version.trim().starts_with('4');
        let version = scene
            .string(id, "version")
            .map(str::to_string)
            .unwrap_or_else(|| if is_x3d4 { "2.0".to_string() } else { String::new() });
        let transform = transform_fields(scene, id, &mut self.warnings)?;

        // Skeleton roots: `skeleton`, the H-Anim 1.x name `humanoidBody`, and joints written without a
        // containerField (default `children`, which a humanoid does not have).
        let mut roots = self.children_of(id, &["skeleton", "humanoidBody"]);
        for stray in self.children_of(id, &["children"]) {
            if matches!(scene.node(stray).type_name.as_str(), "HAnimJoint" | "HAnimSite") {
                self.warn(
                    stray,
                    format!(
                        "{} inside HAnimHumanoid has no containerField; taken as part of the skeleton",
                        scene.describe(stray)
                    ),
                );
                roots.push(stray);
            }
        }
        let listed_joints = self.children_of(id, &["joints"]);
        if roots.is_empty() && !listed_joints.is_empty() {
            // H-Anim 1.0 layout: the root Joint sits outside the Humanoid, which only lists references.
            // The roots are the listed joints that no other listed joint contains.
            let mut contained = std::collections::HashSet::new();
            for &j in &listed_joints {
                for c in &scene.node(j).children {
                    contained.insert(c.node);
                }
            }
            roots = listed_joints.iter().copied().filter(|j| !contained.contains(j)).collect();
        }
        self.walk_skeleton(&roots)?;

        let mut humanoid_viewpoints = Vec::new();
        self.read_viewpoints_field(&mut humanoid_viewpoints)?;

        // Index lists: joints, segments, sites.
        let mut skin_joints = Vec::new();
        for node in &listed_joints {
            match self.joint_of_node.get(node) {
                Some(&j) if !skin_joints.contains(&j) => skin_joints.push(j),
                Some(_) => {}
                None => {
                    let message = format!("{} is listed in `joints` but is not in the skeleton", scene.describe(*node));
                    self.warn(*node, message);
                }
            }
        }
        for (j, joint) in self.joints.iter().enumerate() {
            if !joint.skin_coord_index.is_empty() && !skin_joints.contains(&j) {
                skin_joints.push(j);
            }
        }
        let unlisted = skin_joints.len().saturating_sub(listed_joints.len());
        if !listed_joints.is_empty() && unlisted > 0 {
            self.warn(
                id,
                format!("{unlisted} weighted joint(s) are missing from the humanoid's `joints` list; they skin anyway"),
            );
        }
        for field in ["segments", "sites"] {
            for node in self.children_of(id, &[field]) {
                let known = if field == "segments" {
                    self.segment_of_node.contains_key(&node)
                } else {
                    self.site_of_node.contains_key(&node)
                };
                if !known {
                    let message = format!("{} is listed in `{field}` but is not in the skeleton", scene.describe(node));
                    self.warn(node, message);
                }
            }
        }

        let motions = self.read_motions()?;
        let motions_enabled = scene.parse_field(id, "motionsEnabled", x3d::fields::parse_mf_bool)?.unwrap_or_default();
        let skin = self.read_skin(&skin_joints)?;
        let info = self.read_info()?;

        let joint_binding_positions: Vec<Vec3> =
            scene.mf_length3(id, "jointBindingPositions")?.into_iter().map(Vec3::from).collect();
        let joint_binding_rotations: Vec<Quat> =
            scene.mf_rotation(id, "jointBindingRotations")?.into_iter().map(quat_from_axis_angle).collect();
        let joint_binding_scales: Vec<Vec3> =
            scene.mf_vec3f(id, "jointBindingScales")?.into_iter().map(Vec3::from).collect();

        let mut humanoid = Humanoid {
            name: self.name_of(id),
            def: scene.node(id).def.clone(),
            node: id,
            version,
            loa: scene.sf_int32(id, "loa", -1)?,
            skeletal_configuration: scene.string(id, "skeletalConfiguration").unwrap_or("BASIC").to_string(),
            description: scene.string(id, "description").unwrap_or("").to_string(),
            info,
            transform,
            world_from_parent: self.world_from_parent,
            joints: std::mem::take(&mut self.joints),
            skin_joints,
            segments: std::mem::take(&mut self.segments),
            sites: std::mem::take(&mut self.sites),
            displacers: std::mem::take(&mut self.displacers),
            motions,
            motions_enabled,
            skin,
            viewpoints: humanoid_viewpoints,
            joint_viewpoints: {
                // The skeleton walk meets them in stack order; the list follows the document.
                let mut held = std::mem::take(&mut self.joint_viewpoints);
                held.sort_by_key(|v| v.held.viewpoint.node);
                held
            },
            binding: Vec::new(),
            binding_mode: BindingMode::None,
            joint_binding_positions,
            joint_binding_rotations,
            joint_binding_scales,
            warnings: Vec::new(),
        };
        super::binding::resolve(&mut humanoid, &mut self.warnings, scene);
        humanoid.warnings = self.warnings;
        Ok(humanoid)
    }

    /// Depth-first, parent before child, with an explicit stack.
    fn walk_skeleton(&mut self, roots: &[NodeId]) -> Result<(), HanimError> {
        let scene = self.scene;
        // (node, holder, transforms of grouping nodes between holder and node)
        let mut stack: Vec<(NodeId, Holder, Mat4)> =
            roots.iter().rev().map(|&r| (r, Holder::Humanoid, Mat4::IDENTITY)).collect();
        let mut displacers_seen = HashSet::new();
        while let Some((id, holder, offset)) = stack.pop() {
            if offset != Mat4::IDENTITY && scene.node(id).type_name != "HAnimSite" {
                let message = format!(
                    "{} is inside a Transform within the skeleton; that Transform is ignored for it",
                    scene.describe(id)
                );
                self.warn(id, message);
            }
            let type_name = scene.node(id).type_name.as_str();
            match type_name {
                "HAnimJoint" => {
                    if self.joint_of_node.contains_key(&id) {
                        let message = format!(
                            "{} appears twice in the skeleton; the second place is ignored",
                            scene.describe(id)
                        );
                        self.warn(id, message);
                        continue;
                    }
                    let parent = match holder {
                        Holder::Joint(j) => Some(j),
                        Holder::Segment(s) => {
                            let message =
                                format!("{} is a child of a segment; joints belong under joints", scene.describe(id));
                            self.warn(id, message);
                            self.segments[s].joint
                        }
                        Holder::Humanoid => None,
                    };
                    let j = self.read_joint(id, parent)?;
                    // Children pushed in reverse so they come off the stack in document order.
                    let children: Vec<_> = scene.node(id).children.iter().rev().cloned().collect();
                    for child in children {
                        let child_type = scene.node(child.node).type_name.as_str();
                        match child_type {
                            "HAnimJoint" | "HAnimSegment" | "HAnimSite" | "HAnimDisplacer" => {
                                stack.push((child.node, Holder::Joint(j), Mat4::IDENTITY))
                            }
                            _ if child.field == "children" => {
                                self.joints[j].extra_children.insert(0, child.node);
                                self.nested_hanim_nodes(child.node, Holder::Joint(j), &mut stack)?;
                            }
                            _ => {}
                        }
                    }
                }
                "HAnimSegment" => {
                    if self.segment_of_node.contains_key(&id) {
                        let message = format!(
                            "{} appears twice in the skeleton; the second place is ignored",
                            scene.describe(id)
                        );
                        self.warn(id, message);
                        continue;
                    }
                    let joint = match holder {
                        Holder::Joint(j) => Some(j),
                        Holder::Segment(s) => self.segments[s].joint,
                        Holder::Humanoid => None,
                    };
                    let s = self.read_segment(id, joint)?;
                    let children: Vec<_> = scene.node(id).children.iter().rev().cloned().collect();
                    for child in children {
                        let child_type = scene.node(child.node).type_name.as_str();
                        match child_type {
                            "HAnimJoint" | "HAnimSite" | "HAnimDisplacer" | "HAnimSegment" => {
                                stack.push((child.node, Holder::Segment(s), Mat4::IDENTITY))
                            }
                            _ if child.field == "children" => {
                                self.segments[s].geometry.insert(0, child.node);
                                self.nested_hanim_nodes(child.node, Holder::Segment(s), &mut stack)?;
                            }
                            _ => {}
                        }
                    }
                }
                "HAnimSite" => {
                    if self.site_of_node.contains_key(&id) {
                        continue;
                    }
                    let parent = match holder {
                        Holder::Joint(j) => SiteParent::Joint(j),
                        Holder::Segment(s) => SiteParent::Segment(s),
                        Holder::Humanoid => SiteParent::Humanoid,
                    };
                    let site = self.read_site(id, parent, false)?;
                    self.sites[site].offset = offset;
                }
                "HAnimDisplacer" => {
                    if !displacers_seen.insert(id) {
                        let message = format!(
                            "{} appears twice in the skeleton; the second place is ignored",
                            scene.describe(id)
                        );
                        self.warn(id, message);
                        continue;
                    }
                    let owner = match holder {
                        Holder::Joint(j) => DisplacerOwner::Joint(j),
                        Holder::Segment(s) => DisplacerOwner::Segment(s),
                        Holder::Humanoid => {
                            let message = format!("{} is not inside a joint or segment; ignored", scene.describe(id));
                            self.warn(id, message);
                            continue;
                        }
                    };
                    self.read_displacer(id, owner)?;
                }
                other => {
                    let message = format!("<{other}> in the skeleton is not an H-Anim node; ignored");
                    self.warn(id, message);
                }
            }
        }
        Ok(())
    }

    /// H-Anim nodes wrapped in grouping nodes under a joint or segment (e.g. a Site inside a Transform
    /// that places it): pushed onto the skeleton stack with the accumulated grouping transform.
    fn nested_hanim_nodes(
        &mut self,
        group: NodeId,
        holder: Holder,
        out: &mut Vec<(NodeId, Holder, Mat4)>,
    ) -> Result<(), HanimError> {
        let scene = self.scene;
        let root_type = scene.node(group).type_name.as_str();
        if !is_grouping(root_type) && !is_viewpoint(root_type) {
            return Ok(());
        }
        let mut found = Vec::new();
        let mut stack = vec![(group, Mat4::IDENTITY)];
        // DEF/USE can give a node exponentially many paths; only its first place counts in the skeleton
        // anyway, so each node is visited once.
        let mut seen = HashSet::new();
        while let Some((node, parent_matrix)) = stack.pop() {
            if !seen.insert(node) {
                continue;
            }
            let t = scene.node(node).type_name.as_str();
            if t.starts_with("HAnim") {
                found.push((node, holder, parent_matrix));
            } else if is_viewpoint(t) {
                // A camera that moves with the joint (H-Anim 1.0 eye views are children of skullbase).
                let joint = match holder {
                    Holder::Joint(j) => Some(j),
                    Holder::Segment(s) => self.segments[s].joint,
                    Holder::Humanoid => None,
                };
                let viewpoint = read_viewpoint(scene, node)?;
                self.joint_viewpoints
                    .push(JointViewpoint { joint, held: HeldViewpoint { viewpoint, offset: parent_matrix } });
            } else if is_grouping(t) {
                let m = parent_matrix * grouping_matrix(scene, node, &mut self.warnings)?;
                for child in shown_children(scene, node)?.into_iter().rev() {
                    stack.push((child, m));
                }
            }
        }
        // The caller pops from the end; keep document order.
        out.extend(found.into_iter().rev());
        Ok(())
    }

    fn read_joint(&mut self, id: NodeId, parent: Option<usize>) -> Result<usize, HanimError> {
        let scene = self.scene;
        let rest = transform_fields(scene, id, &mut self.warnings)?;
        let llimit = scene.mf_angle(id, "llimit")?;
        let ulimit = scene.mf_angle(id, "ulimit")?;
        for (field, values) in [("llimit", &llimit), ("ulimit", &ulimit)] {
            if !values.is_empty() && values.len() != 3 {
                let message =
                    format!("{}: {field} has {} values, expected 3; ignored", scene.describe(id), values.len());
                self.warn(id, message);
            }
        }
        let fix = |v: Vec<f32>| if v.len() == 3 { v } else { Vec::new() };
        let limit_orientation = rotation_field(scene, id, "limitOrientation", &mut self.warnings)?;
        let j = self.joints.len();
        let name = self.name_of(id);
        if name.is_empty() {
            self.warn(id, "HAnimJoint has no name".to_string());
        }
        self.joints.push(Joint {
            name,
            def: scene.node(id).def.clone(),
            node: id,
            parent,
            rest,
            llimit: fix(llimit),
            ulimit: fix(ulimit),
            limit_orientation,
            stiffness: scene.mf_float(id, "stiffness")?,
            skin_coord_index: scene.mf_int32(id, "skinCoordIndex")?,
            skin_coord_weight: scene.mf_float(id, "skinCoordWeight")?,
            description: scene.string(id, "description").unwrap_or("").to_string(),
            displacers: Vec::new(),
            segments: Vec::new(),
            extra_children: Vec::new(),
        });
        self.joint_of_node.insert(id, j);
        Ok(j)
    }

    fn read_segment(&mut self, id: NodeId, joint: Option<usize>) -> Result<usize, HanimError> {
        let scene = self.scene;
        let coord = self.children_of(id, &["coord"]).into_iter().next();
        let coord_points = match coord {
            Some(c) => scene.mf_length3(c, "point")?.into_iter().map(Vec3::from).collect(),
            None => Vec::new(),
        };
        let s = self.segments.len();
        self.segments.push(Segment {
            name: self.name_of(id),
            def: scene.node(id).def.clone(),
            node: id,
            joint,
            mass: scene.sf_float(id, "mass", 0.0)?,
            center_of_mass: Vec3::from(scene.sf_length3(id, "centerOfMass", [0.0; 3])?),
            moments_of_inertia: scene.mf_float(id, "momentsOfInertia")?,
            coord,
            coord_points,
            displacers: Vec::new(),
            geometry: Vec::new(),
            description: scene.string(id, "description").unwrap_or("").to_string(),
        });
        if let Some(j) = joint {
            self.joints[j].segments.push(s);
        }
        self.segment_of_node.insert(id, s);
        Ok(s)
    }

    fn read_site(&mut self, id: NodeId, parent: SiteParent, in_viewpoints: bool) -> Result<usize, HanimError> {
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

    fn read_displacer(&mut self, id: NodeId, owner: DisplacerOwner) -> Result<(), HanimError> {
        let scene = self.scene;
        let coord_index = scene.mf_int32(id, "coordIndex")?;
        let mut displacements: Vec<Vec3> = scene.mf_length3(id, "displacements")?.into_iter().map(Vec3::from).collect();
        if displacements.len() != coord_index.len() {
            let message = format!(
                "{}: {} coordIndex entries but {} displacements; {}",
                scene.describe(id),
                coord_index.len(),
                displacements.len(),
                if displacements.len() < coord_index.len() { "missing ones are zero" } else { "extra ones ignored" }
            );
            self.warn(id, message);
            displacements.resize(coord_index.len(), Vec3::ZERO);
        }
        let d = self.displacers.len();
        self.displacers.push(Displacer {
            name: self.name_of(id),
            def: scene.node(id).def.clone(),
            node: id,
            owner,
            coord_index,
            displacements,
            weight: scene.sf_float(id, "weight", 0.0)?,
            description: scene.string(id, "description").unwrap_or("").to_string(),
        });
        match owner {
            DisplacerOwner::Joint(j) => self.joints[j].displacers.push(d),
            DisplacerOwner::Segment(s) => self.segments[s].displacers.push(d),
        }
        Ok(())
    }

    /// Viewpoints under the grouping node `group` (itself included), with the grouping transforms from
    /// `group`'s parent down to each; each node once.
    fn viewpoints_below(&mut self, group: NodeId, out: &mut Vec<HeldViewpoint>) -> Result<(), HanimError> {
        let scene = self.scene;
        let mut stack = vec![(group, Mat4::IDENTITY)];
        let mut seen = HashSet::new();
        while let Some((node, parent_matrix)) = stack.pop() {
            if !seen.insert(node) {
                continue;
            }
            let t = scene.node(node).type_name.as_str();
            if is_viewpoint(t) {
                out.push(HeldViewpoint { viewpoint: read_viewpoint(scene, node)?, offset: parent_matrix });
            } else if is_grouping(t) {
                let m = parent_matrix * grouping_matrix(scene, node, &mut self.warnings)?;
                for child in shown_children(scene, node)?.into_iter().rev() {
                    stack.push((child, m));
                }
            }
        }
        Ok(())
    }

    /// The `viewpoints` field: Sites (declared there or USEd from the skeleton) and bare Viewpoints, with
    /// the transforms of any grouping nodes around them.
    fn read_viewpoints_field(&mut self, bare: &mut Vec<HeldViewpoint>) -> Result<(), HanimError> {
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

    fn read_motions(&mut self) -> Result<Vec<Motion>, HanimError> {
        let scene = self.scene;
        let mut motions = Vec::new();
        for id in self.children_of(self.id, &["motions"]) {
            if scene.node(id).type_name != "HAnimMotion" {
                continue;
            }
            let channels = scene.string(id, "channels").unwrap_or("").to_string();
            let values = scene.mf_float(id, "values")?;
            let channel_count = match count_channels(&channels) {
                Some(n) => n,
                None => {
                    let message = format!(
                        "{}: channels '{}' cannot be read (each joint needs a count followed by that many \
                         channel names); the motion has no frames",
                        scene.describe(id),
                        channels.chars().take(60).collect::<String>()
                    );
                    self.warn(id, message);
                    0
                }
            };
            let frame_count =
                if channel_count > 0 && values.len() % channel_count == 0 { values.len() / channel_count } else { 0 };
            if channel_count > 0 && values.len() % channel_count != 0 {
                let message = format!(
                    "{}: {} values is not a multiple of {channel_count} channels",
                    scene.describe(id),
                    values.len()
                );
                self.warn(id, message);
            }
            motions.push(Motion {
                name: self.name_of(id),
                def: scene.node(id).def.clone(),
                node: id,
                description: scene.string(id, "description").unwrap_or("").to_string(),
                joints: scene.string(id, "joints").unwrap_or("").to_string(),
                channels,
                values,
                frame_duration: scene.sf_double(id, "frameDuration", 0.1)?,
                frame_increment: scene.sf_int32(id, "frameIncrement", 1)?,
                start_frame: scene.sf_int32(id, "startFrame", 0)?,
                end_frame: scene.sf_int32(id, "endFrame", 0)?,
                frame_index: scene.sf_int32(id, "frameIndex", 0)?,
                looping: scene.sf_bool(id, "loop", false)?,
                enabled: scene.sf_bool(id, "enabled", true)?,
                channels_enabled: scene
                    .parse_field(id, "channelsEnabled", x3d::fields::parse_mf_bool)?
                    .unwrap_or_default(),
                loa: scene.sf_int32(id, "loa", -1)?,
                channel_count,
                frame_count,
            });
        }
        Ok(motions)
    }

    fn read_info(&mut self) -> Result<Vec<(String, String)>, HanimError> {
        let scene = self.scene;
        let mut info: Vec<(String, String)> = scene
            .mf_string(self.id, "info")?
            .into_iter()
            .map(|entry| match entry.split_once('=') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => (String::new(), entry),
            })
            .collect();
        // HAnim 2 files converted from 1.x keep `info` as a MetadataSet named `HAnimHumanoid.info`.
        for set in self.children_of(self.id, &["metadata"]) {
            if scene.node(set).type_name == "MetadataSet" && scene.string(set, "name") == Some("HAnimHumanoid.info") {
                for entry in self.children_of(set, &["value"]) {
                    let key = scene.string(entry, "name").unwrap_or("").to_string();
                    let value = scene.mf_string(entry, "value")?.join(" ");
                    if !info.iter().any(|(k, _)| *k == key) {
                        info.push((key, value));
                    }
                }
            }
        }
        Ok(info)
    }

    fn read_skin(&mut self, skin_joints: &[usize]) -> Result<Option<Skin>, HanimError> {
        let scene = self.scene;
        let id = self.id;
        let coord_node = self.children_of(id, &["skinCoord"]).into_iter().next();
        let normal_node = self.children_of(id, &["skinNormal"]).into_iter().next();
        let weighted = skin_joints.iter().any(|&j| !self.joints[j].skin_coord_index.is_empty());
        let Some(coord_node) = coord_node else {
            if weighted {
                self.warn(id, "joints carry skin weights but the humanoid has no skinCoord; no skin".to_string());
            }
            return Ok(None);
        };
        let skin_points: Vec<Vec3> = scene.mf_length3(coord_node, "point")?.into_iter().map(Vec3::from).collect();
        let skin_normals: Vec<Vec3> = match normal_node {
            Some(n) => scene.mf_vec3f(n, "vector")?.into_iter().map(Vec3::from).collect(),
            None => Vec::new(),
        };
        let points = match self.children_of(id, &["skinBindingCoords"]).first() {
            Some(&b) => {
                let binding: Vec<Vec3> = scene.mf_length3(b, "point")?.into_iter().map(Vec3::from).collect();
                if binding.len() == skin_points.len() {
                    binding
                } else {
                    let message = format!(
                        "skinBindingCoords has {} points but skinCoord has {}; using skinCoord",
                        binding.len(),
                        skin_points.len()
                    );
                    self.warn(b, message);
                    skin_points
                }
            }
            None => skin_points,
        };
        let normals = match self.children_of(id, &["skinBindingNormals"]).first() {
            Some(&b) => {
                let binding: Vec<Vec3> = scene.mf_vec3f(b, "vector")?.into_iter().map(Vec3::from).collect();
                if binding.len() == skin_normals.len() {
                    binding
                } else {
                    let message = format!(
                        "skinBindingNormals has {} vectors but skinNormal has {}; using skinNormal",
                        binding.len(),
                        skin_normals.len()
                    );
                    self.warn(b, message);
                    skin_normals
                }
            }
            None => skin_normals,
        };
        if !normals.is_empty() && normals.len() != points.len() {
            let message =
                format!("skinNormal has {} vectors for {} points; normals are ignored", normals.len(), points.len());
            self.warn(id, message);
        }
        let normals = if normals.len() == points.len() { normals } else { Vec::new() };

        let shapes = self.read_skin_shapes(coord_node)?;
        let (influences, quirks) = super::influences::build(&self.joints, skin_joints, points.len());
        for quirk in quirks {
            let node = quirk.joint.map(|j| self.joints[j].node).unwrap_or(id);
            self.warn(node, quirk.message);
        }
        let unweighted_points = (0..points.len()).filter(|&i| influences.of(i).is_empty()).count();
        if weighted && unweighted_points > 0 {
            let message = format!(
                "{unweighted_points} of {} skin points have no joint influence and stay in place",
                points.len()
            );
            self.warn(coord_node, message);
        }
        Ok(Some(Skin {
            shapes,
            coord_node: Some(coord_node),
            normal_node,
            points,
            normals,
            influences,
            unweighted_points,
        }))
    }

    fn read_skin_shapes(&mut self, coord_node: NodeId) -> Result<Vec<SkinShape>, HanimError> {
        let scene = self.scene;
        let mut shapes = Vec::new();
        let mut stack: Vec<NodeId> = self.children_of(self.id, &["skin"]).into_iter().rev().collect();
        // Each node once: USE can make exponentially many paths to one node, and a Shape is listed once.
        let mut seen = HashSet::new();
        while let Some(node) = stack.pop() {
            if !seen.insert(node) {
                continue;
            }
            match scene.node(node).type_name.as_str() {
                "Shape" => {
                    let geometry = self.children_of(node, &["geometry"]).into_iter().next();
                    let (geometry_type, deforms, indices) = match geometry {
                        Some(g) => {
                            let index_field =
                                if scene.node(g).field("coordIndex").is_some() { "coordIndex" } else { "index" };
                            (
                                scene.node(g).type_name.clone(),
                                self.children_of(g, &["coord"]).first() == Some(&coord_node),
                                scene.mf_int32(g, index_field)?,
                            )
                        }
                        None => (String::new(), false, Vec::new()),
                    };
                    shapes.push(SkinShape { shape: node, geometry, geometry_type, deforms, indices });
                }
                t if is_grouping(t) => stack.extend(shown_children(scene, node)?.into_iter().rev()),
                _ => {}
            }
        }
        if !shapes.is_empty() && !shapes.iter().any(|s| s.deforms) {
            self.warn(self.id, "no skin shape uses the skinCoord node (DEF/USE), so nothing deforms".to_string());
        }
        Ok(shapes)
    }
}

/// Total channel count of an HAnimMotion `channels` string (`n name×n` per joint); `None` if malformed.
pub fn count_channels(channels: &str) -> Option<usize> {
    let mut tokens = channels.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty());
    let mut total = 0usize;
    while let Some(count) = tokens.next() {
        let n: usize = count.parse().ok()?;
        for _ in 0..n {
            tokens.next()?;
        }
        total += n;
    }
    Some(total)
}
