//! HAnimMotion nodes and the humanoid's `info`: the motion's values are kept as read and split into
//! frames by the channel count its `channels` string declares.

use super::HanimError;
use super::humanoid::HumanoidBuilder;
use crate::hanim::model::*;
use crate::x3d;

impl HumanoidBuilder<'_> {
    pub(super) fn read_motions(&mut self) -> Result<Vec<Motion>, HanimError> {
        let scene = self.scene;
        let mut motions = Vec::new();
        for id in self.children_of(self.id, &["motions"]) {
            if scene.node(id).type_name != "HAnimMotion" {
                continue;
            }
            let channels = scene.string(id, "channels").unwrap_or("").to_string();
            let values = scene.mf_float(id, "values")?;
            // Defects (unreadable channels, values that are not whole frames, ...) are reported by
            // `motion_rules` once the humanoid is complete, since some need its skeleton.
            let channel_count = count_channels(&channels).unwrap_or(0);
            let frame_count =
                if channel_count > 0 && values.len() % channel_count == 0 { values.len() / channel_count } else { 0 };
            motions.push(Motion {
                name: self.name_of(id),
                def: scene.node(id).def.clone(),
                node: id,
                description: scene.string(id, "description").unwrap_or("").to_string(),
                joints: scene.string(id, "joints").unwrap_or("").to_string(),
                channels,
                values,
                frame_duration: scene.sf_double(id, "frameDuration", 0.1)?,
                frame_increment: scene.sf_int32(id, "frameIncrement", 1)?,
                start_frame: scene.sf_int32(id, "startFrame", 0)?,
                end_frame: scene.sf_int32(id, "endFrame", 0)?,
                frame_index: scene.sf_int32(id, "frameIndex", 0)?,
                looping: scene.sf_bool(id, "loop", false)?,
                enabled: scene.sf_bool(id, "enabled", true)?,
                channels_enabled: scene
                    .parse_field(id, "channelsEnabled", x3d::fields::parse_mf_bool)?
                    .unwrap_or_default(),
                loa: scene.sf_int32(id, "loa", -1)?,
                channel_count,
                frame_count,
            });
        }
        Ok(motions)
    }

    pub(super) fn read_info(&mut self) -> Result<Vec<(String, String)>, HanimError> {
        let scene = self.scene;
        let mut info: Vec<(String, String)> = scene
            .mf_string(self.id, "info")?
            .into_iter()
            .map(|entry| match entry.split_once('=') {
                Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                None => (String::new(), entry),
            })
            .collect();
        // HAnim 2 files converted from 1.x keep `info` as a MetadataSet named `HAnimHumanoid.info`.
        for set in self.children_of(self.id, &["metadata"]) {
            if scene.node(set).type_name == "MetadataSet" && scene.string(set, "name") == Some("HAnimHumanoid.info") {
                for entry in self.children_of(set, &["value"]) {
                    let key = scene.string(entry, "name").unwrap_or("").to_string();
                    let value = scene.mf_string(entry, "value")?.join(" ");
                    if !info.iter().any(|(k, _)| *k == key) {
                        info.push((key, value));
                    }
                }
            }
        }
        Ok(info)
    }
}

/// Total channel count of an HAnimMotion `channels` string (`n name×n` per joint); `None` if malformed.
pub fn count_channels(channels: &str) -> Option<usize> {
    let mut tokens = channels.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty());
    let mut total = 0usize;
    while let Some(count) = tokens.next() {
        let n: usize = count.parse().ok()?;
        for _ in 0..n {
            tokens.next()?;
        }
        total += n;
    }
    Some(total)
}
