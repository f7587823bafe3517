//! Humanoids a scene repeats: the same humanoid file brought in by several Inlines, a humanoid USEd
//! several times, instances of one PROTO with the same field values. Such twins have the same
//! skeleton, skin, displacers and geometry and differ only in where they stand and how they are posed,
//! so the GPU can skin them in one dispatch and draw them with instanced draws (`gpu::SceneDraw`).
//!
//! Twins are found by the content of their scene subtrees (node types, field values, the fields that
//! hold each child), not by how the file produced them: an Inline's copy and a hand-written copy of the
//! same text are twins alike.
//!
//! Events that pose a humanoid (joint rotations, displacer weights) are each copy's own. Events that
//! change its geometry or appearance (a ROUTE into a Material, a TextureTransform, a Coordinate of its
//! subtree) are drawn once for the whole group, so twins must receive the same values at every moment:
//! the routes into the same places of their subtrees must come from chains of the same clocks and
//! interpolators (TimeSensors, interpolators, sequencers, triggers: nodes whose output depends on the
//! scene time alone), as in a crowd of Inlines of one animated file. A humanoid whose geometry or
//! appearance anything else drives (a TouchSensor, a Script, a ProximitySensor) is nobody's twin.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use super::model::{Document, HumanoidIndex};
use crate::x3d::{NodeId, Scene};

/// Node types a ROUTE may write inside a humanoid that still has twins: what events change there only
/// poses it (joints, the humanoid, displacer weights), or plays something that does.
/// (Instances of the H-Anim 1 prototypes carry these native type names too.)
const POSING_TYPES: &[&str] = &["HAnimHumanoid", "HAnimJoint", "HAnimDisplacer", "HAnimMotion"];

/// The humanoids of `doc` grouped into twins, each group in document order and the groups ordered by
/// their first member; a humanoid without twins is a group of one. Every humanoid is in exactly one group.
pub fn twin_groups(doc: &Document) -> Vec<Vec<HumanoidIndex>> {
    let scene = &doc.scene;
    let mut hashes = SubtreeHashes { scene, memo: HashMap::new(), open: HashSet::new() };
    let mut drives = Drives::new(scene);
    let mut groups: Vec<Vec<HumanoidIndex>> = Vec::new();
    let mut signatures: Vec<Vec<DriveEntry>> = Vec::new();
    let mut by_key: HashMap<u64, usize> = HashMap::new();
    for (index, h) in doc.indexed_humanoids() {
        let signature = drives.of_humanoid(h.node, &mut hashes);
        // Equal hashes are checked against the group's first member node by node: a collision never
        // merges two different humanoids.
        let key = signature.as_ref().map(|_| hashes.of(h.node));
        let found = key.and_then(|k| by_key.get(&k).copied()).filter(|&g| {
            let first = &doc.humanoids[groups[g][0].0];
            signature.as_ref() == Some(&signatures[g]) && same_subtree(scene, first.node, h.node, &mut HashSet::new())
        });
        match found {
            Some(g) => groups[g].push(index),
            None => {
                if let Some(k) = key {
                    by_key.entry(k).or_insert(groups.len());
                }
                groups.push(vec![index]);
                signatures.push(signature.unwrap_or_default());
            }
        }
    }
    groups
}

/// The Shapes `shapes` (scene Shapes outside the humanoids) grouped into repeats: Shapes whose subtrees
/// hold the same types, field values and children (the floor of each Inline copy of one file, a USEd
/// Shape), each group in the order given and the groups ordered by their first member. `alone(i)` keeps
/// shape `i` in a group of its own (a Shape events change, or one a Switch may show later). Every index is
/// in exactly one group.
pub fn repeated_shapes(scene: &Scene, shapes: &[NodeId], alone: impl Fn(usize) -> bool) -> Vec<Vec<usize>> {
    let mut hashes = SubtreeHashes { scene, memo: HashMap::new(), open: HashSet::new() };
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut by_key: HashMap<u64, Vec<usize>> = HashMap::new();
    for (i, &shape) in shapes.iter().enumerate() {
        if alone(i) {
            groups.push(vec![i]);
            continue;
        }
        let key = hashes.of(shape);
        // Equal hashes are checked node by node against each candidate group's first member.
        let candidates = by_key.entry(key).or_default();
        let found =
            candidates.iter().copied().find(|&g| same_subtree(scene, shapes[groups[g][0]], shape, &mut HashSet::new()));
        match found {
            Some(g) => groups[g].push(i),
            None => {
                candidates.push(groups.len());
                groups.push(vec![i]);
            }
        }
    }
    groups
}

/// Node types whose output depends on the scene time and their inputs alone: a chain of them from a
/// clock gives every copy the same values at the same moment.
fn runs_on_time_alone(type_name: &str) -> bool {
    type_name == "TimeSensor"
        || type_name.ends_with("Interpolator")
        || type_name.ends_with("Sequencer")
        || matches!(type_name, "BooleanFilter" | "BooleanToggle" | "BooleanTrigger" | "IntegerTrigger" | "TimeTrigger")
}

/// One route into a humanoid's geometry or appearance: the place it writes (the node's position in the
/// humanoid's subtree, depth first, and the field) and what drives it (see [`Drives::upstream`]).
type DriveEntry = (usize, String, String, u64);

