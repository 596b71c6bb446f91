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
#    image missing and one with a 0-byte image, clearing a dead attempt's
#    partial folder;
#  - nothing of the user's is replaced (issue 41): a re-run with other
#    settings or another calibration is refused (exit 2, nothing done)
#    until --overwrite; outputs that collide with each other or with an
#    input are refused before anything is written; the same file named
#    twice is one file; a second run on the folder stops at once; settings
#    keys that are not properties, and bad numbers, are usage errors;
#  - it runs from a plain shell (tools/aooct-batch finds .venv and the
#    build's plugin), and its local Ray listens on none of the host's
#    interfaces (ss -ltnp during the run).
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
# (the inputs' folder has a space: a path is one value all the way, in the
# workers' elements and in aooct-stack's arguments)
in="$tmp/in put" out=$tmp/out
mkdir -p "$in"
# six files of 2 volumes of 12 B-scans; the sixth cut in the middle of a B-scan
for i in 1 2 3 4 5 6; do
  gst-launch-1.0 -q aooctsrc num-buffers=24 seed=$i calibration-file="$tmp/cal.txt" \
    ! filesink location="$in/scan$i.raw"
done
head -c $((5 * 832 * 240 * 2 + 1000)) "$in/scan6.raw" >"$tmp/cut" && mv "$tmp/cut" "$in/scan6.raw"
args=(--width 832 --height 240 --bscans-per-volume 12 --wavelength-file "$tmp/cal.txt"
  --a2 8 --a3 -2 --backend cpu --workers 2 -o "$out")
batch() { "$py" "$root/tools/aooct-batch" "${args[@]}" "$@" "$in/*.raw"; }
# with_input FILE: c=(the tokens of --print-pipeline's shell line in
# $chain, with aooctfilesrc's location=FILE), for aooct-stack
with_input() {
  local t toks
  eval "toks=($chain)"
  c=()
  for t in "${toks[@]}"; do
    c+=("$t")
    [ "$t" != name=src ] || c+=("location=$1")
  done
}
# from a plain shell: no .venv on PATH, no GST_PLUGIN_PATH (the tool finds
# both); a marker in its environment tells its processes (Ray's too) apart
mark=AOOCT_TEST_BATCH=$$
plain() {
  env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="${HOME:-/tmp}" LANG=C.UTF-8 "$mark" \
    AOOCT_BUILD="${AOOCT_BUILD:-$root/build}" GST_REGISTRY_1_0="${GST_REGISTRY_1_0:-$tmp/registry.bin}" \
    AOOCT_STACK="$AOOCT_STACK" "$root/tools/aooct-batch" "$@"
}
# pids of processes of this test's batch runs listening on the host's
# network (its own namespace: the one this shell is in)
host_listeners() {
  command -v ss >/dev/null || return 0
  ss -ltnpH 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u | while read -r p; do
    tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "$mark" && echo "$p"
  done
  return 0
}

# --- templates that cannot name every output apart: refused up front -----
for l in x.png 'v{volume}.png' 'v{volume}-{bscan}.jpg' '{volume}/../../x{bscan}.png'; do
  rc=0; "$py" "$root/tools/aooct-batch" "${args[@]}" --location "$l" "$in/scan1.raw" >"$tmp/log" 2>&1 || rc=$?
  [ $rc = 2 ] && [ ! -e "$out" ] || { cat "$tmp/log"; echo "--location $l: rc $rc, not refused"; exit 1; }
done

# --- usage errors, refused before anything is written --------------------
usage() { # usage GREP ARGS...: exit 2, the message, no traceback, no -o folder
  local want=$1 rc=0
  shift
  "$py" "$root/tools/aooct-batch" "$@" >"$tmp/log" 2>&1 || rc=$?
  [ $rc = 2 ] && grep -q -- "$want" "$tmp/log" && ! grep -q Traceback "$tmp/log" &&
    [ ! -e "$tmp/never" ] || { cat "$tmp/log"; echo "$*: rc $rc, not a usage error saying '$want'"; exit 1; }
}
nargs=("${args[@]/$out/$tmp/never}")
usage "--workers -1: must be >= 0" "${nargs[@]}" --workers -1 "$in/scan1.raw"
usage "--retries -1: must be >= 0" "${nargs[@]}" --retries -1 "$in/scan1.raw"
cp "$in/scan1.raw" "$tmp/a.raw"; cp "$in/scan1.raw" "$tmp/a.json.raw"
usage "would both write .*never/a.json" "${nargs[@]}" "$tmp/a.raw" "$tmp/a.json.raw"
# an input without an extension in -o's own folder: its output would be it
mkdir "$tmp/self"; cp "$in/scan1.raw" "$tmp/self/scan1"
rc=0; "$py" "$root/tools/aooct-batch" "${args[@]/$out/$tmp/self}" "$tmp/self/scan1" >"$tmp/log" 2>&1 || rc=$?
[ $rc = 2 ] && grep -q 'inputs are never written or removed' "$tmp/log" && cmp -s "$in/scan1.raw" "$tmp/self/scan1" &&
  [ "$(ls -A "$tmp/self")" = scan1 ] || { cat "$tmp/log"; ls -A "$tmp/self"; echo "an input in -o: rc $rc"; exit 1; }
