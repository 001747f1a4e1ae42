//! Packing solved tables into compressed sets ([`morris_packed`]), and checking a packed set
//! against the tables it was packed from. What a set leaves out, and how it is read back, is
//! [`morris_tablebase::packed`]'s to say.

mod fill;
mod writer;

pub use writer::{pack_key, verify_key, PackOptions, Packed, Searched, Sets, Verified};
