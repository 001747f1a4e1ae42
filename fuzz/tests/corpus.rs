//! The fuzz targets as regression tests: every input kept in `fuzz/corpus/` (seeds, and each
//! input that once found a bug) must run without a panic, and a short fuzzing run from a fixed
//! seed per target must find nothing (`scripts/fuzz.sh` runs the long, randomly seeded ones).

use std::path::Path;
use std::time::Duration;

use morris_fuzz::{check, fuzz, load_corpus, Target};

#[test]
fn corpus_replays_without_panics() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut n = 0;
    for target in Target::ALL {
        for (path, input) in load_corpus(&root.join(target.name())) {
            if let Err(crash) = check(target, &input) {
                panic!("{}: {}", path.display(), crash.message);
            }
            n += 1;
        }
    }
    assert!(n > 0, "the corpus is empty");
}

#[test]
fn short_fuzzing_run_finds_nothing() {
    for target in Target::ALL {
        let runs = match target {
            Target::Table => 50_000,
            _ => 200_000,
        };
        match fuzz(target, &[], 0x6d6f_7272_6973, Duration::from_secs(20), runs) {
            Ok(s) => assert!(s.executions > 0),
            Err(crash) => panic!(
                "{}: {} on {:?}",
                target.name(),
                crash.message,
                String::from_utf8_lossy(&crash.input)
            ),
        }
    }
}
