//! Property tests over random valid humanoids, written as X3D text and loaded through the real loader:
//! random joint trees (parents before children), joint centres, skin points with 1–3 influences whose
//! weights sum to 1, joint displacers. For every such humanoid the CPU reference
//! - in the zero pose (identity rotations, displacer weights 0) returns the binding points, and
//! - under a rigid rotation of HumanoidRoot about its centre moves every skinned point as the whole
//!   displaced rest shape rotated: p' = c + q·(p_rest' − c), where p_rest' has the displacers applied.

use std::fmt::Write;
use std::path::Path;

use glam::{Quat, Vec3};
use hanim_viewer::hanim::{self, Humanoid};
use hanim_viewer::pose::{self, Pose};
use proptest::prelude::*;

/// A joint displacer: owner joint, (point, displacement) entries, weight.
type RandomDisplacer = (usize, Vec<(usize, Vec3)>, f32);

#[derive(Debug, Clone)]
struct RandomHumanoid {
    /// parents[i] < i for i > 0; joint 0 is humanoid_root.
    parents: Vec<usize>,
    centres: Vec<Vec3>,
    points: Vec<Vec3>,
    /// Per point: (joint, weight) with weights summing to 1.
    influences: Vec<Vec<(usize, f32)>>,
    /// (owner joint, [(point, displacement)], weight).
    displacers: Vec<RandomDisplacer>,
}

