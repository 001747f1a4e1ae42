//! An exclusive lock on a database directory, held by the one process that writes it.
//!
//! Two solves writing the same directory would each discard the other's half-written
//! `<name>.tmp` files as leftovers of a crash, and one of them would then fail to rename a
//! file that no longer exists (or, worse, both would spend hours on the same key). Readers
//! (query, verify, stats, `db info`) need no lock: a file appears under its final name only
//! when it is complete (written to a temporary name, synced, renamed), so they never see a
//! half-written table.
//!
//! The lock is `flock(2)` on `.morris.lock` in the directory. The kernel releases it when the
//! holder's file is closed, which includes the holder dying by any signal, SIGKILL included:
//! a stale lock cannot outlive its process, and no PID check (with its races against PID
//! reuse) is needed to take it over. The file holds the holder's PID and command line, only
//! so that a refused writer can say who is in the way; it is emptied on release and never
//! deleted (deleting it while a second process has it open would let two processes lock two
//! different files of the same name).
//!
//! **Unit jobs.** On a cluster the units of one solve (a moving-phase pair, a placement key, a
//! slot range of a large key) run as separate jobs at once, each writing its own files, so one
//! exclusive lock per directory would serialise them. A unit job therefore takes the
//! directory's lock *shared* and, exclusively, a lock of its own output
//! (`.morris-locks/<output file name>`, [`UnitLock`]): unit jobs on different outputs run side
//! by side; two jobs on the same output (a resubmitted job beside a straggler of the first
//! submission) exclude each other; and a whole `morris solve`, which needs the directory
//! exclusively, excludes and is excluded by every unit job. A unit job removes only the
//! temporary files of its own output, which its lock makes its own.

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// The name of the lock file inside a database directory.
pub const LOCK_FILE: &str = ".morris.lock";

/// Proof that this process may create, replace and clean up output files in a directory: the
/// directory's lock ([`DirLock`], every file) or a unit's ([`UnitLock`], its own files).
pub trait WriteLock {
    /// The directory the lock is in.
    fn dir(&self) -> &Path;
}

/// Proof that this process holds the directory's write lock; released when dropped.
#[derive(Debug)]
pub struct DirLock {
    dir: PathBuf,
    file: File,
}

#[derive(Debug)]
pub enum LockError {
    /// Another live process holds the lock.
    Held {
        dir: PathBuf,
        /// The PID of the holder, when it has written it yet.
        pid: Option<u32>,
        /// The holder's command line, when known.
        command: Option<String>,
    },
    /// The lock file cannot be created, or the file system refuses locks.
    Io {
        path: PathBuf,
        action: &'static str,
        source: io::Error,
    },
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LockError::Held { dir, pid, command } => {
                write!(f, "{} is being written by ", dir.display())?;
                match pid {
                    Some(pid) => write!(f, "process {pid}")?,
                    None => write!(f, "another process")?,
                }
                if let Some(c) = command {
                    write!(f, " ({c})")?;
                }
                write!(
                    f,
                    "; wait for it to finish or stop it (one writer per directory; queries may \
                     run meanwhile)"
                )
            }
            LockError::Io {
                path,
                action,
                source,
            } => write!(f, "{}: cannot {action}: {source}", path.display()),
        }
    }
}

impl std::error::Error for LockError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LockError::Io { source, .. } => Some(source),
            LockError::Held { .. } => None,
        }
    }
}

impl DirLock {
    /// Takes the write lock of `dir` (which must exist) without waiting, recording this
    /// process's PID and `command` for whoever is refused next. A lock left by a process
    /// that died is free again and is simply taken.
    pub fn acquire(dir: &Path, command: &str) -> Result<DirLock, LockError> {
        let file = lock_file(dir, &dir.join(LOCK_FILE), Mode::Exclusive, Some(command))?;
        Ok(DirLock {
            dir: dir.to_path_buf(),
            file,
        })
    }

    /// True when `dir` is the locked directory (under any spelling of its path).
    pub fn covers(&self, dir: &Path) -> bool {
        match (self.dir.canonicalize(), dir.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => self.dir == dir,
        }
    }
}

