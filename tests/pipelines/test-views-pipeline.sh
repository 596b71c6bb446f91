#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs pipelines/views.sh as a user does: into an MP4 (decoded back: every
# frame 1200 x 400, the three panes) and as a window (fakesink in place of
# it) on a short live run; then the plainest tee of B-scans and views into
# real windows (glimagesink under Xvfb).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export AOOCT_SKIP_BOOTSTRAP=1 AOOCT_VOLUME=20
gst-inspect-1.0 x264enc >/dev/null 2>&1 || { echo "x264enc missing (gstreamer1.0-plugins-ugly): skipped"; exit 77; }
gst-inspect-1.0 avdec_h264 >/dev/null 2>&1 || { echo "avdec_h264 missing (gst-libav): skipped"; exit 77; }

# (a path with a space: one argument all the way, issue 41)
AOOCT_BSCANS=60 "$root/pipelines/views.sh" "$out/my views/v 1.mp4" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
gst-launch-1.0 -q filesrc location="$out/my views/v 1.mp4" ! qtdemux ! avdec_h264 \
  ! videoconvert ! video/x-raw,format=GRAY8,width=1200,height=400 ! filesink location="$out/dec" \
  || { echo "views.mp4 does not decode to 1200x400 frames"; exit 1; }
frames=$(( $(stat -c %s "$out/dec") / (1200 * 400) ))
[ "$frames" -ge 50 ] || { echo "views.mp4: only $frames frames"; exit 1; }
# the en-face and volume panes are not empty once a volume is through:
# mean grey of each pane's centre in the last frame
python3 - "$out/dec" "$frames" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
n = int(sys.argv[2]); f = data[(n - 1) * 480000:n * 480000]
def mean(f, x0):
    vals = [f[r * 1200 + c] for r in range(150, 250, 4) for c in range(x0 + 150, x0 + 250, 4)]
    return sum(vals) / len(vals)
for name, x0 in (("B-scan", 0), ("en-face", 400), ("volume", 800)):
    m = mean(f, x0)
    print(f"{name} pane: mean grey {m:.0f}")
    if m < 10:
        sys.exit(f"{name} pane is black")
# compositor shows each view image over its whole volume (the B-scan pane
# waits for it in views.sh's queue): the en-face pane in every frame
shown = sum(mean(data[i * 480000:(i + 1) * 480000], 400) >= 10 for i in range(n))
print(f"en-face pane shown in {shown} of {n} frames")
if shown < n:
    sys.exit(f"the en-face pane is black in {n - shown} of {n} frames")
PY
echo "views.sh: $frames frames of 1200x400 in the MP4"

AOOCT_BSCANS=40 AOOCT_VIDEOSINK="fakesink sync=true" "$root/pipelines/views.sh" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
grep -q 'Got EOS' "$out/log" || { cat "$out/log"; echo "views.sh (window) did not reach EOS"; exit 1; }
echo "views.sh: window pipeline ran to EOS"

# The views beside the B-scans in windows (issue 35): a tee with default
# queues to three glimagesinks under Xvfb (Mesa's software GL), from a file
# of 450 B-scans in volumes of 200; before the views' GAP events it never
# left preroll.  Skipped without xvfb-run or glimagesink.
if command -v xvfb-run >/dev/null && gst-inspect-1.0 glimagesink >/dev/null 2>&1; then
  gst-launch-1.0 -q aooctsrc num-buffers=450 samples=256 alines=64 \
    bscans-per-volume=200 seed=7 wavelength-coeffs=780,0.5 \
    calibration-file="$out/cal.txt" ! filesink location="$out/b.raw"
  timeout 120 xvfb-run -a -s "-screen 0 1024x768x24 +extension GLX" \
    gst-launch-1.0 filesrc location="$out/b.raw" \
    ! rawvideoparse format=gray16-le width=256 height=64 framerate=1000/1 \
    ! aooctdcsub ! aooctkmap wavelength-file="$out/cal.txt" \
    ! aooctdisp a2=8 a3=-2 ! aooctfft ! tee name=t \
    t. ! queue ! aooctnorm ! videoconvert ! glimagesink \
    t. ! queue ! aooctenface bscans-per-volume=200 ! videoconvert ! glimagesink \
    t. ! queue ! aooctrender bscans-per-volume=200 ! videoconvert ! glimagesink \
    >"$out/log" 2>&1 || { cat "$out/log"; echo "tee to three glimagesinks: no EOS"; exit 1; }
  grep -q 'Got EOS' "$out/log" || { cat "$out/log"; echo "tee to three glimagesinks: no EOS"; exit 1; }
  echo "views.sh: a tee to three glimagesinks (B-scans, en-face, rendering) ran to EOS"
else
  echo "xvfb-run or glimagesink missing: the windows part skipped"
fi
