//! Names as people type them: did-you-mean suggestions, H-Anim 1.x ↔ 2.0 aliases and the humanoid-name
//! prefixes files put on node names. One implementation for the commands (`--pose`, `--view`,
//! `--motion`), the window's script and the motion-capture mapping, so a name that one of them accepts
//! or suggests, the others do too.
//!
//! Nothing here knows about documents: callers pass the names they have.

pub mod standard;

/// Levenshtein distance, for "did you mean" lists.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != *cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// Names close to `wanted` (case-insensitive: containing it, contained in it, or a few edits away),
/// closest first, at most 8.
pub fn close_names<'a>(wanted: &str, names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let wanted = wanted.to_lowercase();
    let limit = (wanted.chars().count() / 3).max(2);
    let mut scored: Vec<(usize, &str)> = names
        .into_iter()
        .filter_map(|name| {
            let lower = name.to_lowercase();
            let distance = edit_distance(&wanted, &lower);
            if lower.contains(&wanted) || wanted.contains(&lower) {
                Some((distance.min(1), name))
            } else {
                (distance <= limit).then_some((distance, name))
            }
        })
        .collect();
    scored.sort();
    scored.dedup_by_key(|(_, n)| *n);
    scored.into_iter().take(8).map(|(_, n)| n).collect()
}

/// A name that was asked for and not found, with what the file has: its message lists close names
/// when there are some, otherwise the first dozen names.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct NotFound {
    message: String,
}

impl NotFound {
    /// `what`: the kind of thing ("joint", "displacer"); `names`: every name the caller has.
    pub fn new<'a>(what: &str, wanted: &str, names: impl IntoIterator<Item = &'a str>) -> NotFound {
        let names: Vec<&str> = names.into_iter().collect();
        let close = close_names(wanted, names.iter().copied());
        let message = if close.is_empty() {
            let sample: Vec<&str> = names.iter().copied().take(12).collect();
            let more = if names.len() > sample.len() { ", ..." } else { "" };
            format!("no {what} named '{wanted}' (the file has {}: {}{more})", names.len(), sample.join(", "))
        } else {
            format!("no {what} named '{wanted}'; close names: {}", close.join(", "))
        };
        NotFound { message }
    }
}

/// `"; close names: a, b"` for `wanted` among `names`, or nothing when none is close (for messages that
/// list the names themselves).
pub fn close_names_hint<'a>(wanted: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    let close = close_names(wanted, names);
    if close.is_empty() { String::new() } else { format!("; close names: {}", close.join(", ")) }
}

/// The other spelling of an H-Anim joint name that changed between H-Anim 1.x and 2.0 (19774-1 §4.1 and
/// Annex A; the 1.0 specification's names): `HumanoidRoot` ↔ `humanoid_root`, `l_ankle` ↔
/// `l_talocrural`, … `None` for names that did not change.
pub fn hanim_alias(name: &str) -> Option<&'static str> {
    standard::HANIM1_ALIASES.iter().find_map(|&(old, new)| {
        if name == old {
            Some(new)
        } else if name == new {
            Some(old)
        } else {
            None
        }
    })
}

/// `name` without the humanoid-name prefix files put on node names (`hanim_`, `Joe_`): the part after
/// `<humanoid_name>_` or `hanim_`, or `name` itself when it has neither (or nothing follows).
pub fn without_prefix<'a>(name: &'a str, humanoid_name: &str) -> &'a str {
    for prefix in [humanoid_name, "hanim"] {
        if prefix.is_empty() {
            continue;
        }
        if let Some(rest) = name.strip_prefix(prefix).and_then(|r| r.strip_prefix('_'))
            && !rest.is_empty()
        {
            return rest;
        }
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_prefer_near_matches() {
        let names = ["l_shoulder", "r_shoulder", "l_elbow", "skullbase"];
        assert_eq!(close_names("l_sholder", names), vec!["l_shoulder", "r_shoulder"]);
        assert_eq!(close_names("shoulder", names)[..2], ["l_shoulder", "r_shoulder"]);
        assert!(close_names("xyz", names).is_empty());
    }

    #[test]
    fn not_found_lists_close_names_or_a_sample() {
        let names = ["l_shoulder", "r_shoulder", "l_elbow"];
        assert_eq!(
            NotFound::new("joint", "l_sholder", names).to_string(),
            "no joint named 'l_sholder'; close names: l_shoulder, r_shoulder"
        );
        assert_eq!(
            NotFound::new("joint", "xyz", names).to_string(),
            "no joint named 'xyz' (the file has 3: l_shoulder, r_shoulder, l_elbow)"
        );
    }

    #[test]
    fn aliases_go_both_ways_and_prefixes_come_off() {
        assert_eq!(hanim_alias("HumanoidRoot"), Some("humanoid_root"));
        assert_eq!(hanim_alias("l_talocrural"), Some("l_ankle"));
        assert_eq!(hanim_alias("l_knee"), None);
        assert_eq!(without_prefix("hanim_l_knee", "Joe"), "l_knee");
        assert_eq!(without_prefix("Joe_l_knee", "Joe"), "l_knee");
        assert_eq!(without_prefix("Joe_", "Joe"), "Joe_");
    }
}
