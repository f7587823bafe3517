//! Offscreen rendering of a document: pose its humanoids, deform them on the GPU, draw them into an
//! offscreen target with the same passes the window uses, and read the image back (the `render`,
//! `catalog` and `motion` commands, tests and benches).
//!
//! Camera: a file Viewpoint (by description or DEF) or a standard view (semantics note §5) framing the
//! humanoids' bounding box at the rendered pose. Background: the file's Background dome, else black
//! (X3D's default sky) in the standard lighting model and grey in the studio look.

use glam::Quat;

use super::RenderError;
use crate::gpu::GpuContext;
use crate::gpu::lighting::Lighting;
use crate::gpu::overlay::{self, OverlayLines};
use crate::gpu::scene_draw::SceneDraw;
use crate::gpu::scene_renderer::{FrameInputs, SceneRenderer};
use crate::gpu::target::{RenderTarget, TargetFormats};
use crate::hanim::{Background, Document};
use crate::pose::bounds::{Aabb, humanoid_bounds};
use crate::pose::skin_inspection::{OverlayMode, OverlaySet, joints_named};
use crate::pose::{DisplacerWeight, JointRotation, Pose, poses_for};
use crate::views;
use crate::views::Camera;

/// The size of an image in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageSize {
    pub width: u32,
    pub height: u32,
}

/// The studio look's background when the file has none (sRGB).
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
    /// X3D's lighting equations (the default) or the studio look.
    pub lighting: Lighting,
    /// A humanoid with no geometry at all gets its skeleton drawn, so that the picture shows something
    /// (on by default; off where the picture is to show only what the file draws, `--play-as-file`).
    pub skeleton_aid: bool,
    /// Skin inspection: a colouring of the surfaces instead of their materials, joint axes, Sites.
    pub overlay: OverlaySet,
}