/// What drives the non-posing nodes of humanoids (see the module's docs).
struct Drives<'a> {
    scene: &'a Scene,
    /// The routes into each node.
    into: HashMap<NodeId, Vec<usize>>,
    /// Hash of a node's upstream chain, `None` where something other than a clock chain drives it.
    memo: HashMap<NodeId, Option<u64>>,
    open: HashSet<NodeId>,
}

impl<'a> Drives<'a> {
    fn new(scene: &'a Scene) -> Self {
        let mut into: HashMap<NodeId, Vec<usize>> = HashMap::new();
        for (r, route) in scene.routes.iter().enumerate() {
            into.entry(route.to_node).or_default().push(r);
        }
        Drives { scene, into, memo: HashMap::new(), open: HashSet::new() }
    }

    /// The routes into the geometry and appearance of the humanoid at `root`, sorted; `None` when one of
    /// them is not driven by clocks alone (the humanoid then has no twin).
    fn of_humanoid(&mut self, root: NodeId, hashes: &mut SubtreeHashes) -> Option<Vec<DriveEntry>> {
        let mut entries = Vec::new();
        if self.into.is_empty() {
            return Some(entries);
        }
        let mut seen = HashSet::new();
        let mut stack = vec![root];
        let mut position = 0usize;
        while let Some(id) = stack.pop() {
            if !seen.insert(id) {
                continue;
            }
            let node = self.scene.node(id);
            if !POSING_TYPES.contains(&node.type_name.as_str()) {
                for r in self.into.get(&id).cloned().unwrap_or_default() {
                    let route = &self.scene.routes[r];
                    let upstream = self.upstream(route.from_node, hashes)?;
                    entries.push((position, route.to_field.clone(), route.from_field.clone(), upstream));
                }
            }
            position += 1;
            stack.extend(node.children.iter().rev().map(|c| c.node));
        }
        entries.sort();
        Some(entries)
    }

    /// A hash of `id` (its content) and of everything routed into it, transitively; `None` when a node of
    /// that chain is not one that [`runs_on_time_alone`].
    fn upstream(&mut self, id: NodeId, hashes: &mut SubtreeHashes) -> Option<u64> {
        if let Some(&h) = self.memo.get(&id) {
            return h;
        }
        if !self.open.insert(id) {
            // A loop of routes among clock nodes: its content is hashed where it was entered.
            return Some(0x6c6f_6f70);
        }
        let result = self.upstream_uncached(id, hashes);
        self.open.remove(&id);
        self.memo.insert(id, result);
        result
    }

    fn upstream_uncached(&mut self, id: NodeId, hashes: &mut SubtreeHashes) -> Option<u64> {
        if !runs_on_time_alone(&self.scene.node(id).type_name) {
            return None;
        }
        let mut hasher = DefaultHasher::new();
        hashes.of(id).hash(&mut hasher);
        let mut inputs: Vec<(String, String, u64)> = Vec::new();
        for r in self.into.get(&id).cloned().unwrap_or_default() {
            let route = &self.scene.routes[r];
            let (to_field, from_field, from) = (route.to_field.clone(), route.from_field.clone(), route.from_node);
            inputs.push((to_field, from_field, self.upstream(from, hashes)?));
        }
        inputs.sort();
        inputs.hash(&mut hasher);
        Some(hasher.finish())
    }
}

/// Hashes of node subtrees, each computed once (a node USEd many times is hashed once: a file of nested
/// USEs stays linear).
struct SubtreeHashes<'a> {
    scene: &'a Scene,
    memo: HashMap<NodeId, u64>,
    /// Nodes being hashed further up: a cycle back to one hashes as a constant.
    open: HashSet<NodeId>,
}

impl SubtreeHashes<'_> {
    fn of(&mut self, id: NodeId) -> u64 {
        if let Some(&h) = self.memo.get(&id) {
            return h;
        }
        if !self.open.insert(id) {
            return 0x0063_7963_6c65;
        }
        let node = self.scene.node(id);
        let mut hasher = DefaultHasher::new();
        node.type_name.hash(&mut hasher);
        node.proto.hash(&mut hasher);
        for field in &node.fields {
            field.name.hash(&mut hasher);
            field.value.hash(&mut hasher);
        }
        for child in &node.children {
            child.field.hash(&mut hasher);
            self.of(child.node).hash(&mut hasher);
        }
        let h = hasher.finish();
        self.open.remove(&id);
        self.memo.insert(id, h);
        h
    }
}

/// Whether the subtrees at `a` and `b` hold the same types, field values and children, node by node.
fn same_subtree(scene: &Scene, a: NodeId, b: NodeId, compared: &mut HashSet<(NodeId, NodeId)>) -> bool {
    if a == b || !compared.insert((a, b)) {
        return true;
    }
    let (na, nb) = (scene.node(a), scene.node(b));
    na.type_name == nb.type_name
        && na.proto == nb.proto
        && na.fields.len() == nb.fields.len()
        && na.fields.iter().zip(&nb.fields).all(|(x, y)| x.name == y.name && x.value == y.value)
        && na.children.len() == nb.children.len()
        && na
            .children
            .iter()
            .zip(&nb.children)
            .all(|(x, y)| x.field == y.field && same_subtree(scene, x.node, y.node, compared))
}
