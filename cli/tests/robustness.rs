//! What a solve survives: SIGKILL at any moment, a second writer, a full disk, plans that do
//! not fit, option values out of bounds; and that its files do not depend on the number of
//! threads. Each solve is the whole 4-stone game (`--stones 4`: 17 steps, about two seconds),
//! compared byte for byte with one uninterrupted reference solve.

mod common;

use common::{files, morris, morris_env, stderr, stdout};
use morris_db::format::{Checks, Table};
use morris_testdirs::scratch;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const GAME: [&str; 2] = ["--stones", "4"];

/// The reference: the 4-stone game solved once, uninterrupted, on 2 threads.
fn reference() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("reference");
        let o = solve(&dir, &["--threads", "2"]);
        assert!(o.status.success(), "{}", stderr(&o));
        dir
    })
}

fn solve(dir: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["solve", "--db", dir.to_str().unwrap()];
    args.extend(GAME);
    args.extend(extra);
    morris(&args)
}

fn solve_command(dir: &Path, extra: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_morris"));
    c.args(["solve", "--db", dir.to_str().unwrap()])
        .args(GAME)
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

/// Every file with a final name is a complete table (header, size and checksum); returns the
/// names of the temporary files present.
fn check_no_damaged_final_file(dir: &Path) -> Vec<String> {
    let mut tmp = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(".mdb") {
            if let Err(e) = Table::open_any(&path, Checks::default()) {
                panic!("a damaged file with a final name: {e}");
            }
        } else if name.ends_with(".tmp") {
            tmp.push(name);
        }
    }
    tmp
}

/// A small seedable generator for the kill moments (xorshift); the seed is printed so that a
/// failing run can be repeated with `MORRIS_KILL_SEED`.
fn kill_moments(n: usize, max_ms: u64) -> Vec<u64> {
    let seed = std::env::var("MORRIS_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
                | 1
        });
    eprintln!("kill moments from MORRIS_KILL_SEED={seed}");
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            20 + x % max_ms
        })
        .collect()
}