# settings keys that are not properties (pipeline text in a key), values
# that are not the property's type or out of its range
printf '[source]\nwidth=832\nheight=240\n[aooctnorm]\nbackend ! filesink location=%s\n' "$tmp/evil.raw" >"$tmp/evil.ini"
usage "'backend ! filesink location' is not a property of aooctnorm" --settings "$tmp/evil.ini" \
  --bscans-per-volume 12 --wavelength-file "$tmp/cal.txt" --tiff -o "$tmp/never" "$in/scan1.raw"
[ ! -e "$tmp/evil.raw" ] || { echo "a settings key wrote $tmp/evil.raw"; exit 1; }
printf '[aooctdisp]\na2=abc\n' >"$tmp/bad.ini"
usage "aooctdisp a2='abc': not a gdouble" "${nargs[@]}" --settings "$tmp/bad.ini" "$in/scan1.raw"
usage "aooctnorm dynamic-range=-5" "${nargs[@]}" --dynamic-range -5 "$in/scan1.raw"
# --address ray:// without Ray's client (grpcio) says how to get it
if ! "$py" -c 'import grpc' 2>/dev/null; then
  usage "needs ray\[client\]" "${nargs[@]}" --address ray://127.0.0.1:1 "$in/scan1.raw"
fi
# the settings file's a2 is what runs, and what --print-pipeline shows; an
# option given on the command line wins over it
printf '[aooctdisp]\na2=5.5\n' >"$tmp/a2.ini"
"$py" "$root/tools/aooct-batch" "${nargs[@]/--a2/--a3}" --settings "$tmp/a2.ini" --print-pipeline "$in/scan1.raw" \
  >"$tmp/log" 2>&1 && grep -q ' a2=5.5 ' "$tmp/log" || { cat "$tmp/log"; echo "--print-pipeline: not the settings file's a2"; exit 1; }
"$py" "$root/tools/aooct-batch" "${nargs[@]}" --settings "$tmp/a2.ini" --print-pipeline "$in/scan1.raw" \
  >"$tmp/log" 2>&1 && grep -q ' a2=8.0 ' "$tmp/log" || { cat "$tmp/log"; echo "--print-pipeline: --a2 8 does not win"; exit 1; }
# one file named twice (scans/f1.raw and ./scans/f1.raw) is one file
"$py" "$root/tools/aooct-batch" "${nargs[@]}" --print-pipeline "$in/scan1.raw" "$in/../in put/scan1.raw" \
  >"$tmp/log" 2>&1 || { cat "$tmp/log"; echo "one file named twice called a clash"; exit 1; }
# --address auto without a cluster: a message, not a traceback
if [ ! -e /tmp/ray/ray_current_cluster ] && [ -z "${RAY_ADDRESS:-}" ]; then
  rc=0; "$py" "$root/tools/aooct-batch" "${nargs[@]}" --address auto "$in/scan1.raw" >"$tmp/log" 2>&1 || rc=$?
  [ $rc = 1 ] && grep -q 'cannot start or join Ray' "$tmp/log" && ! grep -q Traceback "$tmp/log" ||
    { cat "$tmp/log"; echo "--address auto without a cluster: rc $rc"; exit 1; }
  rm -rf "$tmp/never"
