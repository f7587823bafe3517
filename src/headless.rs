//! The `render` command: load a file, pose its humanoids, deform them on the GPU, draw them offscreen
//! with the same passes the window uses, and write a PNG atomically.
//!
//! Camera: a file Viewpoint (by description or DEF) or a standard view (semantics note §5) framing the
//! humanoids' bounding box at the rendered pose. Background: the file's Background colour, else grey.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, Result, anyhow, bail};
use glam::{Mat4, Quat, Vec3};

use crate::gpu::overlay::{self, OverlayBuffers, OverlayLines, OverlayRenderer};
use crate::gpu::render_pass::{self, Camera, HumanoidRenderer, MeshDraw, linear_from_srgb};
use crate::gpu::target::{RenderTarget, TargetFormats};
use crate::gpu::{GpuContext, GpuSkin, SkinCorners};
use crate::hanim::{Document, Humanoid, SiteParent, Viewpoint};
use crate::inspect::bounds::{Aabb, humanoid_bounds};
use crate::mesh::{render_mesh_from_rigid_shape, rigid_shapes, skin_mesh_from_humanoid};
use crate::pose::{self, Pose};

/// `hanim-viewer render` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct RenderArgs {
    /// The X3D file to render.
    pub file: PathBuf,
    /// Where to write the PNG (written to a temporary file beside it, then renamed).
    #[arg(long, value_name = "PNG", required_unless_present = "out_dir", conflicts_with = "out_dir")]
    pub out: Option<PathBuf>,
    /// Image size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1280x720", value_parser = parse_size)]
    pub size: ImageSize,
    /// `front`, `side`, `top`, `inclined`, or the description or DEF name of a Viewpoint in the file.
    /// Default: front, framing the whole humanoid.
    #[arg(long, value_name = "NAME")]
    pub view: Option<String>,
    /// Joint rotation offsets, each JOINT=AXIS_X,AXIS_Y,AXIS_Z,ANGLE (radians), applied in the joint's
    /// frame after its file rotation.
    #[arg(long = "pose", value_name = "JOINT=X,Y,Z,ANGLE", num_args = 1.., value_parser = parse_joint_rotation)]
    pub poses: Vec<JointRotation>,
    /// Displacer weights, each NAME=WEIGHT.
    #[arg(long = "displacer", value_name = "NAME=WEIGHT", num_args = 1.., value_parser = parse_displacer_weight)]
    pub displacers: Vec<DisplacerWeight>,
    /// Draw the skeleton (bones and joints) on top.
    #[arg(long)]
    pub skeleton: bool,
    /// Draw a ground grid on y = 0.
    #[arg(long)]
    pub grid: bool,
    /// Use the GPU adapter whose name contains NAME (e.g. `llvmpipe`).
    #[arg(long, value_name = "NAME")]
    pub adapter: Option<String>,
    /// Pose the humanoids with a motion (`--motion`, `--frame`/`--time`, `--every` + `--out-dir`).
    #[command(flatten)]
    pub motion: crate::animation::sequence::MotionRenderArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageSize {
    pub width: u32,
    pub height: u32,
}

/// `--pose JOINT=X,Y,Z,ANGLE`.
#[derive(Debug, Clone, PartialEq)]
pub struct JointRotation {
    pub joint: String,
    /// Unit axis.
    pub axis: Vec3,
    pub angle: f32,
}

/// `--displacer NAME=WEIGHT`.
#[derive(Debug, Clone, PartialEq)]
pub struct DisplacerWeight {
    pub name: String,
    pub weight: f32,
}

/// Largest image side accepted on the command line (the adapter may allow less).
const MAX_IMAGE_SIDE: u32 = 16384;

pub fn parse_size(text: &str) -> Result<ImageSize, String> {
    let (w, h) = text.split_once(['x', 'X']).ok_or_else(|| format!("'{text}' is not WIDTHxHEIGHT (e.g. 1280x720)"))?;
    let side = |s: &str| -> Result<u32, String> {
        match s.trim().parse::<u32>() {
            Ok(v) if (1..=MAX_IMAGE_SIDE).contains(&v) => Ok(v),
            _ => Err(format!("'{text}': each side must be a whole number from 1 to {MAX_IMAGE_SIDE}")),
        }
    };
    Ok(ImageSize { width: side(w)?, height: side(h)? })
}

