//! HAnimDisplacers: per-point offsets a joint or segment morphs its points with. A displacement list
//! shorter or longer than `coordIndex` is padded or cut with a warning.

use glam::Vec3;

use super::HanimError;
use super::humanoid::HumanoidBuilder;
use crate::hanim::model::*;
use crate::x3d::NodeId;

impl HumanoidBuilder<'_> {
    pub(super) fn read_displacer(&mut self, id: NodeId, owner: DisplacerOwner) -> Result<(), HanimError> {
        let scene = self.scene;
        let coord_index = scene.mf_int32(id, "coordIndex")?;
        let mut displacements: Vec<Vec3> = scene.mf_length3(id, "displacements")?.into_iter().map(Vec3::from).collect();
        if displacements.len() != coord_index.len() {
            let message = format!(
                "{}: {} coordIndex entries but {} displacements; {}",
                scene.describe(id),
                coord_index.len(),
                displacements.len(),
                if displacements.len() < coord_index.len() { "missing ones are zero" } else { "extra ones ignored" }
            );
            self.warn(id, message);
            displacements.resize(coord_index.len(), Vec3::ZERO);
        }
        let d = self.displacers.len();
        self.displacers.push(Displacer {
            name: self.name_of(id),
            def: scene.node(id).def.clone(),
            node: id,
            owner,
            coord_index,
            displacements,
            weight: scene.sf_float(id, "weight", 0.0)?,
            description: scene.string(id, "description").unwrap_or("").to_string(),
        });
        match owner {
            DisplacerOwner::Joint(j) => self.joints[j].displacers.push(d),
            DisplacerOwner::Segment(s) => self.segments[s].displacers.push(d),
        }
        Ok(())
    }
}
