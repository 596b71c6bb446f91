#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs pipelines/flow.sh as a user does: into OUTDIR (the MP4 decoded back:
# 640 x 640 frames whose last one shows the Doppler pane blue at the vessel
# moving away from the probe, red at the one moving towards it, the
# angiogram and the en-face angiogram bright at both vessels and dark
# between them; the en-face PNG of each volume bright at the vessels'
# columns) and as a window (fakesink in place of it) on a short live run.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export AOOCT_SKIP_BOOTSTRAP=1 AOOCT_POSITIONS=8 AOOCT_REPEATS=4
gst-inspect-1.0 x264enc >/dev/null 2>&1 || { echo "x264enc missing (gstreamer1.0-plugins-ugly): skipped"; exit 77; }
gst-inspect-1.0 avdec_h264 >/dev/null 2>&1 || { echo "avdec_h264 missing (gst-libav): skipped"; exit 77; }

# 2 volumes of 8 positions x 4 repeats, into a folder whose name is no
# format and no two words (issue 41: '%d' wrote outside it, a space broke it)
fo="$out/flow %d%s dir"
"$root/pipelines/flow.sh" "$fo" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
[ "$(ls "$out" | grep -v '^log$')" = "flow %d%s dir" ] || { ls -la "$out"; echo "flow.sh wrote outside its folder"; exit 1; }
gst-launch-1.0 -q filesrc location="$fo/flow.mp4" ! qtdemux ! avdec_h264 \
  ! videoconvert ! video/x-raw,format=RGB,width=640,height=640 ! filesink location="$out/dec" \
  || { echo "flow.mp4 does not decode to 640x640 frames"; exit 1; }
ls "$fo"/enface-angio-00.png "$fo"/enface-angio-01.png "$fo/flow-panes.png" >/dev/null
gst-launch-1.0 -q filesrc location="$fo/enface-angio-01.png" ! pngdec \
  ! videoconvert ! video/x-raw,format=GRAY8,width=240,height=8 ! filesink location="$out/enface" \
  || { echo "enface-angio-01.png is not a 240 x 8 image"; exit 1; }

python3 - "$out/dec" "$out/enface" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
size = 640 * 640 * 3
n = len(data) // size
if n < 10:
    sys.exit(f"flow.mp4: only {n} frames")
f = data[(n - 1) * size:n * size]
def mean(x0, x1, y0, y1, ch):
    vals = [f[(y * 640 + x) * 3 + ch] for y in range(y0, y1) for x in range(x0, x1)]
    return sum(vals) / len(vals)
# the vessels sit at 0.25 and 0.75 of the width, 96 .. 136 rows of 460
# into the depth crop: in a 320 pane, x 80 and 240, y about 67 .. 95
top, bot = 55, 105
# Doppler pane (320..640, 0..320): vessel 0 (away from the probe) blue,
# vessel 1 (towards it) red
r0, b0 = mean(320 + 60, 320 + 100, top, bot, 0), mean(320 + 60, 320 + 100, top, bot, 2)
r1, b1 = mean(320 + 220, 320 + 260, top, bot, 0), mean(320 + 220, 320 + 260, top, bot, 2)
print(f"Doppler pane: left vessel red {r0:.0f} blue {b0:.0f}; right vessel red {r1:.0f} blue {b1:.0f}")
if not (b0 > 2 * r0 + 10 and r1 > 2 * b1 + 10):
    sys.exit("Doppler pane: not blue left and red right")
# structure pane not empty; angiogram pane bright at the vessels, dark between
s = mean(100, 220, 100, 300, 1)
a0, a1, ab = (mean(x0, x0 + 40, 320 + top, 320 + bot, 1) for x0 in (60, 220, 140))
print(f"structure pane: mean {s:.0f}; angiogram pane: vessels {a0:.0f}, {a1:.0f}, between {ab:.0f}")
if s < 30 or min(a0, a1) < 4 * ab + 20:
    sys.exit("structure or angiogram pane wrong")
# and in the middle of the stream (compositor shows the angiograms while
# they come, not only the last one)
last = f
f = data[(n // 2) * size:(n // 2 + 1) * size]
m0, m1 = (mean(x0, x0 + 40, 320 + top, 320 + bot, 1) for x0 in (60, 220))
print(f"frame {n // 2} of {n}: angiogram pane vessels {m0:.0f}, {m1:.0f}")
if min(m0, m1) < 20:
    sys.exit("angiogram pane blank in the middle of the stream")
f = last
# en-face pane (320..640, 320..640): vessel columns bright over the full height
e0, e1, eb = (mean(320 + x0, 320 + x0 + 20, 330, 630, 1) for x0 in (70, 230, 150))
print(f"en-face pane: vessels {e0:.0f}, {e1:.0f}, between {eb:.0f}")
if min(e0, e1) < 2 * eb + 20:
    sys.exit("en-face pane wrong")
# the en-face PNG: 240 columns, 8 positions
img = open(sys.argv[2], "rb").read()
col = [sum(img[r * 240 + c] for r in range(8)) / 8 for c in range(240)]
v0, v1, vb = max(col[50:70]), max(col[170:190]), sum(col[110:130]) / 20
print(f"enface-angio-01.png: vessel columns {v0:.0f}, {v1:.0f}, between {vb:.0f}")
if min(v0, v1) < 150 or vb > 100:
    sys.exit("enface-angio-01.png: vessels not where they are")
PY
echo "flow.sh: MP4, panes and en-face angiograms as expected"

AOOCT_BSCANS=40 AOOCT_VIDEOSINK="fakesink sync=true" "$root/pipelines/flow.sh" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
grep -q 'Got EOS' "$out/log" || { cat "$out/log"; echo "flow.sh (window) did not reach EOS"; exit 1; }
echo "flow.sh: window pipeline ran to EOS"
