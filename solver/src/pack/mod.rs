//! Packing solved tables into compressed sets ([`morris_packed`]) and reading them back with
//! the values their don't-care slots leave out.
//!
//! A slot need not hold its own value when a reader can recover it cheaply: a hole of the
//! index (no position maps to it), or, in the plain game, a position whose best move is a
//! capture (the child is in a smaller key, so a one-ply search over the captures finds the
//! value). Such a slot may hold any value no better than its best capture's; the reader
//! takes the better of the two. The packer fills those slots with the previous slot's
//! symbol where allowed, which lengthens the runs the compressor feeds on.

mod captures;
mod fill;
mod reader;
mod writer;

pub use captures::{best_capture, capture_keys, Symbol};
pub use reader::PackedSet;
pub use writer::{pack_key, verify_key, PackOptions, Packed, Verified};
