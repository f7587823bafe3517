//! A loaded humanoid with its GPU resources: the document, the panels' summary, the pose editor and the
//! document's draws (skin pass, segment and scene geometry: the same [`SceneDraw`] headless renders with).

use std::path::PathBuf;

use anyhow::{Context, Result};
use glam::Vec3;

use crate::animation::PlayMode;
use crate::animation::events::{FilePlayback, ViewerPose, place_scene, place_scene_seen_from};
use crate::gpu::GpuContext;
use crate::gpu::overlay::{self, GpuLineVertex, OverlayLines};
use crate::gpu::render_pass::HumanoidRenderer;
use crate::gpu::scene_draw::SceneDraw;
use crate::hanim::HumanoidIndex;
use crate::hanim::{Document, Humanoid};
use crate::pose;
use crate::pose::bounds::{Aabb, humanoid_bounds};
use crate::ui::{PoseEditor, SceneSummary, limits};

/// A motion capture retargeted onto the shown humanoid (see `app::capture` for applying and editing it).
pub struct AppliedCapture {
    pub editor: crate::ui::capture::CaptureEditor,
    /// Index of its clip in the transport.
    pub clip: usize,
}

pub struct LoadedScene {
    pub path: PathBuf,
    pub doc: Document,
    /// Index of the humanoid shown (the first in the file).
    pub humanoid: HumanoidIndex,
    pub summary: SceneSummary,
    pub editor: PoseEditor,
    /// Every humanoid's skin and rigid shapes and the scene's other Shapes; the shown humanoid follows
    /// the editor's pose, the others stay at rest.
    pub draws: SceneDraw,
    /// World-space bounds at the rest pose.
    pub rest_bounds: Aabb,
    /// The box the computed views (front, side, top, inclined, face) frame: the figure at the pose it had
    /// when the user last switched to a view ([`posed_figure_bounds`](Self::posed_figure_bounds)), kept
    /// until the next switch so the camera holds still while the figure moves. The rest box at load.
    pub view_framing: Aabb,
    pub triangles: u32,
    /// Motion playback: the file's HAnimMotions and interpolator clips.
    pub transport: crate::animation::Transport,
    /// Where the shown humanoid stands: its own transform, or the one a playing clip drives.
    pub world_from_humanoid: glam::Mat4,
    /// A motion capture retargeted onto the shown humanoid.
    pub capture: Option<AppliedCapture>,
    /// The pose editors of the humanoids not shown in the panels (`None` at the shown one's index): their
    /// poses and undo histories wait there until they are chosen again.
    pub parked: Vec<Option<PoseEditor>>,
    /// Where each humanoid stands (its own transform, or the one a playing clip drives).
    pub placements: Vec<glam::Mat4>,
    /// The whole scene's playback "as the file says" (the transport's [`PlayMode::AsFile`]).
    pub file_playback: FilePlayback,
    /// What could not be read or drawn (warnings with file:line:column, textures, Inlines): the
    /// Problems window.
    pub problems: Vec<String>,
    /// Scene Shape placements for the next [`write_poses`](Self::write_poses) (only when they moved).
    pending_shapes: Option<Vec<Option<glam::Mat4>>>,
    /// The field overrides of the last sampling as the file says, for the next
    /// [`write_poses`](Self::write_poses) to draw into Materials and TextureTransforms.
    pending_overrides: Option<crate::animation::events::Overrides>,
    /// The file's Viewpoints as loaded: `doc.viewpoints` follow the events in as-file mode and come back
    /// to these when the mode goes back to one clip.
    load_viewpoints: Vec<(crate::hanim::Viewpoint, glam::Mat4)>,
    /// Whether the last frame played as the file says (so leaving it puts the scene back).
    played_as_file: bool,
    /// Whether the scene has a Billboard, whose children turn toward the camera every frame, or an LOD
    /// whose level follows the camera's distance.
    has_billboards: bool,
    /// The scene Shapes a click can hit (empty without TouchSensors).
    touch_targets: crate::app::touch::TouchTargets,
    /// Where each `Document::other_shapes` entry was last placed (`None`: not shown), for clicks.
    shape_placements: Vec<Option<glam::Mat4>>,
}

