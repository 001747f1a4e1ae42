//! `db info` for packed files: what each holds, and which are damaged (whole-file checksum,
//! header, size and block index). The listing, the checks of a file's name and the report's
//! frame are the unpacked tables' (`morris_db::format::info`).

use std::path::Path;

use morris_db::format::info::{inspect_with, render_with, FileInfo};
use morris_db::format::{describe_metric, describe_rules, DbError};
use morris_db::plan::{bytes, thousands};

use crate::header::PackedHeader;
use crate::kind::packed_file_name;
use crate::table::PackedTable;

/// What was found in one packed file.
pub type PackedInfo = FileInfo<PackedHeader>;

/// True for the names of packed files and their temporaries.
pub fn is_packed_name(name: &str) -> bool {
    name.ends_with(".mpk") || name.ends_with(".mpk.tmp")
}

/// Describes the packed file at `path`, or every packed file in the directory at `path`;
/// `checksum` hashes each file whole.
pub fn inspect(path: &Path, checksum: bool) -> Result<Vec<PackedInfo>, DbError> {
    inspect_with(path, is_packed_name, |p| {
        FileInfo::examine(
            p,
            |p| {
                let t = PackedTable::open_any(p)?;
                if checksum {
                    t.verify()?;
                }
                Ok(*t.header())
            },
            |h| packed_file_name(&h.rules, h.metric, h.key, h.kind),
        )
    })
}

/// One line per file, then a summary line.
pub fn render(infos: &[PackedInfo]) -> String {
    render_with(
        infos,
        "packed file(s)",
        |info, h| {
            let len = info.len.unwrap_or(0);
            let mut line = format!(
                "{}: packed {}, {}, {}, key {}, {} slots in {} blocks of {}, zstd {}, \
                 {} ({:.3} bits/slot), checksum {:#018x}",
                info.path.display(),
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
                line.push_str(", in a set without the weaker side's keys (searched)");
            }
            line
        },
        |_, e| format!("DAMAGED {e}"),
    )
}
