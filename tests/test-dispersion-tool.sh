#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/aooct-dispersion on raw files of the synthetic camera with a known
# dispersion mismatch (two mismatches, wavelength increasing and
# decreasing): it prints "aooctdisp a2=... a3=..." near the
# camera's (a3 within 2 rad: the sharpness is flat in a3 near its maximum,
# where a cubic phase error of 2 rad widens the PSF by 1 %); and its errors
# (no calibration, no file, a file shorter than a
# B-scan).  (That such estimates give a sharp PSF is test-chain's
# dispersion_estimate.)
set -euo pipefail
tool=${AOOCT_BUILD:?}/tools/aooct-dispersion
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT

check() {   # A2 A3 COEFFS
  gst-launch-1.0 -q aooctsrc num-buffers=1 seed=5 wavelength-coeffs="$3" \
    dispersion-a2="$1" dispersion-a3="$2" ! filesink location="$out/x.raw"
  "$tool" --samples=832 --alines=240 --wavelength-coeffs="$3" "$out/x.raw" \
    >"$out/stdout" 2>"$out/stderr" || { cat "$out/stderr"; exit 1; }
  line=$(cat "$out/stdout")
  echo "camera a2=$1 a3=$2 ($3): $line ($(tr '\n' ' ' <"$out/stderr"))"
  echo "$line" | grep -Eq '^aooctdisp a2=-?[0-9]+\.[0-9]{3} a3=-?[0-9]+\.[0-9]{3}$' ||
    { echo "not a pipeline fragment: $line"; exit 1; }
  echo "$line" | awk -v a2="$1" -v a3="$2" '{ split($2, x, "="); split($3, y, "=");
    d2 = x[2] - a2; d3 = y[2] - a3; if (d2 < 0) d2 = -d2; if (d3 < 0) d3 = -d3;
    exit !(d2 < 1 && d3 < 2) }' || { echo "estimate too far from the camera's"; exit 1; }
}
check 12 -3 "785,0.125,1e-05,-2e-09"
check -18 5 "895,-0.13"

# the fragment works in a pipeline as printed
gst-launch-1.0 -q filesrc location="$out/x.raw" ! rawvideoparse format=gray16-le width=832 height=240 \
  ! aooctdcsub ! aooctpad ! aooctkmap wavelength-coeffs="895,-0.13" ! $(cat "$out/stdout") \
  ! aooctfft ! aooctnorm ! fakesink

rc=0; "$tool" --samples=832 --alines=240 "$out/x.raw" 2>"$out/stderr" || rc=$?
[ $rc -eq 2 ] && grep -q 'exactly one calibration' "$out/stderr" || { cat "$out/stderr"; exit 1; }
rc=0; "$tool" -n 832 -m 240 -c 800,0.1 "$out/none.raw" 2>"$out/stderr" || rc=$?
[ $rc -eq 1 ] && grep -q 'no such file' "$out/stderr" || { cat "$out/stderr"; exit 1; }
head -c 1000 "$out/x.raw" >"$out/short.raw"
rc=0; "$tool" -n 832 -m 240 -c 800,0.1 "$out/short.raw" 2>"$out/stderr" || rc=$?
[ $rc -eq 1 ] || { cat "$out/stderr"; echo "a short file was accepted"; exit 1; }
# packed 12-bit samples (Mono12p, docs/caps.md): the same B-scan packed
# here gives the same estimate as its 16-bit file
python3 - "$out/x.raw" "$out/x12p.raw" <<'PY'
import struct, sys
raw = open(sys.argv[1], 'rb').read()
v = struct.unpack('<%dH' % (len(raw) // 2), raw)
assert max(v) < 4096, max(v)
out = bytearray()
for i in range(0, len(v), 2):
    w = v[i] | v[i + 1] << 12
    out += bytes((w & 255, w >> 8 & 255, w >> 16))
open(sys.argv[2], 'wb').write(out)
PY
"$tool" -n 832 -m 240 -c 895,-0.13 "$out/x.raw" >"$out/ref" 2>/dev/null
"$tool" -n 832 -m 240 -c 895,-0.13 --format=mono12p "$out/x12p.raw" >"$out/p12" \
  2>"$out/stderr" || { cat "$out/stderr"; exit 1; }
cmp -s "$out/ref" "$out/p12" || { echo "mono12p: $(cat "$out/p12"), 16-bit: $(cat "$out/ref")"; exit 1; }
rc=0; "$tool" -n 833 -m 240 -c 895,-0.13 --format=mono12p "$out/x12p.raw" 2>"$out/stderr" || rc=$?
[ $rc -eq 2 ] && grep -q 'multiple of 2' "$out/stderr" || { cat "$out/stderr"; exit 1; }
rc=0; "$tool" -n 832 -m 240 -c 895,-0.13 --format=mono14p "$out/x12p.raw" 2>"$out/stderr" || rc=$?
[ $rc -eq 2 ] && grep -q 'mono12p' "$out/stderr" || { cat "$out/stderr"; exit 1; }
head -c 1000 "$out/x12p.raw" >"$out/short12.raw"
rc=0; "$tool" -n 832 -m 240 -c 800,0.1 --format=mono12p "$out/short12.raw" 2>"$out/stderr" || rc=$?
[ $rc -eq 1 ] || { cat "$out/stderr"; echo "a short packed file was accepted"; exit 1; }
echo "aooct-dispersion: estimates, fragment usable, mono12p as 16-bit, errors reported"
