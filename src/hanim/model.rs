//! The H-Anim model: plain data, no GPU types. Built from an [`x3d::Scene`](crate::x3d::Scene) by
//! [`build`](super::build); joints are flattened parent-before-child so a single forward loop computes
//! every global matrix.

use glam::{Mat4, Quat, Vec3};

use super::background::Background;
use crate::x3d::{NodeId, Warning};

/// The transform fields shared by HAnimHumanoid, HAnimJoint and HAnimSite (X3D Transform semantics).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TransformFields {
    pub translation: Vec3,
    pub rotation: Quat,
    pub center: Vec3,
    pub scale: Vec3,
    pub scale_orientation: Quat,
}

impl Default for TransformFields {
    fn default() -> Self {
        Self {
            translation: Vec3::ZERO,
            rotation: Quat::IDENTITY,
            center: Vec3::ZERO,
            scale: Vec3::ONE,
            scale_orientation: Quat::IDENTITY,
        }
    }
}

impl TransformFields {
    /// `L = T(t)·T(c)·R(r)·R(so)·S(s)·R(so)⁻¹·T(−c)` (semantics note §1.1).
    pub fn matrix(&self) -> Mat4 {
        Self::matrix_of(self.translation, self.rotation, self.center, self.scale, self.scale_orientation)
    }

    pub fn matrix_of(t: Vec3, r: Quat, c: Vec3, s: Vec3, so: Quat) -> Mat4 {
        let mut m = Mat4::from_translation(t + c) * Mat4::from_quat(r);
        if s != Vec3::ONE {
            m = m * Mat4::from_quat(so) * Mat4::from_scale(s) * Mat4::from_quat(so.inverse());
        }
        m * Mat4::from_translation(-c)
    }
}

/// Converts an X3D SFRotation (axis, angle) to a unit quaternion; a zero or non-finite axis is identity.
pub fn quat_from_axis_angle(r: [f32; 4]) -> Quat {
    let axis = Vec3::new(r[0], r[1], r[2]);
    let len = axis.length();
    if !(len.is_finite() && len > 0.0 && r[3].is_finite()) {
        return Quat::IDENTITY;
    }
    Quat::from_axis_angle(axis / len, r[3])
}

#[derive(Debug, Clone)]
pub struct Joint {
    /// The H-Anim `name` field (e.g. `l_hip`); falls back to the DEF name when absent.
    pub name: String,
    pub def: Option<String>,
    pub node: NodeId,
    /// Index of the parent joint in [`Humanoid::joints`] (always smaller than this joint's index).
    pub parent: Option<usize>,
    /// The file's values: the rest pose.
    pub rest: TransformFields,
    /// Rotation limits in radians about the X, Y, Z axes of the limit frame; empty when not given.
    pub llimit: Vec<f32>,
    pub ulimit: Vec<f32>,
    pub limit_orientation: Quat,
    pub stiffness: Vec<f32>,
    /// Raw per-joint skin lists, as written (the per-vertex form is [`Skin::influences`]).
    pub skin_coord_index: Vec<i32>,
    pub skin_coord_weight: Vec<f32>,
    pub description: String,
    /// Displacers held by this joint (indices into [`Humanoid::displacers`]).
    pub displacers: Vec<usize>,
    /// Segments that are children of this joint.
    pub segments: Vec<usize>,
    /// Non-H-Anim children of the joint (Shapes, Transforms) drawn rigidly with it, as older files do.
    pub extra_children: Vec<NodeId>,
}

#[derive(Debug, Clone)]
pub struct Segment {
    pub name: String,
    pub def: Option<String>,
    pub node: NodeId,
    /// The joint this segment moves with (`None` for a segment outside any joint).
    pub joint: Option<usize>,
    pub mass: f32,
    pub center_of_mass: Vec3,
    pub moments_of_inertia: Vec<f32>,
    /// The segment's deformable Coordinate node (`coord` field) and its points.
    pub coord: Option<NodeId>,
    pub coord_points: Vec<Vec3>,
    pub displacers: Vec<usize>,
    /// Children other than sites and displacers: the segment's geometry, drawn rigidly.
    pub geometry: Vec<NodeId>,
    pub description: String,
}

