#!/usr/bin/env python3
"""Writes the results of scripts/solve-twelve.sh from what it left in $ROOT/logs:

- twelve-checksums.txt: `morris db info` of every table, taken before its layer was deleted,
  for a second solve to compare byte for byte;
- twelve-stats.json: `morris stats --json` over the whole game (the layers' rows, in the
  whole game's order: moving phase, then placement layer by layer);
- twelve.md: the start position and its moves ranked, per phase and per key wins, draws,
  losses and longest win and loss, each step's time, disk and memory, probe latency.

    python3 scripts/twelve-report.py --root ~/morris-dbs --results results --layers 24
"""

import argparse
import glob
import json
import os
import re
import subprocess
from collections import defaultdict

# The whole Nine solve on this machine's type (results/nine-full-solve-2026-12-05-d27cacb.log),
# slots a second by phase: the yardstick for Twelve's throughput.
NINE = {"moving": (9_074_932_579, 879.3), "placement": (18_291_062_339, 851.9)}
# The 2026 independent solve (issue 43): 10 h on 64 threads.
OTHER_CORE_HOURS = 10 * 64


def layers_of(logs, pattern):
    """The files of `pattern` in `logs`, by the layer their name gives (`-L<t>`)."""
    out = {}
    for path in glob.glob(os.path.join(logs, pattern)):
        m = re.search(r"-L(\d+)[.-]", os.path.basename(path))
        if m:
            out[int(m.group(1))] = path
    return dict(sorted(out.items()))


def times(logs):
    """Seconds per (set, step), summed over the runs that made up a step."""
    out = defaultdict(int)
    path = os.path.join(logs, "times.tsv")
    if os.path.exists(path):
        for line in open(path):
            set_, step, secs, status, _, _ = line.rstrip("\n").split("\t")
            if set_.startswith("twelve"):
                out[(set_, step)] += int(secs)
    return out


def solve_lines(logs):
    """(slots, seconds, peak bytes) of every step the solve logs report, by layer."""
    units = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30}
    out = defaultdict(list)
    for layer, path in layers_of(logs, "twelve-L*-solve.log").items():
        for line in open(path):
            m = re.match(
                r"\S+(?: \+ \S+)?: ([\d,]+) slots in ([\d.]+) s .*peak memory ([\d.]+) (\w+)", line
            )
            if m:
                out[layer].append(
                    (
                        int(m.group(1).replace(",", "")),
                        float(m.group(2)),
                        float(m.group(3)) * units[m.group(4)],
                    )
                )
    return out


def peak_resident(logs):
    """The largest resident set any step's process reached (/usr/bin/time), in bytes."""
    peak = 0
    for path in glob.glob(os.path.join(logs, "twelve-*.log")):
        for line in open(path):
            m = re.match(r"peak resident (\d+) KiB", line)
            if m:
                peak = max(peak, int(m.group(1)) * 1024)
    return peak


def gb(n):
    return f"{n / 1e9:.1f} GB"


