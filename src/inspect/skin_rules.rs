//! `check` rules for skins that bend the rules: Shapes under `skin` with no skinCoord, a skinCoord that no
//! joint weights, and (in `check`) a humanoid with no joints. Each is drawn as the peers that follow the
//! standard draw it (docs/wild.md, "Skins that bend the rules"); the finding names what the file lacks.

use crate::hanim::Humanoid;

use super::check::{Checker, Severity};

impl Checker<'_> {
    /// The skin without skinCoord, or with a skinCoord no joint weights.
    pub(super) fn skin_rules(&mut self, h: &Humanoid) {
        let Some(skin) = &h.skin else { return };
        let Some(coord) = skin.coord_node else {
            // 19774-1 6.2: the skin's face sets use skinCoord's points, which the joints' weights index.
            // Without it nothing can deform: the Shapes are drawn with their own Coordinates, rigid.
            let weighted = h.joints.iter().any(|j| !j.skin_coord_index.is_empty());
            let why = if weighted { "; the joints' skinCoordIndex weights index nothing" } else { "" };
            let message = format!(
                "{} skin Shape(s) but no skinCoord: the Shapes are drawn as authored, with their own \
                 Coordinates, and do not deform{why}",
                skin.shapes.len()
            );
            self.push(Severity::Warning, "skin-no-skincoord", h.node, message);
            return;
        };
        // No joints at all is `no-joints` (an error of its own); the skin is then drawn as authored too.
        if h.joints.is_empty() || skin.points.is_empty() || !skin.influences.entries.is_empty() {
            return;
        }
        let scene = &self.doc.scene;
        let on_humanoid = ["skinCoordIndex", "skinCoordWeight"].iter().any(|f| scene.node(h.node).field(f).is_some());
        let why = if on_humanoid {
            " (skinCoordIndex/skinCoordWeight are written on the HAnimHumanoid, which has no such fields: they \
             belong on its joints)"
        } else {
            ""
        };
        let message = format!(
            "skinCoord has {} points but no joint weights them: the skin stays in its bind pose{why}",
            skin.points.len()
        );
        self.push(Severity::Warning, "unbound-skin", coord, message);
    }
}
