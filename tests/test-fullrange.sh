#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs pipelines/fullrange.sh for 2 B-scans and checks what it writes: one
# PNG per B-scan, 488 x 2048 (the standard image and the full-range one
# side by side); decoded, the full-range half holds the retina on both
# sides of zero delay (the part before it, bins -120 .. -30, is bright;
# far from the retina, bins -900 .. -700, is dark), and the standard half
# shows nothing above zero delay (it has no negative depths).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export AOOCT_SKIP_BOOTSTRAP=1 AOOCT_BSCANS=2

"$root/pipelines/fullrange.sh" "$out/fr" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
names=$(cd "$out/fr" && ls bscan-*.png | tr '\n' ' ')
[ "$names" = "bscan-000.png bscan-001.png " ] || { echo "files: $names"; exit 1; }
size=$(od -An -tu1 -j16 -N8 "$out/fr/bscan-001.png" | awk '{print $3*256+$4 "x" $7*256+$8}')
[ "$size" = "488x2048" ] || { echo "PNG is $size, expected 488x2048"; exit 1; }
gst-launch-1.0 -q filesrc location="$out/fr/bscan-000.png" ! pngdec \
  ! videoconvert ! video/x-raw,format=GRAY8 ! filesink location="$out/img.raw"
python3 - "$out/img.raw" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
w = 488
stride = (w + 3) // 4 * 4
assert len(d) == stride * 2048, len(d)
def mean(r0, r1, c0, c1):
    s = n = 0
    for r in range(r0, r1):
        row = d[r * stride:(r + 1) * stride]
        s += sum(row[c0:c1]); n += c1 - c0
    return s / n
# full range: columns 248 .. 487, row 1024 + b is signed bin b
near = mean(1024 - 120, 1024 - 30, 248, 488)
far = mean(1024 - 900, 1024 - 700, 248, 488)
std_top = mean(0, 1024, 0, 240)
print(f"full range: retina before zero delay {near:.1f}, far from it {far:.1f}; standard above zero delay {std_top:.1f}")
assert near > far + 40, "no retina before zero delay in the full-range image"
assert std_top == 0, "the standard image shows something above zero delay"
PY
echo "fullrange: 2 B-scans, standard and full range side by side, the retina unfolded"
