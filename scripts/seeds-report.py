#!/usr/bin/env python3
"""Writes results/nine-nocapture.md and results/nine-noflying.md from what
scripts/solve-seeds.sh left: the statistics (results/nine-<set>-stats.json, exactly as
`morris stats --json` printed them), and the logs, markers and step times in $MORRIS_ROOT.

    python3 scripts/seeds-report.py                 # ~/morris-dbs
    MORRIS_ROOT=/big/disk python3 scripts/seeds-report.py

A set's logs, the steps it has done, its step times and its verify journal are first copied
to results/seeds-logs/<set>/, and the report is written from that copy: the figures stay
reproducible from the repository when the machine that built the tables is gone. A set built
on a machine whose logs were not copied keeps its section of the report as it was.

A set not yet built is reported as such; a rule set's counts are checked key by key against
the plain counts of its board rules (wins + cursed wins = plain wins, losses + blessed losses =
plain losses, the rest plain draws), and the check's outcome is printed in the report.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
import steptimes  # noqa: E402

ROOT = os.environ.get("MORRIS_ROOT", os.path.expanduser("~/morris-dbs"))
RESULTS = os.environ.get("RESULTS", "results")
LOGS = os.path.join(ROOT, "logs")
CORES = os.cpu_count()
ARCHIVE = os.path.join(RESULTS, "seeds-logs")
# The logs of a set copied to the repository (the solve's too: it names every key's time).
STEPS = ("solve", "checksums", "verify", "stats", "positions", "pack", "pack-verify",
         "latency", "latency-preloaded", "disk", "values-only")

# What each set is, and the plain set its rule's counts split.
SETS = {
    "plain": ("the plain game (flying)", None),
    "nc50": ("N = 50 plies without a capture, flying", "plain"),
    "nc100": ("N = 100 plies without a capture, flying", "plain"),
    "noflying": ("the plain game without flying", None),
    "nofly-nc50": ("no flying, N = 50 plies without a capture", "noflying"),
}


def stats(set_):
    path = os.path.join(RESULTS, f"nine-{set_}-stats.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def archive(set_):
    """Copies what the runs left of a set on this machine to results/seeds-logs/<set>/
    (replacing an older copy); nothing when this machine has no step of the set done."""
    state = os.path.join(ROOT, "state")
    markers = os.listdir(state) if os.path.isdir(state) else []
    steps = sorted(s for s in STEPS if f"{set_}.{s}.done" in markers)
    if not steps:
        return
    out = os.path.join(ARCHIVE, set_)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "done"), "w") as f:
        f.write("".join(f"{s}\n" for s in steps))
    rows = []
    path = os.path.join(LOGS, "times.tsv")
    if os.path.exists(path):
        rows = [l for l in open(path) if l.split("\t", 1)[0] == set_]
    with open(os.path.join(out, "times.tsv"), "w") as f:
        f.write("".join(rows))
    for step in STEPS:
        path = os.path.join(LOGS, f"{set_}-{step}.log")
        if os.path.exists(path):
            shutil.copyfile(path, os.path.join(out, f"{step}.log"))
    journal = os.path.join(state, f"{set_}.verify.journal")
    if os.path.exists(journal):
        shutil.copyfile(journal, os.path.join(out, "verify.journal"))


def archived(set_):
    return os.path.isdir(os.path.join(ARCHIVE, set_))


def times():
    """Seconds per (set, step), summed over the runs that made up a step; the binaries; and
    per (set, step) the CPU seconds other processes took beside it (scripts/lib/steptimes.py)."""
    out, binaries, others = {}, {}, {}
    for set_ in SETS:
        wall, beside, ran, _ = steptimes.read(os.path.join(ARCHIVE, set_, "times.tsv"))
        out.update(wall)
        others.update(beside)
        binaries.update(ran)
    return out, binaries, others


# A step's time stands for the solver's only while other processes took less than this share
# of the machine's cores beside it.
QUIET = 0.05


def busy_share(set_, step, t, others):
    """The share of the machine's cores other processes took during a step, or None."""
    wall, cpu = t.get((set_, step)), others.get((set_, step))
    if not wall or cpu is None:
        return None
    return cpu / (wall * CORES)


