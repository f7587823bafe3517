//! The `render` command: load a file, pose its humanoids, deform them on the GPU, draw them offscreen
//! with the same passes the window uses, and write a PNG atomically.
//!
//! Camera: a file Viewpoint (by description or DEF) or a standard view (semantics note §5) framing the
//! humanoids' bounding box at the rendered pose. Background: the file's Background colour, else grey.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};
use glam::{Quat, Vec3};

use crate::gpu::GpuContext;
use crate::gpu::overlay::{self, OverlayBuffers, OverlayLines, OverlayRenderer};
use crate::gpu::render_pass::{self, GpuFrame, HumanoidRenderer, linear_from_srgb};
use crate::gpu::scene_draw::SceneDraw;
use crate::gpu::target::{RenderTarget, TargetFormats};
use crate::hanim::Document;
use crate::pose::Pose;
use crate::pose::bounds::{Aabb, humanoid_bounds};
use crate::views;
use crate::views::Camera;

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
    /// `front`, `side`, `top`, `inclined`, `face`, or the description or DEF name of a viewpoint in the
    /// file (see the `views` command). Default: front, framing the whole humanoid.
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

/// Background when the file has none (sRGB).
pub const NEUTRAL_GREY: [f32; 3] = [0.4, 0.4, 0.4];

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
    /// One pose per humanoid, used instead of the rest pose with `joint_rotations` and
    /// `displacer_weights` (the catalogue passes the pose it frames).
    pub poses: Option<Vec<Pose>>,
    /// Draw the file's Shapes outside the humanoids (floors, props) and frame them in the automatic view.
    pub show_scene: bool,
    /// Draw this humanoid alone (the catalogue's images of one humanoid of a file with several).
    pub only_humanoid: Option<usize>,
}

impl SceneRequest {
    /// What `render`'s arguments ask for: size, view, joint rotations, displacer weights, overlays.
    pub fn from_args(args: &RenderArgs) -> Self {
        Self {
            size: args.size,
            view: args.view.clone().map_or(ViewRequest::Auto, ViewRequest::Named),
            joint_rotations: args.poses.clone(),
            displacer_weights: args.displacers.clone(),
            show_skeleton: args.skeleton,
            show_grid: args.grid,
            poses: None,
            show_scene: true,
            only_humanoid: None,
        }
    }