impl SceneRequest {
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            size: ImageSize { width, height },
            view: ViewRequest::Auto,
            joint_rotations: Vec::new(),
            displacer_weights: Vec::new(),
            show_skeleton: false,
            skeleton_aid: true,
            show_grid: false,
            poses: None,
            show_scene: true,
            only_humanoid: None,
            lighting: Lighting::Standard,
            overlay: OverlaySet::default(),
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
    /// The background's zenith colour (sRGB, as in the file): the whole background unless the file's
    /// Background has several sky colours or a ground.
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

/// World bounds of every humanoid at its pose.
pub fn scene_bounds(doc: &Document, poses: &[Pose]) -> Result<Aabb, RenderError> {
    let mut bounds = Aabb::default();
    for (h, pose) in doc.humanoids.iter().zip(poses) {
        let b = humanoid_bounds(&doc.scene, h, pose)
            .map_err(|error| RenderError::Bounds { humanoid: h.name.clone(), error })?;
        if !b.is_empty() {
            bounds.add(b.min);
            bounds.add(b.max);
        }
    }
    Ok(bounds)
}

/// The camera for `view`: this camera, the front view of `bounds`, or the named view ([`views::named_camera`]).
pub fn camera_for(
    doc: &Document,
    poses: &[Pose],
    bounds: &Aabb,
    view: &ViewRequest,
    aspect: f32,
) -> Result<Camera, RenderError> {
    let name = match view {
        ViewRequest::Camera(camera) => return Ok(*camera),
        ViewRequest::Auto => {
            return Ok(views::framed_camera(bounds, Quat::IDENTITY, views::DEFAULT_FIELD_OF_VIEW, aspect));
        }
        ViewRequest::Named(name) => name,
    };
    Ok(views::named_camera(doc, poses, bounds, name, aspect)?)
}

/// Renders `doc` as `request` asks, on `ctx`. The auto and standard views frame the humanoids and (with
/// `show_scene`) the scene's other Shapes.
pub fn render_document(ctx: &GpuContext, doc: &Document, request: &SceneRequest) -> Result<RenderedImage, RenderError> {
    let poses = match &request.poses {
        Some(poses) if poses.len() == doc.humanoids.len() => poses.clone(),
        Some(poses) => {
            let message = format!("internal: {} poses for {} humanoids", poses.len(), doc.humanoids.len());
            return Err(RenderError::Request(message));
        }
        None => poses_for(doc, &request.joint_rotations, &request.displacer_weights)?,
    };
    render_posed(ctx, doc, request, &poses)
}

/// Renders `doc` at `poses` (one per humanoid; `request`'s joint rotations and displacer weights are not
/// applied again).
pub fn render_posed(
    ctx: &GpuContext,
    doc: &Document,
    request: &SceneRequest,
    poses: &[Pose],
) -> Result<RenderedImage, RenderError> {
    let aspect = request.size.width as f32 / request.size.height as f32;
    let mut renderer = PosedRenderer::new(ctx, doc, request, poses)?;
    let bounds = renderer.framing_bounds(doc, poses)?;
    let camera = camera_for(doc, poses, &bounds, &request.view, aspect)?;
    // Billboards and LOD levels follow this picture's camera (X3D 4.0 10.4.1, 10.4.3).
    if crate::x3d::grouping::depends_on_the_viewer(&doc.scene) {
        let (_, orientation, position) = camera.world_from_camera.to_scale_rotation_translation();
        let viewer = Some(crate::animation::events::ViewerPose { position, orientation });
        let empty = crate::animation::events::Overrides::default();
        let placed =
            crate::animation::events::place_scene_seen_from(doc, &empty, viewer).map_err(RenderError::Placement)?;
        renderer.place_scene_shapes(ctx, &placed.shapes);
    }
    renderer.render(ctx, doc, poses, &camera, &bounds)
}

/// What an image shows besides the figures' surfaces: overlays, the scene's other Shapes, one humanoid
/// alone. Chosen per image (a catalogue changes it from humanoid to humanoid of one file).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DisplayOptions {
    pub show_skeleton: bool,
    /// The skeleton of a humanoid without geometry ([`SceneRequest::skeleton_aid`]).
    pub skeleton_aid: bool,
    pub show_grid: bool,
    pub show_scene: bool,
    pub only_humanoid: Option<usize>,
    pub lighting: Lighting,
    /// The skin overlay colouring the surfaces (its values set with [`DocumentDraw::set_overlay`]).
    pub overlay: OverlayMode,
    pub show_joint_axes: bool,
    pub show_sites: bool,
}

impl SceneRequest {
    pub fn display(&self) -> DisplayOptions {
        DisplayOptions {
            show_skeleton: self.show_skeleton,
            skeleton_aid: self.skeleton_aid,
            show_grid: self.show_grid,
            show_scene: self.show_scene,
            only_humanoid: self.only_humanoid,
            lighting: self.lighting,
            overlay: self.overlay.mode,
            show_joint_axes: self.overlay.axes,
            show_sites: self.overlay.sites,
        }
    }
}

/// An offscreen target of one size with the scene renderer that draws into it: built once and reused for
/// every image of that size (a catalogue renders all its files and views with one).
pub struct Offscreen {
    renderer: SceneRenderer,
    target: RenderTarget,
    size: ImageSize,
}

impl Offscreen {
    pub fn new(ctx: &GpuContext, size: ImageSize) -> Result<Self, RenderError> {
        let formats = TargetFormats::HEADLESS;
        Ok(Self {
            renderer: SceneRenderer::new(ctx, formats)?,
            target: RenderTarget::new(ctx, size.width, size.height, formats)?,
            size,
        })
    }

    pub fn size(&self) -> ImageSize {
        self.size
    }