def done(set_, step):
    path = os.path.join(ARCHIVE, set_, "done")
    return os.path.exists(path) and step in open(path).read().split()


def log(set_, step):
    path = os.path.join(ARCHIVE, set_, f"{step}.log")
    return open(path).read() if os.path.exists(path) else ""


def n(x):
    return "-" if x is None else f"{x:,}"


def pct(a, b):
    return "-" if not b else f"{100 * a / b:.2f}%"


def duration(s):
    return "-" if s is None else f"{s:,} s ({s / 60:.1f} min)"


def machine():
    cpu = "unknown"
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
    mem = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return f"{cpu}, {os.cpu_count()} cores, {mem:.0f} GiB"


def positions(set_):
    """The lines of the positions step that give a value: the start, then Gasser's."""
    text = log(set_, "positions")
    blocks = re.split(r"^== ", text, flags=re.M)[1:]
    out = []
    for b in blocks:
        pos = b.splitlines()[0].strip()
        value = next((l.strip() for l in b.splitlines() if " to move" in l and ":" in l
                      and "in hand" not in l), "-")
        out.append((pos, value))
    return out


def disk(set_):
    got = dict(l.split() for l in log(set_, "disk").splitlines() if l and not l.startswith("#"))
    def fmt(k):
        if k not in got:
            return "-"
        b = float(got[k])
        # An early version of the disk step printed sizes as 1.365e+10: four figures only.
        exact = f"{b:,.0f} B" if "e" not in got[k] else f"about {got[k]} B"
        return f"{b / 2**30:.2f} GiB ({exact})"
    return fmt("raw"), fmt("packed")


def checks(set_, rule, plain):
    """The rule's counts against the plain ones, key by key: a list of problems."""
    by_key = {r["key"]: r for r in plain}
    bad = []
    for r in rule:
        p = by_key.get(r["key"])
        if p is None:
            bad.append(f"{r['key']}: no plain counts")
            continue
        if r["wins"] + r["cursed_wins"] != p["wins"]:
            bad.append(f"{r['key']}: wins {r['wins']} + cursed {r['cursed_wins']} != plain {p['wins']}")
        if r["losses"] + r["blessed_losses"] != p["losses"]:
            bad.append(f"{r['key']}: losses {r['losses']} + blessed {r['blessed_losses']} != plain {p['losses']}")
        if r["draws"] != p["draws"]:
            bad.append(f"{r['key']}: draws {r['draws']} != plain {p['draws']}")
    if len(rule) != len(plain):
        bad.append(f"{len(rule)} keys under the rule, {len(plain)} plain")
    return bad


def verify_line(set_):
    """The keys that passed (the verify journal: a key is recorded only with 0 mismatches)."""
    text = log(set_, "verify")
    bad = sum(int(m) for m in re.findall(r"checked, ([\d,]+) mismatch", text.replace(",", "")))
    journal = os.path.join(ARCHIVE, set_, "verify.journal")
    passed = sum(1 for _ in open(journal)) if os.path.exists(journal) else 0
    if not done(set_, "verify"):
        return f"not complete: {passed} keys passed so far, {bad} mismatches in the log"
    return f"every key passed ({passed} in the journal), {bad} mismatches in the log"


def pack_lines(set_):
    lines = []
    v = log(set_, "pack-verify")
    if done(set_, "pack-verify"):
        lines.append("- `pack --verify` over the whole set: "
                     + ("every position answers as the unpacked tables"
                        if "packed sets verified" in v else "see the log"))
    else:
        lines.append("- `pack --verify`: not complete")
    for step, how in (("latency", "`pack --latency 2000`, random positions of every key"),
                      ("latency-preloaded", "the same, every file read into memory first "
                       "(`--preload`, as `serve --preload` does)")):
        lat = [l for l in steptimes.last_run(log(set_, step)).splitlines()
               if re.match(r"(wdl|dtw) (cold|warm)", l)]
        if lat:
            lines.append(f"- probe latency ({how}):")
            lines += [f"  - {l}" for l in lat]
    return lines


