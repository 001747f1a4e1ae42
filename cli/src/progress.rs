//! Progress bars for long commands: one bar for the sub-database at work (its phase, slots
//! per second, ETA) and one for the whole run. Nothing is drawn when stdout is not a terminal;
//! the commands print one summary line per sub-database instead.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use morris_solver::progress::Progress;
use std::io::IsTerminal;

pub struct Bars {
    multi: MultiProgress,
    overall: ProgressBar,
    current: ProgressBar,
    name: std::sync::Mutex<String>,
}

impl Bars {
    /// Bars over `total` units of the whole run (e.g. slots of all sub-databases to build).
    pub fn new(total: u64, what: &str) -> Bars {
        let target = if std::io::stdout().is_terminal() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let multi = MultiProgress::with_draw_target(target);
        let overall = multi.add(ProgressBar::new(total));
        overall.set_style(
            ProgressStyle::with_template(
                "{prefix:>12} [{bar:40.green/white}] {percent:>3}% {human_pos}/{human_len} {msg} elapsed {elapsed_precise} ETA {eta_precise}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        overall.set_prefix("total");
        overall.set_message(what.to_string());
        let current = multi.add(ProgressBar::new(0));
        current.set_style(
            ProgressStyle::with_template(
                "{prefix:>12} [{bar:40.cyan/blue}] {percent:>3}% {msg} {per_sec} ETA {eta}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        Bars {
            multi,
            overall,
            current,
            name: std::sync::Mutex::new(String::new()),
        }
    }

    /// The sub-database now being worked on.
    pub fn begin(&self, name: &str) {
        *self.name.lock().expect("not poisoned") = name.to_string();
        self.current.set_prefix(name.to_string());
    }

    /// Advances the overall bar (a sub-database finished or was skipped).
    pub fn done(&self, units: u64) {
        self.overall.inc(units);
    }

    /// Prints a line above the bars (or plainly when they are hidden).
    pub fn println(&self, line: &str) {
        if self.multi.is_hidden() {
            println!("{line}");
        } else {
            let _ = self.multi.println(line);
        }
    }

    pub fn finish(&self) {
        self.current.finish_and_clear();
        self.overall.finish_and_clear();
    }
}

impl Progress for Bars {
    fn start(&self, phase: &str, total: u64) {
        self.current.set_length(total);
        self.current.reset();
        self.current.set_message(phase.to_string());
    }

    fn advance(&self, n: u64) {
        self.current.inc(n);
    }
}