#[test]
fn sigkill_at_random_moments_then_resume_is_byte_identical() {
    let reference = reference();
    let dir = scratch("killed");
    // Each run resumes from what the one before it left. The random moments are spread over
    // the length of a whole solve (about two seconds when the machine is busy), and land
    // mostly while a key is solved in memory: writes take a small part of a solve.
    let mut mid_write = 0;
    let mut kills = 0;
    // First, kills aimed at writes: as soon as a temporary file shows up (its data written,
    // hashed and synced before the rename: a window of milliseconds).
    // (A temporary file a killed run left is not this run's: only files written since the
    // spawn count.)
    let fresh_tmp = |since: std::time::SystemTime| {
        std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .any(|e| {
                e.metadata()
                    .and_then(|m| m.modified())
                    .is_ok_and(|t| t >= since)
            })
    };
    for _ in 0..6 {
        let spawned = std::time::SystemTime::now();
        let mut child = solve_command(&dir, &["--threads", "2"]).spawn().unwrap();
        let seen = loop {
            if child.try_wait().unwrap().is_some() {
                break false;
            }
            if fresh_tmp(spawned) {
                break true;
            }
        };
        let _ = child.kill();
        let status = child.wait().unwrap();
        if !seen || status.success() {
            break;
        }
        kills += 1;
        check_no_damaged_final_file(&dir);
        mid_write += usize::from(fresh_tmp(spawned));
        if mid_write >= 2 {
            break;
        }
    }
    // Then kills at random moments.
    let moments = kill_moments(5, 1500);
    for ms in moments {
        let mut child = solve_command(&dir, &["--threads", "2"]).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(ms));
        let finished = child.try_wait().unwrap().is_some();
        // Child::kill is SIGKILL on Unix: no destructor, no cleanup, as in a crash.
        let _ = child.kill();
        let status = child.wait().unwrap();
        if finished || status.success() {
            break;
        }
        kills += 1;
        let tmp = check_no_damaged_final_file(&dir);
        mid_write += usize::from(!tmp.is_empty());
        // The dead process's lock record is left behind; the next run takes the lock over.
        let record = std::fs::read_to_string(dir.join(".morris.lock")).unwrap_or_default();
        assert!(record.is_empty() || record.lines().next().unwrap().parse::<u32>().is_ok());
    }
    eprintln!("{kills} kills, {mid_write} of them with a file half written");
    assert!(kills > 0, "the solve finished before the first kill");
    assert!(mid_write > 0, "no kill landed during a write");
    let o = solve(&dir, &["--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(check_no_damaged_final_file(&dir).is_empty());
    assert_eq!(
        files(&dir),
        files(reference),
        "killed and resumed solve differs from an uninterrupted one"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn one_and_two_threads_write_identical_files() {
    let dir = scratch("one-thread");
    let o = solve(&dir, &["--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(&dir), files(reference()), "1 thread differs from 2");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_writer_is_refused_and_readers_are_not() {
    let dir = scratch("two-writers");
    let mut first = solve_command(&dir, &["--threads", "1"]).spawn().unwrap();
    // Wait until the first has the lock (its PID is in the lock file).
    let lock = dir.join(".morris.lock");
    let start = Instant::now();
    let holder = loop {
        let record = std::fs::read_to_string(&lock).unwrap_or_default();
        if let Some(pid) = record.lines().next().and_then(|l| l.parse::<u32>().ok()) {
            break pid;
        }
        assert!(start.elapsed() < Duration::from_secs(30), "no lock taken");
        std::thread::sleep(Duration::from_millis(5));
    };
    assert_eq!(holder, first.id());
    let second = solve(&dir, &["--threads", "1"]);
    if first.try_wait().unwrap().is_none() {
        assert_eq!(second.status.code(), Some(1), "{}", stderr(&second));
        let err = stderr(&second);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("is being written by process {holder}")),
            "{err}"
        );
        // Readers take no lock.
        let info = morris(&["db", "info", dir.to_str().unwrap()]);
        assert!(
            !stderr(&info).contains("being written"),
            "{}",
            stderr(&info)
        );
    }
    let status = first.wait().unwrap();
    assert!(status.success());
    assert!(check_no_damaged_final_file(&dir).is_empty());
    assert_eq!(
        files(&dir),
        files(reference()),
        "the second writer did damage"
    );
    // Released on exit: a third writer finds nothing to do.
    let third = solve(&dir, &[]);
    assert!(
        stdout(&third).contains("nothing to do"),
        "{}",
        stderr(&third)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_full_disk_leaves_no_damaged_file_and_says_so() {
    let dir = scratch("full-disk");
    // Fail at once, in the middle of a file, and late in the solve.
    for limit in ["10", "300000", "4000000"] {
        let o = morris_env(
            &["solve", "--db", dir.to_str().unwrap(), "--stones", "4"],
            ("MORRIS_FAIL_WRITE_AFTER_BYTES", limit),
        );
        assert_eq!(o.status.code(), Some(1), "limit {limit}: {}", stdout(&o));
        let err = stderr(&o);
        assert!(err.contains("No space left on device"), "{err}");
        assert!(err.contains(".mdb.tmp: cannot write"), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        // The unfinished file is removed; every file with a final name is whole.
        assert_eq!(check_no_damaged_final_file(&dir), Vec::<String>::new());
    }
    let o = solve(&dir, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(files(&dir), files(reference()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_plan_that_does_not_fit_is_refused_unless_forced() {
    let dir = scratch("no-room").join("db");
    let d = dir.to_str().unwrap();
    let three = ["solve", "--db", d, "--stones", "3"];
    let o = morris_env(&three, ("MORRIS_TEST_FREE_DISK", "1000"));
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("not enough disk space"), "{err}");
    assert!(err.contains("--force"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!dir.exists(), "a refused solve created its directory");
    let o = morris_env(&three, ("MORRIS_TEST_AVAILABLE_MEMORY", "1000"));
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not enough memory"), "{}", stderr(&o));
    let mut forced = three.to_vec();
    forced.push("--force");
    let o = morris_env(&forced, ("MORRIS_TEST_FREE_DISK", "1000"));
    assert!(o.status.success(), "{}", stderr(&o));
    // A pack refuses the same way, before it creates its directory: the tables still to pack
    // can take at most a byte a slot and a fifth, and 3-3's alone is 210,140 slots.
    let out = dir.parent().unwrap().join("packed");
    let pack = [
        "pack",
        "--db",
        d,
        "--stones",
        "3",
        "--out",
        out.to_str().unwrap(),
    ];
    let o = morris_env(&pack, ("MORRIS_TEST_FREE_DISK", "200000"));
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("not enough disk space"), "{err}");
    assert!(
        err.contains("still to pack") && err.contains("missing"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(!out.exists(), "a refused pack created its directory");
    let o = morris_env(
        &[&pack[..], &["--force"]].concat(),
        ("MORRIS_TEST_FREE_DISK", "0"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // Packed already: nothing left to write needs no room.
    let o = morris_env(&pack, ("MORRIS_TEST_FREE_DISK", "0"));
    assert!(o.status.success(), "{}", stderr(&o));
    // Only missing files count: a complete directory needs no room at all.
    let o = morris_env(&three, ("MORRIS_TEST_FREE_DISK", "0"));
    assert!(stdout(&o).contains("nothing to do"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}

#[test]
fn option_bounds_are_one_line_errors_with_exit_2() {
    let dir = scratch("bounds").join("db");
    let d = dir.to_str().unwrap();
    for (args, needle) in [
        (
            vec!["solve", "--db", d, "--stones", "13"],
            "--stones must be from 3 to 12 for nine",
        ),
        (
            vec!["solve", "--db", d, "--stones", "30"],
            "--stones must be from 3 to 12",
        ),
        (vec!["plan", "--stones", "2"], "--stones must be from 3"),
        (
            vec!["show", "--game", "three", "--stones", "5", "startpos"],
            "--stones must be from 3 to 4 for three",
        ),
        (
            vec!["solve", "--db", d, "--threads", "0"],
            "--threads must be from 1",
        ),
        (
            vec!["verify", "--db", d, "--threads", "5000"],
            "--threads must be from 1 to 1024",
        ),
        (
            vec!["solve", "--db", d, "--max-stones", "2"],
            "--max-stones must be from 3 to 9",
        ),
        (
            vec!["solve", "--db", d, "--stones", "4", "--max-stones", "5"],
            "--max-stones must be from 3 to 4",
        ),
        (
            vec!["solve", "--db", d, "--only", "9-2"],
            "not part of the moving phase",
        ),
    ] {
        let o = morris(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(!dir.exists(), "{args:?} created the directory");
    }
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
}

/// An interrupted verification goes on where it stopped: `--journal` records the keys that
/// pass with the checksums of the tables they were checked against, a rerun skips exactly
/// those, a key whose record no longer matches is checked again, and a damaged journal is an
/// error naming it.
#[test]
fn verify_journal_resumes_and_rechecks_changed_keys() {
    let db = scratch("journal-db");
    let d = db.to_str().unwrap();
    let o = morris(&["solve", "--stones", "4", "--moving-only", "--db", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    let journal = db.join("verify.journal");
    let j = journal.to_str().unwrap();
    let verify = [
        "verify",
        "--stones",
        "4",
        "--moving-only",
        "--db",
        d,
        "--journal",
        j,
    ];
    let o = morris(&verify);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&journal).unwrap();
    assert_eq!(text.lines().count(), 4, "one line a key: {text}");
    let o = morris(&verify);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert_eq!(all.matches("verified before (journal)").count(), 4, "{all}");
    // A record whose stamp no longer matches (a table rebuilt since): that key again.
    let first = text.lines().next().unwrap();
    let (check, _) = first.split_once('\t').unwrap();
    let changed = text.replacen(first, &format!("{check}\t0000000000000000"), 1);
    std::fs::write(&journal, changed).unwrap();
    let o = morris(&verify);
    assert!(o.status.success(), "{}", stderr(&o));
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert_eq!(all.matches("verified before (journal)").count(), 3, "{all}");
    assert!(all.contains("classes checked"), "{all}");
    // A damaged journal: exit 1 naming the file and the line.
    std::fs::write(&journal, "no tab here\n").unwrap();
    let o = morris(&verify);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("verify.journal") && stderr(&o).contains("line 1"),
        "{}",
        stderr(&o)
    );
}
