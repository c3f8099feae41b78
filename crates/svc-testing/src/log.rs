//! svc-sdk/testing's logs: the newest entries up to a limit, the oldest dropped first and counted.

use std::collections::VecDeque;

/// The entries kept by default: about a thousand requests of at most `MAX_TEXT` bytes of text each.
pub const DEFAULT_LIMIT: usize = 1000;

/// The bytes of a logged method or path: a longer one is cut, on a char boundary, and ends in "…".
pub const MAX_TEXT: usize = 512;

/// The newest `limit` entries, and how many older ones were dropped to keep to it.
pub struct Log<T> {
    entries: VecDeque<T>,
    limit: usize,
    dropped: u64,
}

impl<T> Log<T> {
    pub fn new(limit: usize) -> Log<T> {
        Log {
            entries: VecDeque::new(),
            limit,
            dropped: 0,
        }
    }

    /// Keeps `entry`, dropping the oldest when the log is full (a limit of 0 keeps none).
    pub fn push(&mut self, entry: T) {
        if self.entries.len() >= self.limit {
            self.dropped += 1;
            if self.entries.pop_front().is_none() {
                return;
            }
        }
        self.entries.push_back(entry);
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> {
        self.entries.iter()
    }

    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Empties the log and gives its memory back (not only its entries).
    pub fn clear(&mut self) {
        self.entries = VecDeque::new();
        self.dropped = 0;
    }
}

/// `text` within `MAX_TEXT` bytes: cut on a char boundary and ended by "…" when it is longer.
pub fn clipped(text: &str) -> String {
    if text.len() <= MAX_TEXT {
        return text.to_string();
    }
    let mut end = MAX_TEXT - '…'.len_utf8();
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_run_keeps_the_newest_entries_and_counts_the_dropped() {
        let mut log = Log::new(3);
        for i in 0..5000 {
            log.push(i);
        }
        assert_eq!(log.iter().copied().collect::<Vec<_>>(), [4997, 4998, 4999]);
        assert_eq!(log.dropped(), 4997);
        log.clear();
        assert_eq!((log.iter().count(), log.dropped()), (0, 0));
        assert_eq!(log.entries.capacity(), 0, "a cleared log holds no memory");
        log.push(1);
        assert_eq!(log.iter().count(), 1, "the log goes on after a clear");
        let mut none = Log::new(0);
        none.push(1);
        assert_eq!((none.iter().count(), none.dropped()), (0, 1));
    }

    #[test]
    fn long_text_is_cut_within_the_bound() {
        assert_eq!(clipped("/books/v3/items"), "/books/v3/items");
        for text in ["/".repeat(30_000), "é".repeat(30_000)] {
            let cut = clipped(&text);
            assert!(cut.len() <= MAX_TEXT && cut.ends_with('…'), "{}", cut.len());
        }
    }
}