pub fn parse_joint_rotation(text: &str) -> Result<JointRotation, String> {
    let expected = || format!("'{text}' is not JOINT=AXIS_X,AXIS_Y,AXIS_Z,ANGLE (e.g. l_shoulder=0,0,1,1.57)");
    let (joint, values) = text.split_once('=').ok_or_else(expected)?;
    let numbers: Vec<f32> =
        values.split(',').map(|v| v.trim().parse::<f32>().map_err(|_| expected())).collect::<Result<_, _>>()?;
    let [x, y, z, angle] = numbers[..] else { return Err(expected()) };
    let axis = Vec3::new(x, y, z);
    if joint.trim().is_empty() || !axis.is_finite() || !angle.is_finite() {
        return Err(expected());
    }
    let axis = axis.normalize_or_zero();
    if axis == Vec3::ZERO {
        return Err(format!("'{text}': the rotation axis must not be zero"));
    }
    Ok(JointRotation { joint: joint.trim().to_string(), axis, angle })
}

pub fn parse_displacer_weight(text: &str) -> Result<DisplacerWeight, String> {
    let expected = || format!("'{text}' is not NAME=WEIGHT (e.g. l_eyebrow_raiser_action=0.8)");
    let (name, weight) = text.split_once('=').ok_or_else(expected)?;
    let weight: f32 = weight.trim().parse().map_err(|_| expected())?;
    if name.trim().is_empty() || !weight.is_finite() {
        return Err(expected());
    }
    Ok(DisplacerWeight { name: name.trim().to_string(), weight })
}

/// The standard views of the semantics note §5.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StandardView {
    Front,
    Side,
    Top,
    Inclined,
}

impl StandardView {
    pub fn from_name(name: &str) -> Option<Self> {
        match name.to_ascii_lowercase().as_str() {
            "front" => Some(Self::Front),
            "side" => Some(Self::Side),
            "top" => Some(Self::Top),
            "inclined" => Some(Self::Inclined),
            _ => None,
        }
    }

    /// Camera orientation: Front looks down −Z; Side `0 1 0 π/2` (looks down −X); Top `1 0 0 −π/2`
    /// (looks down −Y); Inclined `R_y(π/4)·R_x(−35.264°)` (looks towards (−1,−1,−1)).
    pub fn orientation(self) -> Quat {
        match self {
            Self::Front => Quat::IDENTITY,
            Self::Side => Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
            Self::Top => Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2),
            Self::Inclined => {
                Quat::from_rotation_y(std::f32::consts::FRAC_PI_4)
                    * Quat::from_rotation_x(-(1.0f32 / 3f32.sqrt()).asin())
            }
        }
    }
}

/// X3D's default Viewpoint field of view.
pub const DEFAULT_FIELD_OF_VIEW: f32 = std::f32::consts::FRAC_PI_4;
/// The box fills at most 1/FRAME_MARGIN of the image in each direction.
const FRAME_MARGIN: f32 = 1.1;
/// Background when the file has none (sRGB).
pub const NEUTRAL_GREY: [f32; 3] = [0.4, 0.4, 0.4];

/// A box that is never empty or flat: a unit cube around the origin for an empty box, and a minimum
/// thickness otherwise.
fn usable_box(bounds: &Aabb) -> Aabb {
    if bounds.is_empty() {
        return Aabb { min: Vec3::splat(-0.5), max: Vec3::splat(0.5) };
    }
    let pad = (bounds.size().max_element() * 1e-3).max(1e-4);
    Aabb { min: bounds.min - pad, max: bounds.max + pad }
}

fn corners_of(b: &Aabb) -> [Vec3; 8] {
    std::array::from_fn(|i| {
        Vec3::new(
            if i & 1 == 0 { b.min.x } else { b.max.x },
            if i & 2 == 0 { b.min.y } else { b.max.y },
            if i & 4 == 0 { b.min.z } else { b.max.z },
        )
    })
}