def totals(rows, fields):
    """The sums of `fields` over the keys."""
    tot = defaultdict(int)
    for r in rows:
        for k in fields:
            tot[k] += r[k]
    return tot


# The sections of the reports as they were before this run, by title.
PREVIOUS = {}


def read_previous(path):
    """The sections of an earlier report: each "## " title with the lines up to the next."""
    if not os.path.exists(path):
        return
    title = None
    for line in open(path).read().splitlines():
        if line.startswith("## "):
            title = line[3:]
            PREVIOUS[title] = []
        elif title is not None:
            PREVIOUS[title].append(line)


def section(set_, rows, body):
    """A set's section: its title, then `body(rows)`; the earlier report's section when the
    set's logs were never copied to the repository; or a line saying it is not built yet."""
    title, _ = SETS[set_]
    out = [f"## {title}", ""]
    if rows is not None and not archived(set_) and title in PREVIOUS:
        kept = PREVIOUS[title]
        while kept and not kept[-1]:
            kept = kept[:-1]
        return out[:1] + kept + [""]
    if rows is None:
        return out + ["Not built yet: `bash scripts/long-runs.sh` goes on where the runs stopped.", ""]
    return out + body(rows) + [""]


# What a set's times are worth, where they are not a measurement of the solver alone.
TIME_NOTES = {
    "nc50": "Its solve and verify ran beside the full test suite, release builds and 40,000 "
            "match games, and the time of its first verify run (about 75 minutes) was not "
            "kept when that run was stopped: these times are not measurements of the solver.",
    "noflying": "Its solve ran alone but for two 30-second rehearsals of the scripts and, in its "
                "last minutes, a release build; its verify was stopped for 292 s (counted in its "
                "time) and ran beside release builds and whole-process benchmarks for about 30 of "
                "its 80 minutes: the verify time is not a measurement of the solver.",
    "nofly-nc50": "The first run of its solve (2026-12-06 from 10:50 UTC, about 35 minutes, "
                  "ended with its machine's other work and left no time row, so the solve time "
                  "below leaves it out) had the full test suite beside it for about 15 minutes, "
                  "and the last (from 12:13 UTC) a test "
                  "run, release builds and benchmarks for about 30 minutes: its solve time is "
                  "not a measurement of the solver. Measured instead (2026-12-06, binary "
                  "bce0aed, epyc-i, whole-process A/B, medians of 3, the chain's nice-19 solve "
                  "beside): its 7-5 + 5-7 pair against the plain no-flying pair, each from the "
                  "same lower tables, user 1.16 (0.87-1.21), wall 1.22; both pairs' tables "
                  "byte-identical to the chain's.",
}


def work_lines(set_, t, binaries, others):
    """The steps' times, the set's size on disk and what its packed set passed."""
    raw, packed = disk(set_)
    note = [f"- {TIME_NOTES[set_]}"] if set_ in TIME_NOTES else []
    commits = sorted({b.split("-")[-1] for b in binaries.get((set_, "solve"), ())})
    packs = binaries.get((set_, "pack"), ())
    if not done(set_, "pack"):
        pack = "not complete" + (f" ({len(packs)} run{'s' * (len(packs) > 1)} so far)"
                                 if packs else "")
    elif len(packs) > 1:
        # Stopped and resumed: a sum, not the time of one pack.
        pack = (f"{duration(t.get((set_, 'pack')))} summed over {len(packs)} runs, not a "
                f"measurement")
    elif others.get((set_, "pack")) is None:
        pack = f"{duration(t.get((set_, 'pack')))} (what ran beside it was not counted)"
    else:
        pack = duration(t.get((set_, "pack")))
    beside = []
    for step in ("solve", "verify"):
        share = busy_share(set_, step, t, others)
        if share is not None:
            beside.append(f"{step} {share:.1%}")
        elif t.get((set_, step)) == 0 and others.get((set_, step)) is not None:
            beside.append(f"{step} - (under a second)")
    return note + [
        f"- tables built by the binary of commit {', '.join(commits) or '-'}; logs, step times "
        f"and verify journal in `results/seeds-logs/{set_}/`",
        f"- solve {duration(t.get((set_, 'solve')))}, verify {duration(t.get((set_, 'verify')))} "
        f"({verify_line(set_)}), pack {pack}",
    ] + ([f"- the machine's {CORES} cores taken by other processes beside the step (from the "
          f"CPU counts in times.tsv): {', '.join(beside)}"] if beside else []) + [
        f"- disk: raw {raw}, packed {packed}",
    ] + pack_lines(set_)


