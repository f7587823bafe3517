//! What a grouping node shows: the one rule shared by model building (`hanim::build`: humanoids, viewpoints,
//! lights, sites and skin shapes found under grouping nodes), meshing (`mesh::segments`) and bounds
//! (`pose::bounds`). Before it, each walker had its own rule, so a box could frame geometry that was never
//! drawn, or a viewpoint could be found in a level that was not.
//!
//! - A Switch shows the one child its `whichChoice` selects, counted over `children` then `choice` (the
//!   VRML97 name of the field); -1 or an index past the end shows nothing (X3D Grouping component, Switch).
//! - An LOD shows one of its levels (`children`, or `level` in VRML97), chosen by the viewer's distance
//!   (X3D 4.0 10.4.3; [`lod_level_at`], which the placement of each picture uses where it knows
//!   the camera). Without a viewer (the model's structure, its bounds) the most detailed level that draws
//!   anything is taken: files put an empty level first to hide a marker when the viewer is very close
//!   (HAnim2SpecificationLOA3Illustrated's viewpoint diamonds), which is never the case at a normal
//!   viewing distance. When no level draws anything the first (most detailed) one is shown, so viewpoints
//!   and H-Anim nodes in it are still found. An LOD without `range` leaves the choice to the browser
//!   (10.4.3): that rule then holds for every picture too, and so it does for an LOD inside a
//!   humanoid's geometry (a Site's marker), whose shapes are built once with their segment.
//! - A LayerSet (X3D 4.0 35.4.2) shows its active layer: `activeLayer` counts its `layers` from 1 (0 is
//!   the layer of the scene's own root nodes, shown anyway). Each layer of a LayerSet has its own
//!   viewpoint and is drawn over the previous ones (35.2); one 3D space cannot show that, so the other
//!   layers — in practice menus and heads-up displays with their own camera — are left out, and the
//!   humanoid builder says so (`hanim::build`).
//! - Every other node shows all of its `children`: Group, Transform, StaticGroup, Billboard, Collision,
//!   Anchor, Layer, LayoutLayer, an Inline (the file it loaded) and the H-Anim nodes alike.
//!
//! Transforms are not applied here: a Transform's matrix is `hanim::build::grouping_matrix`, which reads
//! the fields with the H-Anim layer's fixes and warnings.

use std::collections::{HashSet, VecDeque};

use super::error::X3dError;
use super::scene::{NodeId, Scene};

/// How deep a search for a Shape below an LOD level goes: deeper than any real file nests, and it stops
/// USE cycles the loader let through.
const MAX_SHAPE_DEPTH: usize = 64;

/// Whether nodes of `type_name` are X3D grouping nodes that the walkers descend into. The H-Anim nodes are
/// not listed: the humanoid builder walks them itself, as joints, segments and sites.
pub fn is_grouping(type_name: &str) -> bool {
    matches!(
        type_name,
        "Group"
            | "Transform"
            | "Switch"
            | "LOD"
            | "Billboard"
            | "Collision"
            | "Anchor"
            | "StaticGroup"
            | "Inline"
            | "LayerSet"
            | "Layer"
            | "LayoutLayer"
    )
}

/// The children the node `id` shows, in document order (see the module comment for the rule).
pub fn shown_children(scene: &Scene, id: NodeId) -> Result<Vec<NodeId>, X3dError> {
    let node = scene.node(id);
    Ok(match node.type_name.as_str() {
        "Switch" => {
            let which = scene.sf_int32(id, "whichChoice", -1)?;
            let choices: Vec<NodeId> = node.children_in("children").chain(node.children_in("choice")).collect();
            usize::try_from(which).ok().and_then(|i| choices.get(i).copied()).into_iter().collect()
        }
        "LOD" => {
            let levels = lod_levels(scene, id);
            levels
                .iter()
                .copied()
                .find(|&level| contains_shape(scene, level))
                .or(levels.first().copied())
                .into_iter()
                .collect()
        }
        "LayerSet" => {
            let active = scene.sf_int32(id, "activeLayer", 0)?;
            let layers: Vec<NodeId> = node.children_in("layers").collect();
            usize::try_from(active - 1).ok().and_then(|i| layers.get(i).copied()).into_iter().collect()
        }
        _ => node.children_in("children").collect(),
    })
}

/// The levels of an LOD (`children`, or `level` in VRML97), in order: the most detailed first.
pub fn lod_levels(scene: &Scene, id: NodeId) -> Vec<NodeId> {
    let node = scene.node(id);
    node.children_in("children").chain(node.children_in("level")).collect()
}

/// Whether the level an LOD shows depends on the viewer: it has a `range` (X3D 4.0 10.4.3).
pub fn lod_chooses_by_distance(scene: &Scene, id: NodeId) -> Result<bool, X3dError> {
    Ok(scene.node(id).type_name == "LOD" && !scene.mf_float(id, "range")?.is_empty())
}