impl LoadedScene {
    pub fn new(ctx: &GpuContext, renderer: &HumanoidRenderer, path: PathBuf, doc: Document) -> Result<Self> {
        let humanoid = HumanoidIndex::FIRST;
        let h = doc.humanoid(humanoid).context("the file holds no HAnimHumanoid")?;
        let rest: Vec<pose::Pose> = doc.humanoids.iter().map(pose::Pose::rest).collect();
        let draws = SceneDraw::new(ctx, renderer, &doc, &rest)?;
        let editor = PoseEditor::new(h);
        let rest_bounds = humanoid_bounds(&doc.scene, h, &editor.pose)?;
        let summary = SceneSummary::new(&doc, h);
        let triangles = draws.triangles;
        let problems = doc.warnings.iter().map(ToString::to_string).chain(draws.notes.iter().cloned()).collect();
        let file_playback = FilePlayback::new(&doc);
        for w in file_playback.warnings() {
            log::info!("{w}");
        }
        let transport = crate::animation::Transport::for_window(&doc).with_scene_animation(
            !file_playback.events.sensors.is_empty() || !file_playback.events.proximity.is_empty(),
        );
        let load_viewpoints = doc.viewpoints.clone();
        let has_billboards = crate::x3d::grouping::depends_on_the_viewer(&doc.scene);
        let touch_targets = crate::app::touch::TouchTargets::new(&doc, &file_playback.events);
        let shape_placements = doc.other_shapes.iter().map(|&(_, m)| Some(m)).collect();
        let world_from_humanoid = h.world_from_humanoid();
        let parked = doc.indexed_humanoids().map(|(i, h)| (i != humanoid).then(|| PoseEditor::new(h))).collect();
        let placements = doc.humanoids.iter().map(Humanoid::world_from_humanoid).collect();
        Ok(Self {
            path,
            humanoid,
            summary,
            editor,
            draws,
            view_framing: rest_bounds,
            rest_bounds,
            triangles,
            doc,
            transport,
            world_from_humanoid,
            capture: None,
            parked,
            placements,
            file_playback,
            problems,
            pending_shapes: None,
            pending_overrides: None,
            load_viewpoints,
            played_as_file: false,
            has_billboards,
            touch_targets,
            shape_placements,
        })
    }

    /// Turns the scene's Billboards toward `viewer` (clause 10.4.1) and shows each LOD's level for its
    /// distance (10.4.3) when the transport is not placing the scene as the file says (which does both
    /// itself); nothing when the scene has neither.
    pub fn turn_billboards(&mut self, viewer: Option<ViewerPose>) {
        if !self.has_billboards || viewer.is_none() || self.transport.mode == PlayMode::AsFile {
            return;
        }
        let empty = crate::animation::events::Overrides::default();
        match place_scene_seen_from(&self.doc, &empty, viewer) {
            Ok(placed) => self.pending_shapes = Some(placed.shapes),
            Err(e) => log::warn!("billboards: {e}"),
        }
    }