/// Where a site hangs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteParent {
    /// In a segment: moves with the segment's joint.
    Segment(usize),
    /// Directly under a joint (allowed up to X3D 3.3).
    Joint(usize),
    /// Directly in `skeleton` or in `viewpoints`: humanoid transform only.
    Humanoid,
}

#[derive(Debug, Clone)]
pub struct Site {
    pub name: String,
    pub def: Option<String>,
    pub node: NodeId,
    pub parent: SiteParent,
    /// Transforms of grouping nodes between the holder and the site (real files wrap sites in a
    /// Transform inside the segment); identity normally. Site global: `G_holder · offset · L(site)`.
    pub offset: Mat4,
    pub transform: TransformFields,
    /// Listed in the humanoid's `viewpoints` field.
    pub in_viewpoints: bool,
    /// Viewpoint nodes inside the site (cameras), directly or under grouping nodes (e.g. a Transform
    /// that scales a marker together with its Viewpoint).
    pub cameras: Vec<HeldViewpoint>,
    /// Other children (accessories), drawn with the site.
    pub geometry: Vec<NodeId>,
    pub description: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisplacerOwner {
    Joint(usize),
    Segment(usize),
}

#[derive(Debug, Clone)]
pub struct Displacer {
    pub name: String,
    pub def: Option<String>,
    pub node: NodeId,
    pub owner: DisplacerOwner,
    pub coord_index: Vec<i32>,
    /// One displacement per `coord_index` entry (missing ones are zero, with a warning).
    pub displacements: Vec<Vec3>,
    /// The file's weight, the rest value.
    pub weight: f32,
    pub description: String,
}

/// An HAnimMotion, fields kept raw for the playback layer.
#[derive(Debug, Clone)]
pub struct Motion {
    pub name: String,
    pub def: Option<String>,
    pub node: NodeId,
    pub description: String,
    pub joints: String,
    pub channels: String,
    pub values: Vec<f32>,
    pub frame_duration: f64,
    pub frame_increment: i32,
    pub start_frame: i32,
    pub end_frame: i32,
    pub frame_index: i32,
    pub looping: bool,
    pub enabled: bool,
    pub channels_enabled: Vec<bool>,
    pub loa: i32,
    /// Total channel count from the `channels` string (0 when it cannot be read).
    pub channel_count: usize,
    /// `values.len() / channel_count` when that divides evenly.
    pub frame_count: usize,
}

/// An HAnimPose (X3D 4.1 / HAnim 2.1 working draft): joint values a humanoid can be set to, by joint
/// name. Read from the humanoid's `poses` field (the draft's) or its `children` (X_ITE 15); the joints
/// from the pose's `poseJoints` or `children` alike (see `docs/hanim-pose.md`).
#[derive(Debug, Clone)]
pub struct HanimPose {
    pub name: String,
    pub def: Option<String>,
    pub node: NodeId,
    pub description: String,
    pub loa: i32,
    pub enabled: bool,
    /// Seconds a player takes to move into the pose (0: at once).
    pub transition_duration: f32,
    /// Whether joints the pose does not list go back to their rest values when it is applied.
    pub reset_other_joints: bool,
    pub joints: Vec<PoseJoint>,
}

/// One HAnimJoint of an HAnimPose: the values its namesake in the skeleton takes.
#[derive(Debug, Clone, PartialEq)]
pub struct PoseJoint {
    pub name: String,
    pub rotation: Quat,
    /// `None` where the pose joint does not write a `translation`.
    pub translation: Option<Vec3>,
}

/// A camera: X3D Viewpoint fields.
#[derive(Debug, Clone)]
pub struct Viewpoint {
    pub node: NodeId,
    pub def: Option<String>,
    pub description: String,
    pub position: Vec3,
    pub orientation: Quat,
    pub field_of_view: f32,
    pub center_of_rotation: Vec3,
}

/// A Viewpoint with the transforms of the grouping nodes between its holder (a site, a joint, a segment
/// or the humanoid's `viewpoints` field) and it: identity for a direct child.
#[derive(Debug, Clone)]
pub struct HeldViewpoint {
    pub viewpoint: Viewpoint,
    pub offset: Mat4,
}

/// A Viewpoint among the children of a joint or a segment (H-Anim 1.0 puts its eye views under
/// `skullbase`): it moves with the joint, `H · G_j · offset · T(position) · R(orientation)`.
#[derive(Debug, Clone)]
pub struct JointViewpoint {
    /// The joint it moves with (`None`: a segment outside any joint, humanoid transform only).
    pub joint: Option<usize>,
    pub held: HeldViewpoint,
}

/// What kind of geometry a skin shape has.
#[derive(Debug, Clone)]
pub struct SkinShape {
    pub shape: NodeId,
    pub geometry: Option<NodeId>,
    pub geometry_type: String,
    /// True when the geometry's `coord` is the skinCoord node itself, i.e. it deforms.
    pub deforms: bool,
    /// The geometry's index list (`coordIndex` or `index`), as written.
    pub indices: Vec<i32>,
}

/// Per-vertex influence lists in compressed row form: the influences of point `i` are
/// `entries[offsets[i]..offsets[i+1]]`, each `(joint index into Humanoid::joints, weight)`, in
/// [`Humanoid::skin_joints`] order (the `joints` field, then weighted joints it misses) — the order the
/// CPU reference and the GPU kernel both sum them in.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Influences {
    pub offsets: Vec<u32>,
    pub entries: Vec<(u32, f32)>,
}

