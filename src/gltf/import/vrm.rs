//! VRM avatars (`VRM` extension of VRM 0.x, `VRMC_vrm` of VRM 1.0): the humanoid bone list, the
//! expressions (0.x blend shape groups) and the title.

use std::collections::HashMap;

use serde_json::Value;

/// What the VRM extension says about the avatar.
#[derive(Debug, Default)]
pub(super) struct Vrm {
    /// VRM 0.x (its avatars face −Z, and its thumb bones are named differently).
    pub version0: bool,
    /// Node index → H-Anim joint name.
    pub joints: HashMap<usize, String>,
    pub expressions: Vec<Expression>,
    pub title: Option<String>,
}

/// One expression: the morph targets it sets and with what weight.
#[derive(Debug, Clone)]
pub(super) struct Expression {
    pub name: String,
    /// `(node, morph target, weight in [0, 1])`.
    pub binds: Vec<(usize, usize, f32)>,
}

fn index(v: &Value) -> Option<usize> {
    v.as_u64().map(|n| n as usize)
}

/// The VRM data of `json`, or `None` for a plain glTF asset. `nodes_of_mesh` lists the nodes using a mesh
/// (VRM 0.x binds expressions to meshes, 1.0 to nodes).
pub(super) fn read(json: &Value, nodes_of_mesh: impl Fn(usize) -> Vec<usize>) -> Option<Vrm> {
    let extensions = json.get("extensions")?;
    if let Some(vrm1) = extensions.get("VRMC_vrm") {
        let mut out =
            Vrm { title: vrm1.pointer("/meta/name").and_then(Value::as_str).map(String::from), ..Vrm::default() };
        if let Some(bones) = vrm1.pointer("/humanoid/humanBones").and_then(Value::as_object) {
            for (bone, value) in bones {
                if let (Some(node), Some(joint)) =
                    (value.get("node").and_then(index), super::bones::vrm_joint(bone, false))
                {
                    out.joints.insert(node, joint);
                }
            }
        }
        for group in ["preset", "custom"] {
            let Some(map) = vrm1.pointer(&format!("/expressions/{group}")).and_then(Value::as_object) else { continue };
            for (name, expression) in map {
                let binds = expression
                    .get("morphTargetBinds")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|b| {
                        let weight = b.get("weight").and_then(Value::as_f64).unwrap_or(1.0) as f32;
                        Some((b.get("node").and_then(index)?, b.get("index").and_then(index)?, weight))
                    })
                    .collect();
                out.expressions.push(Expression { name: name.clone(), binds });
            }
        }
        return Some(out);
    }
    let vrm0 = extensions.get("VRM")?;
    let mut out = Vrm {
        version0: true,
        title: vrm0.pointer("/meta/title").and_then(Value::as_str).map(String::from),
        ..Vrm::default()
    };
    for bone in vrm0.pointer("/humanoid/humanBones").and_then(Value::as_array).into_iter().flatten() {
        if let (Some(name), Some(node)) = (bone.get("bone").and_then(Value::as_str), bone.get("node").and_then(index))
            && let Some(joint) = super::bones::vrm_joint(name, true)
        {
            out.joints.insert(node, joint);
        }
    }
    for group in vrm0.pointer("/blendShapeMaster/blendShapeGroups").and_then(Value::as_array).into_iter().flatten() {
        let preset = group.get("presetName").and_then(Value::as_str).unwrap_or("unknown");
        let name = if preset.is_empty() || preset == "unknown" {
            group.get("name").and_then(Value::as_str).unwrap_or("expression").to_string()
        } else {
            preset.to_string()
        };
        let mut binds = Vec::new();
        for b in group.get("binds").and_then(Value::as_array).into_iter().flatten() {
            let (Some(mesh), Some(target)) = (b.get("mesh").and_then(index), b.get("index").and_then(index)) else {
                continue;
            };
            // VRM 0.x weights run from 0 to 100.
            let weight = b.get("weight").and_then(Value::as_f64).unwrap_or(100.0) as f32 / 100.0;
            binds.extend(nodes_of_mesh(mesh).into_iter().map(|node| (node, target, weight)));
        }
        out.expressions.push(Expression { name, binds });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn both_versions_give_bones_and_expressions() {
        let v1 = json!({"extensions": {"VRMC_vrm": {"meta": {"name": "A"},
            "humanoid": {"humanBones": {"hips": {"node": 2}, "leftThumbProximal": {"node": 5}}},
            "expressions": {"preset": {"happy": {"morphTargetBinds": [{"node": 7, "index": 1, "weight": 1.0}]}}}}}});
        let v = read(&v1, |_| vec![]).unwrap();
        assert!(!v.version0);
        assert_eq!(v.joints[&2], "humanoid_root");
        assert_eq!(v.joints[&5], "l_metacarpophalangeal_1");
        assert_eq!(v.expressions[0].name, "happy");
        assert_eq!(v.expressions[0].binds, vec![(7, 1, 1.0)]);
        let v0 = json!({"extensions": {"VRM": {"meta": {"title": "B"},
            "humanoid": {"humanBones": [{"bone": "leftThumbProximal", "node": 4}]},
            "blendShapeMaster": {"blendShapeGroups": [{"name": "Joy", "presetName": "joy",
                "binds": [{"mesh": 0, "index": 3, "weight": 50}]}]}}}});
        let v = read(&v0, |m| if m == 0 { vec![9] } else { vec![] }).unwrap();
        assert!(v.version0);
        assert_eq!(v.joints[&4], "l_carpometacarpal_1");
        assert_eq!(v.expressions[0].name, "joy");
        assert_eq!(v.expressions[0].binds, vec![(9, 3, 0.5)]);
        assert!(read(&json!({"asset": {}}), |_| vec![]).is_none());
    }
}
