//! Every clip (HAnimMotion, interpolator clips, captures retargeted onto the humanoid, authored keys) as
//! a glTF animation. Each clip is sampled alone through the same code the window plays it with
//! ([`Animations::sample`]): at its own times where it has them (HAnimMotion frames, interpolator keys,
//! authored keys), else at the export's sample rate, and written as LINEAR channels of the joint nodes
//! (translation `t + c − c_parent`, rotation `r`), of the humanoid node where the clip moves the
//! humanoid itself, and of the mesh nodes' morph weights where it drives displacers.

use glam::{Quat, Vec3};
use serde_json::json;

use super::Writer;
use super::skeleton::{HumanoidNodes, joint_node_matrix};
use crate::animation::{Animations, ClipSource, Interpolation, SampleOptions};
use crate::gltf::json::{Animation, AnimationSampler, Channel, ChannelTarget};
use crate::hanim::HumanoidIndex;

/// Times (seconds, increasing) at which clip `index` is sampled.
fn sample_times(animations: &Animations, index: usize, rate: f64) -> Vec<f64> {
    let clip = &animations.clips[index];
    let duration = clip.duration(Interpolation::Smooth);
    let mut times = vec![0.0];
    if !(duration.is_finite() && duration > 0.0) {
        return times;
    }
    let grid = |times: &mut Vec<f64>| {
        let steps = (duration * rate).ceil().max(1.0) as usize;
        times.extend((1..=steps).map(|k| (k as f64 / rate).min(duration)));
    };
    match &clip.source {
        ClipSource::Motion { motion, .. } => {
            let intervals = (motion.last_frame as i64 - motion.first_frame as i64).unsigned_abs() as usize;
            let intervals = intervals / motion.frame_increment.unsigned_abs().max(1) as usize;
            if intervals == 0 {
                grid(&mut times);
            } else {
                times.extend((1..=intervals).map(|k| duration * k as f64 / intervals as f64));
            }
        }
        ClipSource::Interpolators(c) => {
            for track in &c.tracks {
                if track.via.is_empty() {
                    times.extend(track.curve.keys().iter().map(|&k| f64::from(k.clamp(0.0, 1.0)) * duration));
                } else {
                    grid(&mut times);
                }
            }
            times.push(duration);
        }
        ClipSource::Authored { clip, .. } => {
            times.extend(clip.keys.iter().map(|k| k.time));
            times.push(duration);
        }
    }
    times.retain(|t| t.is_finite() && *t >= 0.0 && *t <= duration);
    times.sort_by(f64::total_cmp);
    times.dedup_by(|a, b| (*a - *b).abs() < 1e-6);
    times
}

fn humanoids_driven(source: &ClipSource) -> Vec<HumanoidIndex> {
    let mut out = match source {
        ClipSource::Motion { humanoid, .. } | ClipSource::Authored { humanoid, .. } => vec![*humanoid],
        ClipSource::Interpolators(c) => c.tracks.iter().map(|t| t.humanoid).collect(),
    };
    out.sort_by_key(|h| h.0);
    out.dedup();
    out
}

/// Makes successive quaternions take the short way (glTF interpolates the stored values).
fn continuous(rotations: &mut [Quat]) {
    for i in 1..rotations.len() {
        if rotations[i].dot(rotations[i - 1]) < 0.0 {
            rotations[i] = -rotations[i];
        }
    }
}

fn changes<T: Copy>(series: &[T], rest: T, differ: impl Fn(T, T) -> bool) -> bool {
    series.iter().any(|&v| differ(v, rest))
}

struct ClipWriter<'w, 'a> {
    w: &'w mut Writer<'a>,
    animation: Animation,
    input: Option<u32>,
    times: Vec<f32>,
}

impl ClipWriter<'_, '_> {
    fn input(&mut self) -> u32 {
        if let Some(i) = self.input {
            return i;
        }
        let i = self.w.buffer.scalars(&self.times, true);
        self.input = Some(i);
        i
    }

    fn channel(&mut self, node: u32, path: &'static str, output: u32) {
        let input = self.input();
        self.animation.samplers.push(AnimationSampler { input, output, interpolation: "LINEAR" });
        let sampler = self.animation.samplers.len() as u32 - 1;
        self.animation.channels.push(Channel { sampler, target: ChannelTarget { node, path } });
    }

    fn rotations(&mut self, node: u32, mut values: Vec<Quat>) {
        continuous(&mut values);
        let arrays: Vec<[f32; 4]> = values.iter().map(|q| q.to_array()).collect();
        let output = self.w.buffer.floats(&arrays, None, false);
        self.channel(node, "rotation", output);
    }

