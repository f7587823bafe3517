//! What an ASF file describes: its units, the root, the bones with their axes, degrees of freedom and
//! limits, and the order `:hierarchy` puts them in.

use glam::{DQuat, DVec3};

use crate::mocap::text::MocapWarning;

/// A rotational or translational degree of freedom of an ASF bone (or of the root).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dof {
    Tx,
    Ty,
    Tz,
    Rx,
    Ry,
    Rz,
    /// Translation along the bone ("stretch"); no H-Anim equivalent.
    L,
}

impl Dof {
    pub fn parse(text: &str) -> Option<Dof> {
        Some(match text.to_ascii_lowercase().as_str() {
            "tx" => Dof::Tx,
            "ty" => Dof::Ty,
            "tz" => Dof::Tz,
            "rx" => Dof::Rx,
            "ry" => Dof::Ry,
            "rz" => Dof::Rz,
            "l" => Dof::L,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Dof::Tx => "tx",
            Dof::Ty => "ty",
            Dof::Tz => "tz",
            Dof::Rx => "rx",
            Dof::Ry => "ry",
            Dof::Rz => "rz",
            Dof::L => "l",
        }
    }
}

/// An Euler rotation order as ASF writes it: `XYZ` means X is applied first, so `R = Rz·Ry·Rx`
/// (docs/asf-amc.md §4). Each entry is an axis index (0 = x, 1 = y, 2 = z).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AsfRotationOrder(pub [usize; 3]);

impl AsfRotationOrder {
    pub const XYZ: AsfRotationOrder = AsfRotationOrder([0, 1, 2]);

    /// `xyz`, `XYZ`, or the three letters as separate tokens.
    pub fn parse(text: &str) -> Option<AsfRotationOrder> {
        let letters: Vec<usize> = text
            .chars()
            .map(|c| match c.to_ascii_lowercase() {
                'x' => Some(0),
                'y' => Some(1),
                'z' => Some(2),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let [a, b, c] = letters[..] else { return None };
        (a != b && b != c && a != c).then_some(AsfRotationOrder([a, b, c]))
    }

    /// The rotation for angles (radians) about x, y and z: the first axis of the order is applied
    /// first, i.e. the product reads the order right to left.
    pub fn rotation(self, angles: DVec3) -> DQuat {
        let about = |axis: usize| -> DQuat {
            let angle = angles[axis];
            match axis {
                0 => DQuat::from_rotation_x(angle),
                1 => DQuat::from_rotation_y(angle),
                _ => DQuat::from_rotation_z(angle),
            }
        };
        about(self.0[2]) * about(self.0[1]) * about(self.0[0])
    }

    pub fn name(self) -> String {
        self.0.iter().map(|&a| ['X', 'Y', 'Z'][a]).collect()
    }
}

/// `:units`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AsfUnits {
    pub mass: f64,
    /// The length multiplier. Read as CMU and the ASF example do: file units ÷ `length` = inches.
    pub length: f64,
    /// `angle deg` (the default) or `angle rad`.
    pub degrees: bool,
}

impl Default for AsfUnits {
    fn default() -> Self {
        Self { mass: 1.0, length: 1.0, degrees: true }
    }
}

impl AsfUnits {
    /// Metres per file length unit: `0.0254 / length` (CMU: 0.0254 / 0.45 = 0.056444, the CMU FAQ value).
    pub fn metres_per_unit(&self) -> f64 {
        0.0254 / self.length
    }

    /// Radians per file angle unit.
    pub fn radians_per_unit(&self) -> f64 {
        if self.degrees { std::f64::consts::PI / 180.0 } else { 1.0 }
    }
}

/// `:root`.
#[derive(Debug, Clone, PartialEq)]
pub struct Root {
    /// The channels of an AMC `root` line, in order.
    pub order: Vec<Dof>,
    /// Euler order of the root rotation and orientation.
    pub axis: AsfRotationOrder,
    /// File units.
    pub position: DVec3,
    /// File angle units.
    pub orientation: DVec3,
}

impl Default for Root {
    fn default() -> Self {
        Self { order: Vec::new(), axis: AsfRotationOrder::XYZ, position: DVec3::ZERO, orientation: DVec3::ZERO }
    }
}

/// One `begin … end` block of `:bonedata`.
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    pub id: Option<i64>,
    pub name: String,
    /// Unit direction in the global rest frame.
    pub direction: DVec3,
    /// File length units.
    pub length: f64,
    /// Angles of the bone's axis frame `C` in the global rest frame (file angle units).
    pub axis: DVec3,
    pub axis_order: AsfRotationOrder,
    pub dofs: Vec<Dof>,
    /// One (min, max) per dof, in file units; ±infinity for `inf`.
    pub limits: Vec<(f64, f64)>,
    pub bodymass: Option<f64>,
    pub cofmass: Option<f64>,
    /// Parent bone index; `None` when the parent is the root.
    pub parent: Option<usize>,
    /// Line of the bone's `begin`.
    pub line: usize,
}

/// A parsed ASF file.
#[derive(Debug, Clone, PartialEq)]
pub struct Asf {
    pub version: Option<String>,
    pub name: String,
    pub units: AsfUnits,
    pub documentation: String,
    pub root: Root,
    pub bones: Vec<Bone>,
    /// Bone indices parent before child, in the order `:hierarchy` reaches them (first child first).
    pub order: Vec<usize>,
    /// `:skin` file names.
    pub skins: Vec<String>,
    pub warnings: Vec<MocapWarning>,
}

impl Asf {
    pub fn bone_index(&self, name: &str) -> Option<usize> {
        self.bones.iter().position(|b| b.name.eq_ignore_ascii_case(name))
    }

    /// Numbers on one AMC frame: the root's channels plus every bone's dofs.
    pub fn values_per_frame(&self) -> usize {
        self.root.order.len() + self.bones.iter().map(|b| b.dofs.len()).sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn euler_orders_apply_their_first_axis_first() {
        let angles = DVec3::new(0.3, -0.5, 1.1);
        let xyz = AsfRotationOrder::parse("XYZ").unwrap().rotation(angles);
        let expected = DQuat::from_rotation_z(1.1) * DQuat::from_rotation_y(-0.5) * DQuat::from_rotation_x(0.3);
        assert!(xyz.abs_diff_eq(expected, 1e-12));
        let zyx = AsfRotationOrder::parse("zyx").unwrap().rotation(angles);
        let expected = DQuat::from_rotation_x(0.3) * DQuat::from_rotation_y(-0.5) * DQuat::from_rotation_z(1.1);
        assert!(zyx.abs_diff_eq(expected, 1e-12));
        assert_eq!(AsfRotationOrder::parse("xxy"), None);
        assert_eq!(AsfRotationOrder::parse("xy"), None);
    }
}
