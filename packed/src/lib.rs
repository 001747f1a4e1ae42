//! Packed tables: the solved values of a key in independently compressed blocks, so that a
//! whole game fits in a file a phone or a laptop can hold and one probe decompresses one
//! block.
//!
//! A packed set holds, per key, one of two kinds ([`Kind`]): the value alone (win, draw or
//! loss: what a player needs) or the full outcome with its distance (what `query` shows).
//! Slots whose value a reader recovers by itself need not hold their own: holes of the index
//! (no position maps to them) and positions whose best move is a capture into a smaller key.
//! The packer ([`morris_solver`'s `pack`]) fills those with whatever compresses best, and the
//! reader resolves them with a one-ply search over the captures; this crate only stores and
//! fetches symbols.
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
//!     23     1  flags (bit 0: captures resolve the slots whose best move is a capture)
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
//! A block decompresses to one byte per slot, then for the outcome kind a u16 for each slot
//! whose byte is 255 (an outcome code too large for a byte), in slot order. Every decode
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
pub use kind::{encode_outcome, encode_value, packed_file_name, Kind};
pub use table::PackedTable;
pub use writer::{Layout, PackWriter};
