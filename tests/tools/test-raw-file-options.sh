#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The raw-file options every tool takes through aooctfilesrc
# (tools/aooct-tool-util.h: --samples, --alines, --format, --header-bytes,
# --frame-stride, and .npy arrays that need none), on the real recording
# tests/data/pdms-sdoct/pdms_LP01.raw (a 552-byte header, 1049 A-lines of
# 1024 uint16 samples, an 8192-byte trailer; its README):
#  - aooct-background with --header-bytes: the mean of the 1049 A-lines,
#    checked against od and awk on the file's bytes after the header; the
#    same file from a .npy array of uint16 and of float32 (numpy.save, in
#    the project's .venv): the same values;
#  - aooct-dispersion --header-bytes 552 (and a .npy array without
#    --samples/--alines) runs and prints aooctdisp's fragment;
#  - usage errors (no geometry for a raw file, a negative byte count, an
#    unknown format) exit 2, a frame-stride smaller than a B-scan exits 1
#    with aooctfilesrc's message.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${AOOCT_BUILD:?}
bg=$build/tools/aooct-background
disp=$build/tools/aooct-dispersion
raw=$root/tests/data/pdms-sdoct/pdms_LP01.raw
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT

# --- aooct-background --header-bytes ----------------------------------------
"$bg" -o "$out/bg.txt" --header-bytes=552 --samples=1024 --alines=1049 "$raw" \
  >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
grep -q 'mean of 1049 A-lines in 1 frames, 1024 samples' "$out/log" || { cat "$out/log"; exit 1; }
# the expected mean from the bytes after the header (the trailer left out)
# (head first: tail reads its whole input, so no SIGPIPE under pipefail)
head -c $((552 + 1049 * 1024 * 2)) "$raw" | tail -c $((1049 * 1024 * 2)) \
  >"$out/stripped.raw"
od -An -v -tu2 -w2 "$out/stripped.raw" |
  awk '{ s[(NR - 1) % 1024] += $1 } END { for (i = 0; i < 1024; i++) printf "%.17g\n", s[i] / 1049 }' \
  >"$out/expected"
grep -v '^#' "$out/bg.txt" >"$out/got"
[ "$(wc -l <"$out/got")" -eq 1024 ] || { echo "bg.txt: $(wc -l <"$out/got") values"; exit 1; }
paste "$out/got" "$out/expected" | awk '{ d = $1 - $2; if (d < 0) d = -d;
    if (d > 1e-8 * $2) { print "value " NR ": " $1 ", expected " $2; bad = 1 } } END { exit bad }'
echo "aooct-background --header-bytes=552: the mean of the 1049 A-lines after the header"

# --- .npy arrays, uint16 and float32 ---------------------------------------
py=$root/.venv/bin/python
if "$py" -c 'import numpy' 2>/dev/null; then
  "$py" - "$raw" "$out" <<'PY'
import numpy as np, sys
a = np.fromfile(sys.argv[1], "<u2", offset=552, count=1049 * 1024).reshape(1049, 1024)
np.save(sys.argv[2] + "/u16.npy", a)
np.save(sys.argv[2] + "/f32.npy", a.astype(np.float32))
PY
  for t in u16 f32; do
    "$bg" -o "$out/$t.txt" "$out/$t.npy" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
    grep -v '^#' "$out/$t.txt" | cmp - "$out/got" || { echo "$t.npy: another background"; exit 1; }
  done
  grep -q '(1 frames, F32LE)' "$out/f32.txt" || { head -3 "$out/f32.txt"; exit 1; }
  "$disp" --wavelength-coeffs=870,0.12 "$out/f32.npy" >"$out/npy.out" 2>"$out/log" ||
    { cat "$out/log"; exit 1; }
  grep -q '^aooctdisp a2=' "$out/npy.out" || { cat "$out/npy.out" "$out/log"; exit 1; }
  echo "the same from .npy uint16 and float32 arrays; aooct-dispersion on the float32 one: $(cat "$out/npy.out")"
else
  echo "no numpy in $py: the .npy part skipped"
fi

# --- aooct-dispersion --header-bytes ----------------------------------------
"$disp" --header-bytes=552 --samples=1024 --alines=1024 --frame-stride=$((1049 * 2048)) \
  --wavelength-coeffs=870,0.12 "$raw" >"$out/disp.out" 2>"$out/log" || { cat "$out/log"; exit 1; }
grep -q '^aooctdisp a2=' "$out/disp.out" || { cat "$out/disp.out" "$out/log"; exit 1; }
echo "aooct-dispersion --header-bytes=552: $(cat "$out/disp.out")"

# --- errors ------------------------------------------------------------------
expect() {   # STATUS TEXT COMMAND...
  local want=$1 text=$2 rc=0; shift 2
  "$@" >"$out/log" 2>&1 || rc=$?
  [ $rc = "$want" ] && grep -q -- "$text" "$out/log" ||
    { echo "$*: exit $rc (expected $want), output:"; cat "$out/log"; exit 1; }
}
expect 2 'give N of' "$disp" --wavelength-coeffs=870,0.12 "$raw"
expect 2 'cannot be negative' "$bg" -o "$out/x.txt" --header-bytes=-5 --samples=1024 --alines=1049 "$raw"
expect 2 'float32-le' "$disp" --format=float64 --samples=1024 --alines=1024 --wavelength-coeffs=870,0.12 "$raw"
expect 1 'smaller than one B-scan' "$disp" --header-bytes=552 --samples=1024 --alines=1049 \
  --frame-stride=1000 --wavelength-coeffs=870,0.12 "$raw"
expect 1 'skips the whole file' "$bg" -o "$out/x.txt" --header-bytes=3000000 --samples=1024 --alines=1049 "$raw"
[ ! -e "$out/x.txt" ] || { echo "a background written after an error"; exit 1; }
echo "errors: usage 2, what aooctfilesrc refuses 1, with its message"
