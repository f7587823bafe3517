//! Builds the H-Anim model from an X3D scene.
//!
//! Every walk here is iterative (explicit stacks), so a 10,000-deep joint chain neither overflows the
//! stack nor takes quadratic time. The quirks of real files are handled as the semantics note decides and
//! each one is recorded as a warning with the file position of the node that has it.
//!
//! This module reads the file and walks the scene outside humanoids ([`build_document`]); each humanoid is
//! built by a `HumanoidBuilder` (`humanoid`), whose walks live beside it by job: `skeleton` (joints,
//! segments, nested H-Anim nodes), `sites` (sites, viewpoints, lights), `displacers`, `skin`, `motions`
//! (motions and `info`), all reading fields through `fields` (transform fields, rotations, warnings at a
//! field's position). `bindables` picks the Background and NavigationInfo bound at load, inside
//! humanoids too.

use std::path::Path;

use glam::Mat4;

use crate::x3d::grouping::{is_grouping, shown_children};
use crate::x3d::{self, LoadOptions, NodeId, Scene, SourcePos, X3dError};

use super::light_scope::{Ancestry, light_scope};
use super::model::*;

mod bindables;
mod displacers;
mod fields;
mod humanoid;
mod motions;
mod poses;
mod sites;
mod skeleton;
mod skin;

use bindables::{Bindings, bindables_below, is_bindable};
pub(crate) use fields::{grouping_matrix, transform_fields};
use humanoid::HumanoidBuilder;
pub use motions::count_channels;
use sites::{read_light, read_viewpoint};

