#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/aooct-batch on a local Ray with two workers, CPU backend (issue 30,
# part 2): six small raw files, one of them truncated;
#  - the truncated one is reported (file and the element's error), the
#    others complete, exit status 1;
#  - a worker killed (SIGKILL) in the middle of a file: Ray retries it and
#    the file's output is complete;
#  - every output is byte-identical to aooct-stack's on the same file with
#    the same chain (the images and depth-scale.txt), with --tiff too;
#  - a re-run skips the complete outputs (untouched) and redoes one with an
#    image missing, clearing a dead attempt's partial folder.
# Exit 77 (skipped) when the project's .venv has no gi or no ray
# (scripts/bootstrap.sh installs both).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
py=$root/.venv/bin/python
"$py" -c 'import gi, ray' 2>/dev/null ||
  { echo "$py has no gi or no ray (scripts/bootstrap.sh installs them): skipped"; exit 77; }
stack=${AOOCT_BUILD:-$root/build}/tools/aooct-stack
[ -x "$stack" ] || { echo "no $stack: skipped"; exit 77; }
# (--tiff and --hdf5 run it)
export AOOCT_STACK=$stack
tmp=$(mktemp -d)
bpid=
cleanup() {
  [ -z "$bpid" ] || kill "$bpid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
in=$tmp/in out=$tmp/out
mkdir -p "$in"
# six files of 2 volumes of 12 B-scans; the sixth cut in the middle of a B-scan
for i in 1 2 3 4 5 6; do
  gst-launch-1.0 -q aooctsrc num-buffers=24 seed=$i calibration-file="$tmp/cal.txt" \
    ! filesink location="$in/scan$i.raw"
done
head -c $((5 * 832 * 240 * 2 + 1000)) "$in/scan6.raw" >"$tmp/cut" && mv "$tmp/cut" "$in/scan6.raw"
args=(--width 832 --height 240 --bscans-per-volume 12 --wavelength-file "$tmp/cal.txt"
  --a2 8 --a3 -2 --backend cpu --workers 2 -o "$out")
batch() { "$py" "$root/tools/aooct-batch" "${args[@]}" "$in/*.raw"; }

# --- templates that cannot name every output apart: refused up front -----
for l in x.png 'v{volume}.png' 'v{volume}-{bscan}.jpg' '{volume}/../../x{bscan}.png'; do
  rc=0; "$py" "$root/tools/aooct-batch" "${args[@]}" --location "$l" "$in/scan1.raw" >"$tmp/log" 2>&1 || rc=$?
  [ $rc = 2 ] && [ ! -e "$out" ] || { cat "$tmp/log"; echo "--location $l: rc $rc, not refused"; exit 1; }
done

# --- first run, a worker killed in the middle of a file -------------------
batch >"$tmp/run1" 2>&1 &
bpid=$!
killed=
for _ in $(seq 1200); do
  # a file in progress: OUT/.NAME.partial-HOST-PID with images in it
  for d in "$out"/.scan*.partial-*; do
    [ -d "$d" ] && [ "$(ls "$d" | wc -l)" -ge 3 ] || continue
    pid=${d##*-}
    grep -q 'ray::' "/proc/$pid/cmdline" 2>/dev/null || continue
    kill -9 "$pid" && killed=$(basename "$d") && break 2
  done
  kill -0 $bpid 2>/dev/null || break
  sleep 0.05
done
rc=0; wait $bpid || rc=$?; bpid=
cat "$tmp/run1"
[ -n "$killed" ] || { echo "no worker was caught in the middle of a file"; exit 1; }
echo "killed the worker of $killed"
[ $rc = 1 ] || { echo "exit status $rc with a truncated file, not 1"; exit 1; }
grep -q "^FAILED .*scan6.raw: src: .*not a whole number of B-scans" "$tmp/run1" ||
  { echo "the truncated file is not reported with the element's error"; exit 1; }
[ "$(grep -c '^ok ' "$tmp/run1")" = 5 ] || { echo "not 5 files done"; exit 1; }
[ ! -e "$out/scan6" ] && [ ! -e "$out/scan6.json" ] || { echo "output of the truncated file left"; exit 1; }
ls -a "$out" | grep -q partial && { ls -a "$out"; echo "partial folders left"; exit 1; }
k=${killed#.}; k=${k%%.partial-*}
grep -q '"attempts": [2-9]' "$out/$k.json" || { cat "$out/$k.json"; echo "$k: no retry recorded"; exit 1; }

# --- every output as aooct-stack writes it ---------------------------------
chain=$("$py" "$root/tools/aooct-batch" "${args[@]}" --print-pipeline "$in/scan1.raw")
for i in 1 2 3 4 5; do
  c=${chain/name=src/name=src location=$in/scan$i.raw}
  c=${c/name=kmap/name=kmap wavelength-file=$tmp/cal.txt}
  mkdir -p "$tmp/stack$i"
  # shellcheck disable=SC2086  # a pipeline description
  "$stack" --bscans-per-volume=12 --location="$tmp/stack$i/vol{volume}-bscan{bscan}.png" $c >/dev/null
  diff -r "$tmp/stack$i" "$out/scan$i" || { echo "scan$i: differs from aooct-stack's output"; exit 1; }
  [ "$(ls "$out/scan$i" | grep -c '\.png$')" = 24 ] || { echo "scan$i: not 24 images"; exit 1; }
done
echo "5 outputs byte-identical to aooct-stack's (24 PNGs and depth-scale.txt each)"

# --- --tiff: one multi-page TIFF per volume, as aooct-stack --tiff --------
"$py" "$root/tools/aooct-batch" "${args[@]/$out/$tmp/tiff}" --tiff "$in/scan1.raw" "$in/scan4.raw" \
  >"$tmp/run-tiff" 2>&1 || { cat "$tmp/run-tiff"; echo "--tiff failed"; exit 1; }
chain=$("$py" "$root/tools/aooct-batch" "${args[@]}" --tiff --print-pipeline "$in/scan1.raw")
for i in 1 4; do
  c=${chain/name=src/name=src location=$in/scan$i.raw}
  c=${c/name=kmap/name=kmap wavelength-file=$tmp/cal.txt}
  mkdir -p "$tmp/stack-tiff$i"
  # shellcheck disable=SC2086  # a pipeline description
  "$stack" --tiff --bscans-per-volume=12 --location="$tmp/stack-tiff$i/vol{volume}.tif" $c >/dev/null
  diff -r "$tmp/stack-tiff$i" "$tmp/tiff/scan$i" || { echo "scan$i: TIFFs differ from aooct-stack --tiff's"; exit 1; }
  [ -f "$tmp/tiff/scan$i/vol001.tif" ] || { echo "scan$i: no vol001.tif"; exit 1; }
done
echo "--tiff: 2 outputs byte-identical to aooct-stack --tiff's (2 volumes each)"

# --- --hdf5: aooct-stack --hdf5 writes them (the same bytes) ---------------
if "$stack" --help-all | grep -q -- --hdf5; then
  "$py" "$root/tools/aooct-batch" "${args[@]/$out/$tmp/h5}" --hdf5 --compress 4 \
    "$in/scan1.raw" >"$tmp/run-h5" 2>&1 || { cat "$tmp/run-h5"; echo "--hdf5 failed"; exit 1; }
  chain=$("$py" "$root/tools/aooct-batch" "${args[@]}" --hdf5 --print-pipeline "$in/scan1.raw")
  c=${chain/name=src/name=src location=$in/scan1.raw}
  c=${c/name=kmap/name=kmap wavelength-file=$tmp/cal.txt}
  mkdir -p "$tmp/stack-h5"
  # shellcheck disable=SC2086  # a pipeline description
  "$stack" --hdf5 --compress=4 --bscans-per-volume=12 --location="$tmp/stack-h5/vol{volume}.h5" $c >/dev/null
  diff -r "$tmp/stack-h5" "$tmp/h5/scan1" || { echo "scan1: HDF5 files differ from aooct-stack --hdf5's"; exit 1; }
  [ -f "$tmp/h5/scan1/vol001.h5" ] || { echo "scan1: no vol001.h5"; exit 1; }
  echo "--hdf5: byte-identical to aooct-stack --hdf5's (2 volumes)"
fi

# --- a re-run: complete outputs skipped, a damaged one redone --------------
touch -d '2000-01-01' "$out"/scan*.json
rm "$out/scan2/vol001-bscan0005.png"
mkdir "$out/.scan3.partial-deadhost-1"
rc=0; batch >"$tmp/run2" 2>&1 || rc=$?
cat "$tmp/run2"
[ $rc = 1 ] || { echo "re-run: exit status $rc, not 1 (the truncated file)"; exit 1; }
grep -q '^ok .*scan2.raw' "$tmp/run2" || { echo "re-run: scan2 (an image missing) not redone"; exit 1; }
[ "$(grep -c '^skipped ' "$tmp/run2")" = 4 ] || { echo "re-run: not 4 files skipped"; exit 1; }
for i in 1 3 4 5; do
  [ "$(stat -c %Y "$out/scan$i.json")" = "$(date -d 2000-01-01 +%s)" ] ||
    { echo "re-run: scan$i was done again"; exit 1; }
done
diff -r "$tmp/stack2" "$out/scan2" || { echo "re-run: scan2 differs from aooct-stack's"; exit 1; }
[ ! -e "$out/.scan3.partial-deadhost-1" ] || { echo "re-run: a dead attempt's partial folder left"; exit 1; }
echo "re-run: 4 complete outputs skipped, the damaged one redone, identical"
