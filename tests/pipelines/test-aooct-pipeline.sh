#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs pipelines/aooct.sh as a user does, into OUTDIR (a folder whose name
# is no format and no two words): the ORG trace follows the synthetic
# photoreceptors' set response (flat before the flash, the contraction,
# then the elongation: within 5 nm RMS), the shifts file has a line per
# B-scan with high correlations and real motion, the MP4 decodes to
# 640 x 640 frames whose registered average pane is sharper than the
# unregistered one, and each volume's layer en-face PNG is there; then as
# a window (fakesink in place of it) on a short live run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export AOOCT_SKIP_BOOTSTRAP=1 AOOCT_STIMULUS=12 AOOCT_VOLUME=16
gst-inspect-1.0 x264enc >/dev/null 2>&1 || { echo "x264enc missing (gstreamer1.0-plugins-ugly): skipped"; exit 77; }
gst-inspect-1.0 avdec_h264 >/dev/null 2>&1 || { echo "avdec_h264 missing (gst-libav): skipped"; exit 77; }

fo="$out/ao %d%s dir"
AOOCT_BSCANS=48 "$root/pipelines/aooct.sh" "$fo" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
[ "$(ls "$out" | grep -v '^log$')" = "ao %d%s dir" ] || { ls -la "$out"; echo "aooct.sh wrote outside its folder"; exit 1; }
ls "$fo/enface-layer-00.png" "$fo/enface-layer-01.png" "$fo/aooct-panes.png" >/dev/null
gst-launch-1.0 -q filesrc location="$fo/enface-layer-00.png" ! pngdec \
  ! videoconvert ! video/x-raw,format=GRAY8,width=96,height=16 ! fakesink \
  || { echo "enface-layer-00.png is not a 96 x 16 image"; exit 1; }
gst-launch-1.0 -q filesrc location="$fo/aooct.mp4" ! qtdemux ! avdec_h264 \
  ! videoconvert ! video/x-raw,format=GRAY8,width=640,height=640 ! filesink location="$out/dec" \
  || { echo "aooct.mp4 does not decode to 640x640 frames"; exit 1; }

python3 - "$fo/org-trace.txt" "$fo/shifts.txt" "$out/dec" 12 <<'PY'
import math, sys
trace, shifts, dec, s = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rows = [l.split() for l in open(trace) if l.strip() and not l.startswith("#")]
if len(rows) != 48:
    sys.exit(f"org-trace.txt: {len(rows)} lines, want 48")
# the camera's set response (aooctsrc's org-* defaults, docs/aooct.md)
def response(t):
    return 0.0 if t <= 0 else -40 * (t / 3) * math.exp(1 - t / 3) + 150 * (1 - math.exp(-t / 30))
err = [float(r[2]) - response(int(r[0]) - s) for r in rows]
rms = math.sqrt(sum(e * e for e in err) / len(err))
pre = max(abs(float(r[2])) for r in rows[:s])
low = min(float(r[2]) for r in rows[s:s + 6])
print(f"ORG trace: {rms:.2f} nm RMS from the set response; before the flash |mean| <= {pre:.2f} nm; "
      f"contraction to {low:.1f} nm, last {float(rows[-1][2]):.1f} nm (set {response(47 - s):.1f})")
if rms > 5 or pre > 3 or low > -15:
    sys.exit("ORG trace wrong")
sh = [l.split() for l in open(shifts) if l.strip() and not l.startswith("#")]
if len(sh) != 48:
    sys.exit(f"shifts.txt: {len(sh)} lines, want 48")
corr = min(float(r[3]) for r in sh)
moved = max(abs(float(r[1])) + abs(float(r[2])) for r in sh)
print(f"shifts: lowest correlation {corr:.3f}, largest |dz|+|dx| {moved:.2f} pixels")
if corr < 0.9 or moved < 1 or any(r[4] != "0" for r in sh):
    sys.exit("shifts wrong")
data = open(dec, "rb").read()
size = 640 * 640
n = len(data) // size
f = data[(n // 2) * size:(n // 2 + 1) * size]
def sharp(x0):
    g = e = 0
    for y in range(40, 300):
        for x in range(x0 + 10, x0 + 310):
            v = f[y * 640 + x]
            d = f[(y + 1) * 640 + x] - v
            g += d * d
            e += v * v
    return g / max(e, 1)
u, r = sharp(0), sharp(320)
print(f"frame {n // 2} of {n}: sharpness (depth gradient energy over energy) unregistered {u:.4f}, registered {r:.4f}")
if r < 1.5 * u:
    sys.exit("the registered average is not sharper than the unregistered one")
PY

# a window: fakesink for the video sink, a few B-scans
AOOCT_BSCANS=20 AOOCT_VIDEOSINK=fakesink timeout 120 "$root/pipelines/aooct.sh" >"$out/log2" 2>&1 || { cat "$out/log2"; exit 1; }
grep -q "B-scan *19 " "$out/log2" || { cat "$out/log2"; echo "the window's trace was not printed"; exit 1; }
echo "pipelines/aooct.sh: trace, shifts, MP4 and en-face as documented"
