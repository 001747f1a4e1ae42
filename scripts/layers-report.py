#!/usr/bin/env python3
"""Writes the results of `scripts/solve-layers.sh GAME` from what it left in $ROOT/logs:

- GAME-checksums.txt: `morris db info` of every table, taken before its layer was deleted,
  for a second solve to compare byte for byte;
- GAME-stats.json: `morris stats --json` over the whole game (the layers' rows, in the
  whole game's order: moving phase, then the keys with stones in hand layer by layer);
- GAME.md: the start position and its moves ranked, per phase and per key wins, draws,
  losses and longest win and loss, time, disk and memory in all and per layer, probe latency;
  for Lasker Morris, what we count beside Stahlhacke's figures.

A time is the measured wall time of a step's runs, with the share of the cores that other
processes took beside them; a time alone is an estimate (`alone`), and says so.

    python3 scripts/layers-report.py --game twelve --root ~/morris-dbs --results results --layers 24
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
from collections import defaultdict, namedtuple

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import steptimes  # noqa: E402

# The whole Nine solve on this machine's type (results/nine-full-solve-2026-12-05-d27cacb.log),
# slots a second by phase: the yardstick for a layered game's throughput. Hosts of one type
# have differed by 2x (results/speed-history.md), so the ratio names that run.
NINE = {"moving": (9_074_932_579, 879.3), "placement": (18_291_062_339, 851.9)}
# Each game's title, the start position's value as both published solves give it (the first
# word of a query's answer), and the whole game's layers (a reduced game has fewer, and no
# published figure to compare).
GAMES = {"twelve": ("Twelve Men's Morris", "win", 24), "lasker": ("Lasker Morris", "draw", 20)}
PUBLISHED = {
    "win": "a first-player win (Gévay and Danner, for Morabaraba; the 2026 solver)",
    "draw": "a draw (Gévay and Danner; the 2026 solver)",
}
# The 2026 solver's Twelve: wall hours, of them its index build, and its cores (64 threads,
# two a core). Its Lasker (77 h) is not split so: no comparison on one basis.
OTHER_SOLVER = {"twelve": (10, 1.6, 32)}
# Stahlhacke's Lasker Morris (FSU Jena, 2003): the positions of his database (a byte each,
# full moves until White to move wins), the share won for White to move, the longest win.
STAHLHACKE = (136_476_472_674, 51.47, 171)
# The bounds the whole run is held to: solve wall time, disk at any moment, memory.
BOUND_SOLVE_H, BOUND_DISK_GB, BOUND_MEMORY_GIB = 3, 60, 16
POINTS = 24  # the board of every game here
UNITS = {"B": 1, "KiB": 2**10, "MiB": 2**20, "GiB": 2**30, "TiB": 2**40}  # `bytes()` in the CLI
STEPS = ("solve", "verify", "checksums", "stats", "pack", "pack-verify", "prune-below")
PLURAL = {"solve": "solves", "verify": "verifies"}
WORDS = "no one two three four five six seven eight nine".split()

# A run of a step, a row of times.tsv: own and others (CPU seconds) None where the row has no
# counts (a run stopped before its end); the binary without its "morris-".
Run = namedtuple("Run", "wall status binary end own others steal")


def runs_of(logs, game):
    """Per (layer, step) its runs, oldest first; the layer None for the whole game's steps."""
    out = defaultdict(list)
    path = os.path.join(logs, "times.tsv")
    for line in open(path) if os.path.exists(path) else []:
        f = line.rstrip("\n").split("\t")
        m = re.fullmatch(rf"{game}(?:-L(\d+))?", f[0])
        if m:
            n = len(f) > 8 and f[7] != "-"
            layer = int(m.group(1)) if m.group(1) else None
            out[(layer, f[1])].append(Run(
                int(f[2]), int(f[3]), f[5].removeprefix("morris-"), f[4],
                int(f[6]) if n else None, int(f[7]) if n else None, int(f[8]) if n else 0))
    return out


