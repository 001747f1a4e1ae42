use morris_db::{Index, Key};
use morris_engine::{Bitboard, Position, Rules};
use morris_solver::progress::Silent;
use morris_solver::retro::solve_pair;
use morris_solver::Lower;
use std::collections::HashMap;

struct Mem {
    rules: Rules,
    keys: HashMap<Key, (Index, Vec<u16>)>,
}

impl Lower for Mem {
    fn plies(&self, us: Bitboard, them: Bitboard) -> Option<u32> {
        if us.count() < 3 {
            return Some(0);
        }
        let key = Key::moving(us.count() as u8, them.count() as u8);
        let (index, codes) = &self.keys[&key];
        let c = codes[index.index(us, them) as usize];
        (c != 0).then(|| c as u32 - 1)
    }
}

#[test]
fn three_three() {
    let rules = Rules::nine();
    let mut mem = Mem { rules, keys: HashMap::new() };
    let t = std::time::Instant::now();
    let solved = solve_pair(&rules, Key::moving(3, 3), &mem, &Silent);
    eprintln!("3-3 in {:?}", t.elapsed());
    for (k, codes) in solved.keys {
        mem.keys.insert(k, (Index::new(rules.board(), k), codes));
    }
    let (index, codes) = &mem.keys[&Key::moving(3, 3)];
    let mut w = 0u64;
    let mut n = 0u64;
    for i in 0..index.size() {
        if index.is_hole(i) { continue; }
        n += 1;
        if codes[i as usize] % 2 == 0 && codes[i as usize] != 0 { w += 1; }
    }
    eprintln!("wins {w} of {n}: {:.2}%", 100.0 * w as f64 / n as f64);
    let p = Position::parse("W:d7,g1,g7 B:a4,d5,g4 b 0 0", &mem.rules).unwrap();
    assert_eq!(mem.plies(p.us(), p.them()), Some(26));
}