fi
# an output folder that cannot be written: said with the system's reason
# before Ray starts (root writes anywhere: not checked as root)
if [ "$(id -u)" != 0 ]; then
  mkdir "$tmp/ro"; chmod 555 "$tmp/ro"
  rc=0; "$py" "$root/tools/aooct-batch" "${args[@]/$out/$tmp/ro/out}" "$in/scan1.raw" >"$tmp/log" 2>&1 || rc=$?
  [ $rc = 1 ] && grep -q 'Permission denied' "$tmp/log" && ! grep -q Traceback "$tmp/log" ||
    { cat "$tmp/log"; echo "a read-only output folder: rc $rc"; exit 1; }
fi
echo "usage errors: bad numbers, colliding outputs, an input in -o, settings keys and values, ray:// without its client, --address auto without a cluster"

# can this machine make a private network namespace, as aooct-batch does?
# (a container may forbid it: then aooct-batch says so and runs Ray with a
# token; the loopback checks below are left out)
netns=yes
ipcmd=$(command -v ip || echo /usr/sbin/ip)
if [ "$(id -u)" = 0 ]; then
  unshare --net -- "$ipcmd" link set lo up 2>/dev/null || netns=no
else
  unshare --net --map-root-user -- "$ipcmd" link set lo up 2>/dev/null || netns=no
fi

