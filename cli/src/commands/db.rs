use crate::Failure;
use morris_db::format::{info, Checks};
use morris_packed::info as packed;

/// Inspect database files
#[derive(clap::Subcommand)]
pub enum Command {
    /// Print the headers of a database file, or of every file in a directory (tables and
    /// packed sets), and flag damaged ones (exit code 1 if any)
    #[command(
        after_help = "Examples:\n  morris db info dbs/nine\n  morris db info dbs/nine/nine-3-3-0-0.mdb\n  morris db info dbs/nine-packed"
    )]
    Info {
        /// A database file or directory
        path: std::path::PathBuf,
        /// Skip hashing the payloads (headers and sizes only)
        #[arg(long)]
        no_checksum: bool,
    },
}

pub fn run(c: Command) -> Result<(), Failure> {
    match c {
        Command::Info { path, no_checksum } => {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let packed_file = packed::is_packed_name(name);
            let infos = if packed_file {
                Vec::new()
            } else {
                let checks = Checks {
                    checksum: !no_checksum,
                };
                info::inspect(&path, checks).map_err(Failure::failed)?
            };
            let packed = if packed_file || path.is_dir() {
                packed::inspect(&path, !no_checksum).map_err(Failure::failed)?
            } else {
                Vec::new()
            };
            if !packed_file && (packed.is_empty() || !infos.is_empty()) {
                print!("{}", info::render(&infos));
            }
            if !packed.is_empty() {
                print!("{}", packed::render(&packed));
            }
            if infos.iter().all(|i| i.is_ok()) && packed.iter().all(|i| i.is_ok()) {
                Ok(())
            } else {
                Err(Failure::failed("damaged or misplaced files found"))
            }
        }
    }
}