/// The camera of a standard view: oriented as `view` says, aimed at the box centre `m` from
/// `m + orientation·(0, 0, d)`, with `d` the smallest distance at which every box corner lies inside the
/// vertical and horizontal field of view with [`FRAME_MARGIN`] to spare.
pub fn framed_camera(bounds: &Aabb, orientation: Quat, field_of_view: f32, aspect: f32) -> Camera {
    let b = usable_box(bounds);
    let m = b.center();
    let probe = Camera { world_from_camera: Mat4::IDENTITY, field_of_view, near: 1.0, far: 2.0 };
    let tan_y = (probe.fov_y(aspect) * 0.5).tan();
    let tan_x = tan_y * aspect;
    let inverse = orientation.inverse();
    let mut distance = 0.0f32;
    let mut nearest_z = f32::NEG_INFINITY;
    let local: Vec<Vec3> = corners_of(&b).iter().map(|c| inverse * (*c - m)).collect();
    for c in &local {
        // Camera at (0, 0, d) in this frame, looking down −Z: the corner is d − z in front of it.
        distance = distance.max(c.z + FRAME_MARGIN * (c.x.abs() / tan_x).max(c.y.abs() / tan_y));
        nearest_z = nearest_z.max(c.z);
    }
    let size = b.size().max_element();
    let nearest = (distance - nearest_z).max(size * 0.05);
    let farthest = local.iter().map(|c| distance - c.z).fold(nearest, f32::max);
    Camera {
        world_from_camera: Mat4::from_rotation_translation(
            orientation,
            m + orientation * Vec3::new(0.0, 0.0, distance),
        ),
        field_of_view,
        near: nearest * 0.5,
        // Room for the ground grid, which reaches 1.5 sizes around the box.
        far: farthest * 2.0 + 4.0 * size,
    }
}

/// A camera placed by a file Viewpoint (`world_from_parent · T(position) · R(orientation)`), with near
/// and far planes chosen around `bounds`.
pub fn viewpoint_camera(viewpoint: &Viewpoint, world_from_parent: Mat4, bounds: &Aabb) -> Camera {
    let b = usable_box(bounds);
    let world_from_camera =
        world_from_parent * Mat4::from_rotation_translation(viewpoint.orientation, viewpoint.position);
    let position = world_from_camera.transform_point3(Vec3::ZERO);
    let radius = b.size().length() * 0.5;
    let distance = position.distance(b.center());
    let size = b.size().max_element();
    Camera {
        world_from_camera,
        field_of_view: viewpoint.field_of_view,
        near: (distance - radius).max(radius * 0.01) * 0.5,
        far: (distance + radius) * 2.0 + 4.0 * size,
    }
}

/// Every Viewpoint of the document with its world placement at `poses` (one per humanoid): scene
/// Viewpoints, Viewpoints in a humanoid's `viewpoints` field, and cameras inside Sites (which move
/// with their joint).
pub fn document_viewpoints(doc: &Document, poses: &[Pose]) -> Vec<(Viewpoint, Mat4)> {
    let mut all = doc.viewpoints.clone();
    for (h, pose) in doc.humanoids.iter().zip(poses) {
        let world_from_humanoid = h.world_from_humanoid();
        all.extend(h.viewpoints.iter().map(|v| (v.clone(), world_from_humanoid)));
        let g = pose::humanoid_from_joint(h, pose);
        for site in &h.sites {
            let holder = match site.parent {
                _ if site.in_viewpoints => Mat4::IDENTITY,
                SiteParent::Segment(s) => h
                    .segments
                    .get(s)
                    .and_then(|seg| seg.joint)
                    .and_then(|j| g.get(j))
                    .copied()
                    .unwrap_or(Mat4::IDENTITY),
                SiteParent::Joint(j) => g.get(j).copied().unwrap_or(Mat4::IDENTITY),
                SiteParent::Humanoid => Mat4::IDENTITY,
            };
            let placement = world_from_humanoid * holder * site.offset * site.transform.matrix();
            all.extend(site.cameras.iter().map(|v| (v.clone(), placement)));
        }
    }
    all
}

/// Which camera to use.
#[derive(Debug, Clone, PartialEq)]
pub enum ViewRequest {
    /// The front view framing every humanoid at the rendered pose.
    Auto,
    /// A standard view name or a file Viewpoint's description or DEF.
    Named(String),
    /// This exact camera (tests use it to keep the camera fixed across poses).
    Camera(Camera),
}

/// What to render.
#[derive(Debug, Clone)]
pub struct SceneRequest {
    pub size: ImageSize,
    pub view: ViewRequest,
    pub joint_rotations: Vec<JointRotation>,
    pub displacer_weights: Vec<DisplacerWeight>,
    pub show_skeleton: bool,
    pub show_grid: bool,
}

