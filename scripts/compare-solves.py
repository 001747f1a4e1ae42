#!/usr/bin/env python3
"""Two solve logs side by side, step by step: where one solve spends its time against the
other (the plain game against a rule's tables, one commit against another).

    python3 scripts/compare-solves.py A.log B.log [--top 15]

A log is what `morris solve` prints, one line a step ("7-5 + 5-7: 274,598,688 slots in
44.06 s ..."; a step solved over several runs counts its last line). Prints, as markdown, each
phase's total (moving: the pairs; placement: the keys with stones in hand) in both logs and
their ratio B/A, then the steps that differ most in seconds. Steps only one log has are
counted and named, so that two partial logs are not compared as if whole.
"""

import argparse
import re
import sys

STEP = re.compile(r"^([0-9+\- ]+): ([\d,]+) slots in ([\d.]+) s")


def steps(path):
    """Step name -> (slots, seconds), from the lines of a solve log."""
    out = {}
    for line in open(path, errors="replace"):
        m = STEP.match(line.strip())
        if m:
            out[m.group(1).strip()] = (int(m.group(2).replace(",", "")), float(m.group(3)))
    return out


def phase(name):
    """A placement step is one key (M-O-MH-OH) with stones in hand; a moving step is a pair
    ("M-O + O-M", "M-M") or one key without stones in hand."""
    numbers = name.split("-")
    if "+" not in name and len(numbers) == 4 and numbers[2:] != ["0", "0"]:
        return "placement"
    return "moving"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    a, b = steps(args.a), steps(args.b)
    if not a or not b:
        print(f"no step lines in {args.a if not a else args.b}", file=sys.stderr)
        return 1
    both = [k for k in a if k in b]
    print(f"A: {args.a} ({len(a)} steps)  \nB: {args.b} ({len(b)} steps)\n")
    print("| phase | steps | slots | A s | B s | B/A |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    total = [0, 0, 0.0, 0.0]
    for ph in ("moving", "placement"):
        ks = [k for k in both if phase(k) == ph]
        slots = sum(a[k][0] for k in ks)
        sa, sb = sum(a[k][1] for k in ks), sum(b[k][1] for k in ks)
        total = [total[0] + len(ks), total[1] + slots, total[2] + sa, total[3] + sb]
        ratio = f"{sb / sa:.2f}" if sa else "-"
        print(f"| {ph} | {len(ks)} | {slots:,} | {sa:,.1f} | {sb:,.1f} | {ratio} |")
    ratio = f"{total[3] / total[2]:.2f}" if total[2] else "-"
    print(f"| both | {total[0]} | {total[1]:,} | {total[2]:,.1f} | {total[3]:,.1f} | {ratio} |")
    for name, only in (("A", [k for k in a if k not in b]), ("B", [k for k in b if k not in a])):
        if only:
            print(f"\nonly in {name}: {len(only)} steps ({', '.join(only[:8])}"
                  f"{', ...' if len(only) > 8 else ''})")
    print(f"\nThe {args.top} steps that differ most (B - A):\n")
    print("| step | phase | slots | A s | B s | B/A | B - A s |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for k in sorted(both, key=lambda k: -(b[k][1] - a[k][1]))[:args.top]:
        (slots, sa), (_, sb) = a[k], b[k]
        ratio = f"{sb / sa:.2f}" if sa else "-"
        print(f"| {k} | {phase(k)} | {slots:,} | {sa:.2f} | {sb:.2f} | {ratio} | {sb - sa:+.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
