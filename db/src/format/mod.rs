//! The on-disk format of a solved sub-database: one file per key, a fixed header, one byte per
//! slot, and a small overflow table for distances that do not fit in a byte.
//!
//! Files are written atomically ([`Writer`]) and read through a memory map ([`Table`]), which
//! refuses any file whose header, size or checksum does not match what the caller expects.

mod atomic;
mod entry;
mod error;
mod header;
pub mod info;
mod table;
mod writer;

pub use atomic::AtomicFile;
pub use entry::{wdl2, Entry};
pub use error::DbError;
pub use header::{
    decode_common, decode_rules, describe_metric, describe_rules, encode_common, encode_rules,
    file_name, Encoding, Header, Metric, HEADER_LEN, MAGIC, VERSION,
};
pub use table::{check_identity, check_key, map_read_only, Checks, Decoder, Table};
pub use writer::{write_table, EncodedBlock, Writer};
