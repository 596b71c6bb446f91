#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# tools/aooct-calibrate and tools/aooct-dispersion on a real recording
# (tests/data/pdms-sdoct: a PDMS phantom, two mirrors either side of zero
# delay, the darks) and on synthetic mirrors of known calibration:
#  1. synthetic: a known nonlinear lambda(p) and a known dispersion (fresh
#     random each run): the wavelengths come back to 0.02 nm, a2 and a3
#     to 0.1 rad, a4 and a5 to 0.3, on either side; three mirrors
#     (--sides) too;
#  2. the real mirrors with their darks: the fragments printed, the
#     assumption in the file's comment, the mirror PSF before and after
#     (k-linear and dispersion-compensated: at most 1.6 bins of the camera
#     pixels, from 11.7 and 3.7 as recorded);
#  3. the mirrors through the aooct chain with that calibration: each
#     mirror's peak where aooct-calibrate put it (1 bin) and sharp;
#  4. the PDMS B-scan (its 552-byte header stripped here) with the
#     calibration: its brightest reflector where a float64 reconstruction
#     with the same calibration puts it (1 bin; NumPy), the surface sharp (median FWHM at most 4
#     bins, the mirrors' 2.5), sharper than without the calibration and
#     than with the other side's signs;
#  5. aooct-dispersion on a mirror recording: with the B-scan mean it
#     refuses (sharpness 0, names why, exits 1), and so it does when the
#     spectra overflow (not finite); with the background it
#     gives a finite answer near aooct-calibrate's; --bscans;
#  6. usage errors.
set -euo pipefail
cal=${AOOCT_BUILD:?}/tools/aooct-calibrate
disp=$AOOCT_BUILD/tools/aooct-dispersion
data=$(cd "$(dirname "$0")/../data/pdms-sdoct" && pwd)
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
py=python3

# ---- 1. synthetic mirrors of known calibration and dispersion ----------
synth() {   # SEED SIDES DEPTHS(comma) -> $out/s*.txt, $out/truth
  $py - "$out" "$@" <<'PY'
import math, random, sys
out, seed, sides, depths = sys.argv[1], int(sys.argv[2]), sys.argv[3], [float(d) for d in sys.argv[4].split(',')]
rnd = random.Random(seed)
n = 1024
# lambda(p): 840 nm .. ~960 nm, with a random curvature; pixel 0 and N-1 known
c2 = rnd.uniform(-3e-5, 3e-5)
lam = [840 + 0.118 * p + c2 * p * (p - (n - 1)) for p in range(n)]
a = [rnd.uniform(-8, 8), rnd.uniform(-4, 4), rnd.uniform(-2, 2), rnd.uniform(-2, 2)]
k0, k1 = 2 * math.pi / lam[0], 2 * math.pi / lam[-1]
ref = [math.exp(-((p - 520) / 380.0) ** 2) for p in range(n)]   # source shape
for i, (s, z) in enumerate(zip(sides, depths)):
    sg = 1 if s == '+' else -1
    with open(f"{out}/s{i}.txt", "w") as f:
        for p in range(n):
            k = 2 * math.pi / lam[p]
            u = 2 * (k - k0) / (k1 - k0) - 1
            disp = a[0] * u**2 + a[1] * u**3 + a[2] * u**4 + a[3] * u**5
            # fringe: phase 2 k z (z in nm; its sign: the side) plus the
            # dispersion, the same on both sides; noise 0.2 %
            v = 1000 * ref[p] * (1 + 0.8 * math.cos(2 * k * sg * abs(z) + disp)) + rnd.gauss(0, 2)
            f.write(f"{v:.6f}\n")
with open(f"{out}/bg.txt", "w") as f:
    for p in range(n):
        f.write(f"{1000 * ref[p]:.6f}\n")
with open(f"{out}/truth", "w") as f:
    f.write(" ".join(f"{x:.6f}" for x in a) + "\n")
    f.write(" ".join(f"{x:.9f}" for x in lam) + "\n")
PY
}
compare() {   # SIGN(+1/-1: the side asked for) -> checks $out/wl.txt and $out/stdout against $out/truth
  $py - "$out" "$1" <<'PY'
import sys
out, sgn = sys.argv[1], float(sys.argv[2])
t = open(f"{out}/truth").read().split("\n")
a = [float(x) for x in t[0].split()]
lam = [float(x) for x in t[1].split()]
got = [float(l) for l in open(f"{out}/wl.txt") if not l.startswith("#")]
err = max(abs(x - y) for x, y in zip(got, lam))
frag = open(f"{out}/stdout").read().split("\n")[1].split()
ga = [float(f.split("=")[1]) for f in frag[1:]]
# aooctdisp cancels the phase of what aooctfft keeps, the positive
# frequencies along the k-linear samples.  Here lambda increases along the
# pixels, so k decreases: of the side-+ fringe cos(2 k |z| + Phi) the kept
# half is exp(-j (2 k |z| + Phi)), which exp(+j Phi) cancels; the other
# side takes the opposite signs.
want = [sgn * x for x in a]
print(f"  lambda max error {err:.4f} nm; a2..a5 {ga} want {[round(w, 3) for w in want]}")
assert err < 0.02, "wavelengths off"
# a4, a5 are the least determined (a5 u^5 is much like a3 u^3 and a linear
# term); they matter least too: 0.3 rad of a5 widens no PSF measurably
assert all(abs(g - w) < tol for g, w, tol in zip(ga, want, (0.1, 0.1, 0.3, 0.3))), "dispersion off"
PY
}
seed=${AOOCT_TEST_SEED:-$RANDOM}
echo "synthetic mirrors, seed $seed (AOOCT_TEST_SEED reproduces)"
synth "$seed" "+-" 200000,-150000
"$cal" -m "$out/s0.txt" -m "$out/s1.txt" -b "$out/bg.txt" --wavelength-range=840,960.714 \
  --dispersion-order=5 -o "$out/wl.txt" >"$out/stdout" 2>"$out/stderr" || { cat "$out/stderr"; exit 1; }
