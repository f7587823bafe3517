//! Reaches asked for by name, as the command line and scripts give them: effectors (Sites or joints)
//! moved to world positions along their default chains, other effectors pinned where they are.

use std::time::Instant;

use glam::{Quat, Vec3};

use super::{Effector, IkError, IkOptions, IkReport, default_chain_root, find_effector, solve};
use crate::hanim::{Document, Humanoid};
use crate::names::NotFound;
use crate::pose::{Pose, humanoid_from_joint};

/// Move the effector named `effector` (a Site, or a joint's centre) to `target` (world coordinates),
/// and, when `orientation` is given, turn its frame (a Site's own frame, or the joint's) to that world
/// orientation.
#[derive(Debug, Clone, PartialEq)]
pub struct Reach {
    pub effector: String,
    pub target: Vec3,
    pub orientation: Option<Quat>,
}

/// Everything one reach solve is given.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ReachRequest {
    pub reaches: Vec<Reach>,
    /// Effectors held where they are at the pose given.
    pub pins: Vec<String>,
    /// Chains run to the skeleton's root instead of the default (hand → shoulder, foot → hip, head →
    /// lower spine); pins then hold against a moving pelvis.
    pub to_root: bool,
    pub options: IkOptions,
}

/// One effector after the solve.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EffectorOutcome {
    pub name: String,
    pub pinned: bool,
    /// The top joint of its chain.
    pub chain_root: String,
    /// World coordinates.
    pub target: [f32; 3],
    pub reached: [f32; 3],
    pub distance: f32,
    /// With an orientation target: the angle (degrees) left between the effector's frame and it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub angle_error_degrees: Option<f32>,
}

/// The solve of one humanoid.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ReachOutcome {
    pub humanoid: String,
    pub effectors: Vec<EffectorOutcome>,
    pub iterations: usize,
    pub converged: bool,
    /// `joint:axis` (axis `x`, `y`, `z` of the limit frame) of every angle left on a limit.
    pub at_limit: Vec<String>,
    pub milliseconds: f64,
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ReachError {
    #[error(transparent)]
    NotFound(#[from] NotFound),
    #[error("humanoid '{humanoid}': {source}")]
    Solve { humanoid: String, source: IkError },
}

/// Solves every humanoid that has at least one of the named reach effectors, writing the rotation
/// offsets of its pose in `poses` (one per humanoid). A reach name found in no humanoid, or a pin name
/// missing from a humanoid that reaches, is an error listing close names.
pub fn reach_named(
    doc: &Document,
    poses: &mut [Pose],
    request: &ReachRequest,
) -> Result<Vec<ReachOutcome>, ReachError> {
    let mut found = vec![false; request.reaches.len()];
    let mut outcomes = Vec::new();
    for (h, pose) in doc.humanoids.iter().zip(poses.iter_mut()) {
        let mine: Vec<Reach> = request
            .reaches
            .iter()
            .zip(found.iter_mut())
            .filter(|(r, _)| find_effector(h, &r.effector).is_ok())
            .map(|(r, f)| {
                *f = true;
                r.clone()
            })
            .collect();
        if mine.is_empty() {
            continue;
        }
        outcomes.push(reach_humanoid(h, pose, &ReachRequest { reaches: mine, ..request.clone() })?);
    }
    if let Some(missing) = found.iter().position(|f| !f) {
        let h = doc.humanoids.first();
        let sites = h.into_iter().flat_map(|h| h.sites.iter().map(|s| s.name.as_str()));
        let joints = h.into_iter().flat_map(|h| h.joints.iter().map(|j| j.name.as_str()));
        return Err(NotFound::new("site or joint", &request.reaches[missing].effector, sites.chain(joints)).into());
    }
    Ok(outcomes)
}

/// Solves one humanoid: every reach and pin of `request` must name one of its Sites or joints.
pub fn reach_humanoid(h: &Humanoid, pose: &mut Pose, request: &ReachRequest) -> Result<ReachOutcome, ReachError> {
    let humanoid_from_world = pose.world_from_humanoid(h).inverse();
    let globals = humanoid_from_joint(h, pose);
    let mut effectors = Vec::new();
    let mut names = Vec::new();
    for r in &request.reaches {
        let p = find_effector(h, &r.effector)?;
        let root = default_chain_root(h, p.joint, request.to_root);
        let target = humanoid_from_world.transform_point3(r.target);
        // A Site's frame is the joint's turned by the Site's own rotation: the joint's frame must end at
        // the asked orientation with that rotation taken off.
        let (_, world_to_humanoid, _) = humanoid_from_world.to_scale_rotation_translation();
        let orientation =
            r.orientation.map(|q| (world_to_humanoid * q.normalize() * effector_frame(h, &p).inverse()).normalize());
        effectors.push(Effector { joint: p.joint, point: p.point, root, target, orientation });
        names.push((p.name, false));
    }
    for pin in &request.pins {
        let p = find_effector(h, pin)?;
        let root = default_chain_root(h, p.joint, request.to_root);
        let target = globals[p.joint].transform_point3(p.point);
        effectors.push(Effector { joint: p.joint, point: p.point, root, target, orientation: None });
        names.push((p.name, true));
    }
    let start = Instant::now();
    let report = solve(h, pose, &effectors, &request.options)
        .map_err(|source| ReachError::Solve { humanoid: h.name.clone(), source })?;
    let milliseconds = start.elapsed().as_secs_f64() * 1e3;
    Ok(outcome(h, pose, &effectors, names, &report, milliseconds))
}

/// The rotation of an effector's frame relative to its joint's: a Site's own rotation, none for a joint.
fn effector_frame(h: &Humanoid, p: &super::EffectorPoint) -> Quat {
    p.site.and_then(|i| h.sites.get(i)).map_or(Quat::IDENTITY, |site| {
        let (_, rotation, _) = (site.offset * site.transform.matrix()).to_scale_rotation_translation();
        rotation.normalize()
    })
}

fn outcome(
    h: &Humanoid,
    pose: &Pose,
    effectors: &[Effector],
    names: Vec<(String, bool)>,
    report: &IkReport,
    milliseconds: f64,
) -> ReachOutcome {
    let world_from_humanoid = pose.world_from_humanoid(h);
    let globals = humanoid_from_joint(h, pose);
    let effectors = effectors
        .iter()
        .zip(names)
        .zip(&report.angle_errors)
        .map(|((e, (name, pinned)), angle)| {
            let reached = world_from_humanoid.transform_point3(globals[e.joint].transform_point3(e.point));
            let target = world_from_humanoid.transform_point3(e.target);
            EffectorOutcome {
                name,
                pinned,
                chain_root: h.joints[e.root].name.clone(),
                target: target.to_array(),
                reached: reached.to_array(),
                distance: reached.distance(target),
                angle_error_degrees: angle.map(f32::to_degrees),
            }
        })
        .collect();
    let at_limit =
        report.at_limit.iter().map(|&(j, axis)| format!("{}:{}", h.joints[j].name, ["x", "y", "z"][axis])).collect();
    ReachOutcome {
        humanoid: h.name.clone(),
        effectors,
        iterations: report.iterations,
        converged: report.converged,
        at_limit,
        milliseconds,
    }
}
