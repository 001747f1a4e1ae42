//! Scratch directories for the workspace's tests.
//!
//! Each test once made its own directory straight under the system's temporary directory and
//! never removed it when it failed (and many tests not even when they passed), so solved
//! games piled up there run after run: 4 GB of `/tmp` on a machine short of disk. Now every
//! test process keeps its directories under one directory of its own,
//! `$TMPDIR/morris-tests/<pid>@<pid namespace>/`, and the first test process of the same PID
//! namespace to start after it has exited removes it. A process's files are kept after its
//! run, not removed as it exits, so that a failing test's files can be looked at; the next
//! test run clears them.
//!
//! The namespace is in the name because a process id means something only inside its own: a
//! container sharing the temporary directory sees other process ids in `/proc`, and would
//! otherwise take a live test's directory for a dead one's and remove it. The namespace is
//! named by its inode and the boot's id, since the first namespace of every machine has the
//! same inode. Another namespace's directories are removed only once a week old: no process
//! here can tell whether theirs is alive, and a container's namespace ends with it.

use std::path::{Path, PathBuf};
use std::sync::Once;
use std::time::{Duration, SystemTime};

/// How old another namespace's directory must be to be removed.
const STALE: Duration = Duration::from_secs(7 * 24 * 3600);

/// Where every test process's directory is, and the sweep looks.
fn root() -> PathBuf {
    std::env::temp_dir().join("morris-tests")
}

/// The directory a test process `pid` of this process's PID namespace keeps its scratch
/// directories in: public so that a test can make one for a process that has exited.
pub fn process_dir(pid: u32) -> PathBuf {
    let namespace = namespace().unwrap_or_else(|| "unknown".to_string());
    root().join(format!("{pid}@{namespace}"))
}

/// This process's PID namespace: the inode number `/proc/self/ns/pid` names (`pid:[N]`), then
/// the first 8 digits of the boot's id. `None` where either cannot be read (another system, a
/// sandbox without `/proc`).
fn namespace() -> Option<String> {
    let link = std::fs::read_link("/proc/self/ns/pid").ok()?;
    let inode: u64 = link
        .to_str()?
        .strip_prefix("pid:[")?
        .strip_suffix(']')?
        .parse()
        .ok()?;
    let boot = std::fs::read_to_string("/proc/sys/kernel/random/boot_id").ok()?;
    Some(format!("{inode}-{}", boot.get(..8)?))
}

/// A fresh, empty directory for one test: `$TMPDIR/morris-tests/<pid>@<namespace>/<name>`.
///
/// `name` must tell apart the tests of one process, which run in parallel threads: a test's
/// own name does. What an earlier run of the same process id left under `name` is removed.
/// The first call in a process clears the directories of test processes that have exited.
///
/// Panics, naming the path, when the directory cannot be made: it is for tests only.
pub fn scratch(name: &str) -> PathBuf {
    static SWEEP: Once = Once::new();
    let root = root();
    SWEEP.call_once(|| sweep(&root));
    let dir = process_dir(std::process::id()).join(name);
    match std::fs::remove_dir_all(&dir) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => panic!(
            "cannot remove the old scratch directory {}: {e}",
            dir.display()
        ),
    }
    if let Err(e) = std::fs::create_dir_all(&dir) {
        panic!("cannot create the scratch directory {}: {e}", dir.display());
    }
    // Shared by every user of the machine, as the temporary directory is: each may add its
    // processes' directories, and only remove its own (the sticky bit). Only the owner can
    // set it; for anyone else it is already set.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o1777));
    }
    dir
}