impl SceneRequest {
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            size: ImageSize { width, height },
            view: ViewRequest::Auto,
            joint_rotations: Vec::new(),
            displacer_weights: Vec::new(),
            show_skeleton: false,
            show_grid: false,
        }
    }
}

/// A rendered image and what it was rendered with.
#[derive(Debug, Clone)]
pub struct RenderedImage {
    pub width: u32,
    pub height: u32,
    /// RGBA8, sRGB, rows top to bottom.
    pub rgba: Vec<u8>,
    pub camera: Camera,
    /// World bounds of every humanoid at the rendered pose.
    pub bounds: Aabb,
    /// The background colour (sRGB, as in the file).
    pub background: [f32; 3],
}

impl RenderedImage {
    /// The background colour as the image stores it (±1 for rounding).
    pub fn background_rgba8(&self) -> [u8; 4] {
        let [r, g, b] = self.background.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8);
        [r, g, b, 255]
    }

    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * self.width + x) * 4) as usize;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2], self.rgba[i + 3]]
    }
}

/// Levenshtein distance, for "did you mean" lists.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// Names close to `wanted` (case-insensitive: containing it, contained in it, or a few edits away),
/// closest first, at most 8.
pub fn close_names<'a>(wanted: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let wanted = wanted.to_lowercase();
    let limit = (wanted.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, &str)> = names
        .into_iter()
        .filter_map(|name| {
            let lower = name.to_lowercase();
            let distance = edit_distance(&wanted, &lower);
            if lower.contains(&wanted) || wanted.contains(&lower) {
                Some((distance.min(1), name))
            } else {
                (distance <= limit).then_some((distance, name))
            }
        })
        .collect();
    scored.sort();
    scored.dedup_by_key(|(_, n)| *n);
    scored.into_iter().take(8).map(|(_, n)| n).collect()
}

fn not_found(what: &str, wanted: &str, names: Vec<&str>) -> anyhow::Error {
    let close = close_names(wanted, names.iter().copied());
    if close.is_empty() {
        let sample: Vec<&str> = names.iter().copied().take(12).collect();
        let more = if names.len() > sample.len() { ", ..." } else { "" };
        anyhow!("no {what} named '{wanted}' (the file has {}: {}{more})", names.len(), sample.join(", "))
    } else {
        anyhow!("no {what} named '{wanted}'; close names: {}", close.join(", "))
    }
}

/// One pose per humanoid: the file's rest pose with the requested joint rotation offsets and displacer
/// weights. A joint or displacer name found in no humanoid is an error listing close names.
pub fn poses_for(doc: &Document, rotations: &[JointRotation], weights: &[DisplacerWeight]) -> Result<Vec<Pose>> {
    let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
    for r in rotations {
        let mut found = false;
        for (h, pose) in doc.humanoids.iter().zip(&mut poses) {
            for (j, joint) in h.joints.iter().enumerate() {
                if joint.name == r.joint || joint.def.as_deref() == Some(r.joint.as_str()) {
                    pose.rotation_offsets[j] = Quat::from_axis_angle(r.axis, r.angle);
                    found = true;
                }
            }
        }
        if !found {
            let names = doc.humanoids.iter().flat_map(|h| h.joints.iter().map(|j| j.name.as_str())).collect();
            return Err(not_found("joint", &r.joint, names));
        }
    }
    for w in weights {
        let mut found = false;
        for (h, pose) in doc.humanoids.iter().zip(&mut poses) {
            for (d, displacer) in h.displacers.iter().enumerate() {
                if displacer.name == w.name || displacer.def.as_deref() == Some(w.name.as_str()) {
                    pose.displacer_weights[d] = w.weight;
                    found = true;
                }
            }
        }
        if !found {
            let names = doc.humanoids.iter().flat_map(|h| h.displacers.iter().map(|d| d.name.as_str())).collect();
            return Err(not_found("displacer", &w.name, names));
        }
    }
    Ok(poses)
}

/// World bounds of every humanoid at its pose.
pub fn scene_bounds(doc: &Document, poses: &[Pose]) -> Result<Aabb> {
    let mut bounds = Aabb::default();
    for (h, pose) in doc.humanoids.iter().zip(poses) {
        let b = humanoid_bounds(&doc.scene, h, pose).with_context(|| format!("bounds of humanoid '{}'", h.name))?;
        if !b.is_empty() {
            bounds.add(b.min);
            bounds.add(b.max);
        }
    }
    Ok(bounds)
}

