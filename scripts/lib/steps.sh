# Shared by the long runs (scripts/solve-seeds.sh, scripts/solve-layers.sh): one binary for a
# whole chain, and steps that leave a marker when done, so that a rerun goes on where the last
# run stopped. Needs ROOT (logs in $ROOT/logs, markers in $ROOT/state) before it is sourced.
mkdir -p "$ROOT/logs" "$ROOT/state" "$ROOT/bin"

# Nice 19 yields the cores to other work only within one scheduling group: where the kernel
# groups processes by the terminal or `setsid` that started them (autogroup) and the chain was
# started with setsid, its group would still get an equal share of the cores. So that group's
# own nice value is set too; a chain started from a terminal or CI leaves it alone.
if [ "$(ps -o sid= -p $$ | tr -d ' ')" = "$$" ] && [ -w /proc/self/autogroup ]; then
  echo 19 > /proc/self/autogroup 2>/dev/null || true
fi

# One binary for the whole chain, kept outside the work tree, so that a rebuild of the
# checkout during a run of hours changes nothing under it (MORRIS_BIN names another).
if [ -n "${MORRIS_BIN:-}" ]; then
  BIN=$MORRIS_BIN
else
  BIN=$ROOT/bin/morris-$(git rev-parse --short HEAD)
  if [ ! -x "$BIN" ]; then
    nice -n 19 cargo build --release -p morris
    cp target/release/morris "$BIN.tmp" && mv "$BIN.tmp" "$BIN"
  fi
fi
echo "binary $BIN ($($BIN --version))"

# The machine of each start of a chain, one row a start: date, binary, the chain (script and
# arguments), the boot's id, cores, and the processor, memory and kernel. A step's time is a
# measurement of that machine, and a machine handed on between runs may not be the same
# hardware; the boot id tells apart two of one make, and the chain the runs sharing a $ROOT.
cpuinfo() { awk -F': ' -v f="$1" '$1 ~ "^" f "[[:space:]]*$" { print $2; exit }' /proc/cpuinfo; }
printf '%s\t%s\t%s\t%s\t%s\t%s, family %s model %s, %s GiB, kernel %s\n' \
  "$(date -u +%FT%TZ)" "$(basename "$BIN")" "$(basename "$0") $*" \
  "$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)" "$(nproc --all)" "$(cpuinfo 'model name')" \
  "$(cpuinfo 'cpu family')" "$(cpuinfo model)" \
  "$(awk '/^MemTotal:/ { printf "%.0f", $2 / 1048576 }' /proc/meminfo)" "$(uname -r)" \
  >> "$ROOT/logs/machine.tsv"

# A step stopped by a signal still gets its row in times.tsv (status 128 + the signal), so
# that a step's time summed over its runs counts the runs cut short too.
STEP_RUNNING=
on_signal() {
  if [ -n "$STEP_RUNNING" ]; then
    read -r set name start <<< "$STEP_RUNNING"
    # The step's child is not reaped here, so its CPU time is unknown: "-".
    printf '%s\t%s\t%s\t%s\t%s\t%s\t-\t-\t-\n' "$set" "$name" "$(( $(date +%s) - start ))" \
      "$1" "$(date -u +%FT%TZ)" "$(basename "$BIN")" >> "$ROOT/logs/times.tsv"
    rm -f "$ROOT/state/$set.$name.running"
  fi
  exit "$1"
}
trap 'on_signal 143' TERM
trap 'on_signal 130' INT
trap 'on_signal 129' HUP

# A step's time is a measurement of the solver only if nothing else ran beside it, so each
# row of times.tsv also says how much CPU the machine gave to others meanwhile. In clock ticks:
# this shell's reaped children (the step's own CPU), the whole machine's busy time, and the
# time the host took from it (steal), which neither counts.
cpu_own() {
  local f
  read -r -a f < /proc/$$/stat
  echo $(( f[15] + f[16] ))
}
cpu_machine() {
  local _cpu user nice system idle iowait irq softirq steal
  read -r _cpu user nice system idle iowait irq softirq steal _ < /proc/stat
  echo "$(( user + nice + system + irq + softirq )) $steal"
}
TICKS=$(getconf CLK_TCK)

# Runs step $2 of set $1 unless its marker says it is done: "$@" from $3 on (a command at
# nice 19, or a shell function), its output appended to $ROOT/logs/<set>-<step>.log and its
# row to $ROOT/logs/times.tsv: set, step, wall seconds, exit status, end time, binary, then
# the CPU seconds of the step itself, of every other process on the machine, and stolen by
# the host. A failure stops the chain with the log's last lines.
step() {
  local set=$1 name=$2
  shift 2
  local marker="$ROOT/state/$set.$name.done" log="$ROOT/logs/$set-$name.log"
  if [ -f "$marker" ]; then
    echo "=== $set $name: done before"
    return 0
  fi
  # A run killed outright (SIGKILL, the machine's processes ended) wrote no row: its start
  # is in $running, and its row is written now, its wall time up to the last line it logged
  # (the work after that line is lost and done again in this run), exit status 137, its CPU
  # counts unknown ("-").
  local running="$ROOT/state/$set.$name.running"
  if [ -f "$running" ]; then
    local then bin_then last
    read -r then bin_then < "$running"
    last=$(stat -c %Y "$log" 2>/dev/null || echo "$then")
    [ "$last" -ge "$then" ] || last=$then
    printf '%s\t%s\t%s\t137\t%s\t%s\t-\t-\t-\n' "$set" "$name" "$(( last - then ))" \
      "$(date -u -d "@$last" +%FT%TZ)" "$bin_then" >> "$ROOT/logs/times.tsv"
    echo "=== $set $name: the run from $(date -u -d "@$then" +%FT%TZ) was killed;" \
      "$(( last - then )) s counted, to its last logged line"
  fi
  echo "=== $set $name: start $(date -u +%FT%TZ)"
  echo "# $(date -u +%FT%TZ) $BIN: $*" >> "$log"
  local start status own0 busy0 steal0 own1 busy1 steal1
  start=$(date +%s)
  echo "$start $(basename "$BIN")" > "$running"
  own0=$(cpu_own)
  read -r busy0 steal0 <<< "$(cpu_machine)"
  STEP_RUNNING="$set $name $start"
  set +e
  # Line by line, so that a run killed midway leaves every line it printed in the log.
  if [ "$(type -t "$1")" = function ]; then
    "$@"
  else
    nice -n 19 "$@"
  fi 2>&1 | stdbuf -oL tr '\r' '\n' | grep --line-buffered -v '^$' >> "$log"
  status=${PIPESTATUS[0]}
  rm -f "$running"
  STEP_RUNNING=
  set -e
  local secs=$(( $(date +%s) - start ))
  own1=$(cpu_own)
  read -r busy1 steal1 <<< "$(cpu_machine)"
  local own=$(( own1 - own0 )) others=$(( busy1 - busy0 - (own1 - own0) ))
  [ "$others" -ge 0 ] || others=0
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$set" "$name" "$secs" "$status" \
    "$(date -u +%FT%TZ)" "$(basename "$BIN")" "$(( own / TICKS ))" "$(( others / TICKS ))" \
    "$(( (steal1 - steal0) / TICKS ))" >> "$ROOT/logs/times.tsv"
  if [ "$status" != 0 ]; then
    echo "=== $set $name: FAILED (exit $status) after $secs s; see $log" >&2
    tail -5 "$log" >&2
    exit "$status"
  fi
  touch "$marker"
  echo "=== $set $name: done in $secs s"
}