def yardstick_lines(set_, t, others):
    """A rule set's solve and verify against its plain set's, run on the same machine."""
    base = SETS[set_][1]
    out = []
    for step in ("solve", "verify"):
        a, b = t.get((set_, step)), t.get((base, step))
        if a is None or b is None:
            continue
        if not (a and b):
            # Whole seconds: a step under one (the small games' rehearsal) has no ratio.
            out.append(f"- {step} against the plain set's on the same machine: {a:,} s against "
                       f"{b:,} s, too short for a ratio")
        else:
            shares = [busy_share(s, step, t, others) for s in (set_, base)]
            busy = max((x for x in shares if x is not None), default=0)
            if set_ in TIME_NOTES or base in TIME_NOTES:
                worth = " (not a measurement: see above)"
            elif busy >= QUIET:
                worth = (f" (not a measurement: other processes took {busy:.0%} of the "
                         "machine beside one of them)")
            else:
                worth = ""
            out.append(f"- {step} against the plain set's on the same machine: {a:,} s against "
                       f"{b:,} s, **{a / b:.2f}x**{worth}")
    return out


def positions_lines(set_, how):
    return ["", f"Positions ({how}):", ""] + [f"- `{p}`: {v}" for p, v in positions(set_)]


def key_table(rows, columns):
    """A table of the keys: `columns` are the headings after the key's and, for each, the
    field of a key's counts it shows."""
    out = ["", "| key | " + " | ".join(h for h, _ in columns) + " |",
           "| --- |" + " ---: |" * len(columns)]
    for r in rows:
        out.append(f"| {r['key']} | " + " | ".join(n(r.get(f)) for _, f in columns) + " |")
    return out


def rule_section(set_, runs):
    def body(rule):
        plain = stats(SETS[set_][1])
        tot = totals(rule, ("wins", "cursed_wins", "draws", "blessed_losses", "losses"))
        longest = max((r.get("max_dtz") or 0) for r in rule)
        plain_wins = tot["wins"] + tot["cursed_wins"]
        plain_losses = tot["losses"] + tot["blessed_losses"]
        out = [
            f"- classes (symmetry classes at counter 0): {n(sum(tot.values()))} in {len(rule)} keys",
            f"- wins {n(tot['wins'])}, cursed wins {n(tot['cursed_wins'])}, draws {n(tot['draws'])}, "
            f"blessed losses {n(tot['blessed_losses'])}, losses {n(tot['losses'])}",
            f"- **{pct(tot['cursed_wins'], plain_wins)} of the plain wins become draws**, "
            f"{pct(tot['blessed_losses'], plain_losses)} of the plain losses",
            f"- longest distance to zeroing of a win or loss the rule keeps: {longest} plies",
        ] + work_lines(set_, *runs)
        out += yardstick_lines(set_, runs[0], runs[2])
        if plain is not None:
            bad = checks(set_, rule, plain)
            out.append("- against the plain counts, key by key (wins + cursed wins = plain wins, "
                       "losses + blessed losses = plain losses, draws = plain draws): "
                       + ("**all keys agree**" if not bad else f"**{len(bad)} disagree**: "
                          + "; ".join(bad[:5])))
        out += positions_lines(set_, "`morris query` under the rule, at counter 0")
        return out + key_table(rule, [
            ("wins", "wins"), ("cursed wins", "cursed_wins"), ("draws", "draws"),
            ("blessed losses", "blessed_losses"), ("losses", "losses"), ("longest dtz", "max_dtz")])
    return section(set_, stats(set_), body)


