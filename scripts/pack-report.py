#!/usr/bin/env python3
"""Writes the packed-set report (markdown, on stdout) from the logs of scripts/pack-full.sh:
LOG (the packer's per-key lines, runs appended), LOG.latency and LOG.verify.

    python3 scripts/pack-report.py LOG LEVEL WDL_BLOCK DTW_BLOCK SIDES [PLAN_KEYS PLAN_SLOTS]

PLAN_KEYS and PLAN_SLOTS, the totals of `morris plan` for the same scope, let the report say
how much of the game the packed set covers so far.
"""
import os
import re
import sys

log, level, wdl_block, dtw_block, sides = sys.argv[1:6]
plan = [int(a) for a in sys.argv[6:8]]
UNIT = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}


def size(v, u):
    return float(v) * UNIT[u]


def num(s):
    return int(s.replace(",", ""))


# Per key: slots, wdl bytes, dtw bytes, seconds (None sizes: searched). The last line of a key
# with sizes wins; "packed already" lines of a rerun say nothing new.
keys, runs, seconds = {}, [], 0.0
for line in open(log):
    if line.startswith("# run "):
        runs.append(line[len("# run "):].strip())
        continue
    m = re.match(r"(\S+): ([\d,]+) slots, no file", line)
    if m:
        keys[m.group(1)] = (num(m.group(2)), None, None, None)
        continue
    m = re.match(r"(\S+): ([\d,]+) slots, wdl ([\d.]+) (\w+) \([\d.]+ bits/slot\), "
                 r"dtw ([\d.]+) (\w+) \([\d.]+ bits/slot\) \(([\d.]+) s\)", line)
    if m:
        s = float(m.group(7))
        keys[m.group(1)] = (num(m.group(2)), size(m.group(3), m.group(4)),
                            size(m.group(5), m.group(6)), s)
        seconds += s

def phase(key):
    return "moving" if key.endswith("-0-0") else "placement"

searched = sum(1 for v in keys.values() if v[1] is None)
print(f"# Packed tables of Nine Men's Morris ({len(keys)} keys, {searched} of them without a file)\n")
print(f"Made by `scripts/pack-full.sh` (zstd level {level}; blocks of {wdl_block} slots for "
      f"values, {dtw_block} for outcomes; `--sides {sides}`). Runs of the packer:\n")
for r in runs:
    print(f"- {r}")
covered = sum(v[0] for v in keys.values())
if len(plan) == 2 and (len(keys), covered) != tuple(plan):
    print(f"\n**Partial: {len(keys)} of the {plan[0]} keys of the plan, {covered:,} of "
          f"{plan[1]:,} slots ({covered / plan[1]:.1%}).** The totals below are of these keys (a "
          f"key without a file is listed once the packer has passed it, whether or not the keys "
          f"its search reads are packed yet).")
elif len(plan) == 2:
    print(f"\nEvery key of the plan: {plan[0]} keys, {plan[1]:,} slots.")
print(f"\nPacking took {seconds:,.0f} s in all (the sum of the keys' times, both kinds; "
      f"{seconds / 60:.1f} min).\n")

print("| phase | keys (with a file) | slots | values (wdl) | bits/slot | outcomes (dtw) | bits/slot | unpacked |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
tot = [0, 0, 0, 0.0, 0.0]
for ph in ("moving", "placement"):
    rows = [v for k, v in keys.items() if phase(k) == ph]
    n = sum(v[0] for v in rows)
    w = sum(v[1] or 0 for v in rows)
    d = sum(v[2] or 0 for v in rows)
    stored = sum(1 for v in rows if v[1] is not None)
    tot = [tot[0] + len(rows), tot[1] + stored, tot[2] + n, tot[3] + w, tot[4] + d]
    if rows:
        print(f"| {ph} | {len(rows)} ({stored}) | {n:,} | {w / 2**20:,.1f} MiB | {w * 8 / n:.3f} | "
              f"{d / 2**20:,.1f} MiB | {d * 8 / n:.3f} | {n / 2**30:,.2f} GiB |")
k, s, n, w, d = tot
print(f"| **whole** | {k} ({s}) | {n:,} | **{w / 2**20:,.1f} MiB = {w / 1e9:.3f} GB** | "
      f"{w * 8 / max(n, 1):.3f} | {d / 2**20:,.1f} MiB = {d / 1e9:.3f} GB | {d * 8 / max(n, 1):.3f} | "
      f"{n / 2**30:,.2f} GiB |")
print(f"\nValues are 1/{n / max(w, 1):.0f} of the unpacked tables (a byte a slot), outcomes "
      f"1/{n / max(d, 1):.1f}.\n")

if os.path.exists(log + ".latency"):
    lines = open(log + ".latency").read().strip().splitlines()
    head = lines[0][2:] if lines and lines[0].startswith("# ") else ""
    body = "\n".join(l for l in lines if not l.startswith("# "))
    print(f"Probe latency, `pack --latency` ({head}):\n\n```\n{body}\n```\n")

if os.path.exists(log + ".verify"):
    done, checked, differ, failed, complete = {}, 0, 0, [], False
    for line in open(log + ".verify"):
        m = re.match(r"(\S+) (wdl|dtw): ([\d,]+) positions checked, (\d+) differ", line)
        if m:
            done[m.group(1)] = True
            checked += num(m.group(3))
            differ += int(m.group(4))
        m = re.match(r"(\S+): verified before \(journal\)", line)
        if m:
            done[m.group(1)] = True
        if "damaged" in line or "exit status" in line or line.startswith("error"):
            failed.append(line.strip())
        if line.startswith("packed sets verified"):
            complete = True
    stored = [k for k, v in keys.items() if v[1] is not None]
    searched_keys = [k for k, v in keys.items() if v[1] is None]
    vs = sum(1 for k in stored if k in done)
    vq = sum(1 for k in searched_keys if k in done)
    print("Verification (`pack --verify`, every position of a key compared with the unpacked "
          "table; a searched key through the minimax of its children, one position in 997 "
          "through the packed reader in full):\n")
    print(f"- keys with a file: {vs} of {len(stored)} verified; searched keys: {vq} of "
          f"{len(searched_keys)}")
    print(f"- {checked:,} comparisons (values and outcomes counted apart), {differ} differences")
    if complete:
        print("- complete: every position of every key answers as the unpacked tables")
    else:
        missing = [k for k in keys if k not in done]
        print(f"- not complete: {len(missing)} keys not verified yet "
              f"({', '.join(missing[:12])}{', ...' if len(missing) > 12 else ''}); "
              "`bash scripts/pack-full.sh` goes on where it stopped")
    for f in failed:
        print(f"- {f}")
    print()

print("| key | slots | wdl bits/slot | dtw bits/slot | seconds |\n|---|---:|---:|---:|---:|")
for key, (n, w, d, s) in keys.items():
    if w is None:
        print(f"| {key} | {n:,} | searched | searched | |")
    else:
        print(f"| {key} | {n:,} | {w * 8 / n:.3f} | {d * 8 / n:.3f} | {s:.1f} |")