/// The camera for `view`.
pub fn camera_for(doc: &Document, poses: &[Pose], bounds: &Aabb, view: &ViewRequest, aspect: f32) -> Result<Camera> {
    let name = match view {
        ViewRequest::Camera(camera) => return Ok(*camera),
        ViewRequest::Auto => return Ok(framed_camera(bounds, Quat::IDENTITY, DEFAULT_FIELD_OF_VIEW, aspect)),
        ViewRequest::Named(name) => name,
    };
    if let Some(standard) = StandardView::from_name(name) {
        return Ok(framed_camera(bounds, standard.orientation(), DEFAULT_FIELD_OF_VIEW, aspect));
    }
    let viewpoints = document_viewpoints(doc, poses);
    let matches = |v: &Viewpoint, exact: bool| {
        let same = |s: &str| if exact { s == name } else { s.eq_ignore_ascii_case(name) };
        same(&v.description) || v.def.as_deref().is_some_and(same)
    };
    let found = viewpoints
        .iter()
        .find(|(v, _)| matches(v, true))
        .or_else(|| viewpoints.iter().find(|(v, _)| matches(v, false)));
    match found {
        Some((viewpoint, placement)) => Ok(viewpoint_camera(viewpoint, *placement, bounds)),
        None => {
            let mut names: Vec<&str> = vec!["front", "side", "top", "inclined"];
            for (v, _) in &viewpoints {
                if !v.description.is_empty() {
                    names.push(&v.description);
                }
                if let Some(def) = &v.def {
                    names.push(def);
                }
            }
            let close = close_names(name, names.iter().copied());
            let hint = if close.is_empty() { String::new() } else { format!("; close names: {}", close.join(", ")) };
            Err(anyhow!("no view named '{name}' (views: {}){hint}", names.join(", ")))
        }
    }
}

/// Renders `doc` as `request` asks, on `ctx`.
pub fn render_document(ctx: &GpuContext, doc: &Document, request: &SceneRequest) -> Result<RenderedImage> {
    let poses = poses_for(doc, &request.joint_rotations, &request.displacer_weights)?;
    render_posed(ctx, doc, request, &poses)
}

/// Renders `doc` at `poses` (one per humanoid; `request`'s joint rotations and displacer weights are not
/// applied again).
pub fn render_posed(ctx: &GpuContext, doc: &Document, request: &SceneRequest, poses: &[Pose]) -> Result<RenderedImage> {
    if doc.humanoids.is_empty() {
        bail!("{}: the file has no HAnimHumanoid to render", doc.scene.main_path().display());
    }
    let aspect = request.size.width as f32 / request.size.height as f32;
    let bounds = scene_bounds(doc, poses)?;
    let camera = camera_for(doc, poses, &bounds, &request.view, aspect)?;
    let mut renderer = PosedRenderer::new(ctx, doc, request)?;
    renderer.render(ctx, doc, poses, &camera, &bounds)
}

/// The GPU side of rendering one document, built once and then re-posed for each image: render passes,
/// offscreen target, each humanoid's skin pass and draws. A motion sequence renders all its frames with
/// one of these. `render` takes the document it was built from (or a copy whose humanoid transforms
/// differ, as clips may set them).
pub struct PosedRenderer {
    renderer: HumanoidRenderer,
    overlay_renderer: OverlayRenderer,
    target: RenderTarget,
    frame: render_pass::FrameUniform,
    overlay_buffers: OverlayBuffers,
    humanoids: Vec<PreparedHumanoid>,
    size: ImageSize,
    background: [f32; 3],
    show_skeleton: bool,
    show_grid: bool,
}

/// One humanoid's GPU resources; `skin` is `None` when it has nothing to draw (its skeleton is drawn).
struct PreparedHumanoid {
    skin: Option<GpuSkin>,
    skin_draw: Option<MeshDraw>,
    /// Rigid draws and the joint each moves with.
    rigid: Vec<(MeshDraw, Option<usize>)>,
}

