#!/usr/bin/env python3
"""Writes results/nine-nocapture.md and results/nine-noflying.md from what
scripts/solve-seeds.sh left: the statistics (results/nine-<set>-stats.json, exactly as
`morris stats --json` printed them), and the logs and step times in $MORRIS_ROOT/logs.

    python3 scripts/seeds-report.py                 # ~/morris-dbs
    MORRIS_ROOT=/big/disk python3 scripts/seeds-report.py

A set not yet built is reported as such; a rule set's counts are checked key by key against
the plain counts of its board rules (wins + cursed wins = plain wins, losses + blessed losses =
plain losses, the rest plain draws), and the check's outcome is printed in the report.
"""

import json
import os
import re
import subprocess
import sys
from collections import defaultdict

ROOT = os.environ.get("MORRIS_ROOT", os.path.expanduser("~/morris-dbs"))
RESULTS = os.environ.get("RESULTS", "results")
LOGS = os.path.join(ROOT, "logs")

# What each set is, and the plain set its rule's counts split.
SETS = {
    "plain": ("the plain game (flying)", None),
    "nc50": ("N = 50 plies without a capture, flying", "plain"),
    "nc100": ("N = 100 plies without a capture, flying", "plain"),
    "noflying": ("the plain game without flying", None),
    "nofly-nc50": ("no flying, N = 50 plies without a capture", "noflying"),
}
GASSER = [
    "W:a1,a7,g1 B:d2,d6 b 6 7",
    "W:b6,d2,f2,f4,g1 B:b4,d1,d6,g4 b 4 5",
    "W:b4,d3,d6,e4,f2 B:c4,d2,d5,f4 b 4 5",
]


def stats(set_):
    path = os.path.join(RESULTS, f"nine-{set_}-stats.json")
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def times():
    """Seconds per (set, step), summed over the runs that made up a step, and the binaries."""
    out, binaries = {}, defaultdict(set)
    path = os.path.join(LOGS, "times.tsv")
    if os.path.exists(path):
        for line in open(path):
            set_, step, secs, status, _, binary = line.rstrip("\n").split("\t")
            out[(set_, step)] = out.get((set_, step), 0) + int(secs)
            binaries[set_].add(binary)
    return out, binaries


def done(set_, step):
    return os.path.exists(os.path.join(ROOT, "state", f"{set_}.{step}.done"))


def log(set_, step):
    path = os.path.join(LOGS, f"{set_}-{step}.log")
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
    fmt = lambda k: f"{int(got[k]) / 2**30:.2f} GiB ({int(got[k]):,} B)" if k in got else "-"
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
    text = log(set_, "verify")
    keys = len(re.findall(r"classes checked", text))
    bad = sum(int(m) for m in re.findall(r"checked, ([\d,]+) mismatch", text.replace(",", "")))
    if not done(set_, "verify"):
        return f"not complete ({keys} keys checked so far, {bad} mismatches)"
    return f"{keys} keys, {bad} mismatches"


def pack_lines(set_):
    lines = []
    v = log(set_, "pack-verify")
    if done(set_, "pack-verify"):
        lines.append("- `pack --verify` over the whole set: "
                     + ("every position answers as the unpacked tables"
                        if "packed sets verified" in v else "see the log"))
    else:
        lines.append("- `pack --verify`: not complete")
    lat = [l for l in log(set_, "latency").splitlines() if re.match(r"(wdl|dtw) (cold|warm)", l)]
    if lat:
        lines.append("- probe latency (`pack --latency 2000`, random positions of every key):")
        lines += [f"  - {l}" for l in lat]
    return lines