    /// Sets `poses` (one per humanoid) for the transport's time: its clips (one clip at a time), or the
    /// whole scene as the file says, whose scene Shapes and Viewpoints then move too (written with the
    /// poses). `viewer`: the camera last drawn (world position and orientation), for ProximitySensors.
    pub fn sample_transport(&mut self, poses: &mut [pose::Pose], viewer: Option<ViewerPose>) {
        match self.transport.mode {
            PlayMode::OneClip => {
                self.transport.apply(&self.doc, poses);
                if std::mem::take(&mut self.played_as_file) {
                    // Back to where the file put them at load.
                    self.doc.viewpoints = self.load_viewpoints.clone();
                    let empty = crate::animation::events::Overrides::default();
                    self.pending_shapes = place_scene(&self.doc, &empty).ok().map(|p| p.shapes);
                    // The file's colours and texture placements again.
                    self.pending_overrides = Some(empty);
                }
            }
            PlayMode::AsFile => {
                self.played_as_file = true;
                let t = self.transport.time;
                let overrides =
                    self.file_playback.apply_seen_from(&self.doc, t, viewer, &self.transport.options, poses);
                // Placed from the file's viewpoints, not last frame's.
                self.doc.viewpoints = self.load_viewpoints.clone();
                match place_scene_seen_from(&self.doc, &overrides, viewer) {
                    Ok(placed) => {
                        self.doc.viewpoints = placed.viewpoints;
                        self.pending_shapes = Some(placed.shapes);
                    }
                    Err(e) => log::warn!("scene placement at {t:.3} s: {e}"),
                }
                self.pending_overrides = Some(overrides);
            }
        }
    }

    /// Whether the file has geometry that TouchSensors sense.
    pub fn has_touch_sensors(&self) -> bool {
        !self.touch_targets.is_empty()
    }

    /// A click along the ray `origin + s·dir` (world space): when the transport plays as the file says
    /// (touch sensors are live only then), the nearest scene Shape hit sends its TouchSensors' events at
    /// the transport's time (recorded in the playback, so the clip a `touchTime` starts runs from then).
    /// Returns what was hit; `None` in one-clip mode or when the ray meets no Shape.
    pub fn click(&mut self, origin: Vec3, dir: Vec3) -> Option<crate::app::touch::TouchHit> {
        if self.transport.mode != PlayMode::AsFile {
            return None;
        }
        let events = &self.file_playback.events;
        let hit = self.touch_targets.pick(origin, dir, &self.shape_placements, events, self.transport.time)?;
        for touch in &hit.touches {
            log::info!("touch: {} at {:.3} s", self.doc.scene.describe(touch.sensor), touch.time);
            self.file_playback.touch(*touch);
        }
        // The scene is sampled again at the next frame, playing or paused.
        self.transport.engaged |= !hit.touches.is_empty();
        Some(hit)
    }

    /// Where the first Shape that `name` (a DEF: a Shape, or a TouchSensor's first sensed Shape) names
    /// is drawn now (the middle of its box, world space).
    pub fn touch_target_centre(&self, name: &str) -> Option<Vec3> {
        let node = *self.doc.scene.defs.get(name)?;
        self.touch_targets.centre_of(node, &self.shape_placements)
    }

    pub fn humanoid(&self) -> &Humanoid {
        &self.doc.humanoids[self.humanoid]
    }

    /// Where the effector `name` (a Site, or a joint's centre) of the posed humanoid is now, in world
    /// coordinates.
    pub fn effector_position(&self, name: &str) -> Result<Vec3, String> {
        let h = self.humanoid();
        let p = crate::pose::ik::find_effector(h, name).map_err(|e| e.to_string())?;
        let pose = &self.editor.pose;
        let globals = crate::pose::humanoid_from_joint(h, pose);
        Ok(self.world_from_humanoid.transform_point3(globals[p.joint].transform_point3(p.point)))
    }

    /// Writes this frame's pose and placement of every humanoid into its draws (the skin pass then
    /// deforms them when the frame is encoded).
    pub fn write_poses(&mut self, queue: &wgpu::Queue) {
        let mut poses = Vec::with_capacity(self.doc.humanoids.len());
        let mut placements = Vec::with_capacity(self.doc.humanoids.len());
        for (i, _) in self.doc.indexed_humanoids() {
            // The fields, not `pose_of`: the draws are borrowed mutably beside them.
            poses.push(match self.parked[i].as_ref() {
                Some(editor) => &editor.pose,
                None => &self.editor.pose,
            });
            placements.push(if i == self.humanoid { self.world_from_humanoid } else { self.placements[i] });
        }
        // Twins (a crowd of Inlines of one file) are written together: one write per group and buffer.
        self.draws.update_humanoids(queue, &self.doc, &poses, &placements);
        if let Some(shapes) = self.pending_shapes.take() {
            self.draws.place_scene_shapes(queue, &shapes);
            self.shape_placements = shapes;
        }
        if let Some(overrides) = self.pending_overrides.take() {
            self.draws.apply_appearance(queue, &self.doc.scene, &overrides);
            self.draws.apply_geometry(queue, &self.doc, &overrides);
        }
    }