compare 1
"$cal" -m "$out/s0.txt" -m "$out/s1.txt" -b "$out/bg.txt" --wavelength-range=840,960.714 \
  --dispersion-order=5 --sample-side=2 -o "$out/wl.txt" >"$out/stdout" 2>"$out/stderr"
compare -1
# three mirrors, two on one side
synth "$seed" "++-" 170000,290000,-200000
"$cal" -m "$out/s0.txt" -m "$out/s1.txt" -m "$out/s2.txt" -b "$out/bg.txt" --sides=++- \
  --wavelength-range=840,960.714 --dispersion-order=5 -o "$out/wl.txt" >"$out/stdout" 2>"$out/stderr" ||
  { cat "$out/stderr"; exit 1; }
compare 1

# ---- 2. the real mirrors with their darks --------------------------------
darks=(--reference-dark "$data/LP01_dark_ref.txt" --sample-dark "$data/LP01_dark_sample1.txt"
  --sample-dark "$data/LP01_dark_sample2.txt" --camera-dark "$data/LP01_dark_not.txt")
"$cal" -m "$data/LP01_mirror1.txt" -m "$data/LP01_mirror2.txt" "${darks[@]}" \
  --center-wavelength 930 --bandwidth 124 --sample-side 2 -o "$out/pdms-wl.txt" \
  --phase-output "$out/pdms-phase.txt" >"$out/stdout" 2>"$out/stderr" || { cat "$out/stderr"; exit 1; }
cat "$out/stderr" "$out/stdout"
[ "$(sed -n 1p "$out/stdout")" = "aooctkmap wavelength-file=$out/pdms-wl.txt" ]
frag=$(sed -n 2p "$out/stdout")
echo "$frag" | grep -Eq '^aooctdisp a2=-?[0-9]+\.[0-9]{3} a3=-?[0-9]+\.[0-9]{3}$'
grep -q '^# ASSUMPTION: .*930 nm +- 62 nm, pixel 0 at 868 nm and the last pixel at 992 nm' "$out/pdms-wl.txt"
[ "$(grep -vc '^#' "$out/pdms-wl.txt")" = 1024 ] && [ "$(grep -vc '^#' "$out/pdms-phase.txt")" = 1024 ]
# before / after, in bins of the 1024 camera pixels
awk '/PSF FWHM/ { raw = $6; disp = $12
  if (disp + 0 > 1.6) { print "mirror PSF " disp " bins after, bound 1.6"; bad = 1 }
  if (raw + 0 > worst) worst = raw + 0 }
  END { if (worst < 5) { print "the uncalibrated PSF (" worst ") should be wide"; bad = 1 }; exit bad }' "$out/stderr"