/// Errors that stop building a humanoid model.
#[derive(Debug, Clone, thiserror::Error)]
pub enum HanimError {
    #[error(transparent)]
    X3d(#[from] X3dError),
    #[error("{pos}: {message}")]
    Model { pos: SourcePos, message: String },
}

/// Upper bound on node instances visited while walking the scene graph. DEF/USE sharing can make a small
/// file describe an exponentially large tree; past this the file is rejected instead of hanging. Every
/// visited Shape is kept with its matrix, so the bound also caps memory (2M × ~70 bytes); a humanoid scene
/// has thousands of node instances, a large instanced scene a few hundred thousand.
const MAX_NODE_VISITS: usize = 2_000_000;

/// Loads a scene file (X3D XML, ClassicVRML or VRML97, gzip-compressed or not) and builds its humanoids.
pub fn load(path: &Path) -> Result<Document, HanimError> {
    let scene = x3d::load_file(path, &LoadOptions::default())?;
    build_document(scene)
}

/// As [`load`], reporting how far it has come to `progress` (parsing the main file, then building).
pub fn load_with_progress(path: &Path, progress: std::sync::Arc<x3d::LoadProgress>) -> Result<Document, HanimError> {
    progress.set_stage(x3d::LoadStage::Reading);
    let options = LoadOptions { progress: Some(progress.clone()), ..LoadOptions::default() };
    let scene = x3d::load_file(path, &options)?;
    progress.set_stage(x3d::LoadStage::Building);
    build_document(scene)
}

/// Loads scene text, XML or classic (told apart by the `#VRML` / `#X3D` header); `path` names it in
/// messages and resolves relative URLs.
pub fn load_str(text: &str, path: &Path) -> Result<Document, HanimError> {
    let scene = x3d::load_str(text, path, &LoadOptions::default())?;
    build_document(scene)
}

/// Whether a file's version (`4.0`, `3.3`, `VRML97`, …) is X3D 4 or later, where an RGB texture
/// multiplies the diffuse colour instead of replacing it (X3D 4.0, 17.2.2.4 and Table 17.3).
fn is_x3d4_or_later(version: &str) -> bool {
    let major = version.trim().split('.').next().and_then(|m| m.parse::<u32>().ok());
    major.is_some_and(|m| (4..100).contains(&m))
}

/// Walks the scene outside humanoids: finds humanoids with their parent transform, viewpoints, shapes and
/// scene settings (with the Background and NavigationInfo bound at load, which may sit inside a humanoid).
pub fn build_document(scene: Scene) -> Result<Document, HanimError> {
    let mut warnings = Vec::new();
    let mut humanoid_nodes: Vec<(NodeId, Mat4)> = Vec::new();
    let mut viewpoints = Vec::new();
    let mut initial_viewpoint = None;
    let mut viewpoints_inlined = Vec::new();
    let mut other_shapes = Vec::new();
    let mut switched_out_shapes = Vec::new();
    let mut settings = SceneSettings {
        background: None,
        texture_times_diffuse: is_x3d4_or_later(&scene.version),
        headlight: true,
        navigation_types: Vec::new(),
        collision_distance: None,
        lights: Vec::new(),
    };
    let mut bindings = Bindings::default();
    let mut switched_out_ancestors: Vec<Vec<NodeId>> = Vec::new();
    // Grouping ancestors as a tree of links (group, parent link), shared by the nodes below a group.
    let mut links: Vec<(NodeId, Option<usize>)> = Vec::new();
    // Whether a node below `link` came from an Inline: the bindable nodes of an inlined file are not
    // candidates for the binding at load (VRML97 4.6.10, kept by X3D; X_ITE binds so too).
    let inlined = |scene: &Scene, links: &[(NodeId, Option<usize>)], mut link: Option<usize>| {
        while let Some(k) = link {
            if scene.node(links[k].0).type_name == "Inline" {
                return true;
            }
            link = links[k].1;
        }
        false
    };
    let ancestors_of = |links: &[(NodeId, Option<usize>)], mut link: Option<usize>| {
        let mut out = Vec::new();
        while let Some(k) = link {
            out.push(links[k].0);
            link = links[k].1;
        }
        out.reverse();
        out
    };
    let mut ancestry = Ancestry::default();
    let mut stack: Vec<(NodeId, Mat4, Option<usize>)> =
        scene.roots.iter().rev().map(|&r| (r, Mat4::IDENTITY, None)).collect();
    let mut visits = 0usize;
    while let Some((id, world_from_parent, link)) = stack.pop() {
        visits += 1;
        if visits > MAX_NODE_VISITS {
            return Err(HanimError::Model {
                pos: scene.pos(scene.node(id).loc),
                message: format!("the scene graph expands to more than {MAX_NODE_VISITS} node instances through USE"),
            });
        }
        let type_name = scene.node(id).type_name.as_str();
        match type_name {
            "Viewpoint" | "OrthoViewpoint" => {
                let from_inline = inlined(&scene, &links, link);
                if initial_viewpoint.is_none() && !from_inline {
                    initial_viewpoint = Some(viewpoints.len());
                }
                viewpoints.push((read_viewpoint(&scene, id)?, world_from_parent));
                viewpoints_inlined.push(from_inline);
            }
            "Shape" => {
                other_shapes.push((id, world_from_parent));
                ancestry.shapes.push(ancestors_of(&links, link));
            }
            t if is_bindable(t) => {
                if inlined(&scene, &links, link) {
                    continue;
                }
                bindings.offer(&scene, id, &mut settings)?;
            }
            "DirectionalLight" | "PointLight" | "SpotLight" => {
                let scope = light_scope(&scene, id, &ancestors_of(&links, link))?;
                if let Some(light) = read_light(&scene, id, world_from_parent, scope, &mut warnings)? {
                    settings.lights.push(light);
                }
            }
            t if is_grouping(t) => {
                let m = world_from_parent * grouping_matrix(&scene, id, &mut warnings)?;
                let shown = shown_children(&scene, id)?;
                links.push((id, link));
                let below = Some(links.len() - 1);
                if t == "LayerSet" {
                    for layer in crate::x3d::grouping::hidden_layers(&scene, id)? {
                        warnings.push(x3d::Warning {
                            pos: scene.pos(scene.node(layer).loc),
                            message: format!(
                                "{} is not drawn: only the LayerSet's active layer is (each layer has its own \
                                 viewpoint and is drawn over the others, X3D 4.0 35.2)",
                                scene.describe(layer)
                            ),
                        });
                    }
                }
                // The choices a Switch hides now and the levels an LOD shows at other distances are
                // built too, hidden until an event or the viewer's distance shows them.
                let hidden_now: Vec<NodeId> = match t {
                    "Switch" => {
                        let node = scene.node(id);
                        node.children_in("children").chain(node.children_in("choice")).collect()
                    }
                    "LOD" if crate::x3d::grouping::lod_chooses_by_distance(&scene, id)? => {
                        crate::x3d::grouping::lod_levels(&scene, id)
                    }
                    _ => Vec::new(),
                };
                for choice in hidden_now {
                    if !shown.contains(&choice) {
                        // Lit as the choice's group is (lights inside a hidden choice are not read).
                        let first = switched_out_shapes.len();
                        shapes_below(&scene, choice, m, &mut switched_out_shapes)?;
                        switched_out_ancestors
                            .extend((first..switched_out_shapes.len()).map(|_| ancestors_of(&links, below)));
                    }
                }
                for child in shown.into_iter().rev() {
                    stack.push((child, m, below));
                }
            }
            // A humanoid is built below. The bindable nodes inside it, or inside an H-Anim 1.0 joint tree
            // written outside its humanoid (reached through the `joints` list), are bound from here,
            // where they stand in the document.
            t if t.starts_with("HAnim") => {
                if t == "HAnimHumanoid" {
                    humanoid_nodes.push((id, world_from_parent));
                    ancestry.humanoids.push(ancestors_of(&links, link));
                }
                if !inlined(&scene, &links, link) {
                    for bindable in bindables_below(&scene, id)? {
                        bindings.offer(&scene, bindable, &mut settings)?;
                    }
                }
            }
            _ => {}
        }
    }
    let mut humanoids = Vec::new();
    for (id, world_from_parent) in humanoid_nodes {
        humanoids.push(HumanoidBuilder::new(&scene, id, world_from_parent).build()?);
    }
    let mut all_warnings = scene.warnings.clone();
    all_warnings.extend(warnings);
    for h in &humanoids {
        all_warnings.extend(h.warnings.iter().cloned());
        // A defective motion still loads (it may play clamped, or be left out of the clips): a warning.
        let defects = super::motion_rules::motion_defects(&scene, h);
        all_warnings.extend(defects.into_iter().map(|d| x3d::Warning { pos: d.pos, message: d.message }));
    }
    ancestry.shapes.extend(switched_out_ancestors);
    Ok(Document {
        scene,
        humanoids,
        viewpoints,
        initial_viewpoint,
        viewpoints_inlined,
        other_shapes,
        switched_out_shapes,
        settings,
        ancestry,
        warnings: all_warnings,
    })
}

/// Every Shape at or below `root` outside humanoids, through every child of grouping nodes (all the
/// choices of a Switch, the shown level of an LOD), with its world matrix (`world_from_parent` above
/// `root`), in walk order. Bounded like the document walk.
fn shapes_below(
    scene: &Scene,
    root: NodeId,
    world_from_parent: Mat4,
    out: &mut Vec<(NodeId, Mat4)>,
) -> Result<(), HanimError> {
    let mut stack = vec![(root, world_from_parent)];
    let mut visits = 0usize;
    while let Some((id, world_from_parent)) = stack.pop() {
        visits += 1;
        if visits > MAX_NODE_VISITS {
            break;
        }
        let node = scene.node(id);
        match node.type_name.as_str() {
            "Shape" => out.push((id, world_from_parent)),
            t if is_grouping(t) => {
                let m = world_from_parent * grouping_matrix(scene, id, &mut Vec::new())?;
                let children: Vec<NodeId> = if t == "Switch" {
                    node.children_in("children").chain(node.children_in("choice")).collect()
                } else {
                    shown_children(scene, id)?
                };
                for child in children.into_iter().rev() {
                    stack.push((child, m));
                }
            }
            _ => {}
        }
    }
    Ok(())
}