    /// Renders `doc` at `poses` (one per humanoid, already written into `draw` by this call) seen by
    /// `camera`; `bounds` sizes the skeleton marks and the grid.
    #[allow(clippy::too_many_arguments)]
    pub fn render(
        &mut self,
        ctx: &GpuContext,
        draw: &mut DocumentDraw,
        doc: &Document,
        poses: &[Pose],
        camera: &Camera,
        bounds: &Aabb,
        display: DisplayOptions,
    ) -> Result<RenderedImage, RenderError> {
        let ImageSize { width, height } = self.size;
        // The camera's planes were chosen around what it frames; geometry between the viewer and the
        // figure (a marker, a prop, a HUD) must still be drawn, as far in as the file's NavigationInfo
        // lets the viewer come (see `SceneSettings::near_clip_distance`).
        // The depth buffer keeps a far/near ratio of at most 10^5 (precision for files in millimetres).
        let near_limit = doc.settings.near_clip_distance().max(camera.far * 1e-5);
        let camera = &Camera { near: camera.near.min(near_limit), ..*camera };
        let mut lines = OverlayLines::default();
        let cross = views::usable_box(bounds).size().max_element() * 0.012;
        let held: Vec<&Pose> = poses.iter().collect();
        let placed: Vec<_> = doc.humanoids.iter().zip(poses).map(|(h, pose)| pose.world_from_humanoid(h)).collect();
        draw.scene.update_humanoids(&ctx.queue, doc, &held, &placed);
        draw.scene.show_only(display.only_humanoid);
        for (index, (h, pose)) in doc.humanoids.iter().zip(poses).enumerate() {
            let drawn = draw.scene.has_geometry(index);
            let shown = display.only_humanoid.is_none_or(|only| only == index);
            if shown && (display.show_skeleton || (display.skeleton_aid && !drawn)) {
                overlay::push_skeleton(&mut lines.skeleton, h, pose, cross);
            }
            if shown && display.show_joint_axes {
                overlay::push_joint_axes(&mut lines.skeleton, h, pose, cross * 3.0);
            }
            if shown && display.show_sites {
                overlay::push_sites(&mut lines.skeleton, h, pose, cross * 0.8);
            }
        }
        if display.show_grid {
            overlay::push_grid(&mut lines.grid, bounds);
        }
        let draws = match (display.only_humanoid, display.show_scene) {
            (Some(only), _) => draw.scene.draws_of_humanoid(only),
            (None, true) => draw.scene.draws(),
            (None, false) => draw.scene.humanoid_draws(),
        };
        let background = draw
            .background
            .clone()
            .unwrap_or_else(|| Background::uniform(display.lighting.default_background(NEUTRAL_GREY)));
        let inputs = FrameInputs {
            camera,
            aspect: width as f32 / height as f32,
            settings: Some(&doc.settings),
            lighting: display.lighting,
            background: &background,
            draws: &draws,
            lines: &lines,
            overlay: display.overlay,
            timer: None,
            transparent: false,
        };
        let mut encoder =
            ctx.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("offscreen::encoder") });
        self.renderer.encode(ctx, &mut encoder, self.target.views(), Some(&draw.scene), &inputs);
        ctx.queue.submit([encoder.finish()]);
        let rgba = self.target.read_rgba8(ctx)?;
        ctx.check_health()?;
        Ok(RenderedImage {
            width,
            height,
            rgba,
            camera: *camera,
            bounds: *bounds,
            background: background.zenith(),
            notes: draw.scene.notes.clone(),
        })
    }
}

/// One document's GPU draw data (each humanoid's skin pass, skin and rigid draws, the other Shapes) and
/// its background: built once per document, then re-posed for each image.
pub struct DocumentDraw {
    scene: SceneDraw,
    background: Option<Background>,
}

impl DocumentDraw {
    /// Builds the draws of `doc`, first posed at `poses`, for `offscreen`'s renderer.
    pub fn new(ctx: &GpuContext, offscreen: &Offscreen, doc: &Document, poses: &[Pose]) -> Result<Self, RenderError> {
        if doc.humanoids.is_empty() {
            let file = doc.scene.main_path().display();
            return Err(RenderError::Request(format!("{file}: the file has no HAnimHumanoid to render")));
        }
        let scene = SceneDraw::new(ctx, offscreen.renderer.mesh_pipelines(), doc, poses)?;
        log::info!("{} triangles", scene.triangles);
        Ok(Self { scene, background: doc.settings.background.clone() })
    }

