//! The bindable nodes bound at load: the first Background (or TextureBackground) and the first
//! NavigationInfo of the scene, in document order (X3D 4.0 clause 7.2.2), wherever they sit. Humanoids
//! are part of the scene graph: a segment's, joint's or site's `children` may hold any child node (X3D
//! 4.0 clause 26), so a file can keep its Background inside the skeleton (JinBlink puts it in `sacrum`).
//! The document walk offers the nodes it meets outside humanoids and, when it meets an H-Anim node, the
//! ones inside it ([`bindables_below`]), so the order stays the document's over the whole scene.

use std::collections::HashSet;

use crate::hanim::{Background, SceneSettings};
use crate::x3d::grouping::{is_grouping, shown_children};
use crate::x3d::{NodeId, Scene, X3dError};

/// Whether nodes of `type_name` are bound at load by [`Bindings::offer`].
pub(super) fn is_bindable(type_name: &str) -> bool {
    matches!(type_name, "Background" | "TextureBackground" | "NavigationInfo")
}

/// Which kinds have been bound so far.
#[derive(Default)]
pub(super) struct Bindings {
    background: bool,
    navigation: bool,
}

impl Bindings {
    /// Binds `id` into `settings` when it is the first node of its kind offered; later ones are ignored.
    pub(super) fn offer(&mut self, scene: &Scene, id: NodeId, settings: &mut SceneSettings) -> Result<(), X3dError> {
        match scene.node(id).type_name.as_str() {
            "Background" | "TextureBackground" if !self.background => {
                self.background = true;
                settings.background = Some(Background::read(scene, id)?);
            }
            "NavigationInfo" if !self.navigation => {
                self.navigation = true;
                settings.headlight = scene.sf_bool(id, "headlight", true)?;
                settings.navigation_types = scene.mf_string(id, "type")?;
                let avatar_size = scene.mf_float(id, "avatarSize")?;
                settings.collision_distance = avatar_size.first().copied().filter(|d| d.is_finite() && *d > 0.0);
            }
            _ => {}
        }
        Ok(())
    }
}

/// The bindable nodes at or below the H-Anim node `root`, in document order: through every field of
/// H-Anim nodes (a humanoid's skeleton and skin, joints', segments' and sites' children) and the children
/// grouping nodes show (`x3d::grouping`, as outside humanoids). Each node is visited once, so the
/// humanoid's `joints`, `segments` and `sites` lists, which USE the skeleton's nodes, cost nothing more
/// and cannot change the order: a node's first occurrence comes first.
pub(super) fn bindables_below(scene: &Scene, root: NodeId) -> Result<Vec<NodeId>, X3dError> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        let node = scene.node(id);
        let type_name = node.type_name.as_str();
        let children: Vec<NodeId> = if is_bindable(type_name) {
            found.push(id);
            continue;
        } else if type_name.starts_with("HAnim") {
            node.children.iter().map(|c| c.node).collect()
        } else if is_grouping(type_name) {
            shown_children(scene, id)?
        } else {
            continue;
        };
        // Pushed in reverse so that they come off the stack in document order.
        stack.extend(children.into_iter().rev());
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::x3d::{LoadOptions, load_str};

    fn scene(body: &str) -> Scene {
        let text = format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<X3D profile=\"Immersive\" version=\"4.0\"><Scene>{body}</Scene></X3D>"
        );
        load_str(&text, Path::new("bindables.x3d"), &LoadOptions::default()).expect("test scene loads")
    }

    fn defs(scene: &Scene, ids: &[NodeId]) -> Vec<String> {
        ids.iter().map(|&id| scene.node(id).def_name().to_string()).collect()
    }

    #[test]
    fn bindables_in_segments_joints_and_sites_are_found_in_document_order() {
        let s = scene(
            "<HAnimHumanoid DEF='H'>\
               <HAnimJoint DEF='J' containerField='skeleton'>\
                 <HAnimSegment DEF='S'><NavigationInfo DEF='N1'/>\
                   <Transform><Background DEF='B1'/></Transform></HAnimSegment>\
                 <Background DEF='B2'/>\
                 <HAnimSite DEF='T'><NavigationInfo DEF='N2'/></HAnimSite>\
               </HAnimJoint>\
               <HAnimJoint USE='J' containerField='joints'/>\
             </HAnimHumanoid>",
        );
        let found = bindables_below(&s, s.defs["H"]).unwrap();
        assert_eq!(defs(&s, &found), ["N1", "B1", "B2", "N2"]);
    }

    #[test]
    fn a_switch_inside_a_segment_shows_only_its_choice() {
        let s = scene(
            "<HAnimSegment DEF='S'>\
               <Switch whichChoice='1'><Background DEF='hidden'/><Background DEF='shown'/></Switch>\
             </HAnimSegment>",
        );
        let found = bindables_below(&s, s.defs["S"]).unwrap();
        assert_eq!(defs(&s, &found), ["shown"]);
    }
}
