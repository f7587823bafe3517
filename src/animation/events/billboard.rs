//! Billboard (X3D 4.0 ISO/IEC 19775-1 clause 10.4.1): a grouping node that turns its children about
//! `axisOfRotation` (in its own coordinate system) so that their local +Z points as nearly as it can
//! toward the viewer. `axisOfRotation 0 0 0` is viewer alignment: the children turn with the viewer, their
//! local +Y along the viewer's up and +Z along the viewer's +Z (back toward the viewer), as X_ITE does.

use glam::{Mat4, Quat, Vec3};

use super::ViewerPose;
use crate::x3d::{NodeId, Scene, X3dError};

/// Below this the axis, or the viewer's direction in the plane it turns in, counts as zero.
const EPS: f32 = 1e-6;

/// The Billboard's rotation for a viewer given in the Billboard's own coordinate system. With an axis
/// parallel to +Z, or the viewer on the axis, the rotation is undefined (clause 10.4.1); none is made.
pub fn billboard_rotation(axis: Vec3, viewer: ViewerPose) -> Quat {
    if axis.length_squared() < EPS {
        return viewer.orientation.normalize();
    }
    let a = axis.normalize();
    let flat = |v: Vec3| v - v.dot(a) * a;
    let (z, to_viewer) = (flat(Vec3::Z), flat(viewer.position));
    if z.length_squared() < EPS || to_viewer.length_squared() < EPS {
        return Quat::IDENTITY;
    }
    let angle = a.dot(z.cross(to_viewer)).atan2(z.dot(to_viewer));
    Quat::from_axis_angle(a, angle)
}

/// The local matrix of Billboard `id` under `world_from_parent` for a viewer in world coordinates.
pub(super) fn billboard_matrix(
    scene: &Scene,
    id: NodeId,
    world_from_parent: Mat4,
    viewer: ViewerPose,
) -> Result<Mat4, X3dError> {
    let axis = Vec3::from(scene.sf_vec3f(id, "axisOfRotation", [0.0, 1.0, 0.0])?);
    let parent_from_world = world_from_parent.inverse();
    let (_, world_rotation, _) = world_from_parent.to_scale_rotation_translation();
    let local = ViewerPose {
        position: parent_from_world.transform_point3(viewer.position),
        orientation: world_rotation.inverse() * viewer.orientation,
    };
    Ok(Mat4::from_quat(billboard_rotation(axis, local)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(position: Vec3) -> ViewerPose {
        ViewerPose { position, orientation: Quat::from_rotation_y(0.7) }
    }

    #[test]
    fn a_billboard_turns_its_z_toward_the_viewer_about_its_axis() {
        // About +Y, the viewer at +X and a little above: +Z turns onto +X (90° about Y), the height ignored.
        let r = billboard_rotation(Vec3::Y, at(Vec3::new(5.0, 2.0, 0.0)));
        assert!((r * Vec3::Z).abs_diff_eq(Vec3::X, 1e-5), "{}", r * Vec3::Z);
        // Behind: half a turn.
        let r = billboard_rotation(Vec3::Y, at(Vec3::new(0.0, 0.0, -3.0)));
        assert!((r * Vec3::Z).abs_diff_eq(-Vec3::Z, 1e-5));
        // Viewer alignment (0 0 0): the viewer's own orientation.
        let r = billboard_rotation(Vec3::ZERO, at(Vec3::new(1.0, 2.0, 3.0)));
        assert!(r.dot(Quat::from_rotation_y(0.7)).abs() > 1.0 - 1e-6);
        // Undefined cases make no rotation: the axis along Z, the viewer on the axis.
        assert_eq!(billboard_rotation(Vec3::Z, at(Vec3::X)), Quat::IDENTITY);
        assert_eq!(billboard_rotation(Vec3::Y, at(Vec3::new(0.0, 4.0, 0.0))), Quat::IDENTITY);
    }
}