a2=$(echo "$frag" | sed 's/.*a2=\([^ ]*\).*/\1/'); a3=$(echo "$frag" | sed 's/.*a3=\([^ ]*\).*/\1/')

# ---- 3. the mirrors through the aooct chain --------------------------------
# Each mirror spectrum as a raw recording (64 identical A-lines, scaled to
# 16 bits) and its background (the darks, scaled alike) for aooctdcsub.
$py - "$data" "$out" <<'PY'
import struct, sys
data, out = sys.argv[1], sys.argv[2]
rd = lambda f: [float(l) for l in open(f"{data}/LP01_{f}.txt")]
dn, dr = rd("dark_not"), rd("dark_ref")
for i in (1, 2):
    m, ds = rd(f"mirror{i}"), rd(f"dark_sample{i}")
    # the sums are offset (some are negative): the same offset and scale
    # for the mirror and its background keep their difference
    lo = min(m); scale = 60000.0 / (max(m) - lo)
    row = struct.pack("<1024H", *[round((v - lo) * scale) for v in m])
    open(f"{out}/mirror{i}.raw", "wb").write(row * 64)
    with open(f"{out}/mirror{i}-bg.txt", "w") as f:
        for a, b, c in zip(dr, ds, dn):
            f.write(f"{(a + b - c - lo) * scale:.4f}\n")
PY
peak_of() {   # RAW BG DISP... -> "peak fwhm" of the mean A-line's depth profile (image bins, -3 dB)
  local raw=$1 bg=$2; shift 2
  gst-launch-1.0 -q aooctfilesrc location="$raw" width=1024 height=64 num-buffers=1 \
    ! aooctdcsub mode=background background-file="$bg" ! aooctpad \
    ! aooctkmap wavelength-file="$out/pdms-wl.txt" ! aooctdisp "$@" ! aooctfft \
    ! aooctnorm crop-start=20 dynamic-range=60 ! video/x-raw,format=GRAY16_LE \
    ! filesink location="$out/profile.raw"
  $py - "$out/profile.raw" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
w = 64; h = len(d) // (2 * w)
v = struct.unpack("<%dH" % (w * h), d)
col = [v[r * w] for r in range(h)]               # the A-lines are alike
db = [c * 60.0 / 65535 for c in col]
m = max(range(h), key=lambda r: db[r])
half = db[m] - 3.0103
l = m
while db[l] > half: l -= 1
r = m
while db[r] > half: r += 1
le = l + (half - db[l]) / (db[l + 1] - db[l]); re = r - (half - db[r]) / (db[r - 1] - db[r])
print(f"{m + 20} {re - le:.2f}")
PY
}
# aooct-calibrate's peaks (camera-pixel bins) times P1/N = 2048/1024
for i in 1 2; do
  want=$(awk -v i=$i '$3 == i":" && /PSF FWHM/ { split($0, x, "peak at "); split(x[2], y, ", "); print 2 * y[3] }' "$out/stderr")
  # the fragment is for mirror 2's side; mirror 1's takes the opposite signs
  sgn=$([ $i = 2 ] && echo 1 || echo -1)
  got=$(peak_of "$out/mirror$i.raw" "$out/mirror$i-bg.txt" a2=$(awk -v a="$a2" -v s=$sgn 'BEGIN { print s * a }') \
    a3=$(awk -v a="$a3" -v s=$sgn 'BEGIN { print s * a }'))
  echo "mirror $i through aooct: peak bin and FWHM ${got} (aooct-calibrate: peak $want)"
  echo "$got $want" | awk '{ d = $1 - $3; if (d < 0) d = -d; exit !(d <= 1 && $2 <= 3.4) }' ||
    { echo "mirror $i: not where the calibration puts it, or not sharp"; exit 1; }
