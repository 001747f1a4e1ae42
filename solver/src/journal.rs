//! A record of the checks a long run has passed, so that a run cut short (a killed process, a
//! reboot) goes on where it stopped instead of starting over: `verify` of the whole game takes
//! hours.
//!
//! Each line names a check (what was checked, and of which key) and a stamp: the checksums of
//! every table the check read. A check is skipped only when its line is there with the same
//! stamp, so a table rebuilt since (or one of the tables it was checked against) is checked
//! again. Lines are appended and synced one at a time; a last line cut short by a crash is
//! ignored, any other malformed line is an error naming the file and the line.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The passed checks of one journal file.
pub struct Journal {
    path: PathBuf,
    passed: HashMap<String, String>,
}

impl Journal {
    /// Reads the journal at `path`; a missing file is an empty journal.
    pub fn open(path: impl AsRef<Path>) -> Result<Journal, String> {
        let path = path.as_ref().to_path_buf();
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(format!("{}: cannot read the journal: {e}", path.display())),
        };
        let mut passed = HashMap::new();
        let complete = text.rfind('\n').map_or("", |end| &text[..end]);
        for (n, line) in complete.lines().enumerate() {
            match line.split_once('\t') {
                Some((check, stamp)) if !check.is_empty() && !stamp.contains('\t') => {
                    passed.insert(check.to_string(), stamp.to_string());
                }
                _ => {
                    return Err(format!(
                        "{}: line {}: not a journal line (check, a tab, the stamp): {line:?}",
                        path.display(),
                        n + 1
                    ))
                }
            }
        }
        Ok(Journal { path, passed })
    }

    /// The stamp `check` passed with, if it did.
    pub fn stamp_of(&self, check: &str) -> Option<&str> {
        self.passed.get(check).map(String::as_str)
    }

    /// True when `check` passed with exactly this stamp.
    pub fn passed(&self, check: &str, stamp: &str) -> bool {
        self.passed.get(check).is_some_and(|s| s == stamp)
    }

    /// Records that `check` passed with `stamp`: appended and synced before returning.
    pub fn record(&mut self, check: &str, stamp: &str) -> Result<(), String> {
        assert!(
            !check.contains(['\t', '\n']) && !stamp.contains(['\t', '\n']),
            "journal fields hold no tabs or newlines"
        );
        let fail =
            |e: std::io::Error| format!("{}: cannot write the journal: {e}", self.path.display());
        let mut file: File = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(fail)?;
        // A line cut short by a crash goes first (it was never a pass).
        let bytes = std::fs::read(&self.path).map_err(fail)?;
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            file.set_len(keep as u64).map_err(fail)?;
        }
        file.write_all(format!("{check}\t{stamp}\n").as_bytes())
            .map_err(fail)?;
        file.sync_all().map_err(fail)?;
        self.passed.insert(check.to_string(), stamp.to_string());
        Ok(())
    }
}

/// A stamp of checksums.
pub fn stamp(checksums: impl IntoIterator<Item = u64>) -> String {
    checksums
        .into_iter()
        .map(|c| format!("{c:016x}"))
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passed_checks_survive_a_reopen_and_a_cut_line() {
        let path = morris_testdirs::scratch("journal").join("j");
        let mut j = Journal::open(&path).unwrap();
        assert!(!j.passed("verify 3-3", "01"));
        j.record("verify 3-3", "01").unwrap();
        j.record("verify 4-3", "02,03").unwrap();
        // A crash in the middle of a line.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"verify 4-").unwrap();
        drop(f);
        let mut j = Journal::open(&path).unwrap();
        assert!(j.passed("verify 3-3", "01") && j.passed("verify 4-3", "02,03"));
        assert!(
            !j.passed("verify 4-3", "02,04"),
            "another stamp is another check"
        );
        assert!(!j.passed("verify 4-", ""), "a cut line is not a pass");
        j.record("verify 4-4", "05").unwrap();
        let j = Journal::open(&path).unwrap();
        assert!(j.passed("verify 4-4", "05") && j.passed("verify 3-3", "01"));
        assert!(!std::fs::read_to_string(&path)
            .unwrap()
            .contains("verify 4-\n"));
        // A damaged line is an error naming the file and the line.
        std::fs::write(&path, "verify 3-3\t01\ngarbage\nverify 4-3\t02\n").unwrap();
        let e = Journal::open(&path).err().unwrap();
        assert!(
            e.contains("line 2") && e.contains(&*path.to_string_lossy()),
            "{e}"
        );
        assert_eq!(stamp([1, 0xab]), "0000000000000001,00000000000000ab");
    }
}
