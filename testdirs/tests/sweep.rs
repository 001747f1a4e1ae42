//! The sweep as a test process meets it: the first scratch directory of a process removes the
//! directories that exited test processes left, and not its own. The only test of its binary,
//! so that nothing calls `scratch` before it sets up the leftovers.

#![cfg(target_os = "linux")]

use std::path::Path;

#[test]
fn the_first_scratch_directory_sweeps_exited_processes_leftovers() {
    // Above Linux's largest process id (2^22), so never a live process.
    assert!(!Path::new("/proc").join(u32::MAX.to_string()).exists());
    let dead = morris_testdirs::process_dir(u32::MAX).join("left");
    let own = morris_testdirs::process_dir(std::process::id()).join("kept");
    for dir in [&dead, &own] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("file"), b"x").unwrap();
    }
    let dir = morris_testdirs::scratch("sweep");
    assert!(dir.is_dir());
    assert!(
        !dead.parent().unwrap().exists(),
        "an exited process's directory is removed"
    );
    assert!(own.join("file").exists(), "this process's own stays");
}