def alone(r, cores):
    """A run's wall time had nothing run beside it, estimated: its wall time less the other
    processes' CPU time over the cores, never under its own CPU time over the cores; a run
    without counts at its wall time."""
    return r.wall if r.own is None else max(r.own / cores, r.wall - r.others / cores)


class Sum:
    """Runs summed: wall time; over the runs with counts their wall time (`known`), the others'
    CPU and the share of the cores it was, and the steal; the time alone, estimated; the runs
    without counts."""

    def __init__(self, runs, cores):
        counted = [r for r in runs if r.own is not None]
        self.wall = sum(r.wall for r in runs)
        self.known = sum(r.wall for r in counted)
        self.share = sum(r.others for r in counted) / (cores * self.known) if self.known else None
        self.steal = sum(r.steal for r in counted)
        self.alone = sum(alone(r, cores) for r in runs)
        self.uncounted = [r for r in runs if r.own is None]

    def beside(self):
        if self.share is None:
            return "-"
        part = f" of the {self.known:,} s counted" if self.known < self.wall else ""
        return f"{self.share:.1%}{part}"


def log_lines(logs, name):
    path = os.path.join(logs, name)
    return open(path).read().splitlines() if os.path.exists(path) else []


def solve_steps(logs, game, t):
    """(slots, seconds, peak bytes) of every step that layer t's solve logs."""
    out = []
    for line in log_lines(logs, f"{game}-L{t}-solve.log"):
        m = re.match(r"\S+(?: \+ \S+)?: ([\d,]+) slots in ([\d.]+) s .*peak memory ([\d.]+) (\w+)",
                     line)
        if m:
            out.append((int(m.group(1).replace(",", "")), float(m.group(2)),
                        float(m.group(3)) * UNITS[m.group(4)]))
    return out


def peak_resident(logs, game, t):
    """The largest resident set of the processes of layer t's verify and packs (/usr/bin/time),
    in bytes. A solve resets the kernel's peak before each of its steps (to log each step's
    own), so its process's figure is its last step's: the solve's peak is its largest step's."""
    return max([int(m.group(1)) * 1024 for step in ("verify", "pack", "pack-verify")
                for line in log_lines(logs, f"{game}-L{t}-{step}.log")
                for m in [re.match(r"peak resident (\d+) KiB", line)] if m], default=0)


def tally(logs, game, layers, step, word):
    """The figures before `word` summed over every layer's log of `step` (mismatches, differ)."""
    return sum(int(n.replace(",", "")) for t in range(layers + 1)
               for line in log_lines(logs, f"{game}-L{t}-{step}.log")
               for n in re.findall(rf"([\d,]+) {word}\b", line))


def packed(logs, game, t):
    """What layer t's pack wrote: [values bytes, distances bytes, keys with files, keys left
    out and searched]. Each file counts once, by its key's last line that names it: a resumed
    pack logs only the kinds still to write ("packed already" when none is)."""
    keys = {}
    for line in log_lines(logs, f"{game}-L{t}-pack.log"):
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
    return [sum(v.get("wdl", 0) for v in stored), sum(v.get("dtw", 0) for v in stored),
            len(stored), len(keys) - len(stored)]


def machines(logs, game):
    """The starts of `game`'s chain as steps.sh logged them: (date, boot id, cores, machine),
    oldest first. Rows of other chains sharing the root, and lines not of that form, are left
    out."""
    out = []
    for line in log_lines(logs, "machine.tsv"):
        f = line.split("\t")
        if len(f) == 6 and f[2] == f"solve-layers.sh {game}" and f[4].isdigit():
            out.append((f[0], f[3], int(f[4]), f[5]))
    return out


def disk_of(logs, game):
    """The directory's bytes right after each layer's solve and pack, and its largest. A
    restart of the chain records every layer done again: the first row is the step's."""
    disk, peak = defaultdict(dict), 0
    for line in log_lines(logs, f"{game}-disk.tsv"):
        t, step, n = line.split("\t")
        disk[int(t)].setdefault(step, int(n))
        peak = max(peak, int(n))
    return disk, peak


