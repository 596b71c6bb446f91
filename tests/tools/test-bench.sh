#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The benchmark runs, on the CPU, as docs/performance.md and
# docs/scale-out.md tell users to run it (a few buffers per figure: this
# checks that every benchmark makes its table, not its figures): the
# standard rows of one shape, the flow, aooctregister (--aooct), aooctorg
# (--org), packed, full-range and views
# rows, and scripts/measure/scale-out-bench.sh over two CPU branches with its
# thread times.  AOOCT_BUILD is the meson build folder.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${AOOCT_BUILD:?set AOOCT_BUILD to the build folder}
bench=$build/bench/aooct-bench
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$out"

# $1: the table file; every row after the header has a number of A-lines/s
check_table() {
  local t=$1 what=$2
  grep -q '^| ' "$t" || { echo "$what: no table"; cat "$t"; exit 1; }
  if grep -qiE '^\|.*(failed|nan)' "$t"; then
    echo "$what: a row failed"; grep -iE 'failed|nan' "$t"; exit 1
  fi
  [ "$(grep -cE '^\| .*\| [0-9.]+(e\+[0-9]+)? \|' "$t")" -ge 1 ] ||
    { echo "$what: no row with a figure"; cat "$t"; exit 1; }
  # every row has its header's columns (a row of another table's columns
  # under a header puts its figures under the wrong names)
  awk -v what="$what" '
    !/^\|/ { cols = 0; next }
    { n = gsub(/\|/, "|") - 1 }
    cols == 0 { cols = n; head = $0; next }
    n != cols { printf "%s: a row of %d columns under a header of %d:\n  %s\n  %s\n",
                what, n, cols, head, $0; bad = 1 }
    END { exit bad }' "$t" || exit 1
}

run() {
  local name=$1; shift
  "$bench" --backend cpu "$@" -o "$out/$name.md" >"$out/$name.log" 2>&1 ||
    { echo "aooct-bench $*: exit status $?"; tail -20 "$out/$name.log"; exit 1; }
  check_table "$out/$name.md" "aooct-bench $*"
  echo "aooct-bench $*: $(grep -c '^| ' "$out/$name.md") table lines"
}

run shape --shape thesis-x16 --buffers 3 --no-files
run flow --flow --shape 1024-nopad-x8 --buffers 2 --no-files --no-steps
run aooct --aooct --shape 512x512 --buffers 1
run org --org --shape 512x512-x8 --buffers 2 --no-files --no-steps
run packed --packed --buffers 2 --no-files --no-steps
run fullrange --fullrange --shape thesis-x16 --buffers 2 --no-files --no-steps
run views --views 1 --buffers 2
# a bad option is refused with status 2
if "$bench" --scale-out 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16 --backend cpu \
    >"$out/bad.log" 2>&1; then
  echo "17 devices accepted"; exit 1
elif [ $? -ne 2 ]; then
  echo "17 devices: exit status other than 2"; cat "$out/bad.log"; exit 1
fi

BACKEND=cpu BUFFERS=3 BUILD=$build "$root/scripts/measure/scale-out-bench.sh" \
  "$out/scale" 0,0 >"$out/scale.log" 2>&1 ||
  { echo "scale-out-bench.sh failed"; cat "$out/scale.log"; exit 1; }
rows=$(grep -cE '^\| (2048x1000-x4|cs-2048x1000|thesis-x16) \| [0-9]' \
  "$out/scale/scale-out.md" || true)
[ "$rows" = 3 ] || { echo "scale-out table: $rows rows of 3"; cat "$out/scale/scale-out.md"; exit 1; }
if grep -q nan "$out/scale/scale-out.md"; then
  echo "scale-out table has nan"; cat "$out/scale/scale-out.md"; exit 1
fi
threads=$(grep -c 'CPU time of the threads' "$out/scale/pipeline.log" || true)
[ "$threads" = 3 ] || { echo "thread times after $threads of 3 rows"; exit 1; }
grep -qE '^ +queue[0-9]+:src +tid [0-9]+ +[0-9.]+ s +[0-9.]+ %' "$out/scale/pipeline.log" ||
  { echo "no branch thread in the thread times"; grep -A5 'CPU time' "$out/scale/pipeline.log"; exit 1; }
echo "scale-out-bench.sh (cpu, 0,0): 3 rows, thread times after each"
