//! The 3D view: camera input and joint picking, the view's target (sized to the central panel and shown
//! by egui as a texture), clip playback into the poses, this frame's camera, and recording the scene
//! passes for a camera.

use super::Viewer;
use super::ViewportTarget;
use crate::app::scene::overlay_lines;
use crate::app::surface::WindowSurface;
use crate::app::vertex_pick::pick_vertex;
use crate::app::viewport::SurfaceAttachments;
use crate::gpu::lighting::Lighting;
use crate::gpu::overlay::GpuLineVertex;
use crate::gpu::scene_renderer::FrameInputs;
use crate::gpu::target::{FrameViews, PixelRect, TargetFormats};
use crate::hanim::Background;
use crate::pose::skin_inspection::OverlayMode;
use crate::ui::{JointMark, UiCommand, ViewMarks, ViewportInput};
use crate::views::Camera;

/// The 3D view drawn straight into the surface through an sRGB view of it, under the UI, instead of into
/// a texture of its own that egui then copies: one full-view copy and its sampling less per frame.
pub(super) struct DirectView {
    /// The sRGB view format of the surface texture.
    pub format: wgpu::TextureFormat,
    /// Depth (and MSAA colour) the size of the surface; made at the first frame and on resizes.
    pub attachments: Option<SurfaceAttachments>,
    /// Where the 3D view is in the surface, in pixels.
    pub rect: PixelRect,
}

/// The 3D view's formats: the window's ([`ViewportTarget::formats_for`]) in the surface's sRGB view
/// format when the view is drawn straight into the surface.
pub(super) fn formats_for(gpu: &crate::gpu::GpuContext, surface: &WindowSurface) -> TargetFormats {
    let formats = ViewportTarget::formats_for(&gpu.adapter_info);
    match surface.srgb_view_format() {
        Some(color) => TargetFormats { color, ..formats },
        None => formats,
    }
}

/// The direct view for `surface`, when it has an sRGB view (placed at the first frame).
pub(super) fn direct_view(surface: &WindowSurface) -> Option<DirectView> {
    surface.srgb_view_format().map(|format| DirectView {
        format,
        attachments: None,
        rect: PixelRect { x: 0, y: 0, width: 1, height: 1 },
    })
}

/// What a drawing of the 3D view shows besides the scene.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct ViewLook {
    /// The grid, axes, skeleton and IK handles (as the View menu has them).
    pub overlays: bool,
    /// The background left transparent.
    pub transparent: bool,
}

impl ViewLook {
    /// The window's own view.
    pub const WINDOW: ViewLook = ViewLook { overlays: true, transparent: false };
}

/// Pick radius around a joint centre, in points.
const PICK_RADIUS: f32 = 14.0;
/// The studio look's background when the file has none (sRGB), a neutral grey-blue; the standard model's
/// is black (X3D's default skyColor).
const STUDIO_BACKGROUND: [f32; 3] = [0.2348, 0.2478, 0.2828];

