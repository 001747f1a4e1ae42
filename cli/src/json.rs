//! The JSON shape of `stats --json`, written by serde so that every string is escaped and every
//! field typed. (`query --json` prints `morris_tablebase::answer::Answer`, the shape the server
//! and Python share: docs/answer.md.)

use serde::Serialize;

/// One key of `stats --json`.
#[derive(Serialize)]
pub struct KeyStatsRow {
    pub key: String,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub max_win_plies: Option<u32>,
    pub max_loss_plies: Option<u32>,
    /// Under the no-capture rule: the wins and losses it turns into draws, and the longest
    /// distance to zeroing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursed_wins: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blessed_losses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_dtz: Option<u32>,
}