    pub fn new(width: u32, height: u32) -> Self {
        Self {
            size: ImageSize { width, height },
            view: ViewRequest::Auto,
            joint_rotations: Vec::new(),
            displacer_weights: Vec::new(),
            show_skeleton: false,
            show_grid: false,
            poses: None,
            show_scene: true,
            only_humanoid: None,
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
    /// What was skipped or approximated (missing textures, unsupported nodes), one line each.
    pub notes: Vec<String>,
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

    /// Whether pixel `(x, y)` differs from the clear colour by more than `tolerance` in some channel
    /// (something was drawn there).
    pub fn is_foreground(&self, x: u32, y: u32, tolerance: u8) -> bool {
        let (background, pixel) = (self.background_rgba8(), self.pixel(x, y));
        (0..3).any(|c| pixel[c].abs_diff(background[c]) > tolerance)
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

/// The camera for `view`: this camera, the front view of `bounds`, or the named view ([`views::named_camera`]).
pub fn camera_for(doc: &Document, poses: &[Pose], bounds: &Aabb, view: &ViewRequest, aspect: f32) -> Result<Camera> {
    let name = match view {
        ViewRequest::Camera(camera) => return Ok(*camera),
        ViewRequest::Auto => {
            return Ok(views::framed_camera(bounds, Quat::IDENTITY, views::DEFAULT_FIELD_OF_VIEW, aspect));
        }
        ViewRequest::Named(name) => name,
    };
    views::named_camera(doc, poses, bounds, name, aspect)
}

/// Renders `doc` as `request` asks, on `ctx`. The auto and standard views frame the humanoids and (with
/// `show_scene`) the scene's other Shapes.
pub fn render_document(ctx: &GpuContext, doc: &Document, request: &SceneRequest) -> Result<RenderedImage> {
    let poses = match &request.poses {
        Some(poses) if poses.len() == doc.humanoids.len() => poses.clone(),
        Some(poses) => bail!("internal: {} poses for {} humanoids", poses.len(), doc.humanoids.len()),
        None => poses_for(doc, &request.joint_rotations, &request.displacer_weights)?,
    };
    render_posed(ctx, doc, request, &poses)
}

/// Renders `doc` at `poses` (one per humanoid; `request`'s joint rotations and displacer weights are not
/// applied again).
pub fn render_posed(ctx: &GpuContext, doc: &Document, request: &SceneRequest, poses: &[Pose]) -> Result<RenderedImage> {
    let aspect = request.size.width as f32 / request.size.height as f32;
    let mut renderer = PosedRenderer::new(ctx, doc, request, poses)?;
    let bounds = renderer.framing_bounds(doc, poses)?;
    let camera = camera_for(doc, poses, &bounds, &request.view, aspect)?;
    renderer.render(ctx, doc, poses, &camera, &bounds)
}

/// The GPU side of rendering one document, built once and then re-posed for each image: render passes,
/// offscreen target and the scene's draws (each humanoid's skin pass, skin and rigid draws, the other
/// Shapes). A motion sequence renders all its frames with one of these. `render` takes the document it
/// was built from (or a copy whose humanoid transforms differ, as clips may set them).
pub struct PosedRenderer {
    renderer: HumanoidRenderer,
    overlay_renderer: OverlayRenderer,
    target: RenderTarget,
    frame: render_pass::FrameUniform,
    overlay_buffers: OverlayBuffers,
    scene_draw: SceneDraw,
    size: ImageSize,
    background: [f32; 3],
    show_skeleton: bool,
    show_grid: bool,
    show_scene: bool,
    only_humanoid: Option<usize>,
}

impl PosedRenderer {
    /// Builds everything for `doc`, first posed at `poses`.
    pub fn new(ctx: &GpuContext, doc: &Document, request: &SceneRequest, poses: &[Pose]) -> Result<Self> {
        if doc.humanoids.is_empty() {
            bail!("{}: the file has no HAnimHumanoid to render", doc.scene.main_path().display());
        }
        let ImageSize { width, height } = request.size;
        let formats = TargetFormats::HEADLESS;
        let renderer = HumanoidRenderer::new(&ctx.device, formats)?;
        let overlay_renderer = OverlayRenderer::new(&ctx.device, formats, renderer.frame_layout())?;
        let target = RenderTarget::new(ctx, width, height, formats)?;
        let frame = renderer.create_frame(&ctx.device);
        let scene_draw = SceneDraw::new(ctx, &renderer, doc, poses)?;
        log::info!("{} triangles", scene_draw.triangles);
        Ok(Self {
            overlay_buffers: OverlayBuffers::new(&ctx.device),
            renderer,
            overlay_renderer,
            target,
            frame,
            scene_draw,
            size: request.size,
            background: doc.settings.background.unwrap_or(NEUTRAL_GREY),
            show_skeleton: request.show_skeleton,
            show_grid: request.show_grid,
            show_scene: request.show_scene,
            only_humanoid: request.only_humanoid,
        })
    }

    /// What the automatic and standard views frame at `poses`: the humanoids, and the scene's other
    /// Shapes when they are drawn.
    pub fn framing_bounds(&self, doc: &Document, poses: &[Pose]) -> Result<Aabb> {
        let mut bounds = scene_bounds(doc, poses)?;
        if self.show_scene && !self.scene_draw.scene_bounds.is_empty() {
            bounds.add(self.scene_draw.scene_bounds.min);
            bounds.add(self.scene_draw.scene_bounds.max);
        }
        Ok(bounds)
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
        self.frame.write(&ctx.queue, &GpuFrame::lit(camera, aspect, &doc.settings));
        let mut lines = OverlayLines::default();
        let cross = views::usable_box(bounds).size().max_element() * 0.012;
        for (index, (h, pose)) in doc.humanoids.iter().zip(poses).enumerate() {
            self.scene_draw.update_humanoid_placed(&ctx.queue, index, h, pose, h.world_from_humanoid());
            let drawn = self.scene_draw.humanoids.get(index).is_some_and(|d| d.has_geometry());
            let shown = self.only_humanoid.is_none_or(|only| only == index);
            if shown && (self.show_skeleton || !drawn) {
                overlay::push_skeleton(&mut lines.skeleton, h, pose, cross);
            }
        }
        if self.show_grid {
            overlay::push_grid(&mut lines.grid, bounds);
        }
        self.overlay_buffers.update(&ctx.device, &ctx.queue, &lines);

        let mut encoder =
            ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("headless::encoder") });
        self.scene_draw.encode(&mut encoder);
        {
            let [r, g, b] = self.background.map(|c| f64::from(linear_from_srgb(c)));
            let clear = wgpu::Color { r, g, b, a: 1.0 };
            let mut pass = render_pass::begin_scene_pass(&mut encoder, self.target.views(), clear);
            let draws = match (self.only_humanoid, self.show_scene) {
                (Some(only), _) => self.scene_draw.draws_of_humanoid(only),
                (None, true) => self.scene_draw.draws(),
                (None, false) => self.scene_draw.humanoid_draws(),
            };
            self.renderer.draw(&mut pass, &self.frame, &draws, camera.position());
            self.overlay_renderer.draw(&mut pass, &self.frame, &self.overlay_buffers);
        }
        ctx.queue.submit([encoder.finish()]);
        let rgba = self.target.read_rgba8(ctx)?;
        ctx.check_health()?;
        Ok(RenderedImage {
            width,
            height,
            rgba,
            camera: *camera,
            bounds: *bounds,
            background: self.background,
            notes: self.scene_draw.notes.clone(),
        })
    }
}

/// Writes an RGBA8 image as PNG to `path` atomically (see [`crate::output`]).
pub fn write_png_atomically(path: &Path, width: u32, height: u32, rgba: &[u8]) -> Result<()> {
    crate::output::write_png_atomically(path, width, height, rgba)
}

/// `hanim-viewer render`: load, render, write the PNG.
pub fn run(args: &RenderArgs) -> Result<()> {
    // `--amc`/`--bvh`: the capture retargeted onto the humanoid plays as an HAnimMotion of the file.
    if let Some((doc, motion)) = crate::mocap::cli::document_with_capture(&args.file, &args.motion.capture)? {
        let ctx = GpuContext::headless(args.adapter.as_deref())?;
        let mut args = args.clone();
        args.motion.motion = Some(motion);
        return crate::animation::sequence::run(&ctx, &doc, &args);
    }
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
    let request = SceneRequest::from_args(args);
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
}
