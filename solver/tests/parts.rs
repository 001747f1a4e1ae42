//! A placement key solved range by range (the jobs of a cluster workflow) and joined is the
//! table of a single run, byte for byte, whatever the split; unit jobs skip complete outputs.

mod common;

use common::job;
use morris_db::format::Metric;
use morris_db::plan::{KeyGraph, UnitKind};
use morris_db::slots;
use morris_engine::Rules;
use morris_solver::placement::part::{part_path, parts, split};
use morris_solver::progress::Silent;
use morris_solver::solve::unit::{check, is_done, solve_unit, Part};
use morris_solver::solve::{solve, Step};
use morris_tablebase::store::Store;
use morris_testdirs::scratch;
use std::path::Path;

fn copy_all(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn any_split_joins_into_the_single_run_table() {
    let rules = Rules::nine().with_stones(4).unwrap();
    let single = scratch("single");
    let job = job(4, true);
    for metric in [Metric::Plain, Metric::NoCapture(20)] {
        solve(
            &mut Store::with_metric(&single, rules, metric),
            &job,
            &Silent,
        )
        .unwrap();
    }
    let graph = KeyGraph::new(&rules, 4);
    // The largest placement keys, and one with a single slot or so.
    let mut units: Vec<&Step> = graph
        .placement()
        .iter()
        .filter(|u| u.kind == UnitKind::Placement)
        .collect();
    units.sort_by_key(|u| slots(rules.board(), u.first_key()));
    let picked = [units[0], units[units.len() / 2], units[units.len() - 1]];
    for metric in [Metric::Plain, Metric::NoCapture(20)] {
        for unit in picked {
            let key = unit.first_key();
            let n = slots(rules.board(), key);
            let expected =
                std::fs::read(Store::with_metric(&single, rules, metric).path(key)).unwrap();
            // A single range, ranges that divide the key evenly and ranges that do not (a few
            // dozen jobs at most: each opens the tables it reads).
            let mut sizes = vec![n, n.div_ceil(2), n / 3 + 1, n.div_ceil(40)];
            if n.is_multiple_of(4) {
                sizes.push(n / 4);
            }
            if n <= 100 {
                sizes.push(7);
            }
            for size in sizes {
                let dir = scratch("split");
                copy_all(&single, &dir);
                let mut store = Store::with_metric(&dir, rules, metric);
                let table = store.path(key);
                std::fs::remove_file(&table).unwrap();
                let ranges = split(n, size);
                // In reverse order: a join must not depend on the order the parts came in.
                for r in ranges.iter().rev() {
                    let part = Part::Range(r.clone());
                    check(&rules, unit, &part).unwrap();
                    assert!(!is_done(&store, unit, &part));
                    let report = solve_unit(&mut store, unit, &part, &Silent, "test").unwrap();
                    assert!(report.solved);
                    assert!(is_done(&store, unit, &part));
                    assert!(part_path(&table, r).exists());
                }
                assert_eq!(parts(&table), ranges);
                assert!(!is_done(&store, unit, &Part::Join));
                solve_unit(&mut store, unit, &Part::Join, &Silent, "test").unwrap();
                assert_eq!(
                    std::fs::read(&table).unwrap(),
                    expected,
                    "{key} {metric:?} in ranges of {size} slots"
                );
                assert!(parts(&table).is_empty(), "parts removed");
                // Complete: every job of the unit now does nothing.
                for part in [Part::Join, Part::Whole, Part::Range(ranges[0].clone())] {
                    let report = solve_unit(&mut store, unit, &part, &Silent, "test").unwrap();
                    assert!(!report.solved, "{part:?}");
                }
                let _ = std::fs::remove_dir_all(&dir);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&single);
}

/// A join with a range missing fails, names the slot, and keeps the parts; a range outside
/// the key or of a pair is refused.
#[test]
fn a_missing_range_is_an_error() {
    let rules = Rules::nine().with_stones(3).unwrap();
    let dir = scratch("missing");
    let mut store = Store::new(&dir, rules);
    solve(&mut store, &job(3, true), &Silent).unwrap();
    let graph = KeyGraph::new(&rules, 3);
    let unit = graph
        .placement()
        .iter()
        .max_by_key(|u| slots(rules.board(), u.first_key()))
        .unwrap();
    let key = unit.first_key();
    let n = slots(rules.board(), key);
    std::fs::remove_file(store.path(key)).unwrap();
    let ranges = split(n, n / 3);
    solve_unit(
        &mut store,
        unit,
        &Part::Range(ranges[0].clone()),
        &Silent,
        "t",
    )
    .unwrap();
    let err = solve_unit(&mut store, unit, &Part::Join, &Silent, "t").unwrap_err();
    assert!(
        err.to_string()
            .contains(&format!("starts at slot {}", ranges[0].end)),
        "{err}"
    );
    assert_eq!(parts(&store.path(key)), ranges[..1]);
    assert!(check(&rules, unit, &Part::Range(0..n + 1)).is_err());
    assert!(check(&rules, &graph.moving()[0], &Part::Range(0..1)).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}