    /// The current pose of humanoid `i` (shown or parked).
    pub fn pose_of(&self, i: HumanoidIndex) -> &pose::Pose {
        match self.parked.get(i.0).and_then(Option::as_ref) {
            Some(editor) => &editor.pose,
            None => &self.editor.pose,
        }
    }

    /// Every humanoid's pose, in document order (what clips are sampled into).
    pub fn poses(&self) -> Vec<pose::Pose> {
        self.doc.indexed_humanoids().map(|(i, _)| self.pose_of(i).clone()).collect()
    }

    /// Takes `poses` (one per humanoid) as the humanoids' current poses.
    pub fn set_poses(&mut self, poses: Vec<pose::Pose>) {
        for (i, pose) in poses.into_iter().enumerate() {
            let i = HumanoidIndex(i);
            match self.parked.get_mut(i.0).and_then(Option::as_mut) {
                Some(editor) => editor.pose = pose,
                None if i == self.humanoid => self.editor.pose = pose,
                None => {}
            }
        }
    }

    /// Makes humanoid `i` the one the panels pose and the views frame; the one shown before keeps its pose
    /// and undo history. Returns false when `i` is already shown or does not exist.
    pub fn select_humanoid(&mut self, i: HumanoidIndex) -> bool {
        if i == self.humanoid || i.0 >= self.doc.humanoids.len() {
            return false;
        }
        let h = &self.doc.humanoids[i];
        let incoming = self.parked[i].take().unwrap_or_else(|| PoseEditor::new(h));
        let outgoing = std::mem::replace(&mut self.editor, incoming);
        self.placements[self.humanoid] = self.world_from_humanoid;
        self.parked[self.humanoid] = Some(outgoing);
        self.humanoid = i;
        self.world_from_humanoid = self.placements[i];
        self.summary = SceneSummary::new(&self.doc, h);
        self.rest_bounds = humanoid_bounds(&self.doc.scene, h, &pose::Pose::rest(h)).unwrap_or(self.rest_bounds);
        self.view_framing = self.rest_bounds;
        true
    }

    /// Bounds at the current pose (CPU deformation; on demand only).
    pub fn current_bounds(&self) -> Aabb {
        humanoid_bounds(&self.doc.scene, self.humanoid(), &self.editor.pose).unwrap_or(self.rest_bounds)
    }

    /// The figure's box (as the catalogue frames it: no camera-site markers) at the current pose, where a
    /// playing clip has moved the humanoid; the rest box when the figure draws nothing.
    pub fn posed_figure_bounds(&self) -> Aabb {
        let b = crate::views::figure_bounds(&self.doc, self.humanoid, &self.editor.pose).unwrap_or_default();
        if b.is_empty() {
            return self.rest_bounds;
        }
        let moved = self.world_from_humanoid * self.humanoid().world_from_humanoid().inverse();
        let mut out = Aabb::default();
        for corner in crate::views::corners_of(&b) {
            out.add(moved.transform_point3(corner));
        }
        out
    }

    /// Every effector a drag can take, with its world position now: the Sites that move with a joint,
    /// then the joints (their centres).
    pub fn effector_handles(&self) -> Vec<(String, Vec3)> {
        let h = self.humanoid();
        let globals = self.humanoid_from_joint();
        let world =
            |joint: usize, p: Vec3| self.world_from_humanoid.transform_point3(globals[joint].transform_point3(p));
        let sites = h.sites.iter().filter_map(|s| {
            let joint = crate::hanim::site_joint(h, s)?;
            let local = (s.offset * s.transform.matrix()).transform_point3(Vec3::ZERO);
            Some((s.name.clone(), world(joint, local)))
        });
        let joints = h.joints.iter().enumerate().map(|(j, joint)| (joint.name.clone(), world(j, joint.rest.center)));
        sites.chain(joints).collect()
    }

