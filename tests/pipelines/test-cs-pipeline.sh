#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs pipelines/cs.sh for 2 B-scans and checks what it writes: the mask
# (410 of 1024 pixels), the 40 % raw file (410 samples per A-line), one PNG
# per B-scan, 488 x 512 (full-spectrum NUDFT and aooctcs side by side);
# decoded, the retina (rows 60 .. 140) is brighter than the vitreous far
# below it (rows 350 .. 500) in both halves; again with 30 % (307 pixels
# per A-line: rows of an odd number of 16-bit samples).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../util/aooct-test-png.sh
. "$root/tests/util/aooct-test-png.sh"
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
expect_png_size "$out/cs/bscan-001.png" 488x512
png_to_gray8 "$out/cs/bscan-000.png" "$out/img.raw"
# left the full-spectrum NUDFT, right aooctcs from 40 %: the retina (rows
# 60..139) well above the deep background (rows 350..499) in both
png_means "$out/img.raw" 488 512 "nudft-retina 60 140 0 240" \
  "nudft-deep 350 500 0 240" "cs-retina 60 140 248 488" \
  "cs-deep 350 500 248 488" > "$out/means"
cat "$out/means"
awk '{ m[$1] = $2 }
  END {
    if (!(m["nudft-retina"] > m["nudft-deep"] + 30)) { print "full-spectrum NUDFT: no retina above the background"; exit 1 }
    if (!(m["cs-retina"] > m["cs-deep"] + 30)) { print "aooctcs 40 %: no retina above the background"; exit 1 }
  }' "$out/means"

# 30 %: 307 pixels, an odd row of 614 bytes.  The raw file has no row
# padding; a reader that assumed GStreamer's 4-byte row stride
# (rawvideoparse, which cs.sh used) read garbage: a black right half.
AOOCT_FRACTION=0.3 "$root/pipelines/cs.sh" "$out/cs30" >"$out/log" 2>&1 ||
  { cat "$out/log"; exit 1; }
u=$(grep -vc '^#' "$out/cs30/mask.txt")
[ "$u" = 307 ] || { echo "30 %: mask of $u pixels, expected 307"; exit 1; }
png_to_gray8 "$out/cs30/bscan-001.png" "$out/img30.raw"
png_means "$out/img30.raw" 488 512 "cs-retina 60 140 248 488" \
  "cs-deep 350 500 248 488" > "$out/means30"
cat "$out/means30"
awk '{ m[$1] = $2 }
  END {
    if (!(m["cs-retina"] > m["cs-deep"] + 20)) { print "aooctcs 30 % (odd width): no retina above the background"; exit 1 }
  }' "$out/means30"
echo "cs: 2 B-scans, full-spectrum NUDFT and 40 % aooctcs side by side; 30 % (307 pixels) read right"
