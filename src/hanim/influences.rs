//! The one transposition of the skin data: H-Anim stores influences joint by joint
//! (`skinCoordIndex` / `skinCoordWeight`), deformation wants them point by point.
//!
//! Quirks of real files, handled as the semantics note (§2.2) decides, each reported once per joint:
//! fewer weights than indices (empty list → 1.0, else the last weight repeats), weight 0 (dropped),
//! weight outside [0, 1] (kept), index out of range (skipped), the same point twice for one joint
//! (weights summed), weights of a point not summing to 1 (residual form, reported).

use std::collections::HashMap;

use super::model::{Influences, Joint};

/// Something odd in the skin lists; `joint` is the joint it belongs to, if any.
#[derive(Debug, Clone, PartialEq)]
pub struct Quirk {
    pub joint: Option<usize>,
    pub message: String,
}

/// Builds the per-point lists from the joints in `skin_joints` order (the order entries appear in).
pub fn build(joints: &[Joint], skin_joints: &[usize], point_count: usize) -> (Influences, Vec<Quirk>) {
    let mut quirks = Vec::new();
    // (point, joint, weight) in joint-list order.
    let mut triples: Vec<(u32, u32, f32)> = Vec::new();
    for &j in skin_joints {
        let joint = &joints[j];
        let (index, weight) = (&joint.skin_coord_index, &joint.skin_coord_weight);
        if index.is_empty() {
            if !weight.is_empty() {
                quirks.push(Quirk {
                    joint: Some(j),
                    message: format!("joint '{}': skinCoordWeight without skinCoordIndex; ignored", joint.name),
                });
            }
            continue;
        }
        let mut out_of_range = 0usize;
        let mut zero = 0usize;
        let mut outside_unit = 0usize;
        let mut not_finite = 0usize;
        let mut duplicates = 0usize;
        let mut seen: HashMap<u32, usize> = HashMap::new();
        for (k, &i) in index.iter().enumerate() {
            let mut w = match weight.get(k) {
                Some(&w) => w,
                None => weight.last().copied().unwrap_or(1.0),
            };
            if !w.is_finite() {
                not_finite += 1;
                w = 0.0;
            }
            let Ok(point) = u32::try_from(i) else {
                out_of_range += 1;
                continue;
            };
            if point as usize >= point_count {
                out_of_range += 1;
                continue;
            }
            if w == 0.0 {
                zero += 1;
                continue;
            }
            if !(0.0..=1.0).contains(&w) {
                outside_unit += 1;
            }
            match seen.get(&point) {
                Some(&at) => {
                    duplicates += 1;
                    triples[at].2 += w;
                }
                None => {
                    seen.insert(point, triples.len());
                    triples.push((point, j as u32, w));
                }
            }
        }
        let name = &joint.name;
        let mut note = |message: String| quirks.push(Quirk { joint: Some(j), message });
        if weight.len() < index.len() && !weight.is_empty() {
            note(format!(
                "joint '{name}': {} skinCoordWeight values for {} skinCoordIndex entries; the last weight repeats",
                weight.len(),
                index.len()
            ));
        }
        if weight.len() > index.len() {
            note(format!(
                "joint '{name}': {} skinCoordWeight values for {} skinCoordIndex entries; extra weights ignored",
                weight.len(),
                index.len()
            ));
        }
        if out_of_range > 0 {
            note(format!("joint '{name}': {out_of_range} skinCoordIndex entries outside 0..{point_count}; skipped"));
        }
        if zero > 0 {
            note(format!("joint '{name}': {zero} zero weights dropped"));
        }
        if not_finite > 0 {
            note(format!("joint '{name}': {not_finite} weights are not finite; taken as 0"));
        }
        if outside_unit > 0 {
            note(format!("joint '{name}': {outside_unit} weights outside [0, 1]; kept as given"));
        }
        if duplicates > 0 {
            note(format!("joint '{name}': {duplicates} points listed more than once; their weights are summed"));
        }
    }

    // Stable counting sort by point keeps the joint-list order within each point.
    let mut offsets = vec![0u32; point_count + 1];
    for &(p, _, _) in &triples {
        offsets[p as usize + 1] += 1;
    }
    for i in 0..point_count {
        offsets[i + 1] += offsets[i];
    }
    let mut cursor = offsets.clone();
    let mut entries = vec![(0u32, 0.0f32); triples.len()];
    for &(p, j, w) in &triples {
        entries[cursor[p as usize] as usize] = (j, w);
        cursor[p as usize] += 1;
    }
    let influences = Influences { offsets, entries };

    let off_sum = (0..point_count)
        .filter(|&i| {
            let list = influences.of(i);
            !list.is_empty() && (list.iter().map(|e| e.1).sum::<f32>() - 1.0).abs() > 1e-3
        })
        .count();
    if off_sum > 0 {
        quirks.push(Quirk {
            joint: None,
            message: format!(
                "{off_sum} skin points have weights that do not sum to 1; the remainder stays at rest (residual form)"
            ),
        });
    }
    (influences, quirks)
}