    /// World-space joint centres at the current pose.
    pub fn joint_centres(&self) -> Vec<Vec3> {
        overlay::joint_centres(self.humanoid(), &self.editor.pose)
    }

    /// `H·G_j` at the current pose.
    pub fn humanoid_from_joint(&self) -> Vec<glam::Mat4> {
        pose::humanoid_from_joint(self.humanoid(), &self.editor.pose)
    }

    /// What sets the shown humanoid's joints besides the sliders, for the Joints panel.
    pub fn joint_drivers(&self) -> Vec<(usize, String)> {
        let capture = self
            .capture
            .as_ref()
            .map(|c| crate::ui::drivers::CaptureClip { clip: c.clip, title: &c.editor.summary.title });
        crate::ui::drivers::joint_driver_lines(&self.transport, self.humanoid, capture, &self.editor.reached)
    }
}

fn line(out: &mut Vec<GpuLineVertex>, a: Vec3, b: Vec3, linear: [f32; 3]) {
    let color = [linear[0], linear[1], linear[2], 1.0];
    out.push(GpuLineVertex { position: a.to_array(), color });
    out.push(GpuLineVertex { position: b.to_array(), color });
}

/// The spoke of an angle on a bound of its limits (and the ring of a joint at a limit).
const AT_LIMIT_COLOR: [f32; 3] = [1.0, 0.2, 0.9];

/// A joint's limits: per limited axis of its limit frame, the arc of allowed angles (X red, Y green,
/// Z blue) and a spoke to the current angle (white inside, magenta on a bound, red beyond).
fn push_limit_arcs(out: &mut Vec<GpuLineVertex>, scene: &LoadedScene, joint: usize, centre: Vec3, radius: f32) {
    let (h, pose) = (scene.humanoid(), &scene.editor.pose);
    let Some(summary) = scene.summary.joints.get(joint) else { return };
    let intervals = limits::limit_intervals(&summary.llimit, &summary.ulimit);
    if intervals.iter().all(Option::is_none) {
        return;
    }
    // The rotation acts in the parent's space: its world rotation (scale taken out).
    let world = pose::world_from_joint(h, pose, &pose::humanoid_from_joint(h, pose));
    let parent = h.joints[joint].parent.map_or_else(|| h.world_from_humanoid(), |p| world[p]);
    let (_, frame, _) = parent.to_scale_rotation_translation();
    let rotation = pose.rotations[joint] * pose.rotation_offsets[joint];
    let arcs = limits::limit_arcs(frame, centre, radius, rotation, summary.limit_orientation, &intervals, 32);
    const COLORS: [[f32; 3]; 3] = [[0.95, 0.25, 0.2], [0.3, 0.9, 0.3], [0.3, 0.5, 1.0]];
    for arc in arcs {
        for pair in arc.points.windows(2) {
            line(out, pair[0], pair[1], COLORS[arc.axis]);
        }
        let (l, u) = intervals[arc.axis].unwrap_or_default();
        let angle = limits::limit_angles_from_rotation(rotation, summary.limit_orientation)[arc.axis];
        let tolerance = crate::pose::limits::AT_LIMIT_TOLERANCE;
        let spoke = if angle < l - tolerance || angle > u + tolerance {
            [1.0, 0.1, 0.1]
        } else if angle <= l + tolerance || angle >= u - tolerance {
            AT_LIMIT_COLOR
        } else {
            [1.0, 1.0, 1.0]
        };
        line(out, centre, arc.current, spoke);
    }
}

/// How the effector handles are marked: pinned ones red, the hovered or dragged one yellow.
#[derive(Debug, Clone, Copy, Default)]
pub struct HandleMarks<'a> {
    pub pins: &'a [String],
    pub active: Option<&'a str>,
}

