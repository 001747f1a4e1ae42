#!/usr/bin/env bash
# The solve as a Slurm workflow, on a real one-node Slurm cluster started here: installs
# Debian's slurm-wlm and munge when missing (as root), starts munged, slurmctld and slurmd on a
# scratch configuration, submits the solve of the 5-stone game (moving and placement phases,
# placement keys split into ranges) through the script `morris plan --emit slurm` writes, and
# checks every file byte-identical to a local `morris solve`. Then it cancels a range job while
# it runs, runs the script again, and checks the files again. A few minutes; the daemons are
# stopped on exit, and their logs printed on failure.
#
# Environment: CARGO_TARGET_DIR (where the binary is built), SCRATCH (the scratch folder,
# default a fresh temporary directory).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

STONES=5
RANGE_SLOTS=3000000
OPTIONS=(--stones "$STONES")

if ! command -v slurmctld > /dev/null || ! command -v munged > /dev/null; then
    echo "== installing slurm-wlm and munge"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q slurm-wlm munge
fi

PROFILE=${MORRIS_PROFILE:-release}
cargo build --profile "$PROFILE" -p morris
MORRIS=${CARGO_TARGET_DIR:-$ROOT/target}/$PROFILE/morris

SCRATCH=${SCRATCH:-$(mktemp -d /tmp/morris-slurm.XXXXXX)}
mkdir -p "$SCRATCH"/{state,spool,log,munge,run}
chmod 755 "$SCRATCH" # munged runs as the munge user
export SLURM_CONF=$SCRATCH/slurm.conf
PIDS=()
failed=1

