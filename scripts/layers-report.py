#!/usr/bin/env python3
"""Writes the results of `scripts/solve-layers.sh GAME` from what it left in $ROOT/logs:

- GAME-checksums.txt: `morris db info` of every table, taken before its layer was deleted,
  for a second solve to compare byte for byte;
- GAME-stats.json: `morris stats --json` over the whole game (the layers' rows, in the
  whole game's order: moving phase, then the keys with stones in hand layer by layer);
- GAME.md: the start position and its moves ranked, per phase and per key wins, draws,
  losses and longest win and loss, each step's time, disk and memory, probe latency.

    python3 scripts/layers-report.py --game twelve --root ~/morris-dbs --results results --layers 24
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import steptimes  # noqa: E402

# The whole Nine solve on this machine's type (results/nine-full-solve-2026-12-05-d27cacb.log),
# slots a second by phase: the yardstick for a layered game's throughput. Hosts of one type
# have differed by 2x (results/speed-history.md), so the ratio names that run.
NINE = {"moving": (9_074_932_579, 879.3), "placement": (18_291_062_339, 851.9)}
# Each game's title, the 2026 independent solve's wall time on 64 threads (hours), and the
# start position's value as both published solves give it (the first word of a query's
# answer), and the whole game's layers (a reduced game has fewer, and no published value).
GAMES = {
    "twelve": ("Twelve Men's Morris", 10, "win", 24),
    "lasker": ("Lasker Morris", 77, "draw", 20),
}
PUBLISHED = {
    "win": "a first-player win (Gévay and Danner, for Morabaraba; the 2026 solver)",
    "draw": "a draw (Gévay and Danner; the 2026 solver)",
}
# The bounds the whole run is held to: solve wall time, disk at any moment, memory.
BOUND_SOLVE_H, BOUND_DISK_GB, BOUND_MEMORY_GIB = 3, 60, 16


def layers_of(logs, pattern):
    """The files of `pattern` in `logs`, by the layer their name gives (`-L<t>`)."""
    out = {}
    for path in glob.glob(os.path.join(logs, pattern)):
        m = re.search(r"-L(\d+)[.-]", os.path.basename(path))
        if m:
            out[int(m.group(1))] = path
    return dict(sorted(out.items()))


# The units of the binary's byte counts (`bytes()` in the CLI).
UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}


def solve_lines(logs, game):
    """(slots, seconds, peak bytes) of every step the solve logs report, by layer."""
    out = defaultdict(list)
    for layer, path in layers_of(logs, f"{game}-L*-solve.log").items():
        for line in open(path):
            m = re.match(
                r"\S+(?: \+ \S+)?: ([\d,]+) slots in ([\d.]+) s .*peak memory ([\d.]+) (\w+)", line
            )
            if m:
                out[layer].append(
                    (
                        int(m.group(1).replace(",", "")),
                        float(m.group(2)),
                        float(m.group(3)) * UNITS[m.group(4)],
                    )
                )
    return out


def packed(logs, game):
    """What the pack steps wrote, by layer: [values bytes, distances bytes, keys with files,
    keys left out and searched]. Each file counts once, by its key's last line that names it:
    a resumed pack logs only the kinds still to write ("packed already" when none is)."""
    out = {}
    for layer, path in layers_of(logs, f"{game}-L*-pack.log").items():
        keys = {}
        for line in open(path):
            m = re.match(r"(\S+): [\d,]+ slots, (.*)", line)
            if not m:
                continue
            if m.group(2).startswith("no file"):
                keys[m.group(1)] = None
                continue
            sizes = keys.get(m.group(1)) or {}
            for kind, n, unit in re.findall(r"(wdl|dtw) ([\d.]+) (\w+)", m.group(2)):
                sizes[kind] = float(n) * UNITS[unit]
            keys[m.group(1)] = sizes
        stored = [v for v in keys.values() if v is not None]
        out[layer] = [
            sum(v.get("wdl", 0) for v in stored),
            sum(v.get("dtw", 0) for v in stored),
            len(stored),
            len(keys) - len(stored),
        ]
    return out


def peak_resident(logs, game):
    """The largest resident set the process of any step but a solve reached (/usr/bin/time), in
    bytes. A solve resets the kernel's peak before each of its steps (to log each step's own),
    so its process's figure is its last step's: the solve's peak is the largest step's."""
    peak = 0
    for path in glob.glob(os.path.join(logs, f"{game}-*.log")):
        if path.endswith("-solve.log"):
            continue
        for line in open(path):
            m = re.match(r"peak resident (\d+) KiB", line)
            if m:
                peak = max(peak, int(m.group(1)) * 1024)
    return peak


def machines(logs, game):
    """The starts of `game`'s chain as steps.sh logged them: (date, boot id, cores, machine),
    oldest first. Rows of other chains sharing the root, and lines not of that form, are left
    out."""
    out = []
    path = os.path.join(logs, "machine.tsv")
    if os.path.exists(path):
        for line in open(path):
            f = line.rstrip("\n").split("\t")
            if len(f) == 6 and f[2] == f"solve-layers.sh {game}" and f[4].isdigit():
                out.append((f[0], f[3], int(f[4]), f[5]))
    return out


def alone(wall, counted, cores):
    """A step's wall time had nothing run beside it, estimated: over the runs whose CPU counts
    are known, their wall time less the other processes' CPU time spread over the cores, and
    never under the step's own CPU time over the cores; a run whose counts are unknown (one
    killed outright) at its wall time."""
    known, mine, others = counted
    return max(mine / cores, known - others / cores) + wall - known


def gib(n):
    return f"{n / 2**30:.1f} GiB"


def gb(n):
    return f"{n / 1e9:.1f} GB"


def hms(s):
    return f"{s / 3600:.2f} h" if s >= 3600 else f"{s / 60:.1f} min"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", choices=sorted(GAMES), required=True)
    ap.add_argument("--root", default=os.path.expanduser("~/morris-dbs"))
    ap.add_argument("--results", default="results")
    ap.add_argument("--layers", type=int, default=24)
    args = ap.parse_args()
    game = args.game
    title, other_hours, published, whole_layers = GAMES[game]
    other_core_hours = other_hours * 64
    logs = os.path.join(args.root, "logs")
    os.makedirs(args.results, exist_ok=True)

    sums = layers_of(logs, f"{game}-checksums-L*.txt")
    stats = layers_of(logs, f"{game}-stats-L*.json")
    missing = [t for t in range(args.layers + 1) if t not in sums or t not in stats]
    if missing:
        raise SystemExit(f"layers not finished yet: {missing} (rerun scripts/solve-layers.sh {game})")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()

    lines = sorted(line for p in sums.values() for line in open(p) if line.strip())
    with open(os.path.join(args.results, f"{game}-checksums.txt"), "w") as f:
        f.write(
            f"# morris db info of every table of {title}, solved a layer at a time "
            f"by scripts/solve-layers.sh {game} (report at commit {commit}), each taken before its "
            "layer's raw tables were deleted: one checksum (xxh3 of the data) per table\n"
        )
        f.writelines(lines)

    rows = [r for p in stats.values() for r in json.load(open(p))]
    with open(os.path.join(args.results, f"{game}-stats.json"), "w") as f:
        f.write("[\n" + ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in rows))
        f.write("\n]\n")

    t, _, _, counted = steptimes.read(
        os.path.join(logs, "times.tsv"), lambda set_: set_.startswith(game + "-")
    )
    starts = machines(logs, game)
    # The cores of the machine that ran the steps (the last start's), not the report's.
    cores = starts[-1][2] if starts else os.cpu_count()
    # A step's time over every layer; over the runs whose CPU counts are known, their wall
    # time, the step's own CPU time and what ran beside it; and its time alone, estimated,
    # by step and, for the solve, by phase.
    by_step, counted_by_step = defaultdict(int), defaultdict(lambda: [0, 0, 0])
    alone_by_step, solve_alone = defaultdict(float), {"moving": 0.0, "placement": 0.0}
    for (set_, step), s in t.items():
        by_step[step] += s
        c = counted_by_step[step]
        for i, x in enumerate(counted[(set_, step)]):
            c[i] += x
        a = alone(s, counted[(set_, step)], cores)
        alone_by_step[step] += a
        if step == "solve":
            solve_alone["moving" if set_ == f"{game}-L0" else "placement"] += a
    solved = solve_lines(logs, game)
    phase = {"moving": [0, 0.0], "placement": [0, 0.0]}
    peak_step = 0
    for layer, steps in solved.items():
        for slots, secs, peak in steps:
            p = phase["moving" if layer == 0 else "placement"]
            p[0] += slots
            p[1] += secs
            peak_step = max(peak_step, peak)
    disk_peak = 0
    disk_path = os.path.join(logs, f"{game}-disk.tsv")
    if os.path.exists(disk_path):
        disk_peak = max(int(line.split("\t")[2]) for line in open(disk_path))

    def read(name):
        path = os.path.join(logs, name)
        return open(path).read() if os.path.exists(path) else "(not run yet)\n"

    out = [f"# {title}, solved whole\n"]
    out.append(
        "Written by `scripts/layers-report.py` from the logs of "
        f"`scripts/solve-layers.sh {game}` "
        f"(report at commit {commit}; the binary of each step is named in "
        "`$ROOT/logs/times.tsv`).\n"
    )
    out.append("Machines (each start of the chain logs its own, `$ROOT/logs/machine.tsv`):\n")
    boots = {}
    for date, boot, n, desc in starts:
        boots.setdefault((boot, n, desc), date)
    out.extend(f"- {desc}, {n} cores (boot {boot[:8]}): from {first}"
               for (boot, n, desc), first in boots.items())
    out.append("" if starts else "- not logged\n")
    out.append("## The start position, and its moves ranked\n")
    positions = steptimes.last_run(read(f"{game}-positions.log"))
    m = re.search(r"^White to move: (\w+)", positions, re.M)
    ours = m.group(1) if m else None
    if args.layers == whole_layers:
        agree = {None: "not known yet", published: "agrees"}.get(ours, "**differs**")
        out.append(f"Published: {PUBLISHED[published]}. Ours: {ours or '-'} ({agree}).\n")
    else:
        out.append(f"A reduced game ({args.layers} layers): nothing published to compare.\n")
    out.append("```\n" + positions + "```\n")
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
    # A time stands for the solver's only if the machine was quiet: what other processes took
    # of its cores beside each step, from the CPU counts of times.tsv, and the step's time
    # alone, estimated ([`alone`]).
    out.append(
        "| step | wall, all layers | the cores taken by other processes beside it "
        "| alone, estimated |"
    )
    out.append("| --- | ---: | ---: | ---: |")
    for step in ("solve", "verify", "checksums", "stats", "pack", "pack-verify", "prune-below"):
        wall, (known, _, o) = by_step[step], counted_by_step[step]
        # Runs counted may all have taken under a second (a reduced game): the share is then
        # unknown, yet a run killed beside them still says how much of the time is unknown.
        beside = f"{o / (known * cores):.1%}" if known else "-"
        if wall - known > wall / 100:
            beside += f" (over {known / wall:.0%} of the wall time; the rest unknown)"
        out.append(f"| {step} | {hms(wall)} | {beside} | {hms(alone_by_step[step])} |")
    out.append("")
    for ph, (slots, secs) in phase.items():
        if secs and solve_alone[ph]:
            nine = NINE[ph][0] / NINE[ph][1]
            rate = slots / solve_alone[ph]
            out.append(
                f"- {ph} phase: {slots:,} slots in {hms(secs)} of its steps' solving, "
                f"{hms(solve_alone[ph])} of solve alone, estimated: {rate / 1e6:.1f} M slots/s "
                f"({rate / nine:.2f}x the Nine solve's {nine / 1e6:.1f} M slots/s, 2026-12-05, "
                "commit d27cacb, host epyc-g)"
            )
    solve_h, alone_h = by_step["solve"] / 3600, alone_by_step["solve"] / 3600
    peak_other = peak_resident(logs, game)
    out.append(
        f"- bounds: solve {solve_h:.2f} h of wall time ({alone_h:.2f} h alone, estimated) "
        f"against {BOUND_SOLVE_H} h; verify {by_step['verify'] / 3600:.2f} h "
        f"({alone_by_step['verify'] / 3600:.2f} h alone) against the solve's; disk "
        f"{gb(disk_peak)} (the directory after any step) against {BOUND_DISK_GB} GB; memory "
        f"{gib(max(peak_step, peak_other))} against "
        f"{BOUND_MEMORY_GIB} GiB"
    )
    if alone_by_step["solve"]:
        core_h = alone_by_step["solve"] * cores / 3600
        out.append(
            f"- per core: {core_h:.1f} core-hours of solving here (alone, estimated) against "
            f"{other_core_hours} for the 2026 solver ({other_hours} h on 64 threads): "
            f"{other_core_hours / core_h:.0f}x fewer"
        )
    sets = packed(logs, game)
    if sets:
        wdl, dtw, files, left = (sum(v[i] for v in sets.values()) for i in range(4))
        searched = [t for t, v in sets.items() if v[3]]
        where = (
            f"the other {left:,} (the side to move with fewer stones, on layers "
            f"{min(searched)} to {max(searched)}) searched by the reader"
            if left
            else "none left out"
        )
        out.append(
            f"- the packed result, which queries read: values alone {gb(wdl)}, values with "
            f"distances {gb(dtw)} (either set answers on its own); {files:,} keys with a "
            f"file, {where}"
        )
    out.append(
        f"- memory: the largest solve step's peak {gib(peak_step)}; the largest resident set "
        f"of any other step's process (verify, pack) {gib(peak_other)}"
    )
    out.append("")
    out.append("## Probe latency of the packed sets\n")
    out.append("```\n" + steptimes.last_run(read(f"{game}-latency.log")) + "```\n")
    out.append("The same, every file read into memory first (`--preload`, as `serve --preload` "
               "does):\n")
    out.append("```\n" + steptimes.last_run(read(f"{game}-latency-preloaded.log")) + "```\n")
    out.append("## Per key\n")
    out.append("| key | wins | draws | losses | longest win | longest loss |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        out.append(
            f"| {r['key']} | {r['wins']:,} | {r['draws']:,} | {r['losses']:,} "
            f"| {r['max_win_plies'] if r['max_win_plies'] is not None else '-'} "
            f"| {r['max_loss_plies'] if r['max_loss_plies'] is not None else '-'} |"
        )
    with open(os.path.join(args.results, f"{game}.md"), "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {args.results}/{game}.md, {game}-stats.json, {game}-checksums.txt")


if __name__ == "__main__":
    main()
