//! A file that appears under its final name complete or not at all: written as `<final>.tmp`
//! in the same directory (a rename is only atomic within one file system), synced, renamed,
//! and the directory synced so that the rename itself survives a power loss. Dropping an
//! unfinished file deletes the temporary. Every table writer of the project goes through it.
//!
//! A full disk is the one write error a long run is likely to meet; to test that it leaves
//! no damaged file under a final name without filling a disk, the environment variable
//! `MORRIS_FAIL_WRITE_AFTER_BYTES=N` makes every write of this process fail, as a full disk
//! does, once N bytes have been written to table files (a test hook, read once).

use std::fs::{self, File, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use super::error::DbError;

pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    file: File,
    /// The final file is in place; nothing to clean up.
    done: bool,
}

impl AtomicFile {
    /// Creates (or truncates) `<path>.tmp`.
    pub fn create(path: impl AsRef<Path>) -> Result<AtomicFile, DbError> {
        let path = path.as_ref().to_path_buf();
        let mut tmp = path.clone().into_os_string();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)
            .map_err(|e| DbError::io(&tmp, "create the temporary file", e))?;
        Ok(AtomicFile {
            path,
            tmp,
            file,
            done: false,
        })
    }

    /// The final name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The error of data the writer refuses to write (`detail` says why), naming the file.
    pub fn invalid(&self, detail: String) -> DbError {
        DbError::InvalidData {
            path: self.path.clone(),
            detail,
        }
    }

    /// Appends `bytes`.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), DbError> {
        write_file(&mut self.file, bytes).map_err(|e| DbError::io(&self.tmp, "write", e))
    }

    /// Overwrites the start of the file (a header written once its checksum is known).
    pub fn write_header(&mut self, bytes: &[u8]) -> Result<(), DbError> {
        let tmp = &self.tmp;
        self.file
            .seek(SeekFrom::Start(0))
            .map_err(|e| DbError::io(tmp, "seek", e))?;
        write_file(&mut self.file, bytes).map_err(|e| DbError::io(tmp, "write", e))
    }

    /// Syncs the data and moves the file to its final name.
    pub fn commit(mut self) -> Result<PathBuf, DbError> {
        let tmp = &self.tmp;
        self.file
            .sync_all()
            .map_err(|e| DbError::io(tmp, "sync", e))?;
        fs::rename(tmp, &self.path).map_err(|e| DbError::io(tmp, "rename to the final name", e))?;
        self.done = true;
        sync_dir(&self.path);
        Ok(self.path.clone())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.done {
            let _ = fs::remove_file(&self.tmp);
        }
    }
}

/// `write_all`, through the full-disk test hook: with `MORRIS_FAIL_WRITE_AFTER_BYTES=N`,
/// the bytes past the first N written by this process are refused as a full disk refuses them
/// (what fits is written, then the write fails).
fn write_file(file: &mut File, bytes: &[u8]) -> std::io::Result<()> {
    static LIMIT: OnceLock<Option<u64>> = OnceLock::new();
    static WRITTEN: AtomicU64 = AtomicU64::new(0);
    let limit = *LIMIT.get_or_init(|| {
        std::env::var("MORRIS_FAIL_WRITE_AFTER_BYTES")
            .ok()
            .and_then(|v| v.parse().ok())
    });
    let Some(limit) = limit else {
        return file.write_all(bytes);
    };
    let before = WRITTEN.fetch_add(bytes.len() as u64, Ordering::Relaxed);
    let room = limit.saturating_sub(before).min(bytes.len() as u64) as usize;
    file.write_all(&bytes[..room])?;
    if room < bytes.len() {
        return Err(std::io::Error::other(
            "No space left on device (injected by MORRIS_FAIL_WRITE_AFTER_BYTES)",
        ));
    }
    Ok(())
}

/// Makes the rename durable. Best effort: not every system can open a directory for syncing,
/// and the data itself is already synced.
fn sync_dir(path: &Path) {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}