done

# ---- 4. the PDMS B-scan ------------------------------------------------------
$py - "$data/pdms_LP01.raw" "$out/pdms.raw" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
assert d[:7] == b"SD01RAW" and len(d) == 552 + 1049 * 2048 + 8192
open(sys.argv[2], "wb").write(d[552:552 + 1024 * 2048])   # rows 0 .. 1023
PY
bscan() {   # NAME KMAP-AND-DISP... -> $out/NAME.raw (GRAY16, log, 60 dB)
  local name=$1; shift
  gst-launch-1.0 -q aooctfilesrc location="$out/pdms.raw" width=1024 height=1024 num-buffers=1 \
    ! aooctdcsub ! aooctpad "$@" ! aooctfft ! aooctnorm crop-start=20 crop-end=1024 dynamic-range=60 \
    ! video/x-raw,format=GRAY16_LE ! filesink location="$out/$name.raw"
}
bscan cal ! aooctkmap wavelength-file="$out/pdms-wl.txt" ! aooctdisp a2="$a2" a3="$a3"
bscan other ! aooctkmap wavelength-file="$out/pdms-wl.txt" \
  ! aooctdisp a2=$(awk -v a="$a2" 'BEGIN { print -a }') a3=$(awk -v a="$a3" 'BEGIN { print -a }')