def rule_section(set_, t):
    title, plain_set = SETS[set_]
    rule, plain = stats(set_), stats(plain_set)
    out = [f"## {title}", ""]
    if rule is None:
        return out + ["Not built yet: `bash scripts/solve-seeds.sh` goes on where it stopped.", ""]
    tot = defaultdict(int)
    for r in rule:
        for k in ("wins", "cursed_wins", "draws", "blessed_losses", "losses"):
            tot[k] += r[k]
    longest = max((r.get("max_dtz") or 0) for r in rule)
    plain_wins = tot["wins"] + tot["cursed_wins"]
    plain_losses = tot["losses"] + tot["blessed_losses"]
    raw, packed = disk(set_)
    out += [
        f"- classes (symmetry classes at counter 0): {n(sum(tot.values()))} in {len(rule)} keys",
        f"- wins {n(tot['wins'])}, cursed wins {n(tot['cursed_wins'])}, draws {n(tot['draws'])}, "
        f"blessed losses {n(tot['blessed_losses'])}, losses {n(tot['losses'])}",
        f"- **{pct(tot['cursed_wins'], plain_wins)} of the plain wins become draws**, "
        f"{pct(tot['blessed_losses'], plain_losses)} of the plain losses",
        f"- longest distance to zeroing of a win or loss the rule keeps: {longest} plies",
        f"- solve {duration(t.get((set_, 'solve')))}, verify {duration(t.get((set_, 'verify')))} "
        f"({verify_line(set_)}), pack {duration(t.get((set_, 'pack')))}",
        f"- disk: raw {raw}, packed {packed}",
    ]
    out += pack_lines(set_)
    if plain is not None:
        bad = checks(set_, rule, plain)
        out.append("- against the plain counts, key by key (wins + cursed wins = plain wins, "
                   "losses + blessed losses = plain losses, draws = plain draws): "
                   + ("**all keys agree**" if not bad else f"**{len(bad)} disagree**: "
                      + "; ".join(bad[:5])))
    out += ["", "Positions (`morris query` under the rule, at counter 0):", ""]
    out += [f"- `{p}`: {v}" for p, v in positions(set_)]
    out += ["", "| key | wins | cursed wins | draws | blessed losses | losses | longest dtz |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for r in rule:
        out.append(f"| {r['key']} | {n(r['wins'])} | {n(r['cursed_wins'])} | {n(r['draws'])} | "
                   f"{n(r['blessed_losses'])} | {n(r['losses'])} | {n(r.get('max_dtz'))} |")
    return out + [""]


def plain_section(set_, t):
    title, _ = SETS[set_]
    rows = stats(set_)
    out = [f"## {title}", ""]
    if rows is None:
        return out + ["Not built yet: `bash scripts/solve-seeds.sh` goes on where it stopped.", ""]
    tot = defaultdict(int)
    for r in rows:
        for k in ("wins", "draws", "losses"):
            tot[k] += r[k]
    raw, packed = disk(set_)
    out += [
        f"- classes: {n(sum(tot.values()))} in {len(rows)} keys: wins {n(tot['wins'])}, "
        f"draws {n(tot['draws'])}, losses {n(tot['losses'])}",
        f"- longest win {max((r['max_win_plies'] or 0) for r in rows)} plies, longest loss "
        f"{max((r['max_loss_plies'] or 0) for r in rows)} plies",
        f"- solve {duration(t.get((set_, 'solve')))}, verify {duration(t.get((set_, 'verify')))} "
        f"({verify_line(set_)}), pack {duration(t.get((set_, 'pack')))}",
        f"- disk: raw {raw}, packed {packed}",
    ]
    out += pack_lines(set_)
    out += ["", "Positions (`morris query`):", ""]
    out += [f"- `{p}`: {v}" for p, v in positions(set_)]
    out += ["", "| key | wins | draws | losses | longest win | longest loss |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        out.append(f"| {r['key']} | {n(r['wins'])} | {n(r['draws'])} | {n(r['losses'])} | "
                   f"{n(r['max_win_plies'])} | {n(r['max_loss_plies'])} |")
    return out + [""]


def header(title, sets, binaries, intro):
    commits = sorted({b.split("-")[-1] for s in sets for b in binaries.get(s, ())})
    return [
        f"# {title}",
        "",
        f"Written by `scripts/seeds-report.py` on {subprocess.run(['date', '-u', '+%Y-%m-%d'], capture_output=True, text=True).stdout.strip()} "
        f"from the runs of `scripts/solve-seeds.sh` on {machine()}; tables built by the binary "
        f"of commit {', '.join(commits) or '-'}. Times are wall-clock seconds summed over the "
        "runs a step took (a resumed step counts each run), at nice 19, with other work on the "
        "machine at times.",
        "",
    ] + intro + [""]


def main():
    t, binaries = times()
    nocapture = header(
        "Nine Men's Morris under the no-capture rule, the whole game",
        ["nc50", "nc100"], binaries,
        ["A zeroing ply is a capture or a placement; after N plies in a row without one the "
         "game is drawn (a winning ply still wins). Counts are symmetry classes at counter 0. "
         "Nobody had published these figures. They are checked three ways: `morris verify` "
         "recomputes every stored entry from its children; the rule's solver agrees with the "
         "naive reference solver, which keeps the counter in its state, on every position and "
         "counter of the 3- and 4-stone games (solver/tests/reference_nocapture.rs, in CI); "
         "and each key's counts split the plain game's exactly (below)."])
    for s in ("nc50", "nc100"):
        nocapture += rule_section(s, t)
    noflying = header(
        "Nine Men's Morris without flying, the whole game",
        ["noflying", "nofly-nc50"], binaries,
        ["A player with three stones slides like any other (seed 001's \"Sans vol\"). Malom, "
         "Sanmill and GamesmanOne publish the flying game only, so nothing here can be "
         "compared with a published figure; it is checked by `morris verify` over every key, "
         "and the solver agrees with the naive reference solver on every position of the "
         "no-flying 3- and 4-stone games, with and without the rule (in CI)."])
    noflying += plain_section("noflying", t)
    noflying += rule_section("nofly-nc50", t)
    for name, lines in (("nine-nocapture.md", nocapture), ("nine-noflying.md", noflying)):
        path = os.path.join(RESULTS, name)
        with open(path, "w") as f:
            f.write("\n".join(lines).rstrip() + "\n")
        print(f"{path} written")


if __name__ == "__main__":
    sys.exit(main())
