//! `db info` for packed files: what each holds, and which are damaged (whole-file checksum,
//! header, size and block index).

use core::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use morris_db::format::{describe_metric, describe_rules, DbError};
use morris_db::plan::{bytes, thousands};

use crate::header::PackedHeader;
use crate::kind::packed_file_name;
use crate::table::PackedTable;

/// What was found in one packed file.
#[derive(Debug)]
pub struct PackedInfo {
    pub path: PathBuf,
    pub len: Option<u64>,
    pub status: Result<PackedHeader, DbError>,
    /// The name the file should have, when it has another.
    pub expected_name: Option<String>,
    /// A temporary file left by an interrupted write.
    pub unfinished: bool,
}

impl PackedInfo {
    pub fn is_ok(&self) -> bool {
        self.status.is_ok() && self.expected_name.is_none() && !self.unfinished
    }
}

/// True for the names of packed files and their temporaries.
pub fn is_packed_name(name: &str) -> bool {
    name.ends_with(".mpk") || name.ends_with(".mpk.tmp")
}

/// Describes the packed file at `path`, or every packed file in the directory at `path`;
/// `checksum` hashes each file whole.
pub fn inspect(path: &Path, checksum: bool) -> Result<Vec<PackedInfo>, DbError> {
    let meta = fs::metadata(path).map_err(|e| DbError::io(path, "read", e))?;
    if !meta.is_dir() {
        return Ok(vec![inspect_file(path, checksum)]);
    }
    let mut files: Vec<PathBuf> = fs::read_dir(path)
        .map_err(|e| DbError::io(path, "list the directory", e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(is_packed_name)
        })
        .collect();
    files.sort();
    Ok(files.iter().map(|p| inspect_file(p, checksum)).collect())
}

fn inspect_file(path: &Path, checksum: bool) -> PackedInfo {
    let len = fs::metadata(path).ok().map(|m| m.len());
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let unfinished = name.ends_with(".tmp");
    let status = PackedTable::open_any(path).and_then(|t| {
        if checksum {
            t.verify()?;
        }
        Ok(*t.header())
    });
    let expected_name = match &status {
        Ok(h) if !unfinished => {
            let want = packed_file_name(&h.rules, h.metric, h.key, h.kind);
            (want != name).then_some(want)
        }
        _ => None,
    };
    PackedInfo {
        path: path.to_path_buf(),
        len,
        status,
        expected_name,
        unfinished,
    }
}

/// One line per file, then a summary line.
pub fn render(infos: &[PackedInfo]) -> String {
    let mut out = String::new();
    for info in infos {
        let name = info.path.display();
        match &info.status {
            Ok(h) => {
                let len = info.len.unwrap_or(0);
                let _ = write!(
                    out,
                    "{name}: packed {}, {}, {}, key {}, {} slots in {} blocks of {}, zstd {}, \
                     {} ({:.3} bits/slot), checksum {:#018x}",
                    h.kind.tag(),
                    describe_rules(&h.rules),
                    describe_metric(h.metric),
                    h.key,
                    thousands(h.entries),
                    thousands(h.blocks),
                    h.block_slots,
                    h.level,
                    bytes(len),
                    len as f64 * 8.0 / h.entries.max(1) as f64,
                    h.checksum
                );
                if h.weaker_searched {
                    out.push_str(", in a set without the weaker side's keys (searched)");
                }
                if info.unfinished {
                    out.push_str(" -- UNFINISHED: a temporary file left by an interrupted write");
                }
                if let Some(want) = &info.expected_name {
                    let _ = write!(out, " -- MISNAMED: should be {want}");
                }
                out.push('\n');
            }
            Err(e) => {
                let _ = writeln!(out, "DAMAGED {e}");
            }
        }
    }
    let bad = infos.iter().filter(|i| !i.is_ok()).count();
    let total: u64 = infos.iter().filter_map(|i| i.len).sum();
    let _ = writeln!(
        out,
        "{} packed file(s), {}, {} damaged or misplaced",
        infos.len(),
        bytes(total),
        bad
    );
    out
}