bscan nodisp ! aooctkmap wavelength-file="$out/pdms-wl.txt" ! aooctdisp
bscan raw ! aooctdisp
$py - "$out" <<'PY'
import struct, sys
out = sys.argv[1]
def surface(name):
    d = open(f"{out}/{name}.raw", "rb").read()
    w = 1024; h = len(d) // (2 * w)
    v = struct.unpack("<%dH" % (w * h), d)
    widths, depths = [], []
    for c in range(0, w, 4):
        db = [v[r * w + c] * 60.0 / 65535 for r in range(h)]
        m = max(range(h), key=lambda r: db[r])
        if db[m] < 45 or m < 2 or m > h - 3:    # a weak column: no surface
            continue
        half = db[m] - 3.0103
        l = m
        while l > 0 and db[l] > half: l -= 1
        r = m
        while r < h - 1 and db[r] > half: r += 1
        widths.append(r - l - 1 + (db[l + 1] - half) / (db[l + 1] - db[l]) + (db[r - 1] - half) / (db[r - 1] - db[r]))
        depths.append(m + 20)
    widths.sort()
    return widths[len(widths) // 2], len(widths), min(depths), max(depths)
res = {n: surface(n) for n in ("cal", "other", "nodisp", "raw")}
for n, (w, k, lo, hi) in res.items():
    print(f"  PDMS {n:7s}: surface FWHM median {w:.2f} bins over {k} A-lines, depths {lo} .. {hi}")
assert res["cal"][0] <= 4.0, "the calibrated PDMS surface is not sharp"
assert res["cal"][0] < 0.8 * res["raw"][0], "the calibration does not sharpen the PDMS surface"
assert res["cal"][0] < res["other"][0] and res["cal"][0] <= res["nodisp"][0], \
    "the dispersion of the sample's side does not sharpen it most"
PY

# The reflectors where the calibration puts them: the brightest depth of
# every 32nd A-line against a float64 reconstruction here (NumPy: the
# B-scan mean subtracted, resampled linearly onto the k-linear grid of the
# wavelength file, the dispersion phase, an FFT of 2 N), within one bin
# where the reflector is strong.  Skipped without NumPy.
np_py=
for p in "$(dirname "$0")/../../.venv/bin/python" /usr/bin/python3 python3; do
  if "$p" -c 'import numpy' 2>/dev/null; then np_py=$p; break; fi
done
if [ -n "$np_py" ]; then
  "$np_py" - "$out" "$a2" "$a3" <<'PY'
import sys
import numpy as np
out, a2, a3 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
n = 1024
raw = np.fromfile(f"{out}/pdms.raw", "<u2").reshape(1024, n).astype(float)
x = raw - raw.mean(axis=0)
lam = np.loadtxt(f"{out}/pdms-wl.txt")
k = 2 * np.pi / lam
kt = k[0] + np.arange(n) * (k[-1] - k[0]) / (n - 1)
order = np.argsort(k)
u = 2 * np.arange(n) / (n - 1) - 1
w = np.exp(1j * (a2 * u**2 + a3 * u**3))
img = np.fromfile(f"{out}/cal.raw", "<u2").reshape(-1, 1024) * 60.0 / 65535
worst, count = 0, 0
for c in range(0, 1024, 32):
    y = np.interp(kt, k[order], x[c][order]) * w
    p = np.abs(np.fft.fft(y, 2 * n))[20:1024] ** 2
    db = 10 * np.log10(p / p.max())
    col = img[:, c]
    if col.max() < 45:
        continue
    got, want = int(np.argmax(col)) + 20, int(np.argmax(db)) + 20
    worst = max(worst, abs(got - want)); count += 1
print(f"  PDMS reflectors: aooct against float64 on {count} A-lines, largest difference {worst} bins")
assert count >= 12 and worst <= 1, "the reflectors are not where the calibration puts them"
PY
else
  echo "  (no NumPy: the float64 reflector depths skipped)"
fi

# ---- 5. aooct-dispersion on a mirror recording ---------------------------------
rc=0; "$disp" -n 1024 -m 64 -w "$out/pdms-wl.txt" "$out/mirror1.raw" >"$out/dstdout" 2>"$out/dstderr" || rc=$?
cat "$out/dstderr"
[ $rc = 1 ] && [ ! -s "$out/dstdout" ] && grep -q 'sharpness is 0' "$out/dstderr" &&
  grep -q -- '--background=FILE' "$out/dstderr" || { echo "a static mirror with the B-scan mean: rc $rc"; exit 1; }
"$disp" -n 1024 -m 64 -w "$out/pdms-wl.txt" --background="$out/mirror1-bg.txt" "$out/mirror1.raw" \
  >"$out/dstdout" 2>"$out/dstderr" || { cat "$out/dstderr"; exit 1; }
echo "aooct-dispersion on mirror 1: $(cat "$out/dstdout") (aooct-calibrate, mirror 1's side: a2=$(awk -v a="$a2" 'BEGIN { print -a }') a3=$(awk -v a="$a3" 'BEGIN { print -a }'))"
# sane: finite, and near the calibration's (the sharpness is flat in a3)
awk -v a2="$a2" -v a3="$a3" '{ split($2, x, "="); split($3, y, "=");
  d2 = x[2] + a2; d3 = y[2] + a3; if (d2 < 0) d2 = -d2; if (d3 < 0) d3 = -d3;
  exit !(d2 < 1.5 && d3 < 2.5) }' "$out/dstdout" || { echo "aooct-dispersion far from aooct-calibrate"; exit 1; }
# spectra that overflow (a background of 3e38): refused as not finite
printf '3.0e38\n%.0s' $(seq 1024) >"$out/huge-bg.txt"
rc=0; "$disp" -n 1024 -m 64 -w "$out/pdms-wl.txt" -b "$out/huge-bg.txt" "$out/mirror1.raw" \
  >"$out/dhuge" 2>"$out/dstderr" || rc=$?
[ $rc = 1 ] && [ ! -s "$out/dhuge" ] && grep -q 'not finite' "$out/dstderr" ||
  { cat "$out/dstderr"; echo "overflowing spectra: rc $rc"; exit 1; }
# several B-scans: three in the file, the median printed
cat "$out/mirror1.raw" "$out/mirror1.raw" "$out/mirror1.raw" >"$out/mirror3x.raw"
"$disp" -n 1024 -m 64 -w "$out/pdms-wl.txt" -b "$out/mirror1-bg.txt" --bscans=3 "$out/mirror3x.raw" \
  >"$out/d3" 2>"$out/dstderr" || { cat "$out/dstderr"; exit 1; }