def plain_section(set_, runs):
    def body(rows):
        tot = totals(rows, ("wins", "draws", "losses"))
        return [
            f"- classes: {n(sum(tot.values()))} in {len(rows)} keys: wins {n(tot['wins'])}, "
            f"draws {n(tot['draws'])}, losses {n(tot['losses'])}",
            f"- longest win {max((r['max_win_plies'] or 0) for r in rows)} plies, longest loss "
            f"{max((r['max_loss_plies'] or 0) for r in rows)} plies",
        ] + work_lines(set_, *runs) + positions_lines(set_, "`morris query`") + key_table(rows, [
            ("wins", "wins"), ("draws", "draws"), ("losses", "losses"),
            ("longest win", "max_win_plies"), ("longest loss", "max_loss_plies")])
    return section(set_, stats(set_), body)


def yardstick_section(set_, runs):
    """The plain set's own runs: what the rule sets' times are set against, and its packing."""
    def body(rows):
        sums = log(set_, "checksums").strip().splitlines()
        return [
            "The plain game rebuilt beside the rule sets, as the yardstick of their solve and "
            "verify times and the tables their moving phase reads.",
            "",
            f"- checksums: {sums[-1] if sums else 'not compared (a rehearsal)'}",
        ] + work_lines(set_, *runs)
    return section(set_, stats(set_) if archived(set_) else None, body)


def header(title, intro):
    return [
        f"# {title}",
        "",
        f"Written by `scripts/seeds-report.py` on {subprocess.run(['date', '-u', '+%Y-%m-%d'], capture_output=True, text=True).stdout.strip()} "
        f"from the runs of `scripts/solve-seeds.sh` on {machine()}; each set names the commit "
        "of the binary that built it. Times are wall-clock seconds summed over the runs a step "
        "took (a resumed step counts each run), at nice 19.",
        "",
    ] + intro + [""]


def main():
    for set_ in SETS:
        archive(set_)
    for name in ("nine-nocapture.md", "nine-noflying.md"):
        read_previous(os.path.join(RESULTS, name))
    runs = times()
    nocapture = header(
        "Nine Men's Morris under the no-capture rule, the whole game",
        ["A zeroing ply is a capture or a placement; after N plies in a row without one the "
         "game is drawn (a winning ply still wins). Counts are symmetry classes at counter 0. "
         "Nobody had published these figures. They are checked three ways: `morris verify` "
         "recomputes every stored entry from its children; the rule's solver agrees with the "
         "naive reference solver, which keeps the counter in its state, on every position and "
         "counter of the 3- and 4-stone games (solver/tests/reference_nocapture.rs, in CI); "
         "and each key's counts split the plain game's exactly (below)."])
    nocapture += yardstick_section("plain", runs)
    for s in ("nc50", "nc100"):
        nocapture += rule_section(s, runs)
    noflying = header(
        "Nine Men's Morris without flying, the whole game",
        ["A player with three stones slides like any other (seed 001's \"Sans vol\"). Malom, "
         "Sanmill and GamesmanOne publish the flying game only, so nothing here can be "
         "compared with a published figure; it is checked by `morris verify` over every key, "
         "and the solver agrees with the naive reference solver on every position of the "
         "no-flying 3- and 4-stone games, with and without the rule (in CI)."])
    noflying += plain_section("noflying", runs)
    noflying += rule_section("nofly-nc50", runs)
    for name, lines in (("nine-nocapture.md", nocapture), ("nine-noflying.md", noflying)):
        path = os.path.join(RESULTS, name)
        with open(path, "w") as f:
            f.write("\n".join(lines).rstrip() + "\n")
        print(f"{path} written")


if __name__ == "__main__":
    sys.exit(main())