    /// Computes the skin overlay of `overlay` for the next images (see [`SceneDraw::set_overlay`]): the
    /// heatmap's joint is looked up by name in every humanoid (an error when none has it).
    pub fn set_overlay(&mut self, ctx: &GpuContext, doc: &Document, overlay: &OverlaySet) -> Result<(), RenderError> {
        let selected = match &overlay.joint {
            Some(name) => joints_named(doc, name)?,
            None => Vec::new(),
        };
        if overlay.mode == OverlayMode::Heatmap && overlay.joint.is_none() {
            return Err(RenderError::Request("the heatmap overlay needs a joint (heatmap:JOINT)".into()));
        }
        self.scene.set_overlay(&ctx.queue, overlay.mode, &selected);
        Ok(())
    }

    /// Places the scene's other Shapes for the next image (see [`SceneDraw::place_scene_shapes`]).
    pub fn place_scene_shapes(&mut self, ctx: &GpuContext, placements: &[Option<glam::Mat4>]) {
        self.scene.place_scene_shapes(&ctx.queue, placements);
    }

    /// Draws what `overrides` write into Materials and TextureTransforms (see
    /// [`SceneDraw::apply_appearance`]); returns how many material uniforms were written.
    pub fn apply_appearance(
        &mut self,
        ctx: &GpuContext,
        doc: &Document,
        overrides: &crate::animation::events::Overrides,
    ) -> usize {
        self.scene.apply_appearance(&ctx.queue, &doc.scene, overrides)
    }

    /// Draws what `overrides` write into Coordinate, Normal, Color and TextureCoordinate nodes (see
    /// [`SceneDraw::apply_geometry`]); returns the buffer writes.
    pub fn apply_geometry(
        &mut self,
        ctx: &GpuContext,
        doc: &Document,
        overrides: &crate::animation::events::Overrides,
    ) -> crate::gpu::geometry_events::GeometryUploads {
        self.scene.apply_geometry(&ctx.queue, doc, overrides)
    }

    /// Every buffer write events have caused in these draws so far.
    pub fn geometry_uploads(&self) -> crate::gpu::geometry_events::GeometryUploads {
        self.scene.geometry_uploads()
    }

    /// What the automatic and standard views frame at `poses`: the figures (each humanoid's body,
    /// without camera-site markers or far-away site geometry, [`views::figure_bounds`]). The scene's
    /// other Shapes — floors, props, HUD panels — are drawn but not framed, so the figure fills the
    /// picture; only a file whose humanoids draw nothing frames those instead.
    pub fn framing_bounds(&self, doc: &Document, poses: &[Pose], show_scene: bool) -> Result<Aabb, RenderError> {
        let mut bounds = Aabb::default();
        for ((index, _), pose) in doc.indexed_humanoids().zip(poses) {
            let b = views::figure_bounds(doc, index, pose)?;
            if !b.is_empty() {
                bounds.add(b.min);
                bounds.add(b.max);
            }
        }
        if bounds.is_empty() {
            bounds = scene_bounds(doc, poses)?;
        }
        if bounds.is_empty() && show_scene && !self.scene.scene_bounds.is_empty() {
            bounds = self.scene.scene_bounds;
        }
        Ok(bounds)
    }
}

/// What a run of images (a clip's frames, a turntable) is drawn with: the figures' framing box at a
/// pose, and an image of them at a pose from a camera. [`PosedRenderer`] owns its GPU objects;
/// [`LentRenderer`] borrows a catalogue's, so one set serves a whole run.
pub trait PoseRenderer {
    /// What the automatic and standard views frame at `poses`: with `only_humanoid`, that humanoid's
    /// figure alone (the others are not drawn).
    fn framing_bounds(&self, doc: &Document, poses: &[Pose]) -> Result<Aabb, RenderError>;
    /// Renders `doc` at `poses` (one per humanoid) seen by `camera`.
    fn render(
        &mut self,
        ctx: &GpuContext,
        doc: &Document,
        poses: &[Pose],
        camera: &Camera,
        bounds: &Aabb,
    ) -> Result<RenderedImage, RenderError>;
}

