#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/aooct-dispersion on raw files of the synthetic camera with a known
# dispersion mismatch (two mismatches, wavelength increasing and
# decreasing): it prints "aooctdisp a2=... a3=..." near the
# camera's (a3 within 2 rad: the sharpness is flat in a3 near its maximum,
# where a cubic phase error of 2 rad widens the PSF by 1 %); and its errors
# (no calibration, no file, a file shorter than a
# B-scan).  Then the classes of issue 33: every row layout (GRAY8 with N
# not a multiple of 4, GRAY16 with N odd: the file's rows are packed,
# GStreamer's are 4-byte aligned), every file name (non-ASCII, spaces,
# quotes, backslashes, for the raw file and the calibration file), every
# file that is not a regular file (directory, FIFO), every numeric option
# out of range, and quotes in --wavelength-coeffs.  (That such estimates give a sharp PSF is test-chain's
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

# The accuracy docs/howto.md states (issue 33, item 21: measured over 60
# runs of the retina, docs/notes/dispersion-accuracy.md): a2 within 0.9
# rad, a3 within 1.7 rad, on four seeds and two mismatches (seed 3 of
# (-20, 6) gave (-17.35, 4.13) when a2 and a3 were searched one after the
# other; (20, 10), the largest a3, was worst)
accuracy() {   # SEED A2 A3 COEFFS
  gst-launch-1.0 -q aooctsrc num-buffers=1 seed="$1" wavelength-coeffs="$4" \
    dispersion-a2="$2" dispersion-a3="$3" ! filesink location="$out/x.raw"
  "$tool" -n 832 -m 240 -c "$4" "$out/x.raw" >"$out/stdout" 2>"$out/stderr" ||
    { cat "$out/stderr"; exit 1; }
  echo "seed $1, camera a2=$2 a3=$3 ($4): $(cat "$out/stdout")"
  awk -v a2="$2" -v a3="$3" '{ split($2, x, "="); split($3, y, "=");
    d2 = x[2] - a2; d3 = y[2] - a3; if (d2 < 0) d2 = -d2; if (d3 < 0) d3 = -d3;
    exit !(d2 <= 0.9 && d3 <= 1.7) }' "$out/stdout" ||
    { echo "outside the stated accuracy (a2 0.9, a3 1.7 rad)"; exit 1; }
}
for seed in 1 2 3 4; do
  accuracy "$seed" -20 6 "785,0.125,1e-05,-2e-09"
  accuracy "$seed" 20 10 "895,-0.13"
done

# the fragment works in a pipeline as printed
gst-launch-1.0 -q filesrc location="$out/x.raw" ! rawvideoparse format=gray16-le width=832 height=240 \
  ! aooctdcsub ! aooctpad ! aooctkmap wavelength-coeffs="895,-0.13" ! $(cat "$out/stdout") \
  ! aooctfft ! aooctnorm ! fakesink

rc=0; "$tool" --samples=832 --alines=240 "$out/x.raw" 2>"$out/stderr" || rc=$?
[ $rc -eq 2 ] && grep -q 'exactly one calibration' "$out/stderr" || { cat "$out/stderr"; exit 1; }
rc=0; "$tool" -n 832 -m 240 -c 800,0.1 "$out/none.raw" 2>"$out/stderr" || rc=$?
[ $rc -eq 1 ] && grep -qi 'no such file' "$out/stderr" || { cat "$out/stderr"; exit 1; }
head -c 1000 "$out/x.raw" >"$out/short.raw"
rc=0; "$tool" -n 832 -m 240 -c 800,0.1 "$out/short.raw" 2>"$out/stderr" || rc=$?
[ $rc -eq 1 ] || { cat "$out/stderr"; echo "a short file was accepted"; exit 1; }

