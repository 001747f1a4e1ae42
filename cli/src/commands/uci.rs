//! `morris uci`: the line protocol of Sanmill's command-line engine, answered from the tables
//! (docs/uci.md). The protocol itself is in [`protocol`]; this file reads the lines and writes
//! the answers.

mod protocol;

use crate::options::RuleFlags;
use crate::Failure;
use std::io::{BufRead, Write};

/// Speak the engine protocol of Sanmill on stdin and stdout, with exact moves and scores
#[derive(clap::Args)]
#[command(
    after_help = "Reads commands on stdin, one a line, and answers on stdout, as Sanmill's engine does:\n\
uci, isready, ucinewgame, setoption name N value V, position startpos|fen F [moves M...],\n\
go [topn N] [depth D] [searchmoves M...] [infinite] ..., eval, stop, d, quit. Positions are\n\
Sanmill's FEN (or our notation), moves Sanmill's tokens: d6, d6-d5, and a removal xb4 as a\n\
token of its own. Scores are exact: `score mate N` for a win (N > 0) or a loss (N <= 0) in N\n\
moves, `score cp 0` for a draw. Only the games of the 24-point board: nine, twelve, lasker.\n\n\
Examples:\n  morris uci --db dbs/nine\n  printf 'uci\\nposition startpos moves d6 f4\\ngo topn 3\\nquit\\n' | morris uci --db dbs/s5 --stones 5"
)]
pub struct Args {
    /// The database directory
    #[arg(long, value_name = "DIR")]
    db: std::path::PathBuf,
    #[command(flatten)]
    rules: RuleFlags,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let set = args.rules.rule_set()?;
    let mut engine = protocol::Engine::new(args.db, set)?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        // A read error (or the end of input) ends the session as `quit` does.
        let n = input.read_until(b'\n', &mut line).unwrap_or(0);
        let flow = if n == 0 {
            engine.finish(&mut out).map(|()| protocol::Flow::Quit)
        } else {
            engine.handle(&String::from_utf8_lossy(&line), &mut out)
        };
        // A reader that went away ends the session quietly.
        match flow.and_then(|f| out.flush().map(|()| f)) {
            Ok(protocol::Flow::Continue) => {}
            Ok(protocol::Flow::Quit) | Err(_) => return Ok(()),
        }
    }
}
