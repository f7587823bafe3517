//! `:hierarchy`: `begin`, lines `PARENT CHILD…` naming `root` or bones of `:bonedata`, `end`; and the
//! skeleton they build once the file is read: every bone's parent, and the bones ordered parent before
//! child.

use std::collections::HashMap;

use super::skeleton::Asf;
use crate::mocap::text::{Line, MocapError, Reporter, Token};

/// The state of `:hierarchy` between lines.
#[derive(Debug, Default)]
pub(super) struct Hierarchy<'t> {
    /// Whether the file has a `:hierarchy` keyword.
    pub(super) seen: bool,
    /// Between its `begin` and `end`.
    open: bool,
    /// Its `end` was read (a second `begin` is an error).
    done: bool,
    /// `(parent, child, child token)` links, parent `None` for `root`; resolved when the file is read.
    links: Vec<(Option<usize>, usize, Token<'t>)>,
}

impl<'t> Hierarchy<'t> {
    /// Before another `:keyword`: the hierarchy may not be left open.
    pub(super) fn check_closed(&self, r: &Reporter, keyword: &Token<'_>) -> Result<(), MocapError> {
        if self.open {
            return Err(r.token(keyword, format!(":hierarchy has no 'end' before {}", keyword.text)));
        }
        Ok(())
    }

    /// At the end of the file: the hierarchy may not be left open.
    pub(super) fn check_ended(&self, r: &Reporter, (line, column): (usize, usize)) -> Result<(), MocapError> {
        if self.open {
            return Err(r.at(line, column, "the file ends inside :hierarchy: expected 'end'"));
        }
        Ok(())
    }

    /// One line of `:hierarchy`; `names` are the bones of `:bonedata` by lower-case name.
    pub(super) fn read_line(
        &mut self,
        r: &Reporter,
        line: &Line<'t>,
        names: &HashMap<String, usize>,
    ) -> Result<(), MocapError> {
        let first = line.tokens[0];
        let key = first.text.to_ascii_lowercase();
        if key == "begin" && !self.open && !self.done {
            self.open = true;
            if let Some(extra) = line.tokens.get(1) {
                return Err(r.token(extra, "expected nothing after 'begin'"));
            }
        } else if key == "end" && self.open {
            self.open = false;
            self.done = true;
        } else if !self.open {
            return Err(r.token(&first, format!("expected 'begin' to open :hierarchy, found '{}'", first.text)));
        } else {
            self.read_links(r, line, &key, names)?;
        }
        Ok(())
    }

    /// `PARENT CHILD…`: the parent (`root` or a bone) and at least one child bone.
    fn read_links(
        &mut self,
        r: &Reporter,
        line: &Line<'t>,
        key: &str,
        names: &HashMap<String, usize>,
    ) -> Result<(), MocapError> {
        let first = line.tokens[0];
        let parent = if key == "root" {
            None
        } else {
            Some(*names.get(key).ok_or_else(|| {
                r.token(
                    &first,
                    format!("unknown bone '{}' in :hierarchy (expected 'root' or a bone of :bonedata)", first.text),
                )
            })?)
        };
        if line.tokens.len() < 2 {
            return Err(r.token(&first, format!("expected child bones after '{}' in :hierarchy", first.text)));
        }
        for child in &line.tokens[1..] {
            let index = *names.get(&child.text.to_ascii_lowercase()).ok_or_else(|| {
                r.token(child, format!("unknown bone '{}' in :hierarchy (expected a bone of :bonedata)", child.text))
            })?;
            self.links.push((parent, index, *child));
        }
        Ok(())
    }

    /// Sets every bone's parent from the `:hierarchy` links and orders bones parent before child
    /// (iteratively, so a deep chain is fine). A bone listed twice, unreachable from `root`, or in a cycle
    /// is an error.
    pub(super) fn resolve(&self, r: &Reporter, asf: &mut Asf) -> Result<(), MocapError> {
        let links = &self.links;
        let mut parent_set = vec![false; asf.bones.len()];
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); asf.bones.len() + 1]; // last = root
        for (parent, child, token) in links {
            if parent_set[*child] {
                return Err(r.token(token, format!("bone '{}' has a second parent in :hierarchy", token.text)));
            }
            if *parent == Some(*child) {
                return Err(r.token(token, format!("bone '{}' is listed as its own child", token.text)));
            }
            parent_set[*child] = true;
            asf.bones[*child].parent = *parent;
            children[parent.unwrap_or(asf.bones.len())].push(*child);
        }
        // Depth-first from the root with an explicit stack, first child first (the "primary route").
        let mut stack: Vec<usize> = children[asf.bones.len()].iter().rev().copied().collect();
        let mut order = Vec::with_capacity(asf.bones.len());
        let mut visited = vec![false; asf.bones.len()];
        while let Some(b) = stack.pop() {
            if std::mem::replace(&mut visited[b], true) {
                continue;
            }
            order.push(b);
            stack.extend(children[b].iter().rev().copied());
        }
        if let Some(missing) = (0..asf.bones.len()).find(|&b| !visited[b]) {
            let bone = &asf.bones[missing];
            let why = if parent_set[missing] {
                "is in a cycle that never reaches 'root'"
            } else {
                "never appears in :hierarchy"
            };
            return Err(r.at(
                bone.line,
                1,
                format!("bone '{}' {why} (expected every bone to hang from root)", bone.name),
            ));
        }
        asf.order = order;
        Ok(())
    }
}