impl Viewer {
    pub(super) fn camera_input(&mut self, input: &ViewportInput, pixels_per_point: f32) {
        if self.ik_input(input, pixels_per_point) {
            // The primary drag poses the figure; the camera only zooms meanwhile.
            self.camera.zoom_by(input.zoom);
            return;
        }
        self.camera.orbit_by(input.orbit.x, input.orbit.y);
        self.camera.pan_by(input.pan.x, input.pan.y, input.rect.height());
        self.camera.zoom_by(input.zoom);
        let Some((width, height)) = self.view_size() else { return };
        let (Some(click), Some(scene)) = (input.click, &mut self.scene) else {
            return;
        };
        let camera = self.camera.update(None, 0.0);
        let pixel = (click.x * pixels_per_point, click.y * pixels_per_point);
        // As the file says, a click on TouchSensor geometry is the file's (it starts what the file
        // routes from the sensor); elsewhere it picks a joint.
        if scene.has_touch_sensors() {
            // The camera the clicked picture was drawn with (a bound viewpoint is not the orbit camera).
            let drawn = self.last_camera.unwrap_or(camera);
            let (origin, dir) = drawn.pixel_ray(pixel.0, pixel.1, width, height);
            if scene.click(origin, dir).is_some_and(|hit| !hit.touches.is_empty()) {
                return;
            }
        }
        // With a skin colouring shown, a click on the skin picks the vertex under it (elsewhere, and on
        // segmented figures, it still picks a joint).
        if self.ui.skin_overlay != OverlayMode::Off {
            let drawn = self.last_camera.unwrap_or(camera);
            let (origin, dir) = drawn.pixel_ray(pixel.0, pixel.1, width, height);
            let (h, pose) = (&scene.doc.humanoids[scene.humanoid.0], &scene.editor.pose);
            if let Some(picked) = pick_vertex(&scene.doc.scene, h, pose, scene.world_from_humanoid, origin, dir) {
                self.ui.picked_vertex = Some(picked);
                return;
            }
        }
        // Pick the joint whose centre is nearest the click, within PICK_RADIUS.
        let nearest = scene
            .joint_centres()
            .iter()
            .enumerate()
            .filter_map(|(j, c)| {
                let (x, y) = camera.project_to_pixel(*c, width, height)?;
                Some((j, ((x - pixel.0).powi(2) + (y - pixel.1).powi(2)).sqrt()))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((j, d)) = nearest
            && d <= PICK_RADIUS * pixels_per_point
        {
            self.apply(UiCommand::SelectJoint(Some(crate::hanim::JointIndex(j))));
        }
    }

    /// Where the selected joint and its bones lie in the 3D view as `camera` drew it, in points, for the
    /// UI to mark over the picture; a change asks for one more frame, so the marks follow the picture.
    pub(super) fn update_view_marks(&mut self, camera: &Camera, pixels_per_point: f32) {
        let marks = self.view_marks(camera, pixels_per_point).unwrap_or_default();
        if marks != self.ui.view_marks {
            self.ui.view_marks = marks;
            self.next_repaint = Some(std::time::Instant::now());
        }
    }

    fn view_marks(&self, camera: &Camera, pixels_per_point: f32) -> Option<ViewMarks> {
        let (scene, (width, height)) = (self.scene.as_ref()?, self.view_size()?);
        let selected = self.ui.selected_joint?.0;
        let joint = scene.summary.joints.get(selected)?;
        let centres = scene.joint_centres();
        let to_points =
            |p: glam::Vec3| camera.project_to_pixel(p, width, height).map(|(x, y)| egui::vec2(x, y) / pixels_per_point);
        let centre = to_points(*centres.get(selected)?)?;
        let bone_ends = joint
            .parent
            .iter()
            .chain(&joint.children)
            .filter_map(|&k| centres.get(k).copied().and_then(to_points))
            .collect();
        Some(ViewMarks { selected: Some(JointMark { name: joint.name.clone(), centre, bone_ends }) })
    }

    /// Whether the view shown is a face or eye view (the skeleton is not drawn there).
    pub(super) fn face_or_eye_view(&self) -> bool {
        let (Some(index), Some(scene)) = (self.camera.fixed_view(), &self.scene) else { return false };
        scene.summary.views.get(index).is_some_and(|v| v.is_face_or_eye())
    }

    /// The 3D view's size in pixels (`None` before the first frame).
    pub(super) fn view_size(&self) -> Option<(u32, u32)> {
        match (&self.direct, &self.viewport) {
            (Some(direct), _) => Some((direct.rect.width, direct.rect.height)),
            (None, Some((target, _))) => Some((target.width(), target.height())),
            (None, None) => None,
        }
    }

    /// Places the directly drawn 3D view at `rect` (pixels, already inside the surface) and keeps its
    /// attachments the surface's size. Should they fail, the view is not drawn this frame (logged).
    pub(super) fn place_direct_view(&mut self, rect: PixelRect) -> bool {
        let (width, height) = (self.surface.config.width, self.surface.config.height);
        let formats = self.renderer.formats();
        let Some(direct) = &mut self.direct else { return false };
        direct.rect = rect;
        if direct.attachments.as_ref().is_some_and(|a| a.width == width && a.height == height) {
            return true;
        }
        match SurfaceAttachments::new(&self.gpu, formats, width, height) {
            Ok(attachments) => direct.attachments = Some(attachments),
            Err(e) => {
                log::error!("the 3D view's {width}x{height} attachments could not be made: {e}");
                direct.attachments = None;
            }
        }
        direct.attachments.is_some()
    }

    /// Makes the 3D view `width × height` pixels (within the adapter's texture limit), registering it with
    /// egui. Should the new target fail, the old one stays (and the error is logged).
    pub(super) fn ensure_viewport(&mut self, width: u32, height: u32) {
        let limit = self.gpu.device.limits().max_texture_dimension_2d;
        let (width, height) = (width.clamp(1, limit), height.clamp(1, limit));
        if self.viewport.as_ref().is_some_and(|(t, _)| t.width() == width && t.height() == height) {
            return;
        }
        let target = match ViewportTarget::new(&self.gpu, self.renderer.formats(), width, height) {
            Ok(target) => target,
            Err(e) => {
                log::error!("the 3D view could not be resized to {width}x{height}: {e}");
                return;
            }
        };
        match &mut self.viewport {
            Some((old, id)) => {
                *old = target;
                self.egui.renderer.update_egui_texture_from_wgpu_texture(
                    &self.gpu.device,
                    old.egui_view(),
                    wgpu::FilterMode::Linear,
                    *id,
                );
            }
            None => {
                let id = self.egui.renderer.register_native_texture(
                    &self.gpu.device,
                    target.egui_view(),
                    wgpu::FilterMode::Linear,
                );
                self.viewport = Some((target, id));
            }
        }
    }

    /// Advances the motion clock and samples the enabled clips into the pose (user offsets stay on top);
    /// the skin pass then re-deforms it like any other pose change.
    pub(super) fn play_motion(&mut self, dt: f64) {
        let Some(scene) = self.scene.as_mut() else { return };
        // ProximitySensors and Billboards see the camera last drawn (this frame's depends on the pose
        // sampled here).
        let viewer = self.last_camera.map(|c| {
            let (_, rotation, position) = c.world_from_camera.to_scale_rotation_translation();
            crate::animation::events::ViewerPose { position, orientation: rotation }
        });
        scene.turn_billboards(viewer);
        if !scene.transport.engaged {
            return;
        }
        scene.transport.advance(dt);
        // Clips may drive any humanoid of the file, not only the one in the panels.
        let mut poses = scene.poses();
        scene.sample_transport(&mut poses, viewer);
        // Weights the user set while paused hold over the clips' until playing starts again.
        if scene.transport.playing {
            scene.transport.held_weights.clear();
        }
        for &(h, d, w) in &scene.transport.held_weights {
            if let Some(slot) = poses.get_mut(h.0).and_then(|p| p.displacer_weights.get_mut(d)) {
                *slot = w;
            }
        }
        for (i, (h, pose)) in scene.doc.humanoids.iter().zip(&poses).enumerate() {
            scene.placements[i] = pose.world_from_humanoid(h);
        }
        scene.set_poses(poses);
        let world_from_humanoid = scene.placements[scene.humanoid];
        scene.world_from_humanoid = world_from_humanoid;
        let target = self.camera.orbit.target;
        if let Some(target) =
            scene.transport.follow(&scene.doc, scene.humanoid, &scene.editor.pose, world_from_humanoid, target)
        {
            self.camera.orbit.target = target;
        }
    }

    /// The camera for this frame after `dt` seconds: a locked view is re-evaluated at the current pose.
    pub(super) fn frame_camera(&mut self, dt: f32) -> Camera {
        let fixed = match (self.camera.fixed_view(), &self.scene) {
            (Some(index), Some(scene)) => scene.summary.views.get(index).and_then(|v| {
                crate::ui::scene::view_placement(
                    &scene.doc,
                    scene.humanoid(),
                    &scene.humanoid_from_joint(),
                    scene.world_from_humanoid,
                    &scene.view_framing,
                    v.source,
                )
            }),
            _ => None,
        };
        self.camera.update(fixed, dt)
    }

    /// Records the skin/morph pass and draws the deformed humanoids and this frame's overlay into
    /// `views` (a `width × height` image or region) as `camera` sees it (the poses must already be
    /// written: [`LoadedScene::write_poses`]).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn encode_3d_view(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        views: FrameViews<'_>,
        (width, height): (u32, u32),
        camera: &Camera,
        timer: Option<&crate::gpu::timing::GpuTimer>,
        look: ViewLook,
    ) {
        // The viewer's helper lines (grid, axes, skeleton, handles) are left out of a picture without
        // overlays; the skeleton also in a face or eye view, where it would sit on the face.
        let skeleton = look.overlays && self.ui.show_skeleton && !self.face_or_eye_view();
        let mut lines = overlay_lines(
            self.scene.as_ref(),
            look.overlays && self.ui.show_grid,
            look.overlays && self.ui.show_axes,
            skeleton,
            self.ui.selected_joint.map(|j| j.0).filter(|_| skeleton),
            &crate::app::scene::HandleMarks {
                pins: &self.ui.pins,
                active: self.ik_drag.as_ref().map(|d| d.effector.as_str()).or(self.hovered_handle.as_deref()),
            },
        );
        let overlay = self.ui.skin_overlay;
        if let Some(scene) = self.scene.as_mut() {
            let size = if scene.rest_bounds.is_empty() { 2.0 } else { scene.rest_bounds.size().max_element() };
            let (h, pose) = (&scene.doc.humanoids[scene.humanoid.0], &scene.editor.pose);
            if self.ui.show_joint_axes {
                crate::gpu::overlay::push_joint_axes(&mut lines.skeleton, h, pose, size * 0.03);
            }
            if self.ui.show_sites {
                crate::gpu::overlay::push_sites(&mut lines.skeleton, h, pose, size * 0.008);
            }
            // The picked vertex: a white cross where it was picked.
            if let Some(picked) = &self.ui.picked_vertex {
                let r = size * 0.012;
                for axis in [glam::Vec3::X, glam::Vec3::Y, glam::Vec3::Z] {
                    for end in [picked.position - axis * r, picked.position + axis * r] {
                        lines.skeleton.push(GpuLineVertex { position: end.to_array(), color: [1.0; 4] });
                    }
                }
            }
            // The skin pass computes the overlay's per-point values while one is shown (for the panels'
            // humanoid's selected joint); rigid segments carry their joint's.
            if overlay != OverlayMode::Off || self.overlay_shown {
                let mut selected = vec![None; scene.doc.humanoids.len()];
                selected[scene.humanoid.0] = self.ui.selected_joint.map(|j| j.0);
                scene.draws.set_overlay(&self.gpu.queue, overlay, &selected);
                self.overlay_shown = overlay != OverlayMode::Off;
            }
        }
        let draws = self.scene.as_ref().map(|s| s.draws.draws()).unwrap_or_default();
        let lighting = if self.ui.studio_lighting { Lighting::Studio } else { Lighting::Standard };
        // The file's Background, else the model's own colour.
        let background = self
            .scene
            .as_ref()
            .and_then(|s| s.doc.settings.background.clone())
            .unwrap_or_else(|| Background::uniform(lighting.default_background(STUDIO_BACKGROUND)));
        let inputs = FrameInputs {
            camera,
            aspect: width as f32 / height.max(1) as f32,
            settings: self.scene.as_ref().map(|s| &s.doc.settings),
            lighting,
            background: &background,
            draws: &draws,
            lines: &lines,
            overlay,
            timer,
            transparent: look.transparent,
        };
        let scene_draw = self.scene.as_ref().map(|s| &s.draws);
        self.renderer.encode(&self.gpu, encoder, views, scene_draw, &inputs);
    }
}
