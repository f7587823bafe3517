//! USEs of names that no DEF before them defines, taken out of a document before it is written again:
//! ISO/IEC 19775-1 4.4.3 makes a USE name the node DEFed before it in document order (in its scope: the
//! file's, or a ProtoBody's), so such a USE, or one of a name DEFed only later, refers to nothing. The
//! loaders drop it with a warning; `convert` drops it too rather than write a dangling USE
//! that every reader (ours included) would have to drop again.

use std::collections::HashSet;

use super::{Content, Element, SyntaxDocument};

/// The element name the ClassicVRML reader gives a `USE name` it cannot resolve (it cannot know the
/// node's type there); never written: [`drop_undefined_uses`] always removes it.
pub(crate) const UNRESOLVED_USE: &str = "#USE";

/// One USE taken out: where its name stands (byte offset in the source text) and the name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DroppedUse {
    pub offset: u32,
    pub name: String,
}

/// Removes every element whose USE names no DEF before it in its scope, in document order. Recursive,
/// as the writers' callers are: the readers bound the tree's depth (`MAX_DEPTH`).
pub fn drop_undefined_uses(document: &mut SyntaxDocument) -> Vec<DroppedUse> {
    let mut dropped = Vec::new();
    let mut scopes = vec![HashSet::new()];
    walk(&mut document.root, &mut scopes, &mut dropped);
    dropped
}

fn walk(element: &mut Element, scopes: &mut Vec<HashSet<String>>, dropped: &mut Vec<DroppedUse>) {
    // A ProtoBody's DEF names are its own and it sees none from outside (19775-1 4.4.4).
    let body = element.name == "ProtoBody";
    if body {
        scopes.push(HashSet::new());
    }
    let mut kept = Vec::with_capacity(element.content.len());
    for content in std::mem::take(&mut element.content) {
        let Content::Element(mut child) = content else {
            kept.push(content);
            continue;
        };
        if let Some(undefined) = undefined_use(&child, scopes) {
            dropped.push(undefined);
            continue;
        }
        if let (Some(def), Some(scope)) = (child.attribute("DEF"), scopes.last_mut()) {
            scope.insert(def.to_string());
        }
        walk(&mut child, scopes, dropped);
        kept.push(Content::Element(child));
    }
    element.content = kept;
    if body {
        scopes.pop();
    }
}

/// The USE of `element`, when its name is not defined in the innermost scope.
fn undefined_use(element: &Element, scopes: &[HashSet<String>]) -> Option<DroppedUse> {
    let attribute = element.attributes.iter().find(|a| a.name == "USE")?;
    let defined = scopes.last().is_some_and(|scope| scope.contains(&attribute.value));
    (element.name == UNRESOLVED_USE || !defined)
        .then(|| DroppedUse { offset: attribute.offset, name: attribute.value.clone() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::x3d::Encoding;
    use std::path::Path;

    fn dropped(text: &str) -> (Vec<String>, String) {
        let mut document = crate::x3d::syntax::read(text, Encoding::Xml, Path::new("t.x3d")).unwrap();
        let names = drop_undefined_uses(&mut document).into_iter().map(|d| d.name).collect();
        (names, crate::x3d::syntax::write(&document, Encoding::Xml))
    }

    #[test]
    fn a_use_before_its_def_or_of_no_def_is_dropped_and_a_use_after_its_def_kept() {
        let (names, written) = dropped(
            "<X3D><Scene><Group USE='later'/><Group DEF='later'/><Group USE='later'/><Shape USE='nowhere'/>\
             </Scene></X3D>",
        );
        assert_eq!(names, ["later", "nowhere"]);
        assert_eq!(written.matches("USE=\"later\"").count(), 1, "{written}");
        assert!(!written.contains("nowhere"), "{written}");
    }

    #[test]
    fn a_proto_body_sees_only_its_own_defs() {
        let (names, _) = dropped(
            "<X3D><Scene><Group DEF='outer'/><ProtoDeclare name='P'><ProtoBody><Group DEF='inner'/>\
             <Group USE='inner'/><Group USE='outer'/></ProtoBody></ProtoDeclare><Group USE='inner'/>\
             </Scene></X3D>",
        );
        assert_eq!(names, ["outer", "inner"]);
    }
}
