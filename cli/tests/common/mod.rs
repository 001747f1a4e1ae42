//! Helpers shared by the binary's test files: running `morris`, games solved into scratch
//! directories, the contents of a database directory, the JSON a command prints, and
//! the assertions every file makes on answers and on failures.

// Each test file uses its own subset.
#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn morris(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// `morris` with `input` typed on its standard input, which is then closed.
pub fn morris_input(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_morris"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
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

/// Asserts that a command failed with exit code `code` (1: a failure, 2: bad input), saying
/// each of `needles` on its standard error.
pub fn assert_fails(o: &Output, code: i32, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(code), "{err}");
    for needle in needles {
        assert!(err.contains(needle), "{needle} missing from: {err}");
    }
}

/// The JSON document a command printed.
pub fn json(o: &Output) -> Value {
    serde_json::from_str(&stdout(o))
        .unwrap_or_else(|e| panic!("not one JSON document ({e}): {}", stdout(o)))
}

/// Asserts that an answer (docs/answer.md) is `value` in `plies`.
pub fn assert_value(v: &Value, value: &str, plies: u64) {
    assert_eq!(
        (&v["value"], &v["plies"]),
        (&value.into(), &plies.into()),
        "{v}"
    );
}

/// Asserts that an answer (docs/answer.md) is `value` in `plies` and that its first move, the
/// best, is `mv`, of that value and distance.
pub fn assert_best(v: &Value, value: &str, plies: u64, mv: &str) {
    assert_value(v, value, plies);
    let first = &v["moves"][0];
    assert_eq!(
        (&first["move"], &first["value"], &first["plies"]),
        (&mv.into(), &value.into(), &plies.into()),
        "{v}"
    );
}

/// `morris solve --db DIR ARGS`, which must succeed.
pub fn solve(dir: &Path, args: &[&str]) -> Output {
    let mut a = vec!["solve", "--db", dir.to_str().unwrap()];
    a.extend_from_slice(args);
    let o = morris(&a);
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

/// A fresh directory with a game solved into it (`morris solve` with `args`).
pub fn solved(name: &str, args: &[&str]) -> PathBuf {
    let dir = morris_testdirs::scratch(name);
    solve(&dir, args);
    dir
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