impl Influences {
    pub fn of(&self, point: usize) -> &[(u32, f32)] {
        &self.entries[self.offsets[point] as usize..self.offsets[point + 1] as usize]
    }

    pub fn point_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
}

/// How `jointBinding*` fields are read (semantics note §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum BindingMode {
    /// No binding fields: `B_j = I` (BASIC skeletal configuration).
    None,
    /// X_ITE's reading: the fields compose each joint's inverse bind matrix.
    InverseBindMatrix,
    /// 19774's reading: the fields are the joints' local TRS in the bind pose, `B_j = (G_j^bind)⁻¹`.
    BindPose,
}

#[derive(Debug, Clone)]
pub struct Skin {
    /// Shapes in the humanoid's `skin` field.
    pub shapes: Vec<SkinShape>,
    /// The skinCoord Coordinate node (the output the render pass draws).
    pub coord_node: Option<NodeId>,
    pub normal_node: Option<NodeId>,
    /// Binding points `p` (skinBindingCoords if valid, else skinCoord).
    pub points: Vec<Vec3>,
    /// Binding normals `n` (skinBindingNormals if valid, else skinNormal); empty when the file has none.
    pub normals: Vec<Vec3>,
    pub influences: Influences,
    /// Points that no joint reaches.
    pub unweighted_points: usize,
}

#[derive(Debug, Clone)]
pub struct Humanoid {
    pub name: String,
    pub def: Option<String>,
    pub node: NodeId,
    pub version: String,
    pub loa: i32,
    pub skeletal_configuration: String,
    pub description: String,
    /// `info` entries split at the first `=` (`authorName=...` → ("authorName", "...")).
    pub info: Vec<(String, String)>,
    /// The humanoid's own transform fields.
    pub transform: TransformFields,
    /// Accumulated transform of the nodes above the humanoid in the scene (`W_parent`).
    pub world_from_parent: Mat4,
    pub joints: Vec<Joint>,
    /// Joints that skin and receive motion: the `joints` field, plus any weighted joint it misses.
    pub skin_joints: Vec<usize>,
    pub segments: Vec<Segment>,
    pub sites: Vec<Site>,
    pub displacers: Vec<Displacer>,
    pub motions: Vec<Motion>,
    pub motions_enabled: Vec<bool>,
    /// The humanoid's HAnimPose nodes, in file order.
    pub poses: Vec<HanimPose>,
    pub skin: Option<Skin>,
    /// Viewpoints placed directly in the `viewpoints` field (H-Anim 1.x style, no Site around them).
    pub viewpoints: Vec<HeldViewpoint>,
    /// Viewpoints among the children of joints and segments (H-Anim 1.0 eye and face views).
    pub joint_viewpoints: Vec<JointViewpoint>,
    /// Joint binding matrices `B_j`, one per joint (identity when the file gives none).
    pub binding: Vec<Mat4>,
    pub binding_mode: BindingMode,
    /// Raw `jointBindingPositions/Rotations/Scales`, for `info` and the checker.
    pub joint_binding_positions: Vec<Vec3>,
    pub joint_binding_rotations: Vec<Quat>,
    pub joint_binding_scales: Vec<Vec3>,
    pub warnings: Vec<Warning>,
}

