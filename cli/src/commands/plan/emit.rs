//! The workflow files of `morris plan --emit`: a Slurm submit script, or a Makefile for one
//! machine. Both run `morris solve --key` per job ([`super::jobs`]), whose jobs do nothing
//! when their output is complete.

use super::jobs::UnitJob;
use core::fmt::Write as _;

/// What every job's command line shares: the binary, the directory and the rule options.
pub struct Common {
    /// The morris binary (absolute: jobs start elsewhere).
    pub morris: String,
    pub db: String,
    /// `--game ... --max-stones N` and the other rule options, as on this command line.
    pub options: String,
    pub cpus: usize,
    /// What the workflow solves, for the header comment.
    pub title: String,
}

impl Common {
    /// What both workflows' headers say: the title, the number of jobs, the binary and the
    /// directory quoted for the shell, the rule options and the threads of a job.
    fn header(&self, jobs: &[UnitJob]) -> (&str, usize, String, String, &str, usize) {
        (
            &self.title,
            jobs.len(),
            quote(&self.morris),
            quote(&self.db),
            &self.options,
            self.cpus,
        )
    }
}

/// Quotes `s` for a POSIX shell (as one word, single quotes).
pub fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_./,:=+@".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Memory to request for a job: its need, a quarter more for the index tables and the
/// allocator, and 256 MiB for the process; in MiB.
pub fn request_mib(memory: u64) -> u64 {
    (memory + memory / 4).div_ceil(1 << 20) + 256
}

/// Minutes to request for a job: three times the estimate, and ten minutes more.
pub fn request_minutes(job: &UnitJob, cpus: usize) -> u64 {
    (3.0 * job.seconds(cpus) / 60.0).ceil() as u64 + 10
}

/// The Slurm submit script: one `sbatch` per job whose output is not complete, with
/// `--dependency=afterok:` edges to the jobs submitted for what it reads.
pub fn slurm(jobs: &[UnitJob], c: &Common) -> String {
    let (title, n, morris, db, options, cpus) = c.header(jobs);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"#!/usr/bin/env bash
# {title}: {n} Slurm jobs (written by `morris plan --emit slurm`).
#
# Each job runs `morris solve --key ...`, one unit of the solve (a moving-phase pair, a
# placement key, a slot range of a large key, the join of its ranges), after the jobs of the
# units it reads (--dependency=afterok; a failed job cancels what waits for it). Memory and time
# requests come from the plan's figures. The database directory must be on a file system that
# every node sees. Jobs whose output is complete are not submitted: after a failure, run this
# script again (once the jobs of the first run have ended) and only what is missing is
# resubmitted.
#
# Environment: MORRIS (the binary on the nodes), LOGS (the jobs' output, default
# ./morris-logs), SBATCH_OPTIONS (more sbatch options: partition, account).
set -euo pipefail
MORRIS=${{MORRIS:-{morris}}}
DB={db}
OPTIONS=({options})
CPUS={cpus}
LOGS=${{LOGS:-$PWD/morris-logs}}
read -r -a EXTRA <<< "${{SBATCH_OPTIONS:-}}"
mkdir -p "$LOGS"
submitted=0
complete=0

# job VAR NAME MEMORY_MIB MINUTES [JOB_ID ...] -- SOLVE_ARGUMENTS: submits the job unless its
# output is complete, and sets VAR to its id (empty when not submitted).
job() {{
    local var=$1 name=$2 mem=$3 minutes=$4
    shift 4
    local deps=""
    while [ "$1" != -- ]; do
        if [ -n "$1" ]; then deps="$deps:$1"; fi
        shift
    done
    shift
    local status=0
    "$MORRIS" solve --db "$DB" "${{OPTIONS[@]}}" "$@" --check > /dev/null 2>&1 || status=$?
    if [ "$status" -eq 0 ]; then
        complete=$((complete + 1))
        printf -v "$var" '%s' ""
        return
    elif [ "$status" -ne 1 ]; then
        "$MORRIS" solve --db "$DB" "${{OPTIONS[@]}}" "$@" --check || exit 2
    fi
    local after=()
    if [ -n "$deps" ]; then after=(--dependency="afterok$deps" --kill-on-invalid-dep=yes); fi
    local command
    command=$(printf '%q ' "$MORRIS" solve --db "$DB" "${{OPTIONS[@]}}" "$@" --threads "$CPUS")
    local id
    id=$(sbatch --parsable --job-name="$name" --mem="${{mem}}M" --time="$minutes" \
        --cpus-per-task="$CPUS" --output="$LOGS/%x-%j.out" "${{after[@]}}" "${{EXTRA[@]}}" \
        --wrap="$command")
    printf -v "$var" '%s' "${{id%%;*}}"
    submitted=$((submitted + 1))
}}

"#
    );
    for (n, j) in jobs.iter().enumerate() {
        let after: Vec<String> = j.after.iter().map(|a| format!("\"$j{a}\"")).collect();
        let _ = writeln!(
            s,
            "job j{n} {} {} {} {} -- {}",
            j.name,
            request_mib(j.memory),
            request_minutes(j, c.cpus),
            after.join(" "),
            j.args()
        );
    }
    s.push_str(
        "\necho \"submitted $submitted job(s); $complete complete, not submitted; logs in $LOGS\"\n",
    );
    s
}

/// The Makefile: one phony target per job, waiting for the jobs it depends on, so that
/// `make -j N` runs up to N jobs at once on one machine (each with `THREADS` threads).
pub fn make(jobs: &[UnitJob], c: &Common) -> String {
    let (title, n, morris, db, options, cpus) = c.header(jobs);
    let mut s = String::new();
    let targets: Vec<&str> = jobs.iter().map(|j| j.name.as_str()).collect();
    let _ = write!(
        s,
        "# {title}: {n} jobs (written by `morris plan --emit make`).\n\
         # `make -j N` runs up to N at once; a job whose output is complete does nothing, so\n\
         # `make` after a failure redoes only what is missing.\n\
         MORRIS ?= {morris}\n\
         DB := {db}\n\
         OPTIONS := {options}\n\
         THREADS ?= {cpus}\n\
         SOLVE = $(MORRIS) solve --db $(DB) $(OPTIONS) --threads $(THREADS)\n\n\
         .PHONY: all {all}\n\
         all: {all}\n\n",
        all = targets.join(" "),
    );
    for j in jobs {
        let after: Vec<&str> = j.after.iter().map(|&a| targets[a]).collect();
        let _ = write!(
            s,
            "{}:{}{}\n\t$(SOLVE) {}\n\n",
            j.name,
            if after.is_empty() { "" } else { " " },
            after.join(" "),
            j.args()
        );
    }
    s
}