/// The level an LOD shows for a viewer at `viewer_local` (in the LOD's own coordinate system), by X3D
/// 4.0 10.4.3: with ranges R0 < … < Rn−1, level 0 nearer than R0, level i from Ri−1 up to Ri, level n
/// from Rn−1 on; the last level stands for the levels a file leaves out. Without a range the choice is
/// [`shown_children`]'s.
pub fn lod_level_at(scene: &Scene, id: NodeId, viewer_local: glam::Vec3) -> Result<Option<NodeId>, X3dError> {
    let ranges = scene.mf_float(id, "range")?;
    if ranges.is_empty() {
        return Ok(shown_children(scene, id)?.first().copied());
    }
    let k = scene.units_of(id).length as f32;
    let center = glam::Vec3::from(scene.sf_length3(id, "center", [0.0; 3])?);
    let distance = viewer_local.distance(center);
    let index = ranges.iter().take_while(|&&r| distance >= r * k).count();
    let levels = lod_levels(scene, id);
    Ok(levels.get(index).or(levels.last()).copied())
}

/// Whether what the scene shows depends on where the viewer is: a Billboard (turned toward it, X3D 4.0
/// 10.4.1) or an LOD with ranges (10.4.3). Pictures of such a scene place its Shapes for their camera.
pub fn depends_on_the_viewer(scene: &Scene) -> bool {
    scene
        .reachable()
        .iter()
        .any(|&id| scene.node(id).type_name == "Billboard" || lod_chooses_by_distance(scene, id).unwrap_or(false))
}

/// The layers of a LayerSet that [`shown_children`] leaves out (all but the active one).
pub fn hidden_layers(scene: &Scene, id: NodeId) -> Result<Vec<NodeId>, X3dError> {
    let shown = shown_children(scene, id)?;
    Ok(scene.node(id).children_in("layers").filter(|l| !shown.contains(l)).collect())
}