impl Humanoid {
    pub fn joint_index(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// Matrix from humanoid space to world: `H = W_parent · L(humanoid)`.
    pub fn world_from_humanoid(&self) -> Mat4 {
        self.world_from_parent * self.transform.matrix()
    }

    pub fn viewpoint_sites(&self) -> impl Iterator<Item = &Site> {
        self.sites.iter().filter(|s| s.in_viewpoints || s.name.ends_with("_view"))
    }
}

/// The joint a site moves with, or `None` when it is fixed to the humanoid: sites listed in
/// `viewpoints` are evaluated with the humanoid transform only, even when they also sit in the
/// skeleton (§5 decision).
pub fn site_joint(h: &Humanoid, site: &Site) -> Option<usize> {
    if site.in_viewpoints {
        return None;
    }
    match site.parent {
        SiteParent::Segment(s) => h.segments.get(s).and_then(|seg| seg.joint),
        SiteParent::Joint(j) => Some(j),
        SiteParent::Humanoid => None,
    }
}

/// Background colour and other scene settings around the humanoid.
#[derive(Debug, Clone, Default)]
pub struct SceneSettings {
    /// The first Background or TextureBackground (its colours; textures are not drawn).
    pub background: Option<Background>,
    /// X3D 4.0 or later: an RGB ImageTexture multiplies Material.diffuseColor (X3D 4.0, 17.2.2.4);
    /// older files (X3D 3.x, VRML97) let it replace the diffuse colour.
    pub texture_times_diffuse: bool,
    /// NavigationInfo headlight (X3D default: on).
    pub headlight: bool,
    pub navigation_types: Vec<String>,
    /// NavigationInfo `avatarSize[0]`, the collision distance, when the file gives a usable one.
    pub collision_distance: Option<f32>,
    /// The scene's light nodes that are on, in world space.
    pub lights: Vec<SceneLight>,
}

impl SceneSettings {
    /// X3D's default `avatarSize[0]` (ISO/IEC 19775-1, 23.4.4 NavigationInfo).
    pub const DEFAULT_COLLISION_DISTANCE: f32 = 0.25;

    /// How near the viewer geometry is still drawn: half the collision distance (NavigationInfo
    /// `avatarSize[0]`, which the standard ties to the near clipping plane; X_ITE and view3dscene clip at
    /// half of it). Renders never clip nearer geometry than this, whatever they frame.
    pub fn near_clip_distance(&self) -> f32 {
        self.collision_distance.unwrap_or(Self::DEFAULT_COLLISION_DISTANCE) * 0.5
    }
}

/// What kind of X3D light, with its kind's fields (world space).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LightKind {
    /// Light travelling along `direction` (unit).
    Directional {
        direction: Vec3,
    },
    Point {
        location: Vec3,
        radius: f32,
        attenuation: Vec3,
    },
    /// `direction` unit; angles in radians.
    Spot {
        location: Vec3,
        direction: Vec3,
        radius: f32,
        attenuation: Vec3,
        beam_width: f32,
        cut_off_angle: f32,
    },
}

/// An X3D DirectionalLight, PointLight or SpotLight outside the humanoids.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SceneLight {
    pub node: NodeId,
    pub kind: LightKind,
    /// sRGB as written.
    pub color: [f32; 3],
    pub intensity: f32,
    pub ambient_intensity: f32,
    /// The grouping node whose descendants the light reaches (`None`: the whole scene; see
    /// [`crate::hanim::light_scope`]).
    pub scope: Option<NodeId>,
}

