//! `morris-fuzz <target> [--seconds S] [--seed N] [--corpus DIR]`: fuzzes one target for a
//! bounded time (see the crate's documentation for why this is not cargo-fuzz). On a panic the
//! input is saved as `crash-<hash>` in the corpus directory, where `cargo test` replays it
//! from then on, and the exit code is 1. With `--save-new`, the inputs that showed an outcome
//! class the corpus did not have are added to it as `class-<hash>` (to grow the kept corpus;
//! off by default, so that a routine run leaves the tree as it was).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use morris_fuzz::{fuzz, load_corpus, Target};

fn usage() -> ExitCode {
    eprintln!(
        "usage: morris-fuzz <position|move|table> [--seconds S] [--seed N] [--corpus DIR] \
         [--save-new]\n\
         (the corpus defaults to fuzz/corpus/<target>)"
    );
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(target) = args.first().and_then(|a| Target::from_name(a)) else {
        return usage();
    };
    let mut seconds = 10u64;
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let mut corpus = PathBuf::from("fuzz/corpus").join(target.name());
    let mut save_new = false;
    let mut rest = args[1..].iter();
    while let Some(flag) = rest.next() {
        if flag == "--save-new" {
            save_new = true;
            continue;
        }
        let Some(value) = rest.next() else {
            return usage();
        };
        match flag.as_str() {
            "--seconds" => match value.parse() {
                Ok(v) => seconds = v,
                Err(_) => return usage(),
            },
            "--seed" => match value.parse() {
                Ok(v) => seed = v,
                Err(_) => return usage(),
            },
            "--corpus" => corpus = PathBuf::from(value),
            _ => return usage(),
        }
    }
    let inputs: Vec<Vec<u8>> = load_corpus(&corpus).into_iter().map(|(_, b)| b).collect();
    println!(
        "fuzzing {} for {seconds} s, seed {seed}, {} corpus input(s) from {}",
        target.name(),
        inputs.len(),
        corpus.display()
    );
    match fuzz(
        target,
        &inputs,
        seed,
        Duration::from_secs(seconds),
        u64::MAX,
    ) {
        Ok(s) => {
            println!(
                "{}: {} executions, no panic ({} outcome classes, {} inputs in the pool)",
                target.name(),
                s.executions,
                s.classes,
                s.corpus
            );
            if save_new {
                for input in &s.new_inputs {
                    let hash = xxhash_rust::xxh3::xxh3_64(input);
                    let path = corpus.join(format!("class-{hash:016x}"));
                    if let Err(e) =
                        std::fs::create_dir_all(&corpus).and_then(|()| std::fs::write(&path, input))
                    {
                        eprintln!("cannot save {}: {e}", path.display());
                        return ExitCode::from(1);
                    }
                }
                println!("{} new input(s) saved", s.new_inputs.len());
            }
            ExitCode::SUCCESS
        }
        Err(crash) => {
            let hash = xxhash_rust::xxh3::xxh3_64(&crash.input);
            let path = corpus.join(format!("crash-{hash:016x}"));
            let saved =
                std::fs::create_dir_all(&corpus).and_then(|()| std::fs::write(&path, &crash.input));
            eprintln!(
                "{}: PANIC: {}\ninput {:?}\n{}",
                target.name(),
                crash.message,
                String::from_utf8_lossy(&crash.input),
                match saved {
                    Ok(()) => format!("saved as {} (replayed by cargo test)", path.display()),
                    Err(e) => format!("could not save it to {}: {e}", path.display()),
                }
            );
            ExitCode::from(1)
        }
    }
}
