#!/usr/bin/env bash
# The newcomer's path as a test: the README's quick start, run as written in a fresh clone.
#
# The commands are the lines of the ```sh block between `<!-- quickstart -->` and
# `<!-- /quickstart -->` in README.md, so the test cannot drift from the README. They run one
# by one, in order, in one shell (an `export` carries over), in a clone of this repository in a
# temporary directory. A command whose comment says `prints "TEXT"` must print TEXT (stdout or
# stderr). The test fails, showing the output, when a command exits non-zero or does not print
# what the README promises.
#
#   bash scripts/test-quickstart.sh                           # builds in the clone, as a newcomer
#   MORRIS_BIN=target/release/morris bash scripts/test-quickstart.sh   # reuse a built binary
#
#   MORRIS_BIN=path   a built `morris` to use: the block's `cargo build` lines are skipped and
#                     `morris` on the PATH is this binary (scripts/test.sh passes its own build)
#   README=path       the README whose block to run (default: the work tree's README.md, so that
#                     an edit is tested before it is committed; the clone is of HEAD)
#   KEEP=1            keep the temporary directory
set -euo pipefail
fail() { echo "test-quickstart: FAIL: $*" >&2; exit 1; }

# Paths given relative to where the script was started from.
if [ -n "${MORRIS_BIN:-}" ]; then
    [ -x "$MORRIS_BIN" ] && [ -f "$MORRIS_BIN" ] || fail "MORRIS_BIN=$MORRIS_BIN is not an executable"
    MORRIS_BIN=$(realpath "$MORRIS_BIN")
fi
[ -z "${README:-}" ] || README=$(realpath "$README")
cd "$(dirname "$0")/.."
REPO=$PWD
README=${README:-$REPO/README.md}

# The block: the lines between the markers, without the fence, blank lines and comment lines.
block=$(awk '/<!-- quickstart -->/ {on=1; next} /<!-- \/quickstart -->/ {on=0} on' "$README")
[ -n "$block" ] || fail "no <!-- quickstart --> ... <!-- /quickstart --> block in $README"
mapfile -t commands < <(printf '%s\n' "$block" | grep -v '^```' | grep -v '^[[:space:]]*#' \
    | grep -v '^[[:space:]]*$')
[ "${#commands[@]}" -gt 0 ] || fail "the quick-start block of $README has no command"
printf '%s\n' "${commands[@]}" | grep -q 'prints "' \
    || fail "no command of the quick-start block says what it prints (# prints \"...\")"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/morris-quickstart.XXXXXX")
if [ -z "${KEEP:-}" ]; then trap 'rm -rf "$TMP"' EXIT; else echo "keeping $TMP"; fi
git clone --quiet "$REPO" "$TMP/morris"
mkdir -p "$TMP/bin" "$TMP/out"

# One driver script runs every command in the clone, each with its output in a file of its
# own; a command's trailing comment is harmless because `}` stands on the next line.
driver=$TMP/driver.sh
{
    echo 'set -e'
    echo 'unset CARGO_TARGET_DIR'   # a newcomer's build lands in the clone's target/
    if [ -n "${MORRIS_BIN:-}" ]; then
        ln -s "$MORRIS_BIN" "$TMP/bin/morris"
        echo "export PATH=\"$TMP/bin:\$PATH\""
    fi
    echo "cd \"$TMP/morris\""
    for i in "${!commands[@]}"; do
        cmd=${commands[$i]}
        echo "echo \"\$ \"$(printf '%q' "$cmd")"
        if [ -n "${MORRIS_BIN:-}" ] && [[ $cmd =~ ^[[:space:]]*cargo[[:space:]]+build ]]; then
            echo "echo '  (skipped: MORRIS_BIN=$MORRIS_BIN)'"
            continue
        fi
        echo "start=\$(date +%s%N)"
        echo "{ $cmd"
        echo "} > \"$TMP/out/$i\" 2>&1 || { status=\$?; cat \"$TMP/out/$i\"; echo \"exit status \$status\"; exit 3; }"
        echo "ms=\$(( (\$(date +%s%N) - start) / 1000000 )); printf '  %d.%d s\\n' \$((ms / 1000)) \$((ms % 1000 / 100))"
    done
} > "$driver"

total_start=$(date +%s)
bash "$driver" || fail "a quick-start command failed (its output is above)"

for i in "${!commands[@]}"; do
    cmd=${commands[$i]}
    [[ $cmd =~ prints\ \"([^\"]*)\" ]] || continue
    want=${BASH_REMATCH[1]}
    shown=${cmd%%  #*}   # the command without its comment, for the messages
    shown=${shown%"${shown##*[![:space:]]}"}
    out=$TMP/out/$i
    [ -f "$out" ] || fail "\`$shown\` should print \"$want\", but was skipped"
    if ! grep -qF -- "$want" "$out"; then
        echo "--- output of: $shown" >&2
        tail -n 40 "$out" >&2
        echo "---" >&2
        fail "the README says \`$shown\` prints \"$want\"; its output (above) does not"
    fi
    echo "ok: prints \"$want\""
done
echo "test-quickstart: the README's quick start runs as written ($(( $(date +%s) - total_start )) s)"
