//! Live items by number: each number given once until the count wraps, and never 0 or `u32::MAX`
//! (which callers keep for "none" and for markers of their own).

use std::collections::HashMap;

/// Items by the number `insert` gave them.
#[derive(Debug)]
pub struct Numbered<T> {
    last: u32,
    live: HashMap<u32, T>,
}

impl<T> Default for Numbered<T> {
    fn default() -> Self {
        Numbered {
            last: 0,
            live: HashMap::new(),
        }
    }
}

impl<T> Numbered<T> {
    /// Keeps `item` under the next number, which it returns.
    pub fn insert(&mut self, item: T) -> u32 {
        self.last = match self.last.wrapping_add(1) {
            0 | u32::MAX => 1,
            n => n,
        };
        self.live.insert(self.last, item);
        self.last
    }

    pub fn get(&self, id: u32) -> Option<&T> {
        self.live.get(&id)
    }

    pub fn get_mut(&mut self, id: u32) -> Option<&mut T> {
        self.live.get_mut(&id)
    }

    pub fn remove(&mut self, id: u32) -> Option<T> {
        self.live.remove(&id)
    }

    /// Lets go of every item and of the memory that held them; numbers go on from the last one.
    pub fn clear(&mut self) {
        self.live = HashMap::new();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_never_0_nor_max_and_not_reused_before_wrapping() {
        let mut n = Numbered::default();
        assert_eq!((n.insert("a"), n.insert("b")), (1, 2));
        assert_eq!(n.remove(1), Some("a"));
        assert_eq!(n.insert("c"), 3, "a freed number is not given again");
        n.last = u32::MAX - 2;
        assert_eq!((n.insert("d"), n.insert("e")), (u32::MAX - 1, 1));
        assert_eq!(n.get(1), Some(&"e"));
        assert_eq!(n.get(0), None);
    }
}
