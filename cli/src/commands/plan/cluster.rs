//! `morris plan --cluster NODES,CORES,MEMORY_GB`: how long the workflow's jobs would take on
//! a cluster, from the throughput measured here.
//!
//! Two figures: the critical path (the longest chain of jobs through the key graph, each job
//! on its cores: no cluster finishes sooner with jobs of that size), and a makespan found by
//! simulating the scheduler: list scheduling, the ready job with the longest path ahead of it
//! first, onto the first node with the cores and the memory it asks for.

use super::jobs::{UnitJob, JOIN_SLOTS_PER_SECOND, PLACEMENT_SLOTS_PER_CORE, RETRO_SLOTS_PER_CORE};
use core::fmt::Write as _;
use morris_db::plan::bytes;

#[derive(Clone, Copy, Debug)]
pub struct Cluster {
    pub nodes: usize,
    pub cores: usize,
    pub memory_gb: u64,
}

/// `NODES,CORES,MEMORY_GB`, e.g. `16,32,128`.
pub fn parse(s: &str) -> Result<Cluster, String> {
    let bad = || format!("`{s}` is not NODES,CORES,MEMORY_GB (e.g. 16,32,128)");
    let v: Vec<u64> = s
        .split(',')
        .map(|f| f.trim().parse().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    match v[..] {
        [n, c, m] if n > 0 && c > 0 && m > 0 => Ok(Cluster {
            nodes: n as usize,
            cores: c as usize,
            memory_gb: m,
        }),
        _ => Err(bad()),
    }
}

/// `3 d 4 h`, `5 h 12 min`, `42 min`, `17 s`.
fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", s / 60),
        3600..=86_399 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        _ => format!("{} d {} h", s / 86_400, s % 86_400 / 3600),
    }
}

/// The estimate as text; an error when a job needs more memory than a node has, or more
/// cores.
pub fn estimate(jobs: &[UnitJob], cluster: Cluster, cpus: usize) -> Result<String, String> {
    let node_memory = cluster.memory_gb * 1_000_000_000;
    if cpus > cluster.cores {
        return Err(format!(
            "--cpus-per-task {cpus} is more than the {} cores of a node",
            cluster.cores
        ));
    }
    if let Some(j) = jobs.iter().max_by_key(|j| j.memory) {
        if j.memory > node_memory {
            return Err(format!(
                "job {} needs {} of memory, more than a node's {} GB",
                j.name,
                bytes(j.memory),
                cluster.memory_gb
            ));
        }
    }
    let time: Vec<f64> = jobs.iter().map(|j| j.seconds(cpus)).collect();
    // The longest path from each job to the end, through the jobs that wait for it.
    let mut tail = time.clone();
    for n in (0..jobs.len()).rev() {
        for &a in &jobs[n].after {
            tail[a] = tail[a].max(time[a] + tail[n]);
        }
    }
    let critical = tail.iter().copied().fold(0.0, f64::max);
    let makespan = simulate(jobs, &time, &tail, cluster, cpus);
    let core_hours: f64 = jobs.iter().map(|j| j.core_seconds).sum::<f64>() / 3600.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Cluster: {} nodes x {} cores x {} GB; jobs of {cpus} cores (--cpus-per-task)",
        cluster.nodes, cluster.cores, cluster.memory_gb
    );
    let _ = writeln!(
        out,
        "Throughput assumed (measured on this machine's whole Nine Men's Morris solve, 2 threads; \
         taken as linear in cores): retrograde {:.2} M slots/s per core, placement {:.2} M \
         slots/s per core, joins {:.0} M slots/s",
        RETRO_SLOTS_PER_CORE / 1e6,
        PLACEMENT_SLOTS_PER_CORE / 1e6,
        JOIN_SLOTS_PER_SECOND / 1e6
    );
    let _ = writeln!(
        out,
        "Jobs: {}; work {:.1} core-hours; largest job memory {}",
        jobs.len(),
        core_hours,
        bytes(jobs.iter().map(|j| j.memory).max().unwrap_or(0))
    );
    let _ = writeln!(
        out,
        "Critical path through the key graph: {}",
        duration(critical)
    );
    let _ = writeln!(
        out,
        "Makespan estimate (list scheduling, longest path first): {}",
        duration(makespan)
    );
    Ok(out)
}

/// The finishing time of the last job when the jobs are scheduled as they become ready, the
/// one with the longest path ahead first, each on the first node with room for it.
fn simulate(jobs: &[UnitJob], time: &[f64], tail: &[f64], cluster: Cluster, cpus: usize) -> f64 {
    let node_memory = cluster.memory_gb * 1_000_000_000;
    let mut free: Vec<(usize, u64)> = vec![(cluster.cores, node_memory); cluster.nodes];
    let mut waiting: Vec<usize> = jobs.iter().map(|j| j.after.len()).collect();
    let mut waiters: Vec<Vec<usize>> = vec![Vec::new(); jobs.len()];
    for (n, j) in jobs.iter().enumerate() {
        for &a in &j.after {
            waiters[a].push(n);
        }
    }
    let mut ready: Vec<usize> = (0..jobs.len()).filter(|&n| waiting[n] == 0).collect();
    // Running jobs: (end time, job, node).
    let mut running: Vec<(f64, usize, usize)> = Vec::new();
    let mut now = 0.0;
    loop {
        ready.sort_by(|&a, &b| tail[a].total_cmp(&tail[b]));
        // Longest path first: the end of `ready`.
        let mut i = ready.len();
        while i > 0 {
            i -= 1;
            let n = ready[i];
            let need = (cpus, jobs[n].memory);
            if let Some(node) = free.iter().position(|&(c, m)| c >= need.0 && m >= need.1) {
                free[node].0 -= need.0;
                free[node].1 -= need.1;
                running.push((now + time[n], n, node));
                ready.remove(i);
            }
        }
        let Some(at) = running
            .iter()
            .enumerate()
            .min_by(|a, b| a.1 .0.total_cmp(&b.1 .0))
            .map(|(at, _)| at)
        else {
            return now;
        };
        let (end, n, node) = running.swap_remove(at);
        now = end;
        free[node].0 += cpus;
        free[node].1 += jobs[n].memory;
        for &w in &waiters[n] {
            waiting[w] -= 1;
            if waiting[w] == 0 {
                ready.push(w);
            }
        }
    }
}
