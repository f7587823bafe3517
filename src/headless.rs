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
use crate::hanim::{Document, Humanoid};
use crate::inspect::bounds::{Aabb, humanoid_bounds};
use crate::mesh::{render_mesh_from_rigid_shape, rigid_shapes, skin_mesh_from_humanoid};
use crate::pose::{self, Pose};
use crate::views;

/// `hanim-viewer render` arguments.
#[derive(Debug, Clone, clap::Args)]
pub struct RenderArgs {
    /// The X3D file to render.
    pub file: PathBuf,
    /// Where to write the PNG (written to a temporary file beside it, then renamed).
    #[arg(long, value_name = "PNG")]
    pub out: PathBuf,
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
            poses: None,
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

/// Renders `doc` as `request` asks, on `ctx`.
pub fn render_document(ctx: &GpuContext, doc: &Document, request: &SceneRequest) -> Result<RenderedImage> {
    if doc.humanoids.is_empty() {
        bail!("{}: the file has no HAnimHumanoid to render", doc.scene.main_path().display());
    }
    let ImageSize { width, height } = request.size;
    let aspect = width as f32 / height as f32;
    let poses = match &request.poses {
        Some(poses) if poses.len() == doc.humanoids.len() => poses.clone(),
        Some(poses) => bail!("internal: {} poses for {} humanoids", poses.len(), doc.humanoids.len()),
        None => poses_for(doc, &request.joint_rotations, &request.displacer_weights)?,
    };
    let bounds = scene_bounds(doc, &poses)?;
    let camera = camera_for(doc, &poses, &bounds, &request.view, aspect)?;
    let background = doc.settings.background.unwrap_or(NEUTRAL_GREY);

    let formats = TargetFormats::HEADLESS;
    let renderer = HumanoidRenderer::new(&ctx.device, formats)?;
    let overlay_renderer = OverlayRenderer::new(&ctx.device, formats, renderer.frame_layout())?;
    let target = RenderTarget::new(ctx, width, height, formats)?;
    let frame = renderer.create_frame(&ctx.device);
    frame.write(&ctx.queue, &camera.frame_uniform(aspect));

    let mut skins: Vec<GpuSkin> = Vec::new();
    let mut draws: Vec<MeshDraw> = Vec::new();
    let mut lines = OverlayLines::default();
    let cross = views::usable_box(&bounds).size().max_element() * 0.012;
    for (h, pose) in doc.humanoids.iter().zip(&poses) {
        let drawn = draw_humanoid(ctx, doc, h, pose, &renderer, &mut skins, &mut draws)?;
        if request.show_skeleton || !drawn {
            overlay::push_skeleton(&mut lines.skeleton, h, pose, cross);
        }
    }
    if request.show_grid {
        overlay::push_grid(&mut lines.grid, &bounds);
    }
    let mut overlay_buffers = OverlayBuffers::new(&ctx.device);
    overlay_buffers.update(&ctx.device, &ctx.queue, &lines);

    let mut encoder =
        ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("headless::encoder") });
    for skin in &skins {
        skin.encode(&mut encoder);
    }
    {
        let [r, g, b] = background.map(|c| f64::from(linear_from_srgb(c)));
        let clear = wgpu::Color { r, g, b, a: 1.0 };
        let mut pass = render_pass::begin_scene_pass(&mut encoder, target.views(), clear);
        let draw_refs: Vec<&MeshDraw> = draws.iter().collect();
        renderer.draw(&mut pass, &frame, &draw_refs);
        overlay_renderer.draw(&mut pass, &frame, &overlay_buffers);
    }
    ctx.queue.submit([encoder.finish()]);
    let rgba = target.read_rgba8(ctx)?;
    ctx.check_health()?;
    Ok(RenderedImage { width, height, rgba, camera, bounds, background })
}

/// Prepares the skin of `h` (mesh, GPU skin at `pose`, draw data) and its rigid geometry (segments,
/// joint children, sites: one draw per Shape placed with `H · G_j`, morphing segments reading the skin
/// pass's segment points); false when it has nothing to draw, so that the caller shows its skeleton
/// instead.
fn draw_humanoid(
    ctx: &GpuContext,
    doc: &Document,
    h: &Humanoid,
    pose: &Pose,
    renderer: &HumanoidRenderer,
    skins: &mut Vec<GpuSkin>,
    draws: &mut Vec<MeshDraw>,
) -> Result<bool> {
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
        return Ok(false);
    }
    let (source_point, normals) = if skin_drawn { mesh.concatenated_corners() } else { (Vec::new(), Vec::new()) };
    let skin = GpuSkin::new(ctx, h, SkinCorners { source_point: &source_point, normals: &normals })?;
    skin.update(&ctx.queue, h, pose);
    let world_from_humanoid = h.world_from_humanoid();
    let mut triangles = 0;
    if skin_drawn {
        let draw = renderer.create_mesh(&ctx.device, &mesh, &skin)?;
        draw.set_world_from_humanoid(&ctx.queue, world_from_humanoid);
        triangles += draw.triangle_count();
        draws.push(draw);
    }
    let humanoid_from_joint = pose::humanoid_from_joint(h, pose);
    for (shape, (part, points)) in &rigid {
        let draw = match shape.morph_segment {
            Some(s) => renderer.create_rigid_mesh(&ctx.device, part, &skin.segment_points, skin.segment_offsets[s])?,
            None => {
                let buffer = renderer.create_points(&ctx.device, points);
                renderer.create_rigid_mesh(&ctx.device, part, &buffer, 0)?
            }
        };
        let joint = shape.joint.map_or(Mat4::IDENTITY, |j| humanoid_from_joint[j]);
        draw.set_world_from_humanoid(&ctx.queue, world_from_humanoid * joint);
        triangles += draw.triangle_count();
        draws.push(draw);
    }
    log::info!(
        "humanoid '{}': {} skin points, {} corners, {} rigid shapes, {triangles} triangles",
        h.name,
        skin.point_count,
        skin.corner_count,
        rigid.len()
    );
    skins.push(skin);
    Ok(true)
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
    write_file_atomically(path, &bytes)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same folder, synced, then renamed over
/// `path`. On failure the temporary file is removed and `path` is untouched.
pub fn write_file_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
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
        file.write_all(bytes).with_context(|| format!("writing {}", temp.display()))?;
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
    let request = SceneRequest {
        size: args.size,
        view: args.view.clone().map_or(ViewRequest::Auto, ViewRequest::Named),
        joint_rotations: args.poses.clone(),
        displacer_weights: args.displacers.clone(),
        show_skeleton: args.skeleton,
        show_grid: args.grid,
        poses: None,
    };
    let image = render_document(&ctx, &doc, &request)?;
    write_png_atomically(&args.out, image.width, image.height, &image.rgba)?;
    log::info!("wrote {}", args.out.display());
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