def again(logs, game, cores, first):
    """Layer 0 solved a second time, outside the chain, to time it (`GAME-L0-again-solve.log`,
    its checksums in `GAME-checksums-L0-again.txt`): (a line on it, its wall time), or None."""
    text = "\n".join(log_lines(logs, f"{game}-L0-again-solve.log"))
    head = re.search(r"^# (\S+) (\S+)", text, re.M)
    m = re.search(r"wall ([\d.]+) s; user ([\d.]+) s; sys ([\d.]+) s", text)
    if not (head and m):
        return None
    wall, cpu = float(m.group(1)), float(m.group(2)) + float(m.group(3))
    binary = os.path.basename(head.group(2)).removeprefix("morris-")
    idle = 1 - cpu / (cores * wall)
    out = (f"- **Layer 0 (the moving phase) solved again**, {head.group(1)[:10]}, binary {binary}, "
           f"into another directory (`{game}-L0-again-solve.log`): **{wall:,.1f} s measured**. "
           f"Its own CPU, {cpu:,.0f} s (user and system), is all but {idle:.1%} of the "
           f"{cores * wall:,.0f} s the {cores} cores gave, so other processes took at most "
           f"{idle:.1%}.")
    sums = [set(log_lines(logs, f"{game}-checksums-L0{s}.txt")) for s in ("-again", "")]
    if all(sums):
        out += (f" Its {len(sums[0])} tables equal the first solve's, checksum for checksum."
                if sums[0] == sums[1] else
                f" **{len(sums[0] - sums[1])} of its tables differ from the first solve's.**")
    s, binaries = first
    out += (f" That first solve took {s.wall:,} s measured (binary {', '.join(binaries)}, others "
            f"taking {s.beside()} of the cores): {s.alone:,.0f} s estimated alone, "
            f"{s.alone / wall - 1:.0%} above this measurement"
            + (", with another binary." if binaries != [binary] else "."))
    return out, wall


def sec(s):
    return f"{s:,.0f}" if s >= 10 or s == int(s) else f"{s:.1f}"


def hms(s):
    return f"{s / 3600:.2f} h" if s >= 3600 else f"{s / 60:.1f} min" if s >= 60 else f"{s:.0f} s"


def both(s, form="{sec} = {hms}", short="{sec}"):
    """Seconds and the same in hours or minutes, as `form` puts them; under a minute, `short`."""
    return (form if s >= 60 else short).format(sec=sec(s), hms=hms(s))


def size(n, kilo=1000, units=("kB", "MB", "GB")):
    i = max([i for i in range(len(units)) if n >= kilo ** (i + 1)], default=0)
    return f"{n / kilo ** (i + 1):.1f} {units[i]}"


def gib(n):
    return size(n, 1024, ("KiB", "MiB", "GiB"))