/// Removes the directories under `root` of test processes of this PID namespace no longer
/// alive, and those of other namespaces a week old ([`STALE`]). Errors are ignored: another
/// test process starting at the same moment may be removing the same directories, and a
/// directory left now goes at the next sweep.
fn sweep(root: &Path) {
    let (Some(ns), Ok(entries)) = (namespace(), std::fs::read_dir(root)) else {
        return;
    };
    let own = std::process::id();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some((pid, their_ns)) = name.to_str().and_then(|s| s.split_once('@')) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        let gone = match their_ns == ns {
            true => pid != own && exited(pid),
            false => older_than(&entry.path(), STALE),
        };
        if gone {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether process `pid` of this process's namespace has exited, as far as this system can
/// tell. Where `/proc` is not there to ask (another system, a sandbox without it), or is
/// another namespace's (its `self` is not this process), every process counts as alive, so
/// that no running test's directory is removed under it.
fn exited(pid: u32) -> bool {
    let own = std::process::id().to_string();
    cfg!(target_os = "linux")
        && std::fs::read_link("/proc/self").is_ok_and(|p| p.as_os_str() == own.as_str())
        && !Path::new("/proc").join(pid.to_string()).exists()
}

/// Whether `path` was last modified more than `age` ago (not when that cannot be told).
fn older_than(path: &Path, age: Duration) -> bool {
    let modified = std::fs::metadata(path).and_then(|m| m.modified());
    modified.is_ok_and(|m| SystemTime::now().duration_since(m).is_ok_and(|d| d > age))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scratch_directory_is_fresh_and_empty_every_time() {
        let dir = scratch("fresh");
        assert_eq!(dir, process_dir(std::process::id()).join("fresh"));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::write(dir.join("file"), b"left").unwrap();
        std::fs::create_dir(dir.join("sub")).unwrap();
        let again = scratch("fresh");
        assert_eq!(again, dir);
        assert!(again.is_dir());
        assert_eq!(std::fs::read_dir(&again).unwrap().count(), 0);
    }

    #[test]
    fn another_name_is_another_directory() {
        let (a, b) = (scratch("one"), scratch("two"));
        assert_ne!(a, b);
        std::fs::write(a.join("file"), b"a").unwrap();
        assert_eq!(std::fs::read_dir(&b).unwrap().count(), 0);
    }

    /// The sweep on a root of its own: an exited process's directory goes; this process's,
    /// an exited process's of another PID namespace, and what is not named by a process id
    /// stay.
    #[cfg(target_os = "linux")]
    #[test]
    fn sweeping_removes_only_exited_processes_directories() {
        use std::os::unix::fs::MetadataExt;
        let root = scratch("sweep-root");
        let ns = namespace().expect("Linux names the PID namespace");
        let inode = std::fs::metadata("/proc/self/ns/pid").unwrap().ino();
        assert!(
            ns.starts_with(&format!("{inode}-")),
            "{ns} names namespace {inode}"
        );
        // Above Linux's largest process id (2^22), so never a live process.
        assert!(!Path::new("/proc").join(u32::MAX.to_string()).exists());
        let dead = root.join(format!("{}@{ns}", u32::MAX));
        let own = root.join(format!("{}@{ns}", std::process::id()));
        // Process 1 of a namespace lives as long as the namespace.
        let alive = root.join(format!("1@{ns}"));
        let elsewhere = root.join(format!("{}@{inode}-00000000", u32::MAX));
        let stale = root.join(format!("{}@1-00000000", u32::MAX));
        let other = root.join("not-a-pid");
        for dir in [&dead, &own, &alive, &elsewhere, &stale, &other] {
            std::fs::create_dir_all(dir.join("sub")).unwrap();
            std::fs::write(dir.join("sub").join("file"), b"x").unwrap();
        }
        let week_ago = SystemTime::now() - STALE - Duration::from_secs(60);
        std::fs::File::open(&stale)
            .unwrap()
            .set_modified(week_ago)
            .unwrap();
        sweep(&root);
        assert!(!dead.exists(), "an exited process's directory is removed");
        assert!(
            own.join("sub").join("file").exists(),
            "this process's stays"
        );
        assert!(
            alive.join("sub").join("file").exists(),
            "a live process's stays"
        );
        assert!(
            elsewhere.join("sub").join("file").exists(),
            "another namespace's (or machine's) stays"
        );
        assert!(!stale.exists(), "another namespace's a week old is removed");
        assert!(other.join("sub").join("file").exists(), "a stranger stays");
    }
}