# Row layouts: the spec's file has packed rows; 2 B-scans so that a reader
# that expects GStreamer's padded rows gets the second half of the first
# B-scan wrong instead of failing.  GRAY8 from the 16-bit spectra scaled to
# 0..255.
coeffs="785,0.125,1e-05,-2e-09"
pack() {   # N FORMAT IN OUT: GStreamer's 4-byte aligned 16-bit rows to packed N-sample rows
  python3 - "$@" <<'PY'
import struct, sys
n, fmt, src, dst = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
d = open(src, 'rb').read()
stride = (2 * n + 3) // 4 * 4
rows = [struct.unpack('<%dH' % n, d[r * stride:r * stride + 2 * n]) for r in range(len(d) // stride)]
top = max(max(r) for r in rows) + 1
with open(dst, 'wb') as f:
    for r in rows:
        f.write(bytes(v * 256 // top for v in r) if fmt == 'gray8' else struct.pack('<%dH' % n, *r))
PY
}
layout() {   # N FORMAT
  gst-launch-1.0 -q aooctsrc num-buffers=2 seed=5 samples="$1" wavelength-coeffs="$coeffs" \
    dispersion-a2=-12.5 dispersion-a3=4 ! filesink location="$out/padded.raw"
  pack "$1" "$2" "$out/padded.raw" "$out/packed.raw"
  "$tool" -n "$1" -m 240 --format="$2" -c "$coeffs" "$out/packed.raw" >"$out/stdout" 2>"$out/stderr" ||
    { cat "$out/stderr"; echo "N=$1 $2: failed"; exit 1; }
  echo "N=$1 $2: $(cat "$out/stdout")"
  awk '{ split($2, x, "="); split($3, y, "="); d2 = x[2] + 12.5; d3 = y[2] - 4;
    if (d2 < 0) d2 = -d2; if (d3 < 0) d3 = -d3; exit !(d2 < 1 && d3 < 2) }' "$out/stdout" ||
    { echo "N=$1 $2: estimate too far from (-12.5, 4): rows read wrong?"; exit 1; }
}
layout 834 gray8
layout 835 gray8
layout 833 gray16-le

# File names: any byte a path may hold reaches the elements as given
name="$out/Müller scan \"q\" \\ 'x' \$HOME.raw"
cp "$out/packed.raw" "$name"
gst-launch-1.0 -q aooctsrc num-buffers=1 samples=833 wavelength-coeffs="$coeffs" \
  calibration-file="$out/cal.txt" ! fakesink
cp "$out/cal.txt" "$out/Kalibrierung ä \"1\".txt"
"$tool" -n 833 -m 240 -w "$out/Kalibrierung ä \"1\".txt" "$name" >"$out/stdout" 2>"$out/stderr" ||
  { cat "$out/stderr"; echo "a non-ASCII file name was refused"; exit 1; }
grep -q '^aooctdisp a2=' "$out/stdout"

# Not a regular file: said so, without blocking on a FIFO
mkdir "$out/dir.raw"; mkfifo "$out/fifo.raw"
for f in dir.raw:directory fifo.raw:FIFO; do
  rc=0; timeout 20 "$tool" -n 833 -m 240 -c "$coeffs" "$out/${f%%:*}" 2>"$out/stderr" || rc=$?
  [ $rc -eq 1 ] && grep -q "not a regular file (it is a ${f#*:}" "$out/stderr" ||
    { cat "$out/stderr"; echo "${f%%:*}: rc $rc"; exit 1; }
done

# Numeric options out of range or not numbers: usage errors naming the option
for o in "--samples=0" "--samples=-5" "--alines=0" "--alines=-1" "--factor=0" \
  "--factor=-2" "--size=-1" "--factor=x" "--samples=8x"; do
  rc=0; "$tool" -n 833 -m 240 -c "$coeffs" "$o" "$out/packed.raw" 2>"$out/stderr" || rc=$?
  opt=${o%%=*}; opt=${opt#--}
  [ $rc -eq 2 ] && grep -q -- "$opt\|-${opt:0:1}" "$out/stderr" ||
    { cat "$out/stderr"; echo "$o: rc $rc"; exit 1; }
done

# Quotes in the coefficients: aooctkmap's own message about them; three
# times each, as the error at the first buffer once left aooctfilesrc
# waiting for its reader forever in about half the runs (timeout: a hang)
for c in '785,0.1"' '"785",0.1' "785,'0.1'" '785,0.1"' '"785",0.1' "785,'0.1'" \
  '785,0.1"' '"785",0.1' "785,'0.1'"; do
  rc=0; timeout 30 "$tool" -n 833 -m 240 -c "$c" "$out/packed.raw" 2>"$out/stderr" || rc=$?
  [ $rc -eq 1 ] && grep -q 'wavelength-coeffs' "$out/stderr" && ! grep -q 'syntax error' "$out/stderr" ||
    { cat "$out/stderr"; echo "-c $c: rc $rc"; exit 1; }
done
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
echo "aooct-dispersion: estimates, fragment usable, row layouts, mono12p as 16-bit, file names, errors reported"
