//! Effectors found by name, and the default chains a drag moves: hand → shoulder, foot → hip,
//! head → lower spine, or the whole way to the skeleton's root.

use glam::Vec3;

use crate::hanim::{Humanoid, site_joint};
use crate::names::{NotFound, hanim_alias, without_prefix};

/// A point that can be an end effector: a Site's origin or a joint's centre, in the space of the joint
/// it moves with.
#[derive(Debug, Clone, PartialEq)]
pub struct EffectorPoint {
    /// The Site's or joint's name as the file writes it.
    pub name: String,
    pub joint: usize,
    /// In the joint's space.
    pub point: Vec3,
    /// `Some(index into Humanoid::sites)` for a Site, `None` for a joint centre.
    pub site: Option<usize>,
}

/// The effector named `name`: a Site (by name or DEF, with or without the humanoid's name prefix), else a
/// joint (its centre; either H-Anim spelling of its name). Sites fixed to the humanoid (listed in `viewpoints`, or outside every joint) do
/// not move with any joint and cannot be effectors; they are left out of the names offered.
pub fn find_effector(h: &Humanoid, name: &str) -> Result<EffectorPoint, NotFound> {
    // The other H-Anim spelling of a joint name counts too (`l_wrist` finds `l_radiocarpal`).
    let alias = hanim_alias(name);
    let matches = |node_name: &str, def: Option<&str>| {
        let bare = without_prefix(node_name, &h.name);
        node_name == name || def == Some(name) || bare == name || alias.is_some_and(|a| bare == a)
    };
    for (index, site) in h.sites.iter().enumerate() {
        if let Some(joint) = site_joint(h, site)
            && matches(&site.name, site.def.as_deref())
        {
            // Site global: G_joint · offset · L(site) (model.rs), so its origin in joint space is this.
            let point = (site.offset * site.transform.matrix()).transform_point3(Vec3::ZERO);
            return Ok(EffectorPoint { name: site.name.clone(), joint, point, site: Some(index) });
        }
    }
    for (joint, j) in h.joints.iter().enumerate() {
        if matches(&j.name, j.def.as_deref()) {
            return Ok(EffectorPoint { name: j.name.clone(), joint, point: j.rest.center, site: None });
        }
    }
    let sites = h.sites.iter().filter(|s| site_joint(h, s).is_some()).map(|s| s.name.as_str());
    let joints = h.joints.iter().map(|j| j.name.as_str());
    Err(NotFound::new("site or joint", name, sites.chain(joints)))
}

/// The joints from `joint` up to and including `root`, child first; `None` when `root` is not `joint`
/// or one of its ancestors (or an index is out of range).
pub fn chain_joints(h: &Humanoid, joint: usize, root: usize) -> Option<Vec<usize>> {
    let mut chain = Vec::new();
    let mut current = Some(joint);
    while let Some(j) = current {
        if j >= h.joints.len() || chain.len() > h.joints.len() {
            return None;
        }
        chain.push(j);
        if j == root {
            return Some(chain);
        }
        current = h.joints[j].parent;
    }
    None
}

/// The top of `joint`'s branch: the ancestor that has no parent (normally `humanoid_root`).
pub fn topmost_ancestor(h: &Humanoid, joint: usize) -> usize {
    let mut top = joint;
    let mut steps = 0;
    while let Some(parent) = h.joints.get(top).and_then(|j| j.parent) {
        top = parent;
        steps += 1;
        if steps > h.joints.len() {
            break;
        }
    }
    top
}

/// The chain root a drag of an effector on `joint` uses: with `to_root` the skeleton's root; otherwise the
/// nearest ancestor (or `joint` itself) that is a shoulder (`l_shoulder`, `r_shoulder`: hand → shoulder)
/// or a hip (foot → hip); for anything else (head, neck, spine) the lowest vertebra on the way up
/// (`vl5` in a full skeleton: head → lower spine), or, in a skeleton without vertebrae, the joint just
/// below the root. Names are compared without the humanoid's prefix.
pub fn default_chain_root(h: &Humanoid, joint: usize, to_root: bool) -> usize {
    let top = topmost_ancestor(h, joint);
    if to_root {
        return top;
    }
    let name = |j: usize| without_prefix(&h.joints[j].name, &h.name);
    // Shoulder and hip kept their names from H-Anim 1.0 to 2.0.
    let is_limb_top = |j: usize| matches!(name(j), "l_shoulder" | "r_shoulder" | "l_hip" | "r_hip");
    // vl1…vl5, vt1…vt12, vc1…vc7.
    let is_vertebra = |j: usize| {
        let b = name(j).as_bytes();
        b.len() >= 3 && b[0] == b'v' && matches!(b[1], b'l' | b't' | b'c') && b[2..].iter().all(u8::is_ascii_digit)
    };
    let (mut lowest_vertebra, mut below_top) = (None, joint);
    let mut current = Some(joint);
    let mut steps = 0;
    while let Some(j) = current.filter(|&j| j < h.joints.len() && steps <= h.joints.len()) {
        if is_limb_top(j) {
            return j;
        }
        if is_vertebra(j) {
            lowest_vertebra = Some(j);
        }
        if h.joints[j].parent == Some(top) {
            below_top = j;
        }
        current = h.joints[j].parent;
        steps += 1;
    }
    lowest_vertebra.unwrap_or(if joint == top { top } else { below_top })
}
