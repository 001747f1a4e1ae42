//! The table files a [`Store`](crate::store::Store) has hashed, or that its solve wrote, so
//! that a table opened again unchanged is not hashed again.
//!
//! A whole solve, and a whole verification, read most tables from several later steps.
//! Hashing each child in full at every step that reads it took about a tenth of the placement
//! phase, to re-check files that this same process had written or checked minutes before. A
//! file counts as unchanged when its inode, size and modification time are those it had when
//! it was checked: tables are replaced only by a rename, which gives a new inode (the format's
//! contract).

use morris_db::Key;
use std::collections::HashMap;
use std::path::Path;
use std::time::SystemTime;

/// What identifies one version of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    inode: u64,
}

impl Stamp {
    /// The identity of the file at `path` now, or `None` when it cannot be read.
    pub fn of(path: &Path) -> Option<Stamp> {
        let meta = std::fs::metadata(path).ok()?;
        Some(Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            inode: inode(&meta),
        })
    }
}

#[cfg(unix)]
fn inode(meta: &std::fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::ino(meta)
}

/// Without inodes, size and modification time alone identify a version.
#[cfg(not(unix))]
fn inode(_: &std::fs::Metadata) -> u64 {
    0
}

/// The version of each key's file that this process hashed or wrote.
#[derive(Debug, Default)]
pub struct KnownFiles(HashMap<Key, Stamp>);

impl KnownFiles {
    /// True when the file of `key`, as `stamp` identifies it, is the version this process
    /// checked or wrote.
    pub fn knows(&self, key: Key, stamp: Option<Stamp>) -> bool {
        stamp.is_some() && self.0.get(&key) == stamp.as_ref()
    }

    /// Records that the file of `key` was checked or written as `stamp` identifies it (a
    /// stamp taken before the check: a file replaced meanwhile then has another inode and is
    /// checked again).
    pub fn record(&mut self, key: Key, stamp: Option<Stamp>) {
        match stamp {
            Some(s) => self.0.insert(key, s),
            None => self.0.remove(&key),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replaced_or_rewritten_file_is_not_known() {
        let dir = morris_testdirs::scratch("known-files");
        let path = dir.join("t");
        std::fs::write(&path, b"one").unwrap();
        let key = Key::new(3, 3, 0, 0);
        let mut checked = KnownFiles::default();
        assert!(!checked.knows(key, Stamp::of(&path)));
        checked.record(key, Stamp::of(&path));
        assert!(checked.knows(key, Stamp::of(&path)));
        assert!(!checked.knows(Key::new(4, 3, 0, 0), Stamp::of(&path)));
        // Replaced by a rename, as the writer does: another inode.
        let tmp = dir.join("t.tmp");
        std::fs::write(&tmp, b"two").unwrap();
        std::fs::rename(&tmp, &path).unwrap();
        assert!(!checked.knows(key, Stamp::of(&path)));
        checked.record(key, Stamp::of(&path));
        // Grown in place (against the contract): another size.
        std::fs::write(&path, b"three").unwrap();
        assert!(!checked.knows(key, Stamp::of(&path)));
        // Gone.
        std::fs::remove_file(&path).unwrap();
        assert!(!checked.knows(key, Stamp::of(&path)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