# --- first run (from a plain shell), a worker killed in the middle of a file,
# a second run on the folder meanwhile, Ray's ports -----------------------------
plain "${args[@]}" "$in/*.raw" >"$tmp/run1" 2>&1 &
bpid=$!
killed= second= listening=
for _ in $(seq 1200); do
  # a file in progress: OUT/.NAME.partial-HOST-PID with images in it
  for d in "$out"/.scan*.partial-*; do
    [ -d "$d" ] && [ "$(ls "$d" | wc -l)" -ge 3 ] || continue
    pid=${d##*-}
    grep -q 'ray::' "/proc/$pid/cmdline" 2>/dev/null || continue
    listening=$(host_listeners)
    # the worker runs in a network namespace of its own
    [ $netns = no ] || [ "$(readlink "/proc/$pid/ns/net")" != "$(readlink /proc/self/ns/net)" ] ||
      { echo "the local Ray's worker runs in the host's network namespace"; kill $bpid; exit 1; }
    kill -9 "$pid" && killed=$(basename "$d") || continue
    # a second run on the same folder meanwhile stops at once
    if kill -0 $bpid 2>/dev/null; then
      rc=0; "$py" "$root/tools/aooct-batch" "${args[@]}" "$in/scan1.raw" >"$tmp/second" 2>&1 || rc=$?
      [ $rc = 1 ] && grep -q 'in use by another aooct-batch' "$tmp/second" && second=1 ||
        { cat "$tmp/second"; echo "a second run on the folder: rc $rc"; kill $bpid; exit 1; }
    fi
    break 2
  done
  kill -0 $bpid 2>/dev/null || break
  sleep 0.05
done
rc=0; wait $bpid || rc=$?; bpid=
cat "$tmp/run1"
[ -n "$killed" ] || { echo "no worker was caught in the middle of a file"; exit 1; }
echo "killed the worker of $killed"
[ -n "$second" ] || { echo "no second run was tried"; exit 1; }
if [ $netns = yes ]; then
  [ -z "$listening" ] || { ss -ltnp; echo "processes of the run listen on the host's interfaces: $listening"; exit 1; }
  grep -q 'Ray on loopback only' "$tmp/run1" || { echo "the local Ray was not confined"; exit 1; }
  echo "local Ray: no port on the host's interfaces (ss -ltnp), a namespace of its own; a second run refused"
else
  grep -q 'no private network namespace for the local Ray' "$tmp/run1" && grep -q 'Ray with a token' "$tmp/run1" ||
    { echo "no namespace here, and aooct-batch did not say so or used no token"; exit 1; }
  echo "local Ray: no network namespace on this machine: said so, Ray with a token; a second run refused"
fi

[ $rc = 1 ] || { echo "exit status $rc with a truncated file, not 1"; exit 1; }
# (aooctfilesrc warns about the 1000 bytes that make no B-scan and reads the
# 5 whole ones: the volume of 12 is incomplete)
grep -q "^FAILED .*scan6.raw: .*the last volume is incomplete: 5 of 12" "$tmp/run1" ||
  { echo "the truncated file is not reported with the element's error"; exit 1; }
[ "$(grep -c '^ok ' "$tmp/run1")" = 5 ] || { echo "not 5 files done"; exit 1; }
[ ! -e "$out/scan6" ] && [ ! -e "$out/scan6.json" ] || { echo "output of the truncated file left"; exit 1; }
ls -a "$out" | grep -q partial && { ls -a "$out"; echo "partial folders left"; exit 1; }
k=${killed#.}; k=${k%%.partial-*}
grep -q '"attempts": [2-9]' "$out/$k.json" || { cat "$out/$k.json"; echo "$k: no retry recorded"; exit 1; }

# --- every output as aooct-stack writes it ---------------------------------
chain=$("$py" "$root/tools/aooct-batch" "${args[@]}" --print-pipeline "$in/scan1.raw")
for i in 1 2 3 4 5; do
  with_input "$in/scan$i.raw"
  mkdir -p "$tmp/stack$i"
  "$stack" --bscans-per-volume=12 --location="$tmp/stack$i/vol{volume}-bscan{bscan}.png" "${c[@]}" >/dev/null
  diff -r "$tmp/stack$i" "$out/scan$i" || { echo "scan$i: differs from aooct-stack's output"; exit 1; }
  [ "$(ls "$out/scan$i" | grep -c '\.png$')" = 24 ] || { echo "scan$i: not 24 images"; exit 1; }
done
echo "5 outputs byte-identical to aooct-stack's (24 PNGs and depth-scale.txt each)"

# --- --tiff: one multi-page TIFF per volume, as aooct-stack --tiff --------
"$py" "$root/tools/aooct-batch" "${args[@]/$out/$tmp/tiff}" --tiff "$in/scan1.raw" "$in/scan4.raw" \
  >"$tmp/run-tiff" 2>&1 || { cat "$tmp/run-tiff"; echo "--tiff failed"; exit 1; }
chain=$("$py" "$root/tools/aooct-batch" "${args[@]}" --tiff --print-pipeline "$in/scan1.raw")
for i in 1 4; do
  with_input "$in/scan$i.raw"
  mkdir -p "$tmp/stack-tiff$i"
  "$stack" --tiff --bscans-per-volume=12 --location="$tmp/stack-tiff$i/vol{volume}.tif" "${c[@]}" >/dev/null
  diff -r "$tmp/stack-tiff$i" "$tmp/tiff/scan$i" || { echo "scan$i: TIFFs differ from aooct-stack --tiff's"; exit 1; }
  [ -f "$tmp/tiff/scan$i/vol001.tif" ] || { echo "scan$i: no vol001.tif"; exit 1; }
done
echo "--tiff: 2 outputs byte-identical to aooct-stack --tiff's (2 volumes each)"

# --- --hdf5: aooct-stack --hdf5 writes them (the same bytes) ---------------
if "$stack" --help-all | grep -q -- --hdf5; then
  "$py" "$root/tools/aooct-batch" "${args[@]/$out/$tmp/h5}" --hdf5 --compress 4 \
    "$in/scan1.raw" >"$tmp/run-h5" 2>&1 || { cat "$tmp/run-h5"; echo "--hdf5 failed"; exit 1; }
  chain=$("$py" "$root/tools/aooct-batch" "${args[@]}" --hdf5 --print-pipeline "$in/scan1.raw")
  with_input "$in/scan1.raw"
  mkdir -p "$tmp/stack-h5"
  "$stack" --hdf5 --compress=4 --bscans-per-volume=12 --location="$tmp/stack-h5/vol{volume}.h5" "${c[@]}" >/dev/null
  diff -r "$tmp/stack-h5" "$tmp/h5/scan1" || { echo "scan1: HDF5 files differ from aooct-stack --hdf5's"; exit 1; }
  [ -f "$tmp/h5/scan1/vol001.h5" ] || { echo "scan1: no vol001.h5"; exit 1; }
  echo "--hdf5: byte-identical to aooct-stack --hdf5's (2 volumes)"
fi

# --- a re-run: complete outputs skipped, damaged ones redone --------------
touch -d '2000-01-01' "$out"/scan*.json
rm "$out/scan2/vol001-bscan0005.png"
: >"$out/scan3/vol000-bscan0001.png"
mkdir "$out/.scan4.partial-deadhost-1"
rc=0; batch >"$tmp/run2" 2>&1 || rc=$?
cat "$tmp/run2"
[ $rc = 1 ] || { echo "re-run: exit status $rc, not 1 (the truncated file)"; exit 1; }
grep -q '^ok .*scan2.raw' "$tmp/run2" || { echo "re-run: scan2 (an image missing) not redone"; exit 1; }
grep -q '^ok .*scan3.raw' "$tmp/run2" || { echo "re-run: scan3 (a 0-byte image) not redone"; exit 1; }
[ "$(grep -c '^skipped ' "$tmp/run2")" = 3 ] || { echo "re-run: not 3 files skipped"; exit 1; }
for i in 1 4 5; do
  [ "$(stat -c %Y "$out/scan$i.json")" = "$(date -d 2000-01-01 +%s)" ] ||
    { echo "re-run: scan$i was done again"; exit 1; }
done
diff -r "$tmp/stack2" "$out/scan2" && diff -r "$tmp/stack3" "$out/scan3" ||
  { echo "re-run: a redone output differs from aooct-stack's"; exit 1; }
[ ! -e "$out/.scan4.partial-deadhost-1" ] || { echo "re-run: a dead attempt's partial folder left"; exit 1; }
echo "re-run: 3 complete outputs skipped, an image missing and a 0-byte image redone, identical"

# --- other settings: refused, nothing done, until --overwrite -------------
touch -d '2000-01-01' "$out"/scan*.json
snapshot=$(cd "$out" && find . -type f ! -name .aooct-batch.lock -printf '%p %s %T@\n' | sort)
# another calibration: the first wavelength 0.5 nm longer
python3 - "$tmp/cal.txt" "$tmp/cal2.txt" <<'PY'
import sys
lines, done = open(sys.argv[1]).read().split("\n"), False
for i, l in enumerate(lines):
    try:
        v = float(l)
    except ValueError:
        continue
    if not done:
        lines[i], done = "%.9f" % (v + 0.5), True
open(sys.argv[2], "w").write("\n".join(lines))
PY
! cmp -s "$tmp/cal.txt" "$tmp/cal2.txt" || { echo "cal2.txt is cal.txt"; exit 1; }
for other in "--a2 0" "--wavelength-file $tmp/cal2.txt"; do
  # shellcheck disable=SC2086
  rc=0; batch $other >"$tmp/log" 2>&1 || rc=$?
  [ $rc = 2 ] && grep -q 'made with other settings' "$tmp/log" && grep -q -- '--overwrite' "$tmp/log" ||
    { cat "$tmp/log"; echo "a re-run with $other: rc $rc, not refused"; exit 1; }
  [ "$(cd "$out" && find . -type f ! -name .aooct-batch.lock -printf '%p %s %T@\n' | sort)" = "$snapshot" ] ||
    { echo "a refused re-run ($other) changed the output folder"; exit 1; }
done
# the same calibration file with other contents is another calibration
cp "$tmp/cal.txt" "$tmp/cal.orig"; cp "$tmp/cal2.txt" "$tmp/cal.txt"
rc=0; batch >"$tmp/log" 2>&1 || rc=$?
cp "$tmp/cal.orig" "$tmp/cal.txt"
[ $rc = 2 ] && grep -q 'read_files' "$tmp/log" || { cat "$tmp/log"; echo "a changed calibration file: rc $rc"; exit 1; }
# --overwrite replaces it (here into per-volume folders: {volume}/...; and
# with Ray's other confinement, a token, where no namespace can be made)
rc=0; AOOCT_BATCH_NO_NETNS=1 "$py" "$root/tools/aooct-batch" "${args[@]/--a2/--a3}" --overwrite \
  --location '{volume}/b{bscan}.png' "$in/scan1.raw" >"$tmp/log" 2>&1 || rc=$?
[ $rc = 0 ] && [ -f "$out/scan1/001/b0011.png" ] && [ ! -e "$out/scan1/vol000-bscan0000.png" ] &&
  grep -q 'warning: no private network namespace' "$tmp/log" && grep -q 'Ray with a token' "$tmp/log" &&
  grep -q '"a2": "0.0"\|"a2": 0.0' "$out/scan1.json" || { cat "$tmp/log"; ls -R "$out/scan1" | head; echo "--overwrite"; exit 1; }
ls -A "$out" | grep -q '^\.scan1\.' && { ls -A "$out"; echo "--overwrite left a hidden folder"; exit 1; }
echo "other settings (--a2 0, another calibration file, the same file changed): refused, nothing done; --overwrite replaces (per-volume folders; Ray with a token)"