impl PosedRenderer {
    pub fn new(ctx: &GpuContext, doc: &Document, request: &SceneRequest) -> Result<Self> {
        if doc.humanoids.is_empty() {
            bail!("{}: the file has no HAnimHumanoid to render", doc.scene.main_path().display());
        }
        let ImageSize { width, height } = request.size;
        let formats = TargetFormats::HEADLESS;
        let renderer = HumanoidRenderer::new(&ctx.device, formats)?;
        let overlay_renderer = OverlayRenderer::new(&ctx.device, formats, renderer.frame_layout())?;
        let target = RenderTarget::new(ctx, width, height, formats)?;
        let frame = renderer.create_frame(&ctx.device);
        let humanoids =
            doc.humanoids.iter().map(|h| prepare_humanoid(ctx, doc, h, &renderer)).collect::<Result<Vec<_>>>()?;
        Ok(Self {
            overlay_buffers: OverlayBuffers::new(&ctx.device),
            renderer,
            overlay_renderer,
            target,
            frame,
            humanoids,
            size: request.size,
            background: doc.settings.background.unwrap_or(NEUTRAL_GREY),
            show_skeleton: request.show_skeleton,
            show_grid: request.show_grid,
        })
    }

    /// Renders `doc` at `poses` (one per humanoid) seen by `camera`; `bounds` sizes the skeleton marks
    /// and the grid.
    pub fn render(
        &mut self,
        ctx: &GpuContext,
        doc: &Document,
        poses: &[Pose],
        camera: &Camera,
        bounds: &Aabb,
    ) -> Result<RenderedImage> {
        let ImageSize { width, height } = self.size;
        let aspect = width as f32 / height as f32;
        self.frame.write(&ctx.queue, &camera.frame_uniform(aspect));
        let mut lines = OverlayLines::default();
        let cross = usable_box(bounds).size().max_element() * 0.012;
        for ((h, pose), prepared) in doc.humanoids.iter().zip(poses).zip(&self.humanoids) {
            let drawn = prepared.pose(ctx, h, pose);
            if self.show_skeleton || !drawn {
                overlay::push_skeleton(&mut lines.skeleton, h, pose, cross);
            }
        }
        if self.show_grid {
            overlay::push_grid(&mut lines.grid, bounds);
        }
        self.overlay_buffers.update(&ctx.device, &ctx.queue, &lines);

        let mut encoder =
            ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("headless::encoder") });
        for skin in self.humanoids.iter().filter_map(|p| p.skin.as_ref()) {
            skin.encode(&mut encoder);
        }
        {
            let [r, g, b] = self.background.map(|c| f64::from(linear_from_srgb(c)));
            let clear = wgpu::Color { r, g, b, a: 1.0 };
            let mut pass = render_pass::begin_scene_pass(&mut encoder, self.target.views(), clear);
            let draw_refs: Vec<&MeshDraw> =
                self.humanoids.iter().flat_map(|p| p.skin_draw.iter().chain(p.rigid.iter().map(|(d, _)| d))).collect();
            self.renderer.draw(&mut pass, &self.frame, &draw_refs);
            self.overlay_renderer.draw(&mut pass, &self.frame, &self.overlay_buffers);
        }
        ctx.queue.submit([encoder.finish()]);
        let rgba = self.target.read_rgba8(ctx)?;
        ctx.check_health()?;
        Ok(RenderedImage { width, height, rgba, camera: *camera, bounds: *bounds, background: self.background })
    }
}

impl PreparedHumanoid {
    /// Uploads `pose` (skin pass) and places the draws with `H` and `H · G_j`; false when the humanoid has
    /// nothing to draw.
    fn pose(&self, ctx: &GpuContext, h: &Humanoid, pose: &Pose) -> bool {
        let Some(skin) = &self.skin else { return false };
        skin.update(&ctx.queue, h, pose);
        let world_from_humanoid = h.world_from_humanoid();
        if let Some(draw) = &self.skin_draw {
            draw.set_world_from_humanoid(&ctx.queue, world_from_humanoid);
        }
        let humanoid_from_joint = pose::humanoid_from_joint(h, pose);
        for (draw, joint) in &self.rigid {
            let joint = joint.and_then(|j| humanoid_from_joint.get(j)).copied().unwrap_or(Mat4::IDENTITY);
            draw.set_world_from_humanoid(&ctx.queue, world_from_humanoid * joint);
        }
        true
    }
}