def hms(s):
    return f"{s / 3600:.2f} h" if s >= 3600 else f"{s / 60:.1f} min"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", default=os.path.expanduser("~/morris-dbs"))
    ap.add_argument("--results", default="results")
    ap.add_argument("--layers", type=int, default=24)
    args = ap.parse_args()
    logs = os.path.join(args.root, "logs")
    os.makedirs(args.results, exist_ok=True)

    sums = layers_of(logs, "twelve-checksums-L*.txt")
    stats = layers_of(logs, "twelve-stats-L*.json")
    missing = [t for t in range(args.layers + 1) if t not in sums or t not in stats]
    if missing:
        raise SystemExit(f"layers not finished yet: {missing} (rerun scripts/solve-twelve.sh)")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()

    lines = sorted(line for p in sums.values() for line in open(p) if line.strip())
    with open(os.path.join(args.results, "twelve-checksums.txt"), "w") as f:
        f.write(
            "# morris db info of every table of Twelve Men's Morris, solved a layer at a time "
            f"by scripts/solve-twelve.sh (report at commit {commit}), each taken before its "
            "layer's raw tables were deleted: one checksum (xxh3 of the data) per table\n"
        )
        f.writelines(lines)

    rows = [r for p in stats.values() for r in json.load(open(p))]
    with open(os.path.join(args.results, "twelve-stats.json"), "w") as f:
        f.write("[\n" + ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in rows))
        f.write("\n]\n")

    t = times(logs)
    by_step = defaultdict(int)
    for (set_, step), s in t.items():
        by_step[step] += s
    solved = solve_lines(logs)
    phase = {"moving": [0, 0.0], "placement": [0, 0.0]}
    peak_step = 0
    for layer, steps in solved.items():
        for slots, secs, peak in steps:
            p = phase["moving" if layer == 0 else "placement"]
            p[0] += slots
            p[1] += secs
            peak_step = max(peak_step, peak)
    disk_peak = 0
    disk_path = os.path.join(logs, "twelve-disk.tsv")
    if os.path.exists(disk_path):
        disk_peak = max(int(line.split("\t")[2]) for line in open(disk_path))

    def read(name):
        path = os.path.join(logs, name)
        return open(path).read() if os.path.exists(path) else "(not run yet)\n"

    out = ["# Twelve Men's Morris, solved whole\n"]
    out.append(
        "Written by `scripts/twelve-report.py` from the logs of `scripts/solve-twelve.sh` "
        f"(report at commit {commit}; the binary of each step is named in "
        "`$ROOT/logs/times.tsv`). Machine: `results/machine.txt`.\n"
    )
    out.append("## The start position, and its moves ranked\n")
    out.append("```\n" + "".join(l for l in read("twelve-positions.log").splitlines(True)
                                  if not l.startswith("#")) + "```\n")
    total = {"moving": [0, 0, 0], "placement": [0, 0, 0]}
    longest = {"moving": [0, 0], "placement": [0, 0]}
    for r in rows:
        ph = "moving" if r["key"].endswith("-0-0") else "placement"
        total[ph][0] += r["wins"]
        total[ph][1] += r["draws"]
        total[ph][2] += r["losses"]
        longest[ph][0] = max(longest[ph][0], r["max_win_plies"] or 0)
        longest[ph][1] = max(longest[ph][1], r["max_loss_plies"] or 0)
    out.append("## Counts\n")
    out.append("| phase | keys | wins | draws | losses | longest win | longest loss |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for ph in ("moving", "placement"):
        keys = sum(1 for r in rows if r["key"].endswith("-0-0") == (ph == "moving"))
        w, d, l = total[ph]
        out.append(
            f"| {ph} | {keys} | {w:,} | {d:,} | {l:,} | {longest[ph][0]} | {longest[ph][1]} |"
        )
    out.append("")
    out.append("## Time, disk and memory\n")
    out.append("| step | wall, all layers |")
    out.append("| --- | ---: |")
    for step in ("solve", "verify", "checksums", "stats", "pack", "pack-verify", "prune-below"):
        out.append(f"| {step} | {hms(by_step[step])} |")
    out.append("")
    for ph, (slots, secs) in phase.items():
        if secs:
            nine = NINE[ph][0] / NINE[ph][1]
            out.append(
                f"- {ph} phase: {slots:,} slots in {hms(secs)} of solving, "
                f"{slots / secs / 1e6:.1f} M slots/s ({slots / secs / nine:.2f}x the Nine "
                f"solve's {nine / 1e6:.1f} M slots/s)"
            )
    if by_step["solve"]:
        core_h = by_step["solve"] * 2 / 3600
        out.append(
            f"- per core: {core_h:.1f} core-hours of solving here against "
            f"{OTHER_CORE_HOURS} for the 2026 solver (10 h on 64 threads): "
            f"{OTHER_CORE_HOURS / core_h:.0f}x fewer"
        )
    out.append(f"- disk: at most {gb(disk_peak)} in the directory after any step")
    out.append(
        f"- memory: the largest solve step's peak {gb(peak_step)}; the largest resident set of "
        f"any step's process {gb(peak_resident(logs))}"
    )
    out.append("")
    out.append("## Probe latency of the packed sets\n")
    out.append("```\n" + "".join(l for l in read("twelve-latency.log").splitlines(True)
                                  if not l.startswith("#")) + "```\n")
    out.append("## Per key\n")
    out.append("| key | wins | draws | losses | longest win | longest loss |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        out.append(
            f"| {r['key']} | {r['wins']:,} | {r['draws']:,} | {r['losses']:,} "
            f"| {r['max_win_plies'] if r['max_win_plies'] is not None else '-'} "
            f"| {r['max_loss_plies'] if r['max_loss_plies'] is not None else '-'} |"
        )
    with open(os.path.join(args.results, "twelve.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {args.results}/twelve.md, twelve-stats.json, twelve-checksums.txt")


if __name__ == "__main__":
    main()