/// The framing box of `draw`'s document at `poses` for `display`.
fn framing_for(
    draw: &DocumentDraw,
    display: &DisplayOptions,
    doc: &Document,
    poses: &[Pose],
) -> Result<Aabb, RenderError> {
    if let Some(only) = display.only_humanoid
        && let Some(pose) = poses.get(only)
    {
        let figure = views::figure_bounds(doc, crate::hanim::HumanoidIndex(only), pose)?;
        if !figure.is_empty() {
            return Ok(figure);
        }
    }
    draw.framing_bounds(doc, poses, display.show_scene)
}

/// Rendering one document at one size with one set of display choices, re-posed for each image: a motion
/// sequence renders all its frames with one of these. `render` takes the document it was built from (or
/// a copy whose humanoid transforms differ, as clips may set them).
pub struct PosedRenderer {
    offscreen: Offscreen,
    draw: DocumentDraw,
    display: DisplayOptions,
}

impl PosedRenderer {
    /// Builds everything for `doc`, first posed at `poses`.
    pub fn new(ctx: &GpuContext, doc: &Document, request: &SceneRequest, poses: &[Pose]) -> Result<Self, RenderError> {
        let offscreen = Offscreen::new(ctx, request.size)?;
        let mut draw = DocumentDraw::new(ctx, &offscreen, doc, poses)?;
        draw.set_overlay(ctx, doc, &request.overlay)?;
        Ok(Self { offscreen, draw, display: request.display() })
    }

    /// Places the scene's other Shapes for the next image: per-frame input, passed each frame.
    pub fn place_scene_shapes(&mut self, ctx: &GpuContext, placements: &[Option<glam::Mat4>]) {
        self.draw.place_scene_shapes(ctx, placements);
    }

    /// Draws what events wrote into Materials and TextureTransforms for the next image.
    pub fn apply_appearance(
        &mut self,
        ctx: &GpuContext,
        doc: &Document,
        overrides: &crate::animation::events::Overrides,
    ) -> usize {
        self.draw.apply_appearance(ctx, doc, overrides)
    }

    /// Draws what events wrote into the vertex nodes (Coordinate, Normal, Color, TextureCoordinate) for
    /// the next image; returns the buffer writes.
    pub fn apply_geometry(
        &mut self,
        ctx: &GpuContext,
        doc: &Document,
        overrides: &crate::animation::events::Overrides,
    ) -> crate::gpu::geometry_events::GeometryUploads {
        self.draw.apply_geometry(ctx, doc, overrides)
    }

    /// Every buffer write events have caused so far.
    pub fn geometry_uploads(&self) -> crate::gpu::geometry_events::GeometryUploads {
        self.draw.geometry_uploads()
    }
}

impl PoseRenderer for PosedRenderer {
    fn framing_bounds(&self, doc: &Document, poses: &[Pose]) -> Result<Aabb, RenderError> {
        framing_for(&self.draw, &self.display, doc, poses)
    }

    fn render(
        &mut self,
        ctx: &GpuContext,
        doc: &Document,
        poses: &[Pose],
        camera: &Camera,
        bounds: &Aabb,
    ) -> Result<RenderedImage, RenderError> {
        self.offscreen.render(ctx, &mut self.draw, doc, poses, camera, bounds, self.display)
    }
}

/// A target and a document's draws borrowed for a run of images: a catalogue renders every preview of a
/// file with the renderer and draws it made for the file's stills, instead of building pipelines, a
/// target and the file's draws again for every clip.
pub struct LentRenderer<'a> {
    pub offscreen: &'a mut Offscreen,
    pub draw: &'a mut DocumentDraw,
    pub display: DisplayOptions,
}

impl PoseRenderer for LentRenderer<'_> {
    fn framing_bounds(&self, doc: &Document, poses: &[Pose]) -> Result<Aabb, RenderError> {
        framing_for(self.draw, &self.display, doc, poses)
    }

    fn render(
        &mut self,
        ctx: &GpuContext,
        doc: &Document,
        poses: &[Pose],
        camera: &Camera,
        bounds: &Aabb,
    ) -> Result<RenderedImage, RenderError> {
        self.offscreen.render(ctx, self.draw, doc, poses, camera, bounds, self.display)
    }
}
