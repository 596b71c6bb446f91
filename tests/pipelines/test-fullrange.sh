#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs pipelines/fullrange.sh for 2 B-scans and checks what it writes: one
# PNG per B-scan, 488 x 2048 (the standard image and the full-range one
# side by side); decoded, the full-range half holds the retina on both
# sides of zero delay (the part before it, bins -120 .. -30, is bright;
# far from the retina, bins -900 .. -700, is dark), and the standard half
# shows nothing above zero delay (it has no negative depths).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../util/aooct-test-png.sh
. "$root/tests/util/aooct-test-png.sh"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export AOOCT_SKIP_BOOTSTRAP=1 AOOCT_BSCANS=2

"$root/pipelines/fullrange.sh" "$out/fr" >"$out/log" 2>&1 || { cat "$out/log"; exit 1; }
names=$(cd "$out/fr" && ls bscan-*.png | tr '\n' ' ')
[ "$names" = "bscan-000.png bscan-001.png " ] || { echo "files: $names"; exit 1; }
expect_png_size "$out/fr/bscan-001.png" 488x2048
png_to_gray8 "$out/fr/bscan-000.png" "$out/img.raw"
# full range: columns 248 .. 487, row 1024 + b is signed bin b; the
# standard image (columns 0 .. 239) has nothing above zero delay
png_means "$out/img.raw" 488 2048 "near 904 994 248 488" \
  "far 124 324 248 488" "std-top 0 1024 0 240" > "$out/means"
cat "$out/means"
awk '{ m[$1] = $2 }
  END {
    if (!(m["near"] > m["far"] + 40)) { print "no retina before zero delay in the full-range image"; exit 1 }
    if (m["std-top"] != 0) { print "the standard image shows something above zero delay"; exit 1 }
  }' "$out/means"
echo "fullrange: 2 B-scans, standard and full range side by side, the retina unfolded"