logs() {
    for f in "$SCRATCH"/munge/*.log "$SCRATCH"/log/* "$SCRATCH"/logs/*; do
        [ -f "$f" ] || continue
        echo "---- $f"
        tail -n 40 "$f"
    done
}

finish() {
    if [ "$failed" -ne 0 ]; then
        echo "== FAILED; daemon and job logs:"
        logs
        squeue 2> /dev/null || true
    fi
    scancel --user=root 2> /dev/null || true
    for pid in "${PIDS[@]}"; do
        kill "$pid" 2> /dev/null || true
    done
    sleep 1
    for pid in "${PIDS[@]}"; do
        kill -9 "$pid" 2> /dev/null || true
    done
    if [ "$failed" -eq 0 ]; then rm -rf "$SCRATCH"; fi
}
trap finish EXIT

# waits up to $1 seconds for the command after it to succeed
wait_for() {
    local limit=$1
    shift
    local t=0
    until "$@"; do
        t=$((t + 1))
        if [ "$t" -ge "$limit" ]; then
            echo "timed out after ${limit} s waiting for: $*"
            return 1
        fi
        sleep 1
    done
}

echo "== starting munged, slurmctld, slurmd in $SCRATCH"
# munged as the munge user, with a fresh random key and sockets of its own.
chown munge: "$SCRATCH/munge"
chmod 700 "$SCRATCH/munge"
dd if=/dev/urandom of="$SCRATCH/munge/munge.key" bs=1024 count=1 status=none
chown munge: "$SCRATCH/munge/munge.key"
chmod 400 "$SCRATCH/munge/munge.key"
SOCKET=$SCRATCH/munge/munge.socket
runuser -u munge -- munged --force --key-file="$SCRATCH/munge/munge.key" \
    --socket="$SOCKET" --pid-file="$SCRATCH/munge/munged.pid" \
    --log-file="$SCRATCH/munge/munged.log" --seed-file="$SCRATCH/munge/seed"
wait_for 10 test -s "$SCRATCH/munge/munged.pid"
PIDS+=("$(cat "$SCRATCH/munge/munged.pid")")

HOST=$(hostname -s)
CPUS=$(nproc)
MEMORY=$(awk '/MemTotal/ { printf "%d", $2 / 1024 * 0.8 }' /proc/meminfo)
cat > "$SLURM_CONF" << EOF
ClusterName=morris-test
SlurmctldHost=$HOST
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$SOCKET
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
StateSaveLocation=$SCRATCH/state
SlurmdSpoolDir=$SCRATCH/spool
SlurmctldPidFile=$SCRATCH/run/slurmctld.pid
SlurmdPidFile=$SCRATCH/run/slurmd.pid
SlurmctldLogFile=$SCRATCH/log/slurmctld.log
SlurmdLogFile=$SCRATCH/log/slurmd.log
SlurmctldPort=6917
SlurmdPort=6918
SlurmctldTimeout=30
SlurmdTimeout=30
MinJobAge=600
KillWait=5
NodeName=$HOST CPUs=$CPUS RealMemory=$MEMORY State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -c -f "$SLURM_CONF"
wait_for 20 test -s "$SCRATCH/run/slurmctld.pid"
PIDS+=("$(cat "$SCRATCH/run/slurmctld.pid")")
slurmd -c -f "$SLURM_CONF"
wait_for 20 test -s "$SCRATCH/run/slurmd.pid"
PIDS+=("$(cat "$SCRATCH/run/slurmd.pid")")
node_up() { sinfo -h -N -o %t 2> /dev/null | grep -Eq '^(idle|mix|alloc)'; }
wait_for 60 node_up
sinfo

echo "== the reference: a local morris solve"
LOCAL=$SCRATCH/local
start=$(date +%s)
"$MORRIS" solve --db "$LOCAL" "${OPTIONS[@]}" > "$SCRATCH/local.log"
echo "local solve: $(($(date +%s) - start)) s"

DB=$SCRATCH/cluster
export LOGS=$SCRATCH/logs
"$MORRIS" plan "${OPTIONS[@]}" --emit slurm --db "$DB" --range-slots "$RANGE_SLOTS" \
    --cpus-per-task 1 --out "$SCRATCH/submit.sh"
jobs=$(grep -c '^job ' "$SCRATCH/submit.sh")
ranges=$(grep -c -- '--range ' "$SCRATCH/submit.sh")
echo "the workflow: $jobs jobs, $ranges of them slot ranges"
[ "$ranges" -ge 4 ] || { echo "too few ranges: the split is not exercised"; exit 1; }

queue_empty() { [ -z "$(squeue -h -u root 2> /dev/null)" ]; }

# compares every table of the local solve with the cluster's, and the file lists
same_files() {
    local a b
    a=$(cd "$LOCAL" && ls *.mdb | sort)
    b=$(cd "$DB" && ls | grep -v '^slurm' | sort)
    if [ "$a" != "$b" ]; then
        echo "different files:"
        diff <(echo "$a") <(echo "$b") || true
        return 1
    fi
    for f in $a; do
        cmp "$LOCAL/$f" "$DB/$f" || return 1
    done
    echo "all $(echo "$a" | wc -l) files byte-identical"
}

echo "== first submission (range jobs wait 3 s before writing their part, to be caught running)"
start=$(date +%s)
MORRIS_TEST_PART_DELAY_SECONDS=3 bash "$SCRATCH/submit.sh"
# Cancel a range job while it runs: the workflow must recover on the second submission.
running_range() {
    squeue -h -u root -t R -o '%i %j' | awk '$2 ~ /-r[0-9]+$/ { print $1; exit }'
}
range_running() { [ -n "$(running_range)" ]; }
wait_for 300 range_running
victim=$(running_range)
echo "cancelling the running range job $victim ($(squeue -h -j "$victim" -o %j))"
scancel "$victim"
wait_for 600 queue_empty
echo "first submission ended after $(($(date +%s) - start)) s"
if same_files > /dev/null 2>&1; then
    echo "the first submission completed the solve despite the cancelled job"
    exit 1
fi
echo "part files left: $(find "$DB" -name '*.part-*' | wc -l)"

echo "== second submission (only what is missing)"
start=$(date +%s)
bash "$SCRATCH/submit.sh" | tee "$SCRATCH/second.log"
wait_for 600 queue_empty
echo "second submission ended after $(($(date +%s) - start)) s"
sacct_failed=$(grep -l -i -E 'error|panick' "$LOGS"/*.out 2> /dev/null | wc -l)
echo "job logs with errors: $sacct_failed (the cancelled job and what waited for it)"
same_files
[ -z "$(ls "$DB" | grep -E '\.part-|\.tmp$')" ] || { echo "part or temporary files left"; exit 1; }

echo "== a third submission finds everything complete"
bash "$SCRATCH/submit.sh" | tee "$SCRATCH/third.log"
grep -q '^submitted 0 job' "$SCRATCH/third.log"

failed=0
echo "slurm test passed"