    fn translations(&mut self, node: u32, values: &[Vec3]) {
        let arrays: Vec<[f32; 3]> = values.iter().map(|v| v.to_array()).collect();
        let output = self.w.buffer.floats(&arrays, None, false);
        self.channel(node, "translation", output);
    }

    fn weights(&mut self, node: u32, frames: &[Vec<f32>]) {
        let flat: Vec<f32> = frames.iter().flatten().copied().collect();
        let output = self.w.buffer.scalars(&flat, false);
        self.channel(node, "weights", output);
    }
}

/// One animation per playable clip.
pub(super) fn write_animations(w: &mut Writer, animations: &Animations, placed: &[HumanoidNodes]) {
    let doc = w.doc;
    for index in 0..animations.clips.len() {
        let clip = &animations.clips[index];
        if let Some(why) = clip.unsupported() {
            w.note(format!("clip {}: not exported ({why})", clip.name()));
            continue;
        }
        let times = sample_times(animations, index, w.options.sample_rate);
        let mut solo = animations.clone();
        solo.solo(index);
        // A looping clip's last sample is its end, not its start again.
        solo.clips[index].looping = false;
        let options = SampleOptions::default();
        let poses: Vec<Vec<crate::pose::Pose>> = times.iter().map(|&t| solo.sample(doc, t, &options)).collect();
        let mut writer = ClipWriter {
            w: &mut *w,
            animation: Animation { name: Some(clip.name().to_string()), ..Animation::default() },
            input: None,
            times: times.iter().map(|&t| t as f32).collect(),
        };
        for humanoid in humanoids_driven(&clip.source) {
            let (Some(h), Some(nodes)) = (doc.humanoid(humanoid), placed.get(humanoid.0)) else { continue };
            for j in 0..h.joints.len() {
                let rest = joint_node_matrix(h, &nodes.rest, j).to_scale_rotation_translation();
                let series: Vec<(Vec3, Quat, Vec3)> = poses
                    .iter()
                    .map(|p| joint_node_matrix(h, &p[humanoid.0], j).to_scale_rotation_translation())
                    .collect();
                let rotations: Vec<Quat> = series.iter().map(|s| s.1.normalize()).collect();
                let translations: Vec<Vec3> = series.iter().map(|s| s.2).collect();
                if changes(&rotations, rest.1.normalize(), |a, b| a.dot(b).abs() < 1.0 - 1e-7) {
                    writer.rotations(nodes.joints[j], rotations);
                }
                if changes(&translations, rest.2, |a, b| (a - b).abs().max_element() > 1e-6) {
                    writer.translations(nodes.joints[j], &translations);
                }
            }
            if poses
                .iter()
                .any(|p| p[humanoid.0].humanoid.rotation.is_some() || p[humanoid.0].humanoid.translation.is_some())
            {
                let series: Vec<(Vec3, Quat, Vec3)> = poses
                    .iter()
                    .map(|p| p[humanoid.0].world_from_humanoid(h).to_scale_rotation_translation())
                    .collect();
                writer.rotations(nodes.humanoid, series.iter().map(|s| s.1.normalize()).collect());
                writer.translations(nodes.humanoid, &series.iter().map(|s| s.2).collect::<Vec<_>>());
            }
            let mesh_nodes = nodes.skin_mesh.iter().chain(nodes.rigid_meshes.iter());
            for (node, displacers) in mesh_nodes {
                if displacers.is_empty() {
                    continue;
                }
                let frames: Vec<Vec<f32>> = poses
                    .iter()
                    .map(|p| displacers.iter().map(|&d| p[humanoid.0].displacer_weight(h, d)).collect())
                    .collect();
                let rest: Vec<f32> = displacers.iter().map(|&d| nodes.rest.displacer_weight(h, d)).collect();
                if frames.iter().any(|f| f.iter().zip(&rest).any(|(a, b)| (a - b).abs() > 1e-7)) {
                    writer.weights(*node, &frames);
                }
            }
        }
        let ClipWriter { animation, .. } = writer;
        if animation.channels.is_empty() {
            w.note(format!("clip {}: moves nothing; not exported", clip.name()));
            continue;
        }
        let mut animation = animation;
        animation.extras = Some(json!({ "hanim": {
            "kind": clip.kind(),
            "loop": clip.looping,
            "enabled": clip.enabled,
        }}));
        w.root.animations.push(animation);
        w.report.animations += 1;
    }
}