impl WriteLock for DirLock {
    fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Proof that this process is the one unit job writing `output` in a directory (see the
/// module's comment): the directory's lock shared, the output's exclusive. Released when
/// dropped.
#[derive(Debug)]
pub struct UnitLock {
    dir: PathBuf,
    output: String,
    _shared: File,
    own: File,
}

impl UnitLock {
    /// The directory holding the locks of unit outputs.
    pub const DIR: &'static str = ".morris-locks";

    /// Takes the locks of a unit job writing the file `output` of `dir` (which must exist),
    /// without waiting: refused while a whole solve writes the directory, or while another
    /// job writes the same output.
    pub fn acquire(dir: &Path, output: &str, command: &str) -> Result<UnitLock, LockError> {
        let shared = lock_file(dir, &dir.join(LOCK_FILE), Mode::Shared, None)?;
        let locks = dir.join(Self::DIR);
        std::fs::create_dir_all(&locks).map_err(|source| LockError::Io {
            path: locks.clone(),
            action: "create the directory of unit locks",
            source,
        })?;
        let own = lock_file(dir, &locks.join(output), Mode::Exclusive, Some(command))?;
        Ok(UnitLock {
            dir: dir.to_path_buf(),
            output: output.to_string(),
            _shared: shared,
            own,
        })
    }

    /// The file name of the output this lock covers.
    pub fn output(&self) -> &str {
        &self.output
    }
}

impl WriteLock for UnitLock {
    fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for UnitLock {
    /// Empties the record, as [`DirLock`] does.
    fn drop(&mut self) {
        let _ = self.own.set_len(0);
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
    Shared,
    Exclusive,
}

/// Opens (creating it) and locks the lock file `path` of `dir` in `mode` without waiting;
/// with a `command`, records this process there for whoever is refused next. A shared holder
/// writes no record (several hold it at once); a refused writer then names no process.
fn lock_file(
    dir: &Path,
    path: &Path,
    mode: Mode,
    command: Option<&str>,
) -> Result<File, LockError> {
    let io = |action: &'static str| {
        let path = path.to_path_buf();
        move |source| LockError::Io {
            path,
            action,
            source,
        }
    };
    // Not truncated on open: the holder's PID must survive until the lock is ours.
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io("create the lock file"))?;
    if !try_lock(&file, mode).map_err(io("lock"))? {
        let mut text = String::new();
        let _ = file.read_to_string(&mut text);
        let mut lines = text.lines();
        let pid = lines.next().and_then(|l| l.trim().parse().ok());
        let command = lines
            .next()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_string);
        return Err(LockError::Held {
            dir: dir.to_path_buf(),
            pid,
            command,
        });
    }
    if let Some(command) = command {
        file.set_len(0).map_err(io("write the lock file"))?;
        let record = format!("{}\n{}\n", std::process::id(), command.replace('\n', " "));
        file.write_all(record.as_bytes())
            .map_err(io("write the lock file"))?;
    }
    Ok(file)
}

impl Drop for DirLock {
    /// Empties the record (best effort) so that a finished directory does not name a process
    /// that is gone; closing the file then releases the lock.
    fn drop(&mut self) {
        let _ = self.file.set_len(0);
    }
}

/// `flock(LOCK_EX | LOCK_NB)` (or `LOCK_SH`): true when the lock is now held, false when
/// another open file holds it in a conflicting mode.
#[cfg(unix)]
fn try_lock(file: &File, mode: Mode) -> io::Result<bool> {
    use std::os::unix::io::AsRawFd;
    let op = match mode {
        Mode::Shared => libc::LOCK_SH,
        Mode::Exclusive => libc::LOCK_EX,
    };
    loop {
        // SAFETY: flock on a descriptor this `File` owns and keeps open; no memory involved.
        let r = unsafe { libc::flock(file.as_raw_fd(), op | libc::LOCK_NB) };
        if r == 0 {
            return Ok(true);
        }
        let e = io::Error::last_os_error();
        match e.raw_os_error() {
            Some(libc::EWOULDBLOCK) => return Ok(false),
            Some(libc::EINTR) => continue,
            _ => return Err(e),
        }
    }
}

/// Without `flock` there is no lock: one writer per directory is then the user's business.
#[cfg(not(unix))]
fn try_lock(_file: &File, _mode: Mode) -> io::Result<bool> {
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_writer_is_refused_and_named_then_admitted_after_release() {
        let dir = morris_testdirs::scratch("lock-second");
        let first = DirLock::acquire(&dir, "morris solve --db x").unwrap();
        // A second open file description conflicts even within one process.
        let err = DirLock::acquire(&dir, "other").unwrap_err();
        match &err {
            LockError::Held { pid, command, .. } => {
                assert_eq!(*pid, Some(std::process::id()));
                assert_eq!(command.as_deref(), Some("morris solve --db x"));
            }
            e => panic!("{e}"),
        }
        let text = err.to_string();
        assert!(
            text.contains(&format!("process {}", std::process::id())),
            "{text}"
        );
        assert!(!text.contains('\n'), "{text}");
        assert!(first.covers(&dir));
        drop(first);
        assert_eq!(std::fs::read(dir.join(LOCK_FILE)).unwrap(), b"");
        let again = DirLock::acquire(&dir, "third").unwrap();
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Unit jobs on different outputs run side by side; on the same output, or beside a whole
    /// solve, they are refused.
    #[test]
    fn unit_jobs_share_the_directory_but_not_an_output() {
        let dir = morris_testdirs::scratch("lock-units");
        let a = UnitLock::acquire(&dir, "k.mdb.part-0-10", "job a").unwrap();
        let b = UnitLock::acquire(&dir, "k.mdb.part-10-20", "job b").unwrap();
        match UnitLock::acquire(&dir, "k.mdb.part-0-10", "job c").unwrap_err() {
            LockError::Held { command, .. } => assert_eq!(command.as_deref(), Some("job a")),
            e => panic!("{e}"),
        }
        assert!(DirLock::acquire(&dir, "solve").is_err());
        drop((a, b));
        let whole = DirLock::acquire(&dir, "solve").unwrap();
        assert!(UnitLock::acquire(&dir, "k.mdb.part-0-10", "job d").is_err());
        drop(whole);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_record_left_by_a_dead_process_does_not_block() {
        let dir = morris_testdirs::scratch("lock-stale");
        // What a SIGKILLed holder leaves: its record, but no lock (the kernel dropped it).
        std::fs::write(dir.join(LOCK_FILE), "999999999\nmorris solve\n").unwrap();
        let lock = DirLock::acquire(&dir, "new").unwrap();
        let record = std::fs::read_to_string(dir.join(LOCK_FILE)).unwrap();
        assert_eq!(record, format!("{}\nnew\n", std::process::id()));
        drop(lock);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
