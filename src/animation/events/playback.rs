//! "As the file says": every HAnimMotion the file enables and every TimeSensor, on one scene clock, all
//! at once (X3D's time model), where the transport's default plays one clip at a time.

use super::{EventModel, Overrides, ScenePlacements, Touch, ViewerPose, place_scene};
use crate::animation::{Animations, ClipSource, SampleOptions};
use crate::hanim::Document;
use crate::pose::Pose;
use crate::x3d::{Warning, X3dError};

/// A document's whole-scene playback.
#[derive(Debug, Clone)]
pub struct FilePlayback {
    pub events: EventModel,
    /// The file's HAnimMotions, enabled as the file says (interpolator clips are the event model's).
    motions: Animations,
    /// The clicks on TouchSensor geometry so far, in scene-time order (the window's; replayed by every
    /// evaluation up to its time).
    pub touches: Vec<Touch>,
}

impl FilePlayback {
    pub fn new(doc: &Document) -> FilePlayback {
        let mut motions = Animations::from_document(doc);
        motions.clips.retain(|c| matches!(c.source, ClipSource::Motion { .. }));
        FilePlayback { events: EventModel::new(&doc.scene), motions, touches: Vec::new() }
    }

    /// What could not be read or is not run (motions' warnings, Scripts, other sensors).
    pub fn warnings(&self) -> impl Iterator<Item = &Warning> {
        self.motions.warnings.iter().chain(&self.events.warnings)
    }

    /// Sets the base pose of `poses` (one per humanoid) for scene time `t`: the file's values, then the
    /// enabled HAnimMotions in file order, then what the event cascade wrote into joints, displacers
    /// and humanoids (the interpolators' clips of the transport, in cascade order). Offsets are kept.
    /// Returns the cascade's field overrides, for the rest of the scene.
    pub fn apply(&self, doc: &Document, t: f64, options: &SampleOptions, poses: &mut [Pose]) -> Overrides {
        self.apply_seen_from(doc, t, None, options, poses)
    }

    /// [`apply`](Self::apply) with the viewer at `viewer`, for ProximitySensors (clause 22.4.1).
    pub fn apply_seen_from(
        &self,
        doc: &Document,
        t: f64,
        viewer: Option<ViewerPose>,
        options: &SampleOptions,
        poses: &mut [Pose],
    ) -> Overrides {
        self.motions.apply(doc, t, options, poses);
        let overrides = self.events.evaluate_with(t, viewer, &self.touches);
        super::apply_to_poses(doc, &overrides, poses);
        overrides
    }

    /// Records a click (kept in time order; a click at the time of an earlier one comes after it).
    pub fn touch(&mut self, touch: Touch) {
        let at = self.touches.partition_point(|t| t.time <= touch.time);
        self.touches.insert(at, touch);
    }

    /// Where the scene's Shapes and Viewpoints are with `overrides`.
    pub fn placements(doc: &Document, overrides: &Overrides) -> Result<ScenePlacements, X3dError> {
        place_scene(doc, overrides)
    }
}
