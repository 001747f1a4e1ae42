//! A store hashes a table file once: opened again unchanged it is not hashed again, but a file
//! replaced since (a new inode, as every writer of tables makes) is checked in full.

mod common;

use common::{job, nine_with};
use morris_db::format::{Checks, DbError};
use morris_db::Key;
use morris_solver::progress::Silent;
use morris_solver::solve::solve;
use morris_tablebase::store::Store;
use morris_testdirs::scratch;

#[test]
fn a_replaced_table_is_hashed_again() {
    let dir = scratch("replaced");
    let rules = nine_with(4);
    solve(&mut Store::new(&dir, rules), &job(4, false), &Silent).unwrap();
    let key = Key::moving(4, 3);
    let mut store = Store::new(&dir, rules);
    store.check(key).unwrap();
    store.open_resident(key, Checks::default()).unwrap();

    // The same table with one entry changed, put in place by a rename.
    let path = store.path(key);
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    let tmp = dir.join("replacement.tmp");
    std::fs::write(&tmp, &bytes).unwrap();
    std::fs::rename(&tmp, &path).unwrap();

    let mismatch = |r: Result<(), DbError>| matches!(r, Err(DbError::ChecksumMismatch { .. }));
    assert!(mismatch(store.check(key)), "the replaced file is hashed");
    store.close_all();
    assert!(mismatch(store.open_resident(key, Checks::default())));
    // Without the checksum asked for, the store does not hash (and records nothing).
    store.open(key, Checks { checksum: false }).unwrap();
    store.close_all();
    assert!(mismatch(store.check(key)));
    // A file vouched for is trusted as it is: the solve's own output, written from memory.
    store.vouch(key);
    store.check(key).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}