/// Whether a Shape lies at or under `root` through any grouping field (`children`, `choice`, `level`),
/// at most [`MAX_SHAPE_DEPTH`] levels down. Breadth first, each node once: a node is first met at its
/// shallowest depth, and DEF/USE sharing cannot make the search exponential.
fn contains_shape(scene: &Scene, root: NodeId) -> bool {
    let mut queue = VecDeque::from([(root, 0usize)]);
    let mut seen = HashSet::from([root]);
    while let Some((id, depth)) = queue.pop_front() {
        let node = scene.node(id);
        if node.type_name == "Shape" {
            return true;
        }
        if depth >= MAX_SHAPE_DEPTH {
            continue;
        }
        for child in &node.children {
            if matches!(child.field.as_str(), "children" | "choice" | "level") && seen.insert(child.node) {
                queue.push_back((child.node, depth + 1));
            }
        }
    }
    false
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
        load_str(&text, Path::new("grouping.x3d"), &LoadOptions::default()).expect("test scene loads")
    }

    fn shown(scene: &Scene, def: &str) -> Vec<String> {
        shown_children(scene, scene.defs[def])
            .expect("fields read")
            .into_iter()
            .map(|id| scene.node(id).def_name().to_string())
            .collect()
    }

    const THREE: &str = "<Group DEF='A'/><Group DEF='B'/><Group DEF='C'/>";

    #[test]
    fn switch_shows_its_choice() {
        let s = scene(&format!("<Switch DEF='S' whichChoice='1'>{THREE}</Switch>"));
        assert_eq!(shown(&s, "S"), ["B"]);
    }

    #[test]
    fn switch_without_a_valid_choice_shows_nothing() {
        for which in ["-1", "3", "-2"] {
            let s = scene(&format!("<Switch DEF='S' whichChoice='{which}'>{THREE}</Switch>"));
            assert!(shown(&s, "S").is_empty(), "whichChoice {which}");
        }
        // The default whichChoice is -1.
        let s = scene(&format!("<Switch DEF='S'>{THREE}</Switch>"));
        assert!(shown(&s, "S").is_empty());
    }

    #[test]
    fn switch_counts_vrml97_choice_after_children() {
        let s =
            scene("<Switch DEF='S' whichChoice='1'><Group DEF='A'/><Group DEF='B' containerField='choice'/></Switch>");
        assert_eq!(shown(&s, "S"), ["B"]);
    }

    #[test]
    fn lod_skips_an_empty_first_level() {
        let s = scene(
            "<LOD DEF='L' range='1 10'>
               <Group DEF='EMPTY'/>
               <Transform DEF='NEAR'><Group><Shape><Box/></Shape></Group></Transform>
               <Shape DEF='FAR'><Sphere/></Shape>
             </LOD>",
        );
        assert_eq!(shown(&s, "L"), ["NEAR"]);
    }

    #[test]
    fn lod_with_a_shape_first_shows_the_first_level() {
        let s = scene("<LOD DEF='L'><Shape DEF='NEAR'><Box/></Shape><Shape DEF='FAR'><Sphere/></Shape></LOD>");
        assert_eq!(shown(&s, "L"), ["NEAR"]);
    }

    #[test]
    fn lod_without_shapes_shows_its_first_level() {
        let s = scene("<LOD DEF='L'><Group DEF='A'><Viewpoint/></Group><Group DEF='B'/></LOD>");
        assert_eq!(shown(&s, "L"), ["A"]);
        let s = scene("<LOD DEF='L'/>");
        assert!(shown(&s, "L").is_empty());
    }

    #[test]
    fn an_lod_with_ranges_shows_the_level_for_the_viewers_distance() {
        let s = scene(
            "<LOD DEF='L' center='0 1 0' range='2 10'>
               <Shape DEF='NEAR'><Box/></Shape><Shape DEF='MID'><Box/></Shape><Shape DEF='FAR'><Box/></Shape>
             </LOD>
             <LOD DEF='SHORT' range='2 10'><Shape DEF='ONLY'><Box/></Shape><Shape DEF='LAST'><Box/></Shape></LOD>
             <LOD DEF='FREE'><Group DEF='EMPTY'/><Shape DEF='DRAWN'><Box/></Shape></LOD>",
        );
        let at = |def: &str, viewer: [f32; 3]| {
            let level = lod_level_at(&s, s.defs[def], glam::Vec3::from(viewer)).expect("fields read");
            level.map(|id| s.node(id).def_name().to_string())
        };
        // Distances from the center (0 1 0): 1, 2 (a range's own value starts the next level), 9.9, 10, 50.
        assert_eq!(at("L", [0.0, 2.0, 0.0]).as_deref(), Some("NEAR"));
        assert_eq!(at("L", [0.0, 1.0, 2.0]).as_deref(), Some("MID"));
        assert_eq!(at("L", [0.0, 1.0, 9.9]).as_deref(), Some("MID"));
        assert_eq!(at("L", [0.0, 1.0, 10.0]).as_deref(), Some("FAR"));
        assert_eq!(at("L", [0.0, 1.0, 50.0]).as_deref(), Some("FAR"));
        // Fewer levels than ranges + 1: the last one stands for the rest.
        assert_eq!(at("SHORT", [0.0, 0.0, 50.0]).as_deref(), Some("LAST"));
        // No range: the browser's choice, the static rule (the first level that draws).
        assert_eq!(at("FREE", [0.0, 0.0, 50.0]).as_deref(), Some("DRAWN"));
        assert!(lod_chooses_by_distance(&s, s.defs["L"]).unwrap());
        assert!(!lod_chooses_by_distance(&s, s.defs["FREE"]).unwrap());
    }

    #[test]
    fn a_layer_set_shows_its_active_layer_only() {
        let layers = "<Layer DEF='MODEL' containerField='layers'><Shape DEF='A'><Box/></Shape></Layer>\
                      <Layer DEF='MENU' containerField='layers'><Shape DEF='B'><Box/></Shape></Layer>";
        let s = scene(&format!("<LayerSet DEF='S' activeLayer='1' order='1 2'>{layers}</LayerSet>"));
        assert_eq!(shown(&s, "S"), ["MODEL"]);
        assert_eq!(shown(&s, "MODEL"), ["A"]);
        assert_eq!(hidden_layers(&s, s.defs["S"]).unwrap(), [s.defs["MENU"]]);
        let s = scene(&format!("<LayerSet DEF='S' activeLayer='2'>{layers}</LayerSet>"));
        assert_eq!(shown(&s, "S"), ["MENU"]);
        // Layer 0 is the scene's own root nodes: no layer of the set is shown.
        let s = scene(&format!("<LayerSet DEF='S'>{layers}</LayerSet>"));
        assert!(shown(&s, "S").is_empty());
    }

    #[test]
    fn group_and_transform_show_all_children() {
        let s = scene(&format!("<Group DEF='G'>{THREE}</Group>"));
        assert_eq!(shown(&s, "G"), ["A", "B", "C"]);
        let s = scene(&format!("<Transform DEF='T' translation='1 0 0'>{THREE}</Transform>"));
        assert_eq!(shown(&s, "T"), ["A", "B", "C"]);
        assert!(is_grouping("Group") && is_grouping("Switch") && is_grouping("LOD") && is_grouping("Inline"));
        assert!(!is_grouping("Shape") && !is_grouping("HAnimJoint"));
    }

    #[test]
    fn shape_search_is_bounded_and_shared_nodes_are_visited_once() {
        // A chain deeper than the bound hides its Shape; USE of one group many times is one visit.
        let deep = format!(
            "{}<Shape><Box/></Shape>{}",
            "<Group>".repeat(MAX_SHAPE_DEPTH + 2),
            "</Group>".repeat(MAX_SHAPE_DEPTH + 2)
        );
        let s = scene(&format!("<LOD DEF='L'><Group DEF='DEEP'>{deep}</Group><Shape DEF='FAR'><Box/></Shape></LOD>"));
        assert_eq!(shown(&s, "L"), ["FAR"]);
        let mut shared = "<Group DEF='G0'/>".to_string();
        for i in 1..40 {
            shared = format!("<Group DEF='G{i}'>{shared}<Group USE='G{}'/></Group>", i - 1);
        }
        let s = scene(&format!("<LOD DEF='L'>{shared}<Shape DEF='FAR'><Box/></Shape></LOD>"));
        assert_eq!(shown(&s, "L"), ["FAR"]);
    }
}
