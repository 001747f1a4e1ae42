//! The free disk a command checks before it writes, so that a run refuses at the start,
//! naming the bytes missing, instead of stopping with a table half written.

use crate::Failure;
use morris_db::plan::bytes;
use std::path::Path;

/// Refuses (exit 1, one line) when `need` bytes, written by `what`, do not fit on the file
/// system of `dir`; a figure the system does not give is not checked.
pub fn check(dir: &Path, need: u64, what: &str) -> Result<(), Failure> {
    match free_disk(dir) {
        Some(free) if need > free => Err(Failure::failed(format!(
            "not enough disk space: {what} need {}, {} has {} free, {} missing (free some \
             space, or pass --force to start anyway)",
            bytes(need),
            dir.display(),
            bytes(free),
            bytes(need - free)
        ))),
        _ => Ok(()),
    }
}

/// A figure from a test hook (`MORRIS_TEST_FREE_DISK`, in bytes), so that the tests can check
/// a refusal without filling a disk.
fn test_hook() -> Option<u64> {
    std::env::var("MORRIS_TEST_FREE_DISK").ok()?.parse().ok()
}

/// Bytes an unprivileged user may still write on the file system of `dir` (or of its nearest
/// existing ancestor, for a directory not created yet).
fn free_disk(dir: &Path) -> Option<u64> {
    if let Some(v) = test_hook() {
        return Some(v);
    }
    let mut at = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    while !at.exists() {
        at = match at.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
    }
    statvfs_free(at)
}

#[cfg(unix)]
fn statvfs_free(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: `c` is a valid NUL-terminated path, `st` a properly sized out-parameter that
    // statvfs fills in completely on success (and that is read only then).
    let st = unsafe {
        let mut st: libc::statvfs = std::mem::zeroed();
        if libc::statvfs(c.as_ptr(), &mut st) != 0 {
            return None;
        }
        st
    };
    Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
}

#[cfg(not(unix))]
fn statvfs_free(_path: &Path) -> Option<u64> {
    None
}