def listed(items):
    items = [str(x) for x in items]
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def time_section(out, logs, game, layers, cores, runs, tables):
    """Time, disk and memory: by step over every layer, the solve's and verify's headlines,
    the two by layer, the phases' throughput, the bounds, then disk and memory by layer."""
    per = {step: Sum([r for t in range(layers + 1) for r in runs[(t, step)]], cores)
           for step in STEPS}
    rows = [(t, step, r) for (t, step), rs in runs.items() for r in rs]
    days = sorted({r.end[:10] for _, _, r in rows})
    by_binary = defaultdict(list)
    for t, step, r in rows:
        by_binary[r.binary].append((t, step, r))
    main = max(by_binary, key=lambda b: len(by_binary[b]), default="-")
    but = "; ".join(listed([("" if len(runs[(t, step)]) == 1 else f"{r.wall:,} s of ")
                            + (f"layer {t}'s {step}" if t is not None else f"the {step}")
                            for t, step, r in rs]) + f" (binary {b})"
                    for b, rs in by_binary.items() if b != main)
    out.append("## Time, disk and memory\n")
    out.append(
        "Every time here is measured wall time, summed over a step's runs where it was stopped "
        "and resumed, except those marked estimated: on the machine above, "
        f"{' to '.join(days[:1] + days[1:][-1:]) or '-'}, binary {main} for every step"
        f"{' but ' + but if but else ''}. Other processes may share the {cores} cores, so each "
        "time comes with the share of the cores they took beside it: their CPU seconds over "
        f"{cores} × the wall seconds (`times.tsv`). A run stopped before its end has no CPU "
        "counts (one killed outright counts its wall time up to its last logged line). The time "
        "alone is **estimated**, never measured, by one method: each run's wall time less the "
        f"other processes' CPU time over the {cores} cores, never under the step's own CPU time "
        f"over the {cores} cores, and a run without counts at its wall time.\n")
    out.append("| step | wall, all layers, measured | the cores taken by other processes beside it "
               "| alone, estimated |")
    out.append("| --- | ---: | ---: | ---: |")
    for step, s in per.items():
        # Runs counted may all have taken under a second (a reduced game): the share is then
        # unknown, yet a run killed beside them still says how much of the time is unknown.
        beside = f"{s.share:.1%}" if s.known else "-"
        if s.wall - s.known > s.wall / 100:
            beside += f" (over {s.known / s.wall:.0%} of the wall time; the rest unknown)"
        out.append(f"| {step} | {hms(s.wall)} | {beside} | {hms(s.alone)} |")
    out.append("")
    first = (Sum(runs[(0, "solve")], cores), sorted({r.binary for r in runs[(0, "solve")]}))
    second = again(logs, game, cores, first)
    for step in ("solve", "verify"):
        s = per[step]
        line = (f"- **{step.capitalize()}: {hms(s.wall)} measured** ({s.wall:,} s over the "
                f"{layers + 1} layers)")
        if s.known:
            line += (f", other processes taking {s.share:.1%} of the cores over the {s.known:,} s "
                     "whose CPU was counted")
        if s.uncounted:
            n = len(s.uncounted)
            line += (f"; the {WORDS[n] if n < len(WORDS) else n} runs stopped before their end"
                     if n > 1 else "; the run stopped before its end")
            line += f" ({sum(r.wall for r in s.uncounted):,} s) ha{'ve' * (n > 1) or 's'} no counts"
        line += f". Estimated alone: {both(s.alone, '{hms} ({sec} s)', '{sec} s')}."
        if step == "verify":
            wrong = tally(logs, game, layers, "verify", "mismatches")
            differ = tally(logs, game, layers, "pack-verify", "differ")
            said = (f"{wrong:,} mismatches; the packed sets against the tables: {differ:,} "
                    "differences")
            line += f" {said}." if not wrong and not differ else f" **{said}**."
        out.append(line)
        if step == "solve" and second:
            out.append(second[0])
    if per["solve"].steal or per["verify"].steal:
        out.append(f"- The host's steal (CPU time given to other guests): {per['solve'].steal:,} s "
                   f"over the solve, {per['verify'].steal:,} s over the verify.")

    out.append("\n### Solve and verify by layer\n")
    out.append("Wall seconds, measured (a step's runs in brackets where it had several); the "
               f"share of the {cores} cores other processes took, over the runs with CPU counts; "
               "and the time alone, estimated as above.\n")
    out.append("| layer | solve, wall s | others' share | solve alone, estimated s "
               "| verify, wall s | others' share | verify alone, estimated s |")
    out.append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")

    def cells(rs):
        s = Sum(rs, cores)
        parts = " (" + " + ".join(f"{r.wall:,}" for r in rs) + ")" if len(rs) > 1 else ""
        return [f"{s.wall:,}{parts}", s.beside(), sec(s.alone)]

    # The last layers whose solve and verify took no second are one row.
    quiet = layers + 1
    while quiet > 1 and not any(r.wall for st in ("solve", "verify")
                                for r in runs[(quiet - 1, st)]):
        quiet -= 1
    quiet = quiet if quiet < layers else layers + 1
    for t in range(quiet):
        out.append(f"| {t} | " + " | ".join(cells(runs[(t, "solve")]) + cells(runs[(t, "verify")]))
                   + " |")
    if quiet <= layers:
        out.append(f"| {quiet} to {layers} | 0 each | - | 0 | 0 each | - | 0 |")
    out.append("| **all** | " + " | ".join(
        f"**{c}**" for s in (per["solve"], per["verify"])
        for c in (both(s.wall), s.beside(), both(s.alone))) + " |\n")
    notes = []
    over = [f"layer {t}'s {step} ({r.own} s of its own CPU, {r.wall} s of wall time)"
            for t, step, r in rows
            if step in ("solve", "verify") and r.own is not None and r.own / cores > r.wall]
    if over:
        notes.append("`times.tsv` counts whole seconds, so where a step's own CPU over the "
                     f"{cores} cores is more than its wall time, that is its time alone: "
                     f"{listed(over)}.")
    stopped = defaultdict(list)
    for t, step, r in rows:
        if step in ("solve", "verify") and r.status != 0:
            stopped[(r.status, step)].append(t)
    if stopped:
        how = {137: "killed outright, counted to their last logged line"}
        said = "; ".join(
            f"{how.get(status, 'stopped by a signal' if status > 128 else 'failed')} (exit "
            f"{status}): the {PLURAL[step] if len(ts) > 1 else step} of "
            f"layer{'s' * (len(ts) > 1)} {listed(ts)}"
            for (status, step), ts in sorted(stopped.items()))
        notes.append("Runs in brackets that ended early, each resumed by the step's next run "
                     f"where it stopped: {said}.")
    if notes:
        out.append(" ".join(notes) + "\n")

    slots = {t: sum(n for _, n in keys) for t, keys in tables.items()}
    for ph, ts in (("moving", [0]), ("placement", range(1, layers + 1))):
        s = Sum([r for t in ts for r in runs[(t, "solve")]], cores)
        n = sum(slots[t] for t in ts)
        logged = sum(secs for t in ts for _, secs, _ in solve_steps(logs, game, t))
        if not (s.wall and s.alone):
            continue
        line = (f"- {ph} phase: {n:,} slots in {both(s.wall, '{sec} s ({hms})', '{sec} s')} "
                f"measured, {hms(logged)} of it in the steps as the solves log them")
        if s.known:
            line += f", other processes taking {s.share:.1%} of the cores"
            line += f" over the {s.known:,} s counted" if s.known < s.wall else ""
        line += (f": {n / s.wall / 1e6:.1f} M slots/s. Estimated alone: "
                 f"{both(s.alone, '{sec} s ({hms})', '{sec} s')}, "
                 f"{n / s.alone / 1e6:.1f} M slots/s")
        rate = n / s.alone
        if ph == "moving" and second:
            rate = n / second[1]
            line += f". Solved again on the quiet machine: {second[1]:,.1f} s measured, " \
                    f"{rate / 1e6:.1f} M slots/s"
        nine = NINE[ph][0] / NINE[ph][1]
        out.append(f"{line} ({rate / nine:.2f}x the Nine solve's {nine / 1e6:.1f} M slots/s, "
                   "2026-12-05, commit d27cacb, host epyc-g).")

    disk, disk_peak = disk_of(logs, game)
    solve_peak = {t: max([p for _, _, p in solve_steps(logs, game, t)], default=0)
                  for t in range(layers + 1)}
    other_peak = {t: peak_resident(logs, game, t) for t in range(layers + 1)}
    s, v, bound = per["solve"], per["verify"], BOUND_SOLVE_H * 3600
    over = ""
    if s.wall > bound:
        over = f": over it by {hms(s.wall - bound)} measured, " + (
            f"by {s.alone - bound:,.0f} s estimated alone" if s.alone > bound
            else "within it estimated alone")
    out.append(
        f"- bounds: solve {s.wall / 3600:.2f} h of wall time (measured; {s.alone / 3600:.2f} h "
        f"alone, estimated) against {BOUND_SOLVE_H} h{over}; verify {v.wall / 3600:.2f} h measured "
        f"({v.alone / 3600:.2f} h estimated alone) against the solve's; disk {size(disk_peak)} "
        f"(the directory after any step) against {BOUND_DISK_GB} GB; memory "
        f"{gib(max(max(solve_peak.values()), max(other_peak.values())))} against "
        f"{BOUND_MEMORY_GIB} GiB")
    if game in OTHER_SOLVER and layers == GAMES[game][2] and s.wall:
        hours, index, their_cores = OTHER_SOLVER[game]
        theirs, ours = (hours - index) * their_cores, s.wall * cores / 3600
        out.append(
            "- against the 2026 solver, on one basis (cores × wall hours of the solve): its "
            f"{hours} h on {2 * their_cores} threads include a {index} h index build, and its "
            f"{2 * their_cores} threads are {their_cores} cores with two threads each, so its "
            f"solve is {hours - index:g} h × {their_cores} cores = {theirs:.0f} core-hours. Here: "
            f"{s.wall / 3600:.2f} h × {cores} cores = {ours:.1f} core-hours, measured, with no "
            f"index to build and with the {s.share:.1%} of the cores other processes took still "
            f"in it: {theirs / ours:.0f}x fewer. Still not alike: the processors, not compared "
            "here; and a core here is a vCPU of a KVM guest, counted as a whole core though it "
            "may be one thread of one.")
    sets = {t: packed(logs, game, t) for t in range(layers + 1)}
    wdl, dtw, files, left = (sum(v[i] for v in sets.values()) for i in range(4))
    if files or left:
        searched = [t for t, v in sets.items() if v[3]]
        where = (f"the other {left:,} (the side to move with fewer stones, on layers "
                 f"{min(searched)} to {max(searched)}) searched by the reader" if left
                 else "none left out")
        out.append(f"- the packed result, which queries read: values alone {size(wdl)}, values "
                   f"with distances {size(dtw)} (either set answers on its own); {files:,} keys "
                   f"with a file, {where}")
    out.append(f"- memory: the largest solve step's peak {gib(max(solve_peak.values()))}; the "
               "largest resident set of any other step's process (verify, pack) "
               f"{gib(max(other_peak.values()))}")

    out.append("\n### Disk and memory by layer\n")
    out.append(f"The directory's size right after the layer's solve and after its pack "
               f"(`{game}-disk.tsv`); the largest solve step's peak memory, and the largest "
               "resident set of the verify's and the packs' processes; the wall time of the "
               "layer's other steps (checksums, counts, pack and its check, deletion), measured.\n")
    out.append("| layer | keys | slots | disk after the solve | after the pack | memory: solve "
               "| memory: other steps | other steps, wall s |")
    out.append("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for t in range(layers + 1):
        rest = sum(r.wall for step in STEPS[2:] for r in runs[(t, step)])
        out.append(f"| {t} | {len(tables[t]):,} | {slots[t]:,} | {size(disk[t].get('solve', 0))} "
                   f"| {size(disk[t].get('pack', 0))} | {gib(solve_peak[t])} "
                   f"| {gib(other_peak[t])} | {rest:,} |")
    out.append("")


def stahlhacke_section(out, rows, tables, binary, stones, whole):
    """Lasker's counts: what we count, and (the whole game) beside Stahlhacke's figures."""
    moving = [r["key"].endswith("-0-0") for r in rows]
    phases = [[r for r, m in zip(rows, moving) if m], [r for r, m in zip(rows, moving) if not m]]
    classes = [sum(r["wins"] + r["draws"] + r["losses"] for r in p) for p in phases]
    # The positions of a key M-O-MH-OH without symmetry: its stones' places on the board.
    raw = [sum(math.comb(POINTS, int(k[0])) * math.comb(POINTS - int(k[0]), int(k[1]))
               for k in (r["key"].split("-") for r in p)) for p in phases]
    slots = sum(n for keys in tables.values() for _, n in keys)
    plan = []
    if binary:
        text = subprocess.run([binary, "plan", "--game", "lasker", "--stones", str(stones)],
                              capture_output=True, text=True, check=True).stdout
        plan = [tuple(int(x.replace(",", "")) for x in m)
                for m in re.findall(r"^\s+(\d+) keys\s+([\d,]+)\s+([\d,]+)", text, re.M)]
    out.append("## What we count, beside Stahlhacke's (2003)\n")
    out.append(
        "By phase: the keys, the slots of our index and the symmetry classes, as "
        + (f"`morris plan --game lasker --stones {stones}` lists them (binary "
           f"{os.path.basename(binary).removeprefix('morris-')})" if plan else
           "`morris plan` lists them (not run: no binary in MORRIS_BIN or $ROOT/bin)")
        + "; the classes the tables hold, the wins, draws and losses of `morris stats` summed; "
        "and the positions without symmetry, one side to move (for each key, the ways to put its "
        f"stones on the {POINTS} points).\n")
    out.append("| phase | keys | slots | symmetry classes | classes, counted "
               "| positions without symmetry |")
    out.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    plan = plan or [(len(p), "-", "-") for p in phases]
    total = [sum(p[i] for p in plan) if plan[0][i] != "-" else "-" for i in range(3)]
    for name, p, c, n in zip(("moving", "with stones in hand", "**all**"), plan + [total],
                             classes + [sum(classes)], raw + [sum(raw)]):
        out.append(f"| {name} | " + " | ".join(f"{x:,}" if x != "-" else x for x in (*p, c, n))
                   + " |")
    out.append("")
    if total[1] != "-":
        checks = ["the tables hold the plan's slots (`morris db info`, as checksummed)"
                  if total[1] == slots else f"**the tables hold {slots:,} slots, not the plan's**",
                  "the counts sum to its classes" if total[2] == sum(classes)
                  else "**the counts do not sum to its classes**"]
        out.append(f"Checked: {checks[0]}; {checks[1]}.\n")
    won = sum(r["wins"] for r in rows) / sum(classes)
    longest = max(r["max_win_plies"] or 0 for r in rows)
    if not whole:
        out.append(f"A reduced game ({stones} stones a side): Stahlhacke's figures are the whole "
                   f"game's, so none is set beside these. Here {won:.2%} of the classes are won "
                   f"for the side to move; the longest win takes {longest} plies.\n")
        return
    his, his_won, moves = STAHLHACKE
    n = sum(classes)
    out.append("| | Stahlhacke (2003) | ours |")
    out.append("| --- | ---: | ---: |")
    out.append(f"| positions | {his:,} | {slots:,} slots ({slots / his - 1:+.2%}); {n:,} classes "
               f"({n / his - 1:+.2%}) |")
    out.append(f"| won for the side to move | {his_won}% (White to move) | {won:.2%} of the "
               "classes |")
    out.append(f"| longest win | {moves} full moves = {2 * moves - 1} plies (below) "
               f"| {longest} plies |\n")
    out.append(
        "- Which of our counts is his: his database holds a byte a position, so his figure is an "
        f"index's size, as our slots are. It is within {abs(slots / his - 1):.1%} of our slots, "
        f"{his / n - 1:.1%} above our classes, and 1/{sum(raw) / his:.1f} of our positions "
        "without symmetry: like ours, his index takes the positions up to the board's 16 "
        "symmetries, with one side to move.")
    out.append(
        "- Side to move: a key M-O-MH-OH counts the positions of its first side to move, whichever "
        "colour (one entry serves White to move and, colours swapped, Black to move); his database "
        f"holds White to move. With either side to move each count doubles: {2 * n:,} classes.")
    out.append(
        f"- Symmetry classes: our index has {slots - n:,} slots more than classes "
        f"({slots / n - 1:.2%}): symmetric positions in two slots, and slots no position has. His "
        f"index has an overhead of its own, so the {abs(his - slots):,} positions between his "
        "count and our slots may come from the two layouts or from the stone counts each holds "
        "(below): his figure alone does not tell which.")
    out.append(
        "- Positions that cannot arise: our keys are the stone counts a game reaches from the "
        "start (the plan's); within a key every arrangement of the stones is counted, whether a "
        "game can reach it or not. Which stone counts his database holds is not published with "
        "his figure.")
    out.append(
        f"- Won for the side to move, {won:.2%} against his {his_won}%: ours over the classes, his "
        "over his positions, the same measure but for his index's overhead. The longest win: we "
        "count plies, the winning one included (a win in 1 ply is the mover's next move), so n "
        f"full moves, White's n-th the winning one, are 2n − 1 plies: {moves} are "
        f"{2 * moves - 1} ({2 * moves} if his full moves also count the loser's last turn). Both "
        "figures depend on the rules: Gévay and Danner note that their statistics differ from "
        "Stahlhacke's through rule details.\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", choices=sorted(GAMES), required=True)
    ap.add_argument("--root", default=os.path.expanduser("~/morris-dbs"))
    ap.add_argument("--results", default="results")
    ap.add_argument("--layers", type=int, default=24)
    args = ap.parse_args()
    game, layers = args.game, args.layers
    title, published, whole_layers = GAMES[game]
    whole = layers == whole_layers
    logs = os.path.join(args.root, "logs")
    os.makedirs(args.results, exist_ok=True)

    sums = {t: os.path.join(logs, f"{game}-checksums-L{t}.txt") for t in range(layers + 1)}
    stats = {t: os.path.join(logs, f"{game}-stats-L{t}.json") for t in range(layers + 1)}
    missing = [t for t in range(layers + 1)
               if not (os.path.exists(sums[t]) and os.path.exists(stats[t]))]
    if missing:
        raise SystemExit(f"layers not finished yet: {missing} "
                         f"(rerun scripts/solve-layers.sh {game})")
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()

    lines = {t: [line for line in open(p) if line.strip()] for t, p in sums.items()}
    # Each layer's tables: (key, slots), from their checksums' lines.
    tables = {t: [(m.group(1), int(m.group(2).replace(",", ""))) for line in ls
                  for m in [re.search(r"key (\S+), ([\d,]+) slots", line)] if m]
              for t, ls in lines.items()}
    with open(os.path.join(args.results, f"{game}-checksums.txt"), "w") as f:
        f.write(
            f"# morris db info of every table of {title}, solved a layer at a time "
            f"by scripts/solve-layers.sh {game} (report at commit {commit}), each taken before its "
            "layer's raw tables were deleted: one checksum (xxh3 of the data) per table\n"
        )
        f.writelines(sorted(line for ls in lines.values() for line in ls))

    rows = [r for p in stats.values() for r in json.load(open(p))]
    with open(os.path.join(args.results, f"{game}-stats.json"), "w") as f:
        f.write("[\n" + ",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in rows))
        f.write("\n]\n")

    runs = runs_of(logs, game)
    starts = machines(logs, game)
    # The cores of the machine that ran the steps (the last start's), not the report's.
    cores = starts[-1][2] if starts else os.cpu_count()

    def read(name):
        path = os.path.join(logs, name)
        return open(path).read() if os.path.exists(path) else "(not run yet)\n"

    positions = steptimes.last_run(read(f"{game}-positions.log"))
    m = re.search(r"^White to move: ((\w+).*)$", positions, re.M)
    ours = m.group(2) if m else None
    reduced = "" if whole else f" (reduced: {layers // 2} stones a side)"
    out = [f"# {title}, solved whole{reduced}\n"]
    if whole and ours and ours != published:
        out.append(f"**NOT AS PUBLISHED: here the start position, White to move, is a "
                   f"{m.group(1)}; both published solves call {title} {PUBLISHED[published]}.**\n")
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
    if whole:
        agree = {None: "not known yet", published: "agrees"}.get(ours, "**differs**")
        out.append(f"Published: {PUBLISHED[published]}. Ours: {ours or '-'} ({agree}).\n")
    else:
        out.append(f"A reduced game ({layers} layers): nothing published to compare.\n")
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
    if game == "lasker":
        # `morris plan` of the chain's binary: MORRIS_BIN, or the last step's in $ROOT/bin.
        last = [r.binary for rs in runs.values() for r in rs][-1:]
        binary = os.environ.get("MORRIS_BIN") or "".join(
            os.path.join(args.root, "bin", "morris-" + b) for b in last)
        stahlhacke_section(out, rows, tables, binary if os.access(binary, os.X_OK) else None,
                           layers // 2, whole)
    time_section(out, logs, game, layers, cores, runs, tables)
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
