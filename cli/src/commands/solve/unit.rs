//! `morris solve --key K [--range A..B | --join] [--check]`: one unit of a solve, as a job of a
//! workflow runs it.

use super::{metrics, Args, SolveReport};
use crate::progress::Bars;
use crate::Failure;
use morris_db::Key;
use morris_engine::Rules;
use morris_solver::solve::unit::{check, find, is_done, solve_unit, Part};
use morris_solver::solve::SolveError;
use morris_tablebase::store::Store;
use std::ops::Range;

/// `A..B` as a range of slots.
pub fn parse_range(s: &str) -> Result<Range<u64>, String> {
    let bad = || format!("`{s}` is not a slot range like `0..65536`");
    let (a, b) = s.split_once("..").ok_or_else(bad)?;
    let (a, b): (u64, u64) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a >= b {
        return Err(format!("slot range `{s}` is empty"));
    }
    Ok(a..b)
}

pub fn run(args: &Args, rules: Rules, max_stones: u8, key: Key) -> Result<(), Failure> {
    let step = find(&rules, max_stones, key).map_err(Failure::input)?;
    let part = match (&args.range, args.join) {
        (Some(r), _) => Part::Range(r.clone()),
        (None, true) => Part::Join,
        (None, false) => Part::Whole,
    };
    check(&rules, &step, &part).map_err(Failure::input)?;
    let (what, slots) = match &part {
        Part::Range(r) => (
            format!("{} slots {}..{}", step.name(), r.start, r.end),
            r.end - r.start,
        ),
        Part::Whole | Part::Join => {
            let slots = step
                .keys()
                .into_iter()
                .map(|k| morris_db::slots(rules.board(), k));
            (step.name(), slots.sum())
        }
    };
    let what = match part {
        Part::Join => format!("{what} (join)"),
        _ => what,
    };
    let metrics = metrics(&args.rules)?;
    let stores = metrics
        .iter()
        .map(|&m| Store::with_metric(&args.db.db, rules, m));
    if args.check {
        return match stores.clone().all(|s| is_done(&s, &step, &part)) {
            true => Ok(()),
            false => Err(Failure::failed(format!("{what} is not complete"))),
        };
    }
    let command: Vec<String> = std::env::args().collect();
    let start = std::time::Instant::now();
    let mut solved = false;
    for mut store in stores {
        let bars = Bars::new(slots, "slots");
        let report = SolveReport {
            bars: &bars,
            name: Default::default(),
        };
        let result = solve_unit(&mut store, &step, &part, &report, &command.join(" "));
        bars.finish();
        solved |= result
            .map_err(|e| match e {
                SolveError::MissingDependency { .. } => Failure::input(e),
                e => Failure::failed(e),
            })?
            .solved;
    }
    if solved {
        println!(
            "solved {what} in {:.1} s; databases in {}",
            start.elapsed().as_secs_f64(),
            args.db.db.display()
        );
    } else {
        println!(
            "nothing to do: {what} is complete in {}",
            args.db.db.display()
        );
    }
    Ok(())
}
