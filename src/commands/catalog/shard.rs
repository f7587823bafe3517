//! `--shard I/N`: a fixed share of a catalogue's inputs, so that N processes (on one machine or many)
//! together catalogue each input exactly once. Inputs are dealt out by their position in the stable
//! input order (sorted paths), round-robin, so shares stay within one input of each other in size and
//! a file's share depends only on the inputs, never on timing.

/// Share `index` (1-based) of `count`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether the input at `position` (0-based, stable order) is in this share.
    pub fn takes(self, position: usize) -> bool {
        position % self.count == self.index - 1
    }

    /// Whether this share reports what concerns the whole run (inputs that do not exist): the first.
    pub fn is_first(self) -> bool {
        self.index == 1
    }
}

/// `I/N` with 1 ≤ I ≤ N.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("'{text}' is not a share I/N with 1 <= I <= N (e.g. 2/4)");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let index: usize = i.trim().parse().map_err(|_| bad())?;
    let count: usize = n.trim().parse().map_err(|_| bad())?;
    if index == 0 || count == 0 || index > count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_cover_every_input_once() {
        assert_eq!(parse_shard("2/4"), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "1/0", "x/2", "3", "1/2/3"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        let shares: Vec<Shard> = (1..=3).map(|i| Shard { index: i, count: 3 }).collect();
        for position in 0..20 {
            assert_eq!(shares.iter().filter(|s| s.takes(position)).count(), 1, "input {position}");
        }
        let sizes: Vec<usize> = shares.iter().map(|s| (0..20).filter(|&p| s.takes(p)).count()).collect();
        assert_eq!(sizes, [7, 7, 6]);
    }
}
