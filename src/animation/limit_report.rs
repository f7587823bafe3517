//! Joint limits over a clip: every frame where a joint's rotation leaves its `llimit`/`ulimit` interval,
//! measured in the limit frame of the semantics note §8 ([`crate::pose::limits`]), worst first.
//!
//! An HAnimMotion is read at its own frames (`0 … frames − 1`, each at its playback time); an interpolator
//! clip has no frames, so it is read at [`INTERPOLATOR_SEQUENCE_FPS`] over one cycle (frame `k` at
//! `k / fps` seconds). Only the clip itself is applied (the others are off), on the file's rest values.

use serde::Serialize;

use super::{Animations, ClipSource, INTERPOLATOR_SEQUENCE_FPS, Interpolation, SampleOptions};
use crate::hanim::Document;
use crate::pose::Pose;
use crate::pose::limits::{limit_angles_from_rotation, limit_intervals};

/// One joint, one axis, one frame outside its interval.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LimitExcess {
    pub frame: usize,
    /// Playback time of the frame, seconds.
    pub time: f64,
    /// Which humanoid (file order, from 0) and which joint of it.
    pub humanoid: usize,
    pub joint: usize,
    pub joint_name: String,
    /// 0, 1, 2: the limit frame's X, Y, Z axis.
    pub axis: usize,
    /// The angle about that axis and the bound it passes, radians.
    pub angle: f32,
    pub bound: f32,
    /// How far past the bound, radians (> 0).
    pub excess: f32,
}

impl LimitExcess {
    pub fn axis_name(&self) -> &'static str {
        ["X", "Y", "Z"][self.axis.min(2)]
    }

    /// `frame 12 (0.400 s): r_knee X 95.0° > ulimit 80.0° by 15.0°`
    pub fn describe(&self) -> String {
        let side = if self.angle > self.bound { "> ulimit" } else { "< llimit" };
        format!(
            "frame {} ({:.3} s): {} {} {:.1}° {side} {:.1}° by {:.2}°",
            self.frame,
            self.time,
            self.joint_name,
            self.axis_name(),
            self.angle.to_degrees(),
            self.bound.to_degrees(),
            self.excess.to_degrees()
        )
    }
}

/// Excesses smaller than this (radians) are rounding, not a pose outside its limits.
const TOLERANCE: f32 = 1e-5;

/// Every excess of clip `index` of `animations`, worst first (ties by frame, then joint and axis).
pub fn clip_limit_report(doc: &Document, animations: &Animations, index: usize) -> Vec<LimitExcess> {
    let Some(clip) = animations.clips.get(index) else { return Vec::new() };
    let mut solo = Animations { clips: animations.clips.clone(), rejected: Vec::new(), warnings: Vec::new() };
    solo.solo(index);
    for clip in &mut solo.clips {
        // One pass: the frame times below never run past the clip's end.
        clip.looping = false;
    }
    let times: Vec<f64> = match &clip.source {
        ClipSource::Motion { motion, .. } => (0..motion.frame_count).map(|f| motion.time_of_frame(f as f64)).collect(),
        ClipSource::Interpolators(c) => {
            let frames = (c.cycle_interval * INTERPOLATOR_SEQUENCE_FPS).round().max(0.0) as usize;
            (0..=frames).map(|k| k as f64 / INTERPOLATOR_SEQUENCE_FPS).collect()
        }
        // Keys sit on a frame grid of the same rate: every key and the slerp between them.
        ClipSource::Authored { clip, .. } => {
            let frames = (clip.duration() * INTERPOLATOR_SEQUENCE_FPS).round().max(0.0) as usize;
            (0..=frames).map(|k| k as f64 / INTERPOLATOR_SEQUENCE_FPS).collect()
        }
    };
    let options = SampleOptions { interpolation: Interpolation::Smooth, ..SampleOptions::default() };
    let mut out = Vec::new();
    for (frame, &tau) in times.iter().enumerate() {
        let poses = match &clip.source {
            ClipSource::Motion { humanoid, motion } => {
                // The motion's own frame, exactly (no time round trip).
                let mut poses: Vec<Pose> = doc.humanoids.iter().map(Pose::rest).collect();
                if let Some(pose) = poses.get_mut(humanoid.0) {
                    for s in motion.sample(frame as f64, Interpolation::Smooth) {
                        if let (Some(r), Some(slot)) = (s.rotation, pose.rotations.get_mut(s.joint)) {
                            *slot = r;
                        }
                    }
                }
                poses
            }
            ClipSource::Interpolators(_) | ClipSource::Authored { .. } => solo.sample(doc, tau, &options),
        };
        for (hi, (h, pose)) in doc.humanoids.iter().zip(&poses).enumerate() {
            for (j, joint) in h.joints.iter().enumerate() {
                let intervals = limit_intervals(&joint.llimit, &joint.ulimit);
                if intervals.iter().all(Option::is_none) {
                    continue;
                }
                let rotation = pose.rotations[j] * pose.rotation_offsets[j];
                let angles = limit_angles_from_rotation(rotation, joint.limit_orientation);
                for (axis, interval) in intervals.iter().enumerate() {
                    let Some((l, u)) = *interval else { continue };
                    let angle = angles[axis];
                    let (bound, excess) = if angle < l { (l, l - angle) } else { (u, angle - u) };
                    if excess > TOLERANCE {
                        out.push(LimitExcess {
                            frame,
                            time: tau,
                            humanoid: hi,
                            joint: j,
                            joint_name: joint.name.clone(),
                            axis,
                            angle,
                            bound,
                            excess,
                        });
                    }
                }
            }
        }
    }
    out.sort_by(|a, b| {
        b.excess.total_cmp(&a.excess).then(a.frame.cmp(&b.frame)).then(a.joint.cmp(&b.joint)).then(a.axis.cmp(&b.axis))
    });
    out
}
