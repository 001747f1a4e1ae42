//! `db info`: what a database file or a directory of them holds, and which are damaged.

use core::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use super::error::DbError;
use super::header::{describe_metric, describe_rules, file_name, Header};
use super::table::{Checks, Table};
use crate::plan::{bytes, thousands};

/// What was found in one file.
#[derive(Debug)]
pub struct FileInfo {
    pub path: PathBuf,
    /// File length in bytes, when it could be read.
    pub len: Option<u64>,
    /// The header, or why the file is unusable.
    pub status: Result<Header, DbError>,
    /// The name the file should have, when it has another (a file renamed by hand would be
    /// found under the wrong key).
    pub expected_name: Option<String>,
    /// A temporary file left by an interrupted write.
    pub unfinished: bool,
}

impl FileInfo {
    pub fn is_ok(&self) -> bool {
        self.status.is_ok() && self.expected_name.is_none() && !self.unfinished
    }
}

/// Describes the file at `path`, or every database file (and leftover temporary file) in the
/// directory at `path`, sorted by name.
pub fn inspect(path: &Path, checks: Checks) -> Result<Vec<FileInfo>, DbError> {
    let meta = fs::metadata(path).map_err(|e| DbError::io(path, "read", e))?;
    if !meta.is_dir() {
        return Ok(vec![inspect_file(path, checks)]);
    }
    let mut files: Vec<PathBuf> = fs::read_dir(path)
        .map_err(|e| DbError::io(path, "list the directory", e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            name.ends_with(".mdb") || name.ends_with(".mdb.tmp")
        })
        .collect();
    files.sort();
    Ok(files.iter().map(|p| inspect_file(p, checks)).collect())
}

fn inspect_file(path: &Path, checks: Checks) -> FileInfo {
    let len = fs::metadata(path).ok().map(|m| m.len());
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let unfinished = name.ends_with(".tmp");
    let status = Table::open_any(path, checks).map(|t| *t.header());
    let expected_name = match &status {
        Ok(h) if !unfinished => {
            let want = file_name(&h.rules, h.metric, h.key);
            (want != name).then_some(want)
        }
        _ => None,
    };
    FileInfo {
        path: path.to_path_buf(),
        len,
        status,
        expected_name,
        unfinished,
    }
}

/// One line per file, then a summary line.
pub fn render(infos: &[FileInfo]) -> String {
    let mut out = String::new();
    for info in infos {
        let name = info.path.display();
        match &info.status {
            Ok(h) => {
                let _ = write!(
                    out,
                    "{name}: {}, {}, key {}, {} slots, {} overflow, {}, checksum {:#018x}",
                    describe_rules(&h.rules),
                    describe_metric(h.metric),
                    h.key,
                    thousands(h.entries),
                    h.overflow,
                    bytes(h.file_len()),
                    h.checksum
                );
                if info.unfinished {
                    out.push_str(" -- UNFINISHED: a temporary file left by an interrupted write");
                }
                if let Some(want) = &info.expected_name {
                    let _ = write!(out, " -- MISNAMED: should be {want}");
                }
                out.push('\n');
            }
            Err(e) => {
                let _ = write!(out, "DAMAGED {e}");
                if info.unfinished {
                    out.push_str(" (a temporary file left by an interrupted write)");
                }
                out.push('\n');
            }
        }
    }
    let bad = infos.iter().filter(|i| !i.is_ok()).count();
    let total: u64 = infos.iter().filter_map(|i| i.len).sum();
    let _ = writeln!(
        out,
        "{} file(s), {}, {} damaged or misplaced",
        infos.len(),
        bytes(total),
        bad
    );
    out
}
