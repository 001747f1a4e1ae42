//! Criterion benchmarks live in `benches/benches/`.
#![forbid(unsafe_code)]