fn vec3(range: f32) -> impl Strategy<Value = Vec3> + Clone {
    (-range..range, -range..range, -range..range).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn random_humanoid() -> impl Strategy<Value = RandomHumanoid> {
    (1usize..12, 1usize..40).prop_flat_map(|(joints, points)| {
        let parents = (1..joints).map(|i| 0..i).collect::<Vec<_>>();
        let influence = proptest::collection::vec((0..joints, 0.05f32..1.0), 1..4);
        let displacement = proptest::collection::vec((0..points, vec3(0.2)), 1..5);
        (
            parents,
            proptest::collection::vec(vec3(1.0), joints),
            proptest::collection::vec(vec3(1.5), points),
            proptest::collection::vec(influence, points),
            proptest::collection::vec((0..joints, displacement, -1.0f32..1.0), 0..4),
        )
            .prop_map(|(parents, centres, points, raw_influences, displacers)| {
                let influences = raw_influences
                    .into_iter()
                    .map(|list| {
                        // One entry per joint, weights normalised to sum to 1.
                        let mut merged: Vec<(usize, f32)> = Vec::new();
                        for (j, w) in list {
                            match merged.iter_mut().find(|(k, _)| *k == j) {
                                Some(e) => e.1 += w,
                                None => merged.push((j, w)),
                            }
                        }
                        let total: f32 = merged.iter().map(|(_, w)| w).sum();
                        merged.into_iter().map(|(j, w)| (j, w / total)).collect()
                    })
                    .collect();
                let displacers = displacers
                    .into_iter()
                    .map(|(owner, list, weight)| {
                        // A point at most once per displacer.
                        let mut seen = Vec::new();
                        let list =
                            list.into_iter().filter(|(p, _)| !seen.contains(p) && (seen.push(*p), true).1).collect();
                        (owner, list, weight)
                    })
                    .collect();
                RandomHumanoid {
                    parents: std::iter::once(0).chain(parents).collect(),
                    centres,
                    points,
                    influences,
                    displacers,
                }
            })
    })
}

fn floats(values: impl IntoIterator<Item = f32>) -> String {
    values.into_iter().map(|v| format!("{v:.9}")).collect::<Vec<_>>().join(" ")
}

/// The humanoid as an X3D document: nested HAnimJoint elements, skin weights on the joints, displacers
/// on their owners, the skin coordinates in a Coordinate node.
fn to_x3d(r: &RandomHumanoid) -> String {
    let n = r.parents.len();
    let children: Vec<Vec<usize>> = (0..n).map(|i| (1..n).filter(|&c| r.parents[c] == i).collect()).collect();
    let name = |j: usize| if j == 0 { "humanoid_root".to_string() } else { format!("j{j}") };
    let mut out = String::from(
        "<X3D profile='Immersive' version='4.0'><Scene>\n<HAnimHumanoid DEF='h' name='h' version='2.0'>\n",
    );
    // Depth-first with an explicit stack: (joint, whether its children were already written).
    let mut stack = vec![(0usize, false)];
    while let Some((j, closing)) = stack.pop() {
        if closing {
            out.push_str("</HAnimJoint>\n");
            continue;
        }
        let (indices, weights): (Vec<usize>, Vec<f32>) = r
            .influences
            .iter()
            .enumerate()
            .filter_map(|(p, list)| list.iter().find(|(k, _)| *k == j).map(|(_, w)| (p, *w)))
            .unzip();
        let c = r.centres[j];
        let container = if j == 0 { " containerField='skeleton'" } else { "" };
        writeln!(
            out,
            "<HAnimJoint DEF='{0}' name='{0}'{container} center='{1}' skinCoordIndex='{2}' skinCoordWeight='{3}'>",
            name(j),
            floats([c.x, c.y, c.z]),
            indices.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(" "),
            floats(weights)
        )
        .unwrap();
        for (d, (owner, list, weight)) in r.displacers.iter().enumerate() {
            if *owner == j {
                writeln!(
                    out,
                    "<HAnimDisplacer name='d{d}_feature' containerField='displacers' weight='{weight:.9}' coordIndex='{}' displacements='{}'/>",
                    list.iter().map(|(p, _)| p.to_string()).collect::<Vec<_>>().join(" "),
                    floats(list.iter().flat_map(|(_, v)| [v.x, v.y, v.z]))
                )
                .unwrap();
            }
        }
        stack.push((j, true));
        for &c in children[j].iter().rev() {
            stack.push((c, false));
        }
    }
    for j in 0..n {
        writeln!(out, "<HAnimJoint USE='{}' containerField='joints'/>", name(j)).unwrap();
    }
    writeln!(
        out,
        "<Coordinate containerField='skinCoord' point='{}'/>",
        floats(r.points.iter().flat_map(|p| [p.x, p.y, p.z]))
    )
    .unwrap();
    out.push_str("</HAnimHumanoid>\n</Scene></X3D>\n");
    out
}

fn load(r: &RandomHumanoid) -> Humanoid {
    let text = to_x3d(r);
    let doc = hanim::load_str(&text, Path::new("random.x3d")).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(doc.humanoids.len(), 1);
    doc.humanoids.into_iter().next().unwrap()
}

fn near(a: Vec3, b: Vec3, scale: f32) -> bool {
    (a - b).length() <= 1e-4 * scale.max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x4855_4d41),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn zero_pose_returns_the_binding_points(r in random_humanoid()) {
        let h = load(&r);
        prop_assert_eq!(h.joints.len(), r.parents.len());
        for (j, joint) in h.joints.iter().enumerate().skip(1) {
            let parent = joint.parent.expect("a parent");
            prop_assert!(parent < j);
        }
        let skin = pose::deform_skin(&h, &Pose::zero(&h)).expect("a skin");
        prop_assert_eq!(skin.points.len(), r.points.len());
        for (got, want) in skin.points.iter().zip(&r.points) {
            prop_assert!(near(*got, *want, 1.0), "{got} != {want}");
        }
    }

    #[test]
    fn rotating_the_root_rotates_every_skinned_point(r in random_humanoid(), axis in vec3(1.0), angle in -3.0f32..3.0) {
        let h = load(&r);
        let root = h.joints.iter().position(|j| j.parent.is_none()).expect("a root");
        let c = h.joints[root].rest.center;
        let q = Quat::from_axis_angle(axis.try_normalize().unwrap_or(Vec3::Y), angle);
        // The displaced rest shape: zero pose with the file's displacer weights.
        let mut displaced = Pose::zero(&h);
        for (d, displacer) in h.displacers.iter().enumerate() {
            displaced.displacer_weights[d] = displacer.weight;
        }
        let rest = pose::deform_skin(&h, &displaced).expect("a skin");
        let mut turned = displaced.clone();
        turned.rotations[root] = q;
        let moved = pose::deform_skin(&h, &turned).expect("a skin");
        let scale = r.points.iter().map(|p| p.length()).fold(1.0f32, f32::max) + 1.0;
        for (i, (got, before)) in moved.points.iter().zip(&rest.points).enumerate() {
            let want = c + q * (*before - c);
            prop_assert!(near(*got, want, scale), "point {i}: {got} != {want}");
        }
    }
}