/// Prepares the skin of `h` (mesh, GPU skin, draw data) and its rigid geometry (segments, joint
/// children, sites: one draw per Shape placed with `H · G_j`, morphing segments reading the skin pass's
/// segment points); without either, nothing, so that the caller shows its skeleton instead.
fn prepare_humanoid(
    ctx: &GpuContext,
    doc: &Document,
    h: &Humanoid,
    renderer: &HumanoidRenderer,
) -> Result<PreparedHumanoid> {
    let mesh = skin_mesh_from_humanoid(&doc.scene, h).with_context(|| format!("skin of humanoid '{}'", h.name))?;
    for note in &mesh.notes {
        log::warn!("humanoid '{}': {note}", h.name);
    }
    let mut notes = Vec::new();
    let mut rigid = Vec::new();
    for shape in rigid_shapes(&doc.scene, h).with_context(|| format!("segments of humanoid '{}'", h.name))? {
        if let Some(built) = render_mesh_from_rigid_shape(&doc.scene, h, &shape, &mut notes)?
            && !built.0.indices.is_empty()
        {
            rigid.push((shape, built));
        }
    }
    for note in &notes {
        log::warn!("humanoid '{}': {note}", h.name);
    }
    let skin_drawn = h.skin.is_some() && mesh.parts.iter().any(|p| !p.indices.is_empty());
    if !skin_drawn && rigid.is_empty() {
        log::warn!("humanoid '{}' has no skin or segment geometry to draw: drawing its skeleton", h.name);
        return Ok(PreparedHumanoid { skin: None, skin_draw: None, rigid: Vec::new() });
    }
    let (source_point, normals) = if skin_drawn { mesh.concatenated_corners() } else { (Vec::new(), Vec::new()) };
    let skin = GpuSkin::new(ctx, h, SkinCorners { source_point: &source_point, normals: &normals })?;
    let mut triangles = 0;
    let skin_draw = if skin_drawn {
        let draw = renderer.create_mesh(&ctx.device, &mesh, &skin)?;
        triangles += draw.triangle_count();
        Some(draw)
    } else {
        None
    };
    let mut rigid_draws = Vec::with_capacity(rigid.len());
    for (shape, (part, points)) in &rigid {
        let draw = match shape.morph_segment {
            Some(s) => renderer.create_rigid_mesh(&ctx.device, part, &skin.segment_points, skin.segment_offsets[s])?,
            None => {
                let buffer = renderer.create_points(&ctx.device, points);
                renderer.create_rigid_mesh(&ctx.device, part, &buffer, 0)?
            }
        };
        triangles += draw.triangle_count();
        rigid_draws.push((draw, shape.joint));
    }
    log::info!(
        "humanoid '{}': {} skin points, {} corners, {} rigid shapes, {triangles} triangles",
        h.name,
        skin.point_count,
        skin.corner_count,
        rigid.len()
    );
    Ok(PreparedHumanoid { skin: Some(skin), skin_draw, rigid: rigid_draws })
}