/// `Vec<T>` indexed by an index newtype directly (`poses[humanoid]`, `rotations[joint]`).
macro_rules! vec_index {
    ($index:ty) => {
        impl<T> std::ops::Index<$index> for Vec<T> {
            type Output = T;
            fn index(&self, index: $index) -> &T {
                &self[index.0]
            }
        }

        impl<T> std::ops::IndexMut<$index> for Vec<T> {
            fn index_mut(&mut self, index: $index) -> &mut T {
                &mut self[index.0]
            }
        }
    };
}

/// Which humanoid of a document: its place in [`Document::humanoids`] (file order, from 0). Passed
/// between layers (clips, views, captures, the window) instead of a bare `usize`, so a joint or clip
/// index cannot stand in for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct HumanoidIndex(pub usize);

impl HumanoidIndex {
    /// The first humanoid of a file: the one shown and posed unless the user picks another.
    pub const FIRST: HumanoidIndex = HumanoidIndex(0);
}

// Per-humanoid lists (the humanoids themselves, their poses, placements, editors) index by it.
vec_index!(HumanoidIndex);

/// Which joint of a humanoid: its place in [`Humanoid::joints`] (parents before children). The panels,
/// scripts and the window pass joints as these.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct JointIndex(pub usize);

// Per-joint lists (the joints, their centres, pose rotations) index by it.
vec_index!(JointIndex);

/// A loaded file: the scene, every humanoid in it and what surrounds them.
#[derive(Debug, Clone)]
pub struct Document {
    pub scene: crate::x3d::Scene,
    pub humanoids: Vec<Humanoid>,
    /// Viewpoints outside any humanoid, with their world placement.
    pub viewpoints: Vec<(Viewpoint, Mat4)>,
    /// The first of `viewpoints` in the file itself (not from an Inline), the one an X3D browser binds at
    /// load among them (VRML97 4.6.10: an inlined file's bindable nodes are not candidates).
    pub initial_viewpoint: Option<usize>,
    /// For each of `viewpoints`, whether it comes from an inlined file.
    pub viewpoints_inlined: Vec<bool>,
    /// Shapes outside any humanoid, with their world matrix.
    pub other_shapes: Vec<(NodeId, Mat4)>,
    /// Shapes outside any humanoid in the choices a Switch does not show at load, with the world matrix
    /// they would have: an event changing `whichChoice` can show them (drawn, hidden until then; not
    /// framed, counted or sensed as the shown ones are).
    pub switched_out_shapes: Vec<(NodeId, Mat4)>,
    pub settings: SceneSettings,
    /// The grouping nodes above each humanoid and Shape: which scoped lights reach them.
    pub ancestry: crate::hanim::Ancestry,
    /// Loader and model warnings together.
    pub warnings: Vec<Warning>,
}

impl Document {
    pub fn humanoid(&self, index: HumanoidIndex) -> Option<&Humanoid> {
        self.humanoids.get(index.0)
    }

    /// Whether scene Viewpoint `index` (of `viewpoints`) comes from an inlined file.
    pub fn viewpoint_inlined(&self, index: usize) -> bool {
        self.viewpoints_inlined.get(index).copied().unwrap_or(false)
    }

    /// The scoped lights (those that do not light the whole scene) reaching an object with grouping
    /// ancestors `ancestors`, in document order.
    pub fn scoped_lights(&self, ancestors: &[NodeId]) -> impl Iterator<Item = &SceneLight> {
        self.settings.lights.iter().filter(move |l| l.scope.is_some() && l.reaches(ancestors))
    }

    /// Every humanoid with its index, in file order.
    pub fn indexed_humanoids(&self) -> impl Iterator<Item = (HumanoidIndex, &Humanoid)> {
        self.humanoids.iter().enumerate().map(|(i, h)| (HumanoidIndex(i), h))
    }
}
