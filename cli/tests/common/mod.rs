//! Helpers shared by the binary's test files: running `morris`, scratch directories, and the
//! contents of a database directory.

// Each test file uses its own subset.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn morris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(args)
        .output()
        .expect("the binary runs")
}

pub fn morris_env(args: &[&str], env: (&str, &str)) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(args)
        .env(env.0, env.1)
        .output()
        .expect("the binary runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A fresh, empty directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("morris-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The files of a database directory with their contents, sorted by name. The write lock's
/// file (`.morris.lock`) is left out: it is not data, and it names the last writer's PID.
pub fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap() != ".morris.lock")
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}