/// A diamond (three crossing segments) around each Site that can be dragged, and around every pinned or
/// active effector (a joint too): orange, pinned red, active yellow.
fn push_handles(out: &mut Vec<GpuLineVertex>, scene: &LoadedScene, marks: &HandleMarks, radius: f32) {
    let h = scene.humanoid();
    for (name, p) in scene.effector_handles() {
        let is_site = h.sites.iter().any(|s| s.name == name);
        let pinned = marks.pins.contains(&name);
        let active = marks.active == Some(name.as_str());
        if !(is_site || pinned || active) {
            continue;
        }
        let (color, r) = match (active, pinned) {
            (true, _) => ([1.0, 0.95, 0.1], radius * 1.6),
            (false, true) => ([1.0, 0.15, 0.1], radius * 1.3),
            _ => ([1.0, 0.55, 0.1], radius),
        };
        let corners = [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X, -Vec3::Y, -Vec3::Z].map(|a| p + a * r);
        for (a, b) in [(0, 1), (1, 3), (3, 4), (4, 0), (0, 2), (2, 3), (3, 5), (5, 0), (1, 2), (2, 4), (4, 5), (5, 1)] {
            line(out, corners[a], corners[b], color);
        }
    }
}

/// This frame's overlay: grid, axes, skeleton, effector handles and the selected joint's marker and
/// limit arcs.
pub fn overlay_lines(
    scene: Option<&LoadedScene>,
    show_grid: bool,
    show_axes: bool,
    show_skeleton: bool,
    selected: Option<usize>,
    marks: &HandleMarks,
) -> OverlayLines {
    let mut lines = OverlayLines::default();
    let bounds = scene.map(|s| s.rest_bounds).unwrap_or_default();
    let size = if bounds.is_empty() { 2.0 } else { bounds.size().max_element().max(0.01) };
    if show_grid {
        overlay::push_grid(&mut lines.grid, &bounds);
    }
    if show_axes {
        let l = size * 0.25;
        line(&mut lines.grid, Vec3::ZERO, Vec3::X * l, [0.9, 0.1, 0.1]);
        line(&mut lines.grid, Vec3::ZERO, Vec3::Y * l, [0.1, 0.8, 0.1]);
        line(&mut lines.grid, Vec3::ZERO, Vec3::Z * l, [0.1, 0.2, 1.0]);
    }
    if let Some(scene) = scene {
        let cross = size * 0.006;
        // Joints at a limit show their limit arcs too (smaller than the selected joint's), so a pose that
        // stops short — a drag, a slider, a clip — says which joint holds it.
        let mut at_limit: Vec<usize> = Vec::new();
        if show_skeleton {
            overlay::push_skeleton(&mut lines.skeleton, scene.humanoid(), &scene.editor.pose, cross);
            push_handles(&mut lines.skeleton, scene, marks, cross * 1.5);
            at_limit = crate::pose::limits::axes_at_limit(scene.humanoid(), &scene.editor.pose)
                .into_iter()
                .map(|(j, _)| j)
                .filter(|j| Some(*j) != selected)
                .collect();
            at_limit.dedup();
        }
        // The joint centres, once for this frame, only when something is marked at a joint.
        let centres = if at_limit.is_empty() && selected.is_none() { Vec::new() } else { scene.joint_centres() };
        for j in at_limit {
            if let Some(c) = centres.get(j).copied() {
                push_limit_arcs(&mut lines.skeleton, scene, j, c, size * 0.035);
            }
        }
        if let Some(j) = selected
            && let Some(c) = centres.get(j).copied()
        {
            let r = cross * 4.0;
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                line(&mut lines.skeleton, c - axis * r, c + axis * r, [0.0, 0.9, 1.0]);
            }
            push_limit_arcs(&mut lines.skeleton, scene, j, c, size * 0.06);
        }
    }
    lines
}
