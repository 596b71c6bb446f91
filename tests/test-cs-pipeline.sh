#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs pipelines/cs.sh for 2 B-scans and checks what it writes: the mask
# (410 of 1024 pixels), the 40 % raw file (410 samples per A-line), one PNG
# per B-scan, 488 x 512 (full-spectrum NUDFT and aooctcs side by side);
# decoded, the retina (rows 60 .. 140) is brighter than the vitreous far
# below it (rows 350 .. 500) in both halves.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export AOOCT_SKIP_BOOTSTRAP=1 AOOCT_BSCANS=2

"$root/pipelines/cs.sh" "$out/cs" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
names=$(cd "$out/cs" && ls bscan-*.png | tr '\n' ' ')
[ "$names" = "bscan-000.png bscan-001.png " ] || { echo "files: $names"; exit 1; }
u=$(grep -vc '^#' "$out/cs/mask.txt")
[ "$u" = 410 ] || { echo "mask of $u pixels, expected 410"; exit 1; }
bytes=$(stat -c %s "$out/cs/cs.raw")
[ "$bytes" = $((2 * 240 * 410 * 2)) ] || { echo "cs.raw has $bytes bytes"; exit 1; }
size=$(od -An -tu1 -j16 -N8 "$out/cs/bscan-001.png" | awk '{print $3*256+$4 "x" $7*256+$8}')
[ "$size" = "488x512" ] || { echo "PNG is $size, expected 488x512"; exit 1; }
gst-launch-1.0 -q filesrc location="$out/cs/bscan-000.png" ! pngdec \
  ! videoconvert ! video/x-raw,format=GRAY8 ! filesink location="$out/img.raw"
python3 - "$out/img.raw" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
w = 488
stride = (w + 3) // 4 * 4
assert len(d) == stride * 512, len(d)
def mean(r0, r1, c0, c1):
    s = n = 0
    for r in range(r0, r1):
        row = d[r * stride:(r + 1) * stride]
        s += sum(row[c0:c1]); n += c1 - c0
    return s / n
for name, c0 in (("full-spectrum NUDFT", 0), ("aooctcs 40 %", 248)):
    retina = mean(60, 140, c0, c0 + 240)
    deep = mean(350, 500, c0, c0 + 240)
    print(f"{name}: retina {retina:.1f}, deep {deep:.1f}")
    assert retina > deep + 30, f"{name}: no retina above the background"
PY
echo "cs: 2 B-scans, full-spectrum NUDFT and 40 % aooctcs side by side"
