#!/usr/bin/env python3
"""Estimates the packed size of the keys not packed yet, from the keys that are.

For every key with a file in a packed set (the side to move has at least as many stones as the
other), the order-0 entropy of its values comes from the win/draw/loss counts of a solve log;
the ratio of packed bytes to that entropy, measured per phase on the keys packed so far, is
applied to the entropy of the keys not packed yet.

    python3 scripts/pack-estimate.py PACK_LOG SOLVE_LOG [SOLVE_LOG ...]
"""
import math
import re
import sys

UNIT = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
pack_log, solve_logs = sys.argv[1], sys.argv[2:]

packed = {}
for line in open(pack_log):
    m = re.match(r"(\S+): [\d,]+ slots, wdl ([\d.]+) (\w+) .*, dtw ([\d.]+) (\w+) ", line)
    if m:
        packed[m.group(1)] = (float(m.group(2)) * UNIT[m.group(3)],
                              float(m.group(4)) * UNIT[m.group(5)])

entropy = {}
for log in solve_logs:
    for line in open(log):
        for m in re.finditer(r"(\d+-\d+-\d+-\d+): ([\d,]+) wins, ([\d,]+) draws, ([\d,]+) losses", line):
            counts = [int(m.group(i).replace(",", "")) for i in (2, 3, 4)]
            n = sum(counts)
            entropy[m.group(1)] = sum(-c * math.log2(c / n) for c in counts if c) / 8

def stored(key):
    us, them = (int(x) for x in key.split("-")[:2])
    return us >= them

def phase(key):
    return "moving" if key.endswith("-0-0") else "placement"

total = 0.0
for ph in ("moving", "placement"):
    keys = [k for k in entropy if phase(k) == ph and stored(k)]
    done = [k for k in keys if k in packed]
    todo = [k for k in keys if k not in packed]
    w = sum(packed[k][0] for k in done)
    h = sum(entropy[k] for k in done)
    rest = sum(entropy[k] for k in todo)
    ratio = w / h if h else float("nan")
    est = w + rest * ratio
    total += est
    print(f"{ph}: {len(done)} of {len(keys)} keys with a file packed, values {w / 1e6:,.1f} MB "
          f"= {ratio:.3f} x their order-0 entropy ({h / 1e6:,.1f} MB); the other {len(todo)} keys' "
          f"entropy {rest / 1e6:,.1f} MB -> estimated {est / 1e6:,.1f} MB for the phase")
print(f"whole game, values: estimated {total / 1e9:.3f} GB")