/// A process-wide counter so concurrent writers in one process never share a temporary name.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes an RGBA8 image as PNG to `path` atomically: the bytes go to a temporary file in the same
/// folder, which is synced and then renamed over `path`. On failure the temporary file is removed and
/// `path` is untouched.
pub fn write_png_atomically(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<()> {
    if rgba.len() != (width as usize) * (height as usize) * 4 {
        bail!("internal: {} bytes for a {width}x{height} RGBA image", rgba.len());
    }
    let mut bytes = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut bytes, width, height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
        let mut writer = encoder.write_header().context("encoding the PNG")?;
        writer.write_image_data(rgba).context("encoding the PNG")?;
        writer.finish().context("encoding the PNG")?;
    }
    let file_name = path.file_name().ok_or_else(|| anyhow!("'{}' is not a file path", path.display()))?;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let temp = dir.join(format!(
        ".{}.{}-{}.tmp",
        file_name.to_string_lossy(),
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| -> Result<()> {
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&temp)
            .with_context(|| format!("creating {}", temp.display()))?;
        file.write_all(&bytes).with_context(|| format!("writing {}", temp.display()))?;
        file.sync_all().with_context(|| format!("writing {}", temp.display()))?;
        drop(file);
        std::fs::rename(&temp, path).with_context(|| format!("renaming {} to {}", temp.display(), path.display()))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// `hanim-viewer render`: load, render, write the PNG.
pub fn run(args: &RenderArgs) -> Result<()> {
    let doc = crate::hanim::load(&args.file)?;
    for warning in &doc.warnings {
        log::info!("{warning}");
    }
    let ctx = GpuContext::headless(args.adapter.as_deref())?;
    log::info!("rendering on {}", ctx.summary);
    if args.motion.motion.is_some() {
        return crate::animation::sequence::run(&ctx, &doc, args);
    }
    let out = args.out.as_deref().ok_or_else(|| anyhow!("--out is required without --motion ... --out-dir"))?;
    let request = SceneRequest {
        size: args.size,
        view: args.view.clone().map_or(ViewRequest::Auto, ViewRequest::Named),
        joint_rotations: args.poses.clone(),
        displacer_weights: args.displacers.clone(),
        show_skeleton: args.skeleton,
        show_grid: args.grid,
    };
    let image = render_document(&ctx, &doc, &request)?;
    write_png_atomically(out, image.width, image.height, &image.rgba)?;
    log::info!("wrote {}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_parse_and_reject_bad_input() {
        assert_eq!(parse_size("256x128"), Ok(ImageSize { width: 256, height: 128 }));
        assert!(parse_size("0x10").is_err() && parse_size("12").is_err() && parse_size("axb").is_err());
        let r = parse_joint_rotation("l_shoulder=0,0,2,1.5").unwrap();
        assert_eq!((r.joint.as_str(), r.axis, r.angle), ("l_shoulder", Vec3::Z, 1.5));
        assert!(parse_joint_rotation("l_shoulder=0,0,0,1").unwrap_err().contains("axis"));
        assert!(parse_joint_rotation("l_shoulder=0,0,1").is_err());
        assert!(parse_joint_rotation("l_shoulder").is_err());
        assert_eq!(parse_displacer_weight("smile=0.5").unwrap().weight, 0.5);
        assert!(parse_displacer_weight("smile=x").is_err());
    }

    #[test]
    fn close_names_prefer_near_matches() {
        let names = ["l_shoulder", "r_shoulder", "l_elbow", "skullbase"];
        assert_eq!(close_names("l_sholder", names), vec!["l_shoulder", "r_shoulder"]);
        assert_eq!(close_names("shoulder", names)[..2], ["l_shoulder", "r_shoulder"]);
        assert!(close_names("xyz", names).is_empty());
    }

    #[test]
    fn standard_views_sit_where_the_semantics_note_puts_them() {
        let mut bounds = Aabb::default();
        bounds.add(Vec3::new(-0.5, 0.0, -0.2));
        bounds.add(Vec3::new(0.5, 1.8, 0.2));
        let m = bounds.center();
        for (view, direction) in [
            (StandardView::Front, Vec3::Z),
            (StandardView::Side, Vec3::X),
            (StandardView::Top, Vec3::Y),
            (StandardView::Inclined, Vec3::ONE.normalize()),
        ] {
            let camera = framed_camera(&bounds, view.orientation(), DEFAULT_FIELD_OF_VIEW, 1.5);
            let offset = (camera.position() - m).normalize();
            assert!(offset.abs_diff_eq(direction, 1e-4), "{view:?}: {offset}");
            assert!(camera.forward().abs_diff_eq(-direction, 1e-4), "{view:?} looks at the centre");
            // Every corner projects inside the image, and the box fills it to within the margin.
            let (mut min_x, mut max_x, mut min_y, mut max_y) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
            for c in corners_of(&bounds) {
                let (x, y) = camera.project_to_pixel(c, 300, 200).unwrap();
                assert!((0.0..=300.0).contains(&x) && (0.0..=200.0).contains(&y), "{view:?}: {x},{y}");
                (min_x, max_x, min_y, max_y) = (min_x.min(x), max_x.max(x), min_y.min(y), max_y.max(y));
            }
            let fill = ((max_x - min_x) / 300.0).max((max_y - min_y) / 200.0);
            assert!(fill > 0.85 && fill < 0.95, "{view:?} fills {fill}");
        }
    }

    #[test]
    fn png_is_written_atomically() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shot.png");
        let rgba: Vec<u8> = (0..2 * 3 * 4).map(|i| i as u8).collect();
        write_png_atomically(&path, 2, 3, &rgba).unwrap();
        let entries: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(entries, vec![std::ffi::OsString::from("shot.png")]);
        let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (2, 3));
        assert_eq!(&buf[..info.buffer_size()], &rgba[..]);
        // A folder that does not exist: an error, and nothing left behind.
        assert!(write_png_atomically(&dir.path().join("missing/shot.png"), 2, 3, &rgba).is_err());
    }
}
