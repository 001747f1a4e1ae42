//! `db info`: what a database file or a directory of them holds, and which are damaged. The
//! listing, the checks of a file's name and the report's frame serve the packed files too
//! (`morris_packed::info`), each format with its own header.

use core::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use super::error::DbError;
use super::header::{describe_metric, describe_rules, file_name, Header};
use super::table::{Checks, Table};
use crate::plan::{bytes, thousands};

/// What was found in one file: `H` is the header of its format.
#[derive(Debug)]
pub struct FileInfo<H = Header> {
    pub path: PathBuf,
    /// File length in bytes, when it could be read.
    pub len: Option<u64>,
    /// The header, or why the file is unusable.
    pub status: Result<H, DbError>,
    /// The name the file should have, when it has another (a file renamed by hand would be
    /// found under the wrong key).
    pub expected_name: Option<String>,
    /// A temporary file left by an interrupted write.
    pub unfinished: bool,
}

impl<H> FileInfo<H> {
    pub fn is_ok(&self) -> bool {
        self.status.is_ok() && self.expected_name.is_none() && !self.unfinished
    }

    /// Describes the file at `path`: `open` reads its header (and checks what it is asked
    /// to), `name` is the name a file of that header has.
    pub fn examine(
        path: &Path,
        open: impl FnOnce(&Path) -> Result<H, DbError>,
        name: impl FnOnce(&H) -> String,
    ) -> FileInfo<H> {
        let len = fs::metadata(path).ok().map(|m| m.len());
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let unfinished = file.ends_with(".tmp");
        let status = open(path);
        let expected_name = match &status {
            Ok(h) if !unfinished => {
                let want = name(h);
                (want != file).then_some(want)
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
}

/// The file at `path`, or the files of the directory at `path` whose names `wanted` accepts,
/// sorted by name, each described by `examine`.
pub fn inspect_with<H>(
    path: &Path,
    wanted: impl Fn(&str) -> bool,
    examine: impl Fn(&Path) -> FileInfo<H>,
) -> Result<Vec<FileInfo<H>>, DbError> {
    let meta = fs::metadata(path).map_err(|e| DbError::io(path, "read", e))?;
    if !meta.is_dir() {
        return Ok(vec![examine(path)]);
    }
    let mut files: Vec<PathBuf> = fs::read_dir(path)
        .map_err(|e| DbError::io(path, "list the directory", e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(&wanted))
        .collect();
    files.sort();
    Ok(files.iter().map(|p| examine(p)).collect())
}

/// A report on `infos`, files of the kind `what` names: a line per file, `line` its
/// description from its header and `damaged` the reason it is unusable, then a summary line.
pub fn render_with<H>(
    infos: &[FileInfo<H>],
    what: &str,
    line: impl Fn(&FileInfo<H>, &H) -> String,
    damaged: impl Fn(&FileInfo<H>, &DbError) -> String,
) -> String {
    let mut out = String::new();
    for info in infos {
        match &info.status {
            Ok(h) => {
                out.push_str(&line(info, h));
                if info.unfinished {
                    out.push_str(" -- UNFINISHED: a temporary file left by an interrupted write");
                }
                if let Some(want) = &info.expected_name {
                    let _ = write!(out, " -- MISNAMED: should be {want}");
                }
            }
            Err(e) => out.push_str(&damaged(info, e)),
        }
        out.push('\n');
    }
    let bad = infos.iter().filter(|i| !i.is_ok()).count();
    let total: u64 = infos.iter().filter_map(|i| i.len).sum();
    let _ = writeln!(
        out,
        "{} {what}, {}, {} damaged or misplaced",
        infos.len(),
        bytes(total),
        bad
    );
    out
}

/// True for the names of database files and their temporaries.
pub fn is_table_name(name: &str) -> bool {
    name.ends_with(".mdb") || name.ends_with(".mdb.tmp")
}

/// Describes the file at `path`, or every database file (and leftover temporary file) in the
/// directory at `path`, sorted by name.
pub fn inspect(path: &Path, checks: Checks) -> Result<Vec<FileInfo>, DbError> {
    inspect_with(path, is_table_name, |p| {
        FileInfo::examine(
            p,
            |p| Table::open_any(p, checks).map(|t| *t.header()),
            |h| file_name(&h.rules, h.metric, h.key),
        )
    })
}

/// One line per file, then a summary line.
pub fn render(infos: &[FileInfo]) -> String {
    render_with(
        infos,
        "file(s)",
        |info, h| {
            format!(
                "{}: {}, {}, key {}, {} slots, {} overflow, {}, checksum {:#018x}",
                info.path.display(),
                describe_rules(&h.rules),
                describe_metric(h.metric),
                h.key,
                thousands(h.entries),
                h.overflow,
                bytes(h.file_len()),
                h.checksum
            )
        },
        |info, e| {
            let mut line = format!("DAMAGED {e}");
            if info.unfinished {
                line.push_str(" (a temporary file left by an interrupted write)");
            }
            line
        },
    )
}
