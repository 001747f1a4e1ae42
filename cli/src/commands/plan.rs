use crate::options::RuleFlags;
use crate::Failure;
use morris_db::plan::KeyGraph;
use std::path::{Path, PathBuf};

mod cluster;
mod emit;
mod jobs;

/// The workflows `--emit` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Emit {
    /// A bash script that submits every job with sbatch
    Slurm,
    /// A Makefile for `make -j` on one machine
    Make,
}

/// List the sub-databases of a solve in dependency order, with sizes and memory
#[derive(clap::Args)]
#[command(
    after_help = "With --emit the plan becomes a workflow of `morris solve --key` jobs, one per unit of the key\n\
graph (a moving-phase pair, a placement key; with --range-slots S, a placement key of more\n\
than S slots as ranges of S slots and a join), each after the jobs of what it reads: a Slurm\n\
submit script (memory and time requests from the plan's figures) or a Makefile. Rerun after\n\
a failure: complete outputs are skipped. --cluster estimates how long the jobs take on a\n\
cluster (critical path and simulated makespan, from the throughput measured on this project's\n\
development machine).\n\n\
Examples:\n  morris plan\n  morris plan --max-stones 5\n  morris plan --game tictactoe\n  \
morris plan --game twelve --cluster 16,32,128 --range-slots 100000000\n  \
morris plan --stones 5 --emit slurm --db /shared/s5 --range-slots 4096 --out submit.sh\n  \
morris plan --stones 5 --emit make --db dbs/s5 --out dbs/"
)]
pub struct Args {
    /// Most stones a side on the board
    #[arg(long, value_name = "N")]
    max_stones: Option<u8>,
    /// The moving phase only (no keys with stones in hand)
    #[arg(long)]
    moving_only: bool,
    /// Write a workflow of `morris solve --key` jobs instead of the table
    #[arg(long, value_name = "KIND", value_enum, requires = "db")]
    emit: Option<Emit>,
    /// The database directory the workflow solves into (on a file system every node sees)
    #[arg(long, value_name = "DIR")]
    db: Option<PathBuf>,
    /// Solve placement keys of more than S slots as ranges of S slots, one job each
    #[arg(long, value_name = "S", value_parser = clap::value_parser!(u64).range(1..))]
    range_slots: Option<u64>,
    /// Cores per job (sbatch --cpus-per-task, the job's --threads)
    #[arg(long, value_name = "C", default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=1024))]
    cpus_per_task: u64,
    /// Where --emit writes: a file, or a directory (then submit-slurm.sh or Makefile in it);
    /// default standard output
    #[arg(long, value_name = "PATH", requires = "emit")]
    out: Option<PathBuf>,
    /// Estimate the makespan of the jobs on NODES nodes of CORES cores and MEMORY_GB GB
    #[arg(long, value_name = "NODES,CORES,MEMORY_GB", value_parser = cluster::parse)]
    cluster: Option<cluster::Cluster>,
    #[command(flatten)]
    rules: RuleFlags,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = args.rules.rules()?;
    let max = args.max_stones.unwrap_or(rules.stones);
    if max < 3 || max > rules.stones {
        return Err(Failure::input(format!(
            "--max-stones must be from 3 to {}",
            rules.stones
        )));
    }
    use morris_db::plan::render;
    let graph = KeyGraph::new(&rules, max);
    if args.emit.is_some() || args.cluster.is_some() {
        return workflow(&args, &graph);
    }
    let moving = graph.moving_rows();
    if !moving.is_empty() {
        println!("Moving phase (no stones in hand):");
        print!("{}", render(&moving));
    }
    if !args.moving_only {
        let placement = graph.placement_rows(moving.len() + 1);
        if !moving.is_empty() {
            println!();
        }
        if placement.is_empty() {
            // Where placements never capture (Dara), every placement key holds all the stones.
            println!(
                "Placement phase: no key with at most {max} stones a side on board and in hand"
            );
        } else {
            println!(
                "Placement phase (stones in hand, each key read from the keys it leads into):"
            );
            if rules.place_or_move() {
                println!("(a player may slide instead of placing: a key and its colour swap are solved together, by retrograde analysis)");
            }
            print!("{}", render(&placement));
        }
    }
    Ok(())
}

/// `--emit` and `--cluster`: the jobs of the graph as a workflow file, or their makespan.
fn workflow(args: &Args, graph: &KeyGraph) -> Result<(), Failure> {
    let jobs = jobs::jobs(graph, args.range_slots);
    let jobs = &jobs[..if args.moving_only {
        jobs.iter().take_while(|j| j.key.is_moving_phase()).count()
    } else {
        jobs.len()
    }];
    let cpus = args.cpus_per_task as usize;
    if let Some(c) = args.cluster {
        print!(
            "{}",
            cluster::estimate(jobs, c, cpus).map_err(Failure::input)?
        );
    }
    let (Some(kind), Some(db)) = (args.emit, &args.db) else {
        return Ok(());
    };
    let common =
        emit::Common {
            morris: absolute(&std::env::current_exe().map_err(|e| {
                Failure::failed(format!("cannot find the path of this program: {e}"))
            })?),
            db: absolute(db),
            options: rule_options(args, graph)?,
            cpus,
            title: format!(
                "The solve of {} up to {} stones a side{} into {}",
                morris_db::format::describe_rules(graph.rules()),
                args.max_stones.unwrap_or(graph.rules().stones),
                if args.moving_only {
                    ", moving phase"
                } else {
                    ""
                },
                db.display()
            ),
        };
    let (text, file) = match kind {
        Emit::Slurm => (emit::slurm(jobs, &common), "submit-slurm.sh"),
        Emit::Make => (emit::make(jobs, &common), "Makefile"),
    };
    match &args.out {
        None => print!("{text}"),
        Some(out) => {
            let path = if out.is_dir() {
                out.join(file)
            } else {
                out.clone()
            };
            std::fs::write(&path, text)
                .map_err(|e| Failure::failed(format!("{}: cannot write: {e}", path.display())))?;
            if kind == Emit::Slurm {
                set_executable(&path)?;
            }
            eprintln!("wrote {} ({} jobs)", path.display(), jobs.len());
        }
    }
    Ok(())
}

/// `path` made absolute against the working directory (jobs start elsewhere).
fn absolute(path: &Path) -> String {
    std::path::absolute(path)
        .unwrap_or_else(|_| path.to_path_buf())
        .display()
        .to_string()
}

/// The rule options of this command line, for the jobs' `morris solve`: the checked rule set
/// in flags (a preset spelled out).
fn rule_options(args: &Args, graph: &KeyGraph) -> Result<String, Failure> {
    let set = args.rules.rule_set()?;
    let standard = morris_engine::Rules::standard(set.game());
    let mut v = vec![format!("--game {}", set.game())];
    if set.flying() != standard.flying {
        v.push(
            if set.flying() {
                "--flying"
            } else {
                "--no-flying"
            }
            .into(),
        );
    }
    if set.stones() != standard.stones {
        v.push(format!("--stones {}", set.stones()));
    }
    if let Some(n) = set.moves_without_capture() {
        v.push(format!("--moves-without-capture {n}"));
    }
    v.push(format!(
        "--max-stones {}",
        args.max_stones.unwrap_or(graph.rules().stones)
    ));
    Ok(v.join(" "))
}

#[cfg(unix)]
fn set_executable(path: &Path) -> Result<(), Failure> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(|e| Failure::failed(format!("{}: cannot make executable: {e}", path.display())))
}

#[cfg(not(unix))]
fn set_executable(_path: &Path) -> Result<(), Failure> {
    Ok(())
}