[ "$(grep -c '^aooct-dispersion: B-scan [0-2]:' "$out/dstderr")" = 3 ] && grep -q 'median of 3' "$out/dstderr"
cmp -s "$out/d3" "$out/dstdout" || { echo "3 identical B-scans: $(cat "$out/d3") vs $(cat "$out/dstdout")"; exit 1; }
"$disp" -n 1024 -m 64 -w "$out/pdms-wl.txt" -b "$out/mirror1-bg.txt" --bscans=5 "$out/mirror3x.raw" \
  >"$out/d5" 2>"$out/dstderr"
grep -q 'holds 3 whole B-scans' "$out/dstderr" && cmp -s "$out/d5" "$out/dstdout"
# --dc=none on the mirror: its DC is a peak at depth 0, the fringe still
# there: a finite answer
"$disp" -n 1024 -m 64 -w "$out/pdms-wl.txt" --dc=none "$out/mirror1.raw" >/dev/null 2>"$out/dstderr" ||
  { cat "$out/dstderr"; exit 1; }
for o in "--dc=mean" "--dc=background" "--bscans=0"; do
  rc=0; "$disp" -n 1024 -m 64 -w "$out/pdms-wl.txt" "$o" "$out/mirror1.raw" 2>"$out/dstderr" || rc=$?
  [ $rc = 2 ] || { cat "$out/dstderr"; echo "$o: rc $rc"; exit 1; }
done

# ---- 6. aooct-calibrate's usage and data errors ---------------------------------
m1=(-m "$data/LP01_mirror1.txt"); m2=(-m "$data/LP01_mirror2.txt")
expect() {   # RC PATTERN ARGS...
  local want=$1 pat=$2 rc=0; shift 2
  "$cal" "$@" -o "$out/x.txt" >/dev/null 2>"$out/err" || rc=$?
  [ $rc = "$want" ] && grep -q -- "$pat" "$out/err" || { cat "$out/err"; echo "$*: rc $rc, wanted $want /$pat/"; exit 1; }
}
expect 2 "two or more" "${m1[@]}" -c 930 -w 124
expect 2 "center-wavelength" "${m1[@]}" "${m2[@]}"
expect 2 "nanometres" "${m1[@]}" "${m2[@]}" -c 9.3e-7 -w 1.24e-7
expect 2 "L0,L1" "${m1[@]}" "${m2[@]}" -r 868
expect 2 "not both" "${m1[@]}" "${m2[@]}" -r 868,992 -c 930 -w 124
expect 2 "sides" "${m1[@]}" "${m2[@]}" "${m1[@]}" -c 930 -w 124
expect 2 "one + or - per mirror" "${m1[@]}" "${m2[@]}" --sides=+-+ -c 930 -w 124
expect 2 "not both" "${m1[@]}" "${m2[@]}" -b "$data/LP01_dark_not.txt" --reference-dark "$data/LP01_dark_ref.txt" -c 930 -w 124
expect 2 "camera-dark" "${m1[@]}" "${m2[@]}" --camera-dark "$data/LP01_dark_not.txt" -c 930 -w 124
expect 2 "sample-side" "${m1[@]}" "${m2[@]}" --sample-side 3 -c 930 -w 124
expect 1 "No such file" "${m1[@]}" -m "$out/none.txt" -c 930 -w 124
head -100 "$data/LP01_mirror2.txt" >"$out/short.txt"
expect 1 "too few" "${m1[@]}" -m "$out/short.txt" -c 930 -w 124
printf '1000\n%.0s' $(seq 1024) >"$out/flat.txt"
expect 1 "no fringe" "${m1[@]}" -m "$out/flat.txt" -c 930 -w 124
# two mirrors said to be on one side at nearly the same depth: no k from them
expect 1 "less than one" "${m1[@]}" "${m1[@]}" --sides=++ -c 930 -w 124
echo "aooct-calibrate: synthetic truth recovered, real mirrors and PDMS sharp; aooct-dispersion refuses a zero sharpness"
