"""The long runs' step times as scripts/lib/steps.sh writes them to times.tsv, one row per run
of a step: set, step, wall seconds, exit status, end time, binary, the step's own CPU seconds,
other processes' CPU seconds, steal seconds. Both reports (seeds-report.py, layers-report.py)
read them here, so that a step resumed over several runs is summed one way."""

import os
from collections import defaultdict


def plus(a, b):
    """Two counts of other processes' CPU summed: unknown (None) if either is, because a time
    stands for the solver's only if every run of it says what ran beside it."""
    return None if a is None or b is None else a + b


def read(path, keep=lambda set_: True):
    """Per (set, step), for the sets `keep` accepts: the wall seconds summed over the runs that
    made up the step, and the other processes' CPU seconds beside them (None where a run's row
    does not say: rows written before steps.sh counted it, a run killed outright); per
    (set, step) the binaries of its runs, one entry a run; and per (set, step), over the runs
    whose rows say, their wall seconds, the step's own CPU seconds and the others' (a run
    killed outright says nothing of them). No file is no run yet: nothing."""
    wall, others, binaries = {}, {}, defaultdict(list)
    counted = defaultdict(lambda: [0, 0, 0])
    if not os.path.exists(path):
        return wall, others, binaries, counted
    for line in open(path):
        f = line.rstrip("\n").split("\t")
        if not keep(f[0]):
            continue
        step = (f[0], f[1])
        wall[step] = wall.get(step, 0) + int(f[2])
        cpu = int(f[7]) if len(f) > 7 and f[7] != "-" else None
        others[step] = plus(others.get(step, 0), cpu)
        if cpu is not None:
            c = counted[step]
            c[0], c[1], c[2] = c[0] + int(f[2]), c[1] + int(f[6]), c[2] + cpu
        binaries[step].append(f[5])
    return wall, others, binaries, counted


def last_run(text):
    """What a step's log holds of its last run: steps.sh appends each run after a `# ` line
    naming it, and a measurement taken again (a probe-latency pass) stands for its last run
    alone, where a resumed step (a verify, a pack) needs every run's lines."""
    lines = text.splitlines(True)
    starts = [i for i, l in enumerate(lines) if l.startswith("# ")]
    return "".join(lines[starts[-1] + 1 :] if starts else lines)
