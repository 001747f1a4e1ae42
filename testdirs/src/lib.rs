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
//! otherwise take a live test's directory for a dead one's and remove it.

use std::path::{Path, PathBuf};
use std::sync::Once;

/// Where every test process's directory is, and the sweep looks.
fn root() -> PathBuf {
    std::env::temp_dir().join("morris-tests")
}

/// The directory a test process `pid` of this process's PID namespace keeps its scratch
/// directories in: public so that a test can make one for a process that has exited.
pub fn process_dir(pid: u32) -> PathBuf {
    root().join(format!("{pid}@{}", namespace().unwrap_or(0)))
}

/// This process's PID namespace, by the inode number `/proc/self/ns/pid` names (`pid:[N]`);
/// `None` where there is no such link to read (another system, a sandbox without `/proc`).
fn namespace() -> Option<u64> {
    let link = std::fs::read_link("/proc/self/ns/pid").ok()?;
    link.to_str()?
        .strip_prefix("pid:[")?
        .strip_suffix(']')?
        .parse()
        .ok()
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
/// alive; those of other namespaces stay, since their process ids cannot be asked about here.
/// Errors are ignored: another test process starting at the same moment may be removing the
/// same directories, and a directory left now goes at the next sweep.
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
        let (Ok(pid), Ok(their_ns)) = (pid.parse::<u32>(), their_ns.parse::<u64>()) else {
            continue;
        };
        if their_ns == ns && pid != own && exited(pid) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether process `pid` has exited, as far as this system can tell. Where `/proc` is not
/// there to ask (another system, or a sandbox without it) every process counts as alive, so
/// that no running test's directory is removed under it.
fn exited(pid: u32) -> bool {
    cfg!(target_os = "linux")
        && Path::new("/proc/self").exists()
        && !Path::new("/proc").join(pid.to_string()).exists()
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
        let root = scratch("sweep-root");
        let ns = namespace().expect("Linux names the PID namespace");
        // Above Linux's largest process id (2^22), so never a live process.
        assert!(!Path::new("/proc").join(u32::MAX.to_string()).exists());
        let dead = root.join(format!("{}@{ns}", u32::MAX));
        let own = root.join(format!("{}@{ns}", std::process::id()));
        let elsewhere = root.join(format!("{}@{}", u32::MAX, ns + 1));
        let other = root.join("not-a-pid");
        for dir in [&dead, &own, &elsewhere, &other] {
            std::fs::create_dir_all(dir.join("sub")).unwrap();
            std::fs::write(dir.join("sub").join("file"), b"x").unwrap();
        }
        sweep(&root);
        assert!(!dead.exists(), "an exited process's directory is removed");
        assert!(
            own.join("sub").join("file").exists(),
            "this process's stays"
        );
        assert!(
            elsewhere.join("sub").join("file").exists(),
            "another namespace's stays"
        );
        assert!(other.join("sub").join("file").exists(), "a stranger stays");
    }
}
