use crate::Failure;
use morris_db::format::{info, Checks};

/// Inspect database files
#[derive(clap::Subcommand)]
pub enum Command {
    /// Print the headers of a database file, or of every file in a directory, and flag
    /// damaged ones (exit code 1 if any)
    #[command(
        after_help = "Examples:\n  morris db info dbs/nine\n  morris db info dbs/nine/nine-3-3-0-0.mdb"
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
            let infos = info::inspect(
                &path,
                Checks {
                    checksum: !no_checksum,
                },
            )
            .map_err(Failure::failed)?;
            print!("{}", info::render(&infos));
            if infos.iter().all(|i| i.is_ok()) {
                Ok(())
            } else {
                Err(Failure::failed("damaged or misplaced files found"))
            }
        }
    }
}
