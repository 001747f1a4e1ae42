//! Packed tables: the solved values of a key in independently compressed blocks, so that a
//! whole game fits in a file a phone or a laptop can hold and one probe decompresses one
//! block.
//!
//! A packed set holds, per key, one of two kinds ([`Kind`]): the value alone (win, draw or
//! loss: what a player needs) or the full outcome with its distance (what `query` shows).
//! What a reader recovers by itself is not stored. Holes of the index (no position maps to
//! them) hold whatever continues the run before them. And in the plain game a set may leave
//! out every key whose side to move has fewer stones on the board than the other (the flag of
//! byte 23): every move from such a position leads into a key with a file (the mover becomes
//! the side with more stones), except a capture that leaves the capturer still behind, which
//! is searched the same way one ply further. The packer ([`morris_solver`'s `pack`]) decides
//! what is left out and the reader searches it; this crate only stores and fetches symbols.
//!
//! # File layout (little-endian)
//!
//! ```text
//! offset  size  field
//!      0     8  magic "MORRISPK"
//!      8     4  format version (u32)
//!     12     3  rules (game id, flags, stones), as in the unpacked tables
//!     15     1  kind (1 values, 2 outcomes with distances)
//!     16     4  key: us, them, us in hand, them in hand
//!     20     2  no-capture limit N (0: the plain game)
//!     22     1  zstd level used (for the record)
//!     23     1  flags (bit 0: the keys whose side to move has fewer stones are searched)
//!     24     8  slot count (u64) = index size of the key
//!     32     4  slots per block (u32)
//!     36     4  reserved, zero
//!     40     8  block count (u64)
//!     48     8  offset of the block index
//!     56     8  xxh3-64 of everything after the header
//!     64    64  reserved, zero
//!    128        the blocks, each one zstd frame
//!  index        (blocks + 1) u64 file offsets of the blocks (the last one: the index itself),
//!               then one xxh3-64 per block of its compressed bytes
//! ```
//!
//! A block of values decompresses to five values a byte (base 3, the block's first slot in the
//! lowest digit of its first byte; draw 0, win 1, loss 2). A block of outcomes decompresses to
//! one byte per slot, then a u16 for each slot whose byte is 255 (an outcome code too large for
//! a byte), in slot order. A value block covers five times the slots of an outcome block of
//! the same decoded bytes. Every decode
//! checks the block's hash first, so a damaged block is an error naming the file, the block
//! and its offset, never a wrong answer.
//!
//! [`morris_solver`'s `pack`]: ../morris_solver/pack/index.html

mod block;
mod cache;
mod header;
pub mod info;
mod kind;
mod table;
mod writer;

pub use block::{compress, Block};
pub use header::{PackedHeader, PACKED_HEADER_LEN, PACKED_MAGIC, PACKED_VERSION};
pub use kind::{encode_outcomes, encode_values, packed_file_name, Kind};
pub use table::PackedTable;
pub use writer::{max_table_len, Layout, PackWriter};
