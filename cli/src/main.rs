//! `morris`: solve, query and play Nine Men's Morris and its family from the command line.

mod commands;
mod disk;
mod json;
mod options;
mod progress;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The first processor feature the build was compiled for (.cargo/config.toml: x86-64-v3) that
/// this processor lacks: a clear error instead of an illegal instruction deep in a solve.
fn missing_cpu_feature() -> Option<&'static str> {
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! check {
            ($($feature:tt),*) => {$(
                if cfg!(target_feature = $feature) && !std::arch::is_x86_feature_detected!($feature) {
                    return Some($feature);
                }
            )*};
        }
        check!("bmi2", "avx2", "popcnt", "lzcnt");
    }
    None
}

#[derive(Parser)]
#[command(
    name = "morris",
    version,
    about = "Retrograde-analysis solver and toolkit for Nine Men's Morris and its family",
    long_about = "Retrograde-analysis solver and toolkit for Nine Men's Morris and its family.\n\n\
Positions are written `W:<points> B:<points> <w|b> <white in hand> <black in hand>`, e.g.\n\
`W:d7,g1,g7 B:a4,d5,g4 b 0 0`, or `startpos`. Moves: `d6`, `d6-d5`, `a1xd7`, `b6-c5xg4`."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    Show(commands::show::Args),
    Moves(commands::moves::Args),
    Perft(commands::perft::Args),
    Plan(commands::plan::Args),
    Solve(commands::solve::Args),
    Verify(commands::verify::Args),
    Pack(commands::pack::Args),
    Stats(commands::stats::Args),
    Query(commands::query::Args),
    Analyze(commands::analyze::Args),
    Play(commands::play::Args),
    Uci(commands::uci::Args),
    Arena(commands::arena::Args),
    /// Serve the web board, the HTTP API and the statistics page
    #[command(
        after_help = "Limits (docs/web.md): a client (an IPv4 address, an IPv6 /64) over --client-rate or \
--max-client-connections is answered 429 with Retry-After while the others go on; --rate and \
--max-connections bound all clients together. SIGTERM or Ctrl-C stops accepting, lets the \
answers in flight finish within --drain-timeout and exits 0. Answers carry an ETag of the \
table set and Cache-Control (304 to a conditional request); GET /metrics gives Prometheus \
counters (--no-metrics: none); a log line a request goes to stderr (none with --log off or RUST_LOG=off).\n\n\
Examples:\n  morris serve --db dbs/nine            # then open http://127.0.0.1:8080/\n  morris serve --db dbs/s3 --stones 3 --moves-without-capture 8 --addr 127.0.0.1:9000\n  \
morris serve --db dbs/nine --trust-proxy   # behind one reverse proxy that sets X-Forwarded-For"
    )]
    Serve(morris_serve::Args),
    /// Write the database's statistics as one static HTML file with SVG charts
    #[command(after_help = "Example:\n  morris report --db dbs/nine --out report.html")]
    Report(morris_serve::ReportArgs),
    #[command(subcommand)]
    Db(commands::db::Command),
}

/// A failure the user can act on; printed as one line, exit code 2 for bad input and 1 for
/// failures of the environment (files, disk).
pub struct Failure {
    pub message: String,
    pub code: u8,
}

impl Failure {
    /// Bad input from the user: exit code 2.
    pub fn input(message: impl std::fmt::Display) -> Failure {
        Failure {
            message: message.to_string(),
            code: 2,
        }
    }

    /// A failure of files or of the checks: exit code 1.
    pub fn failed(message: impl std::fmt::Display) -> Failure {
        Failure {
            message: message.to_string(),
            code: 1,
        }
    }
}

/// A reader that stops reading (`morris query ... | head`) ends the process quietly, as it
/// does other command-line tools, instead of a panic on the next failed print.
#[cfg(unix)]
fn default_sigpipe() {
    // SAFETY: restoring the default action of a signal, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    if let Some(missing) = missing_cpu_feature() {
        eprintln!(
            "error: this build of morris needs a processor with {missing} (x86-64-v3: Intel \
             Haswell, AMD Zen or newer); on this one, build it with \
             RUSTFLAGS='-C target-cpu=x86-64' cargo build --release -p morris"
        );
        return ExitCode::from(2);
    }
    #[cfg(unix)]
    default_sigpipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Show(a) => commands::show::run(a),
        Command::Moves(a) => commands::moves::run(a),
        Command::Perft(a) => commands::perft::run(a),
        Command::Plan(a) => commands::plan::run(a),
        Command::Solve(a) => commands::solve::run(a),
        Command::Verify(a) => commands::verify::run(a),
        Command::Pack(a) => commands::pack::run(a),
        Command::Stats(a) => commands::stats::run(a),
        Command::Query(a) => commands::query::run(a),
        Command::Analyze(a) => commands::analyze::run(a),
        Command::Play(a) => commands::play::run(a),
        Command::Uci(a) => commands::uci::run(a),
        Command::Arena(a) => commands::arena::run(a),
        Command::Serve(a) => morris_serve::run(a).map_err(Failure::failed),
        Command::Report(a) => morris_serve::report(a).map_err(Failure::failed),
        Command::Db(c) => commands::db::run(c),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}
