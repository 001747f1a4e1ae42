//! Progress reporting without a terminal dependency: the CLI draws bars, tests stay silent.

/// Receives the progress of a solve: phases and the slots handled, a chunk at a time.
pub trait Progress: Sync {
    /// A new phase of `total` slots begins.
    fn start(&self, phase: &str, total: u64);
    /// `n` more slots of the current phase are done.
    fn advance(&self, n: u64);
}

/// Reports nothing.
pub struct Silent;

impl Progress for Silent {
    fn start(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
}
