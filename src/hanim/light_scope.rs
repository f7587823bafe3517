//! Which lights reach what. X3D 4.0 17.2.1: a light whose `global` field is FALSE (a DirectionalLight's
//! default) lights only the descendants of its parent grouping node; a global light (a PointLight's or
//! SpotLight's default) lights everything within its radius. An Inline whose `global` field is FALSE (the
//! default, 9.4.2) keeps the lights of its file to that file's own nodes. A light's reach is therefore a
//! grouping node whose descendants it lights ([`SceneLight::scope`], `None`: the whole scene), and an
//! object is lit by the lights whose scope is one of its grouping ancestors ([`Ancestry`]).

use crate::hanim::model::SceneLight;
use crate::x3d::{NodeId, Scene, X3dError};

/// The grouping nodes above each humanoid and each Shape outside humanoids, outermost first.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ancestry {
    /// Per humanoid, as `Document::humanoids`.
    pub humanoids: Vec<Vec<NodeId>>,
    /// Per entry of `Document::other_shapes`, then of `Document::switched_out_shapes`.
    pub shapes: Vec<Vec<NodeId>>,
}

impl Ancestry {
    /// Humanoid `i`'s grouping ancestors (none for a humanoid the walk did not record).
    pub fn of_humanoid(&self, i: usize) -> &[NodeId] {
        self.humanoids.get(i).map_or(&[], Vec::as_slice)
    }

    /// Shape entry `i`'s (see [`Self::shapes`]).
    pub fn of_shape(&self, i: usize) -> &[NodeId] {
        self.shapes.get(i).map_or(&[], Vec::as_slice)
    }
}

impl SceneLight {
    /// Whether the light reaches an object whose grouping ancestors are `ancestors`.
    pub fn reaches(&self, ancestors: &[NodeId]) -> bool {
        self.scope.is_none_or(|scope| ancestors.contains(&scope))
    }
}

/// The scope of a light node whose grouping ancestors are `ancestors` (outermost first).
pub(crate) fn light_scope(scene: &Scene, light: NodeId, ancestors: &[NodeId]) -> Result<Option<NodeId>, X3dError> {
    let global = scene.sf_bool(light, "global", scene.node(light).type_name != "DirectionalLight")?;
    if !global {
        return Ok(ancestors.last().copied());
    }
    for &group in ancestors.iter().rev() {
        if scene.node(group).type_name == "Inline" && !scene.sf_bool(group, "global", false)? {
            return Ok(Some(group));
        }
    }
    Ok(None)
}
